//! Vehicles, chases and the odds of a fight (ruling S10; `solum vehicle`, `solum sim`): each
//! route is one `solum-app` call, its answer the app's view.
//!
//! - `GET /api/vehicles`: the shipped catalogue.
//! - `POST /api/vehicles/attack/odds`, `POST /api/vehicles/chase/odds`: the exact odds
//!   before the roll.
//! - `POST /api/vehicles/attack`, `POST /api/vehicles/chase`: the roll, journaled (secret
//!   for a game master); dice typed by hand (`rolled`, `against_rolled`) where the table
//!   allows them, as every roll's.
//! - `POST /api/fight/odds`: the odds of a fight by simulation, within
//!   [`SimLimits::WEB`] (20,000 fights, and the work a seeded pilot estimates), one at a time
//!   per session beside the heavy rolls and odds.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use solum_app::Dice;
use solum_app::fight_odds::{FightOddsInput, FightOddsView, SimLimits};
use solum_app::tables;
use solum_app::vehicles::{
    JournaledVehicleRoll, VehicleDice, VehicleListView, VehicleOddsView, VehicleRollInput,
    VehicleRollKind,
};

use crate::{ApiError, AppState, Auth, Body_, NoQuery, change, heavy, roll_scope, with_campaign};

/// `GET /api/vehicles`: the shipped catalogue of vehicles.
#[utoipa::path(get, path = "/api/vehicles", tag = "vehicles", responses((status = 200, description = "Done", body = VehicleListView)))]
pub(crate) async fn list(_auth: Auth, _no_query: NoQuery) -> Json<VehicleListView> {
    Json(solum_app::vehicles::vehicles())
}

/// A vehicle roll asked for at the table: the app's input and the request's own `secret`
/// (unknown fields refused, a misspelt `secret` included).
pub(crate) struct RollRequest {
    input: VehicleRollInput,
    secret: bool,
}

impl utoipa::__dev::ComposeSchema for RollRequest {
    fn compose(
        _: Vec<utoipa::openapi::RefOr<utoipa::openapi::Schema>>,
    ) -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        crate::openapi::with_envelope::<VehicleRollInput>(true, false)
    }
}

impl utoipa::ToSchema for RollRequest {
    fn name() -> std::borrow::Cow<'static, str> {
        "VehicleRollRequest".into()
    }

    // The inner part's fields refer to its types by name (a `bounded!` number).
    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        <VehicleRollInput as utoipa::ToSchema>::schemas(schemas);
    }
}

impl<'de> Deserialize<'de> for RollRequest {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (input, env): (_, crate::DiceEnvelope) = crate::split(d, &["secret"])?;
        Ok(Self {
            input,
            secret: env.secret,
        })
    }
}

async fn odds(
    state: AppState,
    auth: Auth,
    kind: VehicleRollKind,
    input: VehicleRollInput,
) -> Result<Json<VehicleOddsView>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, move |c| c.vehicle_odds(kind, &input))
        .await
        .map(Json)
}

async fn roll(
    state: AppState,
    auth: Auth,
    kind: VehicleRollKind,
    req: RollRequest,
) -> Result<Json<JournaledVehicleRoll>, ApiError> {
    let member = auth.member;
    let scope = roll_scope(&member, req.secret)?;
    // A player names only their own characters, on either side; dice typed by hand only
    // where the table allows them (both the use case's).
    change(&state, scope, move |c| {
        c.vehicle_roll_as(&member, kind, &req.input, VehicleDice::Dice(Dice::Fresh))
    })
    .await
    .map(Json)
}

/// `POST /api/vehicles/attack/odds`.
#[utoipa::path(post, path = "/api/vehicles/attack/odds", tag = "vehicles", request_body = VehicleRollInput, responses((status = 200, description = "Done", body = VehicleOddsView)))]
pub(crate) async fn attack_odds(
    State(state): State<AppState>,
    auth: Auth,
    Body_(input): Body_<VehicleRollInput>,
) -> Result<Json<VehicleOddsView>, ApiError> {
    odds(state, auth, VehicleRollKind::Attack, input).await
}

/// `POST /api/vehicles/chase/odds`.
#[utoipa::path(post, path = "/api/vehicles/chase/odds", tag = "vehicles", request_body = VehicleRollInput, responses((status = 200, description = "Done", body = VehicleOddsView)))]
pub(crate) async fn chase_odds(
    State(state): State<AppState>,
    auth: Auth,
    Body_(input): Body_<VehicleRollInput>,
) -> Result<Json<VehicleOddsView>, ApiError> {
    odds(state, auth, VehicleRollKind::Chase, input).await
}

/// `POST /api/vehicles/attack`.
#[utoipa::path(post, path = "/api/vehicles/attack", tag = "vehicles", request_body = RollRequest, responses((status = 200, description = "Done", body = JournaledVehicleRoll)))]
pub(crate) async fn attack(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<RollRequest>,
) -> Result<Json<JournaledVehicleRoll>, ApiError> {
    roll(state, auth, VehicleRollKind::Attack, req).await
}

/// `POST /api/vehicles/chase`.
#[utoipa::path(post, path = "/api/vehicles/chase", tag = "vehicles", request_body = RollRequest, responses((status = 200, description = "Done", body = JournaledVehicleRoll)))]
pub(crate) async fn chase(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<RollRequest>,
) -> Result<Json<JournaledVehicleRoll>, ApiError> {
    roll(state, auth, VehicleRollKind::Chase, req).await
}

/// `POST /api/fight/odds`: a simulation within [`SimLimits::WEB`], one at a time per
/// session (a turn of the heavy work), reading the campaign only.
#[utoipa::path(post, path = "/api/fight/odds", tag = "combat", request_body = FightOddsInput, responses((status = 200, description = "Done", body = FightOddsView)))]
pub(crate) async fn fight_odds(
    State(state): State<AppState>,
    auth: Auth,
    Body_(input): Body_<FightOddsInput>,
) -> Result<Json<FightOddsView>, ApiError> {
    let member = auth.member;
    let turn = match state
        .inner
        .heavy
        .turn(member.table, member.id, state.inner.config.heavy_wait)
        .await
    {
        Ok(turn) => turn,
        Err(heavy::Refused::Busy) => {
            return Err(ApiError::coded(
                StatusCode::TOO_MANY_REQUESTS,
                "heavy-busy",
                "one simulation, roll or odds at a time per session: wait for the last one to finish",
            ));
        }
        Err(heavy::Refused::Full) => {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is busy with other rolls and odds; try again in a moment",
            ));
        }
    };
    let scope = tables::scope_of(&member);
    // The turn is held until the closure is dropped, once the work is done.
    with_campaign(&state, scope, move |c| {
        let _turn = &turn;
        c.fight_odds(&input, SimLimits::WEB)
    })
    .await
    .map(Json)
}
