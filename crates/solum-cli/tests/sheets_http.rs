//! One contract for `--json` and HTTP, for the So1um Expanded sheets and their fast static
//! combat: `solum char new|grant|advance|edit|rest|list` and `solum static --char` (to start,
//! to go on, `--status`, `--abandon`) print what `POST /api/characters`, `GET /api/characters`,
//! `POST /api/characters/{name}/grant`, `/advance`, `PATCH /api/characters/{name}`,
//! `POST /api/characters/{name}/rest`, `POST` and `GET /api/characters/{name}/static` and
//! `/static/abandon` answer for the same sheet and the same dice.
//!
//! Each front end changes its own twin of one sheet, made alike; the answers differ only in
//! the name and the journal entries (`seq`, `seqs`), which are set aside.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::contract;

use contract::{anonymous, cli, get, http, patch, post_ok, serve};

/// Nick made at the table, Nack on the command line: the same choices, the same dice.
fn twins(addr: &str, token: &str, campaign: &str) {
    let (status, by_http) = http(
        addr,
        "/api/characters",
        Some(token),
        r#"{"name":"Nick","body":3,"mind":2,"charm":1,"backgrounds":["Sailor"],"weapon":{"name":"dagger","class":"light"},"armor_name":"leather","typed":[1,3,2]}"#,
    );
    assert!(status.contains("201"), "{status} {by_http}");
    assert_eq!(by_http["sheet"]["max_hit_points"], 6);
    let by_cli = cli(&[
        "char",
        "new",
        "Nack",
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
        "--json",
        "--campaign",
        campaign,
    ]);
    assert_eq!(anonymous(&by_cli, "Nack"), anonymous(&by_http, "Nick"));
}

#[test]
fn a_sheets_changes_answer_the_same_on_the_command_line_and_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, addr, token) = serve(dir.path());
    let campaign = dir.path().join("c.solum");
    let campaign = campaign.to_str().unwrap();
    twins(&addr, &token, campaign);
    let post = |path: &str, body: &str| post_ok(&addr, path, &token, body);
    let twin = |args: &[&str]| {
        let mut args = args.to_vec();
        args.extend(["--json", "--campaign", campaign]);
        anonymous(&cli(&args), "Nack")
    };

    // An advancement point (S17), then a new background tried: an even d6 succeeds.
    let by_http = post("/api/characters/Nick/grant", "");
    assert_eq!(by_http["sheet"]["advancement_points"], 1);
    let by_cli = twin(&["char", "grant", "Nack"]);
    assert_eq!(by_cli, anonymous(&by_http, "Nick"));
    let by_http = post(
        "/api/characters/Nick/advance",
        r#"{"goal":{"background":"Tower Climber"},"typed":[4]}"#,
    );
    assert_eq!(by_http["success"], true);
    let by_cli = twin(&[
        "char",
        "advance",
        "Nack",
        "--background",
        "Tower Climber",
        "--rolled",
        "4",
    ]);
    assert_eq!(by_cli, anonymous(&by_http, "Nick"));

    // Mind raised from 2: both dice must be even; a 3 fails, and the point is spent.
    post("/api/characters/Nick/grant", "");
    twin(&["char", "grant", "Nack"]);
    let by_http = post(
        "/api/characters/Nick/advance",
        r#"{"goal":{"attribute":"mind"},"typed":[2,3]}"#,
    );
    assert_eq!(by_http["success"], false);
    assert_eq!(by_http["sheet"]["advancement_points"], 0);
    let by_cli = twin(&[
        "char",
        "advance",
        "Nack",
        "--attribute",
        "mind",
        "--rolled",
        "2,3",
    ]);
    assert_eq!(by_cli, anonymous(&by_http, "Nick"));

    // An edit: gear, money, notes and 3 damage taken.
    let (status, by_http) = patch(
        &addr,
        "/api/characters/Nick",
        &token,
        r#"{"add_gear":[{"name":"rope","effect":"reroll"}],"money":12,"notes":"scarred","damage":3}"#,
    );
    assert!(status.contains("200"), "{status} {by_http}");
    assert_eq!(by_http["sheet"]["character"]["hit_points"], 3);
    let by_cli = twin(&[
        "char",
        "edit",
        "Nack",
        "--add-gear",
        "rope:reroll",
        "--money",
        "12",
        "--notes",
        "scarred",
        "--damage",
        "3",
    ]);
    assert_eq!(by_cli, anonymous(&by_http, "Nick"));

    // An hour's rest heals 2 (S16).
    let by_http = post("/api/characters/Nick/rest", r#"{"hours":1}"#);
    assert_eq!(by_http["healed"], 2);
    let by_cli = twin(&["char", "rest", "Nack", "--hours", "1"]);
    assert_eq!(by_cli, anonymous(&by_http, "Nick"));

    // The list: both sheets, each with who made it (the member, or none: the command line).
    let (status, by_http) = get(&addr, "/api/characters", &token);
    assert!(status.contains("200"), "{status} {by_http}");
    let owners: Vec<(&str, bool)> = by_http
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["character"]["name"].as_str().unwrap(),
                c["owner"].is_null(),
            )
        })
        .collect();
    assert_eq!(owners, [("Nack", true), ("Nick", false)], "{by_http}");
    assert_eq!(
        cli(&["char", "list", "--json", "--campaign", campaign]),
        by_http
    );
}

#[test]
fn a_static_fight_answers_the_same_on_the_command_line_and_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, addr, token) = serve(dir.path());
    let campaign = dir.path().join("c.solum");
    let campaign = campaign.to_str().unwrap();
    twins(&addr, &token, campaign);
    let post = |path: &str, body: &str| post_ok(&addr, path, &token, body);
    let twin = |flags: &[&str]| {
        let mut args = vec!["static", "--char", "Nack"];
        args.extend_from_slice(flags);
        args.extend(["--json", "--campaign", campaign]);
        anonymous(&cli(&args), "Nack")
    };

    // Against the goblin mob (difficulty 3, 4 hit points): 6 5 1 hits; the typed dice end
    // with the round, so the fight waits.
    let by_http = post(
        "/api/characters/Nick/static",
        r#"{"foe":"goblin mob","typed":[6,5,1]}"#,
    );
    assert_eq!(by_http["outcome"], "waiting");
    assert_eq!(by_http["state"]["foe_hit_points"], 3);
    let by_cli = twin(&["--foe", "goblin mob", "--rolled", "6,5,1"]);
    assert_eq!(by_cli, anonymous(&by_http, "Nick"));

    // The fight as it stands, and the odds of winning from here.
    let (status, by_http) = get(&addr, "/api/characters/Nick/static", &token);
    assert!(status.contains("200"), "{status} {by_http}");
    assert_eq!(by_http["fight"]["state"]["foe_hit_points"], 3);
    assert_eq!(twin(&["--status"]), anonymous(&by_http, "Nick"));

    // Going on: 2 2 1 misses, the mob hits back.
    let by_http = post("/api/characters/Nick/static", r#"{"typed":[2,2,1]}"#);
    assert_eq!(by_http["state"]["hit_points"], 5);
    let by_cli = twin(&["--rolled", "2,2,1"]);
    assert_eq!(by_cli, anonymous(&by_http, "Nick"));

    // Left as it stands.
    let by_http = post("/api/characters/Nick/static/abandon", "{}");
    assert_eq!(by_http["outcome"], "abandoned");
    let by_cli = twin(&["--abandon"]);
    assert_eq!(by_cli, anonymous(&by_http, "Nick"));
    // No fight now: both say so.
    let (_, by_http) = get(&addr, "/api/characters/Nick/static", &token);
    assert_eq!(by_http, serde_json::json!({ "fight": null }));
    assert_eq!(twin(&["--status"]), by_http);
}
