//! Training: the smoke config's loss falls on a fixed batch, same seed → bit-identical loss
//! trajectory, checkpoint save → load gives bit-identical outputs and resumes, `train::run` writes
//! its run directory.

use candle_core::{DType, Device, Tensor};
use silot::model::config::{RunConfig, StageSteps};
use silot::model::StepCtx;
use silot::train::{self, TrainOptions, Trainer};

use crate::model_util::{cpu_opts, moving_squares, smoke_cfg};

fn loss_falls_on_a_fixed_batch(dev: &Device) {
    // 90 updates on one batch (T_dyn = 2 during the first `n_curric` = 100 steps of the smoke
    // config): the loss must fall by more than 2x.
    let cfg = smoke_cfg();
    let mut tr = Trainer::new(&cfg, dev).unwrap();
    let clip = moving_squares(4, 4, 24, 24, 3).to_device(dev).unwrap();
    let off = Tensor::zeros((4, 2), DType::F32, dev).unwrap();
    let losses: Vec<f64> = (0..90)
        .map(|_| tr.train_step(&clip, &off).unwrap().loss.total)
        .collect();
    let first = losses[0];
    let late = losses[80..].iter().sum::<f64>() / 10.0;
    assert!(late * 2.0 < first, "loss {first} → {late}: {losses:?}");
}
silot::test_device!(
    loss_falls_on_a_fixed_batch,
    loss_falls_on_a_fixed_batch_cpu,
    loss_falls_on_a_fixed_batch_cuda
);

#[test]
fn same_seed_same_loss_trajectory() {
    let cfg = smoke_cfg();
    let dev = Device::Cpu;
    let clip = moving_squares(4, 4, 24, 24, 4);
    let off = Tensor::zeros((4, 2), DType::F32, &dev).unwrap();
    let traj = || {
        let mut tr = Trainer::new(&cfg, &dev).unwrap();
        (0..4)
            .map(|_| tr.train_step(&clip, &off).unwrap().loss)
            .collect::<Vec<_>>()
    };
    let (a, b) = (traj(), traj());
    assert_eq!(a, b);
    assert_ne!(a[0].total, a[3].total);
}

#[test]
fn learning_rate_ramps_up_after_the_training_wheels_when_asked() {
    // Smoke config: wheels on for 5 steps; a 3-step warm-up gives lr/3, 2lr/3, lr, lr from there.
    let mut cfg = smoke_cfg();
    cfg.train.wheels_off_lr_warmup = 3;
    let lr = cfg.train.lr;
    let dev = Device::Cpu;
    let clip = moving_squares(2, 4, 24, 24, 5);
    let off = Tensor::zeros((2, 2), DType::F32, &dev).unwrap();
    let mut tr = Trainer::new(&cfg, &dev).unwrap();
    let got: Vec<f64> = (0..9)
        .map(|_| tr.train_step(&clip, &off).unwrap().lr / lr)
        .collect();
    let want = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0 / 3.0, 2.0 / 3.0, 1.0, 1.0];
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() < 1e-12, "{got:?}");
    }
}

#[test]
fn kl_beta_weights_the_kl_terms_of_the_update_not_of_the_log() {
    // The same first step under β = 1 and β = 0.25: the same forward (the logged terms are the
    // unweighted ELBO), a different gradient, different weights after.
    let dev = Device::Cpu;
    let clip = moving_squares(2, 4, 24, 24, 8);
    let off = Tensor::zeros((2, 2), DType::F32, &dev).unwrap();
    let step = |beta: f64| {
        let mut cfg = smoke_cfg();
        cfg.train.kl_beta = beta;
        cfg.train.training_wheels_steps = 0;
        let mut tr = Trainer::new(&cfg, &dev).unwrap();
        let stats = tr.train_step(&clip, &off).unwrap();
        let weights: Vec<Vec<f32>> = tr
            .vars()
            .iter()
            .map(|(_, v)| v.flatten_all().unwrap().to_vec1().unwrap())
            .collect();
        (stats, weights)
    };
    let ((elbo, w_elbo), (beta, w_beta)) = (step(1.0), step(0.25));
    assert_eq!(
        elbo.loss, beta.loss,
        "the logged terms are the unweighted ELBO"
    );
    assert!(elbo.loss.prop_kl + elbo.loss.disc_kl + elbo.loss.count_prior_kl > 0.0);
    assert_ne!(elbo.grad_norm, beta.grad_norm);
    assert_ne!(w_elbo, w_beta);
}

#[test]
fn train_only_updates_the_named_parameters_and_nothing_else() {
    let mut cfg = smoke_cfg();
    cfg.train.train_only = vec!["propagation.pres".into()];
    // No training wheels (they stop the presence gradient) and no gradient noise (it would move
    // the trained parameters without a gradient).
    cfg.train.training_wheels_steps = 0;
    cfg.train.gradient_noise = false;
    let dev = Device::Cpu;
    let clip = moving_squares(2, 4, 24, 24, 7);
    let off = Tensor::zeros((2, 2), DType::F32, &dev).unwrap();
    let mut tr = Trainer::new(&cfg, &dev).unwrap();
    let values = |tr: &Trainer| -> Vec<(String, Vec<f32>)> {
        tr.vars()
            .iter()
            .map(|(n, v)| (n.clone(), v.flatten_all().unwrap().to_vec1().unwrap()))
            .collect()
    };
    let before = values(&tr);
    for _ in 0..2 {
        tr.train_step(&clip, &off).unwrap();
    }
    let after = values(&tr);
    let mut changed = 0;
    for ((name, b), (_, a)) in before.iter().zip(&after) {
        let trained = name.starts_with("propagation.pres.");
        if trained {
            changed += usize::from(a != b);
        } else {
            assert_eq!(
                a, b,
                "{name} changed though train_only names only propagation.pres"
            );
        }
    }
    assert!(changed > 0, "no propagation.pres parameter changed");
    // Adam holds state for the trained parameters only.
    assert!(tr
        .adam
        .vars()
        .iter()
        .all(|(n, _)| n.starts_with("propagation.pres.")));
    // A prefix must be whole name parts and name something.
    for bad in ["propagation.pre", "nothing"] {
        cfg.train.train_only = vec![bad.into()];
        let err = Trainer::new(&cfg, &dev)
            .err()
            .expect("bad prefix accepted")
            .to_string();
        assert!(err.contains("train_only") && err.contains(bad), "{err}");
        assert!(
            err.contains("propagation.pres"),
            "the groups are listed: {err}"
        );
    }
}

fn eval_out(tr: &Trainer, clip: &Tensor) -> Vec<f32> {
    let st = tr.model.initial_state(4, 4, None, &Device::Cpu).unwrap();
    let out = tr
        .model
        .run_clip(clip, st, &mut StepCtx::eval(1), None)
        .unwrap();
    Tensor::stack(&out.reconstructions, 0)
        .unwrap()
        .flatten_all()
        .unwrap()
        .to_vec1()
        .unwrap()
}

#[test]
fn checkpoint_round_trip_is_bit_identical_and_resumes() {
    let cfg = smoke_cfg();
    let dev = Device::Cpu;
    let dir = tempfile::tempdir().unwrap();
    let clip = moving_squares(4, 4, 24, 24, 6);
    let off = Tensor::zeros((4, 2), DType::F32, &dev).unwrap();
    let mut a = Trainer::new(&cfg, &dev).unwrap();
    for _ in 0..3 {
        a.train_step(&clip, &off).unwrap();
    }
    a.save(dir.path()).unwrap();
    let mut other = cfg.clone();
    other.train.seed += 1;
    let mut b = Trainer::new(&other, &dev).unwrap();
    assert_ne!(eval_out(&a, &clip), eval_out(&b, &clip));
    // A different config is refused.
    assert!(b.load(dir.path()).is_err());
    let mut b = Trainer::new(&cfg, &dev).unwrap();
    b.load(dir.path()).unwrap();
    assert_eq!(b.progress, a.progress);
    assert_eq!(eval_out(&a, &clip), eval_out(&b, &clip));
    // Continuing both gives the same next step (optimiser state restored).
    let la = a.train_step(&clip, &off).unwrap().loss;
    let lb = b.train_step(&clip, &off).unwrap().loss;
    assert_eq!(la, lb);
}

/// A source of fixed synthetic clips.
struct Squares(u64);

impl train::source::ClipSource for Squares {
    fn next_batch(
        &mut self,
        spec: &train::source::ClipSpec,
        _rng: &mut silot::rng::SeededRng,
    ) -> silot::Result<train::source::ClipBatch> {
        self.0 += 1;
        Ok(squares_batch(spec.batch, spec.n_frames, self.0 % 3, None))
    }
}

#[test]
fn time_limit_stops_with_a_checkpoint_and_resumes() {
    let mut cfg = smoke_cfg();
    cfg.train.checkpoint_every = 1000; // only the time limit writes a checkpoint here
    let dir = tempfile::tempdir().unwrap();
    let opts = |limit: Option<std::time::Duration>| TrainOptions {
        time_limit: limit,
        ..cpu_opts(Some(50))
    };
    // A limit shorter than one step: exactly one step, then a checkpoint.
    let tiny = Some(std::time::Duration::from_nanos(1));
    let s = train::run(&cfg, dir.path(), &mut Squares(0), opts(tiny)).unwrap();
    assert_eq!((s.steps, s.timed_out), (1, true));
    let state = std::fs::read_to_string(dir.path().join("checkpoint/state.json")).unwrap();
    assert!(state.contains("\"step\": 1"), "{state}");
    // Resumed with the same limit: one more step, nothing lost.
    let s = train::run(&cfg, dir.path(), &mut Squares(0), opts(tiny)).unwrap();
    assert_eq!((s.steps, s.timed_out), (2, true));
    // Without a limit it runs to the step cap.
    let s = train::run(&cfg, dir.path(), &mut Squares(0), opts(None)).unwrap();
    assert_eq!((s.steps, s.timed_out), (50, false));
}

#[test]
fn reset_optimizer_resumes_without_the_optimizer_file() {
    let mut cfg = smoke_cfg();
    cfg.train.checkpoint_every = 3;
    let dir = tempfile::tempdir().unwrap();
    let opts = |steps, reset_optimizer| TrainOptions {
        reset_optimizer,
        ..cpu_opts(Some(steps))
    };
    train::run(&cfg, dir.path(), &mut Squares(0), opts(3, false)).unwrap();
    let ckpt = dir.path().join("checkpoint");
    let weights = std::fs::read(ckpt.join("weights.safetensors")).unwrap();
    std::fs::remove_file(ckpt.join("optimizer.safetensors")).unwrap();
    // A plain resume names the missing file; nothing in the run directory is touched.
    let err = train::run(&cfg, dir.path(), &mut Squares(0), opts(6, false)).unwrap_err();
    assert!(err.to_string().contains("optimizer.safetensors"), "{err}");
    assert_eq!(
        std::fs::read(ckpt.join("weights.safetensors")).unwrap(),
        weights
    );
    // With a fresh optimizer it continues from step 3 (the step count, and with it the
    // curriculum and count-prior schedule, carries on).
    let s = train::run(&cfg, dir.path(), &mut Squares(0), opts(6, true)).unwrap();
    assert_eq!(s.steps, 6);
    assert!(ckpt.join("optimizer.safetensors").exists());
    assert_ne!(
        std::fs::read(ckpt.join("weights.safetensors")).unwrap(),
        weights
    );
}

#[test]
fn run_writes_run_dir_and_resumes() {
    let mut cfg = smoke_cfg();
    cfg.train.steps = 12;
    // The validation at step 10 is eligible for best/ (the smoke config's own start is 20).
    cfg.train.patience_start = 10;
    let dir = tempfile::tempdir().unwrap();
    let opts = |steps| cpu_opts(Some(steps));
    let s = train::run(&cfg, dir.path(), &mut Squares(0), opts(6)).unwrap();
    assert_eq!(s.steps, 6);
    for f in ["config.toml", "metrics.jsonl", "checkpoint/state.json"] {
        assert!(dir.path().join(f).exists(), "{f}");
    }
    // Lines a killed run logged after its checkpoint (step 6) are dropped on resume, with a torn
    // last line: each step is logged once.
    let metrics = dir.path().join("metrics.jsonl");
    let text = std::fs::read_to_string(&metrics).unwrap();
    let last = text.lines().last().unwrap().to_string();
    let later = last.replace("\"step\":6", "\"step\":7");
    assert_ne!(later, last);
    std::fs::write(&metrics, format!("{text}{later}\n{}", &later[..9])).unwrap();
    let s = train::run(&cfg, dir.path(), &mut Squares(0), opts(12)).unwrap();
    assert_eq!((s.steps, s.steps_this_run), (12, 6));
    // Already at the cap: nothing trained, and the summary says so.
    let again = train::run(&cfg, dir.path(), &mut Squares(0), opts(12)).unwrap();
    assert_eq!((again.steps, again.steps_this_run), (12, 0));
    let recs = train::metrics_log::read_metrics(&dir.path().join("metrics.jsonl")).unwrap();
    let train_steps: Vec<u64> = recs
        .iter()
        .filter(|r| r.kind == "train")
        .map(|r| r.step)
        .collect();
    assert_eq!(train_steps, (1..=12).collect::<Vec<_>>());
    assert!(recs.iter().any(|r| r.kind == "val" && r.step == 10));
    assert!(recs.iter().all(|r| r.loss.total.is_finite()));
    // Train lines carry the time spent waiting for clips: non-decreasing, within the wall time.
    let waits: Vec<(f64, f64)> = recs
        .iter()
        .filter(|r| r.kind == "train")
        .map(|r| (r.data_wait_s.unwrap(), r.time_s))
        .collect();
    assert!(waits.iter().all(|&(w, t)| (0.0..=t).contains(&w)));
    assert!(waits[..6].windows(2).all(|p| p[0].0 <= p[1].0));
    // The best checkpoint is that of the validation at step 10, the only eligible one.
    let best = std::fs::read_to_string(dir.path().join("best/state.json")).unwrap();
    assert!(best.contains("\"step\": 10"), "{best}");
    // A different config in the same directory is refused.
    let mut other = cfg.clone();
    other.train.lr = 0.5;
    assert!(train::run(&other, dir.path(), &mut Squares(0), opts(13)).is_err());
}

#[test]
fn a_run_resumes_after_a_save_killed_between_any_two_writes() {
    let mut cfg = smoke_cfg();
    (cfg.train.batch_size, cfg.train.n_frames, cfg.train.n_val) = (2, 2, 2);
    cfg.train.checkpoint_every = 2;
    let base = tempfile::tempdir().unwrap();
    train::run(&cfg, base.path(), &mut Squares(0), cpu_opts(Some(2))).unwrap();
    let clip = moving_squares(2, 2, 24, 24, 3);
    let off = Tensor::zeros((2, 2), DType::F32, &Device::Cpu).unwrap();
    for k in 0..8 {
        let dir = tempfile::tempdir().unwrap();
        for f in ["config.toml", "metrics.jsonl"] {
            std::fs::copy(base.path().join(f), dir.path().join(f)).unwrap();
        }
        let ckpt = dir.path().join("checkpoint");
        std::fs::create_dir(&ckpt).unwrap();
        for e in std::fs::read_dir(base.path().join("checkpoint")).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), ckpt.join(e.file_name())).unwrap();
        }
        // Step 3 trained, and its save killed before its (k+1)-th file-system step.
        let mut tr = Trainer::new(&cfg, &Device::Cpu).unwrap();
        tr.load(&ckpt).unwrap();
        tr.train_step(&clip, &off).unwrap();
        let mut n = 0;
        let mut kill = |_: &str| {
            n += 1;
            if n > k {
                Err(silot::Error::Invalid("killed".into()))
            } else {
                Ok(())
            }
        };
        assert!(tr.save_with(&ckpt, &mut kill).is_err(), "{k}");
        // The same command resumes (from step 2 or 3) and goes on to step 4.
        let s = train::run(&cfg, dir.path(), &mut Squares(0), cpu_opts(Some(4))).unwrap();
        assert_eq!(s.steps, 4, "{k}");
        assert!((1..=2).contains(&s.steps_this_run), "{k}: {s:?}");
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(
            names,
            ["checkpoint", "config.toml", "metrics.jsonl"],
            "no temp directory left ({k})"
        );
    }
}

#[test]
fn a_run_starts_beside_logs_but_not_over_another_commands_output() {
    let cfg = smoke_cfg();
    let dir = tempfile::tempdir().unwrap();
    // A script's log written before training: fine.
    let run = dir.path().join("run");
    std::fs::create_dir(&run).unwrap();
    std::fs::write(run.join("train_log.txt"), "GPU x\n").unwrap();
    // And a temp file a run killed while writing its config left: removed.
    std::fs::write(run.join(".config.toml.tmp12345"), "[mo").unwrap();
    train::run(&cfg, &run, &mut Squares(0), cpu_opts(Some(1))).unwrap();
    assert!(run.join("train_log.txt").exists());
    assert!(!run.join(".config.toml.tmp12345").exists());
    // A dataset, or a checkpoint directory itself: refused, nothing written there.
    for (name, file) in [("ds", "meta.json"), ("ck", "state.json")] {
        let d = dir.path().join(name);
        std::fs::create_dir(&d).unwrap();
        std::fs::write(d.join(file), "{}").unwrap();
        let err = train::run(&cfg, &d, &mut Squares(0), cpu_opts(Some(1)))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("not a run directory") && err.contains(file),
            "{err}"
        );
        assert!(!d.join("config.toml").exists());
    }
}

#[test]
fn a_stage_change_rolls_back_only_to_that_stages_best() {
    let cfg = smoke_cfg();
    let dev = Device::Cpu;
    let clip = moving_squares(4, 4, 24, 24, 3);
    let off = Tensor::zeros((4, 2), DType::F32, &dev).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let best = dir.path().join("best");
    let params = |tr: &Trainer| -> Vec<Vec<f32>> {
        tr.vars()
            .iter()
            .map(|(_, v)| v.as_tensor().flatten_all().unwrap().to_vec1().unwrap())
            .collect()
    };
    let mut tr = Trainer::new(&cfg, &dev).unwrap();
    tr.train_step(&clip, &off).unwrap();
    tr.save(&best).unwrap(); // stage 1's best
    let stage1_best = params(&tr);
    tr.train_step(&clip, &off).unwrap();
    assert_ne!(params(&tr), stage1_best);
    // Stage 1 ends: back to its best.
    tr.next_stage(&best).unwrap();
    assert_eq!((tr.progress.stage, params(&tr)), (1, stage1_best.clone()));
    // Stage 2 never improved: best/ is still stage 1's, and the stage change keeps the current
    // weights instead of going back to another stage's.
    tr.train_step(&clip, &off).unwrap();
    let stage2_end = params(&tr);
    assert_ne!(stage2_end, stage1_best);
    tr.next_stage(&best).unwrap();
    assert_eq!((tr.progress.stage, params(&tr)), (2, stage2_end));
}

#[test]
fn resuming_on_another_env_is_refused_unless_allowed() {
    use silot::checkpoint::EnvRecord;
    let cfg = smoke_cfg();
    let env = |id: &str| EnvRecord {
        id: id.into(),
        preset: None,
        frame: [24, 24, 3],
    };
    let opts = |steps, id: &str, allow_env_mismatch| TrainOptions {
        env: Some(env(id)),
        allow_env_mismatch,
        ..cpu_opts(Some(steps))
    };
    let dir = tempfile::tempdir().unwrap();
    train::run(&cfg, dir.path(), &mut Squares(0), opts(1, "smoke", false)).unwrap();
    let recorded = silot::checkpoint::recorded_env(&dir.path().join("checkpoint")).unwrap();
    assert_eq!(recorded, Some(env("smoke")));
    let err = train::run(&cfg, dir.path(), &mut Squares(0), opts(2, "other", false))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("trained on `smoke`") && err.contains("used on `other`"),
        "{err}"
    );
    let s = train::run(&cfg, dir.path(), &mut Squares(0), opts(2, "other", true)).unwrap();
    assert_eq!(s.steps, 2);
}

#[test]
fn early_stopping_moves_through_stages() {
    let mut cfg = smoke_cfg();
    cfg.train.batch_size = 2;
    cfg.train.n_frames = 2;
    cfg.train.n_val = 2;
    cfg.train.eval_every = 1;
    cfg.train.patience = 1;
    cfg.train.patience_start = 1;
    cfg.train.n_stages = 2;
    cfg.train.steps = 40;
    let dir = tempfile::tempdir().unwrap();
    let opts = cpu_opts(None);
    let s = train::run(&cfg, dir.path(), &mut Squares(0), opts).unwrap();
    assert!(s.finished && s.stage == 1, "{s:?}");
    assert!(s.steps < 40);
    let recs = train::metrics_log::read_metrics(&dir.path().join("metrics.jsonl")).unwrap();
    let stage1: Vec<_> = recs
        .iter()
        .filter(|r| r.stage == 1 && r.kind == "train")
        .collect();
    assert!(!stage1.is_empty());
    for r in &stage1 {
        assert!((r.lr - cfg.train.lr / 3.0).abs() < 1e-15);
        // Stage 2 quirk: constant count-prior log-odds 0.0125.
        assert_eq!(r.count_prior_log_odds, 0.0125);
    }
    assert_eq!(stage1[0].stage_step, 1);
    assert!(dir.path().join("best/state.json").exists());
}

/// Scores `-min(stage_step, 4)`: improves until step 4, then flat.
struct Plateau;

impl train::Validator for Plateau {
    fn validate(&mut self, tr: &Trainer) -> silot::Result<train::Validation> {
        Ok(train::Validation {
            score: -(tr.progress.stage_step.min(4) as f64),
            loss: Default::default(),
            objects: None,
            full_frame: None,
            mota: None,
            stream: None,
        })
    }
}

#[test]
fn custom_validator_drives_early_stopping() {
    let mut cfg = smoke_cfg();
    cfg.train.batch_size = 2;
    cfg.train.n_frames = 2;
    cfg.train.eval_every = 1;
    cfg.train.patience = 2;
    cfg.train.patience_start = 1;
    cfg.train.n_stages = 1;
    let dir = tempfile::tempdir().unwrap();
    let opts = cpu_opts(Some(30));
    let s =
        train::run_with_validator(&cfg, dir.path(), &mut Squares(0), &mut Plateau, opts).unwrap();
    assert!(s.finished);
    assert_eq!(s.steps, 6);
    assert_eq!(s.best_val, Some(-4.0));
    let recs = train::metrics_log::read_metrics(&dir.path().join("metrics.jsonl")).unwrap();
    let scores: Vec<f64> = recs.iter().filter_map(|r| r.score).collect();
    assert_eq!(scores, vec![-1.0, -2.0, -3.0, -4.0, -4.0, -4.0]);
}

#[test]
fn start_stage_moves_a_run_forward_once() {
    let mut cfg = smoke_cfg();
    cfg.train.n_stages = 3;
    cfg.train.checkpoint_every = 2;
    assert!(cfg.train.n_curric > 20 && cfg.train.n_frames > 2);
    let dir = tempfile::tempdir().unwrap();
    let opts = |steps, start_stage| TrainOptions {
        start_stage,
        ..cpu_opts(Some(steps))
    };
    let run = |steps, start_stage| {
        train::run(&cfg, dir.path(), &mut Squares(0), opts(steps, start_stage))
    };
    assert_eq!(run(4, None).unwrap().stage, 0);
    // The move is saved even when no step follows.
    assert_eq!(run(4, Some(2)).unwrap().stage, 1);
    let state = std::fs::read_to_string(dir.path().join("checkpoint/state.json")).unwrap();
    assert!(state.contains("\"stage\": 1"), "{state}");
    // Stage 2 from step 5 on: its learning rate, all frames, the constant count prior.
    assert_eq!(run(8, Some(2)).unwrap().stage, 1);
    // Passed again (the next chunk of the same run): no second move.
    assert_eq!(run(10, Some(2)).unwrap().stage, 1);
    let recs = train::metrics_log::read_metrics(&dir.path().join("metrics.jsonl")).unwrap();
    let train_recs: Vec<_> = recs.iter().filter(|r| r.kind == "train").collect();
    assert_eq!(train_recs.len(), 10);
    for r in &train_recs {
        let second = r.step > 4;
        assert_eq!(r.stage, usize::from(second), "step {}", r.step);
        if second {
            assert_eq!(r.stage_step, r.step - 4);
            assert!((r.lr - cfg.train.lr / 3.0).abs() < 1e-15);
            assert_eq!(r.n_frames, cfg.train.n_frames);
            assert_eq!(r.count_prior_log_odds, 0.0125);
        } else {
            assert_eq!((r.lr, r.n_frames), (cfg.train.lr, 2));
        }
    }
    // Backwards, or past the last stage: refused, the run directory untouched.
    let state = std::fs::read(dir.path().join("checkpoint/state.json")).unwrap();
    let err = run(12, Some(1)).unwrap_err().to_string();
    assert!(err.contains("already in stage 2"), "{err}");
    let err = run(12, Some(4)).unwrap_err().to_string();
    assert!(err.contains("stages 1 to 3"), "{err}");
    // A stage that does not exist makes no run directory.
    let fresh = dir.path().join("never");
    let err = train::run(&cfg, &fresh, &mut Squares(0), opts(1, Some(0))).unwrap_err();
    assert!(err.to_string().contains("stages 1 to 3"), "{err}");
    assert!(!fresh.exists());
    assert_eq!(
        std::fs::read(dir.path().join("checkpoint/state.json")).unwrap(),
        state
    );
}

#[test]
fn max_stage_steps_ends_each_stage() {
    let mut cfg = smoke_cfg();
    cfg.train.n_stages = 2;
    cfg.train.max_stage_steps = Some(StageSteps::Every(3));
    cfg.train.patience_start = 1000; // early stopping must not interfere
    let opts = |steps| cpu_opts(Some(steps));
    let dir = tempfile::tempdir().unwrap();
    let s = train::run(&cfg, dir.path(), &mut Squares(0), opts(20)).unwrap();
    assert!(s.finished && s.stage == 1 && s.steps == 6, "{s:?}");
    let recs = train::metrics_log::read_metrics(&dir.path().join("metrics.jsonl")).unwrap();
    let stages: Vec<(u64, usize, u64)> = recs
        .iter()
        .filter(|r| r.kind == "train")
        .map(|r| (r.step, r.stage, r.stage_step))
        .collect();
    let want = vec![
        (1, 0, 1),
        (2, 0, 2),
        (3, 0, 3),
        (4, 1, 1),
        (5, 1, 2),
        (6, 1, 3),
    ];
    assert_eq!(stages, want);
    // One cap per stage: stage 1 capped, stage 2 not.
    cfg.train.max_stage_steps = Some(StageSteps::PerStage(vec![3]));
    let per = tempfile::tempdir().unwrap();
    let s = train::run(&cfg, per.path(), &mut Squares(0), opts(9)).unwrap();
    assert!(!s.finished && s.stage == 1 && s.steps == 9, "{s:?}");
    // A cap of 0 steps, or caps for more stages than there are, are refused by name.
    for caps in [
        StageSteps::Every(0),
        StageSteps::PerStage(vec![3, 0]),
        StageSteps::PerStage(vec![1, 2, 3]),
    ] {
        cfg.train.max_stage_steps = Some(caps);
        let other = tempfile::tempdir().unwrap();
        let err = train::run(&cfg, other.path(), &mut Squares(0), opts(2)).unwrap_err();
        assert!(err.to_string().contains("max_stage_steps"), "{err}");
    }
}

#[test]
fn branch_from_continues_another_run_under_a_changed_train_section() {
    let mut cfg = smoke_cfg();
    cfg.train.checkpoint_every = 2;
    let root = tempfile::tempdir().unwrap();
    let (trunk, branch) = (root.path().join("trunk"), root.path().join("branch"));
    let s = train::run(&cfg, &trunk, &mut Squares(0), cpu_opts(Some(4))).unwrap();
    assert_eq!(s.steps, 4);

    let mut changed = cfg.clone();
    changed.train.batch_size = cfg.train.batch_size * 2;
    changed.train.lr = cfg.train.lr * 0.5;
    // A training-only key of [model] may change too (not a parameter, not used at evaluation).
    changed.model.discovery_dropout = 0.8;
    changed.model.kl_pres_weight_gradient = silot::model::config::PresWeightGradient::DISCOVERY;
    changed.model.priors.hw.std = 0.25;
    changed.model.obj_concrete_temp = 0.5;
    // So may the number of slots (the frame size likewise: no parameter depends on either).
    changed.model.n_objects = cfg.model.n_objects + 2;
    changed.model.n_objects_eval = Some(cfg.model.n_objects + 5);
    let opts = |steps| TrainOptions {
        branch_from: Some(trunk.join("checkpoint")),
        ..cpu_opts(Some(steps))
    };
    let run = |steps| train::run(&changed, &branch, &mut Squares(0), opts(steps));
    // No step to take: the branch holds the trunk's parameters and Adam state as they were.
    assert_eq!(run(4).unwrap().steps, 4);
    for file in ["weights.safetensors", "optimizer.safetensors"] {
        let read =
            |dir: &std::path::Path| std::fs::read(dir.join("checkpoint").join(file)).unwrap();
        assert_eq!(read(&trunk), read(&branch), "{file}");
    }
    // It goes on from step 4 under its own config; passed again it resumes (no second start).
    assert_eq!(run(6).unwrap().steps, 6);
    assert_eq!(run(8).unwrap().steps, 8);
    let recs = train::metrics_log::read_metrics(&branch.join("metrics.jsonl")).unwrap();
    let train_recs: Vec<_> = recs.iter().filter(|r| r.kind == "train").collect();
    assert_eq!(
        train_recs.iter().map(|r| r.step).collect::<Vec<_>>(),
        vec![5, 6, 7, 8]
    );
    assert!(train_recs.iter().all(|r| r.lr == changed.train.lr));
    let saved = std::fs::read_to_string(branch.join("config.toml")).unwrap();
    assert_eq!(saved, changed.to_toml().unwrap());

    // Another model: refused, naming the difference, before a run directory is made (the
    // presence logit's temperature `obj_temp` scales what the weights give, unlike the
    // concrete temperature above).
    let mut other = changed.clone();
    other.model.n_hidden += 1;
    other.model.obj_temp = 2.0;
    let fresh = root.path().join("other");
    let err = train::run(
        &other,
        &fresh,
        &mut Squares(0),
        TrainOptions {
            branch_from: Some(trunk.join("checkpoint")),
            ..cpu_opts(Some(6))
        },
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("another model")
            && err.contains("model.n_hidden")
            && err.contains("model.obj_temp"),
        "{err}"
    );
    assert!(!fresh.exists());
}

#[test]
fn branch_onto_object_interaction_starts_as_the_independent_model() {
    let mut cfg = smoke_cfg();
    cfg.model.independent_prop = true;
    cfg.train.checkpoint_every = 2;
    let root = tempfile::tempdir().unwrap();
    let trunk = root.path().join("trunk");
    train::run(&cfg, &trunk, &mut Squares(0), cpu_opts(Some(2))).unwrap();
    let mut joint = cfg.clone();
    joint.model.independent_prop = false;
    let opts = |from: &std::path::Path, steps, reset_optimizer| TrainOptions {
        branch_from: Some(from.join("checkpoint")),
        reset_optimizer,
        ..cpu_opts(Some(steps))
    };
    // A refused branch names why and makes no run directory.
    let refused = |cfg: &RunConfig, name: &str, opts: TrainOptions| {
        let dir = root.path().join(name);
        let err = train::run(cfg, &dir, &mut Squares(0), opts).unwrap_err();
        assert!(!dir.exists(), "{name}");
        err.to_string()
    };
    // Adam's saved state holds no moments for the relation MLP.
    let err = refused(&joint, "kept_adam", opts(&trunk, 2, false));
    assert!(
        err.contains("--reset-optimizer") && err.contains("independent_prop"),
        "{err}"
    );
    // No step to take: the trunk's variables as they were, the relation MLP fresh with its last
    // layer (`rest.layerN`, after the hidden layers) at zero: it adds 0, the same model.
    let branch = root.path().join("branch");
    let run = |steps| train::run(&joint, &branch, &mut Squares(0), opts(&trunk, steps, true));
    assert_eq!(run(2).unwrap().steps, 2);
    let weights = |dir: &std::path::Path| {
        candle_core::safetensors::load(dir.join("checkpoint/weights.safetensors"), &Device::Cpu)
            .unwrap()
    };
    let values = |t: &Tensor| t.flatten_all().unwrap().to_vec1::<f32>().unwrap();
    let (before, after) = (weights(&trunk), weights(&branch));
    for (name, t) in &before {
        assert_eq!(values(t), values(&after[name]), "{name}");
    }
    let last = format!(
        "prop_attention.rel.rest.layer{}.",
        cfg.model.attention_mlp.len() - 1
    );
    let added: Vec<_> = after.keys().filter(|n| !before.contains_key(*n)).collect();
    assert!(added.iter().any(|n| n.starts_with(&last)), "{added:?}");
    for name in added {
        assert!(name.starts_with("prop_attention.rel."), "{name}");
        let zero = values(&after[name]).iter().all(|v| *v == 0.0);
        if name.starts_with(&last) {
            assert!(zero, "{name}");
        } else if name.ends_with(".weight") {
            assert!(!zero, "{name}: earlier layers keep their initialisation");
        }
    }
    // Trained on, the last layer learns; the branch's saved config says interaction.
    assert_eq!(run(4).unwrap().steps, 4);
    let trained = values(&weights(&branch)[&format!("{last}weight")]);
    assert!(trained.iter().any(|v| *v != 0.0));
    let saved = std::fs::read_to_string(branch.join("config.toml")).unwrap();
    assert!(saved.contains("independent_prop = false"), "{saved}");

    // The other way (dropping the interaction the checkpoint holds) stays refused.
    let err = refused(&cfg, "dropped", opts(&branch, 4, true));
    assert!(
        err.contains("another model") && err.contains("model.independent_prop"),
        "{err}"
    );
}

#[test]
fn keep_every_keeps_full_checkpoints_of_those_steps() {
    let cfg = smoke_cfg();
    let dir = tempfile::tempdir().unwrap();
    let opts = TrainOptions {
        keep_every: Some(2),
        ..cpu_opts(Some(5))
    };
    train::run(&cfg, dir.path(), &mut Squares(0), opts).unwrap();
    let mut kept: Vec<String> = std::fs::read_dir(dir.path().join("kept"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    kept.sort();
    assert_eq!(kept, ["step-00000002", "step-00000004"]);
    for (name, step) in [("step-00000002", 2), ("step-00000004", 4)] {
        let mut tr = Trainer::new(&cfg, &Device::Cpu).unwrap();
        tr.load(&dir.path().join("kept").join(name)).unwrap();
        assert_eq!(tr.progress.global_step, step);
    }
}

/// `moving_squares` as a clip batch with stream positions.
fn squares_batch(
    b: usize,
    t: usize,
    seed: u64,
    positions: Option<Vec<silot::data::ClipPosition>>,
) -> train::source::ClipBatch {
    let x = moving_squares(b, t, 24, 24, seed);
    let v: Vec<f32> = x
        .permute((0, 1, 3, 4, 2))
        .unwrap()
        .flatten_all()
        .unwrap()
        .to_vec1()
        .unwrap();
    let bytes: Vec<u8> = v.iter().map(|f| (f * 255.0).round() as u8).collect();
    train::source::ClipBatch {
        frames: ndarray::Array5::from_shape_vec((b, t, 24, 24, 3), bytes).unwrap(),
        offsets: vec![[0.0, 0.0]; b],
        positions,
    }
}

/// Training on streams: a clip that continues its slot's previous clip (same episode, starting
/// right after it) starts from the objects that clip ended with; any other starts afresh; with
/// `train.streams` off positions change nothing.
#[test]
fn stream_training_carries_objects_only_into_continuing_clips() {
    use silot::data::ClipPosition;
    let at = |episode, start| ClipPosition {
        episode,
        start,
        len: 2,
    };
    let mut cfg = smoke_cfg();
    cfg.train.streams = true;
    cfg.train.rollout_envs = cfg.train.batch_size.max(2);
    let first = squares_batch(2, 2, 1, Some(vec![at(1, 0), at(1, 0)]));
    // Slot 0 goes on; slot 1 is a new episode; then slot 0 skips a frame and slot 1 goes on.
    let second = squares_batch(2, 2, 2, Some(vec![at(1, 2), at(2, 0)]));
    let third = squares_batch(2, 2, 3, Some(vec![at(1, 5), at(2, 2)]));
    let dev = Device::Cpu;
    let mut tr = Trainer::new(&cfg, &dev).unwrap();
    let continued: Vec<usize> = [&first, &second, &third]
        .iter()
        .map(|b| tr.train_batch(b).unwrap().streams_continued)
        .collect();
    assert_eq!(continued, vec![0, 1, 1]);

    // The carried objects change the update: the same batches without positions (every clip
    // from the null set) give another loss at the second step, and equal ones at the first.
    let plain = |b: &train::source::ClipBatch| train::source::ClipBatch {
        positions: None,
        ..b.clone()
    };
    let mut fresh = Trainer::new(&cfg, &dev).unwrap();
    let l1 = fresh.train_batch(&plain(&first)).unwrap();
    let l2 = fresh.train_batch(&plain(&second)).unwrap();
    let mut streamed = Trainer::new(&cfg, &dev).unwrap();
    let s1 = streamed.train_batch(&first).unwrap();
    let s2 = streamed.train_batch(&second).unwrap();
    assert_eq!(l1.loss, s1.loss);
    assert_ne!(l2.loss, s2.loss);
    assert_eq!(l2.streams_continued, 0);

    // With train.streams off, positions are ignored.
    cfg.train.streams = false;
    let mut off = Trainer::new(&cfg, &dev).unwrap();
    off.train_batch(&first).unwrap();
    let o2 = off.train_batch(&second).unwrap();
    assert_eq!((o2.loss, o2.streams_continued), (l2.loss, 0));
}

/// Training on streams: every checkpoint interval starts new streams with its first batch, and a
/// time limit stops at a checkpoint boundary, so a run resumed from its checkpoint is cut the
/// clips an uninterrupted one is cut.
#[test]
fn stream_training_starts_new_streams_at_checkpoint_boundaries() {
    /// Clips of one running episode per slot; records each batch's `new_streams`.
    struct Recorder(Vec<bool>);
    impl train::source::ClipSource for Recorder {
        fn next_batch(
            &mut self,
            spec: &train::source::ClipSpec,
            _rng: &mut silot::rng::SeededRng,
        ) -> silot::Result<train::source::ClipBatch> {
            let at = silot::data::ClipPosition {
                episode: 1,
                start: (self.0.len() * spec.n_frames) as u64,
                len: spec.n_frames as u64,
            };
            self.0.push(spec.new_streams);
            Ok(squares_batch(
                spec.batch,
                spec.n_frames,
                1,
                Some(vec![at; spec.batch]),
            ))
        }
    }
    let mut cfg = smoke_cfg();
    cfg.train.streams = true;
    cfg.train.rollout_envs = cfg.train.batch_size;
    cfg.train.checkpoint_every = 3;
    let dir = tempfile::tempdir().unwrap();
    let tiny = TrainOptions {
        time_limit: Some(std::time::Duration::from_nanos(1)),
        ..cpu_opts(Some(50))
    };
    // A limit shorter than one step stops at the first boundary, not after one step.
    let mut src = Recorder(Vec::new());
    let s = train::run(&cfg, dir.path(), &mut src, tiny.clone()).unwrap();
    assert_eq!((s.steps, s.timed_out), (3, true));
    // The validation clips first (this run validates on its training source), then steps 0 and
    // 3 (the next, made ahead) start new streams; 1 and 2 go on.
    assert_eq!(src.0, vec![false, true, false, false, true]);
    // Resumed at the boundary: its first batch starts new streams, as the made-ahead one did.
    let mut src = Recorder(Vec::new());
    let s = train::run(&cfg, dir.path(), &mut src, tiny).unwrap();
    assert_eq!((s.steps, s.timed_out), (6, true));
    assert_eq!(src.0, vec![false, true, false, false, true]);
}
