#!/usr/bin/env bash
# Builds the repository's Dockerfile from local base images (no container
# registry) and runs the image: /healthz, one bot-move, Docker's own health
# check, and a clean `docker stop` (exit status 0 within the grace period).
# Exits non-zero when any of these fails. CI runs it; see docs/DEPLOYMENT.md.
#
#   deploy/docker-ci.sh              # image tag gamebot:ci (IMAGE=... to change)
#   NO_CACHE=1 deploy/docker-ci.sh   # build without Docker's layer cache (timing)
#
# Needs a running Docker daemon (deploy/docker-up.sh starts one) and what
# deploy/base-images.sh needs. Uses the legacy builder (DOCKER_BUILDKIT=0),
# the default of Debian's docker.io client and the fallback of newer clients
# without buildx, so the build does not depend on which client is installed.
set -euo pipefail
cd "$(dirname "$0")/.."

image=${IMAGE:-gamebot:ci}
grace=45 # seconds; the Kubernetes manifest's terminationGracePeriodSeconds
name=gamebot-ci-$$
trap 'docker rm -f "$name" >/dev/null 2>&1 || true' EXIT

step() { echo "-- $*"; }

step "base images"
bash deploy/base-images.sh

step "docker build -t $image (legacy builder, local base images)"
started=$SECONDS
cache=()
[ "${NO_CACHE:-0}" = 1 ] && cache=(--no-cache)
DOCKER_BUILDKIT=0 docker build -q "${cache[@]}" \
    --build-arg BUILDER_IMAGE=local/rust:bookworm \
    --build-arg RUNTIME_IMAGE=local/bookworm:minbase \
    -t "$image" . >/dev/null
build_s=$((SECONDS - started))
size=$(docker image inspect -f '{{.Size}}' "$image")
echo "built $image in $build_s s; size $((size / 1000000)) MB ($size bytes)"

step "docker run"
docker run -d --name "$name" -p 127.0.0.1::8080 "$image" >/dev/null
port=$(docker port "$name" 8080/tcp | head -n 1 | sed 's/.*://')
base=http://127.0.0.1:$port
for i in $(seq 100); do
    curl -fs "$base/healthz" >/dev/null && break
    if [ "$i" = 100 ]; then
        echo "FAIL: /healthz did not answer within 10 s" >&2
        docker logs "$name" >&2
        exit 1
    fi
    sleep 0.1
done
echo "PASS: /healthz answers: $(curl -fs "$base/healthz")"

user=$(docker exec "$name" id -u)
if [ "$user" != 10001 ]; then echo "FAIL: runs as uid $user" >&2; exit 1; fi
echo "PASS: runs as uid 10001"

state=$(curl -fs -X POST "$base/v1/games/reversi/new" | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["state"]))')
answer=$(curl -fs "$base/v1/games/reversi/bot-move" -H 'content-type: application/json' \
    -d "{\"state\": $state, \"level\": \"strong\", \"time_ms\": 200, \"seed\": 1}")
move=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["move"]["notation"])' "$answer")
echo "PASS: bot-move answered $move"

# The image's HEALTHCHECK (bash's /dev/tcp; no curl in the image) runs every
# 10 s: wait for its first verdict.
for i in $(seq 30); do
    health=$(docker inspect -f '{{.State.Health.Status}}' "$name")
    [ "$health" != starting ] && break
    sleep 1
done
if [ "$health" != healthy ]; then
    echo "FAIL: Docker health check: $health" >&2
    docker inspect -f '{{json .State.Health}}' "$name" >&2
    exit 1
fi
echo "PASS: Docker health check: $health"

step "docker stop (SIGTERM, grace $grace s)"
started=$(date +%s.%N)
docker stop -t "$grace" "$name" >/dev/null
stop_s=$(python3 -c "print(f'{$(date +%s.%N) - $started:.1f}')")
status=$(docker inspect -f '{{.State.ExitCode}}' "$name")
logs=$(docker logs "$name" 2>&1 | tail -n 3)
if [ "$status" = 0 ] && python3 -c "import sys; sys.exit(0 if $stop_s < $grace else 1)"; then
    echo "PASS: docker stop took $stop_s s, exit status 0"
else
    echo "FAIL: docker stop took $stop_s s, exit status $status; last log lines:" >&2
    echo "$logs" >&2
    exit 1
fi
