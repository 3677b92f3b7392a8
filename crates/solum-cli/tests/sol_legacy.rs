//! Project Sol records journaled by an older solum (before P5's burn and P3's one point per
//! encounter in all) keep verifying: they replay by the rules they were applied by. The
//! fixture `data/sol_legacy_journal.json` is `solum journal export --format json` of a fresh
//! campaign played with that older build: Kai (Edge 3) spends a point and then burns one for
//! Smackdown (2 of 3 became 2 of 2, no point taken), spends the rest and burns for Not Dead
//! Yet with none available (0 of 2 became 0 of 1), then, after a new session, earns a
//! progress point in Sidearms and another in Hacking in the same encounter.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

use std::path::{Path, PathBuf};

use common::{Run, solum_args};
use serde_json::Value;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sol_legacy_journal.json")
}

fn with(c: &Path, args: &[&str]) -> Run {
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--campaign", c.to_str().unwrap()]);
    solum_args(&all)
}

#[test]
fn an_older_solums_sol_records_verify_by_the_rules_they_were_applied_by() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    with(&c, &["journal", "import", fixture().to_str().unwrap()]).ok();
    let run = with(&c, &["journal", "verify"]);
    assert_eq!(run.code, 0, "{} {}", run.stdout, run.stderr);
    assert!(run.stdout.contains("9 entries"), "{}", run.stdout);
    assert!(run.stdout.contains(", 0 do not match"), "{}", run.stdout);
    assert!(run.stdout.contains(", 0 differ"), "{}", run.stdout);
    // The journal gives the sheet as the older rules left it: Edge 1 of 1, BOD 2, a point in
    // both skills.
    let v = with(&c, &["journal", "export", "--format", "json"]).json();
    let last = &v["entries"][8]["change"]["test"]["after"];
    assert_eq!(
        last["edge"],
        serde_json::json!({"attribute": 1, "points": 1})
    );
    assert_eq!(last["attributes"]["BOD"], 2);
    let progress: Vec<_> = last["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["progress"].clone())
        .collect();
    assert_eq!(progress, vec![Value::from(1), Value::from(1)]);
    // The records carry no rules version: they stay as the older solum wrote them.
    assert!(
        v["entries"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e.get("rules").is_none_or(|r| r == 0))
    );
}

#[test]
fn the_same_records_marked_as_new_rules_do_not_verify() {
    // The fixture's Project Sol records claiming the current rules: the burn after a spend,
    // the burn with no point available and the second point in one encounter are then
    // applied by P5 and P3, and do not match.
    let text = std::fs::read_to_string(fixture()).unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    for e in v["entries"].as_array_mut().unwrap() {
        if e["kind"] == "sol" {
            e["rules"] = 1.into();
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tampered.json");
    std::fs::write(&file, serde_json::to_string(&v).unwrap()).unwrap();
    let c = dir.path().join("c.solum");
    let run = with(&c, &["journal", "import", file.to_str().unwrap()]);
    assert_ne!(run.code, 0, "{} {}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("entry 3 of the import does not re-derive from its dice"),
        "{}",
        run.stderr
    );
}

#[test]
fn records_written_now_carry_the_rules_they_follow() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    with(&c, &["sol", "new", "Kai", "--edge", "3", "--attr", "AGI=3"]).ok();
    with(&c, &["sol", "spend", "Kai", "seize-the-initiative"]).ok();
    let v = with(&c, &["journal", "export", "--format", "json"]).json();
    let entries = v["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 2);
    assert!(entries.iter().all(|e| e["rules"] == 1), "{v}");
}
