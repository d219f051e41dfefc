//! One criterion binary for all benchmarks (`cargo bench`); modules under `benches/benchmarks/`.

use criterion::{criterion_group, criterion_main};

mod benchmarks;

criterion_group!(nn, benchmarks::nn::bench_nn);
criterion_group!(model, benchmarks::model::bench_model);
criterion_main!(nn, model);
