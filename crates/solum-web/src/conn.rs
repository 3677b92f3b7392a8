//! Connections: the accept loop of `solum serve`, with its limits.
//!
//! `axum::serve` has no header-read, body or idle timeout and no cap on connections: a
//! stranger holding a thousand half-open requests used up the descriptors and locked
//! everyone out. Here every connection is admitted against a cap overall and per peer
//! address (the cap overall kept below the process's open-files limit, with a reserve for
//! the campaign's files, so `accept` never fails for lack of descriptors); an excess
//! connection is closed at once. Each admitted one is served by hyper with a header-read
//! timeout, and closed when nothing has been read or written for the idle timeout (a live
//! stream writes a comment every 15 seconds, so only a stalled one is idle). The body-read
//! timeout is the router's (see `body_deadline` in the crate root).

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tower_service::Service;

use crate::{AppState, app};

/// Blocking threads of `solum serve` at most; each keeps one connection to the campaign
/// (three descriptors: the file, its WAL and its shared memory) and may open one more for a
/// request (joining, logging out).
pub const MAX_BLOCKING_THREADS: usize = 16;

/// Descriptors kept for everything but client connections: the blocking threads' campaign
/// files (two connections each at most), the listener, the runtime's own, standard streams
/// and a margin.
pub const DESCRIPTOR_RESERVE: u64 = 2 * 3 * MAX_BLOCKING_THREADS as u64 + 64;

/// How long a stopping server lets its connections finish.
const STOP_GRACE: Duration = Duration::from_secs(5);

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

/// Open connections, overall and per peer address.
#[derive(Default)]
struct Open {
    total: usize,
    by_peer: HashMap<IpAddr, usize>,
}

/// A connection's place under the caps, given back when it closes.
struct Slot {
    open: Arc<Mutex<Open>>,
    ip: IpAddr,
}

impl Slot {
    fn take(open: &Arc<Mutex<Open>>, ip: IpAddr, cap: usize, per_peer: usize) -> Option<Self> {
        let mut o = open.lock().ok()?;
        let mine = o.by_peer.get(&ip).copied().unwrap_or(0);
        if o.total >= cap || mine >= per_peer {
            return None;
        }
        o.total += 1;
        *o.by_peer.entry(ip).or_insert(0) += 1;
        Some(Self {
            open: open.clone(),
            ip,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Ok(mut o) = self.open.lock() {
            o.total = o.total.saturating_sub(1);
            if let Some(n) = o.by_peer.get_mut(&self.ip) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    o.by_peer.remove(&self.ip);
                }
            }
        }
    }
}

/// A socket that remembers when it last moved a byte (milliseconds since `base`).
struct Watched {
    inner: TcpStream,
    base: Instant,
    last: Arc<AtomicU64>,
}

impl Watched {
    fn touch(&self) {
        let ms = u64::try_from(self.base.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last.store(ms, Ordering::Relaxed);
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
        .header_read_timeout(config.header_read_timeout)
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
        let Some(slot) = Slot::take(&open, peer.ip(), cap, per_peer) else {
            // Over a cap: closed at once, before a byte is read.
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let base = Instant::now();
        let last = Arc::new(AtomicU64::new(0));
        let io = TokioIo::new(Watched {
            inner: stream,
            base,
            last: last.clone(),
        });
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            router.clone().call(req)
        });
        let builder = builder.clone();
        let mut stop = stop_rx.clone();
        let alive = alive_tx.clone();
        let idle = config.idle_timeout;
        tokio::spawn(async move {
            let _slot = slot;
            let _alive = alive;
            let conn = builder.serve_connection(io, service);
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => return,
                () = idle_for(base, &last, idle) => return,
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
    fn slots_are_capped_overall_and_per_peer_and_given_back() {
        let open = Arc::new(Mutex::new(Open::default()));
        let a: IpAddr = [10, 0, 0, 1].into();
        let b: IpAddr = [10, 0, 0, 2].into();
        let a1 = Slot::take(&open, a, 3, 2).unwrap();
        let a2 = Slot::take(&open, a, 3, 2).unwrap();
        assert!(Slot::take(&open, a, 3, 2).is_none(), "per peer");
        let b1 = Slot::take(&open, b, 3, 2).unwrap();
        assert!(Slot::take(&open, b, 3, 2).is_none(), "overall");
        drop(a1);
        assert!(Slot::take(&open, b, 3, 2).is_some());
        drop((a2, b1));
        let o = open.lock().unwrap();
        assert_eq!(o.total, 0);
        assert!(o.by_peer.is_empty(), "no empty entries kept");
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
