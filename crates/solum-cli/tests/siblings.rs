//! The sibling systems end to end: Solum die types, Project Sol, Sol'una, So1um original.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

use common::{num, solum, solum_args};

#[test]
fn dietype_odds_and_quality() {
    let v = solum("odds dietype d6 --chances 2 --vs 4 --json").json();
    assert!((num(&v, "p_success") - 0.7356537975875967).abs() < 1e-9);
    let q = v["quality"].as_object().unwrap();
    let total: f64 = q.values().map(|x| x.as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-12);
    assert!((q["0"].as_f64().unwrap() - (1.0 - num(&v, "p_success"))).abs() < 1e-12);
    // A d4 at -1DT stays a d4; a d10 at +5 is a d12.
    let a = solum("odds dietype d4 --step -1 --json").json();
    let b = solum("odds dietype d4 --json").json();
    assert_eq!(a["p_success"], b["p_success"]);
    assert_eq!(
        solum("odds dietype d10 --step 5 --json").json()["die"],
        "d12"
    );
    let o = solum("odds dietype d8 --chances 3 --against d6 --against-chances 2 --json").json();
    assert!((num(&o, "p_win") + num(&o, "p_draw") + num(&o, "p_lose") - 1.0).abs() < 1e-9);
}

#[test]
fn dietype_tables_snapshot() {
    insta::assert_snapshot!(solum("odds dietype --tables").ok());
}

#[test]
fn dietype_rolls() {
    // The text's d4: 4 rerolled as 1 and 2, a sum of 3.
    let v = solum("roll dietype d4 --vs 3 --rolled 4,1,2 --json").json();
    assert_eq!(v["roll"]["chances"][0]["result"], 3);
    assert_eq!(v["success"], true);
    let v = solum(
        "roll dietype d6 --chances 2 --vs 4 --rolled 5,6,3,2,4,7 --damage d8 --modifier 1 --json",
    );
    let v = v.json();
    assert_eq!(v["quality"], 2);
    // Two d8 of damage (4 and 7), +1.
    assert_eq!(v["damage"]["total"], 12);
    solum("roll dietype d6 --chances 2 --vs 4 --rolled 5,6,3").bad_input("too few values");
    solum("roll dietype d6 --vs 4 --rolled 7").bad_input("not a face of a d6");
    solum("roll dietype d7").bad_input("`d7` is not a die type");
    solum("roll dietype d6 --chances 5")
        .bad_input("invalid value '5' for '--chances <CHANCES>': a roll has 1 to 4 chances");
    solum("roll dietype d6 --vs 13").bad_input(
        "invalid value '13' for '--vs <VS>': difficulties run from 2 (trivial) to 12 (divine)",
    );
    solum("roll dietype d6 --modifier 5 --damage d6").bad_input("modifier");
    solum("odds dietype").bad_input("--tables");
}

#[test]
fn sol_odds() {
    let v = solum("odds sol --dice 6 --threshold 2 --json").json();
    for key in [
        "p_success",
        "p_glitch",
        "p_critical_glitch",
        "p_critical_success",
    ] {
        let p = num(&v, key);
        assert!((0.0..=1.0).contains(&p), "{key}");
    }
    let push = solum("odds sol --dice 6 --threshold 2 --push-the-limit --json").json();
    assert!(num(&push, "p_success") > num(&v, "p_success"));
    let one = solum("odds sol --dice 1 --threshold 1 --json").json();
    assert!((num(&one, "p_success") - 1.0 / 3.0).abs() < 1e-12);
    assert!((num(&one, "p_critical_glitch") - 1.0 / 6.0).abs() < 1e-12);
    solum("odds sol --dice 0")
        .bad_input("invalid value '0' for '--dice <DICE>': a pool has 1 to 1000 dice");
    solum("odds sol --dice 3 --threshold heroic").bad_input("not a threshold");
}

#[test]
fn sol_tests_glitches_and_caps() {
    // 3 ones of 6 dice is a glitch; 3 of 7 is not.
    let v = solum("roll sol --dice 6 --threshold 1 --rolled 1,1,1,5,2,3 --json").json();
    assert_eq!(v["test"]["glitch"], true);
    let v = solum("roll sol --dice 7 --threshold 1 --rolled 1,1,1,5,2,3,4 --json").json();
    assert_eq!(v["test"]["glitch"], false);
    // Hyde: 2 ranks, a +3 computer: capped to +2.
    let v =
        solum("roll sol --attribute 3 --ranks 2 --modifier 3 --rolled 1,2,3,4,5,6,1 --json").json();
    assert_eq!(v["pool"]["applied"], 2);
    // Cole: 0 ranks, a +1 scope: no bonus.
    let v = solum("roll sol --attribute 4 --ranks 0 --modifier 1 --rolled 1,2,3,4 --json").json();
    assert_eq!(v["pool"]["dice"], 4);
    let v = solum("roll sol --dice 12 --buy --threshold 3 --json").json();
    assert_eq!(v["bought_hits"], 3);
    solum("roll sol --dice 3 --rolled 1,2").bad_input("too few values");
}

#[test]
fn soluna_corona_csen_and_odds() {
    let v = solum("roll soluna --dice 5 --flips 3 --against-flips 2 --body 2 --shield 2 --melee --rolled 4,2,6,3,6 --json").json();
    assert_eq!(
        (
            v["largest"].as_u64(),
            v["face"].as_u64(),
            v["damage"].as_u64()
        ),
        (Some(3), Some(6), Some(1))
    );
    let v = solum("odds soluna --dice 2 --flips 1 --json").json();
    assert!((v["largest"]["2"].as_f64().unwrap() - 5.0 / 6.0).abs() < 1e-12);
    let v = solum("odds soluna --dice 20 --flips -5 --json").json();
    let total: f64 = v["largest"]
        .as_object()
        .unwrap()
        .values()
        .map(|x| x.as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-9);
    solum("odds soluna --dice 41")
        .bad_input("invalid value '41' for '--dice <DICE>': exact odds take 1 to 40 dice");
    solum("odds soluna --dice 5 --flips 5000")
        .bad_input("invalid value '5000' for '--flips <FLIPS>': net flips are -1000 to 1000");
    solum("roll soluna --dice 2000")
        .bad_input("invalid value '2000' for '--dice <DICE>': a Sol'una test rolls 1 to 1000 dice");
    solum("roll soluna --dice 3 --rolled 1,2").bad_input("too few values");
}

#[test]
fn soluna_skirmish() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("sk.toml");
    std::fs::write(&f, "[[character]]\nname = \"A\"\nside = \"a\"\nmind = 1\nbody = 0\nhit_points = 1\nranged = 2\n\n[[character]]\nname = \"B\"\nside = \"b\"\nmind = 1\nbody = 0\nhit_points = 1\nranged = 2\n").unwrap();
    // Both shoot in phase 10 and take each other out.
    let run = solum_args(&[
        "soluna",
        "skirmish",
        f.to_str().unwrap(),
        "--rolled",
        "3,3,5,5",
    ]);
    assert!(
        run.ok().contains("nobody stands after 1 turn(s)"),
        "{}",
        run.stdout
    );
    std::fs::write(
        &f,
        "[[character]]\nname = \"A\"\nside = \"a\"\nmind = 1\nbody = 0\nhit_points = 1\n",
    )
    .unwrap();
    solum_args(&["soluna", "skirmish", f.to_str().unwrap(), "--seed", "1"]).bad_input("no attack");
    std::fs::write(&f, "[[character]]\nnmae = \"A\"\n").unwrap();
    solum_args(&["soluna", "skirmish", f.to_str().unwrap()]).bad_input("nmae");
}

#[test]
fn classic_heroes_checks_oracle_and_duels() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("grok.toml");
    let f = f.to_str().unwrap();
    // Body 2 2 2 (3 even), Mind 1 1 1 (none: 1), Spirit 2 3 5 (1), hp 4 4 (+2), clichés 1 1.
    let v = solum_args(&[
        "classic",
        "new",
        "Grok",
        "-c",
        "The veteran warrior",
        "--rolled",
        "2,2,2,1,1,1,2,3,5,4,4,1,1",
        "-o",
        f,
        "--json",
    ])
    .json();
    assert_eq!(
        (
            v["hero"]["body"].as_u64(),
            v["hero"]["mind"].as_u64(),
            v["hero"]["hit_points"].as_u64()
        ),
        (Some(3), Some(1), Some(5))
    );
    // Two clichés named, the 2d6 (1, 1) allow one (C1): the first is taken, the notes name
    // the other; four named are refused before any die is rolled (none typed).
    let v = solum_args(&[
        "classic",
        "new",
        "Grok",
        "-c",
        "a",
        "-c",
        "b",
        "--rolled",
        "1,1,1,1,1,1,1,1,1,1,1,1,1",
        "-o",
        // A hero file's name ends in .toml.
        &f.replace("grok.toml", "grok-2.toml"),
        "--json",
    ])
    .json();
    assert_eq!(v["hero"]["cliches"], serde_json::json!(["a"]));
    assert_eq!(
        v["hero"]["notes"],
        "Not taken at creation (the 2d6 1 and 1 allow 1): b."
    );
    solum_args(&[
        "classic",
        "new",
        "Grok",
        "-c",
        "a",
        "-c",
        "b",
        "-c",
        "c",
        "-c",
        "d",
        "--seed",
        "1",
        "-o",
        &f.replace("grok.toml", "grok-3.toml"),
    ])
    .bad_input("at most 3");
    let v = solum("classic check 2 --vs tricky --gear --rolled 3,1,5 --json").json();
    assert_eq!(v["check"]["passed"], true);
    solum("classic check 2 --vs 7")
        .bad_input("invalid value '7' for '--vs <VS>': difficulty `7`: the original So1um's");
    let v = solum("classic oracle --rolled 4,5 --json").json();
    assert_eq!(v["consultation"]["answer"], "yes-but");
    assert_eq!(v["consultation"]["event"][1], "Unfriendly NPC");
    let v = solum("odds classic duel --body 1 --hp 1 --foe-body 1 --foe-hp 1 --json").json();
    assert!((num(&v, "p_win") - 0.5).abs() < 1e-12);
    // In the style of `solum odds duel`.
    let w = solum("odds classic duel --pool 2 --hp 2 --damage 1 --foe-pool 4 --foe-hp 4 --foe-damage 1 --json").json();
    let x = solum("odds classic duel --body 2 --hp 2 --monster troll --json").json();
    assert_eq!(w["p_win"], x["p_win"]);
    solum("odds classic duel --pool 2 --hp 2 --damage 2 --foe-pool 4 --foe-hp 4")
        .bad_input("1 hit point per won exchange");
    let a = solum("odds classic duel --body 2 --hp 2 --monster troll --json").json();
    let b = solum("odds classic duel --body 2 --hp 2 --monster troll --policy hit-points --json")
        .json();
    assert!(num(&a, "p_win") > num(&b, "p_win"));
    solum("odds classic duel --body 2 --hp 2 --monster dragon").bad_input("nor in the book");
    solum("odds classic duel --body 0 --hp 2 --monster troll").bad_input("body");
    solum("odds classic duel --body 2 --hp 2 --monster troll --policy flee")
        .bad_input("not a policy");
    let v = solum("odds classic check 1 --vs 4 --json").json();
    assert!((num(&v, "p_pass") - 0.5).abs() < 1e-12);
    assert!(solum("classic bestiary").ok().contains("Squidhead"));
}

#[test]
fn sol_assist_and_group_action() {
    // An assistant's 3 hits with 2 ranks: capped at +2.
    let v =
        solum("roll sol --attribute 3 --ranks 2 --assist 3 --rolled 1,2,3,4,5,6,1 --json").json();
    assert_eq!(v["pool"]["dice"], 7);
    // Leader 3 dice, members 2 and 2: best 2 hits, one member with none.
    let v =
        solum("roll sol --dice 3 --group 2,2 --threshold 2 --rolled 5,6,1,1,2,5,3 --json").json();
    assert_eq!(
        (
            v["hits"].as_u64(),
            v["leader_wounds"].as_u64(),
            v["success"].as_bool()
        ),
        (Some(2), Some(1), Some(true))
    );
}

#[test]
fn classic_fight_with_a_choice() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("al.toml");
    std::fs::write(
        &f,
        "name = \"Al\"\nbody = 2\nmind = 1\nspirit = 1\nhit_points = 1\nmax_hit_points = 2\n",
    )
    .unwrap();
    // Al (2 dice) against a zombie (1 die, 1 hp): Al loses the first exchange and gives up
    // Body (asked), then wins the second.
    let out = assert_cmd::Command::cargo_bin("solum")
        .unwrap()
        .args([
            "classic",
            "fight",
            f.to_str().unwrap(),
            "zombie",
            "--ask",
            "--rolled",
            "1,2,3,5,1",
            "--json",
        ])
        .write_stdin("b\n")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["exchanges"][0]["body_lost"], true);
    assert_eq!(v["foe_dead"], true);
    let saved = std::fs::read_to_string(&f).unwrap();
    assert!(saved.contains("body = 1"), "{saved}");
}
