//! A level of a gamebot service reached over HTTP (`service:URL [LEVEL]`
//! in the arena): per move the referee posts the state to the service's
//! `POST /v1/games/{game}/bot-move` with the level, the turn's seed and,
//! for a named level, the turn's time (under a game clock, the mover's
//! `clock`: what is left, the increment and an overhead, which the
//! service's time manager plans the move from), and plays the move it
//! answers. Any
//! build that serves the API can play, so a new build meets the one
//! deployed, or an older build of itself kept running beside it (how
//! `docs/reversi-engine.md` measures the engine against itself before a
//! change). The wall time of the call, lag included, is charged to the
//! mover's clock;
//! anything else forfeits: `no answer from URL: …` (refused, timed out),
//! `URL answered 422: …` (the service's error), or `illegal: …` (a move
//! the state's rules refuse).

use super::player::{Choice, Forfeit, MovePlan, Player, Turn};
use crate::game::ladder::is_numbered;
use crate::game::Game;
use serde_json::{json, Value};
use std::marker::PhantomData;
use std::time::Duration;

/// The prefix of a service player on the arena's command line.
pub const PREFIX: &str = "service:";

/// Where a service player's moves come from: the service's base URL and
/// the level it is asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Service {
    /// The base URL, `http://HOST:PORT` (a path prefix kept, no trailing `/`).
    pub url: String,
    /// The level asked for, with its options (`strong:probcut=0`, `12`);
    /// `None` for the service's default level.
    pub level: Option<String>,
}

impl Service {
    /// Reads `URL [LEVEL]` (what follows [`PREFIX`]).
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut words = text.split_whitespace();
        let url = words
            .next()
            .ok_or("expected URL [LEVEL], such as http://127.0.0.1:8080 strong")?;
        if !url.starts_with("http://") {
            return Err(format!(
                "'{url}': expected an http:// URL, such as http://127.0.0.1:8080"
            ));
        }
        let level = words.next().map(str::to_string);
        if let Some(extra) = words.next() {
            return Err(format!(
                "'{extra}': expected URL [LEVEL], nothing after the level"
            ));
        }
        Ok(Service {
            url: url.trim_end_matches('/').to_string(),
            level,
        })
    }

    /// How the player is named in tables: `service:URL LEVEL`.
    pub fn name(&self) -> String {
        match &self.level {
            Some(level) => format!("{PREFIX}{} {level}", self.url),
            None => format!("{PREFIX}{}", self.url),
        }
    }

    /// The body of a `bot-move` request for `state` on `turn`: a named
    /// level (or the default) is given the mover's clock under a game
    /// clock, else the turn's time; a numbered level keeps its own budget,
    /// and a service refuses a time beside it.
    fn request(&self, state: Value, turn: &Turn) -> Value {
        let mut body = json!({ "state": state, "seed": turn.seed });
        if let Some(level) = &self.level {
            body["level"] = json!(level);
        }
        if self.keeps_its_own_budget() {
            return body;
        }
        match &turn.clock {
            Some(clock) => {
                body["clock"] = json!({
                    "remaining_ms": clock.remaining_ms,
                    "increment_ms": clock.increment_ms,
                    "overhead_ms": clock.overhead_ms,
                });
            }
            None => body["time_ms"] = json!(turn.budget.as_millis().max(1) as u64),
        }
        body
    }

    /// Whether the level asked for searches to its own caps (a numbered one).
    fn keeps_its_own_budget(&self) -> bool {
        self.level.as_deref().is_some_and(is_numbered)
    }
}

/// A level of a gamebot service, for one game.
pub struct ServicePlayer<G: Game> {
    service: Service,
    agent: ureq::Agent,
    grace: Duration,
    _game: PhantomData<fn() -> G>,
}

impl<G: Game> ServicePlayer<G> {
    /// Plays `service`'s moves, giving up on a call `grace` (plus a
    /// second for the network and the queue) after its time is up.
    pub fn new(service: Service, grace: Duration) -> Self {
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        ServicePlayer {
            service,
            agent,
            grace,
            _game: PhantomData,
        }
    }

    /// The service's answer to one `bot-move` call, as JSON.
    fn call(&self, body: &Value, limit: Duration) -> Result<Value, Forfeit> {
        let url = format!("{}/v1/games/{}/bot-move", self.service.url, G::info().id);
        let unreachable = |e: ureq::Error| Forfeit(format!("no answer from {url}: {e}"));
        let mut response = self
            .agent
            .post(&url)
            .config()
            .timeout_global(Some(limit))
            .build()
            .send_json(body)
            .map_err(unreachable)?;
        let status = response.status();
        let text = response.body_mut().read_to_string().map_err(unreachable)?;
        if !status.is_success() {
            let excerpt: String = text.chars().take(200).collect();
            return Err(Forfeit(format!("{url} answered {status}: {excerpt}")));
        }
        serde_json::from_str(&text).map_err(|e| Forfeit(format!("{url} answered no JSON: {e}")))
    }
}

impl<G: Game> Player<G> for ServicePlayer<G> {
    fn name(&self) -> String {
        self.service.name()
    }

    fn choose(&mut self, state: &G::State, turn: &Turn) -> Result<Choice<G::Move>, Forfeit> {
        let body = self.service.request(G::state_to_json(state), turn);
        // Under a clock the service plans the move, so the call may take
        // what is left of it.
        let time = match body.get("clock") {
            Some(_) => turn.game_time_left.unwrap_or(turn.budget),
            None => turn.budget,
        };
        let limit = time + self.grace + Duration::from_secs(1);
        let reply = self.call(&body, limit)?;
        let mv = G::parse_move(state, &reply["move"])
            .map_err(|e| Forfeit(format!("illegal: {} ({e})", reply["move"])))?;
        let search = &reply["search"];
        Ok(Choice {
            mv,
            nodes: search["nodes"].as_u64(),
            depth: search["depth"].as_u64().map(|depth| depth as u32),
            score: search["score"].as_i64(),
            plan: served_plan(&search["clock"]),
        })
    }

    fn keeps_its_own_budget(&self) -> bool {
        // A numbered level of the service searches to its own caps: under
        // load it is slower, not weaker.
        self.service.keeps_its_own_budget()
    }
}

/// A service's `search.clock` (`planned_ms`, `cap_ms`, `used_ms`) as a
/// move's plan; `None` when the answer has none.
fn served_plan(clock: &Value) -> Option<MovePlan> {
    Some(MovePlan {
        planned_ms: clock["planned_ms"].as_f64()?,
        cap_ms: clock["cap_ms"].as_f64()?,
        served_ms: clock["used_ms"].as_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn() -> Turn {
        Turn {
            ply: 3,
            seed: 77,
            budget: Duration::from_millis(250),
            game_time_left: None,
            clock: None,
        }
    }

    #[test]
    fn under_a_clock_a_named_level_is_sent_the_clock_and_a_numbered_one_nothing() {
        let clocked = Turn {
            clock: Some(crate::game::clock::GameClock {
                remaining_ms: 9_500,
                increment_ms: 100,
                moves_to_go: None,
                overhead_ms: 20,
            }),
            game_time_left: Some(Duration::from_millis(9_500)),
            ..turn()
        };
        let named = Service::parse("http://h:1 strong").unwrap();
        assert_eq!(
            named.request(json!(1), &clocked),
            json!({"state": 1, "seed": 77, "level": "strong",
                   "clock": {"remaining_ms": 9_500, "increment_ms": 100, "overhead_ms": 20}})
        );
        let numbered = Service::parse("http://h:1 12").unwrap();
        assert_eq!(
            numbered.request(json!(1), &clocked),
            json!({"state": 1, "seed": 77, "level": "12"})
        );
        let plan = served_plan(
            &json!({"planned_ms": 40, "cap_ms": 7_000, "used_ms": 41, "left_ms": 9_000}),
        );
        assert_eq!(
            plan,
            Some(MovePlan {
                planned_ms: 40.0,
                cap_ms: 7_000.0,
                served_ms: Some(41.0)
            })
        );
        assert_eq!(served_plan(&Value::Null), None);
    }

    #[test]
    fn a_service_is_a_url_and_an_optional_level() {
        let service = Service::parse("http://127.0.0.1:9001/ strong:probcut=0").unwrap();
        assert_eq!(service.url, "http://127.0.0.1:9001");
        assert_eq!(service.level.as_deref(), Some("strong:probcut=0"));
        assert_eq!(
            service.name(),
            "service:http://127.0.0.1:9001 strong:probcut=0"
        );
        let default = Service::parse("http://host:8080").unwrap();
        assert_eq!(default.level, None);
        for bad in [
            "",
            "127.0.0.1:9001",
            "https://host strong",
            "http://host 3 4",
        ] {
            assert!(Service::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_named_level_is_given_the_turns_time_and_a_numbered_one_none() {
        let named = Service::parse("http://h:1 strong").unwrap();
        assert_eq!(
            named.request(json!({"board": 1}), &turn()),
            json!({"state": {"board": 1}, "seed": 77, "level": "strong", "time_ms": 250})
        );
        let numbered = Service::parse("http://h:1 12").unwrap();
        assert_eq!(
            numbered.request(json!(1), &turn()),
            json!({"state": 1, "seed": 77, "level": "12"})
        );
        let default = Service::parse("http://h:1").unwrap();
        assert_eq!(
            default.request(json!(1), &turn()),
            json!({"state": 1, "seed": 77, "time_ms": 250})
        );
    }
}
