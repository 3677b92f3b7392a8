//! A reload after a long combat, in headless Chromium against the real server with its
//! default limits: once a table's journal holds some sixty combat lines, opening the page
//! again catches up with one fetch per panel, never one per replayed entry, so nobody sees
//! "too many requests" (issue 21: after ~50 combat lines every reload tripped the server's
//! own rate limit). The browser's console is read: no request answers 4xx. Screenshot:
//! `target/e2e-screenshots/reload-desktop-after-long-combat.png`.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

#[path = "browser/kit.rs"]
mod kit;
#[path = "browser/webdriver.rs"]
mod webdriver;

use std::path::Path;

use kit::{CHROMEDRIVER, CHROMIUM, ENTER, failed_requests, shots, start_server};
use serde_json::Value;
use webdriver::Driver;

/// Combat lines played before the reload: past the fifty that tripped the limit.
const LINES: usize = 60;

#[test]
fn a_reload_after_a_long_combat_trips_no_rate_limit() {
    for tool in [CHROMIUM, CHROMEDRIVER] {
        assert!(
            Path::new(tool).exists(),
            "{tool} is missing: apt-get install -y chromium chromium-driver (.ci/run does it)"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let addr = start_server(dir.path().join("campaign.solum"));
    let url = format!("http://{addr}/");
    let driver = Driver::start(Path::new(CHROMEDRIVER));
    let gm = driver.browser(
        Path::new(CHROMIUM),
        &dir.path().join("profile-gm"),
        1280,
        900,
    );
    gm.go(&url);
    gm.wait_for(
        "the sign-in form",
        "return !document.getElementById('signin').hidden",
    );
    gm.type_in(&gm.find("#create input[name=table]"), "The Long Night");
    gm.type_in(&gm.find("#create input[name=name]"), &format!("Ada{ENTER}"));
    gm.wait_for(
        "the table",
        "return !document.getElementById('table').hidden && document.getElementById('conn').textContent === 'live'",
    );
    // The combat is played through the API with the page's own session, at a pace within
    // the write budget: a hero and an orc end their turns, one line each.
    let played = gm.eval_async(&format!(
        "const done = arguments[arguments.length - 1];
         const h = {{ 'Content-Type': 'application/json', Authorization: 'Bearer ' + localStorage.getItem('solum.token') }};
         const post = (p, b) => fetch('/api' + p, {{ method: 'POST', headers: h, body: JSON.stringify(b) }}).then(r => r.ok ? r.status : r.text().then(t => r.status + ' ' + t));
         (async () => {{
           const made = await post('/characters', {{ name: 'Nick', body: 3, mind: 2, charm: 1, backgrounds: ['Sailor'], weapon: {{ name: 'dagger', class: 'light' }}, armor_name: 'leather' }});
           const begun = await post('/combat', {{ heroes: ['Nick'], foes: [{{ name: 'orc', count: 1 }}] }});
           const lines = [await post('/combat/line', {{ line: 'order Nick orc' }})];
           for (let i = 1; i < {LINES}; i++) {{
             lines.push(await post('/combat/line', {{ line: 'end' }}));
             if (lines[i] !== 200) break;
             await new Promise(r => setTimeout(r, 250));
           }}
           return [made, begun, lines];
         }})().then(done, e => done(String(e)));"
    ));
    assert_eq!(played[0], 201, "{played}");
    assert_eq!(played[1], 201, "{played}");
    let lines = played[2].as_array().unwrap();
    assert!(lines.iter().all(|s| s == 200), "{played}");
    assert_eq!(lines.len(), LINES);
    // Whatever the page fetched meanwhile (the live stream's entries) is forgotten: only
    // the reload counts.
    let _ = failed_requests(&gm);
    gm.go(&url);
    gm.wait_for(
        "the table again, live",
        "return !document.getElementById('table').hidden && document.getElementById('conn').textContent === 'live'",
    );
    gm.click(&gm.find("#tab-combat"));
    gm.wait_for(
        "the combat as the lines left it after the reload",
        // The order line, then 59 ends, two a round: round 30, the orc's turn.
        "return document.body.innerText.includes('round 30, orc to act')",
    );
    // The log is the combat's whole, shown though the panel opened after the catch-up:
    // the start, the order and every end (the last 200 at most).
    gm.wait_for(
        "the combat's log after the reload",
        &format!(
            "return document.querySelectorAll('.combat-log li').length === {} && document.querySelector('.combat-log li:last-child').textContent.startsWith('end: ')",
            LINES + 3
        ),
    );
    std::thread::sleep(std::time::Duration::from_secs(2));
    // One fetch per panel: the combat and the characters each fetched a few times at most,
    // however many of the replayed entries were theirs.
    let counts = gm.eval(
        "const n = (p) => performance.getEntriesByType('resource').filter(e => new URL(e.name).pathname === p).length; return [n('/api/combat'), n('/api/characters')]",
    );
    let counts: Vec<u64> = serde_json::from_value(counts).unwrap();
    assert!(counts.iter().all(|&c| c <= 3), "{counts:?}");
    let failed = failed_requests(&gm);
    assert!(failed.is_empty(), "after the reload: {failed:?}");
    let text: Value = gm.eval("return document.body.innerText");
    assert!(
        !text.as_str().unwrap().to_lowercase().contains("too many"),
        "the page says too many requests"
    );
    gm.screenshot(&shots().join("reload-desktop-after-long-combat.png"));
}
