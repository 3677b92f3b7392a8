//! Opening a campaign to read it never creates it (issue 23): every command that only reads
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
    &["scene", "show"],
    &["oracle"],
    &["roll-off"],
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
        assert!(
            run.stderr.contains(file) && run.stderr.contains("no campaign here"),
            "{what}: {}",
            run.stderr
        );
        assert!(
            !missing.exists(),
            "{what} created the campaign it only reads"
        );
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "{what} left a file beside it"
        );
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
