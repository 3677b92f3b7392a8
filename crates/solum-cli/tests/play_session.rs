//! One evening of solo play through `solum play`, piped on standard input end to end:
//! a character created, a scene set, the oracle asked (seeded and with dice typed in), a
//! check from the sheet, a fight with a creature to the end with typed dice, an advancement,
//! the scene ended; then the journal read back (JSON and Markdown) and verified.
//!
//! Expected faces, answers and hit points come from the rules text (So1um Expanded: oracle
//! table and And/But table, creation, checks, melee, advancement), worked out below by hand.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

use std::path::Path;

use common::solum_args;
use serde_json::Value;

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

/// The oracle's d6 table (S12): 1 No, and … 6 Yes, and.
fn answer_for(die: u64) -> &'static str {
    ["no-and", "no", "no-but", "yes-but", "yes", "yes-and"][die as usize - 1]
}

const EVENING: &str = r#"
# Creation (S8): 3/2/1, one background; 2d6 1 3 are both odd (no extra background);
# the d6 for armor is 2, even: light armor. Hit points 3 + 2 + 1 = 6.
char new Nick --body 3 --mind 2 --charm 1 --background "Acrobat Thief" --weapon dagger --rolled 1,3,2
scene The cellar of the inn | find the smuggled wine
ask Is the cellar dark? --seed 7
# 6: "Yes, and"; event 5: an NPC; its disposition 1: friendly (1-3).
ask Are guards present? --rolled 6,5,1
# Disadvantage keeps the worst of 5 and 2: 2, "No" (no event die).
ask- Is the door locked? --rolled 5,2
difficulty pick the lock --rolled 4
# Body 3 + the background: 4 dice; 5 3 2 2, highest 5 against 5 passes (the text's climb).
check --char Nick --attr body --background "Acrobat Thief" --vs 5 --rolled 5,3,2,2
combat start --name cellar
do hero Nick
do foe orc
do place Nick orc engaged
do order Nick orc
# Melee (S4): each rolls its pool, the higher wins and deals its weapon's damage. Nick:
# Body 3 (no background named in the fight), dagger 1; the orc: pool 2, 3 hit points, 2.
# Nick 5 4 3 (5) against 3 2 (3): orc 3 -> 2.
fight melee orc with 5,4,3,3,2
do end
# The orc 5 1 (5) against Nick's 4 3 2 (4): Nick 6 -> 4.
do melee Nick with 5,1,4,3,2
do end
# Nick 5 4 3 (5) against 2 1 (2): orc 2 -> 1.
do melee orc with 5,4,3,2,1
do end
# The orc attacks, 3 1 (3) against Nick's 5 2 2 (5): the defender wins and deals 1: orc out.
do melee Nick with 3,1,5,2,2
status
combat end
# Advancement B (S9): Mind 2 rolls 2 dice, 2 and 4 all even: Mind 3, and the new point of
# Mind adds a hit point: 4 -> 5 of 7.
char grant Nick
char advance Nick --attribute mind --rolled 2,4
char show Nick
end We found the wine.
"#;

#[test]
fn an_evening_of_play_through_stdin_reads_back_whole_and_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("evening.solum");
    let (code, out, err) = play(&c, EVENING);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    assert!(err.is_empty(), "{err}");
    assert!(out.contains("Yes, and"), "{out}");
    assert!(out.contains("orc is out"), "{out}");
    assert!(
        out.contains("Nick: 6 hit points in the fight → 4; sheet 6 → 4"),
        "{out}"
    );
    assert!(out.contains("hit points 5/7"), "{out}");

    let export = solum_args(&[
        "journal",
        "export",
        "--format",
        "json",
        "--campaign",
        c.to_str().unwrap(),
    ])
    .json();
    let entries = export["entries"].as_array().unwrap();
    the_entries_are_the_evening_in_order(entries);
    the_rolls_are_journaled_with_their_dice(entries);
    the_story_reads_and_the_journal_verifies(&c);
    tampered_exports_are_refused_naming_entry_and_field(dir.path(), &export);
}

/// Every entry of the evening, numbered from 1 without a gap.
fn the_entries_are_the_evening_in_order(entries: &[Value]) {
    let kinds: Vec<&str> = entries
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    // creation, scene, 3 asks, difficulty, check, combat start + 11 lines + end, advance,
    // scene end.
    let mut want = vec![
        "character",
        "scene-start",
        "oracle",
        "oracle",
        "oracle",
        "difficulty",
        "character",
    ];
    want.extend(std::iter::repeat_n("combat", 13));
    // A point granted (S17), then the advancement that spends it.
    want.extend(["character", "character", "scene-end"]);
    assert_eq!(kinds, want);
    let seqs: Vec<i64> = entries.iter().map(|e| e["seq"].as_i64().unwrap()).collect();
    assert_eq!(seqs, (1..=want.len() as i64).collect::<Vec<_>>());
}

/// Each roll with its seed or typed faces and what they gave.
fn the_rolls_are_journaled_with_their_dice(entries: &[Value]) {
    // Creation: typed 1 3 2, one background, light armor, 6 hit points.
    let created = &entries[0]["change"]["created"];
    assert_eq!(created["rolled"]["typed"], true);
    assert_eq!(created["rolled"]["faces"], serde_json::json!([1, 3, 2]));
    assert_eq!(created["sheet"]["hit_points"], 6);
    assert_eq!(created["sheet"]["armor"]["class"], "light");
    assert_eq!(
        created["sheet"]["backgrounds"],
        serde_json::json!(["Acrobat Thief"])
    );
    assert_eq!(entries[1]["title"], "The cellar of the inn");
    assert_eq!(entries[1]["goal"], "find the smuggled wine");

    // The seeded answer: its seed journaled, its answer the table's for its own die.
    let seeded = &entries[2];
    assert_eq!(seeded["rolled"]["seed"], 7);
    assert_eq!(seeded["rolled"]["typed"], false);
    let die = seeded["outcome"]["die"].as_u64().unwrap();
    assert_eq!(seeded["rolled"]["faces"][0], die);
    assert_eq!(seeded["outcome"]["answer"], answer_for(die));
    // Typed: 6 5 1.
    let typed = &entries[3]["outcome"];
    assert_eq!(entries[3]["rolled"]["typed"], true);
    assert_eq!(
        (typed["die"].as_u64(), typed["answer"].as_str()),
        (Some(6), Some("yes-and"))
    );
    assert_eq!(typed["event_die"], 5);
    assert_eq!(typed["event"]["kind"], "npc");
    assert_eq!(typed["event"]["disposition"], "friendly");
    let worst = &entries[4]["outcome"];
    assert_eq!(entries[4]["leaning"], "disadvantage");
    assert_eq!(
        (worst["die"].as_u64(), worst["answer"].as_str()),
        (Some(2), Some("no"))
    );
    assert_eq!(worst["event"], Value::Null);
    assert_eq!(entries[5]["difficulty"], 4);
    assert_eq!(entries[5]["rolled"]["typed"], true);

    // The check: 4 dice, 5 3 2 2, passed.
    let check = &entries[6]["change"]["check"];
    assert_eq!(check["inputs"]["pool"], 4);
    assert_eq!(check["result"]["own"]["result"], 5);
    assert_eq!(check["result"]["passed"], true);

    // The fight: the end writes 6 -> 4 back to the sheet; the orc is at 0.
    let ended = &entries[19]["change"]["ended"];
    assert_eq!(
        ended["fighters"],
        serde_json::json!([{"name": "Nick", "hit_points": 4}, {"name": "orc", "hit_points": 0}])
    );
    assert_eq!(ended["written"][0]["before"], 6);
    assert_eq!(ended["written"][0]["after"], 4);
    // Every damage event, in order: orc 1, Nick 2, orc 1, orc 1.
    let damage: Vec<(u64, u64)> = entries[7..19]
        .iter()
        .flat_map(|e| {
            e["change"]["line"]["events"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .filter(|ev| ev["event"] == "damaged")
        .map(|ev| {
            (
                ev["fighter"].as_u64().unwrap(),
                ev["amount"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(damage, [(1, 1), (0, 2), (1, 1), (1, 1)]);

    // Advancement: Mind 2 -> 3, hit points 4 -> 5.
    assert_eq!(
        entries[20]["change"]["point-granted"]["after"]["advancement_points"],
        1
    );
    let adv = &entries[21]["change"]["advanced"];
    assert_eq!(adv["rolled"]["faces"], serde_json::json!([2, 4]));
    assert_eq!(adv["success"], true);
    assert_eq!(adv["before"]["hit_points"], 4);
    assert_eq!(adv["after"]["mind"], 3);
    assert_eq!(adv["after"]["hit_points"], 5);
    assert_eq!(entries[22]["summary"], "We found the wine.");
}

/// The Markdown story and `journal verify`.
fn the_story_reads_and_the_journal_verifies(c: &Path) {
    // The story in Markdown: the scene as a heading, the rolls compact.
    let md = solum_args(&["journal", "export", "--campaign", c.to_str().unwrap()]);
    assert_eq!(md.code, 0, "{}", md.stderr);
    for needle in [
        "## The cellar of the inn",
        "**Are guards present?** — *Yes, and* (d6: 6); An NPC (friendly) `typed`",
        "*No* (worst of 2d6: 5 2)",
        "Nick rolls body vs 5 (4 dice: 5 3 2 2; result 5): success",
        "Nick tries to raise mind (dice 2 4): success",
        "*Scene ends:* We found the wine.",
    ] {
        assert!(md.stdout.contains(needle), "{needle}\n{}", md.stdout);
    }

    let verify = solum_args(&["journal", "verify", "--campaign", c.to_str().unwrap()]);
    assert_eq!(verify.code, 0, "{}", verify.stderr);
    assert!(
        verify.stdout.contains("23 entries") && verify.stdout.contains("0 do not match"),
        "{}",
        verify.stdout
    );
}

/// The same export changed by hand is refused naming the entry and the field: the check's
/// verdict (5 against 5 passed), then the orc's 2 damage to Nick (S4: its weapon).
fn tampered_exports_are_refused_naming_entry_and_field(dir: &Path, export: &Value) {
    let entries = export["entries"].as_array().unwrap();
    let other = dir.join("other.solum");
    let import = |edit: &dyn Fn(&mut Value), needles: &[&str]| {
        let mut v = export.clone();
        edit(&mut v);
        let file = dir.join("tampered.json");
        std::fs::write(&file, v.to_string()).unwrap();
        let run = solum_args(&[
            "journal",
            "import",
            file.to_str().unwrap(),
            "--campaign",
            other.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 2, "{}", run.stdout);
        for needle in needles {
            assert!(run.stderr.contains(needle), "{needle}:\n{}", run.stderr);
        }
    };
    import(
        &|v| v["entries"][6]["change"]["check"]["result"]["passed"] = false.into(),
        &[
            "entry 7 of the import",
            "character entry, numbered 7",
            "result.passed: recorded false, the dice give true",
        ],
    );
    let orc_hits = entries[14]["change"]["line"]["events"]
        .as_array()
        .unwrap()
        .iter()
        .position(|e| e["event"] == "damaged")
        .unwrap();
    import(
        &|v| v["entries"][14]["change"]["line"]["events"][orc_hits]["amount"] = 1.into(),
        &[
            "entry 15 of the import",
            "melee Nick with 5,1,4,3,2",
            &format!("events[{orc_hits}].amount: recorded 1, the dice give 2"),
        ],
    );
    assert!(
        !other.exists()
            || solum_args(&["journal", "show", "--campaign", other.to_str().unwrap()])
                .stdout
                .is_empty()
    );
}

/// Typed dice in a session are validated as the one-shot `--rolled` is; bad lines are
/// refused with the flag named and journal nothing, and the session goes on (exit 2 at the
/// end naming them). Nothing in a script may prompt on the script's own input.
#[test]
fn bad_lines_in_a_session_name_the_problem_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    let (code, out, err) = play(
        &c,
        "ask Is it dark? --rolled 7\n\
         ask Is it dark? --rolled 4 5\n\
         ask Is it dark? --seed 1 --rolled 4\n\
         char new Nick\n\
         combat\n\
         do melee orc with 5,4 --rolled 3\n\
         char advance Nobody --attribute mind --rolled 2,4\n\
         check --char Nick --attr body --vs 4 --campaign other.solum\n\
         char show\n\
         note still here\n",
    );
    assert_eq!(code, 2, "{out}");
    for needle in [
        "--rolled",
        "go once each at the end of the line",
        "one or the other",
        "char new: in a script, give every choice",
        "combat: say `combat start`",
        "type a fight line's dice with `with",
        "Nobody",
        "the session's campaign is used",
        "9 of 10 commands failed (commands 1, 2, 3, 4, 5, 6, 7, 8, 9)",
    ] {
        assert!(err.contains(needle), "{needle}:\n{err}");
    }
    let entries = solum_args(&[
        "journal",
        "export",
        "--format",
        "json",
        "--campaign",
        c.to_str().unwrap(),
    ])
    .json()["entries"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(entries.len(), 1, "only the note");
    assert_eq!(entries[0]["text"], "still here");
}

/// `help` lists every command family a session has.
#[test]
fn help_lists_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = play(&dir.path().join("c.solum"), "help\n");
    assert_eq!(code, 0, "{err}");
    for word in [
        "ask ",
        "ask+",
        "ask-",
        "oracle",
        "note",
        "scene",
        "end ",
        "idea",
        "difficulty",
        "journal",
        "verify",
        "char new",
        "check --char",
        "combat start",
        "do LINE",
        "status",
        "creature list",
        "sol ",
        "--rolled",
        "quit",
    ] {
        assert!(out.contains(word), "{word}:\n{out}");
    }
}

/// A careless evening: the campaign held by another writer, a prompt left with Ctrl-D, an
/// absurd number. Each is a clear message and nothing is changed.
#[test]
fn a_held_campaign_a_closed_prompt_and_huge_numbers_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    let cs = c.to_str().unwrap();
    let (code, _, err) = play(&c, "note first\n");
    assert_eq!(code, 0, "{err}");

    // Another process holds the write lock past the busy timeout: the line fails as busy,
    // the session says so, and the note is not stored.
    let holder = rusqlite::Connection::open(&c).unwrap();
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    let (code, _, err) = play(&c, "note while held\n");
    holder.execute_batch("ROLLBACK").unwrap();
    drop(holder);
    assert_ne!(code, 0);
    assert!(
        err.contains("busy") && err.contains("nothing was changed"),
        "{err}"
    );
    let (code, _, err) = play(&c, "note after\n");
    assert_eq!(code, 0, "{err}");
    let texts: Vec<String> =
        solum_args(&["journal", "export", "--format", "json", "--campaign", cs]).json()["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["text"].as_str().unwrap().to_owned())
            .collect();
    assert_eq!(texts, ["first", "after"]);

    // Ctrl-D at a one-shot prompt: the error on its own line, no character stored.
    let output = assert_cmd::Command::cargo_bin("solum")
        .unwrap()
        .args(["char", "new", "--campaign", cs])
        .env("NO_COLOR", "1")
        .write_stdin("Ann\n")
        .output()
        .unwrap();
    let err = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        err.contains("Body (3, 2 or 1): \nerror: no answer to \"Body (3, 2 or 1):\""),
        "{err}"
    );
    assert_eq!(
        solum_args(&["char", "show", "Ann", "--campaign", cs]).code,
        2
    );

    // Hours of rest given as 1e308: the number as typed, not 309 digits.
    let (_, _, err) = play(
        &c,
        "char new Nick --body 3 --mind 2 --charm 1 --background Sailor --weapon dagger --rolled 1,1,1\nchar rest Nick --hours 1e308\n",
    );
    assert!(
        err.contains("--hours: 1e308: give hours of rest above 0, up to"),
        "{err}"
    );
}
