//! The web table: an HTTP server over the application layer and the campaign store.
//!
//! [`app`] builds the router (a JSON API under `/api`, live updates as server-sent events,
//! and the embedded page at `/`); [`serve`] binds it and runs until Ctrl-C. The server holds
//! no rule, no SQL and no load–change–save flow: every request finds its member by session
//! token, opens the campaign file in that member's [`Scope`] (their table, their role) and
//! makes one `solum-app` call on a blocking thread. A table's data is reachable only through
//! a session of that table, because the store filters every query by the scope.

mod conn;
mod heavy;
mod live;
mod page;
mod routes_page;
mod sessions;
mod unthrottled;
mod vehicles;
mod writer;

use std::cell::RefCell;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{
    ConnectInfo, DefaultBodyLimit, FromRequest, FromRequestParts, Query, Request, State,
};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header, request::Parts};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use solum_app::characters::{CharacterCheck, CharacterEdit, NewCharacter};
use solum_app::tables::{self, Joined};
use solum_app::{AppError, Campaign, Dice, ErrorKind, IdeaSource, JournalEntry};
use solum_expanded::oracle::Leaning;
use solum_store::{Member, Scope, Store, StoreHandle};
use solum_store_open::Database;

pub use conn::{DESCRIPTOR_RESERVE, MAX_BLOCKING_THREADS, connection_cap, serve_on};
pub use live::Hub;
pub use unthrottled::UNTHROTTLED_CONNECTIONS;

/// The port `solum serve` listens on unless `--addr` says otherwise.
pub const DEFAULT_PORT: u16 = 7373;

/// The largest request body of a roll, a scene, a join or an edit, in bytes.
pub const BODY_LIMIT: usize = 4 * 1024;
/// The largest request body of a note (a note holds up to [`solum_app::MAX_NOTE`]
/// characters of mostly plain text).
pub const NOTE_BODY_LIMIT: usize = 16 * 1024;

/// How the server behaves; [`Config::new`] gives the defaults of `solum serve`.
#[derive(Debug, Clone)]
pub struct Config {
    /// The campaign: a SQLite file or a PostgreSQL database.
    pub campaign: Database,
    /// `Host` values the server answers to (`None`: any). `serve` sets the address it is
    /// bound to and its `localhost` spelling, which defeats DNS rebinding.
    pub allowed_hosts: Option<Vec<String>>,
    /// Requests a session may make at once before the rate limit bites.
    pub rate_burst: u32,
    /// Requests per second a session regains.
    pub rate_per_sec: f64,
    /// Notifications a live client may leave unread before it is dropped.
    pub live_buffer: usize,
    /// On SQLite, how often the server's one watcher looks for entries written by another
    /// process (the CLI) and re-checks the open streams' sessions when something was
    /// written. On PostgreSQL nothing polls: the watcher listens for notifications.
    pub live_poll: Duration,
    /// Rolls and odds of dice expressions computed at once (the heavy work of the server);
    /// [`Config::new`] takes the machine's cores.
    pub heavy_at_once: usize,
    /// How long a roll or odds request waits for its turn before the server answers 503.
    pub heavy_wait: Duration,
    /// How long a client may take to send a request's headers ([`serve_on`]).
    pub header_read_timeout: Duration,
    /// How long a client may take to send a request's body once its headers are in.
    pub body_read_timeout: Duration,
    /// A connection on which nothing was read or written for this long is closed.
    pub idle_timeout: Duration,
    /// Connections open at once ([`serve_on`] lowers it to what the open-files limit
    /// allows: see [`connection_cap`]).
    pub max_connections: usize,
    /// Connections open at once from one peer address (never more than half of the cap of
    /// [`Config::max_connections`] as lowered).
    pub max_connections_per_peer: usize,
    /// Live streams open at once, overall.
    pub live_max: usize,
    /// Live streams open at once per session.
    pub live_per_session: usize,
    /// Live streams open at once per peer address.
    pub live_per_peer: usize,
    /// Live streams open at once per table (so one table cannot take all of
    /// [`Config::live_max`]).
    pub live_per_table: usize,
    /// Journaled writes a table may make at once, then [`Config::table_writes_per_sec`].
    pub table_write_burst: u32,
    /// Journaled writes per second a table regains.
    pub table_writes_per_sec: f64,
    /// Journaled writes a session may make at once, then [`Config::session_writes_per_sec`].
    pub session_write_burst: u32,
    /// Journaled writes per second a session regains.
    pub session_writes_per_sec: f64,
    /// Journaled writes one peer address may make at once, whatever its sessions and
    /// tables, then [`Config::peer_writes_per_sec`].
    pub peer_write_burst: u32,
    /// Journaled writes per second a peer address regains.
    pub peer_writes_per_sec: f64,
    /// Tables one peer address may create at once, then [`Config::table_creates_per_sec`].
    pub table_create_burst: u32,
    /// Tables per second a peer address regains the right to create.
    pub table_creates_per_sec: f64,
    /// The address browsers use when the server is behind a reverse proxy
    /// (`https://table.example.org`): its host is answered to and its origin is the one
    /// changes must come from. `None`: the page is served directly (`http://HOST`).
    pub public_origin: Option<PublicOrigin>,
    /// Reverse proxies whose `X-Forwarded-For` is believed: a connection from one of them
    /// counts against the overall connection cap only, and each of its requests is keyed
    /// (rate limits, stream caps) by the client address the proxy appended last. Any other
    /// peer's `X-Forwarded-For` is ignored.
    pub trusted_proxies: Vec<std::net::IpAddr>,
}

/// The scheme, host and port browsers reach the table at, when it is not this server's own
/// address (a reverse proxy in front): parsed and checked once, at start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicOrigin {
    origin: String,
    host: String,
}

/// The longest public URL taken.
pub const MAX_PUBLIC_URL_LEN: usize = 300;

impl PublicOrigin {
    /// Parses `http[s]://HOST[:PORT][/]` (no path, query, user or fragment).
    pub fn parse(url: &str) -> Result<Self, String> {
        if url.len() > MAX_PUBLIC_URL_LEN {
            return Err(format!(
                "is {} bytes long; at most {MAX_PUBLIC_URL_LEN} are taken",
                url.len()
            ));
        }
        let (scheme, rest) = url
            .split_once("://")
            .ok_or_else(|| format!("`{url}` is not a URL such as https://table.example.org"))?;
        let scheme = scheme.to_ascii_lowercase();
        if scheme != "http" && scheme != "https" {
            return Err(format!("`{url}`: the scheme must be http or https"));
        }
        let host = rest.strip_suffix('/').unwrap_or(rest).to_ascii_lowercase();
        let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']');
        if host.is_empty() || !host.chars().all(plain) {
            return Err(format!(
                "`{url}`: only a scheme, a host and a port are taken (no path, user or query)"
            ));
        }
        Ok(Self {
            origin: format!("{scheme}://{host}"),
            host,
        })
    }

    /// `scheme://host[:port]`, as browsers send it in `Origin`.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// `host[:port]`, as browsers send it in `Host` (and a proxy passes on).
    pub fn host(&self) -> &str {
        &self.host
    }
}

impl Config {
    /// The defaults for the campaign at `campaign`.
    pub fn new(campaign: impl Into<Database>) -> Self {
        Self {
            campaign: campaign.into(),
            allowed_hosts: None,
            rate_burst: 60,
            rate_per_sec: 20.0,
            live_buffer: 64,
            live_poll: Duration::from_millis(500),
            heavy_at_once: std::thread::available_parallelism().map_or(1, |n| n.get()),
            heavy_wait: Duration::from_secs(2),
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            max_connections: 1_024,
            max_connections_per_peer: 64,
            live_max: 256,
            live_per_session: 4,
            live_per_peer: 32,
            live_per_table: 64,
            table_write_burst: 120,
            table_writes_per_sec: 10.0,
            session_write_burst: 60,
            session_writes_per_sec: 5.0,
            peer_write_burst: 120,
            peer_writes_per_sec: 10.0,
            table_create_burst: 5,
            table_creates_per_sec: 1.0 / 60.0,
            public_origin: None,
            trusted_proxies: Vec::new(),
        }
    }
}

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    config: Config,
    hub: Hub,
    limiter: Limiter,
    /// This server's one writer: writes take turns there, first come first served, and
    /// journaled writes that queue share a commit (see [`write`] and [`change`]).
    writer: writer::Writer,
    /// Turns for heavy work (rolls and odds of dice expressions), shared fairly by tables.
    heavy: Arc<heavy::Heavy>,
    /// Journaled writes per table and per session.
    table_writes: Limiter,
    session_writes: Limiter,
    /// Journaled writes per peer address, and tables created per peer address.
    peer_writes: Limiter,
    table_creates: Limiter,
}

impl AppState {
    /// The state of a server with `config`.
    pub fn new(config: Config) -> Self {
        Self {
            inner: Arc::new(Inner {
                limiter: Limiter::new(config.rate_burst, config.rate_per_sec),
                hub: Hub::new(config.campaign.clone(), config.live_poll),
                writer: writer::Writer::start(
                    config.campaign.clone(),
                    writer::GroupLimits::default(),
                    None,
                ),
                heavy: Arc::new(heavy::Heavy::new(config.heavy_at_once)),
                table_writes: Limiter::new(config.table_write_burst, config.table_writes_per_sec),
                session_writes: Limiter::new(
                    config.session_write_burst,
                    config.session_writes_per_sec,
                ),
                peer_writes: Limiter::new(config.peer_write_burst, config.peer_writes_per_sec),
                table_creates: Limiter::new(
                    config.table_create_burst,
                    config.table_creates_per_sec,
                ),
                config,
            }),
        }
    }

    /// The live clients' hub.
    pub fn hub(&self) -> &Hub {
        &self.inner.hub
    }

    /// Where the campaign lives.
    fn database(&self) -> Database {
        self.inner.config.campaign.clone()
    }

    /// Groups of journaled writes committed so far, and the writes answered from them: how
    /// many writes shared each commit.
    pub fn write_groups(&self) -> (u64, u64) {
        (self.inner.writer.groups(), self.inner.writer.grouped_jobs())
    }
}

/// The router: the page, the API and the live stream, with the security layer on every
/// response.
pub fn app(state: AppState) -> Router {
    let api = Router::new()
        .route("/tables", post(create_table))
        .route("/join", post(join))
        .route("/me", get(me))
        .route("/me/reentry", post(my_reentry))
        .route("/members/{id}/reentry", post(member_reentry))
        .route("/reentry", post(use_reentry))
        .route("/logout", post(logout))
        .route("/invites", get(invites).post(invite))
        .route("/invites/{id}", axum::routing::delete(revoke_invite))
        .route("/journal", get(journal))
        .route("/journal/export", get(export))
        .route("/journal/verify", get(verify))
        .route("/journal/{seq}/reveal", post(reveal))
        .route("/oracle", post(oracle))
        .route("/idea", post(idea))
        .route(
            "/notes",
            post(note).layer(DefaultBodyLimit::max(NOTE_BODY_LIMIT)),
        )
        .route("/scene", get(scene_current))
        .route("/scenes", post(scene_start))
        .route("/scenes/end", post(scene_end))
        .route("/bestiary", get(bestiary))
        .route("/characters", get(characters).post(create_character))
        .route("/characters/{name}", get(character).patch(edit_character))
        .route("/characters/{name}/odds", post(check_odds))
        .route("/characters/{name}/check", post(check))
        .route("/characters/{name}/grant", post(grant_point))
        .route("/characters/{name}/advance", post(advance_character))
        .route("/characters/{name}/rest", post(rest_character))
        .route("/settings/roll-off", get(roll_off).put(set_roll_off))
        .route(
            "/characters/{name}/static",
            get(static_status).post(static_fight),
        )
        .route("/characters/{name}/static/abandon", post(static_abandon))
        .route("/odds", post(notation_odds))
        .route("/roll", post(notation_roll))
        .route("/systems/characters", get(sibling_characters))
        .route("/sol/characters", post(create_sol))
        .route("/sol/characters/{name}/test", post(sol_test))
        .route("/sol/characters/{name}/encounter", post(sol_encounter))
        .route("/sol/characters/{name}/session", post(sol_session))
        .route("/classic/characters", post(create_classic))
        .route("/classic/characters/{name}/check", post(classic_check))
        .route(
            "/classic/characters/{name}/fight",
            get(classic_fight_status).post(classic_fight),
        )
        .route(
            "/classic/characters/{name}/fight/abandon",
            post(classic_fight_abandon),
        )
        .route("/classic/characters/{name}/gear", post(classic_gear))
        .route("/soluna/characters", post(create_soluna))
        .route("/soluna/characters/{name}/test", post(soluna_test))
        .route(
            "/soluna/skirmish",
            get(soluna_skirmish_state).post(soluna_skirmish_start),
        )
        .route("/soluna/skirmish/act", post(soluna_skirmish_act))
        .route("/soluna/skirmish/go", post(soluna_skirmish_go))
        .route("/soluna/skirmish/abandon", post(soluna_skirmish_abandon))
        .route("/dietype/characters", post(create_dietype))
        .route("/dietype/characters/{name}/roll", post(dietype_roll))
        .route("/combat", get(combat_status).post(combat_start))
        .route("/combat/line", post(combat_line))
        .route("/combat/end", post(combat_end))
        .route("/vehicles", get(vehicles::list))
        .route("/vehicles/attack", post(vehicles::attack))
        .route("/vehicles/attack/odds", post(vehicles::attack_odds))
        .route("/vehicles/chase", post(vehicles::chase))
        .route("/vehicles/chase/odds", post(vehicles::chase_odds))
        .route("/fight/odds", post(vehicles::fight_odds))
        .route("/events", get(live::events))
        .route("/openapi.json", get(page::openapi))
        .merge(routes_page::routes())
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "no such endpoint") })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "this endpoint does not take that method",
            )
        })
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn_with_state(state.clone(), body_deadline))
        // A body announced past the largest limit is refused on its `Content-Length` at once,
        // before anyone waits for it (the per-route limits above count what arrives).
        .layer(tower_http::limit::RequestBodyLimitLayer::new(
            NOTE_BODY_LIMIT,
        ))
        .layer(middleware::from_fn(json_errors))
        .layer(middleware::from_fn(with_peer));
    Router::new()
        .merge(page::routes())
        .nest("/api", api)
        .layer(middleware::from_fn_with_state(state.clone(), guard))
        .with_state(state)
}

/// Binds `addr` and serves the campaign until Ctrl-C; `ready` learns the address bound and
/// an invite link for the game master of the campaign's own table before the first request.
pub fn serve(
    config: Config,
    addr: SocketAddr,
    ready: impl FnOnce(&Ready),
) -> Result<(), std::io::Error> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        // Each blocking thread keeps a connection to the campaign: a bounded pool keeps the
        // descriptors within the reserve of `conn::DESCRIPTOR_RESERVE`.
        .max_blocking_threads(MAX_BLOCKING_THREADS)
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let local = listener.local_addr()?;
        let mut config = config;
        // Bound to one address, the server answers only to it (and `localhost` for a loopback
        // one): a page of another site that re-points its name here is refused. Bound to
        // every address, the host is whatever the network calls this machine.
        if config.allowed_hosts.is_none() && !local.ip().is_unspecified() {
            let mut hosts = vec![local.to_string()];
            if local.ip().is_loopback() {
                hosts.push(format!("localhost:{}", local.port()));
            }
            // Behind a proxy, the name browsers use (which the proxy passes on).
            if let Some(public) = &config.public_origin {
                hosts.push(public.host().to_string());
            }
            config.allowed_hosts = Some(hosts);
        }
        let path = config.campaign.clone();
        let invite = tokio::task::spawn_blocking(move || {
            let mut store = solum_store_open::open(&path, Scope::HOME)?;
            tables::home_gm_invite(&mut store)
        })
        .await
        .map_err(std::io::Error::other)?
        .map_err(|e| std::io::Error::other(e.to_string()))?;
        ready(&Ready {
            addr: local,
            home_invite: invite.token,
            home_invite_expires: invite.expires,
        });
        let state = AppState::new(config);
        // Each connection's peer address keys the rate limit of requests without a session
        // and the caps of connections and streams.
        serve_on(listener, state, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
    })
}

/// What [`serve`] tells its caller once it listens.
#[derive(Debug, Clone)]
pub struct Ready {
    /// The address bound.
    pub addr: SocketAddr,
    /// An invite (game master) to the campaign's own table, the one the command line plays:
    /// it works once, until [`Ready::home_invite_expires`] (see
    /// [`tables::HOME_GM_INVITE_SECONDS`]), and the one the last start printed is revoked.
    pub home_invite: String,
    /// When the home invite stops working (RFC 3339).
    pub home_invite_expires: String,
}

impl Ready {
    /// The page's address.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }
}

// ---------------------------------------------------------------------------------------
// Security: hosts, origins, headers.

/// The Content-Security-Policy of every response: scripts, styles and connections only from
/// the page's own origin, no inline script, no frames either way, no plugins.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
connect-src 'self'; form-action 'self'; base-uri 'none'; frame-src 'none'; frame-ancestors 'none'; object-src 'none'";

async fn guard(State(state): State<AppState>, req: Request, next: Next) -> Response {
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
                ApiError::new(
                    StatusCode::FORBIDDEN,
                    "cross-origin request refused: changes come only from the table's own page",
                )
                .into_response(),
            );
        }
    }
    secured(next.run(req).await)
}

fn secured(mut resp: Response) -> Response {
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

// ---------------------------------------------------------------------------------------
// JSON out: safe in any HTML context.

/// JSON whose strings escape `<`, `>`, `&` and the two JavaScript line separators as
/// `\uXXXX`: what a player typed can be dropped into HTML, an attribute or a script block
/// and stay text. Every JSON answer and every live event is written this way.
pub fn to_json<T: Serialize>(value: &T) -> Result<Vec<u8>, serde_json::Error> {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, HtmlSafe);
    value.serialize(&mut ser)?;
    Ok(out)
}

struct HtmlSafe;

impl serde_json::ser::Formatter for HtmlSafe {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let mut start = 0;
        for (i, c) in fragment.char_indices() {
            let escaped = match c {
                '<' => "\\u003c",
                '>' => "\\u003e",
                '&' => "\\u0026",
                '\u{2028}' => "\\u2028",
                '\u{2029}' => "\\u2029",
                _ => continue,
            };
            writer.write_all(&fragment.as_bytes()[start..i])?;
            writer.write_all(escaped.as_bytes())?;
            start = i + c.len_utf8();
        }
        writer.write_all(&fragment.as_bytes()[start..])
    }
}

/// A JSON answer written by [`to_json`].
struct Json<T>(T);

impl<T: Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        match to_json(&self.0) {
            Ok(bytes) => (
                [(header::CONTENT_TYPE, "application/json")],
                Body::from(bytes),
            )
                .into_response(),
            Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Errors.

/// An error answer: a status and a message meant for the player, never internals.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
    /// A stable code for the page to act on (`session-held`), where there is one.
    code: Option<&'static str>,
    /// Seconds a refused client should wait (`Retry-After` of a 429; 1 unless said).
    retry_after: Option<u64>,
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<&'static str>,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Self {
            status,
            message: message.into(),
            code: None,
            retry_after: None,
        }
    }

    fn retry_after(mut self, wait: Duration) -> Self {
        self.retry_after = Some(wait.as_secs_f64().ceil().max(1.0) as u64);
        self
    }

    fn internal() -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, "internal error")
    }

    fn forbidden(message: &str) -> Self {
        Self::new(StatusCode::FORBIDDEN, message)
    }
}

impl From<AppError> for ApiError {
    fn from(e: AppError) -> Self {
        let kind = e.kind();
        let status =
            StatusCode::from_u16(kind.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        // A store error's text names the file; only the kind goes out, or the store's own
        // words about the request (a duplicate name, a forbidden change).
        let message = match (&e, kind) {
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
            code: e.code(),
            ..Self::new(status, message)
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

/// A JSON body whose rejections answer as [`ApiError`]s (an oversized body stays 413).
struct Body_<T>(T);

impl<T, S> FromRequest<S> for Body_<T>
where
    T: serde::de::DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(v)) => Ok(Self(v)),
            Err(r) => Err(rejection(r)),
        }
    }
}

/// The body of a POST that takes no fields: none at all, or `{}`. Anything else is refused
/// as any body with an unknown field is (422), so a client learns that what it sent was not
/// used.
struct NoFields;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Nothing {}

impl<S> FromRequest<S> for NoFields
where
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let (parts, body) = req.into_parts();
        let head = parts.clone();
        let bytes = axum::body::Bytes::from_request(Request::from_parts(parts, body), state)
            .await
            .map_err(|e| ApiError::new(e.status(), e.body_text()))?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Self);
        }
        Body_::<Nothing>::from_request(
            Request::from_parts(head, axum::body::Body::from(bytes)),
            state,
        )
        .await
        .map(|_| Self)
    }
}

/// The query string of a route that takes none: absent or empty. Anything else is refused
/// (422 naming it), as an unknown parameter of a route that takes some is.
pub(crate) struct NoQuery;

impl<S> FromRequestParts<S> for NoQuery
where
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        match parts.uri.query() {
            None | Some("") => Ok(Self),
            Some(q) => {
                let name = q.split(['=', '&']).next().unwrap_or(q);
                let shown: String = name.chars().take(40).collect();
                Err(ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    format!("query string: unknown parameter `{shown}` (this route takes none)"),
                ))
            }
        }
    }
}

/// A query string whose rejections answer as [`ApiError`]s naming the parameter.
struct Query_<T>(T);

impl<T, S> FromRequestParts<S> for Query_<T>
where
    T: serde::de::DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(v)) => Ok(Self(v)),
            Err(r) => Err(query_rejection(&r)),
        }
    }
}

fn query_rejection(r: &QueryRejection) -> ApiError {
    let text = r.body_text();
    // "Failed to deserialize query string: limit: invalid digit found in string"
    let detail = text.split_once(": ").map_or(text.as_str(), |(_, d)| d);
    ApiError::new(
        StatusCode::UNPROCESSABLE_ENTITY,
        format!("query string: {detail}"),
    )
}

/// Every error of the API answers `{"error": …}`: a rejection of the framework (a path it
/// cannot read, an empty 404 or 405) that is not JSON already gets its text, or its
/// status's reason, wrapped.
async fn json_errors(req: Request, next: Next) -> Response {
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
async fn body_deadline(State(state): State<AppState>, req: Request, next: Next) -> Response {
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
                ApiError::new(
                    StatusCode::BAD_REQUEST,
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

fn rejection(r: JsonRejection) -> ApiError {
    let status = r.status();
    let message = if status == StatusCode::PAYLOAD_TOO_LARGE {
        "the request body is too large".to_string()
    } else {
        r.body_text()
    };
    ApiError::new(status, message)
}

// ---------------------------------------------------------------------------------------
// Sessions and rate limits.

/// The member a request acts as, found by its bearer token (or, for the live stream only,
/// its `token` query parameter: an `EventSource` cannot send headers).
pub struct Auth {
    member: Member,
    /// The session token the request came with.
    token: String,
}

impl FromRequestParts<AppState> for Auth {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let token = bearer(&parts.headers).or_else(|| {
            matches!(parts.uri.path(), "/events" | "/api/events")
                .then(|| query_token(parts.uri.query()))
                .flatten()
        });
        let Some(token) = token else {
            return Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "sign in: join a table or create one",
            ));
        };
        // The rate limit is keyed by the session token itself: no header can move a request
        // into another bucket, and a made-up token only spends its own.
        let hash = tables::token_hash(&token);
        if !state.inner.limiter.allow(&hash) {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too many requests; slow down",
            ));
        }
        // Found recently and not ended since (sessions.rs), or looked up.
        let cache = state.hub().sessions();
        let member = match cache.get(&hash) {
            Ok(member) => Some(member),
            Err(generation) => {
                let db = state.database();
                let asked = token.clone();
                let member = blocking(move || {
                    let store = connection(&db, Scope::HOME)?;
                    let member = tables::session(&store, &asked);
                    keep(&db, store);
                    member
                })
                .await?;
                if let Some(m) = &member {
                    cache.keep(hash, m.clone(), generation);
                }
                member
            }
        };
        match member {
            Some(member) => Ok(Self { member, token }),
            None => Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "this session is unknown or expired (unused for 30 days, or logged out): join the table again",
            )),
        }
    }
}

fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let token = value.strip_prefix("Bearer ")?.trim();
    Some(token.to_string())
}

fn query_token(query: Option<&str>) -> Option<String> {
    query?
        .split('&')
        .find_map(|kv| kv.strip_prefix("token="))
        .map(str::to_owned)
}

/// Token buckets, one per session.
struct Limiter {
    burst: f64,
    per_sec: f64,
    buckets: Mutex<HashMap<String, (f64, Instant)>>,
}

impl Limiter {
    fn new(burst: u32, per_sec: f64) -> Self {
        Self {
            burst: f64::from(burst.max(1)),
            per_sec: per_sec.max(0.0),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    fn allow(&self, key: &str) -> bool {
        self.take(key).is_ok()
    }

    /// Takes a token of `key`'s bucket, or says how long until one is there.
    fn take(&self, key: &str) -> Result<(), Duration> {
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

// ---------------------------------------------------------------------------------------
// Running use cases off the async runtime.

async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, AppError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|_| ApiError::internal())?
        .map_err(ApiError::from)
}

/// Runs `work`, which writes to the campaign on a connection of its own, on this server's
/// one writer thread once the earlier writes are done. SQLite lets one writer in at a time
/// and makes the others sleep and retry (its busy handler), which is not first come first
/// served: under a crowd of writers a request could wait out the whole busy timeout behind
/// later ones and fail as "busy". Queued in order on one thread, this server's writes meet
/// the busy handler only over another process's writes (the command line's). Once queued,
/// the work runs even if the request is abandoned.
async fn write<T: Send + 'static>(
    state: &AppState,
    work: impl FnOnce() -> Result<T, AppError> + Send + 'static,
) -> Result<T, ApiError> {
    state.inner.writer.alone(work).await
}

/// Runs `work` on the member's campaign view, on a blocking thread.
async fn with_campaign<T: Send + 'static>(
    state: &AppState,
    scope: Scope,
    work: impl FnOnce(&mut Campaign<Box<dyn Store>>) -> Result<T, AppError> + Send + 'static,
) -> Result<T, ApiError> {
    let db = state.database();
    blocking(move || in_campaign(&db, scope, work)).await
}

/// The same for a change, in its turn (see [`write`]): journaled writes that queue together
/// run in one group and share one commit, each all or nothing on its own, and each is
/// answered only once its group is committed (`writer.rs`). The table's live clients hear
/// of it.
async fn change<T: Send + 'static>(
    state: &AppState,
    scope: Scope,
    work: impl FnOnce(&mut Campaign<Box<dyn Store>>) -> Result<T, AppError> + Send + 'static,
) -> Result<T, ApiError> {
    write_budget(state, scope)?;
    let out = state.inner.writer.grouped(scope, work).await;
    if out.is_ok() {
        state.hub().notify(scope.table);
    }
    out
}

tokio::task_local! {
    /// The peer address of the request being handled (set by [`with_peer`]), for the write
    /// budget per address.
    static PEER: Option<std::net::IpAddr>;
}

/// Runs the rest of the request with its peer address in [`PEER`].
async fn with_peer(peer: Peer, req: axum::extract::Request, next: Next) -> Response {
    PEER.scope(peer.0, next.run(req)).await
}

/// The write budget: every change a session makes (each journaled) spends a token of its
/// table's bucket, of its own and of its peer address's ([`Config::table_write_burst`] and
/// following), so many sessions or tables from one address share one budget; an empty
/// bucket answers 429 with the seconds to wait in `Retry-After`.
fn write_budget(state: &AppState, scope: Scope) -> Result<(), ApiError> {
    let refused = |wait: Duration, whose: &str| {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
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

thread_local! {
    /// This blocking thread's connection to the campaign, kept between requests: opening one
    /// (checking its settings and schema) costs some twenty short queries.
    static CONNECTION: RefCell<Option<(Database, Box<dyn Store>)>> = const { RefCell::new(None) };
}

/// The campaign `db` seen through `scope`: this thread's kept connection to it, given the
/// request's scope (never the last one's), or a new one.
fn connection(db: &Database, scope: Scope) -> Result<Box<dyn Store>, AppError> {
    match CONNECTION.with(|c| c.borrow_mut().take()) {
        Some((kept, mut store)) if kept == *db => {
            store.set_scope(scope);
            Ok(store)
        }
        _ => Ok(solum_store_open::open(db, scope)?),
    }
}

/// Keeps a connection for this thread's next request, if no transaction was left open on it
/// (a failed one is rolled back when dropped; one that could not be is closed here).
fn keep(db: &Database, store: Box<dyn Store>) {
    // Outside a transaction (every store call's transaction ends with the call) each
    // statement sees every commit made before it started: on PostgreSQL (READ COMMITTED) and
    // on SQLite (WAL, no read transaction left open between calls), so a kept connection
    // cannot read an older snapshot (`writer.rs`:
    // `a_kept_connection_reads_every_write_acknowledged_before`). Opening one costs a TCP
    // connection and authentication, or a file's open and its checks, and a few queries.
    if store.is_idle() {
        CONNECTION.with(|c| *c.borrow_mut() = Some((db.clone(), store)));
    }
}

/// Runs `work` on the campaign `db` seen through `scope`.
fn in_campaign<T>(
    db: &Database,
    scope: Scope,
    work: impl FnOnce(&mut Campaign<Box<dyn Store>>) -> Result<T, AppError>,
) -> Result<T, AppError> {
    let store = connection(db, scope)?;
    // Every entry the request appends says who made it (the feed's "who").
    let by = tables::by_of(&store, scope)?;
    let mut campaign = Campaign::new(store).acting_as(by);
    let out = work(&mut campaign);
    keep(db, campaign.into_store());
    out
}

/// The dice of a live roll: the server's generator with a fresh seed, or faces typed in by
/// hand where [`tables::may_type_dice`] allows them (they are journaled as typed).
fn dice_for(
    campaign: &Campaign<Box<dyn Store>>,
    member: &Member,
    typed: Option<Vec<u32>>,
) -> Result<Dice, AppError> {
    match typed {
        None => Ok(Dice::Fresh),
        Some(faces) => {
            if tables::may_type_dice(campaign.store(), member)? {
                Ok(Dice::Typed(faces))
            } else {
                Err(AppError::Forbidden(
                    "dice typed in by hand are for a game master playing alone at the table".into(),
                ))
            }
        }
    }
}

/// The scope of a roll: secret ones only for the game master.
fn roll_scope(member: &Member, secret: bool) -> Result<Scope, ApiError> {
    let scope = tables::scope_of(member);
    match (secret, member.gm) {
        (false, _) => Ok(scope),
        (true, true) => Ok(scope.secret()),
        (true, false) => Err(ApiError::forbidden(
            "not allowed: only the game master rolls in secret",
        )),
    }
}

// ---------------------------------------------------------------------------------------
// Tables.

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewTable {
    table: String,
    name: String,
}

async fn create_table(
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

/// The address a request came from, as the connection says (never a header): what keys the
/// rate limit of requests without a session. `None` where the router runs without a
/// listener (tests), where such requests share one bucket.
struct Peer(Option<std::net::IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for Peer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        Ok(Self(
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map(|c| c.0.ip()),
        ))
    }
}

/// Requests without a session (creating a table, joining one) are limited per peer address
/// (by its IP: a new connection from the same machine is the same bucket), so one client's
/// bad joins never block another's.
fn anonymous_limit(state: &AppState, peer: &Peer) -> Result<(), ApiError> {
    let key = peer.0.map_or_else(String::new, |ip| format!("peer {ip}"));
    if state.inner.limiter.allow(&key) {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too many requests; slow down",
        ))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    invite: String,
    name: String,
    /// The request holds a session (a bearer token) and means to give it up for this
    /// table: without it, such a join is refused with 409 `session-held`.
    #[serde(default)]
    replace: bool,
}

/// `POST /api/join`: uses an invite. A request that holds a live session (its bearer
/// token) is refused with 409 and the code `session-held` unless it says `"replace": true`:
/// the page asks the member before switching tables.
async fn join(
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
            &req.invite,
            &req.name,
            current.as_deref(),
            req.replace,
        )
    })
    .await?;
    state.hub().notify(joined.table);
    Ok((StatusCode::CREATED, Json(joined)))
}

#[derive(Serialize)]
struct Me {
    table: i64,
    table_name: String,
    member: tables::MemberView,
    members: Vec<tables::MemberView>,
    may_type_dice: bool,
}

async fn me(
    State(state): State<AppState>,
    auth: Auth,
    _no_query: NoQuery,
) -> Result<Json<Me>, ApiError> {
    let member = auth.member;
    with_campaign(&state, tables::scope_of(&member), move |c| {
        use solum_store::TableStore;
        let members = c.store().members()?;
        Ok(Me {
            table: member.table,
            table_name: member.table_name.clone(),
            member: tables::MemberView::of(&member),
            members: members.iter().map(tables::MemberView::of).collect(),
            may_type_dice: tables::may_type_dice(c.store(), &member)?,
        })
    })
    .await
    .map(Json)
}

/// `POST /api/logout`: the session's row is deleted (its token opens nothing any more) and
/// the browser is told to forget what the page stored (the token lives in its storage; the
/// server sets no cookie).
async fn logout(
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
fn table_store(db: &Database, table: i64) -> Result<Box<dyn Store>, AppError> {
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
async fn my_reentry(
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
async fn member_reentry(
    State(state): State<AppState>,
    auth: Auth,
    axum::extract::Path(id): axum::extract::Path<i64>,
    _no_fields: NoFields,
) -> Result<(StatusCode, Json<tables::Reentry>), ApiError> {
    let member = auth.member;
    gm_only(&member, "re-invites a member")?;
    let db = state.database();
    let made = write(&state, move || {
        let mut store = table_store(&db, member.table)?;
        tables::reentry(&mut store, &member, id)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(made)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReentryRequest {
    token: String,
    /// As for a join: give up the session the request holds.
    #[serde(default)]
    replace: bool,
}

/// `POST /api/reentry`: uses a re-entry link; a new session for its member.
async fn use_reentry(
    State(state): State<AppState>,
    peer: Peer,
    headers: HeaderMap,
    Body_(req): Body_<ReentryRequest>,
) -> Result<(StatusCode, Json<Joined>), ApiError> {
    anonymous_limit(&state, &peer)?;
    if req.token.len() > 200 {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "token: longer than any re-entry link",
        ));
    }
    let Some(table) = tables::reentry_table(&req.token) else {
        return Err(ApiError::forbidden(
            "this re-entry link is unknown, used, or replaced by a newer one: ask for a new one",
        ));
    };
    let db = state.database();
    let current = bearer(&headers);
    let joined = write(&state, move || {
        let mut store = table_store(&db, table)?;
        tables::redeem_reentry(&mut store, &req.token, current.as_deref(), req.replace)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(joined)))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct InviteRequest {
    #[serde(default)]
    role: Option<String>,
}

async fn invite(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<InviteRequest>,
) -> Result<(StatusCode, Json<tables::Invite>), ApiError> {
    let gm = match req.role.as_deref() {
        None | Some("player") => false,
        Some("gm") => true,
        Some(_) => {
            return Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "role: say player or gm",
            ));
        }
    };
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
async fn invites(
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
async fn revoke_invite(
    State(state): State<AppState>,
    auth: Auth,
    axum::extract::Path(id): axum::extract::Path<i64>,
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

// ---------------------------------------------------------------------------------------
// The journal.

/// `POST /api/journal/{seq}/reveal`: the game master shows the table a secret entry; what
/// it does to a sheet is applied now (see [`Campaign::reveal`]).
async fn reveal(
    State(state): State<AppState>,
    auth: Auth,
    axum::extract::Path(seq): axum::extract::Path<i64>,
    _no_fields: NoFields,
) -> Result<(StatusCode, Json<JournalEntry>), ApiError> {
    if !auth.member.gm {
        return Err(ApiError::forbidden(
            "not allowed: only the game master reveals a secret entry",
        ));
    }
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, move |c| c.reveal(seq))
        .await
        .map(|e| (StatusCode::CREATED, Json(e.for_display())))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JournalQuery {
    /// Entries after this sequence number, oldest first.
    after: Option<i64>,
    /// Text to search for (case-insensitive, in every field of an entry).
    q: Option<String>,
    /// At most this many: [`PAGE`] unless said, never more than [`MAX_PAGE`]. Without
    /// `after`, the latest ones.
    limit: Option<usize>,
}

#[derive(Serialize)]
struct JournalPage {
    entries: Vec<JournalEntry>,
    /// With `after`: the `after` of the next page when more may follow, else `null`.
    next: Option<i64>,
}

/// The entries one journal read returns unless `limit` says otherwise.
pub const PAGE: usize = 100;
/// The most entries one journal read returns.
pub const MAX_PAGE: usize = 500;

async fn journal(
    State(state): State<AppState>,
    auth: Auth,
    Query_(query): Query_<JournalQuery>,
) -> Result<Json<JournalPage>, ApiError> {
    if query.q.as_ref().is_some_and(|q| q.chars().count() > 200) {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "q: the search text is longer than 200 characters",
        ));
    }
    let limit = match query.limit {
        None => PAGE,
        Some(n @ 1..=MAX_PAGE) => n,
        Some(_) => {
            return Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("limit: between 1 and {MAX_PAGE} entries a page"),
            ));
        }
    };
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, move |c| {
        let needle = query.q.as_deref().map(str::to_lowercase);
        let (entries, next) = c.journal_page(query.after, limit, |record| {
            needle.as_ref().is_none_or(|n| {
                serde_json::to_string(record).is_ok_and(|text| text.to_lowercase().contains(n))
            })
        })?;
        Ok(JournalPage {
            entries: entries.into_iter().map(JournalEntry::for_display).collect(),
            next,
        })
    })
    .await
    .map(Json)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExportQuery {
    format: Option<String>,
}

async fn export(
    State(state): State<AppState>,
    auth: Auth,
    Query_(query): Query_<ExportQuery>,
) -> Result<Response, ApiError> {
    let scope = tables::scope_of(&auth.member);
    let title = auth.member.table_name.clone();
    let markdown = match query.format.as_deref() {
        None | Some("json") => false,
        Some("markdown") => true,
        Some(_) => {
            return Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "format: say json or markdown",
            ));
        }
    };
    // Written a page of entries at a time into a small channel: the whole journal is never
    // in memory, and a client that stops reading stops the writer (after a while).
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Vec<u8>, std::io::Error>>(4);
    let db = state.database();
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
        let out = in_campaign(&db, scope, |c| {
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
const EXPORT_PAGE: usize = 100;

async fn verify(
    State(state): State<AppState>,
    auth: Auth,
    _no_query: NoQuery,
) -> Result<Json<solum_app::VerifyReport>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, |c| c.verify()).await.map(Json)
}

// ---------------------------------------------------------------------------------------
// Solo tools: the oracle, ideas, notes, scenes.

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AskRequest {
    question: String,
    #[serde(default)]
    leaning: Leaning,
    #[serde(default)]
    secret: bool,
    #[serde(default)]
    typed: Option<Vec<u32>>,
}

async fn oracle(
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
struct IdeaRequest {
    genre: String,
    #[serde(default = "one")]
    count: u32,
}

fn one() -> u32 {
    1
}

async fn idea(
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
struct NoteRequest {
    text: String,
}

async fn note(
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
struct SceneRequest {
    title: String,
    goal: Option<String>,
}

async fn scene_start(
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
struct SceneEnd {
    summary: Option<String>,
}

/// The open scene, for every member: `{"scene": null}` or the entry that started it.
#[derive(Serialize)]
struct SceneAnswer {
    scene: Option<JournalEntry>,
}

/// `GET /api/scene`: the table's open scene (its start entry: title, goal, who, when).
async fn scene_current(
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
async fn bestiary(
    State(state): State<AppState>,
    auth: Auth,
    _no_query: NoQuery,
) -> Result<Json<solum_app::creatures::BestiaryView>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, |c| c.bestiary())
        .await
        .map(Json)
}

async fn scene_end(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<SceneEnd>,
) -> Result<Json<JournalEntry>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, move |c| c.end_scene(req.summary.as_deref()))
        .await
        .map(Json)
}

// ---------------------------------------------------------------------------------------
// Characters and checks.

async fn characters(
    State(state): State<AppState>,
    auth: Auth,
    _no_query: NoQuery,
) -> Result<Json<Vec<tables::OwnedCharacter>>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, |c| c.owned_characters())
        .await
        .map(Json)
}

async fn character(
    State(state): State<AppState>,
    auth: Auth,
    axum::extract::Path(name): axum::extract::Path<String>,
    _no_query: NoQuery,
) -> Result<Json<solum_app::characters::CharacterView>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, move |c| c.character(&name))
        .await
        .map(Json)
}

/// A character's choices and the request's own `typed` (unknown fields refused).
struct CreateRequest {
    character: NewCharacter,
    typed: Option<Vec<u32>>,
}

impl<'de> Deserialize<'de> for CreateRequest {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (character, env): (_, DiceEnvelope) = split(d, &["typed"])?;
        Ok(Self {
            character,
            typed: env.typed,
        })
    }
}

/// The fields a request carries beside the system's own: whether it is secret, typed dice.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct DiceEnvelope {
    #[serde(default)]
    secret: bool,
    #[serde(default)]
    typed: Option<Vec<u32>>,
}

/// Reads a JSON object as the request's own fields `envelope` (read as `E`) and the rest
/// (read as `T`). Both refuse unknown fields, which `#[serde(flatten)]` cannot: a misspelt
/// `secret` must not pass as a public roll.
fn split<'de, D, T, E>(d: D, envelope: &[&str]) -> Result<(T, E), D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::de::DeserializeOwned,
    E: serde::de::DeserializeOwned,
{
    use serde::de::Error;
    let mut rest = serde_json::Map::<String, serde_json::Value>::deserialize(d)?;
    let mut env = serde_json::Map::new();
    for k in envelope {
        if let Some(v) = rest.remove(*k) {
            env.insert((*k).to_string(), v);
        }
    }
    let t = T::deserialize(serde_json::Value::Object(rest))
        .map_err(|e| D::Error::custom(format!("{e} (or {})", envelope.join(", "))))?;
    let e = E::deserialize(serde_json::Value::Object(env)).map_err(D::Error::custom)?;
    Ok((t, e))
}

async fn create_character(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<CreateRequest>,
) -> Result<(StatusCode, Json<solum_app::characters::ChangeView>), ApiError> {
    let member = auth.member;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        let dice = dice_for(c, &member, req.typed)?;
        c.create_character(&req.character, dice)
    })
    .await
    .map(|v| (StatusCode::CREATED, Json(v)))
}

async fn edit_character(
    State(state): State<AppState>,
    auth: Auth,
    axum::extract::Path(name): axum::extract::Path<String>,
    Body_(edit): Body_<CharacterEdit>,
) -> Result<Json<solum_app::characters::ChangeView>, ApiError> {
    let member = auth.member;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        c.edit_character_as(&member, &name, &edit)
    })
    .await
    .map(Json)
}

/// Grants an advancement point (S17): the game master's (the use case refuses a player).
async fn grant_point(
    State(state): State<AppState>,
    auth: Auth,
    axum::extract::Path(name): axum::extract::Path<String>,
    _no_fields: NoFields,
) -> Result<Json<solum_app::characters::ChangeView>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, move |c| c.grant_advancement_point(&name))
        .await
        .map(Json)
}

/// An advancement attempt: the goal, and the request's own `typed`.
struct AdvanceRequest {
    goal: solum_app::AdvanceGoal,
    typed: Option<Vec<u32>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AdvanceGoalBody {
    goal: solum_app::AdvanceGoal,
}

impl<'de> Deserialize<'de> for AdvanceRequest {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (body, env): (AdvanceGoalBody, DiceEnvelope) = split(d, &["typed"])?;
        Ok(Self {
            goal: body.goal,
            typed: env.typed,
        })
    }
}

/// Spends an advancement point on an attempt (S17); the sheet's owner or the game master.
async fn advance_character(
    State(state): State<AppState>,
    auth: Auth,
    axum::extract::Path(name): axum::extract::Path<String>,
    Body_(req): Body_<AdvanceRequest>,
) -> Result<Json<solum_app::characters::ChangeView>, ApiError> {
    let member = auth.member;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        let dice = dice_for(c, &member, req.typed)?;
        c.advance_character(&name, &req.goal, dice)
    })
    .await
    .map(Json)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RestRequest {
    hours: f64,
}

/// Rests (S16): the minutes bank on the sheet; each whole half hour heals 1.
async fn rest_character(
    State(state): State<AppState>,
    auth: Auth,
    axum::extract::Path(name): axum::extract::Path<String>,
    Body_(req): Body_<RestRequest>,
) -> Result<Json<solum_app::characters::ChangeView>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, move |c| c.rest_character(&name, req.hours))
        .await
        .map(Json)
}

/// The table's roll-off option (S3, S14).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RollOffSetting {
    on: bool,
}

async fn roll_off(
    State(state): State<AppState>,
    auth: Auth,
    _no_query: NoQuery,
) -> Result<Json<RollOffSetting>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, move |c| c.roll_off())
        .await
        .map(|on| Json(RollOffSetting { on }))
}

async fn set_roll_off(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<RollOffSetting>,
) -> Result<Json<RollOffSetting>, ApiError> {
    gm_only(&auth.member, "sets the table's roll-off option")?;
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, move |c| {
        c.set_roll_off(req.on)?;
        c.roll_off()
    })
    .await
    .map(|on| Json(RollOffSetting { on }))
}

async fn check_odds(
    State(state): State<AppState>,
    auth: Auth,
    axum::extract::Path(name): axum::extract::Path<String>,
    Body_(check): Body_<CharacterCheck>,
) -> Result<Json<solum_app::characters::CheckOdds>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, move |c| c.check_odds(&name, &check))
        .await
        .map(Json)
}

struct CheckRequest {
    check: CharacterCheck,
    secret: bool,
    typed: Option<Vec<u32>>,
}

impl<'de> Deserialize<'de> for CheckRequest {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (check, env): (_, DiceEnvelope) = split(d, &["secret", "typed"])?;
        Ok(Self {
            check,
            secret: env.secret,
            typed: env.typed,
        })
    }
}

async fn check(
    State(state): State<AppState>,
    auth: Auth,
    axum::extract::Path(name): axum::extract::Path<String>,
    Body_(req): Body_<CheckRequest>,
) -> Result<Json<solum_app::characters::CheckView>, ApiError> {
    let member = auth.member;
    let scope = roll_scope(&member, req.secret)?;
    change(&state, scope, move |c| {
        // A player rolls from their own characters only (checked in the roll's transaction).
        c.as_roller_of(&member, solum_app::characters::SYSTEM, &name, |c| {
            let dice = dice_for(c, &member, req.typed)?;
            c.check_from_character(&name, &req.check, dice)
        })
    })
    .await
    .map(Json)
}

// ---------------------------------------------------------------------------------------
// Fast static combat (S11) from a character of the table: `solum static --char NAME`.

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StaticFightRequest {
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
#[derive(Serialize)]
struct StaticStatus {
    fight: Option<solum_app::fast_static::StaticView>,
}

async fn static_status(
    State(state): State<AppState>,
    auth: Auth,
    axum::extract::Path(name): axum::extract::Path<String>,
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

async fn static_fight(
    State(state): State<AppState>,
    auth: Auth,
    axum::extract::Path(name): axum::extract::Path<String>,
    Body_(req): Body_<StaticFightRequest>,
) -> Result<Json<solum_app::fast_static::StaticView>, ApiError> {
    let member = auth.member;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        c.as_roller_of(&member, solum_app::characters::SYSTEM, &name, |c| {
            let start = match (&req.foe, &req.opposition) {
                (Some(_), Some(_)) => {
                    return Err(AppError::Character {
                        field: "foe".into(),
                        problem: "give `foe` or `opposition`, not both".into(),
                    });
                }
                (Some(f), None) => Some(solum_app::fast_static::Opposition::shipped(f)?),
                (None, o) => o.clone(),
            };
            let dice = dice_for(c, &member, req.typed.clone())?;
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

async fn static_abandon(
    State(state): State<AppState>,
    auth: Auth,
    axum::extract::Path(name): axum::extract::Path<String>,
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

// ---------------------------------------------------------------------------------------
// Odds of any dice expression (the notation of `solum odds`): nothing rolled, nothing kept.

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OddsRequest {
    expression: String,
}

/// One value of an expression's exact distribution.
#[derive(Serialize)]
struct OddsPoint {
    value: i64,
    p: f64,
    exact: String,
}

/// The exact distribution of a dice expression, as `solum odds EXPR --json` computes it.
#[derive(Serialize)]
struct OddsView {
    expression: String,
    /// Every value with its chance, by value; past [`MAX_ODDS_VALUES`] values only that
    /// many, the likeliest (`truncated`).
    outcomes: Vec<OddsPoint>,
    /// How many different values the expression can take.
    values: usize,
    /// True when `outcomes` leaves values out.
    truncated: bool,
    /// The chance of the values shown.
    shown: f64,
    mean: f64,
    sd: f64,
    /// The mass an explosion's truncation leaves out.
    neglected: f64,
}

/// The most values an odds answer lists: past it, the likeliest ones and a summary.
pub const MAX_ODDS_VALUES: usize = 2_000;

/// A turn for heavy work (a roll or the odds of a dice expression) as `heavy.rs` gives them,
/// or none for cheap work (its estimated cost at most [`heavy::CHEAP_WORK`] steps). Given back
/// when dropped, which is when the work ends even if the request was abandoned.
async fn heavy_turn(
    state: &AppState,
    member: &Member,
    expression: &str,
) -> Result<Option<heavy::Turn>, ApiError> {
    // The estimate reads the expression only (its parse and bound are checked before any
    // work); one it refuses fails as fast in the work itself.
    let cheap = solum_notation::parse(expression)
        .ok()
        .and_then(|e| solum_notation::estimate::check(&e).ok())
        .is_some_and(|b| b.work <= heavy::CHEAP_WORK);
    if cheap {
        return Ok(None);
    }
    let heavy = &state.inner.heavy;
    match heavy
        .turn(member.table, member.id, state.inner.config.heavy_wait)
        .await
    {
        Ok(turn) => Ok(Some(turn)),
        Err(heavy::Refused::Busy) => Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "one roll or odds at a time per session: wait for the last one to finish",
        )),
        Err(heavy::Refused::Full) => Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is busy with other rolls and odds; nothing was rolled, try again in a moment",
        )),
    }
}

/// Longest expression taken.
const MAX_EXPRESSION: usize = 200;

async fn notation_odds(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<OddsRequest>,
) -> Result<Json<OddsView>, ApiError> {
    let text = req.expression;
    if text.trim().is_empty() || text.chars().count() > MAX_EXPRESSION {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "expression: between 1 and 200 characters, like 3d6 or 4d6kh3",
        ));
    }
    let turn = heavy_turn(&state, &auth.member, &text).await?;
    // The notation checks its limits before any work; the work runs off the async threads.
    let view = tokio::task::spawn_blocking(move || {
        let _turn = turn;
        let expr = solum_notation::parse(&text).map_err(|e| e.render(&text))?;
        let d = solum_notation::distribution(&expr).map_err(|e| e.render(&text))?;
        let all = d.outcomes();
        let values = all.len();
        let mut shown: Vec<_> = all
            .iter()
            .map(|(value, p)| (*value, p, solum_dice::prob_to_f64(p)))
            .collect();
        if values > MAX_ODDS_VALUES {
            // The likeliest values, then back in order of value.
            shown.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)));
            shown.truncate(MAX_ODDS_VALUES);
            shown.sort_by_key(|o| o.0);
        }
        Ok::<_, String>(OddsView {
            expression: expr.to_string(),
            values,
            truncated: values > shown.len(),
            shown: shown.iter().map(|o| o.2).sum(),
            outcomes: shown
                .into_iter()
                .map(|(value, p, f)| OddsPoint {
                    value,
                    p: f,
                    exact: p.to_string(),
                })
                .collect(),
            mean: d.mean(),
            sd: d.std_dev(),
            neglected: solum_dice::prob_to_f64(&d.neglected()),
        })
    })
    .await
    .map_err(|_| ApiError::internal())?
    .map_err(|message| {
        ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("expression: {message}"),
        )
    })?;
    Ok(Json(view))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RollRequest {
    expression: String,
    #[serde(default)]
    secret: bool,
    #[serde(default)]
    typed: Option<Vec<u32>>,
}

/// `POST /api/roll`: rolls a dice expression with the server's seed (or a solo game
/// master's typed faces), journaled like every roll; secret for a game master.
async fn notation_roll(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<RollRequest>,
) -> Result<Json<solum_app::notation::NotationView>, ApiError> {
    let member = auth.member;
    let scope = roll_scope(&member, req.secret)?;
    let turn = heavy_turn(&state, &member, &req.expression).await?;
    change(&state, scope, move |c| {
        let _turn = turn;
        let dice = dice_for(c, &member, req.typed)?;
        c.roll_notation(&req.expression, dice)
    })
    .await
    .map(Json)
}

// ---------------------------------------------------------------------------------------
// The combat tracker: the table's one open combat, run by a game master in the line
// language of `solum combat`; every member reads where it stands.

fn gm_only(member: &Member, what: &str) -> Result<(), ApiError> {
    if member.gm {
        Ok(())
    } else {
        Err(ApiError::forbidden(&format!(
            "not allowed: only the game master {what}"
        )))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CombatStartRequest {
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CombatLineRequest {
    line: String,
}

/// The open combat with its fighters, order, ranges and the acting fighter's options with
/// their odds; `{"combat": null}` when none is open.
#[derive(Serialize)]
struct CombatAnswer {
    combat: Option<solum_app::combat::CombatStatus>,
}

async fn combat_status(
    State(state): State<AppState>,
    auth: Auth,
    _no_query: NoQuery,
) -> Result<Json<CombatAnswer>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, |c| c.combat_status())
        .await
        .map(|combat| Json(CombatAnswer { combat }))
}

async fn combat_start(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<CombatStartRequest>,
) -> Result<(StatusCode, Json<solum_app::combat::CombatStartView>), ApiError> {
    gm_only(&auth.member, "runs a combat")?;
    let scope = tables::scope_of(&auth.member);
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

async fn combat_line(
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
    change(&state, scope, move |c| {
        // Faces typed with `with` are real dice: only for a game master alone at the table.
        // (A line that does not parse is refused by the use case, naming the line.)
        if let Ok(solum_play::encounter::Line::Command(_, Some(_), _)) =
            solum_play::encounter::parse_line(&req.line)
            && !tables::may_type_dice(c.store(), &member)?
        {
            return Err(AppError::Forbidden(
                "dice typed in by hand are for a game master playing alone at the table".into(),
            ));
        }
        // The server picks the seed; the use case journals it. A player plays only their
        // own hero's turn (the use case checks it in the line's transaction).
        c.combat_line_as(&member, &req.line)
    })
    .await
    .map(Json)
}

async fn combat_end(
    State(state): State<AppState>,
    auth: Auth,
    _no_fields: NoFields,
) -> Result<Json<solum_app::combat::CombatEndView>, ApiError> {
    gm_only(&auth.member, "runs a combat")?;
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, |c| c.end_combat()).await.map(Json)
}

// ---------------------------------------------------------------------------------------
// The sibling systems: Project Sol tests, the original's checks, Sol'una tests and die-type
// rolls from the table's characters, through their own use cases in `solum-app`.

/// A sheet of any system with who created it.
#[derive(Serialize)]
struct Owned<T> {
    #[serde(flatten)]
    view: T,
    /// The member who created it (none: made at the command line).
    owner: Option<i64>,
}

/// The table's characters of the four sibling systems.
#[derive(Serialize)]
struct SiblingCharacters {
    sol: Vec<Owned<solum_app::sol::SolSheetView>>,
    classic: Vec<Owned<solum_app::classic::HeroView>>,
    soluna: Vec<Owned<solum_app::soluna::SolunaView>>,
    dietype: Vec<Owned<solum_app::dietype::DietypeView>>,
}

async fn sibling_characters(
    State(state): State<AppState>,
    auth: Auth,
    _no_query: NoQuery,
) -> Result<Json<SiblingCharacters>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, |c| {
        use solum_store::TableStore;
        fn owned<T>(
            c: &Campaign<Box<dyn Store>>,
            system: &str,
            views: Vec<T>,
            name: impl Fn(&T) -> &str,
        ) -> Result<Vec<Owned<T>>, AppError> {
            views
                .into_iter()
                .map(|view| {
                    let owner = c.store().sheet_owner(system, name(&view))?;
                    Ok(Owned { view, owner })
                })
                .collect()
        }
        Ok(SiblingCharacters {
            sol: owned(c, solum_app::sol::SYSTEM, c.sols()?, |v| &v.sheet.name)?,
            classic: owned(c, solum_app::classic::SYSTEM, c.classic_heroes()?, |v| {
                &v.hero.name
            })?,
            soluna: owned(c, solum_app::soluna::SYSTEM, c.soluna_characters()?, |v| {
                &v.character.name
            })?,
            dietype: owned(
                c,
                solum_app::dietype::SYSTEM,
                c.dietype_characters()?,
                |v| &v.sheet.name,
            )?,
        })
    })
    .await
    .map(Json)
}

/// A roll's dice and secrecy, beside the system's own request.
struct SiblingRoll<T> {
    request: T,
    secret: bool,
    typed: Option<Vec<u32>>,
}

impl<'de, T: serde::de::DeserializeOwned> Deserialize<'de> for SiblingRoll<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (request, env): (_, DiceEnvelope) = split(d, &["secret", "typed"])?;
        Ok(Self {
            request,
            secret: env.secret,
            typed: env.typed,
        })
    }
}

/// A roll from one of the table's characters of a sibling system, in its turn: secret for a
/// game master only, a player's own character only, typed dice for a game master alone at
/// the table; then `roll` (the system's use case) with the character's name, the request and
/// the dice.
async fn sibling_roll<T, V>(
    state: &AppState,
    member: Member,
    system: &'static str,
    name: String,
    req: SiblingRoll<T>,
    roll: impl FnOnce(&mut Campaign<Box<dyn Store>>, &str, T, Dice) -> Result<V, AppError>
    + Send
    + 'static,
) -> Result<Json<V>, ApiError>
where
    T: Send + 'static,
    V: Send + 'static,
{
    let scope = roll_scope(&member, req.secret)?;
    change(state, scope, move |c| {
        c.as_roller_of(&member, system, &name, |c| {
            let dice = dice_for(c, &member, req.typed)?;
            roll(c, &name, req.request, dice)
        })
    })
    .await
    .map(Json)
}

async fn create_sol(
    State(state): State<AppState>,
    auth: Auth,
    Body_(new): Body_<solum_app::NewSol>,
) -> Result<(StatusCode, Json<solum_app::sol::SolChangeView>), ApiError> {
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, move |c| c.create_sol(&new))
        .await
        .map(|v| (StatusCode::CREATED, Json(v)))
}

async fn sol_test(
    State(state): State<AppState>,
    auth: Auth,
    axum::extract::Path(name): axum::extract::Path<String>,
    Body_(req): Body_<SiblingRoll<solum_app::SolTest>>,
) -> Result<Json<solum_app::sol::SolTestView>, ApiError> {
    sibling_roll(
        &state,
        auth.member,
        solum_app::sol::SYSTEM,
        name,
        req,
        |c, name, r, dice| c.sol_test(name, &r, dice, None),
    )
    .await
}

/// `POST /api/sol/characters/{name}/encounter`: the game master starts a new encounter for
/// a character (P3: one progress point per encounter in all); journaled.
async fn sol_encounter(
    State(state): State<AppState>,
    auth: Auth,
    axum::extract::Path(name): axum::extract::Path<String>,
    _no_fields: NoFields,
) -> Result<Json<solum_app::sol::SolChangeView>, ApiError> {
    gm_only(&auth.member, "starts an encounter")?;
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, move |c| c.sol_encounter(&name))
        .await
        .map(Json)
}

/// `POST /api/sol/characters/{name}/session`: the game master starts a new play session for
/// a character: Edge refreshed, training allowed, a new encounter; journaled.
async fn sol_session(
    State(state): State<AppState>,
    auth: Auth,
    axum::extract::Path(name): axum::extract::Path<String>,
    _no_fields: NoFields,
) -> Result<Json<solum_app::sol::SolChangeView>, ApiError> {
    gm_only(&auth.member, "starts a session")?;
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, move |c| c.sol_session(&name))
        .await
        .map(Json)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewHero {
    name: String,
    #[serde(default)]
    cliches: Vec<String>,
    #[serde(default)]
    typed: Option<Vec<u32>>,
}

async fn create_classic(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<NewHero>,
) -> Result<(StatusCode, Json<solum_app::classic::HeroChangeView>), ApiError> {
    let member = auth.member;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        // Created by the rules: Body, Mind, Spirit, hit points and clichés are rolled.
        let dice = dice_for(c, &member, req.typed)?;
        c.create_classic_hero(&req.name, &req.cliches, dice)
    })
    .await
    .map(|v| (StatusCode::CREATED, Json(v)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClassicCheck {
    stat: solum_classic::hero::Stat,
    cliche: Option<String>,
    /// 1 to 6; none: rolled on a d6 first.
    difficulty: Option<u32>,
    #[serde(default)]
    gear: bool,
    /// The piece of gear the hero carries that serves (implies `gear`).
    gear_name: Option<String>,
}

async fn classic_check(
    State(state): State<AppState>,
    auth: Auth,
    axum::extract::Path(name): axum::extract::Path<String>,
    Body_(req): Body_<SiblingRoll<ClassicCheck>>,
) -> Result<Json<solum_app::classic::HeroCheckView>, ApiError> {
    sibling_roll(
        &state,
        auth.member,
        solum_app::classic::SYSTEM,
        name,
        req,
        |c, name, r, dice| {
            c.check_classic_hero(
                name,
                r.stat,
                r.cliche.as_deref().filter(|s| !s.trim().is_empty()),
                r.difficulty,
                // Gear the hero carries: the one piece on the sheet, or the one named.
                r.gear_name.as_deref().or(r.gear.then_some("")),
                dice,
            )
        },
    )
    .await
}

async fn classic_fight(
    State(state): State<AppState>,
    auth: Auth,
    axum::extract::Path(name): axum::extract::Path<String>,
    Body_(req): Body_<SiblingRoll<solum_app::classic::FightRequest>>,
) -> Result<Json<solum_app::classic::FightView>, ApiError> {
    sibling_roll(
        &state,
        auth.member,
        solum_app::classic::SYSTEM,
        name,
        req,
        |c, name, r, dice| c.play_classic_fight(name, &r, dice),
    )
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClassicAbandon {
    /// The answer to a hit that waits, taken before the hero flees.
    decide: Option<solum_classic::fight::Loss>,
}

async fn classic_fight_abandon(
    State(state): State<AppState>,
    auth: Auth,
    axum::extract::Path(name): axum::extract::Path<String>,
    Body_(req): Body_<ClassicAbandon>,
) -> Result<Json<solum_app::classic::FightView>, ApiError> {
    let member = auth.member;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        c.as_roller_of(&member, solum_app::classic::SYSTEM, &name, |c| {
            c.abandon_classic_fight(&name, req.decide)
        })
    })
    .await
    .map(Json)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClassicGear {
    /// Pieces to give (at most 20).
    #[serde(default)]
    add: Vec<String>,
    /// Pieces to take away (at most 20).
    #[serde(default)]
    remove: Vec<String>,
}

async fn classic_gear(
    State(state): State<AppState>,
    auth: Auth,
    axum::extract::Path(name): axum::extract::Path<String>,
    Body_(req): Body_<ClassicGear>,
) -> Result<Json<solum_app::classic::HeroChangeView>, ApiError> {
    let member = auth.member;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        c.as_roller_of(&member, solum_app::classic::SYSTEM, &name, |c| {
            c.edit_classic_gear(&name, &req.add, &req.remove)
        })
    })
    .await
    .map(Json)
}

/// The hero's fight under way: `{"fight": null}` when none.
#[derive(Serialize)]
struct ClassicFightAnswer {
    fight: Option<solum_app::classic::FightStateView>,
}

async fn classic_fight_status(
    State(state): State<AppState>,
    auth: Auth,
    axum::extract::Path(name): axum::extract::Path<String>,
    _no_query: NoQuery,
) -> Result<Json<ClassicFightAnswer>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, move |c| c.classic_fight(&name))
        .await
        .map(|fight| Json(ClassicFightAnswer { fight }))
}

async fn create_soluna(
    State(state): State<AppState>,
    auth: Auth,
    Body_(character): Body_<solum_soluna::skirmish::Character>,
) -> Result<(StatusCode, Json<solum_app::soluna::SolunaChangeView>), ApiError> {
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, move |c| {
        c.create_soluna_character(&character)
    })
    .await
    .map(|v| (StatusCode::CREATED, Json(v)))
}

async fn soluna_test(
    State(state): State<AppState>,
    auth: Auth,
    axum::extract::Path(name): axum::extract::Path<String>,
    Body_(req): Body_<SiblingRoll<solum_app::soluna::SolunaTest>>,
) -> Result<Json<solum_app::soluna::SolunaTestView>, ApiError> {
    sibling_roll(
        &state,
        auth.member,
        solum_app::soluna::SYSTEM,
        name,
        req,
        |c, name, r, dice| c.soluna_test(name, &r, dice),
    )
    .await
}

/// A played Sol'una skirmish (U5): the table's one open skirmish, or none.
#[derive(Serialize)]
struct SkirmishAnswer {
    skirmish: Option<solum_app::soluna::SkirmishState>,
}

async fn soluna_skirmish_state(
    State(state): State<AppState>,
    auth: Auth,
    _no_query: NoQuery,
) -> Result<Json<SkirmishAnswer>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, |c| match c.soluna_skirmish_state() {
        Ok(s) => Ok(Some(s)),
        Err(AppError::Character { field, .. }) if field == "skirmish" => Ok(None),
        Err(e) => Err(e),
    })
    .await
    .map(|skirmish| Json(SkirmishAnswer { skirmish }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SkirmishStart {
    names: Vec<String>,
    #[serde(default)]
    auto: Vec<String>,
    #[serde(default)]
    typed: Option<Vec<u32>>,
}

async fn soluna_skirmish_start(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<SkirmishStart>,
) -> Result<(StatusCode, Json<solum_app::soluna::PlayView>), ApiError> {
    let member = auth.member;
    gm_only(&member, "starts a skirmish")?;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        let dice = dice_for(c, &member, req.typed)?;
        c.start_soluna_skirmish(&req.names, &req.auto, dice)
    })
    .await
    .map(|v| (StatusCode::CREATED, Json(v)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SkirmishActRequest {
    name: String,
    action: solum_app::soluna::SkirmishAction,
    target: String,
    #[serde(default)]
    ranged: bool,
    #[serde(default)]
    flips: u32,
    #[serde(default)]
    dice: u32,
    #[serde(default)]
    typed: Option<Vec<u32>>,
}

/// A decision: the game master's for any character, a player's for their own. The skirmish
/// and its characters' sheets are the table's: once the member may decide, the use case
/// runs in the game master's scope (it changes only the skirmish, and at its end the sheets
/// as the rules leave them).
async fn soluna_skirmish_act(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<SkirmishActRequest>,
) -> Result<Json<solum_app::soluna::PlayView>, ApiError> {
    let member = auth.member;
    let scope = Scope {
        gm: true,
        ..tables::scope_of(&member)
    };
    change(&state, scope, move |c| {
        c.as_roller_of(&member, solum_app::soluna::SYSTEM, &req.name, |c| {
            let dice = dice_for(c, &member, req.typed)?;
            let act = solum_app::soluna::SkirmishAct {
                action: req.action,
                target: req.target,
                ranged: req.ranged,
                flips: req.flips,
                dice: req.dice,
            };
            c.act_soluna_skirmish(&req.name, &act, dice)
        })
    })
    .await
    .map(Json)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SkirmishGo {
    #[serde(default)]
    typed: Option<Vec<u32>>,
}

async fn soluna_skirmish_go(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<SkirmishGo>,
) -> Result<Json<solum_app::soluna::PlayView>, ApiError> {
    let member = auth.member;
    gm_only(&member, "runs a skirmish")?;
    let scope = tables::scope_of(&member);
    change(&state, scope, move |c| {
        let dice = dice_for(c, &member, req.typed)?;
        c.go_soluna_skirmish(dice)
    })
    .await
    .map(Json)
}

async fn soluna_skirmish_abandon(
    State(state): State<AppState>,
    auth: Auth,
    _no_fields: NoFields,
) -> Result<Json<solum_app::soluna::PlayView>, ApiError> {
    gm_only(&auth.member, "abandons a skirmish")?;
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, |c| c.abandon_soluna_skirmish())
        .await
        .map(Json)
}

struct NewDietype {
    name: String,
    fill: solum_app::dietype::DietypeEdit,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NameEnvelope {
    name: String,
}

impl<'de> Deserialize<'de> for NewDietype {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (fill, env): (_, NameEnvelope) = split(d, &["name"])?;
        Ok(Self {
            name: env.name,
            fill,
        })
    }
}

async fn create_dietype(
    State(state): State<AppState>,
    auth: Auth,
    Body_(req): Body_<NewDietype>,
) -> Result<(StatusCode, Json<solum_app::dietype::DietypeChangeView>), ApiError> {
    let scope = tables::scope_of(&auth.member);
    change(&state, scope, move |c| {
        c.create_dietype_character(&req.name, &req.fill)
    })
    .await
    .map(|v| (StatusCode::CREATED, Json(v)))
}

async fn dietype_roll(
    State(state): State<AppState>,
    auth: Auth,
    axum::extract::Path(name): axum::extract::Path<String>,
    Body_(req): Body_<SiblingRoll<solum_app::dietype::DietypeRoll>>,
) -> Result<Json<solum_app::dietype::DietypeRollView>, ApiError> {
    sibling_roll(
        &state,
        auth.member,
        solum_app::dietype::SYSTEM,
        name,
        req,
        |c, name, r, dice| c.roll_dietype_character(name, &r, dice),
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_public_url_is_a_scheme_a_host_and_a_port_only() {
        let p = PublicOrigin::parse("https://Table.Example.org/").unwrap();
        assert_eq!(p.origin(), "https://table.example.org");
        assert_eq!(p.host(), "table.example.org");
        let p = PublicOrigin::parse("http://127.0.0.1:8080").unwrap();
        assert_eq!(
            (p.origin(), p.host()),
            ("http://127.0.0.1:8080", "127.0.0.1:8080")
        );
        for bad in [
            "table.example.org",
            "ftp://table.example.org",
            "https://",
            "https://table.example.org/solum",
            "https://user:pw@table.example.org",
            "https://table.example.org?x=1",
        ] {
            assert!(PublicOrigin::parse(bad).is_err(), "{bad} taken");
        }
        assert!(PublicOrigin::parse(&format!("https://{}", "a".repeat(400))).is_err());
    }
    use solum_store::CampaignStore;

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

    #[test]
    fn a_kept_connection_serves_the_next_request_in_that_requests_scope_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = Database::Sqlite(dir.path().join("campaign.solum"));
        let gm = Scope::member(1, 1, true).secret();
        let player = Scope::member(2, 5, false);
        let mut store = connection(&path, gm).unwrap();
        assert_eq!(store.scope(), gm);
        // A secret entry written through the game master's scope…
        store
            .append(&[solum_store::NewEntry {
                at: "2026-01-01T00:00:00Z".into(),
                kind: "note".into(),
                schema: 1,
                body: serde_json::json!({"kind": "note", "text": "the traitor is Ida"}),
            }])
            .unwrap();
        keep(&path, store);
        // …and the same connection, kept, answers the next request as that request's member.
        let store = connection(&path, player).unwrap();
        assert_eq!(store.scope(), player);
        assert!(store.entries_after(0, 10).unwrap().is_empty());
        assert!(
            CONNECTION.with(|c| c.borrow().is_none()),
            "taken, not shared"
        );
        keep(&path, store);
        let store = connection(&path, Scope::member(1, 2, false)).unwrap();
        assert!(
            store.entries_after(0, 10).unwrap().is_empty(),
            "a player of table 1 does not read its secret"
        );
        keep(&path, store);
        let store = connection(&path, Scope::member(1, 1, true)).unwrap();
        assert_eq!(store.entries_after(0, 10).unwrap().len(), 1);
    }
}
