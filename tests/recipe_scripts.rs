//! The GPU recipe scripts (`scripts/cuda/recipe_best_of_seeds.sh`, `recipe_per_gpu.sh`) run
//! end to end on the CPU with the smoke config: they decide what scarce GPU time trains, so
//! their choice, resumption and stop rules are tested here rather than first on the GPU.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `bash scripts/cuda/SCRIPT 120` with the smoke config in both phases (validation every 2
/// steps, the choice at 4, switch at 6, end at 8), `silot` of this build first on PATH, and
/// `vars` on top.
fn run_script(script: &str, vars: &[(&str, &str)]) -> Output {
    let silot = Path::new(env!("CARGO_BIN_EXE_silot"));
    let path = format!(
        "{}:{}",
        silot.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let smoke = repo().join("envs/smoke.toml");
    let mut cmd = Command::new("bash");
    cmd.arg(repo().join("scripts/cuda").join(script))
        .arg("120")
        .current_dir(repo())
        .env("PATH", path)
        .env("DEVICE", "cpu")
        .env("CONFIG1", &smoke)
        .env("CONFIG2", &smoke)
        .env("EVAL_EVERY", "2")
        .env("VAL_CLIPS", "2")
        .env("SELECT_STEP", "4")
        .env("SWITCH_STEP", "6")
        .env("STEPS", "8")
        .env_remove("CUDA_VISIBLE_DEVICES");
    for (k, v) in vars {
        cmd.env(k, v);
    }
    cmd.output().expect("run bash")
}

/// A new temporary directory (alive while held) with a recipe's RUN_ROOT_BASE path in it and an
/// empty output folder (the GPU machine's `OUT`) beside it.
fn run_dirs() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("rpg");
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    (dir, base, out_dir)
}

/// The step of the checkpoint in `run` (0 if none).
fn step_of(run: &Path) -> u64 {
    std::fs::read_to_string(run.join("checkpoint/state.json"))
        .ok()
        .and_then(|s| serde_json::from_str::<serde_json::Value>(&s).ok())
        .and_then(|v| v["step"].as_u64())
        .unwrap_or(0)
}

/// The names of the files in `dir`, sorted.
fn file_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn text(out: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn best_of_seeds_chooses_the_lower_total_and_trains_it_through_both_phases() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("bos");
    let root_s = root.to_str().unwrap();
    let vars = [
        ("SEEDS", "1 2"),
        ("RUN_ROOT", root_s),
        ("MAX_BOX_WIDTH", "0"),
    ];
    let out = run_script("recipe_best_of_seeds.sh", &vars);
    assert!(out.status.success(), "{}", text(&out));
    let choice = std::fs::read_to_string(root.join("choice.txt")).unwrap();
    let best = choice.lines().next().unwrap();
    assert!(best == "1" || best == "2", "{choice}");
    // The chosen seed's validation total at step 4 is the lower one, as each seed's own
    // metrics.jsonl has it (not as the script reports it).
    let total = |seed: &str| -> f64 {
        let log = std::fs::read_to_string(root.join(format!("s{seed}/run/metrics.jsonl"))).unwrap();
        let vals: Vec<f64> = log
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .filter(|v| v["kind"] == "val" && v["step"] == 4)
            .map(|v| v["total"].as_f64().unwrap())
            .collect();
        assert_eq!(
            vals.len(),
            1,
            "seed {seed}: one validation at step 4\n{log}"
        );
        vals[0]
    };
    let other = if best == "1" { "2" } else { "1" };
    assert_ne!(
        total(best),
        total(other),
        "the seeds should validate differently"
    );
    assert!(total(best) < total(other), "{choice}");
    assert_eq!(step_of(&root.join(format!("s{best}/run"))), 6);
    assert_eq!(step_of(&root.join(format!("s{other}/run"))), 4);
    assert_eq!(step_of(&root.join("best/phase2")), 8);
    // Both phases validate on full frames too (label-free statistics), and the choice lists them.
    for run in [format!("s{best}/run"), "best/phase2".into()] {
        let log = std::fs::read_to_string(root.join(run).join("metrics.jsonl")).unwrap();
        let vals: Vec<&str> = log
            .lines()
            .filter(|l| l.contains(r#""kind":"val""#))
            .collect();
        assert!(!vals.is_empty(), "{log}");
        assert!(
            vals.iter().all(|l| l.contains(r#""full_frame":{"#)),
            "{log}"
        );
    }
    assert!(choice.contains("full frames:"), "{choice}");
    // The same command again resumes: nothing left to train, the choice stands.
    let again = run_script("recipe_best_of_seeds.sh", &vars);
    assert!(again.status.success(), "{}", text(&again));
    assert_eq!(
        std::fs::read_to_string(root.join("choice.txt")).unwrap(),
        choice
    );
    assert_eq!(step_of(&root.join("best/phase2")), 8);
}

/// The validation line at `step` in `run`'s metrics.
fn val_at(run: &Path, step: u64) -> serde_json::Value {
    let log = std::fs::read_to_string(run.join("metrics.jsonl")).unwrap();
    log.lines()
        .rev()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|v| v["kind"] == "val" && v["step"] == step)
        .unwrap_or_else(|| panic!("no validation at {step} in {log}"))
}

#[test]
fn best_of_seeds_refines_the_choice_by_full_frame_pairs_at_refine_step() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("bos");
    let vars = [
        ("SEEDS", "1 2"),
        ("RUN_ROOT", root.to_str().unwrap()),
        ("MAX_BOX_WIDTH", "0"),
        ("REFINE_STEP", "6"),
        ("PAIRS_MARGIN", "0.25"),
    ];
    let out = run_script("recipe_best_of_seeds.sh", &vars);
    assert!(out.status.success(), "{}", text(&out));
    let refine = std::fs::read_to_string(root.join("refine.txt")).unwrap();
    let best = refine.lines().next().unwrap().to_string();
    // Both seeds went on to REFINE_STEP; the chosen one has the lowest total among those within
    // PAIRS_MARGIN of the fewest full-frame pairs there.
    let vals: Vec<(String, f64, f64)> = ["1", "2"]
        .iter()
        .map(|s| {
            let run = root.join(format!("s{s}/run"));
            assert!(step_of(&run) >= 6, "{}", text(&out));
            let v = val_at(&run, 6);
            let pairs = v["full_frame"]["overlapping_pairs_per_frame"]
                .as_f64()
                .unwrap();
            (s.to_string(), pairs, v["total"].as_f64().unwrap())
        })
        .collect();
    let fewest = vals.iter().map(|v| v.1).fold(f64::INFINITY, f64::min);
    let expected = vals
        .iter()
        .filter(|v| v.1 <= fewest + 0.25)
        .min_by(|a, b| a.2.total_cmp(&b.2))
        .unwrap();
    assert_eq!(best, expected.0, "{refine}");
    assert!(
        refine.contains("overlapping pairs per full frame"),
        "{refine}"
    );
    // The refined choice is the one trained on: its run is phase 1, its phase 2 reached STEPS.
    let phase1 = std::fs::canonicalize(root.join("best/phase1")).unwrap();
    assert_eq!(
        phase1,
        std::fs::canonicalize(root.join(format!("s{best}/run"))).unwrap()
    );
    assert_eq!(step_of(&root.join("best/phase2")), 8);
    // The same command again: the refined choice stands.
    let again = run_script("recipe_best_of_seeds.sh", &vars);
    assert!(again.status.success(), "{}", text(&again));
    assert_eq!(
        std::fs::read_to_string(root.join("refine.txt")).unwrap(),
        refine
    );
}

/// `recipe_best_of_seeds.sh` on seeds 1 and 2 with the arm `alt` (envs/smoke.toml) and `extra`
/// variables, run to success; returns the temporary directory and the run root in it.
fn best_of_seeds_with_arm(extra: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("bos");
    let arms = format!("alt={}", repo().join("envs/smoke.toml").display());
    let mut vars = vec![
        ("SEEDS", "1 2"),
        ("RUN_ROOT", root.to_str().unwrap()),
        ("MAX_BOX_WIDTH", "0"),
        ("ARMS", arms.as_str()),
    ];
    vars.extend_from_slice(extra);
    let out = run_script("recipe_best_of_seeds.sh", &vars);
    assert!(out.status.success(), "{}", text(&out));
    (dir, root)
}

#[test]
fn best_of_seeds_arms_branch_every_phase_two_from_the_same_phase_one_checkpoint() {
    let (dir, root) = best_of_seeds_with_arm(&[]);
    let smoke = repo().join("envs/smoke.toml");
    let choice = std::fs::read_to_string(root.join("choice.txt")).unwrap();
    let best = choice.lines().next().unwrap();
    // Phase 1 stopped at the switch, once; both phase 2s branched from it and ran to the end.
    assert_eq!(step_of(&root.join(format!("s{best}/run"))), 6);
    assert_eq!(step_of(&root.join("best/phase2")), 8);
    assert_eq!(step_of(&root.join("alt/phase2")), 8);
    let first_train_step = |run: &str| -> u64 {
        let log = std::fs::read_to_string(root.join(run).join("metrics.jsonl")).unwrap();
        log.lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .filter(|v| v["kind"] == "train")
            .map(|v| v["step"].as_u64().unwrap())
            .min()
            .unwrap()
    };
    assert_eq!(first_train_step("best/phase2"), 7);
    assert_eq!(first_train_step("alt/phase2"), 7);
    let arm_config = std::fs::read_to_string(root.join("config2_alt.toml")).unwrap();
    assert!(
        arm_config.contains(&smoke.display().to_string()),
        "{arm_config}"
    );
    assert!(arm_config.contains("val_full_frames = 16"), "{arm_config}");
    // A bad arm name stops the script before any phase 2 starts.
    let bad_root = dir.path().join("bad");
    let bad = [
        ("SEEDS", "1"),
        ("RUN_ROOT", bad_root.to_str().unwrap()),
        ("MAX_BOX_WIDTH", "0"),
        ("ARMS", "best=envs/smoke.toml"),
    ];
    let out = run_script("recipe_best_of_seeds.sh", &bad);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad arm name 'best'"));
    assert!(!bad_root.join("best/phase2").exists());
}

/// The next GPU session's configuration: the choice refined at REFINE_STEP, then phase 2 and an
/// arm both branched from the refined seed's phase 1.
#[test]
fn best_of_seeds_refines_the_choice_then_branches_the_arms_from_the_refined_seed() {
    let (_dir, root) = best_of_seeds_with_arm(&[("REFINE_STEP", "6")]);
    let refine = std::fs::read_to_string(root.join("refine.txt")).unwrap();
    let best = refine.lines().next().unwrap();
    let phase1 = std::fs::canonicalize(root.join(format!("s{best}/run"))).unwrap();
    for arm in ["best", "alt"] {
        assert_eq!(
            std::fs::canonicalize(root.join(arm).join("phase1")).unwrap(),
            phase1,
            "{arm}: {refine}"
        );
        assert_eq!(
            step_of(&root.join(arm).join("phase2")),
            8,
            "{arm}: {refine}"
        );
    }
}

#[test]
fn best_of_seeds_stops_with_status_3_when_every_seed_is_too_wide() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("bos");
    let vars = [
        ("SEEDS", "1 2"),
        ("RUN_ROOT", root.to_str().unwrap()),
        ("MAX_BOX_WIDTH", "0.001"),
    ];
    let out = run_script("recipe_best_of_seeds.sh", &vars);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("every seed boxes aliens in pairs"),
        "{stdout}"
    );
    assert_eq!(stdout.matches("excluded: box width").count(), 2, "{stdout}");
    assert!(!root.join("choice.txt").exists());
    assert!(!root.join("best").exists());
}

#[test]
fn per_gpu_recipes_start_again_with_their_spare_seeds_once() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("rpg");
    let vars = [
        ("RECIPES", "1,2/3,4"),
        ("RUN_ROOT_BASE", base.to_str().unwrap()),
        ("MAX_BOX_WIDTH", "0.001"),
    ];
    let out = run_script("recipe_per_gpu.sh", &vars);
    assert!(out.status.success(), "{}", text(&out));
    let log = std::fs::read_to_string(base.join("r0.out")).unwrap();
    assert!(log.contains("seeds 1 2) exit 3"), "{log}");
    assert!(log.contains("seeds 3 4) exit 3"), "{log}");
    assert_eq!(log.matches(") exit ").count(), 2, "{log}");
    assert_eq!(step_of(&base.join("r02/s3/run")), 4);
}

#[test]
fn per_gpu_recipes_from_gpu_offset_return_the_winners_named_in_weights() {
    let (dir, base, out_dir) = run_dirs();
    // GPU_OFFSET 2: the only recipe is GPU 2's, r2 (a second build's recipes beside r0, r1).
    let vars = [
        ("RECIPES", "1,2"),
        ("GPU_OFFSET", "2"),
        ("RUN_ROOT_BASE", base.to_str().unwrap()),
        ("OUT", out_dir.to_str().unwrap()),
        ("TAG", "t"),
        ("WEIGHTS", "r2 r7"),
    ];
    let out = run_script("recipe_per_gpu.sh", &vars);
    assert!(out.status.success(), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("WEIGHTS: no recipe r7"), "{}", text(&out));
    let names = file_names(&out_dir);
    assert_eq!(
        names,
        ["logs_t.tgz", "wr2.tar.xz.part-aa"],
        "{}",
        text(&out)
    );
    assert!(base.join("r2/choice.txt").exists() && !base.join("r0").exists());
    // The part unpacks to the winner's checkpoint at the last step.
    let unpack = dir.path().join("unpack");
    std::fs::create_dir(&unpack).unwrap();
    let status = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "xz -dc {} | tar -C {} -xf -",
            out_dir.join("wr2.tar.xz.part-aa").display(),
            unpack.display()
        ))
        .status()
        .unwrap();
    assert!(status.success());
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(unpack.join("state.json")).unwrap()).unwrap();
    assert_eq!(state["step"].as_u64(), Some(8));
    assert!(unpack.join("weights.safetensors").exists());
}

/// One recipe (`recipe_per_gpu.sh`, seeds 1 and 2, the smoke config to step 8) in a new temporary
/// directory; returns the directory (alive while held) and the recipe's RUN_ROOT_BASE in it.
fn one_recipe() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("rpg");
    let out = run_script(
        "recipe_per_gpu.sh",
        &[
            ("RECIPES", "1,2"),
            ("RUN_ROOT_BASE", base.to_str().unwrap()),
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    (dir, base)
}

/// `RUN_ROOT_BASE/products.txt` after `recipe_finish.sh` with a tail, and recipe 0's product
/// in it (the `r0/best: PATH` line).
fn product_choice(base: &Path) -> (String, String) {
    let products = std::fs::read_to_string(base.join("products.txt")).unwrap();
    let chosen = products
        .lines()
        .find_map(|l| l.strip_prefix("r0/best: "))
        .unwrap_or_else(|| panic!("no choice in {products}"))
        .to_string();
    (products, chosen)
}

/// `one_recipe` and an empty output folder (the GPU machine's `OUT`) beside its runs.
fn one_recipe_with_out() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let (dir, base) = one_recipe();
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    (dir, base, out_dir)
}

#[test]
fn finishes_branch_from_each_recipe_then_score_and_return_what_was_named() {
    let (_dir, base, out_dir) = one_recipe_with_out();
    let base_s = base.to_str().unwrap();
    assert_eq!(step_of(&base.join("r0/best/phase2")), 8);
    let smoke = repo().join("envs/smoke.toml");
    let finishes = format!("one={0} two={0}", smoke.display());
    let vars = [
        ("RUN_ROOT_BASE", base_s),
        ("FINISHES", finishes.as_str()),
        ("FINISH_STEPS", "2"),
        ("SCORE_SEEDS", "5"),
        ("TRAIN_ARGS", "--keep-every 9"),
        ("SCORE_KEPT", "1"),
        ("JOBS", "2"),
        ("OUT", out_dir.to_str().unwrap()),
        ("TAG", "t"),
        ("WEIGHTS", "r0/one r0/zz"),
    ];
    let out = run_script("recipe_finish.sh", &vars);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("WEIGHTS: no finish r0/zz"),
        "{}",
        text(&out)
    );
    // Both finishes branched from phase 2's last step and ran FINISH_STEPS more.
    for name in ["one", "two"] {
        let run = base.join("r0/finish").join(name).join("run");
        assert_eq!(step_of(&run), 10, "{}", text(&out));
        let log = std::fs::read_to_string(run.join("metrics.jsonl")).unwrap();
        let first = log
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .filter(|v| v["kind"] == "train")
            .map(|v| v["step"].as_u64().unwrap())
            .min();
        assert_eq!(first, Some(9), "{log}");
    }
    // The phase-2 encoder, both finishes and their kept checkpoints (step 9) scored on the seed.
    let summary = std::fs::read_to_string(base.join("scores/summary.txt")).unwrap();
    for name in [
        "best_phase2_checkpoint",
        "finish_one_run_checkpoint",
        "finish_two_run_checkpoint",
        "finish_one_run_kept_step-00000009",
        "finish_two_run_kept_step-00000009",
    ] {
        assert_eq!(
            summary.lines().filter(|l| l.contains(name)).count(),
            1,
            "{summary}"
        );
    }
    let names = file_names(&out_dir);
    assert_eq!(
        names,
        ["finish_t.tgz", "wr0_one.tar.xz.part-aa"],
        "{}",
        text(&out)
    );
    // The same command again trains nothing more.
    let again = run_script("recipe_finish.sh", &vars[..3]);
    assert!(again.status.success(), "{}", text(&again));
    assert_eq!(step_of(&base.join("r0/finish/one/run")), 10);
}

/// `score_parallel.sh` with stand-ins on PATH: an `nvidia-smi` listing `gpus` GPUs and a
/// `silot` that writes a minimal report holding its `CUDA_VISIBLE_DEVICES` (and a two-frame clip
/// counting one object too many, then three too few; two duplicate false positives and one near
/// miss among four objects); returns those, one per evaluation (two
/// checkpoints x three seeds), sorted, and the summary.
fn score_parallel_gpus(gpus: usize, visible: Option<&str>) -> (Vec<String>, String) {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let listing = (0..gpus).map(|i| format!("echo 'GPU {i}: stand-in'\n"));
    let stand_ins = [
        ("nvidia-smi", format!("#!/bin/sh\n{}", listing.collect::<String>())),
        (
            "silot",
            "#!/usr/bin/env bash\nwhile [ $# -gt 0 ]; do [ \"$1\" = --json ] && out=$2; shift; done\n\
             printf '{\"mota\":0.5,\"idf1\":0.5,\"ap\":0.5,\"count_abs_error\":1,\"num_gt\":4,\
             \"false_positive_kinds\":\
             {\"duplicate\":2,\"near_miss\":1,\"no_overlap\":0},\
             \"checkpoint\":{\"step\":1},\"gpu\":\"%s\",\"by_frame_index\":[\
             {\"t\":0,\"gt\":4,\"counted\":5},{\"t\":1,\"gt\":4,\"counted\":1}]}' \
             \"$CUDA_VISIBLE_DEVICES\" >\"$out\"\n"
                .to_string(),
        ),
    ];
    for (name, body) in stand_ins {
        let path = bin.join(name);
        std::fs::write(&path, body).unwrap();
        Command::new("chmod").arg("+x").arg(&path).status().unwrap();
    }
    let mut checkpoints = Vec::new();
    for name in ["a", "b"] {
        let ck = dir.path().join(name);
        std::fs::create_dir(&ck).unwrap();
        std::fs::write(ck.join("state.json"), "{\"step\": 1}").unwrap();
        checkpoints.push(ck);
    }
    let scores = dir.path().join("scores");
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let mut cmd = Command::new("bash");
    cmd.arg(repo().join("scripts/cuda/score_parallel.sh"))
        .arg(repo().join("envs/smoke.toml"))
        .arg(&scores)
        .args(&checkpoints)
        .env("PATH", path)
        .env("SEEDS", "1 2 3")
        .env("JOBS", "2")
        .env_remove("CUDA_VISIBLE_DEVICES");
    if let Some(v) = visible {
        cmd.env("CUDA_VISIBLE_DEVICES", v);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let mut gpus: Vec<String> = file_names(&scores)
        .iter()
        .filter(|n| n.ends_with(".json"))
        .map(|n| {
            let report = std::fs::read_to_string(scores.join(n)).unwrap();
            let v: serde_json::Value = serde_json::from_str(&report).unwrap();
            v["gpu"].as_str().unwrap().to_string()
        })
        .collect();
    gpus.sort();
    let summary = std::fs::read_to_string(scores.join("summary.txt")).unwrap();
    (gpus, summary)
}

#[test]
fn score_parallel_spreads_evaluations_over_the_hosts_gpus_unless_the_caller_chose() {
    assert_eq!(
        score_parallel_gpus(3, None).0,
        ["0", "0", "1", "1", "2", "2"]
    );
    assert_eq!(score_parallel_gpus(0, None).0, ["0"; 6]);
    assert_eq!(score_parallel_gpus(3, Some("2")).0, ["2"; 6]);
}

#[test]
fn score_parallel_summary_gives_the_count_bias_and_the_false_positive_kinds() {
    let (_, summary) = score_parallel_gpus(1, None);
    let rows: Vec<&str> = summary.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{summary}");
    for row in rows {
        assert!(
            row.ends_with(
                "count bias first/last frame +1.00/-3.00  fp dup/near/none 0.500/0.250/0.000"
            ),
            "{summary}"
        );
    }
}

#[test]
fn finishes_branch_from_phase_one_where_the_deadline_came_before_phase_two() {
    let (_dir, base) = one_recipe();
    let base_s = base.to_str().unwrap();
    // As if the deadline had come at the switch (step 6), before phase 2 wrote a checkpoint.
    std::fs::remove_dir_all(base.join("r0/best/phase2")).unwrap();
    let finishes = format!("one={}", repo().join("envs/smoke.toml").display());
    let vars = [
        ("RUN_ROOT_BASE", base_s),
        ("FINISHES", finishes.as_str()),
        ("FINISH_STEPS", "2"),
    ];
    let out = run_script("recipe_finish.sh", &vars);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("finishing from phase 1 at 6"),
        "{}",
        text(&out)
    );
    assert_eq!(
        step_of(&base.join("r0/finish/one/run")),
        8,
        "{}",
        text(&out)
    );
}

/// The Adam step count saved in checkpoint `dir` (`optimizer.safetensors`).
fn adam_step(dir: &Path) -> i64 {
    let file = dir.join(silot::checkpoint::OPTIMIZER_FILE);
    let state = candle_core::safetensors::load(&file, &candle_core::Device::Cpu).unwrap();
    let step = &state[silot::train::adam::STEP_KEY];
    step.to_vec1::<i64>().unwrap()[0]
}

#[test]
fn finish_adam_kept_branches_with_the_checkpoints_adam_and_fresh_starts_it_again() {
    let (_dir, base) = one_recipe();
    let base_s = base.to_str().unwrap();
    let source = adam_step(&base.join("r0/best/phase2/checkpoint"));
    assert!(source > 2, "phase 2's Adam took {source} steps");
    let smoke = repo().join("envs/smoke.toml");
    let finishes = format!("kept={0} fresh={0}", smoke.display());
    let finish = |adam: &str| {
        let vars = [
            ("RUN_ROOT_BASE", base_s),
            ("FINISHES", finishes.as_str()),
            ("FINISH_STEPS", "2"),
            ("FINISH_ADAM_kept", adam),
        ];
        run_script("recipe_finish.sh", &vars)
    };
    let out = finish("stale");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("FINISH_ADAM (kept): 'stale'"),
        "{}",
        text(&out)
    );

    let out = finish("kept");
    assert!(out.status.success(), "{}", text(&out));
    let run = |name: &str| base.join("r0/finish").join(name).join("run/checkpoint");
    // Kept: the source's Adam went on for the finish's two steps; the default, fresh: two steps.
    assert_eq!(adam_step(&run("kept")), source + 2, "{}", text(&out));
    assert_eq!(adam_step(&run("fresh")), 2, "{}", text(&out));
}

#[test]
fn finish_tail_branches_every_finish_with_its_adam_kept_then_scores_and_returns_it() {
    let (_dir, base, out_dir) = one_recipe_with_out();
    let base_s = base.to_str().unwrap();
    let smoke = repo().join("envs/smoke.toml");
    let finishes = format!("one={}", smoke.display());
    let tail = format!("q={}", smoke.display());
    let with_tail = |tail: &str| {
        let vars = [
            ("RUN_ROOT_BASE", base_s),
            ("FINISHES", finishes.as_str()),
            ("FINISH_STEPS", "2"),
            ("FINISH_TAIL", tail),
            ("FINISH_TAIL_STEPS", "3"),
            ("FINISH_TAIL_ARGS", "--keep-every 2"),
            ("SCORE_KEPT", "1"),
            ("SCORE_SEEDS", "5"),
            ("JOBS", "2"),
            ("OUT", out_dir.to_str().unwrap()),
            ("TAG", "t"),
            ("WEIGHTS", "r0/one_q r0/best"),
        ];
        run_script("recipe_finish.sh", &vars)
    };
    for bad in ["q", "Q=x.toml", "q=no/such.toml", ""] {
        let out = with_tail(bad);
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", text(&out));
        assert!(text(&out).contains("FINISH_TAIL"), "{}", text(&out));
    }
    assert!(
        !base.join("r0/finish").exists(),
        "a bad FINISH_TAIL trained nothing"
    );

    let out = with_tail(&tail);
    assert!(out.status.success(), "{}", text(&out));
    let finish = base.join("r0/finish/one/run");
    let tailed = base.join("r0/finish/one_q/run");
    // The finish: phase 2's step 8 + 2 with a fresh Adam; its tail 3 more with that Adam kept.
    assert_eq!(step_of(&finish), 10, "{}", text(&out));
    assert_eq!(step_of(&tailed), 13, "{}", text(&out));
    assert_eq!(adam_step(&finish.join("checkpoint")), 2);
    assert_eq!(adam_step(&tailed.join("checkpoint")), 5, "{}", text(&out));
    assert!(
        !finish.join("kept").exists(),
        "FINISH_TAIL_ARGS reached the finish"
    );
    let summary = std::fs::read_to_string(base.join("scores/summary.txt")).unwrap();
    // The tail's kept step 12 (FINISH_TAIL_ARGS) scored too; the finish kept nothing.
    for name in [
        "finish_one_run_checkpoint",
        "finish_one_q_run_checkpoint",
        "finish_one_q_run_kept_step-00000012",
    ] {
        let line = summary.lines().find(|l| l.contains(name));
        assert!(line.is_some(), "{name} not scored: {summary}");
    }
    assert_eq!(
        file_names(&out_dir),
        [
            "finish_t.tgz",
            "wr0_best.tar.xz.part-aa",
            "wr0_one_q.tar.xz.part-aa"
        ],
        "{}",
        text(&out)
    );
    // r0/best: one of the tail's two checkpoints (its end or kept step 12), by their scores.
    let (products, chosen) = product_choice(&base);
    let tail_checkpoints = [tailed.join("checkpoint"), tailed.join("kept/step-00000012")];
    assert!(
        tail_checkpoints.iter().any(|c| Path::new(&chosen) == c),
        "{chosen} is not one of the tail's checkpoints: {products}"
    );
    assert!(products.contains("(1 seeds)  <- chosen"), "{products}");
    // The same command again trains nothing more.
    let again = with_tail(&tail);
    assert!(again.status.success(), "{}", text(&again));
    assert_eq!(step_of(&tailed), 13);
}

#[test]
fn finishes_none_tails_straight_from_phase_two_two_tails_side_by_side() {
    let (_dir, base, out_dir) = one_recipe_with_out();
    let base_s = base.to_str().unwrap();
    let smoke = repo().join("envs/smoke.toml");
    let tail = format!("q={0} p={0}", smoke.display());
    let bare = run_script(
        "recipe_finish.sh",
        &[("RUN_ROOT_BASE", base_s), ("FINISHES", "none")],
    );
    assert_eq!(bare.status.code(), Some(2), "{}", text(&bare));
    assert!(text(&bare).contains("FINISHES=none needs FINISH_TAIL"));
    assert!(!base.join("r0/finish").exists(), "no tail, nothing trained");

    let vars = [
        ("RUN_ROOT_BASE", base_s),
        ("FINISHES", "none"),
        ("FINISH_TAIL", tail.as_str()),
        ("FINISH_TAIL_STEPS", "3"),
        ("FINISH_TAIL_ARGS", "--reset-optimizer --keep-every 2"),
        ("SCORE_KEPT", "1"),
        ("SCORE_SEEDS", "5"),
        ("JOBS", "2"),
        ("OUT", out_dir.to_str().unwrap()),
        ("TAG", "t"),
        ("WEIGHTS", "r0/best"),
    ];
    let out = run_script("recipe_finish.sh", &vars);
    assert!(out.status.success(), "{}", text(&out));
    // Both tails: phase 2's step 8 + 3 (branched from phase 2 itself, a fresh Adam each).
    let tails = ["q", "p"].map(|t| base.join(format!("r0/finish/none_{t}/run")));
    for tailed in &tails {
        assert_eq!(step_of(tailed), 11, "{}", text(&out));
        assert_eq!(adam_step(&tailed.join("checkpoint")), 3, "{}", text(&out));
    }
    assert_eq!(
        step_of(&base.join("r0/best/phase2")),
        8,
        "phase 2 untouched"
    );
    // Phase 2 scored once (not again as the finish "none"), each tail and its kept step 10 too.
    let summary = std::fs::read_to_string(base.join("scores/summary.txt")).unwrap();
    for (name, times) in [
        ("best_phase2_checkpoint", 1),
        ("finish_none_run_checkpoint", 0),
        ("finish_none_q_run_checkpoint", 1),
        ("finish_none_q_run_kept_step-00000010", 1),
        ("finish_none_p_run_checkpoint", 1),
        ("finish_none_p_run_kept_step-00000010", 1),
    ] {
        let n = summary.lines().filter(|l| l.contains(name)).count();
        assert_eq!(n, times, "{name}: {summary}");
    }
    let (products, chosen) = product_choice(&base);
    assert!(
        tails.iter().any(|t| Path::new(&chosen).starts_with(t)),
        "{chosen} is not a tail's: {products}"
    );
    assert_eq!(products.matches("(1 seeds)").count(), 4, "{products}");
    assert_eq!(
        file_names(&out_dir),
        ["finish_t.tgz", "wr0_best.tar.xz.part-aa"],
        "{}",
        text(&out)
    );
}

#[test]
fn finishes_take_the_first_choice_where_refining_was_cut_short_and_find_spare_recipes() {
    let (dir, base) = one_recipe();
    let base_s = base.to_str().unwrap();
    // As if recipe 0 had started again with its spare seeds (in r02) and the deadline had come
    // while they were still refining: no best/ yet, only the choice at SELECT_STEP.
    std::fs::rename(base.join("r0"), base.join("r02")).unwrap();
    std::fs::write(base.join("r0.spare"), "").unwrap();
    std::fs::remove_dir_all(base.join("r02/best")).unwrap();
    let chosen: String = std::fs::read_to_string(base.join("r02/choice.txt"))
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let finishes = format!("one={}", repo().join("envs/smoke.toml").display());
    let vars = [
        ("RUN_ROOT_BASE", base_s),
        ("FINISHES", finishes.as_str()),
        ("FINISH_STEPS", "2"),
        ("OUT", out_dir.to_str().unwrap()),
        ("TAG", "t"),
        ("WEIGHTS", "r0/one"),
    ];
    let out = run_script("recipe_finish.sh", &vars);
    assert!(out.status.success(), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "the refined choice is unfinished; seed {chosen} of the first"
        )),
        "{}",
        text(&out)
    );
    // The chosen seed's run stopped at the switch (step 6); its finish ran two steps more.
    assert!(
        stderr.contains("finishing from phase 1 at 6"),
        "{}",
        text(&out)
    );
    assert_eq!(
        step_of(&base.join("r02/finish/one/run")),
        8,
        "{}",
        text(&out)
    );
    assert_eq!(
        file_names(&out_dir),
        ["finish_t.tgz", "wr0_one.tar.xz.part-aa"],
        "{}",
        text(&out)
    );
}

#[test]
fn finish_arms_finish_each_arms_phase_two_beside_the_recipes_own() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("rpg");
    let base_s = base.to_str().unwrap();
    let smoke = repo().join("envs/smoke.toml");
    // The arm: the smoke config at another learning rate, so its phase 2 differs from best's.
    let arm_config = dir.path().join("arm.toml");
    let arm_toml = format!("base = \"{}\"\n\n[train]\nlr = 3e-3\n", smoke.display());
    std::fs::write(&arm_config, arm_toml).unwrap();
    let arms = format!("full={}", arm_config.display());
    let out = run_script(
        "recipe_per_gpu.sh",
        &[
            ("RECIPES", "1,2"),
            ("RUN_ROOT_BASE", base_s),
            ("ARMS", arms.as_str()),
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(step_of(&base.join("r0/full/phase2")), 8, "{}", text(&out));
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let finishes = format!("one={}", smoke.display());
    let vars = [
        ("RUN_ROOT_BASE", base_s),
        ("FINISHES", finishes.as_str()),
        ("FINISH_ARMS", "full nope"),
        ("FINISH_STEPS", "2"),
        ("SCORE_SEEDS", "5"),
        ("JOBS", "2"),
        ("OUT", out_dir.to_str().unwrap()),
        ("TAG", "t"),
        ("WEIGHTS", "r0/full/one"),
    ];
    let out = run_script("recipe_finish.sh", &vars);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("skip arm nope of"),
        "{}",
        text(&out)
    );
    // The recipe's phase 2 and the arm's, each finished two steps from its own step 8.
    assert_eq!(step_of(&base.join("r0/finish/one/run")), 10);
    assert_eq!(step_of(&base.join("r0/finish_full/one/run")), 10);
    // Same finish config and seed: only their sources (best's and the arm's phase 2) differ.
    let weights = |run: &str| std::fs::read(base.join(run).join("checkpoint/weights.safetensors"));
    assert_ne!(
        weights("r0/finish/one/run").unwrap(),
        weights("r0/finish_full/one/run").unwrap()
    );
    let summary = std::fs::read_to_string(base.join("scores/summary.txt")).unwrap();
    for name in [
        "r0_best_phase2_checkpoint ",
        "r0_full_phase2_checkpoint ",
        "r0_finish_one_run_checkpoint ",
        "r0_finish_full_one_run_checkpoint ",
    ] {
        assert_eq!(
            summary.lines().filter(|l| l.contains(name)).count(),
            1,
            "{name}: {summary}"
        );
    }
    assert_eq!(
        file_names(&out_dir),
        ["finish_t.tgz", "wr0_full_one.tar.xz.part-aa"],
        "{}",
        text(&out)
    );
    // A bad arm name stops it before any finish starts.
    let bad = [
        ("RUN_ROOT_BASE", base_s),
        ("FINISHES", finishes.as_str()),
        ("FINISH_ARMS", "Full"),
    ];
    let out = run_script("recipe_finish.sh", &bad);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("FINISH_ARMS: bad arm name 'Full'"));
}

/// `python3 scripts/cuda/SCRIPT ARGS` (stdout, or the error as `Err`).
fn python_script(script: &str, args: &[&str]) -> Result<String, String> {
    let out = Command::new("python3")
        .arg(repo().join("scripts/cuda").join(script))
        .args(args)
        .output()
        .expect("run python3");
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(text(&out))
    }
}

/// `python3 scripts/cuda/score_sets.py ARGS`.
fn score_sets(args: &[&str]) -> Result<String, String> {
    python_script("score_sets.py", args)
}

#[test]
fn score_sets_gives_per_set_means_and_paired_wins() {
    let dir = tempfile::tempdir().unwrap();
    // Two encoders of one draw on two seeds of the 131011 set and one seed of no set.
    let reports = [
        ("a", 131011, 0.90, 2.0),
        ("a", 132019, 0.80, 4.0),
        ("a", 7, 0.70, 1.0),
        ("b", 131011, 0.85, 3.0),
        ("b", 132019, 0.81, 3.0),
    ];
    for (name, seed, mota, count) in reports {
        let report = serde_json::json!({
            "mota": mota, "ap": 0.5, "count_abs_error": count, "num_gt": 100,
            "num_false_positives": 10, "num_misses": 5, "overlapping_pairs_per_frame": 0.25,
            "seed": seed, "checkpoint": {"step": 40},
        });
        let path = dir.path().join(format!("{name}-{seed}.json"));
        std::fs::write(path, report.to_string()).unwrap();
    }
    let d = dir.path().to_str().unwrap();
    let rows = score_sets(&[d]).unwrap();
    let rows: Vec<Vec<&str>> = rows
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    let row = |name: &str, set: &str| {
        rows.iter()
            .find(|r| r[0] == name && r[2] == set)
            .unwrap_or_else(|| panic!("no row {name} {set}: {rows:?}"))
            .join(" ")
    };
    assert_eq!(
        row("a", "s131"),
        "a 40 s131 n=2 MOTA 0.850 AP 0.500 count 3.00 fp 0.100 miss 0.050 pairs 0.250"
    );
    assert!(row("a", "other").contains("n=1 MOTA 0.700"));
    assert_eq!(rows.len(), 3, "{rows:?}");
    // a against b on the seeds both have: higher on one of two, +0.02 MOTA on average.
    let pair = score_sets(&[d, "--pair", "a", "b"]).unwrap();
    assert_eq!(
        pair.split_whitespace().collect::<Vec<_>>().join(" "),
        "a vs b s131 n=2 MOTA higher on 1/2 dMOTA +0.020 dcount +0.00"
    );
    let err = score_sets(&[d, "--pair", "z", "b"]).unwrap_err();
    assert!(err.contains("'z' matches no checkpoint"), "{err}");
}

#[test]
fn score_sets_gives_the_duplicate_false_positives_where_every_report_has_them() {
    let dir = tempfile::tempdir().unwrap();
    for (seed, duplicate) in [(131011, 3), (132019, 5)] {
        let report = serde_json::json!({
            "mota": 0.9, "ap": 0.5, "count_abs_error": 1.0, "num_gt": 100,
            "num_false_positives": 10, "num_misses": 5, "overlapping_pairs_per_frame": 0.0,
            "false_positive_kinds": {"duplicate": duplicate, "near_miss": 1, "no_overlap": 0},
            "seed": seed, "checkpoint": {"step": 40},
        });
        std::fs::write(
            dir.path().join(format!("a-{seed}.json")),
            report.to_string(),
        )
        .unwrap();
    }
    let rows = score_sets(&[dir.path().to_str().unwrap()]).unwrap();
    assert!(rows.trim_end().ends_with("pairs 0.000 dup 0.040"), "{rows}");
}

/// `python3 scripts/cuda/pick_product.py ARGS`: the chosen checkpoint.
fn pick_product(args: &[&str]) -> Result<String, String> {
    python_script("pick_product.py", args).map(|out| out.trim().to_string())
}

#[test]
fn pick_product_takes_the_best_mota_within_the_count_bound_on_shared_seeds() {
    let dir = tempfile::tempdir().unwrap();
    let scores = dir.path().join("scores");
    std::fs::create_dir(&scores).unwrap();
    // Candidates by path; their reports named as score_parallel.sh names them.
    let (a, b, c) = (
        "/r/t/run/checkpoint",
        "/r/t/run/kept/step-12",
        "/r/u/run/checkpoint",
    );
    let reports = [
        (a, 1, 0.88, 2.5),
        (a, 2, 0.88, 2.5),
        (b, 1, 0.95, 3.5), // best MOTA, count error over the bound
        (b, 2, 0.95, 3.5),
        (c, 1, 0.90, 2.0),
        (c, 2, 0.80, 2.0), // mean 0.85 on the shared seeds
        (c, 3, 1.00, 0.0), // a seed the others lack: not counted
    ];
    for (ck, seed, mota, count) in reports {
        let name = ck.trim_start_matches('/').replace('/', "_");
        let report = serde_json::json!({"mota": mota, "count_abs_error": count});
        std::fs::write(
            scores.join(format!("{name}-{seed}.json")),
            report.to_string(),
        )
        .unwrap();
    }
    let s = scores.to_str().unwrap();
    assert_eq!(pick_product(&[s, a, b, c]).unwrap(), a);
    // A looser bound admits b; an unscored candidate is left out.
    assert_eq!(
        pick_product(&[s, a, b, c, "/r/none", "--max-count", "4"]).unwrap(),
        b
    );
    // None within the bound: the lowest count error.
    assert_eq!(pick_product(&[s, a, b, c, "--max-count", "1"]).unwrap(), c);
    let err = pick_product(&[s, "/r/none"]).unwrap_err();
    assert!(err.contains("no candidate has reports"), "{err}");
}

#[test]
fn space_invaders_recipe_trains_finishes_tails_and_returns_the_validation_choice() {
    let (_dir, base, out_dir) = run_dirs();
    let smoke = repo().join("envs/smoke.toml");
    let finishes = format!("f={}", smoke.display());
    let tails = format!("h={0} d={0}", smoke.display());
    // `120`: train for up to 120 s, then the default finish budget; the smoke config throughout,
    // one seed per recipe as in the recipe's default (nothing to choose, the refine step moot).
    let out = run_script(
        "space_invaders_recipe.sh",
        &[
            ("RECIPES", "1"),
            ("RUN_ROOT_BASE", base.to_str().unwrap()),
            ("FINISHES", finishes.as_str()),
            ("FINISH_STEPS", "2"),
            ("FINISH_TAIL", tails.as_str()),
            ("FINISH_TAIL_STEPS", "2"),
            ("FINISH_TAIL_ARGS", "--reset-optimizer --keep-every 1"),
            ("PRODUCT_MAX_COUNT", "1000"),
            ("SCORE_SEEDS", "5"),
            ("JOBS", "2"),
            ("OUT", out_dir.to_str().unwrap()),
            ("TAG", "t"),
            ("WEIGHTS", ""),
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    // Phase 2 to step 8, the finish 2 more, both tails 2 more from the finish.
    assert_eq!(step_of(&base.join("r0/best/phase2")), 8, "{}", text(&out));
    assert_eq!(step_of(&base.join("r0/finish/f/run")), 10, "{}", text(&out));
    for tail in ["f_h", "f_d"] {
        let run = base.join("r0/finish").join(tail).join("run");
        assert_eq!(step_of(&run), 12, "{tail}: {}", text(&out));
    }
    // The product: one of the tails' checkpoints, chosen on the validation seed.
    let (products, chosen) = product_choice(&base);
    assert!(
        ["f_h", "f_d"]
            .iter()
            .any(|t| Path::new(&chosen).starts_with(base.join("r0/finish").join(t))),
        "{chosen} is not a tail's: {products}"
    );
    // Training's logs, the finish's, and the product's weights (WEIGHTS empty: every rG/best).
    assert_eq!(
        file_names(&out_dir),
        ["finish_t.tgz", "logs_t.tgz", "wr0_best.tar.xz.part-aa"],
        "{}",
        text(&out)
    );
}
