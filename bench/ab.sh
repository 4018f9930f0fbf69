#!/usr/bin/env bash
# A/B: the throughput of one cheap request on two gamebot builds, measured
# in interleaved rounds on the same machine (wrk, 2 threads, 64
# connections), so that the ratio new/old is what to read, not the figures.
#
#   bench/ab.sh OLD_BINARY NEW_BINARY [rounds, default 3] [seconds, default 8] [case]
#
# case:
#   legal-moves (default)  POST /v1/games/reversi/legal-moves, the start position
#   bot-move-seeded        POST /v1/games/reversi/bot-move at level 1, a new seed
#                          each request (every one searched, none a cache hit)
#   bot-move-repeated      the same with one seed (all but the first a cache hit)
set -euo pipefail
old=$1; new=$2; rounds=${3:-3}; secs=${4:-8}; case=${5:-legal-moves}
state='{"board": ["........","........","........","...WB...","...BW...","........","........","........"], "to_move": "black"}'
lua=$(mktemp --suffix .lua)
trap 'rm -f "$lua"' EXIT
case $case in
  legal-moves)
    path=/v1/games/reversi/legal-moves
    printf 'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = [[{"state": %s}]]\n' "$state" > "$lua" ;;
  bot-move-seeded)
    path=/v1/games/reversi/bot-move
    cat > "$lua" <<EOF
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local n = 0
request = function()
  n = n + 1
  return wrk.format(nil, nil, nil, [[{"state": $state, "level": "1", "seed": ]] .. n .. "}")
end
EOF
    ;;
  bot-move-repeated)
    path=/v1/games/reversi/bot-move
    printf 'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = [[{"state": %s, "level": "1", "seed": 7}]]\n' "$state" > "$lua" ;;
  *) echo "unknown case $case" >&2; exit 2 ;;
esac
measure() {
  local bin=$1 port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  GAMEBOT_LOG=warn "$bin" serve --bind "127.0.0.1:$port" & local pid=$!
  for _ in $(seq 100); do curl -fs "127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.05; done
  wrk -t2 -c64 -d"${secs}s" -s "$lua" "http://127.0.0.1:$port$path" | awk '/Requests\/sec/ {print $2}'
  kill -TERM $pid; wait $pid 2>/dev/null || true
}
echo "case $case: $path"
for r in $(seq "$rounds"); do
  a=$(measure "$old"); b=$(measure "$new")
  echo "round $r: old $a req/s, new $b req/s, new/old $(python3 -c "print(f'{$b/$a:.3f}')")"
done
