#!/usr/bin/env bash
# Three gamebot replicas (containers of the image from the Dockerfile) behind
# HAProxy (deploy/haproxy.cfg, run on the host), under a steady mixed load
# from benches/loadgen.rs: legal-moves, play, bot-move and analyze of every
# game, 16 requests in flight, all through the load balancer.
#
#   deploy/replicas.sh [short|long]     # short: CI, about a minute; long: bench
#
# 1. throughput with 1, 2 and 3 replicas in the rotation (the others set to
#    maintenance through HAProxy's runtime API);
# 2. one replica killed with SIGKILL (`docker kill -s KILL`) mid-load, then
#    started again: no request may fail;
# 3. a rolling restart: each replica in turn gets SIGTERM (`docker stop`),
#    its /readyz turns 503, HAProxy takes it out, it finishes what it has and
#    exits 0; it is started again and the next waits until HAProxy has it
#    back: no request may fail.
# A request failed when the client got a 5xx or no answer. Exits non-zero
# when any bar is missed. Needs the image (IMAGE, default gamebot:ci, made by
# deploy/docker-ci.sh), a Docker daemon and haproxy (deploy/docker-up.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-short}
case "$mode" in
  short) measure_s=5 kill_s=15 kill_at_s=5 rounds=1 ;;
  long) measure_s=30 kill_s=60 kill_at_s=20 rounds=3 ;;
  *) echo "usage: $0 [short|long]" >&2; exit 2 ;;
esac
image=${IMAGE:-gamebot:ci}
concurrency=16
grace=45
prefix=gamebot-replica-$$

work=$(mktemp -d)
haproxy_pid=""
load=""
cleanup() {
  if [ -n "$load" ]; then kill "$load" 2>/dev/null || true; fi
  for i in 1 2 3; do docker rm -f "$prefix-$i" >/dev/null 2>&1 || true; done
  if [ -n "$haproxy_pid" ]; then kill "$haproxy_pid" 2>/dev/null || true; wait "$haproxy_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

docker image inspect "$image" >/dev/null 2>&1 ||
  { echo "no image $image: run deploy/docker-ci.sh first (or IMAGE=...)" >&2; exit 1; }
cargo build --release --quiet --locked -p gamebot-benches --example loadgen
loadgen=target/release/examples/loadgen

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# The runtime API: one command, its answer on stdout.
lb() {
  python3 - "$HAPROXY_SOCKET" "$1" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(5)
s.connect(sys.argv[1])
s.sendall(sys.argv[2].encode() + b"\n")
out = b""
while chunk := s.recv(65536):
    out += chunk
sys.stdout.write(out.decode())
PY
}

# One field of `show stat` for server $1 of the backend.
stat() { # server field
  lb "show stat" | python3 -c '
import csv, sys
rows = list(csv.reader(line for line in sys.stdin if line.strip()))
head = [h.lstrip("# ") for h in rows[0]]
for row in rows[1:]:
    r = dict(zip(head, row))
    if r["pxname"] == "gamebot" and r["svname"] == sys.argv[1]:
        print(r[sys.argv[2]])' "$1" "$2"
}

wait_status() { # server status [seconds]
  local deadline=$((SECONDS + ${3:-30}))
  until [ "$(stat "$1" status)" = "$2" ]; do
    if [ $SECONDS -ge $deadline ]; then echo "FAIL: $1 not $2 within ${3:-30} s (is $(stat "$1" status))" >&2; exit 1; fi
    sleep 0.1
  done
}

start_replica() { # index
  local i=$1 api_var=API_$1 admin_var=ADMIN_$1
  docker run -d --name "$prefix-$i" --stop-timeout "$grace" \
    -e GAMEBOT_ADMIN_BIND=0.0.0.0:9090 -e GAMEBOT_LOG=warn \
    -p "127.0.0.1:${!api_var}:8080" -p "127.0.0.1:${!admin_var}:9090" "$image" >/dev/null
}

echo "== $mode: three replicas of $image behind HAProxy $(haproxy -v | head -n 1 | awk '{print $3}')"
for i in 1 2 3; do
  declare "API_$i=$(free_port)" "ADMIN_$i=$(free_port)"
done
export GAMEBOT_R1=127.0.0.1:$API_1 GAMEBOT_R2=127.0.0.1:$API_2 GAMEBOT_R3=127.0.0.1:$API_3
export GAMEBOT_R1_ADMIN=$ADMIN_1 GAMEBOT_R2_ADMIN=$ADMIN_2 GAMEBOT_R3_ADMIN=$ADMIN_3
lb_port=$(free_port)
export GAMEBOT_LB_BIND=127.0.0.1:$lb_port HAPROXY_SOCKET=$work/haproxy.sock
for i in 1 2 3; do start_replica "$i"; done
haproxy -db -f deploy/haproxy.cfg >"$work/haproxy.log" 2>&1 &
haproxy_pid=$!
for _ in $(seq 50); do [ -S "$HAPROXY_SOCKET" ] && break; sleep 0.1; done
kill -0 "$haproxy_pid" 2>/dev/null || { echo "haproxy did not start:" >&2; cat "$work/haproxy.log" >&2; exit 1; }
for i in 1 2 3; do wait_status "r$i" UP; done
base=http://127.0.0.1:$lb_port
echo "replicas up: r1 $GAMEBOT_R1, r2 $GAMEBOT_R2, r3 $GAMEBOT_R3; HAProxy on $base"

python3 bench/bodies.py "$base" "$work/bodies" mixed >"$work/targets.txt"
targets=()
while read -r target; do targets+=(--target "$target"); done <"$work/targets.txt"
echo "mixed load: $(( ${#targets[@]} / 2 )) targets (legal-moves, play, bot-move, analyze of every game), $concurrency in flight"

failed=0
bar() { # ok description
  if [ "$1" = 1 ]; then echo "PASS: $2"; else echo "FAIL: $2"; failed=1; fi
}
result() { # loadgen output file, python expression over r
  tail -n 1 "$1" | python3 -c "import json,sys; r=json.load(sys.stdin); print($2)"
}
summary() { # loadgen output file: rate, latency and failures on one line
  python3 - "$1" <<'PY'
import json, sys
r = json.loads(open(sys.argv[1]).read().splitlines()[-1])
ok = r["by_status"].get("200", {})
rate = r["requests"] / r["seconds"]
print(f"{rate:.0f} req/s, p50 {ok.get('p50_ms', 0):.1f} ms, p99 {ok.get('p99_ms', 0):.1f} ms, {r['failed']} failed")
PY
}

echo "-- throughput through HAProxy with 1, 2 and 3 replicas, ${measure_s} s each"
# Each replica runs 2 workers on the machine's cores: on 2 cores the
# replicas share the same CPUs, so this shows HAProxy's and the extra
# processes' overhead, not scaling.
direct=()
while read -r target; do direct+=(--target "${target/$base/http://$GAMEBOT_R1}"); done <"$work/targets.txt"
"$loadgen" "${direct[@]}" --concurrency "$concurrency" --seconds 1 >/dev/null
"$loadgen" "${direct[@]}" --concurrency "$concurrency" --seconds "$measure_s" --json >"$work/n0.txt"
echo "r1 alone, without HAProxy: $(summary "$work/n0.txt")"
for n in 1 2 3; do
  for i in 1 2 3; do
    if [ "$i" -le "$n" ]; then lb "set server gamebot/r$i state ready" >/dev/null; else lb "set server gamebot/r$i state maint" >/dev/null; fi
  done
  "$loadgen" "${targets[@]}" --concurrency "$concurrency" --seconds 1 >/dev/null # warm the connections
  "$loadgen" "${targets[@]}" --concurrency "$concurrency" --seconds "$measure_s" --json >"$work/n$n.txt"
  echo "$n replica(s): $(summary "$work/n$n.txt")"
done
for i in 1 2 3; do lb "set server gamebot/r$i state ready" >/dev/null; wait_status "r$i" UP; done

echo "-- SIGKILL of r2 after ${kill_at_s} s of a ${kill_s} s load"
be_retries() { lb "show stat" | awk -F, '$1=="gamebot" && $2=="BACKEND" {print $16 + 0, $17 + 0}'; }
read -r retr0 redis0 < <(be_retries)
"$loadgen" "${targets[@]}" --concurrency "$concurrency" --seconds "$kill_s" --json >"$work/kill.txt" &
load=$!
sleep "$kill_at_s"
in_flight=$(stat r2 scur)
docker kill -s KILL "$prefix-2" >/dev/null
echo "killed r2 with SIGKILL; HAProxy had $in_flight request(s) in flight on it"
wait_status r2 DOWN 10
echo "HAProxy marked r2 DOWN"
wait "$load"
load=""
read -r retr1 redis1 < <(be_retries)
status=$(docker inspect -f '{{.State.ExitCode}} {{.State.OOMKilled}}' "$prefix-2")
echo "r2 exit status and OOM flag: $status (137 = SIGKILL)"
sed -n '1,/failed/p' "$work/kill.txt"
kill_failed=$(result "$work/kill.txt" 'r["failed"]')
kill_requests=$(result "$work/kill.txt" 'r["requests"]')
echo "requests: $kill_requests; failed: $kill_failed; retried by HAProxy: $((retr1 - retr0)), of them on another replica: $((redis1 - redis0))"
[ "$kill_failed" = 0 ] && ok=1 || ok=0
bar "$ok" "kill -9 of one of three replicas under load: $kill_failed failed requests"
# The requests r2 had, and those sent to it before HAProxy saw it down, were
# sent again to another replica: redispatches.
[ "$((redis1 - redis0))" -gt 0 ] && ok=1 || ok=0
bar "$ok" "the killed replica's requests were answered by another ($((redis1 - redis0)) redispatched; $in_flight were in flight on it just before the kill)"
docker start "$prefix-2" >/dev/null
wait_status r2 UP
echo "r2 started again and back in the rotation"

echo "-- rolling restart: SIGTERM, drain, start, one replica at a time ($rounds round(s))"
"$loadgen" "${targets[@]}" --concurrency "$concurrency" --seconds 600 --json >"$work/roll.txt" &
load=$!
read -r retr0 redis0 < <(be_retries)
sleep 2
for round in $(seq "$rounds"); do
for i in 1 2 3; do
  admin_var=ADMIN_$i
  # Watch the replica's /readyz from before SIGTERM until its port closes:
  # 503 while it drains. (With requests of a few milliseconds it drains in
  # about as long, so HAProxy's checks, 500 ms apart, mostly see the port
  # closed; the retries cover the requests sent to it meanwhile.)
  python3 - "${!admin_var}" >"$work/readiness.txt" <<'PY' &
import sys, time, urllib.error, urllib.request
url = f"http://127.0.0.1:{sys.argv[1]}/readyz"
start = time.monotonic()
draining = None
while time.monotonic() - start < 15:
    try:
        urllib.request.urlopen(url, timeout=1)
    except urllib.error.HTTPError as e:
        if draining is None:
            draining = (time.monotonic(), e.code, e.read().decode().strip())
        continue
    except Exception as e:
        if draining:
            print(f"{draining[1]} {draining[2]} for {1000 * (time.monotonic() - draining[0]):.0f} ms, then closed")
        else:
            print(f"closed ({type(e).__name__}) without a 503 seen")
        break
    time.sleep(0.002)
PY
  watcher=$!
  sleep 0.5
  started=$(date +%s.%N)
  docker stop -t "$grace" "$prefix-$i" >/dev/null
  stopped=$(date +%s.%N)
  wait "$watcher" || true
  readiness=$(cat "$work/readiness.txt")
  code=$(docker inspect -f '{{.State.ExitCode}}' "$prefix-$i")
  docker start "$prefix-$i" >/dev/null
  wait_status "r$i" UP
  back=$(date +%s.%N)
  echo "round $round, r$i: /readyz $readiness; SIGTERM to exit $(python3 -c "print(f'{$stopped - $started:.1f}')") s (status $code), back in rotation after $(python3 -c "print(f'{$back - $stopped:.1f}')") s"
  [ "$code" = 0 ] || { echo "FAIL: r$i exited $code after SIGTERM"; failed=1; }
  sleep 2
done
done
kill -TERM "$load" 2>/dev/null || true # loadgen stops sending, finishes what is in flight and reports
wait "$load" || true
load=""
read -r retr1 redis1 < <(be_retries)
roll_failed=$(result "$work/roll.txt" 'r["failed"]' 2>/dev/null || echo "no result")
roll_requests=$(result "$work/roll.txt" 'r["requests"]' 2>/dev/null || echo "?")
echo "requests: $roll_requests; failed: $roll_failed; retried by HAProxy: $((retr1 - retr0)), of them on another replica: $((redis1 - redis0))"
[ "$roll_failed" = 0 ] && ok=1 || ok=0
bar "$ok" "rolling restart of all three replicas under load: $roll_failed failed requests"

echo "-- HAProxy's log: state changes, and the requests it retried (+N: on another replica) by the replica that answered"
grep -E '^Server gamebot' "$work/haproxy.log" || true
awk '$4 ~ /^\+?[1-9]/ {n[$2 " " $3 " retries " $4]++} END {for (k in n) print "  " n[k] " x " k}' "$work/haproxy.log" | sort -k3 || true
exit "$failed"
