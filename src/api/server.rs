//! The accept loop and the connections: HTTP/1 and HTTP/2 over TCP, each
//! connection with a header timeout (a socket that sends nothing is
//! closed), an idle timeout (a keep-alive connection with no request in
//! flight), a write timeout (a client that reads nothing of its answer is
//! dropped and its answer freed), and a cap on connections open at once;
//! and the shutdown: `/readyz` at 503 first, a drain delay, then the
//! listener closes, requests in flight get a grace period, and the process
//! goes whatever is left.

use super::{admin_router, router, AppState};
use crate::config::ServeConfig;
use axum::body::Body;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Semaphore};
use tower::ServiceExt;

/// The connection timeouts and cap of one listener.
#[derive(Clone, Copy, Debug)]
pub struct ConnectionLimits {
    /// Time to send a request's headers, counted from the connection's
    /// start for the first request.
    pub header_timeout: Duration,
    /// Time with no request in flight before the connection is closed.
    pub idle_timeout: Duration,
    /// Time a write may make no progress before the connection is dropped.
    pub write_timeout: Duration,
    /// Connections open at once; more are refused as they arrive.
    pub max_connections: usize,
}

/// File descriptors kept for everything but connections: the admin
/// listener's, the log, the files the server opens.
const RESERVED_DESCRIPTORS: usize = 64;

/// Connections the admin listener (health, readiness, metrics) keeps open at once.
const ADMIN_CONNECTIONS: usize = 32;

impl ConnectionLimits {
    /// The API listener's limits from the configuration; the cap is held
    /// under the process's file descriptor limit, so that a flood of
    /// connections never takes the descriptors health checks need.
    pub fn of(config: &ServeConfig) -> ConnectionLimits {
        ConnectionLimits {
            header_timeout: Duration::from_millis(config.header_timeout_ms),
            idle_timeout: Duration::from_millis(config.idle_timeout_ms),
            write_timeout: Duration::from_millis(config.write_timeout_ms),
            max_connections: config.max_connections.min(descriptor_room()).max(1),
        }
    }

    /// The admin listener's: the same timeouts, a small cap of its own.
    fn admin(self) -> ConnectionLimits {
        ConnectionLimits {
            max_connections: ADMIN_CONNECTIONS,
            ..self
        }
    }
}

/// How many connections the file descriptor limit leaves room for.
fn descriptor_room() -> usize {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct it is given and nothing else.
    let known = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
    if !known || limit.rlim_cur == libc::RLIM_INFINITY {
        return usize::MAX;
    }
    let descriptors = usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX);
    descriptors
        .saturating_sub(RESERVED_DESCRIPTORS + ADMIN_CONNECTIONS)
        .max(1)
}

/// Serves `app` on `listener` until `shutdown` completes; then drains and
/// returns (see [`serve_with_admin`]). Before accepting, it sets the
/// engines' table budget per compute worker from the configuration
/// (process-wide: one server per process).
pub async fn serve(listener: TcpListener, app: AppState, shutdown: impl Future<Output = ()>) {
    serve_with_admin(listener, None, app, shutdown).await;
}

/// [`serve`], with health, readiness and metrics on `admin` when given
/// (`--admin-bind`). When `shutdown` completes: `/readyz` answers 503 at
/// once, the API keeps serving for the drain delay, then its listener
/// closes and every connection is asked to end after its request in
/// flight; after the grace period the connections left are dropped, the
/// compute pools are closed (running searches stop) and this returns.
/// The admin listener answers until then.
pub async fn serve_with_admin(
    listener: TcpListener,
    admin: Option<TcpListener>,
    app: AppState,
    shutdown: impl Future<Output = ()>,
) {
    crate::search::memory::set_table_bytes(app.config.table_bytes());
    let limits = ConnectionLimits::of(&app.config);
    let (stop_admin, admin_stopped) = watch::channel(false);
    let admin_task = admin.map(|admin| {
        let listener = Listener::new("admin", admin_router(app.clone()), limits.admin());
        tokio::spawn(async move { listener.accept_until(admin, admin_stopped).await })
    });
    let api = Listener::new("api", router(app.clone()), limits);
    let (stop_api, api_stopped) = watch::channel(false);
    let accepting = api.accept_until(listener, api_stopped);
    tokio::pin!(accepting);
    let drain_delay = Duration::from_millis(app.config.drain_delay_ms);
    let draining = app.draining.clone();
    let drained = async move {
        shutdown.await;
        draining.store(true, Ordering::SeqCst);
        tracing::info!(
            drain_delay_ms = drain_delay.as_millis() as u64,
            "shutting down: /readyz answers 503; serving on through the drain delay"
        );
        tokio::time::sleep(drain_delay).await;
    };
    tokio::select! {
        () = &mut accepting => {}
        () = drained => {
            let _ = stop_api.send(true);
            accepting.await;
        }
    }
    let grace = Duration::from_secs(app.config.shutdown_grace_s);
    tracing::info!(
        grace_s = grace.as_secs(),
        open = api.open(),
        "listener closed: finishing requests in flight"
    );
    let finished = async {
        while api.open() > 0 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    match tokio::time::timeout(grace, finished).await {
        Ok(()) => tracing::info!("all requests finished"),
        Err(_) => tracing::warn!(
            left = api.open(),
            "the grace period ended with connections open: dropping them"
        ),
    }
    // Searches still running are asked to stop, so the workers are free
    // and the process can end now.
    app.pool.close();
    app.rules.close();
    app.urgent.close();
    let _ = stop_admin.send(true);
    if let Some(task) = admin_task {
        let _ = task.await;
    }
}

/// One listening socket and how its connections are served.
struct Listener {
    name: &'static str,
    routes: axum::Router,
    limits: ConnectionLimits,
    slots: Arc<Semaphore>,
    live: Arc<AtomicUsize>,
    builder: Arc<Builder<TokioExecutor>>,
}

impl Listener {
    fn new(name: &'static str, routes: axum::Router, limits: ConnectionLimits) -> Listener {
        let mut builder = Builder::new(TokioExecutor::new());
        builder
            .http1()
            .timer(TokioTimer::new())
            .header_read_timeout(limits.header_timeout);
        // A peer that stops reading stops answering pings too.
        builder
            .http2()
            .timer(TokioTimer::new())
            .keep_alive_interval(limits.write_timeout / 2)
            .keep_alive_timeout(limits.write_timeout / 2);
        Listener {
            name,
            routes,
            limits,
            slots: Arc::new(Semaphore::new(limits.max_connections)),
            live: Arc::new(AtomicUsize::new(0)),
            builder: Arc::new(builder),
        }
    }

    /// Connections open now.
    fn open(&self) -> usize {
        self.live.load(Ordering::SeqCst)
    }

    /// Accepts connections until `stop` turns true, then closes the
    /// socket; the connections it started are told to end then too.
    async fn accept_until(&self, listener: TcpListener, mut stop: watch::Receiver<bool>) {
        let (closing, _) = watch::channel(false);
        loop {
            let (stream, peer) = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok(pair) => pair,
                    Err(error) => {
                        // Out of file descriptors and the like: wait a little, keep serving.
                        tracing::warn!(%error, "accept failed");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                },
                () = raised(&mut stop) => break,
            };
            let Ok(slot) = self.slots.clone().try_acquire_owned() else {
                refuse(stream);
                metrics::counter!("gamebot_connections_total", "listener" => self.name, "result" => "refused")
                    .increment(1);
                continue;
            };
            metrics::counter!("gamebot_connections_total", "listener" => self.name, "result" => "served")
                .increment(1);
            let connection = Connection {
                listener: self.name,
                routes: self.routes.clone(),
                limits: self.limits,
                builder: self.builder.clone(),
                live: self.live.clone(),
            };
            let closing = closing.subscribe();
            tokio::spawn(async move {
                connection.serve(stream, peer, closing).await;
                drop(slot);
            });
        }
        drop(listener);
        // Every connection sees it (or the sender gone) and ends after its
        // requests in flight.
        let _ = closing.send(true);
    }
}

/// Completes once `flag` is true or its sender is gone.
async fn raised(flag: &mut watch::Receiver<bool>) {
    let _ = flag.wait_for(|raised| *raised).await;
}

/// Turns away a connection over the cap: a 503 written if the socket takes
/// it at once, then closed. Nothing waits on the peer.
fn refuse(stream: TcpStream) {
    let _ = stream.try_write(
        b"HTTP/1.1 503 Service Unavailable\r\nretry-after: 1\r\nconnection: close\r\ncontent-length: 0\r\n\r\n",
    );
    drop(stream);
}

/// One accepted connection and what it is served with.
struct Connection {
    listener: &'static str,
    routes: axum::Router,
    limits: ConnectionLimits,
    builder: Arc<Builder<TokioExecutor>>,
    live: Arc<AtomicUsize>,
}

/// Why the server closed a connection itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Closed {
    HeaderTimeout,
    IdleTimeout,
    Shutdown,
}

impl Closed {
    fn label(self) -> &'static str {
        match self {
            Closed::HeaderTimeout => "header_timeout",
            Closed::IdleTimeout => "idle_timeout",
            Closed::Shutdown => "shutdown",
        }
    }
}

impl Connection {
    /// Serves the connection until it ends, the peer goes silent or idle
    /// past its timeouts, or shutdown asks it to end.
    async fn serve(self, stream: TcpStream, peer: SocketAddr, mut closing: watch::Receiver<bool>) {
        let _ = stream.set_nodelay(true);
        let _open = OpenGauge::new(self.listener, &self.live);
        let activity = Activity::new();
        let routes = self.routes;
        let seen = activity.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            let guard = seen.begin();
            let routes = routes.clone();
            async move {
                let response = routes.oneshot(request.map(Body::new)).await?;
                Ok::<_, std::convert::Infallible>(response.map(|body| {
                    Body::new(GuardedBody {
                        body,
                        _guard: guard,
                    })
                }))
            }
        });
        let io = TimedIo::new(stream, self.limits.write_timeout);
        let connection = self
            .builder
            .serve_connection_with_upgrades(TokioIo::new(io), service);
        tokio::pin!(connection);
        let tick = (self.limits.header_timeout.min(self.limits.idle_timeout) / 4)
            .clamp(Duration::from_millis(5), Duration::from_millis(500));
        let mut asked_to_end: Option<Closed> = None;
        let mut shutting = *closing.borrow();
        loop {
            if shutting && asked_to_end.is_none() {
                asked_to_end = Some(Closed::Shutdown);
                connection.as_mut().graceful_shutdown();
            }
            tokio::select! {
                ended = connection.as_mut() => {
                    if let Err(error) = ended {
                        tracing::debug!(%peer, %error, "connection ended with an error");
                    }
                    break;
                }
                () = raised(&mut closing), if !shutting => {
                    shutting = true;
                }
                () = tokio::time::sleep(tick) => {
                    if asked_to_end == Some(Closed::Shutdown) && activity.never_asked() {
                        // A socket that never sent a request has nothing
                        // to finish; one that did is ended by hyper, which
                        // flushes its last answer first.
                        break;
                    }
                    let Some(reason) = activity.expired(&self.limits) else { continue };
                    if asked_to_end.is_some() {
                        // It was asked to end and has been idle since: drop it.
                        break;
                    }
                    metrics::counter!("gamebot_connections_closed_total", "reason" => reason.label())
                        .increment(1);
                    if reason == Closed::HeaderTimeout {
                        // Nothing was asked: nothing to end gracefully.
                        break;
                    }
                    asked_to_end = Some(reason);
                    connection.as_mut().graceful_shutdown();
                }
            }
        }
        if let Some(reason) = asked_to_end.filter(|r| *r == Closed::Shutdown) {
            metrics::counter!("gamebot_connections_closed_total", "reason" => reason.label())
                .increment(1);
        }
    }
}

/// Counts a connection open while it lives.
struct OpenGauge {
    listener: &'static str,
    live: Arc<AtomicUsize>,
}

impl OpenGauge {
    fn new(listener: &'static str, live: &Arc<AtomicUsize>) -> OpenGauge {
        let open = live.fetch_add(1, Ordering::SeqCst) + 1;
        metrics::gauge!("gamebot_connections_open", "listener" => listener).set(open as f64);
        OpenGauge {
            listener,
            live: live.clone(),
        }
    }
}

impl Drop for OpenGauge {
    fn drop(&mut self) {
        let open = self.live.fetch_sub(1, Ordering::SeqCst) - 1;
        metrics::gauge!("gamebot_connections_open", "listener" => self.listener).set(open as f64);
    }
}

/// What a connection is doing: requests in flight (until their answers'
/// bodies are sent or dropped), whether any came yet, and since when it
/// has been without one.
#[derive(Clone)]
struct Activity(Arc<ActivityState>);

struct ActivityState {
    in_flight: AtomicUsize,
    /// When the last request ended (or the connection opened), and whether
    /// a request has started at all.
    quiet_since: Mutex<(Instant, bool)>,
}

impl Activity {
    fn new() -> Activity {
        Activity(Arc::new(ActivityState {
            in_flight: AtomicUsize::new(0),
            quiet_since: Mutex::new((Instant::now(), false)),
        }))
    }

    /// A request starts; it is in flight until the guard is dropped.
    fn begin(&self) -> RequestGuard {
        self.0.in_flight.fetch_add(1, Ordering::SeqCst);
        if let Ok(mut quiet) = self.0.quiet_since.lock() {
            quiet.1 = true;
        }
        RequestGuard(self.clone())
    }

    /// Whether no request has started on the connection yet.
    fn never_asked(&self) -> bool {
        self.0.quiet_since.lock().is_ok_and(|quiet| !quiet.1)
    }

    /// Why the connection should close now, if it should: no request yet
    /// past the header timeout, or none in flight past the idle timeout.
    fn expired(&self, limits: &ConnectionLimits) -> Option<Closed> {
        if self.0.in_flight.load(Ordering::SeqCst) > 0 {
            return None;
        }
        let (since, started) = *self.0.quiet_since.lock().ok()?;
        let quiet = since.elapsed();
        match started {
            false if quiet >= limits.header_timeout => Some(Closed::HeaderTimeout),
            true if quiet >= limits.idle_timeout => Some(Closed::IdleTimeout),
            _ => None,
        }
    }
}

/// A request in flight on its connection.
struct RequestGuard(Activity);

impl Drop for RequestGuard {
    fn drop(&mut self) {
        let state = &(self.0).0;
        if let Ok(mut quiet) = state.quiet_since.lock() {
            quiet.0 = Instant::now();
        }
        state.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

/// An answer's body that keeps its request in flight until it is sent
/// whole or dropped.
struct GuardedBody {
    body: Body,
    _guard: RequestGuard,
}

impl http_body::Body for GuardedBody {
    type Data = bytes::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

/// A socket whose writes fail once one has made no progress for the write
/// timeout: a client that reads nothing of its answer is dropped, and the
/// answer with it.
struct TimedIo {
    stream: TcpStream,
    timeout: Duration,
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl TimedIo {
    fn new(stream: TcpStream, timeout: Duration) -> TimedIo {
        TimedIo {
            stream,
            timeout,
            stalled: None,
        }
    }

    /// What a write that returned `poll` means: progress clears the stall,
    /// a wait starts (or keeps) its clock, and a wait past the timeout is
    /// an error.
    fn watch<T>(&mut self, cx: &mut Context<'_>, poll: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        if poll.is_ready() {
            self.stalled = None;
            return poll;
        }
        let timeout = self.timeout;
        let stalled = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        match stalled.as_mut().poll(cx) {
            Poll::Ready(()) => {
                metrics::counter!("gamebot_connections_closed_total", "reason" => "write_timeout")
                    .increment(1);
                Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the client read nothing of its answer for the write timeout",
                )))
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncRead for TimedIo {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for TimedIo {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.stream).poll_write(cx, buf);
        self.watch(cx, poll)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        self.watch(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.stream).poll_flush(cx);
        self.watch(cx, poll)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// Completes on the first SIGTERM or Ctrl-C (SIGINT); from then on, a
/// second one ends the process at once (exit code 1), whatever it is doing.
pub async fn shutdown_signal() {
    first_signal().await;
    tokio::spawn(async {
        first_signal().await;
        tracing::warn!("a second signal: exiting at once");
        std::process::exit(1);
    });
}

/// Completes on SIGTERM or Ctrl-C.
async fn first_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}
