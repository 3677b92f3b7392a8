//! One contract for `--json` and HTTP, dice notation: `solum odds EXPR --json` prints exactly
//! what `POST /api/odds` answers, and `solum roll EXPR --seed S --json` what `POST /api/roll`
//! answered with seed `S`, with or without `--campaign` (only `seq`, the journal entry,
//! differs: `null` when the roll is journaled nowhere).
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::contract;

use contract::{cli, http, serve};
use serde_json::Value;

/// Expressions of every kind of term: plain dice, keep highest, a reroll with explosions
/// (a neglected tail), a label, and the So1um games' own terms.
const EXPRESSIONS: [&str; 6] = [
    "3d6",
    "4d6kh3",
    "d6r1!",
    "2d10 + 3 [fire]",
    "solum(3, vs 4)",
    "sol(5) + una(3)",
];

#[test]
fn the_odds_commands_json_is_the_routes_json() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, addr, token) = serve(dir.path());
    for expr in EXPRESSIONS {
        let body = serde_json::json!({ "expression": expr }).to_string();
        let (status, answer) = http(&addr, "/api/odds", Some(&token), &body);
        assert!(status.contains("200"), "{expr}: {status} {answer}");
        assert!(answer["values"].as_u64().unwrap() > 1, "{expr}: {answer}");
        assert_eq!(cli(&["odds", "--json", "--", expr]), answer, "{expr}");
    }
}

#[test]
fn the_roll_commands_json_is_the_routes_json_with_and_without_a_campaign() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, addr, token) = serve(dir.path());
    let other = dir.path().join("other.solum");
    let other = other.to_str().unwrap();
    for (i, expr) in EXPRESSIONS.iter().enumerate() {
        let body = serde_json::json!({ "expression": expr }).to_string();
        let (status, mut answer) = http(&addr, "/api/roll", Some(&token), &body);
        assert!(status.contains("200"), "{expr}: {status} {answer}");
        let seed = answer["seed"]
            .as_u64()
            .expect("the server rolled with a seed")
            .to_string();
        // Journaled in another campaign, the same roll is the same view but for its entry.
        let journaled = cli(&[
            "roll",
            "--seed",
            &seed,
            "--json",
            "--campaign",
            other,
            "--",
            expr,
        ]);
        assert_eq!(journaled["seq"], i as u64 + 1, "{expr}");
        assert_eq!(journaled["total"], answer["total"], "{expr}");
        let mut expected = answer.clone();
        expected["seq"] = journaled["seq"].clone();
        assert_eq!(journaled, expected, "{expr}");
        // Rolled once, it journals nothing: `seq` is null.
        answer["seq"] = Value::Null;
        assert_eq!(
            cli(&["roll", "--seed", &seed, "--json", "--", expr]),
            answer,
            "{expr}"
        );
    }
}
