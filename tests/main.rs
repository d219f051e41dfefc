//! All integration tests, compiled into one binary.

mod synthetic_data;
mod synthetic_env;
mod synthetic_gt;
