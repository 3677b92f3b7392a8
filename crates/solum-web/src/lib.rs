//! The web table: an HTTP server over the application layer and the campaign store.
//!
//! [`app`] builds the router (a JSON API under `/api`, live updates as server-sent events,
//! and the embedded page at `/`); [`serve`] binds it and runs until Ctrl-C. The server holds
//! no rule, no SQL and no load–change–save flow: every request finds its member by session
//! token, opens the campaign file in that member's [`Scope`] (their table, their role) and
//! makes one `solum-app` call on a blocking thread. A table's data is reachable only through
//! a session of that table, because the store filters every query by the scope.

mod conn;
mod error;
mod extract;
mod heavy;
mod json;
mod live;
mod middleware;
mod openapi;
mod page;
mod rendered;
mod routes;
mod run;
mod sessions;
mod unthrottled;
mod writer;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use solum_app::tables;
use solum_store::Scope;
use solum_store_open::Database;

pub use conn::{DESCRIPTOR_RESERVE, MAX_BLOCKING_THREADS, connection_cap, serve_on};
pub use live::Hub;
pub use unthrottled::UNTHROTTLED_CONNECTIONS;

pub use error::ApiError;
pub use extract::Auth;
pub use json::to_json;
pub use middleware::CSP;
/// The API's OpenAPI description, as `GET /api/openapi.json` serves it.
pub use openapi::description as openapi_description;
pub use routes::journal::{MAX_PAGE, PAGE};
pub use routes::notation::MAX_ODDS_VALUES;
/// The API's routes as the router declares them: `(method, path under /api)`.
pub use routes::{PAGE_ROUTES, ROUTES as API_ROUTES};

pub(crate) use extract::{Body_, DiceEnvelope, NoFields, NoQuery, Peer, Query_, split};
pub(crate) use json::Json;
pub(crate) use middleware::{
    Limiter, anonymous_limit, body_deadline, guard, json_errors, with_peer, write_budget,
};
pub(crate) use run::{blocking, change, in_campaign, read, roll_scope, with_campaign, write};

/// The port `solum serve` listens on unless `--addr` says otherwise.
pub const DEFAULT_PORT: u16 = 7373;

/// The largest request body of a roll, a scene, a join or an edit, in bytes.
pub const BODY_LIMIT: usize = 4 * 1024;
/// The largest request body of a note (a note holds up to [`solum_app::MAX_NOTE`]
/// characters, in any script).
pub const NOTE_BODY_LIMIT: usize = 64 * 1024;

// The longest note in any script fits: 10,000 characters of 4 bytes each, or of JSON's
// `\uXXXX` escapes (6 bytes), and the body's own few bytes.
const _: () = assert!(solum_app::MAX_NOTE * 6 + 1024 <= NOTE_BODY_LIMIT);

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
    /// Requests without a session (creating or joining a table) a peer address may make at
    /// once before its rate limit bites.
    pub anonymous_burst: u32,
    /// Requests without a session per second a peer address regains.
    pub anonymous_per_sec: f64,
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
            rate_burst: 120,
            rate_per_sec: 20.0,
            anonymous_burst: 60,
            anonymous_per_sec: 20.0,
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
    anonymous: Limiter,
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
    /// Members seen by their sessions: who a request acts as, without a query.
    names: run::Names,
}

impl AppState {
    /// The state of a server with `config`.
    pub fn new(config: Config) -> Self {
        Self {
            inner: Arc::new(Inner {
                limiter: Limiter::new(config.rate_burst, config.rate_per_sec),
                anonymous: Limiter::new(config.anonymous_burst, config.anonymous_per_sec),
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
                names: run::Names::default(),
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
    let api = routes::api()
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "no such endpoint") })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "this endpoint does not take that method",
            )
        })
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            body_deadline,
        ))
        // A body announced past the largest limit is refused on its `Content-Length` at once,
        // before anyone waits for it (the per-route limits above count what arrives).
        .layer(tower_http::limit::RequestBodyLimitLayer::new(
            NOTE_BODY_LIMIT,
        ))
        .layer(axum::middleware::from_fn(json_errors))
        .layer(axum::middleware::from_fn(with_peer));
    Router::new()
        .merge(routes::page())
        .nest("/api", api)
        .layer(axum::middleware::from_fn_with_state(state.clone(), guard))
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
        .max_blocking_threads(conn::blocking_threads(&config.campaign))
        .build()?;
    let served = runtime.block_on(async move {
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
        // Listening for the stop before anyone learns the address: a signal that arrives
        // before its handler is installed takes its inherited disposition, and a process
        // started in the background (`cmd &` in a script) inherits SIGINT ignored.
        let stop = stop_signal()?;
        // The API's description is made once, when first asked (seconds in a debug build):
        // made now, on a thread of its own, no client waits for it.
        tokio::task::spawn_blocking(|| {
            let _ = openapi::json();
        });
        let path = config.campaign.clone();
        let invite = tokio::task::spawn_blocking(move || {
            let mut store = solum_store_open::open(&path, Scope::HOME)?;
            tables::home_gm_invite(&mut store)
        })
        .await
        .map_err(std::io::Error::other)?
        .map_err(|e| std::io::Error::other(e.to_string()))?;
        // The origin browsers use: the public one behind a proxy, else the address bound.
        let origin = match &config.public_origin {
            Some(public) => public.origin().to_string(),
            None => format!("http://{local}"),
        };
        ready(&Ready {
            addr: local,
            home_invite_link: tables::invite_link(&origin, &invite.token),
            origin,
            home_invite: invite.token,
            home_invite_expires: invite.expires,
        });
        let state = AppState::new(config);
        // Each connection's peer address keys the rate limit of requests without a session
        // and the caps of connections and streams.
        serve_on(listener, state, stop).await
    });
    // Dropping the runtime would wait for every blocking task however long it takes (a
    // read waiting out the busy timeout): a stop waits a few seconds at most.
    runtime.shutdown_timeout(conn::STOP_GRACE);
    served
}

/// Completes on Ctrl-C (SIGINT) or, on Unix, SIGTERM (what a service manager or a container
/// runtime sends to stop a server). The handlers are installed when this returns.
#[cfg(unix)]
fn stop_signal() -> std::io::Result<impl Future<Output = ()> + Send + 'static> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut interrupt = signal(SignalKind::interrupt())?;
    let mut terminate = signal(SignalKind::terminate())?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => {}
            _ = terminate.recv() => {}
        }
    })
}

/// Completes on Ctrl-C.
#[cfg(not(unix))]
fn stop_signal() -> std::io::Result<impl Future<Output = ()> + Send + 'static> {
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
    })
}

/// What [`serve`] tells its caller once it listens.
#[derive(Debug, Clone)]
pub struct Ready {
    /// The address bound.
    pub addr: SocketAddr,
    /// The origin browsers reach the page at (`http://host:port`, no trailing slash): the
    /// public URL behind a proxy ([`Config::public_origin`]), else the address bound.
    pub origin: String,
    /// The page's link that opens [`Ready::home_invite`] ([`tables::invite_link`]).
    pub home_invite_link: String,
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
}
