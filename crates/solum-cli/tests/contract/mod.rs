//! What the contract tests (`--json` equals HTTP) share: a `solum serve` on a fresh
//! campaign with a member signed in, a request on loopback, and the command's JSON.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

/// A running `solum serve`, stopped when dropped.
pub struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        self.0.kill().ok();
        self.0.wait().ok();
    }
}

/// A `POST` on loopback: the status line and the JSON body.
pub fn http(addr: &str, path: &str, token: Option<&str>, body: &str) -> (String, Value) {
    request("POST", addr, path, token, body)
}

/// A `GET` on loopback with a session: the status line and the JSON body.
pub fn get(addr: &str, path: &str, token: &str) -> (String, Value) {
    request("GET", addr, path, Some(token), "")
}

/// A `PUT` on loopback with a session: the status line and the JSON body.
pub fn put(addr: &str, path: &str, token: &str, body: &str) -> (String, Value) {
    request("PUT", addr, path, Some(token), body)
}

/// A `PATCH` on loopback with a session: the status line and the JSON body.
pub fn patch(addr: &str, path: &str, token: &str, body: &str) -> (String, Value) {
    request("PATCH", addr, path, Some(token), body)
}

fn request(
    method: &str,
    addr: &str,
    path: &str,
    token: Option<&str>,
    body: &str,
) -> (String, Value) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).unwrap();
    let split = answer.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8(answer[..split].to_vec()).unwrap();
    let body = &answer[split + 4..];
    let status = head.lines().next().unwrap().to_owned();
    // The server answers in one piece or chunked (a streamed export in many chunks); the
    // JSON is the body's one value, an object or an array.
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        unchunked(body)
    } else {
        body.to_vec()
    };
    (status, serde_json::from_slice(&body).unwrap())
}

/// A chunked body's bytes, joined.
fn unchunked(mut body: &[u8]) -> Vec<u8> {
    let mut joined = Vec::new();
    loop {
        let eol = body.windows(2).position(|w| w == b"\r\n").unwrap();
        let size = std::str::from_utf8(&body[..eol]).unwrap();
        let size = usize::from_str_radix(size.split(';').next().unwrap().trim(), 16).unwrap();
        if size == 0 {
            return joined;
        }
        body = &body[eol + 2..];
        joined.extend_from_slice(&body[..size]);
        body = &body[size + 2..];
    }
}

/// The JSON `solum ARGS` prints, the command having succeeded.
pub fn cli(args: &[&str]) -> Value {
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
pub fn serve(dir: &std::path::Path) -> (Server, String, String) {
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

/// The answer with what no two entries share set aside: the journal entries (`seq`, `seqs`),
/// when they were made and by whom (`at`, `by`).
pub fn aside(mut v: Value) -> Value {
    if let Some(o) = v.as_object_mut() {
        for key in ["seq", "seqs", "at", "by"] {
            o.remove(key);
        }
    }
    v
}

/// The answer of one twin with its name made `TWIN`, and [`aside`]: two sheets made alike
/// answer alike.
pub fn anonymous(v: &Value, name: &str) -> Value {
    let text = v.to_string().replace(&format!("\"{name}\""), "\"TWIN\"");
    aside(serde_json::from_str(&text).unwrap())
}

/// A `POST` with a session that must succeed (2xx): its JSON.
pub fn post_ok(addr: &str, path: &str, token: &str, body: &str) -> Value {
    let (status, v) = http(addr, path, Some(token), body);
    assert!(status.contains(" 20"), "{path}: {status} {v}");
    v
}

/// `solum SYSTEM list --json` on the served campaign prints the route's list of that system
/// (`GET /api/systems/characters`): every sheet with `owner`, the member who made it or none.
pub fn lists_agree(addr: &str, token: &str, campaign: &str, system: &str) {
    let (status, by_http) = get(addr, "/api/systems/characters", token);
    assert!(status.contains("200"), "{status} {by_http}");
    let listed = &by_http[system];
    assert!(
        listed.as_array().is_some_and(|l| !l.is_empty()),
        "{system}: {by_http}"
    );
    assert_eq!(
        &cli(&[system, "list", "--json", "--campaign", campaign]),
        listed,
        "{system}"
    );
}
