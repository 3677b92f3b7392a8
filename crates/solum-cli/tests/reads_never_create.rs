//! Opening a campaign to read it never creates it (issue 23; decided once, in the app's
//! `solum_app::on_use`, not by each command): every command that only reads
//! (show, list, export, status, verify, a setting shown without a new value) refuses a
//! missing campaign with an error naming the file, exits 2 and leaves no file behind.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

use common::solum_args;

/// Every read command, as a user types it after `--campaign FILE`.
const READS: &[&[&str]] = &[
    &["char", "list"],
    &["char", "show", "Nick"],
    &["char", "export", "Nick"],
    &["sol", "show", "Ada"],
    &["sol", "list"],
    &["sol", "export", "Ada"],
    &["dietype", "show", "Ada"],
    &["dietype", "list"],
    &["dietype", "export", "Ada"],
    &["soluna", "show", "Ada"],
    &["soluna", "list"],
    &["soluna", "export", "Ada"],
    &["soluna", "skirmish", "status"],
    &["classic", "list"],
    &["classic", "export", "Ada"],
    &["classic", "fight", "Ada", "--status"],
    &["combat", "status"],
    &["creature", "list"],
    &["creature", "show", "orc"],
    &["journal", "show"],
    &["journal", "export"],
    &["journal", "verify"],
    &["journal", "verify", "--table", "1"],
    &["journal", "export", "--table", "1"],
    &["table", "list"],
    &["scene", "show"],
    &["oracle"],
    &["roll-off"],
    &["roll-off", "--json"],
    &["journal", "show", "--json"],
];

#[test]
fn every_read_command_refuses_a_missing_campaign_and_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("typo.solum");
    let file = missing.to_str().unwrap();
    for read in READS {
        let mut args = vec!["--campaign", file];
        args.extend_from_slice(read);
        let run = solum_args(&args);
        let what = read.join(" ");
        assert_eq!(run.code, 2, "{what}: {}{}", run.stdout, run.stderr);
        // Refused before anything is shown: no answer printed beside the refusal.
        assert_eq!(run.stdout, "", "{what}");
        assert!(
            run.stderr.contains(file) && run.stderr.contains("no campaign here"),
            "{what}: {}",
            run.stderr
        );
        nothing_created(dir.path(), &missing, &what);
    }
}

#[test]
fn a_setting_given_a_value_is_a_change_and_creates_the_campaign() {
    // The other side of the rule: `oracle classic` and `roll-off on` write, so a campaign
    // that does not exist yet is created, and reading it afterwards works.
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("new.solum");
    let file = c.to_str().unwrap();
    let run = solum_args(&["--campaign", file, "roll-off", "on"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(c.exists());
    let run = solum_args(&["--campaign", file, "roll-off"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("roll-off on"), "{}", run.stdout);
    let run = solum_args(&["--campaign", file, "oracle", "classic"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = solum_args(&["--campaign", file, "dietype", "list"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("No die-type characters yet"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_first_write_that_reads_first_creates_the_campaign_and_a_refused_one_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("first.solum");
    let file = c.to_str().unwrap();
    // Refused before it touches the campaign: no empty campaign is left behind.
    let run = solum_args(&["--campaign", file, "sol", "new", "Kyra", "--edge", "1001"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("Edge is 0 to 1000"), "{}", run.stderr);
    assert!(!c.exists(), "a refused command created the campaign");
    // The oracle reads its setting before it journals its roll: the first question
    // creates the campaign, and the answer is in its journal.
    let run = solum_args(&["--campaign", file, "ask", "Is it raining?", "--seed", "7"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(c.exists());
    let run = solum_args(&["--campaign", file, "journal", "show"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("Is it raining?"), "{}", run.stdout);
}

/// Reads that look a name up in the campaign and elsewhere (a hero of the book, a `.toml`
/// file): a missing campaign is no campaign, so the name is looked up elsewhere; still
/// nothing is created.
const LOOKS: &[&[&str]] = &[
    &["classic", "show", "Ada"],
    &["classic", "show", "Alessandor the Blade"],
];

#[test]
fn a_look_up_in_a_missing_campaign_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("typo.solum");
    let file = missing.to_str().unwrap();
    for look in LOOKS {
        let mut args = vec!["--campaign", file];
        args.extend_from_slice(look);
        let run = solum_args(&args);
        let what = look.join(" ");
        nothing_created(dir.path(), &missing, &what);
        if look[2] == "Ada" {
            // Not in the book, not a file, no campaign: refused, naming where it looked.
            assert_eq!(run.code, 2, "{what}: {}{}", run.stdout, run.stderr);
            assert!(run.stderr.contains("nor in the book"), "{}", run.stderr);
        } else {
            // A hero of the book is shown without a campaign.
            assert_eq!(run.code, 0, "{what}: {}", run.stderr);
            assert!(run.stdout.contains("Alessandor"), "{}", run.stdout);
        }
    }
}

/// The campaign `missing` was not created, and nothing was left beside it in `dir`.
fn nothing_created(dir: &std::path::Path, missing: &std::path::Path, what: &str) {
    assert!(
        !missing.exists(),
        "{what} created the campaign it only reads"
    );
    assert_eq!(
        std::fs::read_dir(dir).unwrap().count(),
        0,
        "{what} left a file beside it"
    );
}
