#!/usr/bin/env python3
"""Live games on a busy service (issue #67's bars).

Starts a release server and a neighbour that keeps its search pool busy
(client X, 127.0.0.3: `--neighbours` connections, each asking one
`strong` Reversi move of `--neighbour-ms` after another), then measures
one of two things:

  latency  Client Y (127.0.0.2) asks every game's `bot-move` with
           {"clock": {"remaining_ms": 50, "increment_ms": 0}} from varied
           positions, one at a time, and times each answer from sending
           the request to reading the whole answer. Bar: p99 <= 50 ms in
           every game, every answer 200.
  matches  `gamebot arena` plays clocked games between `service:` players
           of that server (the arena's client is 127.0.0.1), for each
           game and each clock of `--clocks` (`SECONDS+INCREMENT_MS`),
           `--games` of them (GAME=N to set one game's), with
           `--threads` at once, each side the game's strongest level
           (Naughts `perfect`, else `strong`), journaled under `--out`
           (the same command goes on with a stopped run). Bar: no game
           lost on time and no forfeit.

    cargo build --release --locked --bin gamebot
    bench/live_clock.py latency [--samples 400]
    bench/live_clock.py matches --out target/live-clock --clocks 5+50 \\
        --games reversi=120 advance=100 halma=60 naughts=100
    bench/live_clock.py matches --out target/live-clock --clocks 60+500 \\
        --games reversi=8 advance=8 halma=4 naughts=20

Prints a table and one JSON line; exits 1 when a bar is missed.
"""
import argparse
import http.client
import json
import os
import pathlib
import random
import socket
import subprocess
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
GAMES = ["reversi", "advance", "halma", "naughts", "crush"]
CLOCKED_MATCH_GAMES = ["reversi", "advance", "halma", "naughts"]
STRONGEST = {"naughts": "perfect"}
"""Each game's strongest named level, where it is not `strong`."""


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def connection(port, source):
    return http.client.HTTPConnection("127.0.0.1", port, timeout=120, source_address=(source, 0))


def post(conn, path, body):
    payload = json.dumps(body)
    started = time.perf_counter()
    conn.request("POST", path, payload, {"content-type": "application/json"})
    reply = conn.getresponse()
    data = reply.read()
    return reply.status, (time.perf_counter() - started) * 1000.0, data


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Server:
    """A release server on free ports, quiet, no cache."""

    def __init__(self, binary, workers):
        self.port, admin = free_port(), free_port()
        self.process = subprocess.Popen(
            [binary, "serve", "--bind", f"127.0.0.1:{self.port}", "--admin-bind", f"127.0.0.1:{admin}",
             "--workers", str(workers), "--cache-mb", "0"],
            env={**os.environ, "GAMEBOT_LOG": "warn"}, stderr=subprocess.DEVNULL)
        for _ in range(400):
            try:
                socket.create_connection(("127.0.0.1", admin)).close()
                return
            except OSError:
                time.sleep(0.05)
        raise SystemExit("the server did not start")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)


class Neighbour(threading.Thread):
    """X: one search after another, so the search pool is never idle."""

    def __init__(self, port, think_ms):
        super().__init__(daemon=True)
        self.port, self.think_ms, self.running, self.answered = port, think_ms, True, 0
        self.statuses = {}

    def run(self):
        conn = connection(self.port, "127.0.0.3")
        start = new_state(conn, "reversi")
        while self.running:
            status, _, _ = post(conn, "/v1/games/reversi/bot-move",
                                {"state": start, "level": "strong:book=0", "time_ms": self.think_ms})
            self.statuses[status] = self.statuses.get(status, 0) + 1
            self.answered += 1


def new_state(conn, game):
    status, _, data = post(conn, f"/v1/games/{game}/new", {})
    if status != 200:
        raise SystemExit(f"{game}/new: {status} {data[:200]!r}")
    return json.loads(data)["state"]


def positions(conn, game, count, rng):
    """`count` positions of `game`, a few random plies from its start."""
    states = []
    for i in range(count):
        state = new_state(conn, game)
        for _ in range(i % 7):
            status, _, data = post(conn, f"/v1/games/{game}/legal-moves", {"state": state})
            moves = json.loads(data).get("moves") or []
            if status != 200 or not moves:
                break
            status, _, data = post(conn, f"/v1/games/{game}/play", {"state": state, "move": rng.choice(moves)})
            reply = json.loads(data)
            if status != 200 or reply.get("outcome", {}).get("status") not in (None, "ongoing"):
                break
            state = reply["state"]
        states.append(state)
    return states


def latency(args):
    server = Server(args.bin, args.workers)
    neighbours = [Neighbour(server.port, args.neighbour_ms) for _ in range(args.neighbours)]
    try:
        conn = connection(server.port, "127.0.0.2")
        rng = random.Random(1)
        states = {game: positions(conn, game, 14, rng) for game in GAMES}
        for neighbour in neighbours:
            neighbour.start()
        time.sleep(1.0)
        rows, failures = {}, []
        per_game = max(1, args.samples // len(GAMES))
        for game in GAMES:
            times, used = [], []
            for i in range(per_game):
                body = {"state": states[game][i % len(states[game])], "seed": i,
                        "clock": {"remaining_ms": 50, "increment_ms": 0}}
                status, ms, data = post(conn, f"/v1/games/{game}/bot-move", body)
                if status != 200:
                    failures.append(f"{game}: {status} {data[:200]!r}")
                    continue
                times.append(ms)
                used.append(json.loads(data)["search"]["clock"]["used_ms"])
            rows[game] = {"samples": len(times), "p50_ms": round(percentile(times, 0.5), 2),
                          "p99_ms": round(percentile(times, 0.99), 2), "max_ms": round(max(times), 2),
                          "server_used_p99_ms": percentile(used, 0.99)}
        busy = sum(n.answered for n in neighbours)
    finally:
        for neighbour in neighbours:
            neighbour.running = False
        server.stop()
    print(f"{'game':10} {'samples':>7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'server p99':>10}")
    for game, row in rows.items():
        print(f"{game:10} {row['samples']:>7} {row['p50_ms']:>8} {row['p99_ms']:>8} {row['max_ms']:>8} "
              f"{row['server_used_p99_ms']:>10}")
    ok = not failures and all(row["p99_ms"] <= 50.0 for row in rows.values())
    print(json.dumps({"bench": "live_clock latency", "games": rows, "neighbour_searches": busy,
                      "failures": failures[:5], "ok": ok}))
    return 0 if ok else 1


def parse_clock(text):
    seconds, increment = text.split("+")
    return float(seconds), int(increment)


def matches(args):
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    counts = {game: args.games_each for game in CLOCKED_MATCH_GAMES}
    for item in args.games:
        game, count = item.split("=")
        counts[game] = int(count)
    server = Server(args.bin, args.workers)
    neighbours = [Neighbour(server.port, args.neighbour_ms) for _ in range(args.neighbours)]
    for neighbour in neighbours:
        neighbour.start()
    url = f"http://127.0.0.1:{server.port}"
    rows = []
    try:
        for clock in args.clocks:
            seconds, increment = parse_clock(clock)
            for game, count in counts.items():
                if count == 0:
                    continue
                journal = out / f"{game}-{clock}.jsonl"
                level = STRONGEST.get(game, "strong")
                command = [args.bin, "arena", game, "--a", f"service:{url} {level}", "--b", f"service:{url} {level}",
                           "--clock-s", str(seconds), "--increment-ms", str(increment),
                           "--games", str(count), "--threads", str(args.threads), "--seed", "7",
                           "--games-log", str(journal), "--json"]
                if journal.exists():
                    command.append("--resume")
                started = time.perf_counter()
                run = subprocess.run(command, capture_output=True, text=True)
                if run.returncode != 0:
                    raise SystemExit(f"{' '.join(command)}: {run.stderr[-2000:]}")
                result = json.loads(run.stdout.strip().splitlines()[-1])
                left = [x for side in ("a", "b") for x in (result[side].get("clock") or {}).get("left_ms", [])]
                rows.append({"game": game, "clock": clock, "games": result["games"],
                             "on_time": result["a"]["timeouts"] + result["b"]["timeouts"],
                             "forfeits": result["a"]["forfeits"] + result["b"]["forfeits"],
                             "min_left_ms": min(left) if left else None,
                             "mean_left_ms": round(sum(left) / len(left), 1) if left else None,
                             "past_cap": sum((result[s].get("clock") or {}).get("past_cap", 0) for s in ("a", "b")),
                             "wall_s": round(time.perf_counter() - started, 1)})
                row = rows[-1]
                print(f"{game:8} {clock:>7} games {row['games']:>4} lost on time {row['on_time']:>2} "
                      f"forfeits {row['forfeits']:>2} least left {row['min_left_ms']} ms "
                      f"mean left {row['mean_left_ms']} ms past cap {row['past_cap']} ({row['wall_s']} s)",
                      flush=True)
        busy = sum(n.answered for n in neighbours)
    finally:
        for neighbour in neighbours:
            neighbour.running = False
        server.stop()
    games = sum(row["games"] for row in rows)
    lost = sum(row["on_time"] + row["forfeits"] for row in rows)
    print(json.dumps({"bench": "live_clock matches", "rows": rows, "games": games, "lost_on_time": lost,
                      "neighbour_searches": busy, "ok": lost == 0}))
    return 0 if lost == 0 else 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["latency", "matches"])
    parser.add_argument("--bin", default=str(ROOT / "target/release/gamebot"))
    parser.add_argument("--workers", type=int, default=2, help="the server's search workers")
    parser.add_argument("--neighbours", type=int, default=2, help="X's connections, each one search at a time")
    parser.add_argument("--neighbour-ms", type=int, default=300, help="the time of each of X's searches")
    parser.add_argument("--samples", type=int, default=400)
    parser.add_argument("--out", default=str(ROOT / "target/live-clock"))
    parser.add_argument("--clocks", nargs="+", default=["5+50"])
    parser.add_argument("--games-each", type=int, default=10)
    parser.add_argument("--games", nargs="*", default=[], help="GAME=N for one game's count")
    parser.add_argument("--threads", type=int, default=2, help="games played at once")
    args = parser.parse_args()
    return latency(args) if args.mode == "latency" else matches(args)


if __name__ == "__main__":
    sys.exit(main())
