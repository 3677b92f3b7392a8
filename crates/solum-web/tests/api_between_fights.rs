//! What the sibling systems do between and before fights, through the real router: the
//! original's creation step by step, its rest (C2), the odds of a fight before its first
//! exchange and the book its foes come from; Project Sol's Edge spent outside a test and
//! Not Dead Yet (P2, P5); a die-type sheet changed. Expected values come from the rules
//! texts worked by hand, or (exchange odds) from counting every face here.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

#[path = "harness/table.rs"]
mod harness;

use axum::http::StatusCode;
use harness::server;
use serde_json::json;

/// Ada, rolled by hand (C1): Body 2,4,5 (two even: 2); Mind 1,3,5 (none: 1); Spirit 6,6,6
/// (3); hit points 2,3: Body 2 + one even = 3; clichés 4,4: 1 + 2 = up to 3.
const ADA_DICE: [u32; 13] = [2, 4, 5, 1, 3, 5, 6, 6, 6, 2, 3, 4, 4];

/// The highest of 2d6 against 1d6, over all 216 rolls: (wins, ties, losses).
fn exchange_counts() -> (u32, u32, u32) {
    let (mut win, mut tie, mut lose) = (0u32, 0u32, 0u32);
    for a in 1..=6u32 {
        for b in 1..=6u32 {
            for c in 1..=6u32 {
                match a.max(b).cmp(&c) {
                    std::cmp::Ordering::Greater => win += 1,
                    std::cmp::Ordering::Equal => tie += 1,
                    std::cmp::Ordering::Less => lose += 1,
                }
            }
        }
    }
    (win, tie, lose)
}

#[tokio::test]
async fn the_originals_creation_shows_each_step_and_a_rest_heals_by_the_hours() {
    let s = server();
    // A game master alone at the table may type real dice.
    let gm = s.table("Crypt", "Gina").await;
    let made = s
        .ok(
            "/api/classic/characters",
            &gm,
            json!({ "name": "Ada", "cliches": ["Brave to a fault"], "typed": ADA_DICE }),
            StatusCode::CREATED,
        )
        .await;
    assert_eq!(
        made["creation"],
        json!({ "body": [2, 4, 5], "mind": [1, 3, 5], "spirit": [6, 6, 6],
                "hit_points": [2, 3], "cliches": [4, 4] })
    );
    let hero = &made["sheet"]["hero"];
    assert_eq!(
        (
            &hero["body"],
            &hero["mind"],
            &hero["spirit"],
            &hero["hit_points"]
        ),
        (&json!(2), &json!(1), &json!(3), &json!(3))
    );

    the_book_lists_the_texts_creatures(&s, &gm).await;
    the_odds_before_the_first_exchange_count_every_face(&s, &gm).await;

    // A fight rolled by hand: the Goblin's 6 beats Ada's 1,1 (she loses a hit point: 2),
    // then Ada's 6,6 beats its 1 and it dies.
    let fight = s
        .ok(
            "/api/classic/characters/Ada/fight",
            &gm,
            json!({ "foes": ["Goblin"], "policy": "hit-points", "typed": [1, 1, 6, 6, 6, 1] }),
            StatusCode::OK,
        )
        .await;
    assert_eq!(fight["status"]["over"], true, "{fight}");
    assert_eq!(fight["sheet"]["hit_points"], 2, "{fight}");

    // C2: one hit point per 8 hours of rest, the hours adding up across rests.
    let rest = |hours: f64| {
        let (s, gm) = (&s, gm.clone());
        async move {
            s.ok(
                "/api/classic/characters/Ada/rest",
                &gm,
                json!({ "hours": hours }),
                StatusCode::OK,
            )
            .await
        }
    };
    let first = rest(4.5).await;
    assert_eq!(first["healed"], json!([0, 0]));
    assert_eq!(first["sheet"]["hero"]["hit_points"], 2);
    let second = rest(3.5).await;
    assert_eq!(second["healed"], json!([1, 0]));
    assert_eq!(second["sheet"]["hero"]["hit_points"], 3);
    // Hours that are not a rest are refused where they were typed.
    let bad = s
        .post(
            "/api/classic/characters/Ada/rest",
            &gm,
            json!({ "hours": -1 }),
        )
        .await;
    assert_eq!(
        bad.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        bad.text()
    );
    assert_eq!(bad.json()["field"], "hours");
    // Journaled: the creation, the fight's one call, two rests; the odds wrote nothing.
    let kinds: Vec<_> = s
        .entries(&gm)
        .await
        .iter()
        .filter(|e| e["kind"] == "classic")
        .map(|e| e["seq"].clone())
        .collect();
    assert_eq!(kinds.len(), 4, "{kinds:?}");
}

/// The book lists the text's creatures with their stats: the Goblin is B:1 M:1 S:2 HP:1.
async fn the_book_lists_the_texts_creatures(s: &harness::Server, gm: &str) {
    let book = s.get("/api/classic/book", gm).await;
    assert_eq!(book.status, StatusCode::OK, "{}", book.text());
    let book = book.json();
    let goblin = book["monsters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "Goblin")
        .unwrap();
    assert_eq!(
        (
            &goblin["body"],
            &goblin["mind"],
            &goblin["spirit"],
            &goblin["hit_points"]
        ),
        (&json!(1), &json!(1), &json!(2), &json!(1))
    );
    let names: Vec<&str> = book["monsters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    for m in [
        "Goblin",
        "Beholder",
        "Owlbear",
        "Squidhead",
        "Troll",
        "Zombie",
    ] {
        assert!(names.contains(&m), "{m} missing from {names:?}");
    }
}

/// The odds of Ada's fight with the Goblin before its first exchange, by counting every
/// face; asking them rolls and journals nothing, and a creature the book lacks is refused.
async fn the_odds_before_the_first_exchange_count_every_face(s: &harness::Server, gm: &str) {
    // Before the first exchange: Ada rolls 2 dice (Body 2), the Goblin 1. Counting every
    // face: the highest of 2d6 against 1d6.
    let (win, tie, lose) = exchange_counts();
    let odds = s
        .ok(
            "/api/classic/characters/Ada/fight/odds",
            gm,
            json!({ "foes": ["Goblin"], "policy": "hit-points" }),
            StatusCode::OK,
        )
        .await;
    assert_eq!(odds["dice"], json!([2, 1]));
    assert_eq!(odds["calls"], 0);
    let next = &odds["next"];
    assert_eq!(next["dice"], json!([2, 1]));
    for (key, count) in [("win", win), ("tie", tie), ("lose", lose)] {
        let p = next["odds"][key].as_f64().unwrap();
        assert!((p - f64::from(count) / 216.0).abs() < 1e-12, "{key}: {p}");
    }
    // One foe: the duel's chance too, at least the chance of winning the first exchange
    // (the Goblin dies at its first loss).
    let p_win = odds["p_win"].as_f64().unwrap();
    assert!(p_win >= f64::from(win) / 216.0 && p_win < 1.0, "{p_win}");
    // Nothing was rolled or journaled: the hero is not in a fight.
    let status = s.get("/api/classic/characters/Ada/fight", gm).await;
    assert_eq!(status.json()["fight"], json!(null));
    // A creature the book does not have is refused, naming the field.
    let unknown = s
        .post(
            "/api/classic/characters/Ada/fight/odds",
            gm,
            json!({ "foes": ["Dragon"] }),
        )
        .await;
    assert_eq!(unknown.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(unknown.json()["field"], "foes", "{}", unknown.text());
}

#[tokio::test]
async fn a_player_rests_their_own_hero_and_not_another_s() {
    let s = server();
    let gm = s.table("Crypt", "Gina").await;
    let pia = s.player(&gm, "Pia").await;
    let bo = s.player(&gm, "Bo").await;
    s.ok(
        "/api/classic/characters",
        &pia,
        json!({ "name": "Nim" }),
        StatusCode::CREATED,
    )
    .await;
    let other = s
        .post(
            "/api/classic/characters/Nim/rest",
            &bo,
            json!({ "hours": 8 }),
        )
        .await;
    assert_eq!(other.status, StatusCode::FORBIDDEN, "{}", other.text());
    let own = s
        .post(
            "/api/classic/characters/Nim/rest",
            &pia,
            json!({ "hours": 8 }),
        )
        .await;
    assert_eq!(own.status, StatusCode::OK, "{}", own.text());
    // Unhurt: nothing to heal, nothing banked ahead of a wound.
    assert_eq!(own.json()["healed"], json!([0, 0]));
    // Players cannot type dice at a table with players: a creation's dice are the server's.
    let typed = s
        .post(
            "/api/classic/characters",
            &pia,
            json!({ "name": "Ola", "typed": ADA_DICE }),
        )
        .await;
    assert_eq!(typed.status, StatusCode::FORBIDDEN, "{}", typed.text());
}

#[tokio::test]
async fn project_sol_edge_is_spent_and_burnt_between_tests_by_its_player() {
    let s = server();
    let gm = s.table("Station", "Gina").await;
    let pia = s.player(&gm, "Pia").await;
    let bo = s.player(&gm, "Bo").await;
    s.ok(
        "/api/sol/characters",
        &pia,
        json!({ "name": "Kyra", "edge": 3,
                "attributes": [["BOD", 3], ["AGI", 3], ["REA", 2], ["STR", 1], ["INT", 2], ["WIL", 2]],
                "skills": [["Sidearms", 2]] }),
        StatusCode::CREATED,
    )
    .await;
    // Blitz: REA + INT = 4 bonus dice; one point of Edge spent (3 → 2), the attribute kept.
    let other = s
        .post(
            "/api/sol/characters/Kyra/spend",
            &bo,
            json!({ "what": "blitz" }),
        )
        .await;
    assert_eq!(other.status, StatusCode::FORBIDDEN, "{}", other.text());
    // Not in secret, even by the game master: a spend changes the sheet the table sees at
    // once, which a secret roll must not (the hostile tester saw a player see Edge drop).
    let secret = s
        .post(
            "/api/sol/characters/Kyra/spend",
            &gm,
            json!({ "what": "blitz", "secret": true }),
        )
        .await;
    assert_eq!(
        secret.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        secret.text()
    );
    assert_eq!(secret.json()["code"], "sol-edge");
    assert_eq!(secret.json()["field"], "secret");
    let blitz = s
        .ok(
            "/api/sol/characters/Kyra/spend",
            &pia,
            json!({ "what": "blitz" }),
            StatusCode::OK,
        )
        .await;
    assert_eq!(blitz["spend"]["bonus_dice"], 4, "{blitz}");
    assert_eq!(blitz["edge"], json!({ "attribute": 3, "points": 2 }));
    // Dead Man's Trigger rolls BOD + WIL = 5 dice against 3.
    let trigger = s
        .ok(
            "/api/sol/characters/Kyra/spend",
            &pia,
            json!({ "what": "dead-mans-trigger" }),
            StatusCode::OK,
        )
        .await;
    assert_eq!(trigger["rolled"]["faces"].as_array().unwrap().len(), 5);
    assert_eq!(trigger["edge"], json!({ "attribute": 3, "points": 1 }));
    // Not Dead Yet: BOD and AGI tie at 3, so the player names one.
    let tie = s
        .post("/api/sol/characters/Kyra/not-dead-yet", &pia, json!({}))
        .await;
    assert_eq!(
        tie.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        tie.text()
    );
    assert_eq!(tie.json()["field"], "attribute");
    let burnt = s
        .ok(
            "/api/sol/characters/Kyra/not-dead-yet",
            &pia,
            json!({ "attribute": "AGI" }),
            StatusCode::OK,
        )
        .await;
    // P5: Edge 3 with 1 of 3 available becomes 0 of 2 after a burn.
    assert_eq!(burnt["edge"], json!({ "attribute": 2, "points": 0 }));
    assert_eq!(burnt["sheet"]["sheet"]["attributes"]["AGI"], 2);
    assert_eq!(burnt["sheet"]["sheet"]["attributes"]["BOD"], 3);
    // No point left: nothing to spend or burn.
    let empty = s
        .post(
            "/api/sol/characters/Kyra/spend",
            &pia,
            json!({ "what": "seize-the-initiative" }),
        )
        .await;
    assert_eq!(
        empty.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        empty.text()
    );
    let unknown = s
        .post(
            "/api/sol/characters/Kyra/spend",
            &pia,
            json!({ "what": "push-the-limit" }),
        )
        .await;
    assert_eq!(unknown.status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn a_die_type_sheet_is_changed_by_its_player_and_checked_whole() {
    let s = server();
    let gm = s.table("Keep", "Gina").await;
    let pia = s.player(&gm, "Pia").await;
    let bo = s.player(&gm, "Bo").await;
    s.ok(
        "/api/dietype/characters",
        &pia,
        json!({ "name": "Rook", "abilities": [["Strength", "d8"]], "skills": [["Fight", 2]] }),
        StatusCode::CREATED,
    )
    .await;
    let edit = json!({ "abilities": [["Strength", "d10"], ["Wits", "d6"]], "skills": [["Fight", 3]],
                       "notes": "Scar over the left eye" });
    let other = s
        .call(
            "PATCH",
            "/api/dietype/characters/Rook",
            Some(&bo),
            Some(edit.clone()),
        )
        .await;
    assert_eq!(other.status, StatusCode::FORBIDDEN, "{}", other.text());
    let own = s
        .call(
            "PATCH",
            "/api/dietype/characters/Rook",
            Some(&pia),
            Some(edit),
        )
        .await;
    assert_eq!(own.status, StatusCode::OK, "{}", own.text());
    let sheet = &own.json()["sheet"]["sheet"];
    assert_eq!(sheet["abilities"]["Strength"], "d10", "{sheet}");
    assert_eq!(sheet["abilities"]["Wits"], "d6");
    assert_eq!(sheet["skills"]["Fight"], 3);
    assert_eq!(sheet["notes"], "Scar over the left eye");
    // D2: a skill has 1 to 4 chances; a sheet past that is refused and nothing changes.
    let five = s
        .call(
            "PATCH",
            "/api/dietype/characters/Rook",
            Some(&pia),
            Some(json!({ "skills": [["Fight", 5]] })),
        )
        .await;
    assert_eq!(
        five.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        five.text()
    );
    let after = s.get("/api/systems/characters", &pia).await.json();
    assert_eq!(after["dietype"][0]["sheet"]["skills"]["Fight"], 3);
}
