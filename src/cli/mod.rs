//! The `silot` command line: one file per subcommand, each a thin layer over the library.

mod average;
mod baseline_search;
pub mod device;
mod envs;
mod eval;
mod label;
mod observe;
mod plot;
mod pretrain;
mod render;
mod rollout;
mod train;

use clap::{Parser, Subcommand};

/// Object-centric RL environments and the SILOT object tracker.
#[derive(Debug, Parser)]
#[command(name = "silot", version, about, long_about = None)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print every env id, one per line (`--long`: a table of what each trains and its shipped encoders).
    Envs(envs::EnvsArgs),
    /// Roll out an env with a seeded random policy and write T-frame clips to a dataset directory.
    Rollout(rollout::RolloutArgs),
    /// Score a tracker against ground truth on fresh clips (MOTA, MOTP, IDF1, AP, count error).
    Eval(eval::EvalArgs),
    /// Write ConnComp ground-truth labels of fresh clips as JSON lines.
    Label(label::LabelArgs),
    /// Draw tracking pictures: ground truth beside predictions, boxes coloured by identity.
    Render(render::RenderArgs),
    /// Train SILOT on an experiment (resumes from the run directory).
    Train(train::TrainArgs),
    /// Train an encoder for an env with a recipe: seeds, choices, phases, product (resumable).
    Pretrain(pretrain::PretrainArgs),
    /// Average the weights of several checkpoints of one run into a new checkpoint.
    Average(average::AverageArgs),
    /// Tune the synthetic envs' ConnComp baseline thresholds as the paper did (per object count
    /// and metric on validation clips, then scored on test clips).
    BaselineSearch(baseline_search::BaselineSearchArgs),
    /// Run envs through a trained SILOT encoder (the object-centric wrapper) with a random
    /// policy: throughput, and the object sets as JSON lines.
    Observe(observe::ObserveArgs),
    /// Draw a run's training curves (`RUN/metrics.jsonl`) as `RUN/curves.png`.
    Plot(plot::PlotArgs),
}

/// Parse arguments, run, and turn errors into a message and exit code 1.
pub fn main() -> std::process::ExitCode {
    crate::util::keep_freed_memory();
    init_tracing();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Envs(a) => envs::run(a),
        Command::Rollout(a) => rollout::run(a),
        Command::Eval(a) => eval::run(a),
        Command::Average(a) => average::run(a),
        Command::Label(a) => label::run(a),
        Command::Render(a) => render::run(a),
        Command::Train(a) => train::run_cli(a),
        Command::Pretrain(a) => pretrain::run(a),
        Command::Observe(a) => observe::run(a),
        Command::Plot(a) => plot::run(a),
        Command::BaselineSearch(a) => baseline_search::run(a),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn init_tracing() {
    use tracing_subscriber::fmt::format::FmtSpan;
    let asked = tracing_subscriber::EnvFilter::try_from_env("SILOT_LOG").ok();
    // Asked for logs, a span's close prints its busy and idle time (the model's spans are at
    // trace level: `SILOT_LOG=silot=trace`); by default warnings only, no span lines.
    let spans = if asked.is_some() {
        FmtSpan::CLOSE
    } else {
        FmtSpan::NONE
    };
    let filter = asked.unwrap_or_else(|| tracing_subscriber::EnvFilter::new("warn"));
    // Colours only on a terminal: logs redirected to files stay plain text.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_span_events(spans)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
}

pub(crate) use crate::util::progress_bar;
