//! The die-type system: characters and rolls.

use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use solum_app::tables::{self};

use crate::routes::siblings::{SiblingRoll, sibling_roll};
use crate::{ApiError, AppState, Auth, Body_, Json, change, split};

pub(crate) struct NewDietype {
    name: String,
    fill: solum_app::dietype::DietypeEdit,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NameEnvelope {
    name: String,
}

impl<'de> Deserialize<'de> for NewDietype {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (fill, env): (_, NameEnvelope) = split(d, &["name"])?;
        Ok(Self {
            name: env.name,
            fill,
        })
    }
}

pub(crate) async fn create_dietype(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<NewDietype>,
) -> Result<(StatusCode, Json<solum_app::dietype::DietypeChangeView>), ApiError> {
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, move |c| {
        c.create_dietype_character(&req.name, &req.fill)
    })
    .await
    .map(|v| (StatusCode::CREATED, Json(v)))
}

pub(crate) async fn dietype_roll(
    State(state): State<AppState>,
    auth: Auth,
    axum::extract::Path(name): axum::extract::Path<String>,
    Body_(req): Body_<SiblingRoll<solum_app::dietype::DietypeRoll>>,
) -> Result<Json<solum_app::dietype::DietypeRollView>, ApiError> {
    sibling_roll(
        &state,
        auth.member,
        solum_app::dietype::SYSTEM,
        name,
        req,
        |c, name, r, dice| c.roll_dietype_character(name, &r, dice),
    )
    .await
}

/// `PATCH /api/dietype/characters/{name}`: abilities, skills, weapons and notes changed (the
/// sheet is checked whole before it is stored): the character's player, or the game master;
/// journaled.
pub(crate) async fn edit_dietype(
    State(state): State<AppState>,
    auth: Auth,
    axum::extract::Path(name): axum::extract::Path<String>,
    Body_(edit): Body_<solum_app::dietype::DietypeEdit>,
) -> Result<Json<solum_app::dietype::DietypeChangeView>, ApiError> {
    let member = auth.member;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        c.as_roller_of(&member, solum_app::dietype::SYSTEM, &name, |c| {
            c.edit_dietype_character(&name, &edit)
        })
    })
    .await
    .map(Json)
}
