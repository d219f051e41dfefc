//! All integration tests, one binary (each file below is one topic).

#[cfg(feature = "atari")]
mod atari_env;
mod vector_env;
