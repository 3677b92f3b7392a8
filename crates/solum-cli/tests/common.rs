//! A small driver for the real `solum` binary, so each end-to-end test reads like a spec.

#![allow(dead_code)]
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use assert_cmd::Command;
use serde_json::Value;

/// What one run of the binary gave.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `solum` with `args` (split on spaces), colour off.
pub fn solum(args: &str) -> Run {
    solum_args(&args.split_whitespace().collect::<Vec<_>>())
}

/// Runs `solum` with exact arguments.
pub fn solum_args(args: &[&str]) -> Run {
    run(args, None)
}

/// How long a run may take before it counts as a hang and is killed. Generous on purpose:
/// how fast a run is gets measured by the benchmarks, never by a test on a loaded machine;
/// a test only checks that hostile input ends.
pub const HANG: std::time::Duration = std::time::Duration::from_secs(120);

/// [`solum`], killed and failed if it runs past [`HANG`].
pub fn solum_ends(args: &str) -> Run {
    solum_args_end(&args.split_whitespace().collect::<Vec<_>>())
}

/// [`solum_args`], killed and failed if it runs past [`HANG`].
pub fn solum_args_end(args: &[&str]) -> Run {
    let run = run(args, Some(HANG));
    assert!(
        run.code >= 0,
        "`solum {}` was killed after {HANG:?} (a hang): {}",
        args.join(" "),
        run.stderr
    );
    run
}

/// Waits for `child` to end and returns what it wrote; fails (after killing it) if it runs
/// past [`HANG`].
pub fn ended(mut child: std::process::Child) -> std::process::Output {
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > HANG {
            let _ = child.kill();
            panic!(
                "killed after {HANG:?} (a hang): {:?}",
                child.wait_with_output()
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn run(args: &[&str], hang: Option<std::time::Duration>) -> Run {
    let mut cmd = Command::cargo_bin("solum").expect("the solum binary is built");
    cmd.args(args)
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE");
    if let Some(hang) = hang {
        cmd.timeout(hang);
    }
    let output = cmd.output().expect("solum runs");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8(output.stdout).expect("utf-8 stdout"),
        stderr: String::from_utf8(output.stderr).expect("utf-8 stderr"),
    }
}

impl Run {
    /// Asserts success and parses stdout as one JSON object.
    pub fn json(&self) -> Value {
        assert_eq!(self.code, 0, "stderr: {}", self.stderr);
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("{e}: {}", self.stdout))
    }

    /// Asserts bad input: exit 2, no panic, a message that contains `needle`.
    pub fn bad_input(&self, needle: &str) {
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

    /// Asserts success and returns stdout.
    pub fn ok(&self) -> &str {
        assert_eq!(self.code, 0, "stderr: {}", self.stderr);
        &self.stdout
    }
}

/// A JSON number as f64.
pub fn num(v: &Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("{key} is not a number in {v}"))
}

/// Runs the real `solum` in `dir` under `prlimit` (2 GiB of address space, 30 s of CPU) and
/// a 60 s wall-clock timeout, colour off: a hostile input that hangs, eats memory or
/// panics fails the test instead of the machine.
pub fn bounded(dir: &std::path::Path, args: &[&str]) -> Run {
    bounded_with(dir, args, false)
}

/// [`bounded`] with colour forced on (`CLICOLOR_FORCE=1`), to see what reaches a terminal.
pub fn bounded_in_colour(dir: &std::path::Path, args: &[&str]) -> Run {
    bounded_with(dir, args, true)
}

fn bounded_with(dir: &std::path::Path, args: &[&str], colour: bool) -> Run {
    let mut cmd = Command::new("prlimit");
    cmd.arg("--as=2147483648")
        .arg("--cpu=30")
        .arg("--")
        .arg(env!("CARGO_BIN_EXE_solum"))
        .args(args)
        .current_dir(dir)
        .env_remove("SOLUM_CAMPAIGN")
        .timeout(std::time::Duration::from_secs(60));
    if colour {
        cmd.env("CLICOLOR_FORCE", "1").env_remove("NO_COLOR");
    } else {
        cmd.env("NO_COLOR", "1").env_remove("CLICOLOR_FORCE");
    }
    let output = cmd.output().expect("prlimit runs solum");
    let run = Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    };
    assert!(
        run.code >= 0,
        "killed (a hang past the timeout, or a limit): {}",
        run.stderr
    );
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    run
}
