//! All integration tests compile into this one binary (saves link time on CI).

mod cli;
mod synthetic_data;
mod synthetic_env;
mod synthetic_gt;
