#!/usr/bin/env bash
# Fixed-node Reversi bot moves (`strong`, a midgame position, seed 1, no
# cache) on two builds, interleaved: the node counts must match, and the
# elapsed times compare what the builds pay for the same search.
#
#   bench/fixed_nodes.sh OLD_BINARY NEW_BINARY
set -euo pipefail
body='{"state": {"board": ["........","........","..WWW...","..WBBW..","..BBWB..","...B.W..","........","........"], "to_move": "black"}, "level": "strong", "max_nodes": NODES, "seed": 1}'
run() { local bin=$1 nodes=$2 port; port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  GAMEBOT_LOG=warn "$bin" serve --bind "127.0.0.1:$port" --cache-mb 0 & local pid=$!
  for _ in $(seq 100); do curl -fs "127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.05; done
  for i in 1 2 3; do curl -s -X POST -H 'content-type: application/json' -d "${body/NODES/$nodes}" "127.0.0.1:$port/v1/games/reversi/bot-move" | python3 -c 'import json,sys; s=json.load(sys.stdin)["search"]; print(s["nodes"], round(s["elapsed_ms"],1))'; done
  kill -TERM $pid; wait $pid 2>/dev/null || true; }
for nodes in 20000 2000000; do for r in 1 2; do echo "nodes $nodes round $r old: $(run $1 $nodes | tr '\n' ' ')"; echo "nodes $nodes round $r new: $(run $2 $nodes | tr '\n' ' ')"; done; done
