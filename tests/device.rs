//! Device parity (`test_device!`): every test runs on the CPU and, in a `--features cuda` build,
//! on the first CUDA GPU, and compares the device's results with a CPU ground truth that is not
//! the code under test: the composed references or the same model in f64 on the CPU, or (one
//! Adam step) the bound Adam's first step obeys. So the CPU half of each test checks the CPU's
//! f32 path against that reference, not the CPU against itself.
//!
//! Tolerances (f32 on the device vs the CPU): sampler and renderer values and gradients within
//! `1e-4·(1 + |x|)`; model forward outputs within `2e-3` absolute, loss terms within `1e-3`
//! relative; parameter gradients within `1e-3` of each tensor's largest gradient; parameters after
//! one Adam step within `2·lr` everywhere and `lr/100` on average (Adam's first step is
//! `lr·g/(|g| + ε)`, which flips sign for a gradient that is zero up to rounding). A repeated
//! 3-step run on the same device reproduces its loss trajectory within `1e-5` relative and its
//! parameters within `1e-5` on average (bit-identical on the CPU; GPU scatters use atomic adds).

use std::collections::HashMap;

use candle_core::{DType, Device, Tensor, Var};
use silot::model::attention::DiscoveryAttention;
use silot::model::{Silot, StepCtx};
use silot::nn::backbone::Backbone;
use silot::nn::render::{render_sprites, render_sprites_reference, RenderMode};
use silot::nn::sampler::{extract_glimpses, extract_glimpses_reference};
use silot::rng::SeededRng;
use silot::test_device;
use silot::train::Trainer;

use crate::model_util::{moving_squares, smoke_cfg};

fn values(t: &Tensor) -> Vec<f64> {
    t.to_device(&Device::Cpu)
        .unwrap()
        .to_dtype(DType::F64)
        .unwrap()
        .flatten_all()
        .unwrap()
        .to_vec1()
        .unwrap()
}

fn assert_close(what: &str, got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len(), "{what}: lengths differ");
    let (mut worst, mut at) = (0.0f64, 0usize);
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let e = (g - w).abs() / (1.0 + w.abs());
        assert!(e.is_finite() || g == w, "{what}[{i}]: {g} vs {w}");
        if e > worst {
            (worst, at) = (e, i);
        }
    }
    assert!(
        worst <= tol,
        "{what}: worst relative error {worst:.3e} at {at} ({} vs {}), tolerance {tol:.1e}",
        got[at],
        want[at]
    );
}

/// `f(inputs...)` and the gradients of `Σ f·weights` wrt every input, as f64 host vectors.
fn value_and_grads(
    inputs: &[Tensor],
    weights: &Tensor,
    f: impl Fn(&[Tensor]) -> Tensor,
) -> Vec<Vec<f64>> {
    let vars: Vec<Var> = inputs
        .iter()
        .map(|t| Var::from_tensor(t).unwrap())
        .collect();
    let ts: Vec<Tensor> = vars.iter().map(|v| v.as_tensor().clone()).collect();
    let out = f(&ts);
    let grads = (&out * weights)
        .unwrap()
        .sum_all()
        .unwrap()
        .backward()
        .unwrap();
    let mut res = vec![values(&out)];
    for v in &vars {
        res.push(match grads.get(v.as_tensor()) {
            Some(g) => values(g),
            None => vec![0.0; v.elem_count()],
        });
    }
    res
}

fn on(t: &Tensor, dev: &Device, dt: DType) -> Tensor {
    t.to_dtype(dt).unwrap().to_device(dev).unwrap()
}

fn sampler_matches_cpu_reference(dev: &Device) {
    let cpu = Device::Cpu;
    let mut rng = SeededRng::new(11);
    let img = rng.uniform(&[2, 3, 20, 24], 0.0, 1.0, &cpu).unwrap();
    let boxes = rng.uniform(&[2, 5, 4], -0.2, 1.2, &cpu).unwrap();
    let wts = rng.normal(&[2, 5, 3, 6, 7], &cpu).unwrap();
    let want = value_and_grads(
        &[on(&img, &cpu, DType::F64), on(&boxes, &cpu, DType::F64)],
        &on(&wts, &cpu, DType::F64),
        |x| extract_glimpses_reference(&x[0], &x[1], (6, 7)).unwrap(),
    );
    for dt in [DType::F32, DType::F64] {
        let got = value_and_grads(
            &[on(&img, dev, dt), on(&boxes, dev, dt)],
            &on(&wts, dev, dt),
            |x| extract_glimpses(&x[0], &x[1], (6, 7)).unwrap(),
        );
        let tol = if dt == DType::F32 { 1e-4 } else { 1e-9 };
        for (i, name) in ["glimpses", "d/dimage", "d/dboxes"].iter().enumerate() {
            assert_close(&format!("{name} {dt:?}"), &got[i], &want[i], tol);
        }
    }
}
test_device!(sampler_matches_cpu_reference, sampler_cpu, sampler_cuda);

fn renderer_matches_cpu_reference(dev: &Device) {
    let cpu = Device::Cpu;
    let mut rng = SeededRng::new(12);
    let (b, k, h, w) = (2, 6, 18, 22);
    let colour = rng.uniform(&[b, k, 3, 5, 4], 0.0, 1.0, &cpu).unwrap();
    let alpha = rng.uniform(&[b, k, 1, 5, 4], 0.0, 1.0, &cpu).unwrap();
    let imp = rng.uniform(&[b, k, 1, 5, 4], 0.05, 1.0, &cpu).unwrap();
    let tl = rng.uniform(&[b, k, 2], -0.1, 0.8, &cpu).unwrap();
    let hw = rng.uniform(&[b, k, 2], 0.1, 0.5, &cpu).unwrap();
    let boxes = Tensor::cat(&[tl, hw], 2).unwrap();
    let bg = rng.uniform(&[b, 3, h, w], 0.0, 1.0, &cpu).unwrap();
    let wts = rng.normal(&[b, 3, h, w], &cpu).unwrap();
    for mode in [RenderMode::Code, RenderMode::Softmax { temperature: 0.5 }] {
        let ins = |d: &Device, dt| {
            [&colour, &alpha, &imp, &boxes, &bg]
                .iter()
                .map(|t| on(t, d, dt))
                .collect::<Vec<_>>()
        };
        let want = value_and_grads(&ins(&cpu, DType::F64), &on(&wts, &cpu, DType::F64), |x| {
            render_sprites_reference(&x[0], &x[1], &x[2], &x[3], (h, w), &x[4], mode).unwrap()
        });
        for dt in [DType::F32, DType::F64] {
            let got = value_and_grads(&ins(dev, dt), &on(&wts, dev, dt), |x| {
                render_sprites(&x[0], &x[1], &x[2], &x[3], (h, w), &x[4], mode).unwrap()
            });
            let tol = if dt == DType::F32 { 1e-4 } else { 1e-9 };
            let names = [
                "image",
                "d/dcolour",
                "d/dalpha",
                "d/dimportance",
                "d/dboxes",
                "d/dbg",
            ];
            for (i, name) in names.iter().enumerate() {
                assert_close(&format!("{name} {mode:?} {dt:?}"), &got[i], &want[i], tol);
            }
        }
    }
}
test_device!(renderer_matches_cpu_reference, renderer_cpu, renderer_cuda);

/// The fused inference attention on `dev` against the composed training form on the CPU in f64,
/// at the model's kernel width (std 0.1 anchor units) with objects spread over the whole grid, so
/// most pairs lie beyond the fused op's cutoff.
fn fused_discovery_attention_matches_composed(dev: &Device) {
    let cpu = Device::Cpu;
    let mut rng = SeededRng::new(21);
    let (b, k, q, f) = (3, 40, 60, 12);
    let feats = rng.normal(&[b, k, f], &cpu).unwrap();
    let pos = rng.uniform(&[b, k, 2], 0.0, 3.0, &cpu).unwrap();
    // Queries on a grid, with a few objects placed exactly on cells.
    let cells = rng.uniform(&[b, q, 2], 0.0, 3.0, &cpu).unwrap();
    let pos = pos
        .slice_assign(&[0..b, 0..5, 0..2], &cells.narrow(1, 0, 5).unwrap())
        .unwrap();
    let build = |d: &Device, dt: DType| {
        let vm = candle_nn::VarMap::new();
        let vb = silot::rng::seeded_var_builder(&vm, 4, dt, d);
        DiscoveryAttention::new(vb, f, &[16, 16], 8, 0.1).unwrap()
    };
    let want = values(
        &build(&cpu, DType::F64)
            .forward(
                &on(&feats, &cpu, DType::F64),
                &on(&pos, &cpu, DType::F64),
                &on(&cells, &cpu, DType::F64),
            )
            .unwrap(),
    );
    assert!(want.iter().any(|v| v.abs() > 1e-2), "degenerate fixture");
    for (dt, tol) in [(DType::F32, 1e-4), (DType::F64, 1e-6)] {
        let got = build(dev, dt)
            .forward_inference(
                &on(&feats, dev, dt),
                &on(&pos, dev, dt),
                &on(&cells, dev, dt),
            )
            .unwrap();
        assert_eq!(got.dims(), &[b, q, 8]);
        assert_close(
            &format!("fused attention {dt:?}"),
            &values(&got),
            &want,
            tol,
        );
    }
}
test_device!(
    fused_discovery_attention_matches_composed,
    fused_attention_cpu,
    fused_attention_cuda
);

/// The channels-last inference backbone on `dev` against the training (candle `conv2d`) path on
/// the CPU in f64, on a Space Invaders-sized frame.
fn inference_backbone_matches_training_path(dev: &Device) {
    let cpu = Device::Cpu;
    let x = SeededRng::new(5)
        .uniform(&[2, 3, 195, 160], 0.0, 1.0, &cpu)
        .unwrap();
    let build = |d: &Device, dt: DType| {
        let vm = candle_nn::VarMap::new();
        let vb = silot::rng::seeded_var_builder(&vm, 6, dt, d);
        Backbone::new(vb, 32, 12).unwrap()
    };
    let want = values(
        &build(&cpu, DType::F64)
            .forward(&on(&x, &cpu, DType::F64))
            .unwrap(),
    );
    for (dt, tol) in [(DType::F32, 1e-4), (DType::F64, 1e-9)] {
        let got = build(dev, dt).forward_inference(&on(&x, dev, dt)).unwrap();
        assert_eq!(got.dims(), &[2, 32, 17, 14]);
        assert_close(
            &format!("inference backbone {dt:?}"),
            &values(&got),
            &want,
            tol,
        );
    }
}
test_device!(
    inference_backbone_matches_training_path,
    inference_backbone_cpu,
    inference_backbone_cuda
);

fn train_ctx(seed: u64) -> StepCtx {
    StepCtx {
        rng: SeededRng::new(seed),
        training: true,
        training_wheels: false,
        count_prior_log_odds: 0.5,
        prior_start: None,
        compute_loss: true,
        reconstruct: true,
        shard: None,
    }
}

/// Reconstructions, loss terms and parameter gradients of one training-mode clip, with the model
/// in `dt` on `dev`.
fn forward_backward(dev: &Device, dt: DType) -> (Vec<f64>, Vec<f64>, HashMap<String, Vec<f64>>) {
    let cfg = smoke_cfg();
    let (vm, model) = Silot::build(&cfg.model, 5, dt, dev).unwrap();
    let clip = on(&moving_squares(4, 3, 24, 24, 2), dev, dt);
    let st = model.initial_state(4, 4, None, dev).unwrap();
    let out = model.run_clip(&clip, st, &mut train_ctx(3), None).unwrap();
    let recon = values(&Tensor::stack(&out.reconstructions, 0).unwrap());
    let l = out.losses.breakdown().unwrap();
    let terms = vec![
        l.total,
        l.reconstruction,
        l.prop_kl,
        l.disc_kl,
        l.learned_kl,
        l.learned_pres_kl,
        l.count_prior_kl,
    ];
    let g = out.losses.total().unwrap().backward().unwrap();
    let data = vm.data().lock().unwrap();
    let grads = data
        .iter()
        .map(|(name, v)| {
            let gv = match g.get(v.as_tensor()) {
                Some(t) => values(t),
                None => vec![0.0; v.elem_count()],
            };
            (name.clone(), gv)
        })
        .collect();
    (recon, terms, grads)
}

/// The model in f32 on `dev` against the same model in f64 on the CPU.
fn silot_forward_loss_and_gradients_match_cpu(dev: &Device) {
    let (r_dev, l_dev, g_dev) = forward_backward(dev, DType::F32);
    let (r_cpu, l_cpu, g_cpu) = forward_backward(&Device::Cpu, DType::F64);
    let worst = r_dev
        .iter()
        .zip(&r_cpu)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(worst <= 2e-3, "reconstructions differ by {worst:.3e}");
    for (i, (a, b)) in l_dev.iter().zip(&l_cpu).enumerate() {
        assert!(
            (a - b).abs() <= 1e-3 * (1.0 + b.abs()),
            "loss term {i}: {a} vs {b} ({l_dev:?} vs {l_cpu:?})"
        );
    }
    assert_eq!(g_dev.len(), g_cpu.len());
    for (name, want) in &g_cpu {
        let got = &g_dev[name];
        let scale = want.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let err = got
            .iter()
            .zip(want)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        assert!(
            err <= 1e-3 * scale + 1e-7,
            "gradient of {name}: max error {err:.3e}, scale {scale:.3e}"
        );
    }
}
test_device!(
    silot_forward_loss_and_gradients_match_cpu,
    silot_forward_cpu,
    silot_forward_cuda
);

/// Parameters (sorted by name) and losses after `steps` training steps from the smoke config.
fn train(dev: &Device, steps: usize) -> (Vec<Vec<f64>>, Vec<f64>) {
    train_seeded(dev, steps, smoke_cfg().train.seed)
}

/// [`train`] under training seed `seed`.
fn train_seeded(dev: &Device, steps: usize, seed: u64) -> (Vec<Vec<f64>>, Vec<f64>) {
    let mut cfg = smoke_cfg();
    cfg.train.seed = seed;
    let mut tr = Trainer::new(&cfg, dev).unwrap();
    let clip = moving_squares(4, 4, 24, 24, 3).to_device(dev).unwrap();
    let off = Tensor::zeros((4, 2), DType::F32, dev).unwrap();
    let losses = (0..steps)
        .map(|_| tr.train_step(&clip, &off).unwrap().loss.total)
        .collect();
    let params = tr
        .vars()
        .iter()
        .map(|(_, v)| values(v.as_tensor()))
        .collect();
    (params, losses)
}

/// One training step on `dev` against the CPU's; on the CPU itself, against what Adam's first
/// step must be: every parameter moves by at most `lr` (`lr·g/(|g| + ε)`, whatever clipping and
/// gradient noise did to `g`), and those with a clear gradient by almost exactly `lr`.
fn one_adam_step_matches_cpu(dev: &Device) {
    let lr = smoke_cfg().train.lr;
    if dev.is_cpu() {
        let (start, _) = train(dev, 0);
        let (after, losses) = train(dev, 1);
        assert!(losses[0].is_finite());
        let moves: Vec<f64> = after
            .iter()
            .flatten()
            .zip(start.iter().flatten())
            .map(|(a, b)| (a - b).abs())
            .collect();
        let worst = moves.iter().fold(0.0f64, |m, &x| m.max(x));
        assert!(
            worst <= lr * (1.0 + 1e-5),
            "a parameter moved by {worst:.6e} > lr"
        );
        let full = moves.iter().filter(|&&m| m >= 0.9 * lr).count();
        assert!(
            full * 2 > moves.len(),
            "only {full} of {} parameters moved by about lr",
            moves.len()
        );
        return;
    }
    let (p_dev, l_dev) = train(dev, 1);
    let (p_cpu, l_cpu) = train(&Device::Cpu, 1);
    assert!((l_dev[0] - l_cpu[0]).abs() <= 1e-3 * (1.0 + l_cpu[0].abs()));
    let (mut worst, mut sum, mut n) = (0.0f64, 0.0, 0usize);
    for (a, b) in p_dev.iter().flatten().zip(p_cpu.iter().flatten()) {
        let e = (a - b).abs();
        worst = worst.max(e);
        sum += e;
        n += 1;
    }
    assert!(
        worst <= 2.0 * lr + 1e-6,
        "parameters differ by up to {worst:.3e}"
    );
    assert!(
        sum / n as f64 <= lr / 100.0,
        "parameters differ by {:.3e} on average",
        sum / n as f64
    );
}
test_device!(one_adam_step_matches_cpu, adam_step_cpu, adam_step_cuda);

fn training_is_reproducible(dev: &Device) {
    let (pa, la) = train(dev, 3);
    let (pb, lb) = train(dev, 3);
    assert_same_training(dev, (&pa, &la), (&pb, &lb));
}
test_device!(
    training_is_reproducible,
    reproducible_cpu,
    reproducible_cuda
);

/// Two trainings (parameters, losses) on `dev` agree: to rounding on a GPU (atomic adds in
/// some backward kernels), exactly on the CPU.
fn assert_same_training(
    dev: &Device,
    (pa, la): (&[Vec<f64>], &[f64]),
    (pb, lb): (&[Vec<f64>], &[f64]),
) {
    for (a, b) in la.iter().zip(lb) {
        assert!(
            (a - b).abs() <= 1e-5 * (1.0 + b.abs()),
            "losses {la:?} vs {lb:?}"
        );
    }
    let worst = pa
        .iter()
        .flatten()
        .zip(pb.iter().flatten())
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    let mean = pa
        .iter()
        .flatten()
        .zip(pb.iter().flatten())
        .map(|(a, b)| (a - b).abs())
        .sum::<f64>()
        / pa.iter().map(Vec::len).sum::<usize>() as f64;
    let lr = smoke_cfg().train.lr;
    assert!(
        worst <= 2.0 * lr && mean <= 1e-5,
        "parameters differ by up to {worst:.3e}, {mean:.3e} on average"
    );
    if dev.is_cpu() {
        assert_eq!(la, lb);
        assert_eq!(pa, pb);
    }
}

/// Two trainers at once, one per thread, each on a device handle of its own (what `silot train
/// --seed A,B` does; on CUDA each thread's kernels go to its own stream) train as each does
/// alone.
fn concurrent_trainers_train_as_alone(dev: &Device) {
    let own_device = || {
        if dev.is_cuda() {
            let d = Device::new_cuda(0).unwrap();
            silot::nn::prepare_device(&d);
            d
        } else {
            Device::Cpu
        }
    };
    let seeds = [3u64, 4];
    let alone: Vec<_> = seeds
        .iter()
        .map(|&s| train_seeded(&own_device(), 3, s))
        .collect();
    let together: Vec<_> = std::thread::scope(|scope| {
        let runs: Vec<_> = seeds
            .iter()
            .map(|&s| {
                let own_device = &own_device;
                scope.spawn(move || train_seeded(&own_device(), 3, s))
            })
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    for ((pa, la), (pb, lb)) in alone.iter().zip(&together) {
        assert_same_training(dev, (pa, la), (pb, lb));
    }
    assert_ne!(
        alone[0].1, alone[1].1,
        "the two seeds should train differently"
    );
}
test_device!(
    concurrent_trainers_train_as_alone,
    concurrent_trainers_cpu,
    concurrent_trainers_cuda
);

/// The object-centric wrapper's encoder on `dev` against the same model stepped directly in
/// f64 on the CPU: two streams, three frames; every slot's presence, depth and appearance.
fn encoder_matches_cpu(dev: &Device) {
    use silot::wrapper::ObjectEncoder;
    let frames = moving_squares(2, 3, 24, 24, 4)
        .permute((1, 0, 3, 4, 2))
        .unwrap()
        .affine(255.0, 0.0)
        .unwrap()
        .round()
        .unwrap()
        .to_dtype(DType::U8)
        .unwrap(); // (T, B, H, W, 3)
    let cfg = smoke_cfg();
    let a = cfg.model.n_what;
    // Per frame: (pres, depth, what) of every slot, streams then slots.
    let got: Vec<Vec<f64>> = {
        let (vm, model) = Silot::build(&cfg.model, 6, DType::F32, dev).unwrap();
        let mut enc = ObjectEncoder::from_model(model, vm, cfg.clone(), dev, 0);
        (0..3)
            .map(|t| {
                let v: Vec<u8> = frames
                    .get(t)
                    .unwrap()
                    .flatten_all()
                    .unwrap()
                    .to_vec1()
                    .unwrap();
                let x = ndarray::Array4::from_shape_vec((2, 24, 24, 3), v).unwrap();
                let o = enc.encode(x.view(), &[t == 0, t == 0]).unwrap();
                let f = o.features();
                f.outer_iter()
                    .flat_map(|slots| {
                        slots
                            .outer_iter()
                            .flat_map(|row| {
                                let mut r = vec![row[0] as f64, row[5] as f64];
                                r.extend(row.iter().skip(6).map(|&x| x as f64));
                                r
                            })
                            .collect::<Vec<_>>()
                    })
                    .collect()
            })
            .collect()
    };
    let want: Vec<Vec<f64>> = {
        let cpu = Device::Cpu;
        let (_vm, model) = Silot::build(&cfg.model, 6, DType::F64, &cpu).unwrap();
        let k = cfg.model.eval_objects();
        let mut state = model.initial_state(2, k, None, &cpu).unwrap();
        (0..3u64)
            .map(|t| {
                let x = frames
                    .get(t as usize)
                    .unwrap()
                    .to_dtype(DType::F64)
                    .unwrap()
                    .affine(1.0 / 255.0, 0.0)
                    .unwrap()
                    .permute((0, 3, 1, 2))
                    .unwrap()
                    .contiguous()
                    .unwrap();
                let mut ctx = StepCtx::encode(silot::seed::mix_seed(0, t));
                let out = model.step(&x, None, &state, &mut ctx).unwrap();
                state = out.state.detach();
                let o = &state.objects;
                let (pres, depth, what) = (values(&o.pres), values(&o.depth), values(&o.what));
                (0..2 * k)
                    .flat_map(|i| {
                        let mut r = vec![pres[i], depth[i]];
                        r.extend_from_slice(&what[i * a..(i + 1) * a]);
                        r
                    })
                    .collect()
            })
            .collect()
    };
    for (t, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_close(&format!("encoder objects, frame {t}"), g, w, 2e-3);
    }
}
test_device!(encoder_matches_cpu, encoder_cpu, encoder_cuda);
