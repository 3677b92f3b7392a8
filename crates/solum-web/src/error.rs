//! Errors: an [`ApiError`] is a status and a JSON body `{"error": …, "code": …, "field": …}`;
//! an [`AppError`] becomes one by its kind (the status) and its code and field.

use std::time::Duration;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use solum_app::{AppError, ErrorKind};

use crate::Json;

/// An error answer: a status and a message meant for the player, never internals, with a
/// stable code (docs/api.md lists every one) and the request's field at fault where known.
#[derive(Debug)]
pub struct ApiError {
    pub(crate) status: StatusCode,
    pub(crate) message: String,
    /// A stable code for a client to act on (`session-held`, `body-invalid`, …).
    pub(crate) code: &'static str,
    /// The field (or query parameter) of the request at fault, where known.
    pub(crate) field: Option<String>,
    /// Seconds a refused client should wait (`Retry-After` of a 429; 1 unless said).
    pub(crate) retry_after: Option<u64>,
}

/// The JSON body of every error answer: `{"error": message, "code": code, "field": …}`.
#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct ErrorBody<'a> {
    /// What went wrong, for the player.
    error: &'a str,
    /// A stable code for a client to act on (docs/api.md lists every one).
    code: &'static str,
    /// The request's field or parameter at fault, where known.
    #[serde(skip_serializing_if = "Option::is_none")]
    field: Option<&'a str>,
}

/// The code of an error whose maker gave none: one per status, for the framework's own
/// refusals and the server's limits.
pub(crate) fn status_code(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "bad-request",
        401 => "session-needed",
        403 => "forbidden",
        404 => "not-found",
        405 => "method-not-allowed",
        408 => "body-timeout",
        409 => "conflict",
        413 => "body-too-large",
        415 => "body-content-type",
        421 => "unknown-host",
        422 => "invalid-request",
        429 => "rate-limited",
        503 => "server-busy",
        _ if status.is_server_error() => "internal",
        _ => "refused",
    }
}

impl ApiError {
    /// An error with the code of its status ([`status_code`]).
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Self::coded(status, status_code(status), message)
    }

    /// An error with its own stable code.
    pub(crate) fn coded(
        status: StatusCode,
        code: &'static str,
        message: impl Into<String>,
    ) -> Self {
        Self {
            status,
            message: message.into(),
            code,
            field: None,
            retry_after: None,
        }
    }

    /// The same error, naming the request's field at fault.
    pub(crate) fn field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    pub(crate) fn retry_after(mut self, wait: Duration) -> Self {
        self.retry_after = Some(wait.as_secs_f64().ceil().max(1.0) as u64);
        self
    }

    pub(crate) fn internal() -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, "internal error")
    }
}

/// The HTTP status of an application error's kind: the web's own mapping (the app knows no
/// statuses).
pub(crate) fn status_of(kind: ErrorKind) -> StatusCode {
    match kind {
        ErrorKind::BadInput => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorKind::Forbidden => StatusCode::FORBIDDEN,
        ErrorKind::Conflict => StatusCode::CONFLICT,
        ErrorKind::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        ErrorKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl From<AppError> for ApiError {
    fn from(e: AppError) -> Self {
        let kind = e.kind();
        let status = status_of(kind);
        // A store error's text names the file; only the kind goes out, or the store's own
        // words about the request (a duplicate name, a forbidden change).
        let message = match (&e, kind) {
            // Said without the database's address: the player needs to know not to resend.
            (AppError::Store(solum_store::StoreError::CommitUnknown { .. }), _) => {
                tracing::error!("request failed: {e}");
                "the connection to the database was lost while the change was being committed: \
                 it may or may not have been kept; look at the journal before sending it again"
                    .to_string()
            }
            (AppError::Store(solum_store::StoreError::Unreachable { .. }), _) => {
                "the database cannot be reached right now; nothing was changed, try again"
                    .to_string()
            }
            (_, ErrorKind::Internal) | (AppError::UnreadableEntry { .. }, _) => {
                tracing::error!("request failed: {e}");
                "internal error".to_string()
            }
            (AppError::Store(s), _) => match s {
                s if s.is_refusal() => s.to_string(),
                _ if kind == ErrorKind::Unavailable => {
                    "the campaign is busy or full; nothing was changed, try again".to_string()
                }
                _ => {
                    tracing::error!("request failed: {e}");
                    "the campaign cannot be used".to_string()
                }
            },
            _ => e.to_string(),
        };
        Self {
            field: e.field(),
            ..Self::coded(status, e.code(), message)
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut resp = (
            self.status,
            Json(ErrorBody {
                error: &self.message,
                code: self.code,
                field: self.field.as_deref(),
            }),
        )
            .into_response();
        if self.status == StatusCode::TOO_MANY_REQUESTS {
            resp.headers_mut().insert(
                header::RETRY_AFTER,
                HeaderValue::from(self.retry_after.unwrap_or(1)),
            );
        }
        resp
    }
}
