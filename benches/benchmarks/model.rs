//! SILOT on CPU at the paper's sizes: one training step (forward + backward + Adam) and one
//! inference step, with a per-module breakdown from the model's `tracing` spans (backbone,
//! propagation, discovery, selection, render, loss; forward/backward/optimizer for training).
//!
//! Sizes: Scattered MNIST training (48×48, B=16, T=8, K=16), Space Invaders training crops
//! (72×72, B=16, T=8, K=36, 21×21 sprites, wider MLPs), Space Invaders inference (195×160,
//! B=8, K=128, one timestep) and the same step through the object-centric wrapper's encoder.
//! Run: `cargo bench --bench bench_main -- model`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use candle_core::{DType, Device, Tensor};
use criterion::Criterion;
use silot::model::config::RunConfig;
use silot::model::{Silot, StepCtx};
use silot::profile::SpanTimes;
use silot::rng::SeededRng;
use silot::train::Trainer;
use silot::wrapper::ObjectEncoder;
use tracing_subscriber::prelude::*;

fn mnist_cfg() -> RunConfig {
    let mut c = RunConfig::default();
    c.train.initial_n_frames = 8; // T_dyn = T = 8
    c
}

fn invaders_cfg() -> RunConfig {
    let mut c = RunConfig::default();
    c.model.image_size = [72, 72];
    c.model.anchor = [24.0, 24.0];
    c.model.object_size = [21, 21];
    c.model.n_objects = 36;
    c.model.n_objects_eval = Some(128);
    c.model.glimpse_encoder = vec![512, 256];
    c.model.sprite_decoder = vec![256, 512];
    c.model.eval_noisy = false;
    c.train.crop = Some([72, 72]);
    c.train.initial_n_frames = 8;
    c
}

fn frames(b: usize, t: usize, h: usize, w: usize) -> Tensor {
    let mut rng = SeededRng::new(0);
    rng.uniform(&[b, t, 3, h, w], 0.0, 1.0, &Device::Cpu)
        .unwrap()
}

/// Run `f` once under the span-timing layer and print the breakdown.
fn breakdown(label: &str, f: &mut dyn FnMut()) {
    let times = SpanTimes::default();
    let sub = tracing_subscriber::registry().with(times.clone());
    let t0 = Instant::now();
    tracing::subscriber::with_default(sub, f);
    let total = t0.elapsed();
    println!("\n{label}: total {:.3} s", total.as_secs_f64());
    for (name, d, n) in times.sorted() {
        println!(
            "  {name:<20} {:>9.3} s  {:>5.1}%  ({n} calls)",
            d.as_secs_f64(),
            100.0 * d.as_secs_f64() / total.as_secs_f64()
        );
    }
}

fn train_bench(c: &mut Criterion, name: &str, cfg: RunConfig) {
    let dev = Device::Cpu;
    let [h, w] = cfg.model.image_size;
    let x = frames(cfg.train.batch_size, cfg.train.n_frames, h, w);
    let off = Tensor::zeros((cfg.train.batch_size, 2), DType::F32, &dev).unwrap();
    let mut tr = Trainer::new(&cfg, &dev).unwrap();
    breakdown(name, &mut || {
        black_box(tr.train_step(&x, &off).unwrap());
    });
    let mut g = c.benchmark_group("model");
    g.sample_size(10);
    g.warm_up_time(Duration::from_millis(1));
    g.measurement_time(Duration::from_secs(20));
    g.bench_function(name, |b| {
        b.iter(|| black_box(tr.train_step(&x, &off).unwrap()))
    });
    g.finish();
}

fn infer_bench(c: &mut Criterion) {
    let name = "cpu_infer_step_invaders_195x160_b8_k128";
    let cfg = invaders_cfg();
    let dev = Device::Cpu;
    let (_vm, model) = Silot::build(&cfg.model, 0, DType::F32, &dev).unwrap();
    let x = frames(8, 1, 195, 160).squeeze(1).unwrap();
    let k = cfg.model.eval_objects();
    // Warm state: run one step so the propagated set is non-trivial.
    let st0 = model.initial_state(8, k, None, &dev).unwrap();
    let st = model
        .step(&x, None, &st0, &mut StepCtx::eval(0))
        .unwrap()
        .state
        .detach();
    let mut run = || {
        let mut ctx = StepCtx::encode(1);
        black_box(model.step(&x, None, &st, &mut ctx).unwrap());
    };
    breakdown(name, &mut run);
    let mut g = c.benchmark_group("model");
    g.sample_size(10);
    g.warm_up_time(Duration::from_millis(1));
    g.measurement_time(Duration::from_secs(20));
    g.bench_function(name, |b| b.iter(&mut run));
    // The object-centric wrapper's encoder on the same model and batch (byte frames in, host
    // object arrays out): its overhead over the bare step above, measured in the same run.
    let mut enc = ObjectEncoder::from_model(model.clone(), _vm, cfg.clone(), &dev, 0);
    let mut rng = SeededRng::new(3);
    let bytes: Vec<u8> = (0..8 * 195 * 160 * 3)
        .map(|_| (rng.uniform_f32() * 255.0) as u8)
        .collect();
    let frames_u8 = ndarray::Array4::from_shape_vec((8, 195, 160, 3), bytes).unwrap();
    enc.encode(frames_u8.view(), &[true; 8]).unwrap(); // a carried state, as in steady use
    g.bench_function("wrapper_encode_invaders_195x160_b8_k128", |b| {
        b.iter(|| black_box(enc.encode(frames_u8.view(), &[false; 8]).unwrap()))
    });
    g.finish();
}

/// All model benchmarks.
pub fn bench_model(c: &mut Criterion) {
    train_bench(c, "cpu_train_step_mnist_48x48_b16_t8_k16", mnist_cfg());
    train_bench(
        c,
        "cpu_train_step_invaders_72x72_b16_t8_k36",
        invaders_cfg(),
    );
    infer_bench(c);
}
