//! Sessions found without a query per request, and forgotten at once when they end: two
//! servers (two routers) on one SQLite campaign, a logout through one refused by the other
//! within a second (its watcher sees another connection's commit), and by the same server at
//! once.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::response::Response;
use serde_json::{Value, json};
use solum_web::{AppState, Config, app};
use tower::ServiceExt;

const HOST: &str = "table.test:7373";
const ORIGIN: &str = "http://table.test:7373";

fn server(path: &std::path::Path) -> (AppState, Router) {
    let mut config = Config::new(path.to_path_buf());
    config.allowed_hosts = Some(vec![HOST.to_string()]);
    config.live_poll = Duration::from_millis(200);
    let state = AppState::new(config);
    (state.clone(), app(state))
}

async fn call(
    router: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Response {
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
    router.clone().oneshot(req.unwrap()).await.unwrap()
}

async fn json_of(resp: Response) -> Value {
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20)
        .await
        .unwrap();
    serde_json::from_slice(&bytes).unwrap()
}

async fn me(router: &Router, token: &str) -> StatusCode {
    call(router, "GET", "/api/me", Some(token), None)
        .await
        .status()
}

/// A table made through `router`: the game master's session and a player's.
async fn table(router: &Router) -> (String, String) {
    let made = call(
        router,
        "POST",
        "/api/tables",
        None,
        Some(json!({ "table": "The Door", "name": "Ada" })),
    )
    .await;
    assert_eq!(made.status(), StatusCode::CREATED);
    let gm = json_of(made).await["token"].as_str().unwrap().to_string();
    let inv = call(
        router,
        "POST",
        "/api/invites",
        Some(&gm),
        Some(json!({ "role": "player" })),
    )
    .await;
    assert_eq!(inv.status(), StatusCode::CREATED);
    let inv = json_of(inv).await;
    let joined = call(
        router,
        "POST",
        "/api/join",
        None,
        Some(json!({ "invite": inv["token"], "name": "Bo" })),
    )
    .await;
    assert_eq!(joined.status(), StatusCode::CREATED);
    let bo = json_of(joined).await["token"].as_str().unwrap().to_string();
    (gm, bo)
}

/// Opens a live stream as `token` and keeps it open (the returned answer's body) so that the
/// server's watcher runs.
async fn stream(router: &Router, token: &str) -> Response {
    let req = Request::builder()
        .uri(format!("/api/events?token={token}"))
        .header("host", HOST)
        .body(Body::empty())
        .unwrap();
    let resp = router.clone().oneshot(req).await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    resp
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_logout_through_another_server_is_refused_before_the_cache_forgets() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("campaign.solum");
    let (_a_state, a) = server(&path);
    let (b_state, b) = server(&path);
    let (gm, bo) = table(&a).await;

    let _live = stream(&b, &gm).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    for _ in 0..5 {
        assert_eq!(me(&b, &bo).await, StatusCode::OK);
    }
    // B answered some of these from its cache: no query for them.
    assert!(
        b_state.hub().session_hits() >= 3,
        "{} requests found their session in B's cache",
        b_state.hub().session_hits()
    );

    let out = call(&a, "POST", "/api/logout", Some(&bo), None).await;
    assert_eq!(out.status(), StatusCode::NO_CONTENT);
    let logged_out = Instant::now();
    loop {
        let status = me(&b, &bo).await;
        if status == StatusCode::UNAUTHORIZED {
            break;
        }
        assert_eq!(status, StatusCode::OK);
        assert!(
            // Well inside the cache's 10 s bound: told by the change feed, not by expiry.
            logged_out.elapsed() < Duration::from_secs(5),
            "B still took the session {:?} after the logout through A",
            logged_out.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The game master's session is untouched.
    assert_eq!(me(&b, &gm).await, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_logout_is_refused_by_the_same_server_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("campaign.solum");
    let (state, a) = server(&path);
    let (gm, bo) = table(&a).await;
    let _live = stream(&a, &gm).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    for _ in 0..3 {
        assert_eq!(me(&a, &bo).await, StatusCode::OK);
    }
    assert!(state.hub().session_hits() >= 2);
    let out = call(&a, "POST", "/api/logout", Some(&bo), None).await;
    assert_eq!(out.status(), StatusCode::NO_CONTENT);
    // The very next request: no wait for the watcher.
    assert_eq!(me(&a, &bo).await, StatusCode::UNAUTHORIZED);
    assert_eq!(me(&a, &gm).await, StatusCode::OK);
}
