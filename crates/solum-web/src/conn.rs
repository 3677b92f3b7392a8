//! Connections: the accept loop of `solum serve`, with its limits.
//!
//! `axum::serve` has no header-read, body or idle timeout and no cap on connections: a
//! stranger holding a thousand half-open requests used up the descriptors and locked
//! everyone out. Here every connection is admitted against a cap overall and per peer
//! address (the cap overall kept below the process's open-files limit, with a reserve for
//! the campaign's files, so `accept` never fails for lack of descriptors); an excess
//! connection is closed at once. Each admitted one is served by hyper, closed when a request
//! head is not whole within the header-read timeout of its first byte (of the connection's
//! start, for the first), and closed when nothing has been read or written for the idle
//! timeout (a live stream writes a comment every 15 seconds, so only a stalled one is idle).
//! The body-read timeout is the router's (see `body_deadline` in the crate root).
//!
//! The header timeout is ours, not hyper's: hyper's starts as soon as a response is sent, so
//! a kept-alive connection was closed after the header timeout of quiet, not the idle
//! timeout, and a client sending its next request just then (a pool keeps connections for
//! 90 seconds) lost it ("connection closed before message completed").

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tower_service::Service;

use crate::{AppState, app};

/// Blocking threads of `solum serve` at most; each keeps one connection to the campaign
/// (three descriptors: the file, its WAL and its shared memory) and may open one more for a
/// request (joining, logging out).
pub const MAX_BLOCKING_THREADS: usize = 16;

/// Blocking threads for the campaign `db`. A SQLite request works on this machine's cores
/// the whole time it runs, so two threads a core keep them busy; more only contend for the
/// pool's lock and switch (measured on two cores: 4 threads answered 2,000 rolls a second
/// with p99 16 ms where 16 threads gave 160 ms, docs/performance.md). A PostgreSQL request
/// mostly waits for its database's answer, so it keeps the most.
pub fn blocking_threads(db: &solum_store_open::Database) -> usize {
    match db {
        solum_store_open::Database::Sqlite(_) => {
            let cores = std::thread::available_parallelism().map_or(2, usize::from);
            cores.saturating_mul(2).clamp(4, MAX_BLOCKING_THREADS)
        }
        solum_store_open::Database::Postgres(_) => MAX_BLOCKING_THREADS,
    }
}

/// Descriptors kept for everything but client connections: the blocking threads' campaign
/// files (two connections each at most), the listener, the runtime's own, standard streams
/// and a margin.
pub const DESCRIPTOR_RESERVE: u64 = 2 * 3 * MAX_BLOCKING_THREADS as u64 + 64;

/// How long a stopping server lets its connections finish.
pub(crate) const STOP_GRACE: Duration = Duration::from_secs(5);

/// The open-files limit of this process (its soft limit), if it has one.
fn open_files_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        rustix::process::getrlimit(rustix::process::Resource::Nofile).current
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The connections served at once: the configured cap, lowered to what the descriptors
/// allow after [`DESCRIPTOR_RESERVE`] (at least 8).
pub fn connection_cap(configured: usize) -> usize {
    match open_files_limit() {
        Some(n) => {
            let room = usize::try_from(n.saturating_sub(DESCRIPTOR_RESERVE)).unwrap_or(usize::MAX);
            configured.min(room.max(8))
        }
        None => configured,
    }
    .max(1)
}

/// Open connections, overall and per peer address, and the ones that have not yet sent a
/// whole request head (oldest first), which a new connection may push out at the cap.
#[derive(Default)]
struct Open {
    total: usize,
    by_peer: HashMap<IpAddr, usize>,
    next: u64,
    /// Every open connection by its number (in the order accepted).
    conns: BTreeMap<u64, Conn>,
}

/// What the accept loop keeps of an open connection.
struct Conn {
    ip: IpAddr,
    /// Set once a request's head has been read whole.
    started: Arc<AtomicBool>,
    /// Told to close the connection when it is pushed out.
    evict: Arc<Notify>,
}

impl Open {
    /// Forgets connection `id` (closed, or pushed out) and gives back its place.
    fn release(&mut self, id: u64) -> Option<Conn> {
        let conn = self.conns.remove(&id)?;
        self.total = self.total.saturating_sub(1);
        if let Some(n) = self.by_peer.get_mut(&conn.ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                self.by_peer.remove(&conn.ip);
            }
        }
        Some(conn)
    }
}

/// A connection's place under the caps, given back when it closes.
struct Slot {
    open: Arc<Mutex<Open>>,
    id: u64,
    started: Arc<AtomicBool>,
    evict: Arc<Notify>,
}

impl Slot {
    /// A place for a connection from `ip`: refused over the cap per peer; at the cap
    /// overall, the oldest connection that has not yet sent a whole request head is pushed
    /// out to make room (refused if every open one has).
    fn take(open: &Arc<Mutex<Open>>, ip: IpAddr, cap: usize, per_peer: usize) -> Option<Self> {
        let mut o = open.lock().ok()?;
        let mine = o.by_peer.get(&ip).copied().unwrap_or(0);
        if mine >= per_peer {
            return None;
        }
        if o.total >= cap {
            let oldest = o
                .conns
                .iter()
                .find(|(_, c)| !c.started.load(Ordering::Relaxed))
                .map(|(id, _)| *id)?;
            if let Some(pushed) = o.release(oldest) {
                // `notify_one` keeps the wake-up should the task not be waiting yet.
                pushed.evict.notify_one();
            }
        }
        let id = o.next;
        o.next = o.next.wrapping_add(1);
        let started = Arc::new(AtomicBool::new(false));
        let evict = Arc::new(Notify::new());
        o.total += 1;
        *o.by_peer.entry(ip).or_insert(0) += 1;
        o.conns.insert(
            id,
            Conn {
                ip,
                started: started.clone(),
                evict: evict.clone(),
            },
        );
        Some(Self {
            open: open.clone(),
            id,
            started,
            evict,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Ok(mut o) = self.open.lock() {
            // Already released if it was pushed out.
            o.release(self.id);
        }
    }
}

/// A socket that remembers when it last moved a byte, and when the request head it is
/// waiting for began (milliseconds since `base`).
struct Watched {
    inner: TcpStream,
    base: Instant,
    last: Arc<AtomicU64>,
    head: Arc<Head>,
}

/// The request head a connection waits for: when its first byte came (milliseconds since
/// the connection's start, plus one; 0 when no head is awaited), and whether a request is
/// being answered (its body's bytes begin no head).
struct Head {
    since: AtomicU64,
    answering: AtomicBool,
    /// Wakes the deadline when a head begins.
    began: Notify,
}

impl Head {
    /// The first request's head is awaited from the connection's start.
    fn new() -> Self {
        Self {
            since: AtomicU64::new(1),
            answering: AtomicBool::new(false),
            began: Notify::new(),
        }
    }

    /// A request's head was read whole: it is answered now.
    fn read(&self) {
        self.answering.store(true, Ordering::Relaxed);
        self.since.store(0, Ordering::Relaxed);
    }

    /// The request's response is made (its body read whole before, by the router): what the
    /// client sends from now on is its next request. Not at the first byte written: hyper
    /// writes `100 Continue` itself before the body is read.
    fn answered(&self) {
        self.answering.store(false, Ordering::Relaxed);
    }
}

fn millis_since(base: Instant) -> u64 {
    u64::try_from(base.elapsed().as_millis()).unwrap_or(u64::MAX)
}

impl Watched {
    fn touch(&self) {
        self.last.store(millis_since(self.base), Ordering::Relaxed);
    }
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let out = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(out, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.touch();
            let head = &self.head;
            if !head.answering.load(Ordering::Relaxed) && head.since.load(Ordering::Relaxed) == 0 {
                let now = millis_since(self.base).saturating_add(1);
                head.since.store(now, Ordering::Relaxed);
                head.began.notify_one();
            }
        }
        out
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let out = Pin::new(&mut self.inner).poll_write(cx, buf);
        if matches!(out, Poll::Ready(Ok(n)) if n > 0) {
            self.touch();
        }
        out
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let out = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        if matches!(out, Poll::Ready(Ok(n)) if n > 0) {
            self.touch();
        }
        out
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// Resolves once a request head has taken longer than `limit` from its first byte.
async fn head_overdue(base: Instant, head: &Head, limit: Duration) {
    loop {
        let since = head.since.load(Ordering::Relaxed);
        if since == 0 {
            head.began.notified().await;
            continue;
        }
        let waited = (base + Duration::from_millis(since - 1)).elapsed();
        if waited >= limit {
            return;
        }
        tokio::time::sleep(limit - waited).await;
    }
}

/// Resolves once nothing has moved on the connection for `idle`.
async fn idle_for(base: Instant, last: &AtomicU64, idle: Duration) {
    loop {
        let at = base + Duration::from_millis(last.load(Ordering::Relaxed));
        let quiet = at.elapsed();
        if quiet >= idle {
            return;
        }
        tokio::time::sleep(idle - quiet).await;
    }
}

/// The client a trusted proxy names: the last address of `X-Forwarded-For` (the one the
/// proxy itself appended; earlier ones were sent by the client and prove nothing). `None`
/// when the header is missing, too long or not an address.
fn forwarded_client(headers: &hyper::HeaderMap) -> Option<IpAddr> {
    let value = headers.get_all("x-forwarded-for").iter().next_back()?;
    let text = value.to_str().ok()?;
    if text.len() > 1_024 {
        return None;
    }
    text.rsplit(',').next()?.trim().parse().ok()
}

/// Serves `state` on `listener` until `shutdown` resolves, with the limits of its
/// [`crate::Config`]; then ends the live streams and lets the open requests finish (for at
/// most a few seconds).
pub async fn serve_on(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let config = state.inner.config.clone();
    let cap = connection_cap(config.max_connections);
    // One address never holds more than half of what there is.
    let per_peer = config.max_connections_per_peer.min(cap / 2).max(1);
    let router = app(state.clone());
    let open = Arc::new(Mutex::new(Open::default()));
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    // Every connection task holds a clone; when all are gone, `recv` sees the end.
    let (alive_tx, mut alive_rx) = tokio::sync::mpsc::channel::<()>(1);
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        // Ours instead (`head_overdue`): hyper's runs from the last answer.
        .header_read_timeout(None)
        .max_buf_size(64 * 1024);
    let builder = Arc::new(builder);
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // A connection reset before it was accepted, or (should the reserve
                    // not suffice) no descriptor: wait a moment, never spin.
                    tracing::warn!("accept: {e}");
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // A trusted proxy carries many clients on its connections: only the overall cap
        // applies to it, and its requests are keyed by the client it names.
        let proxied = config.trusted_proxies.contains(&peer.ip());
        let peer_cap = if proxied { cap } else { per_peer };
        let Some(slot) = Slot::take(&open, peer.ip(), cap, peer_cap) else {
            // Over a cap: closed at once, before a byte is read.
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let base = Instant::now();
        let last = Arc::new(AtomicU64::new(0));
        let head = Arc::new(Head::new());
        let io = TokioIo::new(Watched {
            inner: stream,
            base,
            last: last.clone(),
            head: head.clone(),
        });
        let head_read = head.clone();
        let router = router.clone();
        let started = slot.started.clone();
        let evict = slot.evict.clone();
        let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            // The head is read whole: no longer one to push out at the cap.
            started.store(true, Ordering::Relaxed);
            head_read.read();
            let client = if proxied {
                forwarded_client(req.headers()).map_or(peer, |ip| SocketAddr::new(ip, 0))
            } else {
                peer
            };
            req.extensions_mut().insert(ConnectInfo(client));
            let answer = router.clone().call(req);
            let head = head_read.clone();
            async move {
                let response = answer.await;
                head.answered();
                response
            }
        });
        let builder = builder.clone();
        let mut stop = stop_rx.clone();
        let alive = alive_tx.clone();
        let idle = config.idle_timeout;
        let head_limit = config.header_read_timeout;
        tokio::spawn(async move {
            let _slot = slot;
            let _alive = alive;
            let conn = builder.serve_connection(io, service);
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => return,
                () = idle_for(base, &last, idle) => return,
                () = head_overdue(base, &head, head_limit) => return,
                () = evict.notified() => return,
                _ = stop.wait_for(|s| *s) => {}
            }
            conn.as_mut().graceful_shutdown();
            let _ = tokio::time::timeout(STOP_GRACE, conn).await;
        });
    }
    drop(listener);
    // Live streams never end by themselves: closing them lets the connections finish.
    state.hub().close_all();
    let _ = stop_tx.send(true);
    drop(alive_tx);
    let _ = tokio::time::timeout(STOP_GRACE + Duration::from_secs(1), alive_rx.recv()).await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trusted_proxy_names_its_client_by_the_last_forwarded_address() {
        let mut h = hyper::HeaderMap::new();
        assert_eq!(forwarded_client(&h), None);
        // A client may send its own header: only the address the proxy appended counts.
        h.insert("x-forwarded-for", "1.2.3.4, 10.0.0.7".parse().unwrap());
        assert_eq!(forwarded_client(&h), Some("10.0.0.7".parse().unwrap()));
        h.insert("x-forwarded-for", "2001:db8::1".parse().unwrap());
        assert_eq!(forwarded_client(&h), Some("2001:db8::1".parse().unwrap()));
        h.insert("x-forwarded-for", "not an address".parse().unwrap());
        assert_eq!(forwarded_client(&h), None);
        let long = format!("{}9.9.9.9", "1.1.1.1, ".repeat(200));
        h.insert("x-forwarded-for", long.parse().unwrap());
        assert_eq!(forwarded_client(&h), None, "an over-long header is ignored");
    }

    #[test]
    fn slots_are_capped_overall_and_per_peer_and_given_back() {
        let open = Arc::new(Mutex::new(Open::default()));
        let a: IpAddr = [10, 0, 0, 1].into();
        let b: IpAddr = [10, 0, 0, 2].into();
        let a1 = Slot::take(&open, a, 3, 2).unwrap();
        let a2 = Slot::take(&open, a, 3, 2).unwrap();
        assert!(Slot::take(&open, a, 3, 2).is_none(), "per peer");
        let b1 = Slot::take(&open, b, 3, 2).unwrap();
        // Each has sent a request: none to push out.
        for s in [&a1, &a2, &b1] {
            s.started.store(true, Ordering::Relaxed);
        }
        assert!(Slot::take(&open, b, 3, 2).is_none(), "overall");
        drop(a1);
        assert!(Slot::take(&open, b, 3, 2).is_some());
        drop((a2, b1));
        let o = open.lock().unwrap();
        assert_eq!(o.total, 0);
        assert!(o.by_peer.is_empty(), "no empty entries kept");
        assert!(o.conns.is_empty());
    }

    #[test]
    fn at_the_cap_the_oldest_connection_without_a_request_is_pushed_out() {
        let open = Arc::new(Mutex::new(Open::default()));
        let ip = |n: u8| IpAddr::from([10, 0, 0, n]);
        let a = Slot::take(&open, ip(1), 3, 2).unwrap();
        let b = Slot::take(&open, ip(2), 3, 2).unwrap();
        let c = Slot::take(&open, ip(3), 3, 2).unwrap();
        a.started.store(true, Ordering::Relaxed);
        // Full: the oldest without a request is b (a has sent one).
        let d = Slot::take(&open, ip(4), 3, 2).unwrap();
        {
            let o = open.lock().unwrap();
            assert_eq!(o.total, 3);
            assert!(!o.by_peer.contains_key(&ip(2)), "b's place given back");
            assert_eq!(
                o.conns.keys().copied().collect::<Vec<_>>(),
                [a.id, c.id, d.id]
            );
        }
        // b was told to close (the permit is kept until it waits).
        {
            let mut told = std::pin::pin!(b.evict.notified());
            assert!(told.as_mut().enable(), "b told to close");
        }
        drop(b);
        assert_eq!(
            open.lock().unwrap().total,
            3,
            "b's place not given back twice"
        );
        for s in [&c, &d] {
            s.started.store(true, Ordering::Relaxed);
        }
        assert!(
            Slot::take(&open, ip(5), 3, 2).is_none(),
            "all have a request"
        );
        drop((a, c, d));
        let o = open.lock().unwrap();
        assert_eq!(o.total, 0);
        assert!(o.by_peer.is_empty() && o.conns.is_empty());
    }

    #[test]
    fn the_connection_cap_leaves_the_reserve() {
        let cap = connection_cap(usize::MAX);
        if let Some(n) = open_files_limit() {
            let room = usize::try_from(n.saturating_sub(DESCRIPTOR_RESERVE)).unwrap();
            assert_eq!(cap, room.max(8));
        }
        assert_eq!(connection_cap(5), 5.min(cap));
    }
}
