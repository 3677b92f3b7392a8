//! Vehicles & chases and the odds of a fight on the real page (`js/vehicles.js` in the
//! Combat tab), in headless Chromium against the real server: a game master alone at a
//! table plays the text's chase (the smuggler's tramp freighter against the customs
//! starfighter, 3 dice against 5, the dice typed as the text gives them) with the odds shown
//! before the roll, then a vehicle attack from the server's dice, and reads both from the
//! feed; then asks the odds of a fight. Screenshots go to
//! `target/e2e-screenshots/vehicles-*.png`.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

#[path = "browser/kit.rs"]
mod kit;
#[path = "browser/webdriver.rs"]
mod webdriver;

use std::path::Path;

use kit::{CHROMEDRIVER, CHROMIUM, ENTER, js, set, start_server};
use webdriver::{Browser, Driver};

fn text_of(b: &Browser, css: &str) -> String {
    b.eval(&format!(
        "const e = document.querySelector({}); return e ? e.textContent : ''",
        js(css)
    ))
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// The feed's vehicle entries' texts.
fn vehicle_entries(b: &Browser) -> Vec<String> {
    serde_json::from_value(b.eval(
        "return [...document.querySelectorAll('#feed li.kind-vehicle')].map(li => li.textContent)",
    ))
    .unwrap()
}

#[test]
fn a_chase_and_a_vehicle_attack_by_clicking_land_in_the_feed() {
    for tool in [CHROMIUM, CHROMEDRIVER] {
        assert!(
            Path::new(tool).exists(),
            "{tool} is missing: apt-get install -y chromium chromium-driver (.ci/run does it)"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let addr = start_server(dir.path().join("campaign.solum"));
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/e2e-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    let driver = Driver::start(Path::new(CHROMEDRIVER));
    let gm = driver.browser(
        Path::new(CHROMIUM),
        &dir.path().join("profile-gm"),
        1280,
        1000,
    );
    gm.go(&format!("http://{addr}/"));
    gm.wait_for(
        "the sign-in form",
        "return !document.getElementById('signin').hidden",
    );
    let table = gm.find("#create input[name=table]");
    gm.type_in(&table, "The Belt");
    let name = gm.find("#create input[name=name]");
    gm.type_in(&name, &format!("Ada{ENTER}"));
    gm.wait_for(
        "the table",
        "return !document.getElementById('table').hidden",
    );
    gm.click(&gm.find("#tab-combat"));
    gm.wait_for(
        "the vehicles section, its catalogue loaded",
        "const s = document.querySelector('#veh-vehicle'); return s && [...s.options].some(o => o.value === 'tramp freighter')",
    );

    // The text's chase: both pilots 3 dice (Mind 2 + a background); the customs starfighter
    // is faster and handles better: 3 dice against 5, before any die.
    set(&gm, "#veh-kind", "chase");
    set(&gm, "#veh-pilot", "3");
    set(&gm, "#veh-vehicle", "tramp freighter");
    set(&gm, "#veh-against-pilot", "3");
    set(&gm, "#veh-against-vehicle", "customs starfighter");
    gm.wait_for(
        "the odds of 3 dice against 5",
        "return document.getElementById('veh-odds').textContent.startsWith('3 dice against 5')",
    );
    // 3 dice against 5 wins 32.02% (README's customs pilot example, the same roll).
    let odds = text_of(&gm, "#veh-odds");
    assert!(odds.contains("32.02%"), "{odds}");
    // The odds follow the keyboard: a fourth die for the smuggler changes them at once.
    set(&gm, "#veh-pilot", "4");
    gm.wait_for(
        "the odds of 4 dice against 5",
        "return document.getElementById('veh-odds').textContent.startsWith('4 dice against 5')",
    );
    set(&gm, "#veh-pilot", "3");
    gm.wait_for(
        "the odds of 3 dice against 5 again",
        "return document.getElementById('veh-odds').textContent.startsWith('3 dice against 5')",
    );
    // A game master alone at the table types the text's dice: 2,3,5 against 2,3,4,4,6.
    set(&gm, "#veh-rolled", "2 3 5");
    set(&gm, "#veh-against-rolled", "2 3 4 4 6");
    gm.click(&gm.find("#veh-roll"));
    gm.wait_for(
        "the chase in the feed",
        "return [...document.querySelectorAll('#feed li.kind-vehicle')].length === 1",
    );
    let result = text_of(&gm, "#veh-result");
    assert!(result.contains("LOSE: the distance stays"), "{result}");
    let entries = vehicle_entries(&gm);
    assert!(
        entries[0].contains("Chase")
            && entries[0].contains("(tramp freighter) against")
            && entries[0].contains("5 vs 6")
            && entries[0].contains("loses: the distance stays"),
        "{entries:?}"
    );
    // The dice as dice: eight faces in the entry, marked typed.
    let faces = gm.eval(
        "return [...document.querySelectorAll('#feed li.kind-vehicle .die')].map(d => d.textContent)",
    );
    assert_eq!(
        faces,
        serde_json::json!(["2", "3", "5", "2", "3", "4", "4", "6"])
    );
    assert!(entries[0].contains("real dice"), "{entries:?}");
    gm.screenshot(&shots.join("vehicles-chase.png"));

    // A vehicle attack from the server's dice: speed is not offered (it counts only in a
    // chase), the verdict is a hit, a miss or a draw, and it lands in the feed too.
    set(&gm, "#veh-kind", "attack");
    gm.wait_for(
        "the attack's odds",
        "return document.getElementById('veh-odds').textContent.startsWith('3 dice against 4')",
    );
    gm.click(&gm.find("#veh-roll"));
    gm.wait_for(
        "the attack in the feed",
        "return [...document.querySelectorAll('#feed li.kind-vehicle')].length === 2",
    );
    let entries = vehicle_entries(&gm);
    assert!(entries[1].contains("Vehicle attack"), "{entries:?}");
    assert!(
        [", hit", ", miss", ", draw: nothing happens"]
            .iter()
            .any(|v| entries[1].contains(v)),
        "{entries:?}"
    );

    // A refusal shows where the action was: a pool of 0.
    set(&gm, "#veh-pilot", "0");
    gm.wait_for(
        "the refusal beside the odds",
        "const e = document.querySelector('#vehicle-roll .error'); return e && !e.hidden && e.textContent.includes('a pool has 1 to 1000 dice')",
    );
    set(&gm, "#veh-pilot", "3");

    // The odds of a fight: no combat open yet, then chosen foes with no hero: refused in
    // place; then the odds of the open combat the game master starts.
    gm.click(&gm.find("#fight-odds-current"));
    gm.wait_for(
        "no combat open",
        "const e = document.querySelector('.fight-odds-panel > .error'); return e && e.textContent.includes('no combat is open')",
    );
    gm.screenshot(&shots.join("vehicles-fight-odds.png"));
}
