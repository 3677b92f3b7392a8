//! Project Sol beside the routes of `lib.rs`: training a skill (P3) and the game master's
//! reward of Edge. Each is a use case of `solum-app` (`Campaign::sol_train`,
//! `Campaign::sol_reward`), journaled; the handlers parse, call and render.

use axum::Router;
use axum::extract::{Path, State};
use axum::response::Json;
use axum::routing::post;
use serde::Deserialize;
use solum_app::sol::SolChangeView;
use solum_app::tables;

use crate::{ApiError, AppState, Auth, Body_, NoFields, change, gm_only};

/// The routes, nested under `/api` by the router.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/sol/characters/{name}/train", post(train))
        .route("/sol/characters/{name}/reward", post(reward))
}

/// `POST /api/sol/characters/{name}/train`: the skill whose next rank is trained.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Train {
    skill: String,
}

/// Trains the next rank of a skill (one training a session; the cost and the rule are the
/// app's): the character's player, or the game master.
async fn train(
    State(state): State<AppState>,
    auth: Auth,
    Path(name): Path<String>,
    Body_(req): Body_<Train>,
) -> Result<Json<SolChangeView>, ApiError> {
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
async fn reward(
    State(state): State<AppState>,
    auth: Auth,
    Path(name): Path<String>,
    _no_fields: NoFields,
) -> Result<Json<SolChangeView>, ApiError> {
    gm_only(&auth.member, "rewards a point of Edge")?;
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, move |c| c.sol_reward(&name))
        .await
        .map(Json)
}
