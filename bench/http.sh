#!/usr/bin/env bash
# HTTP throughput and latency of `legal-moves` on Reversi's start position,
# beside a trivial /healthz baseline measured in the same run, with wrk; then
# Reversi's `strong` bot-move with time_ms=100 on a loaded server (4
# connections per worker, so requests queue): every answer should come
# within time_ms + 50 ms at p99, since a search's deadline counts from the
# request's arrival.
#
#   bench/http.sh [seconds per run, default 10] [connections, default 64]
#
# Needs wrk (Debian: apt-get install wrk). Starts a release build on a free
# loopback port, runs each load for a bounded time, stops the server.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
connections=${2:-64}
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }

cargo build --release --quiet
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
GAMEBOT_LOG=warn ./target/release/gamebot serve --bind "127.0.0.1:$port" &
server=$!
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null' EXIT
for _ in $(seq 100); do curl -fs "127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.05; done

post_script() { # JSON body -> path of a wrk script that POSTs it
  local path
  path=$(mktemp --suffix .lua)
  printf 'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = [[%s]]\n' "$1" > "$path"
  echo "$path"
}

script=$(post_script '{"state": {"board": ["........","........","........","...WB...","...BW...","........","........","........"], "to_move": "black"}}')

run() { # name, extra wrk args...
  local name=$1; shift
  local out
  out=$(wrk -t2 -c"$connections" -d"${seconds}s" --latency "$@")
  local rps p50 p99 non2xx
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1=="50%" {print $2}' <<<"$out")
  p99=$(awk '$1=="99%" {print $2}' <<<"$out")
  non2xx=$(awk '/Non-2xx/ {print $NF}' <<<"$out")
  printf '%-28s %12s req/s   p50 %9s   p99 %9s   non-2xx %s\n' "$name" "$rps" "$p50" "$p99" "${non2xx:-0}"
  echo "$rps" > "/tmp/gamebot-bench-$name"
}

echo "wrk -t2 -c$connections -d${seconds}s on 127.0.0.1:$port ($(nproc) cores, server workers = cores)"
run healthz "http://127.0.0.1:$port/healthz"
run legal-moves -s "$script" "http://127.0.0.1:$port/v1/games/reversi/legal-moves"
python3 - <<PY
base = float(open("/tmp/gamebot-bench-healthz").read())
moves = float(open("/tmp/gamebot-bench-legal-moves").read())
print(f"legal-moves / healthz = {moves / base:.0%} (target: at least 50%)")
PY
bot=$(post_script '{"state": {"board": ["........","........","...B....","...BB...","...BW...","........","........","........"], "to_move": "white"}, "level": "strong", "time_ms": 100}')
workers=$(nproc)
connections=$((4 * workers)) run bot-move-100ms -s "$bot" "http://127.0.0.1:$port/v1/games/reversi/bot-move"
echo "bot-move: time_ms 100, $((4 * workers)) connections on $workers workers (target: p99 within 150 ms, no non-2xx)"
rm -f "$script" "$bot"
