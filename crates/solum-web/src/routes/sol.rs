//! Project Sol: characters, tests, encounters and play sessions.

use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use solum_app::tables::{self};

use crate::routes::siblings::{SiblingRoll, sibling_roll};
use crate::{ApiError, AppState, Auth, Body_, Json, NoFields, change};

#[utoipa::path(post, path = "/api/sol/characters", tag = "sol", request_body = solum_app::NewSol, responses((status = 201, description = "Created", body = solum_app::sol::SolChangeView)))]
pub(crate) async fn create_sol(
    State(state): State<AppState>,
    auth: Auth,
    Body_(new): Body_<solum_app::NewSol>,
) -> Result<(StatusCode, Json<solum_app::sol::SolChangeView>), ApiError> {
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, move |c| c.create_sol(&new))
        .await
        .map(|v| (StatusCode::CREATED, Json(v)))
}

#[utoipa::path(post, path = "/api/sol/characters/{name}/test", tag = "sol", request_body = SiblingRoll<solum_app::SolTest>, params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::sol::SolTestView)))]
pub(crate) async fn sol_test(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    Body_(req): Body_<SiblingRoll<solum_app::SolTest>>,
) -> Result<Json<solum_app::sol::SolTestView>, ApiError> {
    sibling_roll(
        &state,
        auth.member,
        solum_app::sol::SYSTEM,
        name,
        req,
        |c, name, r, dice| c.sol_test(name, &r, dice, None),
    )
    .await
}

/// `POST /api/sol/characters/{name}/encounter`: the game master starts a new encounter for
/// a character (P3: one progress point per encounter in all); journaled.
#[utoipa::path(post, path = "/api/sol/characters/{name}/encounter", tag = "sol", params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::sol::SolChangeView)))]
pub(crate) async fn sol_encounter(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    _no_fields: NoFields,
) -> Result<Json<solum_app::sol::SolChangeView>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, move |c| c.sol_encounter(&name))
        .await
        .map(Json)
}

/// `POST /api/sol/characters/{name}/session`: the game master starts a new play session for
/// a character: Edge refreshed, training allowed, a new encounter; journaled.
#[utoipa::path(post, path = "/api/sol/characters/{name}/session", tag = "sol", params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::sol::SolChangeView)))]
pub(crate) async fn sol_session(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    _no_fields: NoFields,
) -> Result<Json<solum_app::sol::SolChangeView>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, move |c| c.sol_session(&name))
        .await
        .map(Json)
}

/// `POST /api/sol/characters/{name}/train`: the skill whose next rank is trained.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Train {
    /// The skill to train.
    #[schema(max_length = 100, pattern = "@name")]
    skill: String,
}

/// Trains the next rank of a skill (one training a session; the cost and the rule are the
/// app's): the character's player, or the game master.
#[utoipa::path(post, path = "/api/sol/characters/{name}/train", tag = "sol", request_body = Train, params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::sol::SolChangeView)))]
pub(crate) async fn train(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    Body_(req): Body_<Train>,
) -> Result<Json<solum_app::sol::SolChangeView>, ApiError> {
    let member = auth.member;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        c.as_roller_of(&member, solum_app::sol::SYSTEM, &name, |c| {
            c.sol_train(&name, &req.skill)
        })
    })
    .await
    .map(Json)
}

/// `POST /api/sol/characters/{name}/reward`: the game master gives a point of Edge back
/// (never above the attribute).
#[utoipa::path(post, path = "/api/sol/characters/{name}/reward", tag = "sol", params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::sol::SolChangeView)))]
pub(crate) async fn reward(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    _no_fields: NoFields,
) -> Result<Json<solum_app::sol::SolChangeView>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, move |c| c.sol_reward(&name))
        .await
        .map(Json)
}

/// `POST /api/sol/characters/{name}/spend`: what a point of Edge is spent on outside a test.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Spend {
    /// What the point of Edge is spent on.
    what: solum_app::sol::SpendUse,
}

/// Spends a point of Edge outside a test (Blitz, Seize the Initiative, Dead Man's Trigger
/// with its BOD + WIL (3) test): the character's player, or the game master; journaled.
#[utoipa::path(post, path = "/api/sol/characters/{name}/spend", tag = "sol", request_body = SiblingRoll<Spend>, params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::sol::SolChangeView)))]
pub(crate) async fn spend(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    Body_(req): Body_<SiblingRoll<Spend>>,
) -> Result<Json<solum_app::sol::SolChangeView>, ApiError> {
    sibling_roll(
        &state,
        auth.member,
        solum_app::sol::SYSTEM,
        name,
        req,
        |c, name, r, dice| c.sol_spend(name, r.what, dice),
    )
    .await
}

/// `POST /api/sol/characters/{name}/not-dead-yet`: on a tie of the highest physical
/// attributes, the one lowered.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NotDeadYet {
    /// The attribute lowered, when the highest physical attributes tie.
    #[schema(max_length = 40)]
    attribute: Option<String>,
}

/// Not Dead Yet (P2): a point of Edge burnt, the highest physical attribute lowered by 1;
/// the character's player, or the game master; journaled.
#[utoipa::path(post, path = "/api/sol/characters/{name}/not-dead-yet", tag = "sol", request_body = NotDeadYet, params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::sol::SolChangeView)))]
pub(crate) async fn not_dead_yet(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    Body_(req): Body_<NotDeadYet>,
) -> Result<Json<solum_app::sol::SolChangeView>, ApiError> {
    let member = auth.member;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        c.as_roller_of(&member, solum_app::sol::SYSTEM, &name, |c| {
            let choice = req.attribute.as_deref().filter(|s| !s.trim().is_empty());
            c.sol_not_dead_yet(&name, choice)
        })
    })
    .await
    .map(Json)
}
