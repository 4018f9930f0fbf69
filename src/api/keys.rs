//! API keys and a rate limit per key, off unless the server is started with
//! `--api-keys-file`. Then every `/v1` route needs `Authorization: Bearer
//! <key>`: no key is 401, a key the file does not list is 403, and a key
//! over its requests-a-second limit is 429 with `Retry-After`. Health,
//! readiness, metrics, the document and the playground stay open. A key is
//! known by its name in metrics and logs; the key itself is never written.

use super::{ApiError, AppState};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use std::collections::HashMap;
use std::num::NonZeroU32;
use std::path::Path;

/// The shortest key accepted: long enough not to be guessed.
pub const MIN_KEY_LENGTH: usize = 16;

/// The keys a server accepts, each with its name and rate limit.
pub struct ApiKeys {
    by_key: HashMap<String, Client>,
}

/// One key's holder: its name, its limiter and its limit of searches at once.
struct Client {
    name: String,
    max_searches: Option<usize>,
    per_second: NonZeroU32,
    limiter: DefaultDirectRateLimiter,
}

/// What a request's credentials allow.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A known key within its limit: the request goes on.
    Allowed {
        /// The key's name.
        name: String,
        /// The most searches the key may have running or queued at once.
        max_searches: Option<usize>,
    },
    /// No `Authorization: Bearer` header.
    Missing,
    /// A key the file does not list.
    Unknown,
    /// A known key over its limit.
    Limited {
        /// The key's name.
        name: String,
        /// Its requests a second.
        per_second: u32,
        /// Whole seconds until a request would be allowed (at least 1).
        retry_after_s: u64,
    },
}

impl ApiKeys {
    /// Reads the keys file: one key a line, `NAME KEY REQUESTS_PER_SECOND
    /// [MAX_SEARCHES]` separated by spaces, the last the most searches the
    /// key may have running or queued at once (none: only the server's
    /// queue bounds them); blank lines and lines starting with `#` are
    /// skipped. An error names the line and what is wrong with it.
    pub fn load(path: &Path) -> Result<ApiKeys, String> {
        let text = std::fs::read_to_string(path).map_err(|error| {
            format!("cannot read the API keys file {}: {error}", path.display())
        })?;
        ApiKeys::parse(&text).map_err(|error| format!("{}: {error}", path.display()))
    }

    /// The keys of a keys file's text (see [`ApiKeys::load`]).
    pub fn parse(text: &str) -> Result<ApiKeys, String> {
        let mut by_key = HashMap::new();
        let mut names = std::collections::HashSet::new();
        for (index, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = |why: String| format!("line {}: {why}", index + 1);
            let fields: Vec<&str> = line.split_whitespace().collect();
            let (name, key, rate, searches) = match fields[..] {
                [name, key, rate] => (name, key, rate, None),
                [name, key, rate, searches] => (name, key, rate, Some(searches)),
                _ => {
                    return Err(at(format!(
                        "expected NAME KEY REQUESTS_PER_SECOND [MAX_SEARCHES], found {} field{}",
                        fields.len(),
                        if fields.len() == 1 { "" } else { "s" }
                    )))
                }
            };
            if key.len() < MIN_KEY_LENGTH || !key.bytes().all(|b| b.is_ascii_graphic()) {
                return Err(at(format!(
                    "the key of '{name}' must be at least {MIN_KEY_LENGTH} printable ASCII characters"
                )));
            }
            let per_second = rate
                .parse::<u32>()
                .ok()
                .and_then(NonZeroU32::new)
                .ok_or_else(|| at(format!("the limit of '{name}' must be a whole number of requests a second from 1, not '{rate}'")))?;
            let max_searches = searches
                .map(|searches| {
                    searches
                        .parse::<usize>()
                        .ok()
                        .filter(|&n| n > 0 && !searches.starts_with('0'))
                        .ok_or_else(|| at(format!("the searches at once of '{name}' must be a whole number from 1, not '{searches}'")))
                })
                .transpose()?;
            if !names.insert(name.to_string()) {
                return Err(at(format!("the name '{name}' is given twice")));
            }
            let client = Client {
                name: name.to_string(),
                max_searches,
                per_second,
                limiter: RateLimiter::direct(Quota::per_second(per_second)),
            };
            if by_key.insert(key.to_string(), client).is_some() {
                return Err(at(format!("the key of '{name}' is another name's key too")));
            }
        }
        if by_key.is_empty() {
            return Err("the file lists no key (every request would be refused)".into());
        }
        Ok(ApiKeys { by_key })
    }

    /// What the request with these headers may do, counting it against its
    /// key's limit when it is allowed.
    pub fn check(&self, headers: &HeaderMap) -> Verdict {
        let Some(key) = bearer(headers) else {
            return Verdict::Missing;
        };
        let Some(client) = self.by_key.get(key) else {
            return Verdict::Unknown;
        };
        match client.limiter.check() {
            Ok(()) => Verdict::Allowed {
                name: client.name.clone(),
                max_searches: client.max_searches,
            },
            Err(not_until) => {
                let wait = not_until.wait_time_from(DefaultClock::default().now());
                Verdict::Limited {
                    name: client.name.clone(),
                    per_second: client.per_second.get(),
                    retry_after_s: wait.as_secs_f64().ceil().max(1.0) as u64,
                }
            }
        }
    }
}

/// The holder of the key a request was allowed with, as the handlers see
/// it (a request extension): its name and its limit of searches at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyHolder {
    /// The key's name.
    pub name: String,
    /// The most searches it may have running or queued at once.
    pub max_searches: Option<usize>,
}

/// The key of an `Authorization: Bearer KEY` header.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, key) = value.trim().split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| key.trim())
}

/// Whether a path is one of the API's, which a key guards.
fn guarded(path: &str) -> bool {
    path == "/v1" || path.starts_with("/v1/")
}

/// The middleware: lets a request through to a `/v1` route only with a
/// known key within its limit, when the server has keys.
pub async fn require_key(State(app): State<AppState>, request: Request, next: Next) -> Response {
    let Some(keys) = app.keys.as_deref() else {
        return next.run(request).await;
    };
    if !guarded(request.uri().path()) {
        return next.run(request).await;
    }
    let verdict = keys.check(request.headers());
    let name = match &verdict {
        Verdict::Allowed { name, .. } | Verdict::Limited { name, .. } => name.as_str(),
        Verdict::Missing | Verdict::Unknown => "",
    };
    let result = match &verdict {
        Verdict::Allowed { .. } => "allowed",
        Verdict::Missing => "missing",
        Verdict::Unknown => "unknown",
        Verdict::Limited { .. } => "limited",
    };
    metrics::counter!("gamebot_api_key_requests_total", "key" => name.to_string(), "result" => result)
        .increment(1);
    match verdict {
        Verdict::Allowed { name, max_searches } => {
            let mut request = request;
            request
                .extensions_mut()
                .insert(KeyHolder { name, max_searches });
            next.run(request).await
        }
        Verdict::Missing => {
            let mut response = ApiError::Unauthorized.into_response();
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"gamebot\""),
            );
            response
        }
        Verdict::Unknown => ApiError::Forbidden.into_response(),
        Verdict::Limited {
            name,
            per_second,
            retry_after_s,
        } => {
            let mut response = ApiError::RateLimited { name, per_second }.into_response();
            let headers = response.headers_mut();
            headers.insert(header::RETRY_AFTER, HeaderValue::from(retry_after_s));
            headers.insert("ratelimit-limit", HeaderValue::from(per_second));
            headers.insert("ratelimit-remaining", HeaderValue::from(0));
            headers.insert("ratelimit-reset", HeaderValue::from(retry_after_s));
            if let Ok(policy) = HeaderValue::from_str(&format!("{per_second};w=1")) {
                headers.insert("ratelimit-policy", policy);
            }
            response
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(authorization: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::AUTHORIZATION, authorization.parse().unwrap());
        headers
    }

    #[test]
    fn a_keys_file_is_read_and_its_mistakes_are_named_by_line() {
        let keys = ApiKeys::parse(
            "# portal keys\n\nportal-a 0123456789abcdef0123 5\nportal-b fedcba9876543210fedc 100\n",
        )
        .unwrap();
        assert_eq!(keys.by_key.len(), 2);
        for (text, wanted) in [
            (
                "a 0123456789abcdef 5 4 extra",
                "line 1: expected NAME KEY REQUESTS_PER_SECOND [MAX_SEARCHES], found 5 fields",
            ),
            (
                "a 0123456789abcdef 5 0",
                "searches at once of 'a' must be a whole number from 1, not '0'",
            ),
            ("a 0123456789abcdef 5 02", "not '02'"),
            ("a 0123456789abcdef 5 x", "not 'x'"),
            ("a short 5", "line 1: the key of 'a' must be at least 16"),
            (
                "a 0123456789abcdef 0",
                "line 1: the limit of 'a' must be a whole number",
            ),
            ("a 0123456789abcdef x", "not 'x'"),
            (
                "a 0123456789abcdef 1\na 0123456789abcdeg 1",
                "line 2: the name 'a' is given twice",
            ),
            (
                "a 0123456789abcdef 1\nb 0123456789abcdef 1",
                "line 2: the key of 'b' is another name's key too",
            ),
            ("# nothing\n", "lists no key"),
        ] {
            let error = ApiKeys::parse(text).err().unwrap();
            assert!(error.contains(wanted), "{text:?}: {error}");
        }
    }

    #[test]
    fn a_key_may_limit_its_searches_at_once() {
        let keys = ApiKeys::parse("portal 0123456789abcdef0123 100 3").unwrap();
        assert_eq!(
            keys.check(&headers("Bearer 0123456789abcdef0123")),
            Verdict::Allowed {
                name: "portal".into(),
                max_searches: Some(3)
            }
        );
    }

    #[test]
    fn a_bearer_key_is_allowed_until_its_limit_then_told_when_to_retry() {
        let keys = ApiKeys::parse("portal 0123456789abcdef0123 2").unwrap();
        let allowed = Verdict::Allowed {
            name: "portal".into(),
            max_searches: None,
        };
        assert_eq!(keys.check(&headers("Bearer 0123456789abcdef0123")), allowed);
        assert_eq!(
            keys.check(&headers("bearer  0123456789abcdef0123 ")),
            allowed
        );
        let limited = keys.check(&headers("Bearer 0123456789abcdef0123"));
        assert!(
            matches!(
                limited,
                Verdict::Limited {
                    per_second: 2,
                    retry_after_s: 1,
                    ..
                }
            ),
            "{limited:?}"
        );
        assert_eq!(keys.check(&HeaderMap::new()), Verdict::Missing);
        assert_eq!(
            keys.check(&headers("Basic 0123456789abcdef0123")),
            Verdict::Missing
        );
        assert_eq!(
            keys.check(&headers("Bearer 0123456789abcdef0124")),
            Verdict::Unknown
        );
    }

    #[test]
    fn only_the_api_routes_are_guarded() {
        for path in ["/v1/games", "/v1/games/reversi/bot-move", "/v1"] {
            assert!(guarded(path), "{path}");
        }
        for path in [
            "/healthz",
            "/readyz",
            "/metrics",
            "/openapi.yaml",
            "/",
            "/playground/app.js",
            "/v1x",
        ] {
            assert!(!guarded(path), "{path}");
        }
    }
}
