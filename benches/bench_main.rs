//! All benches, one criterion binary (candle's layout): modules under `benches/benchmarks/`.

mod benchmarks;

criterion::criterion_group!(conncomp, benchmarks::conncomp::bench);
criterion::criterion_group!(nn, benchmarks::nn::bench_nn);
criterion::criterion_group!(model, benchmarks::model::bench_model);

#[cfg(feature = "atari")]
criterion::criterion_main!(
    benchmarks::synthetic::benches,
    conncomp,
    benchmarks::atari::benches,
    nn,
    model
);

#[cfg(not(feature = "atari"))]
criterion::criterion_main!(benchmarks::synthetic::benches, conncomp, nn, model);
