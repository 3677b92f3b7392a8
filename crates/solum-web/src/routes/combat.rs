//! The combat tracker: the table's one open combat, run by a game master in the line
//! language of `solum combat`; every member reads where it stands.

use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use solum_app::tables::{self};
use solum_store::Scope;

use crate::{ApiError, AppState, Auth, Body_, Json, NoFields, NoQuery, change, with_campaign};

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CombatStartRequest {
    /// The combat's name (the name rules apply).
    #[schema(max_length = 100, pattern = "@name")]
    name: Option<String>,
    #[serde(default)]
    roll_off: bool,
    /// The table's characters who join, by name.
    #[serde(default)]
    heroes: Vec<String>,
    /// Foes of the bestiary who join, by name and count.
    #[serde(default)]
    foes: Vec<solum_app::combat::FoeCount>,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CombatLineRequest {
    /// One line of the combat language (docs/api.md).
    #[schema(max_length = 500, pattern = "@line")]
    line: String,
}

#[utoipa::path(get, path = "/api/combat", tag = "combat", responses((status = 200, description = "Done", body = solum_app::combat::CombatAnswer)))]
pub(crate) async fn combat_status(
    State(state): State<AppState>,
    auth: Auth,
    _no_query: NoQuery,
) -> Result<Json<solum_app::combat::CombatAnswer>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, |c| c.combat_answer())
        .await
        .map(Json)
}

#[utoipa::path(post, path = "/api/combat", tag = "combat", request_body = CombatStartRequest, responses((status = 201, description = "Created", body = solum_app::combat::CombatStartView)))]
pub(crate) async fn combat_start(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<CombatStartRequest>,
) -> Result<(StatusCode, Json<solum_app::combat::CombatStartView>), ApiError> {
    let scope = tables::scope_of(&auth.member);
    // The game master's (the use case refuses a player, `gm-only`).
    change(&state, scope, move |c| {
        let setup = solum_app::combat::CombatSetup {
            heroes: req.heroes,
            foes: req.foes,
        };
        c.start_combat_with(req.name.as_deref(), req.roll_off, &setup)
    })
    .await
    .map(|v| (StatusCode::CREATED, Json(v)))
}

#[utoipa::path(post, path = "/api/combat/line", tag = "combat", request_body = CombatLineRequest, responses((status = 200, description = "Done", body = solum_app::combat::CombatLineView)))]
pub(crate) async fn combat_line(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<CombatLineRequest>,
) -> Result<Json<solum_app::combat::CombatLineView>, ApiError> {
    let member = auth.member;
    // The combat's row is the table's: a player's line may write it once the use case has
    // checked, in its transaction, that the turn is their own hero's (as a skirmish's).
    let scope = Scope {
        gm: true,
        ..tables::scope_of(&member)
    };
    // The server picks the seed; the use case journals it. A player plays only their own
    // hero's turn (the use case checks it in the line's transaction), and types dice only
    // where the table allows them.
    change(&state, scope, move |c| c.combat_line_as(&member, &req.line))
        .await
        .map(Json)
}

#[utoipa::path(post, path = "/api/combat/end", tag = "combat", responses((status = 200, description = "Done", body = solum_app::combat::CombatEndView)))]
pub(crate) async fn combat_end(
    State(state): State<AppState>,
    auth: Auth,
    _no_fields: NoFields,
) -> Result<Json<solum_app::combat::CombatEndView>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, |c| c.end_combat()).await.map(Json)
}
