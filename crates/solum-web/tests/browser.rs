//! End-to-end tests in headless Chromium (Debian's `chromium` and `chromium-driver`) against
//! the real server on a free loopback port and a campaign in a tempdir: a table and a
//! character, a check seen in the journal, two browsers at one table seeing each other's
//! rolls live, and a game master's secret roll that the player's browser never receives.
//! Screenshots of the main screens go to `target/e2e-screenshots/`.

#[path = "browser/webdriver.rs"]
mod webdriver;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::mpsc;

use webdriver::{Browser, Driver};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const ENTER: &str = "\u{E007}";

/// Starts the server the way `solum serve` does, on a free loopback port, in the background
/// (it lives until the test process ends). Returns its address.
fn start_server(campaign: PathBuf) -> SocketAddr {
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
    rx.recv_timeout(std::time::Duration::from_secs(30))
        .expect("the server did not start")
}

fn shots() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/e2e-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Count of journal lines whose text contains `needle`, as a script.
fn journal_has(needle: &str) -> String {
    format!(
        "return [...document.querySelectorAll('#journal li')].some(li => li.textContent.includes({}))",
        serde_json::to_string(needle).unwrap()
    )
}

fn fill(b: &Browser, css: &str, text: &str) {
    let e = b.find(css);
    b.type_in(&e, text);
}

#[test]
fn a_table_in_two_browsers() {
    for tool in [CHROMIUM, CHROMEDRIVER] {
        assert!(
            Path::new(tool).exists(),
            "{tool} is missing: apt-get install -y chromium chromium-driver (.ci/run does it)"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let addr = start_server(dir.path().join("campaign.solum"));
    let url = format!("http://{addr}/");
    let shots = shots();
    let driver = Driver::start(Path::new(CHROMEDRIVER));
    let chromium = Path::new(CHROMIUM);

    // The game master: a laptop-sized window.
    let gm = driver.browser(chromium, &dir.path().join("profile-gm"), 1280, 1000);
    gm.go(&url);
    gm.find("#create input[name=table]");
    gm.wait_for(
        "the sign-in form",
        "return !document.getElementById('signin').hidden",
    );
    gm.screenshot(&shots.join("1-sign-in.png"));
    fill(&gm, "#create input[name=table]", "The Reach");
    // Enter in the last field submits the form.
    fill(&gm, "#create input[name=name]", &format!("Ada{ENTER}"));
    gm.wait_for(
        "the table",
        "return !document.getElementById('table').hidden",
    );
    assert!(
        gm.text().contains("The Reach — Ada (game master)"),
        "{}",
        gm.text()
    );

    // Every field has a label a screen reader reads; none is left unnamed.
    let unlabelled = gm.eval(
        "return [...document.querySelectorAll('input, select, textarea')].filter(e => !e.labels.length && !e.getAttribute('aria-label')).map(e => e.name || e.id)",
    );
    assert_eq!(unlabelled, serde_json::json!([]));

    // A character made by the rules; a rule broken is the API's message on the page.
    fill(&gm, "#new-character input[name=name]", "Nick");
    fill(&gm, "#new-character input[name=body]", "9");
    fill(
        &gm,
        "#new-character input[name=armor]",
        &format!("leather{ENTER}"),
    );
    gm.wait_for(
        "the rules' refusal",
        "return document.getElementById('error').textContent.length > 0",
    );
    let refusal = gm.eval("return document.getElementById('error').textContent");
    assert!(refusal.as_str().unwrap().contains("body"), "{refusal}");
    fill(&gm, "#new-character input[name=body]", "3");
    fill(&gm, "#new-character input[name=mind]", "2");
    fill(&gm, "#new-character input[name=charm]", "1");
    fill(&gm, "#new-character input[name=backgrounds]", "Sailor");
    gm.click(&gm.find("#new-character button"));
    gm.wait_for(
        "Nick in the list",
        "return document.getElementById('characters').textContent.includes('Nick')",
    );
    // The odds before the roll: Body 3 against difficulty 4, no background chosen: three
    // dice, the best must reach 4: 1 - (1/2)^3 = 7/8.
    gm.wait_for(
        "the odds",
        "return document.getElementById('odds').textContent.includes('(7/8)')",
    );
    assert!(
        gm.text().contains("Chance to pass: 87.5% (7/8)"),
        "{}",
        gm.text()
    );
    assert_eq!(
        gm.eval("return document.querySelectorAll('#dice .die').length"),
        0,
        "no dice before the roll"
    );
    gm.click(&gm.find("#check button"));
    gm.wait_for(
        "the dice",
        "return document.querySelectorAll('#dice .die').length === 3",
    );
    gm.wait_for(
        "the check in the journal",
        &journal_has("Nick checks body against difficulty 4"),
    );
    // The journal's line shows the three dice too, and its verdict matches them.
    let faces = gm.eval(
        "return [...document.querySelectorAll('#dice .die')].map(d => Number(d.textContent))",
    );
    let faces: Vec<u32> = serde_json::from_value(faces).unwrap();
    assert!(faces.iter().all(|f| (1..=6).contains(f)), "{faces:?}");
    let verdict = gm.eval("return document.getElementById('verdict').textContent");
    let passed = faces.iter().any(|&f| f >= 4);
    assert!(
        verdict
            .as_str()
            .unwrap()
            .ends_with(if passed { "passed" } else { "failed" }),
        "{faces:?} {verdict}"
    );

    // Alone at the table, the game master may roll real dice and type the faces in:
    // 1, 2 and 3 against difficulty 4 fail (the best, 3, is under 4; no 6, no chain).
    fill(&gm, "#check input[name=typed]", &format!("1 2 3{ENTER}"));
    gm.wait_for(
        "the typed check",
        "return document.getElementById('verdict').textContent === 'Real dice: Nick checks body against difficulty 4: 3 — failed'",
    );
    let faces = gm.eval(
        "return [...document.querySelectorAll('#dice .die')].map(d => Number(d.textContent))",
    );
    assert_eq!(faces, serde_json::json!([1, 2, 3]));
    gm.wait_for(
        "the typed check in the journal, marked",
        "return [...document.querySelectorAll('#journal li')].some(li => li.textContent.includes('difficulty 4: 3 — failed') && li.querySelector('.typed'))",
    );

    // The odds of any dice, as a chart: 2d6 has eleven sums, 7 the likeliest at 6/36.
    fill(
        &gm,
        "#odds-form input[name=expression]",
        &format!("2d6{ENTER}"),
    );
    gm.wait_for(
        "the chart",
        "return document.querySelectorAll('#chart .bar').length === 11",
    );
    let summary = gm.eval("return document.getElementById('odds-summary').textContent");
    assert!(
        summary
            .as_str()
            .unwrap()
            .contains("most likely 7 at 16.7% (1/6)"),
        "{summary}"
    );

    // Any dice, rolled: the odds show as the expression is typed, before any roll; then
    // Roll draws every die. 4d6kh3 has sixteen sums, 3 to 18.
    fill(&gm, "#odds-form input[name=expression]", "4d6kh3");
    gm.wait_for(
        "the odds of 4d6kh3 before the roll",
        "return document.getElementById('odds-summary').textContent.startsWith('4d6kh3') && document.querySelectorAll('#chart .bar').length === 16",
    );
    assert_eq!(
        gm.eval("return document.querySelectorAll('#expression-dice .die').length"),
        0,
        "no dice before the roll"
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
    let shown = gm.eval("return document.getElementById('expression-total').textContent");
    assert_eq!(shown, format!("4d6kh3 = {total}"), "{faces:?}");
    assert_eq!(
        gm.eval("return document.querySelectorAll('#expression-dice .die.dropped').length"),
        1
    );
    assert_eq!(
        gm.eval("return document.querySelector('#chart .bar.hit').dataset.value"),
        total.to_string()
    );
    gm.wait_for(
        "the roll in the journal",
        &journal_has(&format!("Roll 4d6kh3 = {total}")),
    );
    // Real dice typed in: 6 2 5 1 keep 6 + 5 + 2 = 13.
    fill(&gm, "#odds-form input[name=typed]", "6 2 5 1");
    gm.click(&gm.find("#roll-expression"));
    gm.wait_for(
        "the typed roll",
        "return document.getElementById('expression-total').textContent === 'Real dice: 4d6kh3 = 13'",
    );
    gm.eval("document.getElementById('dice-panel').scrollIntoView(); return true");
    gm.screenshot(&shots.join("4-roll-panel.png"));

    // Another system: a Sol'una character, then a test of its two ranged dice against 2
    // (a pair): 6 pairs in 36 rolls, 16.7% before the roll.
    gm.eval("const s = document.querySelector('#sibling-system select'); s.value = 'soluna'; s.dispatchEvent(new Event('change')); return true");
    fill(&gm, "#soluna-new input[name=name]", "Csen");
    fill(&gm, "#soluna-new input[name=ranged]", "2");
    fill(&gm, "#soluna-new input[name=flips]", &format!("0{ENTER}"));
    gm.wait_for(
        "Csen in the list",
        "return document.getElementById('sibling-characters').textContent.includes('Csen')",
    );
    gm.eval("const s = document.querySelector('#soluna-test select[name=attack]'); s.value = 'ranged'; return true");
    fill(&gm, "#soluna-test input[name=target]", &format!("2{ENTER}"));
    gm.wait_for(
        "the Sol'una test",
        "return document.getElementById('sibling-verdict').textContent.includes('chance before the roll 16.7%')",
    );
    assert_eq!(
        gm.eval("return document.querySelectorAll('#sibling-dice .die').length"),
        2
    );
    gm.wait_for("the test in the journal", &journal_has("Sol'una: Csen"));
    gm.eval("document.getElementById('sibling-panel').scrollIntoView(); return true");
    gm.screenshot(&shots.join("5-other-systems.png"));

    // An invite link for a player, who opens it in a browser of their own: a phone.
    gm.click(&gm.find("#invite button"));
    gm.wait_for(
        "the invite link",
        "return document.getElementById('invite-link').value.includes('#invite=')",
    );
    let link = gm.eval("return document.getElementById('invite-link').value");
    let pia = driver.browser(chromium, &dir.path().join("profile-pia"), 390, 844);
    pia.go(link.as_str().unwrap());
    pia.wait_for(
        "the join form",
        "return !document.getElementById('join').hidden",
    );
    fill(&pia, "#join input[name=name]", &format!("Pia{ENTER}"));
    pia.wait_for(
        "the table",
        "return !document.getElementById('table').hidden",
    );
    assert!(
        pia.text().contains("The Reach — Pia (player)"),
        "{}",
        pia.text()
    );
    // The player caught up on what happened before she came.
    pia.wait_for("the earlier check", &journal_has("Nick checks body"));
    assert_eq!(
        pia.eval("return document.querySelectorAll('.gm-only:not([hidden])').length"),
        0
    );

    // Pia's roll reaches the game master's open page live, and the other way round.
    fill(&pia, "#new-character input[name=name]", "Bo");
    fill(&pia, "#new-character input[name=body]", "1");
    fill(&pia, "#new-character input[name=mind]", "3");
    fill(&pia, "#new-character input[name=charm]", "2");
    fill(
        &pia,
        "#new-character input[name=backgrounds]",
        &format!("Scholar{ENTER}"),
    );
    pia.wait_for(
        "Bo's odds",
        "return document.getElementById('odds').textContent.startsWith('Chance')",
    );
    let attribute = pia.find("#check select[name=attribute]");
    pia.click(&attribute);
    pia.type_in(&pia.find("#check input[name=number]"), "5");
    pia.eval("const s = document.querySelector('#check select[name=attribute]'); s.value = 'mind'; s.dispatchEvent(new Event('change')); return true");
    // Mind 3 against 5: 1 - (4/6)^3 = 19/27.
    pia.wait_for(
        "Bo's mind odds",
        "return document.getElementById('odds').textContent.includes('(19/27)')",
    );
    pia.click(&pia.find("#check button"));
    gm.wait_for(
        "Pia's roll on the GM's page",
        &journal_has("Bo checks mind against difficulty 5"),
    );
    fill(
        &gm,
        "#ask input[name=question]",
        &format!("Is the harbour watched?{ENTER}"),
    );
    pia.wait_for(
        "the GM's question on Pia's page",
        &journal_has("Is the harbour watched?"),
    );

    // The game master runs a combat; the player's tracker follows it live.
    gm.click(&gm.find("#combat-start button"));
    gm.wait_for(
        "the open combat",
        "return !document.getElementById('combat-view').hidden",
    );
    for line in [
        "hero Nick",
        "foe orc",
        "place Nick orc engaged",
        "order Nick orc",
    ] {
        fill(
            &gm,
            "#combat-line input[name=line]",
            &format!("{line}{ENTER}"),
        );
        gm.wait_for(
            line,
            &format!(
                "return document.querySelector('#combat-line input[name=line]').value === '' && document.getElementById('journal').textContent.includes({})",
                serde_json::to_string(line).unwrap()
            ),
        );
    }
    pia.wait_for(
        "Nick to act on Pia's tracker",
        "return document.getElementById('combat-head').textContent.includes('Nick to act') && document.querySelectorAll('#combat-choices li').length > 0 && document.querySelectorAll('#combat-fighters tr').length === 2",
    );
    assert_eq!(
        pia.eval("return document.querySelector('#combat-fighters tr.acting td').textContent"),
        "Nick"
    );
    // Only the game master has the options' Play buttons; one click plays the option's line.
    assert_eq!(
        pia.eval("return String(document.querySelectorAll('#combat-choices button').length)"),
        "0"
    );
    gm.wait_for(
        "the melee option's button",
        "return [...document.querySelectorAll('#combat-choices button')].some((b) => b.title === 'melee orc')",
    );
    gm.eval(
        "[...document.querySelectorAll('#combat-choices button')].find((b) => b.title === 'melee orc').click(); return true",
    );
    gm.wait_for(
        "the melee in the journal",
        &journal_has("Combat fight: melee orc"),
    );
    pia.wait_for(
        "the melee in Pia's journal",
        &journal_has("Combat fight: melee orc"),
    );

    // Markup in a player's words stays text on every screen.
    let payload =
        "<img src=x onerror=\"document.title='pwned'\"><script>document.title='pwned'</script>";
    fill(&pia, "#note textarea", payload);
    pia.click(&pia.find("#note button"));
    gm.wait_for("the note with markup", &journal_has(payload));
    for b in [&gm, &pia] {
        b.wait_for("the note with markup", &journal_has(payload));
        assert_eq!(
            b.eval("return document.querySelectorAll('#journal img, #journal script').length"),
            0
        );
        assert_eq!(b.eval("return document.title"), "solum — web table");
    }

    // A secret roll: the game master sees it marked; the player's browser never gets it.
    gm.click(&gm.find("#ask input[name=secret]"));
    fill(
        &gm,
        "#ask input[name=question]",
        &format!("Is Pia the traitor?{ENTER}"),
    );
    gm.wait_for(
        "the secret answer",
        "return document.getElementById('answer').textContent.startsWith('Secret: ')",
    );
    gm.wait_for(
        "the secret marked",
        "return [...document.querySelectorAll('#journal li.secret')].some(li => li.textContent.includes('Is Pia the traitor?'))",
    );
    gm.click(&gm.find("#ask input[name=secret]"));
    // A secret roll of any dice, too.
    gm.click(&gm.find("#odds-form input[name=secret]"));
    fill(&gm, "#odds-form input[name=expression]", "3d6 [vault]");
    gm.click(&gm.find("#roll-expression"));
    gm.wait_for(
        "the secret dice",
        "return document.getElementById('expression-total').textContent.startsWith('Secret: 3d6 [vault] = ')",
    );
    gm.click(&gm.find("#odds-form input[name=secret]"));
    fill(&gm, "#note textarea", "The tide turns.");
    gm.click(&gm.find("#note button"));
    // The note comes after the secret roll: once Pia has it, the roll had its chance to leak.
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
    fill(&pia, "#search input[name=q]", &format!("traitor{ENTER}"));
    pia.wait_for(
        "the search",
        "return !document.getElementById('found').hidden",
    );
    assert!(pia.text().contains("Nothing found."));
    fill(&gm, "#search input[name=q]", &format!("traitor{ENTER}"));
    gm.wait_for(
        "the GM's search",
        "return document.getElementById('found').textContent.includes('Is Pia the traitor?')",
    );

    // After a reload the game master's journal still marks the secret entries (the server
    // says which they are).
    gm.go(&url);
    gm.wait_for(
        "the secret marks after a reload",
        "return [...document.querySelectorAll('#journal li.secret')].filter(li => li.textContent.includes('Is Pia the traitor?') || li.textContent.includes('[vault]')).length === 2 && document.getElementById('journal').textContent.includes('The tide turns.')",
    );
    for (who, b) in [("2-game-master", &gm), ("3-player-phone", &pia)] {
        b.eval("window.scrollTo(0, 0); return true");
        b.screenshot(&shots.join(format!("{who}-top.png")));
        b.eval("document.getElementById('combat-panel').scrollIntoView(); return true");
        b.screenshot(&shots.join(format!("{who}-combat.png")));
        // The journal's latest entries: the secret ones, marked, on the game master's.
        b.eval("const j = document.getElementById('journal'); j.scrollIntoView(); j.scrollTop = j.scrollHeight; return true");
        b.screenshot(&shots.join(format!("{who}-journal.png")));
    }
    // The player's seqs skip the secret entry: a gap, nothing else.
    let seqs = pia.eval(
        "return [...document.querySelectorAll('#journal li')].map(li => Number(li.dataset.seq))",
    );
    let seqs: Vec<i64> = serde_json::from_value(seqs).unwrap();
    let gm_seqs = gm.eval(
        "return [...document.querySelectorAll('#journal li')].map(li => Number(li.dataset.seq))",
    );
    let gm_seqs: Vec<i64> = serde_json::from_value(gm_seqs).unwrap();
    assert_eq!(gm_seqs.len(), seqs.len() + 2, "{gm_seqs:?} {seqs:?}");
    assert!(seqs.windows(2).all(|w| w[0] < w[1]), "in order: {seqs:?}");
    assert!(
        gm_seqs.windows(2).all(|w| w[0] < w[1]),
        "in order: {gm_seqs:?}"
    );

    // Logging out: the page forgets the session and the server refuses its token.
    let token = pia.eval("return localStorage.getItem('solum.token')");
    pia.click(&pia.find("#logout"));
    pia.wait_for(
        "the sign-in form after logging out",
        "return !document.getElementById('signin').hidden && localStorage.getItem('solum.token') === null",
    );
    let status = pia.eval(&format!(
        "const r = new XMLHttpRequest(); r.open('GET', '/api/me', false); r.setRequestHeader('Authorization', 'Bearer ' + {token}); r.send(); return r.status"
    ));
    assert_eq!(status, 401);
}
