//! One contract for `--json` and HTTP: `solum vehicle chase|attack … --json` prints exactly
//! what `POST /api/vehicles/{chase,attack}` of `solum serve` answers for the same inputs and
//! seed (the route adds only `seq`, its journal entry). The server rolls with a fresh seed
//! and says which; the command replays it with `--seed`. `--odds` prints what
//! `POST /api/vehicles/{chase,attack}/odds` answers, and `solum vehicle list --json` what
//! `GET /api/vehicles` answers.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::contract;

use contract::{cli, get, http, serve};
use std::process::Command;

#[test]
fn the_vehicle_commands_json_is_the_routes_json() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, addr, token) = serve(dir.path());

    let cases: [(&str, &str, &[&str]); 3] = [
        (
            "chase",
            r#"{"pilot":3,"vehicle":"tramp freighter","against_pilot":3,"against_vehicle":"starfighter"}"#,
            &[
                "--pilot",
                "3",
                "--vehicle",
                "tramp freighter",
                "--against-pilot",
                "3",
                "--against-vehicle",
                "starfighter",
            ],
        ),
        (
            "attack",
            r#"{"pilot":2,"handling":"responsive","against_pilot":4,"roll_off":true}"#,
            &[
                "--pilot",
                "2",
                "--handling",
                "responsive",
                "--against-pilot",
                "4",
                "--roll-off",
            ],
        ),
        (
            "chase",
            r#"{"pilot":1,"speed":"lightning-fast","against_pilot":1,"against_handling":"clumsy"}"#,
            &[
                "--pilot",
                "1",
                "--speed",
                "lightning-fast",
                "--against-pilot",
                "1",
                "--against-handling",
                "clumsy",
            ],
        ),
    ];
    for (kind, body, flags) in cases {
        let (status, mut answer) =
            http(&addr, &format!("/api/vehicles/{kind}"), Some(&token), body);
        assert!(status.contains("200"), "{kind} {body}: {status} {answer}");
        assert!(answer["seq"].as_i64().unwrap() > 0);
        answer.as_object_mut().unwrap().remove("seq");
        let seed = answer["seed"]
            .as_u64()
            .expect("the server rolled with a seed");
        let mut args = vec!["vehicle", kind];
        args.extend_from_slice(flags);
        let seed = seed.to_string();
        args.extend(["--seed", &seed, "--json"]);
        assert_eq!(cli(&args), answer, "{kind} {body}");

        // The odds alone: the same inputs, nothing rolled.
        let (status, odds) = http(
            &addr,
            &format!("/api/vehicles/{kind}/odds"),
            Some(&token),
            body,
        );
        assert!(
            status.contains("200"),
            "{kind} odds {body}: {status} {odds}"
        );
        assert_eq!(odds["p_win"], answer["p_win"], "{kind} {body}");
        let mut args = vec!["vehicle", kind];
        args.extend_from_slice(flags);
        args.extend(["--odds", "--json"]);
        assert_eq!(cli(&args), odds, "{kind} odds {body}");
    }

    // A refusal says the same rule on both: speed counts only in a chase.
    let (status, refused) = http(
        &addr,
        "/api/vehicles/attack",
        Some(&token),
        r#"{"pilot":3,"against_pilot":3,"against_speed":"fast"}"#,
    );
    assert!(status.contains("422"), "{status}");
    assert_eq!(refused["code"], "vehicle-speed-in-attack");
    let out = Command::new(assert_cmd::cargo::cargo_bin("solum"))
        .args([
            "vehicle",
            "attack",
            "--pilot",
            "3",
            "--against-pilot",
            "3",
            "--against-speed",
            "fast",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("--against-speed fast: speed counts only in a chase"),
        "{said}"
    );
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("against_speed fast: speed counts only in a chase"),
        "{refused}"
    );
}

#[test]
fn the_vehicle_lists_json_is_the_routes_json() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, addr, token) = serve(dir.path());
    let (status, answer) = get(&addr, "/api/vehicles", &token);
    assert!(status.contains("200"), "{status} {answer}");
    let names: Vec<&str> = answer["vehicles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"tramp freighter"), "{names:?}");
    assert_eq!(cli(&["vehicle", "list", "--json"]), answer);
}
