#!/usr/bin/env python3
"""Writes request bodies for a mixed load from a running server, and prints
the loadgen `--target` arguments that send them, one per line.

    bench/bodies.py BASE_URL DIR mixed    # legal-moves, play, bot-move, analyze of every game
    bench/bodies.py BASE_URL DIR hostile  # malformed, oversized, wrong types, unknown fields

BASE_URL is where the targets point (a load balancer, or the server itself);
the bodies are made by asking it for each game's new state and legal moves.

The mixed load's searches are bounded by work, not by the clock
(`max_nodes`, no `time_ms` near the cap, no `seed` so the position cache
never answers them): a request costs the same CPU however many replicas share
the cores, so throughput figures compare. Every body is valid, so every
answer should be 200.
"""
import json
import os
import sys
import urllib.request

# Enough work to be a real search (milliseconds), little enough that a
# mixed load is not all searching. Number Crush's nodes are chance nodes
# over refills, each far dearer than another game's.
MAX_NODES = {"crush": 500}
DEFAULT_MAX_NODES = 5000


def call(base, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method="POST" if data else "GET")
    if data:
        request.add_header("content-type", "application/json")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def write(directory, name, body):
    path = os.path.join(directory, name)
    with open(path, "w") as out:
        out.write(body if isinstance(body, str) else json.dumps(body))
    return path


def mixed(base, directory):
    games = [game["id"] for game in call(base, "/v1/games")["games"]]
    targets = []
    for game in games:
        state = call(base, f"/v1/games/{game}/new", {})["state"]
        moves = call(base, f"/v1/games/{game}/legal-moves", {"state": state})["moves"]
        nodes = MAX_NODES.get(game, DEFAULT_MAX_NODES)
        bodies = {
            "legal-moves": {"state": state},
            "play": {"state": state, "move": moves[0]["notation"]},
            "bot-move": {"state": state, "max_nodes": nodes},
            "analyze": {"state": state, "top": 3, "max_nodes": nodes},
        }
        for operation, body in bodies.items():
            path = write(directory, f"{game}.{operation}.json", body)
            targets.append(f"{base}/v1/games/{game}/{operation}@{path}")
    return targets


def hostile(base, directory):
    state = call(base, "/v1/games/reversi/new", {})["state"]
    bodies = [
        ("reversi", "legal-moves", "malformed.json", '{"state": {"board": ["........", '),
        ("reversi", "play", "not-json.json", "move d3 please"),
        ("naughts", "bot-move", "deep.json", "[" * 10000 + "]" * 10000),
        # Over the default 1 MiB body limit: 413.
        ("advance", "legal-moves", "oversized.json",
         '{"state": "' + "x" * (1024 * 1024 + 16) + '"}'),
        ("halma", "analyze", "wrong-types.json", {"state": 5, "top": "three"}),
        ("crush", "play", "array.json", [1, 2, 3]),
        ("reversi", "bot-move", "unknown-field.json", {"state": state, "levle": "strong"}),
        ("reversi", "legal-moves", "stray-state-field.json", {"state": dict(state, colour="red")}),
        ("reversi", "play", "illegal-move.json", {"state": state, "move": "a1"}),
        ("reversi", "bot-move", "bad-level.json", {"state": state, "level": "strnog"}),
    ]
    targets = []
    for game, operation, name, body in bodies:
        path = write(directory, name, body)
        targets.append(f"{base}/v1/games/{game}/{operation}@{path}")
    return targets


def main():
    base, directory, kind = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
    os.makedirs(directory, exist_ok=True)
    targets = {"mixed": mixed, "hostile": hostile}[kind](base, directory)
    print("\n".join(targets))


if __name__ == "__main__":
    main()
