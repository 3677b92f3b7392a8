//! Fast static combat (S11) from a character of the table: `solum static --char NAME`.

use axum::extract::State;
use serde::Deserialize;
use solum_app::fast_static::StaticAsk;
use solum_app::tables::{self};

use crate::{ApiError, AppState, Auth, Body_, Json, NoFields, NoQuery, change, with_campaign};

/// What the app's [`StaticAsk`] asks, and dice rolled by hand (`typed`, where the table
/// allows them).
pub(crate) struct StaticFightRequest {
    ask: StaticAsk,
    typed: Option<Vec<u32>>,
}

crate::openapi::enveloped!(
    StaticFightRequest,
    StaticAsk,
    "StaticFightRequest",
    false,
    true
);

impl<'de> Deserialize<'de> for StaticFightRequest {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (ask, env): (_, crate::DiceEnvelope) = crate::split(d, &["typed"])?;
        Ok(Self {
            ask,
            typed: env.typed,
        })
    }
}

#[utoipa::path(get, path = "/api/characters/{name}/static", tag = "static_fight", params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::fast_static::StaticStatus)))]
pub(crate) async fn static_status(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    _no_query: NoQuery,
) -> Result<Json<solum_app::fast_static::StaticStatus>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, move |c| c.static_answer(&name))
        .await
        .map(Json)
}

#[utoipa::path(post, path = "/api/characters/{name}/static", tag = "static_fight", request_body = StaticFightRequest, params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::fast_static::StaticView)))]
pub(crate) async fn static_fight(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    Body_(req): Body_<StaticFightRequest>,
) -> Result<Json<solum_app::fast_static::StaticView>, ApiError> {
    let member = auth.member;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        c.as_roller_of(&member, solum_app::characters::SYSTEM, &name, |c| {
            let dice = tables::live_dice(c.store(), &member, req.typed)?;
            c.static_fight_asked(&name, &req.ask, dice)
        })
    })
    .await
    .map(Json)
}

#[utoipa::path(post, path = "/api/characters/{name}/static/abandon", tag = "static_fight", params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::fast_static::StaticView)))]
pub(crate) async fn static_abandon(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    _no_fields: NoFields,
) -> Result<Json<solum_app::fast_static::StaticView>, ApiError> {
    let member = auth.member;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        c.as_roller_of(&member, solum_app::characters::SYSTEM, &name, |c| {
            c.abandon_static(&name)
        })
    })
    .await
    .map(Json)
}
