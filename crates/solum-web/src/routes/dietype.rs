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
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
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
