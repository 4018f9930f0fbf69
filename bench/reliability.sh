#!/usr/bin/env bash
# Load, overload, disconnect, shutdown and soak checks against a release build
# on loopback, each bounded in time and count. Results and how to read them:
# docs/RELIABILITY.md.
#
#   bench/reliability.sh [sustained|overload|abandon|sigterm|soak|all] [soak seconds, default 300]
#
# Exits non-zero when a check fails its bar.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
soak_seconds=${2:-300}
work=$(mktemp -d)
trap 'stop_server; rm -rf "$work"' EXIT

cargo build --release --quiet --bin gamebot --example loadgen
loadgen=target/release/examples/loadgen
server=""
port=""

start_server() { # extra serve flags...
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  GAMEBOT_LOG=warn ./target/release/gamebot serve --bind "127.0.0.1:$port" "$@" &
  server=$!
  for _ in $(seq 200); do curl -fs "127.0.0.1:$port/healthz" >/dev/null && return; sleep 0.05; done
  echo "server did not start" >&2; exit 1
}

stop_server() {
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then kill -TERM "$server"; wait "$server" || true; fi
  server=""
}

rss_kib() { awk '/VmRSS/ {print $2}' "/proc/$server/status"; }

# Request bodies from each game's starting state: legal-moves, play (first legal move), bot-move.
make_bodies() { # time_ms for bot-move
  local games
  games=$(curl -fs "127.0.0.1:$port/v1/games" | python3 -c 'import json,sys; print(" ".join(g["id"] for g in json.load(sys.stdin)["games"]))')
  for game in $games; do
    curl -fs -X POST "127.0.0.1:$port/v1/games/$game/new" > "$work/$game.new.json"
    python3 - "$work" "$game" "$1" <<'PY'
import json, sys, urllib.request
work, game, time_ms = sys.argv[1], sys.argv[2], int(sys.argv[3])
state = json.load(open(f"{work}/{game}.new.json"))["state"]
json.dump({"state": state}, open(f"{work}/{game}.legal.json", "w"))
json.dump({"state": state, "level": None, "time_ms": time_ms}, open(f"{work}/{game}.bot.json", "w"))
PY
  done
  echo "$games"
}

check() { # python expression over the loadgen JSON line `r`, description
  python3 - "$1" "$2" "$work/last.json" <<'PY'
import json, sys
expr, what, path = sys.argv[1], sys.argv[2], sys.argv[3]
r = json.load(open(path))
ok = eval(expr, {"r": r})
print(("PASS" if ok else "FAIL") + ": " + what)
sys.exit(0 if ok else 1)
PY
}

run_loadgen() { # loadgen args...
  "$loadgen" --json "$@" | tee "$work/out.txt"
  tail -n 1 "$work/out.txt" > "$work/last.json"
}

sustained() {
  echo "== (a) sustained legal-moves load across every game: 64 in flight, 20 s"
  start_server
  local games targets=()
  games=$(make_bodies 50)
  for game in $games; do targets+=(--target "http://127.0.0.1:$port/v1/games/$game/legal-moves@$work/$game.legal.json"); done
  run_loadgen "${targets[@]}" --concurrency 64 --seconds 20
  check 'set(r["by_status"]) == {"200"}' "every answer is 200"
  stop_server
}

overload() {
  # Capacity: each worker answers 1000 / time_ms requests a second.
  local workers=2 queue=2 time_ms=100
  local rate=$(( 2 * workers * 1000 / time_ms ))
  echo "== (b) bot-move at 2x capacity: $workers workers + $queue queued, time_ms $time_ms, $rate requests/s offered (capacity $(( rate / 2 ))/s), 20 s"
  start_server --workers "$workers" --queue "$queue"
  make_bodies "$time_ms" > /dev/null
  run_loadgen --target "http://127.0.0.1:$port/v1/games/reversi/bot-move@$work/reversi.bot.json" \
    --concurrency 64 --rate "$rate" --seconds 20
  check 'set(r["by_status"]) <= {"200", "503"}' "only 200 and 503"
  check 'r["missing_retry_after"] == 0 and "503" in r["by_status"]' "every 503 carries Retry-After"
  check "r['by_status']['200']['p99_ms'] <= $time_ms + 50" "p99 of admitted requests <= time_ms + 50 ms"
  check 'r["by_status"]["503"]["p99_ms"] <= 20' "503s come at once (p99 <= 20 ms)"
  stop_server
}

abandon() {
  echo "== (c) clients that go away mid-search: 4 in flight, time_ms 5000, each dropped after 100 ms, 10 s"
  start_server --workers 2 --queue 8
  make_bodies 5000 > /dev/null
  run_loadgen --target "http://127.0.0.1:$port/v1/games/reversi/bot-move@$work/reversi.bot.json" \
    --concurrency 4 --seconds 10 --abandon-after-ms 100
  python3 - "$port" <<'PY'
import json, sys, time, urllib.request
port = sys.argv[1]
start = time.monotonic()
while True:
    jobs = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz"))["jobs"]
    if jobs == 0:
        break
    if time.monotonic() - start > 2:
        print(f"FAIL: {jobs} jobs still running 2 s after the clients left"); sys.exit(1)
    time.sleep(0.001)
print(f"PASS: every worker free {1000 * (time.monotonic() - start):.1f} ms after the last client left")
PY
  stop_server
}

sigterm() {
  echo "== (d) SIGTERM under load: bot-move time_ms 400, 4 in flight; SIGTERM after 3 s"
  start_server --workers 2 --queue 8
  make_bodies 400 > /dev/null
  "$loadgen" --json --target "http://127.0.0.1:$port/v1/games/reversi/bot-move@$work/reversi.bot.json" \
    --concurrency 4 --seconds 6 > "$work/out.txt" &
  local load=$!
  sleep 3
  kill -TERM "$server"
  local status=0
  wait "$server" || status=$?
  server=""
  wait "$load"
  cat "$work/out.txt"
  tail -n 1 "$work/out.txt" > "$work/last.json"
  [ "$status" = 0 ] && echo "PASS: exit status 0" || { echo "FAIL: exit status $status"; return 1; }
  check 'set(r["by_status"]) <= {"200", "refused", "connection-error"}' "in-flight requests finish with 200; later ones are refused"
  check '"refused" in r["by_status"] or "connection-error" in r["by_status"]' "new connections are refused after SIGTERM"
}

soak() {
  echo "== soak: mixed legal-moves and bot-move (time_ms 20) on every game, 16 in flight, $soak_seconds s"
  start_server --workers 2 --queue 64
  local games targets=()
  games=$(make_bodies 20)
  for game in $games; do
    targets+=(--target "http://127.0.0.1:$port/v1/games/$game/legal-moves@$work/$game.legal.json")
    targets+=(--target "http://127.0.0.1:$port/v1/games/$game/bot-move@$work/$game.bot.json")
  done
  "$loadgen" "${targets[@]}" --concurrency 16 --seconds 15 > /dev/null
  local before after
  before=$(rss_kib)
  run_loadgen "${targets[@]}" --concurrency 16 --seconds "$soak_seconds"
  after=$(rss_kib)
  echo "RSS after warm-up: $before KiB; after $soak_seconds s: $after KiB"
  python3 -c "import sys; b,a=$before,$after; g=(a-b)/b; print(('PASS' if g < 0.10 else 'FAIL') + f': RSS growth {g:+.1%} (bar: under 10%)'); sys.exit(0 if g < 0.10 else 1)"
  check 'set(r["by_status"]) <= {"200", "503"}' "only 200 and 503 during the soak"
  stop_server
}

case "$what" in
  sustained|overload|abandon|sigterm|soak) "$what" ;;
  all) sustained; overload; abandon; sigterm; soak ;;
  *) echo "usage: $0 [sustained|overload|abandon|sigterm|soak|all] [soak seconds]" >&2; exit 2 ;;
esac
