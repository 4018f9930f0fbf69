//! The `gamebot` binary: parses the command line, sets up logging, and runs
//! `serve` (the default) or another subcommand. Every one of them fails the
//! same way, through [`cli::CliError`] and [`cli::report`]: one line on
//! stderr and the exit code of the table in [`cli`].

use clap::{Parser, Subcommand};
use gamebot::api::{self, AppState};
use gamebot::cli::{self, CliError};
use gamebot::config::{LogFormat, ServeConfig};
use std::process::ExitCode;
use tracing_subscriber::EnvFilter;

/// glibc's allocator serialises threads on its arenas; with every request
/// allocating on one thread and freeing on another it took a quarter of the
/// CPU under load. mimalloc's per-thread heaps avoid that.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "gamebot",
    version,
    about = "Knows the rules of five games and plays them, over HTTP"
)]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// `serve`'s settings, when no subcommand is named.
    #[command(flatten)]
    serve: ServeConfig,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the HTTP API (the default).
    Serve(ServeConfig),
    /// Play two bots against each other and report the results.
    Arena(cli::arena::ArenaArgs),
    /// Measure a game's numbered levels and write data/ladder/GAME.json.
    Ladder(cli::ladder::LadderArgs),
    /// Advance's tournament harness: `name`, or `white|black IN OUT`.
    Advance(cli::advance::AdvanceArgs),
    /// Halma's referee contract: read input.txt, write output.txt.
    Halma(cli::halma::HalmaArgs),
    /// Fancy Naughts & Crosses in the terminal.
    Naughts(cli::naughts::NaughtsArgs),
    /// Number Crush in the terminal (or played by a bot).
    Crush(cli::crush::CrushArgs),
    /// Print the OpenAPI document the server serves (the repository's
    /// `openapi.yaml` is this output: `gamebot openapi > openapi.yaml`).
    Openapi,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => cli::report("serve", serve(cli.serve)),
        Some(Command::Serve(config)) => cli::report("serve", serve(config)),
        Some(Command::Arena(args)) => cli::arena::run(args),
        Some(Command::Ladder(args)) => cli::ladder::run(args),
        Some(Command::Advance(args)) => cli::advance::run(args),
        Some(Command::Halma(args)) => cli::halma::run(args),
        Some(Command::Naughts(args)) => cli::naughts::run(args),
        Some(Command::Crush(args)) => cli::crush::run(args),
        Some(Command::Openapi) => {
            print!("{}", gamebot::api::openapi_yaml());
            ExitCode::SUCCESS
        }
    }
}

fn init_logging(format: LogFormat) {
    let filter = EnvFilter::try_from_env("GAMEBOT_LOG").unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    match format {
        LogFormat::Json => builder
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .init(),
        LogFormat::Pretty => builder.init(),
    }
}

/// Serves until a shutdown signal. A bad address is a usage error (exit 2);
/// a runtime or socket that cannot be had is an I/O error (exit 1).
fn serve(config: ServeConfig) -> Result<(), CliError> {
    init_logging(config.log_format);
    // A panic in a handler or a search is answered as a 500 and the worker
    // survives; the hook makes sure it is also logged where the logs go.
    std::panic::set_hook(Box::new(|panic| tracing::error!(%panic, "panic")));
    let addr = config.bind_addr().map_err(CliError::Usage)?;
    let keys = config
        .api_keys_file
        .as_deref()
        .map(api::keys::ApiKeys::load)
        .transpose()
        .map_err(CliError::Usage)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|error| in_context(error, "cannot start the async runtime"))?;
    let served = runtime.block_on(async move {
        let admin_bind = config.admin_bind;
        let mut state = AppState::new(config);
        if let Some(keys) = keys {
            state = state.with_keys(keys);
        }
        // Every search worker loads what the engines load on first use
        // before the sockets are bound: a connection is never left waiting
        // on it, and a signal then still ends the process as it would any
        // other.
        let started = std::time::Instant::now();
        state.pool.on_every_worker(gamebot::games::warm_up).await;
        state.urgent.on_every_worker(gamebot::games::warm_up).await;
        // Below the default level: a command that fails says one line only.
        tracing::debug!(
            elapsed_ms = started.elapsed().as_millis() as u64,
            "engines warmed up"
        );
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|error| in_context(error, &format!("cannot listen on {addr}")))?;
        let admin = match admin_bind {
            Some(admin_addr) => Some(
                tokio::net::TcpListener::bind(admin_addr)
                    .await
                    .map_err(|error| {
                        in_context(error, &format!("cannot listen on {admin_addr} (--admin-bind)"))
                    })?,
            ),
            None => None,
        };
        tracing::info!(%addr, workers = state.pool.workers(), queue = state.config.queue, "gamebot serving");
        if let Some(admin) = &admin {
            tracing::info!(admin = %admin.local_addr().map_or_else(|e| e.to_string(), |a| a.to_string()), "health, readiness and metrics on the admin address only");
        }
        api::serve_with_admin(listener, admin, state, api::shutdown_signal()).await;
        Ok(())
    });
    // What the grace period left (a connection's task, a stalled write)
    // is not waited for: the process ends now.
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    served
}

/// `error`, its message led by what was being done.
fn in_context(error: std::io::Error, doing: &str) -> CliError {
    CliError::Io(std::io::Error::new(
        error.kind(),
        format!("{doing}: {error}"),
    ))
}
