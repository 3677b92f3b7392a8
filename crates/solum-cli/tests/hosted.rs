//! Hosted mode end to end: the campaign commands and `solum serve` on a PostgreSQL database
//! (a throw-away server of solum-testpg), named by `--database` or `$SOLUM_DATABASE`. Two
//! servers share the database: a note written through one reaches a live stream held by the
//! other; one server killed with SIGKILL, the other goes on, and `journal verify` re-derives
//! every entry once. A password never shows.

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
    let mut child = solum()
        .args(["serve", "--addr", "127.0.0.1:0", "--database", db])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
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
