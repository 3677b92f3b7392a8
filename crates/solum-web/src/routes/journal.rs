//! The journal: reads, export, verification and reveals.

use std::time::Duration;

use axum::body::Body;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use solum_app::journal_query::{ExportFormat, JournalPage, JournalSearch, PageLimit};
use solum_app::tables::{self};
use solum_app::{AppError, JournalEntry};

use crate::{
    ApiError, AppState, Auth, Json, NoFields, NoQuery, Query_, change, in_campaign, to_json,
    with_campaign,
};

/// `POST /api/journal/{seq}/reveal`: the game master shows the table a secret entry; what
/// it does to a sheet is applied now (see [`Campaign::reveal`]).
#[utoipa::path(post, path = "/api/journal/{seq}/reveal", tag = "journal", params(("seq" = i64, Path, description = "The entry's number in the table's journal")), responses((status = 201, description = "Created", body = JournalEntry)))]
pub(crate) async fn reveal(
    State(state): State<AppState>,
    auth: Auth,
    crate::extract::PathParam(seq): crate::extract::PathParam<i64>,
    _no_fields: NoFields,
) -> Result<(StatusCode, Json<JournalEntry>), ApiError> {
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, move |c| c.reveal(seq))
        .await
        .map(|e| (StatusCode::CREATED, Json(e.for_display())))
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub(crate) struct JournalQuery {
    /// Entries after this sequence number, oldest first.
    after: Option<i64>,
    /// Text to search for (case-insensitive, in every field of an entry), at most 200
    /// characters.
    #[param(value_type = Option<String>, max_length = 200)]
    q: Option<JournalSearch>,
    /// At most this many: [`PAGE`] unless said, never more than [`MAX_PAGE`]. Without
    /// `after`, the latest ones.
    #[param(value_type = Option<u16>, minimum = 1, maximum = 500)]
    limit: Option<PageLimit>,
}

/// The most entries one journal read returns.
pub use solum_app::journal_query::MAX_PAGE;
/// The entries one journal read returns unless `limit` says otherwise.
pub use solum_app::journal_query::PAGE;

#[utoipa::path(get, path = "/api/journal", tag = "journal", params(JournalQuery), responses((status = 200, description = "Done", body = JournalPage)))]
pub(crate) async fn journal(
    State(state): State<AppState>,
    auth: Auth,
    Query_(query): Query_<JournalQuery>,
) -> Result<Response, ApiError> {
    let limit = query.limit.unwrap_or_default().entries();
    let scope = tables::scope_of(&auth.member);
    if query.q.is_none() {
        // Every entry kept: the page is its numbers and the entries this server rendered
        // (see `rendered`), with only those it lacks read.
        let rendered = state.hub().rendered().clone();
        let table = auth.member.table;
        return with_campaign(&state, scope, move |c| {
            let mut found = std::collections::HashMap::new();
            let (page, next) = c.journal_page_known(query.after, limit, |seq| {
                rendered
                    .get(table, seq)
                    .map(|json| found.insert(seq, json))
                    .is_some()
            })?;
            let mut entries = Vec::with_capacity(page.len());
            for (seq, read) in page {
                let json = match read {
                    Some(entry) => {
                        let json = crate::rendered::render(entry)?;
                        rendered.keep(table, seq, json.clone());
                        json
                    }
                    None => found.remove(&seq).ok_or_else(|| AppError::Internal {
                        what: "a journal page",
                        reason: format!("entry {seq} was found rendered, then not"),
                    })?,
                };
                entries.push(json);
            }
            Ok(crate::rendered::page_json(&entries, next))
        })
        .await
        .map(|json| crate::json::Written(json).into_response());
    }
    with_campaign(&state, scope, move |c| {
        let (entries, next) = c.journal_page(query.after, limit, |record| {
            query.q.as_ref().is_none_or(|q| q.matches(record))
        })?;
        Ok(JournalPage::shown(entries, next))
    })
    .await
    .map(|page| Json(page).into_response())
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExportQuery {
    /// `json` (none: JSON) or `markdown`.
    // Inline: a query's parameters name no schema the description would collect.
    #[param(inline)]
    format: Option<ExportFormat>,
}

#[utoipa::path(get, path = "/api/journal/export", tag = "journal", params(ExportQuery), responses((status = 200, description = "Done")))]
pub(crate) async fn export(
    State(state): State<AppState>,
    auth: Auth,
    Query_(query): Query_<ExportQuery>,
) -> Result<Response, ApiError> {
    let scope = tables::scope_of(&auth.member);
    let title = auth.member.table_name.clone();
    let markdown = query.format.unwrap_or_default() == ExportFormat::Markdown;
    // Written a page of entries at a time into a small channel: the whole journal is never
    // in memory, and a client that stops reading stops the writer (after a while).
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Vec<u8>, std::io::Error>>(4);
    let db = state.database();
    let by = state.inner.names.by(scope);
    let handle = tokio::runtime::Handle::current();
    // The first page is read before answering, so that an unreadable campaign is an error
    // answer rather than a cut stream.
    let first = with_campaign(&state, scope, |c| {
        c.journal_page(Some(0), EXPORT_PAGE, |_| true)
    })
    .await?;
    tokio::task::spawn_blocking(move || {
        let send = |chunk: Result<Vec<u8>, std::io::Error>| {
            handle
                .block_on(tx.send_timeout(chunk, Duration::from_secs(30)))
                .is_ok()
        };
        let out = in_campaign(&db, scope, by, |c| {
            let mut page = first;
            let mut buf = if markdown {
                solum_app::markdown::header(&title).into_bytes()
            } else {
                let head = to_json(&solum_app::JournalExport::empty()).unwrap_or_default();
                // `{…,"entries":[]}` without its closing `]}`.
                head[..head.len().saturating_sub(2)].to_vec()
            };
            let mut first_entry = true;
            loop {
                let (entries, next) = page;
                for entry in &entries {
                    if markdown {
                        buf.extend_from_slice(solum_app::markdown::render_entry(entry).as_bytes());
                    } else {
                        if !first_entry {
                            buf.push(b',');
                        }
                        first_entry = false;
                        buf.extend_from_slice(&to_json(entry).map_err(|_| {
                            AppError::UnreadableEntry {
                                seq: entry.seq,
                                reason: "it cannot be written".into(),
                            }
                        })?);
                    }
                }
                if !send(Ok(std::mem::take(&mut buf))) {
                    return Ok(());
                }
                match next {
                    Some(after) => page = c.journal_page(Some(after), EXPORT_PAGE, |_| true)?,
                    None => break,
                }
            }
            if !markdown {
                send(Ok(b"]}".to_vec()));
            }
            Ok(())
        });
        if let Err(e) = out {
            tracing::error!("export failed: {e}");
            send(Err(std::io::Error::other(
                "the export could not be finished",
            )));
        }
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|chunk| (chunk, rx))
    });
    let content_type = if markdown {
        "text/markdown; charset=utf-8"
    } else {
        "application/json"
    };
    Ok((
        [(header::CONTENT_TYPE, content_type)],
        Body::from_stream(stream),
    )
        .into_response())
}

/// Entries an export reads and writes at a time.
pub(crate) const EXPORT_PAGE: usize = 100;

#[utoipa::path(get, path = "/api/journal/verify", tag = "journal", responses((status = 200, description = "Done", body = solum_app::VerifyReport)))]
pub(crate) async fn verify(
    State(state): State<AppState>,
    auth: Auth,
    _no_query: NoQuery,
) -> Result<Json<solum_app::VerifyReport>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, |c| c.verify()).await.map(Json)
}
