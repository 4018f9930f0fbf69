//! Settings of the `serve` command: flags, environment variables, embedded defaults.

use crate::search::memory::DEFAULT_TABLE_MB;
use clap::builder::TypedValueParser;
use clap::{Args, ValueEnum};
use std::net::SocketAddr;

/// The position cache's default size, in MiB: small beside the search
/// tables, enough for tens of thousands of answers.
pub const DEFAULT_CACHE_MB: u64 = 32;

/// Jobs that may wait for a worker beyond those running, by default.
pub const DEFAULT_QUEUE: usize = 128;

/// The largest `time_ms` a request may ask for, by default.
pub const DEFAULT_MAX_TIME_MS: u64 = 30_000;

/// The search time of a request that sets no `time_ms`, by default.
pub const DEFAULT_REQUEST_TIME_MS: u64 = 1_000;

/// The largest `max_depth` a request may ask for, by default.
pub const DEFAULT_MAX_DEPTH: u32 = 64;

/// The largest `max_nodes` a request may ask for, by default.
pub const DEFAULT_MAX_NODES: u64 = 1_000_000_000;

/// The largest request body accepted, in bytes, by default.
pub const DEFAULT_MAX_BODY_BYTES: usize = 1 << 20;

/// Time a client has to send a request body, in milliseconds, by default.
pub const DEFAULT_BODY_TIMEOUT_MS: u64 = 10_000;

/// Rules workers (new, legal-moves, play, replay), by default.
pub const DEFAULT_RULES_WORKERS: usize = 2;

/// Rules jobs that may wait for a rules worker, by default.
pub const DEFAULT_RULES_QUEUE: usize = 256;

/// Workers of the urgent lane (clocked moves too short to wait behind a
/// search), by default.
pub const DEFAULT_URGENT_WORKERS: usize = 2;

/// Urgent moves that may wait for an urgent worker.
pub const URGENT_QUEUE: usize = 64;

/// The longest a clocked move's hard cap may be for it to run in the
/// urgent lane, in milliseconds, by default.
pub const DEFAULT_URGENT_MOVE_MS: u64 = 1000;

/// A review's whole work (positions × time per position), in milliseconds
/// of one worker, by default.
pub const DEFAULT_MAX_REVIEW_MS: u64 = 120_000;

/// Time a new connection has to send its first request's headers (and a
/// request its headers), in milliseconds, by default.
pub const DEFAULT_HEADER_TIMEOUT_MS: u64 = 10_000;

/// Time a connection may stay open with no request in flight, by default.
pub const DEFAULT_IDLE_TIMEOUT_MS: u64 = 60_000;

/// Time a client may leave its answer unread before it is dropped, by default.
pub const DEFAULT_WRITE_TIMEOUT_MS: u64 = 15_000;

/// Connections open at once on the API address, by default (and never more
/// than the process's file descriptor limit allows, less a reserve).
pub const DEFAULT_MAX_CONNECTIONS: usize = 1024;

/// Time the server keeps answering after SIGTERM, with `/readyz` at 503,
/// before it closes its listener, by default (none).
pub const DEFAULT_DRAIN_DELAY_MS: u64 = 0;

/// Time requests in flight have to finish once the listener is closed, by default.
pub const DEFAULT_SHUTDOWN_GRACE_S: u64 = 30;

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

    /// A second address for health, readiness and metrics only, so that
    /// they are not exposed with the API; they then answer 404 on `--bind`
    /// [default: none, and they are served with the API].
    #[arg(long, env = "GAMEBOT_ADMIN_BIND")]
    pub admin_bind: Option<SocketAddr>,

    /// Compute workers (searches running at once) [default: the number of cores].
    #[arg(long, env = "GAMEBOT_WORKERS")]
    pub workers: Option<usize>,

    /// Jobs that may wait for a worker beyond those running; more get 503.
    #[arg(long, env = "GAMEBOT_QUEUE", default_value_t = DEFAULT_QUEUE)]
    pub queue: usize,

    /// The largest `time_ms` a request may ask for (larger values are
    /// clamped), and the longest any one search may run: a numbered level,
    /// which heeds no request's time, is cut short there (`stopped_by: time`).
    #[arg(long, env = "GAMEBOT_MAX_TIME_MS", default_value_t = DEFAULT_MAX_TIME_MS)]
    pub max_time_ms: u64,

    /// The search time of a request that sets no `time_ms`.
    #[arg(long, env = "GAMEBOT_DEFAULT_TIME_MS", default_value_t = DEFAULT_REQUEST_TIME_MS)]
    pub default_time_ms: u64,

    /// The largest `max_depth` a request may ask for; larger values are clamped.
    #[arg(long, env = "GAMEBOT_MAX_DEPTH", default_value_t = DEFAULT_MAX_DEPTH)]
    pub max_depth: u32,

    /// The largest `max_nodes` a request may ask for; larger values are clamped.
    #[arg(long, env = "GAMEBOT_MAX_NODES", default_value_t = DEFAULT_MAX_NODES)]
    pub max_nodes: u64,

    /// The largest request body accepted, in bytes; larger bodies get 413.
    #[arg(long, env = "GAMEBOT_MAX_BODY_BYTES", default_value_t = DEFAULT_MAX_BODY_BYTES)]
    pub max_body_bytes: usize,

    /// Time a client has to send a request body once its headers are in, in
    /// milliseconds; slower bodies get 408 (headers have their own 10 s limit).
    #[arg(long, env = "GAMEBOT_BODY_TIMEOUT_MS", default_value_t = DEFAULT_BODY_TIMEOUT_MS)]
    pub body_timeout_ms: u64,

    /// Transposition-table memory per compute worker, in MiB: each worker
    /// keeps at most this much table between searches, so the tables cost
    /// `workers × table_mb` however many requests arrive at once.
    #[arg(long, env = "GAMEBOT_TABLE_MB", default_value_t = DEFAULT_TABLE_MB,
          value_parser = clap::value_parser!(u64).range(1..=MAX_TABLE_MB))]
    pub table_mb: u64,

    /// Memory for the position cache, in MiB: repeated deterministic
    /// `bot-move` and `analyze` requests (a seed, and a search that ends on
    /// its depth or node cap or a proof) are answered from it without
    /// searching again. 0 turns it off.
    #[arg(long, env = "GAMEBOT_CACHE_MB", default_value_t = DEFAULT_CACHE_MB)]
    pub cache_mb: u64,

    /// A file of API keys, one a line: `NAME KEY REQUESTS_PER_SECOND`.
    /// With it every `/v1` request needs `Authorization: Bearer KEY` and
    /// each key has its own rate limit [default: none, and the API is open].
    #[arg(long, env = "GAMEBOT_API_KEYS_FILE")]
    pub api_keys_file: Option<std::path::PathBuf>,

    /// Workers of the rules lane, where `new`, `legal-moves`, `play` and
    /// `replay` run, apart from the searches so that they never wait behind one.
    #[arg(long, env = "GAMEBOT_RULES_WORKERS", default_value_t = DEFAULT_RULES_WORKERS,
          value_parser = clap::value_parser!(u64).range(1..=256).map(|n| n as usize))]
    pub rules_workers: usize,

    /// Rules jobs that may wait for a rules worker; more get 503.
    #[arg(long, env = "GAMEBOT_RULES_QUEUE", default_value_t = DEFAULT_RULES_QUEUE)]
    pub rules_queue: usize,

    /// Workers of the urgent lane: a clocked `bot-move` whose clock leaves
    /// it at most `--urgent-move-ms` runs there, so that a move with
    /// almost no time left never waits behind other clients' searches.
    #[arg(long, env = "GAMEBOT_URGENT_WORKERS", default_value_t = DEFAULT_URGENT_WORKERS,
          value_parser = clap::value_parser!(u64).range(1..=64).map(|n| n as usize))]
    pub urgent_workers: usize,

    /// The longest hard cap (a safe share of the mover's clock, after the
    /// overhead) a clocked move may have to run in the urgent lane, in
    /// milliseconds; 0 sends every move to the search pool.
    #[arg(long, env = "GAMEBOT_URGENT_MOVE_MS", default_value_t = DEFAULT_URGENT_MOVE_MS,
          value_parser = clap::value_parser!(u64).range(0..=10_000))]
    pub urgent_move_ms: u64,

    /// The most work one review may take, in milliseconds of one worker:
    /// its positions × its time per position. A longer review is given less
    /// time per position and says so (`budget.clamped`, `Warning`).
    #[arg(long, env = "GAMEBOT_MAX_REVIEW_MS", default_value_t = DEFAULT_MAX_REVIEW_MS,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_review_ms: u64,

    /// A header set by a trusted proxy in front of the server that names
    /// the client (`x-forwarded-for`, `x-real-ip`): clients without an API
    /// key are then told apart by its value (its first address) instead of
    /// the peer address, for the fair queue. Only set it behind a proxy
    /// that overwrites the header [default: none, the peer address].
    #[arg(long, env = "GAMEBOT_CLIENT_HEADER")]
    pub client_header: Option<axum::http::HeaderName>,

    /// Time a connection has to send its request headers, counted from
    /// when it opens for its first request; a silent socket is closed then.
    #[arg(long, env = "GAMEBOT_HEADER_TIMEOUT_MS", default_value_t = DEFAULT_HEADER_TIMEOUT_MS,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub header_timeout_ms: u64,

    /// Time an HTTP/1.1 or HTTP/2 connection may stay open with no request
    /// in flight before the server closes it.
    #[arg(long, env = "GAMEBOT_IDLE_TIMEOUT_MS", default_value_t = DEFAULT_IDLE_TIMEOUT_MS,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub idle_timeout_ms: u64,

    /// Time a client may take no bytes of its answer before the server
    /// drops the connection and frees the answer.
    #[arg(long, env = "GAMEBOT_WRITE_TIMEOUT_MS", default_value_t = DEFAULT_WRITE_TIMEOUT_MS,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub write_timeout_ms: u64,

    /// Connections open at once on the API address; more are closed as
    /// they arrive (health, readiness and metrics on `--admin-bind` have
    /// their own). Never more than the file descriptor limit less a reserve.
    #[arg(long, env = "GAMEBOT_MAX_CONNECTIONS", default_value_t = DEFAULT_MAX_CONNECTIONS,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000).map(|n| n as usize))]
    pub max_connections: usize,

    /// After SIGTERM, time to keep serving with `/readyz` at 503 before the
    /// listener closes, so that load balancers stop sending traffic first
    /// (Kubernetes' preStop); in milliseconds.
    #[arg(long, env = "GAMEBOT_DRAIN_DELAY_MS", default_value_t = DEFAULT_DRAIN_DELAY_MS)]
    pub drain_delay_ms: u64,

    /// After the listener closes, time requests in flight have to finish,
    /// in seconds; the process then exits whatever is left. A second
    /// SIGTERM or SIGINT exits at once.
    #[arg(long, env = "GAMEBOT_SHUTDOWN_GRACE_S", default_value_t = DEFAULT_SHUTDOWN_GRACE_S)]
    pub shutdown_grace_s: u64,

    /// Log format.
    #[arg(long, env = "GAMEBOT_LOG_FORMAT", value_enum, default_value_t = LogFormat::Pretty)]
    pub log_format: LogFormat,

    /// An origin that may call the API from a browser (CORS), such as
    /// `https://play.example.com`; repeat the flag or separate origins with
    /// commas [default: none, and no CORS headers are sent].
    #[arg(
        long = "cors-origin",
        env = "GAMEBOT_CORS_ORIGINS",
        value_delimiter = ','
    )]
    pub cors_origins: Vec<CorsOrigin>,
}

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            bind: None,
            admin_bind: None,
            workers: None,
            queue: DEFAULT_QUEUE,
            max_time_ms: DEFAULT_MAX_TIME_MS,
            default_time_ms: DEFAULT_REQUEST_TIME_MS,
            max_depth: DEFAULT_MAX_DEPTH,
            max_nodes: DEFAULT_MAX_NODES,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            body_timeout_ms: DEFAULT_BODY_TIMEOUT_MS,
            table_mb: DEFAULT_TABLE_MB,
            cache_mb: DEFAULT_CACHE_MB,
            api_keys_file: None,
            rules_workers: DEFAULT_RULES_WORKERS,
            rules_queue: DEFAULT_RULES_QUEUE,
            urgent_workers: DEFAULT_URGENT_WORKERS,
            urgent_move_ms: DEFAULT_URGENT_MOVE_MS,
            max_review_ms: DEFAULT_MAX_REVIEW_MS,
            client_header: None,
            header_timeout_ms: DEFAULT_HEADER_TIMEOUT_MS,
            idle_timeout_ms: DEFAULT_IDLE_TIMEOUT_MS,
            write_timeout_ms: DEFAULT_WRITE_TIMEOUT_MS,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            drain_delay_ms: DEFAULT_DRAIN_DELAY_MS,
            shutdown_grace_s: DEFAULT_SHUTDOWN_GRACE_S,
            log_format: LogFormat::Pretty,
            cors_origins: Vec::new(),
        }
    }
}

/// A browser origin allowed to call the API: a scheme, `://`, a host and
/// an optional port, written exactly as a browser sends it in `Origin`
/// (`https://play.example.com`, `http://localhost:5173`), so that it can
/// match. Anything else is refused when the server starts, saying why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorsOrigin(String);

impl CorsOrigin {
    /// The origin as a browser sends it.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for CorsOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::str::FromStr for CorsOrigin {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        let refuse = |why: &str| Err(format!("'{text}' is not an origin a browser sends: {why}"));
        let shape = "write scheme://host[:port], such as https://play.example.com";
        match text {
            "" => {
                return Err(format!(
                    "an empty origin (a stray comma, or GAMEBOT_CORS_ORIGINS set to nothing: \
                     leave it unset for none); {shape}"
                ))
            }
            "*" => return refuse("list each origin that may call the API; '*' is not accepted"),
            "null" => return refuse(
                "'null' is sent by sandboxed pages and files, and allowing it would allow them all",
            ),
            _ => {}
        }
        let Some((scheme, authority)) = text.split_once("://") else {
            return refuse(shape);
        };
        if text.chars().any(|c| c.is_ascii_uppercase()) {
            return refuse(&format!(
                "browsers send it in lowercase, '{}'",
                text.to_ascii_lowercase()
            ));
        }
        if let Some(at) = authority.find(['/', '?', '#']) {
            return refuse(&format!(
                "an origin has no path, so leave out '{}': '{scheme}://{}'",
                &authority[at..],
                &authority[..at]
            ));
        }
        let scheme_ok = scheme.starts_with(|c: char| c.is_ascii_lowercase())
            && scheme
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "+-.".contains(c));
        if !scheme_ok {
            return refuse(&format!("'{scheme}' is not a scheme; {shape}"));
        }
        let (host, port) = split_port(authority);
        let host_ok = match host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
            Some(v6) => {
                !v6.is_empty()
                    && v6
                        .chars()
                        .all(|c| c.is_ascii_hexdigit() || ".:".contains(c))
            }
            None => {
                !host.is_empty()
                    && host
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "-.".contains(c))
            }
        };
        if !host_ok {
            return refuse(&format!(
                "'{host}' is not a host name or address (write an international name in its xn-- form); {shape}"
            ));
        }
        if let Some(port) = port {
            match port.parse::<u16>() {
                Ok(n) if n > 0 && port.bytes().all(|b| b.is_ascii_digit()) => {
                    if matches!((scheme, n), ("http", 80) | ("https", 443)) {
                        return refuse(&format!(
                            "browsers leave out the default port, so write '{scheme}://{host}'"
                        ));
                    }
                }
                _ => return refuse(&format!("'{port}' is not a port (1-65535)")),
            }
        }
        Ok(CorsOrigin(text.to_string()))
    }
}

/// `host` and `port` of `host[:port]`, where the host may be an IPv6
/// address in brackets (`[::1]:8080`).
fn split_port(authority: &str) -> (&str, Option<&str>) {
    let host_end = match authority.find(']') {
        Some(end) if authority.starts_with('[') => end + 1,
        _ => authority.find(':').unwrap_or(authority.len()),
    };
    let (host, rest) = authority.split_at(host_end);
    match rest.strip_prefix(':') {
        Some(port) => (host, Some(port)),
        None if rest.is_empty() => (host, None),
        // Text after an IPv6 address that is not `:port`.
        None => (authority, None),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(text: &str) -> String {
        text.parse::<CorsOrigin>()
            .expect_err(&format!("'{text}' is refused"))
    }

    #[test]
    fn an_origin_is_accepted_as_a_browser_sends_it() {
        for text in [
            "https://play.example.com",
            "http://localhost:5173",
            "http://127.0.0.1:8080",
            "http://[::1]:3000",
            "https://xn--bcher-kva.example",
            " https://padded.example ",
        ] {
            let origin: CorsOrigin = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(origin.as_str(), text.trim());
        }
    }

    #[test]
    fn an_origin_that_could_never_match_is_refused_saying_why() {
        let cases = [
            ("", "empty origin"),
            ("*", "list each origin"),
            ("null", "sandboxed"),
            ("play.example.com", "scheme://host[:port]"),
            (
                "https://play.example.com/",
                "leave out '/': 'https://play.example.com'",
            ),
            ("https://example.com/app?x", "leave out '/app?x'"),
            ("https://Example.com", "lowercase, 'https://example.com'"),
            ("https://", "is not a host"),
            ("https://exa mple.com", "is not a host"),
            ("https://bücher.example", "xn--"),
            ("https://user@example.com", "is not a host"),
            ("http://[::1]x", "is not a host"),
            ("https://example.com:0", "is not a port"),
            ("https://example.com:70000", "is not a port"),
            ("https://example.com:", "is not a port"),
            ("https://example.com:443", "write 'https://example.com'"),
            ("http://example.com:80", "write 'http://example.com'"),
            ("1http://example.com", "is not a scheme"),
        ];
        for (text, says) in cases {
            let message = refusal(text);
            assert!(message.contains(says), "{text}: {message}");
        }
    }

    #[test]
    fn origins_come_from_repeated_flags_and_comma_separated_lists() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            serve: ServeConfig,
        }
        use clap::Parser;
        let cli = Cli::try_parse_from([
            "gamebot",
            "--cors-origin",
            "https://a.example,https://b.example",
            "--cors-origin",
            "http://localhost:5173",
        ])
        .unwrap();
        let origins: Vec<&str> = cli
            .serve
            .cors_origins
            .iter()
            .map(CorsOrigin::as_str)
            .collect();
        assert_eq!(
            origins,
            [
                "https://a.example",
                "https://b.example",
                "http://localhost:5173"
            ]
        );
        let bad = Cli::try_parse_from(["gamebot", "--cors-origin", "https://a.example/"])
            .err()
            .expect("a path is refused");
        assert_eq!(bad.exit_code(), 2);
        assert!(bad.to_string().contains("an origin has no path"), "{bad}");
    }
}
