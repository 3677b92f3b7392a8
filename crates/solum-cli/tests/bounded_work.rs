//! Work sized before it starts and inputs that contradict themselves, against the real
//! binary: each run under an address-space and CPU limit (`prlimit`) and a wall-clock guard,
//! so a run that would take hours or gigabytes fails the test instead of the machine.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use assert_cmd::Command;

/// What one limited run gave.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn refused(&self, needle: &str) {
        assert_eq!(
            self.code, 2,
            "stdout: {} stderr: {}",
            self.stdout, self.stderr
        );
        assert!(
            self.stderr.contains(needle),
            "expected {needle:?} in: {}",
            self.stderr
        );
        assert!(!self.stderr.contains("panicked"), "{}", self.stderr);
    }

    fn ok(&self) -> &str {
        assert_eq!(self.code, 0, "stderr: {}", self.stderr);
        &self.stdout
    }
}

/// Runs `solum args` under `memory` bytes of address space, 60 s of CPU and a 120 s wall
/// clock, with `stdin` as standard input.
fn limited(args: &[&str], memory: u64, stdin: Option<&Path>) -> Run {
    let bin = assert_cmd::cargo::cargo_bin("solum");
    let mut cmd = Command::new("prlimit");
    cmd.arg(format!("--as={memory}"))
        .arg("--cpu=60")
        .arg("--")
        .arg(bin)
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("SOLUM_CAMPAIGN")
        .timeout(Duration::from_secs(120));
    if let Some(path) = stdin {
        cmd.pipe_stdin(path).unwrap();
    }
    let out = cmd.output().expect("prlimit runs solum");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

const GIB: u64 = 1 << 30;

fn run(args: &str) -> Run {
    limited(&args.split_whitespace().collect::<Vec<_>>(), 2 * GIB, None)
}

/// A simulation is sized by its work (fights × the steps of a fight), not by its count: past
/// the budget it is refused at once, saying how many fights fit. Before, each of these ran
/// for minutes to hours (the wall-clock guard fails them).
#[test]
fn simulations_past_the_work_budget_are_refused_saying_what_fits() {
    // The README's old example: 10⁶ fights of 4 against 6 (6 s in a release build).
    run("sim --hero pool=3,hp=5,damage=2*4 --foe orc*6 --fights 1000000 --seed 1")
        .refused("simulate at most");
    // A count within the old limit of 10⁹ fights.
    run("sim --hero pool=3,hp=5,damage=2 --foe orc --fights 1000000000 --seed 1")
        .refused("simulate at most");
    // Few fights, but 400 fighters: the cost is the fighters, not the dice.
    run("sim --hero pool=1,hp=30,damage=1*200 --foe pool=1,hp=30*200 --fights 1000 --seed 1")
        .refused("simulate at most");
    // One fight alone past the pilot.
    run(
        "sim --hero pool=1000,hp=10000,damage=1*200 --foe pool=1000,hp=10000*200 --fights 1 --seed 1",
    )
    .refused("one fight alone");
    run("odds duel --pool 3 --hp 5 --damage 2 --foe-pool 4 --foe-hp 6 --foe-damage 3 --simulate 1000000000 --seed 1")
        .refused("simulate at most");
    run("odds duel --pool 1000 --hp 10000 --damage 1 --foe-pool 1000 --foe-hp 10000 --foe-damage 1 --simulate 1000 --seed 1")
        .refused("one fight alone");
}

/// What the budget allows runs to the end: the README's example as it now reads.
#[test]
fn a_simulation_within_the_budget_runs() {
    let out = run("sim --hero pool=3,hp=5,damage=2*4 --foe orc*6 --fights 100000 --seed 1 --json");
    let v: serde_json::Value = serde_json::from_str(out.ok()).unwrap();
    assert_eq!(v["fights"], 100_000);
    let out = run(
        "odds duel --pool 3 --hp 5 --damage 2 --foe-pool 4 --foe-hp 6 --foe-damage 3 --simulate 1000000 --seed 1",
    );
    assert!(out.ok().contains("over 1000000 duels"), "{}", out.stdout);
}

/// An export of `n` notes, dated one second apart.
fn export_of_notes(path: &Path, n: usize) {
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    write!(f, r#"{{"format":"solum-journal","schema":1,"entries":["#).unwrap();
    for i in 0..n {
        let sep = if i == 0 { "" } else { "," };
        write!(
            f,
            r#"{sep}{{"seq":{},"at":"2026-01-01T00:00:00Z","kind":"note","text":"note number {i} of the long campaign, with some words to give it a body"}}"#,
            i + 1
        )
        .unwrap();
    }
    write!(f, "]}}").unwrap();
}

/// Importing the most entries allowed (100,000) is streamed: it fits in 150 MiB of address
/// space. Before, the whole export, every record and every key was held at once (300 MB of
/// memory for these notes; it aborted under this limit).
#[test]
fn an_import_of_the_most_entries_runs_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("export.json");
    export_of_notes(&file, 100_000);
    let campaign = dir.path().join("c.solum");
    let c = campaign.to_str().unwrap();
    let f = file.to_str().unwrap();
    let out = limited(&["--campaign", c, "journal", "import", f], 150 << 20, None);
    assert_eq!(out.ok().trim(), "imported 100000 entries");
    // Again: every entry is found already there, still within the limit.
    let out = limited(&["--campaign", c, "journal", "import", f], 150 << 20, None);
    assert!(out.ok().contains("100000 were already"), "{}", out.stdout);
    let out = limited(
        &["--campaign", c, "journal", "show", "--last", "2"],
        150 << 20,
        None,
    );
    let lines: Vec<&str> = out.ok().lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(
        lines[0].starts_with("99999 ")
            && lines[0].ends_with(
                "note number 99998 of the long campaign, with some words to give it a body"
            ),
        "{lines:?}"
    );
    assert!(lines[1].starts_with("100000 "), "{lines:?}");
}

/// A bad entry anywhere refuses the whole import: nothing of the batches before it stays.
#[test]
fn a_streamed_import_is_still_all_or_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("export.json");
    export_of_notes(&file, 2_500);
    let text = std::fs::read_to_string(&file).unwrap();
    // Entry 2,400 (past two batches of 1,000) gets a control character.
    let bad = text.replace("note number 2399 of", "note number \\u0007 of");
    std::fs::write(&file, bad).unwrap();
    let campaign = dir.path().join("c.solum");
    let c = campaign.to_str().unwrap();
    let out = limited(
        &["--campaign", c, "journal", "import", file.to_str().unwrap()],
        2 * GIB,
        None,
    );
    out.refused("entry 2400");
    let out = limited(&["--campaign", c, "journal", "show"], 2 * GIB, None);
    assert_eq!(out.ok().trim(), "", "nothing was imported");
}

/// The number of `fsync` calls of `solum args` (with `stdin`), counted by strace (Debian's
/// `strace`, which `.ci/run` installs): a machine without it fails the test, saying why.
fn syncs(args: &[&str], stdin: &Path) -> u64 {
    try_syncs(args, stdin).expect(
        "strace must run here to count the disk syncs of a piped script \
         (apt-get install strace; .ci/run installs it)",
    )
}

fn try_syncs(args: &[&str], stdin: &Path) -> Option<u64> {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("strace.txt");
    let bin = assert_cmd::cargo::cargo_bin("solum");
    let status = std::process::Command::new("strace")
        .args(["-f", "-qq", "-c", "-e", "trace=fsync,fdatasync", "-o"])
        .arg(&report)
        .arg(bin)
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(std::fs::File::open(stdin).unwrap())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .ok()?;
    if !status.success() {
        return None;
    }
    let text = std::fs::read_to_string(report).ok()?;
    let total = text.lines().find(|l| l.trim_end().ends_with("total"))?;
    total.split_whitespace().nth(3)?.parse().ok()
}

/// A piped script is committed in groups: 600 notes take a few disk syncs, not one (or
/// more) per line as before (615 were counted on the old code).
#[test]
fn a_piped_script_is_committed_in_groups() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("script.txt");
    let text: String = (0..600).map(|i| format!("note line {i}\n")).collect();
    std::fs::write(&script, text).unwrap();
    let campaign = dir.path().join("c.solum");
    let c = campaign.to_str().unwrap();
    let n = syncs(&["--campaign", c, "play"], &script);
    // 600 lines are three groups of at most 256 (or more if the machine is slow: a group
    // also ends after 250 ms), each a commit of a few syncs.
    assert!(n < 100, "{n} syncs for 600 lines");
    let out = limited(
        &["--campaign", c, "journal", "show", "--last", "1"],
        2 * GIB,
        None,
    );
    assert!(
        out.ok().trim_end().ends_with("  line 599"),
        "{}",
        out.stdout
    );
}

/// Grouping keeps the meaning of a script: a refused line changes nothing, the lines
/// around it are kept, and lines run through the one-shot commands' own connection (`char`)
/// see what the group wrote before them.
#[test]
fn a_grouped_script_keeps_each_line_all_or_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("script.txt");
    std::fs::write(
        &script,
        "scene The chapel | find the bell\n\
         note before\n\
         end\n\
         end\n\
         note after\n\
         char new Nick --body 3 --mind 2 --charm 1 --background \"Acrobat Thief\" --weapon dagger\n\
         note last\n",
    )
    .unwrap();
    let campaign = dir.path().join("c.solum");
    let c = campaign.to_str().unwrap();
    let out = limited(&["--campaign", c, "play"], 2 * GIB, Some(&script));
    // The second `end` has no open scene: refused, named, and nothing else lost.
    out.refused("1 of 7 commands failed (commands 4)");
    let out = limited(&["--campaign", c, "journal", "show"], 2 * GIB, None);
    let shown = out.ok();
    let texts: Vec<&str> = shown
        .lines()
        .map(|l| l.split("  ").last().unwrap_or(""))
        .collect();
    assert_eq!(texts.len(), 6, "{shown}");
    assert!(
        shown.starts_with("    1  ") && shown.lines().next().unwrap().contains("Scene: The chapel"),
        "{shown}"
    );
    assert_eq!(texts[1], "before");
    assert_eq!(texts[2], "Scene ends");
    assert_eq!(texts[3], "after");
    assert!(texts[4].starts_with("Nick is created"), "{shown}");
    assert_eq!(texts[5], "last");
    let out = limited(&["--campaign", c, "journal", "verify"], 2 * GIB, None);
    assert!(out.ok().contains("6 entries"), "{}", out.stdout);
}

/// An export whose schema no solum wrote is refused, not read.
#[test]
fn an_import_with_a_schema_below_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("export.json");
    for schema in ["-1", "0"] {
        std::fs::write(
            &file,
            format!(r#"{{"format":"solum-journal","schema":{schema},"entries":[]}}"#),
        )
        .unwrap();
        let campaign = dir.path().join("c.solum");
        limited(
            &[
                "--campaign",
                campaign.to_str().unwrap(),
                "journal",
                "import",
                file.to_str().unwrap(),
            ],
            2 * GIB,
            None,
        )
        .refused("export schemas start at 1");
    }
}
