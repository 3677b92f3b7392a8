//! One contract for `--json` and HTTP, for Sol'una: `solum soluna new`, `soluna test` and
//! `soluna skirmish start|status|act|go|abandon` print what `POST /api/soluna/characters`,
//! `POST /api/soluna/characters/{name}/test`, `POST /api/soluna/skirmish`,
//! `GET /api/soluna/skirmish`, `POST /api/soluna/skirmish/act`, `/go` and `/abandon` answer
//! for the same characters and the same dice.
//!
//! A table plays one skirmish at a time, so the command line plays in a campaign of its own
//! with the same characters, made by the same fields; the answers differ only in the journal
//! entry (`seq`), which is set aside. Where the server rolls with its own seed, the command
//! replays it with `--seed`.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::contract;

use contract::{aside, cli, get, http, post_ok, serve};
use serde_json::Value;

/// `solum ARGS --json --campaign OTHER`, without the journal entry.
fn other(campaign: &str, args: &[&str]) -> Value {
    let mut args = args.to_vec();
    args.extend(["--json", "--campaign", campaign]);
    aside(cli(&args))
}

/// Ana (side a, three melee dice, two flips) and Bo (side b) made on both front ends, the
/// answers compared.
fn characters(addr: &str, token: &str, campaign: &str) {
    let made = [
        (
            r#"{"name":"Ana","side":"a","mind":3,"body":2,"hit_points":3,"melee":3,"ranged":2,"flips":2}"#,
            ["Ana", "a", "3", "2", "3", "3", "2", "2"],
        ),
        (
            r#"{"name":"Bo","side":"b","mind":2,"body":2,"hit_points":2,"melee":2,"ranged":0,"flips":0}"#,
            ["Bo", "b", "2", "2", "2", "2", "0", "0"],
        ),
    ];
    for (body, [name, side, mind, b, hp, melee, ranged, flips]) in made {
        let (status, by_http) = http(addr, "/api/soluna/characters", Some(token), body);
        assert!(status.contains("201"), "{status} {by_http}");
        assert_eq!(by_http["characters"][0]["character"]["name"], name);
        let by_cli = other(
            campaign,
            &[
                "soluna",
                "new",
                name,
                "--side",
                side,
                "--mind",
                mind,
                "--body",
                b,
                "--hit-points",
                hp,
                "--melee",
                melee,
                "--ranged",
                ranged,
                "--flips",
                flips,
            ],
        );
        assert_eq!(by_cli, aside(by_http), "{name}");
    }
}

#[test]
fn a_soluna_test_answers_the_same_on_the_command_line_and_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, addr, token) = serve(dir.path());
    let campaign = dir.path().join("other.solum");
    let campaign = campaign.to_str().unwrap();
    characters(&addr, &token, campaign);

    // Three melee dice, one flip: 3 3 5, the 5 flipped to a 3 (U2): three 3s.
    let (status, by_http) = http(
        &addr,
        "/api/soluna/characters/Ana/test",
        Some(&token),
        r#"{"attack":"melee","flips":1,"typed":[3,3,5]}"#,
    );
    assert!(status.contains("200"), "{status} {by_http}");
    assert_eq!(by_http["result"]["largest"], 3);
    let by_cli = other(
        campaign,
        &[
            "soluna", "test", "Ana", "--attack", "melee", "--flips", "1", "--rolled", "3,3,5",
        ],
    );
    assert_eq!(by_cli, aside(by_http));
}

#[test]
fn a_played_skirmish_answers_the_same_on_the_command_line_and_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, addr, token) = serve(dir.path());
    let campaign = dir.path().join("other.solum");
    let campaign = campaign.to_str().unwrap();
    characters(&addr, &token, campaign);
    let post = |path: &str, body: &str| aside(post_ok(&addr, path, &token, body));

    // Bo played by the tactic; phase 4 waits for Ana. Nothing is rolled yet, with the seed
    // the server chose.
    let by_http = post(
        "/api/soluna/skirmish",
        r#"{"names":["Ana","Bo"],"auto":["b"]}"#,
    );
    assert_eq!(by_http["state"]["waiting"], serde_json::json!(["Ana"]));
    let seed = by_http["rolled"]["seed"].as_u64().unwrap().to_string();
    let by_cli = other(
        campaign,
        &[
            "soluna", "skirmish", "start", "Ana", "Bo", "--auto", "b", "--seed", &seed,
        ],
    );
    assert_eq!(by_cli, by_http);

    // Where it stands, with each option's odds.
    let (status, by_http) = get(&addr, "/api/soluna/skirmish", &token);
    assert!(status.contains("200"), "{status} {by_http}");
    assert_eq!(by_http["skirmish"]["skirmish"]["phase"], 4);
    let by_cli = other(campaign, &["soluna", "skirmish", "status"]);
    assert_eq!(by_cli, by_http);

    // Ana shoots with a flip: 5 5.
    let by_http = post(
        "/api/soluna/skirmish/act",
        r#"{"name":"Ana","action":"attack","target":"Bo","ranged":true,"flips":1,"typed":[5,5]}"#,
    );
    assert_eq!(
        by_http["events"][1]["test"]["rolled"],
        serde_json::json!([5, 5])
    );
    let by_cli = other(
        campaign,
        &[
            "soluna", "skirmish", "act", "Ana", "attack", "Bo", "--ranged", "--flips", "1",
            "--rolled", "5,5",
        ],
    );
    assert_eq!(by_cli, by_http);

    let by_http = post("/api/soluna/skirmish/abandon", "{}");
    assert!(by_http["sheets"].is_array(), "{by_http}");
    let by_cli = other(campaign, &["soluna", "skirmish", "abandon"]);
    assert_eq!(by_cli, by_http);

    // Both played by the tactic: Ana's shot (5 5) ends phase 4 and the typed dice, so the
    // skirmish waits for dice; `go` rolls on: Bo closes in, Ana strikes 6 6 1.
    let by_http = post(
        "/api/soluna/skirmish",
        r#"{"names":["Ana","Bo"],"auto":["a","b"],"typed":[5,5]}"#,
    );
    assert_eq!(by_http["state"]["ready"], true);
    let by_cli = other(
        campaign,
        &[
            "soluna", "skirmish", "start", "Ana", "Bo", "--auto", "a", "--auto", "b", "--rolled",
            "5,5",
        ],
    );
    assert_eq!(by_cli, by_http);
    let by_http = post("/api/soluna/skirmish/go", r#"{"typed":[6,6,1]}"#);
    assert_eq!(by_http["state"]["skirmish"]["phase"], 10);
    let by_cli = other(campaign, &["soluna", "skirmish", "go", "--rolled", "6,6,1"]);
    assert_eq!(by_cli, by_http);
    let by_http = post("/api/soluna/skirmish/abandon", "{}");
    let by_cli = other(campaign, &["soluna", "skirmish", "abandon"]);
    assert_eq!(by_cli, by_http);
}
