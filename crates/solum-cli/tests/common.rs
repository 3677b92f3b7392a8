//! A small driver for the real `solum` binary, so each end-to-end test reads like a spec.

#![allow(dead_code)]

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
    let output = Command::cargo_bin("solum")
        .expect("the solum binary is built")
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .output()
        .expect("solum runs");
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
