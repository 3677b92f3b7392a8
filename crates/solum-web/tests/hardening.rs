//! Issue 19, the server's part: the real `solum serve` binary on a loopback port, attacked as a
//! stranger would, with its open-files limit lowered (`prlimit --nofile`) where descriptors
//! are the point. Each test is bounded by timeouts of a few seconds on every read.
//!
//! The binary is built (`cargo build -p solum-cli --bin solum`) before the first test uses
//! it, so a stale one is never tested. The attacker connects from 127.0.0.1; the "fresh
//! client" that must still be served connects from 127.0.0.2 (another address of the
//! loopback network), as another machine on the network would.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The `solum` binary of this build, built once.
fn solum_bin() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let status = Command::new(env!("CARGO"))
                .args(["build", "--quiet", "-p", "solum-cli", "--bin", "solum"])
                .status()
                .expect("running cargo build");
            assert!(status.success(), "cargo build -p solum-cli failed");
            // target/debug/deps/hardening-HASH → target/debug/solum
            let exe = std::env::current_exe().unwrap();
            let dir = exe.parent().unwrap().parent().unwrap();
            let bin = dir.join(format!("solum{}", std::env::consts::EXE_SUFFIX));
            assert!(bin.exists(), "no solum binary at {}", bin.display());
            bin
        })
        .clone()
}

/// One test at a time: the starvation test keeps the cores busy, and the others must not
/// be timed against it.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A running `solum serve`; killed (by its own process id) when dropped.
struct Serve {
    child: Child,
    addr: SocketAddr,
    campaign: PathBuf,
    _dir: tempfile::TempDir,
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `solum serve` on 127.0.0.1, under `prlimit --nofile=N` when `nofile` is given.
fn serve(nofile: Option<u64>) -> Serve {
    let dir = tempfile::tempdir().unwrap();
    let campaign = dir.path().join("c.solum");
    let mut cmd = match nofile {
        Some(n) => {
            let mut c = Command::new("prlimit");
            c.arg(format!("--nofile={n}:{n}"))
                .arg("--")
                .arg(solum_bin());
            c
        }
        None => Command::new(solum_bin()),
    };
    let mut child = cmd
        .args(["serve", "--addr", "127.0.0.1:0", "--campaign"])
        .arg(&campaign)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("starting solum serve");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let url = first.split(" at ").nth(1).unwrap().trim();
    let addr: SocketAddr = url
        .strip_prefix("http://")
        .unwrap()
        .trim_end_matches('/')
        .parse()
        .unwrap();
    // The rest of the output is not read: keep the pipe drained so the server never blocks.
    std::thread::spawn(move || for _ in lines {});
    Serve {
        child,
        addr,
        campaign,
        _dir: dir,
    }
}

/// A connection from `from` (an address of the loopback network) to `to`, or an error
/// after `timeout`.
fn connect_from(from: Ipv4Addr, to: SocketAddr, timeout: Duration) -> std::io::Result<TcpStream> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4()?;
        socket.bind(SocketAddr::new(IpAddr::V4(from), 0))?;
        let stream = tokio::time::timeout(timeout, socket.connect(to))
            .await
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::TimedOut, "connect"))??;
        stream.into_std()
    })
    .and_then(|s| {
        s.set_nonblocking(false)?;
        Ok(s)
    })
}

const ATTACKER: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 1);
const FRESH: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 2);

/// An answer: status and body.
#[derive(Debug)]
struct Answer {
    status: u16,
    head: String,
    body: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {} {}", self.head, self.body))
    }
}

/// One request on a new connection (`Connection: close`) from `from`, every step within
/// `timeout`.
fn request(
    srv: &Serve,
    from: Ipv4Addr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
    timeout: Duration,
) -> std::io::Result<Answer> {
    let addr = srv.addr;
    let mut s = connect_from(from, addr, timeout)?;
    s.set_read_timeout(Some(timeout))?;
    s.set_write_timeout(Some(timeout))?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let auth = token.map_or_else(String::new, |t| format!("Authorization: Bearer {t}\r\n"));
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\n{auth}\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw)?;
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| std::io::Error::other(format!("no answer: {text:?}")))?;
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("no status: {head:?}")))?;
    Ok(Answer {
        status,
        head: head.to_string(),
        body: body.to_string(),
    })
}

const T: Duration = Duration::from_secs(5);

/// A new table made from `from`: its game master's session token.
fn new_table(srv: &Serve, from: Ipv4Addr, name: &str) -> String {
    let a = request(
        srv,
        from,
        "POST",
        "/api/tables",
        None,
        Some(&json!({"table": name, "name": "Gm"})),
        T,
    )
    .expect("creating a table");
    assert_eq!(a.status, 201, "{a:?}");
    a.json()["token"].as_str().unwrap().to_string()
}

/// A player joined to the table of the game master `gm`: their session token.
fn new_player(srv: &Serve, from: Ipv4Addr, gm: &str, name: &str) -> String {
    let a = request(
        srv,
        from,
        "POST",
        "/api/invites",
        Some(gm),
        Some(&json!({"role": "player"})),
        T,
    )
    .unwrap();
    assert_eq!(a.status, 201, "{a:?}");
    let invite = a.json()["token"].as_str().unwrap().to_string();
    let a = request(
        srv,
        from,
        "POST",
        "/api/join",
        None,
        Some(&json!({"invite": invite, "name": name})),
        T,
    )
    .unwrap();
    assert_eq!(a.status, 201, "{a:?}");
    a.json()["token"].as_str().unwrap().to_string()
}

/// Opens a live stream with `token` from `from` and reads its head: the open connection and
/// the head (status line and headers).
fn open_stream(
    srv: &Serve,
    from: Ipv4Addr,
    token: &str,
    timeout: Duration,
) -> std::io::Result<(TcpStream, String)> {
    let addr = srv.addr;
    let mut s = connect_from(from, addr, timeout)?;
    s.set_read_timeout(Some(timeout))?;
    write!(
        s,
        "GET /api/events?token={token} HTTP/1.1\r\nHost: {addr}\r\n\r\n"
    )?;
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if s.read(&mut byte)? == 0 {
            break;
        }
        head.push(byte[0]);
        if head.len() > 8_192 {
            break;
        }
    }
    Ok((s, String::from_utf8_lossy(&head).into_owned()))
}

/// Reads the stream until the server ends it (the last chunk of its body, or the
/// connection closed): true if it did within `within`.
fn ends_within(s: &mut TcpStream, within: Duration) -> bool {
    let start = Instant::now();
    s.set_read_timeout(Some(Duration::from_millis(250)))
        .unwrap();
    let mut buf = [0u8; 4096];
    let mut seen = Vec::new();
    while start.elapsed() < within {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(n) => {
                seen.extend_from_slice(&buf[..n]);
                if seen.ends_with(b"\r\n0\r\n\r\n") || seen.starts_with(b"0\r\n\r\n") {
                    return true;
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            // A reset is an end too.
            Err(_) => return true,
        }
    }
    false
}

#[test]
fn a_slowloris_at_a_low_descriptor_limit_does_not_lock_out_a_fresh_client() {
    let _alone = one_at_a_time();
    let srv = serve(Some(256));
    // 600 requests that never finish their headers: more than the server's descriptors.
    let mut held = Vec::new();
    for _ in 0..600 {
        match connect_from(ATTACKER, srv.addr, Duration::from_millis(500)) {
            Ok(mut s) => {
                let _ = s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n");
                held.push(s);
            }
            Err(_) => continue,
        }
    }
    eprintln!("{} attacking connections held", held.len());
    // Another machine is served at once: the page and a new table.
    let page = request(&srv, FRESH, "GET", "/", None, None, T)
        .expect("a fresh client must be served during a slowloris");
    assert_eq!(page.status, 200, "{page:?}");
    new_table(&srv, FRESH, "Fresh");
    drop(held);
}

#[test]
fn a_stream_flood_from_one_session_is_refused_and_the_table_stays_open() {
    let _alone = one_at_a_time();
    let srv = serve(Some(256));
    let token = new_table(&srv, ATTACKER, "Flood");
    let mut held = Vec::new();
    let (mut ok, mut refused) = (0, 0);
    for _ in 0..200 {
        match open_stream(&srv, ATTACKER, &token, Duration::from_secs(2)) {
            Ok((s, head)) if head.starts_with("HTTP/1.1 200") => {
                ok += 1;
                held.push(s);
            }
            Ok((s, head)) if head.starts_with("HTTP/1.1 429") => {
                refused += 1;
                assert!(head.to_lowercase().contains("application/json"), "{head}");
                held.push(s);
            }
            // A connection refused or closed at once is fine; one left hanging is not
            // (it would be counted by the fresh client's failure below).
            _ => {}
        }
    }
    assert!(ok >= 1, "the session's own first stream must open");
    assert!(ok <= 8, "{ok} streams from one session were opened");
    assert!(refused > 0, "over-cap streams answer 429");
    // Another machine plays on.
    let fresh = new_table(&srv, FRESH, "Fresh");
    let (_s, head) = open_stream(&srv, FRESH, &fresh, T).expect("a fresh client's stream");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let me = request(&srv, FRESH, "GET", "/api/me", Some(&fresh), None, T).unwrap();
    assert_eq!(me.status, 200, "{me:?}");
    drop(held);
}

/// An expression whose exact odds take about a second of a debug build and little memory.
const EXPENSIVE: &str = "450d20";

#[test]
fn expensive_odds_at_four_tables_do_not_starve_another_tables_rolls() {
    let _alone = one_at_a_time();
    let srv = serve(None);
    // Four tables, two sessions each, loop the expensive odds.
    let mut loopers = Vec::new();
    for t in 0..4 {
        let gm = new_table(&srv, ATTACKER, &format!("Heavy {t}"));
        let player = new_player(&srv, ATTACKER, &gm, "Pat");
        loopers.push(gm);
        loopers.push(player);
    }
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let done = std::sync::Arc::new(AtomicUsize::new(0));
    let srv = std::sync::Arc::new(srv);
    let threads: Vec<_> = loopers
        .into_iter()
        .map(|token| {
            let (stop, done, srv) = (stop.clone(), done.clone(), srv.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let body = json!({"expression": EXPENSIVE});
                    let a = request(
                        &srv,
                        ATTACKER,
                        "POST",
                        "/api/odds",
                        Some(&token),
                        Some(&body),
                        Duration::from_secs(30),
                    );
                    if matches!(a, Ok(ref a) if a.status == 200) {
                        done.fetch_add(1, Ordering::Relaxed);
                    } else {
                        std::thread::sleep(Duration::from_millis(50));
                    }
                }
            })
        })
        .collect();
    // Another table rolls 1d6 while they run.
    let player = new_table(&srv, FRESH, "Quiet");
    std::thread::sleep(Duration::from_millis(1_500));
    let mut failed = Vec::new();
    for _ in 0..12 {
        let a = request(
            &srv,
            FRESH,
            "POST",
            "/api/roll",
            Some(&player),
            Some(&json!({"expression": "1d6"})),
            Duration::from_secs(10),
        )
        .unwrap();
        if a.status != 200 {
            failed.push(format!("{} {}", a.status, a.body));
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    stop.store(true, Ordering::Relaxed);
    for t in threads {
        t.join().unwrap();
    }
    assert!(
        done.load(Ordering::Relaxed) > 0,
        "the heavy tables got no odds at all"
    );
    assert!(failed.is_empty(), "1d6 rolls refused: {failed:?}");
}

#[test]
fn logging_out_ends_the_sessions_live_stream() {
    let _alone = one_at_a_time();
    let srv = serve(None);
    let token = new_table(&srv, ATTACKER, "Out");
    let (mut stream, head) = open_stream(&srv, ATTACKER, &token, T).unwrap();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let out = request(&srv, ATTACKER, "POST", "/api/logout", Some(&token), None, T).unwrap();
    assert_eq!(out.status, 204, "{out:?}");
    assert!(
        ends_within(&mut stream, Duration::from_secs(15)),
        "the stream outlived the logout"
    );
    // The documented header: a stream is never stored by a cache.
    assert!(
        head.to_lowercase().contains("cache-control: no-store"),
        "{head}"
    );
}

#[test]
fn an_expired_sessions_live_stream_ends() {
    let _alone = one_at_a_time();
    let srv = serve(None);
    let token = new_table(&srv, ATTACKER, "Idle");
    let (mut stream, head) = open_stream(&srv, ATTACKER, &token, T).unwrap();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    // The session was last used 31 days ago (past the 30 days of `SESSION_IDLE_DAYS`).
    let db = rusqlite::Connection::open(&srv.campaign).unwrap();
    db.busy_timeout(Duration::from_secs(5)).unwrap();
    let long_ago = jiff_now() - 31 * 86_400;
    let n = db
        .execute("UPDATE sessions SET last_used = ?1", [long_ago])
        .unwrap();
    assert_eq!(n, 1);
    drop(db);
    // A note by someone else wakes the table's streams; the poll would too.
    assert!(
        ends_within(&mut stream, Duration::from_secs(15)),
        "the stream outlived its session"
    );
}

fn jiff_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        .try_into()
        .unwrap()
}

/// The accept loop of `solum serve` ([`solum_web::serve_on`]) in this process, with short
/// timeouts, on 127.0.0.1; stopped when the returned sender is dropped.
fn serve_in_process(
    tune: impl FnOnce(&mut solum_web::Config),
) -> (
    SocketAddr,
    tempfile::TempDir,
    tokio::sync::oneshot::Sender<()>,
) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    drop(solum_store_sqlite::SqliteStore::open(&path, solum_store::Scope::HOME).unwrap());
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let addr = listener.local_addr().unwrap();
    let mut config = solum_web::Config::new(&path);
    config.allowed_hosts = Some(vec![addr.to_string()]);
    tune(&mut config);
    let state = solum_web::AppState::new(config);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            solum_web::serve_on(listener, state, async move {
                let _ = stopped.await;
            })
            .await
            .unwrap();
        });
    });
    (addr, dir, stop)
}

/// Reads until the server closes the connection: what it sent, or `None` if it did not
/// close within `within`.
fn read_until_closed(s: &mut TcpStream, within: Duration) -> Option<String> {
    let start = Instant::now();
    s.set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    while start.elapsed() < within {
        match s.read(&mut buf) {
            Ok(0) => return Some(String::from_utf8_lossy(&seen).into_owned()),
            Ok(n) => seen.extend_from_slice(&buf[..n]),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => return Some(String::from_utf8_lossy(&seen).into_owned()),
        }
    }
    None
}

#[test]
fn slow_headers_slow_bodies_idle_connections_and_a_crowd_from_one_address_are_cut_off() {
    let _alone = one_at_a_time();
    let (addr, _dir, _stop) = serve_in_process(|c| {
        c.header_read_timeout = Duration::from_millis(300);
        c.body_read_timeout = Duration::from_millis(300);
        c.idle_timeout = Duration::from_millis(800);
        c.max_connections_per_peer = 4;
    });
    // Headers that never end: closed after the header-read timeout.
    let mut slow = TcpStream::connect(addr).unwrap();
    slow.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap();
    assert!(
        read_until_closed(&mut slow, Duration::from_secs(20)).is_some(),
        "half-sent headers kept the connection"
    );
    // A body that never comes: 408.
    let mut trickle = TcpStream::connect(addr).unwrap();
    write!(
        trickle,
        "POST /api/tables HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\n\
         Content-Type: application/json\r\nContent-Length: 40\r\n\r\n{{\"ta"
    )
    .unwrap();
    let answer = read_until_closed(&mut trickle, Duration::from_secs(20)).expect("closed");
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains(r#"{"error":"#), "{answer}");
    assert!(answer.contains(r#""code":"body-timeout""#), "{answer}");
    // A body cut off (the client stops sending before its length): 400, unreadable.
    let mut cut = TcpStream::connect(addr).unwrap();
    write!(
        cut,
        "POST /api/tables HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\n\
         Content-Type: application/json\r\nContent-Length: 40\r\n\r\n{{\"ta"
    )
    .unwrap();
    cut.shutdown(std::net::Shutdown::Write).unwrap();
    let answer = read_until_closed(&mut cut, Duration::from_secs(20)).expect("closed");
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert!(answer.contains(r#""code":"body-unreadable""#), "{answer}");
    // A kept-alive connection left idle: answered, then closed.
    let mut idle = TcpStream::connect(addr).unwrap();
    write!(idle, "GET / HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let answer = read_until_closed(&mut idle, Duration::from_secs(20)).expect("closed when idle");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // Five at once from one address: the fifth is closed without an answer, the first
    // four are served.
    let mut four: Vec<TcpStream> = (0..4).map(|_| TcpStream::connect(addr).unwrap()).collect();
    std::thread::sleep(Duration::from_millis(100));
    let mut fifth = TcpStream::connect(addr).unwrap();
    assert_eq!(
        read_until_closed(&mut fifth, Duration::from_secs(10)).as_deref(),
        Some(""),
        "a connection over the cap is closed at once"
    );
    for s in &mut four {
        write!(
            s,
            "GET / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let answer = read_until_closed(s, Duration::from_secs(20)).expect("answered");
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    }
}

/// The header-read timeout runs from a request's first byte, not from the last answer: a
/// kept-alive connection quiet for longer than it (but not the idle timeout) still takes
/// the next request, so a client that reuses it then loses nothing. A connection that sends
/// nothing at all is still closed after the header-read timeout.
#[test]
fn a_kept_alive_connection_waits_the_idle_timeout_not_the_header_timeout() {
    let _alone = one_at_a_time();
    let (addr, _dir, _stop) = serve_in_process(|c| {
        c.header_read_timeout = Duration::from_millis(300);
        c.idle_timeout = Duration::from_secs(5);
    });
    let mut kept = TcpStream::connect(addr).unwrap();
    kept.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut reader = std::io::BufReader::new(kept.try_clone().unwrap());
    for round in 0..3 {
        write!(kept, "GET / HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
        let mut status = String::new();
        std::io::BufRead::read_line(&mut reader, &mut status).unwrap();
        assert!(
            status.starts_with("HTTP/1.1 200"),
            "round {round}: {status:?}"
        );
        // The rest of the answer: headers, then a body of Content-Length bytes.
        let mut length = 0;
        loop {
            let mut line = String::new();
            std::io::BufRead::read_line(&mut reader, &mut line).unwrap();
            if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse().unwrap();
            }
            if line == "\r\n" {
                break;
            }
        }
        let mut body = vec![0; length];
        std::io::Read::read_exact(&mut reader, &mut body).unwrap();
        // Quiet for longer than the header timeout.
        std::thread::sleep(Duration::from_millis(700));
    }
    // A body sent after `100 Continue` (curl's way for bodies over 1 KB) starts no head's
    // clock either: the connection still takes a request after a quiet spell.
    let body = "{}";
    write!(
        kept,
        "POST /api/tables HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nExpect: 100-continue\r\n\r\n",
        body.len()
    )
    .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(&mut reader, &mut line).unwrap();
    assert!(line.starts_with("HTTP/1.1 100"), "{line:?}");
    std::io::BufRead::read_line(&mut reader, &mut line).unwrap();
    kept.write_all(body.as_bytes()).unwrap();
    let mut answer = String::new();
    loop {
        let mut l = String::new();
        std::io::BufRead::read_line(&mut reader, &mut l).unwrap();
        answer.push_str(&l);
        if l == "\r\n" {
            break;
        }
    }
    let length: usize = answer
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length:")
                .map(|v| v.trim().parse().unwrap())
        })
        .unwrap();
    let mut rest = vec![0; length];
    std::io::Read::read_exact(&mut reader, &mut rest).unwrap();
    std::thread::sleep(Duration::from_millis(700));
    write!(kept, "GET / HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut status = String::new();
    std::io::BufRead::read_line(&mut reader, &mut status).unwrap();
    assert!(
        status.starts_with("HTTP/1.1 200"),
        "after the POST: {status:?} ({answer})"
    );

    let mut silent = TcpStream::connect(addr).unwrap();
    assert_eq!(
        read_until_closed(&mut silent, Duration::from_secs(15)).as_deref(),
        Some(""),
        "a connection that sends nothing is closed after the header timeout"
    );
}

/// At the cap overall, a new connection pushes out the oldest one that has not sent a whole
/// request head: half-open requests spread over several addresses (each under the cap per
/// address) no longer lock out a client that sends its request at once.
#[test]
fn half_open_requests_filling_the_cap_give_way_to_a_whole_request() {
    let _alone = one_at_a_time();
    let (addr, _dir, _stop) = serve_in_process(|c| {
        // Long enough that none of the half-open ones times out during the test.
        c.header_read_timeout = Duration::from_secs(30);
        c.idle_timeout = Duration::from_secs(30);
        c.max_connections = 24;
        c.max_connections_per_peer = 12;
    });
    // 24 half-open requests from 127.0.0.3 and 127.0.0.4: the cap overall is full.
    let mut held = Vec::new();
    for n in 0..24u8 {
        let from = Ipv4Addr::new(127, 0, 0, 3 + n % 2);
        let mut s = connect_from(from, addr, Duration::from_secs(5)).unwrap();
        s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap();
        held.push(s);
        // In order, so the first is the oldest.
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(200));
    let mut fresh =
        connect_from(Ipv4Addr::new(127, 0, 0, 5), addr, Duration::from_secs(5)).unwrap();
    write!(
        fresh,
        "GET / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let answer = read_until_closed(&mut fresh, Duration::from_secs(20)).expect("answered");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer:.200}");
    // The oldest half-open one made the room: closed without an answer.
    assert_eq!(
        read_until_closed(&mut held[0], Duration::from_secs(20)).as_deref(),
        Some(""),
        "the oldest half-open connection was pushed out"
    );
}
