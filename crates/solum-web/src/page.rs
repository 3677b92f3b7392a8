//! The embedded page: HTML, script and style compiled into the binary (no CDN, works
//! offline). The HTML holds no inline script and no user text; the script writes every
//! piece of user text with `textContent` or form values, never as markup.

use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;

use crate::AppState;

/// The page.
pub const INDEX_HTML: &str = include_str!("../assets/index.html");
/// Its script.
pub const APP_JS: &str = include_str!("../assets/app.js");
/// Its style.
pub const STYLE_CSS: &str = include_str!("../assets/style.css");

/// The API's OpenAPI 3 description, written by hand beside docs/api.md (a test checks that
/// it names every route of the router and no other).
pub const OPENAPI_JSON: &str = include_str!("../assets/openapi.json");

/// `GET /api/openapi.json`.
pub(crate) async fn openapi() -> impl IntoResponse {
    asset("application/json", OPENAPI_JSON).await
}

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(|| asset("text/html; charset=utf-8", INDEX_HTML)))
        .route(
            "/app.js",
            get(|| asset("text/javascript; charset=utf-8", APP_JS)),
        )
        .route(
            "/style.css",
            get(|| asset("text/css; charset=utf-8", STYLE_CSS)),
        )
}

async fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, content_type)], body)
}
