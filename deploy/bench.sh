#!/usr/bin/env bash
# Requests per second of a few game/level pairs, measured with wrk against a
# release build on loopback. Short on purpose (the machine may be shared):
# each case runs DURATION seconds. Figures are noisy; see docs/DEPLOYMENT.md.
#
# Usage: deploy/bench.sh [binary] (default target/release/gamebot)
# Environment: WORKERS (2), DURATION (5s), CONNECTIONS (4).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/gamebot}
workers=${WORKERS:-2}
duration=${DURATION:-5s}
connections=${CONNECTIONS:-4}
work=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"

GAMEBOT_BIND="127.0.0.1:$port" GAMEBOT_WORKERS=$workers GAMEBOT_LOG=warn "$bin" serve >"$work/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 50); do curl -fs "$base/readyz" >/dev/null && break; sleep 0.1; done

games=$(curl -fs "$base/v1/games" | python3 -c 'import json, sys; print(" ".join(g["id"] for g in json.load(sys.stdin)["games"]))')

# One case: game, route, and the JSON fields besides the state.
bench() {
    local game=$1 route=$2 extra=$3
    [[ " $games " == *" $game "* ]] || return 0
    local state
    state=$(curl -fs -X POST "$base/v1/games/$game/new" | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["state"]))')
    cat >"$work/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = [==[{"state": $state$extra}]==]
LUA
    local out
    out=$(wrk -t2 -c"$connections" -d"$duration" --latency -s "$work/post.lua" "$base/v1/games/$game/$route")
    local rps p50 p99 errors
    rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
    p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
    p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
    errors=$(awk '/Non-2xx/ {print $5}' <<<"$out")
    printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$game" "$route" "${extra#, }" "$rps" "$p50" "$p99" "${errors:-0}"
}

echo "workers=$workers connections=$connections duration=$duration cores=$(nproc)"
echo "| game | route | request | req/s | p50 | p99 | non-2xx |"
echo "|---|---|---|---|---|---|---|"
bench reversi legal-moves ''
bench reversi bot-move ', "level": "random"'
bench reversi bot-move ', "level": "norvig"'
bench reversi bot-move ', "level": "strong:book=0", "time_ms": 100'
bench advance bot-move ', "level": "greedy"'
bench advance bot-move ', "level": "predict"'
bench halma bot-move ', "level": "minimax"'
bench naughts bot-move ', "level": "perfect"'
bench crush bot-move ', "level": "greedy"'
