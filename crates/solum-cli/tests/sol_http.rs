//! One contract for `--json` and HTTP, for Project Sol's sheets: `solum sol new`,
//! `sol encounter`, `sol session`, `sol train`, `sol spend`, `sol reward` and
//! `sol not-dead-yet` print what `POST /api/sol/characters` and
//! `POST /api/sol/characters/{name}/encounter`, `/session`, `/train`, `/spend`, `/reward` and
//! `/not-dead-yet` answer for the same sheet and the same dice.
//!
//! Each front end changes its own twin of one sheet, made alike; the answers differ only in
//! the name and the journal entry (`seq`), which are set aside.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::contract;

use contract::{anonymous, cli, post_ok, serve};

#[test]
fn a_sol_sheets_steps_answer_the_same_on_the_command_line_and_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, addr, token) = serve(dir.path());
    let campaign = dir.path().join("c.solum");
    let campaign = campaign.to_str().unwrap();
    let post = |path: &str, body: &str| anonymous(&post_ok(&addr, path, &token, body), "Malcolm");
    let twin = |args: &[&str]| {
        let mut args = args.to_vec();
        args.extend(["--json", "--campaign", campaign]);
        anonymous(&cli(&args), "Mal")
    };

    // Edge 3; BOD 3 the highest physical attribute; Etiquette 2.
    let by_http = post(
        "/api/sol/characters",
        r#"{"name":"Malcolm","edge":3,"attributes":[["CHA",1],["BOD",3],["WIL",2],["AGI",2]],"skills":[["Etiquette",2]]}"#,
    );
    assert_eq!(by_http["sheet"]["sheet"]["edge"]["points"], 3);
    let by_cli = twin(&[
        "sol",
        "new",
        "Mal",
        "--edge",
        "3",
        "--attr",
        "CHA=1",
        "--attr",
        "BOD=3",
        "--attr",
        "WIL=2",
        "--attr",
        "AGI=2",
        "--skill",
        "Etiquette=2",
    ]);
    assert_eq!(by_cli, by_http);

    let by_http = post("/api/sol/characters/Malcolm/encounter", "");
    assert_eq!(by_http["sheet"]["version"], 2);
    assert_eq!(twin(&["sol", "encounter", "Mal"]), by_http);

    let by_http = post("/api/sol/characters/Malcolm/session", "");
    assert_eq!(by_http["sheet"]["sheet"]["trained_this_session"], false);
    assert_eq!(twin(&["sol", "session", "Mal"]), by_http);

    // Etiquette to rank 3, cost 6 (P3).
    let by_http = post(
        "/api/sol/characters/Malcolm/train",
        r#"{"skill":"Etiquette"}"#,
    );
    assert_eq!(
        by_http["trained"],
        serde_json::json!({"skill": "Etiquette", "ranks": 3, "cost": 6})
    );
    let by_cli = twin(&["sol", "train", "Mal", "--skill", "Etiquette"]);
    assert_eq!(by_cli, by_http);

    // Dead Man's Trigger: BOD + WIL = 5 dice against 3, 5 5 1 2 6 is 3 hits.
    let by_http = post(
        "/api/sol/characters/Malcolm/spend",
        r#"{"what":"dead-mans-trigger","typed":[5,5,1,2,6]}"#,
    );
    assert_eq!(by_http["spend"]["trigger"]["hits"], 3);
    assert_eq!(by_http["edge"]["points"], 2);
    let by_cli = twin(&[
        "sol",
        "spend",
        "Mal",
        "dead-mans-trigger",
        "--rolled",
        "5,5,1,2,6",
    ]);
    assert_eq!(by_cli, by_http);

    // The point of Edge back.
    let by_http = post("/api/sol/characters/Malcolm/reward", "");
    assert_eq!(by_http["edge"]["points"], 3);
    assert_eq!(twin(&["sol", "reward", "Mal"]), by_http);

    // Not Dead Yet: BOD 3 drops to 2, and the Edge with it.
    let by_http = post("/api/sol/characters/Malcolm/not-dead-yet", "{}");
    assert_eq!(
        by_http["lowered"],
        serde_json::json!({"attribute": "BOD", "from": 3, "to": 2})
    );
    assert_eq!(twin(&["sol", "not-dead-yet", "Mal"]), by_http);
    // The list: both sheets, each with who made it.
    contract::lists_agree(&addr, &token, campaign, "sol");
}
