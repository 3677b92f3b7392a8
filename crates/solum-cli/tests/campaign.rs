//! The campaign commands end to end: the oracle, scenes, notes and the journal, on real
//! campaign files, with several processes at once and with a process killed mid-write.

mod common;

use std::path::Path;
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use common::{Run, solum_args};
use serde_json::Value;

fn with(campaign: &Path, args: &[&str]) -> Run {
    let mut all: Vec<&str> = args.to_vec();
    all.push("--campaign");
    all.push(campaign.to_str().unwrap());
    solum_args(&all)
}

fn exported(campaign: &Path) -> Vec<Value> {
    let run = with(campaign, &["journal", "export", "--format", "json"]);
    let v = run.json();
    assert_eq!(v["format"], "solum-journal");
    v["entries"].as_array().unwrap().clone()
}

#[test]
fn ask_answers_from_the_table_and_journals_it() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    // Typed dice: 4 is "Yes, but", event 5 an NPC, disposition 4 neutral.
    let v = with(
        &c,
        &["ask", "Are guards present?", "--rolled", "4,5,4", "--json"],
    )
    .json();
    assert_eq!(v["answer"], "Yes, but");
    assert_eq!(v["die"], 4);
    assert_eq!(v["event"], "An NPC (neutral)");
    assert_eq!(v["disposition"], "neutral");
    // Advantage keeps the best of two; disadvantage the worst.
    let v = with(
        &c,
        &["ask", "Open?", "--advantage", "--rolled", "2,5", "--json"],
    )
    .json();
    assert_eq!(
        (v["answer"].as_str(), v["die"].as_u64()),
        (Some("Yes"), Some(5))
    );
    let v = with(
        &c,
        &[
            "ask",
            "Open?",
            "--disadvantage",
            "--rolled",
            "2,5",
            "--json",
        ],
    )
    .json();
    assert_eq!(
        (v["answer"].as_str(), v["die"].as_u64()),
        (Some("No"), Some(2))
    );
    // A seeded answer replays.
    let a = with(&c, &["ask", "Again?", "--seed", "77", "--json"]).json();
    let b = with(&c, &["ask", "Again?", "--seed", "77", "--json"]).json();
    assert_eq!(
        (a["answer"].clone(), a["dice"].clone()),
        (b["answer"].clone(), b["dice"].clone())
    );
    assert_eq!(a["seed"], 77);

    let entries = exported(&c);
    assert_eq!(entries.len(), 5);
    let seqs: Vec<_> = entries.iter().map(|e| e["seq"].as_i64().unwrap()).collect();
    assert!(seqs.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(entries[0]["question"], "Are guards present?");
    assert_eq!(entries[0]["rolled"]["faces"], serde_json::json!([4, 5, 4]));
    assert_eq!(entries[0]["rolled"]["typed"], true);
    let verify = with(&c, &["journal", "verify"]);
    assert_eq!(verify.code, 0, "{}", verify.stderr);
    assert!(
        verify
            .stdout
            .contains("5 entries, 5 rolls re-derived, 0 do not match")
    );
}

#[test]
fn a_scripted_evening_reads_back_as_a_story() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    assert_eq!(
        with(
            &c,
            &["scene", "start", "The vault", "--goal", "Open the lock"]
        )
        .code,
        0
    );
    assert_eq!(
        with(&c, &["ask", "Is anyone watching?", "--rolled", "2"]).code,
        0
    );
    assert_eq!(with(&c, &["note", "Nick kneels at the lock."]).code, 0);
    assert_eq!(with(&c, &["scene", "end", "The vault is open"]).code, 0);
    let md = with(&c, &["journal", "export", "--title", "Heist"]);
    assert_eq!(md.code, 0);
    assert!(md.stdout.starts_with("# Heist\n"), "{}", md.stdout);
    assert!(md.stdout.contains("## The vault"));
    assert!(md.stdout.contains("*Goal:* Open the lock"));
    assert!(
        md.stdout
            .contains("> **Is anyone watching?** — *No* (d6: 2) `typed`")
    );
    assert!(md.stdout.contains("*Scene ends:* The vault is open"));
    // Ending a scene twice is a clear error.
    let again = with(&c, &["scene", "end"]);
    assert_eq!(again.code, 2);
    assert!(
        again.stderr.contains("no scene is open"),
        "{}",
        again.stderr
    );
}

#[test]
fn export_then_import_into_another_campaign() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.solum");
    let b = dir.path().join("b.solum");
    for i in 0..5 {
        assert_eq!(
            with(&a, &["ask", &format!("Q{i}?"), "--seed", &i.to_string()]).code,
            0
        );
    }
    let file = dir.path().join("journal.json");
    let run = with(
        &a,
        &[
            "journal",
            "export",
            "--format",
            "json",
            "-o",
            file.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    // An existing file is never overwritten.
    let again = with(
        &a,
        &[
            "journal",
            "export",
            "--format",
            "json",
            "-o",
            file.to_str().unwrap(),
        ],
    );
    assert_eq!(again.code, 2);
    assert!(again.stderr.contains("exists"));
    let run = with(&b, &["journal", "import", file.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("imported 5 entries"));
    let strip = |v: Vec<Value>| -> Vec<Value> {
        v.into_iter()
            .map(|mut e| {
                e.as_object_mut().unwrap().remove("seq");
                e
            })
            .collect()
    };
    assert_eq!(strip(exported(&a)), strip(exported(&b)));

    // A forged answer does not re-derive from its seed: nothing is imported.
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let e = &mut doc["entries"][2]["outcome"];
    let die = e["die"].as_u64().unwrap();
    let (forged_die, forged) = if die == 6 {
        (1, "no-and")
    } else {
        (6, "yes-and")
    };
    e["die"] = forged_die.into();
    e["answer"] = forged.into();
    let forged_file = dir.path().join("forged.json");
    std::fs::write(&forged_file, doc.to_string()).unwrap();
    let c = dir.path().join("c.solum");
    let run = with(&c, &["journal", "import", forged_file.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("entry 3 of the import"),
        "{}",
        run.stderr
    );
    assert_eq!(exported(&c).len(), 0);
}

#[test]
fn a_changed_entry_fails_verification_by_number() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    for i in 0..20 {
        assert_eq!(with(&c, &["ask", "Q?", "--seed", &i.to_string()]).code, 0);
    }
    // Change entry 7's answer behind solum's back (the append-only trigger must go first).
    let conn = rusqlite::Connection::open(&c).unwrap();
    conn.execute_batch(
        "DROP TRIGGER journal_no_update;
         UPDATE journal SET body = CASE json_extract(body, '$.outcome.die')
             WHEN 5 THEN json_set(body, '$.outcome.answer', 'no', '$.outcome.die', 2)
             ELSE json_set(body, '$.outcome.answer', 'yes', '$.outcome.die', 5) END
         WHERE seq = 7;",
    )
    .unwrap();
    drop(conn);
    let run = with(&c, &["journal", "verify"]);
    assert_eq!(run.code, 1);
    assert!(run.stdout.contains("entry 7:"), "{}", run.stdout);
    assert!(run.stderr.contains("entries 7"), "{}", run.stderr);
}

#[test]
fn bad_campaigns_and_bad_questions_are_refused_and_nothing_is_lost() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "my notes\n").unwrap();
    let run = with(&notes, &["ask", "Q?"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("not a solum campaign"),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");

    let c = dir.path().join("c.solum");
    assert_eq!(with(&c, &["note", "kept"]).code, 0);
    let run = with(&c, &["ask", "   "]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("question is empty"));
    let run = with(&c, &["ask", "Q?", "--rolled", "7"]);
    assert_eq!(run.code, 2);
    // 3 is "No, but": the event die is missing.
    let run = with(&c, &["ask", "Q?", "--rolled", "3"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("too few"), "{}", run.stderr);
    let run = with(&c, &["ask", "Q?", "--rolled", "5,1"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("uses only 1"), "{}", run.stderr);
    let run = with(&c, &["ask", "Q?", "--seed", "1", "--rolled", "5"]);
    assert_eq!(run.code, 2);

    // A newer schema: refused, untouched.
    let conn = rusqlite::Connection::open(&c).unwrap();
    conn.execute_batch("PRAGMA user_version = 99").unwrap();
    drop(conn);
    let run = with(&c, &["note", "x"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("newer than this solum knows"),
        "{}",
        run.stderr
    );

    // A folder.
    let run = with(dir.path(), &["note", "x"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("not a regular file"), "{}", run.stderr);

    // A read-only campaign is refused, not made writable.
    let ro = dir.path().join("ro.solum");
    assert_eq!(with(&ro, &["note", "first"]).code, 0);
    let mut perms = std::fs::metadata(&ro).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&ro, perms).unwrap();
    let run = with(&ro, &["note", "second"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("read-only"), "{}", run.stderr);
    assert!(std::fs::metadata(&ro).unwrap().permissions().readonly());
}

#[test]
fn two_processes_journaling_at_once_lose_and_double_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    assert_eq!(with(&c, &["note", "start"]).code, 0);
    let bin = assert_cmd::cargo::cargo_bin("solum");
    let per_process = 40;
    let workers: Vec<_> = (0..2)
        .map(|w| {
            let bin = bin.clone();
            let c = c.clone();
            std::thread::spawn(move || {
                for i in 0..per_process {
                    let status = Process::new(&bin)
                        .args(["note", &format!("w{w}-{i}"), "--campaign"])
                        .arg(&c)
                        .stdout(Stdio::null())
                        .status()
                        .unwrap();
                    assert!(status.success());
                }
            })
        })
        .collect();
    for w in workers {
        w.join().unwrap();
    }
    let entries = exported(&c);
    let texts: Vec<String> = entries
        .iter()
        .filter_map(|e| e["text"].as_str().map(String::from))
        .collect();
    assert_eq!(texts.len(), 1 + 2 * per_process);
    for w in 0..2 {
        let mine: Vec<_> = texts
            .iter()
            .filter(|t| t.starts_with(&format!("w{w}-")))
            .collect();
        let want: Vec<String> = (0..per_process).map(|i| format!("w{w}-{i}")).collect();
        assert_eq!(
            mine,
            want.iter().collect::<Vec<_>>(),
            "each writer's entries, once, in order"
        );
    }
}

#[test]
fn a_killed_writer_leaves_every_acknowledged_entry() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    let bin = assert_cmd::cargo::cargo_bin("solum");
    let mut acknowledged = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    for i in 0..60 {
        if Instant::now() > deadline {
            break;
        }
        let question = format!("Q{i}?");
        let mut child = Process::new(&bin)
            .args(["ask", &question, "--seed", &i.to_string(), "--campaign"])
            .arg(&c)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Every third writer is killed mid-flight (SIGKILL); the others finish.
        if i % 3 == 2 {
            std::thread::sleep(Duration::from_millis(2 + (i % 7)));
            let _ = child.kill();
            let _ = child.wait();
        } else if child.wait().unwrap().success() {
            acknowledged.push(question);
        }
    }
    assert!(acknowledged.len() >= 30);
    let entries = exported(&c);
    let questions: Vec<&str> = entries
        .iter()
        .filter_map(|e| e["question"].as_str())
        .collect();
    for q in &acknowledged {
        assert_eq!(questions.iter().filter(|x| *x == q).count(), 1, "{q}");
    }
    let run = with(&c, &["journal", "verify"]);
    assert_eq!(run.code, 0, "{} {}", run.stdout, run.stderr);
}
