//! A golden test of the command line's failures: for a representative failure of each kind,
//! the exit code (2: the user fixes the input; 1: anything else) and the first line of
//! standard error. The expected lines are the messages the rules and docs/api.md give (the
//! S9 attribute rule, the name rule, the notation's caret), read as a user reads them.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

use std::path::Path;

use common::{Run, solum_args};

fn with(campaign: &Path, args: &[&str]) -> Run {
    let mut all = args.to_vec();
    all.extend(["--campaign", campaign.to_str().unwrap()]);
    solum_args(&all)
}

fn first_line(run: &Run) -> &str {
    run.stderr.lines().next().unwrap_or_default()
}

/// Nick, made by the rules (S9: 3, 2 and 1; a background; a weapon).
fn nick(campaign: &Path, name: &str, body: &str, mind: &str) -> Run {
    with(
        campaign,
        &[
            "char", "new", name, "--body", body, "--mind", mind, "--charm", "1", "-b", "Thief",
            "--weapon", "dagger", "--seed", "1",
        ],
    )
}

#[test]
fn each_kind_of_failure_has_its_exit_code_and_first_line() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    let missing = dir.path().join("missing.solum");
    let missing_list = dir.path().join("no-such-list.txt");
    let not_sqlite = dir.path().join("notes.solum");
    std::fs::write(&not_sqlite, "not a campaign\n").unwrap();
    assert_eq!(nick(&c, "Nick", "3", "2").code, 0);
    let sol = with(
        &c,
        &[
            "sol", "new", "Ana", "--edge", "2", "--attr", "BOD=4", "--attr", "AGI=4", "--attr",
            "REA=3", "--attr", "STR=2",
        ],
    );
    assert_eq!(sol.code, 0, "{}", sol.stderr);

    let cases: Vec<(Run, i32, String)> = vec![
        // A usage error (clap).
        (
            solum_args(&["check"]),
            2,
            "error: the following required arguments were not provided:".into(),
        ),
        // The notation refuses the expression, with or without a campaign: one refusal.
        (
            solum_args(&["roll", "3d"]),
            2,
            "error: expected the sides of the die after `d`: a number, % or F, found the end"
                .into(),
        ),
        (
            with(&c, &["roll", "3d"]),
            2,
            "error: expected the sides of the die after `d`: a number, % or F, found the end"
                .into(),
        ),
        // A read never creates a campaign; a file that is not one is named.
        (
            with(&missing, &["char", "list"]),
            2,
            format!(
                "error: {}: no campaign here (a command that writes, such as `solum note`, creates one)",
                missing.display()
            ),
        ),
        (
            with(&not_sqlite, &["char", "list"]),
            2,
            format!(
                "error: {}: not a solum campaign (the file is not a SQLite database)",
                not_sqlite.display()
            ),
        ),
        // A word list that is not there: the command line's own refusal of a file it
        // reads (no code: the app takes the list's text).
        (
            solum_args(&["idea", "--list", missing_list.to_str().unwrap()]),
            2,
            format!(
                "error: word list {}: No such file or directory (os error 2)",
                missing_list.display()
            ),
        ),
        // No such character.
        (
            with(&c, &["char", "show", "Nobody"]),
            2,
            "error: the campaign has no character named Nobody".into(),
        ),
        // S9: Body, Mind and Charm are 3, 2 and 1, one each.
        (
            nick(&c, "Odd", "3", "3"),
            2,
            "error: attributes: body 3, mind 3, charm 1: assign 3, 2 and 1, one each".into(),
        ),
        // A name that only looks like Nick's (a full-width N).
        (
            nick(&c, "\u{FF2E}ick", "3", "2"),
            2,
            "error: name: \u{FF2E}ick looks like Nick, a character of this table (names compare by how they look: case, width and look-alike letters of other scripts); choose another".into(),
        ),
        // A refusal naming its field, said as the command's flag.
        (
            with(&c, &["char", "edit", "Nick", "--remove-weapon", "axe"]),
            2,
            "error: --remove-weapon: Nick carries no `axe` (nothing was changed)".into(),
        ),
        // Project Sol's Not Dead Yet on a tie: the front end acts on the refusal's kind.
        (
            with(&c, &["sol", "not-dead-yet", "Ana"]),
            2,
            "error: AGI, BOD tie for the highest physical attribute at 4: choose one of them with --attr".into(),
        ),
    ];
    let mut failures = Vec::new();
    for (run, code, line) in &cases {
        if run.code != *code || first_line(run) != line {
            failures.push(format!(
                "want {code} {line:?}\n got {} {:?}",
                run.code,
                first_line(run)
            ));
        }
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// A failure the user cannot fix by changing the input is exit 1: here a standard output
/// that cannot be written (a full disk).
#[cfg(target_os = "linux")]
#[test]
fn a_failure_that_is_not_the_inputs_is_exit_1() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // no /dev/full in this sandbox: nothing to test
    };
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_solum"))
        .args(["roll", "1d6", "--seed", "7"])
        .env("NO_COLOR", "1")
        .stdout(full)
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr
            .lines()
            .next()
            .unwrap_or_default()
            .starts_with("error: cannot write to standard output"),
        "{stderr}"
    );
}

/// The refusal codes only the command line can answer (files it reads, the campaign's own
/// creatures, a hero named that may not be the campaign's): no HTTP route reaches them, so
/// their golden case is here, and crates/solum-web/tests/error_codes.rs counts them as
/// covered. Each is the code of one case of
/// [`cli_only_refusals_have_their_exit_code_and_first_line`].
const CLI_GOLDEN_CODES: &[&str] = &[
    "check-pool",
    "combat-sheet",
    "character-sheet-file",
    "classic-sheet-file",
    "classic-not-campaign-hero",
    "sol-sheet-limit",
    "soluna-file",
    "creature-file",
    "creature-invalid",
    "creature-name-taken",
    "creature-shipped",
    "creature-unknown",
    "table-unknown",
    "dice-seed-rolls-nothing",
];

#[test]
fn cli_only_refusals_have_their_exit_code_and_first_line() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    let file = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let bad = file("bad.toml", "not = [toml\n");
    let taken = file(
        "taken.toml",
        "[[creature]]\nname = \"orc\"\npool = 3\nhit_points = 3\ndamage = 1\n",
    );
    let no_pool = file(
        "blob.toml",
        "[[creature]]\nname = \"Blob\"\npool = 0\nhit_points = 3\ndamage = 1\n",
    );
    let bad_arg = bad.to_str().unwrap();
    let parse = |what: &str| {
        format!(
            "error: {}: {what}: TOML parse error at line 1, column 12",
            bad.display()
        )
    };
    assert_eq!(nick(&c, "Nick", "3", "2").code, 0);
    let script = file("script.txt", &format!("hero {}\n", bad.display()));
    let cases: Vec<(&str, Run, String)> = vec![
        // A one-shot check's pool outside the rules: the largest attribute and a background
        // (the numbers themselves are refused as they are read, check.rs).
        (
            "check-pool",
            solum_args(&["check", "1000", "--background", "--vs", "4"]),
            "error: a pool of 1001 dice is not possible: a pool has 1 to 1000 dice".into(),
        ),
        // A one-shot combat's hero sheet that does not read.
        (
            "combat-sheet",
            solum_args(&["combat", script.to_str().unwrap(), "--seed", "1"]),
            format!(
                "error: line 1: {}: TOML parse error at line 1, column 12",
                bad.display()
            ),
        ),
        // Sheet files of each system that do not read.
        (
            "character-sheet-file",
            with(&c, &["char", "import", bad_arg]),
            parse("sheet"),
        ),
        (
            "classic-sheet-file",
            with(&c, &["classic", "import", bad_arg]),
            parse("sheet"),
        ),
        // Only a campaign hero's fight goes on without foes: the book's goblin has none.
        (
            "classic-not-campaign-hero",
            with(&c, &["classic", "fight", "goblin"]),
            "error: `goblin` is not a hero of the campaign: only a campaign hero's fight goes on (or is abandoned) without foes; name the foes to fight".into(),
        ),
        (
            "sol-sheet-limit",
            with(&c, &["sol", "import", bad_arg]),
            parse("sheet"),
        ),
        (
            "soluna-file",
            with(&c, &["soluna", "import", bad_arg]),
            parse("file"),
        ),
        // The campaign's creatures (`solum creature`).
        (
            "creature-file",
            with(&c, &["creature", "add", bad_arg]),
            parse("file"),
        ),
        // A pool has at least one die.
        (
            "creature-invalid",
            with(&c, &["creature", "add", no_pool.to_str().unwrap()]),
            format!(
                "error: {}: Blob.pool: 0 dice is not possible: a pool has 1 to 1000",
                no_pool.display()
            ),
        ),
        (
            "creature-name-taken",
            with(&c, &["creature", "add", taken.to_str().unwrap()]),
            format!(
                "error: {}: orc.name: the shipped bestiary has a creature of that name; choose another",
                taken.display()
            ),
        ),
        (
            "creature-shipped",
            with(&c, &["creature", "remove", "orc"]),
            "error: creature: orc is in the shipped bestiary and cannot be removed".into(),
        ),
        (
            "creature-unknown",
            with(&c, &["creature", "remove", "nobody"]),
            "error: creature: no creature named nobody in the campaign or the shipped bestiary"
                .into(),
        ),
        // An operator's `--table` that the campaign does not have (`solum table list`).
        (
            "table-unknown",
            with(&c, &["journal", "export", "--table", "7"]),
            "error: table: the campaign has no table 7 (`solum table list` lists them)".into(),
        ),
        // A vehicle roll with every die typed on both sides, and a seed besides.
        (
            "dice-seed-rolls-nothing",
            solum_args(&[
                "vehicle",
                "chase",
                "--pilot",
                "1",
                "--against-pilot",
                "1",
                "--rolled",
                "3",
                "--against-rolled",
                "2",
                "--seed",
                "5",
            ]),
            "error: --seed 5: every die is typed, so a seed would roll nothing".into(),
        ),
    ];
    let codes: Vec<&str> = cases.iter().map(|(code, ..)| *code).collect();
    assert_eq!(codes, CLI_GOLDEN_CODES);
    let mut failures = Vec::new();
    for (code, run, line) in &cases {
        // Each is the user's input to fix: exit 2.
        if run.code != 2 || first_line(run) != line {
            failures.push(format!(
                "{code}: want 2 {line:?}\n got {} {:?}",
                run.code,
                first_line(run)
            ));
        }
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
