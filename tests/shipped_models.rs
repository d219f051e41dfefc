//! Shipped encoders (`models/NAME/`): found by name, files checked against their manifest, and
//! each one re-scored on a few clips on the CPU against the figures its manifest stores.

use std::path::{Path, PathBuf};

use silot::models::{self, Manifest};

/// A tiny model folder: a config file and a manifest that records its hash.
fn fake_model(dir: &Path, name: &str) -> PathBuf {
    let d = dir.join(name);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("config.toml"), "x = 1\n").unwrap();
    let sha = models::sha256_hex(b"x = 1\n");
    let manifest = format!(
        r#"name = "{name}"
env = "scattered_shapes"
frame_size = [96, 96]
image_size = [96, 96]
description = "a test"
weights_dtype = "f32"
[files]
"config.toml" = {{ bytes = 6, sha256 = "{sha}" }}
[scores]
mota = 0.5
ap = 0.5
count_abs_error = 1.0
measured = "nowhere"
[ci_check]
env = "scattered_shapes"
seed = 0
clips = 1
frames = 8
mota = 0.5
count_abs_error = 1.0
tol = 0.1
"#
    );
    std::fs::write(d.join(models::MANIFEST_FILE), manifest).unwrap();
    d
}

#[test]
fn names_resolve_to_checked_folders_and_damage_is_reported() {
    // The crate's own models are found by name, and each manifest matches its files.
    let names = models::names();
    assert!(names.contains(&"space_invaders".to_string()), "{names:?}");
    for name in &names {
        let dir = models::resolve(Path::new(name)).unwrap();
        assert_eq!(dir, models::builtin_dir().join(name));
        let m = Manifest::read(&dir).unwrap();
        assert_eq!(&m.name, name);
        assert!(m.files.contains_key("weights.safetensors"), "{name}");
        assert!(m.ci_check.tol > 0.0 && m.ci_check.tol <= 0.05, "{name}");
    }
    // A directory is taken as it is; a name that is neither is an error listing the models.
    let tmp = tempfile::tempdir().unwrap();
    assert_eq!(models::resolve(tmp.path()).unwrap(), tmp.path());
    let e = models::resolve(Path::new("no_such_model")).unwrap_err();
    assert!(e.to_string().contains("space_invaders"), "{e}");
    let e = models::resolve(Path::new("runs/no_such_run")).unwrap_err();
    assert!(e.to_string().contains("no such directory"), "{e}");

    // A folder with a manifest is checked, by path and by name in another folder of models
    // (as $SILOT_MODELS adds one), which comes first.
    let d = fake_model(tmp.path(), "tiny");
    assert_eq!(models::resolve(&d).unwrap(), d);
    let dirs = [tmp.path().to_path_buf(), models::builtin_dir()];
    assert_eq!(models::resolve_in(Path::new("tiny"), &dirs).unwrap(), d);
    let builtin = models::builtin_dir().join("space_invaders");
    assert_eq!(
        models::resolve_in(Path::new("space_invaders"), &dirs).unwrap(),
        builtin
    );
    let e = models::resolve_in(Path::new("huge"), &dirs).unwrap_err();
    assert!(e.to_string().contains("space_invaders, tiny"), "{e}");
    std::fs::write(d.join("config.toml"), "x = 2\n").unwrap();
    let e = models::resolve(&d).unwrap_err().to_string();
    assert!(e.contains("config.toml") && e.contains("sha256"), "{e}");
}

/// Each shipped encoder scores its manifest's `ci_check` figures on the CPU, loaded both as a
/// tracker and as the wrapper's encoder by name.
#[cfg(feature = "atari")]
#[test]
fn shipped_encoders_score_their_manifest_figures_on_the_cpu() {
    use candle_core::Device;
    use silot::eval_protocol::{eval_clips, paper_protocol, EVAL_FRAMES};
    use silot::trained::SilotTracker;
    use silot::wrapper::ObjectEncoder;

    // The crate's own models.
    for name in models::names_in(&models::builtin_dir()) {
        let dir = models::resolve(&models::builtin_dir().join(&name)).unwrap();
        let m = Manifest::read(&dir).unwrap();
        let check = &m.ci_check;
        assert_eq!(check.frames, EVAL_FRAMES, "{name}");
        let cfg = paper_protocol(silot::config::load_experiment(&check.env).unwrap());
        let clips = eval_clips(&cfg, check.clips, check.seed).unwrap();
        let (frame_h, frame_w, _) = clips[0].frames[0].dim();
        assert_eq!([frame_h, frame_w], m.frame_size, "{name}");
        let mut tracker = SilotTracker::load(&dir, &Device::Cpu, check.seed).unwrap();
        let frames: Vec<_> = clips.iter().map(|c| c.frames.clone()).collect();
        let gt: Vec<_> = clips.iter().map(|c| c.gt.clone()).collect();
        let report =
            silot::eval::evaluate_tracker(&mut tracker, &frames, &gt, &cfg.eval.metrics).unwrap();
        let (mota, count) = (report.mota, report.count_abs_error);
        assert!(
            (mota - check.mota).abs() <= check.tol
                && (count - check.count_abs_error).abs() <= check.tol,
            "{name}: MOTA {mota:.4}, count error {count:.4}; the manifest expects {:.4} and {:.4} \
             (tolerance {})",
            check.mota,
            check.count_abs_error,
            check.tol
        );
        // The wrapper's encoder loads by name and encodes a frame of the env.
        let mut enc = ObjectEncoder::load_named(&name, &Device::Cpu, 0).unwrap();
        let frame = clips[0].frames[0].view().insert_axis(ndarray::Axis(0));
        let objects = enc.encode(frame, &[true]).unwrap();
        assert_eq!(objects.frame_hw, (frame_h, frame_w));
        // As many objects as the first frame holds, give or take (the metrics above check them).
        let (found, truth) = (objects.objects(0, 0.5).len(), gt[0][0].len());
        assert!(
            found.abs_diff(truth) <= 2.max(truth / 2),
            "{name}: {found} objects of presence > 0.5 in a frame of {truth}"
        );
    }
}

/// The object-centric envs refuse an env the encoder was not trained on (its checkpoint
/// records the env), unless asked.
#[test]
fn the_wrapper_refuses_another_env() {
    use silot::env::vector::VectorEnv;
    use silot::wrapper::{ObjectCentricEnv, ObjectCentricVecEnv, ObjectEncoder};
    let device = candle_core::Device::Cpu;
    let encoder = || ObjectEncoder::load_named("space_invaders", &device, 0).unwrap();
    let recorded = encoder().trained_env().cloned().unwrap();
    assert_eq!(recorded.id, "space_invaders");
    let smoke = || silot::env::registry::make("smoke").unwrap();
    let err = ObjectCentricEnv::new(smoke(), encoder())
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("trained on")
            && err.contains("[24, 24, 3]")
            && err.contains("allow_env_mismatch"),
        "{err}"
    );
    let venv = VectorEnv::new(|_| Ok(smoke()), 2, 1).unwrap();
    assert!(ObjectCentricVecEnv::new(venv, encoder()).is_err());
    let mut anyway = encoder();
    anyway.allow_env_mismatch();
    assert!(ObjectCentricEnv::new(smoke(), anyway).is_ok());
    // The env it was trained on (the paper preset's frames) is accepted.
    let si = silot::env::registry::make("space_invaders").unwrap();
    assert!(ObjectCentricEnv::new(si, encoder()).is_ok());
}
