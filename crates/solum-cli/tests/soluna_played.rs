//! Sol'una skirmishes played, not watched (ruling U5), and tests from campaign sheets, through
//! the real binary: every call below is its own process on one campaign file. Expected values
//! are worked out by hand from the text (largest group, flips to adjacent faces, armour) and
//! rulings U1–U5.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

use common::solum_args;
use serde_json::{Value, json};

struct Campaign {
    _dir: tempfile::TempDir,
    path: String,
}

impl Campaign {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.solum").to_str().unwrap().to_owned();
        Self { _dir: dir, path }
    }

    fn run(&self, line: &str) -> common::Run {
        let mut args: Vec<&str> = line.split_whitespace().collect();
        args.extend(["--campaign", &self.path]);
        solum_args(&args)
    }

    fn json(&self, line: &str) -> Value {
        self.run(&format!("{line} --json")).json()
    }

    fn sheet(&self, name: &str) -> Value {
        self.json(&format!("soluna show {name}"))["character"].clone()
    }

    fn verify_clean(&self) -> String {
        let report = self.run("journal verify").ok().to_owned();
        assert!(report.contains(" 0 do not match"), "{report}");
        assert!(report.contains(" 0 differ"), "{report}");
        report
    }
}

fn close(a: &Value, b: f64) {
    let a = a.as_f64().unwrap_or_else(|| panic!("not a number: {a}"));
    assert!((a - b).abs() < 1e-9, "{a} is not {b}");
}

/// Vex (red, Mind 2: phases 5 and 10) shoots with 2 dice, Body 1, 2 flips at 1 a test;
/// Oro (blue, Mind 1: phase 10) shoots with 2 dice, 1 guard flip; Kai (blue, Mind 1) only
/// strikes in melee with 3 dice and has 5 hit points.
fn three(c: &Campaign) {
    c.run("soluna new Vex --side red --mind 2 --hit-points 4 --ranged 2 --body 1 --flips 2")
        .ok();
    c.run("soluna new Oro --side blue --mind 1 --hit-points 3 --ranged 2 --guard 1")
        .ok();
    c.run("soluna new Kai --side blue --mind 1 --hit-points 5 --melee 3")
        .ok();
}

#[test]
fn a_skirmish_of_campaign_characters_no_longer_plays_itself() {
    let c = Campaign::new();
    three(&c);
    // Before U5 this fought the whole skirmish by the tactic; now it says how to play it.
    c.run("soluna skirmish Vex Oro --seed 1")
        .bad_input("soluna skirmish start Vex Oro");
    // The tactic is still there for simulation, by request.
    let v = c.json("soluna skirmish Vex Oro --auto --seed 1");
    assert!(v["end"]["turns"].as_u64().unwrap() >= 1);
}

#[test]
fn each_decision_is_the_players_and_the_skirmish_resumes_in_later_processes() {
    let c = Campaign::new();
    three(&c);
    let v = c.json("soluna skirmish start Vex Oro --seed 1");
    // U4: Vex (Mind 2) acts in phases 5 and 10, Oro (Mind 1) in phase 10: turn 1 waits at
    // phase 5 for Vex alone, and nothing is rolled.
    assert_eq!(v["state"]["skirmish"]["turn"], 1);
    assert_eq!(v["state"]["skirmish"]["phase"], 5);
    assert_eq!(v["state"]["waiting"], json!(["Vex"]));
    assert_eq!(v["rolled"]["faces"], json!([]));
    // Oro does not act in phase 5; Vex spends at most 1 flip a test.
    c.run("soluna skirmish act Oro attack Vex")
        .bad_input("Oro does not act in turn 1, phase 5 (waiting for Vex)");
    c.run("soluna skirmish act Vex attack Oro --flips 2 --rolled 2,5")
        .bad_input("at most 1");
    // Too few typed dice: refused, nothing changes.
    c.run("soluna skirmish act Vex attack Oro --flips 1 --rolled 2")
        .bad_input("too few dice values");
    assert_eq!(
        c.json("soluna skirmish status")["skirmish"]["waiting"],
        json!(["Vex"])
    );
    // Vex shoots with 2 dice, 1 flip; Oro's guard takes 1 back: net 0. 2 and 5 are groups
    // of 1: 1 damage against armour 0 (Body 0 + Shield 0). Before the roll: with 2 dice the
    // group is at least 1, so damage is certain, and at most 2 < Oro's 3 hit points.
    let v = c.json("soluna skirmish act Vex attack Oro --flips 1 --rolled 2,5");
    close(&v["odds"]["p_damage"], 1.0);
    close(&v["odds"]["p_out"], 0.0);
    assert_eq!(v["odds"]["net_flips"], 0);
    let oro = &v["state"]["skirmish"]["characters"][1];
    assert_eq!(
        (oro["hit_points"].clone(), oro["guard"].clone()),
        (json!(2), json!(0))
    );
    assert_eq!(v["state"]["skirmish"]["characters"][0]["flips"], 1);
    assert_eq!(v["state"]["skirmish"]["phase"], 10);
    assert_eq!(v["state"]["waiting"], json!(["Vex", "Oro"]));
    // Oro decides in one process (nothing rolls: Vex has not decided)…
    let v = c.json("soluna skirmish act Oro attack Vex");
    assert_eq!(v["events"], json!([]));
    assert_eq!(v["state"]["waiting"], json!(["Vex"]));
    // …Vex in the next. Odds before the roll: 2 dice, net +1 (Oro's guard is spent): a pair
    // unless the dice are opposite faces (U1: one flip cannot turn a die to its opposite),
    // 1 − 6/36 = 5/6 to deal 2 damage, Oro's 2 hit points.
    let v = c.json("soluna skirmish act Vex attack Oro --flips 1 --rolled 3,3,6,1");
    close(&v["odds"]["p_out"], 5.0 / 6.0);
    close(&v["odds"]["p_damage"], 1.0);
    // Vex's 3 3: 2 damage, Oro is out. Oro's 6 1 in the same phase (U4): a group of 1
    // against Vex's Body 1: nothing. Red wins in turn 1.
    assert_eq!(v["state"]["skirmish"]["over"]["winner"], "red");
    assert_eq!(v["state"]["skirmish"]["over"]["turns"], 1);
    // The sheets keep what the skirmish left: Vex 4 hit points and no flips, Oro out.
    assert_eq!(c.sheet("Vex")["hit_points"], 4);
    assert_eq!(c.sheet("Vex")["flips"], 0);
    assert_eq!(c.sheet("Oro")["hit_points"], 0);
    assert_eq!(c.sheet("Oro")["guard"], 0);
    // Over, the skirmish is no more: the status says so and is no error.
    let none = c.run("soluna skirmish status").ok().to_owned();
    assert!(none.contains("no skirmish is being played"), "{none}");
    assert_eq!(
        c.json("soluna skirmish status"),
        serde_json::json!({ "skirmish": null })
    );
    // Out characters fight and test no more.
    c.run("soluna skirmish start Oro Kai Vex")
        .bad_input("Oro is out");
    c.run("soluna test Oro --attack ranged --rolled 1,2")
        .bad_input("Oro is out");
    c.verify_clean();
}

#[test]
fn an_auto_side_and_an_abandoned_skirmish() {
    let c = Campaign::new();
    three(&c);
    c.run("soluna skirmish start Vex Kai --auto Kai --auto nobody")
        .bad_input("nobody: neither a character nor a side");
    let v = c.json("soluna skirmish start Vex Kai --auto blue --seed 2");
    assert_eq!(v["state"]["waiting"], json!(["Vex"]));
    // A second skirmish waits for this one.
    c.run("soluna skirmish start Vex Oro")
        .bad_input("a skirmish is being played");
    // The status shows the phase and what Vex may do.
    c.run("soluna skirmish status").ok();
    // Phase 5: Vex's 5 5 is a pair, 2 damage; Kai 5 → 3.
    c.run("soluna skirmish act Vex attack Kai --flips 1 --rolled 5,5")
        .ok();
    // Phase 10: Vex's 1 2 (a flip: 1 → 2 makes a pair, 2 damage); Kai, auto, has no
    // ranged dice and is not engaged: it moves in, after the attacks.
    let v = c.json("soluna skirmish act Vex attack Kai --flips 1 --rolled 1,2");
    let events = v["events"].as_array().unwrap();
    assert!(events.contains(&json!({"event": "engaged", "mover": 1, "target": 0})));
    assert_eq!(v["state"]["skirmish"]["characters"][1]["hit_points"], 1);
    assert_eq!(
        (
            v["state"]["skirmish"]["turn"].clone(),
            v["state"]["skirmish"]["phase"].clone()
        ),
        (json!(2), json!(5))
    );
    // Vex's options now: strike? No melee dice; shoot Kai, engaged or not.
    let st = c.json("soluna skirmish status")["skirmish"].clone();
    assert_eq!(st["options"][0]["action"], "attack");
    assert_eq!(st["options"][0]["ranged"], true);
    assert_eq!(st["options"][0]["most_flips"], 0);
    let v = c.json("soluna skirmish abandon");
    assert_eq!(v["sheets"][0]["hit_points"], 4);
    assert_eq!(v["sheets"][0]["flips"], 0);
    assert_eq!(v["sheets"][1]["hit_points"], 1);
    assert_eq!(c.sheet("Kai")["hit_points"], 1);
    c.run("soluna skirmish abandon")
        .bad_input("no skirmish is being played");
    let story = c.run("journal show").ok().to_owned();
    assert!(story.contains("abandoned in turn 2, phase 5"), "{story}");
    c.verify_clean();
}

#[test]
fn a_test_from_a_campaign_sheet() {
    let c = Campaign::new();
    three(&c);
    // 1 and 6 are opposite (U1): one flip cannot make a pair. Largest group 1, short of 2.
    // Before the roll: a pair unless opposite, 5/6.
    let v = c.json("soluna test Vex --attack ranged --flips 1 --tn 2 --rolled 1,6");
    assert_eq!(v["result"]["largest"], 1);
    assert_eq!(v["result"]["passed"], false);
    close(&v["p_target"], 5.0 / 6.0);
    let out = c
        .run("soluna test Vex --attack ranged --tn 2 --rolled 4,4")
        .ok()
        .to_owned();
    assert!(out.contains("largest  2 × 4"), "{out}");
    assert!(out.contains("PASSED"), "{out}");
    // Flips beyond the sheet's, an attack the sheet lacks, a missing character: exit 2.
    c.run("soluna test Vex --attack ranged --flips 2 --rolled 1,1")
        .bad_input("at most 1");
    c.run("soluna test Vex --attack melee --rolled 1")
        .bad_input("no melee dice");
    c.run("soluna test Nobody --rolled 1").bad_input("Nobody");
    // Seeded: the same seed, the same faces.
    let a = c.json("soluna test Kai --seed 7");
    let b = c.json("soluna test Kai --seed 7");
    assert_eq!(a["rolled"]["faces"], b["rolled"]["faces"]);
    assert_eq!(a["rolled"]["faces"].as_array().unwrap().len(), 3);
    // The test changes no sheet (flips left are what Vex brings to a skirmish).
    assert_eq!(c.sheet("Vex")["flips"], 2);
    c.verify_clean();
}

/// One Sol'una campaign on one campaign file, each line its own process: creation, tests, a
/// skirmish started in one process and finished in others with typed dice, another started
/// and abandoned, `journal verify` clean at the end.
#[test]
fn a_long_soluna_campaign() {
    let c = Campaign::new();
    // Session 1: creation.
    three(&c);
    c.run("soluna new Zel --side red --mind 1 --hit-points 2 --melee 2 --ranged 1 --shield 1")
        .ok();
    // Tests between skirmishes: Zel's 2 melee dice, 3 3: a pair reaches 2.
    let v = c.json("soluna test Zel --tn 2 --rolled 3,3");
    assert_eq!(v["result"]["passed"], true);
    // 1/6 before the roll: two dice pair with chance 6/36.
    close(&v["p_target"], 1.0 / 6.0);
    // Session 2: Vex and Zel against Oro, all played.
    let v = c.json("soluna skirmish start Vex Zel Oro --seed 3");
    assert_eq!(v["state"]["waiting"], json!(["Vex"]));
    // Phase 5: Vex shoots Oro, 1 flip against Oro's guard 1: net 0; 6 6 a pair: 2 damage.
    c.run("soluna skirmish act Vex attack Oro --flips 1 --rolled 6,6")
        .ok();
    assert_eq!(
        c.json("soluna skirmish status")["skirmish"]["waiting"],
        json!(["Vex", "Zel", "Oro"])
    );
    // Phase 10: Zel shoots Oro (1 ranged die), Oro shoots Zel, Vex moves on Oro.
    c.run("soluna skirmish act Zel attack Oro").ok();
    c.run("soluna skirmish move Vex Oro").ok();
    // Dice in listed order of the attackers: Zel's 4 (1 damage: Oro 1 → 0, out), then
    // Oro's 2 5 against Zel's Body 0 + Shield 1: a group of 1, nothing.
    let v = c.json("soluna skirmish act Oro attack Zel --rolled 4,2,5");
    assert_eq!(v["state"]["skirmish"]["over"]["winner"], "red");
    // Vex was moving on Oro, who is out by then: no engagement.
    assert!(
        !v["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["event"] == "engaged")
    );
    assert_eq!(c.sheet("Oro")["hit_points"], 0);
    assert_eq!(c.sheet("Zel")["hit_points"], 2);
    assert_eq!(c.sheet("Vex")["flips"], 1);
    // Session 3: Vex against Kai (auto), abandoned after one exchange.
    c.run("soluna skirmish start Vex Kai --auto Kai --seed 4")
        .ok();
    let text = c
        .run("soluna skirmish act Vex attack Kai --rolled 1,6")
        .ok()
        .to_owned();
    // The odds come first, worked out before the roll: 2 dice, no flips either way, armour
    // 0: at least a group of 1, so damage is certain; at most 2, short of Kai's 5.
    let odds = text
        .find("odds before the roll: 2 dice, net flips +0, armour 0: damage ≥ 1 100%, takes out 0%")
        .unwrap_or_else(|| panic!("{text}"));
    assert!(odds < text.find("Vex shoots Kai: 1 6").unwrap(), "{text}");
    // 1 6: a group of 1, 1 damage to Kai (5 → 4).
    c.run("soluna skirmish abandon").ok();
    assert_eq!(c.sheet("Kai")["hit_points"], 4);
    // Session 4: Zel (melee 2, ranged 1) against Kai; Zel moves in, both strike.
    c.run("soluna skirmish start Zel Kai --seed 5").ok();
    c.run("soluna skirmish act Kai move Zel").ok();
    c.run("soluna skirmish act Zel move Kai").ok();
    let v = c.json("soluna skirmish status")["skirmish"].clone();
    assert_eq!(v["skirmish"]["turn"], 2);
    assert_eq!(v["skirmish"]["engaged"], json!([[0, 1]]));
    c.run("soluna skirmish act Kai attack Zel").ok();
    // Zel strikes (melee: Kai's Body 0): 2 2, 2 damage; Kai's 1 1 1: 3 damage, Zel
    // (2 hit points) is out; Kai 4 → 2. Blue wins.
    let v = c.json("soluna skirmish act Zel attack Kai --rolled 2,2,1,1,1");
    assert_eq!(v["state"]["skirmish"]["over"]["winner"], "blue");
    assert_eq!(c.sheet("Kai")["hit_points"], 2);
    assert_eq!(c.sheet("Zel")["hit_points"], 0);
    let report = c.verify_clean();
    assert!(report.contains("4 sheets compared"), "{report}");
}

/// A skirmish nobody decides, with pools of 1000 dice: each call rolls phases only until
/// 2,000 faces are rolled (one phase of two 1000-dice shots here), so every journal entry
/// stays within the store's limit; `go` rolls on, and the journal verifies.
#[test]
fn a_skirmish_nobody_decides_rolls_in_bounded_calls() {
    let c = Campaign::new();
    for n in ["A", "B"] {
        c.run(&format!(
            "soluna new {n} --side {n} --mind 10 --hit-points 1000 --ranged 1000 --body 1000"
        ))
        .ok();
    }
    let v = c.json("soluna skirmish start A B --auto A --auto B --seed 1");
    // Mind 10 acts in every phase (U4): phase 1 rolled, phase 2 waits for dice only.
    assert_eq!(v["rolled"]["faces"].as_array().unwrap().len(), 2000);
    assert_eq!(v["state"]["skirmish"]["phase"], 2);
    assert_eq!(v["state"]["ready"], true);
    let v = c.json("soluna skirmish go --seed 2");
    assert_eq!(v["state"]["skirmish"]["phase"], 3);
    c.run("soluna skirmish go --rolled 1")
        .bad_input("too few dice values");
    c.verify_clean();
}
