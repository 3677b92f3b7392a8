//! One contract for `--json` and HTTP, for Sol'una: `solum soluna new`, `soluna edit`,
//! `soluna test` and `soluna skirmish start|status|act|go|abandon` print what
//! `POST /api/soluna/characters`, `PATCH /api/soluna/characters/{name}`,
//! `POST /api/soluna/characters/{name}/test`, `POST /api/soluna/skirmish`,
//! `GET /api/soluna/skirmish`, `POST /api/soluna/skirmish/act`, `/go` and `/abandon` answer
//! for the same characters and the same dice; an edit the app refuses is refused alike.
//!
//! A table plays one skirmish at a time, so the command line plays in a campaign of its own
//! with the same characters, made by the same fields; the answers differ only in the journal
//! entry (`seq`), which is set aside. Where the server rolls with its own seed, the command
//! replays it with `--seed`.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::{common, contract};

use contract::{aside, cli, get, http, patch, post_ok, serve};
use serde_json::{Value, json};

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
    // The list of the served campaign: the characters made at the table.
    let served = dir.path().join("c.solum");
    contract::lists_agree(&addr, &token, served.to_str().unwrap(), "soluna");
}

#[test]
fn a_played_skirmish_answers_the_same_on_the_command_line_and_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, addr, token) = serve(dir.path());
    let campaign = dir.path().join("other.solum");
    let campaign = campaign.to_str().unwrap();
    characters(&addr, &token, campaign);
    let post = |path: &str, body: &str| aside(post_ok(&addr, path, &token, body));

    // None is played yet: both say so alike, and neither refuses.
    let (status, by_http) = get(&addr, "/api/soluna/skirmish", &token);
    assert!(status.contains("200"), "{status} {by_http}");
    assert_eq!(by_http, serde_json::json!({ "skirmish": null }));
    assert_eq!(other(campaign, &["soluna", "skirmish", "status"]), by_http);

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

/// `solum soluna edit NAME --FIELD …` and `PATCH /api/soluna/characters/{name}` with the
/// whole sheet after: one call of the app, one answer. Refusals come with the same kind (422
/// is exit 2) and the app's words, the field named as the command's flag.
#[test]
fn a_soluna_edit_answers_the_same_on_the_command_line_and_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, addr, token) = serve(dir.path());
    let campaign = dir.path().join("other.solum");
    let campaign = campaign.to_str().unwrap();
    characters(&addr, &token, campaign);

    // Ana as made (side a, Mind 3, Body 2, 3 hit points, 3 melee and 2 ranged dice, 2 flips)
    // goes to side c with 1 hit point and no flips left; every other field as it was.
    let (status, by_http) = patch(
        &addr,
        "/api/soluna/characters/Ana",
        &token,
        r#"{"name":"Ana","side":"c","mind":3,"body":2,"hit_points":1,"melee":3,"ranged":2,"flips":0}"#,
    );
    assert!(status.contains("200"), "{status} {by_http}");
    // What changed, in the sheet's order, as the request asked it.
    assert_eq!(
        by_http["changed"],
        json!([
            {"field": "side", "before": "a", "after": "c"},
            {"field": "hit_points", "before": 3, "after": 1},
            {"field": "flips", "before": 2, "after": 0},
        ])
    );
    let after = &by_http["characters"][0];
    assert_eq!(after["version"], 2);
    assert_eq!(after["character"]["melee"], 3);
    // Mind 3 acts in phases 4, 7 and 10 (U4: ceil(10·i/m)).
    assert_eq!(after["phases"], json!([4, 7, 10]));
    let by_cli = other(
        campaign,
        &[
            "soluna",
            "edit",
            "Ana",
            "--side",
            "c",
            "--hit-points",
            "1",
            "--flips",
            "0",
        ],
    );
    assert_eq!(by_cli, aside(by_http));

    // Refused alike: a Mind past the phase table (U4: 1 to 10), and an unknown name.
    let refused = |path: &str, body: &str, args: &[&str], code: &str, flag: &str| {
        let (status, by_http) = patch(&addr, path, &token, body);
        assert!(status.contains("422"), "{status} {by_http}");
        assert_eq!(by_http["code"], code, "{by_http}");
        let mut all = args.to_vec();
        all.extend(["--campaign", campaign]);
        let run = common::solum_args(&all);
        // The message over HTTP is the field's (`mind: …`), or none's; the command names
        // the flag instead.
        let message = by_http["error"].as_str().unwrap();
        let problem = by_http["field"]
            .as_str()
            .and_then(|f| message.strip_prefix(&format!("{f}: ")))
            .unwrap_or(message);
        run.bad_input(&format!("error: {flag}{problem}"));
    };
    refused(
        "/api/soluna/characters/Ana",
        r#"{"name":"Ana","side":"c","mind":11,"body":2,"hit_points":1,"melee":3,"ranged":2,"flips":0}"#,
        &["soluna", "edit", "Ana", "--mind", "11"],
        "soluna-sheet-invalid",
        "--mind: ",
    );
    refused(
        "/api/soluna/characters/Nobody",
        r#"{"name":"Nobody","side":"c","mind":3,"hit_points":1,"body":0,"melee":3}"#,
        &["soluna", "edit", "Nobody", "--mind", "3"],
        "character-unknown",
        "",
    );
    // Neither refusal changed a sheet.
    let (status, all) = get(&addr, "/api/systems/characters", &token);
    assert!(status.contains("200"), "{status} {all}");
    let ana = all["soluna"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["character"]["name"] == "Ana")
        .unwrap();
    assert_eq!(
        (&ana["version"], &ana["character"]["mind"]),
        (&json!(2), &json!(3))
    );
    let shown = other(campaign, &["soluna", "show", "Ana"]);
    assert_eq!(
        (&shown["version"], &shown["character"]["mind"]),
        (&json!(2), &json!(3))
    );
}
