//! All criterion benches, one binary; groups live in `benchmarks/`.

mod benchmarks;

#[cfg(feature = "atari")]
criterion::criterion_main!(benchmarks::atari::benches);

#[cfg(not(feature = "atari"))]
fn main() {}
