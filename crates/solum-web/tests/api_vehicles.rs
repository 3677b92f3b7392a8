//! Vehicles, chases and the odds of a fight at the web table (issues 21 and 23): each route
//! against the real router and a real SQLite campaign in a tempdir, refusals included.
//! Expected values come from the rules text (S10's smuggler and customs starfighter) and
//! independent arithmetic.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::{Value, json};

#[path = "harness/table.rs"]
mod harness;

use harness::server;

/// Body 3, Mind 2, Charm 1, a dagger, leather armor, the background Smuggler.
fn hero(name: &str) -> Value {
    json!({
        "name": name,
        "body": 3, "mind": 2, "charm": 1,
        "backgrounds": ["Smuggler"],
        "weapon": { "name": "dagger", "class": "light" },
        "armor_name": "leather"
    })
}

#[tokio::test]
async fn the_catalogue_the_odds_and_a_chase_by_the_text() {
    let s = server();
    let gm = s.table("T", "Ada").await;
    let list = s.get("/api/vehicles", &gm).await;
    assert_eq!(list.status, StatusCode::OK);
    let names: Vec<String> = list.json()["vehicles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap().to_owned())
        .collect();
    assert!(names.contains(&"tramp freighter".to_owned()));
    // One die against one: 3/7, 1/7, 3/7 (the Rule of 6 by hand: w = 15/36 + w/36).
    let odds = s
        .ok(
            "/api/vehicles/chase/odds",
            &gm,
            json!({"pilot": 1, "against_pilot": 1}),
            StatusCode::OK,
        )
        .await;
    assert_eq!(
        (
            &odds["p_win_exact"],
            &odds["p_draw_exact"],
            &odds["p_lose_exact"]
        ),
        (&json!("3/7"), &json!("1/7"), &json!("3/7"))
    );
    // The text's chase with its dice typed by the game master alone at the table.
    let v = s
        .ok(
            "/api/vehicles/chase",
            &gm,
            json!({
                "pilot": 3, "vehicle": "tramp freighter",
                "against_pilot": 3, "against_vehicle": "starfighter",
                "rolled": [2, 3, 5], "against_rolled": [2, 3, 4, 4, 6]
            }),
            StatusCode::OK,
        )
        .await;
    assert_eq!(
        (v["pool"].as_u64(), v["against_pool"].as_u64()),
        (Some(3), Some(5))
    );
    assert_eq!(v["outcome"], "lose");
    assert_eq!(v["typed"], true);
    // The attack: 4 against 3 (handling only), 1,2,3,3 against 3,4,5: a miss.
    let v = s
        .ok(
            "/api/vehicles/attack",
            &gm,
            json!({
                "pilot": 3, "vehicle": "starfighter",
                "against_pilot": 3, "against_vehicle": "freighter",
                "rolled": [1, 2, 3, 3], "against_rolled": [3, 4, 5]
            }),
            StatusCode::OK,
        )
        .await;
    assert_eq!(
        (v["pool"].as_u64(), v["verdict"].as_str()),
        (Some(4), Some("MISS"))
    );
    // Both rolls are in the journal as kind vehicle, and verify re-derives them.
    let entries = s.entries(&gm).await;
    assert_eq!(
        entries.iter().filter(|e| e["kind"] == "vehicle").count(),
        2,
        "{entries:?}"
    );
    // And they reach the live stream the feed reads.
    let stream = s.live(&gm, Duration::from_millis(800)).await;
    assert!(stream.contains(r#""kind":"vehicle""#), "{stream}");
    let verify = s.get("/api/journal/verify", &gm).await;
    assert_eq!(verify.status, StatusCode::OK, "{}", verify.text());
    assert!(
        verify.text().contains("\"mismatches\":[]"),
        "{}",
        verify.text()
    );
}

#[tokio::test]
async fn refusals_name_the_rule_and_the_field() {
    let s = server();
    let gm = s.table("T", "Ada").await;
    query_strings_are_refused_by_name(&s, &gm).await;
    let refused = |body: Value, uri: &'static str| {
        let s = &s;
        let gm = gm.clone();
        async move {
            let a = s.post(uri, &gm, body).await;
            (a.status, a.json())
        }
    };
    let (st, v) = refused(
        json!({"pilot": 3, "against_pilot": 3, "speed": "fast"}),
        "/api/vehicles/attack",
    )
    .await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["code"], "vehicle-speed-in-attack");
    let (st, v) = refused(
        json!({"pilot": 3, "against_pilot": 3, "vehicle": "warp barge"}),
        "/api/vehicles/chase",
    )
    .await;
    assert_eq!(
        (st, v["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("vehicle-unknown"))
    );
    let (st, v) = refused(json!({"against_pilot": 3}), "/api/vehicles/chase/odds").await;
    assert_eq!(
        (st, v["code"].as_str()),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("vehicle-pilot-needed")
        )
    );
    let (st, v) = refused(
        json!({"pilot": 1001, "against_pilot": 3}),
        "/api/vehicles/chase",
    )
    .await;
    // A pool past 1000 dice is no pool: refused as the body is read, naming the field.
    assert_eq!(
        (st, v["code"].as_str(), v["field"].as_str()),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("body-invalid"),
            Some("pilot")
        )
    );
    assert_eq!(v["error"], "pilot: a pool has 1 to 1000 dice");
    let (st, _) = refused(
        json!({"pilot": 1, "against_pilot": 1, "warp": 9}),
        "/api/vehicles/chase",
    )
    .await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY);
    let (st, v) = refused(
        json!({"pilot": 1, "against_pilot": 1, "rolled": [3, 4], "against_rolled": [2]}),
        "/api/vehicles/chase",
    )
    .await;
    assert_eq!(
        (st, v["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("dice-too-many"))
    );
    let (st, v) = refused(
        json!({"pilot": 1, "against_pilot": 1, "rolled": [7], "against_rolled": [2]}),
        "/api/vehicles/chase",
    )
    .await;
    assert_eq!(
        (st, v["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("dice-not-a-face"))
    );
    // A misspelt field is refused and named on every route, `secret` included.
    for uri in [
        "/api/vehicles/chase",
        "/api/vehicles/attack",
        "/api/vehicles/chase/odds",
        "/api/vehicles/attack/odds",
        "/api/fight/odds",
    ] {
        let a = s.post(uri, &gm, json!({"secert": true})).await;
        assert_eq!(
            a.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{uri}: {}",
            a.text()
        );
        assert!(a.text().contains("secert"), "{uri}: {}", a.text());
    }
    // Nothing of it was journaled.
    assert!(s.entries(&gm).await.iter().all(|e| e["kind"] != "vehicle"));
}

/// A route that takes no query string names the parameter it was sent (and reads with none,
/// or an empty one).
async fn query_strings_are_refused_by_name(s: &harness::Server, gm: &str) {
    for uri in [
        "/api/vehicles?x=1",
        "/api/idea/genres?limit=-1",
        "/api/me?who",
        "/api/scene?a=b",
    ] {
        let a = s.get(uri, gm).await;
        assert_eq!(
            a.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{uri}: {}",
            a.text()
        );
        let name = uri.split('?').nth(1).unwrap().split('=').next().unwrap();
        assert!(
            a.text().contains(&format!("`{name}`")),
            "{uri}: {}",
            a.text()
        );
    }
    for uri in ["/api/vehicles", "/api/vehicles?", "/api/me"] {
        assert_eq!(s.get(uri, gm).await.status, StatusCode::OK, "{uri}");
    }
}

/// A player types no dice and flies only their own characters; the game master's character
/// flies with its background, and a player's roll without a character is theirs to make.
#[tokio::test]
async fn a_player_types_no_dice_and_flies_only_their_own_characters() {
    let s = server();
    let gm = s.table("T", "Ada").await;
    s.ok("/api/characters", &gm, hero("Nick"), StatusCode::CREATED)
        .await;
    let pia = s.player(&gm, "Pia").await;
    let a = s
        .post(
            "/api/vehicles/chase",
            &pia,
            json!({"pilot": 1, "against_pilot": 1, "rolled": [3], "against_rolled": [2]}),
        )
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text());
    let a = s
        .post(
            "/api/vehicles/chase",
            &pia,
            json!({"character": "Nick", "against_pilot": 1}),
        )
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text());
    // The game master's Nick flies: Mind 2 + Smuggler = 3 dice.
    let v = s
        .ok(
            "/api/vehicles/chase",
            &gm,
            json!({"character": "Nick", "background": "Smuggler", "against_pilot": 2}),
            StatusCode::OK,
        )
        .await;
    assert_eq!(
        (v["pilot"].as_u64(), v["character"].as_str()),
        (Some(3), Some("Nick"))
    );
    // A player's roll without a character is theirs to make.
    s.ok(
        "/api/vehicles/attack",
        &pia,
        json!({"pilot": 2, "against_pilot": 2}),
        StatusCode::OK,
    )
    .await;
}

/// A player's own character against another member's: refused, saying which side and who
/// rolls it (S18 leaves the opposing pilot's background to whoever plays it); with that
/// pilot typed as a pool it is hers to roll, and the game master rolls both characters.
#[tokio::test]
async fn a_player_names_only_their_own_characters_as_either_pilot() {
    let s = server();
    let gm = s.table("T", "Ada").await;
    s.ok("/api/characters", &gm, hero("Nick"), StatusCode::CREATED)
        .await;
    let pia = s.player(&gm, "Pia").await;
    s.ok("/api/characters", &pia, hero("Vex"), StatusCode::CREATED)
        .await;
    let bo = s.player(&gm, "Bo").await;
    s.ok("/api/characters", &bo, hero("Rook"), StatusCode::CREATED)
        .await;
    let before = s.entries(&gm).await.len();
    for against in ["Rook", "Nick"] {
        let a = s
            .post(
                "/api/vehicles/chase",
                &pia,
                json!({"character": "Vex", "against_character": against}),
            )
            .await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{against}: {}", a.text());
        assert!(
            a.text()
                .contains(&format!("{against} is not your character"))
                && a.text().contains("opposing pilot"),
            "{}",
            a.text()
        );
    }
    assert_eq!(s.entries(&gm).await.len(), before, "nothing journaled");
    s.ok(
        "/api/vehicles/chase",
        &pia,
        json!({"character": "Vex", "against_pilot": 2}),
        StatusCode::OK,
    )
    .await;
    let v = s
        .ok(
            "/api/vehicles/chase",
            &gm,
            json!({"character": "Vex", "against_character": "Rook"}),
            StatusCode::OK,
        )
        .await;
    assert_eq!(v["against_character"], "Rook");
}

#[tokio::test]
async fn the_odds_of_a_fight_are_bounded_and_reproducible() {
    let s = server();
    let gm = s.table("T", "Ada").await;
    s.ok("/api/characters", &gm, hero("Nick"), StatusCode::CREATED)
        .await;
    let body = json!({"heroes": ["Nick"], "foes": [{"name": "orc", "count": 2}], "fights": 1000, "seed": 5});
    let a = s
        .ok("/api/fight/odds", &gm, body.clone(), StatusCode::OK)
        .await;
    let b = s.ok("/api/fight/odds", &gm, body, StatusCode::OK).await;
    assert_eq!(a, b, "the same seed gives the same figures");
    assert_eq!(
        (
            a["heroes"].as_u64(),
            a["foes"].as_u64(),
            a["fights"].as_u64()
        ),
        (Some(1), Some(2), Some(1000))
    );
    let (w, l, u) = (
        a["wins"].as_u64().unwrap(),
        a["losses"].as_u64().unwrap(),
        a["undecided"].as_u64().unwrap(),
    );
    assert_eq!(w + l + u, 1000);
    let lo = a["win_rate_95"][0].as_f64().unwrap();
    let hi = a["win_rate_95"][1].as_f64().unwrap();
    assert!(lo <= a["win_rate"].as_f64().unwrap() && a["win_rate"].as_f64().unwrap() <= hi);
    // The web's limit: 20,000 fights.
    let big = s
        .post(
            "/api/fight/odds",
            &gm,
            json!({"heroes": ["Nick"], "foes": [{"name": "orc"}], "fights": 20001}),
        )
        .await;
    assert_eq!(big.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(big.json()["code"], "sim-fights");
    // Too many kinds of foes: the refusal names `foes`, not the heroes.
    let kinds = s
        .post(
            "/api/fight/odds",
            &gm,
            json!({"heroes": ["Nick"], "foes": vec![json!({"name": "orc"}); 21]}),
        )
        .await;
    assert_eq!(kinds.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        kinds.text().contains("foes: 21 kinds of foes; at most 20"),
        "{}",
        kinds.text()
    );
    // A crowded side is counted whole: 10 kinds of 100 are 1,000 fighters (at most 200).
    let crowd = s
        .post(
            "/api/fight/odds",
            &gm,
            json!({"heroes": ["Nick"], "foes": vec![json!({"name": "orc", "count": 100}); 10]}),
        )
        .await;
    assert_eq!(crowd.json()["code"], "sim-crowded-side");
    assert!(crowd.text().contains("1000 fighters"), "{}", crowd.text());
    // No combat open; then the open combat's sides.
    let none = s
        .post("/api/fight/odds", &gm, json!({"current_combat": true}))
        .await;
    assert_eq!(none.json()["code"], "sim-no-combat");
    s.ok(
        "/api/combat",
        &gm,
        json!({"heroes": ["Nick"], "foes": [{"name": "orc"}]}),
        StatusCode::CREATED,
    )
    .await;
    let v = s
        .ok(
            "/api/fight/odds",
            &gm,
            json!({"current_combat": true, "fights": 300}),
            StatusCode::OK,
        )
        .await;
    assert_eq!(v["names"], json!(["Nick", "orc"]));
    // Nothing journaled by the odds: only the combat's own entries.
    assert!(s.entries(&gm).await.iter().all(|e| e["kind"] != "vehicle"));
}
