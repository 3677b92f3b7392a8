//! The campaign commands end to end: the oracle, scenes, notes and the journal, on real
//! campaign files, with several processes at once and with a process killed mid-write.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

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
    // …but it can still be read, exported and verified.
    let run = with(&ro, &["journal", "show"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("first"), "{}", run.stdout);
    assert_eq!(with(&ro, &["journal", "verify"]).code, 0);
    assert_eq!(
        with(&ro, &["journal", "export", "--format", "json"]).code,
        0
    );

    // A mistyped path is an error for a command that only reads, and creates nothing.
    let typo = dir.path().join("typo.solum");
    let run = with(&typo, &["journal", "show"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("no campaign here"), "{}", run.stderr);
    assert!(!typo.exists());
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

/// Runs `solum play` on a campaign with `script` piped to standard input.
fn play(campaign: &Path, extra: &[&str], script: &str) -> Run {
    let mut args = vec!["play", "--campaign", campaign.to_str().unwrap()];
    args.extend_from_slice(extra);
    let output = assert_cmd::Command::cargo_bin("solum")
        .unwrap()
        .args(&args)
        .env("NO_COLOR", "1")
        .write_stdin(script)
        .output()
        .unwrap();
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}

/// A genre list read from its data file, independently of the program's parser.
fn genre_file(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.trim().to_string())
        .collect()
}

#[test]
fn a_scripted_play_session_journals_every_use_case() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    let script = "\
help
scene The marsh | find the idol
? Is the bridge out?
ask+ Are we seen?
?- Does the rope hold?
flee at once
note We wade in.
idea horror 2
oracle classic
ask Is the water deep?
difficulty swim across
end Soaked but alive
end
journal 2
verify
quit
note never written
";
    let run = play(&c, &[], script);
    // The bad lines were named on stderr, the session went on, and the exit code tells a
    // script that some commands failed.
    assert_eq!(run.code, 2, "stderr: {}", run.stderr);
    assert!(
        run.stderr
            .contains("2 of 16 commands failed (commands 6, 13)"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("unknown command \"flee\""),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("no scene is open"), "{}", run.stderr);
    assert!(run.stdout.contains("ask+ QUESTION"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("9 entries, 6 rolls re-derived, 0 do not match"),
        "{}",
        run.stdout
    );

    let entries = exported(&c);
    let kinds: Vec<&str> = entries
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "scene-start",
            "oracle",
            "oracle",
            "oracle",
            "note",
            "idea",
            "classic-oracle",
            "difficulty",
            "scene-end",
        ]
    );
    assert_eq!(entries[0]["goal"], "find the idol");
    let leanings: Vec<&str> = entries[1..4]
        .iter()
        .map(|e| e["leaning"].as_str().unwrap())
        .collect();
    assert_eq!(leanings, ["even", "advantage", "disadvantage"]);
    assert_eq!(entries[3]["question"], "Does the rope hold?");
    // Each roll journals its seed and faces: the advantage ask rolled two answer dice.
    assert_eq!(entries[2]["outcome"]["dice"].as_array().unwrap().len(), 2);
    assert!(entries[2]["rolled"]["seed"].is_u64());
    let horror = genre_file(include_str!("../../solum-app/data/ideas/horror.txt"));
    let words = entries[5]["words"].as_array().unwrap();
    let faces = entries[5]["rolled"]["faces"].as_array().unwrap();
    assert_eq!((words.len(), faces.len()), (2, 2));
    for (w, f) in words.iter().zip(faces) {
        assert_eq!(
            w.as_str().unwrap(),
            horror[f.as_u64().unwrap() as usize - 1]
        );
    }
    assert_eq!(entries[5]["list"]["genre"], "horror");
    assert_eq!(entries[7]["task"], "swim across");
    assert_eq!(entries[8]["summary"], "Soaked but alive");
    assert_eq!(with(&c, &["journal", "verify"]).code, 0);
}

#[test]
fn play_refuses_an_unknown_default_genre_before_the_session() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    play(&c, &["--genre", "western"], "note x\n").bad_input("--genre");
}

#[test]
fn idea_draws_replay_from_their_seed_golden_words() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    // The seed's faces (pinned in solum-dice) on the fantasy file's lines 7, 71, 41 and 30.
    let v = with(&c, &["idea", "--seed", "2026", "-n", "4", "--json"]).json();
    assert_eq!(v["dice"], serde_json::json!([7, 71, 41, 30]));
    assert_eq!(
        v["words"],
        serde_json::json!(["forgotten god", "exile", "riddle", "cursed blade"])
    );
    let again = with(&c, &["idea", "--seed", "2026", "-n", "4", "--json"]).json();
    assert_eq!(again["words"], v["words"]);
    // Typed dice pick by position: 1 is the first word of the cyberpunk file.
    let cyber = genre_file(include_str!("../../solum-app/data/ideas/cyberpunk.txt"));
    let v = with(
        &c,
        &[
            "idea",
            "--genre",
            "cyberpunk",
            "-n",
            "1",
            "--rolled",
            "1",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["words"][0], cyber[0].as_str());
    with(
        &c,
        &["idea", "--genre", "cyberpunk", "-n", "1", "--rolled", "106"],
    )
    .bad_input("d105");
    with(&c, &["idea", "--genre", "western"]).bad_input("western");
    with(&c, &["idea", "-n", "0"])
        .bad_input("invalid value '0' for '--count <COUNT>': an idea draws 1 to 20 words");
    assert_eq!(exported(&c).len(), 3);
    // Listing the genres keeps nothing: it takes no campaign.
    with(&c, &["idea", "--genres"]).bad_input("keeps nothing");
    let out = common::solum_args(&["idea", "--genres"]);
    for g in [
        "fantasy",
        "science-fiction",
        "cyberpunk",
        "modern",
        "horror",
    ] {
        assert!(out.ok().contains(g), "{}", out.stdout);
    }
}

#[test]
fn verify_catches_a_changed_idea_entry() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    for seed in ["1", "2", "3"] {
        assert_eq!(
            with(&c, &["idea", "--genre", "modern", "--seed", seed]).code,
            0
        );
    }
    assert_eq!(with(&c, &["journal", "verify"]).code, 0);
    let conn = rusqlite::Connection::open(&c).unwrap();
    conn.execute_batch(
        "DROP TRIGGER journal_no_update;
         UPDATE journal SET body = json_set(body, '$.words[1]', 'a happy ending') WHERE seq = 2;",
    )
    .unwrap();
    drop(conn);
    let run = with(&c, &["journal", "verify"]);
    assert_eq!(run.code, 1);
    assert!(run.stdout.contains("entry 2:"), "{}", run.stdout);
    assert!(run.stdout.contains("a happy ending"), "{}", run.stdout);
    assert!(!run.stdout.contains("entry 1:") && !run.stdout.contains("entry 3:"));
}

#[test]
fn a_players_list_is_bounded_and_journaled_whole() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    let big = dir.path().join("big.txt");
    std::fs::write(&big, "word\n".repeat(20_000)).unwrap();
    with(&c, &["idea", "--list", big.to_str().unwrap()]).bad_input("bytes");
    let many = dir.path().join("many.txt");
    std::fs::write(&many, "w\n".repeat(1001)).unwrap();
    with(&c, &["idea", "--list", many.to_str().unwrap()]).bad_input("more than 1000 words");
    with(&c, &["idea", "--list", dir.path().to_str().unwrap()]).bad_input("not a regular file");
    #[cfg(unix)]
    {
        let fifo = dir.path().join("fifo");
        assert!(
            Process::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        // Refused at once: nothing ever writes to this FIFO, so reading it would hang.
        common::solum_args_end(&[
            "idea",
            "--list",
            fifo.to_str().unwrap(),
            "--campaign",
            c.to_str().unwrap(),
        ])
        .bad_input("not a regular file");
    }
    assert!(!c.exists() || exported(&c).is_empty());

    let mine = dir.path().join("mine.txt");
    std::fs::write(&mine, "# mine\nred door\nsilver owl\n").unwrap();
    let v = with(
        &c,
        &[
            "idea",
            "--list",
            mine.to_str().unwrap(),
            "-n",
            "2",
            "--rolled",
            "2 1",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["words"], serde_json::json!(["silver owl", "red door"]));
    assert_eq!(v["list"], "mine.txt");
    std::fs::remove_file(&mine).unwrap();
    let entries = exported(&c);
    assert_eq!(
        entries[0]["list"]["words"],
        serde_json::json!(["red door", "silver owl"])
    );
    assert_eq!(with(&c, &["journal", "verify"]).code, 0);
    // The same in a session, with `@FILE`.
    let other = dir.path().join("other.txt");
    std::fs::write(&other, "lantern\n").unwrap();
    let run = play(&c, &[], &format!("idea @{} 2\n", other.display()));
    assert!(run.stdout.contains("lantern · lantern"), "{}", run.stdout);
}

#[test]
fn the_original_oracle_and_random_difficulty_are_journaled_and_verified() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    // The original's first table: 1 is "No, and", event 2 an obstacle.
    let v = with(
        &c,
        &[
            "ask",
            "Is it locked?",
            "--classic",
            "--rolled",
            "1 2",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["answer"], "No, and…");
    assert_eq!(v["event"], "An obstacle");
    // One d6: each answer 1/6.
    assert!((v["p_answer"].as_f64().unwrap() - 1.0 / 6.0).abs() < 1e-12);
    // The second table: 6 is "Yes, and", event 5 a friendly NPC.
    let v = with(
        &c,
        &[
            "ask",
            "Help?",
            "--classic",
            "--advantage",
            "--rolled",
            "3 6 5",
            "--json",
        ],
    )
    .json();
    assert_eq!(
        (v["answer"].as_str(), v["event"].as_str()),
        (Some("Yes, and…"), Some("Friendly NPC"))
    );
    // Best of two shows 6 in 11 of 36 throws.
    assert!((v["p_answer"].as_f64().unwrap() - 11.0 / 36.0).abs() < 1e-12);
    let v = with(
        &c,
        &["difficulty", "pick the lock", "--rolled", "5", "--json"],
    )
    .json();
    assert_eq!(
        (v["difficulty"].as_u64(), v["name"].as_str()),
        (Some(5), Some("tricky"))
    );
    with(&c, &["difficulty", "--rolled", "7"]).bad_input("d6");
    let kinds: Vec<String> = exported(&c)
        .iter()
        .map(|e| e["kind"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(kinds, ["classic-oracle", "classic-oracle", "difficulty"]);
    let run = with(&c, &["journal", "verify"]);
    assert!(
        run.ok()
            .contains("3 entries, 3 rolls re-derived, 0 do not match")
    );
    let md = with(&c, &["journal", "export"]);
    assert!(
        md.ok()
            .contains("*Difficulty for pick the lock:* **5 (tricky)**"),
        "{}",
        md.stdout
    );
}

#[test]
fn the_campaigns_oracle_setting_chooses_what_ask_uses() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    // Showing the setting only reads: the campaign must exist first (setting it makes it).
    with(&c, &["oracle"]).bad_input("no campaign here");
    assert!(
        with(&c, &["oracle", "expanded"])
            .ok()
            .contains("(expanded)")
    );
    assert!(with(&c, &["oracle"]).ok().contains("(expanded)"));
    assert!(with(&c, &["oracle", "classic"]).ok().contains("(classic)"));
    with(&c, &["oracle", "tarot"]).bad_input("tarot");
    // 3 is "No, but": the original's second table, 2 aids the player.
    let v = with(&c, &["ask", "Lucky?", "--rolled", "3 2", "--json"]).json();
    assert_eq!(v["event"], "Something that aids the player");
    // --expanded overrides the setting for one question (5 is a plain "Yes": no event).
    assert_eq!(
        with(&c, &["ask", "Plain?", "--expanded", "--rolled", "5"]).code,
        0
    );
    // A session started with --classic on an expanded campaign asks the original.
    assert!(
        with(&c, &["oracle", "expanded"])
            .ok()
            .contains("(expanded)")
    );
    let run = play(&c, &["--classic"], "ask Is it there?\noracle\n");
    assert!(run.stdout.contains("original oracle"), "{}", run.stdout);
    assert!(run.stdout.contains("(classic)"), "{}", run.stdout);
    let kinds: Vec<String> = exported(&c)
        .iter()
        .map(|e| e["kind"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(kinds, ["classic-oracle", "oracle", "classic-oracle"]);
}

#[test]
fn importing_twice_adds_nothing_and_standard_input_works() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.solum");
    for i in 0..3 {
        assert_eq!(with(&a, &["ask", "Q?", "--seed", &i.to_string()]).code, 0);
    }
    let export = with(&a, &["journal", "export", "--format", "json"]);
    assert_eq!(export.code, 0);
    let b = dir.path().join("b.solum");
    let import = |stdin: &str| {
        let output = assert_cmd::Command::cargo_bin("solum")
            .unwrap()
            .args(["journal", "import", "-", "--campaign", b.to_str().unwrap()])
            .env("NO_COLOR", "1")
            .write_stdin(stdin.to_string())
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8(output.stdout).unwrap(),
        )
    };
    assert_eq!(
        import(&export.stdout),
        (Some(0), "imported 3 entries\n".into())
    );
    assert_eq!(
        import(&export.stdout),
        (
            Some(0),
            "imported 0 entries; 3 were already in the journal\n".into()
        )
    );
    assert_eq!(exported(&b).len(), 3);
}

#[test]
fn notes_keep_windows_line_ends_and_refuse_text_direction_tricks() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    assert_eq!(with(&c, &["note", "first\r\nsecond"]).code, 0);
    assert_eq!(exported(&c)[0]["text"], "first\nsecond");
    let run = with(&c, &["note", "abc\u{202E}txt.exe"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("text-direction"), "{}", run.stderr);
}

#[test]
fn a_play_script_of_endless_input_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    let play = Process::new(assert_cmd::cargo::cargo_bin("solum"))
        .args(["play", "--campaign"])
        .arg(&c)
        .stdin(std::fs::File::open("/dev/zero").unwrap())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let output = common::ended(play);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("standard input"), "{stderr}");
}

/// `--campaign` works before the subcommand as after it, at every depth, and both name the
/// same file; `$SOLUM_CAMPAIGN` fills it in when neither is typed, and an empty one is a
/// plain message (exit 2), not clap's.
#[test]
fn the_campaign_flag_goes_before_or_after_the_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    let cs = c.to_str().unwrap();
    // 3 with an even d6 is "No, but" (the table: 1 No and, 2 No, 3 No but, 4 Yes but, 5 Yes,
    // 6 Yes and); its event die 1.
    let before = solum_args(&[
        "--campaign",
        cs,
        "ask",
        "Is the gate shut?",
        "--rolled",
        "3,1",
        "--json",
    ])
    .json();
    assert_eq!(before["answer"], "No, but");
    let after = solum_args(&[
        "ask",
        "Is it raining?",
        "--rolled",
        "5",
        "--json",
        "--campaign",
        cs,
    ])
    .json();
    assert_eq!(after["answer"], "Yes");
    // Before a two-level subcommand too.
    let run = solum_args(&["--campaign", cs, "scene", "start", "At the gate"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = solum_args(&["--campaign", cs, "journal", "export", "--format", "json"]);
    let entries = run.json()["entries"].as_array().unwrap().clone();
    assert_eq!(entries.len(), 3, "both asks and the scene in the one file");
    // Twice, before and after: refused, as clap refuses it twice in one place; nothing
    // is written to either file.
    let b = dir.path().join("b.solum");
    let run = solum_args(&[
        "--campaign",
        b.to_str().unwrap(),
        "note",
        "which?",
        "--campaign",
        cs,
    ]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("--campaign is given 2 times"),
        "{}",
        run.stderr
    );
    assert!(!b.exists());
    // A command that keeps nothing refuses the flag rather than ignore it.
    let run = solum_args(&["--campaign", cs, "odds", "check", "3", "--vs", "4"]);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(
        run.stderr.contains("keeps nothing in a campaign"),
        "{}",
        run.stderr
    );
    assert_eq!(solum_args(&["odds", "check", "3", "--vs", "4"]).code, 0);
    // The environment variable when no flag is typed; the flag wins over it.
    let other = dir.path().join("other.solum");
    let env_run = |args: &[&str], env: &std::ffi::OsStr| {
        let out = Process::new(assert_cmd::cargo::cargo_bin("solum"))
            .args(args)
            .env("SOLUM_CAMPAIGN", env)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, _, err) = env_run(&["note", "from the environment"], other.as_os_str());
    assert_eq!(code, Some(0), "{err}");
    assert!(other.exists());
    let (code, _, err) = env_run(&["--campaign", cs, "note", "typed"], other.as_os_str());
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(exported(&c).len(), 4);
    assert_eq!(exported(&other).len(), 1);
    // Empty: a message naming the variable, nothing created.
    let (code, out, err) = env_run(&["ask", "Anyone?"], std::ffi::OsStr::new(""));
    assert_eq!(code, Some(2), "{out}");
    assert!(err.contains("$SOLUM_CAMPAIGN is set but empty"), "{err}");
    assert!(!err.contains("a value is required"), "{err}");
}

/// A tampered export is refused naming the entry (its place in the file, its number and
/// kind) and each field that differs from what its dice give; nothing is imported.
#[test]
fn a_tampered_import_names_the_entry_and_the_fields_that_differ() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.solum");
    let b = dir.path().join("b.solum");
    // Typed 4, 5, 4: "Yes, but" (4), event 5 an NPC, disposition 4 neutral (S12's tables).
    assert_eq!(with(&a, &["ask", "Guards?", "--rolled", "4,5,4"]).code, 0);
    assert_eq!(with(&a, &["note", "The gate creaks."]).code, 0);
    // Typed 1 then event 2: "No, and", event die 2.
    assert_eq!(with(&a, &["ask", "Open?", "--rolled", "1,2"]).code, 0);
    let export = with(&a, &["journal", "export", "--format", "json"]).json();
    let import = |edit: &dyn Fn(&mut Value)| {
        let mut v = export.clone();
        edit(&mut v);
        let file = dir.path().join("t.json");
        std::fs::write(&file, v.to_string()).unwrap();
        with(&b, &["journal", "import", file.to_str().unwrap()])
    };
    // The answer changed by hand: entry 1, outcome.answer.
    let run = import(&|v| v["entries"][0]["outcome"]["answer"] = "yes".into());
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(
        run.stderr.contains("entry 1 of the import"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("oracle entry, numbered 1"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains(r#"outcome.answer: recorded "yes", the dice give "yes-but""#),
        "{}",
        run.stderr
    );
    // Two fields of the third entry: its event die and its answer die.
    let run = import(&|v| {
        v["entries"][2]["outcome"]["event_die"] = 6.into();
        v["entries"][2]["outcome"]["die"] = 2.into();
    });
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("entry 3 of the import"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("outcome.event_die: recorded 6, the dice give 2"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("outcome.die: recorded 2, the dice give 1"),
        "{}",
        run.stderr
    );
    // A value no record knows: the entry and the field serde refused.
    let run = import(&|v| {
        v["entries"][0]["outcome"]["event"]["disposition"] = "hostile".into();
    });
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("entry 1 (oracle entry, numbered 1 in the export)"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("hostile"), "{}", run.stderr);
    // Nothing was imported by any of them; the untouched export goes in whole.
    assert!(!b.exists() || exported(&b).is_empty());
    let run = import(&|_| {});
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(exported(&b).len(), 3);
}
