//! Dice expressions (the notation of `solum odds` and `solum roll`): their exact odds, and
//! a journaled roll.

use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use solum_store::Member;

use crate::{ApiError, AppState, Auth, Body_, Json, change, heavy, roll_scope};
use solum_app::AppError;
use solum_app::expression::{ExpressionOdds, estimated_work, expression_odds};

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct OddsRequest {
    /// A dice expression (docs/notation.md).
    #[schema(max_length = 200, pattern = "@line")]
    expression: String,
}

/// The most values an odds answer lists: past it, the likeliest ones and a summary.
pub use solum_app::expression::MAX_ODDS_VALUES;

/// A turn for heavy work (a roll or the odds of a dice expression) as `heavy.rs` gives them,
/// or none for cheap work (its estimated cost at most [`heavy::CHEAP_WORK`] steps). Given back
/// when dropped, which is when the work ends even if the request was abandoned.
pub(crate) async fn heavy_turn(
    state: &AppState,
    member: &Member,
    expression: &str,
) -> Result<Option<heavy::Turn>, ApiError> {
    // The estimate reads the expression only (its parse and bound are checked before any
    // work); one it refuses fails as fast in the work itself.
    let cheap = estimated_work(expression).is_none_or(|work| work <= heavy::CHEAP_WORK);
    if cheap {
        return Ok(None);
    }
    let heavy = &state.inner.heavy;
    match heavy
        .turn(member.table, member.id, state.inner.config.heavy_wait)
        .await
    {
        Ok(turn) => Ok(Some(turn)),
        Err(heavy::Refused::Busy) => Err(ApiError::coded(
            StatusCode::TOO_MANY_REQUESTS,
            "heavy-busy",
            "one roll or odds at a time per session: wait for the last one to finish",
        )),
        Err(heavy::Refused::Full) => Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is busy with other rolls and odds; nothing was rolled, try again in a moment",
        )),
    }
}

#[utoipa::path(post, path = "/api/odds", tag = "notation", request_body = OddsRequest, responses((status = 200, description = "Done", body = ExpressionOdds)))]
pub(crate) async fn notation_odds(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<OddsRequest>,
) -> Result<Json<ExpressionOdds>, ApiError> {
    let text = req.expression;
    let turn = heavy_turn(&state, &auth.member, &text).await?;
    // The notation checks its limits before any work; the work runs off the async threads.
    let mut odds = tokio::task::spawn_blocking(move || {
        let _turn = turn;
        expression_odds(&[&text], MAX_ODDS_VALUES)
    })
    .await
    .map_err(|_| ApiError::internal())?
    .map_err(AppError::from)?;
    odds.pop().map(Json).ok_or_else(ApiError::internal)
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RollRequest {
    /// A dice expression (docs/notation.md).
    #[schema(max_length = 200, pattern = "@line")]
    expression: String,
    /// Game master only: the entry is secret.
    #[serde(default)]
    secret: bool,
    #[serde(default)]
    #[schema(schema_with = crate::openapi::typed_faces)]
    typed: Option<Vec<u32>>,
}

/// `POST /api/roll`: rolls a dice expression with the server's seed (or a solo game
/// master's typed faces), journaled like every roll; secret for a game master.
#[utoipa::path(post, path = "/api/roll", tag = "notation", request_body = RollRequest, responses((status = 200, description = "Done", body = solum_app::notation::NotationView)))]
pub(crate) async fn notation_roll(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<RollRequest>,
) -> Result<Json<solum_app::notation::NotationView>, ApiError> {
    let member = auth.member;
    let scope = roll_scope(&member, req.secret)?;
    let turn = heavy_turn(&state, &member, &req.expression).await?;
    change(&state, scope, move |c| {
        let _turn = turn;
        let dice = solum_app::tables::live_dice(c.store(), &member, req.typed)?;
        c.roll_notation(&req.expression, dice)
    })
    .await
    .map(Json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use std::time::Duration;

    fn member(table: i64, id: i64) -> Member {
        Member {
            id,
            table,
            table_name: "T".into(),
            name: "M".into(),
            gm: true,
        }
    }

    #[tokio::test]
    async fn heavy_work_is_one_at_a_time_per_session_and_cheap_work_takes_no_turn() {
        let dir = tempfile::tempdir().unwrap();
        let mut config = Config::new(dir.path().join("campaign.solum"));
        config.heavy_at_once = 1;
        config.heavy_wait = Duration::from_millis(20);
        let state = AppState::new(config);
        let dear = "450d20";
        let first = heavy_turn(&state, &member(1, 1), dear).await.unwrap();
        assert!(first.is_some(), "450d20 is heavy");
        // The same session again: refused at once, whatever turns are free.
        let again = heavy_turn(&state, &member(1, 1), dear).await.err().unwrap();
        assert_eq!(again.status, StatusCode::TOO_MANY_REQUESTS);
        // Another table: no turn free within the wait.
        let other = heavy_turn(&state, &member(2, 2), dear).await.err().unwrap();
        assert_eq!(other.status, StatusCode::SERVICE_UNAVAILABLE);
        // A 1d6 needs no turn, whoever holds them.
        assert!(
            heavy_turn(&state, &member(2, 2), "1d6")
                .await
                .unwrap()
                .is_none()
        );
        // The refused session left no mark: once the turn is back, both go on.
        drop(first);
        let second = heavy_turn(&state, &member(2, 2), dear).await.unwrap();
        drop(second);
        assert!(heavy_turn(&state, &member(1, 1), dear).await.is_ok());
    }
}
