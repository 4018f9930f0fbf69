#!/usr/bin/env bash
# The position cache under a load of distinct requests: a release server
# with --cache-mb MB answers SECONDS of seeded, node-capped Reversi
# analyses (wrk, 2 threads, 16 connections), each with a seed of its own,
# so every request is a miss that adds an entry and the cache must evict.
# Prints the server's resident memory before, every 10 s and at the end,
# beside the same load on a server with the cache off, and the cache's
# size and counters from /metrics.
#
#   bench/cache.sh [MB, default 8] [SECONDS, default 60]
set -euo pipefail
cd "$(dirname "$0")/.."
mb=${1:-8}
secs=${2:-60}
cargo build --release --quiet --bin gamebot
lua=$(mktemp --suffix .lua)
cat > "$lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local state = [[{"board": ["........", "........", "..WWW...", "..WBBW..", "..BBWB..", "...B.W..", "........", "........"], "to_move": "black"}]]
local counter = 0
request = function()
  counter = counter + 1
  local seed = math.random(1, 2^40) * 1000 + counter
  return wrk.format(nil, nil, nil, '{"state": ' .. state .. ', "seed": ' .. seed .. ', "max_nodes": 2000, "time_ms": 30000}')
end
LUA
rss() { awk '/VmRSS/ {print $2 / 1024 " MiB"}' "/proc/$1/status"; }
run() {
  local cache_mb=$1 port pid
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  GAMEBOT_LOG=warn target/release/gamebot serve --bind "127.0.0.1:$port" --cache-mb "$cache_mb" &
  pid=$!
  for _ in $(seq 100); do curl -fs "127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.05; done
  echo "== --cache-mb $cache_mb: RSS at start $(rss $pid)"
  wrk -t2 -c16 -d"${secs}s" -s "$lua" "http://127.0.0.1:$port/v1/games/reversi/analyze" > /tmp/cache-wrk.$$ &
  local load=$!
  for t in $(seq 10 10 "$secs"); do sleep 10; echo "   after ${t} s: RSS $(rss $pid)"; done
  wait $load
  grep -E "Requests/sec|Non-2xx" /tmp/cache-wrk.$$ | sed 's/^/   /'
  curl -s "127.0.0.1:$port/metrics" | grep -E '^gamebot_cache' | sed 's/^/   /'
  echo "   RSS at the end $(rss $pid)"
  kill -TERM $pid; wait $pid 2>/dev/null || true
  rm -f /tmp/cache-wrk.$$
}
run "$mb"
run 0
rm -f "$lua"
