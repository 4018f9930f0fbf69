#!/usr/bin/env bash
# Memory of a gamebot server under a burst of naughts `perfect` searches on 3×3:
# starts BINARY on 127.0.0.1:PORT with 2 compute workers (extra arguments go to
# `serve`, e.g. --table-mb 8), reads VmRSS/VmHWM from /proc before and after
# each of ROUNDS bursts of 32 concurrent bot-move requests (loopback only),
# checks every answer is a proven move, and stops the server.
#
#   cargo build --release && bench/naughts_memory.sh target/release/gamebot 18090
set -euo pipefail

bin=${1:-target/release/gamebot}
port=${2:-18090}
shift $(($# < 2 ? $# : 2))
rounds=${ROUNDS:-2}
base=http://127.0.0.1:$port
work=$(mktemp -d)

"$bin" serve --bind "127.0.0.1:$port" --workers 2 --queue 64 "$@" >"$work/server.log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 200); do
    curl -sf "$base/healthz" >/dev/null && break
    sleep 0.05
done

memory() {
    awk -v what="$1" '/^VmRSS|^VmHWM/ {v[$1] = $2} END {printf "%-14s VmRSS %7d kB  VmHWM %7d kB\n", what, v["VmRSS:"], v["VmHWM:"]}' "/proc/$pid/status"
}

post() { curl -sf -H 'content-type: application/json' -d "$2" "$base/v1/games/naughts/$1"; }

# The positions: the empty board (5 markers a side, not in the opening book)
# and the boards after a first move and a reply; 32 requests cycle over them.
empty=$(post new '{}' | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["state"]))')
states=("$empty")
for opening in "2 2 5|1 1 5" "2 2 5|1 2 4" "2 2 4|1 1 5" "1 1 5|3 3 4" "1 2 5|2 2 5" "2 2 3|2 2 5" "1 1 4|1 3 5"; do
    state=$empty
    IFS='|' read -r first reply <<<"$opening"
    for mv in "$first" "$reply"; do
        state=$(post play "{\"state\": $state, \"move\": \"$mv\"}" | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["state"]))')
    done
    states+=("$state")
done
for i in $(seq 0 31); do
    printf '{"state": %s, "level": "perfect", "time_ms": 30000}' "${states[i % ${#states[@]}]}" >"$work/body$i.json"
done

memory "before"
for round in $(seq "$rounds"); do
    started=$(date +%s%N)
    seq 0 31 | xargs -P 32 -I{} sh -c \
        "curl -s -o '$work/reply{}.json' -w '%{http_code}\n' -H 'content-type: application/json' -d @'$work/body{}.json' '$base/v1/games/naughts/bot-move'" \
        >"$work/codes"
    elapsed=$((($(date +%s%N) - started) / 1000000))
    ok=$(grep -c '^200$' "$work/codes" || true)
    proven=$(cat "$work"/reply*.json | grep -o '"proven":true' | wc -l)
    memory "after burst $round"
    echo "  answers: $ok of 32 with 200, $proven proven, in $elapsed ms"
    [ "$ok" = 32 ] && [ "$proven" = 32 ] || { echo "a request failed" >&2; exit 1; }
done
