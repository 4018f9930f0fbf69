#!/usr/bin/env bash
# A/B: POST /v1/games/reversi/legal-moves throughput of two gamebot builds,
# measured in interleaved rounds on the same machine (wrk, 2 threads, 64
# connections), so that the ratio new/old is what to read, not the figures.
#
#   bench/ab.sh OLD_BINARY NEW_BINARY [rounds, default 3] [seconds, default 8]
set -euo pipefail
old=$1; new=$2; rounds=${3:-3}; secs=${4:-8}
body='{"state": {"board": ["........","........","........","...WB...","...BW...","........","........","........"], "to_move": "black"}}'
lua=$(mktemp --suffix .lua)
printf 'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = [[%s]]\n' "$body" > "$lua"
measure() {
  local bin=$1 port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  GAMEBOT_LOG=warn "$bin" serve --bind "127.0.0.1:$port" & local pid=$!
  for _ in $(seq 100); do curl -fs "127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.05; done
  wrk -t2 -c64 -d"${secs}s" -s "$lua" "http://127.0.0.1:$port/v1/games/reversi/legal-moves" | awk '/Requests\/sec/ {print $2}'
  kill -TERM $pid; wait $pid 2>/dev/null || true
}
for r in $(seq "$rounds"); do
  a=$(measure "$old"); b=$(measure "$new")
  echo "round $r: old $a req/s, new $b req/s, new/old $(python3 -c "print(f'{$b/$a:.3f}')")"
done
rm -f "$lua"
