//! Read-only routes the page needs beside the API of `lib.rs`: the genres of idea words the
//! Solo tab offers. Nothing here writes or rolls. (The bestiary a combat's foes are picked
//! from is `GET /api/bestiary`.)

use axum::Router;
use axum::response::Json;
use axum::routing::get;
use serde::Serialize;

use crate::{AppState, Auth, NoQuery};

/// `GET /api/idea/genres`: the built-in genres of idea words, as `POST /api/idea` names them.
#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct GenresAnswer {
    /// The genres' names (`solum_app::ideas::genres`), in the program's order.
    genres: Vec<&'static str>,
}

/// The routes, nested under `/api` by the router.
pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/idea/genres", get(genres))
}

/// Needs a session like every table's route (the list itself is the program's, not the
/// table's), so the page's requests stay under one rule.
#[utoipa::path(get, path = "/api/idea/genres", tag = "solo",
    responses((status = 200, description = "The genres of idea words", body = GenresAnswer)))]
pub(crate) async fn genres(_auth: Auth, _no_query: NoQuery) -> Json<GenresAnswer> {
    Json(GenresAnswer {
        genres: solum_app::ideas::genres(),
    })
}
