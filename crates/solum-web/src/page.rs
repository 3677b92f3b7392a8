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

/// The page's shared context module (`ctx.api`, events, errors, dice): the module contract
/// of the panels.
pub const CTX_JS: &str = include_str!("../assets/js/ctx.js");
/// The Characters tab: whole sheets, creation by the rules, edits, advancement, rest, checks.
pub const SHEETS_JS: &str = include_str!("../assets/js/sheets.js");
/// The Combat tab: fighters picked from the table, options as buttons with their odds.
pub const COMBAT_JS: &str = include_str!("../assets/js/combat.js");
/// The panels' own style sheet (beside the shell's `style.css`).
pub const PANELS_CSS: &str = include_str!("../assets/panels.css");
/// A temporary page that signs in and mounts the Characters and Combat panels alone, for
/// their browser test until the page's shell mounts them (dropped when it does).
pub const DEV_PANELS_HTML: &str = include_str!("../assets/dev-panels.html");
/// Its script: signs in as the page does and mounts the two panels.
pub const DEV_PANELS_JS: &str = include_str!("../assets/js/dev-panels.js");

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
        .route("/js/ctx.js", get(|| asset(JS, CTX_JS)))
        .route("/js/sheets.js", get(|| asset(JS, SHEETS_JS)))
        .route("/js/combat.js", get(|| asset(JS, COMBAT_JS)))
        .route("/js/dev-panels.js", get(|| asset(JS, DEV_PANELS_JS)))
        .route(
            "/panels.css",
            get(|| asset("text/css; charset=utf-8", PANELS_CSS)),
        )
        .route(
            "/dev-panels.html",
            get(|| asset("text/html; charset=utf-8", DEV_PANELS_HTML)),
        )
}

/// The content type of the page's script modules.
const JS: &str = "text/javascript; charset=utf-8";

async fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, content_type)], body)
}
