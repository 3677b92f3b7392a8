//! One So1um Expanded campaign across sessions (issue 22), on one campaign file, through
//! piped `solum play` in three processes and the one-shot commands: creation, checks with
//! the gear reroll the player chose and the roll-off on, a fight in the combat tracker, two
//! quarter-hour rests that heal 1, advancement points granted and spent (a failure, then a
//! success at the next point), and `journal verify` clean at the end. Also the single
//! points: a `char edit` of attributes or backgrounds needs a GM correction, and the
//! roll-off is taken on campaign checks.
//!
//! Expected values are worked out by hand from the rules text and rulings S1, S3, S8, S9,
//! S14, S16 and S17, never taken from the program's output.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

use std::path::Path;

use common::solum_args;

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

fn in_campaign(campaign: &Path, args: &[&str]) -> common::Run {
    let mut all = args.to_vec();
    all.extend(["--campaign", campaign.to_str().unwrap()]);
    solum_args(&all)
}

const SESSION_ONE: &str = r#"
# Creation (S9): 3/2/1; 2d6 1 3 both odd: one background; armor d6 2, even: light armor.
# Hit points: Body 3 + Mind 2 + light armor 1 = 6.
char new Nick --body 3 --mind 2 --charm 1 --background "Acrobat Thief" --weapon dagger --rolled 1,3,2
char edit Nick --add-gear "thieves' tools:reroll"
# Mind 2 against 5: 4 and 3. Nick rerolls the 4 (die 1), not the lowest, and gets a 5 (S1).
check --char Nick --attr mind --gear "thieves' tools" --gear-die 1 --vs 5 --rolled 4,3,5
roll-off on
# Charm 1 against one die: 4 against 4 is a draw; rolled off: 2 against 5, Nick loses (S3).
check --char Nick --attr charm --against 1 --rolled 4,4,2,5
"#;

const SESSION_TWO: &str = r#"
combat start --name cellar
do hero Nick
do foe orc
do place Nick orc engaged
do order Nick orc
# Melee (S4): Nick Body 3, dagger 1; the orc: pool 2, 3 hit points, 2 damage.
# Nick 5 4 3 (5) against 3 2 (3): orc 3 -> 2.
do melee orc with 5,4,3,3,2
do end
# The orc 5 1 (5) against Nick's 4 3 2 (4): Nick 6 -> 4.
do melee Nick with 5,1,4,3,2
do end
# Nick 5 4 3 (5) against 2 1 (2): orc 2 -> 1.
do melee orc with 5,4,3,2,1
do end
# The orc 3 1 (3) against Nick's 5 2 2 (5): the defender wins and deals 1: orc out.
do melee Nick with 3,1,5,2,2
combat end
# A quarter hour of rest heals nothing yet; 15 minutes are banked (S16).
char rest Nick --hours 0.25
"#;

const SESSION_THREE: &str = r#"
# Another quarter hour makes the half hour: +1, 4 -> 5 of 6.
char rest Nick --hours 0.25
# End of the adventure: the solo player grants a point (S17).
char grant Nick
# B: Mind 2 rolls two dice, 2 and 3 not all even: a failure, the point is spent.
char advance Nick --attribute mind --rolled 2,3
char grant Nick
# At the next point: 2 and 4 all even: Mind 3; maximum 3 + 3 + 1 = 7, hit points 5 -> 6.
char advance Nick --attribute mind --rolled 2,4
char show Nick
verify
"#;

#[test]
fn a_campaign_across_three_processes_from_creation_to_advancement() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("campaign.solum");

    let (code, out, err) = play(&c, SESSION_ONE);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    assert!(out.contains("die 1 rerolled: a 4 → 5"), "{out}");
    assert!(out.contains("PASSED"), "{out}");
    assert!(out.contains("roll-off on"), "{out}");
    assert!(out.contains("Roll-off   2 vs 5"), "{out}");
    assert!(out.contains("LOSE"), "{out}");

    let (code, out, err) = play(&c, SESSION_TWO);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    assert!(out.contains("orc is out"), "{out}");
    assert!(
        out.contains("rests 0.25 hour(s): +0 hit point(s), now 4/6"),
        "{out}"
    );
    assert!(
        out.contains("15 minute(s) of rest toward the next"),
        "{out}"
    );

    // Between sessions: no point left after... none granted yet, so no attempt.
    in_campaign(
        &c,
        &[
            "char",
            "advance",
            "Nick",
            "--attribute",
            "mind",
            "--rolled",
            "2,4",
        ],
    )
    .bad_input("no advancement point");

    let (code, out, err) = play(&c, SESSION_THREE);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    assert!(
        out.contains("rests 0.25 hour(s): +1 hit point(s), now 5/6"),
        "{out}"
    );
    assert!(out.contains("not this time"), "{out}");
    assert!(out.contains("hit points 6/7"), "{out}");
    assert!(out.contains("advancement points: 0"), "{out}");

    // The point of the failure is gone: a second try at once is refused, nothing rolled.
    let v = in_campaign(&c, &["char", "show", "Nick", "--json"]).json();
    assert_eq!(v["character"]["mind"], 3);
    assert_eq!(v["advancement_points"], 0);
    assert_eq!(v["rest_minutes"], 0);
    let verify = in_campaign(&c, &["journal", "verify"]);
    assert_eq!(verify.code, 0, "{}", verify.stderr);
    assert!(
        verify.stdout.contains("0 do not match"),
        "{}",
        verify.stdout
    );
}

#[test]
fn a_player_edit_of_attributes_or_backgrounds_is_refused_a_correction_is_marked() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    // 2d6 2 and 5: one even, one more background to name; armor d6 1: none.
    in_campaign(
        &c,
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
            "2,5,1",
        ],
    )
    .ok();
    in_campaign(&c, &["char", "edit", "Nick", "--set", "body=4"])
        .bad_input("--set: attributes and backgrounds change only by creation and advancement");
    // Naming the background won at creation is no change of backgrounds.
    in_campaign(
        &c,
        &["char", "edit", "Nick", "--add-background", "Tower Climber"],
    )
    .ok();
    in_campaign(&c, &["char", "edit", "Nick", "--add-background", "Sailor"])
        .bad_input("--add-background: attributes and backgrounds change only");
    let v = in_campaign(&c, &["char", "show", "Nick", "--json"]).json();
    assert_eq!(v["character"]["body"], 3);
    in_campaign(
        &c,
        &["char", "edit", "Nick", "--set", "body=4", "--correction"],
    )
    .ok();
    let story = in_campaign(&c, &["journal", "export", "--format", "markdown"]);
    assert!(
        story
            .ok()
            .contains("GM correction of Nick's sheet: body 3→4"),
        "{}",
        story.stdout
    );
    let verify = in_campaign(&c, &["journal", "verify"]);
    assert!(verify.ok().contains("0 do not match"), "{}", verify.stdout);
}

#[test]
fn the_roll_off_is_taken_on_campaign_checks_and_their_odds() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    in_campaign(
        &c,
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
            "1,1,1",
        ],
    )
    .ok();
    // --roll-off on one check: 3 against 3, rolled off 6 against 1: a win.
    let v = in_campaign(
        &c,
        &[
            "check",
            "--char",
            "Nick",
            "--attr",
            "charm",
            "--against",
            "1",
            "--roll-off",
            "--rolled",
            "3,3,6,1",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["result"]["verdict"], "win");
    assert_eq!(v["result"]["roll_off"], serde_json::json!([[6, 1]]));
    // One die against one, draws rolled off: 1/2 by symmetry.
    assert_eq!(v["odds"]["pass_exact"], "1/2");
    // The campaign's setting: every opposed check rolls off.
    assert!(in_campaign(&c, &["roll-off"]).ok().contains("roll-off off"));
    in_campaign(&c, &["roll-off", "on"]).ok();
    let v = in_campaign(
        &c,
        &[
            "check",
            "--char",
            "Nick",
            "--attr",
            "charm",
            "--against",
            "1",
            "--rolled",
            "5,5,1,4",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["result"]["verdict"], "lose");
    in_campaign(&c, &["roll-off", "maybe"])
        .bad_input("invalid value 'maybe' for '[SETTING]': `maybe` is not a setting: on or off");
}

/// The story tells each side's dice apart: an opposed check's own pool, the opposition's,
/// the verdict and the roll-off (before, both pools ran together as one list of faces).
#[test]
fn the_story_shows_each_side_of_an_opposed_check() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    let made = in_campaign(
        &c,
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
            "--seed",
            "1",
        ],
    );
    assert_eq!(made.code, 0, "{}", made.stderr);
    // Body 3 → 3 dice: 1 1 2 (result 2) against 3 dice: 2 2 5 (result 5): a loss.
    let check = in_campaign(
        &c,
        &[
            "check",
            "--char",
            "Nick",
            "--attr",
            "body",
            "--against",
            "3",
            "--rolled",
            "1,1,2,2,2,5",
        ],
    );
    assert_eq!(check.code, 0, "{}", check.stderr);
    // A draw rolled off: 4 4 1 against 4 3 2 (4 vs 4), then 2 vs 6.
    assert_eq!(in_campaign(&c, &["roll-off", "on"]).code, 0);
    let check = in_campaign(
        &c,
        &[
            "check",
            "--char",
            "Nick",
            "--attr",
            "body",
            "--against",
            "3",
            "--rolled",
            "4,4,1,4,3,2,2,6",
        ],
    );
    assert_eq!(check.code, 0, "{}", check.stderr);
    let md = in_campaign(&c, &["journal", "export"]);
    assert_eq!(md.code, 0, "{}", md.stderr);
    for needle in [
        "Nick rolls body (3 dice: 1 1 2; result 2) against 3 dice: 2 2 5; result 5 — lose",
        "Nick rolls body (3 dice: 4 4 1; result 4) against 3 dice: 4 3 2; result 4 — lose, roll-off 2 vs 6",
    ] {
        assert!(md.stdout.contains(needle), "{needle}\n{}", md.stdout);
    }
}
