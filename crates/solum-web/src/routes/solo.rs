//! Solo tools: the oracle, ideas, notes, scenes, and the bestiary.

use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use solum_app::Leaning;
use solum_app::tables::{self};
use solum_app::{Dice, IdeaSource, JournalEntry};

use crate::{
    ApiError, AppState, Auth, Body_, Json, NoQuery, change, dice_for, roll_scope, with_campaign,
};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AskRequest {
    question: String,
    #[serde(default)]
    leaning: Leaning,
    #[serde(default)]
    secret: bool,
    #[serde(default)]
    typed: Option<Vec<u32>>,
}

pub(crate) async fn oracle(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<AskRequest>,
) -> Result<Json<solum_app::OracleView>, ApiError> {
    let member = auth.member;
    let scope = roll_scope(&member, req.secret)?;
    change(&state, scope, move |c| {
        let dice = dice_for(c, &member, req.typed)?;
        c.ask_oracle(&req.question, req.leaning, dice, None)
    })
    .await
    .map(Json)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct IdeaRequest {
    genre: String,
    #[serde(default = "one")]
    count: u32,
}

pub(crate) fn one() -> u32 {
    1
}

pub(crate) async fn idea(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<IdeaRequest>,
) -> Result<Json<solum_app::IdeaView>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, move |c| {
        c.idea(IdeaSource::Genre(req.genre), req.count, Dice::Fresh)
    })
    .await
    .map(Json)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NoteRequest {
    text: String,
}

pub(crate) async fn note(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<NoteRequest>,
) -> Result<(StatusCode, Json<JournalEntry>), ApiError> {
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, move |c| c.note(&req.text))
        .await
        .map(|e| (StatusCode::CREATED, Json(e)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SceneRequest {
    title: String,
    goal: Option<String>,
}

pub(crate) async fn scene_start(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<SceneRequest>,
) -> Result<(StatusCode, Json<Vec<JournalEntry>>), ApiError> {
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, move |c| {
        c.start_scene(&req.title, req.goal.as_deref())
    })
    .await
    .map(|e| (StatusCode::CREATED, Json(e)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SceneEnd {
    summary: Option<String>,
}

/// The open scene, for every member: `{"scene": null}` or the entry that started it.
#[derive(Serialize)]
pub(crate) struct SceneAnswer {
    scene: Option<JournalEntry>,
}

/// `GET /api/scene`: the table's open scene (its start entry: title, goal, who, when).
pub(crate) async fn scene_current(
    State(state): State<AppState>,
    auth: Auth,
    _no_query: NoQuery,
) -> Result<Json<SceneAnswer>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, |c| c.open_scene())
        .await
        .map(|scene| Json(SceneAnswer { scene }))
}

/// `GET /api/bestiary`: the creatures a combat can name (shipped and the campaign's) and
/// the oppositions of fast static combat.
pub(crate) async fn bestiary(
    State(state): State<AppState>,
    auth: Auth,
    _no_query: NoQuery,
) -> Result<Json<solum_app::creatures::BestiaryView>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, |c| c.bestiary())
        .await
        .map(Json)
}

pub(crate) async fn scene_end(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<SceneEnd>,
) -> Result<Json<JournalEntry>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, move |c| c.end_scene(req.summary.as_deref()))
        .await
        .map(Json)
}
