//! The embedded page: HTML, scripts and styles compiled into the binary (no CDN, works
//! offline). The HTML holds no inline script and no user text (the panels' markup is in
//! its `<template>`s); the scripts are ES modules under `/js/`, which write every piece of
//! user text with `textContent` or form values, never as markup.

use axum::Router;
use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::AppState;

/// The page.
pub const INDEX_HTML: &str = include_str!("../assets/index.html");
/// The shell's style (layout, colours as CSS variables with WCAG AA contrast).
pub const STYLE_CSS: &str = include_str!("../assets/style.css");
/// The Characters and Combat tabs' style.
pub const PANELS_CSS: &str = include_str!("../assets/panels.css");

/// The page's ES modules, served at `/js/<name>`: one `include_str!` per file.
pub const MODULES: &[(&str, &str)] = &[
    ("app.js", include_str!("../assets/js/app.js")),
    ("ctx.js", include_str!("../assets/js/ctx.js")),
    ("feed.js", include_str!("../assets/js/feed.js")),
    ("play.js", include_str!("../assets/js/play.js")),
    ("solo.js", include_str!("../assets/js/solo.js")),
    ("systems.js", include_str!("../assets/js/systems.js")),
    ("sheets.js", include_str!("../assets/js/sheets.js")),
    ("combat.js", include_str!("../assets/js/combat.js")),
    ("vehicles.js", include_str!("../assets/js/vehicles.js")),
    ("fights.js", include_str!("../assets/js/fights.js")),
];

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
        .route("/js/{name}", get(module))
        .route(
            "/style.css",
            get(|| asset("text/css; charset=utf-8", STYLE_CSS)),
        )
        .route(
            "/panels.css",
            get(|| asset("text/css; charset=utf-8", PANELS_CSS)),
        )
}

/// `GET /js/<name>`: one of [`MODULES`] (a name is looked up, never used as a path).
async fn module(Path(name): Path<String>) -> Response {
    match MODULES.iter().find(|(n, _)| *n == name) {
        Some((_, body)) => asset("text/javascript; charset=utf-8", body)
            .await
            .into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

async fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, content_type)], body)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every module the page imports is served: each `from "./x.js"` names one of MODULES.
    #[test]
    fn every_imported_module_is_served() {
        let names: Vec<&str> = MODULES.iter().map(|(n, _)| *n).collect();
        for (file, body) in MODULES {
            for part in body.split("from \"./").skip(1) {
                let name = part.split('"').next().unwrap_or_default();
                assert!(names.contains(&name), "{file} imports {name}, not served");
            }
        }
        assert!(INDEX_HTML.contains("<script type=\"module\" src=\"/js/app.js\">"));
    }
}
