//! Criterion benchmarks of the crate (one binary, groups under `benchmarks/`).

mod benchmarks;

criterion::criterion_group!(conncomp, benchmarks::conncomp::bench);
criterion::criterion_main!(conncomp);
