//! A golden test per error code (docs/api.md, "Error codes"): one table of requests, each
//! sent through the real router over a real SQLite campaign, with the status, the `code`
//! and the `field` the documentation gives for it. Every error answer has all three keys'
//! shape: `error` (text), `code` (text), `field` (text, or absent).
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use Sent::{Big, Json, Long, Nothing, Repeat, Untyped};
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
    /// This JSON with `LIST` replaced by this many copies of the item, comma-separated.
    Repeat(&'static str, &'static str, usize),
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
    campaign: std::path::PathBuf,
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
        Sent::Repeat(text, item, n) => req
            .header("content-type", "application/json")
            .body(Body::from(text.replace("LIST", &vec![item; n].join(",")))),
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
    // Unthrottled: the golden rows come faster than a session's rate allows.
    let campaign = dir.path().join("campaign.solum");
    let mut config = Config::new(campaign.clone()).unthrottled();
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
    setup(&router, &gm, SHEETS).await;
    setup(&router, &solo, SOLO_SHEETS).await;
    Table {
        router,
        gm,
        player,
        solo,
        campaign,
        _dir: dir,
    }
}

/// Sends each request as `token`'s and wants it done (2xx).
async fn setup(router: &Router, token: &str, steps: &[(&str, &str, &str)]) {
    for (method, uri, body) in steps {
        let send = if body.is_empty() {
            Sent::Nothing
        } else {
            Sent::Value(serde_json::from_str(body).unwrap())
        };
        let (status, v) = call(router, method, uri, Some(token), send).await;
        assert!(status.is_success(), "{method} {uri}: {status} {v}");
    }
}

/// A character of each sibling system and a second Expanded one at the first table, made by
/// its game master: Ana (Project Sol, BOD and AGI tied highest), Titan (Project Sol, whose
/// BOD and ranks in Lift, each a sheet's most, build a pool past the 1,000 dice one rolls),
/// Cid (the original), Csen and Viled (Sol'una; Viled has no ranged dice), Rook (die types),
/// and Ola (Expanded, at 0 hit points).
const SHEETS: &[(&str, &str, &str)] = &[
    (
        "POST",
        "/api/sol/characters",
        r#"{"name": "Ana", "edge": 2, "attributes": [["BOD", 4], ["AGI", 4], ["REA", 3], ["STR", 2]],
            "skills": [["Sidearms", 2]]}"#,
    ),
    (
        "POST",
        "/api/sol/characters",
        r#"{"name": "Titan", "edge": 1, "attributes": [["BOD", 1000]], "skills": [["Lift", 1000]]}"#,
    ),
    (
        "POST",
        "/api/classic/characters",
        r#"{"name": "Cid", "cliches": ["Thief"]}"#,
    ),
    (
        "POST",
        "/api/soluna/characters",
        r#"{"name": "Csen", "side": "sun", "mind": 2, "body": 1, "hit_points": 3, "melee": 5,
            "ranged": 2, "flips": 3}"#,
    ),
    (
        "POST",
        "/api/soluna/characters",
        r#"{"name": "Viled", "side": "smugglers", "mind": 1, "body": 0, "hit_points": 2, "melee": 1}"#,
    ),
    (
        "POST",
        "/api/dietype/characters",
        r#"{"name": "Rook", "abilities": [["Strength", "d8"]], "skills": [["Fight", 2]]}"#,
    ),
    (
        "POST",
        "/api/characters",
        r#"{"name": "Ola", "body": 3, "mind": 2, "charm": 1, "backgrounds": ["Sailor"],
            "weapon": {"name": "dagger", "class": "light"}, "armor_name": "leather"}"#,
    ),
    ("PATCH", "/api/characters/Ola", r#"{"damage": 99}"#),
];

/// At the table of a game master alone (typed dice allowed): Ana and Nick again.
const SOLO_SHEETS: &[(&str, &str, &str)] = &[
    (
        "POST",
        "/api/sol/characters",
        r#"{"name": "Ana", "edge": 2, "attributes": [["BOD", 4]], "skills": [["Sidearms", 2]]}"#,
    ),
    ("POST", "/api/characters", NICK),
];

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
        "/api/join",
        Repeat(r#"{"invite": "LIST", "name": "Ida"}"#, "aaaaaaaaaa", 21),
        422,
        "body-invalid",
        Some("invite"),
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
        Big(70_000),
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
        "/api/journal?limit=501",
        Nothing,
        422,
        "query-invalid",
        Some("limit"),
    ),
    // 201 characters: one past the search's limit.
    (
        Gm,
        "GET",
        "/api/journal?q=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        Nothing,
        422,
        "query-invalid",
        Some("q"),
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
    // Envelope bodies (a system's request with `secret` and `typed` beside it): a key given
    // twice is refused, never taken last (a secret roll must not go out in public), and a
    // field of either part that does not read is named.
    (
        Gm,
        "POST",
        "/api/characters/Nick/check",
        Json(
            r#"{"attribute": "body", "against": {"difficulty": 4}, "secret": true, "secret": false}"#,
        ),
        422,
        "body-invalid",
        Some("secret"),
    ),
    (
        Gm,
        "POST",
        "/api/sol/characters/Ana/test",
        Json(r#"{"skill": "Sidearms", "skill": "Pistols", "attribute": "AGI"}"#),
        422,
        "body-invalid",
        Some("skill"),
    ),
    (
        Gm,
        "POST",
        "/api/characters/Nick/check",
        Json(r#"{"attribute": "body", "against": {"difficulty": 4, "difficulty": 5}}"#),
        422,
        "body-invalid",
        Some("difficulty"),
    ),
    (
        Gm,
        "POST",
        "/api/vehicles/chase",
        Json(r#"{"pilot": 3, "against_pilot": 3, "secret": false, "secret": true}"#),
        422,
        "body-invalid",
        Some("secret"),
    ),
    (
        Gm,
        "POST",
        "/api/soluna/characters/Csen/test",
        Json(r#"{"attack": "melee", "flips": "two"}"#),
        422,
        "body-invalid",
        Some("flips"),
    ),
    (
        Gm,
        "POST",
        "/api/classic/characters/Cid/check",
        Json(r#"{"stat": "body", "typed": [1, "a"]}"#),
        422,
        "body-invalid",
        Some("typed[1]"),
    ),
    (
        Gm,
        "POST",
        "/api/dietype/characters/Rook/roll",
        Json(
            r#"{"ability": "Strength", "skill": null, "step": "x", "against": {"difficulty": 6}, "weapon": null, "damage_step": 0}"#,
        ),
        422,
        "body-invalid",
        Some("step"),
    ),
    (
        Gm,
        "POST",
        "/api/sol/characters/Ana/spend",
        Json(r#"{"what": "blitz", "secert": true}"#),
        422,
        "body-invalid",
        Some("secert"),
    ),
    // A query parameter that does not read is said in JSON words.
    (
        Gm,
        "GET",
        "/api/journal?limit=2.0",
        Nothing,
        422,
        "query-invalid",
        Some("limit"),
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
    // The app's use case refuses a player before it reads anything: a character, a
    // skirmish or a member that does not exist gets the same answer.
    (
        Player,
        "PUT",
        "/api/settings/real-dice",
        Json(r#"{"on": true}"#),
        403,
        "gm-only",
        None,
    ),
    (
        Player,
        "POST",
        "/api/combat",
        Json("{}"),
        403,
        "gm-only",
        None,
    ),
    (
        Player,
        "POST",
        "/api/soluna/skirmish",
        Json(r#"{"names": ["Csen", "Viled"]}"#),
        403,
        "gm-only",
        None,
    ),
    (
        Player,
        "POST",
        "/api/soluna/skirmish/go",
        Json("{}"),
        403,
        "gm-only",
        None,
    ),
    (
        Player,
        "POST",
        "/api/soluna/skirmish/abandon",
        Nothing,
        403,
        "gm-only",
        None,
    ),
    (
        Player,
        "POST",
        "/api/sol/characters/Nobody/encounter",
        Nothing,
        403,
        "gm-only",
        None,
    ),
    (
        Player,
        "POST",
        "/api/sol/characters/Nobody/session",
        Nothing,
        403,
        "gm-only",
        None,
    ),
    (
        Player,
        "POST",
        "/api/sol/characters/Nobody/reward",
        Nothing,
        403,
        "gm-only",
        None,
    ),
    (
        Player,
        "POST",
        "/api/members/1/reentry",
        Nothing,
        403,
        "gm-only",
        None,
    ),
    // Dice typed by hand where the table does not take them: a player's, whatever the use
    // case (the app asks).
    (
        Player,
        "POST",
        "/api/combat/line",
        Json(r#"{"line": "melee orc with 6,6"}"#),
        403,
        "forbidden",
        None,
    ),
    (
        Player,
        "POST",
        "/api/vehicles/chase",
        Json(r#"{"pilot": 3, "against_pilot": 3, "rolled": [1, 2, 3]}"#),
        403,
        "forbidden",
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
    // A fight's status of a name no sheet has is unknown, not "no fight" (QA run).
    (
        Gm,
        "GET",
        "/api/characters/Nobody/static",
        Nothing,
        422,
        "character-unknown",
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
    // A zero-width space hidden in a member's name.
    (
        Nobody,
        "POST",
        "/api/tables",
        Json(r#"{"table": "Dock", "name": "Gi\u200ba"}"#),
        422,
        "name-invalid",
        Some("name"),
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
    (
        SoloGm,
        "POST",
        "/api/roll",
        Json(r#"{"expression": "2d6", "typed": [3]}"#),
        422,
        "dice-too-few",
        None,
    ),
    // A vehicle roll's typed face that no die shows.
    (
        SoloGm,
        "POST",
        "/api/vehicles/chase",
        Json(r#"{"pilot": 1, "against_pilot": 1, "rolled": [7], "against_rolled": [2]}"#),
        422,
        "dice-not-a-face",
        Some("rolled"),
    ),
    (
        SoloGm,
        "POST",
        "/api/vehicles/chase",
        Repeat(
            r#"{"pilot": 1, "against_pilot": 1, "rolled": [LIST]}"#,
            "3",
            2001,
        ),
        422,
        "dice-typed-limit",
        Some("rolled"),
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
        "body-invalid",
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
    // Vehicles (S10: speed counts only in a chase; a pilot's pool is 1 to 1000 dice) and
    // fight odds (20,000 fights at most).
    (
        Gm,
        "POST",
        "/api/vehicles/chase",
        Json(r#"{"pilot": 1001, "against_pilot": 3}"#),
        422,
        "body-invalid",
        Some("pilot"),
    ),
    (
        Gm,
        "POST",
        "/api/vehicles/attack/odds",
        Json(r#"{"pilot": 3, "against_pilot": 0}"#),
        422,
        "body-invalid",
        Some("against_pilot"),
    ),
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
    (
        Gm,
        "POST",
        "/api/fight/odds",
        Json(
            r#"{"heroes": ["Nick"], "foes": [{"name": "orc", "count": 100}, {"name": "orc", "count": 100}], "fights": 20000}"#,
        ),
        422,
        "sim-too-much-work",
        None,
    ),
    (
        Gm,
        "POST",
        "/api/fight/odds",
        Json(r#"{"heroes": ["Nick"]}"#),
        422,
        "sim-empty-side",
        None,
    ),
    (
        Gm,
        "POST",
        "/api/fight/odds",
        Json(r#"{"current_combat": true, "heroes": ["Nick"]}"#),
        422,
        "sim-combat-and-chosen",
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

/// The golden table of the systems' refusals, at the table `table` sets up.
const SYSTEM_CASES: &[Case] = &[
    // So1um Expanded: Nick's sheet, checks and rests (S1, S3, S16, S17)
    (
        Gm,
        "PATCH",
        "/api/characters/Nick",
        Json(r#"{"add_gear": [{"name": " ", "effect": "reroll"}]}"#),
        422,
        "character-sheet-limit",
        Some("add_gear"),
    ),
    (
        Gm,
        "PATCH",
        "/api/characters/Nick",
        Json(r#"{"add_weapons": [{"name": "dagger", "class": "light"}]}"#),
        422,
        "character-already-has",
        Some("add_weapons"),
    ),
    (
        Gm,
        "PATCH",
        "/api/characters/Nick",
        Json(r#"{"add_gear": [{"name": "rope", "effect": "enables"}], "remove_gear": ["Rope"]}"#),
        422,
        "edit-named-twice",
        Some("add_gear"),
    ),
    (
        Gm,
        "PATCH",
        "/api/characters/Nick",
        Json(r#"{"remove_weapons": ["dagger", "Dagger"]}"#),
        422,
        "edit-named-twice",
        Some("remove_weapons"),
    ),
    (
        Gm,
        "PATCH",
        "/api/characters/Nick",
        Json(r#"{"set": [["body", 2]]}"#),
        422,
        "edit-by-advancement-only",
        Some("set"),
    ),
    (
        Gm,
        "POST",
        "/api/characters/Nick/rest",
        Json(r#"{"hours": 0.001}"#),
        422,
        "rest-hours",
        Some("hours"),
    ),
    (
        Gm,
        "POST",
        "/api/characters/Ola/check",
        Json(r#"{"attribute": "body", "against": {"difficulty": 4}}"#),
        422,
        "character-out",
        Some("hit_points"),
    ),
    (
        Gm,
        "POST",
        "/api/characters/Nick/odds",
        Json(r#"{"attribute": "body", "gear_die": {"die": 9}, "against": {"difficulty": 4}}"#),
        422,
        "check-gear-die",
        Some("gear_die"),
    ),
    (
        Gm,
        "POST",
        "/api/characters/Nick/odds",
        Json(r#"{"attribute": "body", "against": {"difficulty": 4}, "roll_off": true}"#),
        422,
        "check-roll-off",
        Some("roll_off"),
    ),
    (
        Gm,
        "POST",
        "/api/characters/Nick/odds",
        Json(r#"{"attribute": "body", "against": {"difficulty": 0}}"#),
        422,
        "body-invalid",
        Some("against.difficulty"),
    ),
    (
        Gm,
        "POST",
        "/api/characters/Nick/odds",
        Json(r#"{"attribute": "body", "against": {"opposed": {"dice": 0, "gear": false}}}"#),
        422,
        "body-invalid",
        Some("against.opposed.dice"),
    ),
    // The original: Cid's checks, fights, gear and rests (C1, C2)
    (
        Gm,
        "POST",
        "/api/classic/characters",
        Json(r#"{"name": "Bo", "cliches": ["Thief", "thief"]}"#),
        422,
        "classic-rules",
        Some("cliches[1]"),
    ),
    (
        Gm,
        "POST",
        "/api/classic/characters/Cid/gear",
        Json(
            r#"{"add": ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r", "s", "t", "u"]}"#,
        ),
        422,
        "classic-sheet-limit",
        Some("add"),
    ),
    (
        Gm,
        "POST",
        "/api/classic/characters/Cid/gear",
        Json("{}"),
        422,
        "classic-gear",
        Some("gear"),
    ),
    (
        Gm,
        "POST",
        "/api/classic/characters/Cid/fight",
        Json(r#"{"foes": ["Nobody"]}"#),
        422,
        "classic-foe-unknown",
        Some("foes"),
    ),
    (
        Gm,
        "POST",
        "/api/classic/characters/Cid/fight",
        Repeat(r#"{"foes": [LIST]}"#, r#""Goblin""#, 101),
        422,
        "classic-foes",
        Some("foes"),
    ),
    (
        Gm,
        "POST",
        "/api/classic/characters/Cid/fight",
        Json(r#"{"foes": ["Goblin"], "decide": "body"}"#),
        422,
        "classic-decide",
        Some("decide"),
    ),
    (
        Gm,
        "POST",
        "/api/classic/characters/Cid/fight",
        Json("{}"),
        422,
        "classic-not-in-fight",
        Some("fight"),
    ),
    (
        Gm,
        "POST",
        "/api/classic/characters/Cid/fight",
        Json(r#"{"foes": ["Goblin"], "secret": true}"#),
        422,
        "classic-secret-fight",
        Some("secret"),
    ),
    (
        Gm,
        "POST",
        "/api/classic/characters/Cid/rest",
        Json(r#"{"hours": 0}"#),
        422,
        "classic-rest-hours",
        Some("hours"),
    ),
    // C2 banks rest in seconds: a shorter rest is refused, not journaled as nothing.
    (
        Gm,
        "POST",
        "/api/classic/characters/Cid/rest",
        Json(r#"{"hours": 5e-324}"#),
        422,
        "classic-rest-hours",
        Some("hours"),
    ),
    (
        Gm,
        "POST",
        "/api/classic/characters/Cid/check",
        Json(r#"{"stat": "body", "difficulty": 7}"#),
        422,
        "body-invalid",
        Some("difficulty"),
    ),
    (
        Gm,
        "POST",
        "/api/classic/characters/Cid/check",
        Json(r#"{"stat": "body", "cliche": "Nope"}"#),
        422,
        "classic-cliche",
        Some("cliche"),
    ),
    // Project Sol: Ana's sheet, tests and Edge (P2, P5)
    (
        Gm,
        "POST",
        "/api/sol/characters/Ana/test",
        Repeat(
            r#"{"skill": "Sidearms", "attribute": "AGI", "modifiers": [LIST]}"#,
            "1",
            51,
        ),
        422,
        "sol-modifiers",
        Some("modifiers"),
    ),
    (
        Gm,
        "POST",
        "/api/sol/characters",
        Json(r#"{"name": "Bea", "edge": 1, "attributes": [["AGI", 2]], "skills": [[" ", 1]]}"#),
        422,
        "sol-sheet-invalid",
        Some("sheet"),
    ),
    (
        Gm,
        "POST",
        "/api/sol/characters",
        Json(r#"{"name": "Bea", "edge": 1, "attributes": [["AGI", 2], ["agi", 3]], "skills": []}"#),
        422,
        "sol-named-twice",
        Some("attributes"),
    ),
    (
        Gm,
        "POST",
        "/api/sol/characters",
        Json(r#"{"name": "Ana", "edge": 1, "attributes": [["AGI", 2]], "skills": []}"#),
        422,
        "character-name-taken",
        Some("name"),
    ),
    (
        Gm,
        "POST",
        "/api/sol/characters/Ana/test",
        Json(r#"{"skill": "Sidearms", "attribute": "AGI", "threshold": 1001}"#),
        422,
        "body-invalid",
        Some("threshold"),
    ),
    (
        Gm,
        "POST",
        "/api/sol/characters/Ana/test",
        Json(r#"{"skill": "Sidearms", "attribute": "AGI", "against": {"dice": 0}}"#),
        422,
        "body-invalid",
        Some("against.dice"),
    ),
    (
        Gm,
        "POST",
        "/api/sol/characters/Ana/test",
        Json(r#"{"skill": "Sidearms", "attribute": "AGI", "modifiers": [1, -1001]}"#),
        422,
        "body-invalid",
        Some("modifiers[1]"),
    ),
    // BOD 1000 + 1000 ranks: 2,000 dice, past the 1,000 a pool rolls (R2).
    (
        Gm,
        "POST",
        "/api/sol/characters/Titan/test",
        Json(r#"{"skill": "Lift", "attribute": "BOD"}"#),
        422,
        "sol-pool",
        Some("pool"),
    ),
    (
        Gm,
        "POST",
        "/api/sol/characters",
        Json(r#"{"name": "Bea", "edge": 1001, "attributes": [["AGI", 2]], "skills": []}"#),
        422,
        "body-invalid",
        Some("edge"),
    ),
    (
        Gm,
        "POST",
        "/api/sol/characters/Ana/test",
        Json(r#"{"skill": "Sidearms", "attribute": "LOG"}"#),
        422,
        "sol-attribute-unknown",
        Some("attribute"),
    ),
    (
        Gm,
        "POST",
        "/api/sol/characters/Ana/test",
        Json(r#"{"skill": "Sidearms", "attribute": "AGI", "then": "push-the-limit"}"#),
        422,
        "sol-edge",
        Some("then"),
    ),
    (
        Gm,
        "POST",
        "/api/sol/characters/Ana/test",
        Json(r#"{"skill": "Sidearms", "attribute": "AGI", "retry": 1}"#),
        422,
        "sol-retry",
        Some("retry"),
    ),
    (
        Gm,
        "POST",
        "/api/sol/characters/Ana/test",
        Json(r#"{"skill": "Sidearms", "attribute": "AGI", "group": ["Ana"]}"#),
        422,
        "sol-group",
        Some("group"),
    ),
    (
        Gm,
        "POST",
        "/api/sol/characters/Ana/test",
        Json(r#"{"skill": "Sidearms", "attribute": "AGI", "buy": true, "edge": "push-the-limit"}"#),
        422,
        "sol-buy",
        Some("buy"),
    ),
    (
        Gm,
        "POST",
        "/api/sol/characters/Ana/test",
        Json(
            r#"{"skill": "Sidearms", "attribute": "AGI", "threshold": 1, "against": {"dice": 3}}"#,
        ),
        422,
        "sol-opposed",
        Some("against"),
    ),
    (
        Gm,
        "POST",
        "/api/sol/characters/Ana/test",
        Json(r#"{"skill": "Sidearms", "attribute": "AGI", "assist": {"character": "Ana"}}"#),
        422,
        "sol-assistant",
        Some("assistant"),
    ),
    (
        Gm,
        "POST",
        "/api/sol/characters/Ana/not-dead-yet",
        Json("{}"),
        422,
        "sol-attribute-tie",
        Some("attribute"),
    ),
    (
        Gm,
        "POST",
        "/api/sol/characters/Ana/not-dead-yet",
        Json(r#"{"attribute": "REA"}"#),
        422,
        "sol-attribute-not-highest",
        Some("attribute"),
    ),
    (
        SoloGm,
        "POST",
        "/api/sol/characters/Ana/spend",
        Json(r#"{"what": "blitz", "typed": [6]}"#),
        422,
        "sol-no-dice",
        Some("dice"),
    ),
    // Sol'una: Csen and Viled, their tests and skirmishes (U2, U5)
    (
        Gm,
        "POST",
        "/api/soluna/characters",
        Json(
            r#"{"name": "Zed", "side": "sun", "mind": 99, "body": 1, "hit_points": 3, "melee": 5}"#,
        ),
        422,
        "soluna-sheet-invalid",
        Some("mind"),
    ),
    (
        Gm,
        "POST",
        "/api/soluna/characters/Viled/test",
        Json(r#"{"attack": "ranged"}"#),
        422,
        "soluna-attack",
        Some("attack"),
    ),
    (
        Gm,
        "POST",
        "/api/soluna/characters/Csen/test",
        Json(r#"{"attack": "melee", "flips": 99}"#),
        422,
        "soluna-flips",
        Some("flips"),
    ),
    (
        Gm,
        "POST",
        "/api/soluna/characters/Csen/test",
        Json(r#"{"attack": "melee", "against": 4000000000}"#),
        422,
        "body-invalid",
        Some("against"),
    ),
    (
        Gm,
        "POST",
        "/api/soluna/characters/Csen/test",
        Json(r#"{"attack": "melee", "target": 0}"#),
        422,
        "body-invalid",
        Some("target"),
    ),
    (
        Gm,
        "POST",
        "/api/soluna/skirmish/act",
        Json(r#"{"name": "Csen", "action": "move", "target": "Viled"}"#),
        422,
        "soluna-no-skirmish",
        None,
    ),
    (
        Gm,
        "POST",
        "/api/soluna/skirmish",
        Json(r#"{"names": ["Csen"]}"#),
        422,
        "soluna-skirmish",
        None,
    ),
    (
        Gm,
        "POST",
        "/api/soluna/skirmish",
        Json(r#"{"names": ["Csen", "Viled", "csen"]}"#),
        422,
        "soluna-names",
        Some("names"),
    ),
    (
        Gm,
        "POST",
        "/api/soluna/skirmish",
        Json(r#"{"names": ["Csen", "Viled"], "auto": ["Nobody"]}"#),
        422,
        "soluna-auto",
        Some("auto"),
    ),
    // Die types: Rook's rolls
    (
        Gm,
        "POST",
        "/api/dietype/characters",
        Json(r#"{"name": "Ray", "abilities": [["Strength", "d8"]], "skills": [["Fight", 9]]}"#),
        422,
        "dietype-sheet-invalid",
        Some("skills.Fight"),
    ),
    (
        Gm,
        "POST",
        "/api/dietype/characters/Rook/roll",
        Json(
            r#"{"ability": "Wits", "skill": null, "step": 0, "against": {"difficulty": 6}, "weapon": null, "damage_step": 0}"#,
        ),
        422,
        "dietype-has-no",
        Some("ability"),
    ),
    (
        Gm,
        "POST",
        "/api/dietype/characters/Rook/roll",
        Json(
            r#"{"ability": "Strength", "skill": null, "step": 99, "against": {"difficulty": 6}, "weapon": null, "damage_step": 0}"#,
        ),
        422,
        "body-invalid",
        Some("step"),
    ),
    (
        Gm,
        "POST",
        "/api/dietype/characters/Rook/roll",
        Json(
            r#"{"ability": "Strength", "skill": null, "step": 0, "against": {"difficulty": 13}, "weapon": null, "damage_step": 0}"#,
        ),
        422,
        "body-invalid",
        Some("against.difficulty"),
    ),
    (
        Gm,
        "POST",
        "/api/dietype/characters/Rook/roll",
        Json(
            r#"{"ability": "Strength", "skill": null, "step": 0, "against": {"opposed": {"die": "d6", "chances": 9, "step": 0}}, "weapon": null, "damage_step": 0}"#,
        ),
        422,
        "body-invalid",
        Some("against.opposed.chances"),
    ),
    // Fast static combat (S11, S18) and fight odds
    (
        Gm,
        "POST",
        "/api/characters/Nick/static",
        Json(r#"{"foe": "nobody"}"#),
        422,
        "static-opposition",
        Some("foe"),
    ),
    (
        Gm,
        "POST",
        "/api/characters/Nick/static",
        Json(
            r#"{"foe": "trooper squad", "opposition": {"name": "guards", "difficulty": 4, "hit_points": 3, "damage": 1}}"#,
        ),
        422,
        "static-opposition",
        Some("foe"),
    ),
    (
        Gm,
        "POST",
        "/api/characters/Nick/static",
        Json("{}"),
        422,
        "static-state",
        None,
    ),
    (
        Gm,
        "POST",
        "/api/characters/Nick/static",
        Json(r#"{"foe": "trooper squad", "weapon": "axe"}"#),
        422,
        "static-weapon",
        Some("weapon"),
    ),
    (
        Gm,
        "POST",
        "/api/characters/Nick/static",
        Json(r#"{"foe": "trooper squad", "background": "Nope"}"#),
        422,
        "static-background",
        Some("background"),
    ),
    (
        Gm,
        "POST",
        "/api/characters/Ola/static",
        Json(r#"{"foe": "trooper squad"}"#),
        422,
        "static-out",
        Some("name"),
    ),
    // A static opposition's difficulty is 1 to 12 (the rules' go to 1000).
    (
        Gm,
        "POST",
        "/api/characters/Nick/static",
        Json(
            r#"{"opposition": {"name": "guards", "difficulty": 13, "hit_points": 3, "damage": 1}}"#,
        ),
        422,
        "body-invalid",
        Some("opposition.difficulty"),
    ),
    (
        Gm,
        "POST",
        "/api/characters/Nick/static",
        Json(
            r#"{"opposition": {"name": "guards", "difficulty": 4, "hit_points": 10001, "damage": 1}}"#,
        ),
        422,
        "body-invalid",
        Some("opposition.hit_points"),
    ),
    (
        SoloGm,
        "POST",
        "/api/characters/Nick/static",
        Repeat(r#"{"foe": "trooper squad", "typed": [LIST]}"#, "6", 1500),
        422,
        "static-dice",
        Some("rolled"),
    ),
    // A table's members
    (
        Gm,
        "POST",
        "/api/members/999/reentry",
        Json("{}"),
        422,
        "member-unknown",
        Some("id"),
    ),
];

/// What the game master opens before [`UNDER_WAY_CASES`]: a combat with Nick, and a skirmish
/// of Csen and Viled.
const UNDER_WAY: &[(&str, &str, &str)] = &[
    ("POST", "/api/combat", r#"{"heroes": ["Nick"]}"#),
    (
        "POST",
        "/api/soluna/skirmish",
        r#"{"names": ["Csen", "Viled"]}"#,
    ),
];

/// The golden rows of refusals of what is under way (after [`UNDER_WAY`]).
const UNDER_WAY_CASES: &[Case] = &[
    (
        Gm,
        "POST",
        "/api/combat",
        Json(r#"{"heroes": ["Nick"]}"#),
        422,
        "combat-open",
        Some("combat"),
    ),
    (
        Gm,
        "POST",
        "/api/combat/line",
        Json(r#"{"line": "frobnicate"}"#),
        422,
        "combat-line",
        Some("line"),
    ),
    (
        Gm,
        "POST",
        "/api/soluna/skirmish",
        Json(r#"{"names": ["Csen", "Viled"]}"#),
        422,
        "soluna-skirmish-under-way",
        None,
    ),
    (
        Gm,
        "POST",
        "/api/soluna/skirmish/act",
        Json(r#"{"name": "Nobody", "action": "move", "target": "Viled"}"#),
        422,
        "soluna-not-in-skirmish",
        Some("name"),
    ),
    (
        Gm,
        "POST",
        "/api/soluna/skirmish/act",
        Json(r#"{"name": "Csen", "action": "move", "target": "Viled", "flips": 1}"#),
        422,
        "soluna-action",
        Some("action"),
    ),
];

/// The golden rows of sheets stored by another solum: Nick, Cid and Ana at schema 999.
const STORED_CASES: &[Case] = &[
    (
        Gm,
        "POST",
        "/api/characters/Nick/odds",
        Json(r#"{"attribute": "body", "against": {"difficulty": 4}}"#),
        422,
        "character-sheet-unreadable",
        Some("schema"),
    ),
    (
        Gm,
        "POST",
        "/api/classic/characters/Cid/check",
        Json(r#"{"stat": "body"}"#),
        422,
        "classic-sheet-unreadable",
        Some("schema"),
    ),
    (
        Gm,
        "POST",
        "/api/sol/characters/Ana/test",
        Json(r#"{"skill": "Sidearms", "attribute": "AGI"}"#),
        422,
        "sol-sheet-unreadable",
        Some("schema"),
    ),
];

/// The golden rows of a combat and a creature stored by another solum (a body this one does
/// not read) and of a fight of the original whose stored dice no longer give its calls
/// (set up in `a_stored_combat_creature_or_fight_this_solum_cannot_read_answers_as_documented`).
const DAMAGED_CASES: &[Case] = &[
    (
        Gm,
        "GET",
        "/api/combat",
        Sent::Nothing,
        422,
        "combat-unreadable",
        Some("combat"),
    ),
    (
        Gm,
        "GET",
        "/api/bestiary",
        Sent::Nothing,
        422,
        "creature-unreadable",
        Some("creature"),
    ),
    (
        Gm,
        "GET",
        "/api/classic/characters/Cid/fight",
        Sent::Nothing,
        422,
        "classic-replay-mismatch",
        Some("fight"),
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
    let failures = run(&t, CASES.iter().chain(SYSTEM_CASES)).await;
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// Refusals of what is under way: a combat, a skirmish, a fight of the original, each
/// opened by the game master before the rows are sent.
#[tokio::test]
async fn refusals_of_what_is_under_way_answer_as_documented() {
    let t = table().await;
    setup(&t.router, &t.gm, UNDER_WAY).await;
    let failures = run(&t, UNDER_WAY_CASES).await;
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// Sheets stored by another solum (a schema this one does not read): each system refuses
/// to use them with its own code, nothing changed.
#[tokio::test]
async fn stored_sheets_this_solum_cannot_read_answer_as_documented() {
    let t = table().await;
    let db = rusqlite::Connection::open(&t.campaign).unwrap();
    let damaged = db
        .execute(
            "UPDATE sheets SET schema = 999 WHERE name IN ('Nick', 'Cid', 'Ana')",
            [],
        )
        .unwrap();
    // Nick at both tables, Cid, and Ana at both tables.
    assert_eq!(damaged, 5);
    drop(db);
    let failures = run(&t, STORED_CASES).await;
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// The golden rows of a Sol'una character out (0 hit points, as a lost skirmish leaves one).
const OUT_CASES: &[Case] = &[
    (
        Gm,
        "POST",
        "/api/soluna/characters/Csen/test",
        Json(r#"{"attack": "melee"}"#),
        422,
        "soluna-out",
        Some("name"),
    ),
    (
        Gm,
        "POST",
        "/api/soluna/skirmish",
        Json(r#"{"names": ["Csen", "Viled"]}"#),
        422,
        "soluna-out",
        Some("names"),
    ),
];

/// A Sol'una character at 0 hit points (what a lost skirmish writes back, set here in the
/// file) tests nothing and fights in no skirmish.
#[tokio::test]
async fn a_soluna_character_out_answers_as_documented() {
    let t = table().await;
    let db = rusqlite::Connection::open(&t.campaign).unwrap();
    let out = db
        .execute(
            "UPDATE sheets SET body = json_set(body, '$.hit_points', 0)
             WHERE system = 'soluna' AND name = 'Csen'",
            [],
        )
        .unwrap();
    assert!(out >= 1);
    drop(db);
    let failures = run(&t, OUT_CASES).await;
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// Cid's fight of the original against a goblin, left under way: the game master says the
/// table rolls real dice and types threes for the first exchange (C3: a tie, the round goes
/// on); a call with typed dice stops when they are used. Cid's Body was rolled at creation,
/// so the count an exchange takes (his dice and the goblin's) is found by trying. Returns it.
async fn classic_fight_under_way(t: &Table) -> usize {
    setup(
        &t.router,
        &t.gm,
        &[("PUT", "/api/settings/real-dice", r#"{"on": true}"#)],
    )
    .await;
    let mut tried = Vec::new();
    for n in 1..=12 {
        let (status, v) = call(
            &t.router,
            "POST",
            "/api/classic/characters/Cid/fight",
            Some(&t.gm),
            Sent::Value(json!({"foes": ["Goblin"], "typed": vec![3; n]})),
        )
        .await;
        if status == StatusCode::OK {
            let dice: u64 = v["dice"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d.as_u64().unwrap())
                .sum();
            assert_eq!(dice, n as u64, "{v}");
            assert_eq!(v["status"]["over"], json!(false), "{v}");
            assert_eq!(v["status"]["round"], json!(2), "{v}");
            return n;
        }
        assert_eq!(v["code"], json!("dice-too-few"), "{v}");
        tried.push(format!("{n}: {status} {v}"));
    }
    panic!(
        "no count of typed dice starts the fight:\n{}",
        tried.join("\n")
    );
}

/// The golden rows of a fight of the original under way (after [`classic_fight_under_way`]).
const CLASSIC_FIGHT_CASES: &[Case] = &[
    (
        Gm,
        "POST",
        "/api/classic/characters/Cid/rest",
        Json(r#"{"hours": 1}"#),
        422,
        "classic-in-fight",
        Some("hours"),
    ),
    (
        Gm,
        "POST",
        "/api/classic/characters/Cid/fight",
        Json(r#"{"foes": ["Goblin"]}"#),
        422,
        "classic-in-fight",
        Some("fight"),
    ),
];

/// The golden row of a fight of the original at its most calls (its dice are checked after
/// its length: none are typed).
const CLASSIC_FIGHT_FULL_CASES: &[Case] = &[(
    Gm,
    "POST",
    "/api/classic/characters/Cid/fight",
    Json("{}"),
    422,
    "classic-fight-too-long",
    Some("fight"),
)];

#[tokio::test]
async fn a_fight_of_the_original_under_way_and_at_its_most_calls_answers_as_documented() {
    let t = table().await;
    classic_fight_under_way(&t).await;
    let failures = run(&t, CLASSIC_FIGHT_CASES).await;
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
    // The fight at its most calls: its first call (a tie) kept as every call it may keep,
    // written into the file rather than played call by call.
    let db = rusqlite::Connection::open(&t.campaign).unwrap();
    let body: String = db
        .query_row(
            "SELECT body FROM sheets WHERE system = 'classic-fight'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let mut body: Value = serde_json::from_str(&body).unwrap();
    let first = body["fight"]["segments"][0].clone();
    body["fight"]["segments"] = Value::Array(vec![first; solum_app::classic::MAX_FIGHT_CALLS]);
    db.execute(
        "UPDATE sheets SET body = ?1 WHERE system = 'classic-fight'",
        [body.to_string()],
    )
    .unwrap();
    drop(db);
    let failures = run(&t, CLASSIC_FIGHT_FULL_CASES).await;
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// A combat and a creature whose stored bodies this solum cannot read, and a fight of the
/// original whose stored dice no longer give its calls: each refuses with its own code,
/// nothing changed.
#[tokio::test]
async fn a_stored_combat_creature_or_fight_this_solum_cannot_read_answers_as_documented() {
    let t = table().await;
    setup(&t.router, &t.gm, &UNDER_WAY[..1]).await;
    classic_fight_under_way(&t).await;

    let db = rusqlite::Connection::open(&t.campaign).unwrap();
    let table: i64 = db
        .query_row(
            "SELECT table_id FROM sheets WHERE system = 'combat'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let damaged = db
        .execute(
            "UPDATE sheets SET body = '{\"combat\": 5}' WHERE system = 'combat'",
            [],
        )
        .unwrap();
    assert_eq!(damaged, 1);
    // The fight's first call said to come from a seed: its faces are no longer the ones kept.
    let damaged = db
        .execute(
            "UPDATE sheets SET body = json_set(body, '$.fight.segments[0].rolled.typed', json('false'),
                 '$.fight.segments[0].rolled.seed', 7)
             WHERE system = 'classic-fight'",
            [],
        )
        .unwrap();
    assert_eq!(damaged, 1);
    db.execute(
        "INSERT INTO sheets (system, name, name_key, schema, version, body, table_id, owner)
         VALUES ('creature', 'grue', 'grue', 1, 1, '{\"creature\": {\"legs\": \"many\"}}', ?1, NULL)",
        [table],
    )
    .unwrap();
    drop(db);
    let failures = run(&t, DAMAGED_CASES).await;
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// A member's name taken at the table: a second member joining as Pia.
#[tokio::test]
async fn a_members_name_taken_answers_as_documented() {
    let t = table().await;
    let (status, inv) = call(
        &t.router,
        "POST",
        "/api/invites",
        Some(&t.gm),
        Sent::Value(json!({"role": "player"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{inv}");
    let join = json!({"invite": inv["token"], "name": "Pia"});
    let case: Case = (
        Nobody,
        "POST",
        "/api/join",
        Nothing,
        422,
        "name-taken",
        Some("name"),
    );
    let (status, v) = call(&t.router, case.1, case.2, None, Sent::Value(join)).await;
    assert_eq!(
        (status.as_u16(), v["code"].as_str(), v["field"].as_str()),
        (case.4, Some(case.5), case.6),
        "{v}"
    );
}

/// A journal entry this solum cannot read (changed behind its back): the page answers 500
/// with the entry's code, and says which entry.
#[tokio::test]
async fn a_stored_entry_this_solum_cannot_read_answers_as_documented() {
    let t = table().await;
    let db = rusqlite::Connection::open(&t.campaign).unwrap();
    db.execute_batch("DROP TRIGGER journal_no_update").unwrap();
    let damaged = db
        .execute(
            "UPDATE journal SET body = '{\"nonsense\": 1}'
             WHERE seq = (SELECT min(seq) FROM journal WHERE body LIKE '%Nick%')",
            [],
        )
        .unwrap();
    assert_eq!(damaged, 1);
    drop(db);
    let (status, v) = call(&t.router, "GET", "/api/journal", Some(&t.gm), Nothing).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{v}");
    assert_eq!(v["code"], "entry-unreadable", "{v}");
}

/// Sends each row as its member and lists the rows whose status, code or field differ.
async fn run(t: &Table, cases: impl IntoIterator<Item = &Case>) -> Vec<String> {
    let mut failures = Vec::new();
    for (who, method, uri, send, status, code, field) in cases.into_iter().cloned() {
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
        if got != want || !body["error"].is_string() {
            failures.push(format!(
                "{who:?} {method} {uri} {send:?}: want {want:?}, got {got:?}: {body}"
            ));
        }
    }
    failures
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
        // A number of a type held to a range expects that range (the description's).
        (
            "/api/idea",
            r#"{"genre": "fantasy", "count": "two"}"#,
            "count",
            "expected a whole number from 1 to 20",
        ),
        (
            "/api/characters/Nick/static",
            r#"{"opposition": {"name": "guards", "difficulty": 4.5, "hit_points": 3, "damage": 1}}"#,
            "opposition.difficulty",
            "expected a whole number from 1 to 12",
        ),
        // A u32 the server takes whole still says so.
        (
            "/api/soluna/skirmish/act",
            r#"{"name": "Csen", "action": "move", "target": "Viled", "flips": "two"}"#,
            "flips",
            "expected a whole number from 0 to 4294967295",
        ),
        // A number held to a range of the rules says the range, as the command line does.
        (
            "/api/dietype/characters/Rook/roll",
            r#"{"ability": "Strength", "skill": null, "step": 0, "against": {"difficulty": 13}, "weapon": null, "damage_step": 0}"#,
            "against.difficulty",
            "difficulties run from 2 (trivial) to 12 (divine)",
        ),
        (
            "/api/dietype/characters/Rook/roll",
            r#"{"ability": "Strength", "skill": null, "step": 0, "against": {"opposed": {"die": "d6", "chances": 0, "step": 0}}, "weapon": null, "damage_step": 0}"#,
            "against.opposed.chances",
            "a roll has 1 to 4 chances",
        ),
        (
            "/api/characters/Nick/odds",
            r#"{"attribute": "body", "against": {"difficulty": 1001}}"#,
            "against.difficulty",
            "difficulty 1001 is not possible: difficulties run from 1 (automatic) to 1000",
        ),
        (
            "/api/characters/Nick/check",
            r#"{"attribute": "body", "against": {"opposed": {"dice": 1001, "gear": false}}}"#,
            "against.opposed.dice",
            "a pool has 1 to 1000 dice",
        ),
        // What is no number at all expects the rules' range, not the integer's.
        (
            "/api/characters/Nick/odds",
            r#"{"attribute": "body", "against": {"difficulty": "hard"}}"#,
            "against.difficulty",
            "expected a whole number from 1 to 1000",
        ),
        (
            "/api/dietype/characters/Rook/roll",
            r#"{"ability": "Strength", "skill": null, "step": "up", "against": {"difficulty": 4}, "weapon": null, "damage_step": 0}"#,
            "step",
            "expected a whole number from -8 to 8",
        ),
        (
            "/api/classic/characters/Ann/check",
            r#"{"stat": "body", "difficulty": "hard"}"#,
            "difficulty",
            "expected a whole number from 1 to 6",
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
    // An envelope's part and a query parameter say it in JSON words too.
    for (method, uri, body, error) in [
        (
            "POST",
            "/api/soluna/characters/Csen/test",
            Json(r#"{"attack": "melee", "flips": "two"}"#),
            "flips: invalid type: string \"two\", expected a whole number from 0 to 1000",
        ),
        (
            "POST",
            "/api/characters/Nick/check",
            Json(
                r#"{"attribute": "body", "against": {"difficulty": 4}, "secret": true, "secret": false}"#,
            ),
            "secret: given twice: a field is given once",
        ),
        (
            "GET",
            "/api/journal?limit=2.0",
            Nothing,
            "query string: limit: expected a whole number",
        ),
    ] {
        let (_, v) = call(&t.router, method, uri, Some(&t.gm), body).await;
        assert_eq!(v["error"], error, "{v}");
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
        .chain(CASES.iter().chain(SYSTEM_CASES).map(|c| c.5))
        .filter(|code| !table.contains(&format!("`{code}`")))
        .collect();
    missing.sort_unstable();
    missing.dedup();
    assert!(missing.is_empty(), "not in docs/api.md: {missing:?}");
}

/// The codes whose golden case is the command line's (crates/solum-cli/tests/error_exits.rs,
/// `CLI_GOLDEN_CODES`), read from that file's list.
fn cli_golden_codes() -> Vec<String> {
    golden_list(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../solum-cli/tests/error_exits.rs"
        ),
        "const CLI_GOLDEN_CODES: &[&str] = &[",
    )
}

/// The codes a `const …: &[&str] = &[…];` list of another test file names.
fn golden_list(path: &str, start: &str) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let list = text
        .split(start)
        .nth(1)
        .and_then(|rest| rest.split("];").next())
        .unwrap();
    list.split(',')
        .map(|c| c.trim().trim_matches('"').to_owned())
        .filter(|c| !c.is_empty())
        .collect()
}

/// The codes whose golden case is the library's (crates/solum-app/tests/refusals.rs,
/// `LIBRARY_GOLDEN_CODES`): what no front end sends.
fn library_golden_codes() -> Vec<String> {
    golden_list(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../solum-app/tests/refusals.rs"
        ),
        "const LIBRARY_GOLDEN_CODES: &[&str] = &[",
    )
}

/// The codes the golden rows of this file answer.
fn web_golden_codes() -> Vec<&'static str> {
    CASES
        .iter()
        .chain(SYSTEM_CASES)
        .chain(UNDER_WAY_CASES)
        .chain(STORED_CASES)
        .chain(DAMAGED_CASES)
        .chain(CLASSIC_FIGHT_CASES)
        .chain(OUT_CASES)
        .chain(CLASSIC_FIGHT_FULL_CASES)
        .map(|c| c.5)
        .collect()
}

/// Every code a system's refusal may answer has a golden case: a row here (through HTTP) or,
/// for what only the command line reaches, a case of the CLI's golden test, or for what only
/// a library caller reaches, the library's.
#[test]
fn every_refusal_code_has_a_golden_case() {
    let web = web_golden_codes();
    let cli = cli_golden_codes();
    assert!(cli.len() >= 9, "{cli:?}");
    let library = library_golden_codes();
    assert!(!library.is_empty());
    let golden = |code: &str| web.contains(&code) || cli.iter().chain(&library).any(|c| c == code);
    let missing: Vec<&str> = solum_app::refusal::refusal_codes()
        .into_iter()
        .filter(|code| !golden(code))
        .collect();
    assert!(missing.is_empty(), "no golden case: {missing:?}");
}

/// Codes whose golden case is another test's: the file named asserts the code (a row here
/// cannot make them: a rate or budget spent, heavy work under way, a body cut off or too
/// slow over a real connection, a second sign-in), or a test of this file of its own.
const ELSEWHERE: &[(&str, &str)] = &[
    ("rate-limited", "tests/api.rs"),
    ("write-budget", "tests/api.rs"),
    ("heavy-busy", "tests/api.rs"),
    ("server-busy", "tests/api.rs"),
    ("session-held", "tests/api.rs"),
    ("body-timeout", "tests/hardening.rs"),
    ("body-unreadable", "tests/hardening.rs"),
    ("expression-journal-limit", "../solum-app/tests/notation.rs"),
    ("reentry-expired", "../solum-app/tests/table_play.rs"),
    ("reentry-used", "tests/api_table.rs"),
    ("reentry-revoked", "tests/api_table.rs"),
    ("sim-crowded-side", "tests/api_vehicles.rs"),
    ("sim-no-combat", "tests/api_vehicles.rs"),
    ("import-mismatch", "../solum-app/tests/campaign.rs"),
    // `host_and_origin_refusals_have_codes`, above.
    ("unknown-host", "tests/error_codes.rs"),
    ("cross-origin", "tests/error_codes.rs"),
    // `a_members_name_taken_answers_as_documented`, above.
    ("name-taken", "tests/error_codes.rs"),
    // `a_stored_entry_this_solum_cannot_read_answers_as_documented`, above.
    ("entry-unreadable", "tests/error_codes.rs"),
];

/// Codes without a golden case yet, each with why. The list only shrinks: a code here that
/// gains a case fails the test until it is taken off.
const NOT_YET_GOLDEN: &[(&str, &str)] = &[];

/// The codes of the store's failures, whose golden case is the library's
/// (crates/solum-app/tests/refusals.rs, `STORE_GOLDEN_CODES`).
fn store_golden_codes() -> Vec<String> {
    golden_list(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../solum-app/tests/refusals.rs"
        ),
        "const STORE_GOLDEN_CODES: &[&str] = &[",
    )
}

/// The codes of the program's own failures, whose golden case is the library's
/// (crates/solum-app/tests/refusals.rs, `FAILURE_GOLDEN_CODES`).
fn failure_golden_codes() -> Vec<String> {
    golden_list(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../solum-app/tests/refusals.rs"
        ),
        "const FAILURE_GOLDEN_CODES: &[&str] = &[",
    )
}

/// Every code docs/api.md lists has a golden case: a row of this file, a test of its own,
/// the command line's, the library's, or another test that asserts it.
#[test]
fn every_documented_code_has_a_golden_case() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/api.md")).unwrap();
    let section = doc
        .split("## Error codes")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .unwrap();
    // The first cell of each row of its tables: one code or several, each in backticks.
    let documented: Vec<&str> = section
        .lines()
        .filter_map(|l| l.strip_prefix("| "))
        .filter(|row| row.starts_with('`'))
        .flat_map(|row| {
            let cell = row.split(" |").next().unwrap_or("");
            cell.split('`').skip(1).step_by(2).collect::<Vec<_>>()
        })
        .collect();
    assert!(documented.len() > 100, "{}", documented.len());
    let web = web_golden_codes();
    let lists: Vec<String> = cli_golden_codes()
        .into_iter()
        .chain(library_golden_codes())
        .chain(store_golden_codes())
        .chain(failure_golden_codes())
        .collect();
    for (code, file) in ELSEWHERE {
        let text =
            std::fs::read_to_string(format!("{}/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        assert!(
            text.contains(&format!("\"{code}\"")),
            "{file} does not assert {code}"
        );
    }
    let golden = |code: &str| {
        web.contains(&code)
            || lists.iter().any(|c| c == code)
            || ELSEWHERE.iter().any(|(c, _)| *c == code)
    };
    // `vehicle-*` names a family whose members have rows of their own.
    let mut missing: Vec<&str> = documented
        .iter()
        .copied()
        .filter(|code| !code.ends_with('*'))
        .filter(|code| !golden(code) && !NOT_YET_GOLDEN.iter().any(|(c, _)| c == code))
        .collect();
    missing.sort_unstable();
    missing.dedup();
    assert!(missing.is_empty(), "no golden case: {missing:?}");
    let done: Vec<&str> = NOT_YET_GOLDEN
        .iter()
        .map(|(c, _)| *c)
        .filter(|c| golden(c) || !documented.contains(c))
        .collect();
    assert!(
        done.is_empty(),
        "golden now, or no longer documented: take off NOT_YET_GOLDEN: {done:?}"
    );
}
