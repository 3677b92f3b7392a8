//! Solum die types end to end: steps on the other side and on the damage die, and flags a
//! command would ignore refused.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

use common::{num, solum};

#[test]
fn against_step_lowers_the_other_side() {
    // A d8 at -1DT is a d6: d6 against it is even, as d6 against d6.
    let v = solum("odds dietype d6 --against d8 --against-step -1 --json").json();
    assert_eq!(v["against"], "d6");
    assert!((num(&v, "p_win") - num(&v, "p_lose")).abs() < 1e-12, "{v}");
    let plain = solum("odds dietype d6 --against d6 --json").json();
    assert_eq!(v["p_win"], plain["p_win"]);
    // Clamped: a d12 at +1DT stays a d12, a d4 at -3DT stays a d4.
    let up = solum("odds dietype d6 --against d12 --against-step 1 --json").json();
    assert_eq!(up["against"], "d12");
    let down = solum("odds dietype d6 --against d4 --against-step -3 --json").json();
    assert_eq!(down["against"], "d4");
    // Rolled: the other side's d8 at -1DT takes d6 faces, so a typed 7 is refused.
    let v = solum("roll dietype d6 --against d8 --against-step -1 --rolled 2,5 --json").json();
    assert_eq!(v["against"], "d6");
    assert_eq!(v["roll"]["winner"], -1);
    solum("roll dietype d6 --against d8 --against-step -1 --rolled 2,7")
        .bad_input("not a face of a d6");
}

#[test]
fn damage_step_for_armour() {
    // Success with quality 1 on a d6; damage d8 at -1DT is one d6: a typed 6 counts as 6
    // (damage dice do not explode), a typed 7 is not a face.
    let v = solum("roll dietype d6 --vs 4 --rolled 5,6 --damage d8 --damage-step -1 --json").json();
    assert_eq!(v["damage_die"], "d6");
    assert_eq!(v["damage"]["total"], 6);
    solum("roll dietype d6 --vs 4 --rolled 5,7 --damage d8 --damage-step -1")
        .bad_input("not a face of a d6");
    // Clamped at d4 (D3).
    let v = solum("roll dietype d6 --vs 4 --rolled 5,4 --damage d4 --damage-step -2 --json").json();
    assert_eq!(
        (v["damage_die"].as_str(), v["damage"]["total"].as_u64()),
        (Some("d4"), Some(4))
    );
    // An opposed win rolls the winner's quality in damage dice: 7 and 5 beat 4, two d6.
    let v = solum(
        "roll dietype d8 --chances 2 --against d6 --rolled 7,5,4,3,6 --damage d8 --damage-step -1 --modifier -1 --json",
    )
    .json();
    assert_eq!(v["roll"]["quality"], 2);
    assert_eq!(v["damage"]["total"], 8);
    // A loss deals none of this side's damage.
    let v = solum("roll dietype d6 --against d8 --rolled 2,5 --damage d6 --json").json();
    assert!(v["damage"].is_null());
}

#[test]
fn flags_that_would_be_ignored_are_refused() {
    for args in [
        // Opposed-roll flags without an opposed roll.
        "roll dietype d6 --against-chances 2",
        "roll dietype d6 --against-step -1",
        "odds dietype d6 --against-chances 2",
        "odds dietype d6 --against-step 1",
        // A difficulty in an opposed roll, where the other side's roll is the target.
        "roll dietype d6 --against d6 --vs 5",
        "odds dietype d6 --against d6 --vs 5",
        // Damage flags without damage.
        "roll dietype d6 --modifier 1",
        "roll dietype d6 --damage-step -1",
        // The tables take no roll.
        "odds dietype --tables --chances 2",
        "odds dietype --tables --vs 5",
        "odds dietype --tables --step 1",
        // Typed dice leave the seed unused.
        "roll dietype d6 --rolled 3 --seed 5",
    ] {
        let run = solum(args);
        assert_eq!(run.code, 2, "{args}: {}", run.stderr);
        assert!(
            run.stderr.contains("cannot be used with")
                || run.stderr.contains("required arguments were not provided"),
            "{args}: {}",
            run.stderr
        );
    }
    // The defaults themselves are no conflict.
    solum("odds dietype d6 --against d6").ok();
    solum("roll dietype d6 --seed 1").ok();
    solum("odds dietype --tables").ok();
}

fn in_campaign(campaign: &std::path::Path, args: &[&str]) -> common::Run {
    let mut all = args.to_vec();
    all.push("--campaign");
    all.push(campaign.to_str().unwrap());
    common::solum_args(&all)
}

#[test]
fn die_type_characters_roll_from_their_sheet() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    let v = in_campaign(
        &c,
        &[
            "dietype",
            "new",
            "Aria",
            "--ability",
            "Agility=d8",
            "--skill",
            "Swords=2",
            "--weapon",
            "Dagger=d4+1",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["sheet"]["sheet"]["abilities"]["Agility"], "d8");
    // A change says the journal entry it was kept as, as every system's does.
    let other = dir.path().join("other.solum");
    let text = in_campaign(&other, &["dietype", "new", "Bo", "--ability", "Agility=d6"]);
    assert!(text.ok().ends_with("journal entry 1\n"), "{}", text.ok());
    in_campaign(&c, &["dietype", "new", "Bad", "--skill", "Swords=5"]).bad_input("--skill");
    in_campaign(&c, &["dietype", "new", "Bad", "--ability", "Agility=d7"]).bad_input("d7");
    // D1, D2 by hand: chance 1, 8 explodes into 3 and 2 = 5 ≥ 4; chance 2, 1. Quality 1:
    // one d4 of the dagger, 3 + 1 = 4.
    let v = in_campaign(
        &c,
        &[
            "roll",
            "dietype",
            "--char",
            "aria",
            "--ability",
            "agility",
            "--skill",
            "swords",
            "--weapon",
            "dagger",
            "--rolled",
            "8,3,2,1,3",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["inputs"]["chances"], 2);
    assert_eq!(v["result"]["quality"], 1);
    assert_eq!(v["result"]["damage"]["total"], 4);
    in_campaign(
        &c,
        &["roll", "dietype", "--char", "Aria", "--ability", "Luck"],
    )
    .bad_input("Luck");
    in_campaign(
        &c,
        &[
            "roll",
            "dietype",
            "d6",
            "--char",
            "Aria",
            "--ability",
            "Agility",
        ],
    )
    .bad_input("cannot be used with");
    in_campaign(
        &c,
        &[
            "roll",
            "dietype",
            "--char",
            "Aria",
            "--ability",
            "Agility",
            "--chances",
            "3",
        ],
    )
    .bad_input("cannot be used with");
    let v = in_campaign(
        &c,
        &[
            "dietype",
            "edit",
            "Aria",
            "--skill",
            "swords=3",
            "--remove-weapon",
            "dagger",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["sheet"]["sheet"]["skills"]["Swords"], 3);
    in_campaign(&c, &["dietype", "edit", "Aria", "--remove-skill", "bows"]).bad_input("bows");
    let sheet = in_campaign(&c, &["dietype", "export", "Aria"])
        .ok()
        .to_owned();
    let file = dir.path().join("aria.toml");
    std::fs::write(&file, sheet.replace("Aria", "Bria")).unwrap();
    in_campaign(&c, &["dietype", "import", file.to_str().unwrap()]).ok();
    assert!(in_campaign(&c, &["dietype", "list"]).ok().contains("Bria"));
    let report = in_campaign(&c, &["journal", "verify"]).ok().to_owned();
    assert!(
        report.contains("4 entries, 1 rolls re-derived, 0 do not match"),
        "{report}"
    );
}
