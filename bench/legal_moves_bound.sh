#!/usr/bin/env bash
# What bounds `legal-moves` throughput: wrk against a release server with 1
# and 2 compute workers (and /healthz, which never touches the pool, as the
# ceiling of the HTTP stack alone), the CPU time the server and wrk each
# used during the runs (from /proc), and a perf profile of the server at 2
# workers (software cpu-clock sampling, which works in VMs without
# hardware counters).
#
#   bench/legal_moves_bound.sh [seconds per run, default 8] [connections, default 32]
#
# Needs wrk and perf (Debian: wrk, linux-perf). Writes the profile to
# target/legal-moves.perf.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-8}
connections=${2:-32}
cargo build --release --quiet --bin gamebot
body='{"state": {"board": ["........","........","........","...WB...","...BW...","........","........","........"], "to_move": "black"}}'
script=$(mktemp --suffix .lua)
printf 'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = [[%s]]\n' "$body" > "$script"
server=""
trap 'rm -f "$script"; [ -n "$server" ] && kill -TERM "$server" 2>/dev/null; wait 2>/dev/null || true' EXIT
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }   # utime + stime, in clock ticks

start() { # workers
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  GAMEBOT_LOG=warn ./target/release/gamebot serve --bind "127.0.0.1:$port" --workers "$1" &
  server=$!
  for _ in $(seq 100); do curl -fs "127.0.0.1:$port/healthz" >/dev/null && return; sleep 0.05; done
  echo "server did not start" >&2; exit 1
}

measure() { # label, path, wrk args...
  local label=$1 path=$2; shift 2
  local before out wrk_pid wrk_ticks after
  before=$(ticks "$server")
  wrk -t1 -c"$connections" -d"${seconds}s" "$@" "http://127.0.0.1:$port$path" > /tmp/wrk.$$ &
  wrk_pid=$!
  sleep "$((seconds - 1))"
  wrk_ticks=$(ticks "$wrk_pid")
  wait "$wrk_pid"
  after=$(ticks "$server")
  out=$(cat /tmp/wrk.$$); rm -f /tmp/wrk.$$
  local hz; hz=$(getconf CLK_TCK)
  printf '%-28s %10s req/s   server CPU %5.2f cores   wrk CPU %5.2f cores (to %ss)\n' "$label" \
    "$(awk '/Requests\/sec/ {print $2}' <<<"$out")" \
    "$(echo "($after - $before) / $hz / $seconds" | bc -l)" \
    "$(echo "$wrk_ticks / $hz / ($seconds - 1)" | bc -l)" "$((seconds - 1))"
}

for workers in 1 2; do
  start "$workers"
  measure "healthz, $workers worker(s)" /healthz
  measure "legal-moves, $workers worker(s)" /v1/games/reversi/legal-moves -s "$script"
  if [ "$workers" = 2 ]; then
    wrk -t1 -c"$connections" -d"${seconds}s" -s "$script" "http://127.0.0.1:$port/v1/games/reversi/legal-moves" >/dev/null &
    perf record -q -e cpu-clock -F 999 -g -p "$server" -o target/legal-moves.perf.data -- sleep "$((seconds - 2))" 2>/dev/null
    wait
    perf report -i target/legal-moves.perf.data --stdio --no-children --sort dso 2>/dev/null | grep -E '^ +[0-9]' | head -12 > target/legal-moves.perf.txt
    echo "--" >> target/legal-moves.perf.txt
    perf report -i target/legal-moves.perf.data --stdio --no-children --sort sym 2>/dev/null | grep -E '^ +[0-9]' | head -30 >> target/legal-moves.perf.txt
    echo "profile (by binary, then by symbol): target/legal-moves.perf.txt"
    cat target/legal-moves.perf.txt
  fi
  kill -TERM "$server"; wait "$server" || true; server=""
done
