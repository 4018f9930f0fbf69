#!/usr/bin/env bash
# Real generated clients: generates a Python client (openapi-python-client)
# and TypeScript types (openapi-typescript) from the checked-in openapi.yaml,
# as a portal developer would (README, "Generated clients"), then
#  - fails if the Python generator warns about anything but the text/plain
#    bodies of the generic `/v1/games/{game}/…` operations (printed as
#    tolerated), or if openapi-typescript prints anything but its banner;
#  - type-checks usage.ts against the TS types (tsc --noEmit --strict), and
#    the whole generated Python package with usage.py, where a plain
#    `Client` calls `/v1` on an open server (mypy --strict);
#  - starts the debug binary on a free loopback port and plays every game
#    through the Python client (roundtrip.py), which ends with
#    `N passed, M failed`.
# Tools install under target/ (clients-venv, clients-npm) and are reused when
# already at the pinned versions; the generated code goes to target/clients/.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
here=tests/clients
venv=target/clients-venv
npm_prefix=target/clients-npm
out=target/clients
python_generator=openapi-python-client==0.29.1
python_checker=mypy==1.13.0

echo "== tools (pinned: $python_generator, $python_checker; $here/package-lock.json)"
if ! "$venv/bin/pip" freeze 2>/dev/null | grep -qx "$python_generator" ||
    ! "$venv/bin/pip" freeze 2>/dev/null | grep -qx "$python_checker"; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    # The generator brings httpx and attrs, which the generated client imports.
    "$venv/bin/pip" install --quiet --disable-pip-version-check "$python_generator" "$python_checker"
fi
mkdir -p "$npm_prefix"
if ! cmp -s "$here/package-lock.json" "$npm_prefix/package-lock.json" ||
    [ ! -x "$npm_prefix/node_modules/.bin/tsc" ]; then
    cp "$here/package.json" "$here/package-lock.json" "$npm_prefix/"
    npm ci --prefix "$npm_prefix" --no-audit --no-fund --loglevel=error
fi

echo "== Python client (openapi-python-client)"
rm -rf "$out"
mkdir -p "$out/python" "$out/ts"
# ruff, installed with the generator, formats the client when on PATH.
PATH="$root/$venv/bin:$PATH" "$venv/bin/openapi-python-client" generate \
    --path openapi.yaml --meta none --output-path "$out/python/gamebot_client" \
    --config "$here/openapi-python-client.yaml" >"$out/python-generate.log" 2>&1 || {
    cat "$out/python-generate.log"
    echo "openapi-python-client failed" >&2
    exit 1
}
# Every line the generator prints must be its banner or part of a tolerated
# warning: the text/plain request body of a generic operation, which it
# cannot generate (it generates the JSON body beside it). A warning is its
# header, its detail and the JSON of the part it skipped; anything else
# (another warning, a schema it could not read) fails.
"$venv/bin/python" - "$out/python-generate.log" <<'EOF'
import re
import sys

lines = open(sys.argv[1]).read().splitlines()
banner = re.compile(
    r"Generating .*|Warning\(s\) encountered while generating\. Client was generated, but some pieces may be missing"
    r"|If you believe this was a mistake or this tool is missing a feature you need, please open an issue at .*"
)
generic = re.compile(r"WARNING parsing POST /v1/games/\{game\}/[a-z-]+ within any_game\.")
tolerated, refused = [], []
index = 0
while index < len(lines):
    line = lines[index]
    following = [l for l in lines[index + 1 : index + 4] if l.strip()]
    if generic.fullmatch(line) and following[:1] == ["Unsupported content type text/plain"]:
        tolerated.append(f"{line} {following[0]}")
        index += 1
        while index < len(lines) and lines[index] != "}":
            index += 1
    elif line.strip() and not banner.fullmatch(line):
        refused.append(line)
    index += 1
for line in tolerated:
    print(f"tolerated: {line}")
if refused:
    print("\n".join(lines))
    print("NOT TOLERATED:\n" + "\n".join(refused))
print(f"generator warnings: {len(tolerated)} tolerated; {len(refused)} other lines")
sys.exit(1 if refused else 0)
EOF
"$venv/bin/python" -m compileall -q "$out/python/gamebot_client"
MYPYPATH="$out/python" "$venv/bin/mypy" --strict --cache-dir "$out/mypy-cache" \
    "$out/python/gamebot_client" "$here/usage.py"
echo "the Python client and usage.py (a plain Client) type-check under mypy --strict"

echo "== TypeScript types (openapi-typescript) and tsc"
# By default openapi-typescript makes every field that has a default
# required, request bodies' optional `states`, `top`, `max_depth` included.
"$npm_prefix/node_modules/.bin/openapi-typescript" openapi.yaml --default-non-nullable false \
    -o "$out/ts/openapi.d.ts" 2>&1 | tee "$out/ts-generate.log"
if grep -v -e '^✨ openapi-typescript' -e '^🚀 ' "$out/ts-generate.log" | grep -q .; then
    echo "openapi-typescript printed more than its banner (above)" >&2
    exit 1
fi
cp "$here/usage.ts" "$out/ts/"
"$npm_prefix/node_modules/.bin/tsc" --noEmit --strict --target es2022 --module esnext \
    --moduleResolution bundler "$out/ts/usage.ts"
echo "usage.ts type-checks against openapi.d.ts"

echo "== round trip of every game through the Python client"
cargo build --quiet --locked --bin gamebot
binary=${CARGO_TARGET_DIR:-target}/debug/gamebot
port=$("$venv/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
GAMEBOT_LOG=warn "$binary" serve --bind "127.0.0.1:$port" >"$out/server.log" 2>&1 &
server=$!
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null' EXIT
for _ in $(seq 300); do
    curl -fs "127.0.0.1:$port/readyz" >/dev/null && break
    kill -0 $server 2>/dev/null || break
    sleep 0.1
done
if ! curl -fs "127.0.0.1:$port/readyz" >/dev/null; then
    cat "$out/server.log"
    echo "the server did not get ready on port $port" >&2
    exit 1
fi
PYTHONPATH="$out/python" timeout 300 "$venv/bin/python" "$here/roundtrip.py" \
    "http://127.0.0.1:$port" gamebot_client
