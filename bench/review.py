#!/usr/bin/env python3
"""A review against the same analyses asked one by one.

Reviews the checked-in 60-move Reversi game (tests/data/reversi/review-blunder.txt)
with `max_nodes_per_ply` NODES on a running server, then asks `analyze` for
each of its positions in turn with the same budget (`max_nodes` NODES,
`time_ms` 30000 as the review gives each position, `top` 1, the seed the
review uses there), and prints both wall times, their ratio and whether the
best moves agree. Start the server with 2 workers and no cache:

    target/release/gamebot serve --bind 127.0.0.1:8080 --workers 2 --cache-mb 0 &
    bench/review.py [URL, default http://127.0.0.1:8080] [NODES, default 200000]
"""
import json
import pathlib
import sys
import time
import urllib.request

url = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
nodes = int(sys.argv[2]) if len(sys.argv) > 2 else 200000
root = pathlib.Path(__file__).resolve().parent.parent
record = next(
    line.strip()
    for line in (root / "tests/data/reversi/review-blunder.txt").read_text().splitlines()
    if line.strip() and not line.startswith("#")
)


def post(path, body):
    request = urllib.request.Request(
        url + path, json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=1200) as reply:
        return json.load(reply)


states = post("/v1/games/reversi/replay", {"record": record, "states": True})["states"]
started = time.monotonic()
review = post("/v1/games/reversi/review", {"record": record, "max_nodes_per_ply": nodes, "seed": 1})
review_s = time.monotonic() - started

started = time.monotonic()
best = []
for index, state in enumerate(states[:-1]):
    body = {"state": state, "top": 1, "max_nodes": nodes, "time_ms": 30000, "seed": 1 ^ index}
    best.append(post("/v1/games/reversi/analyze", body)["moves"][0]["move"]["notation"])
sequential_s = time.monotonic() - started

agree = sum(p["best"]["notation"] == b for p, b in zip(review["plies"], best))
print(f"positions: {len(states) - 1} analysed one by one, {review['summary']['positions']} in the review ({review['budget']['workers']} workers)")
print(f"review: {review_s:.2f} s; sequential analyze: {sequential_s:.2f} s; ratio {review_s / sequential_s:.3f}")
print(f"best moves that agree: {agree} of {len(best)}")
