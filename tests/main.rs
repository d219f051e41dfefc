//! All integration tests compile into this one binary (saves link time on CI).

mod cli;
