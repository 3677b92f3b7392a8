//! One contract for `--json` and HTTP, for a campaign's combat: `solum combat status` and
//! `solum combat end` print what `GET /api/combat` and `POST /api/combat/end` answer for the
//! same combat (none open, then one played with the same lines and dice).
//!
//! A table runs one combat at a time, so the command line plays in a campaign of its own
//! with the same hero, made with the same choices and dice; the answers differ only in the
//! journal entry (`seq`), which is set aside.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::contract;

use contract::{aside, cli, get, post_ok, serve};
use serde_json::Value;

#[test]
fn a_combats_status_and_end_answer_the_same_on_the_command_line_and_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, addr, token) = serve(dir.path());
    let campaign = dir.path().join("other.solum");
    let campaign = campaign.to_str().unwrap();
    let other = |args: &[&str]| {
        let mut args = args.to_vec();
        args.extend(["--json", "--campaign", campaign]);
        cli(&args)
    };
    let post = |path: &str, body: &str| post_ok(&addr, path, &token, body);

    // Nick, on both: Body 3, Mind 2, Charm 1, a Sailor with a dagger and leather.
    post(
        "/api/characters",
        r#"{"name":"Nick","body":3,"mind":2,"charm":1,"backgrounds":["Sailor"],"weapon":{"name":"dagger","class":"light"},"armor_name":"leather","typed":[1,3,2]}"#,
    );
    other(&[
        "char",
        "new",
        "Nick",
        "--body",
        "3",
        "--mind",
        "2",
        "--charm",
        "1",
        "--background",
        "Sailor",
        "--weapon",
        "dagger",
        "--armor",
        "leather",
        "--rolled",
        "1,3,2",
    ]);

    // No combat open.
    let (status, by_http) = get(&addr, "/api/combat", &token);
    assert!(status.contains("200"), "{status} {by_http}");
    assert_eq!(by_http, serde_json::json!({ "combat": null }));
    assert_eq!(other(&["combat", "status"]), by_http);

    // The same lines: Nick wins the first exchange, 6 5 1 against 3 2, and the orc is hurt.
    post("/api/combat", r#"{"name":"brawl"}"#);
    other(&["combat", "start", "--name", "brawl"]);
    for line in [
        "hero Nick",
        "foe orc",
        "place Nick orc engaged",
        "order Nick orc",
        "melee orc with 6,5,1,3,2",
    ] {
        post(
            "/api/combat/line",
            &serde_json::json!({ "line": line }).to_string(),
        );
        other(&["combat", "do", line]);
    }
    let (status, by_http) = get(&addr, "/api/combat", &token);
    assert!(status.contains("200"), "{status} {by_http}");
    assert_eq!(by_http["combat"]["acting"], "Nick");
    assert_eq!(by_http["combat"]["fighters"][1]["hit_points"], 2);
    assert_eq!(other(&["combat", "status"]), by_http);

    // Ended: the sheets keep what the fight cost.
    let by_http = post("/api/combat/end", "{}");
    assert_eq!(by_http["written"][0]["name"], "Nick");
    assert_eq!(aside(other(&["combat", "end"])), aside(by_http));
}

/// `solum creature list --json` prints what `GET /api/bestiary` answers: the shipped
/// creatures and the campaign's own, each with the word a combat line names it by, and the
/// static oppositions.
#[test]
fn the_bestiary_answers_the_same_on_the_command_line_and_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, addr, token) = serve(dir.path());
    let campaign = dir.path().join("c.solum");
    let campaign = campaign.to_str().unwrap();
    let bear = dir.path().join("bear.toml");
    std::fs::write(
        &bear,
        "[[creature]]\nname = \"Cave Bear\"\npool = 2\nhit_points = 4\ndamage = 2\n",
    )
    .unwrap();
    // `solum char bestiary` (no campaign: the shipped bestiary and the files given) answers
    // in the same shape; with no file, what a campaign of no creatures of its own answers.
    let (status, shipped) = get(&addr, "/api/bestiary", &token);
    assert!(status.contains("200"), "{status} {shipped}");
    assert_eq!(cli(&["char", "bestiary", "--json"]), shipped);
    let with_file = cli(&[
        "char",
        "bestiary",
        "--bestiary",
        bear.to_str().unwrap(),
        "--json",
    ]);
    cli(&[
        "creature",
        "add",
        bear.to_str().unwrap(),
        "--json",
        "--campaign",
        campaign,
    ]);
    let (status, by_http) = get(&addr, "/api/bestiary", &token);
    assert!(status.contains("200"), "{status} {by_http}");
    let by_cli = cli(&["creature", "list", "--json", "--campaign", campaign]);
    assert_eq!(by_cli, by_http);
    let bears: Vec<&Value> = by_http["creatures"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["foe"] == "Cave-Bear")
        .collect();
    assert_eq!(bears.len(), 1, "{by_http}");
    assert_eq!(bears[0]["source"], "campaign");
    // The same list as `char bestiary --bestiary bear.toml`, where the bear is the file's.
    let mut from_file = with_file;
    for c in from_file["creatures"].as_array_mut().unwrap() {
        if c["source"] == "file" {
            c["source"] = "campaign".into();
        }
    }
    assert_eq!(from_file, by_http);
}
