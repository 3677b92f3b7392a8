//! Read-only routes the page's panels need beside the API of `lib.rs`: the bestiary a
//! combat's foes are picked from (the shipped creatures and the table's own, and the static
//! oppositions of fast static combat). Nothing here writes or rolls.

use axum::Router;
use axum::extract::State;
use axum::response::Json;
use axum::routing::get;
use serde::Serialize;
use solum_app::tables;
use solum_expanded::creature::{Bestiary, StaticFoe};

use crate::{ApiError, AppState, Auth, with_campaign};

/// `GET /api/page/bestiary`: what a combat or a fast static combat may name.
#[derive(Serialize)]
struct BestiaryAnswer {
    /// Every creature a combat of this table can name (`foe NAME`): the shipped bestiary's
    /// and the table's own, by name, each with its `source`.
    creatures: Vec<solum_app::creatures::CreatureView>,
    /// The shipped static oppositions (S11) a fast static combat can name (`foe`).
    statics: Vec<StaticFoe>,
}

/// The routes, nested under `/api` by the router.
pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/page/bestiary", get(bestiary))
}

async fn bestiary(
    State(state): State<AppState>,
    auth: Auth,
) -> Result<Json<BestiaryAnswer>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, |c| {
        Ok(BestiaryAnswer {
            creatures: c.creatures()?,
            statics: Bestiary::shipped().static_foes().cloned().collect(),
        })
    })
    .await
    .map(Json)
}
