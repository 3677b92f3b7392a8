//! `solum play` for the sibling systems: the `classic`, `dietype` and `soluna` lines, and one
//! long campaign of the original So1um scripted through three piped sessions on one
//! campaign file. Expected values are worked by hand from the original's text (C1, C2, C3).
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

use std::path::Path;

use common::solum_args;
use serde_json::json;

fn play(campaign: &Path, script: &str) -> (i32, String, String) {
    let output = assert_cmd::Command::cargo_bin("solum")
        .unwrap()
        .args(["play", "--campaign", campaign.to_str().unwrap()])
        .env("NO_COLOR", "1")
        .env_remove("SOLUM_CAMPAIGN")
        .write_stdin(script)
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

fn cli(campaign: &Path, args: &[&str]) -> common::Run {
    let mut all = args.to_vec();
    all.extend(["--campaign", campaign.to_str().unwrap()]);
    solum_args(&all)
}

#[test]
fn play_takes_classic_lines_with_their_dice() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    // C1 by hand: Body 2 4 1 → 2 even; Mind 1 3 5 → none, so 1; Spirit 6 1 1 → 1; hit points
    // Body 2 + 2 even of 2 2 = 4; clichés 1 + no even of 1 1 = 1.
    // The check: Body 2 + the cliché = 3 dice against 5: 1 5 2, the 5 reaches it.
    // The fight: Al 6 6 against the goblin's 1; the goblin's one hit point is gone.
    let (code, out, err) = play(
        &c,
        "classic new Al -c \"The veteran warrior\" --rolled 2,4,1,1,3,5,6,1,1,2,2,1,1\n\
         classic check Al --cliche \"veteran warrior\" --vs 5 --rolled 1,5,2\n\
         classic fight Al goblin --policy survive --rolled 6,6,1\n\
         classic fight Al goblin --ask\n",
    );
    assert_eq!(code, 2, "the --ask line fails: {err}");
    assert!(out.contains("Al   B:2 M:1 S:1 HP:4"), "{out}");
    assert!(out.contains("SUCCESS"), "{out}");
    assert!(out.contains("Al wins"), "{out}");
    assert!(err.contains("classic fight --ask: in a script"), "{err}");
    assert!(err.contains("1 of 4 commands failed (commands 4)"), "{err}");
    // Journaled as the one-shot commands do: creation, check, fight.
    let v = cli(&c, &["journal", "export", "--format", "json"]).json();
    let kinds: Vec<&str> = v["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["classic", "classic", "classic"], "{v}");
}

#[test]
fn play_takes_dietype_and_soluna_lines() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    let (code, out, err) = play(
        &c,
        "dietype new Kira --ability Agility=d8 --skill Swords=2 --weapon Dagger=d4+1\n\
         dietype show Kira\n\
         soluna new Ra --side sun --mind 2 --hit-points 3 --melee 2\n\
         soluna new Ze --side moon --mind 1 --hit-points 1 --melee 1\n\
         soluna list\n\
         soluna skirmish start Ra Ze --auto Ze\n\
         soluna skirmish status\n\
         soluna skirmish abandon\n\
         help\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Kira"), "{out}");
    assert!(out.contains("d8"), "{out}");
    assert!(out.contains("Ra") && out.contains("Ze"), "{out}");
    for word in ["classic new|show", "dietype new|show", "soluna new|show"] {
        assert!(out.contains(word), "help: {word}:\n{out}");
    }
    let v = cli(&c, &["dietype", "show", "Kira", "--json"]).json();
    assert!(v.to_string().contains("Swords"), "{v}");
    let v = cli(&c, &["soluna", "list", "--json"]).json();
    assert_eq!(v.as_array().map(Vec::len), Some(2), "{v}");
    let report = cli(&c, &["journal", "verify"]).ok().to_owned();
    assert!(report.contains(" 0 do not match"), "{report}");
}

fn hero(c: &Path) -> serde_json::Value {
    cli(c, &["classic", "show", "Al", "--json"]).json()
}

/// One campaign of the original across three `solum play` processes: creation, checks,
/// fights (one whose typed dice run out and go on in the next process, one abandoned),
/// rest, and the journal verified at the end.
#[test]
fn a_long_classic_campaign_across_three_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");

    // Session 1.
    let (code, out, err) = play(
        &c,
        r#"
# C1: Body 2 4 1 → 2; Mind 1 3 5 → 1; Spirit 6 1 1 → 1; hit points 2 + (2 2: two even) = 4;
# clichés 1 + (1 1: none) = 1.
classic new Al -c "The veteran warrior" --rolled 2,4,1,1,3,5,6,1,1,2,2,1,1
scene The barrow | find the crown
# Body 2 + the cliché: 3 dice against tricky (5): 1 5 2 passes.
classic check Al --cliche "veteran warrior" --vs tricky --rolled 1,5,2
# Mind 1: one die against average (4): 3 fails.
classic check Al --stat mind --vs 4 --rolled 3
# The goblin (Body 1, 1 hit point): Al 3 1 against 4, the goblin wins: Al 4 → 3 hit points
# (survive: a hit point while more than one is left). Al 6 2 against 5: the goblin dies.
classic fight Al goblin --policy survive --rolled 3,1,4,6,2,5
# The troll (Body 4, 4 hit points; it always loses hit points, never Body): Al 6 6 against
# 1 2 3 4, the troll 4 → 3; the dice end there.
classic fight Al troll --policy survive --foe-policy hit-points --rolled 6,6,1,2,3,4
quit
"#,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Al   B:2 M:1 S:1 HP:4"), "{out}");
    assert!(out.contains("SUCCESS") && out.contains("FAILURE"), "{out}");
    assert!(out.contains("Goblin dies"), "{out}");
    assert!(out.contains("the fight waits for more dice"), "{out}");
    let v = hero(&c);
    assert_eq!(
        (v["hero"]["hit_points"].clone(), v["in_fight"].clone()),
        (json!(3), json!(true))
    );

    // Session 2: the troll fight goes on. Al 5 1 against 2 2 3 3: the troll 3 → 2; 6 1
    // against 5 5 1 1: 2 → 1; 6 5 against 2 2 2 2: the troll dies. Then rest: 4 hours heal
    // nothing, 4.5 more make 8.5, one hit point (3 → 4, full again: nothing stays banked).
    let (code, out, err) = play(
        &c,
        "classic fight Al --status\n\
         classic fight Al --rolled 5,1,2,2,3,3,6,1,5,5,1,1,6,5,2,2,2,2\n\
         classic rest Al --hours 4\n\
         classic rest Al --hours 4.5\n\
         quit\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Troll: Body 4, hit points 3"), "{out}");
    assert!(out.contains("Troll dies"), "{out}");
    assert!(out.contains("Al rests 4 hours: +0 hit point(s)"), "{out}");
    assert!(out.contains("Al rests 4.5 hours: +1 hit point(s)"), "{out}");
    let v = hero(&c);
    assert_eq!(v["hero"]["hit_points"], 4);
    assert_eq!(v["in_fight"], false);
    // Nothing banked (a sheet leaves out a zero).
    assert_eq!(
        v["hero"]["rest_toward_hit_point"].as_f64().unwrap_or(0.0),
        0.0
    );

    // Session 3: an owlbear (Body 4, 5 hit points), no policy: Al 1 1 against 6 1 1 1 is hit
    // and asked; he takes a hit point (4 → 3) and flees. 8 hours of rest: back to 4.
    let (code, out, err) = play(
        &c,
        "classic fight Al owlbear --rolled 1,1,6,1,1,1\n\
         classic fight Al --abandon --decide hp\n\
         classic rest Al --hours 8\n\
         end the crown is not here\n\
         verify\n\
         quit\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Al is hit (Body 2, hit points 4)"), "{out}");
    assert!(out.contains("Al breaks off and flees"), "{out}");
    assert!(out.contains("Al rests 8 hours: +1 hit point(s)"), "{out}");
    let v = hero(&c);
    assert_eq!(
        (v["hero"]["body"].clone(), v["hero"]["hit_points"].clone()),
        (json!(2), json!(4))
    );
    let report = cli(&c, &["journal", "verify"]).ok().to_owned();
    assert!(report.contains(" 0 do not match"), "{report}");
    assert!(report.contains("0 differ"), "{report}");
}
