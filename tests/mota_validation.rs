//! `train.stop_criterion = "mota"` (reference §4.8, the synthetic envs' criterion): the
//! validator scores the trainer's model on labelled validation clips exactly as `silot eval`
//! scores a checkpoint (`-(mota + prior_mota)`), `silot train` (one run, replicas) and `silot
//! pretrain` validate with it, and on Atari it is a config error before anything runs.

use std::path::Path;
use std::process::Command;

use candle_core::Device;
use silot::config::ExperimentConfig;
use silot::env::synthetic::Split;
use silot::eval::{evaluate, frames_from, run_tracker};
use silot::train::metrics_log::{read_metrics, MetricsRecord};
use silot::train::source::{rollout_source, CLIP_GAP, VAL_CLIP_GAP};

use crate::model_util::cpu_opts;

/// Scattered MNIST on 24x24 frames (1-2 digits) with the smoke model, sampling latents at
/// evaluation as the MNIST experiment does, validated by MOTA on 3 clips at step 2.
const TINY_MNIST: &str = r#"
[env]
id = "tiny_mnist"

[env.scattered_mnist]
height = 24
width = 24
min_objects = 1
max_objects = 2

[model]
image_size = [24, 24]
anchor = [12.0, 12.0]
object_size = [6, 6]
n_objects = 4
n_what = 8
n_hidden = 8
n_backbone_features = 16
n_passthrough_features = 8
glimpse_encoder = [32]
sprite_decoder = [32]
prop_mlp = [32]
attention_mlp = [16]
eval_noisy = true

[train]
batch_size = 2
n_frames = 4
lr = 1e-2
n_curric = 100
patience_start = 1
eval_every = 2
checkpoint_every = 2
n_val = 3
log_every = 1
seed = 5
val_seed = 4
training_wheels_steps = 1
stop_criterion = "mota"
"#;

fn tiny_mnist() -> ExperimentConfig {
    ExperimentConfig::from_toml(TINY_MNIST, "tiny_mnist.toml").unwrap()
}

fn val_lines(run: &Path) -> Vec<MetricsRecord> {
    read_metrics(&run.join("metrics.jsonl"))
        .unwrap()
        .into_iter()
        .filter(|r| r.kind == "val")
        .collect()
}

/// The validation at step 2 logs `mota`, `prior_mota` and `score = -(mota + prior_mota)`, and
/// these are what the evaluation code path (`silot eval --counts --prior-from 3`'s: the
/// evaluation protocol's clips, the checkpoint loaded as a tracker, `evaluate`) gives for the
/// checkpoint of that step on the same clips with the same seed, bit for bit.
#[test]
fn the_validation_score_is_silot_evals_mota_plus_prior_mota() {
    let exp = tiny_mnist();
    let cfg = exp.run_config("tiny_mnist.toml").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut source = rollout_source(&exp, &cfg, Split::Train, CLIP_GAP, false).unwrap();
    let mut val = rollout_source(&exp, &cfg, Split::Val, VAL_CLIP_GAP, false).unwrap();
    let mut validator = silot::train::validator_for(&exp, &cfg, val.as_mut()).unwrap();
    silot::train::run_with_validator(
        &cfg,
        dir.path(),
        source.as_mut(),
        validator.as_mut(),
        cpu_opts(Some(2)),
    )
    .unwrap();
    let lines = val_lines(dir.path());
    assert_eq!(lines.len(), 1, "{lines:?}");
    let v = &lines[0];
    assert_eq!(v.step, 2);
    let (logged_mota, logged_prior) = (v.mota.unwrap(), v.prior_mota.unwrap());
    let score = v.score.unwrap();
    assert!(score.is_finite() && logged_mota.is_finite() && logged_prior.is_finite());
    // (JSON numbers read back within an ulp.)
    assert!(
        (score + (logged_mota + logged_prior)).abs() < 1e-12,
        "{v:?}"
    );
    // The losses are logged too, on the loss validator's clips.
    assert!(v.loss.reconstruction > 0.0 && v.objects.is_some(), "{v:?}");

    // The validator again on the trainer of the step-2 checkpoint: the logged values exactly.
    let mut trainer = silot::train::Trainer::new(&cfg, &Device::Cpu).unwrap();
    trainer.load(&dir.path().join("checkpoint")).unwrap();
    let again = validator.validate(&trainer).unwrap();
    let m = again.mota.unwrap();
    let (mota, prior_mota) = (m.mota, m.prior_mota);
    assert_eq!(again.score, -(mota + prior_mota));
    assert!((mota - logged_mota).abs() < 1e-12 && (prior_mota - logged_prior).abs() < 1e-12);

    // Independently: the step-2 checkpoint scored by the evaluation code.
    let seed = silot::train::mota_val_seed(cfg.train.val_seed);
    let clips = silot::eval_protocol::split_clips(&exp, Split::Val, 3, seed).unwrap();
    let (frames, gt): (Vec<_>, Vec<_>) = clips.into_iter().map(|c| (c.frames, c.gt)).unzip();
    let mut tracker = silot::trained::SilotTracker::load(dir.path(), &Device::Cpu, seed).unwrap();
    assert_eq!(tracker.checkpoint().1, 2);
    let settings = &exp.eval.metrics;
    let want_mota = evaluate(&run_tracker(&mut tracker, &frames).unwrap(), &gt, settings)
        .unwrap()
        .mota;
    tracker.set_prior_from(Some(3)).unwrap();
    let alone = run_tracker(&mut tracker, &frames).unwrap();
    let want_prior = evaluate(&frames_from(&alone, 3), &frames_from(&gt, 3), settings)
        .unwrap()
        .mota;
    assert_eq!((mota, prior_mota), (want_mota, want_prior));
}

/// The labelled clips are fixed by `val_seed` (not the training seed) and never `silot eval`'s
/// default clips (seed 2); `train::run`, which knows no env, refuses the criterion.
#[test]
fn the_labelled_clips_follow_val_seed_and_run_refuses_mota() {
    let exp = tiny_mnist();
    let mut cfg = exp.run_config("x").unwrap();
    let validator = |cfg: &silot::model::config::RunConfig| {
        let mut val = rollout_source(&exp, cfg, Split::Val, VAL_CLIP_GAP, false).unwrap();
        let loss = silot::train::LossValidator::from_source(cfg, val.as_mut()).unwrap();
        silot::train::MotaValidator::new(&exp, cfg, loss).unwrap()
    };
    let v = validator(&cfg);
    assert_eq!((v.n_clips(), v.prior_from()), (3, 3));
    assert_eq!(v.seed(), (1 << 40) + 4);
    cfg.train.seed = 99;
    assert_eq!(validator(&cfg).seed(), v.seed());
    assert_ne!(v.seed(), 2);
    cfg.train.val_prior_from = 5;
    assert_eq!(validator(&cfg).prior_from(), 5);

    let dir = tempfile::tempdir().unwrap();
    let mut source = rollout_source(&exp, &cfg, Split::Train, CLIP_GAP, false).unwrap();
    let e = silot::train::run(&cfg, dir.path(), source.as_mut(), cpu_opts(Some(1)))
        .unwrap_err()
        .to_string();
    assert!(e.contains("run_with_validator"), "{e}");
}

fn silot_bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_silot"))
}

fn run_silot(args: &[&std::ffi::OsStr]) -> (bool, String, String) {
    let out = silot_bin().args(args).output().expect("run silot");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `silot train --config CONFIG --out OUT --steps 2 EXTRA..`, which must succeed.
fn train(config: &Path, out: &Path, extra: &[&str]) {
    let mut args: Vec<&std::ffi::OsStr> = vec![
        "train".as_ref(),
        "--config".as_ref(),
        config.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
        "--steps".as_ref(),
        "2".as_ref(),
    ];
    args.extend(extra.iter().map(std::ffi::OsStr::new));
    let (ok, _, stderr) = run_silot(&args);
    assert!(ok, "{stderr}");
}

/// `silot train` validates by MOTA as one run and as two data-parallel replicas (rank 0
/// validates; threads and processes log the same scores).
#[test]
fn silot_train_validates_by_mota_alone_and_with_replicas() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("tiny_mnist.toml");
    std::fs::write(&config, TINY_MNIST).unwrap();
    let mut scores = Vec::new();
    for (name, extra) in [
        ("one", &[][..]),
        ("threads", &["--gpus", "2", "--launch", "threads"][..]),
        ("procs", &["--gpus", "2"][..]),
    ] {
        let out = dir.path().join(name);
        train(&config, &out, extra);
        let lines = val_lines(&out);
        assert_eq!(lines.len(), 1, "{name}: {lines:?}");
        let v = &lines[0];
        let (m, p) = (v.mota.unwrap(), v.prior_mota.unwrap());
        assert!((v.score.unwrap() + (m + p)).abs() < 1e-12, "{name}: {v:?}");
        scores.push((m, p));
    }
    assert_eq!(scores[1], scores[2], "threads and processes");
}

/// `silot pretrain` trains its jobs under the criterion too (the smoke recipe with `[train]
/// stop_criterion = "mota"` on the smoke env, Scattered Shapes).
#[test]
fn silot_pretrain_jobs_validate_by_mota() {
    let dir = tempfile::tempdir().unwrap();
    let recipe =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/recipes/smoke.toml"))
            .unwrap()
            .replace("[train]\n", "[train]\nstop_criterion = \"mota\"\n");
    assert!(recipe.contains("stop_criterion"));
    let recipe_path = dir.path().join("recipe.toml");
    std::fs::write(&recipe_path, recipe).unwrap();
    let out = dir.path().join("run");
    let (ok, stdout, stderr) = run_silot(&[
        "pretrain".as_ref(),
        "--env".as_ref(),
        "smoke".as_ref(),
        "--quiet".as_ref(),
        "--recipe".as_ref(),
        recipe_path.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("product"), "{stdout}");
    let lines = val_lines(&out.join("seeds/s1"));
    assert!(!lines.is_empty());
    for v in &lines {
        let (m, p) = (v.mota.unwrap(), v.prior_mota.unwrap());
        assert!((v.score.unwrap() + (m + p)).abs() < 1e-12, "{v:?}");
    }
}

/// On Atari (no exact ground truth) the criterion is a config error naming the env and the fix,
/// when the experiment loads: `silot train` stops before it makes the run directory.
#[cfg(feature = "atari")]
#[test]
fn mota_on_atari_is_a_config_error_at_startup() {
    let mut exp = silot::config::load_experiment("space_invaders").unwrap();
    exp.train.as_mut().unwrap().stop_criterion = silot::model::config::StopCriterion::Mota;
    let e = exp.run_config("si.toml").unwrap_err().to_string();
    for needle in [
        "space_invaders",
        "reconstruction_loss",
        "si.toml",
        "ground truth",
    ] {
        assert!(e.contains(needle), "{needle}: {e}");
    }
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("si_mota.toml");
    let base = concat!(env!("CARGO_MANIFEST_DIR"), "/envs/space_invaders.toml");
    std::fs::write(
        &config,
        format!("base = {base:?}\n[train]\nstop_criterion = \"mota\"\n"),
    )
    .unwrap();
    let out = dir.path().join("run");
    let (ok, _, stderr) = run_silot(&[
        "train".as_ref(),
        "--config".as_ref(),
        config.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert!(!ok);
    for needle in ["space_invaders", "stop_criterion = \"reconstruction_loss\""] {
        assert!(stderr.contains(needle), "{needle}: {stderr}");
    }
    assert!(!out.exists());
}
