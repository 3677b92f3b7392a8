//! The embedded page: HTML, scripts and styles compiled into the binary (no CDN, works
//! offline). The HTML holds no inline script and no user text (the panels' markup is in
//! its `<template>`s); the scripts are ES modules under `/js/`, which write every piece of
//! user text with `textContent` or form values, never as markup. Their routes are in the
//! one table of routes (`routes/mod.rs`).

use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

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

/// `GET /api/openapi.json`: the API's OpenAPI description, generated from the handlers'
/// own types ([`crate::openapi`]).
#[utoipa::path(get, path = "/api/openapi.json", tag = "page", security(()),
    responses((status = 200, description = "This description (OpenAPI 3.1)", content_type = "application/json", body = Object)))]
pub(crate) async fn openapi() -> impl IntoResponse {
    asset("application/json", crate::openapi::json()).await
}

/// `GET /`: the page (no inline script; CSP on every response).
#[utoipa::path(get, path = "/", tag = "page", security(()),
    responses((status = 200, description = "The page", content_type = "text/html", body = String)))]
pub(crate) async fn index() -> impl IntoResponse {
    asset("text/html; charset=utf-8", INDEX_HTML).await
}

/// `GET /style.css`: the page's style sheet.
#[utoipa::path(get, path = "/style.css", tag = "page", security(()),
    responses((status = 200, description = "The page's style sheet", content_type = "text/css", body = String)))]
pub(crate) async fn style() -> impl IntoResponse {
    asset("text/css; charset=utf-8", STYLE_CSS).await
}

/// `GET /panels.css`: the Characters and Combat tabs' style sheet.
#[utoipa::path(get, path = "/panels.css", tag = "page", security(()),
    responses((status = 200, description = "The Characters and Combat tabs' style sheet", content_type = "text/css", body = String)))]
pub(crate) async fn panels() -> impl IntoResponse {
    asset("text/css; charset=utf-8", PANELS_CSS).await
}

/// `GET /js/<name>`: one of [`MODULES`] (a name is looked up, never used as a path).
#[utoipa::path(get, path = "/js/{name}", tag = "page", security(()),
    params(("name" = String, Path, description = "The module's file name, e.g. app.js")),
    responses(
        (status = 200, description = "The module", content_type = "text/javascript", body = String),
        (status = 404, description = "No such module"),
    ))]
pub(crate) async fn module(Path(name): Path<String>) -> Response {
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
