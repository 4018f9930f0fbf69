#!/usr/bin/env bash
# Makes the two base images the Dockerfile needs without any container
# registry: a Debian bookworm runtime image from debootstrap, and a builder
# image made from it with gcc, libc6-dev and this host's Rust toolchain.
# Debian's mirror must be reachable (debootstrap and apt read it); no image is
# pulled from anywhere. See docs/DEPLOYMENT.md, "Building without a registry".
#
#   deploy/base-images.sh            # makes whichever of the two is missing
#   REBUILD=1 deploy/base-images.sh  # makes both again
#
# Then:
#   DOCKER_BUILDKIT=0 docker build \
#       --build-arg BUILDER_IMAGE=local/rust:bookworm \
#       --build-arg RUNTIME_IMAGE=local/bookworm:minbase -t gamebot .
#
# Needs root (debootstrap), docker, debootstrap and rustc on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."

runtime_image=${RUNTIME_IMAGE:-local/bookworm:minbase}
builder_image=${BUILDER_IMAGE:-local/rust:bookworm}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
rebuild=${REBUILD:-0}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

have() { [ "$rebuild" != 1 ] && docker image inspect "$1" >/dev/null 2>&1; }

if have "$runtime_image"; then
    echo "$runtime_image: present"
else
    started=$SECONDS
    echo "$runtime_image: debootstrap --variant=minbase bookworm"
    debootstrap --variant=minbase bookworm "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 ||
        { tail -n 30 "$work/debootstrap.log" >&2; exit 1; }
    # Trimmed as Debian's -slim images are: no package lists, caches,
    # documentation or translations (apt-get update brings the lists back).
    rm -rf "$work"/rootfs/var/lib/apt/lists/* "$work"/rootfs/var/cache/apt/*.bin \
        "$work"/rootfs/var/cache/apt/archives/*.deb "$work"/rootfs/var/log/*.log \
        "$work"/rootfs/usr/share/doc/* "$work"/rootfs/usr/share/man/* \
        "$work"/rootfs/usr/share/info/* "$work"/rootfs/usr/share/locale/*
    tar -C "$work/rootfs" -c . |
        docker import --change 'CMD ["bash"]' - "$runtime_image" >/dev/null
    rm -rf "$work/rootfs"
    echo "$runtime_image: made in $((SECONDS - started)) s"
fi

if have "$builder_image"; then
    echo "$builder_image: present"
else
    started=$SECONDS
    # The host's toolchain (rustc, cargo and the standard library for this
    # target; not the documentation), laid out as the standalone installer
    # lays it under /usr/local, so rustc finds its sysroot beside it.
    sysroot=$(rustc --print sysroot)
    echo "$builder_image: $(rustc --version) from $sysroot"
    mkdir -p "$work/ctx/usr/local/bin"
    cp "$sysroot/bin/rustc" "$sysroot/bin/cargo" "$work/ctx/usr/local/bin/"
    cp -a "$sysroot/lib" "$work/ctx/usr/local/"
    # Certificate authorities the host trusts beyond Debian's bundle (a
    # network whose egress proxy re-signs TLS): cargo in the builder must
    # trust them to download crates. None on an ordinary machine.
    mkdir -p "$work/ctx/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$work/ctx/usr/local/share/ca-certificates/" 2>/dev/null || true
    cat >"$work/ctx/Dockerfile" <<EOF
FROM $runtime_image
RUN apt-get update \\
    && apt-get install -y --no-install-recommends gcc libc6-dev ca-certificates \\
    && rm -rf /var/lib/apt/lists/*
COPY usr /usr
RUN update-ca-certificates && rustc --version && cargo --version
EOF
    DOCKER_BUILDKIT=0 docker build -q -t "$builder_image" "$work/ctx" >/dev/null
    echo "$builder_image: made in $((SECONDS - started)) s"
fi
docker image ls --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep -E "^($runtime_image|$builder_image) " || true
