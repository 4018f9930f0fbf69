//! The `gamebot` binary: parses the command line, sets up logging, and runs
//! `serve` (the default) or another subcommand.

use clap::{Parser, Subcommand};
use gamebot::api::{self, AppState};
use gamebot::cli;
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
    /// Advance's tournament harness: `name`, or `white|black IN OUT`.
    Advance(cli::advance::AdvanceArgs),
    /// Halma's referee contract: read input.txt, write output.txt.
    Halma(cli::halma::HalmaArgs),
    /// Fancy Naughts & Crosses in the terminal.
    Naughts(cli::naughts::NaughtsArgs),
    /// Number Crush in the terminal (or played by a bot).
    Crush(cli::crush::CrushArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => serve(cli.serve),
        Some(Command::Serve(config)) => serve(config),
        Some(Command::Arena(args)) => cli::arena::run(args),
        Some(Command::Advance(args)) => cli::advance::run(args),
        Some(Command::Halma(args)) => cli::halma::run(args),
        Some(Command::Naughts(args)) => cli::naughts::run(args),
        Some(Command::Crush(args)) => cli::crush::run(args),
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

fn serve(config: ServeConfig) -> ExitCode {
    init_logging(config.log_format);
    // A panic in a handler or a search is answered as a 500 and the worker
    // survives; the hook makes sure it is also logged where the logs go.
    std::panic::set_hook(Box::new(|panic| tracing::error!(%panic, "panic")));
    let addr = match config.bind_addr() {
        Ok(addr) => addr,
        Err(message) => {
            eprintln!("gamebot: {message}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("gamebot: cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async move {
        let listener = match tokio::net::TcpListener::bind(addr).await {
            Ok(listener) => listener,
            Err(error) => {
                eprintln!("gamebot: cannot listen on {addr}: {error}");
                return ExitCode::FAILURE;
            }
        };
        let state = AppState::new(config);
        tracing::info!(%addr, workers = state.pool.workers(), queue = state.config.queue, "gamebot serving");
        api::serve(listener, state, api::shutdown_signal()).await;
        ExitCode::SUCCESS
    })
}
