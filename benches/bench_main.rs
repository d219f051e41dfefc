//! All benches, one criterion binary (candle's layout): modules under `benches/benchmarks/`.

mod benchmarks;

criterion::criterion_main!(benchmarks::synthetic::benches);
