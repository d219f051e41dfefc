//! Benchmark groups, one module per subject.

pub mod conncomp;
