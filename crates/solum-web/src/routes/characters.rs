//! Characters and checks of the Expanded rules, and the table's roll-off setting.

use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use solum_app::RollOffSetting;
use solum_app::characters::{CharacterCheck, CharacterEdit, NewCharacter};
use solum_app::tables::{self};

use crate::{
    ApiError, AppState, Auth, Body_, DiceEnvelope, Json, NoFields, NoQuery, change, roll_scope,
    split, with_campaign,
};

#[utoipa::path(get, path = "/api/characters", tag = "characters", responses((status = 200, description = "Done", body = Vec<tables::OwnedCharacter>)))]
pub(crate) async fn characters(
    State(state): State<AppState>,
    auth: Auth,
    _no_query: NoQuery,
) -> Result<Json<Vec<tables::OwnedCharacter>>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, |c| c.owned_characters())
        .await
        .map(Json)
}

#[utoipa::path(get, path = "/api/characters/{name}", tag = "characters", params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::characters::CharacterView)))]
pub(crate) async fn character(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    _no_query: NoQuery,
) -> Result<Json<solum_app::characters::CharacterView>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, move |c| c.character(&name))
        .await
        .map(Json)
}

/// A character's choices and the request's own `typed` (unknown fields refused).
pub(crate) struct CreateRequest {
    character: NewCharacter,
    typed: Option<Vec<u32>>,
}

impl utoipa::__dev::ComposeSchema for CreateRequest {
    fn compose(
        _: Vec<utoipa::openapi::RefOr<utoipa::openapi::Schema>>,
    ) -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        crate::openapi::with_envelope::<NewCharacter>(false, true)
    }
}

impl utoipa::ToSchema for CreateRequest {
    fn name() -> std::borrow::Cow<'static, str> {
        "CreateCharacter".into()
    }

    // The inner part's fields refer to its types by name (a `bounded!` number).
    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        <NewCharacter as utoipa::ToSchema>::schemas(schemas);
    }
}

impl<'de> Deserialize<'de> for CreateRequest {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (character, env): (_, DiceEnvelope) = split(d, &["typed"])?;
        Ok(Self {
            character,
            typed: env.typed,
        })
    }
}

#[utoipa::path(post, path = "/api/characters", tag = "characters", request_body = CreateRequest, responses((status = 201, description = "Created", body = solum_app::characters::ChangeView)))]
pub(crate) async fn create_character(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<CreateRequest>,
) -> Result<(StatusCode, Json<solum_app::characters::ChangeView>), ApiError> {
    let member = auth.member;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        let dice = tables::live_dice(c.store(), &member, req.typed)?;
        c.create_character(&req.character, dice)
    })
    .await
    .map(|v| (StatusCode::CREATED, Json(v)))
}

#[utoipa::path(patch, path = "/api/characters/{name}", tag = "characters", request_body = CharacterEdit, params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::characters::ChangeView)))]
pub(crate) async fn edit_character(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    Body_(edit): Body_<CharacterEdit>,
) -> Result<Json<solum_app::characters::ChangeView>, ApiError> {
    let member = auth.member;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        c.edit_character_as(&member, &name, &edit)
    })
    .await
    .map(Json)
}

/// Grants an advancement point (S17): the game master's (the use case refuses a player).
#[utoipa::path(post, path = "/api/characters/{name}/grant", tag = "characters", params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::characters::ChangeView)))]
pub(crate) async fn grant_point(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    _no_fields: NoFields,
) -> Result<Json<solum_app::characters::ChangeView>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, move |c| c.grant_advancement_point(&name))
        .await
        .map(Json)
}

/// An advancement attempt: the goal, and the request's own `typed`.
pub(crate) struct AdvanceRequest {
    goal: solum_app::AdvanceGoal,
    typed: Option<Vec<u32>>,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct AdvanceGoalBody {
    /// What the hero advances (docs/api.md).
    #[schema(schema_with = solum_app::schema::advance_goal)]
    goal: solum_app::AdvanceGoal,
}

crate::openapi::enveloped!(
    AdvanceRequest,
    AdvanceGoalBody,
    "AdvanceRequest",
    false,
    true
);

impl<'de> Deserialize<'de> for AdvanceRequest {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (body, env): (AdvanceGoalBody, DiceEnvelope) = split(d, &["typed"])?;
        Ok(Self {
            goal: body.goal,
            typed: env.typed,
        })
    }
}

/// Spends an advancement point on an attempt (S17); the sheet's owner or the game master.
#[utoipa::path(post, path = "/api/characters/{name}/advance", tag = "characters", request_body = AdvanceRequest, params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::characters::ChangeView)))]
pub(crate) async fn advance_character(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    Body_(req): Body_<AdvanceRequest>,
) -> Result<Json<solum_app::characters::ChangeView>, ApiError> {
    let member = auth.member;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        let dice = tables::live_dice(c.store(), &member, req.typed)?;
        c.advance_character(&name, &req.goal, dice)
    })
    .await
    .map(Json)
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RestRequest {
    /// Hours of rest: at least a minute (to the nearest minute), at most 10,000.
    #[schema(minimum = 0.008333333333333333, maximum = 10000.0)]
    hours: f64,
}

/// Rests (S16): the minutes bank on the sheet; each whole half hour heals 1.
#[utoipa::path(post, path = "/api/characters/{name}/rest", tag = "characters", request_body = RestRequest, params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::characters::ChangeView)))]
pub(crate) async fn rest_character(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    Body_(req): Body_<RestRequest>,
) -> Result<Json<solum_app::characters::ChangeView>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, move |c| c.rest_character(&name, req.hours))
        .await
        .map(Json)
}

#[utoipa::path(get, path = "/api/settings/roll-off", tag = "characters", responses((status = 200, description = "Done", body = RollOffSetting)))]
pub(crate) async fn roll_off(
    State(state): State<AppState>,
    auth: Auth,
    _no_query: NoQuery,
) -> Result<Json<RollOffSetting>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, move |c| c.roll_off_setting())
        .await
        .map(Json)
}

#[utoipa::path(put, path = "/api/settings/roll-off", tag = "characters", request_body = RollOffSetting, responses((status = 200, description = "Done", body = RollOffSetting)))]
pub(crate) async fn set_roll_off(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<RollOffSetting>,
) -> Result<Json<RollOffSetting>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, move |c| {
        c.set_roll_off(req.on)?;
        c.roll_off_setting()
    })
    .await
    .map(Json)
}

#[utoipa::path(post, path = "/api/characters/{name}/odds", tag = "characters", request_body = CharacterCheck, params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::characters::CheckOdds)))]
pub(crate) async fn check_odds(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    Body_(check): Body_<CharacterCheck>,
) -> Result<Json<solum_app::characters::CheckOdds>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, move |c| c.check_odds(&name, &check))
        .await
        .map(Json)
}

pub(crate) struct CheckRequest {
    check: CharacterCheck,
    secret: bool,
    typed: Option<Vec<u32>>,
}

crate::openapi::enveloped!(CheckRequest, CharacterCheck, "CheckRequest", true, true);

impl<'de> Deserialize<'de> for CheckRequest {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (check, env): (_, DiceEnvelope) = split(d, &["secret", "typed"])?;
        Ok(Self {
            check,
            secret: env.secret,
            typed: env.typed,
        })
    }
}

#[utoipa::path(post, path = "/api/characters/{name}/check", tag = "characters", request_body = CheckRequest, params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::characters::CheckView)))]
pub(crate) async fn check(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    Body_(req): Body_<CheckRequest>,
) -> Result<Json<solum_app::characters::CheckView>, ApiError> {
    let member = auth.member;
    let scope = roll_scope(&member, req.secret)?;
    change(&state, scope, move |c| {
        // A player rolls from their own characters only (checked in the roll's transaction).
        c.as_roller_of(&member, solum_app::characters::SYSTEM, &name, |c| {
            let dice = tables::live_dice(c.store(), &member, req.typed)?;
            c.check_from_character(&name, &req.check, dice)
        })
    })
    .await
    .map(Json)
}
