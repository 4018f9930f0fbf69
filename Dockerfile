# syntax=docker/dockerfile:1
# Build stage: compile the release binary.
FROM rust:1-slim-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY src ./src
COPY benches ./benches
COPY openapi.yaml ./
RUN cargo build --release --locked --bin gamebot \
    && cp target/release/gamebot /usr/local/bin/gamebot

# Runtime stage: a slim image with the binary only, run as a non-root user.
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends curl ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --no-create-home gamebot
COPY --from=build /usr/local/bin/gamebot /usr/local/bin/gamebot
USER 10001
ENV GAMEBOT_BIND=0.0.0.0:8080 \
    GAMEBOT_LOG_FORMAT=json
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["curl", "-fsS", "http://127.0.0.1:8080/healthz"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/gamebot"]
CMD ["serve"]
