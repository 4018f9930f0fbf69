# The base images are build arguments, so that a machine without access to a
# container registry can build this same file from local images (made by
# deploy/base-images.sh; docs/DEPLOYMENT.md, "Building without a registry").
# No `# syntax=` line: it would make BuildKit fetch a frontend image, and the
# file needs nothing beyond the syntax every builder knows (BuildKit or the
# legacy builder, DOCKER_BUILDKIT=0).
ARG BUILDER_IMAGE=rust:1-slim-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim

# Build stage: compile the release binary.
FROM ${BUILDER_IMAGE} AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock build.rs ./
COPY src ./src
COPY benches ./benches
# A workspace member: cargo reads its manifest, though --bin gamebot never builds it.
COPY research ./research
COPY openapi.yaml ./
# Compiled in with include_str!: each game's rules page and ladder ratings.
COPY docs/rules ./docs/rules
COPY data ./data
# The context has no .git: the commit gamebot_build_info names comes from
# here (`--build-arg GAMEBOT_COMMIT=$(git rev-parse --short=12 HEAD)`), or
# is `unknown`.
ARG GAMEBOT_COMMIT=
RUN cargo build --release --locked --bin gamebot \
    && cp target/release/gamebot /usr/local/bin/gamebot
# The release profile keeps line tables for profiling; the image does not
# need them (function names stay, for panic backtraces).
RUN strip --strip-debug /usr/local/bin/gamebot

# Runtime stage: a slim image with the binary only, run as a non-root user.
# No extra packages: the service makes no outgoing calls (no CA bundle needed)
# and the health check below uses bash's /dev/tcp instead of curl.
FROM ${RUNTIME_IMAGE}
RUN useradd --system --uid 10001 --no-create-home gamebot
COPY --from=build /usr/local/bin/gamebot /usr/local/bin/gamebot
USER 10001
ENV GAMEBOT_BIND=0.0.0.0:8080 \
    GAMEBOT_LOG_FORMAT=json
EXPOSE 8080
# Docker's own health check (Kubernetes uses its probes instead): /healthz on
# the port of GAMEBOT_ADMIN_BIND when set, else of GAMEBOT_BIND.
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["bash", "-c", "a=${GAMEBOT_ADMIN_BIND:-${GAMEBOT_BIND:-:8080}}; exec 3<>/dev/tcp/127.0.0.1/${a##*:} && printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/gamebot"]
CMD ["serve"]
