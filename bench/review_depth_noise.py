#!/usr/bin/env python3
"""How much of a review's noise is the depth its search stopped at (issue #68).

    bench/review_agreement.py agreement URL --games 20 --nodes 25000 --only reversi --save DIR
    bench/review_depth_noise.py URL DIR/reversi.agreement.jsonl [PLIES]

Takes up to PLIES (default 500) plies of those reviews, drawn by a seeded
generator from those either review found a loss in, and analyses each
position with `analyze` (top 10, every completed depth streamed) at 25,000
and at 100,000 positions. A ply's loss at a depth is the best move's chance
of winning less the played move's, both from that depth's scores. Prints
the loss that the two budgets differ by in nine plies of ten (the review
noise's measure), taking each budget's last depth, the mean of its last
two and of its last three, and the last depth split by whether the two
budgets stopped on depths of the same parity. Reversi only; the played
move must be among the top 10.
"""
import json
import random
import sys
import urllib.request

URL = sys.argv[1]
BUDGETS = (25000, 100000)


def post(path, body, sse=False):
    """The JSON answer, or with `sse` the stream's (event, data) pairs."""
    headers = {"content-type": "application/json"}
    if sse:
        headers["accept"] = "text/event-stream"
    request = urllib.request.Request(URL + path, data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(request, timeout=600) as reply:
        if not sse:
            return json.load(reply)
        events, event = [], None
        for line in reply.read().decode().split("\n"):
            if line.startswith("event: "):
                event = line[len("event: "):]
            elif line.startswith("data: "):
                events.append((event, json.loads(line[len("data: "):])))
        return events


def drawn_plies(path, count):
    """(moves, index) of up to `count` plies either review found a loss in."""
    cases = []
    for game in map(json.loads, open(path)):
        for i, (a, b) in enumerate(zip(game["small"]["plies"], game["large"]["plies"])):
            if a.get("label") in (None, "book") or b.get("label") in (None, "book"):
                continue
            if a.get("loss") is None or b.get("loss") is None or max(a["loss"], b["loss"]) == 0:
                continue
            cases.append((game["moves"], i))
    random.Random(1).shuffle(cases)
    return cases[:count]


def losses_by_depth(state, played, nodes):
    """The played move's loss at each completed depth (None where it is not
    among the top 10 or a move has no win probability), and the depths."""
    body = {"state": state, "top": 10, "max_nodes": nodes}
    depths = [data for event, data in post("/v1/games/reversi/analyze", body, sse=True) if event == "depth"]
    losses = []
    for data in depths:
        chances = {m["move"]["notation"]: m.get("win_probability") for m in data["moves"]}
        if played not in chances or None in chances.values():
            losses.append(None)
        else:
            losses.append(max(0.0, data["moves"][0]["win_probability"] - chances[played]))
    return losses, [data["search"]["depth"] for data in depths]


def mean_of_last(values, n):
    last = values[-n:]
    return None if len(last) < n or None in last else sum(last) / n


def p90(values):
    values = sorted(values)
    return values[int(0.9 * (len(values) - 1))]


def main():
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 500
    pairs = {1: [], 2: [], 3: []}  # (small, large) loss, by how many last depths are averaged
    parity = {True: [], False: []}  # last-depth pairs, by whether the depths' parities agree
    for moves, i in drawn_plies(sys.argv[2], count):
        state = post("/v1/games/reversi/replay", {"moves": moves[: i + 1], "states": True})["states"][i]
        (small, small_depths), (large, large_depths) = (losses_by_depth(state, moves[i], n) for n in BUDGETS)
        if mean_of_last(small, 2) is None or mean_of_last(large, 2) is None:
            continue
        for n, kept in pairs.items():
            a, b = mean_of_last(small, n), mean_of_last(large, n)
            if a is not None and b is not None:
                kept.append((a, b))
        parity[(small_depths[-1] - large_depths[-1]) % 2 == 0].append((small[-1], large[-1]))
    spread = lambda kept: round(p90([abs(a - b) for a, b in kept]), 4)
    print("plies", len(pairs[1]))
    for n, name in ((1, "last depth"), (2, "mean of last two"), (3, "mean of last three")):
        print(f"{name}: p90 |N-4N| {spread(pairs[n])} over {len(pairs[n])}")
    for same, name in ((True, "same"), (False, "other")):
        if parity[same]:
            print(f"last depth, {name} parity: p90 {spread(parity[same])} over {len(parity[same])}")


if __name__ == "__main__":
    main()
