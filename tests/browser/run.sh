#!/usr/bin/env bash
# The playground in a real browser: installs Chromium and playwright-core if
# missing, starts the debug binary on a free loopback port, checks that the
# page fits a 390-pixel phone screen, and plays one move of every game GET
# /v1/games lists (playground.mjs). Screenshots land in target/screenshots/
# (phone-390*.png for the phone). Exits non-zero when any check fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)

if [ ! -x /usr/bin/chromium ]; then
    echo "== installing chromium"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq chromium >/dev/null
fi
(cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)

cargo build --locked --bin gamebot
port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
mkdir -p target/screenshots
GAMEBOT_BIND="127.0.0.1:$port" GAMEBOT_WORKERS=2 GAMEBOT_LOG=warn \
    target/debug/gamebot serve >target/screenshots/server.log 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT

cd tests/browser
GAMEBOT_URL="http://127.0.0.1:$port" timeout 600 node playground.mjs "$root/target/screenshots"
