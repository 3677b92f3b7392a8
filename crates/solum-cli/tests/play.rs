//! Characters, combat, vehicles, fight odds and simulation, end to end.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use std::path::Path;

use crate::common;

use common::{num, solum, solum_args};

fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// `solum …` with `--campaign FILE` added.
fn in_campaign(campaign: &std::path::Path, args: &[&str]) -> common::Run {
    let mut all = args.to_vec();
    all.extend(["--campaign", campaign.to_str().unwrap()]);
    solum_args(&all)
}

#[test]
fn character_lifecycle() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    create_edit_and_rest(&c);
    advance_by_attribute_and_background(&c);
    refusals_change_nothing(&c);
    // The armor edit, then the journal holds every change and no file was written beside
    // the campaign.
    wear_armor_too_heavy_and_verify(&c, dir.path());
}

/// Nick is created (typed dice), refused a second time, edited and rested.
fn create_edit_and_rest(c: &Path) {
    // 2d6: 2, 5 (one more background); d6: 4 (light armor). S9: Body 3 + Mind 2 + light
    // armor 1 = 6 hit points.
    let v = in_campaign(
        c,
        &[
            "char",
            "new",
            "Nick",
            "--body",
            "3",
            "--mind",
            "2",
            "--charm",
            "1",
            "-b",
            "Acrobat Thief",
            "--weapon",
            "dagger",
            "--rolled",
            "2,5,4",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["sheet"]["character"]["hit_points"], 6);
    assert_eq!(v["sheet"]["max_hit_points"], 6);
    assert_eq!(v["sheet"]["character"]["unnamed_backgrounds"], 1);
    assert_eq!(v["rolled"]["faces"], serde_json::json!([2, 5, 4]));
    assert_eq!(v["seq"], 1);
    // A name is taken once: never replaced by accident.
    in_campaign(
        c,
        &[
            "char", "new", "nick", "--body", "3", "--mind", "2", "--charm", "1", "-b", "x",
            "--weapon", "y", "--seed", "1",
        ],
    )
    .bad_input("already exists");
    in_campaign(
        c,
        &[
            "char",
            "edit",
            "Nick",
            "--add-background",
            "Quick-Witted Rogue",
            "--damage",
            "4",
        ],
    )
    .ok();
    let v = in_campaign(c, &["char", "show", "nick", "--json"]).json();
    assert_eq!(v["character"]["hit_points"], 2);
    assert_eq!(v["character"]["backgrounds"].as_array().unwrap().len(), 2);
    assert_eq!(v["character"]["unnamed_backgrounds"], 0);
    assert_eq!(v["version"], 2);
    // S8: 1.5 hours are three half hours, +3.
    let rest = in_campaign(c, &["char", "rest", "Nick", "--hours", "1.5"]);
    assert!(
        rest.ok().contains("+3 hit point(s), now 5/6"),
        "{}",
        rest.stdout
    );
}

/// S17: a point granted, then an attribute raised (B) and a background tried (A).
fn advance_by_attribute_and_background(c: &Path) {
    // B: Mind 2, two dice, both even: Mind 3, and the maximum and hit points one higher.
    in_campaign(c, &["char", "grant", "Nick"]).ok();
    let v = in_campaign(
        c,
        &[
            "char",
            "advance",
            "Nick",
            "--attribute",
            "mind",
            "--rolled",
            "2,6",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["success"], true);
    assert_eq!(v["sheet"]["character"]["mind"], 3);
    assert_eq!(v["sheet"]["character"]["hit_points"], 6);
    assert_eq!(v["sheet"]["max_hit_points"], 7);
    // A: odd, no new background; the sheet is unchanged but the try is journaled.
    in_campaign(c, &["char", "grant", "Nick"]).ok();
    let v = in_campaign(
        c,
        &[
            "char",
            "advance",
            "Nick",
            "--background",
            "Tower Climber",
            "--rolled",
            "5",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["success"], false);
    assert_eq!(
        v["sheet"]["character"]["backgrounds"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
}

/// Too few typed dice, an attribute out of range, an empty edit, a background held, a
/// character that is not there: each refused.
fn refusals_change_nothing(c: &Path) {
    // Mind is 3 now: three dice.
    in_campaign(c, &["char", "grant", "Nick"]).ok();
    in_campaign(
        c,
        &[
            "char",
            "advance",
            "Nick",
            "--attribute",
            "mind",
            "--rolled",
            "2,6",
        ],
    )
    .bad_input("too few values");
    in_campaign(c, &["char", "edit", "Nick", "--set", "body=5"])
        .bad_input("body: 5 is outside 1 to 4");
    in_campaign(c, &["char", "edit", "Nick"]).bad_input("nothing to change");
    in_campaign(
        c,
        &["char", "edit", "Nick", "--add-background", "acrobat thief"],
    )
    .bad_input("--add-background: Nick already has the background `acrobat thief`");
    in_campaign(c, &["char", "edit", "Nobody", "--damage", "1"]).bad_input("Nobody");
}

/// Armor too heavy for Body 1, worn as a correction; the journal verifies.
fn wear_armor_too_heavy_and_verify(c: &Path, dir: &Path) {
    in_campaign(
        c,
        &[
            "char",
            "edit",
            "Nick",
            "--armor",
            "plate:heavy",
            "--set",
            "body=1",
            "--correction",
        ],
    )
    .ok();
    let sheet = in_campaign(c, &["char", "show", "Nick"]);
    assert!(
        sheet.ok().contains("too heavy for Body 1"),
        "{}",
        sheet.stdout
    );
    let list = in_campaign(c, &["char", "list", "--json"]).json();
    assert_eq!(list.as_array().unwrap().len(), 1);
    // Journaled: creation, edit, rest, three points granted, two advancements, the armor
    // edit; refusals are not.
    let v = in_campaign(c, &["journal", "verify", "--json"]).json();
    assert_eq!(v["entries"], 9);
    assert_eq!(v["mismatches"].as_array().unwrap().len(), 0);
    // No file was written beside the campaign.
    let files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| !n.starts_with("c.solum"))
        .collect();
    assert!(files.is_empty(), "{files:?}");
}

#[test]
fn interactive_creation_reads_answers() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    let out = assert_cmd::Command::cargo_bin("solum")
        .unwrap()
        .args(["char", "new", "--rolled", "1,3,5", "--campaign"])
        .arg(&c)
        .write_stdin("Osric\n7\n2\n1\nSeasoned Veteran\nclub\n")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("`7`: Body, Mind and Charm start at 1 to 3: 3, 2 and 1, one each"),
        "{stderr}"
    );
    let v = in_campaign(&c, &["char", "show", "Osric", "--json"]).json();
    let h = &v["character"];
    assert_eq!(
        (h["body"].as_u64(), h["mind"].as_u64(), h["charm"].as_u64()),
        (Some(2), Some(1), Some(3))
    );
}

#[test]
fn bad_character_files() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.toml");
    std::fs::write(
        &file,
        "schema = 1\nname = \"X\"\nbdy = 3\nmind = 2\ncharm = 1\nhit_points = 3\n",
    )
    .unwrap();
    let run = solum_args(&["char", "show", "--file", file.to_str().unwrap()]);
    run.bad_input("bad.toml");
    run.bad_input("bdy");
    solum("char show --file no-such-file.toml").bad_input("no-such-file.toml");
    let c = dir.path().join("c.solum");
    in_campaign(
        &c,
        &[
            "char", "new", "X", "--body", "3", "--mind", "3", "--charm", "1", "-b", "x",
            "--weapon", "y", "--seed", "1",
        ],
    )
    .bad_input("assign 3, 2 and 1");
    in_campaign(&c, &["char", "import", file.to_str().unwrap()]).bad_input("bdy");
}

#[test]
fn initiative_example_script() {
    let run = solum(&format!("combat {}", data("initiative.txt")));
    assert!(
        run.ok()
            .contains("Order: Nick, orc-1, orc-2, orc-3, orc-4, Osric"),
        "{}",
        run.stdout
    );
}

#[test]
fn dogfight_script_event_by_event() {
    let run = solum(&format!("combat {} --seed 1", data("dogfight.txt")));
    insta::assert_snapshot!(run.ok());
    let json = solum(&format!("combat {} --seed 1 --json", data("dogfight.txt")));
    let last: serde_json::Value = serde_json::from_str(json.ok().lines().last().unwrap()).unwrap();
    let events = last["events"].as_array().unwrap();
    assert!(events.iter().any(|e| e["event"] == "turn-started"));
}

#[test]
fn combat_script_errors_name_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("bad.txt");
    std::fs::write(
        &script,
        "hero A pool=2 hp=3\nfoe orc\norder A orc\nmove away orc\nmove closer orc\nmove closer orc\n",
    )
    .unwrap();
    solum_args(&["combat", script.to_str().unwrap()])
        .bad_input("line 6: A has already used the move and the action");
    std::fs::write(
        &script,
        "hero A pool=2 hp=3\nfoe orc\norder A orc\nmove away orc\nend\nmove away A\n",
    )
    .unwrap();
    solum_args(&["combat", script.to_str().unwrap()])
        .bad_input("line 6: orc is already far from A: no move goes farther");
    std::fs::write(&script, "hero A pool=2 hp=3\nfoe rat pool=1 hp=1\nplace A rat engaged\norder A rat\nmelee rat with 5,1,1\nmelee rat\n").unwrap();
    solum_args(&["combat", script.to_str().unwrap()]).bad_input("line 6: combat is over");
    solum("combat no-such-script.txt").bad_input("no-such-script.txt");
}

#[test]
fn fight_odds() {
    let v =
        solum("odds duel --pool 3 --hp 5 --damage 2 --foe-pool 3 --foe-hp 5 --foe-damage 2 --json")
            .json();
    assert!((num(&v, "p_win") - 0.5).abs() < 1e-12);
    let v = solum("odds static --pool 1 --vs 4 --hp 2 --damage 1 --foe-hp 1 --foe-damage 2 --json")
        .json();
    assert!((num(&v, "p_win") - 0.5).abs() < 1e-12);
    let v = solum("odds duel --pool 3 --hp 5 --damage 2 --foe-pool 2 --foe-hp 6 --foe-damage 1 --simulate 100000 --seed 4 --json").json();
    let z = v["simulated"]["z"].as_f64().unwrap();
    assert!(z.abs() < 4.0, "simulation {z} standard errors from exact");
    solum("odds duel --pool 3 --hp 0 --damage 2 --foe-pool 3 --foe-hp 5 --foe-damage 2")
        .bad_input("invalid value '0' for '--hp <HP>': hit points are 1 to 10000");
    solum("odds duel --pool 0 --hp 3 --damage 2 --foe-pool 3 --foe-hp 5 --foe-damage 2")
        .bad_input("invalid value '0' for '--pool <POOL>': a pool has 1 to 1000 dice");
    solum("odds duel --pool 2 --hp 3 --damage 0 --foe-pool 3 --foe-hp 5 --foe-damage 0")
        .bad_input("never ends");
    solum("odds static --pool 2 --vs 0 --hp 3 --damage 1 --foe-hp 5 --foe-damage 1")
        .bad_input("difficulty 0");
}

#[test]
fn vehicle_rolls() {
    let v = solum("vehicle chase --pilot 3 --against-pilot 3 --against-speed fast --against-handling responsive --rolled 2,3,5 --against-rolled 2,3,4,4,6 --json").json();
    assert_eq!(
        (v["pool"].as_u64(), v["against_pool"].as_u64()),
        (Some(3), Some(5))
    );
    assert_eq!(v["outcome"], "lose");
    // The customs pilot's attack: 4 dice (better handling) against 3, and a miss.
    let v = solum("vehicle attack --pilot 3 --handling responsive --against-pilot 3 --rolled 1,2,3,3 --against-rolled 3,4,5 --json").json();
    assert_eq!(
        (v["pool"].as_u64(), v["outcome"].as_str()),
        (Some(4), Some("lose"))
    );
    solum("vehicle attack --pilot 3 --against-pilot 3 --rolled 1,2,3,3 --against-rolled 3,4,5")
        .bad_input("too many values in --rolled");
    solum("vehicle chase --pilot 3 --against-pilot 3 --speed warp").bad_input(
        "invalid value 'warp' for '--speed <SPEED>': `warp` is not a speed: slow, average, fast or lightning-fast",
    );
    assert!(
        solum("vehicle scale --weapon-damage 1 --scale car")
            .ok()
            .contains("deals 0")
    );
}

#[test]
fn simulation_is_reproducible() {
    let a = solum("sim --hero pool=3,hp=5,damage=2*2 --foe orc*3 --fights 5000 --seed 11 --json")
        .json();
    let b = solum("sim --hero pool=3,hp=5,damage=2*2 --foe orc*3 --fights 5000 --seed 11 --json")
        .json();
    assert_eq!(a, b);
    assert_eq!(a["fights"], 5000);
    let rate = num(&a, "win_rate");
    let interval = a["win_rate_95"].as_array().unwrap();
    assert!(interval[0].as_f64().unwrap() <= rate && rate <= interval[1].as_f64().unwrap());
    solum("sim --hero pool=3 --foe orc").bad_input("hp=");
    solum("sim --hero pool=3,hp=4 --foe dragon").bad_input("`dragon` is not in the bestiary");
    solum("sim --hero pool=3,hp=4 --foe orc*0").bad_input("count");
    solum("sim --hero pool=3,hp=4 --foe orc --fights 0").bad_input("--fights 0");
}

#[test]
fn fast_static_combat_round_by_round() {
    // The trooper squad: difficulty 4, 5 hit points, 2 damage. Hero: 3 dice, 5 hp, 2 damage.
    let v = solum("static --pool 3 --hp 5 --damage 2 --foe trooper-squad --rolled 4,1,1,3,2,1,5,5,5,6,1,1 --json")
        .json();
    assert_eq!(v["won"], true);
    let rounds = v["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 4);
    assert_eq!(rounds[1]["hit_points"], 3);
    assert_eq!(rounds[3]["foe_hit_points"], 0);
    solum("static --pool 3 --hp 5 --damage 2 --foe dragon").bad_input("not a static opposition");
    solum("static --pool 3 --hp 5 --damage 2 --vs 4 --foe-hp 5 --foe-damage 2 --rolled 1,1,1")
        .bad_input("too few values");
}

/// S13 and S14 through `solum combat`: the weapon in hand in status and options, `switch`,
/// `unarmed`, and draws rolled off with `--roll-off` (or the `draws roll-off` line).
#[test]
fn combat_weapons_in_hand_and_roll_off() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("weapons.txt");
    let lines = "hero A pool=2 hp=5 damage=3 ranged=2 hold=ranged\nfoe orc pool=2 hp=9 damage=1\n\
                 place A orc engaged\norder A orc\nstatus\nmelee orc with 5,4,5,3,4,1\nend\nend\n\
                 switch weapon\nend\nend\nmelee orc with 5,4,3,2\nend\nend\nunarmed orc with 5,4,3,2\n";
    std::fs::write(&script, lines).unwrap();
    let path = script.to_str().unwrap();
    let run = solum_args(&["combat", path, "--roll-off"]);
    let out = run.ok();
    for needle in [
        "weapon",
        "options: holding ranged; melee orc (engaged)",
        "A (ranged 1) attacks orc (weapon 1) in melee",
        "A (unarmed 1) attacks orc (weapon 1) in melee",
        "roll-off 4:1",
        "orc takes 1 damage from A (8 left)",
        "A switches to weapon",
        "orc takes 3 damage from A (5 left)",
        "orc takes 1 damage from A (4 left)",
    ] {
        assert!(out.contains(needle), "`{needle}` missing in\n{out}");
    }
    // Too few values for the roll-off: the message names the roll-off dice, as `check`'s does.
    let short = dir.path().join("short.txt");
    std::fs::write(&short, lines.replace("5,4,5,3,4,1", "5,4,5,3")).unwrap();
    solum_args(&["combat", short.to_str().unwrap(), "--roll-off"])
        .bad_input("then any Rule-of-6 chain, then roll-off dice)");
    // Without the option the draw stands: nobody is hurt, the roll-off dice are too many.
    solum_args(&["combat", path]).bad_input("line 6: too many values after `with`");
    // The same from the script line.
    std::fs::write(&script, format!("draws roll-off\n{lines}")).unwrap();
    assert!(
        solum_args(&["combat", path])
            .ok()
            .contains("orc takes 1 damage from A (8 left)")
    );
    let help = solum("combat --help-lines");
    for needle in [
        "switch WEAPON",
        "unarmed T",
        "draws stand|roll-off",
        "hold=",
    ] {
        assert!(help.ok().contains(needle), "{needle}");
    }
}

/// `solum sim --roll-off`: draws are rolled off, so the same fights take fewer rounds; two
/// equal sides win half the time.
#[test]
fn simulation_with_roll_off() {
    let args =
        "sim --alternative --hero pool=2,hp=3 --foe pool=2,hp=3 --fights 20000 --seed 3 --json";
    let off = solum(&format!("{args} --roll-off")).json();
    let stand = solum(args).json();
    assert!(num(&off, "mean_rounds") < num(&stand, "mean_rounds"));
    let rate = num(&off, "win_rate");
    assert!(
        (rate - 0.5).abs() < 4.0 * (0.25f64 / 20000.0).sqrt(),
        "{rate}"
    );
    assert_eq!(
        off["wins"].as_u64().unwrap() + off["losses"].as_u64().unwrap(),
        20000
    );
}

/// S13 through `solum combat`: `switch` takes `hold=`'s words, and a fighter out of reach
/// holding its melee weapon is offered the switch to its ranged one instead of only "move
/// closer".
#[test]
fn combat_offers_the_switch_to_a_ranged_weapon() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("switch.txt");
    std::fs::write(
        &script,
        "hero A pool=2 hp=5 damage=3 ranged=2 hold=melee\nfoe orc pool=2 hp=9 damage=1\n\
         order A orc\nswitch ranged\nend\nend\nswitch melee\n",
    )
    .unwrap();
    let run = solum_args(&["combat", script.to_str().unwrap()]);
    let out = run.ok();
    for needle in [
        "options: no attack from here: move closer first, or `switch ranged` (the action) \
         to shoot next turn",
        "A switches to ranged",
        "A switches to weapon",
    ] {
        assert!(out.contains(needle), "`{needle}` missing in\n{out}");
    }
}
