//! Hosted load (issue 20): an open-loop load generator against running `solum serve`s.
//!
//! Sets up `--tables` tables of `--members` members each through the real flow (a game
//! master creates the table, invites each player, each player joins with their own session),
//! opens every member's live stream (`GET /api/events`), then has every member ask the oracle
//! on a schedule: open loop, each roll sent at its scheduled time whether or not earlier
//! answers came (a member has up to `--conns` connections; a roll that finds none free waits,
//! and that wait counts, since latency runs from the scheduled time). `--rate` rolls a second
//! in all, spread evenly over the members, each member's schedule at its own phase, for
//! `--secs`. `--read-rate` authenticated reads a second go on meanwhile (open loop, the same
//! way: `GET /api/journal?after=…` and `GET /api/characters` in turn). Then the streams are
//! given time to deliver the last entries, and a read phase of `--read-secs` has
//! `--readers` connections read in a closed loop (as fast as answered), streams still open.
//!
//! It reports rolls a second achieved, roll latency p50/p90/p99/max from the scheduled
//! time, delivery latency (the roll's answer received → the entry received on each stream of
//! its table) p50/p99, and reads a second with their p99; and checks that every stream
//! received every entry of its table once and in order (ids 1, 2, 3, … to the table's last
//! acknowledged roll, with nothing missing, doubled or out of order). It exits 1 when a check
//! fails.
//!
//! The servers must lift their rate limits and stream caps (`solum serve --unthrottled`):
//! every client comes from this machine. `--servers` takes any list of base URLs
//! (`http://127.0.0.1:7373,http://127.0.0.1:7374`); members are spread over them in turn, so
//! several servers on one database are measured the same way. A fresh campaign per run: a
//! table's journal must hold only this run's rolls.
//!
//! ```sh
//! cargo build --release -p solum-cli && cargo build --release -p solum-bench --example table_load
//! ulimit -n 20000
//! target/release/solum serve --unthrottled --campaign /tmp/load.solum --addr 127.0.0.1:7373 &
//! target/release/examples/table_load --servers http://127.0.0.1:7373
//! ```

use std::collections::HashMap;
use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1;
use hyper::{Method, Request, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio::sync::Semaphore;

// ---------------------------------------------------------------------------------------
// Options.

struct Opts {
    servers: Vec<Server>,
    tables: usize,
    members: usize,
    rate: f64,
    secs: f64,
    read_rate: f64,
    readers: usize,
    read_secs: f64,
    conns: usize,
    threads: usize,
}

#[derive(Clone)]
struct Server {
    addr: SocketAddr,
    /// The `Host` the server answers to (as given in the URL).
    host: String,
}

const HELP: &str = "table_load [--servers URL,URL…] [--tables 100] [--members 10] [--rate 2000] \
[--secs 60] [--read-rate 200] [--readers 32] [--read-secs 20] [--conns 4] [--threads 2]";

fn parse_opts() -> Result<Opts, String> {
    let mut o = Opts {
        servers: Vec::new(),
        tables: 100,
        members: 10,
        rate: 2_000.0,
        secs: 60.0,
        read_rate: 200.0,
        readers: 32,
        read_secs: 20.0,
        conns: 4,
        threads: 2,
    };
    let mut urls = "http://127.0.0.1:7373".to_string();
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "--help" || flag == "-h" {
            return Err(HELP.into());
        }
        let value = args
            .next()
            .ok_or_else(|| format!("{flag} needs a value\n{HELP}"))?;
        let num = |max: f64| -> Result<f64, String> {
            value
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0 && *v <= max)
                .ok_or_else(|| format!("{flag}: a number from 0 to {max}, got {value:?}"))
        };
        match flag.as_str() {
            "--servers" => urls = value.clone(),
            "--tables" => o.tables = num(10_000.0)? as usize,
            "--members" => o.members = num(1_000.0)? as usize,
            "--rate" => o.rate = num(1e6)?,
            "--secs" => o.secs = num(3_600.0)?,
            "--read-rate" => o.read_rate = num(1e6)?,
            "--readers" => o.readers = num(10_000.0)? as usize,
            "--read-secs" => o.read_secs = num(3_600.0)?,
            "--conns" => o.conns = (num(64.0)? as usize).max(1),
            "--threads" => o.threads = (num(256.0)? as usize).max(1),
            _ => return Err(format!("unknown option {flag}\n{HELP}")),
        }
    }
    if o.tables == 0 || o.members == 0 {
        return Err("--tables and --members: at least 1".into());
    }
    for url in urls.split(',').map(str::trim).filter(|u| !u.is_empty()) {
        let host = url
            .strip_prefix("http://")
            .ok_or_else(|| format!("{url}: only http:// base URLs"))?
            .trim_end_matches('/')
            .to_string();
        let addr = host
            .to_socket_addrs()
            .map_err(|e| format!("{url}: {e}"))?
            .next()
            .ok_or_else(|| format!("{url}: resolves to no address"))?;
        o.servers.push(Server { addr, host });
    }
    if o.servers.is_empty() {
        return Err("--servers: at least one base URL".into());
    }
    Ok(o)
}

// ---------------------------------------------------------------------------------------
// HTTP/1.1 on kept connections.

type Sender = http1::SendRequest<Full<Bytes>>;

async fn connect(server: &Server) -> Result<Sender, String> {
    let tcp = TcpStream::connect(server.addr)
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
    server: &Server,
    method: Method,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> Request<Full<Bytes>> {
    let mut req = Request::builder()
        .method(method)
        .uri(path)
        .header("host", &server.host)
        .header("origin", format!("http://{}", server.host));
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
    req.body(Full::new(body)).expect("a well-formed request")
}

/// Sends `req` on `sender` and reads the whole answer.
async fn exchange(
    sender: &mut Sender,
    req: Request<Full<Bytes>>,
) -> Result<(StatusCode, Bytes), String> {
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

/// A member's connections: at most `--conns` at once, kept between requests.
struct Pool {
    server: Server,
    idle: Mutex<Vec<Sender>>,
    turns: Semaphore,
}

impl Pool {
    fn new(server: Server, conns: usize) -> Self {
        Self {
            server,
            idle: Mutex::new(Vec::new()),
            turns: Semaphore::new(conns),
        }
    }

    async fn send(&self, req: Request<Full<Bytes>>) -> Result<(StatusCode, Bytes), String> {
        let _turn = self.turns.acquire().await.map_err(|e| e.to_string())?;
        let kept = self.idle.lock().expect("pool").pop();
        let mut sender = match kept {
            Some(s) if !s.is_closed() => s,
            _ => connect(&self.server).await?,
        };
        let out = exchange(&mut sender, req).await;
        if out.is_ok() {
            self.idle.lock().expect("pool").push(sender);
        }
        out
    }

    async fn call(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Result<(StatusCode, Value), String> {
        let (status, bytes) = self
            .send(request(&self.server, method, path, token, body))
            .await?;
        let v = serde_json::from_slice(&bytes).map_err(|e| {
            format!(
                "{status}: not JSON ({e}): {}",
                String::from_utf8_lossy(&bytes)
            )
        })?;
        Ok((status, v))
    }
}

// ---------------------------------------------------------------------------------------
// Setup: the real invite flow.

struct Member {
    table: usize,
    token: String,
    pool: Arc<Pool>,
}

async fn created(
    pool: &Pool,
    path: &str,
    token: Option<&str>,
    body: &Value,
) -> Result<Value, String> {
    for _ in 0..50 {
        let (status, v) = pool.call(Method::POST, path, token, Some(body)).await?;
        match status {
            StatusCode::CREATED => return Ok(v),
            StatusCode::TOO_MANY_REQUESTS => tokio::time::sleep(Duration::from_millis(200)).await,
            s => return Err(format!("{path}: {s}: {v}")),
        }
    }
    Err(format!(
        "{path}: still refused by the rate limit (is the server --unthrottled?)"
    ))
}

async fn make_table(o: Arc<Opts>, t: usize) -> Result<Vec<Member>, String> {
    let server_of = |m: usize| o.servers[(t * o.members + m) % o.servers.len()].clone();
    let gm_pool = Arc::new(Pool::new(server_of(0), o.conns));
    let made = created(
        &gm_pool,
        "/api/tables",
        None,
        &json!({ "table": format!("Load table {t}"), "name": format!("GM {t}") }),
    )
    .await?;
    let gm = made["token"].as_str().ok_or("no token")?.to_string();
    let mut members = vec![Member {
        table: t,
        token: gm.clone(),
        pool: gm_pool.clone(),
    }];
    for m in 1..o.members {
        let invite = created(
            &gm_pool,
            "/api/invites",
            Some(&gm),
            &json!({ "role": "player" }),
        )
        .await?;
        let pool = Arc::new(Pool::new(server_of(m), o.conns));
        let joined = created(
            &pool,
            "/api/join",
            None,
            &json!({ "invite": invite["token"], "name": format!("Player {t}-{m}") }),
        )
        .await?;
        if joined["table"] != made["table"] {
            return Err(format!("table {t}: joined another table: {joined}"));
        }
        let token = joined["token"].as_str().ok_or("no token")?.to_string();
        members.push(Member {
            table: t,
            token,
            pool,
        });
    }
    Ok(members)
}

// ---------------------------------------------------------------------------------------
// Live streams: every member's, parsed for their ids only.

/// What one stream received: (id, when), in the order received.
#[derive(Default)]
struct StreamLog {
    received: Vec<(i64, Instant)>,
    error: Option<String>,
}

async fn listen(
    server: Server,
    token: String,
    opened: Arc<Semaphore>,
    stop: Arc<AtomicBool>,
) -> StreamLog {
    let mut log = StreamLog::default();
    let mut sender = match connect(&server).await {
        Ok(s) => s,
        Err(e) => {
            opened.add_permits(1);
            log.error = Some(e);
            return log;
        }
    };
    let req = request(&server, Method::GET, "/api/events", Some(&token), None);
    let resp = match sender.send_request(req).await {
        Ok(r) => r,
        Err(e) => {
            opened.add_permits(1);
            log.error = Some(format!("stream: {e}"));
            return log;
        }
    };
    opened.add_permits(1);
    if resp.status() != StatusCode::OK {
        log.error = Some(format!("stream: {}", resp.status()));
        return log;
    }
    let mut body = resp.into_body();
    let mut buf: Vec<u8> = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let frame = tokio::select! {
            f = body.frame() => f,
            () = tokio::time::sleep(Duration::from_millis(500)) => continue,
        };
        let Some(Ok(frame)) = frame else {
            if !stop.load(Ordering::Relaxed) {
                log.error = Some("stream: ended by the server".into());
            }
            break;
        };
        let Ok(data) = frame.into_data() else {
            continue;
        };
        let now = Instant::now();
        buf.extend_from_slice(&data);
        // Complete events only; the id line is all this needs.
        let mut start = 0;
        while let Some(end) = find(&buf[start..], b"\n\n") {
            let block = &buf[start..start + end];
            for line in block.split(|b| *b == b'\n') {
                if let Some(id) = line.strip_prefix(b"id: ") {
                    match std::str::from_utf8(id).ok().and_then(|s| s.parse().ok()) {
                        Some(id) => log.received.push((id, now)),
                        None => log.error = Some("stream: an id that is no number".into()),
                    }
                }
            }
            start += end + 2;
        }
        buf.drain(..start);
    }
    log
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

// ---------------------------------------------------------------------------------------
// Rolls and reads, on a schedule.

#[derive(Default)]
struct Tally {
    /// Latencies in microseconds, from the scheduled time.
    latencies: Vec<u64>,
    /// Answered 2xx: (table, seq, when answered).
    acked: Vec<(usize, i64, Instant)>,
    errors: HashMap<String, u64>,
}

impl Tally {
    fn error(&mut self, e: String) {
        let key: String = e.chars().take(120).collect();
        *self.errors.entry(key).or_insert(0) += 1;
    }
}

/// Runs `fire(n, scheduled)` for every member at `rate` per member a second, each member
/// at its own phase, from `start` for `secs`; open loop: each call runs on its own task.
async fn schedule<F, Fut>(members: usize, rate_each: f64, start: Instant, secs: f64, fire: F)
where
    F: Fn(usize, u64, Instant) -> Fut + Send + Sync + Clone + 'static,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    if rate_each <= 0.0 || secs <= 0.0 {
        return;
    }
    let interval = Duration::from_secs_f64(1.0 / rate_each);
    let end = start + Duration::from_secs_f64(secs);
    let mut tickers = Vec::new();
    for m in 0..members {
        let fire = fire.clone();
        // Phases spread evenly over one interval.
        let phase = interval.mul_f64(m as f64 / members as f64);
        tickers.push(tokio::spawn(async move {
            let mut calls = Vec::new();
            let mut n = 0u64;
            loop {
                let at = start + phase + interval.mul_f64(n as f64);
                if at >= end {
                    break;
                }
                tokio::time::sleep_until(at.into()).await;
                calls.push(tokio::spawn(fire(m, n, at)));
                n += 1;
            }
            for c in calls {
                let _ = c.await;
            }
        }));
    }
    for t in tickers {
        let _ = t.await;
    }
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn ms(us: u64) -> String {
    format!("{:.1} ms", us as f64 / 1000.0)
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

async fn read_once(member: &Member, after: i64, n: u64) -> Result<(), String> {
    let path = if n.is_multiple_of(2) {
        format!("/api/journal?after={after}")
    } else {
        "/api/characters".to_string()
    };
    let (status, _) = member
        .pool
        .send(request(
            &member.pool.server,
            Method::GET,
            &path,
            Some(&member.token),
            None,
        ))
        .await?;
    if status.is_success() {
        Ok(())
    } else {
        Err(format!("{path}: {status}"))
    }
}

// ---------------------------------------------------------------------------------------

fn main() {
    let opts = match parse_opts() {
        Ok(o) => Arc::new(o),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(opts.threads)
        .enable_all()
        .build()
        .expect("a runtime");
    let ok = runtime.block_on(run(opts));
    std::process::exit(if ok { 0 } else { 1 });
}

async fn run(o: Arc<Opts>) -> bool {
    let clients = o.tables * o.members;
    println!(
        "table_load: {} tables × {} members = {clients} clients on {} server(s); load average {}",
        o.tables,
        o.members,
        o.servers.len(),
        loadavg()
    );
    let began = Instant::now();
    let Some(members) = set_up(&o).await else {
        return false;
    };
    let members = Arc::new(members);
    println!(
        "setup: {} tables, {} sessions through invites in {:.1} s",
        o.tables,
        members.len(),
        began.elapsed().as_secs_f64()
    );
    let (streams, stop) = open_streams(&o, &members).await;
    let (rolls, reads, targets, rolled_in) = roll_phase(&o, &members).await;
    let load_after_rolls = loadavg();
    // The streams deliver the last entries meanwhile: they are checked only after the read
    // phase (and this pause), far past the delivery latencies measured.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (phase, read_took) = read_phase(&o, &members, &targets).await;
    let load_after_reads = loadavg();
    stop.store(true, Ordering::Relaxed);
    let mut logs = Vec::with_capacity(clients);
    for (table, s) in streams {
        match s.await {
            Ok(log) => logs.push((table, log)),
            Err(e) => logs.push((
                table,
                StreamLog {
                    received: Vec::new(),
                    error: Some(e.to_string()),
                },
            )),
        }
    }

    let mut ok = report_rolls(&rolls, rolled_in);
    ok &= check_streams(&o, &rolls, &logs, &targets);
    ok &= report_reads(&o, &reads, &phase, rolled_in, read_took);
    println!("load average after the rolls {load_after_rolls}, after the reads {load_after_reads}");
    ok
}

/// Makes every table (16 at a time): its members, or `None` when the setup failed.
async fn set_up(o: &Arc<Opts>) -> Option<Vec<Member>> {
    let clients = o.tables * o.members;
    let mut members: Vec<Member> = Vec::with_capacity(clients);
    let gate = Arc::new(Semaphore::new(16));
    let mut made = Vec::new();
    for t in 0..o.tables {
        let (o, gate) = (o.clone(), gate.clone());
        made.push(tokio::spawn(async move {
            let _turn = gate.acquire().await;
            make_table(o, t).await
        }));
    }
    for m in made {
        match m.await {
            Ok(Ok(table)) => members.extend(table),
            Ok(Err(e)) => {
                eprintln!("setup failed: {e}");
                return None;
            }
            Err(e) => {
                eprintln!("setup failed: {e}");
                return None;
            }
        }
    }
    Some(members)
}

/// Opens every member's live stream before the first roll: the streams and the flag that
/// stops them.
async fn open_streams(
    o: &Opts,
    members: &Arc<Vec<Member>>,
) -> (
    Vec<(usize, tokio::task::JoinHandle<StreamLog>)>,
    Arc<AtomicBool>,
) {
    let clients = o.tables * o.members;
    let stop = Arc::new(AtomicBool::new(false));
    let opened = Arc::new(Semaphore::new(0));
    let mut streams = Vec::with_capacity(clients);
    for m in members.iter() {
        streams.push((
            m.table,
            tokio::spawn(listen(
                m.pool.server.clone(),
                m.token.clone(),
                opened.clone(),
                stop.clone(),
            )),
        ));
    }
    let all = u32::try_from(clients).unwrap_or(u32::MAX);
    let _ = opened.acquire_many(all).await;
    // The server answers a stream's headers before its catch-up read: let those end.
    tokio::time::sleep(Duration::from_secs(1)).await;
    println!(
        "streams: {clients} open; load average {}; rolling {} a second for {} s, reading {} a second",
        loadavg(),
        o.rate,
        o.secs,
        o.read_rate
    );

    (streams, stop)
}

/// The roll phase, with the reader mix: the rolls' and the reads' tallies, each table's last
/// entry acknowledged, and the seconds it took.
async fn roll_phase(o: &Opts, members: &Arc<Vec<Member>>) -> (Tally, Tally, Vec<i64>, f64) {
    let clients = o.tables * o.members;
    let rolls = Arc::new(Mutex::new(Tally::default()));
    let reads = Arc::new(Mutex::new(Tally::default()));
    let last_seq: Arc<Vec<AtomicI64>> =
        Arc::new((0..o.tables).map(|_| AtomicI64::new(0)).collect());
    let start = Instant::now() + Duration::from_millis(200);
    let roller = {
        let (members, rolls, last_seq) = (members.clone(), rolls.clone(), last_seq.clone());
        move |m: usize, n: u64, at: Instant| {
            let (members, rolls, last_seq) = (members.clone(), rolls.clone(), last_seq.clone());
            async move {
                let member = &members[m];
                let question = format!("client {m} roll {n}: does the bridge hold?");
                let body = json!({ "question": question, "leaning": "even" });
                let out = member
                    .pool
                    .call(
                        Method::POST,
                        "/api/oracle",
                        Some(&member.token),
                        Some(&body),
                    )
                    .await;
                let now = Instant::now();
                let latency = now.saturating_duration_since(at).as_micros() as u64;
                let mut t = rolls.lock().expect("tally");
                t.latencies.push(latency);
                match out {
                    Ok((status, v)) if status.is_success() => match v["seq"].as_i64() {
                        Some(seq) if v["question"] == question.as_str() => {
                            t.acked.push((member.table, seq, now));
                            last_seq[member.table].fetch_max(seq, Ordering::Relaxed);
                        }
                        _ => t.error(format!("an answer of another roll: {v}")),
                    },
                    Ok((status, v)) => t.error(format!("{status}: {v}")),
                    Err(e) => t.error(e),
                }
            }
        }
    };
    let reader = {
        let (members, reads, last_seq) = (members.clone(), reads.clone(), last_seq.clone());
        move |m: usize, n: u64, at: Instant| {
            let (members, reads, last_seq) = (members.clone(), reads.clone(), last_seq.clone());
            async move {
                let member = &members[m];
                let after = (last_seq[member.table].load(Ordering::Relaxed) - 20).max(0);
                let out = read_once(member, after, n).await;
                let latency = Instant::now().saturating_duration_since(at).as_micros() as u64;
                let mut t = reads.lock().expect("tally");
                t.latencies.push(latency);
                if let Err(e) = out {
                    t.error(e);
                }
            }
        }
    };
    tokio::join!(
        schedule(clients, o.rate / clients as f64, start, o.secs, roller),
        schedule(clients, o.read_rate / clients as f64, start, o.secs, reader),
    );
    let rolled_in = start.elapsed().as_secs_f64().max(o.secs);

    let targets: Vec<i64> = last_seq.iter().map(|a| a.load(Ordering::Relaxed)).collect();
    let rolls = std::mem::take(&mut *rolls.lock().expect("tally"));
    let reads = std::mem::take(&mut *reads.lock().expect("tally"));
    (rolls, reads, targets, rolled_in)
}

/// The read phase with the streams open (closed loop): its tally and the seconds it took.
async fn read_phase(o: &Opts, members: &Arc<Vec<Member>>, targets: &[i64]) -> (Tally, f64) {
    let targets = targets.to_vec();
    let read_phase = Arc::new(Mutex::new(Tally::default()));
    let read_began = Instant::now();
    if o.read_secs > 0.0 && o.readers > 0 {
        let until = read_began + Duration::from_secs_f64(o.read_secs);
        let mut tasks = Vec::new();
        for r in 0..o.readers {
            let (members, read_phase, targets) =
                (members.clone(), read_phase.clone(), targets.clone());
            tasks.push(tokio::spawn(async move {
                let member = &members[(r * 7919) % members.len()];
                let after = (targets[member.table] - 20).max(0);
                let mut n = r as u64;
                let mut mine = Tally::default();
                while Instant::now() < until {
                    let sent = Instant::now();
                    let out = read_once(member, after, n).await;
                    mine.latencies.push(sent.elapsed().as_micros() as u64);
                    if let Err(e) = out {
                        mine.error(e);
                    }
                    n += 1;
                }
                let mut t = read_phase.lock().expect("tally");
                t.latencies.extend(mine.latencies);
                for (k, v) in mine.errors {
                    *t.errors.entry(k).or_insert(0) += v;
                }
            }));
        }
        for t in tasks {
            let _ = t.await;
        }
    }
    let read_took = read_began.elapsed().as_secs_f64();

    let phase = std::mem::take(&mut *read_phase.lock().expect("tally"));
    (phase, read_took)
}

/// Prints the rolls' figures: false when a roll failed.
fn report_rolls(rolls: &Tally, rolled_in: f64) -> bool {
    let mut ok = true;
    let mut lat = rolls.latencies.clone();
    lat.sort_unstable();
    println!(
        "rolls: {} scheduled, {} acknowledged in {:.1} s = {:.0}/s; latency from the scheduled time p50 {} p90 {} p99 {} max {}",
        lat.len(),
        rolls.acked.len(),
        rolled_in,
        rolls.acked.len() as f64 / rolled_in,
        ms(percentile(&lat, 50.0)),
        ms(percentile(&lat, 90.0)),
        ms(percentile(&lat, 99.0)),
        ms(percentile(&lat, 100.0)),
    );
    if !rolls.errors.is_empty() {
        ok = false;
        println!("roll errors: {:?}", rolls.errors);
    }

    ok
}

/// Every stream received every entry of its table once and in order; prints the delivery
/// latencies. False when one did not.
fn check_streams(o: &Opts, rolls: &Tally, logs: &[(usize, StreamLog)], targets: &[i64]) -> bool {
    let mut ok = true;
    // Every table's acknowledged rolls, by number.
    let mut answered: Vec<HashMap<i64, Instant>> = vec![HashMap::new(); o.tables];
    for (table, seq, at) in &rolls.acked {
        if answered[*table].insert(*seq, *at).is_some() {
            ok = false;
            println!("table {table}: entry {seq} acknowledged twice");
        }
    }
    let mut delivery: Vec<u64> = Vec::new();
    let (mut early, mut bad_streams, mut stream_errors) = (0u64, 0usize, 0usize);
    let mut deliveries = 0u64;
    for (table, log) in logs {
        if let Some(e) = &log.error {
            stream_errors += 1;
            if stream_errors <= 5 {
                println!("stream of table {table}: {e}");
            }
        }
        let last = targets[*table];
        let ids: Vec<i64> = log.received.iter().map(|(id, _)| *id).collect();
        // Once, in order, nothing missing: exactly 1..=last (and nothing past the last roll
        // acknowledged but a roll answered after the schedule ended, which there is none).
        let expected: Vec<i64> = (1..=last).collect();
        if ids != expected {
            bad_streams += 1;
            if bad_streams <= 5 {
                let first_bad = ids
                    .iter()
                    .zip(&expected)
                    .position(|(a, b)| a != b)
                    .unwrap_or(ids.len().min(expected.len()));
                println!(
                    "stream of table {table}: received {} entries, expected 1..={last}; first difference at position {first_bad}",
                    ids.len()
                );
            }
        }
        for (id, at) in &log.received {
            deliveries += 1;
            if let Some(answered_at) = answered[*table].get(id) {
                match at.checked_duration_since(*answered_at) {
                    Some(d) => delivery.push(d.as_micros() as u64),
                    None => {
                        // The stream had it before the roll's own answer arrived.
                        early += 1;
                        delivery.push(0);
                    }
                }
            }
        }
    }
    delivery.sort_unstable();
    println!(
        "delivery: {deliveries} entries received on {} streams; answer → stream p50 {} p99 {} max {} ({early} arrived before the roll's answer, counted as 0)",
        logs.len(),
        ms(percentile(&delivery, 50.0)),
        ms(percentile(&delivery, 99.0)),
        ms(percentile(&delivery, 100.0)),
    );
    if bad_streams > 0 || stream_errors > 0 {
        ok = false;
        println!(
            "CHECK FAILED: {bad_streams} streams did not receive every entry of their table once and in order; {stream_errors} stream errors"
        );
    } else {
        println!(
            "check: every stream received every entry of its table once and in order ({} entries in all tables)",
            targets.iter().sum::<i64>()
        );
    }

    ok
}

/// Prints the reads' figures: false when a read failed.
fn report_reads(o: &Opts, reads: &Tally, phase: &Tally, rolled_in: f64, read_took: f64) -> bool {
    let mut rl = reads.latencies.clone();
    rl.sort_unstable();
    println!(
        "reads during the rolls (open loop): {} = {:.0}/s; latency p50 {} p99 {}; errors {:?}",
        rl.len(),
        rl.len() as f64 / rolled_in,
        ms(percentile(&rl, 50.0)),
        ms(percentile(&rl, 99.0)),
        reads.errors
    );
    let mut pl = phase.latencies.clone();
    pl.sort_unstable();
    println!(
        "reads with the streams open ({} readers, closed loop, {:.1} s): {} = {:.0}/s; latency p50 {} p99 {} max {}; errors {:?}",
        o.readers,
        read_took,
        pl.len(),
        pl.len() as f64 / read_took.max(1e-9),
        ms(percentile(&pl, 50.0)),
        ms(percentile(&pl, 99.0)),
        ms(percentile(&pl, 100.0)),
        phase.errors
    );
    reads.errors.is_empty() && phase.errors.is_empty()
}
