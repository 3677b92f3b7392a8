//! One contract for `--json` and HTTP, for the original So1um's heroes: `solum classic new`,
//! `classic edit --add-gear|--remove-gear`, `classic fight` (to start, `--status`,
//! `--decide`, `--abandon`) and `classic rest` print what `POST /api/classic/characters`,
//! `POST /api/classic/characters/{name}/gear`, `POST …/fight`, `GET …/fight`,
//! `POST …/fight/abandon` and `POST …/rest` answer for the same hero and the same dice
//! (`classic fight --odds` what `POST …/fight/odds` answers); and
//! `classic edit --notes` and `classic bestiary` what `PATCH /api/classic/characters/{name}`
//! and `GET /api/classic/book` answer.
//!
//! Each front end plays its own twin of one hero, rolled alike; the answers differ only in
//! the name and the journal entry (`seq`), which are set aside.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::contract;

use contract::{anonymous, cli, get, patch, post_ok, serve};

#[test]
fn a_classic_heroes_steps_answer_the_same_on_the_command_line_and_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, addr, token) = serve(dir.path());
    let campaign = dir.path().join("c.solum");
    let campaign = campaign.to_str().unwrap();
    let post = |path: &str, body: &str| anonymous(&post_ok(&addr, path, &token, body), "Grok");
    let twin = |args: &[&str]| {
        let mut args = args.to_vec();
        args.extend(["--json", "--campaign", campaign]);
        anonymous(&cli(&args), "Grak")
    };

    // C1, even dice counted: Body 2 4 6 (3), Mind 2 1 3 (1), Spirit 4 4 1 (2); then 3 4 for
    // the hit points (4) and 1 2 for the clichés.
    let dice = "2,4,6,2,1,3,4,4,1,3,4,1,2";
    let by_http = post(
        "/api/classic/characters",
        &format!(r#"{{"name":"Grok","cliches":["The veteran warrior"],"typed":[{dice}]}}"#),
    );
    assert_eq!(by_http["sheet"]["hero"]["body"], 3);
    assert_eq!(by_http["sheet"]["hero"]["hit_points"], 4);
    let by_cli = twin(&[
        "classic",
        "new",
        "Grak",
        "--cliche",
        "The veteran warrior",
        "--rolled",
        dice,
    ]);
    assert_eq!(by_cli, by_http);

    // Notes written.
    let (status, by_http) = patch(
        &addr,
        "/api/classic/characters/Grok",
        &token,
        r#"{"notes":"Owes the innkeeper."}"#,
    );
    assert!(status.contains("200"), "{status} {by_http}");
    assert_eq!(by_http["sheet"]["hero"]["notes"], "Owes the innkeeper.");
    let by_cli = twin(&["classic", "edit", "Grak", "--notes", "Owes the innkeeper."]);
    assert_eq!(by_cli, anonymous(&by_http, "Grok"));

    // Gear given, then a piece taken away.
    let by_http = post(
        "/api/classic/characters/Grok/gear",
        r#"{"add":["rope","torch"]}"#,
    );
    assert_eq!(
        by_http["sheet"]["hero"]["gear"],
        serde_json::json!(["rope", "torch"])
    );
    let by_cli = twin(&[
        "classic",
        "edit",
        "Grak",
        "--add-gear",
        "rope",
        "--add-gear",
        "torch",
    ]);
    assert_eq!(by_cli, by_http);
    let by_http = post(
        "/api/classic/characters/Grok/gear",
        r#"{"remove":["torch"]}"#,
    );
    let by_cli = twin(&["classic", "edit", "Grak", "--remove-gear", "torch"]);
    assert_eq!(by_cli, by_http);

    // The fight a troll would be, before it starts: the dice and the odds, nothing rolled.
    let by_http = post(
        "/api/classic/characters/Grok/fight/odds",
        r#"{"foes":["troll"]}"#,
    );
    assert_eq!(by_http["dice"], serde_json::json!([3, 4]), "{by_http}");
    let by_cli = twin(&["classic", "fight", "Grak", "troll", "--odds"]);
    assert_eq!(by_cli, by_http);

    // Against a troll (Body 4): 1 1 2 against 6 5 4 3, the hero is hit; without a policy the
    // fight waits for the hero's choice.
    let by_http = post(
        "/api/classic/characters/Grok/fight",
        r#"{"foes":["troll"],"typed":[1,1,2,6,5,4,3]}"#,
    );
    assert_eq!(by_http["status"]["pending"]["who"], "hero");
    let by_cli = twin(&[
        "classic",
        "fight",
        "Grak",
        "troll",
        "--rolled",
        "1,1,2,6,5,4,3",
    ]);
    assert_eq!(by_cli, by_http);

    // The fight as it waits.
    let (status, by_http) = get(&addr, "/api/classic/characters/Grok/fight", &token);
    assert!(status.contains("200"), "{status} {by_http}");
    assert_eq!(by_http["fight"]["calls"], 1);
    let by_cli = twin(&["classic", "fight", "Grak", "--status"]);
    assert_eq!(by_cli, anonymous(&by_http, "Grok"));

    // A hit point lost; then 6 1 1 against 5 4 3 2: the troll is hit.
    let by_http = post(
        "/api/classic/characters/Grok/fight",
        r#"{"decide":"hit-point","typed":[6,1,1,5,4,3,2]}"#,
    );
    assert_eq!(by_http["status"]["foes"], serde_json::json!([[4, 3]]));
    let by_cli = twin(&[
        "classic",
        "fight",
        "Grak",
        "--decide",
        "hp",
        "--rolled",
        "6,1,1,5,4,3,2",
    ]);
    assert_eq!(by_cli, by_http);

    // The hero flees, the wound kept.
    let by_http = post("/api/classic/characters/Grok/fight/abandon", "{}");
    assert_eq!(by_http["status"]["abandoned"], true);
    assert_eq!(by_http["sheet"]["hit_points"], 3);
    let by_cli = twin(&["classic", "fight", "Grak", "--abandon"]);
    assert_eq!(by_cli, by_http);

    // C2: eight hours heal a hit point.
    let by_http = post("/api/classic/characters/Grok/rest", r#"{"hours":8}"#);
    assert_eq!(by_http["healed"], serde_json::json!([1, 0]));
    let by_cli = twin(&["classic", "rest", "Grak", "--hours", "8"]);
    assert_eq!(by_cli, by_http);
    // The list: both heroes, each with who made it.
    contract::lists_agree(&addr, &token, campaign, "classic");
}

#[test]
fn the_book_answers_the_same_on_the_command_line_and_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, addr, token) = serve(dir.path());
    let (status, by_http) = get(&addr, "/api/classic/book", &token);
    assert!(status.contains("200"), "{status} {by_http}");
    assert!(
        by_http["monsters"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["name"] == "Troll"),
        "{by_http}"
    );
    assert_eq!(cli(&["classic", "bestiary", "--json"]), by_http);
}
