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

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NameEnvelope {
    /// The character's name.
    #[schema(max_length = 100, pattern = "@name")]
    name: String,
}

impl utoipa::__dev::ComposeSchema for NewDietype {
    fn compose(
        _: Vec<utoipa::openapi::RefOr<utoipa::openapi::Schema>>,
    ) -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        use utoipa::openapi::{RefOr, Schema};
        let mut schema = <solum_app::dietype::DietypeEdit as utoipa::PartialSchema>::schema();
        if let RefOr::T(Schema::Object(o)) = &mut schema {
            let envelope = <NameEnvelope as utoipa::PartialSchema>::schema();
            if let RefOr::T(Schema::Object(e)) = envelope
                && let Some(name) = e.properties.get("name")
            {
                o.properties.insert("name".into(), name.clone());
            }
            o.required.push("name".into());
        }
        schema
    }
}

impl utoipa::ToSchema for NewDietype {
    fn name() -> std::borrow::Cow<'static, str> {
        "NewDietype".into()
    }
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

#[utoipa::path(post, path = "/api/dietype/characters", tag = "dietype", request_body = NewDietype, responses((status = 201, description = "Created", body = solum_app::dietype::DietypeChangeView)))]
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

#[utoipa::path(post, path = "/api/dietype/characters/{name}/roll", tag = "dietype", request_body = SiblingRoll<solum_app::dietype::DietypeRoll>, params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::dietype::DietypeRollView)))]
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

/// `PATCH /api/dietype/characters/{name}`: abilities, skills, weapons and notes changed (the
/// sheet is checked whole before it is stored): the character's player, or the game master;
/// journaled.
#[utoipa::path(patch, path = "/api/dietype/characters/{name}", tag = "dietype", request_body = solum_app::dietype::DietypeEdit, params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::dietype::DietypeChangeView)))]
pub(crate) async fn edit_dietype(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
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
