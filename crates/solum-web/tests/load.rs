//! The web table under load (issue 11): 200 clients at 10 tables against the real server on a
//! loopback port and a real SQLite file in a tempdir, stopping by itself.
//!
//! Each table has a game master and 19 players who joined through invite links, every one
//! with a session of their own. Every client holds its table's live stream open and asks the
//! oracle in a loop (a public roll) for 30 seconds, the figure (`SOLUM_LOAD_SECS`
//! shortens a local run; `cargo test --workspace` runs the full 30). Then it checks: no request failed; each table's journal
//! holds exactly the rolls answered 2xx, matched by sequence number and question (none lost,
//! none doubled); every client received every entry of its table exactly once and in journal
//! order (reconnecting with `Last-Event-ID` when the server drops it, which is counted); and
//! `journal verify` re-derives every roll. It prints requests per second and latency
//! percentiles; `docs/performance.md` records a release run.
//!
//! `cargo test --release -p solum-web --test load -- --nocapture` shows the figures;
//! `SOLUM_LOAD_DIR` names the folder of the campaign's tempdir (the system's by default).
//! A second, smaller run gives each live client a buffer of one wake-up, so that the server
//! drops streams all the time: every entry must still arrive once and in order through the
//! reconnections with `Last-Event-ID`.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1;
use hyper::{Method, Request, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use solum_app::Campaign;
use solum_store::Scope;
use solum_store_sqlite::SqliteStore;
use solum_web::{AppState, Config, serve_on};
use tokio::net::TcpStream;
use tokio::sync::watch;

/// Tables at the server.
const TABLES: usize = 10;
/// Clients per table: a game master and 19 players.
const PER_TABLE: usize = 20;

/// The shape of a run.
struct Load {
    tables: usize,
    per_table: usize,
    secs: f64,
    /// The live clients' buffer (`Config::live_buffer`).
    live_buffer: usize,
}
/// Seconds of rolling when `SOLUM_LOAD_SECS` is not set: the 30, also in CI (about
/// 40 s of a debug `cargo test --workspace` that took 114 s with a 10-second run).
const DEFAULT_SECS: f64 = 30.0;
/// How long the streams may take, after the last roll, to deliver the last entries.
const CATCH_UP: Duration = Duration::from_secs(60);

fn roll_secs() -> f64 {
    match std::env::var("SOLUM_LOAD_SECS") {
        Ok(v) => v
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|s| *s > 0.0 && *s <= 3600.0)
            .unwrap_or_else(|| panic!("SOLUM_LOAD_SECS: a number of seconds, got {v:?}")),
        Err(_) => DEFAULT_SECS,
    }
}

/// 200 clients hold some 400 sockets and the server some 600 more plus its SQLite files:
/// more than the 1,024 descriptors a process often starts with.
#[cfg(unix)]
fn raise_descriptor_limit() {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    let want = 8_192u64.min(limit.maximum.unwrap_or(u64::MAX));
    if limit.current.is_some_and(|c| c < want) {
        let mut raised = limit;
        raised.current = Some(want);
        setrlimit(Resource::Nofile, raised).expect("raising the open-files limit");
    }
}

#[cfg(not(unix))]
fn raise_descriptor_limit() {}

// ---------------------------------------------------------------------------------------
// The server: the real router on a loopback port, as `solum serve` runs it.

struct Server {
    _dir: tempfile::TempDir,
    addr: SocketAddr,
    path: PathBuf,
    state: AppState,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    stopped: std::sync::mpsc::Receiver<()>,
}

/// Starts the server on its own runtime and threads (as `solum serve` has), so that the
/// clients' work and the server's are scheduled apart.
fn start_server(live_buffer: usize) -> Server {
    // `SOLUM_LOAD_DIR` puts the campaign elsewhere, e.g. on a RAM disk to see what the
    // server does when a commit costs no disk flush.
    let dir = match std::env::var_os("SOLUM_LOAD_DIR") {
        Some(d) => tempfile::tempdir_in(d).unwrap(),
        None => tempfile::tempdir().unwrap(),
    };
    let path = dir.path().join("campaign.solum");
    // `solum serve` opens the campaign (and migrates it) before it listens.
    drop(SqliteStore::open(&path, solum_store::Scope::HOME).unwrap());
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let addr = listener.local_addr().unwrap();
    let mut config = Config::new(&path);
    config.live_buffer = live_buffer;
    // Every client is on this machine (one address), and each table's twenty clients roll
    // as fast as they are answered: far past a table's write budget and the caps per peer
    // address, which are meant for strangers on a network.
    config.max_connections_per_peer = usize::MAX;
    config.live_per_peer = usize::MAX;
    config.live_per_table = usize::MAX;
    config.live_max = 4 * TABLES * PER_TABLE;
    config.table_write_burst = u32::MAX;
    config.table_writes_per_sec = 1e9;
    config.session_write_burst = u32::MAX;
    config.session_writes_per_sec = 1e9;
    // Every simulated client comes from one loopback address.
    config.peer_write_burst = u32::MAX;
    config.peer_writes_per_sec = 1e9;
    // And each rolls without a pause, past a session's request rate (a person clicks slower):
    // the run measures the write and live paths, not the limiter.
    config.rate_burst = u32::MAX;
    config.rate_per_sec = 1e9;
    config.table_create_burst = u32::MAX;
    config.table_creates_per_sec = 1e9;
    // What `serve` allows on a loopback address.
    config.allowed_hosts = Some(vec![addr.to_string(), format!("localhost:{}", addr.port())]);
    let state = AppState::new(config);
    let (stop, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let (stopped_tx, stopped) = std::sync::mpsc::channel();
    let served = state.clone();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            // The accept loop of `solum serve`, with its timeouts and caps.
            serve_on(listener, served, async move {
                let _ = stop_rx.await;
            })
            .await
            .unwrap();
        });
        let _ = stopped_tx.send(());
    });
    Server {
        _dir: dir,
        addr,
        path,
        state,
        stop: Some(stop),
        stopped,
    }
}

// ---------------------------------------------------------------------------------------
// A small HTTP/1.1 client: one keep-alive connection, requests as the table's page makes them.

async fn connect(addr: SocketAddr) -> Result<http1::SendRequest<Full<Bytes>>, String> {
    let tcp = TcpStream::connect(addr)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let _ = tcp.set_nodelay(true);
    let (sender, conn) = http1::handshake(TokioIo::new(tcp))
        .await
        .map_err(|e| format!("handshake: {e}"))?;
    tokio::spawn(async move {
        let _ = conn.await;
    });
    Ok(sender)
}

fn request(
    addr: SocketAddr,
    method: Method,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> Request<Full<Bytes>> {
    let mut req = Request::builder()
        .method(method)
        .uri(path)
        .header("host", addr.to_string())
        .header("origin", format!("http://{addr}"));
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let body = match body {
        Some(b) => {
            req = req.header("content-type", "application/json");
            Bytes::from(b.to_string())
        }
        None => Bytes::new(),
    };
    req.body(Full::new(body)).unwrap()
}

struct Conn {
    addr: SocketAddr,
    sender: Option<http1::SendRequest<Full<Bytes>>>,
}

impl Conn {
    fn new(addr: SocketAddr) -> Self {
        Self { addr, sender: None }
    }

    /// Sends a request on the kept connection (a new one if the server closed it).
    async fn send(&mut self, req: Request<Full<Bytes>>) -> Result<(StatusCode, Bytes), String> {
        if self.sender.as_ref().is_none_or(|s| s.is_closed()) {
            self.sender = Some(connect(self.addr).await?);
        }
        let sender = self.sender.as_mut().unwrap();
        let sent = async {
            sender.ready().await.map_err(|e| format!("ready: {e}"))?;
            let resp = sender
                .send_request(req)
                .await
                .map_err(|e| format!("send: {e}"))?;
            let status = resp.status();
            let body = resp
                .into_body()
                .collect()
                .await
                .map_err(|e| format!("body: {e}"))?
                .to_bytes();
            Ok((status, body))
        }
        .await;
        if sent.is_err() {
            self.sender = None;
        }
        sent
    }

    async fn call(
        &mut self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Result<(StatusCode, Value), String> {
        let (status, bytes) = self
            .send(request(self.addr, method, path, token, body))
            .await?;
        let value = serde_json::from_slice(&bytes).map_err(|e| {
            format!(
                "{status}: not JSON ({e}): {}",
                String::from_utf8_lossy(&bytes)
            )
        })?;
        Ok((status, value))
    }

    /// A request without a session (creating or joining a table): these share one rate-limit
    /// bucket, so the setup waits out a 429 as the page would.
    async fn anonymous(&mut self, path: &str, body: &Value) -> (Value, u64) {
        let mut throttled = 0;
        loop {
            let (status, v) = self
                .call(Method::POST, path, None, Some(body))
                .await
                .unwrap();
            match status {
                StatusCode::CREATED => return (v, throttled),
                StatusCode::TOO_MANY_REQUESTS => {
                    throttled += 1;
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                s => panic!("{path}: {s}: {v}"),
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// The tables: a game master creates each, invites 19 players, who join from their own
// "browsers" (sessions).

struct Table {
    id: i64,
    /// Session tokens: the game master's first.
    tokens: Vec<String>,
}

async fn make_table(addr: SocketAddr, t: usize, per_table: usize) -> (Table, u64) {
    let mut conn = Conn::new(addr);
    let (created, mut throttled) = conn
        .anonymous(
            "/api/tables",
            &json!({ "table": format!("Table {t}"), "name": format!("GM {t}") }),
        )
        .await;
    let id = created["table"].as_i64().unwrap();
    let gm = created["token"].as_str().unwrap().to_string();
    let mut tokens = vec![gm.clone()];
    for p in 1..per_table {
        let (status, invite) = conn
            .call(
                Method::POST,
                "/api/invites",
                Some(&gm),
                Some(&json!({ "role": "player" })),
            )
            .await
            .unwrap();
        assert_eq!(status, StatusCode::CREATED, "{invite}");
        let (joined, waits) = conn
            .anonymous(
                "/api/join",
                &json!({ "invite": invite["token"], "name": format!("Player {t}-{p}") }),
            )
            .await;
        throttled += waits;
        assert_eq!(joined["table"], id);
        assert_eq!(joined["member"]["role"], "player");
        tokens.push(joined["token"].as_str().unwrap().to_string());
    }
    (Table { id, tokens }, throttled)
}

// ---------------------------------------------------------------------------------------
// Rolling: the oracle in a loop, each question naming its client and count.

#[derive(Default)]
struct RollLog {
    /// Every request's time, answered or not, in microseconds.
    latencies: Vec<u64>,
    /// (sequence number, question) of every roll answered 2xx.
    acked: Vec<(i64, String)>,
    /// 429 answers (the documented rate limit).
    throttled: u64,
    /// Anything else that went wrong.
    errors: Vec<String>,
}

async fn roll(addr: SocketAddr, token: String, who: String, until: Instant) -> RollLog {
    let mut conn = Conn::new(addr);
    let mut log = RollLog::default();
    let mut n = 0u64;
    while Instant::now() < until {
        n += 1;
        let question = format!("{who} roll {n}: does the bridge hold?");
        let leaning = ["even", "advantage", "disadvantage"][(n % 3) as usize];
        let body = json!({ "question": question, "leaning": leaning });
        let start = Instant::now();
        let answer = conn
            .call(Method::POST, "/api/oracle", Some(&token), Some(&body))
            .await;
        log.latencies.push(start.elapsed().as_micros() as u64);
        match answer {
            Ok((status, v)) if status.is_success() => match v["seq"].as_i64() {
                Some(seq) if v["question"] == question.as_str() => log.acked.push((seq, question)),
                _ => log
                    .errors
                    .push(format!("{who}: an answer of another roll: {v}")),
            },
            Ok((StatusCode::TOO_MANY_REQUESTS, _)) => {
                log.throttled += 1;
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            Ok((status, v)) => log.errors.push(format!("{who}: {status}: {v}")),
            Err(e) => log.errors.push(format!("{who}: {e}")),
        }
    }
    log
}

// ---------------------------------------------------------------------------------------
// Listening: the live stream, parsed as server-sent events; reconnects with Last-Event-ID.

#[derive(Default)]
struct StreamLog {
    /// (sequence number, question) of every entry received, in the order received.
    received: Vec<(i64, Option<String>)>,
    /// Streams the server answered 200 (the first, then one per reconnection).
    connects: u32,
    /// Reconnections answered 429 (the documented rate limit), waited out.
    throttled: u64,
    errors: Vec<String>,
}

/// Complete events out of the bytes received so far.
#[derive(Default)]
struct SseParser {
    buf: Vec<u8>,
}

struct SseEvent {
    id: Option<String>,
    event: Option<String>,
    data: Option<String>,
}

impl SseParser {
    fn push(&mut self, chunk: &[u8]) -> Vec<SseEvent> {
        self.buf.extend_from_slice(chunk);
        let mut out = Vec::new();
        while let Some(end) = self.buf.windows(2).position(|w| w == b"\n\n") {
            let block: Vec<u8> = self.buf.drain(..end + 2).collect();
            let text = String::from_utf8_lossy(&block);
            let mut ev = SseEvent {
                id: None,
                event: None,
                data: None,
            };
            for line in text.lines() {
                let (field, value) = line.split_once(':').unwrap_or((line, ""));
                let value = value.strip_prefix(' ').unwrap_or(value).to_string();
                match field {
                    "id" => ev.id = Some(value),
                    "event" => ev.event = Some(value),
                    "data" => match &mut ev.data {
                        Some(d) => {
                            d.push('\n');
                            d.push_str(&value);
                        }
                        None => ev.data = Some(value),
                    },
                    _ => {} // a comment (keep-alive) or a field we do not use
                }
            }
            if ev.data.is_some() {
                out.push(ev);
            }
        }
        out
    }
}

/// The last sequence number of each table's journal, once the rolling is over.
type Targets = watch::Receiver<Option<Arc<HashMap<i64, i64>>>>;

fn reached(targets: &Targets, table: i64, last: Option<i64>) -> bool {
    targets
        .borrow()
        .as_ref()
        .and_then(|t| t.get(&table).copied())
        .is_some_and(|target| last.unwrap_or(0) >= target)
}

async fn listen(
    addr: SocketAddr,
    token: String,
    table: i64,
    mut targets: Targets,
    give_up: watch::Receiver<Option<Instant>>,
) -> StreamLog {
    let mut log = StreamLog::default();
    let mut last: Option<i64> = None;
    'connect: loop {
        if reached(&targets, table, last) || give_up.borrow().is_some_and(|g| Instant::now() > g) {
            break;
        }
        let mut sender = match connect(addr).await {
            Ok(s) => s,
            Err(e) => {
                log.errors.push(e);
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let mut req = request(addr, Method::GET, "/api/events", Some(&token), None);
        if let Some(id) = last {
            req.headers_mut()
                .insert("last-event-id", id.to_string().parse().unwrap());
        }
        let resp = match sender.send_request(req).await {
            Ok(r) => r,
            Err(e) => {
                log.errors.push(format!("stream: {e}"));
                continue;
            }
        };
        match resp.status() {
            StatusCode::OK => log.connects += 1,
            StatusCode::TOO_MANY_REQUESTS => {
                log.throttled += 1;
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
            s => {
                log.errors.push(format!("stream: {s}"));
                continue;
            }
        }
        let mut body = resp.into_body();
        let mut parser = SseParser::default();
        loop {
            let deadline = give_up
                .borrow()
                .unwrap_or_else(|| Instant::now() + CATCH_UP * 10);
            tokio::select! {
                frame = body.frame() => match frame {
                    Some(Ok(frame)) => {
                        let Ok(data) = frame.into_data() else { continue };
                        for ev in parser.push(&data) {
                            // Who is present (docs/api.md): no entry, no `id`.
                            if ev.event.as_deref() == Some("presence") {
                                if ev.id.is_some() {
                                    log.errors.push("stream: a presence event with an id".into());
                                }
                                continue;
                            }
                            let entry: Value = match serde_json::from_str(ev.data.as_deref().unwrap_or("")) {
                                Ok(v) => v,
                                Err(e) => {
                                    log.errors.push(format!("stream: data not JSON: {e}"));
                                    continue;
                                }
                            };
                            let seq = entry["seq"].as_i64().unwrap_or(-1);
                            if ev.event.as_deref() != Some("entry") || ev.id != Some(seq.to_string()) {
                                log.errors.push(format!(
                                    "stream: event {:?} id {:?} carries entry {seq}",
                                    ev.event, ev.id
                                ));
                            }
                            log.received.push((seq, entry["question"].as_str().map(str::to_owned)));
                            last = Some(seq);
                        }
                    }
                    Some(Err(e)) => {
                        // Cut off mid-stream: reconnect where we were.
                        log.errors.push(format!("stream cut: {e}"));
                        continue 'connect;
                    }
                    // The server ended the stream (it dropped a slow client): reconnect.
                    None => continue 'connect,
                },
                _ = targets.changed() => {}
                () = tokio::time::sleep_until(deadline.into()) => break 'connect,
            }
            if reached(&targets, table, last) {
                break 'connect;
            }
        }
    }
    log
}

// ---------------------------------------------------------------------------------------
// The journal as the store holds it, read through the store itself (not the server).

struct Stored {
    /// (sequence number, kind, question) in journal order.
    entries: Vec<(i64, String, Option<String>)>,
    verified: solum_app::VerifyReport,
}

fn stored(path: &Path, table: i64) -> Stored {
    let scope = Scope {
        table,
        member: None,
        gm: true,
        secret_writes: false,
    };
    let campaign = Campaign::new(SqliteStore::open(path, scope).unwrap());
    let entries = campaign
        .entries()
        .unwrap()
        .into_iter()
        .map(|e| {
            let v = serde_json::to_value(&e).unwrap();
            (
                e.seq,
                v["kind"].as_str().unwrap_or("").to_string(),
                v["question"].as_str().map(str::to_owned),
            )
        })
        .collect();
    Stored {
        entries,
        verified: campaign.verify().unwrap(),
    }
}

/// The value at quantile `q` of sorted samples (nearest rank).
fn quantile(sorted: &[u64], q: f64) -> u64 {
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn ms(us: u64) -> String {
    format!("{:.1} ms", us as f64 / 1000.0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_clients_at_ten_tables_roll_and_hear_every_roll_once_in_order() {
    let run = run(Load {
        tables: TABLES,
        per_table: PER_TABLE,
        secs: roll_secs(),
        live_buffer: Config::new(std::path::PathBuf::new()).live_buffer,
    })
    .await;
    // Each client rolls far below the rate limit's 20 a second: not one roll is refused.
    assert_eq!(run.throttled, 0, "requests answered 429");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streams_the_server_drops_catch_up_with_last_event_id_and_miss_nothing() {
    let run = run(Load {
        tables: 2,
        per_table: PER_TABLE,
        secs: 3.0,
        live_buffer: 1,
    })
    .await;
    // A buffer of one wake-up fills whenever two rolls come while a stream reads. (Clients
    // reconnecting this often may meet the rate limit, which is counted, not an error.)
    assert!(
        run.reconnects > 0,
        "no stream was dropped: the reconnections went untested"
    );
}

static RUNS: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// What a run leaves to its test to judge.
struct Run {
    /// Streams the server dropped and the clients reopened.
    reconnects: u32,
    /// Rolls and reconnections answered 429.
    throttled: u64,
}

/// Runs the load, checks everything, prints the figures.
async fn run(load: Load) -> Run {
    let Load {
        tables: n_tables,
        per_table,
        secs,
        live_buffer,
    } = load;
    // One run at a time: the figures of one must not carry the other's work.
    let _alone = RUNS.lock().await;
    raise_descriptor_limit();
    let mut server = start_server(live_buffer);
    let addr = server.addr;

    // Ten tables, each a game master and 19 players joined by invite.
    let setup_start = Instant::now();
    let made =
        futures_util::future::join_all((0..n_tables).map(|t| make_table(addr, t, per_table))).await;
    let setup_throttled: u64 = made.iter().map(|(_, w)| w).sum();
    let tables: Vec<Table> = made.into_iter().map(|(t, _)| t).collect();
    let setup_time = setup_start.elapsed();
    let ids: HashSet<i64> = tables.iter().map(|t| t.id).collect();
    assert_eq!(ids.len(), n_tables, "every table has its own number");

    // Every client opens its table's live stream before anyone rolls.
    let (targets_tx, targets_rx) = watch::channel(None);
    let (give_up_tx, give_up_rx) = watch::channel(None);
    let streams = open_streams(&server, &tables, per_table, &targets_rx, &give_up_rx).await;

    // Everyone rolls for the duration.
    let (rolls, elapsed) = roll_for(addr, &tables, secs).await;

    // The journal as stored; then the streams may finish catching up.
    let path = server.path.clone();
    let table_ids: Vec<i64> = tables.iter().map(|t| t.id).collect();
    let journals: HashMap<i64, Stored> = tokio::task::spawn_blocking(move || {
        table_ids
            .into_iter()
            .map(|id| (id, stored(&path, id)))
            .collect()
    })
    .await
    .unwrap();
    let last: HashMap<i64, i64> = journals
        .iter()
        .map(|(id, s)| (*id, s.entries.last().map_or(0, |e| e.0)))
        .collect();
    give_up_tx.send_replace(Some(Instant::now() + CATCH_UP));
    targets_tx.send_replace(Some(Arc::new(last)));
    let catch_up = Instant::now();
    let mut heard: HashMap<i64, Vec<StreamLog>> = HashMap::new();
    for (table, handle) in streams {
        heard.entry(table).or_default().push(handle.await.unwrap());
    }
    let catch_up = catch_up.elapsed();

    // The server stops by itself once told to.
    let live_after = tables
        .iter()
        .map(|t| server.state.hub().clients(t.id))
        .sum::<usize>();
    let _ = server.stop.take().unwrap().send(());
    let stopped = server.stopped.recv_timeout(Duration::from_secs(30)).is_ok();

    let totals = report(
        &load,
        (setup_time, setup_throttled),
        (elapsed, catch_up),
        &rolls,
        &heard,
        &journals,
        server.state.write_groups(),
    );

    // The checks.
    nothing_failed_and_every_answer_was_committed(&totals);
    for table in &tables {
        check_table(
            table.id,
            &journals[&table.id],
            &rolls[&table.id],
            &heard[&table.id],
            per_table,
        );
    }
    assert_eq!(totals.deliveries, totals.entries * per_table);
    assert!(
        stopped,
        "the server did not stop ({live_after} live clients left)"
    );
    Run {
        reconnects: totals.reconnects,
        throttled: totals.throttled + totals.stream_throttled,
    }
}

/// Opens every client's live stream on its table, then waits until the server holds them
/// all (nobody rolls before every stream listens): each stream's table and task.
async fn open_streams(
    server: &Server,
    tables: &[Table],
    per_table: usize,
    targets_rx: &Targets,
    give_up_rx: &watch::Receiver<Option<Instant>>,
) -> Vec<(i64, tokio::task::JoinHandle<StreamLog>)> {
    let addr = server.addr;
    let mut streams = Vec::new();
    for table in tables {
        for token in &table.tokens {
            streams.push((
                table.id,
                tokio::spawn(listen(
                    addr,
                    token.clone(),
                    table.id,
                    targets_rx.clone(),
                    give_up_rx.clone(),
                )),
            ));
        }
    }
    let wait = Instant::now();
    while tables
        .iter()
        .any(|t| server.state.hub().clients(t.id) < per_table)
    {
        assert!(
            wait.elapsed() < Duration::from_secs(60),
            "the live streams did not all open"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    streams
}

/// Every client of every table rolls for `secs` seconds: each table's roll logs, and how
/// long the rolling took.
async fn roll_for(
    addr: SocketAddr,
    tables: &[Table],
    secs: f64,
) -> (HashMap<i64, Vec<RollLog>>, Duration) {
    let start = Instant::now();
    let until = start + Duration::from_secs_f64(secs);
    let mut rollers = Vec::new();
    for (t, table) in tables.iter().enumerate() {
        for (c, token) in table.tokens.iter().enumerate() {
            rollers.push((
                table.id,
                tokio::spawn(roll(addr, token.clone(), format!("t{t} c{c}"), until)),
            ));
        }
    }
    let mut rolls: HashMap<i64, Vec<RollLog>> = HashMap::new();
    for (table, handle) in rollers {
        rolls.entry(table).or_default().push(handle.await.unwrap());
    }
    (rolls, start.elapsed())
}

/// The run's totals: no request and no stream failed, some roll was answered, and every
/// roll answered 2xx was answered from a committed group.
fn nothing_failed_and_every_answer_was_committed(totals: &Totals) {
    let Totals {
        errors,
        stream_errors,
        acked,
        commits,
        grouped,
        ..
    } = totals;
    let (acked, commits, grouped) = (*acked, *commits, *grouped);
    assert!(
        errors.is_empty(),
        "{} requests failed, e.g. {:?}",
        errors.len(),
        &errors[..errors.len().min(10)]
    );
    assert!(
        stream_errors.is_empty(),
        "{} stream errors, e.g. {:?}",
        stream_errors.len(),
        &stream_errors[..stream_errors.len().min(10)]
    );
    assert!(acked > 0, "no roll was answered");
    // Every roll answered 2xx was answered from a committed group.
    assert!(
        grouped >= acked as u64 && commits > 0,
        "{acked} rolls answered, {grouped} writes answered from {commits} commits"
    );
}

/// What the run adds up to, for its checks.
struct Totals {
    errors: Vec<String>,
    stream_errors: Vec<String>,
    acked: usize,
    throttled: u64,
    stream_throttled: u64,
    reconnects: u32,
    deliveries: usize,
    entries: usize,
    commits: u64,
    grouped: u64,
}

/// Prints the run's figures and answers its totals.
fn report(
    load: &Load,
    (setup_time, setup_throttled): (Duration, u64),
    (elapsed, catch_up): (Duration, Duration),
    rolls: &HashMap<i64, Vec<RollLog>>,
    heard: &HashMap<i64, Vec<StreamLog>>,
    journals: &HashMap<i64, Stored>,
    (commits, grouped): (u64, u64),
) -> Totals {
    let Load {
        tables: n_tables,
        per_table,
        secs,
        live_buffer,
    } = *load;
    let logs: Vec<&RollLog> = rolls.values().flatten().collect();
    let mut latencies: Vec<u64> = logs
        .iter()
        .flat_map(|l| l.latencies.iter().copied())
        .collect();
    latencies.sort_unstable();
    let requests = latencies.len();
    let acked: usize = logs.iter().map(|l| l.acked.len()).sum();
    let throttled: u64 = logs.iter().map(|l| l.throttled).sum();
    let errors: Vec<String> = logs.iter().flat_map(|l| l.errors.clone()).collect();
    let stream_logs: Vec<&StreamLog> = heard.values().flatten().collect();
    let reconnects: u32 = stream_logs
        .iter()
        .map(|s| s.connects.saturating_sub(1))
        .sum();
    let dropped_clients = stream_logs.iter().filter(|s| s.connects > 1).count();
    let stream_errors: Vec<String> = stream_logs.iter().flat_map(|s| s.errors.clone()).collect();
    let stream_throttled: u64 = stream_logs.iter().map(|s| s.throttled).sum();
    let deliveries: usize = stream_logs.iter().map(|s| s.received.len()).sum();
    let entries: usize = journals.values().map(|s| s.entries.len()).sum();
    println!("web table under load:");
    println!(
        "  {n_tables} tables x {per_table} clients ({} sessions), live buffer {live_buffer}, setup {:.1} s ({setup_throttled} joins waited out the anonymous rate limit)",
        n_tables * per_table,
        setup_time.as_secs_f64()
    );
    println!(
        "  rolling {secs} s (measured {:.2} s): {requests} requests, {:.0} req/s, {acked} answered 2xx, {throttled} 429, {} errors",
        elapsed.as_secs_f64(),
        requests as f64 / elapsed.as_secs_f64(),
        errors.len()
    );
    if requests > 0 {
        println!(
            "  latency: p50 {}, p90 {}, p99 {}, p99.9 {}, max {}",
            ms(quantile(&latencies, 0.50)),
            ms(quantile(&latencies, 0.90)),
            ms(quantile(&latencies, 0.99)),
            ms(quantile(&latencies, 0.999)),
            ms(*latencies.last().unwrap())
        );
    }
    println!(
        "  journal: {entries} entries checked, re-derived by verify; streams: {deliveries} deliveries checked ({:.0}/s), last caught up {:.2} s after the last roll",
        deliveries as f64 / (elapsed + catch_up).as_secs_f64(),
        catch_up.as_secs_f64()
    );
    println!(
        "  stream drops: {reconnects} reconnections with Last-Event-ID by {dropped_clients} clients ({stream_throttled} answered 429 and waited); stream errors {}",
        stream_errors.len()
    );
    println!(
        "  commits: {commits} for {grouped} journaled writes ({:.1} writes a commit)",
        grouped as f64 / commits.max(1) as f64
    );
    Totals {
        errors,
        stream_errors,
        acked,
        throttled,
        stream_throttled,
        reconnects,
        deliveries,
        entries,
        commits,
        grouped,
    }
}

/// One table's journal holds exactly the rolls answered 2xx, each once, and verifies; each
/// of its clients heard every entry, once, in journal order.
fn check_table(
    table: i64,
    journal: &Stored,
    rolls: &[RollLog],
    streams: &[StreamLog],
    per_table: usize,
) {
    // Exactly the rolls answered 2xx: the same sequence numbers with the same questions,
    // each once; and nothing else in this table's journal.
    let mut answered: Vec<(i64, String)> =
        rolls.iter().flat_map(|l| l.acked.iter().cloned()).collect();
    answered.sort();
    let mut kept: Vec<(i64, String)> = journal
        .entries
        .iter()
        .map(|(seq, kind, q)| {
            assert_eq!(kind, "oracle", "table {}: entry {seq} is a {kind}", table);
            (*seq, q.clone().unwrap_or_default())
        })
        .collect();
    kept.sort();
    assert_eq!(
        kept.len(),
        answered.len(),
        "table {}: the journal holds {} rolls, {} were answered",
        table,
        kept.len(),
        answered.len()
    );
    assert!(
        kept == answered,
        "table {}: journal and answers differ",
        table
    );
    let questions: HashSet<&String> = kept.iter().map(|(_, q)| q).collect();
    assert_eq!(
        questions.len(),
        kept.len(),
        "table {}: a roll is journaled twice",
        table
    );
    assert_eq!(journal.verified.entries, kept.len());
    assert_eq!(journal.verified.rolls, kept.len());
    assert!(
        journal.verified.mismatches.is_empty(),
        "table {}: {:?}",
        table,
        journal.verified.mismatches
    );

    // Every client heard every entry of its table, once, in journal order.
    let expected: Vec<(i64, Option<String>)> = journal
        .entries
        .iter()
        .map(|(seq, _, q)| (*seq, q.clone()))
        .collect();
    assert_eq!(streams.len(), per_table);
    for (c, s) in streams.iter().enumerate() {
        assert!(
            s.received == expected,
            "table {} client {c}: heard {} entries (first {:?}, last {:?}), the journal holds {} (last {:?})",
            table,
            s.received.len(),
            s.received.first().map(|e| e.0),
            s.received.last().map(|e| e.0),
            expected.len(),
            expected.last().map(|e| e.0)
        );
    }
}
