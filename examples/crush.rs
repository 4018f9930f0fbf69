//! Runs the `crush` subcommand on its own (until main.rs wires it in):
//! `cargo run --release --example crush -- --benchmark --seeds 10`.

use clap::Parser;
use gamebot::cli::crush::{run, CrushArgs};

/// The `crush` subcommand's arguments as a whole command line.
#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: CrushArgs,
}

fn main() -> std::process::ExitCode {
    run(Cli::parse().args)
}
