//! gamebot's benchmarks: the criterion benches of every game's rules and
//! engines and of the HTTP path in process (`cargo bench -p gamebot-benches
//! --bench <name>`), and `loadgen`, the load generator the reliability
//! scripts drive a server with. Nothing here is the product; everything
//! goes through gamebot's public library API.
