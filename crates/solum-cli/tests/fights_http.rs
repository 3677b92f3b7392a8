//! One contract for `--json` and HTTP, for the Expanded fights: a one-shot `solum combat
//! SCRIPT --json` prints, line by line, what `POST /api/combat/line` of `solum serve`
//! answers for the same lines (the one combat tracker: a one-shot is the app's combat over
//! an in-memory store), and `solum sim … --json` prints what `POST /api/fight/odds` answers
//! for the same fighters, fights and seed. Only `seq`, the journal entry, differs.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::contract;

use contract::{aside, cli, http, serve};
use serde_json::Value;
use std::process::Command;

/// The JSON lines `solum ARGS` prints, the command having succeeded.
fn cli_lines(args: &[&str]) -> Vec<Value> {
    let out = Command::new(assert_cmd::cargo::cargo_bin("solum"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "solum {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_one_shot_combats_json_is_the_combat_routes_json() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, addr, token) = serve(dir.path());
    // Dice typed by hand (a game master alone at the table may type them), so the server's
    // fresh seeds roll nothing: the lines give the same events on both.
    let lines = [
        "hero Osric pool=2 hp=5 damage=2 mind=1",
        "foe orc",
        "place Osric orc engaged",
        "order Osric orc",
        // S7: a move while engaged is a disengage, a d6: odd, held.
        "move away orc with 3",
        "end",
        "move away Osric with 4",
    ];
    let script = dir.path().join("fight.txt");
    std::fs::write(&script, format!("# the fight\n{}\n", lines.join("\n"))).unwrap();
    let printed = cli_lines(&["combat", script.to_str().unwrap(), "--json"]);
    assert_eq!(printed.len(), lines.len(), "one view per line played");

    let (status, _) = http(&addr, "/api/combat", Some(&token), "{}");
    assert!(status.contains("201"), "{status}");
    for (line, printed) in lines.iter().zip(printed) {
        let body = serde_json::json!({ "line": line }).to_string();
        let (status, answer) = http(&addr, "/api/combat/line", Some(&token), &body);
        assert!(status.contains("200"), "{line}: {status} {answer}");
        assert_eq!(aside(printed), aside(answer), "{line}");
    }
}

#[test]
fn the_simulations_json_is_the_fight_odds_routes_json() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, addr, token) = serve(dir.path());
    // Nick made at the table; the command reads the same sheet from a file.
    let nick = serde_json::json!({
        "name": "Nick",
        "body": 3, "mind": 2, "charm": 1,
        "backgrounds": ["Sailor"],
        "weapon": { "name": "dagger", "class": "light" },
        "armor_name": "leather"
    });
    let (status, made) = http(&addr, "/api/characters", Some(&token), &nick.to_string());
    assert!(status.contains("201"), "{status} {made}");
    let sheet: solum_app::Character =
        serde_json::from_value(made["sheet"]["character"].clone()).unwrap();
    let file = dir.path().join("nick.toml");
    std::fs::write(&file, toml::to_string(&sheet).unwrap()).unwrap();

    let body = r#"{"heroes":["Nick"],"foes":[{"name":"orc","count":2}],"fights":300,"seed":11}"#;
    let (status, answer) = http(&addr, "/api/fight/odds", Some(&token), body);
    assert!(status.contains("200"), "{status} {answer}");
    let printed = cli(&[
        "sim",
        "--hero",
        file.to_str().unwrap(),
        "--foe",
        "orc*2",
        "--fights",
        "300",
        "--seed",
        "11",
        "--json",
    ]);
    assert_eq!(printed, answer);
    // The figures are the fight's, not a constant: 300 fights, each decided or not.
    let total = ["wins", "losses", "undecided"]
        .iter()
        .map(|k| answer[k].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(total, 300);
    assert_eq!(
        answer["names"],
        serde_json::json!(["Nick", "orc-1", "orc-2"])
    );
}
