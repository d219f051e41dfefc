//! GPU (or CPU) benchmarks of SILOT: training steps/s at the paper's sizes, inference frames/s at
//! Space Invaders' full frame for several batch sizes, the sampler/renderer ops (CUDA kernels vs
//! the host CPU kernels vs the composed references), and a per-module breakdown from the model's
//! `tracing` spans. `census` counts the tensors one training step creates per span (forward by
//! module, backward, optimizer) and the backward graph's nodes: on a GPU the step is bound by
//! per-tensor host work, and the count can be read on a CPU.
//!
//! ```text
//! gpu_bench --device cuda [--host-kernels] [--only ops,train,infer,breakdown,census] [--iters N]
//!           [--train-threads 2,3]
//! ```
//! Times are wall-clock with the device synchronised before the clock stops. For a meaningful GPU
//! breakdown run with `CUDA_LAUNCH_BLOCKING=1` (each span then includes its kernels' run time).

use std::hint::black_box;
use std::time::Instant;

use anyhow::Result;
use candle_core::{DType, Device, Tensor, Var};
use clap::Parser;
use silot::device::{open, DeviceArg};
use silot::model::config::{PresenceCarry, RunConfig};
use silot::model::{Silot, StepCtx};
use silot::nn::render::{render_sprites, render_sprites_reference, RenderMode};
use silot::nn::sampler::{extract_glimpses, extract_glimpses_reference};
use silot::profile::{tensors_created, SpanTimes, TensorCensus};
use silot::rng::SeededRng;
use silot::train::Trainer;
use tracing_subscriber::prelude::*;

#[derive(Parser)]
struct Args {
    /// Device to benchmark.
    #[arg(long, value_enum, default_value = "cuda")]
    device: DeviceArg,
    /// Route GPU tensors through the host CPU sampler/renderer kernels (the pre-kernel path).
    #[arg(long)]
    host_kernels: bool,
    /// Evaluation-mode discovery attention through the composed pair grid (before the fused op).
    #[arg(long)]
    composed_attention: bool,
    /// Adam composed from candle ops with host-drawn gradient noise (before the fused kernels).
    #[arg(long)]
    composed_optimizer: bool,
    /// Latent noise drawn on the host and copied (before device-side noise).
    #[arg(long)]
    host_noise: bool,
    /// Bias adds, ReLUs and the glimpse gate as candle broadcast ops (before the fused
    /// epilogues of `silot::nn::epilogue`).
    #[arg(long)]
    composed_epilogues: bool,
    /// Keep cudarc's per-buffer event tracking on (before `silot::nn::prepare_device`).
    #[arg(long)]
    event_tracking: bool,
    /// Leave the CUDA memory pool's release threshold at the driver's default (before
    /// `silot::nn::set_pool_caching`).
    #[arg(long)]
    no_pool_caching: bool,
    /// Render the reconstruction in inference steps (the encoder alone does not need it).
    #[arg(long)]
    reconstruct: bool,
    /// Let cuBLAS use TF32 tensor cores for f32 matmuls (`set_gemm_reduced_precision_f32`).
    #[arg(long)]
    tf32: bool,
    /// Reduced-precision inference: f16 backbone convolutions and, with `--tf32`, cuBLASLt
    /// dense epilogues (`silot::nn::set_half_backbone`).
    #[arg(long)]
    half_backbone: bool,
    /// Dense layers as matmul + bias_act instead of one cuBLASLt matmul with a bias/ReLU
    /// epilogue (the path before `silot::nn::fused_dense`; only differs with `--tf32
    /// --half-backbone`).
    #[arg(long)]
    composed_dense: bool,
    /// The cuBLASLt dense layer wherever TF32 is on, training steps included
    /// (`DenseFusion::Tf32`; default: only with `--half-backbone`).
    #[arg(long)]
    fused_dense_always: bool,
    /// Comma-separated sections: ops, train, infer, breakdown, census (not in the default).
    #[arg(long, default_value = "ops,train,infer,breakdown")]
    only: String,
    /// Timed iterations per measurement.
    #[arg(long, default_value_t = 10)]
    iters: usize,
    /// Training batch sizes (the paper's is 16; larger ones show samples/s when launch-bound).
    #[arg(long, value_delimiter = ',', default_value = "16")]
    train_batches: Vec<usize>,
    /// Inference batch sizes.
    #[arg(long, value_delimiter = ',', default_value = "1,16,64,256")]
    batches: Vec<usize>,
    /// Presence carry of the inference steps (`reid`, the default, `dedup`, `binary` or
    /// `product`), to time what each costs.
    #[arg(long, default_value = "reid")]
    presence_carry: String,
    /// Schedule step the training step is measured at. The default is past the training
    /// wheels (1,000 steps, whose stop-gradients shrink the backward pass) and the count prior's
    /// early decay, as most of a run is; 0 measures a fresh run's first steps.
    #[arg(long, default_value_t = 5000)]
    train_at_step: u64,
    /// Training configs to measure: mnist (Scattered MNIST 48x48, K 16), invaders (Space
    /// Invaders crops 72x72, K 36).
    #[arg(long, value_delimiter = ',', default_value = "mnist,invaders")]
    train_sets: Vec<String>,
    /// Also measure this many independent trainers at once, one per host thread, each on a
    /// device of its own (on CUDA: its own handle on the same GPU, kernels on the thread's own
    /// stream), e.g. `2,3`: their summed steps/s against one trainer's, in the same call. The
    /// question it answers: do several training runs (seeds) share a GPU better from one
    /// process than as separate processes (whose contexts the GPU time-slices)? On an H200 (SI
    /// B 64) no: 2 threads 0.98x, 3 threads 0.91x one trainer, two processes 1.38x
    /// (benches/results/cuda_train_space_invaders_session17.md).
    #[arg(long, value_delimiter = ',')]
    train_threads: Vec<usize>,
}

fn mnist_cfg() -> RunConfig {
    let mut c = RunConfig::default();
    c.train.initial_n_frames = 8;
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

fn uniform(shape: &[usize], lo: f32, hi: f32, seed: u64, dev: &Device) -> Result<Tensor> {
    Ok(SeededRng::new(seed).uniform(shape, lo, hi, dev)?)
}

/// Mean seconds per call of `f` over `iters` calls after `warm` calls, device synchronised.
fn time(dev: &Device, warm: usize, iters: usize, f: &mut dyn FnMut() -> Result<()>) -> Result<f64> {
    for _ in 0..warm {
        f()?;
    }
    dev.synchronize()?;
    let t0 = Instant::now();
    for _ in 0..iters {
        f()?;
    }
    dev.synchronize()?;
    Ok(t0.elapsed().as_secs_f64() / iters as f64)
}

fn breakdown(label: &str, dev: &Device, f: &mut dyn FnMut() -> Result<()>) -> Result<()> {
    let times = SpanTimes::default();
    let sub = tracing_subscriber::registry().with(times.clone());
    let t0 = Instant::now();
    tracing::subscriber::with_default(sub, || -> Result<()> {
        f()?;
        dev.synchronize()?;
        Ok(())
    })?;
    let total = t0.elapsed().as_secs_f64();
    println!("\n#### breakdown: {label} (total {:.1} ms)\n", total * 1e3);
    println!("| span | ms | share | calls |\n|---|---|---|---|");
    for (name, d, n) in times.sorted() {
        let s = d.as_secs_f64();
        println!(
            "| {name} | {:.2} | {:.1} % | {n} |",
            s * 1e3,
            100.0 * s / total
        );
    }
    Ok(())
}

/// Sampler and renderer forward+backward: device kernels, host CPU kernels, composed reference.
fn ops(dev: &Device, iters: usize) -> Result<()> {
    println!("\n### sampler / renderer ops (forward + backward, ms per call)\n");
    println!("| op | size | device kernels | host CPU kernels | composed reference |");
    println!("|---|---|---|---|---|");
    let cases: [(&str, usize, usize, usize, usize, bool); 3] = [
        ("training 72x72", 16, 36, 72, 72, true),
        ("training 48x48 (MNIST)", 16, 16, 48, 48, true),
        ("inference 195x160, B=64", 64, 128, 195, 160, false),
    ];
    for (label, b, k, h, w, with_ref) in cases {
        let img = uniform(&[b, 3, h, w], 0.0, 1.0, 1, dev)?;
        let yx = uniform(&[b, k, 2], 0.0, 1.0, 2, dev)?;
        let hw = uniform(&[b, k, 2], 0.1, 0.3, 3, dev)?;
        let boxes = Tensor::cat(&[&yx, &hw], 2)?;
        let (vi, vb) = (Var::from_tensor(&img)?, Var::from_tensor(&boxes)?);
        let run_sampler =
            |f: fn(&Tensor, &Tensor, (usize, usize)) -> candle_core::Result<Tensor>| {
                time(dev, 2, iters, &mut || {
                    let g = f(vi.as_tensor(), vb.as_tensor(), (21, 21))?;
                    black_box(g.sqr()?.sum_all()?.backward()?);
                    Ok(())
                })
            };
        silot::nn::set_device_kernels(true);
        let native = run_sampler(extract_glimpses)?;
        silot::nn::set_device_kernels(false);
        let host = run_sampler(extract_glimpses)?;
        silot::nn::set_device_kernels(true);
        let reference = if with_ref {
            format!("{:.3}", 1e3 * run_sampler(extract_glimpses_reference)?)
        } else {
            "–".into()
        };
        println!(
            "| sampler 21x21 | {label}, K={k} | {:.3} | {:.3} | {reference} |",
            1e3 * native,
            1e3 * host
        );
        let colour = Var::from_tensor(&uniform(&[b, k, 3, 21, 21], 0.0, 1.0, 4, dev)?)?;
        let alpha = Var::from_tensor(&uniform(&[b, k, 1, 21, 21], 0.0, 1.0, 5, dev)?)?;
        let imp = Var::from_tensor(&uniform(&[b, k, 1, 21, 21], 0.0, 1.0, 6, dev)?)?;
        type R = fn(
            &Tensor,
            &Tensor,
            &Tensor,
            &Tensor,
            (usize, usize),
            &Tensor,
            RenderMode,
        ) -> candle_core::Result<Tensor>;
        let run_render = |f: R| {
            time(dev, 2, iters, &mut || {
                let out = f(
                    colour.as_tensor(),
                    alpha.as_tensor(),
                    imp.as_tensor(),
                    vb.as_tensor(),
                    (h, w),
                    vi.as_tensor(),
                    RenderMode::Code,
                )?;
                black_box(out.sqr()?.sum_all()?.backward()?);
                Ok(())
            })
        };
        silot::nn::set_device_kernels(true);
        let native = run_render(render_sprites)?;
        silot::nn::set_device_kernels(false);
        let host = run_render(render_sprites)?;
        silot::nn::set_device_kernels(true);
        let reference = if with_ref {
            format!("{:.3}", 1e3 * run_render(render_sprites_reference)?)
        } else {
            "–".into()
        };
        println!(
            "| renderer 21x21 sprites | {label}, K={k} | {:.3} | {:.3} | {reference} |",
            1e3 * native,
            1e3 * host
        );
    }
    Ok(())
}

/// A trainer of `cfg` at schedule step `at_step` on `dev`, with a uniform-noise clip batch
/// (drawn from `input_seed`) and zero crop offsets: what every training measurement steps.
fn bench_trainer(
    cfg: &RunConfig,
    dev: &Device,
    at_step: u64,
    input_seed: u64,
) -> Result<(Trainer, Tensor, Tensor)> {
    let [h, w] = cfg.model.image_size;
    let b = cfg.train.batch_size;
    let x = uniform(&[b, cfg.train.n_frames, 3, h, w], 0.0, 1.0, input_seed, dev)?;
    let off = Tensor::zeros((b, 2), DType::F32, dev)?;
    let mut tr = Trainer::new(cfg, dev)?;
    tr.progress.global_step = at_step;
    tr.progress.stage_step = at_step;
    Ok((tr, x, off))
}

fn train(
    dev: &Device,
    iters: usize,
    batches: &[usize],
    sets: &[String],
    at_step: u64,
    with_breakdown: bool,
) -> Result<()> {
    println!(
        "\n### training step at schedule step {at_step} (forward over T frames + loss + backward + clip + Adam)\n"
    );
    println!("| config | ms / step | steps / s | clips / s |\n|---|---|---|---|");
    let mut bds = Vec::new();
    let configs = batches.iter().flat_map(|&b| {
        let mut m = mnist_cfg();
        m.train.batch_size = b;
        let mut i = invaders_cfg();
        i.train.batch_size = b;
        [
            (
                "mnist",
                format!("Scattered MNIST 48x48, B={b}, T=8, K=16"),
                m,
            ),
            (
                "invaders",
                format!("Space Invaders crops 72x72, B={b}, T=8, K=36"),
                i,
            ),
        ]
        .into_iter()
        .filter(|(set, _, _)| sets.iter().any(|s| s == set))
        .map(|(_, label, cfg)| (label, cfg))
    });
    for (label, cfg) in configs {
        let b = cfg.train.batch_size;
        let (mut tr, x, off) = bench_trainer(&cfg, dev, at_step, 0)?;
        let s = time(dev, 3, iters, &mut || {
            black_box(tr.train_step(&x, &off)?);
            Ok(())
        })?;
        println!(
            "| {label} | {:.1} | {:.2} | {:.1} |",
            s * 1e3,
            1.0 / s,
            b as f64 / s
        );
        if with_breakdown && b == batches[0] {
            bds.push((label, tr, x, off));
        }
    }
    for (label, mut tr, x, off) in bds {
        breakdown(&format!("training, {label}"), dev, &mut || {
            black_box(tr.train_step(&x, &off)?);
            Ok(())
        })?;
    }
    Ok(())
}

/// `n` trainers of `cfg` at once, one per thread, each with its own device (`open(arg)`),
/// seed and input; after `warm` steps each (and a barrier) every thread times `iters` steps.
/// Returns the mean seconds per step of the threads and the summed steps per second.
fn train_concurrent(
    arg: DeviceArg,
    cfg: &RunConfig,
    at_step: u64,
    n: usize,
    warm: usize,
    iters: usize,
) -> Result<(f64, f64)> {
    let barrier = std::sync::Barrier::new(n);
    let per_thread: Vec<Result<f64>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..n)
            .map(|i| {
                let barrier = &barrier;
                scope.spawn(move || -> Result<f64> {
                    let dev = open(arg)?;
                    let mut cfg = cfg.clone();
                    cfg.train.seed = i as u64;
                    let (mut tr, x, off) = bench_trainer(&cfg, &dev, at_step, i as u64)?;
                    for _ in 0..warm {
                        black_box(tr.train_step(&x, &off)?);
                    }
                    dev.synchronize()?;
                    barrier.wait();
                    let t0 = Instant::now();
                    for _ in 0..iters {
                        black_box(tr.train_step(&x, &off)?);
                    }
                    dev.synchronize()?;
                    Ok(t0.elapsed().as_secs_f64() / iters as f64)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("a trainer thread panicked")))
            })
            .collect()
    });
    let secs = per_thread.into_iter().collect::<Result<Vec<f64>>>()?;
    let mean = secs.iter().sum::<f64>() / n as f64;
    Ok((mean, secs.iter().map(|s| 1.0 / s).sum()))
}

/// [`train_concurrent`] for 1 and each of `threads` trainers of each set (batch `batches[0]`):
/// one table with the summed steps/s against one trainer's.
fn train_threads(
    arg: DeviceArg,
    iters: usize,
    batch: usize,
    sets: &[String],
    at_step: u64,
    threads: &[usize],
) -> Result<()> {
    println!(
        "\n### concurrent trainers at schedule step {at_step} (one per thread, own device handle and stream)\n"
    );
    println!(
        "| config | trainers | ms / step (each) | steps / s (sum) | vs 1 |\n|---|---|---|---|---|"
    );
    for set in sets {
        let mut cfg = if set == "mnist" {
            mnist_cfg()
        } else {
            invaders_cfg()
        };
        cfg.train.batch_size = batch;
        let mut one = None;
        for &n in std::iter::once(&1).chain(threads.iter().filter(|&&n| n > 1)) {
            let (each, sum) = train_concurrent(arg, &cfg, at_step, n, 3, iters)?;
            let base = *one.get_or_insert(sum);
            println!(
                "| {set}, B={batch} | {n} | {:.1} | {sum:.2} | {:.2}× |",
                each * 1e3,
                sum / base
            );
        }
    }
    Ok(())
}

/// Tensors created by one training step per span, and the loss graph's size.
fn census(dev: &Device, batch: usize, sets: &[String], at_step: u64) -> Result<()> {
    for (set, mut cfg) in [("mnist", mnist_cfg()), ("invaders", invaders_cfg())] {
        if !sets.iter().any(|s| s == set) {
            continue;
        }
        cfg.train.batch_size = batch;
        let (mut tr, x, off) = bench_trainer(&cfg, dev, at_step, 0)?;
        tr.train_step(&x, &off)?; // warm-up: lazily built state
        let census = TensorCensus::default();
        let sub = tracing_subscriber::registry().with(census.clone());
        let before = tensors_created();
        tracing::subscriber::with_default(sub, || tr.train_step(&x, &off))?;
        let total = tensors_created() - before;
        println!(
            "\n#### tensors created by one training step: {set}, B={batch}, T={}, schedule step {at_step} (total {total})\n",
            cfg.train.n_frames
        );
        println!("| span | tensors | per entry | entries |\n|---|---|---|---|");
        for (name, n, entries) in census.sorted() {
            println!(
                "| {name} | {n} | {:.0} | {entries} |",
                n as f64 / entries.max(1) as f64
            );
        }
    }
    Ok(())
}

fn infer(
    dev: &Device,
    iters: usize,
    batches: &[usize],
    with_breakdown: bool,
    reconstruct: bool,
    carry: PresenceCarry,
) -> Result<()> {
    println!(
        "\n### inference, Space Invaders 195x160, K=128, one step per frame (no loss, {}, {carry:?} carry)\n",
        if reconstruct {
            "with reconstruction"
        } else {
            "encoder only"
        }
    );
    println!("| batch | ms / step | frames / s |\n|---|---|---|");
    let mut cfg = invaders_cfg();
    cfg.model.eval_presence_carry = carry;
    let (_vm, model) = Silot::build(&cfg.model, 0, DType::F32, dev)?;
    let k = cfg.model.eval_objects();
    for &b in batches {
        let x = uniform(&[b, 3, 195, 160], 0.0, 1.0, 0, dev)?;
        let res = (|| -> Result<f64> {
            let st0 = model.initial_state(b, k, None, dev)?;
            let st = model
                .step(&x, None, &st0, &mut StepCtx::eval(0))?
                .state
                .detach();
            let mut run = || -> Result<()> {
                let mut ctx = StepCtx::encode(1);
                ctx.reconstruct = reconstruct;
                black_box(model.step(&x, None, &st, &mut ctx)?);
                Ok(())
            };
            let s = time(dev, 2, iters, &mut run)?;
            if with_breakdown && b == *batches.last().unwrap_or(&b) {
                breakdown(&format!("inference, B={b}"), dev, &mut run)?;
            }
            Ok(s)
        })();
        match res {
            Ok(s) => println!("| {b} | {:.2} | {:.0} |", s * 1e3, b as f64 / s),
            Err(e) => println!("| {b} | failed: {e} | – |"),
        }
    }
    Ok(())
}

fn main() -> Result<()> {
    let args = Args::parse();
    if args.no_pool_caching {
        silot::nn::set_pool_caching(false);
    }
    let dev = if args.event_tracking && args.device == DeviceArg::Cuda {
        Device::new_cuda(0)?
    } else {
        open(args.device)?
    };
    if args.host_kernels {
        silot::nn::set_device_kernels(false);
    }
    if args.composed_attention {
        silot::nn::set_fused_attention(false);
    }
    silot::nn::set_fused_optimizer(!args.composed_optimizer);
    silot::nn::set_device_noise(!args.host_noise);
    silot::nn::set_fused_epilogues(!args.composed_epilogues);
    silot::nn::set_half_backbone(args.half_backbone);
    silot::nn::set_dense_fusion(match (args.composed_dense, args.fused_dense_always) {
        (true, _) => silot::nn::DenseFusion::Off,
        (false, true) => silot::nn::DenseFusion::Tf32,
        (false, false) => silot::nn::DenseFusion::ReducedPrecision,
    });
    #[cfg(feature = "cuda")]
    candle_core::cuda::set_gemm_reduced_precision_f32(args.tf32);
    #[cfg(not(feature = "cuda"))]
    if args.tf32 {
        anyhow::bail!("--tf32 needs a `--features cuda` build");
    }
    if let Some(bad) = args
        .train_sets
        .iter()
        .find(|s| !["mnist", "invaders"].contains(&s.as_str()))
    {
        anyhow::bail!("unknown --train-sets entry {bad:?}: use mnist, invaders or both");
    }
    let only: Vec<&str> = args.only.split(',').map(str::trim).collect();
    let bd = only.contains(&"breakdown");
    println!(
        "device {:?}, sampler/renderer kernels: {}, eval discovery attention: {}, tf32: {}, f16 backbone: {}",
        args.device,
        if args.host_kernels {
            "host CPU"
        } else {
            "device"
        },
        if args.composed_attention {
            "composed"
        } else {
            "fused"
        },
        args.tf32,
        args.half_backbone
    );
    println!(
        "optimizer: {}, latent noise: {}, epilogues: {}, dense: {:?}",
        if args.composed_optimizer {
            "composed, host gradient noise"
        } else {
            "fused"
        },
        if args.host_noise { "host" } else { "device" },
        if args.composed_epilogues {
            "composed"
        } else {
            "fused"
        },
        silot::nn::dense_fusion()
    );
    println!(
        "cudarc event tracking: {}, memory pool keeps freed memory: {}",
        args.event_tracking,
        silot::nn::pool_caching()
    );
    if only.contains(&"ops") && !args.host_kernels {
        ops(&dev, args.iters)?;
    }
    if only.contains(&"train") {
        train(
            &dev,
            args.iters,
            &args.train_batches,
            &args.train_sets,
            args.train_at_step,
            bd,
        )?;
    }
    if !args.train_threads.is_empty() {
        let b = args.train_batches.first().copied().unwrap_or(16);
        train_threads(
            args.device,
            args.iters,
            b,
            &args.train_sets,
            args.train_at_step,
            &args.train_threads,
        )?;
    }
    if only.contains(&"census") {
        let b = args.train_batches.first().copied().unwrap_or(16);
        census(&dev, b, &args.train_sets, args.train_at_step)?;
    }
    if only.contains(&"infer") {
        let carry: PresenceCarry = args.presence_carry.parse()?;
        infer(&dev, args.iters, &args.batches, bd, args.reconstruct, carry)?;
    }
    Ok(())
}
