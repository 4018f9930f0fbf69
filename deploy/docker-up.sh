#!/usr/bin/env bash
# Makes sure Docker, debootstrap and HAProxy are installed and a Docker daemon
# answers, for the container checks in CI (deploy/docker-ci.sh,
# deploy/replicas.sh). Installs Debian's packages when missing (needs root);
# starts dockerd in the background when none answers and prints its pid on
# stdout (nothing when one was already running), so that the caller can stop
# what it started. Every wait is bounded.
set -euo pipefail

missing=()
command -v dockerd >/dev/null || missing+=(docker.io)
command -v debootstrap >/dev/null || missing+=(debootstrap)
command -v haproxy >/dev/null || missing+=(haproxy)
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if docker info >/dev/null 2>&1; then
    exit 0
fi
log=${DOCKERD_LOG:-/tmp/dockerd.log}
dockerd >"$log" 2>&1 &
pid=$!
for _ in $(seq 60); do
    if docker info >/dev/null 2>&1; then
        echo "dockerd $pid started; log in $log" >&2
        echo "$pid"
        exit 0
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
done
echo "dockerd did not answer within 30 s; its log:" >&2
tail -n 30 "$log" >&2
kill "$pid" 2>/dev/null || true
exit 1
