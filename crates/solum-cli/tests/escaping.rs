//! Whatever a file, an argument or the journal holds, what reaches the terminal carries no
//! escape sequence but solum's own colours, and no bidirectional control: `ESC [8m` (which
//! hides what follows), a title sequence or a right-to-left override is shown escaped.
//! Colour is forced on (`CLICOLOR_FORCE=1`), so the output is what a terminal would get.
//! Each run is under a memory limit, a CPU limit and a wall-clock timeout.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

use std::path::Path;

use common::bounded_in_colour as bounded;

/// The SGR parameters solum and clap write (reset, bold, dim, underline, four colours).
const OWN: [&str; 12] = [
    "", "0", "1", "2", "4", "22", "24", "31", "32", "33", "36", "39",
];

/// Every ESC in `text` starts one of solum's own colour sequences, and no bidirectional
/// control or C1 control is in it.
fn assert_terminal_safe(what: &str, text: &str) {
    for (i, _) in text.match_indices('\x1b') {
        let rest = &text[i + 1..];
        let end = rest
            .find('m')
            .unwrap_or_else(|| panic!("{what}: a raw ESC: {text:?}"));
        let seq = &rest[..end];
        let params = seq
            .strip_prefix('[')
            .unwrap_or_else(|| panic!("{what}: a raw ESC not starting a colour: {text:?}"));
        for p in params.split(';') {
            assert!(
                OWN.contains(&p),
                "{what}: ESC[{params}m is not solum's own: {text:?}"
            );
        }
    }
    for c in text.chars() {
        assert!(
            !matches!(c,
                '\u{80}'..='\u{9f}' | '\u{61c}' | '\u{200e}' | '\u{200f}'
                | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'),
            "{what}: a raw {c:?} in {text:?}"
        );
    }
}

/// Runs `args` and checks both streams; returns everything written.
fn safe(dir: &Path, args: &[&str]) -> String {
    let run = bounded(dir, args);
    assert_terminal_safe(&format!("{args:?} stdout"), &run.stdout);
    assert_terminal_safe(&format!("{args:?} stderr"), &run.stderr);
    format!("{}{}", run.stdout, run.stderr)
}

/// A name as a TOML string: conceal, then a right-to-left override.
const EVIL: &str = r"Nim\u001b[8m\u202Egone";
/// How it must be shown.
const SHOWN: &str = r"Nim\x1b[8m\u202egone";

fn write(dir: &Path, name: &str, text: &str) -> String {
    std::fs::write(dir.join(name), text).unwrap();
    name.to_owned()
}

#[test]
fn sheets_read_from_files_are_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let sheet = write(
        d,
        "nick.toml",
        &format!(
            "schema = 1\nname = \"{EVIL}\"\nbody = 3\nmind = 2\ncharm = 1\n\
             backgrounds = [\"Acrobat Thief\"]\nhit_points = 5\n\
             weapons = [{{ name = \"dagger\", class = \"light\" }}]\n"
        ),
    );
    let all = safe(d, &["char", "show", "--file", &sheet]);
    assert!(all.contains(SHOWN), "{all}");

    let hero = write(
        d,
        "hero.toml",
        &format!(
            "name = \"{EVIL}\"\nbody = 2\nmind = 2\nspirit = 1\nhit_points = 4\n\
             cliches = [\"Brave\\u001b]0;title\\u0007\"]\ngear = []\nnotes = \"n\\u001b[2J\"\n"
        ),
    );
    let all = safe(d, &["classic", "show", &hero]);
    assert!(all.contains(SHOWN), "{all}");
    assert!(all.contains(r"Brave\x1b]0;title\x07"), "{all}");
    let all = safe(d, &["classic", "fight", &hero, "goblin", "--seed", "1"]);
    assert!(all.contains(SHOWN), "{all}");
}

#[test]
fn bestiaries_and_skirmishes_read_from_files_are_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let bestiary = write(
        d,
        "b.toml",
        &format!("[[creature]]\nname = \"{EVIL}\"\npool = 1\nhit_points = 2\ndamage = 1\n"),
    );
    let all = safe(d, &["char", "bestiary", "--bestiary", &bestiary]);
    assert!(all.contains(SHOWN), "{all}");
    let skirmish = write(
        d,
        "sk.toml",
        &format!(
            "[[character]]\nname = \"{EVIL}\"\nside = \"a\"\nmind = 2\nbody = 0\nhit_points = 1\nranged = 2\n\n\
             [[character]]\nname = \"B\"\nside = \"b\"\nmind = 1\nbody = 0\nhit_points = 1\nranged = 2\n"
        ),
    );
    let all = safe(d, &["soluna", "skirmish", &skirmish, "--seed", "1"]);
    assert!(all.contains(SHOWN), "{all}");
}

#[test]
fn a_combat_script_is_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let script = write(
        d,
        "fight.txt",
        "hero Ni\u{202e}ck pool=3 hp=5 damage=1 mind=2 bg\nfoe orc*1\nattack Ni\u{202e}ck \x1b[8morc1\n",
    );
    // The refused line is echoed in the error. A line with a control or text-direction
    // character is refused as the campaign's combat refuses it: at the first such line.
    let all = safe(d, &["combat", &script, "--seed", "1"]);
    assert!(all.contains("line 1:"), "{all}");
    assert!(all.contains(r"hero Ni\u202eck pool=3"), "{all}");
    let script = write(
        d,
        "fight2.txt",
        "hero Nick pool=3 hp=5\nfoe orc*1\nattack Nick \x1b[8morc1\n",
    );
    let all = safe(d, &["combat", &script, "--seed", "1"]);
    assert!(all.contains(r"attack Nick \x1b[8morc1"), "{all}");
}

#[test]
fn arguments_echoed_in_errors_are_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // clap's own messages echo the refused value and the unknown subcommand.
    let all = safe(d, &["check", "\x1b]0;pwned\x07"]);
    assert!(all.contains(r"\x1b]0;pwned\x07"), "{all}");
    let all = safe(d, &["\x1b[2J\x1b[8mbad"]);
    assert!(all.contains(r"\x1b[2J\x1b[8mbad"), "{all}");
    let all = safe(d, &["check", "3", "--vs", "\u{202e}5"]);
    assert!(all.contains(r"\u202e5"), "{all}");
    // solum's own messages too. An expression with such characters is refused whole, before
    // it is parsed; a die type that is not one is echoed.
    let all = safe(d, &["odds", "2d6\u{202e}\x1b[8m"]);
    assert!(all.contains("the expression holds a control"), "{all}");
    let all = safe(d, &["roll", "dietype", "d7\u{202e}\x1b[8m"]);
    assert!(all.contains(r"d7\u202e\x1b[8m"), "{all}");
}

#[test]
fn journal_text_planted_in_the_database_is_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let c = d.join("c.solum");
    let cs = c.to_str().unwrap();
    bounded(d, &["note", "an honest note", "--campaign", cs]).ok();
    // A note that bypassed the campaign's own checks (written by another program).
    let db = rusqlite::Connection::open(&c).unwrap();
    db.execute(
        "INSERT INTO journal (at, kind, schema, body, table_seq) VALUES
         ('2026-01-01T00:00:00Z', 'note', 1, json_object('kind', 'note', 'text', ?1),
          (SELECT MAX(table_seq) + 1 FROM journal))",
        ["sly\u{1b}[8mhidden\u{202e}\u{1b}]0;t\u{7}"],
    )
    .unwrap();
    drop(db);
    let all = safe(d, &["journal", "show", "--campaign", cs]);
    assert!(all.contains(r"sly\x1b[8mhidden\u202e\x1b]0;t\x07"), "{all}");
}

#[test]
fn json_output_stays_valid_json_with_the_same_text() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let c = d.join("c.solum");
    let cs = c.to_str().unwrap();
    bounded(d, &["note", "plain", "--campaign", cs]).ok();
    let text = "rtl\u{202e}del\u{7f}c1\u{85}sep\u{2028}esc\u{1b}[8m";
    let db = rusqlite::Connection::open(&c).unwrap();
    db.execute(
        "INSERT INTO journal (at, kind, schema, body, table_seq) VALUES
         ('2026-01-01T00:00:00Z', 'note', 1, json_object('kind', 'note', 'text', ?1),
          (SELECT MAX(table_seq) + 1 FROM journal))",
        [text],
    )
    .unwrap();
    drop(db);
    let run = bounded(
        d,
        &["journal", "export", "--format", "json", "--campaign", cs],
    );
    assert_terminal_safe("journal export --format json", &run.stdout);
    let v: serde_json::Value =
        serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout));
    let texts: Vec<&str> = v["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert_eq!(texts, ["plain", text], "{}", run.stdout);
}
