//! One contract for `--json` and HTTP, for the scenes and the journal: `solum scene show`,
//! `scene start`, `scene end`, `journal export --format json`, `journal reveal` and
//! `idea --genres` print what `GET /api/scene`, `POST /api/scenes`, `POST /api/scenes/end`,
//! `GET /api/journal/export?format=json`, `POST /api/journal/{seq}/reveal` and
//! `GET /api/idea/genres` answer, on one campaign. The answers differ only in what no two
//! entries share (the entry's number and time, and for a reveal the secret entry's) and who
//! made it (the command line, or the member), which are set aside.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::contract;

use contract::{cli, get, post_ok, serve};
use serde_json::Value;

/// The entry without its number and time, who made it, and which secret entry it reveals.
fn entry_aside(v: Value) -> Value {
    let mut v = contract::aside(v);
    for key in ["of", "secret_at"] {
        v.as_object_mut().unwrap().remove(key);
    }
    v
}

#[test]
fn scenes_answer_the_same_on_the_command_line_and_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, addr, token) = serve(dir.path());
    let campaign = dir.path().join("c.solum");
    let campaign = campaign.to_str().unwrap();
    let post = |path: &str, body: &str| post_ok(&addr, path, &token, body);
    let show = || {
        let (status, by_http) = get(&addr, "/api/scene", &token);
        assert!(status.contains("200"), "{status} {by_http}");
        let by_cli = cli(&["scene", "show", "--json", "--campaign", campaign]);
        assert_eq!(by_cli, by_http);
        by_http
    };

    // No scene is open.
    assert_eq!(show(), serde_json::json!({ "scene": null }));

    // A scene started over HTTP, seen the same by both.
    let by_http = post("/api/scenes", r#"{"title":"The gate","goal":"Get in"}"#);
    assert_eq!(by_http.as_array().unwrap().len(), 1, "{by_http}");
    assert_eq!(show()["scene"], by_http[0]);
    let ended_by_http = post("/api/scenes/end", r#"{"summary":"Inside."}"#);
    assert_eq!(ended_by_http["kind"], "scene-end");

    // The same on the command line: one entry, none being open.
    let by_cli = cli(&[
        "scene",
        "start",
        "The gate",
        "--goal",
        "Get in",
        "--json",
        "--campaign",
        campaign,
    ]);
    let aside = |v: &Value| -> Vec<Value> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|e| entry_aside(e.clone()))
            .collect()
    };
    assert_eq!(aside(&by_cli), aside(&by_http));
    let by_cli = cli(&["scene", "end", "Inside.", "--json", "--campaign", campaign]);
    assert_eq!(entry_aside(by_cli), entry_aside(ended_by_http));

    // A scene started over an open one ends it first: two entries on both.
    post("/api/scenes", r#"{"title":"The hall"}"#);
    let by_http = post("/api/scenes", r#"{"title":"The tower"}"#);
    assert_eq!(by_http.as_array().unwrap().len(), 2, "{by_http}");
    let by_cli = cli(&[
        "scene",
        "start",
        "The tower",
        "--json",
        "--campaign",
        campaign,
    ]);
    assert_eq!(aside(&by_cli), aside(&by_http));
}

#[test]
fn the_journal_answers_the_same_on_the_command_line_and_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, addr, token) = serve(dir.path());
    let campaign = dir.path().join("c.solum");
    let campaign = campaign.to_str().unwrap();
    let post = |path: &str, body: &str| post_ok(&addr, path, &token, body);

    // Two secret questions to the oracle, alike: one revealed over HTTP, one by the command.
    let question =
        r#"{"question":"Is the gate open?","leaning":"even","secret":true,"typed":[6,5,1]}"#;
    let first = post("/api/oracle", question)["seq"].as_i64().unwrap();
    let second = post("/api/oracle", question)["seq"].as_i64().unwrap();
    let by_http = post(&format!("/api/journal/{first}/reveal"), "");
    assert_eq!(by_http["of"], first);
    assert_eq!(by_http["record"]["outcome"]["answer"], "yes-and");
    let by_cli = cli(&[
        "journal",
        "reveal",
        &second.to_string(),
        "--json",
        "--campaign",
        campaign,
    ]);
    assert_eq!(by_cli["of"], second);
    // The line names the secret entry by its number, the one thing the two reveals differ in.
    let mut by_cli = entry_aside(by_cli);
    let line = by_cli["line"].as_str().unwrap().replace(
        &format!("(secret entry {second})"),
        &format!("(secret entry {first})"),
    );
    by_cli["line"] = line.into();
    assert_eq!(by_cli, entry_aside(by_http));

    // The whole journal as data, read from the one campaign: the same export.
    let (status, by_http) = get(&addr, "/api/journal/export?format=json", &token);
    assert!(status.contains("200"), "{status} {by_http}");
    assert_eq!(by_http["entries"].as_array().unwrap().len(), 4);
    let by_cli = cli(&[
        "journal",
        "export",
        "--format",
        "json",
        "--campaign",
        campaign,
    ]);
    assert_eq!(by_cli, by_http);

    // The genres of idea words.
    let (status, by_http) = get(&addr, "/api/idea/genres", &token);
    assert!(status.contains("200"), "{status} {by_http}");
    assert!(
        by_http["genres"]
            .as_array()
            .unwrap()
            .contains(&"horror".into())
    );
    assert_eq!(cli(&["idea", "--genres", "--json"]), by_http);
}
