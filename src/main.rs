//! The `silot` command-line tool; all logic lives in the library (`silot::cli`).

fn main() -> std::process::ExitCode {
    silot::cli::main()
}
