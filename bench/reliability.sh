#!/usr/bin/env bash
# Load, overload, disconnect, shutdown and soak checks against a release build
# on loopback, each bounded in time and count. Results and how to read them:
# docs/RELIABILITY.md.
#
#   bench/reliability.sh [sustained|overload|abandon|sigterm|soak|all] [soak seconds, default 600]
#   bench/reliability.sh replicas   # the long form of deploy/replicas.sh (Docker, HAProxy)
#
# Exits non-zero when a check fails its bar.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
soak_seconds=${2:-600}
[ "$what" = replicas ] && exec bash deploy/replicas.sh long
work=$(mktemp -d)
trap 'stop_server; rm -rf "$work"' EXIT

cargo build --release --quiet --locked --bin gamebot
cargo build --release --quiet --locked -p gamebot-benches --example loadgen
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

# The server's CPU time so far (user + system), in clock ticks: the fields
# after the parenthesised command name, whose 12th and 13th are utime, stime.
cpu_ticks() { sed 's/.*) //' "/proc/$server/stat" | awk '{print $12 + $13}'; }

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
# Every check wants bot-moves that search for their time: Reversi's default
# level answers its opening from its book at once, so it is asked without it.
level = "strong:book=0" if game == "reversi" else None
json.dump({"state": state, "level": level, "time_ms": time_ms}, open(f"{work}/{game}.bot.json", "w"))
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
  # Mixed load at about 70% of capacity plus a trickle of hostile bodies;
  # memory, file descriptors and the CPU a request costs must stay flat,
  # every window's p99 within the default search time, and nothing may fail.
  # The first and the last window after the warm-up are compared: a minute
  # each, or 15 s for runs under 4 minutes (the CI form).
  local window=60
  [ "$soak_seconds" -lt 240 ] && window=15
  echo "== soak: mixed load (legal-moves, play, bot-move, analyze of every game) at ~70% of capacity + hostile bodies, $soak_seconds s"
  start_server --workers 2 --queue 64
  local targets=() hostile=()
  python3 bench/bodies.py "http://127.0.0.1:$port" "$work/bodies" mixed > "$work/mixed.txt"
  python3 bench/bodies.py "http://127.0.0.1:$port" "$work/bodies" hostile > "$work/hostile.txt"
  while read -r t; do targets+=(--target "$t"); done < "$work/mixed.txt"
  while read -r t; do hostile+=(--target "$t"); done < "$work/hostile.txt"

  # The warm-up lasts a window too: the allocator keeps some of the search
  # tables it has freed, and reaches its plateau only after a while.
  echo "-- warm-up and capacity: closed loop, 16 in flight, $window s"
  "$loadgen" --json "${targets[@]}" --concurrency 16 --seconds "$window" > "$work/warm.txt"
  local capacity rate
  capacity=$(tail -n 1 "$work/warm.txt" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(round(r["requests"]/r["seconds"]))')
  rate=$(( capacity * 7 / 10 ))
  echo "capacity $capacity req/s; offering $rate req/s (open loop) and 5 hostile req/s for $soak_seconds s, window $window s"

  "$loadgen" --json "${hostile[@]}" --concurrency 2 --rate 5 --seconds "$soak_seconds" --interval-s "$window" > "$work/hostile-out.txt" &
  local hostile_load=$!
  "$loadgen" --json "${targets[@]}" --concurrency 64 --rate "$rate" --seconds "$soak_seconds" \
    --interval-s "$window" > "$work/out.txt" &
  local load=$!
  # RSS and open descriptors of the server, once a second.
  local t0=$SECONDS
  while kill -0 "$load" 2>/dev/null; do
    echo "$((SECONDS - t0)) $(rss_kib) $(ls "/proc/$server/fd" | wc -l) $(cpu_ticks)" >> "$work/samples.txt"
    sleep 1
  done
  wait "$load"
  wait "$hostile_load"
  sed -n '1,/failed/p' "$work/out.txt"
  echo "hostile: $(sed -n '2,/failed/p' "$work/hostile-out.txt" | grep -E '^ +[0-9a-z-]+:' | grep -v -E 'Retry-After|failed' | awk '{printf "%s %s ", $1, $2}')"
  tail -n 1 "$work/out.txt" > "$work/last.json"
  tail -n 1 "$work/hostile-out.txt" > "$work/hostile.json"
  python3 - "$work" "$soak_seconds" "$window" "$(getconf CLK_TCK)" <<'PY'
import json, sys
work, seconds, window, ticks_per_s = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
samples = [tuple(map(int, line.split())) for line in open(f"{work}/samples.txt")]
first = [s for s in samples if s[0] < window]
last = [s for s in samples if s[0] >= seconds - window]
mean = lambda xs: sum(xs) / len(xs)
rss0, rss1 = mean([s[1] for s in first]), mean([s[1] for s in last])
fd0, fd1 = mean([s[2] for s in first]), mean([s[2] for s in last])
r = json.load(open(f"{work}/last.json"))
h = json.load(open(f"{work}/hostile.json"))
slices = r["intervals"]
# Latency is judged on an absolute bar: open-loop p99 at 70% of a capacity
# measured once swings with every neighbour (one CI run: 32.8, 60.8, 146.1,
# 142.9 ms with RSS, fds and answers fine), which no relative p99 bar
# survives. A server that slows down as it runs spends more CPU on each
# request, so the trend is judged on CPU per answered request, last window
# against the first (which follows a whole window of warm-up).
P99_BAR_MS = 1000  # the default search time of a request that sets none
hostile_slices = h["intervals"]
# The samples by window, the last taking the seconds after the last whole one.
by_window = {}
for sample in samples:
    by_window.setdefault(min(sample[0] // window, seconds // window - 1), []).append(sample)
def cpu_ms_per_request(i):
    inside = by_window.get(i, [])
    if len(inside) < 2:
        return None
    cpu_ms = (inside[-1][3] - inside[0][3]) * 1000 / ticks_per_s
    hostile_answered = hostile_slices[i]["requests"] if i < len(hostile_slices) else 0
    answered = (slices[i]["requests"] + hostile_answered) * (inside[-1][0] - inside[0][0]) / window
    return cpu_ms / answered if answered else None
cost = [cpu_ms_per_request(i) for i in range(len(slices))]
c0, c1 = cost[0], cost[-1]
oversized = next("/" + line.split("@")[0].split("/", 3)[3] for line in open(f"{work}/hostile.txt") if "oversized" in line)
hostile_by_status = {}
for target, counts in h["by_target"].items():
    for status in counts:
        hostile_by_status.setdefault(status, []).append(target)
hostile_counts = ", ".join(f"{status} x {v['count']}" for status, v in sorted(h["by_status"].items()))
print("p99 by window: " + ", ".join(f'{s["from_s"]:.0f}-{s["to_s"]:.0f} s {s["p99_ms"]:.1f} ms' for s in slices))
print("server CPU per answered request by window: " + ", ".join("-" if c is None else f"{c:.2f} ms" for c in cost))
print("RSS by window, mean / max KiB: " + ", ".join(
    f"{i * window}-{(i + 1) * window} s {mean([x[1] for x in w]):,.0f} / {max(x[1] for x in w):,}" for i, w in sorted(by_window.items())))
print("open fds by window, mean / max: " + ", ".join(
    f"{mean([x[2] for x in w]):.1f} / {max(x[2] for x in w)}" for _, w in sorted(by_window.items())))
print(f"RSS: first {window} s {rss0:,.0f} KiB, last {window} s {rss1:,.0f} KiB, max {max(s[1] for s in samples):,} KiB; "
      f"fds: first {fd0:.1f}, last {fd1:.1f}, max {max(s[2] for s in samples)}")
# Trends need time: in the CI form (15 s windows) RSS and CPU per request
# swing by 10-25% on a quiet machine (docs/RELIABILITY.md), so there they
# are printed and left to the long form (a minute a window) to judge.
judged = seconds >= 240
checks = [
    (rss1 <= rss0 * 1.10, f"RSS flat: last {window} s {rss1 / rss0 - 1:+.1%} against the first (bar: growth under 10%)", "trend"),
    (fd1 <= fd0 * 1.10 + 2, f"open fds flat: {fd0:.1f} -> {fd1:.1f} (bar: growth under 10% + 2)"),
    (c0 is not None and c1 is not None and c1 <= c0 * 1.25,
     f"CPU per request flat: first window {c0 or 0:.2f} ms, last window {c1 or 0:.2f} ms (bar: at most 25% more)", "trend"),
    (all(s["p99_ms"] <= P99_BAR_MS for s in slices),
     f'p99 in every window at most {P99_BAR_MS} ms: the worst {max(s["p99_ms"] for s in slices):.1f} ms'),
    (r["failed"] == 0 and set(r["by_status"]) == {"200"}, f'mixed load: {r["requests"]} requests, all 200 ({r["failed"]} failed)'),
    # A body over the limit is answered 413 before it has all been read, and
    # the connection closed: a client still sending may see the reset first.
    # That is the client's side of a 413, not a failure of the server.
    (all(status.startswith("4") or (status == "connection-error" and set(where) == {oversized})
         for status, where in hostile_by_status.items()),
     f'hostile bodies: {h["requests"]} requests, no 5xx ({hostile_counts}; connection errors only on the oversized body)'),
]
checks = [(ok or (kind == ["trend"] and not judged), ok, what) for ok, what, *kind in checks]
for passed, ok, what in checks:
    print(("PASS: " if ok else "FAIL: " if not passed else "NOT JUDGED (CI form; over its bar): ") + what)
sys.exit(0 if all(passed for passed, _, _ in checks) else 1)
PY
  stop_server
}

case "$what" in
  sustained|overload|abandon|sigterm|soak) "$what" ;;
  all) sustained; overload; abandon; sigterm; soak ;;
  *) echo "usage: $0 [sustained|overload|abandon|sigterm|soak|all] [soak seconds] | $0 replicas" >&2; exit 2 ;;
esac
