//! The crate's error type. Every message names what was wrong and how to fix it.

use std::path::PathBuf;

/// Errors raised at the crate's boundaries (config, I/O, envs, data, checkpoints, model).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An env id that is not registered.
    #[error("unknown env id `{id}`; known ids: {known}")]
    UnknownEnv {
        /// The id asked for.
        id: String,
        /// Comma-separated list of valid ids.
        known: String,
    },
    /// An action outside the action space.
    #[error(
        "invalid action {action} for env `{env}`: the action space is Discrete({n}), use 0..{n}"
    )]
    InvalidAction {
        /// Env id.
        env: String,
        /// The action given.
        action: usize,
        /// Number of actions.
        n: usize,
    },
    /// `step` called before the first `reset` (or after a finished episode without reset).
    #[error("env `{env}`: {what}")]
    NeedsReset {
        /// Env id.
        env: String,
        /// What happened and what to do.
        what: String,
    },
    /// A config file that failed to parse or validate.
    #[error("config {path}: {msg}")]
    Config {
        /// The file (or `<embedded:NAME>`).
        path: String,
        /// The key and the problem.
        msg: String,
    },
    /// A data file that is missing.
    #[error("missing data file {path}: {hint}")]
    MissingData {
        /// The path that was looked for.
        path: PathBuf,
        /// The one command that fetches or builds it.
        hint: String,
    },
    /// A data file that exists but is malformed.
    #[error("corrupt data file {path}: {msg}")]
    CorruptData {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        msg: String,
    },
    /// A checkpoint that is corrupt or does not match the config.
    #[error("checkpoint {path}: {msg}")]
    Checkpoint {
        /// The checkpoint file or directory.
        path: PathBuf,
        /// What is wrong.
        msg: String,
    },
    /// Invalid argument or setting.
    #[error("{0}")]
    Invalid(String),
    /// Emulator failure.
    #[error("ALE: {0}")]
    Ale(String),
    /// I/O error with the path involved. The OS error is part of the message, not a separate
    /// source, so that a printed chain (`{:#}`) does not repeat it.
    #[error("{}: {cause}", path.display())]
    Io {
        /// The path being read or written.
        path: PathBuf,
        /// The underlying error.
        cause: std::io::Error,
    },
    /// A sub-env of a vector env failed (the other sub-envs completed the call).
    #[error("sub-env {index} of the vector env: {source}")]
    SubEnv {
        /// Index of the failing sub-env.
        index: usize,
        /// Its error.
        source: Box<Error>,
    },
    /// Tensor error from candle.
    #[error(transparent)]
    Candle(#[from] candle_core::Error),
}

/// Crate result alias.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// Wrap an I/O error with the path it concerns.
    pub fn io(path: impl Into<PathBuf>, cause: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            cause,
        }
    }
}
