# syntax=docker/dockerfile:1
# Build stage: compile the release binary.
FROM rust:1-slim-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY src ./src
COPY benches ./benches
# A workspace member: cargo reads its manifest, though --bin gamebot never builds it.
COPY research ./research
COPY openapi.yaml ./
RUN cargo build --release --locked --bin gamebot \
    && cp target/release/gamebot /usr/local/bin/gamebot

# Runtime stage: a slim image with the binary only, run as a non-root user.
# No extra packages: the service makes no outgoing calls (no CA bundle needed)
# and the health check below uses bash's /dev/tcp instead of curl.
FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --no-create-home gamebot
COPY --from=build /usr/local/bin/gamebot /usr/local/bin/gamebot
USER 10001
ENV GAMEBOT_BIND=0.0.0.0:8080 \
    GAMEBOT_LOG_FORMAT=json
EXPOSE 8080
# Docker's own health check (Kubernetes uses its probes instead); assumes the
# default port 8080.
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/gamebot"]
CMD ["serve"]
