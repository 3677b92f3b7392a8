//! So1um Expanded rules fidelity, end to end: the Rule of 6 only where it matters, roll-offs
//! in every opposed roll and in the exact odds, vehicles, catalogues, and errors that give the
//! rule's reason.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

use common::{num, solum};

/// S14: a vehicle attack or chase may settle a draw by a roll-off. The text's return fire,
/// 3, 3, 5 against 3, 5, 5, 5, is a draw; rolled off 4:4 then 5:2 it is a hit.
#[test]
fn vehicle_rolls_with_roll_off() {
    let base = "vehicle attack --pilot 3 --against-pilot 3 --against-handling responsive";
    let v = solum(&format!(
        "{base} --rolled 3,3,5 --against-rolled 3,5,5,5 --json"
    ))
    .json();
    assert_eq!(v["outcome"], "draw");
    let v = solum(&format!(
        "{base} --rolled 3,3,5,4,5 --against-rolled 3,5,5,5,4,2 --roll-off --json"
    ))
    .json();
    assert_eq!(v["outcome"], "win");
    assert_eq!(v["roll_off"], serde_json::json!([[4, 4], [5, 2]]));
    assert_eq!(num(&v, "p_draw"), 0.0);
    // A roll-off never ends in a draw, with generated dice either.
    for seed in 1..=20 {
        let v = solum(&format!(
            "vehicle chase --pilot 1 --against-pilot 1 --roll-off --seed {seed} --json"
        ))
        .json();
        assert_ne!(v["outcome"], "draw");
    }
    // Roll-off dice typed when no roll-off happens are too many.
    solum(&format!(
        "{base} --rolled 1,2,5,4 --against-rolled 3,4,4,3 --roll-off"
    ))
    .bad_input("too many values in --rolled");
}

/// S14: the exact duel odds with a roll-off. 2 dice against 1, one blow each: win + half
/// the draws = (125 + 33/7)/216 + (25 + 11/7)/432 = 143/216, counted by hand.
#[test]
fn duel_odds_with_roll_off() {
    let v = solum("odds duel --pool 2 --hp 1 --damage 1 --foe-pool 1 --foe-hp 1 --foe-damage 1 --roll-off --json").json();
    assert_eq!(v["p_win_exact"], "143/216");
    // Without the roll-off, draws repeat: win / (win + lose) = 908 / (908 + 418), in 1512ths.
    let v =
        solum("odds duel --pool 2 --hp 1 --damage 1 --foe-pool 1 --foe-hp 1 --foe-damage 1 --json")
            .json();
    assert!((num(&v, "p_win") - 908.0 / 1326.0).abs() < 1e-12);
    // Simulation agrees within 4 standard errors.
    let v = solum("odds duel --pool 3 --hp 6 --damage 2 --foe-pool 4 --foe-hp 8 --foe-damage 1 --roll-off --simulate 100000 --seed 4 --json").json();
    assert_eq!(v["roll_off"], true);
    assert!(num(&v["simulated"], "z").abs() < 4.0, "{v}");
    let text = solum(
        "odds duel --pool 3 --hp 6 --damage 2 --foe-pool 4 --foe-hp 8 --foe-damage 1 --roll-off",
    );
    assert!(text.ok().contains("draws rolled off"));
}

/// S9 and the rules' own reasons: a broken rule is reported as the rule, not as a complaint
/// about typed dice the refused roll never used.
#[test]
fn errors_give_the_rules_reason() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    let c = c.to_str().unwrap();
    let run = solum(&format!(
        "char new Nick --body 3 --mind 3 --charm 1 -b Thief --weapon dagger --rolled 2,5,4 --campaign {c}"
    ));
    run.bad_input("assign 3, 2 and 1");
    assert!(!run.stderr.contains("too many values"), "{}", run.stderr);
    // Advancement B on an attribute at 4 is refused before any roll.
    solum(&format!(
        "char new Nick --body 3 --mind 2 --charm 1 -b Thief --weapon dagger --rolled 1,1,1 --campaign {c}"
    ))
    .ok();
    solum(&format!(
        "char edit Nick --set body=4 --correction --campaign {c}"
    ))
    .ok();
    solum(&format!("char grant Nick --campaign {c}")).ok();
    let run = solum(&format!(
        "char advance Nick --attribute body --rolled 2,2,2,2 --campaign {c}"
    ));
    run.bad_input("no attribute goes above 4");
    assert!(!run.stderr.contains("too many values"), "{}", run.stderr);
    // Dice typed where a rule rolls none say which rule.
    solum("check 3 --vs 1 --rolled 4,3,2").bad_input("difficulty 1 is automatic");
    solum("check 3 --vs 6 --rolled 6,3,2,4").bad_input("a 6 already reaches 6");
    solum("check 2 --vs 5 --gear --rolled 5,1,3")
        .bad_input("the gear reroll is used only when it can change the outcome");
    solum("check 2 --against 2 --rolled 2,1,4 --against-rolled 2,2")
        .bad_input("the draw stands: no roll-off without --roll-off");
    solum("vehicle chase --pilot 3 --against-pilot 3 --against-speed fast --against-handling responsive --rolled 2,3,5 --against-rolled 2,3,4,4,6,1")
        .bad_input("only one side shows a 6");
    solum("static --pool 3 --hp 5 --damage 2 --vs 1 --foe-hp 2 --foe-damage 1 --rolled 4,4,4")
        .bad_input("difficulty 1 is automatic");
    solum("static --pool 3 --hp 5 --damage 2 --vs 4 --foe-hp 2 --foe-damage 1 --rolled 6,1,1,3")
        .bad_input("the fight is over after round 1; a 6 already reaches 4");
}

/// The catalogues: the shipped bestiary (plus --bestiary files) and the text's vehicles,
/// usable by name in chases and attacks.
#[test]
fn catalogues_list_and_are_usable_by_name() {
    let v = solum("char bestiary --json").json();
    let orc = v["creatures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "orc")
        .expect("the orc is shipped");
    assert_eq!(
        (orc["pool"].as_u64(), orc["hit_points"].as_u64()),
        (Some(2), Some(3))
    );
    let squad = &v["static"].as_array().unwrap()[1];
    assert_eq!(squad["name"], "trooper squad");
    assert_eq!(squad["difficulty"], 4);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("more.toml");
    std::fs::write(
        &file,
        "[[creature]]\nname = \"kobold\"\npool = 1\nhit_points = 2\ndamage = 1\n",
    )
    .unwrap();
    let text = solum(&format!("char bestiary --bestiary {}", file.display()));
    assert!(text.ok().contains("kobold"));
    assert!(text.ok().contains("trooper squad"));
    solum("char bestiary --bestiary /nonexistent/x.toml").bad_input("--bestiary");

    let v = solum("vehicle list --json").json();
    let names: Vec<&str> = v["vehicles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"tramp freighter") && names.contains(&"customs starfighter"));
    assert!(solum("vehicle list").ok().contains("lightning-fast"));
    // The text's chase by name: 3 dice against 5 (faster and better handling).
    let v = solum("vehicle chase --pilot 3 --vehicle tramp-freighter --against-pilot 3 --against-vehicle starfighter --rolled 2,3,5 --against-rolled 2,3,4,4,6 --json").json();
    assert_eq!(
        (v["pool"].as_u64(), v["against_pool"].as_u64()),
        (Some(3), Some(5))
    );
    assert_eq!(v["outcome"], "lose");
    assert_eq!(v["against_vehicle"], "customs starfighter");
    // The attack: handling only, 4 against 3.
    let v = solum("vehicle attack --pilot 3 --vehicle starfighter --against-pilot 3 --against-vehicle freighter --rolled 1,2,3,3 --against-rolled 3,4,5 --json").json();
    assert_eq!(
        (v["pool"].as_u64(), v["against_pool"].as_u64()),
        (Some(4), Some(3))
    );
    solum("vehicle chase --pilot 3 --vehicle warp-barge --against-pilot 3")
        .bad_input("--vehicle warp-barge: not in the catalogue");
    solum("vehicle chase --pilot 3 --vehicle car --speed fast --against-pilot 3")
        .bad_input("cannot be used with");
}

/// S10: a weapon made to fight vehicles (a sheet's `anti_vehicle`, a bestiary's
/// `anti_vehicle = true`) harms even a starship; a shot with no effect says which rule.
#[test]
fn weapons_made_to_fight_vehicles() {
    let dir = tempfile::tempdir().unwrap();
    let sheet = dir.path().join("nick.toml");
    let f = sheet.to_str().unwrap();
    let c = dir.path().join("c.solum");
    let c = c.to_str().unwrap();
    solum(&format!(
        "char new Nick --body 3 --mind 2 --charm 1 -b Soldier --weapon dagger --rolled 1,1,1 --campaign {c}"
    ))
    .ok();
    solum(&format!(
        "char edit Nick --add-weapon launcher:heavy:ranged:anti-vehicle --campaign {c}"
    ))
    .ok();
    // Combat reads sheet files: the campaign's sheet is exported to one.
    solum(&format!("char export Nick --out {f} --campaign {c}")).ok();
    assert!(
        std::fs::read_to_string(&sheet)
            .unwrap()
            .contains("anti_vehicle = true")
    );
    assert!(
        solum(&format!("char show --file {f}"))
            .ok()
            .contains("made to fight vehicles")
    );
    solum(&format!(
        "char edit Nick --add-weapon rifle:medium:anti-vehicle --campaign {c}"
    ))
    .bad_input(
        "'rifle:medium:anti-vehicle' for '--add-weapon <NAME:CLASS[:ranged]>': `rifle:medium:anti-vehicle`: write NAME:CLASS, NAME:CLASS:ranged or NAME:CLASS:ranged:anti-vehicle",
    );
    // In combat: 3 dice (Body 3) against 4 (nearby) hit the freighter for 1.
    let script = dir.path().join("fight.txt");
    let ship = "vehicle freighter side=smugglers mind=2 hull=5 speed=average handling=average damage=2 scale=large";
    std::fs::write(
        &script,
        format!("hero {f}\n{ship}\norder Nick freighter\nshoot freighter with 5,1,1\n"),
    )
    .unwrap();
    let text = solum(&format!("combat {}", script.display()));
    assert!(
        text.ok().contains("4/5") || text.ok().contains("4 hit points"),
        "{}",
        text.ok()
    );
    // A heavy weapon that is not made for it: no effect, because of the ship's size.
    std::fs::write(
        &script,
        format!("hero Gunner pool=3 hp=5 damage=1 ranged=3\n{ship}\norder Gunner freighter\nshoot freighter with 5,1,1\n"),
    )
    .unwrap();
    let text = solum(&format!("combat {}", script.display()));
    assert!(
        text.ok().contains("larger than a car or truck"),
        "{}",
        text.ok()
    );
    // A light pistol against a car: no effect, because it is not heavy. Melee damage 0, so
    // the pistol is the weapon in hand (S13: the highest damage).
    let car = "vehicle car side=b mind=1 hull=3 speed=average handling=average damage=0 scale=car";
    std::fs::write(
        &script,
        format!("hero Gunner pool=3 hp=5 damage=0 ranged=1\n{car}\norder Gunner car\nshoot car with 5,1,1\n"),
    )
    .unwrap();
    let text = solum(&format!("combat {}", script.display()));
    assert!(
        text.ok().contains("only a heavy personal weapon"),
        "{}",
        text.ok()
    );
    // A bestiary entry with the property.
    let file = dir.path().join("more.toml");
    std::fs::write(
        &file,
        "[[creature]]\nname = \"rocket trooper\"\npool = 2\nhit_points = 2\ndamage = 1\nranged_damage = 3\nanti_vehicle = true\n",
    )
    .unwrap();
    let v = solum(&format!(
        "char bestiary --bestiary {} --json",
        file.display()
    ))
    .json();
    let rt = v["creatures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "rocket trooper")
        .unwrap();
    assert_eq!(rt["anti_vehicle"], true);
    std::fs::write(
        &file,
        "[[creature]]\nname = \"bad\"\npool = 2\nhit_points = 2\ndamage = 1\nanti_vehicle = true\n",
    )
    .unwrap();
    solum(&format!("char bestiary --bestiary {}", file.display())).bad_input("anti_vehicle");
    // The rule alone.
    let v = solum("vehicle scale --weapon-damage 3 --scale large --anti-vehicle --json").json();
    assert_eq!(
        (v["damage"].as_u64(), v["rule"].as_str()),
        (Some(1), Some("anti-vehicle"))
    );
    assert!(
        solum("vehicle scale --weapon-damage 1 --scale car")
            .ok()
            .contains("only a heavy")
    );
}
