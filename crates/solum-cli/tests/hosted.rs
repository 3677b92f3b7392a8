//! Hosted mode end to end: the campaign commands and `solum serve` on a PostgreSQL database
//! (a throw-away server of solum-testpg), named by `--database` or `$SOLUM_DATABASE`. Two
//! servers share the database: a note written through one reaches a live stream held by the
//! other; one server killed with SIGKILL, the other goes on, and `journal verify` re-derives
//! every entry once. A password never shows.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

use solum_testpg::TestPostgres;

fn solum() -> Command {
    let mut c = Command::new(assert_cmd::cargo::cargo_bin("solum"));
    c.env_remove("SOLUM_CAMPAIGN").env_remove("SOLUM_DATABASE");
    c
}

fn run(args: &[&str], db: &str) -> Output {
    solum()
        .args(args)
        .args(["--database", db])
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `solum serve` on `db`: the process, its port and its printed game master invite.
fn serve(db: &str) -> (Killed, u16, String) {
    serve_to(db, Stdio::null())
}

/// [`serve`] with its standard error (the server's log) written to `stderr`.
fn serve_to(db: &str, stderr: impl Into<Stdio>) -> (Killed, u16, String) {
    let mut child = solum()
        .args(["serve", "--addr", "127.0.0.1:0", "--database", db])
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    assert!(!first.contains("s3cret"), "{first}");
    let port = first
        .split("http://127.0.0.1:")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no address in {first:?}"));
    let invite = lines.next().unwrap().unwrap();
    let token = invite.split("#invite=").nth(1).unwrap().to_string();
    (Killed(child), port, token)
}

fn post(port: u16, path: &str, session: Option<&str>, body: &str) -> String {
    let auth = session.map_or_else(String::new, |s| format!("Authorization: Bearer {s}\r\n"));
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
}

#[test]
fn campaign_commands_work_on_a_postgres_database() {
    let server = TestPostgres::shared().unwrap_or_else(|e| panic!("{e}"));
    let db = server.database("cli").unwrap_or_else(|e| panic!("{e}"));
    let note = run(&["note", "the gate is shut"], &db);
    assert!(note.status.success(), "{}", text(&note));
    // $SOLUM_DATABASE names it as well as the flag.
    let show = solum()
        .args(["journal", "show"])
        .env("SOLUM_DATABASE", &db)
        .output()
        .unwrap();
    assert!(show.status.success(), "{}", text(&show));
    assert!(text(&show).contains("the gate is shut"), "{}", text(&show));
    let verify = run(&["journal", "verify"], &db);
    assert!(verify.status.success(), "{}", text(&verify));

    // A hero of the original So1um in the database is a campaign hero for its checks (C1:
    // Body 2 4 6 even thrice is 3; 6 against difficulty 3 passes).
    let new = run(
        &[
            "classic",
            "new",
            "Grok",
            "--cliche",
            "The veteran warrior",
            "--rolled",
            "2,4,6,2,1,3,4,4,1,3,4,1,2",
        ],
        &db,
    );
    assert!(new.status.success(), "{}", text(&new));
    let check = run(
        &[
            "classic", "check", "Grok", "--vs", "3", "--rolled", "6,1,1", "--json",
        ],
        &db,
    );
    assert!(check.status.success(), "{}", text(&check));
    let check: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    assert_eq!(check["name"], "Grok", "{check}");
    assert_eq!(check["check"]["passed"], true, "{check}");
    assert!(check["seq"].as_i64().unwrap() > 0, "{check}");

    // Both ways of naming a campaign at once is refused, saying so.
    let both = solum()
        .args([
            "journal",
            "show",
            "--campaign",
            "x.solum",
            "--database",
            &db,
        ])
        .output()
        .unwrap();
    assert!(!both.status.success());
    assert!(text(&both).contains("give one of them"), "{}", text(&both));

    // A password in the address is never printed, not even when the server cannot be reached.
    let bad = run(&["note", "x"], "postgres://ann:s3cret@127.0.0.1:1/club");
    assert!(!bad.status.success());
    assert!(!text(&bad).contains("s3cret"), "{}", text(&bad));
    assert!(
        text(&bad).contains("cannot reach the database"),
        "{}",
        text(&bad)
    );
}

#[test]
fn two_servers_share_one_database_live() {
    let server = TestPostgres::shared().unwrap_or_else(|e| panic!("{e}"));
    let db = server.database("serve").unwrap_or_else(|e| panic!("{e}"));
    let (a, port_a, invite) = serve(&db);
    let joined = post(
        port_a,
        "/api/join",
        None,
        &format!(r#"{{"invite":"{invite}","name":"Ada"}}"#),
    );
    assert!(joined.starts_with("HTTP/1.1 201"), "{joined}");
    let session = joined
        .split(r#""token":""#)
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_string();
    let (_b, port_b, _) = serve(&db);

    // The session made through A works on B (sessions live in the database), and B's live
    // stream hears of a note written through A.
    let mut live = TcpStream::connect(("127.0.0.1", port_b)).unwrap();
    write!(
        live,
        "GET /api/events?token={session} HTTP/1.1\r\nHost: 127.0.0.1:{port_b}\r\n\r\n"
    )
    .unwrap();
    live.set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    let mut wait_for = |live: &mut TcpStream, needle: &str, seen: &mut Vec<u8>| {
        while !String::from_utf8_lossy(seen).contains(needle) {
            let n = live
                .read(&mut buf)
                .unwrap_or_else(|e| panic!("{needle} did not reach B's stream: {e}"));
            assert!(n > 0, "the stream ended: {}", String::from_utf8_lossy(seen));
            seen.extend_from_slice(&buf[..n]);
        }
    };
    wait_for(&mut live, "HTTP/1.1 200", &mut seen);
    for i in 0..3 {
        let note = format!("note {i} through A");
        let answer = post(
            port_a,
            "/api/notes",
            Some(&session),
            &format!(r#"{{"text":"{note}"}}"#),
        );
        assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
        wait_for(&mut live, &note, &mut seen);
    }
    // In table order: each note's event id is its table number.
    let got = String::from_utf8_lossy(&seen).to_string();
    let ids: Vec<i64> = got
        .lines()
        .filter_map(|l| l.strip_prefix("id: "))
        .filter_map(|n| n.trim().parse().ok())
        .collect();
    assert_eq!(ids, vec![1, 2, 3], "{got}");

    // A dies without a word; B goes on with the same session.
    let mut a = a;
    a.0.kill().unwrap();
    let answer = post(
        port_b,
        "/api/notes",
        Some(&session),
        r#"{"text":"after A died"}"#,
    );
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    wait_for(&mut live, "after A died", &mut seen);
    drop(a);

    // Every acknowledged note is in the table's journal once. (The table is the campaign's
    // own, table 0, which the command line reads.)
    let show = run(&["journal", "export", "--format", "json"], &db);
    let shown = text(&show);
    for needle in [
        "note 0 through A",
        "note 1 through A",
        "note 2 through A",
        "after A died",
    ] {
        assert_eq!(shown.matches(needle).count(), 1, "{needle}: {shown}");
    }
    let verify = run(&["journal", "verify"], &db);
    assert!(verify.status.success(), "{}", text(&verify));
}

// ---------------------------------------------------------------------------------------
// Many servers: a table made by `solum table new`, live rolls across servers, a server
// killed in a burst, concurrent edits of one sheet.
// ---------------------------------------------------------------------------------------

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// An HTTP answer: its status, its `Retry-After` (seconds) and its body.
struct Answer {
    status: u16,
    retry_after: Option<u64>,
    body: String,
}

impl Answer {
    fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

/// Why a request got no answer: nothing was sent (the server is gone), or it was sent and
/// the connection broke before the answer (the request may or may not have been done).
#[derive(Debug)]
enum Failed {
    NotSent,
    NoAnswer,
}

/// One request on a fresh connection: `METHOD path` with `body` (JSON) as `session`.
fn request(
    port: u16,
    method: &str,
    path: &str,
    session: Option<&str>,
    body: Option<&str>,
) -> Result<Answer, Failed> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).map_err(|_| Failed::NotSent)?;
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let auth = session.map_or_else(String::new, |s| format!("Authorization: Bearer {s}\r\n"));
    let body = body.unwrap_or("");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream
        .write_all(head.as_bytes())
        .map_err(|_| Failed::NotSent)?;
    let mut raw = String::new();
    stream
        .read_to_string(&mut raw)
        .map_err(|_| Failed::NoAnswer)?;
    let (head, body) = raw.split_once("\r\n\r\n").ok_or(Failed::NoAnswer)?;
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or(Failed::NoAnswer)?;
    let retry_after = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("retry-after:")
                .map(|v| v.trim().to_string())
        })
        .and_then(|v| v.parse().ok());
    Ok(Answer {
        status,
        retry_after,
        body: body.to_string(),
    })
}

/// A change as the page makes it: sent again after `Retry-After` when the server answers
/// 429 (a rate limit) or 503 (busy), nothing having been written; sent to the next server
/// when one cannot be reached. `Err` when the connection broke after the request was sent
/// (whether it was done is unknown: the page would tell the player, not send it again).
fn change(
    ports: &[u16],
    first: usize,
    method: &str,
    path: &str,
    session: &str,
    body: &str,
) -> Result<Answer, Failed> {
    let started = Instant::now();
    let mut at = first;
    loop {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "{method} {path} {body}: no answer in 2 minutes"
        );
        match request(
            ports[at % ports.len()],
            method,
            path,
            Some(session),
            Some(body),
        ) {
            Ok(a) if a.status == 429 || a.status == 503 => {
                std::thread::sleep(Duration::from_secs(a.retry_after.unwrap_or(1).min(5)));
            }
            Ok(a) => return Ok(a),
            Err(Failed::NotSent) => {
                at += 1;
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(Failed::NoAnswer) => return Err(Failed::NoAnswer),
        }
    }
}

/// `solum table new NAME --json` on `db`: the table's id and its game master invite.
fn table_new(db: &str, name: &str) -> (i64, String) {
    let made = run(&["table", "new", name, "--json"], db);
    assert!(made.status.success(), "{}", text(&made));
    let v: serde_json::Value = serde_json::from_slice(&made.stdout).unwrap();
    assert_eq!(v["table_name"], name);
    assert_eq!(v["role"], "gm");
    let token = v["invite"].as_str().unwrap().to_string();
    assert_eq!(
        v["link"].as_str().unwrap(),
        format!("http://127.0.0.1:7373/#invite={token}")
    );
    (v["table"].as_i64().unwrap(), token)
}

/// Uses `invite` on the server at `port` as `name`; the session token.
fn join(port: u16, invite: &str, name: &str) -> String {
    let joined = request(
        port,
        "POST",
        "/api/join",
        None,
        Some(&format!(r#"{{"invite":"{invite}","name":"{name}"}}"#)),
    )
    .unwrap();
    assert_eq!(joined.status, 201, "{}", joined.body);
    joined.json()["token"].as_str().unwrap().to_string()
}

/// A player invite made by the game master `gm` through `port`.
fn player_invite(port: u16, gm: &str) -> String {
    let inv = request(
        port,
        "POST",
        "/api/invites",
        Some(gm),
        Some(r#"{"role":"player"}"#),
    )
    .unwrap();
    assert!(inv.status == 200 || inv.status == 201, "{}", inv.body);
    inv.json()["token"].as_str().unwrap().to_string()
}

/// One event of a live stream: its id (the table's number) and its data.
#[derive(Debug, Clone)]
struct Event {
    id: i64,
    data: String,
}

/// A live client as a browser's `EventSource` is: it reads the stream of the server at
/// `ports[0]`; when the stream breaks it reconnects (to the next server if one cannot be
/// reached) with `Last-Event-ID`, its last number. It stops once it has read entry `until`
/// (while `until` is 0, it goes on) or after two minutes.
fn follow(ports: Vec<u16>, session: String, until: Arc<AtomicI64>) -> Vec<Event> {
    let started = Instant::now();
    let mut events: Vec<Event> = Vec::new();
    let mut at = 0usize;
    let mut reconnects = 0;
    'connect: loop {
        let last = events.last().map_or(0, |e| e.id);
        let stop = until.load(Ordering::SeqCst);
        if (stop > 0 && last >= stop) || started.elapsed() > Duration::from_secs(120) {
            return events;
        }
        let port = ports[at % ports.len()];
        let Ok(mut live) = TcpStream::connect(("127.0.0.1", port)) else {
            at += 1;
            std::thread::sleep(Duration::from_millis(50));
            continue;
        };
        reconnects += 1;
        assert!(reconnects < 50, "the stream reconnected 50 times");
        let resume = if last > 0 {
            format!("Last-Event-ID: {last}\r\n")
        } else {
            String::new()
        };
        if write!(
            live,
            "GET /api/events?token={session} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{resume}\r\n"
        )
        .is_err()
        {
            at += 1;
            continue;
        }
        live.set_read_timeout(Some(Duration::from_millis(300)))
            .unwrap();
        let mut pending = String::new();
        let mut id: Option<i64> = None;
        let mut presence = false;
        let mut head = true;
        let mut buf = [0u8; 16 * 1024];
        loop {
            let stop = until.load(Ordering::SeqCst);
            if (stop > 0 && events.last().is_some_and(|e| e.id >= stop))
                || started.elapsed() > Duration::from_secs(120)
            {
                return events;
            }
            match live.read(&mut buf) {
                Ok(0) => continue 'connect,
                Ok(n) => pending.push_str(&String::from_utf8_lossy(&buf[..n])),
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    continue;
                }
                // Reset by a server that died: connect again.
                Err(_) => continue 'connect,
            }
            if head {
                let Some((h, rest)) = pending.split_once("\r\n\r\n") else {
                    continue;
                };
                assert!(h.starts_with("HTTP/1.1 200"), "the stream was refused: {h}");
                pending = rest.to_string();
                head = false;
            }
            // Whole lines only; chunk sizes of the chunked body are lines of their own.
            while let Some((line, rest)) = pending.split_once('\n') {
                let line = line.trim_end_matches('\r').to_string();
                pending = rest.to_string();
                if let Some(n) = line.strip_prefix("id: ") {
                    id = n.trim().parse().ok();
                } else if line == "event: presence" {
                    // Who is present (docs/api.md): no entry, no id.
                    presence = true;
                } else if let Some(data) = line.strip_prefix("data: ") {
                    if std::mem::take(&mut presence) {
                        continue;
                    }
                    let n = id.take().expect("data without an id");
                    events.push(Event {
                        id: n,
                        data: data.to_string(),
                    });
                }
            }
        }
    }
}

#[test]
fn table_new_rolls_through_a_reach_b_live_in_table_order_even_after_b_stops_listening() {
    let server = TestPostgres::shared().unwrap_or_else(|e| panic!("{e}"));
    let db = server.database("live").unwrap_or_else(|e| panic!("{e}"));

    // The text form names the table and the link with its public address.
    let shown = run(
        &[
            "table",
            "new",
            "Side Table",
            "--public-url",
            "https://table.example.org",
        ],
        &db,
    );
    assert!(shown.status.success(), "{}", text(&shown));
    let shown = text(&shown);
    assert!(shown.contains("\"Side Table\" made"), "{shown}");
    assert!(
        shown.contains("Game master: https://table.example.org/#invite="),
        "{shown}"
    );
    let bad = run(&["table", "new", "   "], &db);
    assert_eq!(bad.status.code(), Some(2), "{}", text(&bad));

    let (table, invite) = table_new(&db, "The Convention");
    let (_a, port_a, _) = serve(&db);
    let log_dir = tempfile::tempdir().unwrap();
    let log_b = log_dir.path().join("b.log");
    let (_b, port_b, _) = serve_to(&db, std::fs::File::create(&log_b).unwrap());
    // The invite made by the command line makes its game master on any server.
    let gm = join(port_a, &invite, "Ada");
    let me = request(port_b, "GET", "/api/me", Some(&gm), None).unwrap();
    assert_eq!(me.status, 200, "{}", me.body);
    assert_eq!(me.json()["table"], table, "{}", me.body);
    assert_eq!(me.json()["member"]["role"], "gm", "{}", me.body);

    let until = Arc::new(AtomicI64::new(0));
    let reader = {
        let (session, until) = (gm.clone(), until.clone());
        std::thread::spawn(move || follow(vec![port_b], session, until))
    };
    let ask = |n: usize| {
        let a = change(
            &[port_a],
            0,
            "POST",
            "/api/oracle",
            &gm,
            &format!(r#"{{"question":"Roll {n} through A?"}}"#),
        )
        .unwrap();
        assert_eq!(a.status, 200, "{}", a.body);
        a.json()["seq"].as_i64().unwrap()
    };
    let mut acknowledged: Vec<i64> = (0..5).map(ask).collect();

    // B's listening connection is ended behind its back (as a database restart or a
    // network cut would): B listens again and its feed catches up by the table's number.
    // (A server listens from a thread of its own once it is up: on a loaded machine that
    // can take a moment, so the connection is looked for a while.)
    let mut ended = String::from("0");
    for _ in 0..100 {
        ended = server
            .psql(
                &db,
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
                 WHERE datname = current_database() AND query LIKE 'LISTEN%'",
            )
            .unwrap();
        if ended.trim() != "0" {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert_ne!(
        ended.trim(),
        "0",
        "no listening connection was found in 10 s"
    );
    acknowledged.extend((5..10).map(ask));
    until.store(*acknowledged.last().unwrap(), Ordering::SeqCst);
    let events = reader.join().unwrap();

    // The table's own numbers, from 1, each once, in order, each with its roll.
    assert_eq!(acknowledged, (1..=10).collect::<Vec<i64>>());
    let ids: Vec<i64> = events.iter().map(|e| e.id).collect();
    assert_eq!(ids, acknowledged, "{events:?}");
    for (n, e) in events.iter().enumerate() {
        assert!(e.data.contains(&format!("Roll {n} through A?")), "{e:?}");
    }
    // B said so on its standard error, naming the database without its user or password.
    let log = std::fs::read_to_string(&log_b).unwrap();
    assert!(
        log.lines()
            .any(|l| l.contains("WARN the change feed's connection failed")),
        "{log}"
    );
    assert!(
        !log.contains("s3cret") && !log.contains("postgres@"),
        "{log}"
    );
}

#[test]
fn a_server_killed_in_a_burst_of_rolls_loses_no_acknowledged_entry() {
    const ROLLERS: usize = 4;
    const ROLLS: usize = 30;
    let server = TestPostgres::shared().unwrap_or_else(|e| panic!("{e}"));
    let db = server.database("burst").unwrap_or_else(|e| panic!("{e}"));
    let (table, invite) = table_new(&db, "Burst");
    let (mut a, port_a, _) = serve(&db);
    let (_b, port_b, _) = serve(&db);
    let gm = join(port_a, &invite, "Gia");
    let players: Vec<String> = (0..ROLLERS)
        .map(|n| join(port_b, &player_invite(port_a, &gm), &format!("Player{n}")))
        .collect();

    // Live clients on both servers: the game master on each, every player on one.
    let until = Arc::new(AtomicI64::new(0));
    let readers = follow_on_both_servers([port_a, port_b], &gm, &players, &until);
    // Every stream is open before the burst (each reads the empty journal first).
    std::thread::sleep(Duration::from_millis(500));

    let acked: Arc<Mutex<Vec<(i64, String)>>> = Arc::default();
    let unknown = Arc::new(AtomicUsize::new(0));
    let rollers = roll_in_a_burst([port_a, port_b], &players, ROLLS, &acked, &unknown);
    // SIGKILL in the middle of the burst.
    let started = Instant::now();
    while acked.lock().unwrap().len() < ROLLERS * ROLLS / 3 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the burst stalled"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    a.0.kill().unwrap();
    let killed_after = acked.lock().unwrap().len();
    for r in rollers {
        r.join().unwrap();
    }
    let last = change(
        &[port_b],
        0,
        "POST",
        "/api/notes",
        &gm,
        r#"{"text":"the burst is over"}"#,
    )
    .unwrap();
    assert_eq!(last.status, 201, "{}", last.body);
    let end = last.json()["seq"].as_i64().unwrap();
    until.store(end, Ordering::SeqCst);

    let mut acked = acked.lock().unwrap().clone();
    acked.push((end, "the burst is over".into()));
    acked.sort();
    let unknown = unknown.load(Ordering::SeqCst);
    eprintln!(
        "burst: killed after {killed_after} acknowledged rolls; {} acknowledged in all, {unknown} cut off, last entry {end}",
        acked.len()
    );
    assert!(
        killed_after < ROLLERS * ROLLS,
        "the kill came after the burst"
    );
    assert_eq!(acked.len() + unknown, ROLLERS * ROLLS + 1);
    let seqs: BTreeSet<i64> = acked.iter().map(|(s, _)| *s).collect();
    assert_eq!(seqs.len(), acked.len(), "two answers named one number");
    // Entries cut off by the kill may have been kept or not; every number up to the last
    // is one entry, and at most `unknown` of them were not acknowledged.
    assert!(end as usize >= acked.len() && end as usize <= acked.len() + unknown);

    every_stream_holds_every_acknowledged_entry(readers, &acked, end);

    // The table's journal re-derives every roll, through the server that lived.
    let report = request(port_b, "GET", "/api/journal/verify", Some(&gm), None).unwrap();
    assert_eq!(report.status, 200, "{}", report.body);
    let report = report.json();
    assert_eq!(report["mismatches"], serde_json::json!([]), "{report}");
    assert_eq!(report["entries"], end, "{report}");
    // And from the command line, as an operator checks each table.
    operator_checks_table(&db, table, "Burst", end);
    // Written by two servers at once, the table's export reads back whole.
    export_imports_whole(port_b, &gm, end);
    drop(a);
}

/// A live client's thread, and whether it is the game master's.
type LiveClient = (bool, std::thread::JoinHandle<Vec<Event>>);

/// Live clients on both `ports`, each following the table until entry `until`: the game
/// master on each server, every player on one (alternately the first and the second).
fn follow_on_both_servers(
    [port_a, port_b]: [u16; 2],
    gm: &str,
    players: &[String],
    until: &Arc<AtomicI64>,
) -> Vec<LiveClient> {
    let mut readers = Vec::new();
    for (n, session) in std::iter::once(gm)
        .chain(std::iter::once(gm))
        .chain(players.iter().map(String::as_str))
        .enumerate()
    {
        let ports = if n % 2 == 0 {
            vec![port_a, port_b]
        } else {
            vec![port_b, port_a]
        };
        let (session, until) = (session.to_owned(), until.clone());
        readers.push((
            n < 2,
            std::thread::spawn(move || follow(ports, session, until)),
        ));
    }
    readers
}

/// The burst: each player asks the oracle `rolls` times from a thread of its own, through
/// either server (`change` goes to the other when one cannot be reached); each acknowledged
/// roll lands in `acked` with its question, each cut off is counted in `unknown`.
fn roll_in_a_burst(
    [port_a, port_b]: [u16; 2],
    players: &[String],
    rolls: usize,
    acked: &Arc<Mutex<Vec<(i64, String)>>>,
    unknown: &Arc<AtomicUsize>,
) -> Vec<std::thread::JoinHandle<()>> {
    players
        .iter()
        .enumerate()
        .map(|(p, session)| {
            let (session, acked, unknown) = (session.clone(), acked.clone(), unknown.clone());
            std::thread::spawn(move || {
                for i in 0..rolls {
                    let question = format!("P{p} roll {i}?");
                    match change(
                        &[port_a, port_b],
                        p + i,
                        "POST",
                        "/api/oracle",
                        &session,
                        &format!(r#"{{"question":"{question}"}}"#),
                    ) {
                        Ok(answer) => {
                            assert_eq!(answer.status, 200, "{}", answer.body);
                            let seq = answer.json()["seq"].as_i64().unwrap();
                            acked.lock().unwrap().push((seq, question));
                        }
                        // Cut off by the kill: not acknowledged, not sent again.
                        Err(_) => {
                            unknown.fetch_add(1, Ordering::SeqCst);
                        }
                    }
                }
            })
        })
        .collect()
}

/// Every live stream holds its entries in order, each once (a game master's every number
/// up to `end`), and among them every acknowledged roll with its question.
fn every_stream_holds_every_acknowledged_entry(
    readers: Vec<LiveClient>,
    acked: &[(i64, String)],
    end: i64,
) {
    for (gm_view, reader) in readers {
        let events = reader.join().unwrap();
        let ids: Vec<i64> = events.iter().map(|e| e.id).collect();
        // In order, each once.
        assert!(
            ids.windows(2).all(|w| w[0] < w[1]),
            "out of order or doubled: {ids:?}"
        );
        if gm_view {
            assert_eq!(
                ids,
                (1..=end).collect::<Vec<i64>>(),
                "a game master's stream"
            );
        }
        for (seq, question) in acked {
            let e = events
                .iter()
                .find(|e| e.id == *seq)
                .unwrap_or_else(|| panic!("entry {seq} ({question}) missing: {ids:?}"));
            assert!(
                e.data.contains(question.as_str()),
                "{e:?} is not {question}"
            );
        }
    }
}

#[test]
fn fifty_concurrent_edits_of_one_sheet_over_two_servers_are_all_kept() {
    const EDITS: usize = 50;
    let server = TestPostgres::shared().unwrap_or_else(|e| panic!("{e}"));
    let db = server.database("edits").unwrap_or_else(|e| panic!("{e}"));
    let (_, invite) = table_new(&db, "Edits");
    let (_a, port_a, _) = serve(&db);
    let (_b, port_b, _) = serve(&db);
    let gm = join(port_a, &invite, "Gia");
    let made = change(
        &[port_b],
        0,
        "POST",
        "/api/characters",
        &gm,
        r#"{"name":"Nick","body":3,"mind":2,"charm":1,"backgrounds":["Sailor"],"weapon":{"name":"dagger","class":"light"},"armor_name":"leather"}"#,
    )
    .unwrap();
    assert_eq!(made.status, 201, "{}", made.body);

    // Each edit adds one thing of its own, so that every kept edit shows on the sheet: 20
    // pieces of gear and 19 weapons (the limit of each list is 20, the dagger is one) and 11
    // backgrounds (a game master's correction).
    let edit = |i: usize| -> (String, &'static str, String) {
        match i {
            0..20 => (
                format!(r#"{{"add_gear":[{{"name":"gear{i}","effect":"enables"}}]}}"#),
                "gear",
                format!("gear{i}"),
            ),
            20..39 => (
                format!(r#"{{"add_weapons":[{{"name":"weapon{i}","class":"light"}}]}}"#),
                "weapons",
                format!("weapon{i}"),
            ),
            _ => (
                format!(r#"{{"add_backgrounds":["Background{i}"],"correction":true}}"#),
                "backgrounds",
                format!("Background{i}"),
            ),
        }
    };
    let go = Arc::new(std::sync::Barrier::new(EDITS));
    let editors: Vec<_> = (0..EDITS)
        .map(|i| {
            let (gm, go, (body, _, _)) = (gm.clone(), go.clone(), edit(i));
            std::thread::spawn(move || {
                go.wait();
                let a = change(
                    &[port_a, port_b],
                    i,
                    "PATCH",
                    "/api/characters/Nick",
                    &gm,
                    &body,
                )
                .unwrap();
                assert_eq!(a.status, 200, "edit {i}: {}", a.body);
            })
        })
        .collect();
    for e in editors {
        e.join().unwrap();
    }

    let sheet = request(port_a, "GET", "/api/characters/Nick", Some(&gm), None).unwrap();
    assert_eq!(sheet.status, 200, "{}", sheet.body);
    let sheet = sheet.json();
    let c = &sheet["character"];
    for i in 0..EDITS {
        let (_, list, name) = edit(i);
        let found = c[list].as_array().unwrap().iter().any(|v| {
            v.as_str() == Some(name.as_str()) || v["name"].as_str() == Some(name.as_str())
        });
        assert!(
            found,
            "edit {i} ({name}) was acknowledged but is not on the sheet: {c}"
        );
    }
    assert_eq!(c["gear"].as_array().unwrap().len(), 20, "{c}");
    assert_eq!(c["weapons"].as_array().unwrap().len(), 20, "{c}");

    // Each edit is one journal entry, and the sheet re-derives from them.
    let report = request(port_b, "GET", "/api/journal/verify", Some(&gm), None).unwrap();
    let report = report.json();
    assert_eq!(report["mismatches"], serde_json::json!([]), "{report}");
    assert_eq!(
        report["sheet_mismatches"],
        serde_json::json!([]),
        "{report}"
    );
    assert_eq!(report["entries"], EDITS + 1, "{report}");
}

/// A live stream of `session` opened on the server at `port`, once its answer's head says
/// 200; reads time out after `timeout`.
fn open_stream(port: u16, session: &str, timeout: Duration) -> TcpStream {
    let mut live = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        live,
        "GET /api/events?token={session} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
    )
    .unwrap();
    live.set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 1024];
    while !String::from_utf8_lossy(&seen).contains("\r\n\r\n") {
        let n = live.read(&mut buf).unwrap();
        assert!(
            n > 0,
            "the stream ended: {}",
            String::from_utf8_lossy(&seen)
        );
        seen.extend_from_slice(&buf[..n]);
    }
    let head = String::from_utf8_lossy(&seen).to_string();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    live.set_read_timeout(Some(timeout)).unwrap();
    live
}

#[test]
fn a_logout_through_one_server_is_refused_by_the_other_before_its_cache_forgets() {
    let server = TestPostgres::shared().unwrap_or_else(|e| panic!("{e}"));
    let db = server.database("logout").unwrap_or_else(|e| panic!("{e}"));
    let (_table, invite) = table_new(&db, "The Door");
    let (_a, port_a, _) = serve(&db);
    let (_b, port_b, _) = serve(&db);
    let gm = join(port_a, &invite, "Ada");
    let leaving = join(port_a, &player_invite(port_a, &gm), "Bo");

    // B's change feed runs (streams are open there), so B keeps the sessions it found for a
    // while (sessions.rs: 10 s) instead of a query per request.
    let _gm_stream = open_stream(port_b, &gm, Duration::from_secs(5));
    let mut leaving_stream = open_stream(port_b, &leaving, Duration::from_secs(5));
    std::thread::sleep(Duration::from_millis(500));
    for _ in 0..3 {
        let me = request(port_b, "GET", "/api/me", Some(&leaving), None).unwrap();
        assert_eq!(me.status, 200, "{}", me.body);
    }

    let out = request(port_a, "POST", "/api/logout", Some(&leaving), None).unwrap();
    assert_eq!(out.status, 204, "{}", out.body);
    let logged_out = Instant::now();

    // B refuses the session well inside its cache's 10 s bound and the streams' 30 s
    // re-check (told by the database's notification).
    loop {
        let me = request(port_b, "GET", "/api/me", Some(&leaving), None).unwrap();
        if me.status == 401 {
            break;
        }
        assert_eq!(me.status, 200, "{}", me.body);
        assert!(
            logged_out.elapsed() < Duration::from_secs(5),
            "B still took the session {:?} after the logout through A",
            logged_out.elapsed()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // And the session's stream on B has ended (its chunked body's last chunk came, or the
    // connection closed), well inside the 30 s re-check.
    let mut buf = [0u8; 4096];
    let mut tail = Vec::new();
    loop {
        match leaving_stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                tail.extend_from_slice(&buf[..n]);
                if tail.ends_with(b"\r\n0\r\n\r\n") || tail.starts_with(b"0\r\n\r\n") {
                    break;
                }
            }
            Err(e) => panic!("the logged-out session's stream on B did not end: {e}"),
        }
        assert!(
            logged_out.elapsed() < Duration::from_secs(15),
            "the logged-out session's stream on B is still open"
        );
    }
    assert!(
        logged_out.elapsed() < Duration::from_secs(15),
        "the stream ended only {:?} after the logout",
        logged_out.elapsed()
    );
    // The game master's session is untouched on both servers.
    for port in [port_a, port_b] {
        let me = request(port, "GET", "/api/me", Some(&gm), None).unwrap();
        assert_eq!(me.status, 200, "{}", me.body);
    }
}

#[test]
fn nothing_polls_per_stream_while_the_tables_are_idle() {
    const SESSIONS: usize = 6;
    const STREAMS_EACH: usize = 4;
    let server = TestPostgres::shared().unwrap_or_else(|e| panic!("{e}"));
    let db = server.database("idle").unwrap_or_else(|e| panic!("{e}"));
    let (_table, invite) = table_new(&db, "The Quiet Inn");
    let (_a, port, _) = serve(&db);
    let gm = join(port, &invite, "Ada");
    let mut sessions = vec![gm.clone()];
    for n in 1..SESSIONS {
        sessions.push(join(port, &player_invite(port, &gm), &format!("P{n}")));
    }
    let mut streams = Vec::new();
    for s in &sessions {
        for _ in 0..STREAMS_EACH {
            streams.push(open_stream(port, s, Duration::from_secs(5)));
        }
    }
    // Let what the opening did settle, then note the database's clock.
    std::thread::sleep(Duration::from_millis(500));
    let since = server.psql(&db, "SELECT clock_timestamp()").unwrap();
    std::thread::sleep(Duration::from_secs(5));
    // Every connection of the server that ran a statement since (a connection's
    // `state_change` is when its last statement started or ended). The streams' sessions are
    // re-checked every 30 s, one query per session, not per stream: that look may fall in
    // the window and is the only one allowed.
    let busy = server
        .psql(
            &db,
            &format!(
                "SELECT count(*) || ': ' || coalesce(string_agg(query, ' | '), '')
                 FROM pg_stat_activity
                 WHERE datname = current_database() AND pid <> pg_backend_pid()
                   AND state_change > '{}'::timestamptz
                   AND query NOT LIKE '%FROM sessions s JOIN members m%'",
                since.trim()
            ),
        )
        .unwrap();
    assert_eq!(
        busy.trim(),
        "0:",
        "{} streams open over 5 idle seconds: connections ran statements",
        streams.len()
    );
    drop(streams);
}

/// A use case that groups its own writes (a check rolled from a sheet: who may roll it and
/// the roll, together) runs inside the server's group of writes on PostgreSQL: it is answered
/// as it landed, once, and it neither commits nor undoes its neighbours. Then every
/// connection of the database is cut (as a restart of PostgreSQL would): the server's writer
/// connects again, and writes are answered and kept again at once, never refused for good.
#[test]
fn a_sheet_check_is_answered_as_it_landed_and_writes_resume_after_the_database_cuts_them() {
    let server = TestPostgres::shared().unwrap_or_else(|e| panic!("{e}"));
    let db = server.database("regroup").unwrap_or_else(|e| panic!("{e}"));
    let (_table, invite) = table_new(&db, "Regroup");
    let log_dir = tempfile::tempdir().unwrap();
    let log = log_dir.path().join("a.log");
    let (_a, port, _) = serve_to(&db, std::fs::File::create(&log).unwrap());
    let gm = join(port, &invite, "Ada");
    let made = request(
        port,
        "POST",
        "/api/characters",
        Some(&gm),
        Some(
            r#"{"name":"Nick","body":3,"mind":2,"charm":1,"backgrounds":["Tower Climber"],"weapon":{"name":"dagger","class":"light"},"armor_name":"leather"}"#,
        ),
    )
    .unwrap();
    assert_eq!(made.status, 201, "{}", made.body);
    let mut seqs = vec![made.json()["seq"].as_i64().unwrap()];
    for n in 0..3 {
        let check = request(
            port,
            "POST",
            "/api/characters/Nick/check",
            Some(&gm),
            Some(r#"{"attribute":"body","background":"Tower Climber","against":{"difficulty":4}}"#),
        )
        .unwrap();
        assert_eq!(check.status, 200, "check {n}: {}", check.body);
        seqs.push(check.json()["seq"].as_i64().unwrap());
        let note = request(
            port,
            "POST",
            "/api/notes",
            Some(&gm),
            Some(&format!(r#"{{"text":"after check {n}"}}"#)),
        )
        .unwrap();
        assert_eq!(note.status, 201, "note {n}: {}", note.body);
        seqs.push(note.json()["seq"].as_i64().unwrap());
    }
    // Each acknowledged write is in the journal once, nothing else is.
    let stored = server
        .psql(&db, "SELECT string_agg(table_seq::text, ',' ORDER BY table_seq) FROM journal WHERE table_id <> 0")
        .unwrap();
    let expected: Vec<String> = seqs.iter().map(i64::to_string).collect();
    assert_eq!(stored.trim(), expected.join(","));

    // A live stream open across the cut stays open and carries what comes after it.
    let mut live = open_stream(port, &gm, Duration::from_secs(20));
    // Reads at once, so that several of the server's request threads keep a connection.
    let reads_at_once = |what: &str| {
        let answers: Vec<_> = std::thread::scope(|s| {
            let readers: Vec<_> = (0..8)
                .map(|_| {
                    s.spawn(|| {
                        (0..3)
                            .map(|_| request(port, "GET", "/api/journal", Some(&gm), None).unwrap())
                            .map(|r| (r.status, r.body))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            readers
                .into_iter()
                .flat_map(|r| r.join().unwrap())
                .collect()
        });
        for (status, body) in answers {
            assert_eq!(
                status,
                200,
                "a read {what}: {body}\n{}",
                std::fs::read_to_string(&log).unwrap()
            );
        }
    };
    reads_at_once("before the cut");
    // Every connection but psql's own is ended behind the server's back.
    let cut = || {
        let ended = server
            .psql(
                &db,
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
                 WHERE datname = current_database() AND pid <> pg_backend_pid()",
            )
            .unwrap();
        assert_ne!(ended.trim(), "0");
    };
    cut();
    // As across a restart (which takes longer than this), the server's kept connections
    // sit idle past the cut: a request thread asks one that sat idle 100 ms or more
    // whether it still works before using it, and the writer begins again on a new
    // connection when its kept one cannot begin. So the first requests after the cut,
    // reads and writes, are answered as if nothing happened (no 503 asking to try again).
    std::thread::sleep(Duration::from_millis(300));
    reads_at_once("after the cut");
    // Cut again at once: the kept connections were used within 100 ms, so none is asked
    // before use; a read that finds its connection ended runs again on a new one.
    cut();
    reads_at_once("right after the second cut");
    for n in 0..4 {
        let note = request(
            port,
            "POST",
            "/api/notes",
            Some(&gm),
            Some(&format!(r#"{{"text":"after the cut {n}"}}"#)),
        )
        .unwrap();
        assert_eq!(
            note.status,
            201,
            "note {n} after the cut: {}\n{}",
            note.body,
            std::fs::read_to_string(&log).unwrap()
        );
    }
    for n in 0..3 {
        let note = request(
            port,
            "POST",
            "/api/notes",
            Some(&gm),
            Some(&format!(r#"{{"text":"later {n}"}}"#)),
        )
        .unwrap();
        assert_eq!(note.status, 201, "{}", note.body);
    }
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(&seen).contains("later 2") {
        let n = live.read(&mut buf).unwrap_or_else(|e| {
            panic!(
                "the stream did not carry the notes: {e}: {}",
                String::from_utf8_lossy(&seen)
            )
        });
        assert!(
            n > 0,
            "the stream ended at the cut: {}",
            String::from_utf8_lossy(&seen)
        );
        seen.extend_from_slice(&buf[..n]);
    }
}

/// What an operator runs from the command line on table `table` (named `name`, `end`
/// entries long): `table list` shows it, `journal verify --table ID` re-derives all of it and
/// `journal export --table ID` writes each of its entries once, in order.
fn operator_checks_table(db: &str, table: i64, name: &str, end: i64) {
    let listed = run(&["table", "list", "--json"], db);
    assert!(listed.status.success(), "{}", text(&listed));
    let listed: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
    let row = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == table)
        .unwrap_or_else(|| panic!("table {table} is not listed: {listed}"));
    assert_eq!(row["name"], name, "{listed}");
    assert_eq!(row["entries"], end, "{listed}");
    let verify = run(
        &["journal", "verify", "--json", "--table", &table.to_string()],
        db,
    );
    assert!(verify.status.success(), "{}", text(&verify));
    let verified: serde_json::Value = serde_json::from_slice(&verify.stdout).unwrap();
    assert_eq!(verified["entries"], end, "{verified}");
    assert_eq!(verified["mismatches"], serde_json::json!([]), "{verified}");
    let export = run(
        &[
            "journal",
            "export",
            "--format",
            "json",
            "--table",
            &table.to_string(),
        ],
        db,
    );
    assert!(export.status.success(), "{}", text(&export));
    let export: serde_json::Value = serde_json::from_slice(&export.stdout).unwrap();
    let seqs: Vec<i64> = export["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["seq"].as_i64().unwrap())
        .collect();
    assert_eq!(seqs, (1..=end).collect::<Vec<_>>(), "the table's export");
}

/// The table's JSON export, read through `port` by its game master, imports whole (all `end`
/// entries) into a new campaign: its times never go back, whichever server's clock was read
/// first.
fn export_imports_whole(port_b: u16, gm: &str, end: i64) {
    let export = request(
        port_b,
        "GET",
        "/api/journal/export?format=json",
        Some(gm),
        None,
    )
    .unwrap();
    assert_eq!(export.status, 200, "{}", export.body);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("table.json");
    std::fs::write(&file, dechunked(&export.body)).unwrap();
    let copy = dir.path().join("copy.solum");
    let imported = solum()
        .args(["journal", "import", file.to_str().unwrap(), "--campaign"])
        .arg(&copy)
        .output()
        .unwrap();
    assert!(imported.status.success(), "{}", text(&imported));
    assert!(
        text(&imported).contains(&format!("imported {end} entries")),
        "{}",
        text(&imported)
    );
}

/// A body sent in chunks (`Transfer-Encoding: chunked`, as the export streams), joined.
fn dechunked(body: &str) -> String {
    let mut out = String::new();
    let mut rest = body;
    while let Some((size, after)) = rest.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap();
        if size == 0 {
            break;
        }
        out.push_str(&after[..size]);
        rest = after[size..].trim_start_matches("\r\n");
    }
    out
}
