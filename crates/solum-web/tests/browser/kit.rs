//! What every browser test of the page needs: the tools' paths, a server started as
//! `solum serve` starts it, the screenshots' folder, and typing into the page.
#![allow(dead_code)] // each test binary uses its own part

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value;

use crate::webdriver::Browser;

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
pub const ENTER: &str = "\u{E007}";

/// Starts the server the way `solum serve` does, on a free loopback port, in the background
/// (it lives until the test process ends). Returns its address.
pub fn start_server(campaign: PathBuf) -> SocketAddr {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let config = solum_web::Config::new(campaign);
        let addr: SocketAddr = "127.0.0.1:0".parse().unwrap();
        let result = solum_web::serve(config, addr, |ready| {
            tx.send(ready.addr).unwrap();
        });
        if let Err(e) = result {
            panic!("the server stopped: {e}");
        }
    });
    rx.recv_timeout(Duration::from_secs(30))
        .expect("the server did not start")
}

/// Where the browser tests leave their screenshots (looked at by people, never compared).
pub fn shots() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/e2e-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A JavaScript string literal of `text`.
pub fn js(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

/// Sets a field of the page in the page itself (found afresh: the Characters tab redraws
/// its sheets when the table changes), as typing would.
pub fn set(b: &Browser, css: &str, text: &str) {
    b.find(css);
    b.wait_for(
        css,
        &format!(
            "const e = document.querySelector({}); if (!e) return false; e.focus(); e.value = {}; e.dispatchEvent(new Event('input', {{bubbles: true}})); e.dispatchEvent(new Event('change', {{bubbles: true}})); return true",
            js(css),
            js(text)
        ),
    );
}

/// axe-core, from npm (`npm install --no-save axe-core@4` in tests/browser, as `.ci/run`
/// does).
pub fn axe_source() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/browser/node_modules/axe-core/axe.min.js");
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run `npm install --no-save axe-core@4` in crates/solum-web/tests/browser (.ci/run does it)",
            path.display()
        )
    })
}

/// Runs axe on the page as it is; the serious and critical violations, one line each.
pub fn axe(b: &Browser, source: &str) -> Vec<String> {
    if b.eval("return typeof window.axe") != "object" {
        b.eval(&format!("{source}\n;return true"));
    }
    let result = b.eval_async(
        "const done = arguments[arguments.length - 1]; axe.run(document, { resultTypes: ['violations'] }).then(r => done(r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => v.id + ': ' + v.help + ' — ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')))).catch(e => done(['axe failed: ' + e]))",
    );
    serde_json::from_value::<Vec<Value>>(result)
        .unwrap()
        .into_iter()
        .map(|v| v.as_str().unwrap_or_default().to_string())
        .collect()
}

/// The requests the browser saw answered 4xx or 5xx since the last call, as
/// "STATUS path" (from the console's "Failed to load resource" lines).
pub fn failed_requests(b: &Browser) -> Vec<String> {
    b.console()
        .into_iter()
        .filter_map(|m| {
            let at = m.find("status of ")?;
            let status: String = m[at + 10..].chars().take(3).collect();
            let url = m.split_whitespace().next().unwrap_or_default();
            let path = url
                .split_once("://")
                .and_then(|(_, rest)| rest.find('/').map(|i| rest[i..].to_string()))
                .unwrap_or_else(|| url.to_string());
            let path = path.split('?').next().unwrap_or_default().to_string();
            Some(format!("{status} {path}"))
        })
        .collect()
}
