//! SILOT on CPU at the paper's sizes: one training step (forward + backward + Adam) and one
//! inference step, with a per-module breakdown from the model's `tracing` spans (backbone,
//! propagation, discovery, selection, render, loss; forward/backward/optimizer for training).
//!
//! Sizes: Scattered MNIST training (48×48, B=16, T=8, K=16), Space Invaders training crops
//! (72×72, B=16, T=8, K=36, 21×21 sprites, wider MLPs), Space Invaders inference (195×160,
//! B=8, K=128, one timestep) and the same step through the object-centric wrapper's encoder;
//! the `reid` carry's host work at the GPU wrapper's batch (B=256, K=128), steady and when every
//! object changes at every step.
//! Run: `cargo bench --bench bench_main -- model`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use candle_core::{DType, Device, Tensor};
use criterion::Criterion;
use silot::model::config::RunConfig;
use silot::model::objects::Objects;
use silot::model::reid::{inherit_identities, ReidMemory};
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

/// The `reid` carry's own work in one inference step at the GPU wrapper's batch: B = 256
/// streams, K = 128 slots, 45 present objects per stream (Space Invaders' count), 2 lost and 2
/// found again at every step. `inherit_identities` copies the step's boxes to the host (here
/// CPU memory; on a GPU a device-to-host transfer) and updates each stream's memory.
fn reid_host_bench(c: &mut Criterion) {
    let (b, k, present) = (256, 128, 45);
    let dev = Device::Cpu;
    let cell = |i: usize| {
        [
            0.1 + 0.1 * (i % 9) as f32,
            0.1 + 0.1 * (i / 9) as f32,
            0.06,
            0.06,
        ]
    };
    let tensor = |rows: Vec<f32>, d: usize| {
        let all: Vec<f32> = (0..b).flat_map(|_| rows.iter().copied()).collect();
        Tensor::from_vec(all, (b, k, d), &dev).unwrap()
    };
    let mut prev = Objects::null(b, k, 4, 4, &dev).unwrap();
    let pres_before: Vec<f32> = (0..k).map(|s| f32::from(u8::from(s < present))).collect();
    prev.pres = tensor(pres_before.clone(), 1);
    prev.where_ = tensor((0..k).flat_map(|s| cell(s % present)).collect(), 4);
    prev.ids = (0..b).flat_map(|_| 0..k as u64).collect();
    // After the step: slots 0 and 1 lost; slots `present` and `present + 1` are discoveries
    // just beside where they were.
    let mut selected = prev.clone();
    let mut pres_after = pres_before;
    pres_after[0] = 0.1;
    pres_after[1] = 0.1;
    pres_after[present] = 0.9;
    pres_after[present + 1] = 0.9;
    selected.pres = tensor(pres_after, 1);
    let boxes_after: Vec<f32> = (0..k)
        .flat_map(|s| match s {
            s if s == present || s == present + 1 => {
                let [y, x, h, w] = cell(s - present);
                [y + 0.01, x, h, w]
            }
            s => cell(s % present),
        })
        .collect();
    selected.where_ = tensor(boxes_after, 4);
    selected.is_new = (0..b)
        .flat_map(|_| (0..k).map(|s| s == present || s == present + 1))
        .collect();
    let mut memory = vec![ReidMemory::default(); b];
    inherit_identities(&mut selected.clone(), &prev, &prev, &mut memory).unwrap();
    let mut g = c.benchmark_group("model");
    g.sample_size(20);
    g.bench_function("reid_host_b256_k128", |bn| {
        bn.iter_batched(
            || (selected.clone(), memory.clone()),
            |(mut sel, mut mem)| {
                inherit_identities(&mut sel, &prev, &prev, &mut mem).unwrap();
                black_box((sel, mem))
            },
            criterion::BatchSize::SmallInput,
        )
    });
    // Its two host copies alone (the same tensors), the part a GPU turns into transfers.
    let host = |parts: &[&Tensor]| {
        Tensor::cat(parts, 2)
            .unwrap()
            .to_dtype(DType::F32)
            .unwrap()
            .flatten_all()
            .unwrap()
            .to_vec1::<f32>()
            .unwrap()
    };
    g.bench_function("reid_host_copies_b256_k128", |bn| {
        bn.iter(|| {
            let sel = host(&[&selected.pres, &selected.where_]);
            let carried = host(&[&prev.pres, &prev.where_, &prev.where_]);
            black_box((sel, carried))
        })
    });
    g.finish();
    reid_churn_bench(c);
}

/// The `reid` carry's host work when every object changes at every step, as with an untrained
/// or barely trained encoder (`gpu_bench` with random weights): B = 256 streams, K = 128 slots,
/// 64 objects present before the step, all of them lost at the step and 64 discoveries at random
/// boxes, after 5 such steps filled each stream's memory (~300 lost objects).
fn reid_churn_bench(c: &mut Criterion) {
    let (b, k, present) = (256, 128, 64);
    let dev = Device::Cpu;
    let mut rng = SeededRng::new(7);
    // One step's objects: slots `0..present` present with ids `first + slot`, random boxes.
    let mut objects = |first: u64, is_new: bool| {
        let mut o = Objects::null(b, k, 4, 4, &dev).unwrap();
        let pres: Vec<f32> = (0..b * k)
            .map(|i| f32::from(u8::from(i % k < present)))
            .collect();
        let boxes: Vec<f32> = (0..b * k)
            .flat_map(|_| {
                let size = 0.05 + 0.25 * rng.uniform_f32();
                [rng.uniform_f32(), rng.uniform_f32(), size, size]
            })
            .collect();
        o.pres = Tensor::from_vec(pres, (b, k, 1), &dev).unwrap();
        o.where_ = Tensor::from_vec(boxes, (b, k, 4), &dev).unwrap();
        o.ids = (0..b * k).map(|i| first + (i % k) as u64).collect();
        o.is_new = (0..b * k).map(|i| is_new && i % k < present).collect();
        o
    };
    let mut memory = vec![ReidMemory::default(); b];
    let mut prev = objects(0, false);
    for step in 1..=5u64 {
        let mut next = objects(1000 * step, true);
        inherit_identities(&mut next, &prev, &prev, &mut memory).unwrap();
        prev = next;
    }
    let selected = objects(10_000, true);
    let mut g = c.benchmark_group("model");
    g.sample_size(10);
    g.bench_function("reid_host_churn_b256_k128", |bn| {
        bn.iter_batched(
            || (selected.clone(), memory.clone()),
            |(mut sel, mut mem)| {
                inherit_identities(&mut sel, &prev, &prev, &mut mem).unwrap();
                black_box((sel, mem))
            },
            criterion::BatchSize::SmallInput,
        )
    });
    g.finish();
}

/// All model benchmarks.
pub fn bench_model(c: &mut Criterion) {
    reid_host_bench(c);
    train_bench(c, "cpu_train_step_mnist_48x48_b16_t8_k16", mnist_cfg());
    train_bench(
        c,
        "cpu_train_step_invaders_72x72_b16_t8_k36",
        invaders_cfg(),
    );
    infer_bench(c);
}
