#!/usr/bin/env python3
"""How much a reported score swings from one search depth to the next.

For POSITIONS random Reversi midgame positions (16 to 30 random plies from
the start, seeded), asks a running server's `analyze` for the best score at
each max_depth from 1 to DEPTH (seeded, one move, no time pressure) and
prints, per pair of consecutive depths and over all, the median and mean
absolute change of the best score, in discs (the score's unit is hundredths
of a disc), and the same for the two-depth average of consecutive scores
and the score of the last even depth (two standard cures for the odd/even swing).

    target/release/gamebot serve --bind 127.0.0.1:8080 &
    bench/score_parity.py [URL, default http://127.0.0.1:8080] [POSITIONS, default 200] [DEPTH, default 9]
"""
import json
import random
import statistics
import sys
import urllib.request

url = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
count = int(sys.argv[2]) if len(sys.argv) > 2 else 200
deepest = int(sys.argv[3]) if len(sys.argv) > 3 else 9


def post(path, body):
    request = urllib.request.Request(
        url + path, json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=600) as reply:
        return json.load(reply)


def midgame(rng):
    state = post("/v1/games/reversi/new", {})["state"]
    for _ in range(rng.randint(16, 30)):
        legal = post("/v1/games/reversi/legal-moves", {"state": state})
        if not legal["moves"]:
            return None
        state = post("/v1/games/reversi/play", {"state": state, "move": rng.choice(legal["moves"])})["state"]
    return state


rng = random.Random(1)
positions = []
while len(positions) < count:
    state = midgame(rng)
    if state and post("/v1/games/reversi/legal-moves", {"state": state})["moves"]:
        positions.append(state)

scores = []
for state in positions:
    row = []
    for depth in range(1, deepest + 1):
        body = {"state": state, "top": 1, "max_depth": depth, "time_ms": 30000, "seed": 1}
        row.append(post("/v1/games/reversi/analyze", body)["search"]["score"] / 100)
    scores.append(row)


def report(name, rows, first=1, step=1):
    print(f"{name}:")
    changes_all = []
    for d in range(len(rows[0]) - 1):
        changes = [abs(r[d + 1] - r[d]) for r in rows]
        changes_all += changes
        print(f"  depth {first + d * step}->{first + (d + 1) * step}: median {statistics.median(changes):5.2f}, mean {statistics.mean(changes):5.2f} discs")
    print(f"  all: median {statistics.median(changes_all):5.2f}, mean {statistics.mean(changes_all):5.2f} discs")


report("best score at each depth", scores)
report("average of the last two depths", [[(r[d] + r[d + 1]) / 2 for d in range(len(r) - 1)] for r in scores], first=2)
report("last even depth (one value for depths 2k and 2k+1)", [[r[d] for d in range(1, len(r), 2)] for r in scores], first=2, step=2)
