//! The accept loop: HTTP/1 and HTTP/2 over TCP, with a header-read timeout
//! (slow clients cannot hold connections open for free) and graceful shutdown.

use super::{admin_router, router, AppState};
use axum::body::Body;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::server::graceful::GracefulShutdown;
use std::future::Future;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::net::TcpListener;
use tower::ServiceExt;

/// How long a client may take to send its request headers.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// Serves `app` on `listener` until `shutdown` completes; then stops accepting,
/// marks the service not ready, lets running requests finish and returns.
/// Before accepting, it sets the engines' table budget per compute worker
/// from the configuration (process-wide: one server per process).
pub async fn serve(listener: TcpListener, app: AppState, shutdown: impl Future<Output = ()>) {
    serve_with_admin(listener, None, app, shutdown).await;
}

/// [`serve`], with health, readiness and metrics on `admin` when given
/// (`--admin-bind`). The admin listener keeps answering while the API
/// drains, so that a load balancer sees readiness fall, and closes once
/// the last request in flight has finished.
pub async fn serve_with_admin(
    listener: TcpListener,
    admin: Option<TcpListener>,
    app: AppState,
    shutdown: impl Future<Output = ()>,
) {
    crate::search::memory::set_table_bytes(app.config.table_bytes());
    let draining = app.draining.clone();
    let (drained, admin_stop) = tokio::sync::oneshot::channel::<()>();
    let admin_task = admin.map(|admin| {
        let routes = admin_router(app.clone());
        tokio::spawn(async move {
            let stop = async {
                let _ = admin_stop.await;
            };
            accept(admin, routes, None, stop).await;
        })
    });
    let graceful = GracefulShutdown::new();
    accept(listener, router(app), Some(&graceful), shutdown).await;
    draining.store(true, Ordering::Relaxed);
    tracing::info!("shutting down: finishing requests in flight");
    graceful.shutdown().await;
    tracing::info!("all requests finished");
    let _ = drained.send(());
    if let Some(task) = admin_task {
        let _ = task.await;
    }
}

/// Accepts connections on `listener` for `routes` until `stop` completes,
/// then closes the listener. Connections are watched by `graceful` when
/// given, so that shutdown can wait for their requests.
async fn accept(
    listener: TcpListener,
    routes: axum::Router,
    graceful: Option<&GracefulShutdown>,
    stop: impl Future<Output = ()>,
) {
    let mut builder = Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_READ_TIMEOUT);
    tokio::pin!(stop);
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
            () = &mut stop => break,
        };
        let _ = stream.set_nodelay(true);
        let routes = routes.clone();
        let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
            routes.clone().oneshot(request.map(Body::new))
        });
        let connection = builder
            .serve_connection_with_upgrades(TokioIo::new(stream), service)
            .into_owned();
        let connection: std::pin::Pin<Box<dyn Future<Output = _> + Send>> = match graceful {
            Some(graceful) => Box::pin(graceful.watch(connection)),
            None => Box::pin(connection),
        };
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(%peer, %error, "connection ended with an error");
            }
        });
    }
}

/// Completes on SIGTERM or Ctrl-C.
pub async fn shutdown_signal() {
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
