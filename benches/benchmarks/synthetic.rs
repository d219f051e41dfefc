//! Frames per second of the synthetic video envs (reset + steps of whole 8-frame episodes,
//! observations written into a reused buffer).

use criterion::{criterion_group, Criterion, Throughput};
use silot::env::synthetic::{
    ScatteredMnist, ScatteredMnistConfig, ScatteredShapes, ScatteredShapesConfig, Split,
};
use silot::env::{Env, ResetOptions};

/// Play whole episodes until `frames` frames were produced.
fn frames(env: &mut dyn Env, frames: u64, seed: &mut u64) {
    let mut obs = env.new_obs_buffer();
    let opts = ResetOptions::default();
    let mut done = 0;
    while done < frames {
        *seed += 1;
        env.reset_into(Some(*seed), &opts, obs.view_mut())
            .expect("reset");
        done += 1;
        loop {
            let t = env.step_into(0, obs.view_mut()).expect("step");
            done += 1;
            if t.truncated {
                break;
            }
        }
    }
}

fn bench_synthetic(c: &mut Criterion) {
    let mut group = c.benchmark_group("cpu_synthetic");
    group.throughput(Throughput::Elements(64));
    let mut envs: Vec<(&str, Box<dyn Env>)> = vec![
        (
            "scattered_mnist_1to6",
            Box::new(
                ScatteredMnist::new(ScatteredMnistConfig::default(), Split::Train).expect("mnist"),
            ),
        ),
        (
            "scattered_mnist_12",
            Box::new(
                ScatteredMnist::new(
                    ScatteredMnistConfig {
                        min_objects: 12,
                        max_objects: 12,
                        ..Default::default()
                    },
                    Split::Train,
                )
                .expect("mnist"),
            ),
        ),
        (
            "scattered_shapes_1to10",
            Box::new(ScatteredShapes::new(ScatteredShapesConfig::default()).expect("shapes")),
        ),
        (
            "scattered_shapes_21to30",
            Box::new(
                ScatteredShapes::new(ScatteredShapesConfig {
                    min_objects: 21,
                    max_objects: 30,
                    ..Default::default()
                })
                .expect("shapes"),
            ),
        ),
    ];
    for (name, env) in envs.iter_mut() {
        let mut seed = 0;
        group.bench_function(*name, |b| b.iter(|| frames(env.as_mut(), 64, &mut seed)));
    }
    group.finish();
}

criterion_group!(benches, bench_synthetic);
