//! So1um Expanded characters in the campaign, end to end: names are keys and never paths,
//! import and export with the safe write, checks rolled from a sheet, and many processes
//! changing one character at once. Expected values come from the rules text (S1, S8, S9) and
//! hand counts, never from the program's own output.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{Run, solum_args};

/// Nick of the text, with the thieves' tools and a rope.
const NICK: &str = r#"
schema = 1
name = "Nick"
body = 3
mind = 2
charm = 1
backgrounds = ["Acrobat Thief", "Quick-Witted Rogue"]
hit_points = 5
weapons = [{ name = "dagger", class = "light" }]
gear = [{ name = "thieves' tools", effect = "reroll" }, { name = "rope", effect = "enables" }]
"#;

/// Body 2 in plate (too heavy: it needs Body 3) with a maul (heavy: Body below 3).
const RIPPER: &str = r#"
schema = 1
name = "Ripper"
body = 2
mind = 3
charm = 1
backgrounds = ["Brawler"]
hit_points = 8
weapons = [{ name = "maul", class = "heavy" }]
armor = { name = "plate", class = "heavy" }
"#;

struct Table {
    dir: tempfile::TempDir,
    campaign: PathBuf,
}

impl Table {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let campaign = dir.path().join("c.solum");
        Self { dir, campaign }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// `solum ARGS --campaign FILE`.
    fn run(&self, args: &[&str]) -> Run {
        let mut all = args.to_vec();
        all.extend(["--campaign", self.campaign.to_str().unwrap()]);
        solum_args(&all)
    }

    fn import(&self, sheet: &str) {
        let file = self.path("import.toml");
        std::fs::write(&file, sheet).unwrap();
        self.run(&["char", "import", file.to_str().unwrap()]).ok();
    }

    fn journal_entries(&self) -> u64 {
        let v = self.run(&["journal", "verify", "--json"]).json();
        assert_eq!(v["mismatches"].as_array().unwrap().len(), 0, "{v}");
        v["entries"].as_u64().unwrap()
    }

    fn sheet(&self, name: &str) -> serde_json::Value {
        self.run(&["char", "show", name, "--json"]).json()["character"].clone()
    }
}

fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// `char new /etc/passwd` and `char new ../x` store characters of those names and write no
/// file: not the path named, not NAME.toml here or one folder up.
#[test]
fn a_name_is_a_key_never_a_path() {
    let t = Table::new();
    let work = t.path("work");
    std::fs::create_dir(&work).unwrap();
    let passwd_before = std::fs::read("/etc/passwd").ok();
    for name in ["/etc/passwd", "../x", "../../x.toml", "a/b"] {
        let out = Command::new(env!("CARGO_BIN_EXE_solum"))
            .args([
                "char",
                "new",
                name,
                "--body",
                "3",
                "--mind",
                "2",
                "--charm",
                "1",
                "-b",
                "Thief",
                "--weapon",
                "dagger",
                "--seed",
                "1",
                "--campaign",
            ])
            .arg(&t.campaign)
            .current_dir(&work)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert_eq!(std::fs::read("/etc/passwd").ok(), passwd_before);
    assert!(!Path::new("/etc/passwd.toml").exists());
    assert_eq!(std::fs::read_dir(&work).unwrap().count(), 0);
    let mut beside: Vec<String> = std::fs::read_dir(t.dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| !n.starts_with("c.solum"))
        .collect();
    beside.sort();
    assert_eq!(beside, ["work"]);
    // The names are there, as names.
    assert_eq!(t.sheet("/etc/passwd")["name"], "/etc/passwd");
    assert_eq!(t.sheet("../x")["name"], "../x");
    let list = t.run(&["char", "list", "--json"]).json();
    assert_eq!(list.as_array().unwrap().len(), 4);
}

#[test]
fn import_export_and_replace() {
    let t = Table::new();
    let file = t.path("nick.toml");
    std::fs::write(&file, NICK).unwrap();
    let f = file.to_str().unwrap();
    let v = t.run(&["char", "import", f, "--json"]).json();
    assert_eq!(v["sheet"]["character"]["hit_points"], 5);
    assert_eq!(v["sheet"]["version"], 1);
    // A name already used is refused unless --replace.
    t.run(&["char", "import", f]).bad_input("--replace");
    std::fs::write(&file, NICK.replace("hit_points = 5", "hit_points = 2")).unwrap();
    let v = t.run(&["char", "import", f, "--replace", "--json"]).json();
    assert_eq!(v["sheet"]["version"], 2);
    assert_eq!(t.sheet("nick")["hit_points"], 2);
    assert_eq!(t.journal_entries(), 2);

    // Export to standard output: the TOML that import reads, the same sheet.
    let text = t.run(&["char", "export", "Nick"]).ok().to_owned();
    let back: toml::Value = toml::from_str(&text).unwrap();
    assert_eq!(back["hit_points"].as_integer(), Some(2));
    assert_eq!(back["gear"].as_array().unwrap().len(), 2);

    // --out: a new file; an existing one only with --force, keeping its permissions.
    let out = t.path("out.toml");
    let o = out.to_str().unwrap();
    t.run(&["char", "export", "Nick", "--out", o]).ok();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    std::fs::write(&out, "mine").unwrap();
    t.run(&["char", "export", "Nick", "--out", o])
        .bad_input("already exists");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "mine");
    set_mode(&out, 0o640);
    t.run(&["char", "export", "Nick", "--out", o, "--force"])
        .ok();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    assert_eq!(mode(&out), 0o640);
    // Read-only: refused, not made writable.
    std::fs::write(&out, "kept").unwrap();
    set_mode(&out, 0o444);
    t.run(&["char", "export", "Nick", "--out", o, "--force"])
        .bad_input("read-only");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "kept");
    assert_eq!(mode(&out), 0o444);
    // Not a regular file: refused before anything is written (a FIFO would block a write).
    let fifo = t.path("pipe");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    t.run(&[
        "char",
        "export",
        "Nick",
        "--out",
        fifo.to_str().unwrap(),
        "--force",
    ])
    .bad_input("not a regular file");
    t.run(&[
        "char",
        "export",
        "Nick",
        "--out",
        t.dir.path().to_str().unwrap(),
        "--force",
    ])
    .bad_input("not a regular file");
    // No temporary file is left anywhere.
    let mut names: Vec<String> = std::fs::read_dir(t.dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| !n.starts_with("c.solum"))
        .collect();
    names.sort();
    assert_eq!(names, ["nick.toml", "out.toml", "pipe"]);
    t.run(&["char", "export", "Nobody"]).bad_input("Nobody");
}

/// S1 from the sheet: Body 3 + one background = 4 dice; difficulty 5 passes unless all four
/// dice show 1 to 4: 1 − (4/6)^4 = 65/81.
#[test]
fn a_check_from_the_sheet_shows_exact_odds_and_is_journaled() {
    let t = Table::new();
    t.import(NICK);
    let v = t
        .run(&[
            "check",
            "--char",
            "nick",
            "--attr",
            "body",
            "--background",
            "acrobat thief",
            "--vs",
            "5",
            "--rolled",
            "4,3,2,1",
            "--json",
        ])
        .json();
    assert_eq!(v["inputs"]["pool"], 4);
    assert_eq!(v["inputs"]["check"]["background"], "Acrobat Thief");
    assert_eq!(v["odds"]["pass_exact"], "65/81");
    assert_eq!(v["result"]["passed"], false);
    assert_eq!(v["rolled"]["typed"], true);
    // The text shows the odds before the dice.
    let text = t
        .run(&[
            "check",
            "--char",
            "Nick",
            "--attr",
            "body",
            "-b",
            "Acrobat Thief",
            "--vs",
            "5",
            "--rolled",
            "6,3,2,1",
        ])
        .ok()
        .to_owned();
    let odds = text.find("chance to pass 80.25%").expect(&text);
    let dice = text.find("6 3 2 1").expect(&text);
    assert!(odds < dice, "{text}");
    assert!(text.contains("PASSED"), "{text}");
    // The thieves' tools reroll the lowest die once when that can change the outcome: Mind 2
    // against 5 with 2 and 1: the 1 is rerolled to a 5. P = 1 − (4/6)^2 · (4/6) = 19/27.
    let v = t
        .run(&[
            "check",
            "--char",
            "Nick",
            "--attr",
            "mind",
            "--gear",
            "thieves' tools",
            "--vs",
            "5",
            "--rolled",
            "2,1,5",
            "--json",
        ])
        .json();
    assert_eq!(v["inputs"]["gear_reroll"], true);
    assert_eq!(v["odds"]["pass_exact"], "19/27");
    assert_eq!(v["result"]["own"]["reroll"], serde_json::json!([1, 1, 5]));
    assert_eq!(v["result"]["passed"], true);
    // A seed replays the same dice.
    let a = t
        .run(&[
            "check", "--char", "Nick", "--attr", "charm", "--vs", "4", "--seed", "9", "--json",
        ])
        .json();
    let b = t
        .run(&[
            "check", "--char", "Nick", "--attr", "charm", "--vs", "4", "--seed", "9", "--json",
        ])
        .json();
    assert_eq!(a["rolled"], b["rolled"]);
    assert_eq!(a["rolled"]["seed"], 9);
    // Opposed: 3 dice against 1; typed dice in the order the roll draws them.
    let v = t
        .run(&[
            "check",
            "--char",
            "Nick",
            "--attr",
            "body",
            "--against",
            "1",
            "--rolled",
            "5,3,2,4",
            "--json",
        ])
        .json();
    assert_eq!(v["result"]["verdict"], "win");
    // Six checks journaled, each re-derived by verify.
    assert_eq!(t.journal_entries(), 1 + 6);
}

/// S1's penalties come from the sheet: plate too heavy for Body 2 (−1) on every check, and
/// the maul (heavy, Body below 3: −1) when attacking with it; never below one die.
#[test]
fn penalties_come_from_the_sheet() {
    let t = Table::new();
    t.import(RIPPER);
    let v = t
        .run(&[
            "check", "--char", "Ripper", "--attr", "mind", "--vs", "4", "--seed", "1", "--json",
        ])
        .json();
    assert_eq!(v["inputs"]["armor_too_heavy"], true);
    assert_eq!(v["inputs"]["pool"], 2);
    // 2 dice against 4: 1 − (3/6)^2.
    assert_eq!(v["odds"]["pass_exact"], "3/4");
    let v = t
        .run(&[
            "check", "--char", "Ripper", "--attr", "body", "--weapon", "maul", "--vs", "4",
            "--seed", "1", "--json",
        ])
        .json();
    assert_eq!(v["inputs"]["heavy_weapon_weak"], true);
    // 2 − 1 − 1 = 0, at least 1 die: 3/6.
    assert_eq!(v["inputs"]["pool"], 1);
    assert_eq!(v["odds"]["pass_exact"], "1/2");
    // The pool flags a sheet knows itself are refused beside --char, and what the sheet does
    // not have is named.
    t.run(&[
        "check",
        "--char",
        "Ripper",
        "--attr",
        "body",
        "--vs",
        "4",
        "--armor-too-heavy",
    ])
    .bad_input("cannot be used with");
    t.run(&[
        "check",
        "--char",
        "Ripper",
        "--attr",
        "body",
        "--vs",
        "4",
        "--background",
        "Pilot",
    ])
    .bad_input("--background: Ripper has no background `Pilot`");
    t.run(&[
        "check", "--char", "Ripper", "--attr", "body", "--vs", "4", "-b",
    ])
    .bad_input("--background: name the sheet's one");
    t.run(&[
        "check", "--char", "Ripper", "--attr", "body", "--vs", "4", "--weapon", "bow",
    ])
    .bad_input("--weapon: Ripper carries no `bow`");
    t.run(&["check", "--char", "Ripper", "--attr", "luck", "--vs", "4"])
        .bad_input("--attr");
    t.run(&["check", "--char", "Nobody", "--attr", "body", "--vs", "4"])
        .bad_input("no character named Nobody");
    t.run(&[
        "check",
        "--char",
        "Ripper",
        "--attr",
        "body",
        "--vs",
        "4",
        "--roll-off",
    ])
    .bad_input("--roll-off");
    t.run(&[
        "check", "--char", "Ripper", "--attr", "body", "--vs", "4", "--rolled", "3", "--seed", "2",
    ])
    .bad_input("--seed 2");
    t.run(&[
        "check", "--char", "Ripper", "--attr", "body", "--vs", "4", "--rolled", "3,3",
    ])
    .bad_input("too many values in --rolled");
    // A check that keeps nothing is run without the campaign (it refuses --campaign).
    solum_args(&["check", "3", "--vs", "4", "--background", "Brawler"])
        .bad_input("only with --char or --sheet");
    // Refusals journal nothing: the import and the two checks.
    assert_eq!(t.journal_entries(), 3);
}

/// `check --sheet FILE` and `char show --file FILE` read a sheet without a campaign and
/// change nothing.
#[test]
fn a_sheet_file_is_only_read() {
    let t = Table::new();
    let file = t.path("nick.toml");
    std::fs::write(&file, NICK).unwrap();
    set_mode(&file, 0o444);
    let f = file.to_str().unwrap();
    // Without a campaign: a check from a sheet file keeps nothing (it refuses --campaign).
    let v = solum_args(&[
        "check",
        "--sheet",
        f,
        "--attr",
        "body",
        "-b",
        "Acrobat Thief",
        "--vs",
        "5",
        "--rolled",
        "4,3,2,1",
        "--json",
    ])
    .json();
    assert_eq!(v["odds"]["pass_exact"], "65/81");
    assert!(v.get("seq").is_none(), "{v}");
    let v = t.run(&["char", "show", "--file", f, "--json"]).json();
    assert_eq!(v["max_hit_points"], 5);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), NICK);
    assert_eq!(mode(&file), 0o444);
    assert!(!t.campaign.exists(), "no campaign was created");
}

/// Starts `n` processes of `solum ARGS(k) --campaign FILE` at once and waits for them all.
fn at_once(t: &Table, n: usize, args: impl Fn(usize) -> Vec<String>) -> Vec<Run> {
    let children: Vec<_> = (0..n)
        .map(|k| {
            Command::new(env!("CARGO_BIN_EXE_solum"))
                .args(args(k))
                .arg("--campaign")
                .arg(&t.campaign)
                .env("NO_COLOR", "1")
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    children
        .into_iter()
        .map(|c| {
            let out = c.wait_with_output().unwrap();
            Run {
                code: out.status.code().unwrap_or(-1),
                stdout: String::from_utf8(out.stdout).unwrap(),
                stderr: String::from_utf8(out.stderr).unwrap(),
            }
        })
        .collect()
}

/// A failure under contention must say the campaign was busy (exit 1), nothing else.
fn busy_or_ok(run: &Run) -> bool {
    if run.code == 0 {
        return true;
    }
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("busy"), "{}", run.stderr);
    false
}

/// 50 processes each add their own background to one sheet at once: every acknowledged edit
/// is on the sheet once, and journaled once; a refused one (busy) changed nothing.
#[test]
fn fifty_edits_at_once_all_land() {
    let t = Table::new();
    t.import(NICK);
    let runs = at_once(&t, 50, |k| {
        [
            "char",
            "edit",
            "Nick",
            "--add-background",
            &format!("bg{k}"),
            "--correction",
        ]
        .map(String::from)
        .to_vec()
    });
    let acknowledged: Vec<usize> = (0..50).filter(|&k| busy_or_ok(&runs[k])).collect();
    let sheet = t.sheet("Nick");
    let backgrounds: Vec<String> = sheet["backgrounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_str().unwrap().to_owned())
        .collect();
    for (k, run) in runs.iter().enumerate() {
        let n = backgrounds
            .iter()
            .filter(|b| **b == format!("bg{k}"))
            .count();
        let want = usize::from(acknowledged.contains(&k));
        assert_eq!(n, want, "bg{k}: {n} on the sheet, exit {}", run.code);
    }
    assert_eq!(backgrounds.len(), 2 + acknowledged.len());
    // One entry per acknowledged edit, after the import.
    assert_eq!(t.journal_entries(), 1 + acknowledged.len() as u64);
    // On an unloaded machine the busy timeout is never reached: all 50 land.
    eprintln!("{} of 50 edits acknowledged", acknowledged.len());
}

/// 50 rests of 8 hours at once on Nick at 1 of 5 hit points: S8 heals 1 a half hour up to the
/// maximum, so the first rest to run heals 4 and every later one 0. A lost update would let
/// two rests each heal 4 from the same sheet.
#[test]
fn fifty_rests_at_once_heal_exactly_what_they_report() {
    let t = Table::new();
    t.import(&NICK.replace("hit_points = 5", "hit_points = 1"));
    let runs = at_once(&t, 50, |_| {
        ["char", "rest", "Nick", "--hours", "8", "--json"]
            .map(String::from)
            .to_vec()
    });
    let mut healed = 0;
    let mut acknowledged = 0;
    for run in &runs {
        if busy_or_ok(run) {
            acknowledged += 1;
            let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
            healed += v["healed"].as_u64().unwrap();
        }
    }
    assert!(acknowledged > 0);
    assert_eq!(healed, 4);
    assert_eq!(t.sheet("Nick")["hit_points"], 5);
    assert_eq!(t.journal_entries(), 1 + acknowledged);
}

/// `solum play` takes `char list`, `char show NAME` and `check --char …` lines, parsed by the
/// one-shot command's own definition and journaled in the session's campaign.
#[test]
fn play_lines_show_characters_and_roll_from_a_sheet() {
    let t = Table::new();
    t.import(NICK);
    let out = Command::new(env!("CARGO_BIN_EXE_solum"))
        .args(["play", "--campaign"])
        .arg(&t.campaign)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(
                b"char list\nchar show \"nick\"\ncheck --char Nick --attr body -b \"Acrobat Thief\" --vs 5 --rolled 4,3,2,1\ncheck --char Nick --attr body --vs 4 --campaign x.solum\ncheck 3 --vs 4\n",
            )?;
            child.wait_with_output()
        })
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stdout.contains("Nick") && stdout.contains("hit points 5/5"),
        "{stdout}"
    );
    assert!(
        stdout.contains("backgrounds: Acrobat Thief; Quick-Witted Rogue"),
        "{stdout}"
    );
    // 4 dice against 5: 65/81 = 80.25%.
    assert!(
        stdout.contains("4 dice vs 5   chance to pass 80.25%"),
        "{stdout}"
    );
    assert!(stdout.contains("FAILED"), "{stdout}");
    assert!(
        stderr.contains("the session's campaign is used"),
        "{stderr}"
    );
    assert!(stderr.contains("roll from a character"), "{stderr}");
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(!t.path("x.solum").exists());
    // The import and the one check.
    assert_eq!(t.journal_entries(), 2);
}

/// `journal export --output` goes through the same safe write: a new file only, never a
/// directory or a FIFO, and an existing file is kept.
#[test]
fn journal_export_writes_through_the_safe_write() {
    let t = Table::new();
    t.import(NICK);
    let out = t.path("story.md");
    let o = out.to_str().unwrap();
    t.run(&["journal", "export", "--output", o]).ok();
    let story = std::fs::read_to_string(&out).unwrap();
    assert!(story.contains("Nick joins the campaign"), "{story}");
    std::fs::write(&out, "mine").unwrap();
    t.run(&["journal", "export", "--output", o])
        .bad_input("already exists");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "mine");
    let fifo = t.path("pipe");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    t.run(&["journal", "export", "--output", fifo.to_str().unwrap()])
        .bad_input("not a regular file");
}
