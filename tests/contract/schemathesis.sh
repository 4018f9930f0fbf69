#!/usr/bin/env bash
# Contract fuzzing: schemathesis generates requests from openapi.yaml against a
# server started from the freshly built binary, and checks status codes,
# response schemas, content types, headers, that schema-violating requests are
# refused, and that nothing answers 5xx.
#
#   tests/contract/schemathesis.sh [examples per operation, default 200] [seed, default 1]
#
# `positive_data_acceptance` is not checked: a state can match the JSON schema
# and still be no legal position (a Reversi board of the wrong width), which
# the service rightly refuses with 422.
set -euo pipefail
cd "$(dirname "$0")/../.."
examples=${1:-200}
seed=${2:-1}
venv=target/contract-venv
if [ ! -x "$venv/bin/schemathesis" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check 'schemathesis==4.32.5'
fi
binary=target/debug/gamebot
[ -x "$binary" ] || cargo build --quiet --bin gamebot
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
GAMEBOT_LOG=warn "$binary" serve --bind "127.0.0.1:$port" --default-time-ms 50 --max-time-ms 200 &
server=$!
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null' EXIT
for _ in $(seq 200); do curl -fs "127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.05; done

"$venv/bin/schemathesis" run openapi.yaml --url "http://127.0.0.1:$port" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,response_headers_conformance,negative_data_rejection \
  --max-examples "$examples" --seed "$seed" --no-color --request-timeout 10
