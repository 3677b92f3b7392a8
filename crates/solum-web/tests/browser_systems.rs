//! The sibling systems' fights on the real page (`js/fights.js` in the Other systems tab),
//! in headless Chromium against the real server, a game master on a laptop and a player on
//! a phone in separate browsers:
//!
//! - the player rolls a hero of the original by the rules, its creation shown step by step
//!   with its dice (C1), picks a Goblin from the book's list, reads the exact odds before the
//!   first exchange and fights by clicking, answering each hit (C2: Body or a hit point)
//!   until the fight ends; the hero's sheet in the list shows what the fight left; a rest
//!   heals by the hours (C2);
//! - both make a Sol'una character and the game master starts a played skirmish (U5): each
//!   acts for their own character from its buttons, the shot's odds before the roll read
//!   from the rules (two dice against armour 1: a pair, 6 in 36), and the phase is rolled
//!   when the last decision is in;
//! - the player changes her Sol'una sheet: refused while the skirmish is under way, taken
//!   once the game master has abandoned it (U4: Mind 3 acts in phases 4, 7, 10);
//! - the game master starts a new Project Sol encounter and session (P3); the player spends
//!   a point of Edge and burns one for Not Dead Yet (P2, P5), asked first;
//! - the game master changes a die-type sheet; 5 chances are refused at the form (D2);
//! - axe-core on the new sections at both sizes: no serious or critical violation;
//! - no request answers 4xx but the refusals the test asks for (the consoles are read).
//!
//! Screenshots go to `target/e2e-screenshots/systems-*.png`.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

#[path = "browser/kit.rs"]
mod kit;
#[path = "browser/webdriver.rs"]
mod webdriver;

use std::path::Path;

use kit::{
    CHROMEDRIVER, CHROMIUM, ENTER, axe, axe_source, failed_requests, js, set, shots, start_server,
};
use serde_json::Value;
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

fn only_refusals(b: &Browser, who: &str, allowed: &[&str]) {
    let failed = failed_requests(b);
    for f in &failed {
        assert!(
            allowed.contains(&f.as_str()),
            "{who}: an unexpected failed request {f} (all: {failed:?})"
        );
    }
}

/// Clicks an element found in the page (the sections redraw: found afresh each time).
fn press(b: &Browser, css: &str) {
    b.find(css);
    b.wait_for(
        css,
        &format!(
            "const e = document.querySelector({}); if (!e || e.disabled) return false; e.click(); return true",
            js(css)
        ),
    );
}

/// Clicks the first button of `css` whose text holds `text`.
fn press_text(b: &Browser, css: &str, text: &str) {
    b.wait_for(
        text,
        &format!(
            "const e = [...document.querySelectorAll({})].find(x => x.textContent.includes({}) && !x.disabled); if (!e) return false; e.click(); return true",
            js(css),
            js(text)
        ),
    );
}

/// Opens the Other systems tab (from More until the table plays a sibling system) and
/// picks `system`.
fn systems(b: &Browser, system: &str) {
    let hidden = b.eval("return document.getElementById('tab-systems').hidden");
    if hidden == Value::Bool(true) {
        press(b, "#more summary");
        press(b, "#open-systems");
    } else {
        press(b, "#tab-systems");
    }
    b.wait_for(
        "the Other systems tab",
        "return document.getElementById('tab-systems').getAttribute('aria-selected') === 'true' && document.querySelector('#sibling-system select') !== null",
    );
    set(b, "#sibling-system select[name=system]", system);
}

/// A hero of the original as the server keeps it, read with the page's session.
fn hero_sheet(b: &Browser, name: &str) -> Value {
    b.eval_async(&format!(
        "const done = arguments[arguments.length - 1]; fetch('/api/systems/characters', {{headers: {{Authorization: 'Bearer ' + localStorage.getItem('solum.token')}}}}).then(r => r.json()).then(v => done(v.classic.find(c => c.hero.name === {}).hero))",
        js(name)
    ))
}

/// The chance that the best of `mine` d6 beats the best of `theirs` d6 (C2's exchange),
/// counted over every roll.
fn p_best_die_wins(mine: u32, theirs: u32) -> f64 {
    let below = |m: u32, n: u32| f64::from(m).powi(n as i32) / 6f64.powi(n as i32);
    (1..=6)
        .map(|m| (below(m, mine) - below(m - 1, mine)) * below(m - 1, theirs))
        .sum()
}

#[test]
fn the_sibling_systems_fights_by_clicking_at_two_sizes() {
    for tool in [CHROMIUM, CHROMEDRIVER] {
        assert!(
            Path::new(tool).exists(),
            "{tool} is missing: apt-get install -y chromium chromium-driver (.ci/run does it)"
        );
    }
    let source = axe_source();
    let dir = tempfile::tempdir().unwrap();
    let addr = start_server(dir.path().join("campaign.solum"));
    let url = format!("http://{addr}/");
    let shots = shots();
    let driver = Driver::start(Path::new(CHROMEDRIVER));
    let chromium = Path::new(CHROMIUM);

    // The game master makes the table and an invite.
    let gm = driver.browser(chromium, &dir.path().join("profile-gm"), 1280, 900);
    gm.go(&url);
    gm.wait_for(
        "the sign-in form",
        "return !document.getElementById('signin').hidden",
    );
    gm.type_in(&gm.find("#create input[name=table]"), "The Old Road");
    gm.type_in(&gm.find("#create input[name=name]"), &format!("Ada{ENTER}"));
    gm.wait_for(
        "the table",
        "return !document.getElementById('table').hidden",
    );
    press(&gm, "#menu summary");
    press(&gm, "#invite button:not([type=button])");
    gm.wait_for(
        "the invite link",
        "return document.getElementById('invite-link').value.includes('#invite=')",
    );
    let link = gm.eval("return document.getElementById('invite-link').value");
    press(&gm, "#menu summary");

    // The player, on a phone.
    let pia = driver.browser(chromium, &dir.path().join("profile-pia"), 390, 844);
    pia.go(link.as_str().unwrap());
    pia.wait_for(
        "the join form",
        "return !document.getElementById('join').hidden",
    );
    pia.type_in(&pia.find("#join input[name=name]"), &format!("Pia{ENTER}"));
    pia.wait_for(
        "the table",
        "return !document.getElementById('table').hidden && document.getElementById('conn').textContent === 'live'",
    );
    classic_fights(&pia, &shots);
    a_played_skirmish(&gm, &pia, &shots);
    soluna_sheet(&gm, &pia);
    sol_training_and_sessions(&gm, &pia);
    dietype_sheet(&gm);
    // 4. axe on the new sections, desktop and phone.
    let mut found = Vec::new();
    for (who, b) in [("desktop", &gm), ("phone", &pia)] {
        for system in ["classic", "soluna", "sol", "dietype"] {
            set(b, "#sibling-system select[name=system]", system);
            for v in axe(b, &source) {
                found.push(format!("{who} {system}: {v}"));
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
    only_refusals(
        &gm,
        "the game master",
        &["422 /api/dietype/characters/Rook"],
    );
    only_refusals(&pia, "the player", &[]);
}

/// The original: the player rolls two heroes by the rules (C1) and fights a Goblin of the
/// book with each.
fn classic_fights(pia: &Browser, shots: &Path) {
    // 1. The original: Pia rolls two heroes by the rules (C1) and fights a Goblin of the
    // book with each: Brak taking every hit on his hit points, Cora answering each hit.
    systems(pia, "classic");
    for name in ["Brak", "Cora"] {
        set(pia, "#classic-new input[name=name]", name);
        press(pia, "#classic-new button");
        pia.wait_for(
            "the hero in the fight's hero list",
            &format!(
                "const s = document.querySelector('#classic-fight-start select[name=hero]'); return s && [...s.options].some(o => o.value === {})",
                js(name)
            ),
        );
    }
    creation_steps(pia, shots);
    let brak = hero_sheet(pia, "Brak");
    let (body, hp) = (
        u32::try_from(brak["body"].as_u64().unwrap()).unwrap(),
        i32::try_from(brak["hit_points"].as_u64().unwrap()).unwrap(),
    );
    set(pia, "#classic-fight-start select[name=hero]", "Brak");
    // The foe is picked from the book's list: the one offered first is taken away, the
    // Goblin picked again from the creatures with its stats.
    press_text(pia, "#classic-fight-start .chosen-foes button", "Remove");
    pia.wait_for(
        "no foe picked, the fight cannot start",
        "return document.querySelector('#classic-fight-start button.start').disabled",
    );
    pia.wait_for(
        "the book's creatures",
        "return [...document.querySelectorAll('#classic-fight-start select[name=creature] option')].some(o => o.textContent === 'Goblin (Body 1, Mind 1, Spirit 2, HP 1)')",
    );
    set(pia, "#classic-fight-start select[name=creature]", "Goblin");
    press_text(pia, "#classic-fight-start button", "Add foe");
    set(
        pia,
        "#classic-fight-start select[name=policy]",
        "hit-points",
    );
    // The exact odds before the first exchange: the best of Brak's Body dice against the
    // goblin's one die, and the whole duel (below).
    let (w, l) = (p_best_die_wins(body, 1), p_best_die_wins(1, body));
    let p = 1.0 - (l / (w + l)).powi(hp);
    let before = format!(
        "Before the first exchange: Brak rolls {body} {}, Goblin 1 · win {:.2}%, tie {:.2}%, lose {:.2}% · the whole duel {:.2}%",
        if body == 1 { "die" } else { "dice" },
        100.0 * w,
        100.0 * (1.0 - w - l),
        100.0 * l,
        100.0 * p
    );
    pia.wait_for(
        "the odds before the first exchange",
        &format!(
            "return document.querySelector('#classic-fight .fight-preview').textContent === {}",
            js(&before)
        ),
    );
    pia.screenshot(&shots.join("systems-1-phone-classic-before.png"));
    press(pia, "#classic-fight-start button.start");
    pia.wait_for(
        "Brak's fight, over at once (every hit on his hit points)",
        "const t = document.querySelector('#classic-fight .fight-state').textContent; return t.includes('against Goblin') && t.includes('Fight over')",
    );
    // The duel's chance, from the rules: a goblin (the book: Body 1, 1 hit point) dies at
    // Brak's first won exchange; Brak at his HP-th lost one; an exchange is the best of his
    // Body dice against the goblin's one die, a tie nothing (C2).
    let state = text_of(pia, "#classic-fight .fight-state");
    assert!(
        state.contains(&format!(
            "Chance to win this duel, worked out when it began: {:.2}%",
            100.0 * p
        )),
        "Body {body}, HP {hp}: {state}"
    );
    pia.screenshot(&shots.join("systems-1-phone-classic-fight.png"));

    // Cora: each hit she takes waits for Pia's answer (C2: Body or a hit point).
    set(pia, "#classic-fight-start select[name=hero]", "Cora");
    pia.wait_for(
        "no fight for Cora yet",
        "return document.querySelector('#classic-fight .fight-state').textContent.includes('No fight')",
    );
    set(pia, "#classic-fight-start select[name=policy]", "");
    press(pia, "#classic-fight-start button.start");
    pia.wait_for(
        "Cora's fight",
        "return document.querySelector('#classic-fight .fight-state').textContent.includes('against Goblin')",
    );
    let mut answered = 0;
    for _ in 0..100 {
        let t = text_of(pia, "#classic-fight .fight-state");
        if t.contains("Fight over") {
            break;
        }
        if t.contains("lose a hit point or a point of Body") {
            pia.screenshot(&shots.join("systems-2-phone-classic-hit.png"));
            press_text(pia, "#classic-fight button", "Lose a hit point");
            answered += 1;
            pia.wait_for(
                "the answer taken",
                &format!(
                    "return document.querySelector('#classic-fight .fight-state').textContent !== {}",
                    js(&t)
                ),
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let state = text_of(pia, "#classic-fight .fight-state");
    assert!(state.contains("Fight over"), "{state}");
    // Every hit answered cost Cora a hit point; the sheet shows what the fight left.
    let cora = hero_sheet(pia, "Cora");
    assert!(
        state.contains(&format!(
            "Cora: Body {}, HP {}",
            cora["body"], cora["hit_points"]
        )),
        "{state} / {cora}"
    );
    assert!(answered <= 20, "{answered}");
    pia.wait_for(
        "the list with Cora's sheet after the fight",
        &format!(
            "return [...document.querySelectorAll('#sibling-characters li')].some(li => li.textContent.startsWith('Cora') && li.textContent.includes('HP ' + {}))",
            cora["hit_points"]
        ),
    );
    pia.screenshot(&shots.join("systems-2-phone-classic-over.png"));
    cora_rests(pia, shots);
    only_refusals(pia, "the player", &[]);
}

/// Cora's creation is the last shown, step by step (C1).
fn creation_steps(pia: &Browser, shots: &Path) {
    // Cora's creation is the last shown, step by step (C1): each stat is the number of even
    // dice among its three, at least 1; hit points are Body + the even dice of two.
    let steps = pia.eval(
        "return [...document.querySelectorAll('#sibling-dice .creation-steps li')].map(li => [...li.querySelectorAll('.die')].map(d => Number(d.textContent)))",
    );
    let steps: Vec<Vec<u32>> = serde_json::from_value(steps).unwrap();
    assert_eq!(
        steps.iter().map(Vec::len).collect::<Vec<_>>(),
        [3, 3, 3, 2, 2],
        "{steps:?}"
    );
    let evens =
        |faces: &[u32]| u64::try_from(faces.iter().filter(|f| *f % 2 == 0).count()).unwrap();
    let cora = hero_sheet(pia, "Cora");
    for (i, stat) in ["body", "mind", "spirit"].into_iter().enumerate() {
        assert_eq!(
            cora[stat].as_u64().unwrap(),
            evens(&steps[i]).max(1),
            "{stat}: {steps:?} {cora}"
        );
    }
    assert_eq!(
        cora["hit_points"].as_u64().unwrap(),
        cora["body"].as_u64().unwrap() + evens(&steps[3]),
        "{steps:?} {cora}"
    );
    pia.screenshot(&shots.join("systems-0-phone-classic-creation.png"));
}

/// Cora rests after her fight (C2).
fn cora_rests(pia: &Browser, shots: &Path) {
    let cora = hero_sheet(pia, "Cora");
    // Cora rests 8 hours (C2): one hit point back if the fight cost her one and left her
    // alive; the dead do not heal.
    let (now, full) = (
        cora["hit_points"].as_u64().unwrap(),
        cora["max_hit_points"]
            .as_u64()
            .unwrap_or(cora["hit_points"].as_u64().unwrap()),
    );
    let dead = now == 0 || cora["body"] == 0;
    let healed = if dead || now == full { 0 } else { 1 };
    set(pia, "#classic-rest select[name=hero]", "Cora");
    set(pia, "#classic-rest input[name=hours]", "8");
    press(pia, "#classic-rest form button");
    pia.wait_for(
        "the rest",
        &format!(
            "return document.querySelector('#classic-rest .result-line').textContent.startsWith({})",
            js(&format!("Cora rested 8 hours: {healed} hit point(s) and 0 Body healed · now Body {}, Mind {}, Spirit {}, HP {}",
                cora["body"], cora["mind"], cora["spirit"], now + healed))
        ),
    );
    assert_eq!(
        hero_sheet(pia, "Cora")["hit_points"].as_u64().unwrap(),
        now + healed
    );
    pia.screenshot(&shots.join("systems-2-phone-classic-rest.png"));
}

/// Sol'una: a skirmish both play (U5), each for their own character.
fn a_played_skirmish(gm: &Browser, pia: &Browser, shots: &Path) {
    // 2. Sol'una: Pia's Csen (two ranged dice, no flips) and the game master's Rook (Body
    // 1, 3 hit points), a skirmish both play.
    systems(pia, "soluna");
    set(pia, "#soluna-new input[name=name]", "Csen");
    set(pia, "#soluna-new input[name=ranged]", "2");
    set(pia, "#soluna-new input[name=flips]", "0");
    press(pia, "#soluna-new button");
    pia.wait_for(
        "Csen in the list",
        "return document.getElementById('sibling-characters').textContent.includes('Csen')",
    );
    systems(gm, "soluna");
    set(gm, "#soluna-new input[name=name]", "Rook");
    set(gm, "#soluna-new input[name=side]", "moon");
    set(gm, "#soluna-new input[name=ranged]", "2");
    set(gm, "#soluna-new input[name=flips]", "0");
    press(gm, "#soluna-new button");
    gm.wait_for(
        "both in the skirmish's list",
        "const t = document.querySelector('#soluna-skirmish-start').textContent; return t.includes('Csen') && t.includes('Rook')",
    );
    // A player starts no skirmish: the form is the game master's.
    assert_eq!(
        pia.eval("return document.getElementById('soluna-skirmish-start').hidden"),
        Value::Bool(true)
    );
    press(gm, "#soluna-skirmish-start button");
    gm.wait_for(
        "the skirmish",
        "return document.querySelector('#soluna-skirmish .skirmish-state').textContent.includes('Waiting for')",
    );
    // Pia sees it live and only her own character's options. A shot of two dice with no
    // flips against Rook's armour 1 (Body 1, no shield): damage needs a pair, 6 of 36 rolls
    // (16.67%); taking out his 3 hit points needs a group of 4, impossible with 2 dice.
    pia.wait_for(
        "Csen's shot offered to Pia",
        "return [...document.querySelectorAll('#soluna-skirmish button.choice')].some(b => b.textContent.startsWith('Csen shoots Rook'))",
    );
    assert_eq!(
        pia.eval("return [...document.querySelectorAll('#soluna-skirmish button.choice')].every(b => b.dataset.name === 'Csen')"),
        Value::Bool(true)
    );
    let shot = pia.eval("return [...document.querySelectorAll('#soluna-skirmish button.choice')].find(b => b.textContent.startsWith('Csen shoots Rook')).textContent");
    assert_eq!(
        shot.as_str().unwrap(),
        "Csen shoots Rook — damage 16.67%, out 0.00%"
    );
    pia.screenshot(&shots.join("systems-3-phone-skirmish.png"));
    press_text(pia, "#soluna-skirmish button.choice", "Csen shoots Rook");
    gm.wait_for(
        "only Rook waits",
        "const t = document.querySelector('#soluna-skirmish .skirmish-state').textContent; return t.includes('Waiting for: Rook')",
    );
    press_text(gm, "#soluna-skirmish button.choice", "Rook shoots Csen");
    // The last decision in: the phase is rolled, its events shown to both.
    for b in [&gm, &pia] {
        b.wait_for(
            "the phase's events",
            "const t = document.querySelector('#soluna-skirmish .skirmish-events'); return t !== null && t.textContent.includes('Csen shoots Rook') || document.querySelector('#soluna-skirmish .skirmish-state').textContent.includes('phase 10')",
        );
    }
    gm.screenshot(&shots.join("systems-4-desktop-skirmish.png"));
    // The game master's page previews Brak's fight odds while Pia fights with him: a preview
    // sent before that page heard of the fight is refused (the fight's state moved on).
    only_refusals(
        gm,
        "the game master",
        &["422 /api/classic/characters/Brak/fight/odds"],
    );
    only_refusals(pia, "the player", &[]);
}

/// Project Sol: the player trains her character's skill (P3: the next rank, cost rating the
/// new rank × 2, once a session); a second training in the same session is refused where
/// it was asked; the game master's new session allows it again; the reward of Edge and the
/// new encounter are the game master's.
fn sol_training_and_sessions(gm: &Browser, pia: &Browser) {
    systems(pia, "sol");
    set(pia, "#sol-new input[name=name]", "Malcolm");
    set(pia, "#sol-new input[name=skills]", "Etiquette 2");
    press(pia, "#sol-new button");
    pia.wait_for(
        "Malcolm in the training's picker",
        "const s = document.querySelector('#sol-sessions select[name=sol-who]'); return s && [...s.options].some(o => o.value === 'Malcolm') && document.querySelector('#sol-sessions select[name=sol-skill]').value === 'Etiquette'",
    );
    assert_eq!(
        pia.eval("return document.querySelector('#sol-sessions .sol-gm').hidden"),
        Value::Bool(true)
    );
    press_text(pia, "#sol-sessions button", "Train the next rank");
    pia.wait_for(
        "Etiquette 3",
        "return document.querySelector('#sol-sessions .result-line').textContent === 'Malcolm: Etiquette trained to 3 ranks (cost rating 6)'",
    );
    press_text(pia, "#sol-sessions button", "Train the next rank");
    pia.wait_for(
        "the second training refused in place",
        "const e = document.querySelector('#sol-sessions > .error'); return e && !e.hidden && e.textContent.length > 0",
    );
    only_refusals(
        pia,
        "the player",
        &["422 /api/sol/characters/Malcolm/train"],
    );
    systems(gm, "sol");
    gm.wait_for(
        "Malcolm in the game master's picker",
        "const s = document.querySelector('#sol-sessions select[name=sol-who]'); return s && [...s.options].some(o => o.value === 'Malcolm')",
    );
    set(gm, "#sol-sessions select[name=sol-who]", "Malcolm");
    press_text(gm, "#sol-sessions button", "New encounter");
    gm.wait_for(
        "the encounter",
        "return document.querySelector('#sol-sessions .result-line').textContent === 'Malcolm: a new encounter'",
    );
    press_text(gm, "#sol-sessions button", "New session");
    gm.wait_for(
        "the session",
        "return document.querySelector('#sol-sessions .result-line').textContent.startsWith('Malcolm: a new session')",
    );
    press_text(pia, "#sol-sessions button", "Train the next rank");
    pia.wait_for(
        "Etiquette 4, the error gone",
        "const e = document.querySelector('#sol-sessions > .error'); return document.querySelector('#sol-sessions .result-line').textContent === 'Malcolm: Etiquette trained to 4 ranks (cost rating 8)' && (!e || e.hidden)",
    );
    // Edge outside a test (P2): Malcolm (Edge 2, refreshed by the session) seizes the
    // initiative, then burns a point for Not Dead Yet: AGI, his one physical attribute,
    // drops from 2 to 1, and P5 leaves Edge 0 of 1.
    set(
        pia,
        "#sol-sessions select[name=sol-spend]",
        "seize-the-initiative",
    );
    press_text(pia, "#sol-sessions button", "Spend a point of Edge");
    pia.wait_for(
        "the point spent",
        "return document.querySelector('#sol-sessions .result-line').textContent === 'Malcolm spends a point of Edge (1 of 2 left): top of the initiative order this round'",
    );
    press_text(pia, "#sol-sessions button", "Not Dead Yet");
    pia.wait_for(
        "the question",
        "return document.getElementById('confirm').open",
    );
    press(pia, "#confirm-yes");
    pia.wait_for(
        "Not Dead Yet",
        "return document.querySelector('#sol-sessions .result-line').textContent === 'Malcolm is not dead yet: AGI 2 → 1, Edge 0 of 1'",
    );
    pia.screenshot(&shots().join("systems-4-phone-sol-edge.png"));
}

/// Sol'una: the player changes her character's sheet, refused while the skirmish is under
/// way (its end writes the sheets back), taken once the game master has abandoned it.
fn soluna_sheet(gm: &Browser, pia: &Browser) {
    systems(pia, "soluna");
    set(pia, "#soluna-edit select[name=character]", "Csen");
    pia.wait_for(
        "Csen's sheet in the form",
        "return document.querySelector('#soluna-edit input[name=side]').value === 'sun'",
    );
    set(pia, "#soluna-edit input[name=shield]", "2");
    press(pia, "#soluna-edit button");
    pia.wait_for(
        "the refusal at the form",
        "const e = document.querySelector('#soluna-edit .error'); return e && !e.hidden && e.textContent.includes('skirmish')",
    );
    press_text(gm, "#soluna-skirmish button", "Abandon the skirmish");
    gm.wait_for(
        "the skirmish abandoned",
        "return ![...document.querySelectorAll('#soluna-skirmish button')].some(b => b.textContent.includes('Abandon the skirmish'))",
    );
    // The sheets written back refill the form once; then Mind 3 and Shield 2 are typed.
    std::thread::sleep(std::time::Duration::from_millis(1500));
    set(pia, "#soluna-edit input[name=mind]", "3");
    set(pia, "#soluna-edit input[name=shield]", "2");
    press(pia, "#soluna-edit button");
    // Mind 3 acts in phases ceil(10·i/3): 4, 7, 10 (U4).
    pia.wait_for(
        "the sheet changed",
        "const t = document.getElementById('sibling-verdict').textContent; return t.startsWith(\"Csen's sheet now: side sun · Mind 3\") && t.endsWith('acts in phases 4, 7, 10')",
    );
    let e =
        pia.eval("const e = document.querySelector('#soluna-edit .error'); return !e || e.hidden");
    assert_eq!(e, Value::Bool(true), "the refusal is cleared on success");
    only_refusals(pia, "the player", &["422 /api/soluna/characters/Csen"]);
}

/// Solum die types: the game master makes a character and changes its sheet.
fn dietype_sheet(gm: &Browser) {
    systems(gm, "dietype");
    set(gm, "#dietype-new input[name=name]", "Rook");
    press(gm, "#dietype-new button");
    gm.wait_for(
        "Rook in the edit picker",
        "const s = document.querySelector('#dietype-edit select[name=character]'); return s && [...s.options].some(o => o.value === 'Rook')",
    );
    set(gm, "#dietype-edit select[name=character]", "Rook");
    set(gm, "#dietype-edit input[name=abilities]", "Strength d10");
    set(gm, "#dietype-edit input[name=skills]", "Fight 3");
    press(gm, "#dietype-edit button");
    gm.wait_for(
        "the sheet changed",
        "return document.getElementById('sibling-verdict').textContent.startsWith(\"Rook's sheet now: Agility d6, Strength d10 · Fight 3\")",
    );
    // D2: at most 4 chances; the refusal shows at the form.
    set(gm, "#dietype-edit input[name=skills]", "Fight 5");
    press(gm, "#dietype-edit button");
    gm.wait_for(
        "the refusal at the form",
        "const e = document.querySelector('#dietype-edit .error'); return e && !e.hidden && e.textContent.length > 0",
    );
    gm.screenshot(&shots().join("systems-5-desktop-dietype-edit.png"));
    // Every field of the edit: a weapon given (a Dagger +1, D1's example), an ability taken
    // away; the whole sheet shows both.
    set(gm, "#dietype-edit input[name=skills]", "");
    set(gm, "#dietype-edit input[name=weapons]", "Dagger d4+1");
    set(gm, "#dietype-edit input[name=remove_abilities]", "Agility");
    press(gm, "#dietype-edit button");
    gm.wait_for(
        "Agility gone",
        "return document.getElementById('sibling-verdict').textContent.startsWith(\"Rook's sheet now: Strength d10 · \")",
    );
    gm.wait_for(
        "the weapon and the ability gone on Rook's die-type sheet",
        "const sec = [...document.querySelectorAll('.sibling-list section.system')].find(s => s.querySelector('h3').textContent === 'Die types'); const a = sec && [...sec.querySelectorAll('article.sheet')].find(a => a.querySelector('h4').textContent === 'Rook'); const stat = k => { const r = a && [...a.querySelectorAll('.stat')].find(r => r.querySelector('dt').textContent === k); return r ? r.querySelector('dd').textContent : '' }; return stat('Weapons') === 'Dagger d4+1' && stat('Abilities') === 'Strength d10'",
    );
}
