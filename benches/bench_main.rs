//! All benches, one criterion binary (candle's layout): modules under `benches/benchmarks/`.

mod benchmarks;

criterion::criterion_group!(conncomp, benchmarks::conncomp::bench);
criterion::criterion_main!(benchmarks::synthetic::benches, conncomp);
