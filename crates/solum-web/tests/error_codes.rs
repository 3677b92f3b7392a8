//! A golden test per error code (docs/api.md, "Error codes"): one table of requests, each
//! sent through the real router over a real SQLite campaign, with the status, the `code`
//! and the `field` the documentation gives for it. Every error answer has all three keys'
//! shape: `error` (text), `code` (text), `field` (text, or absent).
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use Sent::{Big, Json, Long, Nothing, Untyped};
use Who::{Gm, Nobody, Player, SoloGm, Stranger};
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use solum_web::{AppState, Config, app};
use tower::ServiceExt;

const HOST: &str = "table.test:7373";
const ORIGIN: &str = "http://table.test:7373";

/// Who sends a row's request.
#[derive(Clone, Copy, Debug)]
enum Who {
    /// No session.
    Nobody,
    /// A made-up token.
    Stranger,
    /// The game master of a table with a player.
    Gm,
    /// That table's player.
    Player,
    /// A game master alone at a table (typed dice allowed).
    SoloGm,
}

/// How a row's body goes out.
#[derive(Clone, Debug)]
enum Sent {
    /// This JSON value (the setup's requests).
    Value(Value),
    /// No body.
    Nothing,
    /// These bytes with `Content-Type: application/json` (JSON or not).
    Json(&'static str),
    /// These bytes without a content type.
    Untyped(&'static str),
    /// A body of this many bytes of JSON string.
    Big(usize),
    /// `{KEY: "aaa…"}` with a string of this many characters.
    Long(&'static str, usize),
}

/// One golden case: who sends which request, and the status, code and field expected.
type Case = (
    Who,
    &'static str,
    &'static str,
    Sent,
    u16,
    &'static str,
    Option<&'static str>,
);

struct Table {
    router: Router,
    gm: String,
    player: String,
    solo: String,
    _dir: tempfile::TempDir,
}

async fn call(
    router: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    send: Sent,
) -> (StatusCode, Value) {
    let mut req = Request::builder()
        .method(method)
        .uri(uri)
        .header("host", HOST)
        .header("origin", ORIGIN);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let req = match send {
        Sent::Nothing => req.body(Body::empty()),
        Sent::Value(v) => req
            .header("content-type", "application/json")
            .body(Body::from(v.to_string())),
        Sent::Json(text) => req
            .header("content-type", "application/json")
            .body(Body::from(text)),
        Sent::Untyped(text) => req.body(Body::from(text)),
        Sent::Big(n) => req
            .header("content-type", "application/json")
            .body(Body::from(format!("\"{}\"", "a".repeat(n)))),
        Sent::Long(key, n) => req
            .header("content-type", "application/json")
            .body(Body::from(json!({ key: "a".repeat(n) }).to_string())),
    }
    .unwrap();
    let resp = router.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20)
        .await
        .unwrap();
    let body = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
        panic!(
            "{method} {uri}: not JSON ({e}): {}",
            String::from_utf8_lossy(&bytes)
        )
    });
    (status, body)
}

async fn token_of(router: &Router, body: Value) -> String {
    let (status, v) = call(router, "POST", "/api/tables", None, Sent::Value(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    v["token"].as_str().unwrap().to_owned()
}

/// Two tables: one with a game master and a player, one with a game master alone; the
/// first has the character Nick (entry 1 of its journal, public).
async fn table() -> Table {
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::new(dir.path().join("campaign.solum"));
    config.allowed_hosts = Some(vec![HOST.to_string()]);
    let router = app(AppState::new(config));
    let gm = token_of(&router, json!({"table": "Harbour", "name": "Gia"})).await;
    let solo = token_of(&router, json!({"table": "Alone", "name": "Sol"})).await;
    let (status, inv) = call(
        &router,
        "POST",
        "/api/invites",
        Some(&gm),
        Sent::Value(json!({"role": "player"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{inv}");
    let invite = inv["token"].as_str().unwrap();
    let (status, joined) = call(
        &router,
        "POST",
        "/api/join",
        None,
        Sent::Value(json!({"invite": invite, "name": "Pia"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{joined}");
    let player = joined["token"].as_str().unwrap().to_owned();
    let hero = json!({
        "name": "Nick",
        "body": 3, "mind": 2, "charm": 1,
        "backgrounds": ["Sailor"],
        "weapon": { "name": "dagger", "class": "light" },
        "armor_name": "leather"
    });
    let (status, v) = call(
        &router,
        "POST",
        "/api/characters",
        Some(&gm),
        Sent::Value(hero),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    Table {
        router,
        gm,
        player,
        solo,
        _dir: dir,
    }
}

/// The golden table: who, method, URI, body → status, code, field.
const CASES: &[Case] = &[
    // The body as a whole.
    (
        Gm,
        "POST",
        "/api/notes",
        Untyped(r#"{"text": "x"}"#),
        415,
        "body-content-type",
        None,
    ),
    (
        Gm,
        "POST",
        "/api/notes",
        Json(r#"{"text": "#),
        400,
        "body-syntax",
        None,
    ),
    (
        Gm,
        "POST",
        "/api/notes",
        Json(r#"{"text": "a"} x"#),
        400,
        "body-syntax",
        None,
    ),
    (
        Gm,
        "POST",
        "/api/notes",
        Json(r#"{"text": 5}"#),
        422,
        "body-invalid",
        Some("text"),
    ),
    (
        Gm,
        "POST",
        "/api/notes",
        Json("{}"),
        422,
        "body-invalid",
        None,
    ),
    (
        Gm,
        "POST",
        "/api/roll",
        Json(r#"{"expression": "1d6", "typed": [1, "a"]}"#),
        422,
        "body-invalid",
        Some("typed[1]"),
    ),
    (
        Gm,
        "POST",
        "/api/roll",
        Json(r#"{"expression": "1d6", "secert": true}"#),
        422,
        "body-invalid",
        Some("secert"),
    ),
    (
        Gm,
        "POST",
        "/api/combat/end",
        Json(r#"{"x": 1}"#),
        422,
        "body-invalid",
        Some("x"),
    ),
    // Valid JSON of the wrong type where a name goes (serde_json calls it a syntax error).
    (
        Gm,
        "POST",
        "/api/vehicles/chase/odds",
        Json(r#"{"pilot": 3, "speed": 5, "against_pilot": 3}"#),
        422,
        "body-invalid",
        Some("speed"),
    ),
    (
        Gm,
        "POST",
        "/api/idea",
        Json(r#"{"genre": "fantasy", "count": -1}"#),
        422,
        "body-invalid",
        Some("count"),
    ),
    (
        Gm,
        "POST",
        "/api/invites",
        Json(r#"{"role": "boss"}"#),
        422,
        "body-invalid",
        Some("role"),
    ),
    (
        Nobody,
        "POST",
        "/api/reentry",
        Long("token", 500),
        422,
        "body-invalid",
        Some("token"),
    ),
    (
        Gm,
        "POST",
        "/api/notes",
        Big(20_000),
        413,
        "body-too-large",
        None,
    ),
    (
        Gm,
        "POST",
        "/api/oracle",
        Big(5_000),
        413,
        "body-too-large",
        None,
    ),
    // Query strings.
    (
        Gm,
        "GET",
        "/api/events?after=abc",
        Nothing,
        422,
        "query-invalid",
        Some("after"),
    ),
    (
        Gm,
        "GET",
        "/api/events?after=1&foo=2",
        Nothing,
        422,
        "query-invalid",
        Some("foo"),
    ),
    (
        Gm,
        "GET",
        "/api/journal?limit=abc",
        Nothing,
        422,
        "query-invalid",
        Some("limit"),
    ),
    (
        Gm,
        "GET",
        "/api/journal?limit=0",
        Nothing,
        422,
        "query-invalid",
        Some("limit"),
    ),
    (
        Gm,
        "GET",
        "/api/journal/export?format=pdf",
        Nothing,
        422,
        "query-invalid",
        Some("format"),
    ),
    (
        Gm,
        "GET",
        "/api/me?verbose=1",
        Nothing,
        422,
        "query-invalid",
        Some("verbose"),
    ),
    // Sessions, routes.
    (
        Nobody,
        "GET",
        "/api/me",
        Nothing,
        401,
        "session-needed",
        None,
    ),
    (
        Stranger,
        "GET",
        "/api/me",
        Nothing,
        401,
        "session-unknown",
        None,
    ),
    (
        Gm,
        "GET",
        "/api/no-such-thing",
        Nothing,
        404,
        "not-found",
        None,
    ),
    (
        Gm,
        "DELETE",
        "/api/me",
        Nothing,
        405,
        "method-not-allowed",
        None,
    ),
    // Path parameters that do not read: 422 in the API's own form, naming the parameter.
    (
        Gm,
        "POST",
        "/api/journal/abc/reveal",
        Nothing,
        422,
        "path-invalid",
        Some("seq"),
    ),
    (
        Gm,
        "DELETE",
        "/api/invites/99999999999999999999",
        Nothing,
        422,
        "path-invalid",
        Some("id"),
    ),
    // Who may do what.
    (
        Player,
        "POST",
        "/api/journal/1/reveal",
        Nothing,
        403,
        "gm-only",
        None,
    ),
    (
        Player,
        "POST",
        "/api/combat/end",
        Nothing,
        403,
        "gm-only",
        None,
    ),
    // A game master's action is gm-only wherever it is refused (the app's and the web's).
    (
        Player,
        "POST",
        "/api/characters/Nick/grant",
        Nothing,
        403,
        "gm-only",
        None,
    ),
    (
        Player,
        "PATCH",
        "/api/characters/Nick",
        Json(r#"{"correction": true, "notes": "x"}"#),
        403,
        "gm-only",
        None,
    ),
    (
        Player,
        "POST",
        "/api/invites",
        Json(r#"{"role": "player"}"#),
        403,
        "gm-only",
        None,
    ),
    (Player, "GET", "/api/invites", Nothing, 403, "gm-only", None),
    (
        Player,
        "PUT",
        "/api/settings/roll-off",
        Json(r#"{"on": true}"#),
        403,
        "gm-only",
        None,
    ),
    // Whose sheet it is comes before what the edit does (this one changes nothing).
    (
        Player,
        "PATCH",
        "/api/characters/Nick",
        Json("{}"),
        403,
        "forbidden",
        None,
    ),
    // A name no sheet has is unknown to a player too (not "not your character").
    (
        Player,
        "POST",
        "/api/sol/characters/Nobody/train",
        Json(r#"{"skill": "Pistols"}"#),
        422,
        "character-unknown",
        None,
    ),
    (
        Player,
        "POST",
        "/api/roll",
        Json(r#"{"expression": "1d6", "secret": true}"#),
        403,
        "secret-gm-only",
        Some("secret"),
    ),
    (
        Gm,
        "POST",
        "/api/roll",
        Json(r#"{"expression": "1d6", "typed": [3]}"#),
        403,
        "forbidden",
        None,
    ),
    (
        Nobody,
        "POST",
        "/api/reentry",
        Json(r#"{"token": "nope"}"#),
        403,
        "reentry-unknown",
        None,
    ),
    (
        Nobody,
        "POST",
        "/api/join",
        Json(r#"{"invite": "nope", "name": "Ida"}"#),
        403,
        "invite-unusable",
        None,
    ),
    (
        Gm,
        "DELETE",
        "/api/invites/999",
        Nothing,
        422,
        "invite-unknown",
        None,
    ),
    // Texts (a note holds at most 10,000 characters).
    (
        Gm,
        "POST",
        "/api/notes",
        Json(r#"{"text": "  "}"#),
        422,
        "text-empty",
        Some("text"),
    ),
    (
        Gm,
        "POST",
        "/api/notes",
        Long("text", 10_001),
        422,
        "text-too-long",
        Some("text"),
    ),
    (
        Gm,
        "POST",
        "/api/notes",
        Json(r#"{"text": "bell\u0007"}"#),
        422,
        "text-control-character",
        Some("text"),
    ),
    // Characters and rules.
    (
        Gm,
        "GET",
        "/api/characters/Nobody",
        Nothing,
        422,
        "character-unknown",
        None,
    ),
    (
        Gm,
        "POST",
        "/api/characters",
        Json(NICK),
        422,
        "character-name-taken",
        None,
    ),
    // S9: Body, Mind and Charm are 3, 2 and 1 in some order.
    (
        Gm,
        "POST",
        "/api/characters",
        Json(ODD),
        422,
        "expanded-rules",
        Some("attributes"),
    ),
    // A name that only looks like Nick (a full-width N).
    (
        Gm,
        "POST",
        "/api/characters",
        Json(LOOK_ALIKE),
        422,
        "character-name-look-alike",
        Some("name"),
    ),
    // Mathematical bold N (U+1D40D, NFKC N): TR39's skeleton and NFKC, not a table of scripts.
    (
        Gm,
        "POST",
        "/api/characters",
        Json(BOLD_LOOK_ALIKE),
        422,
        "character-name-look-alike",
        Some("name"),
    ),
    (
        Nobody,
        "POST",
        "/api/tables",
        Json(r#"{"table": " ", "name": "Ida"}"#),
        422,
        "text-empty",
        Some("table"),
    ),
    // Each system's refusals have codes of their own.
    (
        Gm,
        "PATCH",
        "/api/characters/Nick",
        Json(r#"{"remove_weapons": ["axe"]}"#),
        422,
        "character-has-no",
        Some("remove_weapons"),
    ),
    (
        Gm,
        "PATCH",
        "/api/characters/Nick",
        Json(r#"{"notes": ""}"#),
        422,
        "edit-changes-nothing",
        Some("edit"),
    ),
    (
        Gm,
        "POST",
        "/api/combat",
        Json(r#"{"foes": [{"name": "no such beast"}]}"#),
        422,
        "combat-setup",
        Some("foes"),
    ),
    (
        Gm,
        "POST",
        "/api/combat/line",
        Json(r#"{"line": "end"}"#),
        422,
        "combat-none-open",
        Some("combat"),
    ),
    // Dice typed by a game master alone at the table.
    (
        SoloGm,
        "POST",
        "/api/roll",
        Json(r#"{"expression": "1d6", "typed": [7]}"#),
        422,
        "dice-typed-invalid",
        None,
    ),
    (
        SoloGm,
        "POST",
        "/api/roll",
        Json(r#"{"expression": "1d6", "typed": [3, 4]}"#),
        422,
        "dice-too-many",
        None,
    ),
    // Expressions (1 to 200 characters), ideas (1 to 20 words), scenes.
    (
        Gm,
        "POST",
        "/api/odds",
        Json(r#"{"expression": ""}"#),
        422,
        "expression-text",
        Some("expression"),
    ),
    (
        Gm,
        "POST",
        "/api/odds",
        Json(r#"{"expression": "3d"}"#),
        422,
        "expression-notation",
        Some("expression"),
    ),
    // A roll answers the same codes as the odds of the same expression.
    (
        Gm,
        "POST",
        "/api/roll",
        Json(r#"{"expression": "3d"}"#),
        422,
        "expression-notation",
        Some("expression"),
    ),
    (
        Gm,
        "POST",
        "/api/roll",
        Json(r#"{"expression": " "}"#),
        422,
        "expression-text",
        Some("expression"),
    ),
    (
        Gm,
        "POST",
        "/api/idea",
        Json(r#"{"genre": "no such genre"}"#),
        422,
        "genre-unknown",
        Some("genre"),
    ),
    (
        Gm,
        "POST",
        "/api/idea",
        Json(r#"{"genre": "fantasy", "count": 21}"#),
        422,
        "idea-count",
        Some("count"),
    ),
    (
        Gm,
        "POST",
        "/api/scenes/end",
        Json("{}"),
        422,
        "scene-none-open",
        None,
    ),
    // Vehicles (S10: speed counts only in a chase) and fight odds (20,000 fights at most).
    (
        Gm,
        "POST",
        "/api/vehicles/attack/odds",
        Json(r#"{"pilot": 3, "speed": "fast", "against_pilot": 3}"#),
        422,
        "vehicle-speed-in-attack",
        Some("speed"),
    ),
    (
        Gm,
        "POST",
        "/api/fight/odds",
        Json(r#"{"heroes": ["Nick"], "foes": [{"name": "orc"}], "fights": 20001}"#),
        422,
        "sim-fights",
        None,
    ),
    // The journal: entry 1 is the public creation of Nick made at setup.
    (
        Gm,
        "POST",
        "/api/journal/1/reveal",
        Nothing,
        422,
        "entry-not-secret",
        None,
    ),
];

/// Nick as created at setup.
const NICK: &str = r#"{"name": "Nick", "body": 3, "mind": 2, "charm": 1, "backgrounds": ["Sailor"],
    "weapon": {"name": "dagger", "class": "light"}, "armor_name": "leather"}"#;
/// Nick with a full-width N.
const LOOK_ALIKE: &str = r#"{"name": "\uFF2Eick", "body": 3, "mind": 2, "charm": 1, "backgrounds": ["Sailor"],
    "weapon": {"name": "dagger", "class": "light"}, "armor_name": "leather"}"#;
/// Nick with a mathematical bold N.
const BOLD_LOOK_ALIKE: &str = r#"{"name": "\uD835\uDC0Dick", "body": 3, "mind": 2, "charm": 1, "backgrounds": ["Sailor"],
    "weapon": {"name": "dagger", "class": "light"}, "armor_name": "leather"}"#;
/// A hero whose Body, Mind and Charm are not 3, 2 and 1.
const ODD: &str = r#"{"name": "Odd", "body": 3, "mind": 3, "charm": 1, "backgrounds": ["Sailor"],
    "weapon": {"name": "dagger", "class": "light"}, "armor_name": "leather"}"#;

#[tokio::test]
async fn every_error_code_answers_as_documented() {
    let t = table().await;
    let mut failures = Vec::new();
    for (who, method, uri, send, status, code, field) in CASES.iter().cloned() {
        let token = match who {
            Who::Nobody => None,
            Who::Stranger => Some("not-a-session"),
            Who::Gm => Some(t.gm.as_str()),
            Who::Player => Some(t.player.as_str()),
            Who::SoloGm => Some(t.solo.as_str()),
        };
        let (got_status, body) = call(&t.router, method, uri, token, send.clone()).await;
        let got = (
            got_status.as_u16(),
            body["code"].as_str().unwrap_or("(none)").to_owned(),
            body.get("field").and_then(Value::as_str).map(str::to_owned),
        );
        let want = (status, code.to_owned(), field.map(str::to_owned));
        assert!(body["error"].is_string(), "{method} {uri}: {body}");
        if got != want {
            failures.push(format!(
                "{who:?} {method} {uri} {send:?}: want {want:?}, got {got:?}: {body}"
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// Framework answers keep their statuses and get codes too: a foreign `Host` and a change
/// from another origin.
#[tokio::test]
async fn host_and_origin_refusals_have_codes() {
    let t = table().await;
    let send = |host: &'static str, origin: Option<&'static str>| {
        let mut req = Request::builder()
            .method("POST")
            .uri("/api/notes")
            .header("host", host)
            .header("content-type", "application/json")
            .header("authorization", format!("Bearer {}", t.gm));
        if let Some(o) = origin {
            req = req.header("origin", o);
        }
        let req = req.body(Body::from(r#"{"text": "x"}"#)).unwrap();
        let router = t.router.clone();
        async move {
            let resp = router.oneshot(req).await.unwrap();
            let status = resp.status().as_u16();
            let bytes = axum::body::to_bytes(resp.into_body(), 1 << 16)
                .await
                .unwrap();
            let v: Value = serde_json::from_slice(&bytes).unwrap();
            (status, v["code"].as_str().unwrap_or_default().to_owned())
        }
    };
    assert_eq!(
        send("evil.test", Some(ORIGIN)).await,
        (421, "unknown-host".to_owned())
    );
    assert_eq!(
        send(HOST, Some("http://evil.test")).await,
        (403, "cross-origin".to_owned())
    );
    assert_eq!(send(HOST, None).await, (403, "cross-origin".to_owned()));
}

/// A body of the wrong shape is refused in the user's words: the field and what it takes as
/// JSON says it, never the name of a Rust type.
#[tokio::test]
async fn body_refusals_say_what_was_expected_in_json_words() {
    let t = table().await;
    for (uri, body, field, expected) in [
        (
            "/api/combat",
            r#"{"foes": [5]}"#,
            "foes[0]",
            "expected an object",
        ),
        (
            "/api/combat",
            r#"{"foes": "orc"}"#,
            "foes",
            "expected a list",
        ),
        (
            "/api/idea",
            r#"{"genre": "fantasy", "count": "two"}"#,
            "count",
            "expected a whole number from 0 to 4294967295",
        ),
    ] {
        let (status, v) = call(&t.router, "POST", uri, Some(&t.gm), Json(body)).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
        assert_eq!(v["code"], "body-invalid", "{v}");
        assert_eq!(v["field"], field, "{v}");
        let error = v["error"].as_str().unwrap();
        assert!(error.starts_with(&format!("{field}: ")), "{error}");
        assert!(error.ends_with(expected), "{error}");
        for rust in ["struct", "u32", "i64", "Vec", "line 1"] {
            assert!(!error.contains(rust), "{error}");
        }
    }
    // A path parameter: the framework's text never goes out.
    let (_, v) = call(
        &t.router,
        "POST",
        "/api/journal/abc/reveal",
        Some(&t.gm),
        Nothing,
    )
    .await;
    assert_eq!(
        v["error"],
        "path parameter seq: `abc` is not a whole number from -9223372036854775808 to 9223372036854775807"
    );
}

/// Every code the golden table answers, and every code of a system's refusals, is listed in
/// docs/api.md's table of error codes.
#[test]
fn every_code_is_documented() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/api.md")).unwrap();
    let table = doc
        .split("## Error codes")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .unwrap();
    let mut missing: Vec<&str> = solum_app::refusal::refusal_codes()
        .into_iter()
        .chain(CASES.iter().map(|c| c.5))
        .filter(|code| !table.contains(&format!("`{code}`")))
        .collect();
    missing.sort_unstable();
    missing.dedup();
    assert!(missing.is_empty(), "not in docs/api.md: {missing:?}");
}
