//! The routes, by area: the `api_routes!` table below is the one list of them, the API's
//! ([`api`], nested under `/api` by [`crate::app`], which adds the layers every route
//! shares) and then the page's own files ([`page`]).

pub(crate) mod characters;
pub(crate) mod classic;
pub(crate) mod combat;
pub(crate) mod dietype;
pub(crate) mod journal;
pub(crate) mod notation;
pub(crate) mod siblings;
pub(crate) mod sol;
pub(crate) mod solo;
pub(crate) mod soluna;
pub(crate) mod static_fight;
pub(crate) mod tables;
pub(crate) mod vehicles;

use axum::Router;
use axum::extract::DefaultBodyLimit;

use crate::{AppState, NOTE_BODY_LIMIT, live, page};

/// The API's routes, each path with its methods and handlers (paths relative to `/api`),
/// then the page's own files: the routers ([`api`], [`page`]), the list a test compares
/// with the OpenAPI description ([`ROUTES`]) and the description's paths come from these
/// two tables.
macro_rules! api_routes {
    (
        $($path:literal => $($method:ident($($handler:ident)::+))+ $(; layer $layer:expr)?,)*
        page: $($page_path:literal => get($($page_handler:ident)::+),)*
    ) => {
        /// Every route of the API, each with its handler (paths relative to `/api`).
        pub(crate) fn api() -> Router<AppState> {
            Router::new()
                $(.route(
                    $path,
                    axum::routing::MethodRouter::new()$(.$method($($handler)::+))+$(.layer($layer))?,
                ))*
        }

        /// The page's own files: the page, its scripts and its style sheets.
        pub(crate) fn page() -> Router<AppState> {
            Router::new()$(.route($page_path, axum::routing::get($($page_handler)::+)))*
        }

        /// The page's own paths of the table above (each answers `GET`).
        pub const PAGE_ROUTES: &[&str] = &[$($page_path,)*];

        /// The routes of the table above: `(method, path under /api)`.
        pub const ROUTES: &[(&str, &str)] = &[$($((stringify!($method), $path),)+)*];

        /// The OpenAPI description of the table's handlers (each one's `#[utoipa::path]`)
        /// and of the page's own files; [`crate::openapi`] completes it.
        #[derive(utoipa::OpenApi)]
        #[openapi(
            info(
                title = "solum web table",
                version = "1",
                description = "The JSON API of `solum serve` (see docs/api.md), generated from the handlers' own types. Every change needs `Origin` of the page itself; rolls use the server's seed, never one a client chooses; every JSON body refuses fields it does not know (422 `body-invalid` naming the field)."
            ),
            paths($($($($handler)::+,)+)* $($($page_handler)::+,)*),
            components(schemas(crate::error::ErrorBody))
        )]
        pub(crate) struct ApiDoc;
    };
}

api_routes! {
    "/tables" => post(tables::create_table),
    "/join" => post(tables::join),
    "/me" => get(tables::me),
    "/me/reentry" => post(tables::my_reentry),
    "/members/{id}/reentry" => post(tables::member_reentry),
    "/reentry" => post(tables::use_reentry),
    "/logout" => post(tables::logout),
    "/invites" => get(tables::invites) post(tables::invite),
    "/invites/{id}" => delete(tables::revoke_invite),
    "/journal" => get(journal::journal),
    "/journal/export" => get(journal::export),
    "/journal/verify" => get(journal::verify),
    "/journal/{seq}/reveal" => post(journal::reveal),
    "/oracle" => post(solo::oracle),
    "/idea" => post(solo::idea),
    "/idea/genres" => get(solo::genres),
    "/notes" => post(solo::note) ; layer DefaultBodyLimit::max(NOTE_BODY_LIMIT),
    "/scene" => get(solo::scene_current),
    "/scenes" => post(solo::scene_start),
    "/scenes/end" => post(solo::scene_end),
    "/bestiary" => get(solo::bestiary),
    "/characters" => get(characters::characters) post(characters::create_character),
    "/characters/{name}" => get(characters::character) patch(characters::edit_character),
    "/characters/{name}/odds" => post(characters::check_odds),
    "/characters/{name}/check" => post(characters::check),
    "/characters/{name}/grant" => post(characters::grant_point),
    "/characters/{name}/advance" => post(characters::advance_character),
    "/characters/{name}/rest" => post(characters::rest_character),
    "/settings/roll-off" => get(characters::roll_off) put(characters::set_roll_off),
    "/settings/real-dice" => put(tables::set_real_dice),
    "/characters/{name}/static" => get(static_fight::static_status) post(static_fight::static_fight),
    "/characters/{name}/static/abandon" => post(static_fight::static_abandon),
    "/odds" => post(notation::notation_odds),
    "/roll" => post(notation::notation_roll),
    "/systems/characters" => get(siblings::sibling_characters),
    "/sol/characters" => post(sol::create_sol),
    "/sol/characters/{name}/test" => post(sol::sol_test),
    "/sol/characters/{name}/encounter" => post(sol::sol_encounter),
    "/sol/characters/{name}/session" => post(sol::sol_session),
    "/sol/characters/{name}/train" => post(sol::train),
    "/sol/characters/{name}/reward" => post(sol::reward),
    "/sol/characters/{name}/spend" => post(sol::spend),
    "/sol/characters/{name}/not-dead-yet" => post(sol::not_dead_yet),
    "/classic/characters" => post(classic::create_classic),
    "/classic/characters/{name}" => patch(classic::classic_notes),
    "/classic/characters/{name}/check" => post(classic::classic_check),
    "/classic/characters/{name}/fight" => get(classic::classic_fight_status) post(classic::classic_fight),
    "/classic/characters/{name}/fight/abandon" => post(classic::classic_fight_abandon),
    "/classic/characters/{name}/fight/odds" => post(classic::classic_fight_odds),
    "/classic/characters/{name}/rest" => post(classic::classic_rest),
    "/classic/book" => get(classic::classic_book),
    "/classic/characters/{name}/gear" => post(classic::classic_gear),
    "/soluna/characters" => post(soluna::create_soluna),
    "/soluna/characters/{name}" => patch(soluna::edit_soluna),
    "/soluna/characters/{name}/test" => post(soluna::soluna_test),
    "/soluna/skirmish" => get(soluna::soluna_skirmish_state) post(soluna::soluna_skirmish_start),
    "/soluna/skirmish/act" => post(soluna::soluna_skirmish_act),
    "/soluna/skirmish/go" => post(soluna::soluna_skirmish_go),
    "/soluna/skirmish/abandon" => post(soluna::soluna_skirmish_abandon),
    "/dietype/characters" => post(dietype::create_dietype),
    "/dietype/characters/{name}" => patch(dietype::edit_dietype),
    "/dietype/characters/{name}/roll" => post(dietype::dietype_roll),
    "/combat" => get(combat::combat_status) post(combat::combat_start),
    "/combat/line" => post(combat::combat_line),
    "/combat/end" => post(combat::combat_end),
    "/vehicles" => get(vehicles::list),
    "/vehicles/attack" => post(vehicles::attack),
    "/vehicles/attack/odds" => post(vehicles::attack_odds),
    "/vehicles/chase" => post(vehicles::chase),
    "/vehicles/chase/odds" => post(vehicles::chase_odds),
    "/fight/odds" => post(vehicles::fight_odds),
    "/events" => get(live::events),
    "/openapi.json" => get(page::openapi),
page:
    "/" => get(page::index),
    "/js/{name}" => get(page::module),
    "/style.css" => get(page::style),
    "/panels.css" => get(page::panels),
}
