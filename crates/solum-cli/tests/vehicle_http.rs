//! One contract for `--json` and HTTP: `solum vehicle chase|attack … --json` prints exactly
//! what `POST /api/vehicles/{chase,attack}` of `solum serve` answers for the same inputs and
//! seed (the route adds only `seq`, its journal entry). The server rolls with a fresh seed
//! and says which; the command replays it with `--seed`.
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

#[test]
fn the_vehicle_commands_json_is_the_routes_json() {
    let dir = tempfile::tempdir().unwrap();
    let campaign = dir.path().join("c.solum");
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

    let cases: [(&str, &str, &[&str]); 3] = [
        (
            "chase",
            r#"{"pilot":3,"vehicle":"tramp freighter","against_pilot":3,"against_vehicle":"starfighter"}"#,
            &[
                "--pilot",
                "3",
                "--vehicle",
                "tramp freighter",
                "--against-pilot",
                "3",
                "--against-vehicle",
                "starfighter",
            ],
        ),
        (
            "attack",
            r#"{"pilot":2,"handling":"responsive","against_pilot":4,"roll_off":true}"#,
            &[
                "--pilot",
                "2",
                "--handling",
                "responsive",
                "--against-pilot",
                "4",
                "--roll-off",
            ],
        ),
        (
            "chase",
            r#"{"pilot":1,"speed":"lightning-fast","against_pilot":1,"against_handling":"clumsy"}"#,
            &[
                "--pilot",
                "1",
                "--speed",
                "lightning-fast",
                "--against-pilot",
                "1",
                "--against-handling",
                "clumsy",
            ],
        ),
    ];
    for (kind, body, flags) in cases {
        let (status, mut answer) =
            http(&addr, &format!("/api/vehicles/{kind}"), Some(&token), body);
        assert!(status.contains("200"), "{kind} {body}: {status} {answer}");
        assert!(answer["seq"].as_i64().unwrap() > 0);
        answer.as_object_mut().unwrap().remove("seq");
        let seed = answer["seed"]
            .as_u64()
            .expect("the server rolled with a seed");
        let mut args = vec!["vehicle", kind];
        args.extend_from_slice(flags);
        let seed = seed.to_string();
        args.extend(["--seed", &seed, "--json"]);
        assert_eq!(cli(&args), answer, "{kind} {body}");
    }

    // A refusal says the same rule on both: speed counts only in a chase.
    let (status, refused) = http(
        &addr,
        "/api/vehicles/attack",
        Some(&token),
        r#"{"pilot":3,"against_pilot":3,"against_speed":"fast"}"#,
    );
    assert!(status.contains("422"), "{status}");
    assert_eq!(refused["code"], "vehicle-speed-in-attack");
    let out = Command::new(assert_cmd::cargo::cargo_bin("solum"))
        .args([
            "vehicle",
            "attack",
            "--pilot",
            "3",
            "--against-pilot",
            "3",
            "--against-speed",
            "fast",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("--against-speed fast: speed counts only in a chase"),
        "{said}"
    );
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("against_speed fast: speed counts only in a chase"),
        "{refused}"
    );
}
