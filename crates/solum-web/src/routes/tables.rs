//! Tables, joins, sessions, re-entry links and invites.

use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use solum_app::AppError;
use solum_app::tables::{self, Joined};
use solum_store::{Scope, Store};
use solum_store_open::Database;

use crate::extract::bearer;
use crate::{
    ApiError, AppState, Auth, Body_, Json, NoFields, NoQuery, Peer, anonymous_limit, blocking,
    with_campaign, write,
};

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewTable {
    /// The table's name.
    #[schema(max_length = 60, pattern = "@name")]
    table: String,
    /// The game master's name at it.
    #[schema(max_length = 60, pattern = "@name")]
    name: String,
}

#[utoipa::path(post, path = "/api/tables", tag = "tables", security(()), request_body = NewTable, responses((status = 201, description = "Created", body = Joined)))]
pub(crate) async fn create_table(
    State(state): State<AppState>,
    peer: Peer,
    Body_(req): Body_<NewTable>,
) -> Result<(StatusCode, Json<Joined>), ApiError> {
    anonymous_limit(&state, &peer)?;
    // Tables made per address: each table has a write budget of its own, so many tables
    // would multiply one client's.
    if let Some(ip) = peer.0 {
        state
            .inner
            .table_creates
            .take(&format!("peer {ip}"))
            .map_err(|wait| {
                ApiError::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    "this address has created as many tables as it may for now; nothing was created, try again later",
                )
                .retry_after(wait)
            })?;
    }
    let db = state.database();
    let joined = write(&state, move || {
        let mut store = solum_store_open::open(&db, Scope::HOME)?;
        tables::create_table(&mut store, &req.table, &req.name)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(joined)))
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct JoinRequest {
    /// The invite's token (longer than any invite: 422 `body-invalid`, before it is
    /// looked up).
    #[schema(value_type = String, max_length = 200)]
    invite: tables::InviteToken,
    /// The new member's name.
    #[schema(max_length = 60, pattern = "@name")]
    name: String,
    /// The request holds a session (a bearer token) and means to give it up for this
    /// table: without it, such a join is refused with 409 `session-held`.
    #[serde(default)]
    replace: bool,
}

/// `POST /api/join`: uses an invite. A request that holds a live session (its bearer
/// token) is refused with 409 and the code `session-held` unless it says `"replace": true`:
/// the page asks the member before switching tables.
#[utoipa::path(post, path = "/api/join", tag = "tables", security(()), request_body = JoinRequest, responses((status = 201, description = "Created", body = Joined), (status = 409, description = "The request holds a session and did not say `replace` (`session-held`)", body = crate::error::ErrorBody)))]
pub(crate) async fn join(
    State(state): State<AppState>,
    peer: Peer,
    headers: HeaderMap,
    Body_(req): Body_<JoinRequest>,
) -> Result<(StatusCode, Json<Joined>), ApiError> {
    anonymous_limit(&state, &peer)?;
    let db = state.database();
    let current = bearer(&headers);
    let joined = write(&state, move || {
        let mut store = solum_store_open::open(&db, Scope::HOME)?;
        tables::join(
            &mut store,
            req.invite.as_str(),
            &req.name,
            current.as_deref(),
            req.replace,
        )
    })
    .await?;
    state.hub().notify(joined.table);
    Ok((StatusCode::CREATED, Json(joined)))
}

#[utoipa::path(get, path = "/api/me", tag = "tables", responses((status = 200, description = "Done", body = tables::Me)))]
pub(crate) async fn me(
    State(state): State<AppState>,
    auth: Auth,
    _no_query: NoQuery,
) -> Result<Json<tables::Me>, ApiError> {
    let member = auth.member;
    with_campaign(&state, tables::scope_of(&member), move |c| {
        tables::me(c.store(), &member)
    })
    .await
    .map(Json)
}

/// Whether the table rolls real dice.
#[derive(Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RealDiceSetting {
    on: bool,
}

#[utoipa::path(put, path = "/api/settings/real-dice", tag = "tables", request_body = RealDiceSetting, responses((status = 200, description = "Done", body = RealDiceSetting)))]
pub(crate) async fn set_real_dice(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<RealDiceSetting>,
) -> Result<Json<RealDiceSetting>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    // The members' pages read it with `/api/me` (when their stream opens, and every minute).
    crate::change(&state, scope, move |c| {
        c.set_real_dice(req.on)?;
        c.real_dice()
    })
    .await
    .map(|on| Json(RealDiceSetting { on }))
}

/// `POST /api/logout`: the session's row is deleted (its token opens nothing any more) and
/// the browser is told to forget what the page stored (the token lives in its storage; the
/// server sets no cookie).
#[utoipa::path(post, path = "/api/logout", tag = "tables", responses((status = 204, description = "Done")))]
pub(crate) async fn logout(
    State(state): State<AppState>,
    headers: HeaderMap,
    _auth: Auth,
    _no_fields: NoFields,
) -> Result<Response, ApiError> {
    let token = bearer(&headers).ok_or_else(|| {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "sign in: join a table or create one",
        )
    })?;
    let db = state.database();
    let hash = tables::token_hash(&token);
    blocking(move || {
        let mut store = solum_store_open::open(&db, Scope::HOME)?;
        tables::logout(&mut store, &token)
    })
    .await?;
    // Deleted: no request of this server trusts it any more, and its live streams end now
    // (other servers hear of it through the change feed).
    state.hub().sessions().forget(&hash);
    state.hub().end_session(&hash);
    let mut resp = StatusCode::NO_CONTENT.into_response();
    resp.headers_mut().insert(
        "clear-site-data",
        HeaderValue::from_static("\"cookies\", \"storage\""),
    );
    Ok(resp)
}

/// The campaign as the game master of `table` sees it: where a table's re-entry links are
/// kept (the use cases check who may make or use one).
pub(crate) fn table_store(db: &Database, table: i64) -> Result<Box<dyn Store>, AppError> {
    Ok(solum_store_open::open(
        db,
        Scope {
            table,
            member: None,
            gm: true,
            secret_writes: false,
        },
    )?)
}

/// `POST /api/me/reentry`: a personal re-entry link, shown once.
#[utoipa::path(post, path = "/api/me/reentry", tag = "tables", responses((status = 201, description = "Created", body = tables::Reentry)))]
pub(crate) async fn my_reentry(
    State(state): State<AppState>,
    auth: Auth,
    _no_fields: NoFields,
) -> Result<(StatusCode, Json<tables::Reentry>), ApiError> {
    let member = auth.member;
    let db = state.database();
    let made = write(&state, move || {
        let mut store = table_store(&db, member.table)?;
        tables::reentry(&mut store, &member, member.id)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(made)))
}

/// `POST /api/members/{id}/reentry`: the game master re-invites a member of the table (a
/// re-entry link for them, shown once).
#[utoipa::path(post, path = "/api/members/{id}/reentry", tag = "tables", params(("id" = i64, Path, description = "The number of the invite or member")), responses((status = 201, description = "Created", body = tables::Reentry)))]
pub(crate) async fn member_reentry(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(id): crate::extract::PathParam<i64>,
    _no_fields: NoFields,
) -> Result<(StatusCode, Json<tables::Reentry>), ApiError> {
    let member = auth.member;
    let db = state.database();
    let made = write(&state, move || {
        let mut store = table_store(&db, member.table)?;
        tables::reinvite(&mut store, &member, id)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(made)))
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReentryRequest {
    /// The re-entry link's token (longer than any link: 422 `body-invalid`, before it is
    /// looked up).
    #[schema(value_type = String, max_length = 200)]
    token: tables::ReentryToken,
    /// As for a join: give up the session the request holds.
    #[serde(default)]
    replace: bool,
}

/// `POST /api/reentry`: uses a re-entry link; a new session for its member.
#[utoipa::path(post, path = "/api/reentry", tag = "tables", security(()), request_body = ReentryRequest, responses((status = 201, description = "Created", body = Joined), (status = 409, description = "The request holds a session and did not say `replace` (`session-held`)", body = crate::error::ErrorBody)))]
pub(crate) async fn use_reentry(
    State(state): State<AppState>,
    peer: Peer,
    headers: HeaderMap,
    Body_(req): Body_<ReentryRequest>,
) -> Result<(StatusCode, Json<Joined>), ApiError> {
    anonymous_limit(&state, &peer)?;
    let Some(table) = tables::reentry_table(req.token.as_str()) else {
        return Err(AppError::from(tables::ReentryRefusal::Unknown).into());
    };
    let db = state.database();
    let current = bearer(&headers);
    let joined = write(&state, move || {
        let mut store = table_store(&db, table)?;
        tables::redeem_reentry(
            &mut store,
            req.token.as_str(),
            current.as_deref(),
            req.replace,
        )
    })
    .await?;
    Ok((StatusCode::CREATED, Json(joined)))
}

#[derive(Deserialize, Default, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct InviteRequest {
    /// `player` (none: a player) or `gm`.
    #[serde(default)]
    role: Option<tables::InviteRole>,
}

#[utoipa::path(post, path = "/api/invites", tag = "tables", request_body = InviteRequest, responses((status = 201, description = "Created", body = tables::Invite)))]
pub(crate) async fn invite(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<InviteRequest>,
) -> Result<(StatusCode, Json<tables::Invite>), ApiError> {
    let gm = req.role.unwrap_or_default().is_gm();
    let member = auth.member;
    let db = state.database();
    let invite = write(&state, move || {
        let mut store = solum_store_open::open(&db, Scope::HOME)?;
        tables::invite(&mut store, &member, gm)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(invite)))
}

/// `GET /api/invites`: the table's invites with their state (game master only).
#[utoipa::path(get, path = "/api/invites", tag = "tables", responses((status = 200, description = "Done", body = Vec<tables::InviteView>)))]
pub(crate) async fn invites(
    State(state): State<AppState>,
    auth: Auth,
    _no_query: NoQuery,
) -> Result<Json<Vec<tables::InviteView>>, ApiError> {
    let member = auth.member;
    let db = state.database();
    blocking(move || {
        let store = solum_store_open::open(&db, Scope::HOME)?;
        tables::invites(&store, &member)
    })
    .await
    .map(Json)
}

/// `DELETE /api/invites/{id}`: revokes an unused invite of the table (game master only).
#[utoipa::path(delete, path = "/api/invites/{id}", tag = "tables", params(("id" = i64, Path, description = "The number of the invite or member")), responses((status = 204, description = "Done")))]
pub(crate) async fn revoke_invite(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(id): crate::extract::PathParam<i64>,
) -> Result<StatusCode, ApiError> {
    let member = auth.member;
    let db = state.database();
    write(&state, move || {
        let mut store = solum_store_open::open(&db, Scope::HOME)?;
        tables::revoke_invite(&mut store, &member, id)
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}
