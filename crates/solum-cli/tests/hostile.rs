//! The hostile corpus: arguments, files and streams meant to break solum, run against the
//! real binary. Each must end within 10 seconds, under a memory cap, with exit 0 or 2 (and
//! a message on standard error for 2), never a panic (101) or a signal.

#![cfg(unix)]
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The address-space cap each run gets (`ulimit -v`, in KiB): 1 GiB. Reading /dev/zero
/// into memory would pass it within a second.
const MEMORY_KIB: u64 = 1 << 20;
const DEADLINE: Duration = Duration::from_secs(10);

/// What a case may end with.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Want {
    /// Exit 0.
    Ran,
    /// Exit 2 with a message.
    Bad,
}

/// Standard input of a case.
enum Input {
    Null,
    File(PathBuf),
}

/// A further check on (stdout, stderr): `Err` says what is wrong.
type Check = Box<dyn Fn(&str, &str) -> Result<(), String>>;

struct Case {
    args: Vec<String>,
    stdin: Input,
    want: Want,
    /// A further check on (stdout, stderr).
    check: Option<Check>,
}

struct Ended {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    took: Duration,
}

/// Runs the binary under the memory cap with colour forced on, so that anstream passes
/// escape sequences through and the escaping of names is what is tested.
fn run(args: &[String], stdin: &Input, stdout: Stdio) -> Ended {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("ulimit -v {MEMORY_KIB} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_solum"))
        .args(args)
        .env("CLICOLOR_FORCE", "1")
        .env_remove("NO_COLOR")
        .env("RUST_BACKTRACE", "0")
        .stdout(stdout)
        .stderr(Stdio::piped());
    match stdin {
        Input::Null => cmd.stdin(Stdio::null()),
        Input::File(p) => cmd.stdin(std::fs::File::open(p).expect("stdin file")),
    };
    let start = Instant::now();
    let mut child = cmd.spawn().expect("sh runs");
    // Read both pipes on threads so that a full pipe never stalls the child.
    let mut out = child.stdout.take();
    let mut err = child.stderr.take().expect("stderr");
    let out_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        if let Some(o) = out.as_mut() {
            let _ = o.take(1 << 20).read_to_end(&mut s);
        }
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = (&mut err).take(1 << 20).read_to_end(&mut s);
        s
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status);
        }
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let took = start.elapsed();
    Ended {
        code: status.and_then(|s| s.code()),
        stdout: String::from_utf8_lossy(&out_reader.join().unwrap()).into_owned(),
        stderr: String::from_utf8_lossy(&err_reader.join().unwrap()).into_owned(),
        took,
    }
}

fn case(args: &[&str], want: Want) -> Case {
    Case {
        args: args.iter().map(|s| s.to_string()).collect(),
        stdin: Input::Null,
        want,
        check: None,
    }
}

fn with_stdin(mut c: Case, stdin: Input) -> Case {
    c.stdin = stdin;
    c
}

fn checked(mut c: Case, check: impl Fn(&str, &str) -> Result<(), String> + 'static) -> Case {
    c.check = Some(Box::new(check));
    c
}

fn expect_in(
    stream: &'static str,
    needle: &'static str,
) -> impl Fn(&str, &str) -> Result<(), String> {
    move |out, err| {
        let text = if stream == "stdout" { out } else { err };
        if text.contains(needle) {
            Ok(())
        } else {
            Err(format!("{stream} lacks `{needle}`"))
        }
    }
}

const NICK: &str = "schema = 1\nname = \"Nick\"\nbody = 3\nmind = 2\ncharm = 1\nhit_points = 2\n";

fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(ok.success());
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The files and values the hostile cases are made of.
struct Corpus {
    /// Holds every file below; removed when the corpus goes.
    dir: tempfile::TempDir,
    fifo: PathBuf,
    big: PathBuf,
    garbage: PathBuf,
    evil: PathBuf,
    camp: PathBuf,
    huge_body: PathBuf,
    endless_backgrounds: PathBuf,
    bom_script: PathBuf,
    zeros_in_line: PathBuf,
    newlines: PathBuf,
    not_utf8: PathBuf,
    fifo_hero: PathBuf,
    dev_hero: PathBuf,
    sol_top: PathBuf,
    deep: String,
    long_name: String,
    m62: String,
}

const ZERO: &str = "/dev/zero";

#[test]
fn hostile_corpus() {
    let k = corpus();
    let mut cases = number_cases(&k);
    cases.extend(sheet_cases(&k));
    cases.extend(file_and_script_cases(&k));
    run_cases(&cases);
}

/// Writes the corpus' files (a FIFO, a 36 MB sheet of comments, garbage, an escape-laden
/// name, …) and imports Nick into a campaign.
fn corpus() -> Corpus {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fifo = d.join("fifo.toml");
    mkfifo(&fifo);
    // A 36 MB sheet of comments.
    let big = write(
        d,
        "big.toml",
        "# just a comment, over and over\n".repeat(36_000_000 / 32),
    );
    let garbage: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    let garbage = write(d, "garbage.toml", garbage);
    let evil = write(
        d,
        "evil.toml",
        NICK.replace("\"Nick\"", "\"Evil\\u001b[2J\\u0007\\u009b2J\"")
            + "notes = \"x\\u001b]0;pwned\\u0007\"\n",
    );
    let nick = write(d, "nick.toml", NICK);
    // Characters live in a campaign: Nick is imported from his sheet once.
    let camp = d.join("c.solum");
    let imported = run(
        &["char", "import", s(&nick), "--campaign", s(&camp)].map(String::from),
        &Input::Null,
        Stdio::piped(),
    );
    assert_eq!(imported.code, Some(0), "{}", imported.stderr);
    let huge_body = write(
        d,
        "huge.toml",
        NICK.replace("body = 3", "body = 4294967295"),
    );
    let endless_backgrounds = write(
        d,
        "backgrounds.toml",
        NICK.to_string() + "unnamed_backgrounds = 4294967295\n",
    );
    let bom_script = write(d, "bom.txt", "\u{feff}help\n");
    let zeros_in_line = write(d, "zeros.txt", [0u8; 100]);
    let newlines = write(d, "newlines.txt", "\n".repeat(2 << 20));
    let not_utf8 = write(d, "latin1.txt", b"hero Andr\xe9 pool=3 hp=5 damage=2\n");
    let fifo_hero = write(d, "fifo-hero.txt", "hero fifo.toml\n");
    let dev_hero = write(d, "dev-hero.txt", "hero /dev/zero\n");
    let sol_top = write(
        d,
        "ana.toml",
        "schema = 1\nname = \"Ana\"\ntrained_this_session = false\n[edge]\nattribute = 2\npoints = 2\n[attributes]\n[[skills]]\nname = \"Sidearms\"\nranks = 4294967295\nprogress = 0\n",
    );
    Corpus {
        fifo,
        big,
        garbage,
        evil,
        camp,
        huge_body,
        endless_backgrounds,
        bom_script,
        zeros_in_line,
        newlines,
        not_utf8,
        fifo_hero,
        dev_hero,
        sol_top,
        deep: "d/".repeat(3000) + "x.toml",
        long_name: "a".repeat(5000) + ".toml",
        m62: (1i64 << 62).to_string(),
        dir,
    }
}

/// Numbers: huge, negative, empty, garbage.
fn number_cases(k: &Corpus) -> Vec<Case> {
    use Want::{Bad, Ran};
    let m62 = &k.m62;
    vec![
        case(&["check", "99999999999999999999", "--vs", "2"], Bad),
        case(&["check", "-5", "--vs", "2"], Bad),
        case(&["check", "3", "--vs", ""], Bad),
        case(&["check", "3", "--vs", "ö\u{7}"], Bad),
        case(&["check", "3", "--against", "18446744073709551616"], Bad),
        case(&["check", "3", "--vs", "2", "--seed", "-1"], Bad),
        case(&["check", "3", "--vs", "2", "--rolled", ""], Bad),
        case(&["check", "3", "--vs", "2", "--rolled", "1,,2"], Bad),
        case(&["check", "3", "--vs", "2", "--rolled", ",1,2,3"], Bad),
        case(&["check", "3", "--vs", "2", "--rolled", "99999999999"], Bad),
        case(&["check", "3", "--vs", "2", "--rolled", "0"], Bad),
        case(&["check", "1000", "--vs", "1000", "--seed", "1"], Ran),
        case(&["odds", "check", "1000", "--against", "1000"], Ran),
        case(
            &[
                "roll",
                "sol",
                "--attribute",
                "3",
                "--ranks",
                "2",
                "--modifier",
                m62,
                "--modifier",
                m62,
            ],
            Bad,
        ),
        case(
            &[
                "roll",
                "sol",
                "--attribute",
                "9223372036854775807",
                "--ranks",
                "9223372036854775807",
            ],
            Bad,
        ),
        case(&["roll", "sol", "--dice", "9223372036854775807"], Bad),
        case(
            &[
                "roll",
                "sol",
                "--attribute",
                "3",
                "--ranks",
                "1",
                "--group",
                "1,,2",
            ],
            Bad,
        ),
        case(&["roll", "dietype", "d12", "--chances", "4294967295"], Bad),
        case(
            &[
                "odds",
                "soluna",
                "--dice",
                "40",
                "--flips",
                "-9223372036854775808",
            ],
            Bad,
        ),
        case(&["odds", "soluna", "--dice", "4294967295"], Bad),
        case(
            &[
                "odds",
                "classic",
                "duel",
                "--body",
                "4294967295",
                "--hp",
                "4294967295",
                "--foe-body",
                "6",
                "--foe-hp",
                "6",
            ],
            Bad,
        ),
        case(&["classic", "check", "4294967295", "--vs", "3"], Bad),
        case(
            &[
                "sim",
                "--hero",
                "pool=3,hp=5,damage=2",
                "--foe",
                "orc*4294967295",
                "--fights",
                "10",
            ],
            Bad,
        ),
        case(
            &["sim", "--hero", ",,,=", "--foe", "orc", "--fights", "10"],
            Bad,
        ),
        case(
            &[
                "sim",
                "--hero",
                "pool=3,hp=5,damage=2",
                "--foe",
                "orc",
                "--fights",
                "18446744073709551615",
            ],
            Bad,
        ),
        case(
            &[
                "static",
                "--pool",
                "3",
                "--hp",
                "4294967295",
                "--damage",
                "1",
                "--vs",
                "2",
                "--foe-hp",
                "4294967295",
                "--foe-damage",
                "1",
            ],
            Bad,
        ),
    ]
}

/// Character sheets: devices, pipes, directories, huge, garbage, bad paths; a campaign's
/// character given numbers out of range; names that would reach the terminal raw.
fn sheet_cases(k: &Corpus) -> Vec<Case> {
    use Want::{Bad, Ran};
    let zero = Path::new(ZERO);
    let (fifo, big, garbage, camp) = (&k.fifo, &k.big, &k.garbage, &k.camp);
    let (deep, long_name) = (&k.deep, &k.long_name);
    vec![
        case(&["char", "show", "--file", s(zero)], Bad),
        case(&["char", "show", "--file", s(fifo)], Bad),
        case(&["char", "show", "--file", s(k.dir.path())], Bad),
        case(&["char", "show", "--file", s(big)], Bad),
        case(&["char", "show", "--file", s(garbage)], Bad),
        case(&["char", "show", "--file", ""], Bad),
        case(&["char", "show", "--file", deep], Bad),
        case(&["char", "show", "--file", long_name], Bad),
        case(&["char", "show", "--file", s(&k.huge_body)], Bad),
        case(&["char", "show", "--file", s(&k.endless_backgrounds)], Bad),
        case(
            &[
                "char",
                "edit",
                "Nick",
                "--heal",
                "-1",
                "--campaign",
                s(camp),
            ],
            Bad,
        ),
        case(
            &[
                "char",
                "rest",
                "Nick",
                "--hours",
                "NaN",
                "--campaign",
                s(camp),
            ],
            Bad,
        ),
        case(
            &[
                "char",
                "rest",
                "Nick",
                "--hours",
                "1e308",
                "--campaign",
                s(camp),
            ],
            Bad,
        ),
        checked(
            case(
                &[
                    "char",
                    "edit",
                    "Nick",
                    "--heal",
                    "4294967295",
                    "--campaign",
                    s(camp),
                ],
                Ran,
            ),
            expect_in("stdout", "5/5"),
        ),
        // A name that would clear the screen and set the title is shown escaped.
        checked(
            case(&["char", "show", "--file", s(&k.evil)], Ran),
            |out, _| {
                if out.contains("\x1b[2J")
                    || out.contains("\x1b]")
                    || out.contains('\u{9b}')
                    || out.contains('\x07')
                {
                    Err("a raw control sequence reached the terminal".into())
                } else if !out.contains("Evil\\x1b[2J") {
                    Err("the escaped name is missing".into())
                } else {
                    Ok(())
                }
            },
        ),
        checked(
            case(&["char", "show", "--file", s(garbage)], Bad),
            |_, err| match err
                .chars()
                .find(|c| c.is_control() && !matches!(c, '\n' | '\t' | '\x1b'))
            {
                Some(c) => Err(format!("raw {c:?} in the error message")),
                None => Ok(()),
            },
        ),
    ]
}

/// Other files the commands load, and combat scripts from files and standard input.
fn file_and_script_cases(k: &Corpus) -> Vec<Case> {
    use Want::{Bad, Ran};
    let zero = Path::new(ZERO);
    let (fifo, big, long_name) = (&k.fifo, &k.big, &k.long_name);
    vec![
        case(&["classic", "show", s(fifo)], Bad),
        case(&["classic", "show", long_name], Bad),
        case(&["classic", "fight", s(fifo), "goblin", "--seed", "1"], Bad),
        case(&["soluna", "skirmish", s(fifo)], Bad),
        case(&["soluna", "skirmish", s(zero)], Bad),
        case(&["soluna", "skirmish", s(big)], Bad),
        case(&["sol", "show", "--file", s(fifo)], Bad),
        case(&["sol", "show", "--file", s(zero)], Bad),
        case(&["sol", "show", "--file", s(&k.sol_top)], Bad),
        case(
            &["sim", "--hero", s(fifo), "--foe", "orc", "--fights", "10"],
            Bad,
        ),
        case(&["combat", "--bestiary", s(zero)], Bad),
        case(&["combat", "--bestiary", s(fifo)], Bad),
        case(&["combat", "--bestiary", s(big)], Bad),
        // Combat scripts, from files and from standard input.
        case(&["combat", s(zero)], Bad),
        case(&["combat", s(fifo)], Bad),
        case(&["combat", s(big)], Bad),
        case(&["combat", s(&k.fifo_hero), "--seed", "1"], Bad),
        case(&["combat", s(&k.dev_hero), "--seed", "1"], Bad),
        case(&["combat", s(&k.not_utf8)], Bad),
        checked(
            case(&["combat", s(&k.bom_script), "--seed", "1"], Ran),
            expect_in("stdout", "setup:"),
        ),
        checked(
            with_stdin(
                case(&["combat", "--seed", "1"], Ran),
                Input::File(k.bom_script.clone()),
            ),
            expect_in("stdout", "setup:"),
        ),
        with_stdin(
            case(&["combat", "--seed", "1"], Bad),
            Input::File(zero.into()),
        ),
        with_stdin(
            case(&["combat", "--seed", "1"], Bad),
            Input::File(k.zeros_in_line.clone()),
        ),
        with_stdin(
            case(&["combat", "--seed", "1"], Bad),
            Input::File(k.newlines.clone()),
        ),
        with_stdin(
            case(&["combat", "--seed", "1"], Bad),
            Input::File(k.not_utf8.clone()),
        ),
        with_stdin(
            case(&["char", "new", "--campaign", s(&k.camp)], Bad),
            Input::File(zero.into()),
        ),
        // A line of zeros is refused at once with a message, instead of reading /dev/zero
        // forever or silently taking a default answer.
        with_stdin(
            case(
                &[
                    "classic", "fight", "goblin", "goblin", "--ask", "--seed", "6",
                ],
                Bad,
            ),
            Input::File(zero.into()),
        ),
    ]
}

/// Runs every case: each must end in time with its exit code, no panic, and pass its own
/// check.
fn run_cases(cases: &[Case]) {
    let mut failures = Vec::new();
    for c in cases {
        let ended = run(&c.args, &c.stdin, Stdio::piped());
        let shown = format!(
            "solum {}",
            c.args.join(" ").chars().take(120).collect::<String>()
        );
        let problem = match (ended.code, c.want) {
            (None, _) => Some(format!(
                "did not exit within {DEADLINE:?} (or died by a signal)"
            )),
            (Some(0), Want::Ran) => None,
            (Some(2), Want::Bad) if !ended.stderr.trim().is_empty() => None,
            (Some(code), want) => Some(format!("exit {code}, wanted {want:?}")),
        }
        .or_else(|| {
            ended
                .stderr
                .contains("panicked")
                .then(|| "a panic message".to_owned())
        })
        .or_else(|| {
            c.check
                .as_ref()
                .and_then(|f| f(&ended.stdout, &ended.stderr).err())
        });
        if let Some(p) = problem {
            failures.push(format!(
                "{shown}: {p} ({:?})\n  stderr: {}",
                ended.took,
                ended.stderr.trim()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// Files and streams that could be read forever are refused at once: within a second (two,
/// for a loaded test machine).
#[test]
fn endless_inputs_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("sheet.toml");
    mkfifo(&fifo);
    for (args, stdin) in [
        (vec!["char", "show", "--file", "/dev/zero"], Input::Null),
        (vec!["char", "show", "--file", s(&fifo)], Input::Null),
        (
            vec!["combat", "--seed", "1"],
            Input::File("/dev/zero".into()),
        ),
    ] {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let ended = run(&args, &stdin, Stdio::piped());
        assert_eq!(ended.code, Some(2), "{args:?}: {}", ended.stderr);
        assert!(
            ended.took < Duration::from_secs(2),
            "{args:?} took {:?}",
            ended.took
        );
    }
}

/// `solum completions bash | head -c 10`: the reader leaves after 10 bytes of 120 KB (more
/// than a pipe holds); solum ends quietly with exit 0.
#[test]
fn head_closing_the_pipe_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_solum"))
        .args(["completions", "bash"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 10];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The pipe's read end is closed here.
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

/// Every kind of output to a pipe whose reader is already gone: exit 0, nothing on
/// standard error (the first write fails, whatever the output's size).
#[test]
fn a_closed_pipe_ends_quietly() {
    for args in [
        &["completions", "bash"][..],
        &["man"],
        &["--help"],
        &["--version"],
        &["odds", "check", "3"],
        &["check", "3", "--vs", "2", "--seed", "1", "--json"],
        &["classic", "bestiary"],
        &["combat", "--help-lines"],
    ] {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let ended = run(&args, &Input::Null, Stdio::from(writer));
        assert_eq!(ended.code, Some(0), "{args:?}: {}", ended.stderr);
        assert!(ended.stderr.is_empty(), "{args:?}: {}", ended.stderr);
    }
}

/// Standard output on a full disk: one line on standard error and exit 1 (an I/O error),
/// never success and never a panic.
#[test]
fn a_full_stdout_is_an_error() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // Not Linux.
    };
    for args in [
        &["completions", "bash"][..],
        &["man"],
        &["--help"],
        &["--version"],
        &["check", "3", "--vs", "2", "--seed", "1"],
        &["odds", "check", "3"],
        &["classic", "bestiary"],
    ] {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let ended = run(&args, &Input::Null, Stdio::from(full.try_clone().unwrap()));
        assert_eq!(ended.code, Some(1), "{args:?}: {}", ended.stderr);
        assert_eq!(
            ended.stderr.lines().count(),
            1,
            "{args:?}: {}",
            ended.stderr
        );
        assert!(ended.stderr.contains("standard output"), "{}", ended.stderr);
    }
}
