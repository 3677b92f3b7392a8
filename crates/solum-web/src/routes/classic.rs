//! The original game: heroes, checks, fights and gear.

use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use solum_app::tables::{self};

use crate::routes::siblings::{SiblingRoll, sibling_roll};
use crate::{ApiError, AppState, Auth, Body_, Json, NoQuery, change, with_campaign};

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewHero {
    /// The hero's name.
    #[schema(max_length = 100, pattern = "@name")]
    name: String,
    #[serde(default)]
    cliches: Vec<String>,
    #[serde(default)]
    #[schema(schema_with = crate::openapi::typed_faces)]
    typed: Option<Vec<u32>>,
}

#[utoipa::path(post, path = "/api/classic/characters", tag = "classic", request_body = NewHero, responses((status = 201, description = "Created", body = solum_app::classic::HeroChangeView)))]
pub(crate) async fn create_classic(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<NewHero>,
) -> Result<(StatusCode, Json<solum_app::classic::HeroChangeView>), ApiError> {
    let member = auth.member;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        // Created by the rules: Body, Mind, Spirit, hit points and clichés are rolled.
        let dice = tables::live_dice(c.store(), &member, req.typed)?;
        c.create_classic_hero(&req.name, &req.cliches, dice)
    })
    .await
    .map(|v| (StatusCode::CREATED, Json(v)))
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClassicCheck {
    stat: solum_app::classic::Stat,
    cliche: Option<String>,
    /// None: rolled on a d6 first.
    difficulty: Option<solum_app::classic_once::ClassicDifficulty>,
    #[serde(default)]
    gear: bool,
    /// The piece of gear the hero carries that serves (implies `gear`).
    gear_name: Option<String>,
}

#[utoipa::path(post, path = "/api/classic/characters/{name}/check", tag = "classic", request_body = SiblingRoll<ClassicCheck>, params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::classic::HeroCheckView)))]
pub(crate) async fn classic_check(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    Body_(req): Body_<SiblingRoll<ClassicCheck>>,
) -> Result<Json<solum_app::classic::HeroCheckView>, ApiError> {
    sibling_roll(
        &state,
        auth.member,
        solum_app::classic::SYSTEM,
        name,
        req,
        |c, name, r, dice| {
            c.check_classic_hero(
                name,
                r.stat,
                r.cliche.as_deref().filter(|s| !s.trim().is_empty()),
                r.difficulty,
                // Gear the hero carries: the one piece on the sheet, or the one named.
                r.gear_name.as_deref().or(r.gear.then_some("")),
                dice,
            )
        },
    )
    .await
}

#[utoipa::path(post, path = "/api/classic/characters/{name}/fight", tag = "classic", request_body = SiblingRoll<solum_app::classic::FightRequest>, params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::classic::FightView)))]
pub(crate) async fn classic_fight(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    Body_(req): Body_<SiblingRoll<solum_app::classic::FightRequest>>,
) -> Result<Json<solum_app::classic::FightView>, ApiError> {
    sibling_roll(
        &state,
        auth.member,
        solum_app::classic::SYSTEM,
        name,
        req,
        |c, name, r, dice| c.play_classic_fight(name, &r, dice),
    )
    .await
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClassicAbandon {
    /// The answer to a hit that waits, taken before the hero flees.
    decide: Option<solum_app::classic::Loss>,
}

#[utoipa::path(post, path = "/api/classic/characters/{name}/fight/abandon", tag = "classic", request_body = ClassicAbandon, params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::classic::FightView)))]
pub(crate) async fn classic_fight_abandon(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    Body_(req): Body_<ClassicAbandon>,
) -> Result<Json<solum_app::classic::FightView>, ApiError> {
    let member = auth.member;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        c.as_roller_of(&member, solum_app::classic::SYSTEM, &name, |c| {
            c.abandon_classic_fight(&name, req.decide)
        })
    })
    .await
    .map(Json)
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClassicGear {
    /// Pieces to give (at most 20).
    #[serde(default)]
    #[schema(max_items = 20)]
    add: Vec<String>,
    /// Pieces to take away (at most 20).
    #[serde(default)]
    #[schema(max_items = 20)]
    remove: Vec<String>,
}

#[utoipa::path(post, path = "/api/classic/characters/{name}/gear", tag = "classic", request_body = ClassicGear, params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::classic::HeroChangeView)))]
pub(crate) async fn classic_gear(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    Body_(req): Body_<ClassicGear>,
) -> Result<Json<solum_app::classic::HeroChangeView>, ApiError> {
    let member = auth.member;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        c.as_roller_of(&member, solum_app::classic::SYSTEM, &name, |c| {
            c.edit_classic_gear(&name, &req.add, &req.remove)
        })
    })
    .await
    .map(Json)
}

/// A hero's notes written anew.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClassicNotes {
    /// The notes (at most 4,000 characters; empty clears them).
    #[schema(max_length = 4000)]
    notes: String,
}

#[utoipa::path(patch, path = "/api/classic/characters/{name}", tag = "classic", request_body = ClassicNotes, params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::classic::HeroChangeView)))]
pub(crate) async fn classic_notes(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    Body_(req): Body_<ClassicNotes>,
) -> Result<Json<solum_app::classic::HeroChangeView>, ApiError> {
    let member = auth.member;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        c.as_roller_of(&member, solum_app::classic::SYSTEM, &name, |c| {
            c.edit_classic_notes(&name, &req.notes)
        })
    })
    .await
    .map(Json)
}

#[utoipa::path(get, path = "/api/classic/characters/{name}/fight", tag = "classic", params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::classic::ClassicFightStatus)))]
pub(crate) async fn classic_fight_status(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    _no_query: NoQuery,
) -> Result<Json<solum_app::classic::ClassicFightStatus>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, move |c| c.classic_fight_answer(&name))
        .await
        .map(Json)
}

/// `GET /api/classic/book`: the original's book, the foes a fight may name (its monsters and
/// sample heroes, with their stats) and its example clichés.
#[utoipa::path(get, path = "/api/classic/book", tag = "classic", responses((status = 200, description = "The book", body = solum_app::classic::BookView)))]
pub(crate) async fn classic_book(
    _auth: Auth,
    _no_query: NoQuery,
) -> Json<solum_app::classic::BookView> {
    Json(solum_app::classic::classic_book())
}

/// `POST /api/classic/characters/{name}/fight/odds`: the fight the same body would start,
/// before its first exchange (each side's dice, the exchange's exact odds, the duel's);
/// nothing is rolled or journaled.
#[utoipa::path(post, path = "/api/classic/characters/{name}/fight/odds", tag = "classic", request_body = solum_app::classic::FightRequest, params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "The fight before its first exchange", body = solum_app::classic::FightStateView)))]
pub(crate) async fn classic_fight_odds(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    Body_(req): Body_<solum_app::classic::FightRequest>,
) -> Result<Json<solum_app::classic::FightStateView>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, move |c| c.preview_classic_fight(&name, &req))
        .await
        .map(Json)
}

/// `POST /api/classic/characters/{name}/rest`: hours of rest (C2).
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClassicRest {
    /// Hours rested, fractions allowed, from a second
    /// ([`solum_app::classic::MIN_REST_HOURS`]) to 876,000 (a hundred years, the rules'
    /// limit); banked on the sheet until they make a point.
    #[schema(minimum = 0.0002777777777777778, maximum = 876000)]
    hours: f64,
}

/// Rests a hero of the original (C2: 1 hit point per 8 hours, 1 Body per day): the hero's
/// player, or the game master; journaled.
#[utoipa::path(post, path = "/api/classic/characters/{name}/rest", tag = "classic", request_body = ClassicRest, params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::classic::HeroChangeView)))]
pub(crate) async fn classic_rest(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    Body_(req): Body_<ClassicRest>,
) -> Result<Json<solum_app::classic::HeroChangeView>, ApiError> {
    let member = auth.member;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        c.as_roller_of(&member, solum_app::classic::SYSTEM, &name, |c| {
            c.rest_classic_hero(&name, req.hours)
        })
    })
    .await
    .map(Json)
}
