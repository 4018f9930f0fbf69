#!/usr/bin/env python3
"""Reviews that agree with themselves, and accuracy that cannot flatter.

Against a running server (`gamebot serve --workers 2`):

  bench/review_agreement.py agreement URL [--games 20] [--nodes 25000] [--only GAME]
      plays GAMES games of each game between numbered levels drawn by a
      seeded generator (the first plies random, for variety), reviews each
      at NODES and at 4 x NODES positions a ply, and prints per game the
      share of plies labelled alike, the plies whose labels are more than one
      step of the scale apart, and the review noise: the loss (win
      probability, or Crush's fraction of the best swap's points) that the
      two reviews of a ply differ by in nine plies of ten (of those that
      either review finds a loss in). --noise-out DIR
      writes DIR/<game>.json in the form data/review/<game>.json takes;
      --save DIR writes DIR/<game>.agreement.jsonl (each game's moves and
      its two reviews).

  bench/review_agreement.py accuracy URL [--games 20] [--nodes 25000]
      plays GAMES games of each two-player game between the random mover
      (the ladder's zero) and the middle numbered level, sides alternating,
      reviews them and prints each side's mean accuracy. --save DIR writes
      DIR/<game>.accuracy.jsonl (each game's levels, moves and review).

Games and reviews run two at a time (the server gives a review one fewer
worker than it has). Everything is seeded: a run is repeatable on one build.
"""

import argparse
import concurrent.futures
import json
import random
import statistics
import sys
import urllib.request

STEP = {"book": 0, "best": 0, "excellent": 1, "good": 2, "inaccuracy": 3, "mistake": 4, "blunder": 5}


def post(url, path, body):
    request = urllib.request.Request(
        url + path, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=3600) as reply:
        return json.load(reply)


def get(url, path):
    with urllib.request.urlopen(url + path, timeout=60) as reply:
        return json.load(reply)


def play_game(url, game, levels, seed, random_plies):
    """One game between `levels` (one per side, or one for a solo game), as notations."""
    state = post(url, f"/v1/games/{game}/new", {})["state"]
    rng = random.Random(seed)
    moves = []
    for ply in range(1000):
        if ply < random_plies:
            legal = post(url, f"/v1/games/{game}/legal-moves", {"state": state})["moves"]
            if not legal:
                break
            mv = rng.choice(legal)
            after = post(url, f"/v1/games/{game}/play", {"state": state, "move": mv})
            moves.append(mv["notation"])
        else:
            level = levels[ply % len(levels)]
            after = post(
                url,
                f"/v1/games/{game}/bot-move",
                {"state": state, "level": level, "seed": seed * 1000 + ply},
            )
            moves.append(after["move"]["notation"])
        state = after["state"]
        if after["outcome"]["status"] != "ongoing":
            break
    return moves


def review(url, game, moves, nodes, seed):
    body = {"moves": moves, "max_nodes_per_ply": nodes, "seed": seed}
    return post(url, f"/v1/games/{game}/review", body)


def games_of(url):
    listed = get(url, "/v1/games")
    return listed["games"] if isinstance(listed, dict) else listed


def loss_of(ply):
    if ply.get("loss") is not None:
        return ply["loss"]
    if ply.get("points_lost") is not None:
        return ply["points_lost"] / max(1, ply["best"]["score"])
    return None


def agreement(args):
    pool = concurrent.futures.ThreadPoolExecutor(2)
    rows = []
    for info in games_of(args.url):
        game = info["id"]
        if args.only and game not in args.only:
            continue
        count = len(info.get("numbered_levels", []))
        players = 1 if game == "crush" else 2
        rng = random.Random(f"{args.seed}-{game}")
        plans = []
        for g in range(args.games):
            levels = [str(rng.randint(1, max(1, count - 1))) for _ in range(players)]
            plans.append((levels, args.seed * 100 + g))
        opening = {"reversi": 4, "advance": 4, "halma": 4, "naughts": 1, "crush": 0}.get(game, 2)
        corpus = list(pool.map(lambda p: play_game(args.url, game, p[0], p[1], opening), plans))
        small = list(pool.map(lambda m: review(args.url, game, m, args.nodes, 1), corpus))
        large = list(pool.map(lambda m: review(args.url, game, m, 4 * args.nodes, 1), corpus))
        if args.save:
            with open(f"{args.save}/{game}.agreement.jsonl", "w") as f:
                for moves, a, b in zip(corpus, small, large):
                    f.write(json.dumps({"moves": moves, "small": a, "large": b}) + "\n")
        alike = total = far = 0
        gaps = []
        labels = {}
        moved = {}
        for a, b in zip(small, large):
            for pa, pb in zip(a["plies"], b["plies"]):
                la, lb = pa.get("label"), pb.get("label")
                if la is None or lb is None:
                    continue
                total += 1
                labels[la] = labels.get(la, 0) + 1
                alike += STEP[la] == STEP[lb]
                if STEP[la] != STEP[lb]:
                    pair = f"{la}>{lb}"
                    moved[pair] = moved.get(pair, 0) + 1
                far += abs(STEP[la] - STEP[lb]) > 1
                x, y = loss_of(pa), loss_of(pb)
                # Plies both reviews call lossless say nothing of the noise.
                if x is not None and y is not None and max(x, y) > 0:
                    gaps.append(abs(x - y))
        gaps.sort()
        noise = gaps[int(0.9 * (len(gaps) - 1))] if gaps else 0.0
        row = {
            "game": game,
            "games": len(corpus),
            "plies": total,
            "alike": alike / max(1, total),
            "far": far,
            "noise_p90": noise,
            "labels": labels,
            "moved": dict(sorted(moved.items(), key=lambda kv: -kv[1])),
        }
        rows.append(row)
        print(json.dumps(row), flush=True)
        if args.noise_out:
            command = (
                f"bench/review_agreement.py agreement URL --games {args.games} "
                f"--nodes {args.nodes} --seed {args.seed}"
            )
            out = {
                "command": command,
                "budgets": [{"nodes": args.nodes, "loss": round(noise, 4), "plies": len(gaps)}],
            }
            with open(f"{args.noise_out}/{game}.json", "w") as f:
                json.dump(out, f, indent=2)
                f.write("\n")
    print()
    print(f"| game | games | plies | labelled alike | more than one step apart | noise (p90) |")
    print(f"|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['game']} | {r['games']} | {r['plies']} | {100 * r['alike']:.1f}% | {r['far']} | {r['noise_p90']:.3f} |"
        )


def accuracy(args):
    pool = concurrent.futures.ThreadPoolExecutor(2)
    print("| game | bot level | games | random mover's accuracy | bot's accuracy | gap |")
    print("|---|---|---|---|---|---|")
    for info in games_of(args.url):
        game = info["id"]
        if game == "crush" or (args.only and game not in args.only):
            continue
        zero = info["ladder_zero"]["level"]
        middle = str((len(info["numbered_levels"]) + 1) // 2)
        plans = []
        for g in range(args.games):
            levels = [zero, middle] if g % 2 == 0 else [middle, zero]
            plans.append((levels, args.seed * 100 + g))
        corpus = list(pool.map(lambda p: play_game(args.url, game, p[0], p[1], 0), plans))
        reviews = list(pool.map(lambda m: review(args.url, game, m, args.nodes, 1), corpus))
        if args.save:
            with open(f"{args.save}/{game}.accuracy.jsonl", "w") as f:
                for (levels, seed), moves, r in zip(plans, corpus, reviews):
                    f.write(json.dumps({"levels": levels, "seed": seed, "moves": moves, "review": r}) + "\n")
        random_acc, bot_acc = [], []
        for (levels, _), r in zip(plans, reviews):
            for i, side in enumerate(r["summary"]["sides"]):
                if side.get("accuracy") is None:
                    continue
                (random_acc if levels[i] == zero else bot_acc).append(side["accuracy"])
        ra, ba = statistics.mean(random_acc), statistics.mean(bot_acc)
        print(f"| {game} | {middle} | {len(corpus)} | {ra:.1f} | {ba:.1f} | {ba - ra:.1f} |", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["agreement", "accuracy"])
    parser.add_argument("url")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--nodes", type=int, default=25000)
    parser.add_argument("--seed", type=int, default=68)
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--noise-out")
    parser.add_argument("--save", help="write each game's moves and reviews to DIR/<game>.<mode>.jsonl")
    args = parser.parse_args()
    {"agreement": agreement, "accuracy": accuracy}[args.mode](args)


if __name__ == "__main__":
    sys.exit(main())
