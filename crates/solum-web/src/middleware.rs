//! What every request goes through before and after its handler: the host and origin
//! guard and the security headers, errors made JSON, the body read within its deadline, the
//! peer address, and the rate limits (requests per session, writes per table, session and
//! address).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use solum_store::Scope;

use crate::{ApiError, AppState, NOTE_BODY_LIMIT, Peer};

// ---------------------------------------------------------------------------------------
// Security: hosts, origins, headers.

/// The Content-Security-Policy of every response: scripts, styles and connections only from
/// the page's own origin, no inline script, no frames either way, no plugins.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
connect-src 'self'; form-action 'self'; base-uri 'none'; frame-src 'none'; frame-ancestors 'none'; object-src 'none'";

pub(crate) async fn guard(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(str::to_owned);
    if let Some(allowed) = &state.inner.config.allowed_hosts
        && !host.as_ref().is_some_and(|h| allowed.contains(h))
    {
        return secured(
            ApiError::new(StatusCode::MISDIRECTED_REQUEST, "unknown host").into_response(),
        );
    }
    let changes = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS)
        || req.headers().contains_key(header::UPGRADE);
    if changes {
        let origin = req
            .headers()
            .get(header::ORIGIN)
            .and_then(|o| o.to_str().ok());
        // Behind a proxy the page's origin is the public one (often https); directly, it
        // is this server's own address.
        let public = state.inner.config.public_origin.as_ref();
        let own = host.as_ref().map(|h| format!("http://{h}"));
        let from_public = public.is_some_and(|p| origin == Some(p.origin()));
        if !from_public && (origin.is_none() || origin != own.as_deref()) {
            return secured(
                ApiError::coded(
                    StatusCode::FORBIDDEN,
                    "cross-origin",
                    "cross-origin request refused: changes come only from the table's own page",
                )
                .into_response(),
            );
        }
    }
    secured(next.run(req).await)
}

pub(crate) fn secured(mut resp: Response) -> Response {
    let h = resp.headers_mut();
    let set = |h: &mut HeaderMap, name: &'static str, value: &'static str| {
        h.insert(name, HeaderValue::from_static(value));
    };
    set(h, "content-security-policy", CSP);
    set(h, "x-content-type-options", "nosniff");
    set(h, "x-frame-options", "DENY");
    set(h, "referrer-policy", "no-referrer");
    set(h, "cross-origin-opener-policy", "same-origin");
    set(h, "cross-origin-resource-policy", "same-origin");
    set(
        h,
        "permissions-policy",
        "camera=(), microphone=(), geolocation=()",
    );
    if !h.contains_key(header::CACHE_CONTROL) {
        set(h, "cache-control", "no-store");
    }
    resp
}

/// Every error of the API answers `{"error": …}`: a rejection of the framework (a path it
/// cannot read, an empty 404 or 405) that is not JSON already gets its text, or its
/// status's reason, wrapped.
pub(crate) async fn json_errors(req: Request, next: Next) -> Response {
    let resp = next.run(req).await;
    let status = resp.status();
    let json = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || json {
        return resp;
    }
    let (parts, body) = resp.into_parts();
    let text = axum::body::to_bytes(body, 4096)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let message = if text.is_empty() {
        status
            .canonical_reason()
            .unwrap_or("request refused")
            .to_lowercase()
    } else {
        text
    };
    let mut out = ApiError::new(status, message).into_response();
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            out.headers_mut().insert(name.clone(), value.clone());
        }
    }
    out
}

/// A request's body is read whole (it is small: [`NOTE_BODY_LIMIT`] at most) within
/// [`Config::body_read_timeout`], before any handler sees it: a client that trickles its
/// body gets 408 instead of holding a request open.
pub(crate) async fn body_deadline(
    State(state): State<AppState>,
    req: Request,
    next: Next,
) -> Response {
    if matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        return next.run(req).await;
    }
    let (parts, body) = req.into_parts();
    let read = axum::body::to_bytes(body, NOTE_BODY_LIMIT);
    let bytes = match tokio::time::timeout(state.inner.config.body_read_timeout, read).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(e)) => {
            let too_large =
                std::iter::successors(Some(&e as &(dyn std::error::Error + 'static)), |e| {
                    e.source()
                })
                .any(|e| e.is::<http_body_util::LengthLimitError>());
            return if too_large {
                ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "the request body is too large",
                )
            } else {
                ApiError::coded(
                    StatusCode::BAD_REQUEST,
                    "body-unreadable",
                    "the request body could not be read",
                )
            }
            .into_response();
        }
        Err(_) => {
            return ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                "the request body did not arrive in time",
            )
            .into_response();
        }
    };
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

/// Token buckets, one per session.
pub(crate) struct Limiter {
    burst: f64,
    per_sec: f64,
    buckets: Mutex<HashMap<String, (f64, Instant)>>,
}

impl Limiter {
    pub(crate) fn new(burst: u32, per_sec: f64) -> Self {
        Self {
            burst: f64::from(burst.max(1)),
            per_sec: per_sec.max(0.0),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    pub(crate) fn allow(&self, key: &str) -> bool {
        self.take(key).is_ok()
    }

    /// Takes a token of `key`'s bucket, or says how long until one is there.
    pub(crate) fn take(&self, key: &str) -> Result<(), Duration> {
        let now = Instant::now();
        let Ok(mut buckets) = self.buckets.lock() else {
            return Err(Duration::from_secs(1));
        };
        if buckets.len() > 10_000 {
            // Buckets refilled to the brim say nothing: forget them.
            let (burst, per_sec) = (self.burst, self.per_sec);
            buckets.retain(|_, (tokens, at)| {
                *tokens + now.duration_since(*at).as_secs_f64() * per_sec < burst
            });
        }
        let (tokens, at) = buckets.entry(key.to_string()).or_insert((self.burst, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * self.per_sec).min(self.burst);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else if self.per_sec > 0.0 {
            Err(Duration::from_secs_f64(
                ((1.0 - *tokens) / self.per_sec).min(3_600.0),
            ))
        } else {
            Err(Duration::from_secs(3_600))
        }
    }
}

tokio::task_local! {
    /// The peer address of the request being handled (set by [`with_peer`]), for the write
    /// budget per address.
    static PEER: Option<std::net::IpAddr>;
}

/// Runs the rest of the request with its peer address in [`PEER`].
pub(crate) async fn with_peer(peer: Peer, req: axum::extract::Request, next: Next) -> Response {
    PEER.scope(peer.0, next.run(req)).await
}

/// The write budget: every change a session makes (each journaled) spends a token of its
/// table's bucket, of its own and of its peer address's ([`Config::table_write_burst`] and
/// following), so many sessions or tables from one address share one budget; an empty
/// bucket answers 429 with the seconds to wait in `Retry-After`.
pub(crate) fn write_budget(state: &AppState, scope: Scope) -> Result<(), ApiError> {
    let refused = |wait: Duration, whose: &str| {
        ApiError::coded(
            StatusCode::TOO_MANY_REQUESTS,
            "write-budget",
            format!("too many changes from {whose}; nothing was written, slow down"),
        )
        .retry_after(wait)
    };
    if let Some(member) = scope.member {
        state
            .inner
            .session_writes
            .take(&format!("member {member}"))
            .map_err(|w| refused(w, "this session"))?;
    }
    // Where no peer address exists (the router driven without a listener) there is no
    // bucket per address.
    if let Ok(Some(ip)) = PEER.try_with(|p| *p) {
        state
            .inner
            .peer_writes
            .take(&format!("peer {ip}"))
            .map_err(|w| refused(w, "this address"))?;
    }
    state
        .inner
        .table_writes
        .take(&format!("table {}", scope.table))
        .map_err(|w| refused(w, "this table"))
}

/// Requests without a session (creating a table, joining one) are limited per peer address
/// (by its IP: a new connection from the same machine is the same bucket), so one client's
/// bad joins never block another's.
pub(crate) fn anonymous_limit(state: &AppState, peer: &Peer) -> Result<(), ApiError> {
    let key = peer.0.map_or_else(String::new, |ip| format!("peer {ip}"));
    if state.inner.anonymous.allow(&key) {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too many requests; slow down",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::response::IntoResponse;

    #[test]
    fn the_write_budget_refuses_with_the_wait() {
        let limiter = Limiter::new(2, 4.0);
        assert!(limiter.take("t").is_ok());
        assert!(limiter.take("t").is_ok());
        let wait = limiter.take("t").unwrap_err();
        // A quarter of a second for a token at four a second, less what has passed.
        assert!(
            wait <= Duration::from_millis(250) && wait > Duration::ZERO,
            "{wait:?}"
        );
        assert!(limiter.take("u").is_ok(), "another key has its own bucket");
        let e = ApiError::new(StatusCode::TOO_MANY_REQUESTS, "x")
            .retry_after(Duration::from_millis(2_100))
            .into_response();
        assert_eq!(e.headers()[header::RETRY_AFTER], "3");
    }
}
