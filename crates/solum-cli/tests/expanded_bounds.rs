//! So1um Expanded fights and exact odds stay bounded: a fight that cannot end is refused or
//! stopped and says so, exact odds at the limits end, and numbers out of range are
//! refused naming the flag and repeating the value.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

use common::{num, solum_ends as ends};

#[test]
fn static_fight_where_the_hero_deals_nothing_and_never_fails_is_refused() {
    let why = "the hero deals no damage (--damage 0) and the hero never fails";
    ends("static --pool 3 --hp 5 --damage 0 --vs 1 --foe-hp 5 --foe-damage 2").bad_input(why);
    ends("odds static --pool 3 --hp 5 --damage 0 --vs 1 --foe-hp 5 --foe-damage 2").bad_input(why);
}

#[test]
fn static_fight_against_1000_with_a_harmless_foe_stops_at_the_cap() {
    let run =
        ends("static --pool 3 --hp 5 --damage 1 --vs 1000 --foe-hp 5 --foe-damage 0 --seed 1");
    let out = run.ok();
    assert!(
        out.contains("stopped after 20000 rounds, both stand"),
        "{}",
        &out[out.len().saturating_sub(400)..]
    );
    assert!(!out.contains("is defeated"));
    let v = ends(
        "static --pool 3 --hp 5 --damage 1 --vs 1000 --foe-hp 5 --foe-damage 0 --seed 1 --json",
    )
    .json();
    assert_eq!(v["stopped"], true);
    assert_eq!(v["won"], false);
    assert_eq!(v["rounds"].as_array().unwrap().len(), 20_000);
}

#[test]
fn a_static_fight_that_ends_is_not_stopped() {
    let v =
        ends("static --pool 2 --hp 5 --damage 1 --vs 4 --foe-hp 5 --foe-damage 1 --seed 3 --json")
            .json();
    assert_eq!(v["stopped"], false);
    // Every round hurts one side: at most 5 + 5 - 1 rounds.
    assert!(v["rounds"].as_array().unwrap().len() <= 9);
}

#[test]
fn neither_side_harmful_is_refused_in_every_fight_command() {
    ends("odds duel --pool 3 --hp 5 --damage 0 --foe-pool 3 --foe-hp 5 --foe-damage 0")
        .bad_input("neither side deals damage");
    ends("odds static --pool 3 --hp 5 --damage 0 --vs 4 --foe-hp 5 --foe-damage 0")
        .bad_input("neither side deals damage");
    // sim: nobody can hurt anybody; every fight stops at the round cap and says so.
    let v = ends("sim --hero pool=2,hp=3,damage=0 --foe pool=2,hp=3,damage=0 --fights 20 --seed 1 --alternative --json").json();
    assert_eq!(num(&v, "undecided"), 20.0);
    assert_eq!(num(&v, "wins"), 0.0);
}

#[test]
fn exact_odds_at_10000_hit_points_answer_fast_with_an_error_bound() {
    // Even duel: exactly one half by symmetry.
    let v = ends("odds duel --pool 3 --hp 10000 --damage 1 --foe-pool 3 --foe-hp 10000 --foe-damage 1 --json").json();
    let bound = num(&v, "error_bound");
    assert!(bound > 0.0 && bound < 1e-9, "{bound}");
    assert!((num(&v, "p_win") - 0.5).abs() <= bound);
    assert!(v["p_win_exact"].is_null());
    // The biggest pools as well.
    let v = ends("odds duel --pool 1000 --hp 10000 --damage 1 --foe-pool 1000 --foe-hp 10000 --foe-damage 1 --json").json();
    assert!((num(&v, "p_win") - 0.5).abs() <= num(&v, "error_bound"));
    // Static: 3 dice against 4 pass with 1 − (3/6)^3 = 7/8; 10,000 passes before 10,000
    // failures at 7/8 is certain to far below the bound.
    let v = ends(
        "odds static --pool 3 --vs 4 --hp 10000 --damage 1 --foe-hp 10000 --foe-damage 1 --json",
    )
    .json();
    assert!((num(&v, "p_exchange") - 0.875).abs() < 1e-15);
    assert!((num(&v, "p_win") - 1.0).abs() <= num(&v, "error_bound"));
    let text =
        ends("odds static --pool 3 --vs 4 --hp 10000 --damage 1 --foe-hp 10000 --foe-damage 1");
    assert!(text.ok().contains("within"), "{}", text.stdout);
}

#[test]
fn small_fights_stay_exact() {
    let v =
        ends("odds duel --pool 3 --hp 5 --damage 2 --foe-pool 3 --foe-hp 5 --foe-damage 2 --json")
            .json();
    assert_eq!(num(&v, "error_bound"), 0.0);
    assert_eq!(v["p_win_exact"], "1/2");
}

#[test]
fn numbers_out_of_range_repeat_the_flag_and_the_value() {
    ends("odds static --pool 3 --hp 4294967296 --damage 1 --vs 4 --foe-hp 5 --foe-damage 1")
        .bad_input("invalid value '4294967296' for '--hp <HP>': hit points are 1 to 10000");
    ends("odds duel --pool 3 --hp 5 --damage -1 --foe-pool 3 --foe-hp 5 --foe-damage 1")
        .bad_input("invalid value '-1' for '--damage <DAMAGE>': damage is 0 to 1000000");
    ends("odds duel --pool 3 --hp 5 --damage 1 --foe-pool 3 --foe-hp -3 --foe-damage 1")
        .bad_input("invalid value '-3' for '--foe-hp <FOE_HP>': hit points are 1 to 10000");
    ends("static --pool 3 --hp 5 --damage 1 --vs 4 --foe-hp 10001 --foe-damage 1")
        .bad_input("invalid value '10001' for '--foe-hp <FOE_HP>': hit points are 1 to 10000");
    ends("odds duel --pool 0 --hp 5 --damage 1 --foe-pool 3 --foe-hp 5 --foe-damage 1")
        .bad_input("invalid value '0' for '--pool <POOL>': a pool has 1 to 1000 dice");
    ends("odds duel --pool 3 --hp 5 --damage 1 --foe-pool -2 --foe-hp 5 --foe-damage 1")
        .bad_input("invalid value '-2' for '--foe-pool <FOE_POOL>': a pool has 1 to 1000 dice");
}

/// A bestiary file in the temp directory, named for the test.
fn bestiary(name: &str, text: &str) -> std::path::PathBuf {
    let path =
        std::env::temp_dir().join(format!("solum-bounds-{}-{name}.toml", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_bestiary_pool_of_100000_names_the_file_the_creature_the_field_and_the_limit() {
    let path = bestiary(
        "titan",
        "[[creature]]\nname = \"titan\"\npool = 100000\nhit_points = 5\ndamage = 1\n",
    );
    let p = path.to_str().unwrap();
    let run = common::solum_args(&[
        "sim",
        "--hero",
        "titan",
        "--foe",
        "orc",
        "--fights",
        "10",
        "--bestiary",
        p,
    ]);
    run.bad_input("titan.pool: 100000 dice is not possible: a pool has 1 to 1000");
    run.bad_input(p);
    let path = bestiary(
        "horde",
        "[[static]]\nname = \"horde\"\ndifficulty = 4\nhit_points = 4294967295\ndamage = 1\n",
    );
    let p = path.to_str().unwrap();
    common::solum_args(&[
        "static",
        "--pool",
        "3",
        "--hp",
        "5",
        "--damage",
        "1",
        "--foe",
        "horde",
        "--bestiary",
        p,
    ])
    .bad_input("horde.hit_points: 4294967295 is not possible: 1 to 10000 hit points");
}

#[test]
fn sim_counts_and_fighters_are_checked() {
    ends("sim --hero pool=2,hp=3 --foe orc --fights 0").bad_input("--fights 0: 1 to 1000000000");
    ends("sim --hero pool=2,hp=3 --foe orc*0 --fights 10")
        .bad_input("`orc*0`: the count after * is 1 to 200");
    ends("sim --hero pool=2,hp=3 --foe orc*4294967297 --fights 10").bad_input("`orc*4294967297`");
    ends("sim --hero pool=2,hp=3,mind=0 --foe orc --fights 10")
        .bad_input("`mind=0` in `pool=2,hp=3,mind=0`: mind is 1 to 1000");
    ends("sim --hero pool=2,hp=3,damage=4294967295 --foe orc --fights 10")
        .bad_input("damage is 0 to 1000000");
    ends("sim --hero pool=2,hp=10001 --foe orc --fights 10").bad_input("hp= 1 to 10000");
    ends("sim --hero pool=0,hp=3 --foe orc --fights 10").bad_input("`pool=0,hp=3`");
    // The largest sides at the largest hit points add up without wrapping.
    let v = ends("sim --hero pool=1,hp=10000,damage=0*200 --foe pool=1,hp=10000,damage=1 --fights 1 --seed 2 --alternative --json").json();
    assert_eq!(num(&v, "fights"), 1.0);
}

#[test]
fn contradictory_flags_are_refused_by_the_parser() {
    ends("sim --hero orc --foe orc --ambush --ambushed").bad_input("cannot be used with");
    ends("odds duel --pool 3 --hp 5 --damage 1 --foe-pool 3 --foe-hp 5 --foe-damage 1 --seed 3")
        .bad_input("--simulate");
    ends("static --pool 3 --hp 5 --damage 1 --foe orc --vs 4").bad_input("cannot be used with");
    ends(
        "static --pool 3 --hp 5 --damage 1 --vs 4 --foe-hp 2 --foe-damage 1 --seed 3 --rolled 4,4",
    )
    .bad_input("--seed 3 cannot be used with --rolled");
    ends("combat --help-lines --seed 3").bad_input("cannot be used with");
    ends("static --pool 3 --hp 5 --damage 1 --vs 4").bad_input("--foe-hp");
}
