//! The page's panels' server side: their modules and style served like the page's own
//! script (content type, CSP, no caching); the bestiary the Combat tab picks foes from
//! (`GET /api/bestiary`), checked against the shipped bestiary's text and against the
//! combat it feeds: every creature it lists can join a combat by the word it gives; and the
//! genres of idea words the Solo tab offers (`GET /api/idea/genres`), each one drawable.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use solum_web::{AppState, Config, app};
use tower::ServiceExt;

const HOST: &str = "table.test:7373";
const ORIGIN: &str = "http://table.test:7373";

struct Server {
    _dir: tempfile::TempDir,
    router: axum::Router,
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
    ) -> (StatusCode, axum::http::HeaderMap, Vec<u8>) {
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
        let headers = resp.headers().clone();
        let body = axum::body::to_bytes(resp.into_body(), 1 << 24)
            .await
            .unwrap()
            .to_vec();
        (status, headers, body)
    }

    async fn json(&self, method: &str, uri: &str, token: &str, body: Option<Value>) -> Value {
        let (status, _, bytes) = self.call(method, uri, Some(token), body).await;
        assert!(
            status.is_success(),
            "{method} {uri}: {status} {}",
            String::from_utf8_lossy(&bytes)
        );
        serde_json::from_slice(&bytes).unwrap()
    }

    async fn gm(&self) -> String {
        let (status, _, bytes) = self
            .call(
                "POST",
                "/api/tables",
                None,
                Some(json!({ "table": "The Ford", "name": "Ada" })),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED);
        let v: Value = serde_json::from_slice(&bytes).unwrap();
        v["token"].as_str().unwrap().to_string()
    }
}

#[tokio::test]
async fn the_panels_are_served_as_the_page_script_is() {
    let s = server();
    for (path, kind, needle) in [
        ("/js/ctx.js", "text/javascript", "export const ctx"),
        ("/js/sheets.js", "text/javascript", "export function mount"),
        ("/js/combat.js", "text/javascript", "export function mount"),
        ("/panels.css", "text/css", ".sheet"),
        ("/", "text/html", "/js/app.js"),
    ] {
        let (status, headers, body) = s.call("GET", path, None, None).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(
            headers["content-type"].to_str().unwrap().starts_with(kind),
            "{path}: {:?}",
            headers["content-type"]
        );
        assert_eq!(headers["content-security-policy"], solum_web::CSP);
        assert_eq!(headers["cache-control"], "no-store");
        assert!(String::from_utf8_lossy(&body).contains(needle), "{path}");
    }
}

#[tokio::test]
async fn the_bestiary_lists_what_a_combat_can_name() {
    let s = server();
    // A session is needed, as for every table's data.
    let (status, _, _) = s.call("GET", "/api/bestiary", None, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let gm = s.gm().await;
    // The page's own copy of the bestiary is gone: one route serves it.
    let (status, _, _) = s.call("GET", "/api/page/bestiary", Some(&gm), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let b = s.json("GET", "/api/bestiary", &gm, None).await;
    let creatures = b["creatures"].as_array().unwrap();
    let find = |name: &str| {
        creatures
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("no {name} in {b}"))
            .clone()
    };
    // As crates/solum-expanded/data/bestiary.toml gives them.
    let orc = find("orc");
    assert_eq!(orc["source"], "shipped");
    assert_eq!(
        (&orc["pool"], &orc["hit_points"], &orc["damage"]),
        (&json!(2), &json!(3), &json!(2))
    );
    assert_eq!(find("trooper")["ranged_damage"], 2);
    // The text's fast static combat example: five troopers, difficulty 4, 5 hit points, 2 damage.
    let squad = b["static"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "trooper squad")
        .unwrap()
        .clone();
    assert_eq!(
        (&squad["difficulty"], &squad["hit_points"], &squad["damage"]),
        (&json!(4), &json!(5), &json!(2))
    );

    // Every creature listed joins a combat by its `foe` word, as the Combat tab names it.
    s.json("POST", "/api/combat", &gm, Some(json!({ "name": "all" })))
        .await;
    let mut names = Vec::new();
    for c in creatures {
        let foe = c["foe"].as_str().unwrap().to_string();
        assert!(!foe.contains(' '), "{foe}");
        let line = format!("foe {foe}");
        s.json(
            "POST",
            "/api/combat/line",
            &gm,
            Some(json!({ "line": line })),
        )
        .await;
        names.push(foe);
    }
    let status = s.json("GET", "/api/combat", &gm, None).await;
    let fighters: Vec<&str> = status["combat"]["fighters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(fighters.len(), creatures.len(), "{fighters:?}");
    for name in &names {
        assert!(
            fighters.iter().any(|f| f.starts_with(name.as_str())),
            "{name} in {fighters:?}"
        );
    }
}

#[tokio::test]
async fn the_solo_tab_offers_every_genre_of_idea_words() {
    let s = server();
    let (status, _, _) = s.call("GET", "/api/idea/genres", None, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let gm = s.gm().await;
    let g = s.json("GET", "/api/idea/genres", &gm, None).await;
    // docs/rules.md (Solo play): "The five genre lists (fantasy, science fiction, cyberpunk,
    // modern, horror …)".
    assert_eq!(
        g,
        json!({ "genres": ["fantasy", "science-fiction", "cyberpunk", "modern", "horror"] })
    );
    // Each is a name `POST /api/idea` takes: two words drawn from it.
    for genre in g["genres"].as_array().unwrap() {
        let v = s
            .json(
                "POST",
                "/api/idea",
                &gm,
                Some(json!({ "genre": genre, "count": 2 })),
            )
            .await;
        assert_eq!(v["words"].as_array().unwrap().len(), 2, "{genre}: {v}");
    }
}
