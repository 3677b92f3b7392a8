//! A small W3C WebDriver client over a plain loopback socket: the handful of commands the
//! browser tests use, with no HTTP or WebDriver crate (those bring in about 130 crates).
// Shared by several browser tests, each using some of it.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// A free loopback port: bound, read, released.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// One HTTP request; the answer's status and JSON body.
fn http(
    port: u16,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> std::io::Result<(u16, Value)> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(Duration::from_secs(60)))?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nConnection: close\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )?;
    // The driver keeps the connection open: read the head, then Content-Length bytes.
    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    let (head_len, length) = loop {
        let n = stream.read(&mut buf)?;
        if n == 0 {
            return Err(std::io::Error::other("the driver closed the connection"));
        }
        raw.extend_from_slice(&buf[..n]);
        if let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok())
                .unwrap_or(0);
            break (end + 4, length);
        }
    };
    while raw.len() < head_len + length {
        let n = stream.read(&mut buf)?;
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&buf[..n]);
    }
    let head = String::from_utf8_lossy(&raw[..head_len]);
    let rest = String::from_utf8_lossy(&raw[head_len..]);
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    Ok((status, serde_json::from_str(&rest).unwrap_or(Value::Null)))
}

/// `chromedriver` on a free port, killed when dropped.
pub struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    /// Starts the driver and waits until it answers.
    pub fn start(binary: &Path) -> Driver {
        let port = free_port();
        let child = Command::new(binary)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", binary.display()));
        let driver = Driver { child, port };
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Ok((200, status)) = http(port, "GET", "/status", None)
                && status["value"]["ready"] == true
            {
                return driver;
            }
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// A new headless Chromium with a fresh profile of its own.
    pub fn browser(&self, chromium: &Path, profile: &Path, width: u32, height: u32) -> Browser {
        let args = [
            "--headless".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--disable-dev-shm-usage".into(),
            format!("--window-size={width},{height}"),
            format!("--user-data-dir={}", profile.display()),
        ];
        // The browser's console is kept, so a test can read the requests that failed.
        let caps = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": { "binary": chromium.to_string_lossy(), "args": args },
            "goog:loggingPrefs": { "browser": "ALL" }
        }}});
        let (status, answer) = http(self.port, "POST", "/session", Some(&caps)).unwrap();
        assert_eq!(status, 200, "new session: {answer}");
        Browser {
            port: self.port,
            session: answer["value"]["sessionId"].as_str().unwrap().to_string(),
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One browser session; closed when dropped.
pub struct Browser {
    port: u16,
    session: String,
}

/// An element handle, with the selector that found it: the page redraws parts of itself
/// when the table changes (a character joins, the odds follow), and an action on an element
/// that was replaced meanwhile finds it afresh, as a user's next click would.
#[derive(Clone)]
pub struct Element {
    id: String,
    css: String,
}

const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

impl Browser {
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        let (status, answer) = http(self.port, method, &path, body.as_ref()).unwrap();
        assert_eq!(status, 200, "{method} {path}: {answer}");
        answer["value"].clone()
    }

    /// Opens a page.
    pub fn go(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
    }

    /// The first element matching a CSS selector, waiting for it up to 15 seconds.
    pub fn find(&self, css: &str) -> Element {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            let path = format!("/session/{}/element", self.session);
            let (status, answer) = http(
                self.port,
                "POST",
                &path,
                Some(&json!({ "using": "css selector", "value": css })),
            )
            .unwrap();
            if status == 200 {
                let id = answer["value"][ELEMENT_KEY].as_str();
                let id = id.unwrap_or_else(|| panic!("{css}: {answer}")).to_string();
                return Element {
                    id,
                    css: css.to_string(),
                };
            }
            assert!(Instant::now() < deadline, "no element {css}: {answer}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Acts on an element (`action` is the command's path after the element); an element
    /// the page replaced since it was found is found again by its selector, a few times.
    fn on_element(&self, e: &Element, action: &str, body: Value) {
        let mut id = e.id.clone();
        for _ in 0..5 {
            let path = format!("/session/{}/element/{id}/{action}", self.session);
            let (status, answer) = http(self.port, "POST", &path, Some(&body)).unwrap();
            if status == 200 {
                return;
            }
            assert_eq!(
                answer["value"]["error"], "stale element reference",
                "POST {path}: {answer}"
            );
            id = self.find(&e.css).id;
        }
        panic!("{}: replaced again each time it was found", e.css);
    }

    /// Clicks an element.
    pub fn click(&self, e: &Element) {
        self.on_element(e, "click", json!({}));
    }

    /// Types into an element as a user would (`\u{E007}` is Enter).
    pub fn type_in(&self, e: &Element, text: &str) {
        self.on_element(e, "clear", json!({}));
        self.on_element(e, "value", json!({ "text": text }));
    }

    /// Runs a script in the page and returns its value.
    pub fn eval(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": [] })),
        )
    }

    /// Runs an asynchronous script (its last argument is the callback) and returns the value
    /// it passes to the callback.
    pub fn eval_async(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/async",
            Some(json!({ "script": script, "args": [] })),
        )
    }

    /// Sends keys to an element without clearing it (`\u{E014}` is the right arrow).
    pub fn keys(&self, e: &Element, text: &str) {
        self.on_element(e, "value", json!({ "text": text }));
    }

    /// Resizes the window (the page's viewport follows).
    pub fn resize(&self, width: u32, height: u32) {
        self.call(
            "POST",
            "/window/rect",
            Some(json!({ "width": width, "height": height })),
        );
    }

    /// The console messages since the last call (chromedriver's log of the browser),
    /// failed requests included ("… the server responded with a status of 422 …").
    pub fn console(&self) -> Vec<String> {
        let logs = self.call("POST", "/se/log", Some(json!({ "type": "browser" })));
        logs.as_array()
            .map(|a| {
                a.iter()
                    .map(|l| l["message"].as_str().unwrap_or_default().to_string())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Waits up to 15 seconds for a script to return true.
    pub fn wait_for(&self, what: &str, script: &str) {
        let deadline = Instant::now() + Duration::from_secs(15);
        while self.eval(script) != Value::Bool(true) {
            assert!(
                Instant::now() < deadline,
                "waited in vain for {what}; the page says: {}\nits console: {:?}\nits requests: {}",
                self.eval("return document.body.innerText"),
                self.console(),
                self.eval(
                    "return performance.getEntriesByType('resource').slice(-20).map(r => r.name + ' ' + Math.round(r.startTime) + '+' + Math.round(r.duration) + 'ms').join('\\n')"
                )
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The page's visible text.
    pub fn text(&self) -> String {
        self.eval("return document.body.innerText")
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Saves a PNG screenshot of the whole page.
    pub fn screenshot(&self, path: &Path) {
        let png = self.call("GET", "/screenshot", None);
        std::fs::write(path, base64_decode(png.as_str().unwrap())).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let path = format!("/session/{}", self.session);
        let _ = http(self.port, "DELETE", &path, None);
    }
}

fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let digits: Vec<u32> = text.bytes().filter_map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut n = 0u32;
        for (i, d) in chunk.iter().enumerate() {
            n |= d << (18 - 6 * i);
        }
        let bytes = n.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    out
}

#[test]
fn base64_decodes_the_rfc_examples() {
    // RFC 4648, section 10.
    assert_eq!(base64_decode("Zm9vYmFy"), b"foobar");
    assert_eq!(base64_decode("Zm9vYg=="), b"foob");
    assert_eq!(base64_decode("Zm8="), b"fo");
}
