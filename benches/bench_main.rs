//! All benches, one criterion binary (candle's layout): modules under `benches/benchmarks/`.

mod benchmarks;

criterion::criterion_group!(conncomp, benchmarks::conncomp::bench);

#[cfg(feature = "atari")]
criterion::criterion_main!(
    benchmarks::synthetic::benches,
    conncomp,
    benchmarks::atari::benches
);

#[cfg(not(feature = "atari"))]
criterion::criterion_main!(benchmarks::synthetic::benches, conncomp);
