//! End-to-end tests in headless Chromium (Debian's `chromium` and `chromium-driver`) against
//! the real server on a free loopback port and a campaign in a tempdir.
//!
//! `a_table_in_two_browsers`: a game master on a laptop and a player on a phone at one
//! table: the layout (tabs beside the feed, a bottom tab bar on the phone), errors shown
//! where the action was and cleared, the odds following the keyboard, each other's rolls
//! live in the feed with when and what, a secret roll marked for the game master that the
//! player's browser never receives, a reload that costs one fetch per panel, an invite
//! opened while signed in (asked first), and a logout (asked first). The browsers' consoles
//! are read: no request answers 4xx but the refusals the test asks for.
//!
//! `every_tab_passes_axe`: axe-core (npm, installed by `.ci/run`) on every tab, at desktop
//! (1280×800) and phone (390×844) sizes: no serious or critical violation.
//!
//! Screenshots go to `target/e2e-screenshots/`.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

#[path = "browser/kit.rs"]
mod kit;
#[path = "browser/webdriver.rs"]
mod webdriver;

use std::path::Path;

use kit::{
    CHROMEDRIVER, CHROMIUM, ENTER, axe, axe_source, failed_requests, js, set, shots, start_server,
};
use serde_json::json;
use webdriver::{Browser, Driver};

const RIGHT: &str = "\u{E014}";

fn tools() {
    for tool in [CHROMIUM, CHROMEDRIVER] {
        assert!(
            Path::new(tool).exists(),
            "{tool} is missing: apt-get install -y chromium chromium-driver (.ci/run does it)"
        );
    }
}

/// A script: does a feed entry contain `needle`?
fn journal_has(needle: &str) -> String {
    format!(
        "return [...document.querySelectorAll('#journal li')].some(li => li.textContent.includes({}))",
        js(needle)
    )
}

fn fill(b: &Browser, css: &str, text: &str) {
    let e = b.find(css);
    b.type_in(&e, text);
}

fn text_of(b: &Browser, css: &str) -> String {
    b.eval(&format!(
        "const e = document.querySelector({}); return e ? e.textContent : null",
        js(css)
    ))
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// Selects a tab by clicking it.
fn tab(b: &Browser, name: &str) {
    b.click(&b.find(&format!("#tab-{name}")));
    b.wait_for(
        name,
        &format!(
            "return document.getElementById('tab-{name}').getAttribute('aria-selected') === 'true'"
        ),
    );
}

/// Asserts that every failed request is one of `allowed` (refusals the test asked for).
fn only_refusals(b: &Browser, who: &str, allowed: &[&str]) {
    let failed = failed_requests(b);
    for f in &failed {
        assert!(
            allowed.contains(&f.as_str()),
            "{who}: an unexpected failed request {f} (all: {failed:?})"
        );
    }
}

/// Creates a table in a fresh browser and waits for it.
fn create_table(b: &Browser, url: &str, table: &str, name: &str) {
    b.go(url);
    b.wait_for(
        "the sign-in form",
        "return !document.getElementById('signin').hidden",
    );
    fill(b, "#create input[name=table]", table);
    fill(b, "#create input[name=name]", &format!("{name}{ENTER}"));
    b.wait_for(
        "the table",
        "return !document.getElementById('table').hidden && document.querySelector('#check select[name=character]') !== null",
    );
}

/// Chooses an option or clicks an element, found and used in one step in the page.
fn choose(b: &Browser, css: &str) {
    b.find(css);
    b.wait_for(
        css,
        &format!(
            "const e = document.querySelector({}); if (!e) return false; if (e.tagName === 'OPTION') {{ e.selected = true; e.parentElement.dispatchEvent(new Event('input', {{bubbles: true}})); e.parentElement.dispatchEvent(new Event('change', {{bubbles: true}})); }} else e.click(); return true",
            js(css)
        ),
    );
}

const CREATE: &str = "form.create-character";

/// Fills the Characters tab's creation form (attributes 3, 2 and 1 in the order given) and
/// sends it.
fn send_character(b: &Browser, name: &str, body: u32, mind: u32, charm: u32, background: &str) {
    tab(b, "characters");
    set(b, &format!("{CREATE} input[name=name]"), name);
    for (attr, value) in [("body", body), ("mind", mind), ("charm", charm)] {
        choose(
            b,
            &format!("{CREATE} select[name={attr}] option[value='{value}']"),
        );
    }
    set(b, &format!("{CREATE} input[name=background]"), background);
    choose(b, &format!("{CREATE} button"));
}

fn new_character(b: &Browser, name: &str, body: u32, mind: u32, charm: u32, background: &str) {
    send_character(b, name, body, mind, charm, background);
    b.wait_for(
        "the new character made",
        &format!(
            "const r = document.querySelector('.creation-result'); return !!r && r.textContent.includes({})",
            js(&format!("{name} is made"))
        ),
    );
}

#[test]
fn a_table_in_two_browsers() {
    tools();
    let dir = tempfile::tempdir().unwrap();
    let addr = start_server(dir.path().join("campaign.solum"));
    let url = format!("http://{addr}/");
    let shots = shots();
    let driver = Driver::start(Path::new(CHROMEDRIVER));
    let chromium = Path::new(CHROMIUM);

    // The game master: a laptop-sized window.
    let gm = driver.browser(chromium, &dir.path().join("profile-gm"), 1280, 800);
    gm.go(&url);
    gm.wait_for(
        "the sign-in form",
        "return !document.getElementById('signin').hidden",
    );
    gm.screenshot(&shots.join("1-sign-in.png"));
    create_table(&gm, &url, "The Reach", "Ada");
    // The header: the table, who I am, who is at the table, the connection.
    assert_eq!(text_of(&gm, "#table-name"), "The Reach");
    assert_eq!(text_of(&gm, "#who"), "Ada (game master)");
    assert_eq!(text_of(&gm, "#members"), "Ada (GM)");
    assert_eq!(text_of(&gm, "#scene-title"), "none");
    gm.wait_for(
        "the live stream",
        "return document.getElementById('conn').textContent === 'live'",
    );
    assert_eq!(
        gm.eval("return document.getElementById('conn').getAttribute('aria-live')"),
        "polite"
    );

    // Every field has a label a screen reader reads; none is left unnamed.
    let unlabelled = gm.eval(
        "return [...document.querySelectorAll('input, select, textarea')].filter(e => !e.labels.length && !e.getAttribute('aria-label')).map(e => e.name || e.id)",
    );
    assert_eq!(unlabelled, json!([]));

    // Tabs are ARIA tabs: the right arrow moves to the next tab and selects it.
    assert_eq!(
        gm.eval("return document.querySelector('[role=tab][aria-selected=true]').id"),
        "tab-play"
    );
    gm.keys(&gm.find("#tab-play"), RIGHT);
    gm.wait_for(
        "the Characters tab by keyboard",
        "return document.activeElement.id === 'tab-characters' && document.getElementById('tab-characters').getAttribute('aria-selected') === 'true' && !document.getElementById('panel-characters').hidden && document.getElementById('panel-play').hidden",
    );
    a_check_with_its_odds_and_typed_dice(&gm);
    the_odds_of_any_dice(&gm, &shots);
    a_scene_the_oracle_and_another_system(&gm, &shots);
    let link = an_invite_link(&gm, &shots);
    let pia = driver.browser(chromium, &dir.path().join("profile-pia"), 390, 844);
    pia_joins_on_a_phone(&gm, &pia, &link, &shots);
    rolls_and_words_reach_both_pages(&gm, &pia);
    secrets_never_reach_the_player(&gm, &pia, &url, &shots);
    an_invite_while_signed_in_asks_first(&gm, &pia, &link, &shots);
    logging_out_and_coming_back(&gm, &pia, &url, &shots);
    the_gm_reinvites_and_is_warned_at_logout(&gm);
}

/// A refused character, then a check with its odds and with dice typed by hand.
fn a_check_with_its_odds_and_typed_dice(gm: &Browser) {
    // A character the rules refuse (a blank-looking name): the API's message next to the
    // form that sent it, then gone once the form succeeds.
    send_character(gm, "\u{200B}", 3, 2, 1, "Sailor");
    gm.wait_for(
        "the refusal beside the form",
        &format!(
            "const e = document.querySelector('{CREATE} .error'); return !!e && !e.hidden && e.getAttribute('role') === 'alert' && e.textContent.length > 0"
        ),
    );
    new_character(gm, "Nick", 3, 2, 1, "Sailor");
    gm.wait_for(
        "the error gone",
        &format!(
            "const e = document.querySelector('{CREATE} .error'); return !e || e.hidden || e.textContent === ''"
        ),
    );

    // The odds before the roll: Body 3 against difficulty 4, no background: the best of
    // three dice must reach 4: 1 - (1/2)^3 = 7/8. The exact fraction on demand.
    tab(gm, "play");
    gm.wait_for(
        "the odds",
        "return document.getElementById('odds').textContent.startsWith('Chance to pass: 87.50%')",
    );
    assert_eq!(
        gm.eval("return document.querySelector('#odds .exact').hidden"),
        true
    );
    gm.click(&gm.find("#odds .exact-toggle"));
    assert_eq!(text_of(gm, "#odds .exact"), "7/8");
    assert_eq!(
        gm.eval("return document.querySelector('#odds .exact').hidden"),
        false
    );
    // Typing a new difficulty updates the odds at once, before the field is left: against
    // 5, 1 - (4/6)^3 = 19/27 = 70.37%.
    let number = gm.find("#check input[name=number]");
    gm.type_in(&number, "5");
    gm.wait_for(
        "the odds while typing",
        "return document.getElementById('odds').textContent.startsWith('Chance to pass: 70.37%') && document.activeElement.name === 'number'",
    );
    assert_eq!(
        gm.eval("return document.querySelectorAll('#dice .die').length"),
        0,
        "no dice before the roll"
    );
    gm.click(&gm.find("#check button:not([type=button])"));
    gm.wait_for(
        "the dice",
        "return document.querySelectorAll('#dice .die').length === 3",
    );
    let faces: Vec<u32> = serde_json::from_value(gm.eval(
        "return [...document.querySelectorAll('#dice .die')].map(d => Number(d.textContent))",
    ))
    .unwrap();
    assert!(faces.iter().all(|f| (1..=6).contains(f)), "{faces:?}");
    let passed = faces.iter().any(|&f| f >= 5);
    let verdict = text_of(gm, "#verdict");
    assert!(
        verdict.ends_with(if passed { "passed" } else { "failed" }),
        "{faces:?} {verdict}"
    );
    // The verdict is announced.
    assert_eq!(
        gm.eval("return document.getElementById('verdict').getAttribute('aria-live')"),
        "assertive"
    );
    // The feed shows it at once, with when (exact on hover) and the dice.
    gm.wait_for(
        "the check in the feed",
        &journal_has("Nick rolls body vs 5"),
    );
    let entry = gm.eval(
        "const li = [...document.querySelectorAll('#journal li')].pop(); const t = li.querySelector('time'); return [t.textContent, t.title.length > 0, t.dateTime.length > 0, li.querySelectorAll('.die').length]",
    );
    assert_eq!(entry, json!(["just now", true, true, 3]));

    // Real dice typed wrong: the error beside the check form, and the last roll's dice and
    // verdict gone (they would read as this roll's). Typed right: the error goes.
    fill(gm, "#check input[name=typed]", &format!("1 2{ENTER}"));
    gm.wait_for(
        "the refusal beside the check",
        "const e = document.querySelector('#check > .error'); return !!e && !e.hidden && e.textContent.length > 0 && document.querySelectorAll('#dice .die').length === 0 && document.getElementById('verdict').textContent === ''",
    );
    // The odds refreshed meanwhile (the table changed: here the number field says so) leave
    // the refusal where it is: it goes with the next roll, not with the next odds.
    gm.eval(
        "document.getElementById('odds').textContent = ''; document.querySelector('#check input[name=number]').dispatchEvent(new Event('input', {bubbles: true})); return true",
    );
    gm.wait_for(
        "the odds again, the refusal still shown",
        "const e = document.querySelector('#check > .error'); return document.getElementById('odds').textContent.startsWith('Chance to pass: 70.37%') && !!e && !e.hidden && e.textContent.length > 0",
    );
    // 1, 2 and 3 against difficulty 5 fail (the best, 3, is under 5; no 6, no chain).
    fill(gm, "#check input[name=typed]", &format!("1 2 3{ENTER}"));
    gm.wait_for(
        "the typed check",
        "return document.getElementById('verdict').textContent === 'Real dice: Nick checks body against difficulty 5: 3 — failed' && document.querySelector('#check > .error').hidden",
    );
    gm.wait_for(
        "the typed check in the feed, marked",
        "return [...document.querySelectorAll('#journal li')].some(li => li.textContent.includes('Nick rolls body vs 5 (3 dice: 1 2 3; result 3): failure') && li.querySelector('.typed'))",
    );
}

/// The odds of any dice as a chart, and a roll of an expression.
fn the_odds_of_any_dice(gm: &Browser, shots: &Path) {
    // The odds of any dice, as a chart with labelled axes: 2d6 has eleven sums, 7 the
    // likeliest at 6/36; a bar is read by focus (or tap), not only by hovering.
    fill(
        gm,
        "#odds-form input[name=expression]",
        &format!("2d6{ENTER}"),
    );
    gm.wait_for(
        "the chart",
        "return document.querySelectorAll('#chart .bar').length === 11 && document.getElementById('odds-summary').textContent.startsWith('2d6')",
    );
    assert!(
        text_of(gm, "#odds-summary").contains("most likely 7 at 16.67% (1/6)"),
        "{}",
        text_of(gm, "#odds-summary")
    );
    assert_eq!(text_of(gm, ".y-label"), "chance");
    assert!(text_of(gm, ".x-label").starts_with("total"));
    gm.click(&gm.find("#chart .bar[data-value=\"7\"]"));
    assert_eq!(text_of(gm, "#chart-read"), "Total 7: 16.67% (1/6)");
    // By keyboard too: a bar is focusable and reads itself when focused.
    gm.eval("document.querySelector('#chart .bar[data-value=\"8\"]').dispatchEvent(new FocusEvent('focus')); return true");
    assert_eq!(text_of(gm, "#chart-read"), "Total 8: 13.89% (5/36)");
    assert_eq!(
        gm.eval("return document.querySelector('#chart .bar').tabIndex"),
        0
    );
    // A wrong expression: the error beside the form, the old chart gone.
    fill(gm, "#odds-form input[name=expression]", "2d");
    gm.wait_for(
        "the refusal beside the dice form",
        "const e = document.querySelector('#odds-form > .error'); return !!e && !e.hidden && e.textContent.includes('the sides of the die') && document.querySelectorAll('#chart .bar').length === 0",
    );
    // 4d6kh3 has sixteen sums, 3 to 18; Roll draws every die.
    fill(gm, "#odds-form input[name=expression]", "4d6kh3");
    gm.wait_for(
        "the odds of 4d6kh3 before the roll",
        "return document.getElementById('odds-summary').textContent.startsWith('4d6kh3') && document.querySelectorAll('#chart .bar').length === 16 && document.querySelector('#odds-form > .error').hidden",
    );
    gm.click(&gm.find("#roll-expression"));
    gm.wait_for(
        "the four dice",
        "return document.querySelectorAll('#expression-dice .die').length === 4",
    );
    let faces: Vec<i64> = serde_json::from_value(gm.eval(
        "return [...document.querySelectorAll('#expression-dice .die')].map(d => Number(d.textContent))",
    ))
    .unwrap();
    let mut sorted = faces.clone();
    sorted.sort_unstable();
    let total = sorted[1] + sorted[2] + sorted[3];
    assert_eq!(
        text_of(gm, "#expression-total"),
        format!("4d6kh3 = {total}"),
        "{faces:?}"
    );
    assert_eq!(
        gm.eval("return document.querySelector('#chart .bar.hit').dataset.value"),
        total.to_string()
    );
    gm.wait_for(
        "the roll in the feed",
        &journal_has(&format!("Roll 4d6kh3 = {total}")),
    );
    gm.screenshot(&shots.join("2-desktop-play.png"));
}

/// A scene, the oracle, idea words, and a Sol'una character's test.
fn a_scene_the_oracle_and_another_system(gm: &Browser, shots: &Path) {
    // A scene, in the header for everyone; the oracle and idea words in the Solo tab.
    tab(gm, "solo");
    fill(gm, "#scene input[name=title]", "The docks");
    fill(gm, "#scene input[name=goal]", &format!("find Ida{ENTER}"));
    gm.wait_for(
        "the scene in the header",
        "return document.getElementById('scene-title').textContent === 'The docks — find Ida'",
    );
    fill(
        gm,
        "#ask input[name=question]",
        &format!("Is the harbour watched?{ENTER}"),
    );
    gm.wait_for(
        "the oracle's answer and dice",
        "return document.getElementById('answer').textContent.length > 0 && document.querySelectorAll('#oracle-dice .die').length > 0",
    );
    gm.eval("const s = document.querySelector('#idea select[name=genre]'); s.value = 'horror'; return true");
    gm.click(&gm.find("#idea button"));
    gm.wait_for(
        "two idea words",
        "return document.getElementById('words').textContent.split(', ').length === 2",
    );
    gm.screenshot(&shots.join("3-desktop-solo.png"));

    // Other systems: not a tab until the table plays one, but at hand in More.
    assert_eq!(
        gm.eval("return document.getElementById('tab-systems').hidden"),
        true
    );
    gm.click(&gm.find("#more summary"));
    gm.click(&gm.find("#open-systems"));
    gm.wait_for(
        "the Other systems tab",
        "return document.getElementById('tab-systems').getAttribute('aria-selected') === 'true'",
    );
    // A Sol'una character, then a test of its two ranged dice against 2 (a pair): 6 pairs
    // in 36 rolls, 16.67% before the roll.
    gm.eval("const s = document.querySelector('#sibling-system select'); s.value = 'soluna'; s.dispatchEvent(new Event('change')); return true");
    fill(gm, "#soluna-new input[name=name]", "Csen");
    fill(gm, "#soluna-new input[name=ranged]", "2");
    fill(gm, "#soluna-new input[name=flips]", &format!("0{ENTER}"));
    gm.wait_for(
        "Csen in the list",
        "return document.getElementById('sibling-characters').textContent.includes('Csen')",
    );
    gm.eval("const s = document.querySelector('#soluna-test select[name=attack]'); s.value = 'ranged'; return true");
    fill(gm, "#soluna-test input[name=target]", &format!("2{ENTER}"));
    gm.wait_for(
        "the Sol'una test",
        "return document.getElementById('sibling-verdict').textContent.includes('chance before the roll 16.67%')",
    );
    assert_eq!(
        gm.eval("return document.querySelectorAll('#sibling-dice .die').length"),
        2
    );
    gm.wait_for("the test in the feed", &journal_has("Sol'una: Csen"));
    gm.screenshot(&shots.join("4-desktop-other-systems.png"));
}

/// An invite link for a player, made in the menu.
fn an_invite_link(gm: &Browser, shots: &Path) -> String {
    // An invite link for a player, who opens it on a phone.
    gm.click(&gm.find("#menu summary"));
    gm.click(&gm.find("#invite button:not([type=button])"));
    gm.wait_for(
        "the invite link",
        "return document.getElementById('invite-link').value.includes('#invite=')",
    );
    let link = gm.eval("return document.getElementById('invite-link').value");
    let link = link.as_str().unwrap().to_string();
    gm.screenshot(&shots.join("5-desktop-menu.png"));
    gm.click(&gm.find("#menu summary"));
    link
}

/// Pia opens the invite on a phone and joins; the headers follow.
fn pia_joins_on_a_phone(gm: &Browser, pia: &Browser, link: &str, shots: &Path) {
    pia.go(link);
    pia.wait_for(
        "the join form",
        "return !document.getElementById('join').hidden",
    );
    fill(pia, "#join input[name=name]", &format!("Pia{ENTER}"));
    pia.wait_for(
        "the table",
        "return !document.getElementById('table').hidden && document.getElementById('conn').textContent === 'live'",
    );
    assert_eq!(text_of(pia, "#who"), "Pia (player)");
    assert_eq!(text_of(pia, "#members"), "Ada (GM), Pia");
    // The game master's header follows the live stream: Pia is at the table, present, in
    // seconds (the header's own re-read of the members comes once a minute only).
    gm.wait_for(
        "Pia present in the game master's header",
        "return document.getElementById('members').textContent === 'Ada (GM), Pia' && document.querySelectorAll('#members .member.present').length === 2",
    );
    assert_eq!(text_of(pia, "#scene-title"), "The docks — find Ida");
    assert_eq!(
        pia.eval("return document.querySelectorAll('.gm-only:not([hidden])').length"),
        0
    );
    // A player does not end the game master's scene.
    assert_eq!(
        pia.eval("return document.getElementById('scene-end').hidden"),
        true
    );
    assert_eq!(
        gm.eval("return document.getElementById('scene-end').hidden"),
        false
    );
    // The phone: the tabs are a bar at the bottom of the screen, the feed one of them.
    let bar = pia.eval(
        "const r = document.getElementById('tabs').getBoundingClientRect(); return [Math.round(r.bottom) >= window.innerHeight - 8, getComputedStyle(document.getElementById('tab-feed')).display !== 'none', getComputedStyle(document.getElementById('feed')).display]",
    );
    assert_eq!(bar, json!([true, true, "none"]));
    pia.screenshot(&shots.join("6-phone-play.png"));
    tab(pia, "feed");
    pia.wait_for(
        "the feed on the phone",
        "return getComputedStyle(document.getElementById('feed')).display !== 'none' && document.getElementById('panel-play').offsetParent === null",
    );
    // The player caught up on what happened before she came.
    pia.wait_for("the earlier check", &journal_has("Nick rolls body"));
    pia.screenshot(&shots.join("7-phone-feed.png"));
    // The desktop keeps the feed beside the tabs, always.
    assert_eq!(
        gm.eval("const f = document.getElementById('feed').getBoundingClientRect(), w = document.querySelector('.work').getBoundingClientRect(); return f.left > w.right - 1 && f.width > 200"),
        true
    );
}

/// Rolls and words reach both pages live; markup stays text.
fn rolls_and_words_reach_both_pages(gm: &Browser, pia: &Browser) {
    // Pia's roll reaches the game master's open page live, and the other way round.
    new_character(pia, "Bo", 1, 3, 2, "Scholar");
    tab(pia, "play");
    pia.wait_for(
        "Bo's odds",
        "return document.getElementById('odds').textContent.startsWith('Chance')",
    );
    pia.eval("const s = document.querySelector('#check select[name=attribute]'); s.value = 'mind'; s.dispatchEvent(new Event('input', {bubbles: true})); return true");
    pia.type_in(&pia.find("#check input[name=number]"), "5");
    // Mind 3 against 5: 1 - (4/6)^3 = 19/27.
    pia.wait_for(
        "Bo's mind odds",
        "return document.getElementById('odds').textContent.startsWith('Chance to pass: 70.37%')",
    );
    pia.click(&pia.find("#check button:not([type=button])"));
    gm.wait_for(
        "Pia's roll on the GM's page",
        &journal_has("Bo rolls mind vs 5"),
    );
    tab(gm, "solo");
    fill(
        gm,
        "#ask input[name=question]",
        &format!("Is the tide turning?{ENTER}"),
    );
    pia.wait_for(
        "the GM's question on Pia's page",
        &journal_has("Is the tide turning?"),
    );

    // Combat by clicking, for both people at the table, is tests/browser_sheets.rs.

    // Markup in a player's words stays text on every screen.
    let payload =
        "<img src=x onerror=\"document.title='pwned'\"><script>document.title='pwned'</script>";
    tab(pia, "play");
    fill(pia, "#note textarea", payload);
    pia.click(&pia.find("#note button"));
    for b in [gm, pia] {
        b.wait_for("the note with markup", &journal_has(payload));
        assert_eq!(
            b.eval("return document.querySelectorAll('#journal img, #journal script').length"),
            0
        );
        assert!(
            b.eval("return document.title")
                .as_str()
                .unwrap()
                .ends_with("solum")
        );
    }
}

/// The game master's secrets never reach the player's browser, before or after a reload.
fn secrets_never_reach_the_player(gm: &Browser, pia: &Browser, url: &str, shots: &Path) {
    // A secret question: marked "secret" in words on the game master's feed, with Reveal;
    // the player's browser never gets it.
    tab(gm, "solo");
    gm.click(&gm.find("#ask input[name=secret]"));
    fill(
        gm,
        "#ask input[name=question]",
        &format!("Is Pia the traitor?{ENTER}"),
    );
    gm.wait_for(
        "the secret answer",
        "return document.getElementById('answer').textContent.startsWith('Secret: ')",
    );
    gm.wait_for(
        "the secret marked in words, with Reveal",
        "return [...document.querySelectorAll('#journal li.secret')].some(li => li.textContent.includes('Is Pia the traitor?') && li.querySelector('.tag').textContent === 'secret' && li.querySelector('button.reveal'))",
    );
    gm.click(&gm.find("#ask input[name=secret]"));
    // A secret roll of any dice, too.
    tab(gm, "play");
    gm.click(&gm.find("#odds-form input[name=secret]"));
    fill(gm, "#odds-form input[name=expression]", "3d6 [vault]");
    gm.click(&gm.find("#roll-expression"));
    gm.wait_for(
        "the secret dice",
        "return document.getElementById('expression-total').textContent.startsWith('Secret: 3d6 [vault] = ')",
    );
    gm.click(&gm.find("#odds-form input[name=secret]"));
    fill(gm, "#note textarea", "The tide turns.");
    gm.click(&gm.find("#note button"));
    // The note comes after the secrets: once Pia has it, they had their chance to leak.
    pia.wait_for(
        "the note after the secret roll",
        &journal_has("The tide turns."),
    );
    let html = pia
        .eval("return document.documentElement.outerHTML")
        .as_str()
        .unwrap()
        .to_string();
    assert!(!html.contains("traitor"), "the secret reached the player");
    assert!(
        !html.contains("vault"),
        "the secret roll reached the player"
    );
    tab(pia, "feed");
    fill(pia, "#search input[name=q]", &format!("traitor{ENTER}"));
    pia.wait_for(
        "the search",
        "return !document.getElementById('found').hidden",
    );
    assert!(text_of(pia, "#found").contains("Nothing found."));

    // A reload: the game master's feed still marks the secrets, and the page fetches each
    // panel's data once, whatever the journal holds.
    gm.go(url);
    gm.wait_for(
        "the secret marks after a reload",
        "return [...document.querySelectorAll('#journal li.secret')].filter(li => li.textContent.includes('Is Pia the traitor?') || li.textContent.includes('[vault]')).length === 2 && document.getElementById('journal').textContent.includes('The tide turns.') && document.getElementById('conn').textContent === 'live'",
    );
    std::thread::sleep(std::time::Duration::from_millis(500));
    // Once per panel that shows it (the Play tab's check, the Characters tab and the Combat
    // tab's hero picker read the characters; the Characters and Other systems tabs the other
    // systems' sheets), however many character and combat entries the journal holds: never
    // one per replayed entry.
    let fetched = gm.eval(
        "const n = (p) => performance.getEntriesByType('resource').filter(e => new URL(e.name).pathname === p).length; return [n('/api/characters'), n('/api/combat'), n('/api/systems/characters'), n('/api/journal')]",
    );
    let within = |i: usize, most: u64| fetched[i].as_u64().is_some_and(|n| (1..=most).contains(&n));
    assert!(
        within(0, 3) && within(1, 1) && within(2, 2) && within(3, 2),
        "characters, combat, systems, journal (the page and the scene): {fetched}"
    );
    gm.screenshot(&shots.join("8-desktop-after-reload.png"));
    // The player's seqs skip the secret entries: a gap, nothing else.
    let seqs: Vec<i64> = serde_json::from_value(pia.eval(
        "return [...document.querySelectorAll('#journal li')].map(li => Number(li.dataset.seq))",
    ))
    .unwrap();
    let gm_seqs: Vec<i64> = serde_json::from_value(gm.eval(
        "return [...document.querySelectorAll('#journal li')].map(li => Number(li.dataset.seq))",
    ))
    .unwrap();
    assert_eq!(gm_seqs.len(), seqs.len() + 2, "{gm_seqs:?} {seqs:?}");
    assert!(seqs.windows(2).all(|w| w[0] < w[1]), "in order: {seqs:?}");
    assert!(gm_seqs.windows(2).all(|w| w[0] < w[1]), "{gm_seqs:?}");

    // The consoles so far: only the refusals this test asked for.
    only_refusals(
        gm,
        "the game master",
        &[
            "422 /api/characters",
            "422 /api/characters/Nick/check",
            "422 /api/odds",
        ],
    );
    only_refusals(pia, "the player", &[]);
}

/// An invite opened while signed in asks before switching tables.
fn an_invite_while_signed_in_asks_first(gm: &Browser, pia: &Browser, link: &str, shots: &Path) {
    // An invite opened while signed in: the page says where she is and asks before
    // switching tables; she stays.
    gm.click(&gm.find("#menu summary"));
    gm.click(&gm.find("#invite button:not([type=button])"));
    gm.wait_for(
        "a second invite link",
        &format!(
            "return document.getElementById('invite-link').value.includes('#invite=') && document.getElementById('invite-link').value !== {}",
            js(link)
        ),
    );
    let link2 = gm.eval("return document.getElementById('invite-link').value");
    pia.go(link2.as_str().unwrap());
    pia.wait_for(
        "the join form that says where she is",
        "return !document.getElementById('join').hidden && document.getElementById('join-held').textContent.includes('You are signed in at The Reach as Pia')",
    );
    fill(pia, "#join input[name=name]", &format!("Pia again{ENTER}"));
    pia.wait_for(
        "the question before switching",
        "const d = document.getElementById('confirm'); return d.open && d.textContent.includes('The Reach')",
    );
    pia.screenshot(&shots.join("9-phone-switch-asked.png"));
    assert_eq!(text_of(pia, "#confirm-no"), "Stay at The Reach");
    pia.click(&pia.find("#confirm-no"));
    pia.wait_for(
        "back at her table as Pia",
        "return !document.getElementById('table').hidden && document.getElementById('who').textContent === 'Pia (player)' && location.hash === ''",
    );
    only_refusals(pia, "the player", &["409 /api/join"]);
}

/// A re-entry link, logging out, and coming back by the link once.
fn logging_out_and_coming_back(gm: &Browser, pia: &Browser, url: &str, shots: &Path) {
    // Her personal re-entry link, made in the table's menu and shown once.
    pia.click(&pia.find("#menu summary"));
    pia.click(&pia.find("#reentry-make"));
    pia.wait_for(
        "the re-entry link",
        "return !document.getElementById('reentry-box').hidden && document.getElementById('reentry-link').value.includes('/#reentry=')",
    );
    let reentry = pia.eval("return document.getElementById('reentry-link').value");
    let reentry = reentry.as_str().unwrap().to_string();

    // Logging out asks first and says how to come back; staying keeps the session.
    pia.click(&pia.find("#logout"));
    pia.wait_for(
        "the question before logging out",
        "const d = document.getElementById('confirm'); return d.open && d.textContent.includes('re-entry link')",
    );
    pia.click(&pia.find("#confirm-no"));
    assert_eq!(
        pia.eval("return localStorage.getItem('solum.token') !== null && !document.getElementById('confirm').open"),
        true
    );
    let token = pia.eval("return localStorage.getItem('solum.token')");
    pia.click(&pia.find("#logout"));
    pia.wait_for(
        "the question again",
        "return document.getElementById('confirm').open",
    );
    pia.click(&pia.find("#confirm-yes"));
    pia.wait_for(
        "the sign-in form after logging out",
        "return !document.getElementById('signin').hidden && localStorage.getItem('solum.token') === null",
    );
    only_refusals(pia, "the player", &[]);
    // Her streams ended with her session: the game master sees her away.
    gm.wait_for(
        "Pia away in the game master's header",
        "return document.getElementById('members').textContent === 'Ada (GM), Pia (away)' && document.querySelector('#members .member.away') !== null",
    );
    let status = pia.eval(&format!(
        "const r = new XMLHttpRequest(); r.open('GET', '/api/me', false); r.setRequestHeader('Authorization', 'Bearer ' + {token}); r.send(); return r.status"
    ));
    assert_eq!(status, 401);
    // That refusal was the test's own request (the console names a synchronous request's
    // failure "network …" where a fetch's names its address).
    only_refusals(pia, "the player", &["401 network", "401 /api/me"]);

    // The re-entry link brings her back as Pia, once.
    pia.go(&reentry);
    pia.wait_for(
        "the form that signs in again",
        "return !document.getElementById('back').hidden && document.getElementById('back-held').hidden && document.getElementById('join').hidden",
    );
    pia.screenshot(&shots.join("10-phone-reentry.png"));
    pia.click(&pia.find("#back button:not([type=button])"));
    pia.wait_for(
        "back at the table as Pia",
        "return !document.getElementById('table').hidden && document.getElementById('who').textContent === 'Pia (player)' && location.hash === '' && document.getElementById('conn').textContent === 'live'",
    );
    only_refusals(pia, "the player", &[]);

    // The same link a second time (her session set aside for it): the page says it was
    // used, where the button was, and offers no button that would send it again.
    let session = pia.eval(
        "const t = localStorage.getItem('solum.token'); localStorage.removeItem('solum.token'); return t",
    );
    pia.go(&reentry);
    pia.wait_for(
        "the form that signs in again",
        "return !document.getElementById('back').hidden",
    );
    pia.click(&pia.find("#back button:not([type=button])"));
    pia.wait_for(
        "the refusal that says the link was used",
        "const f = document.getElementById('back'); const e = f.querySelector('.error'); return f.dataset.refused === 'reentry-used' && e && !e.hidden && e.textContent.includes('already used') && f.querySelector('button:not([type])').hidden",
    );
    pia.screenshot(&shots.join("10b-phone-reentry-used.png"));
    only_refusals(pia, "the player", &["403 /api/reentry"]);
    pia.eval(&format!(
        "localStorage.setItem('solum.token', {session}); return true"
    ));
    pia.go(url);
    pia.wait_for(
        "back at the table as Pia",
        "return !document.getElementById('table').hidden && document.getElementById('who').textContent === 'Pia (player)' && document.getElementById('conn').textContent === 'live'",
    );
}

/// The game master re-invites Pia; the only game master is warned at logout.
fn the_gm_reinvites_and_is_warned_at_logout(gm: &Browser) {
    // The game master re-invites Pia from the menu (a re-entry link for her). Opened in the
    // game master's own browser, signed in at The Reach: the page asks before switching,
    // and staying keeps her session.
    gm.eval("document.getElementById('menu').open = true; return true");
    choose(gm, "#reinvite select[name=member] option:not([value=''])");
    assert_eq!(
        text_of(gm, "#reinvite select[name=member] option:checked"),
        "Pia"
    );
    assert_eq!(
        gm.eval("const f = document.getElementById('reinvite'); return [f.hidden, document.getElementById('menu').open, f.getBoundingClientRect().height > 0]"),
        json!([false, true, true])
    );
    gm.click(&gm.find("#reinvite button"));
    gm.wait_for(
        "Pia's re-entry link",
        "return document.getElementById('reentry-for').textContent.includes('for Pia') && document.getElementById('reentry-link').value.includes('/#reentry=')",
    );
    let reinvite = gm.eval("return document.getElementById('reentry-link').value");
    gm.go(reinvite.as_str().unwrap());
    gm.wait_for(
        "the form that says where she is",
        "return !document.getElementById('back').hidden && document.getElementById('back-held').textContent.includes('You are signed in at The Reach as Ada')",
    );
    gm.click(&gm.find("#back button:not([type=button])"));
    gm.wait_for(
        "the question before switching",
        "const d = document.getElementById('confirm'); return d.open && d.textContent.includes('The Reach')",
    );
    // (Clicked in the page: chromedriver calls this modal's button "not interactable"
    // after the fragment-only navigation, though it is shown and on top.)
    choose(gm, "#confirm-no");
    gm.wait_for(
        "still Ada at The Reach",
        "return !document.getElementById('table').hidden && document.getElementById('who').textContent === 'Ada (game master)' && location.hash === ''",
    );
    only_refusals(gm, "the game master", &["409 /api/reentry"]);

    // The only game master of a table made on the page is told there is no way back
    // without a re-entry link.
    gm.click(&gm.find("#menu summary"));
    gm.click(&gm.find("#logout"));
    gm.wait_for(
        "the game master's question",
        "const d = document.getElementById('confirm'); return d.open && d.textContent.includes('only game master')",
    );
    gm.click(&gm.find("#confirm-no"));
}

/// A combat begun with dice rolled by hand (a game master alone at the table may type them).
fn start_combat_with_typed_initiative(b: &Browser) {
    // Nick's initiative is his Mind 2 dice against 4; faces 4 and 3 pass (the best, 4,
    // reaches 4), so the heroes act first: Nick, then the orc.
    tab(b, "combat");
    choose(
        b,
        "form.start-combat select[name=creature] option[value=orc]",
    );
    choose(b, "form.start-combat fieldset.foes button");
    b.wait_for(
        "the orc picked",
        "return document.querySelector('form.start-combat .foes .items').textContent.includes('1 × orc')",
    );
    assert_eq!(
        b.eval("return document.querySelector('form.start-combat input[name=begin_typed]').closest('label').hidden"),
        false
    );
    set(b, "form.start-combat input[name=begin_typed]", "4 3");
    choose(b, "form.start-combat > button");
    b.wait_for(
        "the typed initiative",
        "return document.querySelector('.combat-log').textContent.includes('initiative with 4,3') && !!document.querySelector('.fighters tr.acting[data-fighter=Nick]')",
    );
    let order = b.eval(
        "return [...document.querySelectorAll('.fighters tbody tr')].map(r => r.dataset.fighter)",
    );
    assert_eq!(order, json!(["Nick", "orc"]));
}

/// A long journal: the feed shows the latest 100 entries and loads the older ones on demand.
fn feed_pages_a_long_journal(b: &Browser, url: &str) {
    // 110 notes more (paced under the session's write budget: 60 at once, then 5 a
    // second; the page's own reads share the session's request budget, so a note refused
    // for it is sent again when the server says, as a client should).
    let before: i64 = serde_json::from_value(
        b.eval("return Number([...document.querySelectorAll('#journal li')].pop().dataset.seq)"),
    )
    .unwrap();
    let wrote = b.eval_async(
        "const done = arguments[arguments.length - 1]; (async () => { const t = localStorage.getItem('solum.token'); let retries = 0; for (let i = 1; i <= 110; i++) { if (i > 55) await new Promise(r => setTimeout(r, 220)); const r = await fetch('/api/notes', { method: 'POST', headers: { 'Content-Type': 'application/json', 'Authorization': 'Bearer ' + t }, body: JSON.stringify({ text: 'page note ' + i }) }); if (r.status === 429 && retries++ < 20) { await new Promise(w => setTimeout(w, 1000 * Number(r.headers.get('Retry-After') || 1))); i--; continue; } if (!r.ok) return done('note ' + i + ': ' + r.status); } done('ok'); })()",
    );
    assert_eq!(wrote, "ok");
    let total = before + 110;
    b.go(url);
    b.wait_for(
        "the latest page of the feed",
        &format!(
            "const li = [...document.querySelectorAll('#journal li')]; return li.length === 100 && Number(li[99].dataset.seq) === {total} && !document.querySelector('#feed .older').hidden"
        ),
    );
    b.click(&b.find("#feed .older"));
    b.wait_for(
        "every entry, the oldest first",
        &format!(
            "const li = [...document.querySelectorAll('#journal li')].map(l => Number(l.dataset.seq)); return li.length === {total} && li[0] === 1 && li.every((s, i) => s === i + 1) && document.querySelector('#feed .older').hidden"
        ),
    );
}

#[test]
fn every_tab_passes_axe() {
    tools();
    let source = axe_source();
    let dir = tempfile::tempdir().unwrap();
    let addr = start_server(dir.path().join("campaign.solum"));
    let url = format!("http://{addr}/");
    let shots = shots();
    let driver = Driver::start(Path::new(CHROMEDRIVER));
    let b = driver.browser(Path::new(CHROMIUM), &dir.path().join("profile"), 1280, 800);

    let mut found = Vec::new();
    b.go(&url);
    b.wait_for(
        "the sign-in form",
        "return !document.getElementById('signin').hidden",
    );
    for v in axe(&b, &source) {
        found.push(format!("sign-in: {v}"));
    }
    create_table(&b, &url, "The Reach", "Ada");
    // Something in every part of the page: a character, a check, a scene, a secret roll,
    // a combat, a character of another system.
    new_character(&b, "Nick", 3, 2, 1, "Sailor");
    start_combat_with_typed_initiative(&b);
    tab(&b, "play");
    b.wait_for(
        "the odds",
        "return document.getElementById('odds').textContent.startsWith('Chance')",
    );
    b.click(&b.find("#check button:not([type=button])"));
    b.wait_for(
        "the verdict",
        "return document.getElementById('verdict').textContent.length > 0",
    );
    b.click(&b.find("#check input[name=secret]"));
    b.click(&b.find("#check button:not([type=button])"));
    b.wait_for(
        "a secret entry",
        "return document.querySelectorAll('#journal li.secret').length === 1",
    );
    b.click(&b.find("#check input[name=secret]"));
    tab(&b, "solo");
    fill(&b, "#scene input[name=title]", &format!("The docks{ENTER}"));
    b.wait_for(
        "the scene",
        "return document.getElementById('scene-title').textContent === 'The docks'",
    );
    fill(&b, "#ask input[name=question]", &format!("Rain?{ENTER}"));
    b.wait_for(
        "the answer",
        "return document.getElementById('answer').textContent.length > 0",
    );
    b.click(&b.find("#more summary"));
    b.click(&b.find("#open-systems"));
    fill(&b, "#sol-new input[name=name]", &format!("Malcolm{ENTER}"));
    b.wait_for(
        "Malcolm",
        "return document.getElementById('sibling-characters').textContent.includes('Malcolm')",
    );

    feed_pages_a_long_journal(&b, &url);

    for (size, width, height) in [("desktop", 1280, 800), ("phone", 390, 844)] {
        b.resize(width, height);
        b.wait_for(
            "the layout",
            &format!("return (window.innerWidth <= 600) === {}", size == "phone"),
        );
        let mut names = vec!["play", "characters", "combat", "solo", "systems"];
        if size == "phone" {
            names.push("feed");
        }
        for name in names {
            tab(&b, name);
            for v in axe(&b, &source) {
                found.push(format!("{size} {name}: {v}"));
            }
            b.screenshot(&shots.join(format!("axe-{size}-{name}.png")));
        }
        // The table's menu and the confirm dialog, open.
        b.click(&b.find("#menu summary"));
        for v in axe(&b, &source) {
            found.push(format!("{size} menu: {v}"));
        }
        b.screenshot(&shots.join(format!("axe-{size}-menu.png")));
        b.click(&b.find("#logout"));
        b.wait_for(
            "the dialog",
            "return document.getElementById('confirm').open",
        );
        for v in axe(&b, &source) {
            found.push(format!("{size} dialog: {v}"));
        }
        b.screenshot(&shots.join(format!("axe-{size}-dialog.png")));
        b.click(&b.find("#confirm-no"));
        b.click(&b.find("#menu summary"));
    }
    // The form a re-entry link opens (here while signed in: it says where, offers to stay).
    b.eval("document.getElementById('menu').open = true; return true");
    b.click(&b.find("#reentry-make"));
    b.wait_for(
        "the re-entry link",
        "return document.getElementById('reentry-link').value.includes('/#reentry=')",
    );
    let link = b.eval("return document.getElementById('reentry-link').value");
    b.go(link.as_str().unwrap());
    b.wait_for(
        "the re-entry form",
        "return !document.getElementById('back').hidden && !document.getElementById('back-stay').hidden",
    );
    for v in axe(&b, &source) {
        found.push(format!("phone re-entry: {v}"));
    }
    b.screenshot(&shots.join("axe-phone-reentry.png"));
    b.click(&b.find("#back-stay"));
    b.wait_for(
        "back at the table",
        "return !document.getElementById('table').hidden && location.hash === ''",
    );
    assert!(found.is_empty(), "axe found:\n{}", found.join("\n"));
    // The long journal's 110 notes are written at the edge of the session's budget and a
    // note refused for it is sent again (feed_pages_a_long_journal): that refusal is the
    // test's own.
    only_refusals(&b, "the game master", &["429 /api/notes"]);
}
