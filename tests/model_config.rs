//! The model/train TOML sections of every experiment parse and validate (their text, which
//! [`experiment_toml`] builds from one table of keys by experiment, is handed to the lead for
//! `envs/*.toml`), and `envs/smoke.toml` is valid.

use silot::model::config::{RunConfig, StageSteps, StopCriterion};

/// The experiments, in the column order of [`MODEL`] and [`TRAIN`].
const EXPERIMENTS: [&str; 4] = [
    "scattered_mnist",
    "scattered_shapes",
    "space_invaders",
    "asteroids",
];

/// Every `[model]` key with its value per experiment (columns as [`EXPERIMENTS`]; "" leaves the
/// key out).
#[rustfmt::skip]
const MODEL: &[(&str, [&str; 4])] = &[
    ("image_size", ["[48, 48]", "[96, 96]", "[72, 72]", "[72, 72]"]),
    ("anchor", ["[48.0, 48.0]", "[48.0, 48.0]", "[24.0, 24.0]", "[30.0, 30.0]"]),
    ("object_size", ["[14, 14]", "[14, 14]", "[21, 21]", "[21, 21]"]),
    ("n_objects", ["16", "36", "36", "36"]),
    ("n_objects_eval", ["", "", "128", "128"]),
    ("glimpse_encoder", ["[256, 128]", "[256, 128]", "[512, 256]", "[512, 256]"]),
    ("sprite_decoder", ["[128, 256]", "[128, 256]", "[256, 512]", "[256, 512]"]),
    ("colour_logit_scale", ["2.0", "1.0", "2.0", "2.0"]),
    ("colour_logit_bias", ["0.0"; 4]),
    ("alpha_logit_scale", ["0.1", "1.0", "0.1", "0.1"]),
    ("alpha_logit_bias", ["5.0", "3.0", "5.0", "5.0"]),
    ("attention_std", ["0.1", "0.15", "0.1", "0.1"]),
    ("independent_prop", ["true", "false", "true", "true"]),
    ("eval_noisy", ["true", "false", "false", "false"]),
];

/// Every `[train]` key, as [`MODEL`].
#[rustfmt::skip]
const TRAIN: &[(&str, [&str; 4])] = &[
    ("batch_size", ["16", "8", "16", "16"]),
    ("n_frames", ["8"; 4]),
    ("crop", ["", "", "[72, 72]", "[72, 72]"]),
    ("n_curric", ["40000", "40000", "20000", "20000"]),
    ("patience", ["30000", "30000", "20000", "20000"]),
    ("patience_start", ["160000", "160000", "100000", "100000"]),
    ("eval_every", ["5000"; 4]),
    ("n_val", ["128"; 4]),
    ("stop_criterion", ["", "", "\"reconstruction_loss\"", "\"reconstruction_loss\""]),
];

/// Experiment `i`'s `[model]` and `[train]` sections as TOML text (column `i` of the tables).
fn experiment_toml(i: usize) -> String {
    let mut text = String::new();
    for (section, keys) in [("model", MODEL), ("train", TRAIN)] {
        text += &format!("\n[{section}]\n");
        for (key, values) in keys {
            if !values[i].is_empty() {
                text += &format!("{key} = {}\n", values[i]);
            }
        }
    }
    text
}

#[test]
fn experiment_sections_validate() {
    for (i, name) in EXPERIMENTS.into_iter().enumerate() {
        let text = experiment_toml(i);
        let cfg = RunConfig::from_toml(&text, name).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(cfg.model.n_what, 64, "{name}");
        assert_eq!(cfg.train.lr, 1e-4, "{name}");
        if name == "space_invaders" {
            assert_eq!(cfg.model.eval_objects(), 128);
            assert_eq!(cfg.train.stop_criterion, StopCriterion::ReconstructionLoss);
        }
    }
}

#[test]
fn env_files_hold_the_papers_hyperparameters() {
    // Each `envs/*.toml` as read from disk and resolved (defaults filled in): every key of the
    // tables has the paper's value, and the defaults the tables leave out are the paper's too.
    for (i, name) in EXPERIMENTS.into_iter().enumerate() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("envs")
            .join(format!("{name}.toml"));
        let text = std::fs::read_to_string(&path).unwrap();
        let cfg = RunConfig::from_toml(&text, &path.display().to_string())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let resolved: toml::Value = cfg.to_toml().unwrap().parse().unwrap();
        for (section, keys) in [("model", MODEL), ("train", TRAIN)] {
            for (key, values) in keys {
                if values[i].is_empty() {
                    continue;
                }
                let want: toml::Value = format!("v = {}", values[i]).parse().unwrap();
                assert_eq!(
                    resolved[section].get(*key),
                    Some(&want["v"]),
                    "{name}: [{section}] {key}"
                );
            }
        }
        // Defaults shared by every experiment (the paper's A = 64 and Adam's 1e-4).
        assert_eq!(cfg.model.n_what, 64, "{name}");
        assert_eq!(cfg.train.lr, 1e-4, "{name}");
        // And the file is the experiment the registry serves under that id.
        let served = silot::config::load_experiment(name).unwrap();
        assert_eq!(served.env.id, name);
        assert_eq!(served.run_config(name).unwrap(), cfg, "{name}");
    }
}

#[test]
fn smoke_config_is_valid() {
    let cfg = crate::model_util::smoke_cfg();
    assert_eq!(cfg.model.image_size, [24, 24]);
    assert_eq!(cfg.model.n_objects, 4);
}

#[test]
fn max_stage_steps_is_one_number_or_one_per_stage_and_round_trips() {
    for (text, want) in [
        ("max_stage_steps = 4000", StageSteps::Every(4000)),
        ("max_stage_steps = [2600]", StageSteps::PerStage(vec![2600])),
    ] {
        let cfg = RunConfig::from_toml(&format!("[train]\n{text}\n"), "t.toml").unwrap();
        assert_eq!(cfg.train.max_stage_steps, Some(want.clone()), "{text}");
        let again = RunConfig::from_toml(&cfg.to_toml().unwrap(), "again.toml").unwrap();
        assert_eq!(again, cfg, "{text}");
    }
    assert_eq!(StageSteps::PerStage(vec![2600]).of_stage(1), None);
    assert_eq!(StageSteps::Every(7).of_stage(2), Some(7));
    let err = RunConfig::from_toml("[train]\nmax_stage_steps = \"x\"\n", "t.toml").unwrap_err();
    assert!(err.to_string().contains("max_stage_steps"), "{err}");
}

#[test]
fn kl_pres_weight_gradient_defaults_to_all_and_is_saved_only_otherwise() {
    use silot::model::config::PresWeightGradient;
    let default = RunConfig::default();
    assert_eq!(
        default.model.kl_pres_weight_gradient,
        PresWeightGradient::ALL
    );
    // Configs saved before the key existed still equal a default config's text.
    assert!(!default
        .to_toml()
        .unwrap()
        .contains("kl_pres_weight_gradient"));
    let scales = |discovery, propagation| PresWeightGradient {
        discovery,
        propagation,
        duplicate: None,
    };
    let with_duplicate = |duplicate| PresWeightGradient {
        duplicate: Some(duplicate),
        ..scales(1.0, 0.5)
    };
    for (value, want) in [
        ("\"all\"", scales(1.0, 1.0)),
        ("true", scales(1.0, 1.0)),
        ("\"discovery\"", scales(1.0, 0.0)),
        ("\"none\"", scales(0.0, 0.0)),
        ("false", scales(0.0, 0.0)),
        ("{ propagation = 0.25 }", scales(1.0, 0.25)),
        ("{ discovery = 0.5, propagation = 0.0 }", scales(0.5, 0.0)),
        (
            "{ propagation = 0.5, duplicate = 1.0 }",
            with_duplicate(1.0),
        ),
        ("{ propagation = 0.5, duplicate = 0 }", with_duplicate(0.0)),
    ] {
        let text = format!("[model]\nkl_pres_weight_gradient = {value}\n");
        let cfg = RunConfig::from_toml(&text, "t.toml").unwrap();
        assert_eq!(cfg.model.kl_pres_weight_gradient, want, "{value}");
        let again = RunConfig::from_toml(&cfg.to_toml().unwrap(), "again.toml").unwrap();
        assert_eq!(again, cfg, "{value}");
    }
    // The named settings are saved by name, as configs of earlier versions have them.
    let text = "[model]\nkl_pres_weight_gradient = \"discovery\"\n";
    let saved = RunConfig::from_toml(text, "t.toml")
        .unwrap()
        .to_toml()
        .unwrap();
    assert!(
        saved.contains("kl_pres_weight_gradient = \"discovery\""),
        "{saved}"
    );
    let err = RunConfig::from_toml(
        "[model]\nkl_pres_weight_gradient = { propagation = 1.5 }\n",
        "t.toml",
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("propagation") && err.contains("[0, 1]"),
        "{err}"
    );
    for (bad, names) in [
        ("0.5", "0.5"),
        ("{ propagaton = 0.5 }", "propagaton"),
        ("{ propagation = \"half\" }", "expected a number"),
        ("{ duplicate = 2.0 }", "duplicate = 2"),
        ("{ duplicates = 1.0 }", "duplicates"),
    ] {
        let err = RunConfig::from_toml(
            &format!("[model]\nkl_pres_weight_gradient = {bad}\n"),
            "t.toml",
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains(names) && err.contains("kl_pres_weight_gradient"),
            "{bad}: {err}"
        );
    }
    // A config built in code is checked by `validate` the same way.
    let mut built = RunConfig::default();
    built.model.kl_pres_weight_gradient = scales(1.0, -0.5);
    let err = built.validate().unwrap_err().to_string();
    assert!(
        err.contains("propagation = -0.5") && err.contains("[0, 1]"),
        "{err}"
    );
    let err = RunConfig::from_toml("[model]\nkl_pres_weight_gradient = \"props\"\n", "t.toml")
        .unwrap_err()
        .to_string();
    assert!(err.contains("props") && err.contains("discovery"), "{err}");
}

#[test]
fn every_shipped_experiment_config_loads_and_validates() {
    // The env experiments and the synthetic training conditions (the GPU scripts' configs were
    // retired for `silot pretrain` recipes, tested in tests/pretrain.rs).
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut seen = 0;
    for dir in ["envs", "conditions"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                let p = path.to_str().unwrap();
                let exp = silot::config::load_experiment(p).unwrap_or_else(|e| panic!("{p}: {e}"));
                exp.run_config(p).unwrap_or_else(|e| panic!("{p}: {e}"));
                seen += 1;
            }
        }
    }
    assert!(seen >= 11, "only {seen} configs in envs/ and conditions/");
}

#[test]
fn a_config_file_may_start_from_a_base_file() {
    use silot::config::ExperimentConfig;
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
    write(
        "root.toml",
        "[env]\nid = \"smoke\"\n[env.scattered_mnist]\n[model]\nn_objects = 4\nn_what = 8\n\
         [train]\nbatch_size = 2\nlr = 0.001\n",
    );
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    // A chain: sub/mid.toml over root.toml, leaf.toml over sub/mid.toml (paths relative to the
    // file naming them).
    write(
        "sub/mid.toml",
        "base = \"../root.toml\"\n[model]\nn_what = 16\n",
    );
    write(
        "leaf.toml",
        "base = \"sub/mid.toml\"\n[model]\nkl_pres_weight_gradient = { propagation = 0.25 }\n\
         [train]\nlr = 0.01\n",
    );
    let exp = ExperimentConfig::from_file(&dir.path().join("leaf.toml")).unwrap();
    let run = exp.run_config("leaf.toml").unwrap();
    // Tables merged key by key; the last file's values win.
    assert_eq!((run.model.n_objects, run.model.n_what), (4, 16));
    assert_eq!((run.train.batch_size, run.train.lr), (2, 0.01));
    assert_eq!(run.model.kl_pres_weight_gradient.propagation, 0.25);
    assert_eq!(exp.env.id, "smoke");
    // Bad bases are named.
    for (text, expect) in [
        ("base = \"nowhere.toml\"\n", "nowhere.toml"),
        ("base = 3\n", "expected the path"),
        ("base = \"cycle.toml\"\n", "cycle"),
    ] {
        write("cycle.toml", text);
        let err = ExperimentConfig::from_file(&dir.path().join("cycle.toml"))
            .unwrap_err()
            .to_string();
        assert!(err.contains(expect), "{text}: {err}");
    }
    // Unknown keys are still refused after the merge.
    // ... at the file's own line (line 3 here), not a line of the merged text.
    write("typo.toml", "base = \"root.toml\"\n[model]\nn_objcts = 3\n");
    let err = ExperimentConfig::from_file(&dir.path().join("typo.toml"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("n_objcts"), "{err}");
    assert!(
        err.contains("line 3,") && err.contains("3 | n_objcts"),
        "{err}"
    );
    // The same for the env alone (`--env FILE`).
    write(
        "env_typo.toml",
        "base = \"root.toml\"\n[env.scattered_mnist]\nmin_objectz = 2\n",
    );
    let path = dir.path().join("env_typo.toml");
    let err = silot::env::registry::load_spec(path.to_str().unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("line 3,") && err.contains("3 | min_objectz"),
        "{err}"
    );
    // A typo in the base: named, without lines of the merged text.
    write(
        "bad_root.toml",
        "[env]\nid = \"smoke\"\n[env.scattered_mnist]\n[model]\nn_whta = 1\n",
    );
    write(
        "over_bad.toml",
        "base = \"bad_root.toml\"\n[train]\nlr = 0.5\n",
    );
    let err = ExperimentConfig::from_file(&dir.path().join("over_bad.toml"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("n_whta") && err.contains("merged"), "{err}");
    assert!(!err.contains("line "), "{err}");
}
