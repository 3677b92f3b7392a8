//! docs/hosting/nginx.conf, tested: two `solum serve` processes on one campaign behind
//! Debian's nginx run with that very file (its ports and `listen` replaced). A member joins
//! through the proxy, opens the live stream through it, and a note written through the proxy
//! (whichever server takes it) arrives on the stream unbuffered; a change from another origin
//! is refused; the client's address reaches the server through `X-Forwarded-For`.
//! nginx missing is a failure that says so (`.ci/run` installs `nginx-light`).
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const NGINX: &str = "/usr/sbin/nginx";

struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// nginx, stopped as it asks to be: TERM to its master, which stops its worker and then
/// itself. A kill of the master alone would leave the worker running, holding the test's
/// output open.
struct Nginx(Child);

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.0.id().to_string()])
            .status();
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(5) {
            if let Ok(Some(_)) = self.0.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Starts `solum serve` behind the proxy at `public`; returns it, its port and its printed
/// game master invite.
fn serve(campaign: &Path, public: &str) -> (Killed, u16, String) {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("solum"))
        .args(["serve", "--addr", "127.0.0.1:0", "--public-url", public])
        .args(["--trust-proxy", "127.0.0.1", "--campaign"])
        .arg(campaign)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let port = first
        .split("http://127.0.0.1:")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no address in {first:?}"));
    assert!(
        first.contains(&format!("browsers reach it at {public}/")),
        "{first}"
    );
    let invite = lines.next().unwrap().unwrap();
    assert!(invite.contains(&format!("{public}/#invite=")), "{invite}");
    let token = invite.split("#invite=").nth(1).unwrap().to_string();
    (Killed(child), port, token)
}

fn http(port: u16, request: &str) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
}

fn post(port: u16, origin: &str, path: &str, session: Option<&str>, body: &str) -> String {
    let auth = session.map_or_else(String::new, |s| format!("Authorization: Bearer {s}\r\n"));
    http(
        port,
        &format!(
            "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: {origin}\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    )
}

#[test]
fn two_servers_behind_the_documented_nginx_snippet() {
    assert!(
        Path::new(NGINX).exists(),
        "{NGINX} is missing: install Debian's nginx-light (.ci/run does)"
    );
    let dir = tempfile::tempdir().unwrap();
    let campaign = dir.path().join("c.solum");
    let proxy = free_port();
    let public = format!("http://127.0.0.1:{proxy}");

    // The first server's invite is used before the second starts (each start revokes the
    // home table's unused game master invites).
    let (_a, port_a, invite) = serve(&campaign, &public);
    let snippet = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/hosting/nginx.conf"),
    )
    .unwrap();
    assert!(snippet.contains("proxy_buffering off;"));
    let joined = post(
        port_a,
        &format!("http://127.0.0.1:{port_a}"),
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
    let (_b, port_b, _) = serve(&campaign, &public);

    let conf = snippet
        .replace("127.0.0.1:7373", &format!("127.0.0.1:{port_a}"))
        .replace("127.0.0.1:7374", &format!("127.0.0.1:{port_b}"))
        .replace("listen 8080;", &format!("listen 127.0.0.1:{proxy};"));
    let d = dir.path();
    std::fs::write(d.join("solum.conf"), conf).unwrap();
    let root = is_root();
    let main = format!(
        "{user}daemon off;\nworker_processes 1;\npid {d}/nginx.pid;\nerror_log {d}/error.log;\n\
         events {{ worker_connections 256; }}\n\
         http {{\n access_log off;\n client_body_temp_path {d}/body;\n proxy_temp_path {d}/proxy;\n\
          fastcgi_temp_path {d}/fcgi;\n uwsgi_temp_path {d}/uwsgi;\n scgi_temp_path {d}/scgi;\n\
          include {d}/solum.conf;\n}}\n",
        user = if root { "user root;\n" } else { "" },
        d = d.display()
    );
    std::fs::write(d.join("nginx.conf"), main).unwrap();
    let _nginx = Nginx(
        Command::new(NGINX)
            .args(["-p"])
            .arg(d)
            .args(["-c"])
            .arg(d.join("nginx.conf"))
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let started = Instant::now();
    while TcpStream::connect(("127.0.0.1", proxy)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "nginx did not listen: {}",
            std::fs::read_to_string(d.join("error.log")).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(50));
    }

    // The live stream through the proxy.
    let mut live = TcpStream::connect(("127.0.0.1", proxy)).unwrap();
    live.write_all(
        format!("GET /api/events?token={session} HTTP/1.1\r\nHost: 127.0.0.1:{proxy}\r\n\r\n")
            .as_bytes(),
    )
    .unwrap();
    live.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut head = [0u8; 64];
    let n = live.read(&mut head).unwrap();
    assert!(
        String::from_utf8_lossy(&head[..n]).starts_with("HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&head[..n])
    );

    // Notes through the proxy, alternating between the servers: each arrives on the stream
    // (held by one of them) while the stream stays open, so nothing waits in a buffer.
    for i in 0..4 {
        let text = format!("note {i} through the proxy");
        let answer = post(
            proxy,
            &public,
            "/api/notes",
            Some(&session),
            &format!(r#"{{"text":"{text}"}}"#),
        );
        assert!(answer.starts_with("HTTP/1.1 2"), "{answer}");
        let mut seen = Vec::new();
        let mut buf = [0u8; 4096];
        while !String::from_utf8_lossy(&seen).contains(&text) {
            let n = live
                .read(&mut buf)
                .unwrap_or_else(|e| panic!("{text} did not reach the stream in 10 s: {e}"));
            assert!(
                n > 0,
                "the stream ended: {}",
                String::from_utf8_lossy(&seen)
            );
            seen.extend_from_slice(&buf[..n]);
        }
    }

    // A change from another origin is refused through the proxy as directly.
    let forged = post(
        proxy,
        "http://evil.example",
        "/api/notes",
        Some(&session),
        r#"{"text":"forged"}"#,
    );
    assert!(forged.starts_with("HTTP/1.1 403"), "{forged}");
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}
