//! So1um Expanded characters across sessions at the web table (issue 22), against the real
//! router and a real SQLite campaign: advancement points (S17, granted by the game master
//! only, spent by an attempt), GM corrections, banked rest (S16) and the table's roll-off
//! option (S3, S14). Expected values are worked out by hand from the rules and rulings.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use solum_web::{AppState, Config, app};
use tower::ServiceExt;

const HOST: &str = "table.test:7373";
const ORIGIN: &str = "http://table.test:7373";

struct Server {
    _dir: tempfile::TempDir,
    router: Router,
}

fn server() -> Server {
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::new(dir.path().join("campaign.solum"));
    config.allowed_hosts = Some(vec![HOST.to_string()]);
    Server {
        router: app(AppState::new(config)),
        _dir: dir,
    }
}

impl Server {
    async fn call(
        &self,
        method: &str,
        uri: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut req = Request::builder()
            .method(method)
            .uri(uri)
            .header("host", HOST)
            .header("origin", ORIGIN);
        if let Some(t) = token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        let req = match body {
            Some(b) => req
                .header("content-type", "application/json")
                .body(Body::from(b.to_string())),
            None => req.body(Body::empty()),
        };
        let resp = self.router.clone().oneshot(req.unwrap()).await.unwrap();
        let status = resp.status();
        let bytes = axum::body::to_bytes(resp.into_body(), 1 << 24)
            .await
            .unwrap();
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }

    async fn table(&self) -> String {
        let (status, v) = self
            .call(
                "POST",
                "/api/tables",
                None,
                Some(json!({ "table": "t", "name": "Gina" })),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        v["token"].as_str().unwrap().to_string()
    }

    async fn player(&self, gm: &str, name: &str) -> String {
        let (status, v) = self
            .call(
                "POST",
                "/api/invites",
                Some(gm),
                Some(json!({ "role": "player" })),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        let invite = v["token"].as_str().unwrap().to_string();
        let (status, v) = self
            .call(
                "POST",
                "/api/join",
                None,
                Some(json!({ "invite": invite, "name": name })),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        v["token"].as_str().unwrap().to_string()
    }
}

fn hero(name: &str) -> Value {
    json!({
        "name": name,
        "body": 3, "mind": 2, "charm": 1,
        "backgrounds": ["Sailor"],
        "weapon": { "name": "dagger", "class": "light" },
        "armor_name": "leather"
    })
}

#[tokio::test]
async fn points_are_the_gms_to_grant_and_a_players_to_spend_and_edits_keep_to_s17() {
    let s = server();
    let gm = s.table().await;
    let pia = s.player(&gm, "Pia").await;
    let (status, v) = s
        .call("POST", "/api/characters", Some(&pia), Some(hero("Nick")))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let body = v["sheet"]["character"]["body"].clone();
    // A player cannot grant herself a point, nor raise Body by an edit, nor call it a
    // correction.
    let (status, _) = s
        .call("POST", "/api/characters/Nick/grant", Some(&pia), None)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, v) = s
        .call(
            "PATCH",
            "/api/characters/Nick",
            Some(&pia),
            Some(json!({ "set": [["body", 4]] })),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(
        v.to_string().contains("only by creation and advancement"),
        "{v}"
    );
    let (status, _) = s
        .call(
            "PATCH",
            "/api/characters/Nick",
            Some(&pia),
            Some(json!({ "set": [["body", 4]], "correction": true })),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // No point: the attempt is refused.
    let (status, v) = s
        .call(
            "POST",
            "/api/characters/Nick/advance",
            Some(&pia),
            Some(json!({ "goal": { "attribute": "charm" } })),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    // The GM grants one; the player spends it (seeded: success or not, it is spent).
    let (status, v) = s
        .call("POST", "/api/characters/Nick/grant", Some(&gm), None)
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["sheet"]["advancement_points"], 1);
    let (status, v) = s
        .call(
            "POST",
            "/api/characters/Nick/advance",
            Some(&pia),
            Some(json!({ "goal": { "attribute": "charm" } })),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["sheet"]["advancement_points"], 0);
    let (status, _) = s
        .call(
            "POST",
            "/api/characters/Nick/advance",
            Some(&pia),
            Some(json!({ "goal": { "attribute": "charm" } })),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    // The GM's correction is allowed and journaled as one.
    let (status, v) = s
        .call(
            "PATCH",
            "/api/characters/Nick",
            Some(&gm),
            Some(json!({ "set": [["body", 2]], "correction": true })),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_ne!(v["sheet"]["character"]["body"], body);
    let (_, journal) = s.call("GET", "/api/journal", Some(&pia), None).await;
    let last = journal["entries"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(
        last["change"]["edited"]["edit"]["correction"], true,
        "{last}"
    );
    // The roll-off option is the GM's to set.
    let (status, _) = s
        .call(
            "PUT",
            "/api/settings/roll-off",
            Some(&pia),
            Some(json!({ "on": true })),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, v) = s
        .call("GET", "/api/settings/roll-off", Some(&pia), None)
        .await;
    assert_eq!((status, v), (StatusCode::OK, json!({ "on": false })));
    let (status, v) = s
        .call(
            "PUT",
            "/api/settings/roll-off",
            Some(&gm),
            Some(json!({ "on": true })),
        )
        .await;
    assert_eq!((status, v), (StatusCode::OK, json!({ "on": true })));
    // Unknown fields are refused.
    let (status, _) = s
        .call(
            "PUT",
            "/api/settings/roll-off",
            Some(&gm),
            Some(json!({ "on": true, "x": 1 })),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (_, report) = s.call("GET", "/api/journal/verify", Some(&gm), None).await;
    assert_eq!(report["mismatches"], json!([]), "{report}");
}

#[tokio::test]
async fn rest_banks_and_the_tables_roll_off_settles_a_check() {
    let s = server();
    let gm = s.table().await;
    // The GM alone may type dice: 2d6 1 1 (no extra background), armor d6 2 (light armor):
    // 3 + 2 + 1 = 6 hit points.
    let mut h = hero("Nick");
    h["typed"] = json!([1, 1, 2]);
    let (status, v) = s.call("POST", "/api/characters", Some(&gm), Some(h)).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let (status, v) = s
        .call(
            "PATCH",
            "/api/characters/Nick",
            Some(&gm),
            Some(json!({ "damage": 2 })),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // Two quarter hours make the half hour that heals 1: 4 -> 5 (S16).
    let (_, v) = s
        .call(
            "POST",
            "/api/characters/Nick/rest",
            Some(&gm),
            Some(json!({ "hours": 0.25 })),
        )
        .await;
    assert_eq!(
        (v["healed"].clone(), v["sheet"]["rest_minutes"].clone()),
        (json!(0), json!(15))
    );
    let (_, v) = s
        .call(
            "POST",
            "/api/characters/Nick/rest",
            Some(&gm),
            Some(json!({ "hours": 0.25 })),
        )
        .await;
    assert_eq!(v["healed"], 1);
    assert_eq!(v["sheet"]["character"]["hit_points"], 5);
    // Roll-off on: Charm 1 against one die, 4 against 4, rolled off 2 against 5: a loss.
    s.call(
        "PUT",
        "/api/settings/roll-off",
        Some(&gm),
        Some(json!({ "on": true })),
    )
    .await;
    let (status, v) = s
        .call(
            "POST",
            "/api/characters/Nick/check",
            Some(&gm),
            Some(json!({
                "attribute": "charm",
                "against": { "opposed": { "dice": 1, "gear": false } },
                "typed": [4, 4, 2, 5]
            })),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["result"]["verdict"], "lose");
    assert_eq!(v["result"]["roll_off"], json!([[2, 5]]));
    assert_eq!(v["odds"]["pass_exact"], "1/2");
    let (_, report) = s.call("GET", "/api/journal/verify", Some(&gm), None).await;
    assert_eq!(report["mismatches"], json!([]), "{report}");
}
