//! The API against the real router and a real SQLite campaign in a tempdir.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use futures_util::StreamExt;
use serde_json::{Value, json};
use solum_web::{AppState, Config, app};
use tower::ServiceExt;

const HOST: &str = "table.test:7373";
const ORIGIN: &str = "http://table.test:7373";

struct Server {
    _dir: tempfile::TempDir,
    state: AppState,
    router: Router,
}

struct Answer {
    status: StatusCode,
    headers: axum::http::HeaderMap,
    body: Vec<u8>,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

fn server_with(tune: impl FnOnce(&mut Config)) -> Server {
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::new(dir.path().join("campaign.solum"));
    config.allowed_hosts = Some(vec![HOST.to_string()]);
    config.live_poll = Duration::from_millis(200);
    tune(&mut config);
    let state = AppState::new(config);
    Server {
        _dir: dir,
        router: app(state.clone()),
        state,
    }
}

fn server() -> Server {
    server_with(|_| {})
}

impl Server {
    async fn send(&self, req: Request<Body>) -> Answer {
        let resp = self.router.clone().oneshot(req).await.unwrap();
        let status = resp.status();
        let headers = resp.headers().clone();
        let body = axum::body::to_bytes(resp.into_body(), 1 << 24)
            .await
            .unwrap()
            .to_vec();
        Answer {
            status,
            headers,
            body,
        }
    }

    /// A request as the table's own page makes it.
    async fn call(
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
        self.send(req.unwrap()).await
    }

    async fn get(&self, uri: &str, token: &str) -> Answer {
        self.call("GET", uri, Some(token), None).await
    }

    async fn post(&self, uri: &str, token: &str, body: Value) -> Answer {
        self.call("POST", uri, Some(token), Some(body)).await
    }

    /// Creates a table; returns (token, table id).
    async fn table(&self, table: &str, gm: &str) -> (String, i64) {
        let a = self
            .call(
                "POST",
                "/api/tables",
                None,
                Some(json!({ "table": table, "name": gm })),
            )
            .await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
        let v = a.json();
        (
            v["token"].as_str().unwrap().to_string(),
            v["table"].as_i64().unwrap(),
        )
    }

    /// The GM invites, a player joins; returns the player's token.
    async fn player(&self, gm: &str, name: &str) -> String {
        let inv = self
            .post("/api/invites", gm, json!({ "role": "player" }))
            .await;
        assert_eq!(inv.status, StatusCode::CREATED, "{}", inv.text());
        let invite = inv.json()["token"].as_str().unwrap().to_string();
        let j = self
            .call(
                "POST",
                "/api/join",
                None,
                Some(json!({ "invite": invite, "name": name })),
            )
            .await;
        assert_eq!(j.status, StatusCode::CREATED, "{}", j.text());
        assert_eq!(j.json()["member"]["role"], "player");
        j.json()["token"].as_str().unwrap().to_string()
    }

    /// Reads a live stream for a while: every byte it sent.
    async fn live(&self, token: &str, last_event_id: Option<i64>, wait: Duration) -> String {
        let mut req = Request::builder()
            .uri(format!("/api/events?token={token}"))
            .header("host", HOST);
        if let Some(id) = last_event_id {
            req = req.header("last-event-id", id.to_string());
        }
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

fn hero(name: &str) -> Value {
    json!({
        "name": name,
        "body": 3, "mind": 2, "charm": 1,
        "backgrounds": ["Sailor"],
        "weapon": { "name": "dagger", "class": "light" },
        "armor_name": "leather"
    })
}

fn event_ids(stream: &str) -> Vec<i64> {
    stream
        .lines()
        .filter_map(|l| l.strip_prefix("id: ").or_else(|| l.strip_prefix("id:")))
        .map(|n| n.trim().parse().unwrap())
        .collect()
}

#[tokio::test]
async fn create_a_table_invite_join_make_a_check_and_read_it_in_the_journal() {
    let s = server();
    let (gm, table) = s.table("The Reach", "Ada").await;
    let pia = s.player(&gm, "Pia").await;

    let me = s.get("/api/me", &pia).await.json();
    assert_eq!(me["table"], table);
    assert_eq!(me["member"]["name"], "Pia");
    let names: Vec<_> = me["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].clone())
        .collect();
    assert_eq!(names, [json!("Ada"), json!("Pia")]);
    // A player does not invite.
    assert_eq!(
        s.post("/api/invites", &pia, json!({})).await.status,
        StatusCode::FORBIDDEN
    );
    // An invite is used once.
    let inv = s.post("/api/invites", &gm, json!({})).await.json()["token"]
        .as_str()
        .unwrap()
        .to_string();
    let first = s
        .call(
            "POST",
            "/api/join",
            None,
            Some(json!({ "invite": inv, "name": "Bo" })),
        )
        .await;
    assert_eq!(first.status, StatusCode::CREATED);
    let again = s
        .call(
            "POST",
            "/api/join",
            None,
            Some(json!({ "invite": inv, "name": "Cy" })),
        )
        .await;
    assert_eq!(again.status, StatusCode::FORBIDDEN, "{}", again.text());

    let made = s.post("/api/characters", &pia, hero("Nick")).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
    let check = json!({ "attribute": "body", "against": { "difficulty": 4 } });
    // Body 3, no background: three dice, the best must reach 4: 1 - (3/6)^3 = 7/8.
    let odds = s
        .post("/api/characters/Nick/odds", &pia, check.clone())
        .await;
    assert_eq!(odds.status, StatusCode::OK, "{}", odds.text());
    assert_eq!(odds.json()["pass_exact"], "7/8");
    assert_eq!(odds.json()["pass"], 0.875);
    let rolled = s.post("/api/characters/Nick/check", &pia, check).await;
    assert_eq!(rolled.status, StatusCode::OK, "{}", rolled.text());
    let view = rolled.json();
    assert_eq!(view["odds"]["pass_exact"], "7/8");
    assert_eq!(view["inputs"]["pool"], 3);
    let seq = view["seq"].as_i64().unwrap();

    let journal = s.get("/api/journal", &gm).await.json();
    let entry = journal["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["seq"] == seq)
        .unwrap()
        .clone();
    assert_eq!(entry["kind"], "character");
    assert_eq!(entry["name"], "Nick");
    // The journal re-derives every roll, for both members.
    for who in [&gm, &pia] {
        let report = s.get("/api/journal/verify", who).await.json();
        assert_eq!(report["mismatches"], json!([]));
        assert_eq!(report["rolls"], 2, "{report}");
    }
    // Search finds the check by the character's name and nothing for a word never written.
    let found = s.get("/api/journal?q=nick", &pia).await.json();
    assert!(
        found["entries"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["seq"] == seq)
    );
    let none = s.get("/api/journal?q=zyzzyva", &pia).await.json();
    assert_eq!(none["entries"], json!([]));
}

#[tokio::test]
async fn players_change_only_their_own_characters_and_type_no_dice() {
    let s = server();
    let (gm, _) = s.table("T", "Ada").await;
    let pia = s.player(&gm, "Pia").await;
    let bo = s.player(&gm, "Bo").await;
    assert_eq!(
        s.post("/api/characters", &pia, hero("Nick")).await.status,
        StatusCode::CREATED
    );
    let edit = json!({ "money": 7 });
    let theirs = s
        .call(
            "PATCH",
            "/api/characters/Nick",
            Some(&bo),
            Some(edit.clone()),
        )
        .await;
    assert_eq!(theirs.status, StatusCode::FORBIDDEN, "{}", theirs.text());
    let roll = s
        .post(
            "/api/characters/Nick/check",
            &bo,
            json!({ "attribute": "body", "against": { "difficulty": 2 } }),
        )
        .await;
    assert_eq!(roll.status, StatusCode::FORBIDDEN);
    let mine = s
        .call(
            "PATCH",
            "/api/characters/Nick",
            Some(&pia),
            Some(edit.clone()),
        )
        .await;
    assert_eq!(mine.status, StatusCode::OK, "{}", mine.text());
    let gm_edit = s
        .call(
            "PATCH",
            "/api/characters/Nick",
            Some(&gm),
            Some(json!({ "money": 9 })),
        )
        .await;
    assert_eq!(gm_edit.status, StatusCode::OK);
    assert_eq!(
        s.get("/api/characters/Nick", &bo).await.json()["character"]["money"],
        9
    );
    // Faces typed by hand: not for players, not at a table with players.
    // The text's table: a 2 on the die is a plain "No", with no event die.
    let typed = json!({ "question": "Rain?", "typed": [2] });
    assert_eq!(
        s.post("/api/oracle", &pia, typed.clone()).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        s.post("/api/oracle", &gm, typed.clone()).await.status,
        StatusCode::FORBIDDEN
    );
    // Unless the game master says the table rolls real dice (a player cannot say it): then
    // everyone types the faces rolled, and the entry says so.
    let on = json!({ "on": true });
    assert_eq!(
        s.call(
            "PUT",
            "/api/settings/real-dice",
            Some(&pia),
            Some(on.clone())
        )
        .await
        .status,
        StatusCode::FORBIDDEN
    );
    let set = s
        .call("PUT", "/api/settings/real-dice", Some(&gm), Some(on))
        .await;
    assert_eq!(
        (set.status, set.json()),
        (StatusCode::OK, json!({ "on": true }))
    );
    assert_eq!(
        s.get("/api/me", &pia).await.json()["may_type_dice"],
        json!(true)
    );
    for who in [&pia, &gm] {
        let a = s.post("/api/oracle", who, typed.clone()).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text());
        assert_eq!(
            (a.json()["typed"].clone(), a.json()["answer"].clone()),
            (json!(true), json!("No"))
        );
    }
    let off = s
        .call(
            "PUT",
            "/api/settings/real-dice",
            Some(&gm),
            Some(json!({ "on": false })),
        )
        .await;
    assert_eq!(off.status, StatusCode::OK);
    assert_eq!(
        s.post("/api/oracle", &pia, typed.clone()).await.status,
        StatusCode::FORBIDDEN
    );
    // A game master alone at the table types real dice; the entry says so.
    let (solo, _) = s.table("Solo", "Sol").await;
    let a = s.post("/api/oracle", &solo, typed).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    assert_eq!(
        (
            a.json()["typed"].clone(),
            a.json()["die"].clone(),
            a.json()["answer"].clone()
        ),
        (json!(true), json!(2), json!("No"))
    );
    // No one picks a seed: the field is refused as unknown, naming it, and nothing rolls.
    let seeded = s
        .post(
            "/api/oracle",
            &pia,
            json!({ "question": "Wind?", "seed": 1 }),
        )
        .await;
    assert_eq!(seeded.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(seeded.text().contains("seed"), "{}", seeded.text());
}

#[tokio::test]
async fn a_players_session_never_receives_the_gms_secret_rolls() {
    let s = server();
    let (gm, _) = s.table("T", "Ada").await;
    let pia = s.player(&gm, "Pia").await;
    assert_eq!(
        s.post("/api/characters", &gm, hero("Vex")).await.status,
        StatusCode::CREATED
    );
    assert_eq!(
        s.post("/api/notes", &pia, json!({ "text": "public before" }))
            .await
            .status,
        StatusCode::CREATED
    );

    // A player cannot roll in secret.
    let sneaky = s
        .post(
            "/api/oracle",
            &pia,
            json!({ "question": "x?", "secret": true }),
        )
        .await;
    assert_eq!(sneaky.status, StatusCode::FORBIDDEN);

    // The player listens live while the GM rolls in secret.
    let listening = {
        let router = s.router.clone();
        let pia = pia.clone();
        tokio::spawn(async move {
            let req = Request::builder()
                .uri(format!("/api/events?token={pia}"))
                .header("host", HOST)
                .body(Body::empty())
                .unwrap();
            let resp = router.oneshot(req).await.unwrap();
            let mut stream = resp.into_body().into_data_stream();
            let mut out = Vec::new();
            let deadline = tokio::time::Instant::now() + Duration::from_millis(1500);
            while let Ok(Some(Ok(c))) = tokio::time::timeout_at(deadline, stream.next()).await {
                out.extend_from_slice(&c);
            }
            String::from_utf8(out).unwrap()
        })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    let marker = "Is the duke the traitor QX7";
    let secret_ask = s
        .post(
            "/api/oracle",
            &gm,
            json!({ "question": marker, "secret": true }),
        )
        .await;
    assert_eq!(secret_ask.status, StatusCode::OK, "{}", secret_ask.text());
    let secret_check = s
        .post("/api/characters/Vex/check", &gm, json!({ "attribute": "mind", "against": { "opposed": { "dice": 7, "gear": true } }, "secret": true }))
        .await;
    assert_eq!(
        secret_check.status,
        StatusCode::OK,
        "{}",
        secret_check.text()
    );
    let secret_roll = s
        .post(
            "/api/roll",
            &gm,
            json!({ "expression": "7d13 + 2 [vaultcode]", "secret": true }),
        )
        .await;
    assert_eq!(secret_roll.status, StatusCode::OK, "{}", secret_roll.text());
    let secret_roll_seed = secret_roll.json()["rolled"]["seed"].to_string();
    let secret_seqs = [
        secret_ask.json()["seq"].as_i64().unwrap(),
        secret_check.json()["seq"].as_i64().unwrap(),
        secret_roll.json()["seq"].as_i64().unwrap(),
    ];
    let secret_seed = secret_check.json()["rolled"]["seed"].to_string();
    let public = s
        .post("/api/notes", &gm, json!({ "text": "public after" }))
        .await;
    assert_eq!(public.status, StatusCode::CREATED);
    let public_seq = public.json()["seq"].as_i64().unwrap();

    // Everything the player's session receives.
    let mut captured = String::new();
    for uri in [
        "/api/journal",
        "/api/journal?q=duke",
        "/api/journal?q=mind",
        "/api/journal/export",
        "/api/journal/export?format=markdown",
        "/api/journal/verify",
        "/api/me",
        "/api/characters",
    ] {
        let a = s.get(uri, &pia).await;
        assert_eq!(a.status, StatusCode::OK, "{uri}: {}", a.text());
        captured.push_str(&a.text());
    }
    let streamed = listening.await.unwrap();
    let caught_up = s.live(&pia, Some(0), Duration::from_millis(600)).await;
    captured.push_str(&streamed);
    captured.push_str(&caught_up);

    assert!(event_ids(&streamed).contains(&public_seq), "{streamed}");
    assert!(event_ids(&caught_up).contains(&public_seq));
    for seq in secret_seqs {
        assert!(!event_ids(&streamed).contains(&seq));
        assert!(!event_ids(&caught_up).contains(&seq));
        assert!(
            !captured.contains(&format!("\"seq\":{seq},")),
            "secret entry {seq} leaked"
        );
    }
    assert!(!captured.contains("duke"), "the secret question leaked");
    assert!(!captured.contains(&secret_seed), "the secret seed leaked");
    assert!(!captured.contains("opposed"), "the secret check leaked");
    assert!(!captured.contains("vaultcode") && !captured.contains("7d13"));
    assert!(
        !captured.contains(&secret_roll_seed),
        "the secret roll's seed leaked"
    );

    // The GM's own view has them (so the capture above could have failed).
    let gm_journal = s.get("/api/journal", &gm).await.text();
    assert!(gm_journal.contains("duke") && gm_journal.contains(&secret_seed));
    assert!(gm_journal.contains("opposed"));
    assert!(gm_journal.contains("vaultcode") && gm_journal.contains(&secret_roll_seed));
    let gm_stream = s.live(&gm, Some(0), Duration::from_millis(600)).await;
    for seq in secret_seqs {
        assert!(event_ids(&gm_stream).contains(&seq));
    }
}

#[tokio::test]
async fn another_tables_data_is_unreachable_with_a_valid_token_of_another_table() {
    let s = server();
    let (a, _) = s.table("A", "Ada").await;
    let (b, table_b) = s.table("B", "Bea").await;
    assert_eq!(
        s.post("/api/notes", &a, json!({ "text": "A's secret plan" }))
            .await
            .status,
        StatusCode::CREATED
    );
    assert_eq!(
        s.post("/api/characters", &a, hero("Nick")).await.status,
        StatusCode::CREATED
    );

    let journal = s.get("/api/journal", &b).await;
    assert_eq!(journal.json()["entries"], json!([]));
    assert!(
        !s.get("/api/journal/export", &b)
            .await
            .text()
            .contains("plan")
    );
    assert_eq!(s.get("/api/characters", &b).await.json(), json!([]));
    assert_eq!(
        s.get("/api/characters/Nick", &b).await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let edit = s
        .call(
            "PATCH",
            "/api/characters/Nick",
            Some(&b),
            Some(json!({ "money": 1 })),
        )
        .await;
    assert_eq!(edit.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        !s.live(&b, Some(0), Duration::from_millis(400))
            .await
            .contains("plan")
    );
    // The same name at B is B's own character; A's is unchanged.
    assert_eq!(
        s.post("/api/characters", &b, hero("Nick")).await.status,
        StatusCode::CREATED
    );
    assert_eq!(
        s.call(
            "PATCH",
            "/api/characters/Nick",
            Some(&b),
            Some(json!({ "money": 1 }))
        )
        .await
        .status,
        StatusCode::OK
    );
    assert_ne!(
        s.get("/api/characters/Nick", &a).await.json()["character"]["money"],
        1
    );
    assert_eq!(s.get("/api/me", &b).await.json()["table"], table_b);
    // No token, or a made-up one: nothing.
    assert_eq!(
        s.call("GET", "/api/journal", None, None).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        s.get("/api/journal", &"0".repeat(64)).await.status,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn state_changes_from_a_foreign_origin_are_refused() {
    let s = server();
    let (gm, _) = s.table("T", "Ada").await;
    for origin in [Some("http://evil.example"), Some("null"), None] {
        let mut req = Request::post("/api/notes")
            .header("host", HOST)
            .header("authorization", format!("Bearer {gm}"))
            .header("content-type", "application/json");
        if let Some(o) = origin {
            req = req.header("origin", o);
        }
        let a = s
            .send(req.body(Body::from(r#"{"text":"forged"}"#)).unwrap())
            .await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{origin:?}");
    }
    // A WebSocket upgrade from elsewhere is refused too.
    let ws = Request::get("/api/events")
        .header("host", HOST)
        .header("origin", "http://evil.example")
        .header("upgrade", "websocket")
        .header("connection", "upgrade")
        .body(Body::empty())
        .unwrap();
    assert_eq!(s.send(ws).await.status, StatusCode::FORBIDDEN);
    // A host the server does not answer to (DNS rebinding) is refused.
    let rebound = Request::get("/")
        .header("host", "evil.example:7373")
        .body(Body::empty())
        .unwrap();
    assert_eq!(
        s.send(rebound).await.status,
        StatusCode::MISDIRECTED_REQUEST
    );
    assert_eq!(
        s.get("/api/journal", &gm).await.json()["entries"],
        json!([])
    );
}

#[tokio::test]
async fn oversized_bodies_are_refused_and_nothing_is_written() {
    let s = server();
    let (gm, _) = s.table("T", "Ada").await;
    let big_question = "why ".repeat(1_200);
    let a = s
        .post("/api/oracle", &gm, json!({ "question": big_question }))
        .await;
    assert_eq!(a.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", a.text());
    let big_note = "x".repeat(70 * 1024);
    let a = s.post("/api/notes", &gm, json!({ "text": big_note })).await;
    assert_eq!(a.status, StatusCode::PAYLOAD_TOO_LARGE);
    // A body announced far past the limit is refused on its header at once, never waited
    // for: this one would never send a byte.
    let never = Request::builder()
        .method("POST")
        .uri("/api/oracle")
        .header("host", HOST)
        .header("origin", ORIGIN)
        .header("authorization", format!("Bearer {gm}"))
        .header("content-type", "application/json")
        .header("content-length", "100000000")
        .body(Body::from_stream(futures_util::stream::pending::<
            Result<Vec<u8>, std::io::Error>,
        >()))
        .unwrap();
    let a = tokio::time::timeout(std::time::Duration::from_secs(5), s.send(never))
        .await
        .expect("refused at once, not waited for");
    assert_eq!(a.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(a.json()["error"].is_string(), "{}", a.text());
    // A note within the limit is taken, whatever its script: 10,000 characters of 2, 3 or
    // 4 bytes each.
    for letter in ["y", "é", "語", "𝄞"] {
        let ok = s
            .post("/api/notes", &gm, json!({ "text": letter.repeat(10_000) }))
            .await;
        assert_eq!(ok.status, StatusCode::CREATED, "{letter}: {}", ok.text());
    }
    assert_eq!(
        s.get("/api/journal", &gm).await.json()["entries"]
            .as_array()
            .unwrap()
            .len(),
        4
    );
}

#[tokio::test]
async fn the_rate_limit_bites_per_session_whatever_the_headers_say() {
    let s = server_with(|c| {
        c.rate_burst = 5;
        c.rate_per_sec = 0.001;
    });
    let (a, _) = s.table("A", "Ada").await;
    let (b, _) = s.table("B", "Bea").await;
    for _ in 0..5 {
        assert_eq!(s.get("/api/me", &a).await.status, StatusCode::OK);
    }
    let spoofed = Request::get("/api/me")
        .header("host", HOST)
        .header("authorization", format!("Bearer {a}"))
        .header("x-forwarded-for", "203.0.113.9")
        .header("x-real-ip", "203.0.113.9")
        .body(Body::empty())
        .unwrap();
    let limited = s.send(spoofed).await;
    assert_eq!(limited.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(limited.json()["code"], "rate-limited");
    assert!(limited.headers.contains_key("retry-after"));
    assert_eq!(
        s.post("/api/notes", &a, json!({ "text": "x" }))
            .await
            .status,
        StatusCode::TOO_MANY_REQUESTS
    );
    // Another session goes on.
    assert_eq!(s.get("/api/me", &b).await.status, StatusCode::OK);
}

#[tokio::test]
async fn script_payloads_come_back_as_escaped_text() {
    let s = server();
    let payloads = [
        "<script>alert(1)</script>",
        "\"><img src=x onerror=alert(2)>",
        "</script><script>alert(3)</script>",
        "' onmouseover='alert(4)",
    ];
    let (gm, _) = s.table(payloads[0], payloads[1]).await;
    for p in payloads {
        assert_eq!(
            s.post("/api/notes", &gm, json!({ "text": p })).await.status,
            StatusCode::CREATED
        );
        assert_eq!(
            s.post("/api/oracle", &gm, json!({ "question": p }))
                .await
                .status,
            StatusCode::OK
        );
    }
    let mut hero = hero("Nick");
    hero["backgrounds"] = json!([payloads[2]]);
    let made = s.post("/api/characters", &gm, hero).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
    let mut bodies = Vec::new();
    for uri in [
        "/api/journal",
        "/api/me",
        "/api/characters",
        "/api/journal/export",
    ] {
        let a = s.get(uri, &gm).await;
        assert_eq!(a.headers["content-type"], "application/json");
        bodies.push(a);
    }
    let streamed = s.live(&gm, Some(0), Duration::from_millis(500)).await;
    for raw in bodies.iter().map(Answer::text).chain([streamed.clone()]) {
        assert!(
            !raw.contains('<') && !raw.contains('>'),
            "unescaped markup: {raw}"
        );
    }
    // Escaped, not lost: the JSON reads back to exactly what was typed.
    let journal = bodies[0].json();
    let texts: Vec<_> = journal["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert_eq!(texts, payloads);
    assert_eq!(bodies[1].json()["table_name"], payloads[0]);
    assert_eq!(bodies[1].json()["member"]["name"], payloads[1]);
    assert!(streamed.contains("\\u003cscript\\u003e"));
}

#[tokio::test]
async fn the_page_has_a_strict_policy_and_writes_user_text_as_text() {
    let s = server();
    let page = s
        .send(
            Request::get("/")
                .header("host", HOST)
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(page.status, StatusCode::OK);
    let csp = page.headers["content-security-policy"].to_str().unwrap();
    for part in [
        "script-src 'self'",
        "frame-ancestors 'none'",
        "frame-src 'none'",
        "object-src 'none'",
    ] {
        assert!(csp.contains(part), "{csp}");
    }
    assert!(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"));
    assert_eq!(page.headers["x-frame-options"], "DENY");
    assert_eq!(page.headers["x-content-type-options"], "nosniff");
    let html = page.text();
    // Every script is a file of the same origin; no inline handlers.
    for tag in html.split("<script").skip(1) {
        let tag = tag.trim_start();
        let tag = tag.strip_prefix("type=\"module\" ").unwrap_or(tag);
        assert!(tag.starts_with("src=\"/"), "inline script: {tag}");
    }
    assert!(
        !html.contains(" on")
            || !html
                .split_whitespace()
                .any(|w| w.starts_with("on") && w.contains('='))
    );
    // Every module of the page (each file of assets/js), each served as JavaScript: no
    // markup sink in any of them.
    let mut all = String::new();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/js");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 5, "{names:?}");
    for name in &names {
        let js = s
            .send(
                Request::get(format!("/js/{name}"))
                    .header("host", HOST)
                    .body(Body::empty())
                    .unwrap(),
            )
            .await;
        assert_eq!(js.status, StatusCode::OK, "{name}");
        assert!(
            js.headers["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/javascript"),
            "{name}"
        );
        let js = js.text();
        for sink in [
            "innerHTML",
            "outerHTML",
            "insertAdjacentHTML",
            "document.write",
            "eval(",
        ] {
            assert!(!js.contains(sink), "{name} uses {sink}");
        }
        all.push_str(&js);
    }
    assert!(all.contains("textContent"));
    // Errors never leak internals: an unknown endpoint and a bad body answer plainly.
    let a = s.call("GET", "/api/nothing", None, None).await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    let (gm, _) = s.table("T", "Ada").await;
    let bad = s.post("/api/characters", &gm, json!({ "name": "Nick", "body": 9, "mind": 2, "charm": 1, "backgrounds": ["x"], "weapon": { "name": "d", "class": "light" }, "armor_name": "l" })).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    let msg = bad.json()["error"].as_str().unwrap().to_string();
    assert!(
        !msg.contains(".solum") && !msg.contains("/tmp") && !msg.contains("Sqlite"),
        "{msg}"
    );
}

#[tokio::test]
async fn live_streams_are_in_order_catch_up_and_drop_a_client_that_never_reads() {
    let s = server_with(|c| c.live_buffer = 2);
    let (gm, table) = s.table("T", "Ada").await;
    for i in 1..=3 {
        s.post("/api/notes", &gm, json!({ "text": format!("n{i}") }))
            .await;
    }
    let all = s.live(&gm, None, Duration::from_millis(400)).await;
    let ids = event_ids(&all);
    assert_eq!(ids.len(), 3);
    assert!(ids.windows(2).all(|w| w[0] < w[1]));
    // Reconnecting after the first entry sends only what was missed.
    assert_eq!(
        event_ids(&s.live(&gm, Some(ids[0]), Duration::from_millis(400)).await),
        ids[1..]
    );

    // One client never reads its stream; another reads.
    let req = |token: &str| {
        Request::get(format!("/api/events?token={token}"))
            .header("host", HOST)
            .body(Body::empty())
            .unwrap()
    };
    let stalled = s.router.clone().oneshot(req(&gm)).await.unwrap();
    let reader = s.router.clone().oneshot(req(&gm)).await.unwrap();
    let mut reading = reader.into_body().into_data_stream();
    let collect = tokio::spawn(async move {
        let mut out = Vec::new();
        let deadline = tokio::time::Instant::now() + Duration::from_millis(2500);
        while let Ok(Some(Ok(c))) = tokio::time::timeout_at(deadline, reading.next()).await {
            out.extend_from_slice(&c);
        }
        String::from_utf8(out).unwrap()
    });
    // The stalled one is subscribed as soon as its response exists.
    assert_eq!(s.state.hub().clients(table), 2);
    for i in 4..=9 {
        s.post("/api/notes", &gm, json!({ "text": format!("n{i}") }))
            .await;
        tokio::time::sleep(Duration::from_millis(60)).await;
    }
    assert_eq!(
        s.state.hub().clients(table),
        1,
        "the client that never reads is dropped"
    );
    let got = event_ids(&collect.await.unwrap());
    assert_eq!(got.len(), 9, "the reading client got every entry");
    assert!(got.windows(2).all(|w| w[0] < w[1]));
    drop(stalled);
}

#[tokio::test]
async fn scenes_ideas_and_the_exports_of_a_solo_table() {
    let s = server();
    let (gm, _) = s.table("Solo", "Sol").await;
    let started = s
        .post(
            "/api/scenes",
            &gm,
            json!({ "title": "The chapel", "goal": "Find the bell" }),
        )
        .await;
    assert_eq!(started.status, StatusCode::CREATED, "{}", started.text());
    // A second start ends the open scene first, in the same request.
    let next = s
        .post("/api/scenes", &gm, json!({ "title": "The tower" }))
        .await
        .json();
    let kinds: Vec<_> = next
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].clone())
        .collect();
    assert_eq!(kinds, [json!("scene-end"), json!("scene-start")]);
    assert_eq!(
        s.post("/api/scenes/end", &gm, json!({ "summary": "Rung" }))
            .await
            .status,
        StatusCode::OK
    );
    let again = s.post("/api/scenes/end", &gm, json!({})).await;
    assert_eq!(again.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        again.json()["error"]
            .as_str()
            .unwrap()
            .contains("no scene is open")
    );

    let idea = s
        .post("/api/idea", &gm, json!({ "genre": "horror", "count": 2 }))
        .await;
    assert_eq!(idea.status, StatusCode::OK, "{}", idea.text());
    assert_eq!(idea.json()["words"].as_array().unwrap().len(), 2);
    assert_eq!(
        s.post("/api/idea", &gm, json!({ "genre": "nope" }))
            .await
            .status,
        StatusCode::UNPROCESSABLE_ENTITY
    );

    let md = s.get("/api/journal/export?format=markdown", &gm).await;
    assert_eq!(md.status, StatusCode::OK);
    assert_eq!(md.headers["content-type"], "text/markdown; charset=utf-8");
    assert!(md.text().contains("The chapel"));
    let export = s.get("/api/journal/export", &gm).await.json();
    assert_eq!(export["format"], "solum-journal");
    assert_eq!(export["entries"].as_array().unwrap().len(), 5);
    assert_eq!(
        s.get("/api/journal/export?format=pdf", &gm).await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    // The latest entries when a limit is given; only later ones after a sequence number.
    let last = s.get("/api/journal?limit=1", &gm).await.json();
    assert_eq!(last["entries"][0]["kind"], "idea");
    let seq = export["entries"][2]["seq"].as_i64().unwrap();
    let after = s
        .get(&format!("/api/journal?after={seq}"), &gm)
        .await
        .json();
    assert_eq!(after["entries"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn the_odds_of_any_dice_expression_are_exact_and_roll_nothing() {
    let s = server();
    let (gm, _) = s.table("T", "Ada").await;
    let a = s
        .post("/api/odds", &gm, json!({ "expression": "2d6" }))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let view = a.json();
    let outcomes = view["outcomes"].as_array().unwrap();
    // Two six-sided dice by hand: the sums 2..=12, ways min(s - 1, 13 - s) out of 36.
    assert_eq!(outcomes.len(), 11);
    for o in outcomes {
        let sum = o["value"].as_i64().unwrap();
        let ways = (sum - 1).min(13 - sum);
        assert!(
            (o["p"].as_f64().unwrap() - ways as f64 / 36.0).abs() < 1e-12,
            "{o}"
        );
    }
    assert_eq!(outcomes[5]["value"], 7);
    assert_eq!(outcomes[5]["exact"], "1/6");
    assert!(
        (view["mean"].as_f64().unwrap() - 7.0).abs() < 1e-9,
        "{view}"
    );
    assert_eq!(view["neglected"], 0.0);
    // Nothing journaled.
    assert_eq!(
        s.get("/api/journal", &gm).await.json()["entries"],
        json!([])
    );
    // A wrong expression names the field; no session, no answer.
    let bad = s
        .post("/api/odds", &gm, json!({ "expression": "2d" }))
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    let bad = bad.json();
    assert_eq!(
        (bad["code"].as_str(), bad["field"].as_str()),
        (Some("expression-notation"), Some("expression")),
        "{bad}"
    );
    assert!(
        bad["error"].as_str().unwrap().contains("2d\n"),
        "the expression shown under the message: {bad}"
    );
    let long = s
        .post("/api/odds", &gm, json!({ "expression": "1".repeat(201) }))
        .await;
    assert_eq!(long.status, StatusCode::UNPROCESSABLE_ENTITY);
    let anonymous = s
        .call(
            "POST",
            "/api/odds",
            None,
            Some(json!({ "expression": "d6" })),
        )
        .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn the_game_master_runs_the_tables_combat_and_everyone_reads_it() {
    let s = server();
    let (gm, _) = s.table("T", "Ada").await;
    assert_eq!(
        s.post("/api/characters", &gm, hero("Nick")).await.status,
        StatusCode::CREATED
    );
    assert_eq!(
        s.get("/api/combat", &gm).await.json(),
        json!({ "combat": null })
    );
    let started = s
        .post("/api/combat", &gm, json!({ "name": "cellar" }))
        .await;
    assert_eq!(started.status, StatusCode::CREATED, "{}", started.text());
    for line in [
        "hero Nick",
        "foe orc",
        "place Nick orc engaged",
        "order Nick orc",
    ] {
        let a = s
            .post("/api/combat/line", &gm, json!({ "line": line }))
            .await;
        assert_eq!(a.status, StatusCode::OK, "{line}: {}", a.text());
    }
    let pia = s.player(&gm, "Pia").await;
    // Every member reads where it stands; only a game master plays lines.
    let status = s.get("/api/combat", &pia).await.json()["combat"].clone();
    assert_eq!(status["name"], "cellar");
    assert_eq!(status["order"], json!(["Nick", "orc"]));
    assert_eq!(status["acting"], "Nick");
    assert_eq!(status["fighters"].as_array().unwrap().len(), 2);
    let choices = status["choices"].as_array().unwrap();
    assert!(!choices.is_empty());
    for c in choices {
        let p = c["p_success"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&p), "{c}");
    }
    let refused = s
        .post(
            "/api/combat/line",
            &pia,
            json!({ "line": "move closer orc" }),
        )
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    assert_eq!(
        s.post("/api/combat/end", &pia, json!({})).await.status,
        StatusCode::FORBIDDEN
    );
    // With a player at the table, the game master types no faces either.
    let typed = s
        .post(
            "/api/combat/line",
            &gm,
            json!({ "line": "melee orc with 6,6,6,6,6" }),
        )
        .await;
    assert_eq!(typed.status, StatusCode::FORBIDDEN, "{}", typed.text());
    // A line the language does not know is bad input naming the line.
    let bad = s
        .post("/api/combat/line", &gm, json!({ "line": "dance wildly" }))
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        bad.json()["error"].as_str().unwrap().contains("line"),
        "{}",
        bad.text()
    );
    let before = s.get("/api/journal", &gm).await.json()["entries"]
        .as_array()
        .unwrap()
        .len();
    let ended = s.post("/api/combat/end", &gm, json!({})).await;
    assert_eq!(ended.status, StatusCode::OK, "{}", ended.text());
    assert_eq!(
        s.get("/api/combat", &gm).await.json(),
        json!({ "combat": null })
    );
    // Start, four lines and the end are journaled; the refused lines are not.
    let entries = s.get("/api/journal", &pia).await.json()["entries"].clone();
    let combat: Vec<&Value> = entries
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "combat")
        .collect();
    assert_eq!(combat.len(), 6, "{entries}");
    assert_eq!(entries.as_array().unwrap().len(), before + 1);
    let report = s.get("/api/journal/verify", &gm).await.json();
    assert_eq!(report["mismatches"], json!([]));
}

/// The campaign file of a test server, for a test to age a session as time would.
/// `GET /api/combat` of the largest combat (200 fighters, `MAX_FIGHTERS`) stays small: the
/// ranges list only the pairs a line moved away from nearby (S7's start), not all 19,900
/// pairs (which took 1.1 MB). The bound: 200 fighters and the acting hero's options (a
/// move closer and a move away per foe, plus its attacks) at well under 1 KB each.
#[tokio::test]
async fn the_combat_view_of_two_hundred_fighters_lists_only_the_ranges_that_moved() {
    let s = server();
    let (gm, _) = s.table("T", "Ada").await;
    assert_eq!(
        s.post("/api/characters", &gm, hero("Nick")).await.status,
        StatusCode::CREATED
    );
    let started = s.post("/api/combat", &gm, json!({ "name": "horde" })).await;
    assert_eq!(started.status, StatusCode::CREATED, "{}", started.text());
    for line in [
        "hero Nick",
        "foe orc*100",
        "foe wolf*99",
        "place Nick orc-1 engaged",
        "place Nick wolf-99 far",
        "ambush heroes",
    ] {
        let a = s
            .post("/api/combat/line", &gm, json!({ "line": line }))
            .await;
        assert_eq!(a.status, StatusCode::OK, "{line}: {}", a.text());
    }
    let answer = s.get("/api/combat", &gm).await;
    let bytes = answer.text().len();
    let status = answer.json()["combat"].clone();
    assert_eq!(status["fighters"].as_array().unwrap().len(), 200);
    assert_eq!(status["range_default"], "nearby");
    assert_eq!(
        status["ranges"],
        json!([
            { "a": "Nick", "b": "orc-1", "band": "engaged" },
            { "a": "Nick", "b": "wolf-99", "band": "far" },
        ])
    );
    assert!(bytes < 200 * 1024, "{bytes} bytes");
}

fn campaign_file(s: &Server) -> std::path::PathBuf {
    s._dir.path().join("campaign.solum")
}

#[tokio::test]
async fn secret_entries_carry_their_mark_for_the_gm_and_never_reach_a_player() {
    let s = server();
    let (gm, _) = s.table("T", "Ada").await;
    let pia = s.player(&gm, "Pia").await;
    let public = s
        .post("/api/oracle", &gm, json!({ "question": "Open door?" }))
        .await;
    let secret = s
        .post(
            "/api/oracle",
            &gm,
            json!({ "question": "Ambush QZ9?", "secret": true }),
        )
        .await;
    assert_eq!(secret.status, StatusCode::OK, "{}", secret.text());
    let (public_seq, secret_seq) = (
        public.json()["seq"].as_i64().unwrap(),
        secret.json()["seq"].as_i64().unwrap(),
    );
    // After a reload the GM's journal (and stream) still says which entry was secret.
    let gm_journal = s.get("/api/journal", &gm).await.json();
    let by_seq = |seq: i64| {
        gm_journal["entries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["seq"] == seq)
            .cloned()
            .unwrap()
    };
    assert_eq!(by_seq(secret_seq)["secret"], true);
    assert!(by_seq(public_seq).get("secret").is_none());
    let stream = s.live(&gm, Some(0), Duration::from_millis(500)).await;
    let secret_line = stream
        .lines()
        .find(|l| l.contains("QZ9"))
        .expect("the GM's stream has the secret entry");
    assert!(secret_line.contains("\"secret\":true"), "{secret_line}");
    // The player gets neither the entry nor the mark.
    let mut captured = s.get("/api/journal", &pia).await.text();
    captured.push_str(&s.live(&pia, Some(0), Duration::from_millis(500)).await);
    assert!(captured.contains("Open door"), "{captured}");
    assert!(!captured.contains("QZ9") && !captured.contains("\"secret\""));
}

#[tokio::test]
async fn logout_deletes_the_session_and_tells_the_browser_to_forget_it() {
    let s = server();
    let (gm, _) = s.table("T", "Ada").await;
    let pia = s.player(&gm, "Pia").await;
    // From a foreign page, logout is refused like any change.
    let foreign = s
        .send(
            Request::builder()
                .method("POST")
                .uri("/api/logout")
                .header("host", HOST)
                .header("origin", "http://evil.test")
                .header("authorization", format!("Bearer {pia}"))
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(foreign.status, StatusCode::FORBIDDEN);
    assert_eq!(s.get("/api/me", &pia).await.status, StatusCode::OK);

    let out = s.call("POST", "/api/logout", Some(&pia), None).await;
    assert_eq!(out.status, StatusCode::NO_CONTENT, "{}", out.text());
    let clear = out.headers["clear-site-data"].to_str().unwrap();
    assert!(clear.contains("\"storage\"") && clear.contains("\"cookies\""));
    // The token opens nothing any more, the live stream included; the row is gone.
    assert_eq!(
        s.get("/api/me", &pia).await.status,
        StatusCode::UNAUTHORIZED
    );
    let req = Request::builder()
        .uri(format!("/api/events?token={pia}"))
        .header("host", HOST)
        .body(Body::empty())
        .unwrap();
    assert_eq!(s.send(req).await.status, StatusCode::UNAUTHORIZED);
    let again = s.call("POST", "/api/logout", Some(&pia), None).await;
    assert_eq!(again.status, StatusCode::UNAUTHORIZED);
    let db = rusqlite::Connection::open(campaign_file(&s)).unwrap();
    let sessions: i64 = db
        .query_row("SELECT count(*) FROM sessions", [], |r| r.get(0))
        .unwrap();
    assert_eq!(sessions, 1, "only the GM's session is left");
    // The GM is still signed in.
    assert_eq!(s.get("/api/me", &gm).await.status, StatusCode::OK);
}

#[tokio::test]
async fn a_session_idle_for_thirty_days_is_refused() {
    let s = server();
    let (gm, _) = s.table("T", "Ada").await;
    let pia = s.player(&gm, "Pia").await;
    let db = rusqlite::Connection::open(campaign_file(&s)).unwrap();
    let age = |member: &str, days: i64| {
        db.execute(
            "UPDATE sessions SET last_used = CAST(strftime('%s', 'now') AS INTEGER) - ?1
             WHERE member_id = (SELECT id FROM members WHERE name = ?2)",
            rusqlite::params![days * 86_400, member],
        )
        .unwrap();
    };
    // Twenty-nine days idle: still in, and the use starts the count again.
    age("Pia", 29);
    assert_eq!(s.get("/api/me", &pia).await.status, StatusCode::OK);
    let fresh: i64 = db
        .query_row(
            "SELECT CAST(strftime('%s', 'now') AS INTEGER) - last_used FROM sessions
             WHERE member_id = (SELECT id FROM members WHERE name = 'Pia')",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(fresh < 60, "the use was not recorded: idle {fresh} s");
    // Thirty days and a minute: out, with a message that says what to do.
    age("Pia", 30);
    db.execute(
        "UPDATE sessions SET last_used = last_used - 60
         WHERE member_id = (SELECT id FROM members WHERE name = 'Pia')",
        [],
    )
    .unwrap();
    let refused = s.get("/api/me", &pia).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    assert!(
        refused.text().contains("join the table again"),
        "{}",
        refused.text()
    );
    assert_eq!(s.get("/api/me", &gm).await.status, StatusCode::OK);
}

#[tokio::test]
async fn any_dice_expression_is_rolled_by_the_server_journaled_and_verified() {
    let s = server();
    let (gm, _) = s.table("Solo", "Ada").await;
    // A game master alone types real dice: 4d6kh3 with 6 2 5 1 keeps 6 + 5 + 2 = 13.
    let typed = s
        .post(
            "/api/roll",
            &gm,
            json!({ "expression": "4d6kh3", "typed": [6, 2, 5, 1] }),
        )
        .await;
    assert_eq!(typed.status, StatusCode::OK, "{}", typed.text());
    let v = typed.json();
    assert_eq!(
        (v["total"].as_i64(), v["typed"].as_bool()),
        (Some(13), Some(true))
    );
    let dice = v["terms"][0]["dice"].as_array().unwrap();
    assert_eq!(dice.len(), 4);
    assert_eq!(dice.iter().filter(|d| d["kept"] == false).count(), 1);
    // The server rolls otherwise; a seed in the body is refused, not used.
    let seeded = s
        .post("/api/roll", &gm, json!({ "expression": "2d6", "seed": 1 }))
        .await;
    assert_eq!(
        seeded.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        seeded.text()
    );
    let rolled = s
        .post("/api/roll", &gm, json!({ "expression": "3d6 + 1" }))
        .await;
    assert_eq!(rolled.status, StatusCode::OK, "{}", rolled.text());
    let r = rolled.json();
    let faces: i64 = r["rolled"]["faces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_i64().unwrap())
        .sum();
    assert_eq!(r["total"].as_i64(), Some(faces + 1));
    assert!(r["seed"].as_u64().is_some());
    // A wrong expression names the field and points at the place.
    let wrong = s
        .post("/api/roll", &gm, json!({ "expression": "3d" }))
        .await;
    assert_eq!(wrong.status, StatusCode::UNPROCESSABLE_ENTITY);
    // As `/api/odds` answers it: the notation's code, the field, a caret under the place.
    let wrong = wrong.json();
    assert_eq!(wrong["code"], "expression-notation", "{wrong}");
    assert_eq!(wrong["field"], "expression", "{wrong}");
    assert!(
        wrong["error"].as_str().unwrap().ends_with("3d\n    ^"),
        "{wrong}"
    );
    // Journaled and re-derived.
    let journal = s.get("/api/journal", &gm).await.json();
    let kinds: Vec<&str> = journal["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["notation", "notation"]);
    let verify = s.get("/api/journal/verify", &gm).await.json();
    assert_eq!(verify["rolls"], 2);
    assert_eq!(verify["mismatches"].as_array().unwrap().len(), 0);
    // With a player at the table, nobody types faces, and a player rolls no secret.
    let pia = s.player(&gm, "Pia").await;
    let no_typing = s
        .post(
            "/api/roll",
            &gm,
            json!({ "expression": "1d6", "typed": [6] }),
        )
        .await;
    assert_eq!(no_typing.status, StatusCode::FORBIDDEN);
    let no_secret = s
        .post(
            "/api/roll",
            &pia,
            json!({ "expression": "1d6", "secret": true }),
        )
        .await;
    assert_eq!(no_secret.status, StatusCode::FORBIDDEN);
    assert_eq!(
        s.post("/api/roll", &pia, json!({ "expression": "1d6" }))
            .await
            .status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn the_sibling_systems_roll_from_the_tables_characters() {
    let s = server();
    let (gm, _) = s.table("Kin", "Ada").await;
    a_sol_test_from_the_sheet(&s, &gm).await;
    an_original_check_from_the_sheet(&s, &gm).await;
    soluna_tests_from_the_sheet(&s, &gm).await;
    a_dietype_roll_and_every_system_listed(&s, &gm).await;
    let pia = a_player_rolls_only_their_own(&s, &gm).await;
    the_gms_secret_sibling_rolls_reach_no_player(&s, &gm, &pia).await;
}

/// The answer of a creation, read.
fn created(a: Answer) -> Value {
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
    a.json()
}

async fn a_sol_test_from_the_sheet(s: &Server, gm: &str) {
    // Project Sol: CHA 1 + Etiquette 4 = 5 dice; 5s and 6s are hits: 5 5 6 6 1 is 4 hits.
    created(
        s.post(
            "/api/sol/characters",
            gm,
            json!({ "name": "Malcolm", "edge": 2, "attributes": [["CHA", 1]], "skills": [["Etiquette", 4]] }),
        )
        .await,
    );
    let sol = s
        .post(
            "/api/sol/characters/Malcolm/test",
            gm,
            json!({ "skill": "Etiquette", "attribute": "CHA", "threshold": 2,
                    "edge": null, "then": null, "assist": null, "against": null,
                    "typed": [5, 5, 6, 6, 1] }),
        )
        .await;
    assert_eq!(sol.status, StatusCode::OK, "{}", sol.text());
    let sol = sol.json();
    assert_eq!(sol["pool"]["dice"], 5);
    assert_eq!(sol["test"]["hits"], 4);
}

async fn an_original_check_from_the_sheet(s: &Server, gm: &str) {
    // The original: a hero made by the rules (the server rolls), then a Body check against
    // 5: the highest die counts. One 5 among 2s passes; all 2s fail.
    let hero = created(
        s.post(
            "/api/classic/characters",
            gm,
            json!({ "name": "Nick", "cliches": ["Thief"] }),
        )
        .await,
    );
    let body = hero["sheet"]["hero"]["body"].as_u64().unwrap() as usize;
    assert!(body >= 1);
    let mut faces = vec![2u32; body];
    faces[0] = 5;
    let pass = s
        .post(
            "/api/classic/characters/Nick/check",
            gm,
            json!({ "stat": "body", "difficulty": 5, "typed": faces }),
        )
        .await;
    assert_eq!(pass.status, StatusCode::OK, "{}", pass.text());
    let pass = pass.json();
    assert_eq!(pass["check"]["passed"], true);
    // P(pass) = 1 - (4/6)^Body.
    let p = 1.0 - (4.0f64 / 6.0).powi(body as i32);
    assert!((pass["p_pass"].as_f64().unwrap() - p).abs() < 1e-12);
    let fail = s
        .post(
            "/api/classic/characters/Nick/check",
            gm,
            json!({ "stat": "body", "difficulty": 5, "typed": vec![2u32; body] }),
        )
        .await
        .json();
    assert_eq!(fail["check"]["passed"], false);
}

async fn soluna_tests_from_the_sheet(s: &Server, gm: &str) {
    // Sol'una: 5 melee dice 4 2 6 3 6 with one flip: the 4 turns to a 6, three 6s reach 3.
    created(
        s.post(
            "/api/soluna/characters",
            gm,
            json!({ "name": "Csen", "side": "sun", "mind": 2, "body": 1, "hit_points": 3,
                    "melee": 5, "ranged": 2, "flips": 3 }),
        )
        .await,
    );
    let test = s
        .post(
            "/api/soluna/characters/Csen/test",
            gm,
            json!({ "attack": "melee", "flips": 1, "target": 3, "typed": [4, 2, 6, 3, 6] }),
        )
        .await;
    assert_eq!(test.status, StatusCode::OK, "{}", test.text());
    let test = test.json();
    assert_eq!(
        (
            test["result"]["largest"].as_u64(),
            test["result"]["face"].as_u64()
        ),
        (Some(3), Some(6))
    );
    assert_eq!(test["result"]["passed"], true);
    // Two ranged dice, no flips, a pair needed: 6 pairs in 36 rolls.
    let pair = s
        .post(
            "/api/soluna/characters/Csen/test",
            gm,
            json!({ "attack": "ranged", "target": 2, "typed": [1, 2] }),
        )
        .await
        .json();
    assert!((pair["p_target"].as_f64().unwrap() - 1.0 / 6.0).abs() < 1e-12);
    assert_eq!(pair["result"]["passed"], false);
    // More flips than the sheet allows per test: refused, naming the field.
    let greedy = s
        .post(
            "/api/soluna/characters/Csen/test",
            gm,
            json!({ "attack": "melee", "flips": 2 }),
        )
        .await;
    assert_eq!(greedy.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(greedy.text().contains("flips"), "{}", greedy.text());
}

async fn a_dietype_roll_and_every_system_listed(s: &Server, gm: &str) {
    // Die types: Strength d8, Fight 2 chances, against 6: 7 and 2 (no maximum) is one
    // chance through.
    created(
        s.post(
            "/api/dietype/characters",
            gm,
            json!({ "name": "Rook", "abilities": [["Strength", "d8"]], "skills": [["Fight", 2]] }),
        )
        .await,
    );
    let roll = s
        .post(
            "/api/dietype/characters/Rook/roll",
            gm,
            json!({ "ability": "Strength", "skill": "Fight", "step": 0,
                    "against": { "difficulty": 6 }, "weapon": null, "damage_step": 0,
                    "typed": [7, 2] }),
        )
        .await;
    assert_eq!(roll.status, StatusCode::OK, "{}", roll.text());
    let roll = roll.json();
    assert_eq!(roll["result"]["skill"]["quality"], 1);

    // A name with markup comes back as text in JSON that is safe in any HTML context.
    let marked = s
        .post(
            "/api/soluna/characters",
            gm,
            json!({ "name": "<b>Vex</b>", "side": "x&y", "mind": 1, "body": 0, "hit_points": 1, "melee": 1 }),
        )
        .await;
    assert_eq!(marked.status, StatusCode::CREATED, "{}", marked.text());
    let listed = s.get("/api/systems/characters", gm).await.text();
    assert!(
        listed.contains("\\u003cb\\u003eVex\\u003c/b\\u003e"),
        "{listed}"
    );
    assert!(listed.contains("x\\u0026y") && !listed.contains("<b>"));

    // Every system's characters are listed; the journal re-derives every roll.
    let list = s.get("/api/systems/characters", gm).await.json();
    for (system, name) in [
        ("sol", "Malcolm"),
        ("classic", "Nick"),
        ("soluna", "Csen"),
        ("dietype", "Rook"),
    ] {
        assert!(list[system].to_string().contains(name), "{system}: {list}");
    }
    let verify = s.get("/api/journal/verify", gm).await.json();
    assert_eq!(
        verify["mismatches"].as_array().unwrap().len(),
        0,
        "{verify}"
    );
    assert!(verify["rolls"].as_u64().unwrap() >= 6);
}

/// A player: no typed faces, no secret, not the GM's characters; their own, yes. Answers
/// the player's session.
async fn a_player_rolls_only_their_own(s: &Server, gm: &str) -> String {
    let pia = s.player(gm, "Pia").await;
    let theirs = s
        .post(
            "/api/soluna/characters/Csen/test",
            &pia,
            json!({ "attack": "melee" }),
        )
        .await;
    assert_eq!(theirs.status, StatusCode::FORBIDDEN);
    created(
        s.post(
            "/api/soluna/characters",
            &pia,
            json!({ "name": "Oro", "side": "moon", "mind": 1, "body": 0, "hit_points": 2, "ranged": 3 }),
        )
        .await,
    );
    let secret = s
        .post(
            "/api/soluna/characters/Oro/test",
            &pia,
            json!({ "attack": "ranged", "secret": true }),
        )
        .await;
    assert_eq!(secret.status, StatusCode::FORBIDDEN);
    let own = s
        .post(
            "/api/soluna/characters/Oro/test",
            &pia,
            json!({ "attack": "ranged" }),
        )
        .await;
    assert_eq!(own.status, StatusCode::OK, "{}", own.text());
    assert_eq!(own.json()["rolled"]["faces"].as_array().unwrap().len(), 3);
    let listed = s.get("/api/systems/characters", &pia).await.json();
    let oro = listed["soluna"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["character"]["name"] == "Oro")
        .unwrap()
        .clone();
    let me = s.get("/api/me", &pia).await.json();
    assert_eq!(oro["owner"], me["member"]["id"]);
    pia
}

/// The GM's secret rolls of every sibling system reach no byte of the player's.
async fn the_gms_secret_sibling_rolls_reach_no_player(s: &Server, gm: &str, pia: &str) {
    let mut secrets = Vec::new();
    for (uri, body) in [
        (
            "/api/sol/characters/Malcolm/test",
            json!({ "skill": "Etiquette", "attribute": "CHA", "edge": null, "then": null, "assist": null, "against": null, "secret": true }),
        ),
        (
            "/api/classic/characters/Nick/check",
            json!({ "stat": "mind", "difficulty": 6, "secret": true }),
        ),
        (
            "/api/soluna/characters/Csen/test",
            json!({ "attack": "ranged", "target": 2, "secret": true }),
        ),
        (
            "/api/dietype/characters/Rook/roll",
            json!({ "ability": "Strength", "skill": null, "step": 0, "against": { "difficulty": 9 }, "weapon": null, "damage_step": 0, "secret": true }),
        ),
    ] {
        let a = s.post(uri, gm, body).await;
        assert_eq!(a.status, StatusCode::OK, "{uri}: {}", a.text());
        let v = a.json();
        secrets.push((v["seq"].as_i64().unwrap(), v["rolled"]["seed"].to_string()));
    }
    let mut captured = String::new();
    for uri in [
        "/api/journal",
        "/api/journal/export",
        "/api/journal/export?format=markdown",
        "/api/systems/characters",
    ] {
        captured.push_str(&s.get(uri, pia).await.text());
    }
    let streamed = s.live(pia, Some(0), Duration::from_millis(500)).await;
    captured.push_str(&streamed);
    let gm_journal = s.get("/api/journal", gm).await.text();
    for (seq, seed) in &secrets {
        assert!(!event_ids(&streamed).contains(seq));
        assert!(
            !captured.contains(&format!("\"seq\":{seq},")),
            "secret entry {seq} leaked"
        );
        assert!(
            !captured.contains(seed.as_str()),
            "secret seed {seed} leaked"
        );
        assert!(gm_journal.contains(seed.as_str()));
    }
}

/// Project Sol's training (P3: the next rank, cost rating the new rank × 2, one a session)
/// by the character's player or the game master, and the game master's reward of Edge
/// (never above the attribute).
#[tokio::test]
async fn sol_training_is_the_players_and_the_reward_the_game_masters() {
    let s = server();
    let (gm, _) = s.table("T", "Ada").await;
    let pia = s.player(&gm, "Pia").await;
    let bo = s.player(&gm, "Bo").await;
    let made = s
        .post(
            "/api/sol/characters",
            &pia,
            json!({"name": "Malcolm", "edge": 3, "attributes": [["CHA", 3]], "skills": [["Etiquette", 2]]}),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
    let train = |token: String| {
        let s = &s;
        async move {
            s.post(
                "/api/sol/characters/Malcolm/train",
                &token,
                json!({"skill": "Etiquette"}),
            )
            .await
        }
    };
    let other = train(bo.clone()).await;
    assert_eq!(other.status, StatusCode::FORBIDDEN, "{}", other.text());
    let trained = train(pia.clone()).await;
    assert_eq!(trained.status, StatusCode::OK, "{}", trained.text());
    assert_eq!(
        trained.json()["trained"],
        json!({"skill": "Etiquette", "ranks": 3, "cost": 6})
    );
    let again = train(pia.clone()).await;
    assert_eq!(
        again.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        again.text()
    );
    let typo = s
        .post(
            "/api/sol/characters/Malcolm/train",
            &pia,
            json!({"skil": "Etiquette"}),
        )
        .await;
    assert_eq!(typo.status, StatusCode::UNPROCESSABLE_ENTITY);
    // The reward: the game master's; a point back, never above the attribute (3).
    let refused = s
        .post("/api/sol/characters/Malcolm/reward", &pia, json!({}))
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text());
    let reward = s
        .post("/api/sol/characters/Malcolm/reward", &gm, json!({}))
        .await;
    assert_eq!(reward.status, StatusCode::OK, "{}", reward.text());
    let edge = &reward.json()["edge"];
    assert!(
        edge["points"].as_u64() <= edge["attribute"].as_u64() && edge["attribute"] == 3,
        "{edge}"
    );
    // A new session allows training again: rank 4, cost rating 8.
    let session = s
        .post("/api/sol/characters/Malcolm/session", &gm, json!({}))
        .await;
    assert_eq!(session.status, StatusCode::OK, "{}", session.text());
    assert_eq!(
        train(pia.clone()).await.json()["trained"],
        json!({"skill": "Etiquette", "ranks": 4, "cost": 8})
    );
}

/// The routes the router declares, as its own table lists them (`solum_web::API_ROUTES`,
/// the table the router is built from): `(METHOD, /api/path)`.
fn declared_routes() -> std::collections::BTreeSet<(String, String)> {
    solum_web::API_ROUTES
        .iter()
        .map(|(method, path)| (method.to_uppercase(), format!("/api{path}")))
        .collect()
}

#[tokio::test]
async fn the_openapi_description_names_every_route_and_no_other() {
    let s = server();
    // Served without a session, as JSON.
    let a = s
        .send(
            Request::builder()
                .uri("/api/openapi.json")
                .header("host", HOST)
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(a.headers["content-type"], "application/json");
    let doc = a.json();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    let mut described = std::collections::BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            described.insert((method.to_uppercase(), path.clone()));
        }
    }
    let declared = declared_routes();
    assert!(
        declared.len() >= 39,
        "the source reader lost routes: {declared:?}"
    );
    assert!(declared.contains(&("GET".into(), "/api/characters".into())));
    assert!(declared.contains(&("PATCH".into(), "/api/characters/{name}".into())));
    let missing: Vec<_> = declared.difference(&described).collect();
    assert!(
        missing.is_empty(),
        "routes missing from openapi.json: {missing:?}"
    );
    // Beyond the table: only the page (`/`, its scripts and styles); the probe below finds
    // each live.
    let extra: Vec<_> = described
        .difference(&declared)
        .filter(|(_, path)| path.starts_with("/api/"))
        .collect();
    assert!(
        extra.is_empty(),
        "openapi.json describes API routes outside the router's table: {extra:?}"
    );
    // The page's files: exactly those of the table's `page:` part, each a `GET`.
    let page: std::collections::BTreeSet<(String, String)> = described
        .iter()
        .filter(|(_, path)| !path.starts_with("/api/"))
        .cloned()
        .collect();
    let page_table = solum_web::PAGE_ROUTES
        .iter()
        .map(|path| ("GET".to_owned(), (*path).to_owned()))
        .collect();
    assert_eq!(page, page_table, "the page's paths in openapi.json");
    // And each described route is live in the router: never the fallback's 404 nor a 405.
    let (gm, _) = s.table("T", "Ada").await;
    for (method, path) in &described {
        // The live stream never ends by itself (it is read with a deadline elsewhere), and
        // logging out would sign the loop out: both are checked by their own tests.
        if path == "/api/events" || path == "/api/logout" {
            continue;
        }
        let uri = path.replace("{name}", "Nobody");
        let body = (method != "GET").then(|| json!({}));
        let a = s.call(method, &uri, Some(&gm), body).await;
        assert!(
            a.status != StatusCode::NOT_FOUND || !a.text().contains(r#""code":"not-found""#),
            "{method} {path}: {}",
            a.text()
        );
        assert_ne!(a.status, StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
    }
}

/// The fields of a request body the description leaves as any value (a schema of
/// nothing but words), with their paths: `.goal`, `.set[][1]`.
fn loose_fields(doc: &Value, schema: &Value, path: &str, out: &mut Vec<String>, depth: usize) {
    let Some(o) = schema.as_object() else {
        if schema == &Value::Bool(true) {
            out.push(path.to_owned());
        }
        return;
    };
    if depth > 12 {
        return;
    }
    if let Some(r) = o.get("$ref").and_then(Value::as_str) {
        let name = r.rsplit('/').next().unwrap();
        let target = &doc["components"]["schemas"][name];
        return loose_fields(doc, target, path, out, depth + 1);
    }
    let words = ["description", "title", "default", "example", "examples"];
    if o.keys().all(|k| words.contains(&k.as_str())) {
        out.push(path.to_owned());
        return;
    }
    if o.get("type") == Some(&json!("object")) && !o.contains_key("properties") {
        out.push(format!("{path} (an object without its fields)"));
    }
    for key in ["oneOf", "anyOf", "allOf", "prefixItems"] {
        for (i, s) in o
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            loose_fields(doc, s, &format!("{path}|{key}[{i}]"), out, depth + 1);
        }
    }
    for (field, s) in o
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        loose_fields(doc, s, &format!("{path}.{field}"), out, depth + 1);
    }
    if let Some(items) = o.get("items").filter(|i| i.is_object()) {
        loose_fields(doc, items, &format!("{path}[]"), out, depth + 1);
    }
}

/// The names of closed schemas (`additionalProperties: false`) that an `allOf` in `v` merges
/// with others.
fn merged_closed(v: &Value, schemas: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            for part in o
                .get("allOf")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(r) = part["$ref"].as_str() {
                    let name = r.rsplit('/').next().unwrap();
                    if schemas[name]["additionalProperties"] == json!(false) {
                        out.push(name.to_owned());
                    }
                }
            }
            o.values().for_each(|x| merged_closed(x, schemas, out));
        }
        Value::Array(a) => a.iter().for_each(|x| merged_closed(x, schemas, out)),
        _ => {}
    }
}

/// The rules' answer types describe themselves (derived beside them, named by their
/// system), and a closed one merged into a view beside the view's own fields (a creature
/// with its `source`) would forbid them: no `allOf` part refers to one.
#[test]
fn the_rules_answers_are_derived_and_no_closed_one_is_merged() {
    let doc = solum_web::openapi_description();
    let schemas = &doc["components"]["schemas"];
    for name in [
        "expanded.Creature",
        "expanded.Event",
        "classic.Event",
        "sol.TestOutcome",
        "dietype.Sheet",
        "soluna.Skirmish",
        "notation.TermRoll",
    ] {
        assert!(schemas.get(name).is_some(), "{name} is not described");
    }
    let mut closed = Vec::new();
    merged_closed(&doc, schemas, &mut closed);
    assert!(
        closed.is_empty(),
        "closed schemas merged into others: {closed:?}"
    );
}

#[tokio::test]
async fn every_field_of_every_request_body_is_described_by_its_type() {
    // The description the server serves (`the_openapi_description_names_every_route…`
    // reads it over HTTP).
    let doc = solum_web::openapi_description();
    let mut loose = Vec::new();
    let mut bodies = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let schema = &op["requestBody"]["content"]["application/json"]["schema"];
            if schema.is_null() {
                continue;
            }
            bodies += 1;
            let mut found = Vec::new();
            loose_fields(&doc, schema, "", &mut found, 0);
            loose.extend(found.into_iter().map(|f| format!("{method} {path} {f}")));
        }
    }
    assert!(bodies >= 45, "the reading found {bodies} request bodies");
    assert!(
        loose.is_empty(),
        "request fields described as any value:\n{}",
        loose.join("\n")
    );
    // The rules' own types, as the app describes them: an attribute by its names, a die
    // type from d4 to d12, a `[name, die]` pair of exactly two items.
    let schemas = &doc["components"]["schemas"];
    // An attribute by the name the rules crate derives for it.
    let check = &schemas["CharacterCheck"]["properties"];
    assert_eq!(
        check["attribute"]["$ref"],
        "#/components/schemas/expanded.Attribute"
    );
    assert_eq!(
        schemas["expanded.Attribute"]["enum"],
        json!(["body", "mind", "charm"])
    );
    let abilities = &schemas["NewDietype"]["properties"]["abilities"]["items"];
    assert_eq!(abilities["minItems"], 2);
    assert_eq!(abilities["maxItems"], 2);
    assert_eq!(abilities["items"], json!(false));
    assert_eq!(
        abilities["prefixItems"][1]["enum"],
        json!(["d4", "d6", "d8", "d10", "d12"])
    );
    // A die-type roll's difficulty (2 trivial to 12 divine) and the other side's chances
    // (1 to 4) are described with the ranges the body is read with.
    let against = &schemas["DietypeRoll"]["properties"]["against"]["oneOf"];
    let range = |s: &Value| (s["minimum"].clone(), s["maximum"].clone());
    assert_eq!(
        range(&against[0]["properties"]["difficulty"]),
        (json!(2), json!(12))
    );
    assert_eq!(
        range(&against[1]["properties"]["opposed"]["properties"]["chances"]),
        (json!(1), json!(4))
    );
    // A number a request holds to a range is described with that range (issue 23), not its
    // integer's: its type (`bounded!`) describes itself, once, and every reference to a
    // schema names one the description holds.
    let text = doc.to_string();
    let dangling: Vec<&str> = text
        .split("\"#/components/schemas/")
        .skip(1)
        .filter_map(|r| r.split('"').next())
        .filter(|name| schemas.get(*name).is_none())
        .collect();
    assert!(dangling.is_empty(), "references to no schema: {dangling:?}");
    // A field's schema, through a reference or beside `null`.
    let typed = |s: &Value| -> Value {
        let s = s["oneOf"]
            .as_array()
            .and_then(|a| a.iter().find(|x| x["type"] != "null"))
            .unwrap_or(s);
        match s["$ref"].as_str() {
            Some(r) => schemas[r.rsplit('/').next().unwrap()].clone(),
            None => s.clone(),
        }
    };
    let field = |schema: &str, field: &str| range(&typed(&schemas[schema]["properties"][field]));
    for (schema, name, min, max) in [
        ("TypedOpposition", "difficulty", 1, 12),
        ("TypedOpposition", "hit_points", 1, 10_000),
        ("TypedOpposition", "damage", 0, 1_000_000),
        ("CreateCharacter", "body", 1, 3),
        ("NewSol", "edge", 0, 1000),
        ("SolTestRoll_SolTest", "threshold", 0, 1000),
        ("SolOpposition", "dice", 1, 1000),
        ("SolunaTestRoll_SolunaTest", "flips", 0, 1000),
        ("SolunaTestRoll_SolunaTest", "against", 0, 1000),
        ("SolunaTestRoll_SolunaTest", "target", 1, 1000),
        ("VehicleRollRequest", "pilot", 1, 1000),
        ("VehicleRollInput", "against_pilot", 1, 1000),
        ("DietypeRollRoll_DietypeRoll", "step", -8, 8),
        ("ClassicCheckRoll_ClassicCheck", "difficulty", 1, 6),
        ("IdeaRequest", "count", 1, 20),
        ("FoeCount", "count", 1, 100),
    ] {
        assert_eq!(
            field(schema, name),
            (json!(min), json!(max)),
            "{schema}.{name}"
        );
    }
    let modifier = typed(&schemas["SolTestRoll_SolTest"]["properties"]["modifiers"]["items"]);
    assert_eq!(range(&modifier), (json!(-1000), json!(1000)));
    // A vehicle's dice typed by hand are faces of a d6.
    let rolled = typed(&schemas["VehicleRollRequest"]["properties"]["rolled"]);
    assert_eq!(range(&typed(&rolled["items"])), (json!(1), json!(6)));
    // The answers: every view a route answers with is described field by field (none is an
    // object without its fields), the rules' own types in it too (`solum_app::schema`); a
    // field that holds any JSON value (a divergence's recorded and derived values) is any
    // value: at most `ANY_VALUED_ANSWER_FIELDS` of them, a number that only goes down.
    const ANY_VALUED_ANSWER_FIELDS: usize = 2;
    let mut bare = Vec::new();
    let mut any_valued = Vec::new();
    for (name, schema) in schemas.as_object().unwrap() {
        let o = schema.as_object().unwrap();
        let composed = ["allOf", "oneOf", "anyOf"]
            .iter()
            .any(|k| o.contains_key(*k));
        if o.get("type") == Some(&json!("object")) && !o.contains_key("properties") && !composed {
            bare.push(name.clone());
        }
        for (field, s) in o
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let words = ["description", "title", "default"];
            if s.as_object()
                .is_some_and(|f| f.keys().all(|k| words.contains(&k.as_str())))
            {
                any_valued.push(format!("{name}.{field}"));
            }
        }
    }
    assert!(bare.is_empty(), "answers without their fields: {bare:?}");
    assert!(
        any_valued.len() <= ANY_VALUED_ANSWER_FIELDS,
        "{} fields of answers are any value (at most {ANY_VALUED_ANSWER_FIELDS}): {any_valued:?}",
        any_valued.len()
    );
    assert_eq!(schemas["CheckView"]["properties"]["seq"]["type"], "integer");
    assert_eq!(
        schemas["Rolled"]["properties"]["seed"]["maximum"],
        json!(u64::MAX)
    );
}

// ---------------------------------------------------------------------------------------
// What a hostile tester found (issue 11): each test fails on the build before its fix.

/// The bytes of every journal body in the campaign file, by sequence number.
fn stored_bodies(s: &Server) -> Vec<(i64, usize)> {
    let conn = rusqlite::Connection::open(campaign_file(s)).unwrap();
    let mut stmt = conn
        .prepare("SELECT seq, length(body) FROM journal ORDER BY seq")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as usize)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[tokio::test]
async fn journal_reads_come_in_pages_with_a_default_and_a_maximum() {
    // 130 notes at once: past the write budget of normal play.
    let s = server_with(|c| {
        c.rate_burst = 1_000;
        c.session_write_burst = 1_000;
        c.table_write_burst = 1_000;
    });
    let (gm, _) = s.table("T", "Ada").await;
    for i in 0..130 {
        let a = s
            .post("/api/notes", &gm, json!({ "text": format!("note {i}") }))
            .await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
    }
    // The default page is 100 entries, the latest ones.
    let page = s.get("/api/journal", &gm).await.json();
    let entries = page["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 100);
    assert_eq!(entries[99]["text"], "note 129");
    assert_eq!(entries[0]["text"], "note 30");
    // Past the maximum is refused, not silently served.
    let big = s.get("/api/journal?limit=501", &gm).await;
    assert_eq!(big.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(big.json()["error"].as_str().unwrap().contains("limit"));
    // Forward pages: `next` leads through the whole journal, each entry once.
    let mut after = 0;
    let mut seen = Vec::new();
    loop {
        let p = s
            .get(&format!("/api/journal?after={after}&limit=50"), &gm)
            .await
            .json();
        for e in p["entries"].as_array().unwrap() {
            seen.push(e["text"].as_str().unwrap().to_string());
        }
        match p["next"].as_i64() {
            Some(n) => after = n,
            None => break,
        }
    }
    let expected: Vec<String> = (0..130).map(|i| format!("note {i}")).collect();
    assert_eq!(seen, expected);
    // A search is paged the same way.
    let found = s.get("/api/journal?q=note%201&limit=5", &gm).await.json();
    let texts: Vec<_> = found["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["text"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        texts,
        ["note 125", "note 126", "note 127", "note 128", "note 129"]
    );
    // The exports are written a page at a time and hold every entry, in order.
    let export = s.get("/api/journal/export", &gm).await;
    assert_eq!(export.headers["content-type"], "application/json");
    let export = export.json();
    assert_eq!(export["format"], "solum-journal");
    let texts: Vec<_> = export["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["text"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(texts, expected);
    let md = s
        .get("/api/journal/export?format=markdown", &gm)
        .await
        .text();
    assert!(md.starts_with("# T\n\n"), "{md}");
    let at = |t: &str| md.find(&format!("{t}\n")).unwrap();
    assert!(at("note 0") < at("note 99") && at("note 99") < at("note 100"));
    assert!(md.contains("note 129\n"));
}

#[tokio::test]
async fn a_big_roll_is_journaled_compactly_and_shown_in_full() {
    let s = server();
    let (gm, _) = s.table("T", "Ada").await;
    let a = s
        .post("/api/roll", &gm, json!({ "expression": "1000d6kh500" }))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let v = a.json();
    let terms = v["terms"].as_array().unwrap();
    assert_eq!(terms.len(), 1);
    // The journal keeps the faces (a digit and a comma each) and the total, not the
    // per-term view: some 49 KB before.
    let bodies = stored_bodies(&s);
    assert_eq!(bodies.len(), 1);
    assert!(bodies[0].1 < 2_000 + 600, "stored {} bytes", bodies[0].1);
    // The journal page re-derives the per-term view of a small roll, the same as the roll
    // showed; a big one shows its total and faces (its view would weigh some 48 KB).
    let small = s
        .post("/api/roll", &gm, json!({ "expression": "4d6kh3 + 1d4" }))
        .await
        .json();
    let page = s.get("/api/journal", &gm).await.json();
    assert_eq!(page["entries"][0]["total"], v["total"]);
    assert_eq!(page["entries"][0]["rolled"]["faces"], v["rolled"]["faces"]);
    assert!(page["entries"][0].get("terms").is_none());
    assert_eq!(page["entries"][1]["terms"], small["terms"]);
    assert_eq!(page["entries"][1]["terms"].as_array().unwrap().len(), 2);
    let report = s.get("/api/journal/verify", &gm).await.json();
    assert_eq!(report["mismatches"], json!([]));
    assert_eq!(report["rolls"], 2);
}

#[tokio::test]
async fn a_roll_that_could_pass_the_entry_limit_is_refused_before_any_die() {
    let s = server();
    let (gm, _) = s.table("T", "Ada").await;
    // Refused after rolling before (an entry of 80168 bytes): now journaled, compactly.
    let a = s
        .post("/api/roll", &gm, json!({ "expression": "1000d2!" }))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    // 1000 dice, each with up to 100 rerolls and 20 explosions, of up to 4 digits: far past
    // 64 KiB at worst, so refused whatever the dice would show, naming the field.
    for expression in ["1000d1000r<500!", "500d100r1 + 500d100r1"] {
        let a = s
            .post("/api/roll", &gm, json!({ "expression": expression }))
            .await;
        assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{expression}");
        let e = a.json()["error"].as_str().unwrap().to_string();
        assert!(e.contains("expression"), "{e}");
        assert!(e.contains("too many to journal"), "{e}");
    }
    assert_eq!(stored_bodies(&s).len(), 1);
}

#[tokio::test]
async fn heavy_work_takes_turns_and_a_huge_distribution_is_summarised() {
    // No turn free: dear odds and rolls wait briefly, then answer 503, rolling nothing.
    let s = server_with(|c| {
        c.heavy_at_once = 0;
        c.heavy_wait = Duration::from_millis(50);
    });
    let (gm, _) = s.table("T", "Ada").await;
    for (path, expr) in [("/api/odds", "450d20"), ("/api/roll", "450d20")] {
        let a = s.post(path, &gm, json!({ "expression": expr })).await;
        assert_eq!(a.status, StatusCode::SERVICE_UNAVAILABLE, "{path}");
        assert_eq!(a.json()["code"], "server-busy", "{path}");
        assert!(a.json()["error"].as_str().unwrap().contains("busy"));
    }
    assert!(stored_bodies(&s).is_empty());
    // One session's second heavy ask while its first waits for a turn: refused at once.
    let s = server_with(|c| {
        c.heavy_at_once = 0;
        c.heavy_wait = Duration::from_secs(3);
    });
    let (gm, _) = s.table("T", "Ada").await;
    let (first, second) = tokio::join!(
        s.post("/api/odds", &gm, json!({ "expression": "450d20" })),
        async {
            tokio::time::sleep(Duration::from_millis(300)).await;
            s.post("/api/odds", &gm, json!({ "expression": "450d20" }))
                .await
        }
    );
    assert_eq!(
        second.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        second.text()
    );
    assert_eq!(second.json()["code"], "heavy-busy");
    assert_eq!(
        first.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        first.text()
    );
    assert_eq!(first.json()["code"], "server-busy");
    // Cheap ones (a small estimated cost) need no turn at all.
    for (path, expr) in [("/api/odds", "3d6"), ("/api/roll", "3d6")] {
        let a = s.post(path, &gm, json!({ "expression": expr })).await;
        assert_eq!(a.status, StatusCode::OK, "{path}: {}", a.text());
    }
    assert_eq!(stored_bodies(&s).len(), 1);
    // The turn is given back: a server with turns answers, and a distribution over 2998
    // values lists the 2000 likeliest, with a summary.
    let s = server();
    let (gm, _) = s.table("T", "Ada").await;
    let a = s
        .post("/api/odds", &gm, json!({ "expression": "3d1000" }))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let v = a.json();
    assert_eq!(v["values"], 2998);
    assert_eq!(v["truncated"], true);
    let outcomes = v["outcomes"].as_array().unwrap();
    assert_eq!(outcomes.len(), 2000);
    // The likeliest values of 3d1000 are the middle ones: 1502 (the mode, one of two) is
    // there, 3 and 3000 (one way each in 10^9) are not.
    let values: Vec<i64> = outcomes
        .iter()
        .map(|o| o["value"].as_i64().unwrap())
        .collect();
    assert!(values.windows(2).all(|w| w[0] < w[1]));
    assert!(values.contains(&1502));
    assert!(!values.contains(&3) && !values.contains(&3000));
    let shown = v["shown"].as_f64().unwrap();
    assert!(shown > 0.9 && shown < 1.0, "{shown}");
    assert!((v["mean"].as_f64().unwrap() - 1501.5).abs() < 1e-9);
    // A small one is whole.
    let small = s
        .post("/api/odds", &gm, json!({ "expression": "2d6" }))
        .await
        .json();
    assert_eq!(small["truncated"], false);
    assert_eq!(small["values"], 11);
    assert_eq!(small["outcomes"].as_array().unwrap().len(), 11);
}

/// A request from `peer`, with a header that claims another address.
fn from_peer(mut req: Request<Body>, peer: &str) -> Request<Body> {
    let addr: std::net::SocketAddr = peer.parse().unwrap();
    req.extensions_mut()
        .insert(axum::extract::ConnectInfo(addr));
    req.headers_mut()
        .insert("x-forwarded-for", "198.51.100.7".parse().unwrap());
    req
}

fn join_request(invite: &str, name: &str) -> Request<Body> {
    Request::post("/api/join")
        .header("host", HOST)
        .header("origin", ORIGIN)
        .header("content-type", "application/json")
        .body(Body::from(
            json!({ "invite": invite, "name": name }).to_string(),
        ))
        .unwrap()
}

#[tokio::test]
async fn bad_joins_from_one_address_never_block_another() {
    let s = server();
    let (gm, _) = s.table("T", "Ada").await;
    let invite = s
        .post("/api/invites", &gm, json!({ "role": "player" }))
        .await
        .json()["token"]
        .as_str()
        .unwrap()
        .to_string();
    let mut limited = 0;
    for i in 0..200 {
        let a = s
            .send(from_peer(
                join_request("not-an-invite", &format!("X{i}")),
                "192.0.2.1:40000",
            ))
            .await;
        if a.status == StatusCode::TOO_MANY_REQUESTS {
            limited += 1;
        }
    }
    assert!(limited > 100, "{limited}");
    // The attacker's address stays limited, from another port and whatever its headers say.
    let a = s
        .send(from_peer(join_request(&invite, "Eve"), "192.0.2.1:40001"))
        .await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS);
    // A player at another address joins.
    let a = s
        .send(from_peer(join_request(&invite, "Bo"), "192.0.2.2:50000"))
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
}

#[tokio::test]
async fn every_api_error_is_json() {
    let s = server();
    let (gm, _) = s.table("T", "Ada").await;
    for uri in [
        "/api/journal?limit=-1",
        "/api/journal?after=abc",
        "/api/journal?limit=0",
        "/api/journal/export?format=json&x=1",
    ] {
        let a = s.get(uri, &gm).await;
        assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{uri}");
        assert_eq!(a.headers["content-type"], "application/json", "{uri}");
        assert!(a.json()["error"].is_string(), "{uri}");
    }
    let a = s.get("/api/journal?after=abc", &gm).await;
    assert!(a.json()["error"].as_str().unwrap().contains("after"));
    for (method, uri, status) in [
        ("GET", "/api/nothing", StatusCode::NOT_FOUND),
        ("DELETE", "/api/journal", StatusCode::METHOD_NOT_ALLOWED),
        ("PUT", "/api/roll", StatusCode::METHOD_NOT_ALLOWED),
        ("GET", "/api/roll", StatusCode::METHOD_NOT_ALLOWED),
    ] {
        let a = s.call(method, uri, Some(&gm), None).await;
        assert_eq!(a.status, status, "{method} {uri}");
        assert_eq!(
            a.headers["content-type"], "application/json",
            "{method} {uri}"
        );
        assert!(
            a.json()["error"].is_string(),
            "{method} {uri}: {}",
            a.text()
        );
    }
    // A body that is not JSON at all.
    let req = Request::post("/api/notes")
        .header("host", HOST)
        .header("origin", ORIGIN)
        .header("authorization", format!("Bearer {gm}"))
        .body(Body::from("text"))
        .unwrap();
    let a = s.send(req).await;
    assert!(a.status.is_client_error());
    assert!(a.json()["error"].is_string());
}

#[tokio::test]
async fn an_edit_that_changes_nothing_or_names_unknown_fields_is_refused() {
    let s = server();
    let (gm, _) = s.table("T", "Ada").await;
    let a = s.post("/api/characters", &gm, hero("Nick")).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
    let before = stored_bodies(&s).len();
    for body in [
        json!({}),
        json!({ "bogus": 1 }),
        json!({ "set": [["body", 3]] }),
        json!({ "set": [["body", 2]], "colour": "red" }),
    ] {
        let a = s
            .call(
                "PATCH",
                "/api/characters/Nick",
                Some(&gm),
                Some(body.clone()),
            )
            .await;
        assert_eq!(
            a.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{body}: {}",
            a.text()
        );
        assert!(a.json()["error"].is_string());
    }
    assert_eq!(stored_bodies(&s).len(), before);
    // A real change goes through, in the shape openapi.json describes (an attribute: a GM
    // correction, S17).
    let a = s
        .call(
            "PATCH",
            "/api/characters/Nick",
            Some(&gm),
            Some(json!({ "set": [["body", 2]], "correction": true })),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let sheet = a.json()["sheet"].clone();
    assert!(sheet.to_string().contains("\"body\":2"), "{sheet}");
    let doc = s
        .send(
            Request::builder()
                .uri("/api/openapi.json")
                .header("host", HOST)
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .json();
    let reference = doc["paths"]["/api/characters/{name}"]["patch"]["requestBody"]["content"]
        ["application/json"]["schema"]["$ref"]
        .as_str()
        .unwrap();
    let name = reference.rsplit('/').next().unwrap();
    let schema = &doc["components"]["schemas"][name];
    assert_eq!(schema["properties"]["set"]["type"], "array");
    assert_eq!(schema["additionalProperties"], false);
}

#[tokio::test]
async fn names_with_invisible_characters_are_refused() {
    let s = server();
    let (gm, _) = s.table("T", "Ada").await;
    assert_eq!(
        s.post("/api/characters", &gm, hero("P1Hero")).await.status,
        StatusCode::CREATED
    );
    for name in [
        "\u{feff}P1Hero",
        "P1\u{200b}Hero",
        "\u{202e}oreH",
        "Hero\u{2060}",
    ] {
        let a = s.post("/api/characters", &gm, hero(name)).await;
        assert_eq!(
            a.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{name:?}: {}",
            a.text()
        );
        assert!(a.json()["error"].as_str().unwrap().contains("name"));
        let a = s
            .post("/api/sol/characters", &gm, json!({ "name": name }))
            .await;
        assert_ne!(a.status, StatusCode::CREATED, "sol {name:?}");
    }
    let invite = s
        .post("/api/invites", &gm, json!({ "role": "player" }))
        .await
        .json()["token"]
        .as_str()
        .unwrap()
        .to_string();
    for name in ["\u{feff}Bo", "B\u{200d}o"] {
        let a = s
            .call(
                "POST",
                "/api/join",
                None,
                Some(json!({ "invite": invite, "name": name })),
            )
            .await;
        assert_eq!(
            a.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{name:?}: {}",
            a.text()
        );
        assert!(a.json()["error"].as_str().unwrap().contains("member name"));
    }
    let a = s
        .call(
            "POST",
            "/api/tables",
            None,
            Some(json!({ "table": "T\u{200b}", "name": "Al" })),
        )
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn messages_do_not_point_a_page_user_to_the_command_line() {
    let s = server();
    let (gm, _) = s.table("T", "Ada").await;
    let a = s.post("/api/scenes/end", &gm, json!({})).await;
    assert!(a.status.is_client_error());
    let e = a.json()["error"].as_str().unwrap().to_string();
    assert!(
        e.contains("no scene is open") && !e.contains("scene start"),
        "{e}"
    );
    let a = s
        .post("/api/combat/line", &gm, json!({ "line": "next" }))
        .await;
    assert!(a.status.is_client_error());
    let e = a.json()["error"].as_str().unwrap().to_string();
    assert!(
        e.contains("no combat is open") && !e.contains("solum"),
        "{e}"
    );
}

/// Every JSON body of the API refuses a field it does not know, naming it: a misspelt
/// `secret` must not pass as a public roll.
#[tokio::test]
async fn every_json_body_refuses_an_unknown_field_and_names_it() {
    let s = server();
    let (gm, _) = s.table("T", "Ada").await;
    let sol = s
        .post(
            "/api/sol/characters",
            &gm,
            json!({ "name": "Cole", "edge": 1, "attributes": [["AGI", 2]], "skills": [["Sidearms", 1]] }),
        )
        .await;
    assert_eq!(sol.status, StatusCode::CREATED, "{}", sol.text());
    let misspelt = json!({ "secert": true });
    let routes: &[(&str, &str, Option<&str>)] = &[
        ("POST", "/api/tables", None),
        ("POST", "/api/join", None),
        ("POST", "/api/invites", Some(&gm)),
        ("POST", "/api/oracle", Some(&gm)),
        ("POST", "/api/idea", Some(&gm)),
        ("POST", "/api/notes", Some(&gm)),
        ("POST", "/api/scenes", Some(&gm)),
        ("POST", "/api/scenes/end", Some(&gm)),
        ("POST", "/api/characters", Some(&gm)),
        ("PATCH", "/api/characters/Hero", Some(&gm)),
        ("POST", "/api/characters/Hero/odds", Some(&gm)),
        ("POST", "/api/characters/Hero/check", Some(&gm)),
        ("POST", "/api/odds", Some(&gm)),
        ("POST", "/api/roll", Some(&gm)),
        ("POST", "/api/sol/characters", Some(&gm)),
        ("POST", "/api/sol/characters/Cole/test", Some(&gm)),
        ("POST", "/api/classic/characters", Some(&gm)),
        ("POST", "/api/classic/characters/Nick/check", Some(&gm)),
        ("POST", "/api/soluna/characters", Some(&gm)),
        ("POST", "/api/soluna/characters/Csen/test", Some(&gm)),
        ("POST", "/api/soluna/skirmish", Some(&gm)),
        ("POST", "/api/soluna/skirmish/act", Some(&gm)),
        ("POST", "/api/soluna/skirmish/go", Some(&gm)),
        ("POST", "/api/dietype/characters", Some(&gm)),
        ("POST", "/api/dietype/characters/Rook/roll", Some(&gm)),
        ("POST", "/api/combat", Some(&gm)),
        ("POST", "/api/combat/line", Some(&gm)),
    ];
    for (method, uri, token) in routes {
        let a = s.call(method, uri, *token, Some(misspelt.clone())).await;
        assert_eq!(
            a.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{method} {uri}: {}",
            a.text()
        );
        assert!(a.text().contains("secert"), "{method} {uri}: {}", a.text());
    }
    // The case of the issue: a full, valid test with `secret` misspelt is refused, and
    // nothing is journaled.
    let before = s.get("/api/journal", &gm).await.json()["entries"]
        .as_array()
        .unwrap()
        .len();
    let a = s
        .post(
            "/api/sol/characters/Cole/test",
            &gm,
            json!({ "skill": "Sidearms", "attribute": "AGI", "threshold": 1, "secert": true }),
        )
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text());
    let a = s
        .post(
            "/api/roll",
            &gm,
            json!({ "expression": "1d6", "secrte": true }),
        )
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text());
    let after = s.get("/api/journal", &gm).await.json()["entries"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(before, after);
}

/// A game master's secret Project Sol test changes nothing a player can see (Edge,
/// progress, version) until the game master reveals it; then the player reads the entry
/// and the sheet has changed.
#[tokio::test]
async fn a_secret_sol_test_is_invisible_to_players_until_revealed() {
    let s = server();
    let (gm, _) = s.table("T", "Ada").await;
    let pia = s.player(&gm, "Pia").await;
    let sol = s
        .post(
            "/api/sol/characters",
            &gm,
            json!({ "name": "Cole", "edge": 1, "attributes": [["AGI", 2]], "skills": [["Sidearms", 1]] }),
        )
        .await;
    assert_eq!(sol.status, StatusCode::CREATED, "{}", sol.text());
    let sheet = |v: &Value| {
        let c = &v["sol"][0];
        (
            c["sheet"]["edge"]["points"].as_u64(),
            c["version"].as_i64(),
            c["sheet"]["skills"][0]["progress"].as_u64(),
        )
    };
    let seen = s.get("/api/systems/characters", &pia).await.json();
    assert_eq!(sheet(&seen), (Some(1), Some(1), Some(0)), "{seen}");
    // A game master alone types dice; with a player at the table the server rolls. Push
    // the Limit (1 Edge) with a threshold of 1: the Edge is spent whatever the dice.
    let secret = s
        .post(
            "/api/sol/characters/Cole/test",
            &gm,
            json!({ "skill": "Sidearms", "attribute": "AGI", "threshold": 1,
                    "edge": "push-the-limit", "secret": true }),
        )
        .await;
    assert_eq!(secret.status, StatusCode::OK, "{}", secret.text());
    let seq = secret.json()["seq"].as_i64().unwrap();
    for who in [&pia, &gm] {
        let seen = s.get("/api/systems/characters", who).await.json();
        assert_eq!(sheet(&seen), (Some(1), Some(1), Some(0)), "{seen}");
    }
    let journal = s.get("/api/journal", &pia).await.json();
    assert_eq!(journal["entries"].as_array().unwrap().len(), 1, "{journal}");
    // A player cannot reveal; the game master can, once.
    let a = s
        .post(&format!("/api/journal/{seq}/reveal"), &pia, json!({}))
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text());
    let a = s
        .call(
            "POST",
            &format!("/api/journal/{seq}/reveal"),
            Some(&gm),
            None,
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
    assert_eq!(a.json()["kind"], "reveal");
    assert_eq!(a.json()["of"], seq);
    let again = s
        .call(
            "POST",
            &format!("/api/journal/{seq}/reveal"),
            Some(&gm),
            None,
        )
        .await;
    assert_eq!(
        again.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        again.text()
    );
    let seen = s.get("/api/systems/characters", &pia).await.json();
    assert_eq!(sheet(&seen).0, Some(0), "{seen}");
    assert_eq!(sheet(&seen).1, Some(2), "{seen}");
    let journal = s.get("/api/journal", &pia).await.json();
    let last = journal["entries"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(last["kind"], "reveal", "{journal}");
    assert_eq!(last["record"]["kind"], "sol", "{journal}");
    let verify = s.get("/api/journal/verify", &pia).await.json();
    assert_eq!(verify["mismatches"], json!([]), "{verify}");
}

/// Invites expire and can be listed and revoked by the game master; a revoked one is
/// refused saying so. Joining while signed in is a 409 with a code unless it says
/// `replace`. Look-alike names and a player named as the game master are refused.
#[tokio::test]
async fn invites_are_listed_revoked_and_a_join_does_not_silently_replace_a_session() {
    let s = server();
    let (gm, _) = s.table("Mine", "Ada").await;
    let (other_gm, _) = s.table("Theirs", "Bo").await;
    let inv = s.post("/api/invites", &other_gm, json!({})).await.json();
    let (token, id) = (
        inv["token"].as_str().unwrap().to_string(),
        inv["id"].as_i64().unwrap(),
    );
    let expires: jiff::Timestamp = inv["expires"].as_str().unwrap().parse().unwrap();
    let life = expires.as_second() - jiff::Timestamp::now().as_second();
    assert!(
        (7 * 86_400 - 60..=7 * 86_400).contains(&life),
        "a player's invite works 7 days: {inv}"
    );

    // Signed in at Mine, the invite to Theirs is refused until the member says replace.
    let join = |replace: Option<bool>| {
        let mut body = json!({ "invite": token, "name": "Ada" });
        if let Some(r) = replace {
            body["replace"] = json!(r);
        }
        body
    };
    let a = s
        .call("POST", "/api/join", Some(&gm), Some(join(None)))
        .await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.text());
    assert_eq!(a.json()["code"], "session-held");
    assert!(a.text().contains("Mine"), "{}", a.text());
    // The note still lands in Mine.
    let note = s.post("/api/notes", &gm, json!({ "text": "mine" })).await;
    assert_eq!(note.status, StatusCode::CREATED);

    // A player lists nothing; the game master lists and revokes.
    let pia = s.player(&other_gm, "Pia").await;
    assert_eq!(
        s.get("/api/invites", &pia).await.status,
        StatusCode::FORBIDDEN
    );
    let list = s.get("/api/invites", &other_gm).await.json();
    let states: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["state"].as_str().unwrap())
        .collect();
    assert_eq!(states, ["open", "used"], "{list}");
    let del = s
        .call("DELETE", &format!("/api/invites/{id}"), Some(&pia), None)
        .await;
    assert_eq!(del.status, StatusCode::FORBIDDEN, "{}", del.text());
    let del = s
        .call(
            "DELETE",
            &format!("/api/invites/{id}"),
            Some(&other_gm),
            None,
        )
        .await;
    assert_eq!(del.status, StatusCode::NO_CONTENT, "{}", del.text());
    let a = s
        .call("POST", "/api/join", Some(&gm), Some(join(Some(true))))
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text());
    assert!(a.text().contains("revoked"), "{}", a.text());

    // With replace, a fresh invite switches tables.
    let token = s.post("/api/invites", &other_gm, json!({})).await.json()["token"]
        .as_str()
        .unwrap()
        .to_string();
    let body = json!({ "invite": token, "name": "Ada", "replace": true });
    let a = s.call("POST", "/api/join", Some(&gm), Some(body)).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
    assert_eq!(a.json()["table_name"], "Theirs");

    // Names: a player named as the game master (any case) and look-alikes are refused.
    for name in [
        "bo",
        " BO ",
        "Bo\u{3164}",
        "\u{2800}",
        "Bo\u{00A0}",
        "\u{202E}oB",
    ] {
        let token = s.post("/api/invites", &other_gm, json!({})).await.json()["token"]
            .as_str()
            .unwrap()
            .to_string();
        let a = s
            .call(
                "POST",
                "/api/join",
                None,
                Some(json!({ "invite": token, "name": name })),
            )
            .await;
        assert_eq!(
            a.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{name:?}: {}",
            a.text()
        );
    }
    let a = s
        .call(
            "POST",
            "/api/tables",
            None,
            Some(json!({ "table": "T", "name": "Hero\u{3164}" })),
        )
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text());
}

#[tokio::test]
async fn a_tables_journal_grows_within_its_write_budget() {
    // A budget of 4 writes a session and 6 a table, regained slowly.
    let s = server_with(|c| {
        c.session_write_burst = 4;
        c.session_writes_per_sec = 0.5;
        c.table_write_burst = 6;
        c.table_writes_per_sec = 0.5;
    });
    let (gm, _) = s.table("T", "Ada").await;
    let pia = s.player(&gm, "Pia").await;
    let note = |i: usize| json!({ "text": format!("note {i}") });
    for i in 0..4 {
        assert_eq!(
            s.post("/api/notes", &gm, note(i)).await.status,
            StatusCode::CREATED
        );
    }
    // The session's fifth: refused, with the wait (2 s for a token at 0.5 a second).
    let a = s.post("/api/notes", &gm, note(4)).await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.text());
    assert_eq!(a.json()["code"], "write-budget");
    assert_eq!(a.headers[axum::http::header::RETRY_AFTER], "2");
    assert!(a.json()["error"].as_str().unwrap().contains("this session"));
    // Another session of the table has its own four, but the table only two more.
    for i in 0..2 {
        assert_eq!(
            s.post("/api/notes", &pia, note(i)).await.status,
            StatusCode::CREATED
        );
    }
    let a = s.post("/api/notes", &pia, note(2)).await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.text());
    assert!(a.json()["error"].as_str().unwrap().contains("this table"));
    // Another table writes on.
    let (other, _) = s.table("U", "Uma").await;
    assert_eq!(
        s.post("/api/notes", &other, note(0)).await.status,
        StatusCode::CREATED
    );
    // Nothing refused was written: the table's journal holds the six.
    let journal = s.get("/api/journal", &gm).await.json();
    let notes = journal["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "note")
        .count();
    assert_eq!(notes, 6);
}

/// `request` as the page makes it, from `peer` (as the connection gives it).
fn page_request_from(peer: &str, uri: &str, token: Option<&str>, body: &Value) -> Request<Body> {
    let mut req = Request::post(uri)
        .header("host", HOST)
        .header("origin", ORIGIN)
        .header("content-type", "application/json");
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    from_peer(req.body(Body::from(body.to_string())).unwrap(), peer)
}

/// Table creation has a budget per peer address (a burst, then one a minute by default):
/// many tables from one address no longer multiply its write budget, and journaled writes
/// spend from the address's bucket whatever the session and table.
#[tokio::test]
async fn tables_created_and_writes_made_from_one_address_share_its_budget() {
    let s = server_with(|c| {
        c.table_create_burst = 3;
        c.table_creates_per_sec = 0.001;
        c.peer_write_burst = 5;
        c.peer_writes_per_sec = 0.001;
    });
    const A: &str = "192.0.2.1:4000";
    const B: &str = "192.0.2.2:4000";
    let mut tokens = Vec::new();
    for i in 0..3 {
        let a = s
            .send(page_request_from(
                A,
                "/api/tables",
                None,
                &json!({ "table": format!("T{i}"), "name": "Ada" }),
            ))
            .await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
        tokens.push(a.json()["token"].as_str().unwrap().to_string());
    }
    // The fourth from the same address: refused, with the wait (1,000 s for a token at
    // 0.001 a second), nothing created.
    let a = s
        .send(page_request_from(
            A,
            "/api/tables",
            None,
            &json!({ "table": "T3", "name": "Ada" }),
        ))
        .await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.text());
    assert_eq!(a.headers[axum::http::header::RETRY_AFTER], "1000");
    assert!(a.json()["error"].as_str().unwrap().contains("tables"));
    // Another address creates its own.
    let b = s
        .send(page_request_from(
            B,
            "/api/tables",
            None,
            &json!({ "table": "U", "name": "Uma" }),
        ))
        .await;
    assert_eq!(b.status, StatusCode::CREATED, "{}", b.text());
    let uma = b.json()["token"].as_str().unwrap().to_string();
    // Five notes from address A across its three tables (each table and session far below
    // its own budget), then the address's bucket is empty whatever the table.
    let note = |i: usize| json!({ "text": format!("note {i}") });
    for i in 0..5 {
        let a = s
            .send(page_request_from(
                A,
                "/api/notes",
                Some(&tokens[i % 3]),
                &note(i),
            ))
            .await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
    }
    for t in &tokens {
        let a = s
            .send(page_request_from(A, "/api/notes", Some(t), &note(9)))
            .await;
        assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.text());
        assert!(a.json()["error"].as_str().unwrap().contains("this address"));
    }
    // Another address writes on.
    let a = s
        .send(page_request_from(B, "/api/notes", Some(&uma), &note(0)))
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
}

/// One table's sessions cannot take every live stream of the server: past its cap per table
/// (`live_per_table`) a stream is 429, and another table's stream is still served.
#[tokio::test]
async fn one_tables_sessions_cannot_take_every_live_stream() {
    let s = server_with(|c| {
        c.live_per_table = 2;
        c.live_max = 4;
    });
    let (gm, _) = s.table("T", "Ada").await;
    let pia = s.player(&gm, "Pia").await;
    let bo = s.player(&gm, "Bo").await;
    let open = |token: &str| {
        Request::builder()
            .uri(format!("/api/events?token={token}"))
            .header("host", HOST)
            .body(Body::empty())
            .unwrap()
    };
    // Held open (their bodies not dropped) for the whole test.
    let mut held = Vec::new();
    for t in [&gm, &pia] {
        let resp = s.router.clone().oneshot(open(t)).await.unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        held.push(resp);
    }
    // Its status only: a served stream's body never ends.
    let third = s.router.clone().oneshot(open(&bo)).await.unwrap();
    assert_eq!(third.status(), StatusCode::TOO_MANY_REQUESTS);
    let body = axum::body::to_bytes(third.into_body(), 1 << 16)
        .await
        .unwrap();
    assert!(String::from_utf8_lossy(&body).contains("this table"));
    let (other, _) = s.table("U", "Uma").await;
    let resp = s.router.clone().oneshot(open(&other)).await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK, "another table's stream");
    drop(held);
}

/// Issue 22: a hero's fight of the original goes on over later requests, shows the exact
/// odds of its next exchange, and can be abandoned. Values worked by hand (C1, C2, C3).
#[tokio::test]
async fn a_classic_fight_goes_on_over_requests_and_can_be_abandoned() {
    let s = server();
    let (gm, _) = s.table("Barrow", "Ada").await;
    // C1: Body 2 4 1 → 2, Mind 1 3 5 → 1, Spirit 6 1 1 → 1, hit points 2 + (2 2) = 4.
    let a = s
        .post(
            "/api/classic/characters",
            &gm,
            json!({ "name": "Al", "cliches": ["The veteran warrior"],
                    "typed": [2, 4, 1, 1, 3, 5, 6, 1, 1, 2, 2, 1, 1] }),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
    let uri = "/api/classic/characters/Al/fight";
    let none = s.get(uri, &gm).await;
    assert_eq!(none.status, StatusCode::OK, "{}", none.text());
    assert_eq!(none.json()["fight"], Value::Null);
    // The troll (Body 4, 4 hit points, always a hit point): Al 6 6 against 1 2 3 4 wins,
    // the troll 4 → 3; the typed dice end there.
    let a = s
        .post(
            uri,
            &gm,
            json!({ "foes": ["troll"], "policy": "survive", "foe_policy": "hit-points",
                    "typed": [6, 6, 1, 2, 3, 4] }),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let v = a.json();
    assert_eq!(v["status"]["foes"], json!([[4, 3]]));
    assert_eq!(v["status"]["over"], false);
    // Two dice against four: win sum (2v-1)(v-1)^4 = 9829, tie sum (2v-1)(v^4-(v-1)^4) =
    // 12298, lose 24529, of 6^6 = 46656.
    assert_eq!(
        v["next"]["odds"]["exact"],
        json!(["9829/46656", "6149/23328", "24529/46656"])
    );
    // Another request reads it as it stands.
    let g = s.get(uri, &gm).await.json();
    assert_eq!(g["fight"]["status"]["foes"], json!([[4, 3]]));
    assert_eq!(g["fight"]["calls"], 1);
    // Foes while it waits: refused, with the way on.
    let a = s.post(uri, &gm, json!({ "foes": ["goblin"] })).await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text());
    assert!(a.text().contains("already in a fight"), "{}", a.text());
    // A setup without foes, a foe outside the book, an unknown field: refused.
    let a = s.post(uri, &gm, json!({ "policy": "body" })).await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text());
    let a = s.post(uri, &gm, json!({ "hp": 3 })).await;
    assert!(a.status.is_client_error(), "{}", a.text());
    // Go on with no foes: 1 1 against 6 1 1 1, Al 4 → 3 hit points.
    let a = s
        .post(uri, &gm, json!({ "typed": [1, 1, 6, 1, 1, 1] }))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    assert_eq!(a.json()["status"]["hero"], json!([2, 3]));
    // Abandoned: Al flees with his wound, the troll lives on.
    let a = s.post(&format!("{uri}/abandon"), &gm, json!({})).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let v = a.json();
    assert_eq!(v["status"]["abandoned"], true);
    assert_eq!(v["status"]["foes"], json!([[4, 3]]));
    assert_eq!(v["sheet"]["hit_points"], 3);
    assert_eq!(s.get(uri, &gm).await.json()["fight"], Value::Null);
    let a = s.post(&format!("{uri}/abandon"), &gm, json!({})).await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text());
    let a = s.post(uri, &gm, json!({ "foes": ["dragon"] })).await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text());
    assert!(a.text().contains("not in the book"), "{}", a.text());
}

/// Issue 22: a hero of the original is given gear, and a check's gear must be carried.
#[tokio::test]
async fn a_classic_heros_gear_is_given_and_checked_against_the_sheet() {
    let s = server();
    let (gm, _) = s.table("Barrow", "Ada").await;
    // C1: Body 2, Mind 1 (1 3 5: no even die), Spirit 1, 4 hit points.
    let a = s
        .post(
            "/api/classic/characters",
            &gm,
            json!({ "name": "Al", "typed": [2, 4, 1, 1, 3, 5, 6, 1, 1, 2, 2, 1, 1] }),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
    let check = "/api/classic/characters/Al/check";
    let a = s
        .post(
            check,
            &gm,
            json!({ "stat": "mind", "difficulty": 5, "gear": true, "typed": [2, 5] }),
        )
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text());
    assert!(a.text().contains("carries no gear"), "{}", a.text());
    let a = s
        .post(
            "/api/classic/characters/Al/gear",
            &gm,
            json!({ "add": ["Lockpicks"] }),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    assert_eq!(a.json()["sheet"]["hero"]["gear"], json!(["Lockpicks"]));
    let a = s
        .post(
            check,
            &gm,
            json!({ "stat": "mind", "difficulty": 5, "gear_name": "sword", "typed": [2, 5] }),
        )
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text());
    // One die against 5: the 2 fails, the lockpicks reroll it to 5; 1 - (4/6)^2 = 5/9.
    let a = s
        .post(
            check,
            &gm,
            json!({ "stat": "mind", "difficulty": 5, "gear": true, "typed": [2, 5] }),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let v = a.json();
    assert_eq!(v["check"]["passed"], true);
    assert_eq!(v["inputs"]["gear_name"], "Lockpicks");
    assert!((v["p_pass"].as_f64().unwrap() - 5.0 / 9.0).abs() < 1e-12);
    let a = s
        .post(
            "/api/classic/characters/Al/gear",
            &gm,
            json!({ "remove": ["sword"] }),
        )
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text());
}

/// S9 from the table (a QA run found a refused creation could be sent again until the dice
/// suited): four backgrounds are refused before any die, so a retry rolls nothing; three
/// against 2d6 of 1 and 3 (one allowed) make the hero with the first, and the notes name the
/// other two.
#[tokio::test]
async fn a_creation_named_beyond_its_roll_keeps_the_roll() {
    let s = server();
    let (gm, _) = s.table("T", "Ada").await;
    let mut four = hero("Nick");
    four["backgrounds"] = json!(["Sailor", "Pilot", "Thief", "Cook"]);
    let refused = s.post("/api/characters", &gm, four).await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.text()
    );
    assert!(refused.text().contains("at most 3"), "{}", refused.text());
    assert!(refused.json().get("rolled").is_none(), "{}", refused.text());
    let mut three = hero("Nick");
    three["backgrounds"] = json!(["Sailor", "Pilot", "Thief"]);
    three["typed"] = json!([1, 3, 2]);
    let made = s.post("/api/characters", &gm, three).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
    let sheet = s.get("/api/characters/Nick", &gm).await.json();
    assert_eq!(sheet["character"]["backgrounds"], json!(["Sailor"]));
    assert_eq!(
        sheet["character"]["notes"],
        "Not taken at creation (the 2d6 1 and 3 allow 1): Pilot, Thief."
    );
}

/// Issue 22 on the web table: fast static combat (S11) from a character's sheet, kept and
/// resumed across requests, with a background named per call (S18); and the combat's
/// options, each with the line that plays it, list no attack once the action is spent.
/// Nick: Body 3, Mind 2, 5 hit points (creation dice 1, 1, 1: one background, no armor).
/// Against the trooper squad (4, 5 hp, 2 damage): 1, 2, 3 fails (Nick 3), 4, 4, 4 passes
/// (squad 4). From there 4 passes before 2 failures: 3 dice (p = 7/8) p⁴(1 + 4q) =
/// 7203/8192; with Sailor, 4 dice (15/16): 253125/262144.
#[tokio::test]
async fn fast_static_combat_from_a_sheet_and_options_legal_now() {
    let s = server();
    let (gm, _) = s.table("T", "Ada").await;
    let mut nick = hero("Nick");
    nick["typed"] = json!([1, 1, 1]);
    let made = s.post("/api/characters", &gm, nick).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
    let path = "/api/characters/Nick/static";
    assert_eq!(s.get(path, &gm).await.json(), json!({ "fight": null }));
    let first = s
        .post(
            path,
            &gm,
            json!({ "foe": "trooper squad", "typed": [1, 2, 3, 4, 4, 4] }),
        )
        .await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text());
    let v = first.json();
    assert_eq!(v["outcome"], "waiting");
    assert_eq!(v["state"], json!({ "hit_points": 3, "foe_hit_points": 4 }));
    assert_eq!(v["odds"][0]["p_win_exact"], "7203/8192");
    assert_eq!(v["odds"][1]["background"], "Sailor");
    assert_eq!(v["odds"][1]["p_win_exact"], "253125/262144");
    assert_eq!(
        s.get("/api/characters/Nick", &gm).await.json()["character"]["hit_points"],
        3
    );
    let status = s.get(path, &gm).await.json();
    assert_eq!(status["fight"]["state"]["foe_hit_points"], 4);
    // Unknown fields and a background not on the sheet are refused; nothing changes.
    let bad = s.post(path, &gm, json!({ "seed": 1 })).await;
    assert_eq!(
        bad.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        bad.text()
    );
    let bad = s
        .post(
            path,
            &gm,
            json!({ "background": "Pilot", "typed": [4, 4, 4] }),
        )
        .await;
    assert_eq!(
        bad.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        bad.text()
    );
    // A later request goes on, naming the background: 4 dice, 1, 1, 1, 4 passes.
    let second = s
        .post(
            path,
            &gm,
            json!({ "background": "sailor", "typed": [1, 1, 1, 4] }),
        )
        .await;
    assert_eq!(second.status, StatusCode::OK, "{}", second.text());
    assert_eq!(second.json()["state"]["foe_hit_points"], 3);
    let left = s.post(&format!("{path}/abandon"), &gm, json!({})).await;
    assert_eq!(left.status, StatusCode::OK, "{}", left.text());
    assert_eq!(left.json()["outcome"], "abandoned");
    assert_eq!(s.get(path, &gm).await.json(), json!({ "fight": null }));
    let verify = s.get("/api/journal/verify", &gm).await.json();
    assert_eq!(verify["mismatches"], json!([]), "{verify}");
    assert_eq!(verify["sheet_mismatches"], json!([]), "{verify}");

    // The table's combat: after the melee the options offer no attack.
    assert_eq!(
        s.post("/api/combat", &gm, json!({})).await.status,
        StatusCode::CREATED
    );
    for line in [
        "hero Nick",
        "foe orc",
        "place Nick orc engaged",
        "order Nick orc",
    ] {
        let a = s
            .post("/api/combat/line", &gm, json!({ "line": line }))
            .await;
        assert_eq!(a.status, StatusCode::OK, "{line}: {}", a.text());
    }
    let combat = s.get("/api/combat", &gm).await.json()["combat"].clone();
    let lines: Vec<&str> = combat["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["line"].as_str().unwrap())
        .collect();
    assert!(lines.contains(&"melee orc"), "{lines:?}");
    assert!(lines.contains(&"melee orc bg Sailor"), "{lines:?}");
    assert!(lines.contains(&"end"), "{lines:?}");
    let hit = s
        .post(
            "/api/combat/line",
            &gm,
            json!({ "line": "melee orc bg Sailor" }),
        )
        .await;
    assert_eq!(hit.status, StatusCode::OK, "{}", hit.text());
    let actions: Vec<String> = hit.json()["status"]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["action"].as_str().unwrap().to_owned())
        .collect();
    assert!(
        !actions.iter().any(|a| a == "melee" || a == "unarmed"),
        "{actions:?}"
    );
}

/// Project Sol from the page's API (issue 22): a group action led by one of the table's
/// characters with two others, and hits bought without a roll; journaled, verified.
#[tokio::test]
async fn a_sol_group_action_and_bought_hits_from_the_tables_sheets() {
    let s = server();
    let (gm, _) = s.table("Crew", "Ada").await;
    for body in [
        json!({ "name": "Kai", "edge": 2, "attributes": [["AGI", 3]], "skills": [["Sidearms", 1]] }),
        json!({ "name": "Bea", "edge": 2, "attributes": [["AGI", 2]], "skills": [["Sidearms", 2]] }),
        json!({ "name": "Rho", "edge": 1, "attributes": [["AGI", 1]], "skills": [] }),
        json!({ "name": "Lena", "edge": 2, "attributes": [["LOG", 6]], "skills": [["Hacking", 4]] }),
    ] {
        let a = s.post("/api/sol/characters", &gm, body).await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
    }
    // Kai 4 dice (5 1 2 1: 1 hit, a glitch), Bea 4 dice (6 5 6 1: 3 hits, a point above her
    // 2 ranks), Rho 1 die (1: a critical glitch). Best 3 against 2; one wound for Kai.
    let a = s
        .post(
            "/api/sol/characters/Kai/test",
            &gm,
            json!({ "skill": "Sidearms", "attribute": "AGI", "threshold": 2,
                    "edge": null, "then": null, "assist": null, "against": null,
                    "group": ["Bea", "Rho"], "typed": [5, 1, 2, 1, 6, 5, 6, 1, 1] }),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let v = a.json();
    assert_eq!(v["group"]["hits"], 3);
    assert_eq!(v["group"]["success"], true);
    assert_eq!(v["group"]["leader_wounds"], 1);
    assert_eq!(v["test"]["glitch"], true);
    assert_eq!(v["group"]["members"][0]["progress"]["point"], true);
    assert_eq!(v["group"]["members"][1]["test"]["critical_glitch"], true);
    // LOG 6 + 4 = 10 dice buy 2 hits; nothing typed, nothing rolled.
    let a = s
        .post(
            "/api/sol/characters/Lena/test",
            &gm,
            json!({ "skill": "Hacking", "attribute": "LOG", "threshold": 2,
                    "edge": null, "then": null, "assist": null, "against": null, "buy": true }),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let v = a.json();
    assert_eq!(v["bought"]["hits"], 2);
    assert_eq!(v["bought"]["success"], true);
    assert_eq!(v["rolled"]["faces"].as_array().unwrap().len(), 0);
    // Bought hits take no Edge; the leader is not a participant of its own group.
    for body in [
        json!({ "skill": "Hacking", "attribute": "LOG", "edge": "push-the-limit", "then": null,
                "assist": null, "against": null, "buy": true }),
        json!({ "skill": "Hacking", "attribute": "LOG", "edge": null, "then": null,
                "assist": null, "against": null, "group": ["lena"] }),
    ] {
        let a = s.post("/api/sol/characters/Lena/test", &gm, body).await;
        assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text());
    }
    // A new encounter from the page (the game master's call): Bea may earn again; a second
    // good roll in the same encounter earns nothing (P3). Bea alone: 4 dice, 6 6 5 1.
    let bea = |typed: Vec<u32>| {
        json!({ "skill": "Sidearms", "attribute": "AGI", "edge": null, "then": null,
                "assist": null, "against": null, "typed": typed })
    };
    let a = s
        .post("/api/sol/characters/Bea/test", &gm, bea(vec![6, 6, 5, 1]))
        .await;
    assert_eq!(
        a.json()["progress"]["point"],
        false,
        "the encounter's point is taken"
    );
    let a = s
        .post("/api/sol/characters/Bea/encounter", &gm, json!({}))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let a = s
        .post("/api/sol/characters/Bea/test", &gm, bea(vec![6, 6, 5, 1]))
        .await;
    assert_eq!(a.json()["progress"]["point"], true);
    // A session refreshes Edge: Kai 2 of 2 still; the journal has both.
    let a = s
        .post("/api/sol/characters/Kai/session", &gm, json!({}))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    assert_eq!(a.json()["edge"]["points"], 2);
    let report = s.get("/api/journal/verify", &gm).await.json();
    assert_eq!(
        report["mismatches"].as_array().unwrap().len(),
        0,
        "{report}"
    );
}

/// Ruling U5 at the table: a Sol'una skirmish is played through the API, one decision per
/// request, each request a fresh read of the campaign; the text's example gives the values.
#[tokio::test]
async fn a_soluna_skirmish_is_played_one_decision_per_request() {
    let s = server();
    let (gm, _) = s.table("Sol", "Ada").await;
    for body in [
        json!({ "name": "Csen", "side": "sol", "mind": 1, "body": 0, "hit_points": 3, "melee": 5,
                "flips": 5, "flips_per_test": 3 }),
        json!({ "name": "Viled", "side": "smugglers", "mind": 1, "hit_points": 2, "melee": 1,
                "body": 2, "shield": 2, "guard": 2, "flips_per_test": 2 }),
    ] {
        let a = s.post("/api/soluna/characters", &gm, body).await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
    }
    assert_eq!(
        s.get("/api/soluna/skirmish", &gm).await.json(),
        json!({ "skirmish": null })
    );
    let a = s
        .post(
            "/api/soluna/skirmish",
            &gm,
            json!({ "names": ["Csen", "Viled"], "auto": ["smugglers"] }),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
    assert_eq!(a.json()["state"]["waiting"], json!(["Csen"]));
    // Turn 1, phase 10: Csen moves in (Viled, auto, melee only, moves in too).
    let a = s
        .post(
            "/api/soluna/skirmish/act",
            &gm,
            json!({ "name": "Csen", "action": "move", "target": "Viled" }),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let st = s.get("/api/soluna/skirmish", &gm).await.json();
    assert_eq!(st["skirmish"]["skirmish"]["turn"], 2);
    assert_eq!(st["skirmish"]["skirmish"]["engaged"], json!([[0, 1]]));
    // More flips than Csen may spend on a test (3): 422, nothing changes.
    let a = s
        .post(
            "/api/soluna/skirmish/act",
            &gm,
            json!({ "name": "Csen", "action": "attack", "target": "Viled", "flips": 4 }),
        )
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text());
    // The text: 4 2 6 3 6, 3 flips less De'Viled's 2: the 4 becomes a 6, three 6s less
    // Body 2 (melee ignores Shield) is 1 damage. Viled's one die, a 2: 1 damage to Csen.
    let a = s
        .post(
            "/api/soluna/skirmish/act",
            &gm,
            json!({ "name": "Csen", "action": "attack", "target": "Viled", "flips": 3,
                    "typed": [4, 2, 6, 3, 6, 2] }),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let v = a.json();
    assert_eq!(v["odds"]["net_flips"], 1);
    assert_eq!(v["odds"]["dice"], 5);
    let sear = v["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["event"] == "attack" && e["attacker"] == 0)
        .unwrap()
        .clone();
    assert_eq!(sear["test"]["largest"], 3);
    assert_eq!(sear["damage"], 1);
    let cs = &v["state"]["skirmish"]["characters"];
    assert_eq!(
        (cs[0]["hit_points"].clone(), cs[0]["flips"].clone()),
        (json!(2), json!(2))
    );
    assert_eq!(cs[1]["hit_points"], 1);
    // Abandoned: the sheets keep the wounds and the flips spent.
    let a = s.post("/api/soluna/skirmish/abandon", &gm, json!({})).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let listed = s.get("/api/systems/characters", &gm).await.json();
    let csen = listed["soluna"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["character"]["name"] == "Csen")
        .unwrap()
        .clone();
    assert_eq!(csen["character"]["hit_points"], 2);
    assert_eq!(csen["character"]["flips"], 2);
    let verify = s.get("/api/journal/verify", &gm).await;
    assert_eq!(verify.status, StatusCode::OK, "{}", verify.text());
}

#[tokio::test]
async fn players_decide_for_their_own_characters_only() {
    let s = server();
    let (gm, _) = s.table("Sol", "Ada").await;
    let pia = s.player(&gm, "Pia").await;
    let bo = s.player(&gm, "Bo").await;
    let a = s
        .post(
            "/api/soluna/characters",
            &pia,
            json!({ "name": "Csen", "side": "sol", "mind": 1, "body": 0, "hit_points": 3, "melee": 5 }),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
    let a = s
        .post(
            "/api/soluna/characters",
            &gm,
            json!({ "name": "Viled", "side": "smugglers", "mind": 1, "body": 0, "hit_points": 2, "melee": 1 }),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
    let start = json!({ "names": ["Csen", "Viled"], "auto": ["Viled"] });
    let a = s.post("/api/soluna/skirmish", &pia, start.clone()).await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text());
    let a = s.post("/api/soluna/skirmish", &gm, start).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
    let mv = json!({ "name": "Csen", "action": "move", "target": "Viled" });
    let a = s.post("/api/soluna/skirmish/act", &bo, mv.clone()).await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text());
    // Pia's move rolls no die; the phase resolves (Viled, auto, moves in too).
    let a = s.post("/api/soluna/skirmish/act", &pia, mv).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let st = s.get("/api/soluna/skirmish", &bo).await.json();
    assert_eq!(st["skirmish"]["skirmish"]["turn"], 2);
    assert_eq!(st["skirmish"]["waiting"], json!(["Csen"]));
    // Players type no dice.
    let a = s
        .post(
            "/api/soluna/skirmish/act",
            &pia,
            json!({ "name": "Csen", "action": "attack", "target": "Viled", "typed": [1, 1, 1, 1, 1, 1] }),
        )
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text());
}

/// Reads the live stream of `token` on `router` for `wait`, in a task of its own.
fn collect_live(router: &Router, token: &str, wait: Duration) -> tokio::task::JoinHandle<String> {
    let router = router.clone();
    let req = Request::get(format!("/api/events?token={token}"))
        .header("host", HOST)
        .body(Body::empty())
        .unwrap();
    tokio::spawn(async move {
        let resp = router.oneshot(req).await.unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        let mut body = resp.into_body().into_data_stream();
        let mut out = Vec::new();
        let deadline = tokio::time::Instant::now() + wait;
        while let Ok(Some(Ok(c))) = tokio::time::timeout_at(deadline, body.next()).await {
            out.extend_from_slice(&c);
        }
        String::from_utf8(out).unwrap()
    })
}

/// Six streams at one table (two each of the game master and two players) take the table's
/// feed: every stream receives every entry it may see once, in table order, numbered 1, 2,
/// 3, … by the table; the players' streams never receive the secret roll (number 2).
#[tokio::test]
async fn every_stream_of_a_table_receives_each_entry_it_may_see_once_in_order() {
    let s = server();
    let (gm, _) = s.table("Feed", "Ada").await;
    let pia = s.player(&gm, "Pia").await;
    let pol = s.player(&gm, "Pol").await;
    let wait = Duration::from_millis(2500);
    let streams: Vec<_> = [&gm, &gm, &pia, &pia, &pol, &pol]
        .iter()
        .map(|t| collect_live(&s.router, t, wait))
        .collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let reads = s.state.hub().feed_reads();
    s.post("/api/notes", &gm, json!({ "text": "n1" })).await;
    let secret = s
        .post(
            "/api/roll",
            &gm,
            json!({ "expression": "1d6", "secret": true }),
        )
        .await;
    assert_eq!(secret.status, StatusCode::OK, "{}", secret.text());
    s.post("/api/notes", &pia, json!({ "text": "n2" })).await;
    s.post("/api/notes", &pol, json!({ "text": "n3" })).await;
    let mut got = Vec::new();
    for stream in streams {
        got.push(event_ids(&stream.await.unwrap()));
    }
    // The table's feed read the journal once per write (or fewer, writes read together; a
    // look of the watcher may add one), never once per stream and write: 24 here.
    let feed = s.state.hub().feed_reads() - reads;
    assert!((1..24).contains(&feed), "{feed} feed reads");
    assert_eq!(got[0], [1, 2, 3, 4]);
    assert_eq!(got[1], [1, 2, 3, 4]);
    for player in &got[2..] {
        assert_eq!(player, &[1, 3, 4]);
    }
}

/// An entry written by another connection to the campaign file (as the command line does)
/// reaches an open stream: the server's one watcher sees the file changed and wakes the
/// table's feed.
#[tokio::test]
async fn an_entry_written_by_another_connection_reaches_a_live_stream() {
    let s = server();
    let (gm, table) = s.table("Outside", "Ada").await;
    let stream = collect_live(&s.router, &gm, Duration::from_millis(2000));
    tokio::time::sleep(Duration::from_millis(300)).await;
    let path = s._dir.path().join("campaign.solum");
    tokio::task::spawn_blocking(move || {
        let scope = solum_store::Scope {
            table,
            member: None,
            gm: true,
            secret_writes: false,
        };
        let store = solum_store_sqlite::SqliteStore::open(&path, scope).unwrap();
        solum_app::Campaign::new(store)
            .note("from outside")
            .unwrap();
    })
    .await
    .unwrap();
    let text = stream.await.unwrap();
    assert_eq!(event_ids(&text), [1], "{text}");
    assert!(text.contains("from outside"), "{text}");
}

/// A game master's secret roll changes nothing a player can see: a fight of the original
/// changes the hero's hit points and the fight every member reads, so it cannot be secret
/// (before: the player read the secret fight, its odds and the hero's lost hit points).
#[tokio::test]
async fn a_secret_fight_of_the_original_is_refused_and_leaves_nothing() {
    let s = server();
    let (gm, _) = s.table("Barrow", "Ada").await;
    // C1: Body 2 4 1 → 2, Mind 1 3 5 → 1, Spirit 6 1 1 → 1, hit points 2 + (2 2) = 4.
    let a = s
        .post(
            "/api/classic/characters",
            &gm,
            json!({ "name": "Tor", "cliches": ["The veteran warrior"],
                    "typed": [2, 4, 1, 1, 3, 5, 6, 1, 1, 2, 2, 1, 1] }),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
    // Typed dice are for a game master alone at the table: the player joins after creation.
    let pia = s.player(&gm, "Pia").await;
    let uri = "/api/classic/characters/Tor/fight";
    let before = s.get("/api/journal", &pia).await.json();
    let a = s
        .post(
            uri,
            &gm,
            json!({ "foes": ["troll"], "policy": "survive", "secret": true }),
        )
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text());
    assert!(a.text().contains("secret"), "{}", a.text());
    // Nothing a player (or the GM) can read changed: no fight, 4 hit points, no entry.
    for who in [&pia, &gm] {
        let f = s.get(uri, who).await;
        assert_eq!(f.status, StatusCode::OK, "{}", f.text());
        assert_eq!(f.json()["fight"], Value::Null, "{}", f.text());
    }
    let sheets = s.get("/api/systems/characters", &pia).await;
    assert!(
        sheets.text().contains("\"hit_points\":4"),
        "{}",
        sheets.text()
    );
    assert!(
        !sheets.text().contains("\"in_fight\":true"),
        "{}",
        sheets.text()
    );
    let after = s.get("/api/journal", &pia).await.json();
    assert_eq!(after, before);
    // The same fight rolled openly goes through.
    let a = s
        .post(uri, &gm, json!({ "foes": ["troll"], "policy": "survive" }))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
}

/// A fight the game master starts on a player's hero is the player's to go on with: the
/// fight's row took the starter as its owner, so the player's answer was "not your
/// character" (403) on their own hero.
#[tokio::test]
async fn a_player_goes_on_with_a_fight_the_game_master_started_on_their_hero() {
    let s = server();
    let (gm, _) = s.table("Barrow", "Ada").await;
    let pia = s.player(&gm, "Pia").await;
    let a = s
        .post(
            "/api/classic/characters",
            &pia,
            json!({ "name": "Lia", "cliches": ["The veteran warrior"] }),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
    let uri = "/api/classic/characters/Lia/fight";
    // Three trolls (Body 4, 4 hit points each): without a policy, the first hit on Lia waits
    // for her player's answer (Lia would have to win twelve exchanges in a row, at about 1
    // in 5 each, to be spared every hit).
    let a = s
        .post(uri, &gm, json!({ "foes": ["troll", "troll", "troll"] }))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    assert!(!a.json()["status"]["pending"].is_null(), "{}", a.text());
    let a = s.post(uri, &pia, json!({ "decide": "hit-point" })).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let bo = s.player(&gm, "Bo").await;
    let a = s.post(uri, &bo, json!({ "decide": "hit-point" })).await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text());
}

/// A component schema of the description, by name.
fn component<'a>(doc: &'a Value, name: &str) -> &'a Value {
    let schema = &doc["components"]["schemas"][name];
    assert!(schema.is_object(), "no schema {name}");
    schema
}

#[tokio::test]
async fn the_description_states_the_limits_the_server_enforces() {
    let doc = solum_web::openapi_description();
    // The numbers are the application's own limits, stated as schema keywords.
    let limits = [
        ("NoteRequest", "text", "maxLength", solum_app::MAX_NOTE),
        (
            "AskRequest",
            "question",
            "maxLength",
            solum_app::MAX_QUESTION,
        ),
        ("SceneRequest", "title", "maxLength", solum_app::MAX_TITLE),
        ("SceneRequest", "goal", "maxLength", solum_app::MAX_GOAL),
        ("SceneEnd", "summary", "maxLength", solum_app::MAX_GOAL),
        ("NewTable", "name", "maxLength", solum_app::tables::MAX_NAME),
        (
            "JoinRequest",
            "name",
            "maxLength",
            solum_app::tables::MAX_NAME,
        ),
        (
            "OddsRequest",
            "expression",
            "maxLength",
            solum_app::notation::MAX_EXPRESSION,
        ),
        (
            "CombatLineRequest",
            "line",
            "maxLength",
            solum_app::combat::MAX_LINE,
        ),
        (
            "IdeaRequest",
            "count",
            "maximum",
            solum_app::ideas::MAX_COUNT as usize,
        ),
        (
            "ClassicGear",
            "add",
            "maxItems",
            solum_app::classic::MAX_GEAR,
        ),
    ];
    for (schema, field, keyword, limit) in limits {
        // A field of a type that states its own range refers to it.
        let f = &component(&doc, schema)["properties"][field];
        let f = match f["$ref"].as_str() {
            Some(r) => component(&doc, r.rsplit('/').next().unwrap()),
            None => f,
        };
        assert_eq!(f[keyword], json!(limit), "{schema}.{field} {keyword}");
    }
    let journal = &doc["paths"]["/api/journal"]["get"]["parameters"];
    let limit = journal
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "limit")
        .unwrap();
    assert_eq!(limit["schema"]["maximum"], json!(solum_web::MAX_PAGE));
    // The server refuses one past the stated limit and takes the limit itself.
    let s = server();
    let (gm, _) = s.table("T", "Ada").await;
    let at = "n".repeat(solum_app::MAX_NOTE);
    let a = s.post("/api/notes", &gm, json!({ "text": at })).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
    let over = "n".repeat(solum_app::MAX_NOTE + 1);
    let a = s.post("/api/notes", &gm, json!({ "text": over })).await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text());
    // The name rule's pattern matches exactly the names the server takes.
    let pattern = component(&doc, "NewTable")["properties"]["name"]["pattern"]
        .as_str()
        .unwrap();
    let pattern = regex::Regex::new(pattern).unwrap();
    for name in [
        "Nick",
        "Élodie Tan",
        "漢字",
        "a\u{301}",
        "Zero\u{200b}Width",
        "\u{feff}Nick",
        "Nick\u{3164}",
        "No\u{a0}Break",
        "Bell\u{7}",
        "\u{301}",
        "   ",
        "Right\u{202e}Left",
    ] {
        let a = s.post("/api/characters", &gm, hero(name)).await;
        assert_eq!(
            pattern.is_match(name),
            a.status == StatusCode::CREATED,
            "{name:?}: {}",
            a.text()
        );
    }
}

#[test]
fn every_request_body_refuses_unknown_fields_and_every_route_lists_its_layers_statuses() {
    let doc = solum_web::openapi_description();
    let mut unlisted = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let responses = op["responses"].as_object().unwrap();
            let needs_session = op["security"] != json!([]);
            if needs_session {
                assert!(responses.contains_key("401"), "{method} {path}: no 401");
            }
            if method != "get" {
                for status in ["400", "403", "408", "413", "415", "422"] {
                    assert!(
                        responses.contains_key(status),
                        "{method} {path}: no {status}"
                    );
                }
            }
            let Some(schema) =
                op["requestBody"]["content"]["application/json"]["schema"].as_object()
            else {
                continue;
            };
            let schema = match schema.get("$ref").and_then(Value::as_str) {
                Some(r) => component(&doc, r.rsplit('/').next().unwrap()),
                None => &op["requestBody"]["content"]["application/json"]["schema"],
            };
            if schema.get("properties").is_some() {
                assert_eq!(
                    schema["additionalProperties"],
                    json!(false),
                    "{method} {path}: unknown fields allowed"
                );
            } else {
                unlisted.push(format!("{method} {path}"));
            }
        }
    }
    // Every body is described with its fields.
    assert!(
        unlisted.is_empty(),
        "bodies without their fields: {unlisted:?}"
    );
}
