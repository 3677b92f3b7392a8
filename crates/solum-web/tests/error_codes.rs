//! A golden test per error code (docs/api.md, "Error codes"): one table of requests, each
//! sent through the real router over a real SQLite campaign, with the status, the `code`
//! and the `field` the documentation gives for it. Every error answer has all three keys'
//! shape: `error` (text), `code` (text), `field` (text, or absent).

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
    /// No body.
    Nothing,
    /// JSON with its content type.
    Json(Value),
    /// These bytes with `Content-Type: application/json`.
    Raw(&'static str),
    /// JSON without a content type.
    Untyped(Value),
    /// A body of this many bytes of JSON string.
    Big(usize),
}

/// One golden case: request → status, code and field.
struct Case {
    who: Who,
    method: &'static str,
    uri: &'static str,
    send: Sent,
    status: u16,
    code: &'static str,
    field: Option<&'static str>,
}

fn case(
    who: Who,
    method: &'static str,
    uri: &'static str,
    send: Sent,
    status: u16,
    code: &'static str,
    field: Option<&'static str>,
) -> Case {
    Case {
        who,
        method,
        uri,
        send,
        status,
        code,
        field,
    }
}

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
        Sent::Json(v) => req
            .header("content-type", "application/json")
            .body(Body::from(v.to_string())),
        Sent::Raw(text) => req
            .header("content-type", "application/json")
            .body(Body::from(text)),
        Sent::Untyped(v) => req.body(Body::from(v.to_string())),
        Sent::Big(n) => req
            .header("content-type", "application/json")
            .body(Body::from(format!("\"{}\"", "a".repeat(n)))),
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
    let (status, v) = call(router, "POST", "/api/tables", None, Sent::Json(body)).await;
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
        Sent::Json(json!({"role": "player"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{inv}");
    let invite = inv["token"].as_str().unwrap();
    let (status, joined) = call(
        &router,
        "POST",
        "/api/join",
        None,
        Sent::Json(json!({"invite": invite, "name": "Pia"})),
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
        Sent::Json(hero),
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

fn cases() -> Vec<Case> {
    use Sent::{Big, Json, Nothing, Raw, Untyped};
    use Who::{Gm, Nobody, Player, SoloGm, Stranger};
    let note = |v: Value| Json(json!({ "text": v }));
    vec![
        // The body as a whole.
        case(
            Gm,
            "POST",
            "/api/notes",
            Untyped(json!({"text": "x"})),
            415,
            "body-content-type",
            None,
        ),
        case(
            Gm,
            "POST",
            "/api/notes",
            Raw("{\"text\": "),
            400,
            "body-syntax",
            None,
        ),
        case(
            Gm,
            "POST",
            "/api/notes",
            Raw("{\"text\": \"a\"} x"),
            400,
            "body-syntax",
            None,
        ),
        case(
            Gm,
            "POST",
            "/api/notes",
            note(json!(5)),
            422,
            "body-invalid",
            Some("text"),
        ),
        case(
            Gm,
            "POST",
            "/api/notes",
            Json(json!({})),
            422,
            "body-invalid",
            None,
        ),
        case(
            Gm,
            "POST",
            "/api/roll",
            Json(json!({"expression": "1d6", "typed": [1, "a"]})),
            422,
            "body-invalid",
            Some("typed[1]"),
        ),
        case(
            Gm,
            "POST",
            "/api/roll",
            Json(json!({"expression": "1d6", "secert": true})),
            422,
            "body-invalid",
            Some("secert"),
        ),
        case(
            Gm,
            "POST",
            "/api/combat/end",
            Json(json!({"x": 1})),
            422,
            "body-invalid",
            Some("x"),
        ),
        // Valid JSON of the wrong type where a name goes (serde_json calls it a syntax error).
        case(
            Gm,
            "POST",
            "/api/vehicles/chase/odds",
            Json(json!({"pilot": 3, "speed": 5, "against_pilot": 3})),
            422,
            "body-invalid",
            Some("speed"),
        ),
        case(
            Gm,
            "POST",
            "/api/idea",
            Json(json!({"genre": "fantasy", "count": -1})),
            422,
            "body-invalid",
            Some("count"),
        ),
        case(
            Gm,
            "POST",
            "/api/invites",
            Json(json!({"role": "boss"})),
            422,
            "body-invalid",
            Some("role"),
        ),
        case(
            Nobody,
            "POST",
            "/api/reentry",
            Json(json!({"token": "x".repeat(500)})),
            422,
            "body-invalid",
            Some("token"),
        ),
        case(
            Gm,
            "POST",
            "/api/notes",
            Big(20_000),
            413,
            "body-too-large",
            None,
        ),
        case(
            Gm,
            "POST",
            "/api/oracle",
            Big(5_000),
            413,
            "body-too-large",
            None,
        ),
        // Query strings.
        case(
            Gm,
            "GET",
            "/api/journal?limit=abc",
            Nothing,
            422,
            "query-invalid",
            Some("limit"),
        ),
        case(
            Gm,
            "GET",
            "/api/journal?limit=0",
            Nothing,
            422,
            "query-invalid",
            Some("limit"),
        ),
        case(
            Gm,
            "GET",
            "/api/journal/export?format=pdf",
            Nothing,
            422,
            "query-invalid",
            Some("format"),
        ),
        case(
            Gm,
            "GET",
            "/api/me?verbose=1",
            Nothing,
            422,
            "query-invalid",
            Some("verbose"),
        ),
        // Sessions, hosts, origins, routes.
        case(
            Nobody,
            "GET",
            "/api/me",
            Nothing,
            401,
            "session-needed",
            None,
        ),
        case(
            Stranger,
            "GET",
            "/api/me",
            Nothing,
            401,
            "session-unknown",
            None,
        ),
        case(
            Gm,
            "GET",
            "/api/no-such-thing",
            Nothing,
            404,
            "not-found",
            None,
        ),
        case(
            Gm,
            "DELETE",
            "/api/me",
            Nothing,
            405,
            "method-not-allowed",
            None,
        ),
        case(
            Gm,
            "POST",
            "/api/journal/abc/reveal",
            Nothing,
            400,
            "bad-request",
            None,
        ),
        // Who may do what.
        case(
            Player,
            "POST",
            "/api/journal/1/reveal",
            Nothing,
            403,
            "gm-only",
            None,
        ),
        case(
            Player,
            "POST",
            "/api/combat/end",
            Nothing,
            403,
            "gm-only",
            None,
        ),
        case(
            Player,
            "POST",
            "/api/roll",
            Json(json!({"expression": "1d6", "secret": true})),
            403,
            "secret-gm-only",
            Some("secret"),
        ),
        case(
            Gm,
            "POST",
            "/api/roll",
            Json(json!({"expression": "1d6", "typed": [3]})),
            403,
            "forbidden",
            None,
        ),
        case(
            Nobody,
            "POST",
            "/api/reentry",
            Json(json!({"token": "nope"})),
            403,
            "reentry-unusable",
            None,
        ),
        case(
            Nobody,
            "POST",
            "/api/join",
            Json(json!({"invite": "nope", "name": "Ida"})),
            403,
            "invite-unusable",
            None,
        ),
        case(
            Gm,
            "DELETE",
            "/api/invites/999",
            Nothing,
            422,
            "invite-unknown",
            None,
        ),
        // Texts and names.
        case(
            Gm,
            "POST",
            "/api/notes",
            note(json!("  ")),
            422,
            "text-empty",
            Some("note"),
        ),
        case(
            Gm,
            "POST",
            "/api/notes",
            note(json!("a".repeat(10_001))),
            422,
            "text-too-long",
            Some("note"),
        ),
        case(
            Gm,
            "POST",
            "/api/notes",
            note(json!("bell\u{7}")),
            422,
            "text-control-character",
            Some("note"),
        ),
        // Characters and rules.
        case(
            Gm,
            "GET",
            "/api/characters/Nobody",
            Nothing,
            422,
            "character-unknown",
            None,
        ),
        case(
            Gm,
            "POST",
            "/api/characters",
            Json(json!({
                "name": "Nick", "body": 3, "mind": 2, "charm": 1, "backgrounds": ["Sailor"],
                "weapon": {"name": "dagger", "class": "light"}, "armor_name": "leather"
            })),
            422,
            "character-name-taken",
            None,
        ),
        // S9: Body, Mind and Charm are 3, 2 and 1 in some order.
        case(
            Gm,
            "POST",
            "/api/characters",
            Json(json!({
                "name": "Odd", "body": 3, "mind": 3, "charm": 1, "backgrounds": ["Sailor"],
                "weapon": {"name": "dagger", "class": "light"}, "armor_name": "leather"
            })),
            422,
            "rule-refused",
            Some("attributes"),
        ),
        // Dice typed by a game master alone at the table.
        case(
            SoloGm,
            "POST",
            "/api/roll",
            Json(json!({"expression": "1d6", "typed": [7]})),
            422,
            "dice-typed-invalid",
            None,
        ),
        case(
            SoloGm,
            "POST",
            "/api/roll",
            Json(json!({"expression": "1d6", "typed": [3, 4]})),
            422,
            "dice-too-many",
            None,
        ),
        // Expressions, ideas, scenes.
        case(
            Gm,
            "POST",
            "/api/odds",
            Json(json!({"expression": ""})),
            422,
            "expression-length",
            Some("expression"),
        ),
        case(
            Gm,
            "POST",
            "/api/odds",
            Json(json!({"expression": "3d"})),
            422,
            "expression-invalid",
            Some("expression"),
        ),
        case(
            Gm,
            "POST",
            "/api/idea",
            Json(json!({"genre": "no such genre"})),
            422,
            "genre-unknown",
            Some("genre"),
        ),
        case(
            Gm,
            "POST",
            "/api/idea",
            Json(json!({"genre": "fantasy", "count": 21})),
            422,
            "idea-count",
            Some("count"),
        ),
        case(
            Gm,
            "POST",
            "/api/scenes/end",
            Json(json!({})),
            422,
            "scene-none-open",
            None,
        ),
        // Vehicles (S10: speed counts only in a chase) and fight odds.
        case(
            Gm,
            "POST",
            "/api/vehicles/attack/odds",
            Json(json!({"pilot": 3, "speed": "fast", "against_pilot": 3})),
            422,
            "vehicle-speed-in-attack",
            Some("speed"),
        ),
        case(
            Gm,
            "POST",
            "/api/fight/odds",
            Json(json!({"heroes": ["Nick"], "foes": [{"name": "orc"}], "fights": 20_001})),
            422,
            "sim-fights",
            None,
        ),
        // The journal: entry 1 is the public creation of Nick made at setup.
        case(
            Gm,
            "POST",
            "/api/journal/1/reveal",
            Nothing,
            422,
            "entry-not-secret",
            None,
        ),
    ]
}

#[tokio::test]
async fn every_error_code_answers_as_documented() {
    let t = table().await;
    let mut failures = Vec::new();
    for c in cases() {
        let token = match c.who {
            Who::Nobody => None,
            Who::Stranger => Some("not-a-session"),
            Who::Gm => Some(t.gm.as_str()),
            Who::Player => Some(t.player.as_str()),
            Who::SoloGm => Some(t.solo.as_str()),
        };
        let (status, body) = call(&t.router, c.method, c.uri, token, c.send.clone()).await;
        let got = (
            status.as_u16(),
            body["code"].as_str().unwrap_or("(none)").to_owned(),
            body.get("field").and_then(Value::as_str).map(str::to_owned),
        );
        let want = (c.status, c.code.to_owned(), c.field.map(str::to_owned));
        assert!(body["error"].is_string(), "{} {}: {body}", c.method, c.uri);
        if got != want {
            failures.push(format!(
                "{:?} {} {} {:?}: want {want:?}, got {got:?}: {body}",
                c.who, c.method, c.uri, c.send
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
