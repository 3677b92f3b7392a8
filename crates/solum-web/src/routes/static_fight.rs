//! Fast static combat (S11) from a character of the table: `solum static --char NAME`.

use axum::extract::State;
use serde::{Deserialize, Serialize};
use solum_app::tables::{self};

use crate::{ApiError, AppState, Auth, Body_, Json, NoFields, NoQuery, change, with_campaign};

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct StaticFightRequest {
    /// A static opposition of the shipped bestiary, to start a fight.
    foe: Option<String>,
    /// Or the opposition's numbers, to start a fight.
    opposition: Option<solum_app::fast_static::Opposition>,
    /// The sheet's weapon to fight with (when it starts).
    weapon: Option<String>,
    /// A background of the sheet named for this call's rounds (S18).
    background: Option<String>,
    /// Dice rolled by hand (a game master alone at the table).
    typed: Option<Vec<u32>>,
}

/// `{"fight": null}` when the character is in no fast static combat.
#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct StaticStatus {
    fight: Option<solum_app::fast_static::StaticView>,
}

#[utoipa::path(get, path = "/api/characters/{name}/static", tag = "static_fight", params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = StaticStatus)))]
pub(crate) async fn static_status(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    _no_query: NoQuery,
) -> Result<Json<StaticStatus>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, move |c| {
        Ok(StaticStatus {
            fight: c.static_status(&name)?,
        })
    })
    .await
    .map(Json)
}

#[utoipa::path(post, path = "/api/characters/{name}/static", tag = "static_fight", request_body = StaticFightRequest, params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::fast_static::StaticView)))]
pub(crate) async fn static_fight(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    Body_(req): Body_<StaticFightRequest>,
) -> Result<Json<solum_app::fast_static::StaticView>, ApiError> {
    let member = auth.member;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        c.as_roller_of(&member, solum_app::characters::SYSTEM, &name, |c| {
            let start = match (&req.foe, &req.opposition) {
                (Some(_), Some(_)) => {
                    return Err(solum_app::CombatRefusal::Opposition
                        .at("foe", "give `foe` or `opposition`, not both"));
                }
                (Some(f), None) => Some(solum_app::fast_static::Opposition::shipped(f)?),
                (None, o) => o.clone(),
            };
            let dice = tables::live_dice(c.store(), &member, req.typed.clone())?;
            let request = solum_app::fast_static::StaticRequest {
                hero: name.clone(),
                start,
                weapon: req.weapon.clone(),
                background: req.background.clone(),
            };
            c.static_fight(&request, dice)
        })
    })
    .await
    .map(Json)
}

#[utoipa::path(post, path = "/api/characters/{name}/static/abandon", tag = "static_fight", params(("name" = String, Path, description = "The character's name")), responses((status = 200, description = "Done", body = solum_app::fast_static::StaticView)))]
pub(crate) async fn static_abandon(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(name): crate::extract::PathParam<String>,
    _no_fields: NoFields,
) -> Result<Json<solum_app::fast_static::StaticView>, ApiError> {
    let member = auth.member;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        c.as_roller_of(&member, solum_app::characters::SYSTEM, &name, |c| {
            c.abandon_static(&name)
        })
    })
    .await
    .map(Json)
}
