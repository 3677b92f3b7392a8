//! The web table as a place to play (issue 21), the server's side: who did what in the feed,
//! scenes, the story export, combat for players and by clicking, the bestiary, re-entry and
//! a reload's request budget. Driven through the real router on a real SQLite campaign in a
//! tempdir, as `tests/api.rs` is.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::{Value, json};

#[path = "harness/table.rs"]
mod harness;

use harness::{Answer, Server, server};

/// Body 3, Mind 2, Charm 1, a dagger (light, melee), leather armor, the background Sailor.
fn hero(name: &str) -> Value {
    json!({
        "name": name,
        "body": 3, "mind": 2, "charm": 1,
        "backgrounds": ["Sailor"],
        "weapon": { "name": "dagger", "class": "light" },
        "armor_name": "leather"
    })
}

// ---------------------------------------------------------------------------------------
// 1. Who and when.

#[tokio::test]
async fn every_entry_says_who_made_it_and_when_in_the_journal_and_the_live_stream() {
    let s = server();
    let gm = s.table("The Reach", "Ada").await;
    let pia = s.player(&gm, "Pia").await;
    s.ok(
        "/api/notes",
        &gm,
        json!({ "text": "Rain." }),
        StatusCode::CREATED,
    )
    .await;
    s.ok(
        "/api/notes",
        &pia,
        json!({ "text": "I wait." }),
        StatusCode::CREATED,
    )
    .await;
    s.ok(
        "/api/oracle",
        &pia,
        json!({ "question": "Is the inn open?" }),
        StatusCode::OK,
    )
    .await;
    let me_gm = s.get("/api/me", &gm).await.json()["member"]["id"].clone();
    let me_pia = s.get("/api/me", &pia).await.json()["member"]["id"].clone();
    let entries = s.entries(&pia).await;
    let by: Vec<(Value, Value, Value)> = entries
        .iter()
        .map(|e| {
            (
                e["by"]["name"].clone(),
                e["by"]["member"].clone(),
                e["by"]["gm"].clone(),
            )
        })
        .collect();
    assert_eq!(
        by,
        [
            (json!("Ada"), me_gm.clone(), json!(true)),
            (json!("Pia"), me_pia.clone(), json!(false)),
            (json!("Pia"), me_pia, json!(false)),
        ]
    );
    for e in &entries {
        let at = e["at"].as_str().unwrap();
        assert!(at.parse::<jiff::Timestamp>().is_ok(), "{at}");
    }
    // The live stream carries the same.
    let stream = s.live(&gm, Duration::from_millis(400)).await;
    assert_eq!(stream.matches("\"by\":{").count(), 3, "{stream}");
    assert!(stream.contains("\"name\":\"Pia\""), "{stream}");
    // `journal verify` still re-derives every roll.
    let verify = s.get("/api/journal/verify", &gm).await.json();
    assert_eq!(verify["mismatches"], json!([]), "{verify}");
    assert_eq!(verify["rolls"], 1);
}

// ---------------------------------------------------------------------------------------
// 2. Scenes.

#[tokio::test]
async fn a_player_cannot_end_the_game_masters_scene_and_everyone_reads_the_current_one() {
    let s = server();
    let gm = s.table("T", "Ada").await;
    let pia = s.player(&gm, "Pia").await;
    let bo = s.player(&gm, "Bo").await;
    assert_eq!(
        s.get("/api/scene", &pia).await.json(),
        json!({ "scene": null })
    );
    s.ok(
        "/api/scenes",
        &gm,
        json!({ "title": "The chapel", "goal": "Find the bell" }),
        StatusCode::CREATED,
    )
    .await;
    let scene = s.get("/api/scene", &pia).await.json()["scene"].clone();
    assert_eq!(scene["title"], "The chapel");
    assert_eq!(scene["goal"], "Find the bell");
    assert_eq!(scene["kind"], "scene-start");
    assert_eq!(scene["by"]["name"], "Ada");
    // Neither ended nor replaced by a player: 403, nothing written.
    let before = s.entries(&gm).await.len();
    let end = s.post("/api/scenes/end", &pia, json!({})).await;
    assert_eq!(end.status, StatusCode::FORBIDDEN, "{}", end.text());
    assert!(end.json()["error"].as_str().unwrap().contains("The chapel"));
    let replace = s
        .post("/api/scenes", &pia, json!({ "title": "Mine" }))
        .await;
    assert_eq!(replace.status, StatusCode::FORBIDDEN, "{}", replace.text());
    assert_eq!(s.entries(&gm).await.len(), before);
    // The game master ends it; with none open a player starts one, which another player
    // may end, and so may the game master.
    s.ok("/api/scenes/end", &gm, json!({}), StatusCode::OK)
        .await;
    assert_eq!(
        s.get("/api/scene", &pia).await.json(),
        json!({ "scene": null })
    );
    s.ok(
        "/api/scenes",
        &pia,
        json!({ "title": "Road" }),
        StatusCode::CREATED,
    )
    .await;
    assert_eq!(
        s.get("/api/scene", &gm).await.json()["scene"]["title"],
        "Road"
    );
    s.ok("/api/scenes/end", &bo, json!({}), StatusCode::OK)
        .await;
    s.ok(
        "/api/scenes",
        &pia,
        json!({ "title": "Ford" }),
        StatusCode::CREATED,
    )
    .await;
    s.ok(
        "/api/scenes",
        &gm,
        json!({ "title": "Keep" }),
        StatusCode::CREATED,
    )
    .await;
    assert_eq!(
        s.get("/api/scene", &bo).await.json()["scene"]["title"],
        "Keep"
    );
}

// ---------------------------------------------------------------------------------------
// 3. The story.

/// The game master, alone at the table with real dice, asks the oracle "Is anyone inside?"
/// (5) for all to see and "Is it a trap?" (2) in secret.
async fn ask_the_oracle_openly_and_in_secret(s: &Server, gm: &str) {
    s.ok(
        "/api/oracle",
        gm,
        json!({ "question": "Is anyone inside?", "typed": [5] }),
        StatusCode::OK,
    )
    .await;
    s.ok(
        "/api/oracle",
        gm,
        json!({ "question": "Is it a trap?", "typed": [2], "secret": true }),
        StatusCode::OK,
    )
    .await;
}

#[tokio::test]
async fn the_markdown_export_reads_as_a_story_marks_secrets_and_gives_a_player_none() {
    let s = server();
    let gm = s.table("The Reach", "Ada").await;
    // Alone at the table the game master types real dice: the story is known in advance.
    s.ok(
        "/api/scenes",
        &gm,
        json!({ "title": "The chapel", "goal": "Find the bell" }),
        StatusCode::CREATED,
    )
    .await;
    ask_the_oracle_openly_and_in_secret(&s, &gm).await;
    s.ok(
        "/api/characters",
        &gm,
        json!({ "name": "Nick", "body": 3, "mind": 2, "charm": 1, "backgrounds": ["Sailor"], "weapon": { "name": "dagger", "class": "light" }, "armor_name": "leather", "typed": [1, 1, 4] }),
        StatusCode::CREATED,
    )
    .await;
    s.ok(
        "/api/characters/Nick/check",
        &gm,
        json!({ "attribute": "body", "against": { "difficulty": 5 }, "typed": [5, 3, 2] }),
        StatusCode::OK,
    )
    .await;
    let pia = s.player(&gm, "Pia").await;
    s.ok(
        "/api/notes",
        &pia,
        json!({ "text": "I ring the bell." }),
        StatusCode::CREATED,
    )
    .await;
    // Seeded rolls tell no seed in the story.
    let seeded = s
        .ok(
            "/api/oracle",
            &pia,
            json!({ "question": "Does it ring?" }),
            StatusCode::OK,
        )
        .await;
    let seed = seeded["seed"].as_u64().unwrap().to_string();

    let story = |a: Answer| {
        assert_eq!(a.status, StatusCode::OK);
        // The dates are today's: written as DATE in the snapshot.
        let today = jiff::Timestamp::now().to_string()[..10].to_string();
        a.text().replace(&today, "DATE")
    };
    let gm_story = story(s.get("/api/journal/export?format=markdown", &gm).await);
    let pia_story = story(s.get("/api/journal/export?format=markdown", &pia).await);
    assert!(
        !gm_story.contains(&seed) && !gm_story.contains("seed"),
        "{gm_story}"
    );
    // The last answer is random: its line is checked apart.
    let last = |story: &str| story.trim_end().lines().last().unwrap().to_string();
    assert!(
        last(&gm_story).starts_with("> **Pia:** **Does it ring?** — *"),
        "{gm_story}"
    );
    let without_last = |story: &str| {
        let l = last(story);
        story.trim_end().strip_suffix(&l).unwrap().to_string()
    };
    insta::assert_snapshot!("gm_story", without_last(&gm_story));
    insta::assert_snapshot!("player_story", without_last(&pia_story));
    assert!(
        !pia_story.contains("trap") && !pia_story.contains("secret"),
        "{pia_story}"
    );
}

/// A journal page is the same bytes whether this server had rendered its entries before or
/// not, and the same as a filtered read that keeps every entry (`q=`, which reads and writes
/// each entry afresh); a player's page never holds the secret entry the game master's read
/// rendered.
#[tokio::test]
async fn a_journal_page_is_the_same_bytes_whether_its_entries_were_rendered_before_or_not() {
    let s = server();
    let gm = s.table("The Reach", "Ada").await;
    s.ok(
        "/api/notes",
        &gm,
        json!({ "text": "The <bell> & the rope." }),
        StatusCode::CREATED,
    )
    .await;
    ask_the_oracle_openly_and_in_secret(&s, &gm).await;
    s.ok(
        "/api/roll",
        &gm,
        json!({ "expression": "2d6+1", "typed": [3, 4] }),
        StatusCode::OK,
    )
    .await;
    let pia = s.player(&gm, "Pia").await;
    let read = |uri: &'static str, who: &'static str| {
        let token = if who == "gm" { gm.clone() } else { pia.clone() };
        let s = &s;
        async move {
            let a = s.get(uri, &token).await;
            assert_eq!(a.status, StatusCode::OK, "{uri}: {}", a.text());
            a.text()
        }
    };
    let hits = || s.state.hub().rendered_hits();
    assert_eq!(hits(), 0);
    // The player reads first: nothing is rendered yet.
    let pia_cold = read("/api/journal?after=0", "pia").await;
    let gm_cold = read("/api/journal", "gm").await;
    let before = hits();
    let gm_warm = read("/api/journal", "gm").await;
    assert!(
        hits() >= before + 4,
        "the warm read found its entries rendered"
    );
    assert_eq!(gm_warm, gm_cold);
    assert_eq!(gm_warm, read("/api/journal?q=", "gm").await);
    let pia_warm = read("/api/journal?after=0", "pia").await;
    assert_eq!(pia_warm, pia_cold);
    assert_eq!(pia_warm, read("/api/journal?after=0&q=", "pia").await);
    assert!(
        gm_warm.contains("trap") && !pia_warm.contains("trap"),
        "{pia_warm}"
    );
    // What a player typed stays text in HTML, kept or not.
    assert!(gm_warm.contains("\\u003cbell\\u003e \\u0026"), "{gm_warm}");
    // Pages forward from a point, and the number to read on from.
    let page = read("/api/journal?after=1&limit=2", "gm").await;
    assert_eq!(page, read("/api/journal?after=1&limit=2&q=", "gm").await);
    let page: Value = serde_json::from_str(&page).unwrap();
    let seqs: Vec<i64> = page["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["seq"].as_i64().unwrap())
        .collect();
    assert_eq!(seqs.len(), 2);
    assert_eq!(page["next"], json!(seqs[1]));
}

// ---------------------------------------------------------------------------------------
// 4. Combat for players and by clicking.

/// The lines of the acting fighter's options, as the status lists them.
fn lines(status: &Value) -> Vec<String> {
    status["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["line"].as_str().unwrap().to_string())
        .collect()
}

fn choice<'a>(status: &'a Value, line: &str) -> &'a Value {
    status["choices"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["line"] == line)
        .unwrap_or_else(|| panic!("no option {line}: {:?}", lines(status)))
}

#[tokio::test]
async fn a_combat_starts_from_names_and_players_play_their_own_heroes_turns() {
    let s = server();
    let gm = s.table("T", "Ada").await;
    let pia = s.player(&gm, "Pia").await;
    a_combat_starts_from_names_the_gm_gives(&s, &gm, &pia).await;
    nicks_options_are_the_rules(&s, &pia).await;
    players_play_their_own_heroes_turns_only(&s, &gm, &pia).await;
    every_member_reads_the_log_and_who_played(&s, &gm, &pia).await;
}

/// Players do not start a fight; names that are no character or creature start none; the
/// game master's start brings heroes and foes, and the order is the game master's.
async fn a_combat_starts_from_names_the_gm_gives(s: &Server, gm: &str, pia: &str) {
    s.ok("/api/characters", pia, hero("Nick"), StatusCode::CREATED)
        .await;
    s.ok("/api/characters", gm, hero("Vera"), StatusCode::CREATED)
        .await;
    // Players do not start a fight; a name that is no character or creature starts none.
    let refused = s
        .post("/api/combat", pia, json!({ "heroes": ["Nick"] }))
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    let unknown = s
        .post(
            "/api/combat",
            gm,
            json!({ "heroes": ["Nick"], "foes": [{ "name": "dragon of nowhere", "count": 1 }] }),
        )
        .await;
    assert_eq!(
        unknown.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        unknown.text()
    );
    assert_eq!(
        s.get("/api/combat", gm).await.json(),
        json!({ "combat": null })
    );
    let too_many = s
        .post(
            "/api/combat",
            gm,
            json!({ "foes": [{ "name": "orc", "count": 101 }] }),
        )
        .await;
    assert_eq!(too_many.status, StatusCode::UNPROCESSABLE_ENTITY);

    let started = s
        .ok(
            "/api/combat",
            gm,
            json!({ "name": "ford", "heroes": ["Nick", "Vera"], "foes": [{ "name": "orc", "count": 2 }] }),
            StatusCode::CREATED,
        )
        .await;
    assert_eq!(started["seqs"].as_array().unwrap().len(), 3, "{started}");
    let names: Vec<&str> = started["status"]["fighters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Nick", "Vera", "orc-1", "orc-2"]);
    // Setting up is the game master's.
    let setup = s
        .post(
            "/api/combat/line",
            pia,
            json!({ "line": "order Nick Vera orc-1 orc-2" }),
        )
        .await;
    assert_eq!(setup.status, StatusCode::FORBIDDEN, "{}", setup.text());
    s.ok(
        "/api/combat/line",
        gm,
        json!({ "line": "order Nick Vera orc-1 orc-2" }),
        StatusCode::OK,
    )
    .await;
}

async fn nicks_options_are_the_rules(s: &Server, pia: &str) {
    // Nick, nearby both orcs (where a fight starts), engaged with no one: he may move
    // closer or away from each (S7: the move, no roll), change weapons (S13: the action) or
    // end his turn; the dagger does not shoot.
    let status = s.get("/api/combat", pia).await.json()["combat"].clone();
    assert_eq!(status["acting"], "Nick");
    assert_eq!(
        lines(&status),
        [
            "move closer orc-1",
            "move away orc-1",
            "move closer orc-2",
            "move away orc-2",
            "switch unarmed",
            "end"
        ]
    );
    let closer = choice(&status, "move closer orc-1");
    assert_eq!(
        (
            closer["p_success"].as_f64(),
            closer["uses_action"].as_bool()
        ),
        (Some(1.0), Some(false))
    );
    assert_eq!(choice(&status, "switch unarmed")["uses_action"], true);
    assert_eq!(choice(&status, "end")["action"], "end turn");
}

async fn players_play_their_own_heroes_turns_only(s: &Server, gm: &str, pia: &str) {
    // Pia plays her hero's turn, by the lines the options give.
    let moved = s
        .ok(
            "/api/combat/line",
            pia,
            json!({ "line": "move closer orc-1" }),
            StatusCode::OK,
        )
        .await;
    let status = moved["status"].clone();
    // Engaged now, the move spent: the action is left for a melee (with and without his
    // background, against the orc, which has none), or a disengage, which takes it (S7: an
    // even d6, 1/2; S18: with a background a second d6, either even, 3/4).
    let disengage = choice(&status, "move away orc-1");
    assert_eq!(disengage["action"], "disengage");
    assert_eq!(disengage["uses_action"], true);
    assert_eq!(disengage["p_success"], 0.5);
    assert_eq!(
        choice(&status, "move away orc-1 bg Sailor")["p_success"],
        0.75
    );
    let melee = choice(&status, "melee orc-1");
    let total: f64 = ["p_success", "p_draw", "p_lose"]
        .iter()
        .map(|k| melee[*k].as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-9, "{melee}");
    choice(&status, "melee orc-1 bg Sailor");
    assert!(!lines(&status).iter().any(|l| l.starts_with("move closer")));
    s.ok(
        "/api/combat/line",
        pia,
        json!({ "line": "end" }),
        StatusCode::OK,
    )
    .await;
    // Vera's turn is not Pia's; the game master plays it.
    let theirs = s
        .post("/api/combat/line", pia, json!({ "line": "end" }))
        .await;
    assert_eq!(theirs.status, StatusCode::FORBIDDEN, "{}", theirs.text());
    assert!(theirs.json()["error"].as_str().unwrap().contains("Vera"));
    s.ok(
        "/api/combat/line",
        gm,
        json!({ "line": "end" }),
        StatusCode::OK,
    )
    .await;
    // Nor the orcs' turns.
    let orc = s
        .post("/api/combat/line", pia, json!({ "line": "melee Nick" }))
        .await;
    assert_eq!(orc.status, StatusCode::FORBIDDEN, "{}", orc.text());
}

async fn every_member_reads_the_log_and_who_played(s: &Server, gm: &str, pia: &str) {
    // Every member reads the log: each line with what it did.
    let status = s.get("/api/combat", pia).await.json()["combat"].clone();
    let log: Vec<&str> = status["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["line"].as_str().unwrap())
        .collect();
    assert_eq!(
        log,
        [
            "hero Nick",
            "hero Vera",
            "foe orc*2",
            "order Nick Vera orc-1 orc-2",
            "move closer orc-1",
            "end",
            "end"
        ]
    );
    assert!(!status["log"][4]["text"].as_array().unwrap().is_empty());
    // The feed says who played each line.
    let entries = s.entries(gm).await;
    let by: Vec<&str> = entries
        .iter()
        .filter(|e| e["kind"] == "combat")
        .map(|e| e["by"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(by, ["Ada", "Ada", "Ada", "Ada", "Ada", "Pia", "Pia", "Ada"]);
}

// ---------------------------------------------------------------------------------------
// 5. The bestiary.

#[tokio::test]
async fn the_bestiary_lists_the_foes_a_combat_can_name() {
    let s = server();
    let gm = s.table("T", "Ada").await;
    let pia = s.player(&gm, "Pia").await;
    let b = s.get("/api/bestiary", &pia).await;
    assert_eq!(b.status, StatusCode::OK, "{}", b.text());
    let b = b.json();
    let find = |name: &str| {
        b["creatures"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("no {name}"))
    };
    // As crates/solum-expanded/data/bestiary.toml has them.
    let orc = find("orc");
    assert_eq!(
        (
            &orc["pool"],
            &orc["hit_points"],
            &orc["damage"],
            &orc["mind"],
            &orc["source"],
            &orc["foe"]
        ),
        (
            &json!(2),
            &json!(3),
            &json!(2),
            &json!(1),
            &json!("shipped"),
            &json!("orc")
        )
    );
    let assassin = find("halfling assassin");
    assert_eq!(
        (&assassin["pool"], &assassin["hit_points"]),
        (&json!(4), &json!(2))
    );
    assert_eq!(assassin["foe"], "halfling-assassin");
    assert!(!b["static"].as_array().unwrap().is_empty());
    // The word it gives is the one a combat takes.
    s.ok(
        "/api/combat",
        &gm,
        json!({ "foes": [{ "name": "halfling assassin", "count": 2 }] }),
        StatusCode::CREATED,
    )
    .await;
    let status = s.get("/api/combat", &gm).await.json()["combat"].clone();
    assert_eq!(status["fighters"][1]["name"], "halfling-assassin-2");
}

// ---------------------------------------------------------------------------------------
// 7. A reload after a long fight.

#[tokio::test]
async fn a_reload_after_fifty_combat_lines_reads_the_feed_in_one_request() {
    let s = server();
    let gm = s.table("T", "Ada").await;
    let pia = s.player(&gm, "Pia").await;
    s.ok("/api/characters", &pia, hero("Nick"), StatusCode::CREATED)
        .await;
    s.ok(
        "/api/combat",
        &gm,
        json!({ "heroes": ["Nick"], "foes": [{ "name": "orc", "count": 1 }] }),
        StatusCode::CREATED,
    )
    .await;
    s.ok(
        "/api/combat/line",
        &gm,
        json!({ "line": "order Nick orc" }),
        StatusCode::OK,
    )
    .await;
    // Turns with nothing rolled, so that no one falls: 50 lines.
    for _ in 0..50 {
        s.ok(
            "/api/combat/line",
            &gm,
            json!({ "line": "end" }),
            StatusCode::OK,
        )
        .await;
    }
    // What the page asks for on a reload (docs/api.md, "A page's requests"): every answer
    // 200, the whole feed of this fight in one page.
    for uri in [
        "/api/me",
        "/api/journal?limit=200",
        "/api/combat",
        "/api/characters",
        "/api/systems/characters",
        "/api/scene",
        "/api/bestiary",
        "/api/settings/roll-off",
    ] {
        let a = s.get(uri, &pia).await;
        assert_eq!(a.status, StatusCode::OK, "{uri}: {}", a.text());
        if uri.starts_with("/api/journal") {
            assert_eq!(a.json()["entries"].as_array().unwrap().len(), 55);
        }
    }
    assert_eq!(
        s.live(&pia, Duration::from_millis(200))
            .await
            .matches("event: entry")
            .count(),
        55
    );
}

// ---------------------------------------------------------------------------------------
// 8. Corrections.

#[tokio::test]
async fn a_game_masters_change_to_a_players_sheet_is_marked_as_a_correction() {
    let s = server();
    let gm = s.table("T", "Ada").await;
    let pia = s.player(&gm, "Pia").await;
    s.ok("/api/characters", &pia, hero("Nick"), StatusCode::CREATED)
        .await;
    s.ok("/api/characters", &gm, hero("Vera"), StatusCode::CREATED)
        .await;
    let patch = |name: &'static str, token: String| {
        let s = &s;
        async move {
            let a = s
                .call(
                    "PATCH",
                    &format!("/api/characters/{name}"),
                    Some(&token),
                    Some(json!({ "damage": 1 })),
                )
                .await;
            assert_eq!(a.status, StatusCode::OK, "{}", a.text());
        }
    };
    patch("Nick", gm.clone()).await; // the GM on Pia's sheet: a correction
    patch("Vera", gm.clone()).await; // the GM on her own: not one
    patch("Nick", pia.clone()).await; // Pia on her own: not one
    let edits: Vec<(bool, String)> = s
        .entries(&pia)
        .await
        .iter()
        .filter(|e| e["change"]["edited"].is_object())
        .map(|e| {
            (
                e["change"]["edited"]["edit"]["correction"] == true,
                e["by"]["name"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        edits,
        [
            (true, "Ada".into()),
            (false, "Ada".into()),
            (false, "Pia".into())
        ]
    );
    let story = s
        .get("/api/journal/export?format=markdown", &pia)
        .await
        .text();
    assert!(story.contains("GM correction of Nick"), "{story}");
}

// ---------------------------------------------------------------------------------------
// 6. Re-entry.

/// Uses a re-entry link without a session: the answer.
async fn reenter(s: &Server, token: &str) -> Answer {
    s.call(
        "POST",
        "/api/reentry",
        None,
        Some(json!({ "token": token })),
    )
    .await
}

#[tokio::test]
async fn a_re_entry_link_signs_the_same_member_in_once_and_only_at_their_table() {
    let s = server();
    let gm = s.table("T", "Ada").await;
    let pia = s.player(&gm, "Pia").await;
    let pia_id = s.get("/api/me", &pia).await.json()["member"]["id"].clone();
    let gm_id = s.get("/api/me", &gm).await.json()["member"]["id"].clone();
    s.ok("/api/characters", &pia, hero("Nick"), StatusCode::CREATED)
        .await;

    let link = s
        .ok("/api/me/reentry", &pia, json!({}), StatusCode::CREATED)
        .await;
    assert_eq!(link["member"]["id"], pia_id);
    let expires: jiff::Timestamp = link["expires"].as_str().unwrap().parse().unwrap();
    let days = (expires - jiff::Timestamp::now()).get_seconds() / 86_400;
    assert_eq!(days, 6, "{link}"); // 7 days less the seconds since
    // A route that takes no fields says so when it is sent some (and takes no body at all).
    let fields = s.post("/api/me/reentry", &pia, json!({"member": 1})).await;
    assert_eq!(
        fields.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        fields.text()
    );
    assert!(fields.text().contains("member"), "{}", fields.text());
    let bare = s.call("POST", "/api/me/reentry", Some(&pia), None).await;
    assert_eq!(bare.status, StatusCode::CREATED, "{}", bare.text());
    let link = s
        .ok("/api/me/reentry", &pia, json!({}), StatusCode::CREATED)
        .await;
    let token = link["token"].as_str().unwrap().to_string();
    let back = reenter(&s, &token).await;
    assert_eq!(back.status, StatusCode::CREATED, "{}", back.text());
    let back = back.json();
    assert_eq!(back["member"]["id"], pia_id);
    assert_eq!(back["member"]["role"], "player");
    let again = back["token"].as_str().unwrap().to_string();
    // The same member: her character is hers.
    let me = s.get("/api/me", &again).await.json();
    assert_eq!(me["member"]["name"], "Pia");
    let a = s
        .call(
            "PATCH",
            "/api/characters/Nick",
            Some(&again),
            Some(json!({ "heal": 1 })),
        )
        .await;
    assert_ne!(a.status, StatusCode::FORBIDDEN, "{}", a.text());
    // Once; the refusal says which problem it is, with a code the page acts on.
    let used = reenter(&s, &token).await;
    assert_eq!(used.status, StatusCode::FORBIDDEN);
    assert_eq!(used.json()["code"], "reentry-used", "{}", used.text());
    assert!(used.text().contains("already used"), "{}", used.text());
    // A newer link revokes the older.
    let first = s
        .ok("/api/me/reentry", &pia, json!({}), StatusCode::CREATED)
        .await;
    let second = s
        .ok("/api/me/reentry", &pia, json!({}), StatusCode::CREATED)
        .await;
    let revoked = reenter(&s, first["token"].as_str().unwrap()).await;
    assert_eq!(revoked.status, StatusCode::FORBIDDEN);
    assert_eq!(
        revoked.json()["code"],
        "reentry-revoked",
        "{}",
        revoked.text()
    );
    assert!(revoked.text().contains("newer"), "{}", revoked.text());
    // Not for another table (the table is part of the link, and so of what it proves), nor
    // for another member.
    let second = second["token"].as_str().unwrap().to_string();
    let (_, rest) = second.split_once('.').unwrap();
    let (_, secret) = rest.split_once('.').unwrap();
    let other = s.table("U", "Uma").await;
    let other_table = s.get("/api/me", &other).await.json()["table"].clone();
    let uma_id = s.get("/api/me", &other).await.json()["member"]["id"].clone();
    for forged in [
        format!("{other_table}.{pia_id}.{secret}"),
        format!("{other_table}.{uma_id}.{secret}"),
        format!("{}.{gm_id}.{secret}", me["table"]),
        "0.1.x".to_string(),
    ] {
        let a = reenter(&s, &forged).await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{forged}: {}", a.text());
        assert_eq!(
            a.json()["code"],
            "reentry-unknown",
            "{forged}: {}",
            a.text()
        );
    }
    // A player's link never makes a game master, and a player links only herself.
    let gm_link = s
        .post(&format!("/api/members/{gm_id}/reentry"), &pia, json!({}))
        .await;
    assert_eq!(gm_link.status, StatusCode::FORBIDDEN, "{}", gm_link.text());
    let ok = reenter(&s, &second).await;
    assert_eq!(ok.json()["member"]["role"], "player");
    // The game master re-invites a member who lost her session; a member of another table
    // is none of hers.
    let reinvite = s
        .ok(
            &format!("/api/members/{pia_id}/reentry"),
            &gm,
            json!({}),
            StatusCode::CREATED,
        )
        .await;
    let back = reenter(&s, reinvite["token"].as_str().unwrap())
        .await
        .json();
    assert_eq!(
        (&back["member"]["id"], &back["member"]["role"]),
        (&pia_id, &json!("player"))
    );
    let stranger = s
        .post(&format!("/api/members/{uma_id}/reentry"), &gm, json!({}))
        .await;
    assert_eq!(
        stranger.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        stranger.text()
    );
    // Holding a live session, a re-entry asks first, as a join does.
    let held = s
        .call(
            "POST",
            "/api/reentry",
            Some(&gm),
            Some(json!({ "token": s.ok("/api/me/reentry", &pia, json!({}), StatusCode::CREATED).await["token"] })),
        )
        .await;
    assert_eq!(held.status, StatusCode::CONFLICT, "{}", held.text());
}
