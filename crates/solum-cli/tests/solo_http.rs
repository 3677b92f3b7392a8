//! One contract for `--json` and HTTP, for the solo tools, the sheets and the journal:
//! `solum ask`, `solum idea`, `solum note`, `solum char show` and `solum journal verify`
//! print what `POST /api/oracle`, `POST /api/idea`, `POST /api/notes`,
//! `GET /api/characters/{name}` and `GET /api/journal/verify` answer, on one campaign and
//! with the same dice. The answers differ only in what no two entries share (the entry's
//! number and time) and who made it (the command line, or the member), which are set aside.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::contract;

use contract::{aside, cli, get, post_ok, put, serve};

#[test]
fn the_solo_tools_answer_the_same_on_the_command_line_and_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, addr, token) = serve(dir.path());
    let campaign = dir.path().join("c.solum");
    let campaign = campaign.to_str().unwrap();
    let post = |path: &str, body: &str| post_ok(&addr, path, &token, body);

    // The oracle (S12): a 6 is "Yes, and"; the event die 5 an NPC; the disposition die 1.
    let by_http = post(
        "/api/oracle",
        r#"{"question":"Is the gate open?","leaning":"even","typed":[6,5,1]}"#,
    );
    assert_eq!(by_http["answer"], "Yes, and");
    let by_cli = cli(&[
        "ask",
        "Is the gate open?",
        "--rolled",
        "6,5,1",
        "--json",
        "--campaign",
        campaign,
    ]);
    assert_eq!(aside(by_cli), aside(by_http));

    // Idea words: two horror words, dice 3 and 4.
    let by_http = post("/api/idea", r#"{"genre":"horror","count":2,"typed":[3,4]}"#);
    assert_eq!(by_http["words"].as_array().unwrap().len(), 2);
    let by_cli = cli(&[
        "idea",
        "--genre",
        "horror",
        "--count",
        "2",
        "--rolled",
        "3,4",
        "--json",
        "--campaign",
        campaign,
    ]);
    assert_eq!(aside(by_cli), aside(by_http));

    // A note.
    let by_http = post("/api/notes", r#"{"text":"The gate creaks."}"#);
    let by_cli = cli(&["note", "The gate creaks.", "--json", "--campaign", campaign]);
    assert_eq!(aside(by_cli), aside(by_http));

    // A sheet as both show it.
    post(
        "/api/characters",
        r#"{"name":"Nick","body":3,"mind":2,"charm":1,"backgrounds":["Sailor"],"weapon":{"name":"dagger","class":"light"},"armor_name":"leather","typed":[1,3,2]}"#,
    );
    let (status, by_http) = get(&addr, "/api/characters/Nick", &token);
    assert!(status.contains("200"), "{status} {by_http}");
    let by_cli = cli(&["char", "show", "Nick", "--json", "--campaign", campaign]);
    assert_eq!(by_cli, by_http);

    // The journal re-derived: the same report, every roll above matching.
    let (status, by_http) = get(&addr, "/api/journal/verify", &token);
    assert!(status.contains("200"), "{status} {by_http}");
    assert_eq!(by_http["mismatches"], serde_json::json!([]));
    let by_cli = cli(&["journal", "verify", "--json", "--campaign", campaign]);
    assert_eq!(by_cli, by_http);
}

/// `solum journal show --json` prints the page `GET /api/journal` answers: the latest N
/// with `--last N` (`?limit=N`), the whole journal without (a journal under a page), each
/// entry as the page shows it (a roll of dice notation with its terms), secret ones too
/// for the game master.
#[test]
fn the_journal_reads_the_same_on_the_command_line_and_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, addr, token) = serve(dir.path());
    let campaign = dir.path().join("c.solum");
    let campaign = campaign.to_str().unwrap();
    let post = |path: &str, body: &str| post_ok(&addr, path, &token, body);
    post("/api/notes", r#"{"text":"The gate creaks."}"#);
    post(
        "/api/roll",
        r#"{"expression":"2d6 + 1","typed":[3,4],"secret":true}"#,
    );
    cli(&["note", "Rain.", "--json", "--campaign", campaign]);
    post(
        "/api/oracle",
        r#"{"question":"Is the gate open?","leaning":"even","typed":[6,5,1]}"#,
    );

    let (status, by_http) = get(&addr, "/api/journal?limit=3", &token);
    assert!(status.contains("200"), "{status} {by_http}");
    let entries = by_http["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 3);
    assert_eq!(entries[0]["secret"], true);
    // 3 + 4 + 1, shown with its terms as the page shows a roll.
    assert_eq!(entries[0]["total"], 8, "{}", entries[0]);
    assert_eq!(entries[0]["terms"][0]["dice"].as_array().unwrap().len(), 2);
    let by_cli = cli(&[
        "journal",
        "show",
        "--last",
        "3",
        "--json",
        "--campaign",
        campaign,
    ]);
    assert_eq!(by_cli, by_http);

    let (status, by_http) = get(&addr, "/api/journal", &token);
    assert!(status.contains("200"), "{status} {by_http}");
    assert_eq!(by_http["entries"].as_array().unwrap().len(), 4);
    assert_eq!(by_http["next"], serde_json::Value::Null);
    let by_cli = cli(&["journal", "show", "--json", "--campaign", campaign]);
    assert_eq!(by_cli, by_http);
}

/// `solum roll-off [on|off] --json` prints what `GET` and `PUT /api/settings/roll-off`
/// answer: the table's setting, after the change when one is asked.
#[test]
fn the_roll_off_setting_reads_and_changes_the_same_on_the_command_line_and_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, addr, token) = serve(dir.path());
    let campaign = dir.path().join("c.solum");
    let campaign = campaign.to_str().unwrap();
    let roll_off = |args: &[&str]| {
        let mut all = vec!["roll-off"];
        all.extend(args);
        all.extend(["--json", "--campaign", campaign]);
        cli(&all)
    };

    // Never set: draws stand (S3).
    let (status, by_http) = get(&addr, "/api/settings/roll-off", &token);
    assert!(status.contains("200"), "{status} {by_http}");
    assert_eq!(by_http, serde_json::json!({"on": false}));
    assert_eq!(roll_off(&[]), by_http);

    let (status, by_http) = put(&addr, "/api/settings/roll-off", &token, r#"{"on":true}"#);
    assert!(status.contains("200"), "{status} {by_http}");
    assert_eq!(by_http, serde_json::json!({"on": true}));
    assert_eq!(roll_off(&[]), by_http);

    let (status, by_http) = put(&addr, "/api/settings/roll-off", &token, r#"{"on":false}"#);
    assert!(status.contains("200"), "{status} {by_http}");
    let by_cli = roll_off(&["off"]);
    assert_eq!(by_cli, by_http);
    assert_eq!(roll_off(&["on"]), serde_json::json!({"on": true}));
    let (_, now) = get(&addr, "/api/settings/roll-off", &token);
    assert_eq!(now, serde_json::json!({"on": true}));
}
