//! Sol'una: characters, tests and the played skirmish.

use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use solum_app::tables::{self};
use solum_store::Scope;

use crate::routes::siblings::{SiblingRoll, sibling_roll};
use crate::{ApiError, AppState, Auth, Body_, Json, NoFields, NoQuery, change, with_campaign};

#[utoipa::path(post, path = "/api/soluna/characters", tag = "soluna", request_body = solum_app::soluna::SolunaSheet, responses((status = 201, description = "Created", body = solum_app::soluna::SolunaChangeView)))]
pub(crate) async fn create_soluna(
    State(state): State<AppState>,
    auth: Auth,
    Body_(solum_app::soluna::SolunaSheet(character)): Body_<solum_app::soluna::SolunaSheet>,
) -> Result<(StatusCode, Json<solum_app::soluna::SolunaChangeView>), ApiError> {
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, move |c| {
        c.create_soluna_character(&character)
    })
    .await
    .map(|v| (StatusCode::CREATED, Json(v)))
}

#[utoipa::path(post, path = "/api/soluna/characters/{name}/test", tag = "soluna", request_body = SiblingRoll<solum_app::soluna::SolunaTest>, params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::soluna::SolunaTestView)))]
pub(crate) async fn soluna_test(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    Body_(req): Body_<SiblingRoll<solum_app::soluna::SolunaTest>>,
) -> Result<Json<solum_app::soluna::SolunaTestView>, ApiError> {
    sibling_roll(
        &state,
        auth.member,
        solum_app::soluna::SYSTEM,
        name,
        req,
        |c, name, r, dice| c.soluna_test(name, &r, dice),
    )
    .await
}

#[utoipa::path(get, path = "/api/soluna/skirmish", tag = "soluna", responses((status = 200, description = "Done", body = solum_app::soluna::SkirmishAnswer)))]
pub(crate) async fn soluna_skirmish_state(
    State(state): State<AppState>,
    auth: Auth,
    _no_query: NoQuery,
) -> Result<Json<solum_app::soluna::SkirmishAnswer>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, |c| c.soluna_skirmish_state())
        .await
        .map(Json)
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SkirmishStart {
    names: Vec<String>,
    #[serde(default)]
    auto: Vec<String>,
    #[serde(default)]
    #[schema(schema_with = crate::openapi::typed_faces)]
    typed: Option<Vec<u32>>,
}

#[utoipa::path(post, path = "/api/soluna/skirmish", tag = "soluna", request_body = SkirmishStart, responses((status = 201, description = "Created", body = solum_app::soluna::PlayView)))]
pub(crate) async fn soluna_skirmish_start(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<SkirmishStart>,
) -> Result<(StatusCode, Json<solum_app::soluna::PlayView>), ApiError> {
    let member = auth.member;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        let dice = tables::live_dice(c.store(), &member, req.typed)?;
        c.start_soluna_skirmish(&req.names, &req.auto, dice)
    })
    .await
    .map(|v| (StatusCode::CREATED, Json(v)))
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SkirmishActRequest {
    name: String,
    action: solum_app::soluna::SkirmishAction,
    target: String,
    #[serde(default)]
    ranged: bool,
    #[serde(default)]
    flips: u32,
    #[serde(default)]
    dice: u32,
    #[serde(default)]
    #[schema(schema_with = crate::openapi::typed_faces)]
    typed: Option<Vec<u32>>,
}

/// A decision: the game master's for any character, a player's for their own. The skirmish
/// and its characters' sheets are the table's: once the member may decide, the use case
/// runs in the game master's scope (it changes only the skirmish, and at its end the sheets
/// as the rules leave them).
#[utoipa::path(post, path = "/api/soluna/skirmish/act", tag = "soluna", request_body = SkirmishActRequest, responses((status = 200, description = "Done", body = solum_app::soluna::PlayView)))]
pub(crate) async fn soluna_skirmish_act(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<SkirmishActRequest>,
) -> Result<Json<solum_app::soluna::PlayView>, ApiError> {
    let member = auth.member;
    let scope = Scope {
        gm: true,
        ..tables::scope_of(&member)
    };
    change(&state, scope, move |c| {
        c.as_roller_of(&member, solum_app::soluna::SYSTEM, &req.name, |c| {
            let dice = tables::live_dice(c.store(), &member, req.typed)?;
            let act = solum_app::soluna::SkirmishAct {
                action: req.action,
                target: req.target,
                ranged: req.ranged,
                flips: req.flips,
                dice: req.dice,
            };
            c.act_soluna_skirmish(&req.name, &act, dice)
        })
    })
    .await
    .map(Json)
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SkirmishGo {
    #[serde(default)]
    #[schema(schema_with = crate::openapi::typed_faces)]
    typed: Option<Vec<u32>>,
}

#[utoipa::path(post, path = "/api/soluna/skirmish/go", tag = "soluna", request_body = SkirmishGo, responses((status = 200, description = "Done", body = solum_app::soluna::PlayView)))]
pub(crate) async fn soluna_skirmish_go(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<SkirmishGo>,
) -> Result<Json<solum_app::soluna::PlayView>, ApiError> {
    let member = auth.member;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        let dice = tables::live_dice(c.store(), &member, req.typed)?;
        c.go_soluna_skirmish(dice)
    })
    .await
    .map(Json)
}

#[utoipa::path(post, path = "/api/soluna/skirmish/abandon", tag = "soluna", responses((status = 200, description = "Done", body = solum_app::soluna::PlayView)))]
pub(crate) async fn soluna_skirmish_abandon(
    State(state): State<AppState>,
    auth: Auth,
    _no_fields: NoFields,
) -> Result<Json<solum_app::soluna::PlayView>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, |c| c.abandon_soluna_skirmish())
        .await
        .map(Json)
}

/// `PATCH /api/soluna/characters/{name}`: the whole sheet as it should be (the name as it
/// is): the character's player, or the game master; journaled with the sheet before, and
/// answered with what changed. `solum soluna edit` makes the same call with the fields its
/// flags name.
#[utoipa::path(patch, path = "/api/soluna/characters/{name}", tag = "soluna", request_body = solum_app::soluna::SolunaSheet, params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::soluna::SolunaChangeView)))]
pub(crate) async fn edit_soluna(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    Body_(solum_app::soluna::SolunaSheet(character)): Body_<solum_app::soluna::SolunaSheet>,
) -> Result<Json<solum_app::soluna::SolunaChangeView>, ApiError> {
    let member = auth.member;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        c.as_roller_of(&member, solum_app::soluna::SYSTEM, &name, |c| {
            c.edit_soluna_character(&name, &solum_app::soluna::SolunaEdit::whole(&character))
        })
    })
    .await
    .map(Json)
}
