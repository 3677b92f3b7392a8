//! Persisted record fixtures: one journal body per record kind and schema version, as an
//! earlier build wrote it (`tests/fixtures/records/<kind>-v<schema>.json`), read back and
//! re-derived by this build the way `journal verify` does; a kind's other variants of `change`
//! have files of their own (`<kind>-v<schema>.<variant>.json`). A campaign file outlives the build
//! that wrote it; this is where a change that would make an old journal unreadable fails.
//!
//! A fixture holds one body (a JSON object, exactly as the store keeps it: the record with
//! its `kind` tag), or an array of bodies re-derived in order when a record needs the ones
//! before it (a combat line needs its combat's earlier lines). The version in the file name is
//! the body's own `schema` field where the kind has one, else the journal's
//! [`RECORD_SCHEMA`]. See ARCHITECTURE.md, "Persisted record fixtures", for how to add one.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;
use solum_app::Record;
use solum_app::journal::{RECORD_SCHEMA, Replayer};

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/records")
}

/// Every fixture: `(kind, schema, variant) -> bodies`, read from the folder (the variant is
/// `""` for `<kind>-v<schema>.json`, the kind's first).
fn fixtures() -> BTreeMap<(String, i64, String), Vec<Value>> {
    let mut all = BTreeMap::new();
    for entry in std::fs::read_dir(fixtures_dir()).expect("the fixtures folder exists") {
        let path = entry.expect("a readable folder entry").path();
        let file = path
            .file_name()
            .and_then(|n| n.to_str())
            .expect("a UTF-8 name");
        let stem = file
            .strip_suffix(".json")
            .unwrap_or_else(|| panic!("{file}: not a .json file"));
        let (stem, variant) = stem.split_once('.').unwrap_or((stem, ""));
        let (kind, schema) = stem
            .rsplit_once("-v")
            .unwrap_or_else(|| panic!("{file}: not named <kind>-v<schema>.json"));
        let schema: i64 = schema
            .parse()
            .unwrap_or_else(|_| panic!("{file}: the schema is not a number"));
        let text = std::fs::read_to_string(&path).expect("a readable fixture");
        let value: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{file}: not JSON: {e}"));
        let bodies = match value {
            Value::Array(bodies) => bodies,
            body => vec![body],
        };
        assert!(!bodies.is_empty(), "{file}: no body");
        all.insert((kind.to_owned(), schema, variant.to_owned()), bodies);
    }
    all
}

/// The record kinds this build knows, as serde names them: read from the message serde
/// gives for a kind that does not exist ("unknown variant `x`, expected one of `note`, …"),
/// so a kind added to `Record` is listed here without anyone writing it down.
fn known_kinds() -> BTreeSet<String> {
    let err = serde_json::from_value::<Record>(serde_json::json!({"kind": "no-such-kind"}))
        .expect_err("no record is of kind no-such-kind")
        .to_string();
    let list = err
        .split_once("expected one of")
        .unwrap_or_else(|| panic!("serde's message changed shape: {err}"))
        .1;
    let kinds: BTreeSet<String> = list
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect();
    // Guards the parsing itself: these kinds have been in the journal from the start.
    for k in ["note", "oracle", "character", "notation", "reveal"] {
        assert!(kinds.contains(k), "{k} missing from {kinds:?} ({err})");
    }
    kinds
}

/// Whether every field of `old` is in `new` with the same value (`new` may have more:
/// a field added with a default is fine; a field dropped or renamed is not).
fn kept(old: &Value, new: &Value, path: &str, lost: &mut Vec<String>) {
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in a {
                match b.get(k) {
                    Some(w) => kept(v, w, &format!("{path}.{k}"), lost),
                    // A null that is no longer written reads the same.
                    None if v.is_null() => {}
                    None => lost.push(format!("{path}.{k}: dropped")),
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (v, w)) in a.iter().zip(b).enumerate() {
                kept(v, w, &format!("{path}[{i}]"), lost);
            }
        }
        _ if old == new => {}
        _ => lost.push(format!("{path}: {old} became {new}")),
    }
}

#[test]
fn every_fixture_reads_back_and_re_derives() {
    let all = fixtures();
    assert!(!all.is_empty(), "no fixture found in {:?}", fixtures_dir());
    for ((kind, schema, variant), bodies) in &all {
        let name = format!("{kind}-v{schema}{}.json", dotted(variant));
        let mut replayer = Replayer::default();
        for (i, body) in bodies.iter().enumerate() {
            let at = format!("{name}, body {i}");
            // Read strictly as the store's entries are read: a body that is no record is an
            // unreadable entry.
            let record: Record = serde_json::from_value(body.clone())
                .unwrap_or_else(|e| panic!("{at}: this build cannot read it: {e}"));
            assert_eq!(record.kind(), kind, "{at}: the record's kind");
            let own = body.get("schema").and_then(Value::as_i64);
            assert_eq!(
                own.unwrap_or(RECORD_SCHEMA),
                *schema,
                "{at}: the file name's version is the body's schema"
            );
            let again = serde_json::to_value(&record).expect("a record serializes");
            let mut lost = Vec::new();
            kept(body, &again, "", &mut lost);
            assert!(lost.is_empty(), "{at}: read and written again, {lost:?}");
            match replayer.check(&record) {
                Ok(None) => {}
                Ok(Some(reason)) => panic!("{at}: does not re-derive: {reason}"),
                Err(e) => panic!("{at}: cannot be re-derived: {e}"),
            }
        }
    }
}

#[test]
fn every_record_kind_has_a_fixture_of_the_schema_written_today() {
    let all = fixtures();
    let covered: BTreeSet<&str> = all.keys().map(|(k, _, _)| k.as_str()).collect();
    let kinds = known_kinds();
    let missing: Vec<&String> = kinds
        .iter()
        .filter(|k| !covered.contains(k.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "record kinds without a fixture: {missing:?} (see ARCHITECTURE.md, \"Persisted \
         record fixtures\")"
    );
    let unknown: Vec<&&str> = covered.iter().filter(|k| !kinds.contains(**k)).collect();
    assert!(unknown.is_empty(), "fixtures of no kind: {unknown:?}");
    // The schema each kind is written with today: the kind's own where it has one.
    let today: BTreeMap<&str, i64> = [
        ("character", solum_app::characters::CHARACTER_RECORD_SCHEMA),
        ("classic", solum_app::classic::CLASSIC_RECORD_SCHEMA),
        ("combat", solum_app::combat::COMBAT_RECORD_SCHEMA),
        ("creature", solum_app::creatures::CREATURE_RECORD_SCHEMA),
        ("dietype", solum_app::dietype::DIETYPE_RECORD_SCHEMA),
        ("notation", solum_app::notation::NOTATION_RECORD_SCHEMA),
        ("sol", solum_app::sol::SOL_RECORD_SCHEMA),
        ("soluna", solum_app::soluna::SOLUNA_RECORD_SCHEMA),
        ("static", solum_app::fast_static::STATIC_RECORD_SCHEMA),
    ]
    .into();
    for kind in &kinds {
        let schema = today.get(kind.as_str()).copied().unwrap_or(RECORD_SCHEMA);
        assert!(
            all.contains_key(&(kind.clone(), schema, String::new())),
            "no fixture {kind}-v{schema}.json: the schema this build writes {kind} records with"
        );
    }
}

/// `.variant`, or nothing for a kind's first fixture.
fn dotted(variant: &str) -> String {
    if variant.is_empty() {
        String::new()
    } else {
        format!(".{variant}")
    }
}

/// The variants of a kind's `change` this build knows, as serde names them (from its
/// message for a variant that does not exist, as [`known_kinds`] reads the kinds); none for
/// a kind without a `change` enum.
fn change_variants(kind: &str) -> BTreeSet<String> {
    let probe = serde_json::json!({"kind": kind, "schema": 1, "name": "x", "change": {"no-such-variant": null}});
    let Err(err) = serde_json::from_value::<Record>(probe) else {
        return BTreeSet::new();
    };
    let err = err.to_string();
    if !err.contains("unknown variant `no-such-variant`") {
        return BTreeSet::new();
    }
    // "expected one of `a`, `b`", "expected `a` or `b`", "expected `a`".
    let Some((_, list)) = err.rsplit_once("expected") else {
        return BTreeSet::new();
    };
    list.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// The variants of `change` in the fixture files, as `kind.variant`.
fn covered_variants() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for ((kind, _, _), bodies) in fixtures() {
        for body in bodies {
            let variant = match body.get("change") {
                Some(Value::Object(m)) => m.keys().next().cloned(),
                Some(Value::String(v)) => Some(v.clone()),
                _ => None,
            };
            if let Some(v) = variant {
                out.insert(format!("{kind}.{v}"));
            }
        }
    }
    out
}

/// Variants of a record's `change` that no fixture holds yet: known debt, listed so that a
/// variant added without a fixture fails below, and one given a fixture leaves this list.
const WITHOUT_FIXTURE: &[&str] = &[
    "character.advanced",
    "character.check",
    "character.edited",
    "character.imported",
    "character.point-granted",
    "character.rested",
    "classic.check",
    "classic.fight",
    "classic.gear",
    "classic.imported",
    "classic.rested",
    "creature.removed",
    "dietype.created",
    "dietype.edited",
    "dietype.imported",
    "sol.created",
    "sol.encounter",
    "sol.imported",
    "sol.not-dead-yet",
    "sol.reward",
    "sol.session",
    "sol.spend",
    "sol.train",
    "soluna.abandoned",
    "soluna.created",
    "soluna.imported",
    "soluna.played",
    "soluna.skirmish",
    "static.abandoned",
    "static.started",
];

#[test]
fn every_change_variant_has_a_fixture_or_is_listed_as_debt() {
    let covered = covered_variants();
    let mut known = BTreeSet::new();
    for kind in known_kinds() {
        for v in change_variants(&kind) {
            known.insert(format!("{kind}.{v}"));
        }
    }
    // Guards the reading itself: these have fixtures from the start.
    for v in ["character.created", "classic.created", "soluna.test"] {
        assert!(known.contains(v), "{v} not among {known:?}");
    }
    let missing: BTreeSet<String> = known.difference(&covered).cloned().collect();
    let listed: BTreeSet<String> = WITHOUT_FIXTURE.iter().map(|v| (*v).to_owned()).collect();
    assert_eq!(
        missing, listed,
        "the variants without a fixture are not WITHOUT_FIXTURE: add a fixture \
         (`<kind>-v<schema>.<variant>.json`) for a new variant, or take a covered one off the list"
    );
}

/// Every record kind in one line of text (`Record::line`: the page's feed and `solum journal
/// show` both print it), from the fixtures: a snapshot, read when it changes.
#[test]
fn every_record_kind_has_its_line() {
    let mut lines = String::new();
    for ((kind, schema, variant), bodies) in fixtures() {
        let schema = format!("{schema}{}", dotted(&variant));
        for body in bodies {
            let record: Record = serde_json::from_value(body).unwrap();
            let line = record.line();
            assert!(!line.trim().is_empty(), "{kind}-v{schema}: an empty line");
            assert!(
                !line.contains('\n'),
                "{kind}-v{schema}: more than one line: {line}"
            );
            lines.push_str(&format!("{kind}-v{schema}: {line}\n"));
        }
    }
    insta::assert_snapshot!(lines);
}

/// A line is one line whatever a note holds: its breaks (a line feed, a carriage return, the
/// Unicode line and paragraph separators) become spaces; its markup stays text.
#[test]
fn a_line_is_one_line() {
    let note: Record = serde_json::from_value(serde_json::json!({
        "kind": "note",
        "text": "<b>bold</b>\nline2\r\nx\u{2028}y\u{2029}z"
    }))
    .unwrap();
    assert_eq!(note.line(), "<b>bold</b> line2  x y z");
}
