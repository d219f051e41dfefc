//! All integration tests, one binary (each file below is one topic).

mod atari_env;
mod vector_env;
