#!/usr/bin/env python3
"""Noisy neighbour: what one hostile client costs another (issue #66).

Starts a release server (2 search workers, no cache), measures client Y's
`legal-moves` and level-3 `bot-move` latencies on the quiet server, then
again while client X runs the largest review the server allows (a 60-move
Reversi game with no time per position, so the server's whole-review cap
decides), 40 clients hold unread answers (pipelined requests for the
OpenAPI document, never read) and 300 silent sockets are open. The clients
come from different loopback addresses (X 127.0.0.1, Y 127.0.0.2, the
non-readers 127.0.0.3, the silent sockets 127.0.0.4), as different peers
would. Finally SIGTERM with all of it open: the process must exit within
drain delay + grace + 1 s with code 0.

    cargo build --release --locked --bin gamebot
    bench/noisy_neighbour.py [--bin target/release/gamebot] [--samples 400]

Prints a table and one JSON line; exits 1 when a bar is missed:
Y's legal-moves p99 <= 10 ms; Y's bot-move p99 <= 3 x its quiet p99;
server RSS <= 200 MiB; no 5xx; every one of X's jobs answered or refused
with a reason; the SIGTERM exit in time with code 0.
"""
import argparse
import http.client
import json
import os
import pathlib
import signal
import socket
import subprocess
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
START = {
    "board": ["........", "........", "........", "...WB...", "...BW...", "........", "........", "........"],
    "to_move": "black",
}
DRAIN_MS = 500
GRACE_S = 5


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def connection(port, source):
    return http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))


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


def openings(port, count):
    """`count` Reversi positions a few plies in, from the server's own rules."""
    conn = connection(port, "127.0.0.2")
    states = []
    for i in range(count):
        state = START
        for ply in range(2 + i % 6):
            _, _, data = post(conn, "/v1/games/reversi/legal-moves", {"state": state})
            moves = json.loads(data)["moves"]
            if not moves:
                break
            _, _, data = post(conn, "/v1/games/reversi/play", {"state": state, "move": moves[(i + ply) % len(moves)]})
            state = json.loads(data)["state"]
        states.append(state)
    return states


def client_y(port, samples, states):
    """Y's latencies: legal-moves and level-3 bot-moves, one at a time."""
    conn = connection(port, "127.0.0.2")
    legal, bot, statuses = [], [], []
    for i in range(samples):
        status, ms, _ = post(conn, "/v1/games/reversi/legal-moves", {"state": states[i % len(states)]})
        legal.append(ms)
        statuses.append(status)
        if i % 4 == 0:
            status, ms, _ = post(conn, "/v1/games/reversi/bot-move", {"state": states[i % len(states)], "level": "3", "seed": i})
            bot.append(ms)
            statuses.append(status)
    return legal, bot, statuses


def review_record():
    lines = (ROOT / "tests/data/reversi/review-blunder.txt").read_text().splitlines()
    return next(line.strip() for line in lines if line.strip() and not line.startswith("#"))


class Review(threading.Thread):
    """X: the largest review the server allows, streamed, read as it comes."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.port, self.lines, self.errors, self.status = port, 0, [], None
        self.budget = None

    def run(self):
        conn = connection(self.port, "127.0.0.1")
        # The per-position caps: the whole-review cap decides.
        body = json.dumps({"record": review_record(), "time_ms_per_ply": 30000})
        conn.request("POST", "/v1/games/reversi/review", body,
                     {"content-type": "application/json", "accept": "application/x-ndjson"})
        reply = conn.getresponse()
        self.status = reply.status
        for raw in reply:
            line = json.loads(raw)
            if self.budget is None and "warning" in {k.lower() for k in reply.headers.keys()}:
                self.budget = reply.headers.get("warning")
            if "error" in line:
                self.errors.append(line["error"])
            self.lines += 1


def non_readers(port, count):
    streams = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.3", 0))
        sock.setblocking(False)
        request = b"GET /openapi.yaml HTTP/1.1\r\nhost: bench\r\n\r\n" * 200
        try:
            sock.send(request)
        except BlockingIOError:
            pass
        streams.append(sock)
    return streams


def silent(port, count):
    return [socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.4", 0)) for _ in range(count)]


def rss_mib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024.0
    return 0.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=str(ROOT / "target/release/gamebot"))
    parser.add_argument("--samples", type=int, default=400)
    args = parser.parse_args()
    port, admin = free_port(), free_port()
    server = subprocess.Popen(
        [args.bin, "serve", "--bind", f"127.0.0.1:{port}", "--admin-bind", f"127.0.0.1:{admin}",
         "--workers", "2", "--cache-mb", "0", "--drain-delay-ms", str(DRAIN_MS),
         "--shutdown-grace-s", str(GRACE_S),
         # The worst case: the neighbours' sockets stay open all along.
         "--header-timeout-ms", "600000", "--write-timeout-ms", "600000", "--idle-timeout-ms", "600000"],
        env={**os.environ, "GAMEBOT_LOG": "warn"}, stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", admin)).close()
            break
        except OSError:
            time.sleep(0.05)
    states = openings(port, 24)
    quiet_legal, quiet_bot, quiet_statuses = client_y(port, args.samples, states)

    review = Review(port)
    review.start()
    time.sleep(0.5)
    held = non_readers(port, 40)
    sockets = silent(port, 300)
    peak = [rss_mib(server.pid)]
    sampling = True

    def sample():
        while sampling:
            peak.append(rss_mib(server.pid))
            time.sleep(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    noisy_legal, noisy_bot, noisy_statuses = client_y(port, args.samples, states)
    review_running = review.is_alive()
    sampling = False
    sampler.join()

    server.send_signal(signal.SIGTERM)
    signalled = time.perf_counter()
    try:
        code = server.wait(timeout=DRAIN_MS / 1000 + GRACE_S + 10)
    except subprocess.TimeoutExpired:
        server.kill()
        code = None
    exit_s = time.perf_counter() - signalled
    review.join(timeout=5)
    for sock in held + sockets:
        sock.close()

    figures = {
        "quiet_legal_p50_ms": percentile(quiet_legal, 0.5),
        "quiet_legal_p99_ms": percentile(quiet_legal, 0.99),
        "quiet_bot3_p50_ms": percentile(quiet_bot, 0.5),
        "quiet_bot3_p99_ms": percentile(quiet_bot, 0.99),
        "noisy_legal_p50_ms": percentile(noisy_legal, 0.5),
        "noisy_legal_p99_ms": percentile(noisy_legal, 0.99),
        "noisy_bot3_p50_ms": percentile(noisy_bot, 0.5),
        "noisy_bot3_p99_ms": percentile(noisy_bot, 0.99),
        "review_ran_throughout": review_running,
        "review_status": review.status,
        "review_lines": review.lines,
        "review_errors": [e.get("code") for e in review.errors],
        "peak_rss_mib": max(peak),
        "y_5xx": sum(1 for s in quiet_statuses + noisy_statuses if s >= 500),
        "sigterm_exit_s": exit_s,
        "exit_code": code,
    }
    bars = {
        "legal-moves p99 <= 10 ms": figures["noisy_legal_p99_ms"] <= 10.0,
        "bot-move p99 <= 3 x quiet": figures["noisy_bot3_p99_ms"] <= 3 * figures["quiet_bot3_p99_ms"],
        "RSS <= 200 MiB": figures["peak_rss_mib"] <= 200.0,
        "no 5xx for Y": figures["y_5xx"] == 0,
        "X answered or refused with a reason": review.status == 200
        and all(e.get("code") for e in review.errors),
        "SIGTERM exit in drain + grace + 1 s, code 0": code == 0 and exit_s <= DRAIN_MS / 1000 + GRACE_S + 1,
    }
    print("| figure | quiet | with the neighbours |")
    print("|---|---|---|")
    print(f"| legal-moves p50 / p99 (ms) | {figures['quiet_legal_p50_ms']:.2f} / {figures['quiet_legal_p99_ms']:.2f} "
          f"| {figures['noisy_legal_p50_ms']:.2f} / {figures['noisy_legal_p99_ms']:.2f} |")
    print(f"| level-3 bot-move p50 / p99 (ms) | {figures['quiet_bot3_p50_ms']:.2f} / {figures['quiet_bot3_p99_ms']:.2f} "
          f"| {figures['noisy_bot3_p50_ms']:.2f} / {figures['noisy_bot3_p99_ms']:.2f} |")
    print(f"review's Warning: {review.budget}")
    print(f"peak RSS {figures['peak_rss_mib']:.1f} MiB; review {review.status}, {review.lines} lines, "
          f"running throughout: {review_running}; SIGTERM exit after {exit_s:.2f} s, code {code}")
    for bar, met in bars.items():
        print(f"{'met   ' if met else 'MISSED'} {bar}")
    print(json.dumps(figures))
    sys.exit(0 if all(bars.values()) else 1)


if __name__ == "__main__":
    main()
