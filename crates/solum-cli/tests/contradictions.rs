//! Inputs that contradict themselves are refused (exit 2, saying what), not accepted
//! silently; each was accepted (exit 0) before. Table-driven over one campaign with a
//! character of each kind the rows need.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

use common::{Run, bounded};

/// `solum --campaign FILE ARGS`, bounded (tests/common.rs), run beside the campaign: a row
/// that wrongly writes a file writes it there, not in the crate.
fn solum(campaign: &std::path::Path, args: &[&str]) -> Run {
    let c = campaign.to_str().expect("a UTF-8 path");
    let mut all = vec!["--campaign", c];
    all.extend_from_slice(args);
    bounded(
        campaign.parent().expect("the campaign is in a folder"),
        &all,
    )
}

/// Each row: the command that showed the contradiction, and what the refusal says.
const ROWS: &[(&[&str], &str)] = &[
    // --campaign on commands that keep nothing.
    (&["check", "3", "--vs", "4"], "keeps nothing"),
    (&["roll", "sol", "--dice", "3"], "keeps nothing"),
    (&["roll", "soluna", "--dice", "3"], "keeps nothing"),
    (&["roll", "dietype", "d8"], "keeps nothing"),
    (&["classic", "oracle", "Is it?"], "keeps nothing"),
    (&["classic", "bestiary"], "keeps nothing"),
    (&["char", "bestiary"], "keeps nothing"),
    // One item added and removed in one edit, or given twice.
    (
        &[
            "char",
            "edit",
            "Nick",
            "--add-background",
            "Soldier",
            "--remove-background",
            "soldier",
        ],
        "both added and removed",
    ),
    (
        &[
            "char",
            "edit",
            "Nick",
            "--add-weapon",
            "sword:light",
            "--remove-weapon",
            "Sword",
        ],
        "both added and removed",
    ),
    (
        &[
            "char",
            "edit",
            "Nick",
            "--add-gear",
            "rope:reroll",
            "--remove-gear",
            "rope",
        ],
        "both added and removed",
    ),
    (
        &["char", "edit", "Nick", "--set", "body=3", "--set", "body=4"],
        "given twice",
    ),
    (
        &[
            "dietype",
            "edit",
            "Aria",
            "--skill",
            "Swords=3",
            "--remove-skill",
            "Swords",
        ],
        "both added and removed",
    ),
    (
        &[
            "dietype",
            "edit",
            "Aria",
            "--ability",
            "Wits=d6",
            "--remove-ability",
            "wits",
        ],
        "both added and removed",
    ),
    (
        &[
            "dietype",
            "new",
            "Bob",
            "--ability",
            "Agility=d8",
            "--ability",
            "agility=d6",
        ],
        "given twice",
    ),
    (
        &[
            "dietype",
            "new",
            "Cid",
            "--ability",
            "Agility=d8",
            "--skill",
            "Swords=2",
            "--skill",
            "swords=3",
        ],
        "given twice",
    ),
    // Rests of no time, journaled as if something happened.
    (
        &["char", "rest", "Nick", "--hours", "0"],
        "at least a minute",
    ),
    (
        &["char", "rest", "Nick", "--hours", "0.004"],
        "at least a minute",
    ),
    (
        &["classic", "rest", "Grok", "--hours", "0"],
        "at least a second",
    ),
    // C2 banks rest in seconds: 0.36 seconds would bank nothing.
    (
        &["classic", "rest", "Grok", "--hours", "0.0001"],
        "at least a second",
    ),
    (&["journal", "show", "--last", "0"], "--last"),
    // Issue 19, hostile re-test.
    (&["idea", "--genres"], "keeps nothing"),
    (
        &["classic", "new", "Hob", "-o", "hob.toml"],
        "keeps nothing",
    ),
    (
        &["journal", "export", "--format", "json", "--title", "T"],
        "--title",
    ),
    (
        &["journal", "export", "--title", ""],
        "--title: the title is empty",
    ),
    (
        &["journal", "export", "--format", "markdown", "--title", "  "],
        "--title: the title is empty",
    ),
    // Sol'una supplies capped per test past what they hold.
    (
        &[
            "soluna",
            "new",
            "Ann",
            "--side",
            "a",
            "--mind",
            "2",
            "--hit-points",
            "3",
            "--melee",
            "2",
            "--flips",
            "0",
            "--flips-per-test",
            "5",
        ],
        "--flips-per-test: 5 per test is more than the supplies",
    ),
    (
        &[
            "soluna",
            "new",
            "Bea",
            "--side",
            "a",
            "--mind",
            "2",
            "--hit-points",
            "3",
            "--melee",
            "2",
            "--extra-dice",
            "0",
            "--dice-guard",
            "3",
            "--dice-per-test",
            "9",
        ],
        "--dice-per-test: 9 per test is more than the supplies",
    ),
    (
        &[
            "soluna",
            "new",
            "Cid",
            "--side",
            "a",
            "--mind",
            "2",
            "--hit-points",
            "3",
            "--melee",
            "2",
            "--guard",
            "4",
            "--flips-per-test",
            "0",
        ],
        "--flips-per-test: 0 per test",
    ),
    (
        &["char", "rest", "Nick", "--hours", "-1"],
        "above 0, up to 10000",
    ),
];

#[test]
fn contradictions_are_refused_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    let setup: &[&[&str]] = &[
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
            "--background",
            "Acrobat Thief",
            "--weapon",
            "dagger",
            "--seed",
            "1",
        ],
        &[
            "dietype",
            "new",
            "Aria",
            "--ability",
            "Agility=d8",
            "--skill",
            "Swords=2",
        ],
        &["classic", "new", "Grok", "--seed", "1"],
    ];
    for args in setup {
        let out = solum(&c, args);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    }
    let before = solum(&c, &["journal", "export", "--format", "json"]).stdout;
    let mut failures = Vec::new();
    for (args, needle) in ROWS {
        let out = solum(&c, args);
        if out.code != 2 || !out.stderr.contains(needle) || out.stderr.contains("panicked") {
            failures.push(format!(
                "{args:?}: exit {} (expected 2 with {needle:?}): {}{}",
                out.code, out.stderr, out.stdout
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let after = solum(&c, &["journal", "export", "--format", "json"]).stdout;
    assert_eq!(before, after, "a refused command journaled something");
}

/// A weapon's damage past every damage limit (10⁶) is refused, not shown as a result.
#[test]
fn a_weapon_damage_past_any_game_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = solum_in(
        dir.path(),
        &[
            "vehicle",
            "scale",
            "--weapon-damage",
            "4294967295",
            "--scale",
            "large",
        ],
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("4294967295") && out.stderr.contains("--weapon-damage"),
        "{}",
        out.stderr
    );
}

/// `solum ARGS` without a campaign, in `dir`, bounded like [`solum`].
fn solum_in(dir: &std::path::Path, args: &[&str]) -> Run {
    bounded(dir, args)
}

/// Bad values without a campaign: refused with exit 2 naming the flag, and no file written.
#[test]
fn bad_values_without_a_campaign_are_refused() {
    let rows: &[(&[&str], &str)] = &[
        // A hero file is TOML: `classic check hero.json` would refuse what `-o` wrote.
        (
            &["classic", "new", "Grok", "-o", "hero.json"],
            "-o hero.json",
        ),
        (&["classic", "new", "Grok", "-o", "hero"], ".toml"),
        // A weapon of 0 damage is no weapon (the scale rule would say it "deals 0").
        (
            &["vehicle", "scale", "--weapon-damage", "0", "--scale", "car"],
            "--weapon-damage",
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for (args, needle) in rows {
        let out = solum_in(dir.path(), args);
        if out.code != 2 || !out.stderr.contains(needle) || out.stderr.contains("panicked") {
            failures.push(format!(
                "{args:?}: exit {} (expected 2 with {needle:?}): {}{}",
                out.code, out.stderr, out.stdout
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "a refused command wrote {left:?}");
}

/// An export with these entries (each a JSON object), as `journal export --format json`
/// writes it.
fn export_of(entries: &[&str]) -> String {
    format!(
        r#"{{"format":"solum-journal","schema":1,"entries":[{}]}}"#,
        entries.join(",")
    )
}

/// A journal to import whose entries contradict a journal (dates going back, a number
/// twice, a date past any clock) or carry a field no entry has is refused, saying which
/// entry and why; nothing is imported.
#[test]
fn a_journal_that_no_journal_could_be_is_not_imported() {
    let note = |seq: u32, at: &str| {
        format!(r#"{{"seq":{seq},"at":"{at}","kind":"note","text":"n{seq}"}}"#)
    };
    let rows: Vec<(String, &str)> = vec![
        (
            export_of(&[
                &note(1, "2026-01-02T00:00:00Z"),
                &note(2, "2026-01-01T00:00:00Z"),
            ]),
            "entry 2 (numbered 2 in the export): date \"2026-01-01T00:00:00Z\" goes back",
        ),
        (
            export_of(&[
                &note(1, "2999-01-01T00:00:00Z"),
                &note(2, "1970-01-01T00:00:00Z"),
            ]),
            "entry 1 (numbered 1 in the export): date \"2999-01-01T00:00:00Z\" is in the future",
        ),
        (
            export_of(&[&note(1, "9999-01-01T00:00:00Z")]),
            "is in the future",
        ),
        (
            export_of(&[
                &note(1, "2026-01-01T00:00:00Z"),
                &note(1, "2026-01-01T00:00:01Z"),
            ]),
            "entry 2 (numbered 1 in the export): number 1 is given to an earlier entry",
        ),
        (
            export_of(&[
                r#"{"seq":1,"at":"2026-01-01T00:00:00Z","kind":"note","text":"hi","colour":"red"}"#,
            ]),
            "unknown field `colour`",
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    let file = dir.path().join("in.json");
    let mut failures = Vec::new();
    for (text, needle) in &rows {
        std::fs::write(&file, text).unwrap();
        let out = solum(&c, &["journal", "import", file.to_str().unwrap()]);
        if out.code != 2
            || !out.stderr.contains(needle)
            || out.stderr.contains("re-derive")
            || out.stderr.contains("panicked")
        {
            failures.push(format!(
                "{text}: exit {} (expected 2 with {needle:?}): {}{}",
                out.code, out.stderr, out.stdout
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let shown = solum(&c, &["journal", "show"]);
    assert_eq!(shown.stdout.trim(), "", "nothing was imported");
    // The same entries in order, numbered once each, are imported.
    std::fs::write(
        &file,
        export_of(&[
            &note(1, "2026-01-01T00:00:00Z"),
            &note(2, "2026-01-01T00:00:00Z"),
        ]),
    )
    .unwrap();
    let out = solum(&c, &["journal", "import", file.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
}

/// `char edit --damage`/`--heal` past the hit points say what was applied (S8: hit points
/// never go below 0 nor above Body + Mind + armor) rather than clamp silently.
#[test]
fn damage_and_healing_past_the_limits_say_what_was_applied() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    let made = solum(
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
            "--background",
            "Acrobat Thief",
            "--weapon",
            "dagger",
            "--seed",
            "1",
            "--json",
        ],
    );
    assert_eq!(made.code, 0, "{}", made.stderr);
    let sheet: serde_json::Value = serde_json::from_str(&made.stdout).unwrap();
    let sheet = &sheet["sheet"]["character"];
    // S8: Body + Mind + armor, light armor (what the seed gave) adding 1.
    assert_eq!(sheet["armor"]["class"], "light", "{sheet}");
    let max = 3 + 2 + 1;
    let out = solum(&c, &["char", "edit", "Nick", "--damage", "100"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains(&format!(
            "damage 100: hit points {max} → 0 (hit points stay from 0 to {max})"
        )),
        "{}",
        out.stdout
    );
    let out = solum(&c, &["char", "edit", "Nick", "--heal", "2"]);
    assert!(
        out.stdout.contains("heal 2: hit points 0 → 2\n"),
        "{}",
        out.stdout
    );
    let out = solum(&c, &["char", "edit", "Nick", "--heal", "100"]);
    assert!(
        out.stdout.contains(&format!(
            "heal 100: hit points 2 → {max} (hit points stay from 0 to {max})"
        )),
        "{}",
        out.stdout
    );
}

/// `--gear` at difficulty 1 (automatic: nothing is rolled, ruling S1 and the original's
/// table) is reported as unused, the same by the Expanded and the original check.
#[test]
fn gear_at_an_automatic_difficulty_is_reported_unused() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["check", "3", "--vs", "1", "--gear"][..],
        &["classic", "check", "3", "--vs", "1", "--gear"][..],
    ] {
        let out = solum_in(dir.path(), args);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        assert!(
            out.stdout
                .contains("automatic: no roll needed (--gear unused: nothing is rolled)"),
            "{args:?}: {}",
            out.stdout
        );
    }
}
