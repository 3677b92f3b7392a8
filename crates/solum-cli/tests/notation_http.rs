//! One contract for `--json` and HTTP, dice notation: `solum odds EXPR --json` prints exactly
//! what `POST /api/odds` answers, and `solum roll EXPR --seed S --json` what `POST /api/roll`
//! answered with seed `S`, with or without `--campaign` (only `seq`, the journal entry,
//! differs: `null` when the roll is journaled nowhere).
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        self.0.kill().ok();
        self.0.wait().ok();
    }
}

/// A request on loopback: the status line and the JSON body.
fn http(addr: &str, path: &str, token: Option<&str>, body: &str) -> (String, Value) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    let status = head.lines().next().unwrap().to_owned();
    // The server answers in one piece or chunked; the JSON is the body's one object.
    let start = body.find('{').unwrap();
    let end = body.rfind('}').unwrap();
    (status, serde_json::from_str(&body[start..=end]).unwrap())
}

fn cli(args: &[&str]) -> Value {
    let out = Command::new(assert_cmd::cargo::cargo_bin("solum"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "solum {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A `solum serve` on a fresh campaign in `dir`, and a player's session token.
fn serve(dir: &std::path::Path) -> (Server, String, String) {
    let campaign = dir.join("c.solum");
    let mut server = Server(
        Command::new(assert_cmd::cargo::cargo_bin("solum"))
            .args(["serve", "--addr", "127.0.0.1:0", "--campaign"])
            .arg(&campaign)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let mut lines = BufReader::new(server.0.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let url = first.split(" at ").nth(1).unwrap().trim().to_string();
    let addr = url
        .strip_prefix("http://")
        .unwrap()
        .trim_end_matches('/')
        .to_string();
    let invite = lines.next().unwrap().unwrap();
    let invite = invite.split("#invite=").nth(1).unwrap().trim().to_string();
    let (status, joined) = http(
        &addr,
        "/api/join",
        None,
        &format!(r#"{{"invite":"{invite}","name":"Ada"}}"#),
    );
    assert!(status.contains("201"), "{status}");
    let token = joined["token"].as_str().unwrap().to_owned();
    (server, addr, token)
}

/// Expressions of every kind of term: plain dice, keep highest, a reroll with explosions
/// (a neglected tail), a label, and the So1um games' own terms.
const EXPRESSIONS: [&str; 6] = [
    "3d6",
    "4d6kh3",
    "d6r1!",
    "2d10 + 3 [fire]",
    "solum(3, vs 4)",
    "sol(5) + una(3)",
];

#[test]
fn the_odds_commands_json_is_the_routes_json() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, addr, token) = serve(dir.path());
    for expr in EXPRESSIONS {
        let body = serde_json::json!({ "expression": expr }).to_string();
        let (status, answer) = http(&addr, "/api/odds", Some(&token), &body);
        assert!(status.contains("200"), "{expr}: {status} {answer}");
        assert!(answer["values"].as_u64().unwrap() > 1, "{expr}: {answer}");
        assert_eq!(cli(&["odds", "--json", "--", expr]), answer, "{expr}");
    }
}

#[test]
fn the_roll_commands_json_is_the_routes_json_with_and_without_a_campaign() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, addr, token) = serve(dir.path());
    let other = dir.path().join("other.solum");
    let other = other.to_str().unwrap();
    for (i, expr) in EXPRESSIONS.iter().enumerate() {
        let body = serde_json::json!({ "expression": expr }).to_string();
        let (status, mut answer) = http(&addr, "/api/roll", Some(&token), &body);
        assert!(status.contains("200"), "{expr}: {status} {answer}");
        let seed = answer["seed"]
            .as_u64()
            .expect("the server rolled with a seed")
            .to_string();
        // Journaled in another campaign, the same roll is the same view but for its entry.
        let journaled = cli(&[
            "roll",
            "--seed",
            &seed,
            "--json",
            "--campaign",
            other,
            "--",
            expr,
        ]);
        assert_eq!(journaled["seq"], i as u64 + 1, "{expr}");
        assert_eq!(journaled["total"], answer["total"], "{expr}");
        let mut expected = answer.clone();
        expected["seq"] = journaled["seq"].clone();
        assert_eq!(journaled, expected, "{expr}");
        // Rolled once, it journals nothing: `seq` is null.
        answer["seq"] = Value::Null;
        assert_eq!(
            cli(&["roll", "--seed", &seed, "--json", "--", expr]),
            answer,
            "{expr}"
        );
    }
}
