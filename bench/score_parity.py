#!/usr/bin/env python3
"""How much a reported score swings from one search depth to the next.

For POSITIONS random midgame positions of GAME (Reversi: 16 to 30 random
plies from the start; Advance: 6 to 20; Halma: 10 to 40; seeded), asks a
running server's `analyze` for the best score at each max_depth from 1 to
DEPTH (seeded, one move, no time pressure) and prints, per pair of
consecutive depths and over all, the median and mean absolute change of the
best score in UNIT (Reversi: discs, the score being in hundredths of a disc;
Advance: pawns of 100 centipawns; Halma: its evaluation units), and the same
for the two-depth average of consecutive scores and the score of the last
even depth (two standard cures for the odd/even swing). Positions whose
score is decisive (a won or lost game found) at any depth are left out.

    target/release/gamebot serve --bind 127.0.0.1:8080 --cache-mb 0 &
    bench/score_parity.py [URL] [POSITIONS, default 200] [DEPTH, default 9] [GAME, default reversi]
"""
import json
import random
import statistics
import sys
import urllib.request

url = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
count = int(sys.argv[2]) if len(sys.argv) > 2 else 200
deepest = int(sys.argv[3]) if len(sys.argv) > 3 else 9
game = sys.argv[4] if len(sys.argv) > 4 else "reversi"
plies, unit, unit_name = {
    "reversi": ((16, 30), 100, "discs"),
    "advance": ((6, 20), 100, "pawns"),
    "halma": ((10, 40), 1, "units"),
}[game]
DECISIVE = 500_000


def post(path, body):
    request = urllib.request.Request(
        url + path, json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=600) as reply:
        return json.load(reply)


def midgame(rng):
    state = post(f"/v1/games/{game}/new", {})["state"]
    for _ in range(rng.randint(*plies)):
        legal = post(f"/v1/games/{game}/legal-moves", {"state": state})
        if not legal["moves"]:
            return None
        state = post(f"/v1/games/{game}/play", {"state": state, "move": rng.choice(legal["moves"])})["state"]
    return state


rng = random.Random(1)
positions = []
while len(positions) < count:
    state = midgame(rng)
    if state and post(f"/v1/games/{game}/legal-moves", {"state": state})["moves"]:
        positions.append(state)

scores = []
for state in positions:
    row = []
    for depth in range(1, deepest + 1):
        body = {"state": state, "top": 1, "max_depth": depth, "time_ms": 30000, "seed": 1}
        row.append(post(f"/v1/games/{game}/analyze", body)["moves"][0]["score"])
    if all(abs(score) < DECISIVE for score in row):
        scores.append([score / unit for score in row])
print(f"{game}: {len(scores)} of {len(positions)} positions without a decisive score")


def report(name, rows, first=1, step=1):
    print(f"{name}:")
    changes_all = []
    for d in range(len(rows[0]) - 1):
        changes = [abs(r[d + 1] - r[d]) for r in rows]
        changes_all += changes
        print(f"  depth {first + d * step}->{first + (d + 1) * step}: median {statistics.median(changes):5.2f}, mean {statistics.mean(changes):5.2f} {unit_name}")
    print(f"  all: median {statistics.median(changes_all):5.2f}, mean {statistics.mean(changes_all):5.2f} {unit_name}")


report("best score at each depth", scores)
report("average of the last two depths", [[(r[d] + r[d + 1]) / 2 for d in range(len(r) - 1)] for r in scores], first=2)
report("last even depth (one value for depths 2k and 2k+1)", [[r[d] for d in range(1, len(r), 2)] for r in scores], first=2, step=2)
