//! Settings of the `serve` command: flags, environment variables, embedded defaults.

use crate::search::memory::DEFAULT_TABLE_MB;
use clap::{Args, ValueEnum};
use std::net::SocketAddr;

/// The largest `table_mb` accepted (64 GiB per worker).
pub const MAX_TABLE_MB: u64 = 1 << 16;

/// How log lines are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable, for a terminal.
    Pretty,
    /// One JSON object per line, for log collectors.
    Json,
}

/// Everything `serve` can be told. Each flag can also be set by the
/// environment variable named beside it; with neither, the default applies.
#[derive(Args, Clone, Debug)]
pub struct ServeConfig {
    /// Address to listen on [default: 0.0.0.0:8080, or 0.0.0.0:$PORT when PORT is set].
    #[arg(long, env = "GAMEBOT_BIND")]
    pub bind: Option<String>,

    /// Compute workers (searches running at once) [default: the number of cores].
    #[arg(long, env = "GAMEBOT_WORKERS")]
    pub workers: Option<usize>,

    /// Jobs that may wait for a worker beyond those running; more get 503.
    #[arg(long, env = "GAMEBOT_QUEUE", default_value_t = 128)]
    pub queue: usize,

    /// The largest `time_ms` a request may ask for; larger values are clamped.
    #[arg(long, env = "GAMEBOT_MAX_TIME_MS", default_value_t = 30_000)]
    pub max_time_ms: u64,

    /// The search time of a request that sets no `time_ms`.
    #[arg(long, env = "GAMEBOT_DEFAULT_TIME_MS", default_value_t = 1_000)]
    pub default_time_ms: u64,

    /// The largest `max_depth` a request may ask for; larger values are clamped.
    #[arg(long, env = "GAMEBOT_MAX_DEPTH", default_value_t = 64)]
    pub max_depth: u32,

    /// The largest `max_nodes` a request may ask for; larger values are clamped.
    #[arg(long, env = "GAMEBOT_MAX_NODES", default_value_t = 1_000_000_000)]
    pub max_nodes: u64,

    /// The largest request body accepted, in bytes; larger bodies get 413.
    #[arg(long, env = "GAMEBOT_MAX_BODY_BYTES", default_value_t = 1 << 20)]
    pub max_body_bytes: usize,

    /// Time a client has to send a request body once its headers are in, in
    /// milliseconds; slower bodies get 408 (headers have their own 10 s limit).
    #[arg(long, env = "GAMEBOT_BODY_TIMEOUT_MS", default_value_t = 10_000)]
    pub body_timeout_ms: u64,

    /// Transposition-table memory per compute worker, in MiB: each worker
    /// keeps at most this much table between searches, so the tables cost
    /// `workers × table_mb` however many requests arrive at once.
    #[arg(long, env = "GAMEBOT_TABLE_MB", default_value_t = DEFAULT_TABLE_MB,
          value_parser = clap::value_parser!(u64).range(1..=MAX_TABLE_MB))]
    pub table_mb: u64,

    /// Log format.
    #[arg(long, env = "GAMEBOT_LOG_FORMAT", value_enum, default_value_t = LogFormat::Pretty)]
    pub log_format: LogFormat,
}

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            bind: None,
            workers: None,
            queue: 128,
            max_time_ms: 30_000,
            default_time_ms: 1_000,
            max_depth: 64,
            max_nodes: 1_000_000_000,
            max_body_bytes: 1 << 20,
            body_timeout_ms: 10_000,
            table_mb: DEFAULT_TABLE_MB,
            log_format: LogFormat::Pretty,
        }
    }
}

impl ServeConfig {
    /// The address to bind: `--bind`, else `PORT` on all interfaces, else 0.0.0.0:8080.
    pub fn bind_addr(&self) -> Result<SocketAddr, String> {
        let text = match (&self.bind, std::env::var("PORT")) {
            (Some(bind), _) => bind.clone(),
            (None, Ok(port)) => format!("0.0.0.0:{port}"),
            (None, Err(_)) => "0.0.0.0:8080".to_string(),
        };
        text.parse()
            .map_err(|e| format!("cannot use '{text}' as the address to bind: {e}"))
    }

    /// The number of compute workers: `--workers`, else the number of cores.
    pub fn worker_count(&self) -> usize {
        self.workers
            .filter(|&n| n > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    }

    /// The transposition-table memory per compute worker, in bytes.
    pub fn table_bytes(&self) -> usize {
        let mb = self.table_mb.clamp(1, MAX_TABLE_MB);
        usize::try_from(mb << 20).unwrap_or(usize::MAX)
    }
}
