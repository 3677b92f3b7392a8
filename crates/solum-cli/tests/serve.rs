//! `solum serve` end to end: it starts, answers on loopback and stops on SIGINT.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn http(addr: &str, request: &str) -> String {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
}

#[test]
fn serve_starts_answers_on_loopback_and_stops_on_sigint() {
    let dir = tempfile::tempdir().unwrap();
    let campaign = dir.path().join("c.solum");
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("solum"))
        .args(["serve", "--addr", "127.0.0.1:0", "--campaign"])
        .arg(&campaign)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let url = first.split(" at ").nth(1).unwrap().trim().to_string();
    let addr = url
        .strip_prefix("http://")
        .unwrap()
        .trim_end_matches('/')
        .to_string();
    assert!(addr.starts_with("127.0.0.1:"), "{first}");
    let invite = lines.next().unwrap().unwrap();
    let token = invite.split("#invite=").nth(1).unwrap().to_string();
    assert_eq!(token.len(), 64);

    let page = http(
        &addr,
        &format!("GET / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
    );
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(
        page.to_lowercase()
            .contains("content-security-policy: default-src 'none'")
    );
    assert!(page.contains("<script type=\"module\" src=\"/js/app.js\""));

    // The printed invite makes its holder the game master of the campaign's own table,
    // which the command line sees.
    let body = format!(r#"{{"invite":"{token}","name":"Ada"}}"#);
    let joined = http(
        &addr,
        &format!(
            "POST /api/join HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    );
    assert!(joined.starts_with("HTTP/1.1 201"), "{joined}");
    assert!(joined.contains(r#""table":0"#) && joined.contains(r#""role":"gm""#));

    // A live stream is open when the server is told to stop: it must not hold the stop.
    let session = joined
        .split(r#""token":""#)
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_string();
    let mut live = TcpStream::connect(&addr).unwrap();
    live.write_all(
        format!("GET /api/events?token={session} HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes(),
    )
    .unwrap();
    live.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut head = [0u8; 64];
    let n = live.read(&mut head).unwrap();
    assert!(String::from_utf8_lossy(&head[..n]).starts_with("HTTP/1.1 200"));

    // A note written by the command line (another process on the same file) reaches the
    // open stream: the server's watcher sees the file change.
    let out = Command::new(assert_cmd::cargo::cargo_bin("solum"))
        .args(["note", "written at the command line", "--campaign"])
        .arg(&campaign)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(&seen).contains("written at the command line") {
        let n = live
            .read(&mut buf)
            .expect("the note reached the stream within 10 s");
        assert!(
            n > 0,
            "the stream ended: {}",
            String::from_utf8_lossy(&seen)
        );
        seen.extend_from_slice(&buf[..n]);
    }
    assert!(
        String::from_utf8_lossy(&seen).contains("id: 1"),
        "{}",
        String::from_utf8_lossy(&seen)
    );

    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .unwrap()
            .success()
    );
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "serve did not stop"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}");
    let rest: Vec<String> = lines.map(Result::unwrap).collect();
    assert!(rest.iter().any(|l| l == "solum serve: stopped"), "{rest:?}");
    assert!(TcpStream::connect(&addr).is_err(), "still listening");
}

#[test]
fn serve_refuses_a_bad_address_and_a_file_that_is_not_a_campaign() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(assert_cmd::cargo::cargo_bin("solum"))
        .args(["serve", "--addr", "localhost", "--campaign"])
        .arg(dir.path().join("c.solum"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--addr"));
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "not a database\n".repeat(200)).unwrap();
    let out = Command::new(assert_cmd::cargo::cargo_bin("solum"))
        .args(["serve", "--addr", "127.0.0.1:0", "--campaign"])
        .arg(&notes)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a solum campaign"));
}

/// Starts `solum serve` on the campaign; returns the child, its address and the printed
/// home invite's token and its second line (the expiry).
fn start(campaign: &std::path::Path) -> (std::process::Child, String, String, String) {
    start_at(campaign, "127.0.0.1:0")
}

fn start_at(campaign: &std::path::Path, at: &str) -> (std::process::Child, String, String, String) {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("solum"))
        .args(["serve", "--addr", at, "--campaign"])
        .arg(campaign)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let addr = first
        .split(" at http://")
        .nth(1)
        .unwrap()
        .trim_end_matches('/')
        .to_string();
    let invite = lines.next().unwrap().unwrap();
    let token = invite.split("#invite=").nth(1).unwrap().to_string();
    let expiry = lines.next().unwrap().unwrap();
    (child, addr, token, expiry)
}

fn stop(mut child: std::process::Child) {
    signal(&child, "INT");
    ended(&mut child);
}

fn join(addr: &str, token: &str, name: &str) -> String {
    let body = format!(r#"{{"invite":"{token}","name":"{name}"}}"#);
    http(
        addr,
        &format!(
            "POST /api/join HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    )
}

/// Each start prints a home game master invite that works once and for 15 minutes, and
/// revokes the unused one of the start before: invites no longer pile up.
#[test]
fn each_start_revokes_the_last_home_invite_and_the_new_one_works_once() {
    let dir = tempfile::tempdir().unwrap();
    let campaign = dir.path().join("c.solum");
    let (child, _, first, _) = start(&campaign);
    stop(child);
    let (child, addr, second, expiry) = start(&campaign);
    assert!(expiry.contains("works once, until 20"), "{expiry}");
    let old = join(&addr, &first, "Ada");
    assert!(old.starts_with("HTTP/1.1 403"), "{old}");
    assert!(old.contains("replaced by a newer start"), "{old}");
    assert!(!old.contains("revoked by the game master"), "{old}");
    let new = join(&addr, &second, "Ada");
    assert!(new.starts_with("HTTP/1.1 201"), "{new}");
    let again = join(&addr, &second, "Bo");
    assert!(again.starts_with("HTTP/1.1 403"), "{again}");
    assert!(again.contains("used"), "{again}");
    stop(child);
}

/// `--addr` takes a host name (resolved by the system) and refuses one that resolves to
/// nothing, saying which.
#[test]
fn serve_resolves_a_host_name_and_refuses_one_that_does_not_resolve() {
    let dir = tempfile::tempdir().unwrap();
    let campaign = dir.path().join("c.solum");
    let (child, addr, _, _) = start_at(&campaign, "localhost:0");
    let port = addr.rsplit_once(':').unwrap().1;
    assert_ne!(port, "0", "{addr}");
    let page = http(
        &addr,
        &format!("GET / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
    );
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    stop(child);
    // `.invalid` never resolves (RFC 6761).
    let out = Command::new(assert_cmd::cargo::cargo_bin("solum"))
        .args(["serve", "--addr", "no-such-host.invalid:7373", "--campaign"])
        .arg(&campaign)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--addr") && err.contains("no-such-host.invalid"),
        "{err}"
    );
}

/// Sends `child` the signal named (`INT`, `TERM`).
fn signal(child: &std::process::Child, name: &str) {
    let sent = Command::new("kill")
        .arg(format!("-{name}"))
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(sent.success(), "kill -{name}");
}

/// Waits up to 20 s for `child` to end and gives its exit status.
fn ended(child: &mut std::process::Child) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("serve did not stop");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A service manager or a container runtime stops a server with SIGTERM; and a server
/// started from a script in the background (which inherits SIGINT ignored) still stops on
/// an interrupt sent the moment it prints its address. Both stop cleanly (exit 0).
#[test]
fn serve_stops_on_sigterm_and_on_an_interrupt_sent_at_once_though_started_ignoring_it() {
    let dir = tempfile::tempdir().unwrap();
    let campaign = dir.path().join("c.solum");
    let (mut child, _, _, _) = start(&campaign);
    signal(&child, "TERM");
    assert!(ended(&mut child).success());
    // `trap "" INT` sets SIGINT ignored, and `exec` keeps it so for solum.
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(r#"trap "" INT; exec "$0" serve --addr 127.0.0.1:0 --campaign "$1""#)
        .arg(assert_cmd::cargo::cargo_bin("solum"))
        .arg(&campaign)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    assert!(first.contains(" at http://"), "{first}");
    signal(&child, "INT");
    assert!(ended(&mut child).success());
}

/// An operator's view of a campaign's tables from the command line: `table list` shows a
/// table made by `table new` with its member and its journal's length once a note is
/// written there through the page's API, and `journal export --table ID` is that table's
/// journal alone (the campaign's own table 0 keeps its own).
#[test]
fn a_tables_journal_is_listed_and_exported_by_its_id() {
    let dir = tempfile::tempdir().unwrap();
    let campaign = dir.path().join("c.solum");
    let file = campaign.to_str().unwrap();
    let cli = |args: &[&str]| {
        let out = Command::new(assert_cmd::cargo::cargo_bin("solum"))
            .args(args)
            .args(["--campaign", file])
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    cli(&["note", "at home"]);
    let made: serde_json::Value =
        serde_json::from_str(&cli(&["table", "new", "Friday", "--json"])).unwrap();
    let table = made["table"].as_i64().unwrap();
    let (child, addr, _, _) = start(&campaign);
    let joined = join(&addr, made["invite"].as_str().unwrap(), "Ada");
    let token = joined
        .split(r#""token":""#)
        .nth(1)
        .and_then(|t| t.split('"').next())
        .unwrap_or_else(|| panic!("{joined}"))
        .to_string();
    let body = r#"{"text":"at the table"}"#;
    let note = http(
        &addr,
        &format!(
            "POST /api/notes HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    );
    assert!(note.starts_with("HTTP/1.1 201"), "{note}");
    stop(child);

    let listed: serde_json::Value =
        serde_json::from_str(&cli(&["table", "list", "--json"])).unwrap();
    assert_eq!(
        listed,
        serde_json::json!([
            {"id": 0, "name": "home", "members": 0, "entries": 1},
            {"id": table, "name": "Friday", "members": 1, "entries": 1},
        ])
    );
    let text = cli(&["table", "list"]);
    assert!(
        text.contains("\"Friday\"  1 member(s), 1 entries"),
        "{text}"
    );
    let id = table.to_string();
    let exported = cli(&["journal", "export", "--table", &id]);
    assert!(exported.contains("at the table"), "{exported}");
    assert!(!exported.contains("at home"), "{exported}");
    let home = cli(&["journal", "export"]);
    assert!(
        home.contains("at home") && !home.contains("at the table"),
        "{home}"
    );
    let shown = cli(&["journal", "show", "--table", &id]);
    assert!(shown.contains("at the table"), "{shown}");
    cli(&["journal", "verify", "--table", &id]);
    // A table the campaign does not have: exit 2, naming it and where to look.
    let out = Command::new(assert_cmd::cargo::cargo_bin("solum"))
        .args(["journal", "verify", "--table", "99", "--campaign", file])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no table 99") && err.contains("table list"),
        "{err}"
    );
}
