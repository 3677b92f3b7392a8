//! The table tests' server: the real router on a real SQLite campaign in a tempdir, called
//! as the page calls it (host, origin, bearer token), with a table, players and the live
//! stream at hand. Shared by `api_table.rs` and `api_vehicles.rs`.
#![allow(dead_code)] // each test binary uses its own part

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use futures_util::StreamExt;
use serde_json::{Value, json};
use solum_web::{AppState, Config, app};
use tower::ServiceExt;

pub const HOST: &str = "table.test:7373";
pub const ORIGIN: &str = "http://table.test:7373";

pub struct Server {
    _dir: tempfile::TempDir,
    router: Router,
    pub state: AppState,
}

pub struct Answer {
    pub status: StatusCode,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

pub fn server() -> Server {
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::new(dir.path().join("campaign.solum"));
    config.allowed_hosts = Some(vec![HOST.to_string()]);
    config.live_poll = Duration::from_millis(200);
    let state = AppState::new(config);
    Server {
        router: app(state.clone()),
        state,
        _dir: dir,
    }
}

impl Server {
    pub async fn call(
        &self,
        method: &str,
        uri: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Answer {
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
        let body = axum::body::to_bytes(resp.into_body(), 1 << 24)
            .await
            .unwrap()
            .to_vec();
        Answer { status, body }
    }

    pub async fn get(&self, uri: &str, token: &str) -> Answer {
        self.call("GET", uri, Some(token), None).await
    }

    pub async fn post(&self, uri: &str, token: &str, body: Value) -> Answer {
        self.call("POST", uri, Some(token), Some(body)).await
    }

    /// A POST that must answer `status`.
    pub async fn ok(&self, uri: &str, token: &str, body: Value, status: StatusCode) -> Value {
        let a = self.post(uri, token, body.clone()).await;
        assert_eq!(a.status, status, "{uri} {body}: {}", a.text());
        a.json()
    }

    pub async fn table(&self, table: &str, gm: &str) -> String {
        let a = self
            .call(
                "POST",
                "/api/tables",
                None,
                Some(json!({ "table": table, "name": gm })),
            )
            .await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
        a.json()["token"].as_str().unwrap().to_string()
    }

    pub async fn player(&self, gm: &str, name: &str) -> String {
        let inv = self
            .ok(
                "/api/invites",
                gm,
                json!({ "role": "player" }),
                StatusCode::CREATED,
            )
            .await;
        let j = self
            .call(
                "POST",
                "/api/join",
                None,
                Some(json!({ "invite": inv["token"], "name": name })),
            )
            .await;
        assert_eq!(j.status, StatusCode::CREATED, "{}", j.text());
        j.json()["token"].as_str().unwrap().to_string()
    }

    pub async fn entries(&self, token: &str) -> Vec<Value> {
        let a = self.get("/api/journal?limit=500", token).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text());
        a.json()["entries"].as_array().unwrap().clone()
    }

    /// Reads a live stream for a while: every byte it sent.
    pub async fn live(&self, token: &str, wait: Duration) -> String {
        let req = Request::builder()
            .uri(format!("/api/events?token={token}&after=0"))
            .header("host", HOST);
        let resp = self
            .router
            .clone()
            .oneshot(req.body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        let mut stream = resp.into_body().into_data_stream();
        let mut out = Vec::new();
        let deadline = tokio::time::Instant::now() + wait;
        while let Ok(Some(Ok(chunk))) = tokio::time::timeout_at(deadline, stream.next()).await {
            out.extend_from_slice(&chunk);
        }
        String::from_utf8(out).unwrap()
    }
}
