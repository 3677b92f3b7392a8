//! Solo tools: the oracle, ideas, notes, scenes, and the bestiary.

use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use solum_app::Leaning;
use solum_app::ideas::IdeaCount;
use solum_app::tables::{self};
use solum_app::{IdeaSource, JournalEntry};
use utoipa::ToSchema;

use crate::{ApiError, AppState, Auth, Body_, Json, NoQuery, change, roll_scope, with_campaign};

/// A yes/no question for the oracle.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct AskRequest {
    /// The question, one line.
    #[schema(max_length = 500, pattern = "@line")]
    question: String,
    /// Whether the odds favour the hero (best of 2d6), are slim (worst of 2d6), or neither.
    #[serde(default)]
    leaning: Leaning,
    /// Game master only: the entry is secret (no byte of it reaches a player).
    #[serde(default)]
    secret: bool,
    /// Faces rolled by hand, in the order the rule draws them; only for a game master
    /// alone at the table.
    #[serde(default)]
    #[schema(schema_with = crate::openapi::typed_faces)]
    typed: Option<Vec<u32>>,
}

#[utoipa::path(post, path = "/api/oracle", tag = "solo", request_body = AskRequest,
    responses((status = 200, description = "The answer with its dice and odds", body = solum_app::OracleView)))]

pub(crate) async fn oracle(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<AskRequest>,
) -> Result<Json<solum_app::OracleView>, ApiError> {
    let member = auth.member;
    let scope = roll_scope(&member, req.secret)?;
    change(&state, scope, move |c| {
        let dice = tables::live_dice(c.store(), &member, req.typed)?;
        c.ask_oracle(&req.question, req.leaning, dice, None)
    })
    .await
    .map(Json)
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct IdeaRequest {
    /// One of the built-in genres (`GET /api/idea/genres`).
    #[schema(schema_with = crate::openapi::genre)]
    genre: String,
    /// How many words.
    #[serde(default = "one")]
    count: IdeaCount,
    /// Faces rolled by hand, one per word, each 1 to the list's size; only where dice may be
    /// typed (a game master alone at the table, or a table that rolls real dice).
    #[serde(default)]
    #[schema(schema_with = crate::openapi::typed_faces)]
    typed: Option<Vec<u32>>,
}

pub(crate) fn one() -> IdeaCount {
    IdeaCount::new(1).expect("one word is a draw")
}

#[utoipa::path(post, path = "/api/idea", tag = "solo", request_body = IdeaRequest, responses((status = 200, description = "Done", body = solum_app::IdeaView)))]
pub(crate) async fn idea(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<IdeaRequest>,
) -> Result<Json<solum_app::IdeaView>, ApiError> {
    let member = auth.member;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        let dice = tables::live_dice(c.store(), &member, req.typed)?;
        c.idea(IdeaSource::Genre(req.genre), req.count, dice)
    })
    .await
    .map(Json)
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NoteRequest {
    /// The note (line breaks kept).
    #[schema(max_length = 10000, pattern = "@prose")]
    text: String,
}

#[utoipa::path(post, path = "/api/notes", tag = "solo", request_body = NoteRequest, responses((status = 201, description = "Created", body = JournalEntry)))]
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

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SceneRequest {
    /// The scene's title (a name: the name rules apply).
    #[schema(max_length = 200, pattern = "@name")]
    title: String,
    /// What the scene is for.
    #[schema(max_length = 1000, pattern = "@prose")]
    goal: Option<String>,
}

#[utoipa::path(post, path = "/api/scenes", tag = "solo", request_body = SceneRequest, responses((status = 201, description = "Created", body = Vec<JournalEntry>)))]
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

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SceneEnd {
    /// How the scene ended.
    #[schema(max_length = 1000, pattern = "@prose")]
    summary: Option<String>,
}

/// `GET /api/scene`: the table's open scene (its start entry: title, goal, who, when).
#[utoipa::path(get, path = "/api/scene", tag = "solo", responses((status = 200, description = "Done", body = solum_app::SceneAnswer)))]
pub(crate) async fn scene_current(
    State(state): State<AppState>,
    auth: Auth,
    _no_query: NoQuery,
) -> Result<Json<solum_app::SceneAnswer>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, |c| c.scene_answer())
        .await
        .map(Json)
}

/// `GET /api/bestiary`: the creatures a combat can name (shipped and the campaign's) and
/// the oppositions of fast static combat.
#[utoipa::path(get, path = "/api/bestiary", tag = "solo", responses((status = 200, description = "Done", body = solum_app::creatures::BestiaryView)))]
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

#[utoipa::path(post, path = "/api/scenes/end", tag = "solo", request_body = SceneEnd, responses((status = 200, description = "Done", body = JournalEntry)))]
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

/// `GET /api/idea/genres`: the built-in genres of idea words, as `POST /api/idea` names them.
/// Needs a session like every table's route (the list itself is the program's, not the
/// table's), so the page's requests stay under one rule.
#[utoipa::path(get, path = "/api/idea/genres", tag = "solo",
    responses((status = 200, description = "The genres of idea words", body = solum_app::ideas::GenresAnswer)))]
pub(crate) async fn genres(
    _auth: Auth,
    _no_query: NoQuery,
) -> Json<solum_app::ideas::GenresAnswer> {
    Json(solum_app::ideas::GenresAnswer::all())
}
