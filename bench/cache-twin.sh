#!/usr/bin/env bash
# The position cache on a Reversi position and its mirror image: the time
# of a miss, of a hit on the same position and of a hit on its twin (the
# stored answer turned), end to end over loopback with curl, release build.
#
#   bench/cache-twin.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin gamebot
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
target/release/gamebot serve --bind 127.0.0.1:$port --workers 2 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do curl -fs 127.0.0.1:$port/healthz >/dev/null && break; sleep 0.05; done
a='{"state": {"board": ["........", "........", "..WWW...", "..WBBW..", "..BBWB..", "...B.W..", "........", "........"], "to_move": "black"}, "seed": 7, "max_nodes": 200000, "time_ms": 30000, "top": 3}'
# the same position mirrored left-right
b='{"state": {"board": ["........", "........", "...WWW..", "..WBBW..", "..BWBB..", "..W.B...", "........", "........"], "to_move": "black"}, "seed": 7, "max_nodes": 200000, "time_ms": 30000, "top": 3}'
for label in miss same twin; do
  body=$a; [ $label = twin ] && body=$b
  curl -s -o /tmp/twin-$label.json -w "$label %{time_total}s\n" -H 'content-type: application/json' -d "$body" 127.0.0.1:$port/v1/games/reversi/analyze
done
for i in 1 2 3 4 5; do
  curl -s -o /dev/null -w "same %{time_total}s  " -H 'content-type: application/json' -d "$a" 127.0.0.1:$port/v1/games/reversi/analyze
  curl -s -o /dev/null -w "twin %{time_total}s\n" -H 'content-type: application/json' -d "$b" 127.0.0.1:$port/v1/games/reversi/analyze
done
python3 -c "
import json
for l in ['miss','twin']:
    d=json.load(open('/tmp/twin-%s.json'%l)); print(l, d['search'].get('cached'), [(m['move']['notation'], m['score'], ' '.join(m['pv'][:4])) for m in d['moves']])"
kill $pid
