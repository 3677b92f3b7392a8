//! What the program accepts as a name or as text for the story, and how the story is
//! written: the real binary, one campaign file per test. Expected values come from the
//! issue's cases and CommonMark's rules, never from the program's output.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

use common::solum_args;

fn campaign() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum").display().to_string();
    (dir, path)
}

/// Look-alike and blank names are refused with exit 2 naming the field, for every system
/// the command line creates characters of.
#[test]
fn look_alike_names_are_refused_by_every_command_that_names() {
    let (_dir, c) = campaign();
    for name in [
        "Hero\u{3164}",
        "Hero\u{00A0}",
        "\u{2800}",
        "Hero\u{200B}",
        "\u{202E}oreH",
    ] {
        for args in [
            vec!["sol", "new", name, "--attr", "AGI=2", "--campaign", &c],
            vec![
                "dietype",
                "new",
                name,
                "--ability",
                "Str=d8",
                "--campaign",
                &c,
            ],
            vec!["classic", "new", name, "--campaign", &c],
        ] {
            let r = solum_args(&args);
            assert_eq!(r.code, 2, "{args:?}: {}{}", r.stdout, r.stderr);
            assert!(
                r.stderr.to_lowercase().contains("name"),
                "{args:?}: {}",
                r.stderr
            );
        }
    }
}

/// Text that reaches the story refuses right-to-left overrides: an idea list read from a
/// file, a die-type character's notes, a creature's description.
#[test]
fn free_text_for_the_story_refuses_direction_overrides() {
    let (dir, c) = campaign();
    let list = dir.path().join("list.txt");
    std::fs::write(&list, "sword\n\u{202E}live\nshield\n").unwrap();
    let r = solum_args(&["idea", "--list", list.to_str().unwrap(), "--campaign", &c]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("line 2"), "{}", r.stderr);

    let r = solum_args(&[
        "dietype",
        "new",
        "Rook",
        "--ability",
        "Str=d8",
        "--notes",
        "calm \u{202E}desrever",
        "--campaign",
        &c,
    ]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("notes"), "{}", r.stderr);

    let bestiary = dir.path().join("b.toml");
    std::fs::write(
        &bestiary,
        "[[creature]]\nname = \"imp\"\npool = 2\nhit_points = 2\ndamage = 1\nmind = 1\nnotes = \"a \u{2067}sly\u{2069} imp\"\n",
    )
    .unwrap();
    let r = solum_args(&[
        "creature",
        "add",
        bestiary.to_str().unwrap(),
        "--campaign",
        &c,
    ]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("notes"), "{}", r.stderr);
    // Nothing was journaled by any of them.
    let r = solum_args(&["journal", "show", "--campaign", &c]);
    assert!(
        !r.stdout.contains("imp") && !r.stdout.contains("Rook"),
        "{}",
        r.stdout
    );
}

/// A note cannot become a heading, a list or a quote in the Markdown story.
#[test]
fn a_note_stays_a_paragraph_in_the_story() {
    let (_dir, c) = campaign();
    let note = "The bridge held\n===\n- one\n1. two\n# three\n> four";
    let r = solum_args(&["note", note, "--campaign", &c]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = solum_args(&[
        "journal",
        "export",
        "--format",
        "markdown",
        "--campaign",
        &c,
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Each line's block marker escaped, lines joined by hard breaks: one paragraph.
    let expected = "The bridge held  \n\\===  \n\\- one  \n1\\. two  \n\\# three  \n\\> four\n";
    assert!(r.stdout.contains(expected), "{}", r.stdout);
    for line in r.stdout.lines() {
        assert!(
            !(line.starts_with("===") || line.starts_with("- ") || line.starts_with("1. ")),
            "a block starts: {line:?} in {}",
            r.stdout
        );
    }
}

/// A secret Project Sol test of the campaign's own table (rolled at `solum serve`) changes
/// the sheet only when `solum journal reveal` shows it; a second reveal is refused.
#[test]
fn journal_reveal_applies_a_secret_test_once() {
    use solum_app::{Campaign, Dice, SolTest};
    use solum_store::Scope;
    use solum_store_sqlite::SqliteStore;
    let (_dir, c) = campaign();
    let r = solum_args(&[
        "sol",
        "new",
        "Cole",
        "--edge",
        "1",
        "--attr",
        "AGI=2",
        "--skill",
        "Sidearms=1",
        "--campaign",
        &c,
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // The game master of table 0 rolls in secret: Push the Limit costs the one Edge point.
    let mut t = SolTest::new("Sidearms", "AGI");
    t.threshold = Some(solum_app::sol_once::SolThreshold::new(1).unwrap());
    t.edge = Some(solum_app::sol_once::EdgeOnTest::PushTheLimit);
    let secret = SqliteStore::open(std::path::Path::new(&c), Scope::HOME.secret()).unwrap();
    let v = Campaign::new(secret)
        .sol_test("Cole", &t, Dice::Seed(7), None)
        .unwrap();
    let edge = |c: &str| {
        let r = solum_args(&["sol", "show", "Cole", "--json", "--campaign", c]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
        v["sheet"]["edge"]["points"].as_u64().unwrap()
    };
    assert_eq!(edge(&c), 1, "a secret test spends nothing yet");
    let shown = solum_args(&["journal", "show", "--campaign", &c]);
    assert!(shown.stdout.contains("(secret)"), "{}", shown.stdout);
    let seq = v.seq.to_string();
    let r = solum_args(&["journal", "reveal", &seq, "--campaign", &c]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains(&format!("Revealed (secret entry {seq})")),
        "{}",
        r.stdout
    );
    assert_eq!(edge(&c), 0);
    let r = solum_args(&["journal", "reveal", &seq, "--campaign", &c]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("already"), "{}", r.stderr);
    let r = solum_args(&["journal", "verify", "--campaign", &c]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
}
