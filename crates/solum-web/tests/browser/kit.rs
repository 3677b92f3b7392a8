//! What every browser test of the page needs: the tools' paths, a server started as
//! `solum serve` starts it, the screenshots' folder, and typing into the page.
#![allow(dead_code)] // each test binary uses its own part

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

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
