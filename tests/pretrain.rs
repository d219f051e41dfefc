//! `silot pretrain` end to end on the CPU with the smoke env and `recipes/smoke.toml`: a run
//! killed (SIGKILL) in the middle of its stages and resumed by the same command gives the same
//! choices and the same product as an uninterrupted one; a finished run is never overwritten.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `silot pretrain --env smoke --recipe recipes/smoke.toml --out OUT --quiet`.
fn pretrain_cmd(out: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_silot"));
    cmd.args(["pretrain", "--env", "smoke", "--quiet", "--recipe"])
        .arg(repo().join("recipes/smoke.toml"))
        .arg("--out")
        .arg(out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

fn run_to_end(out: &Path) -> String {
    let o = pretrain_cmd(out).output().expect("run silot");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Starts the command and kills it (SIGKILL) as soon as `path` exists under `out`; whether it
/// was still running then.
fn kill_when(out: &Path, path: &str) -> bool {
    let mut child: Child = pretrain_cmd(out).spawn().expect("spawn silot");
    let t0 = Instant::now();
    while !out.join(path).exists() {
        if child.try_wait().expect("wait").is_some() || t0.elapsed() > Duration::from_secs(120) {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let running = child.try_wait().expect("wait").is_none();
    let _ = child.kill();
    let _ = child.wait();
    running
}

fn report(out: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(out.join("report.json")).expect("report.json");
    serde_json::from_str(&text).unwrap()
}

#[test]
fn a_killed_and_resumed_run_gives_the_uninterrupted_runs_product() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let line = run_to_end(&a);
    assert!(line.starts_with("pretrained smoke: product"), "{line}");
    // Paused by a time limit too short for a round: the state is saved, nothing trained.
    let o = pretrain_cmd(&b)
        .args(["--time-limit", "2"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success() && stdout.contains("paused by the time limit"),
        "{stdout}"
    );
    assert!(b.join("pretrain.json").exists());
    // Killed while the seeds train, in phase 2, on streams and in a tail; each time resumed.
    let mut interrupted = 0;
    for at in [
        "seeds/s1/checkpoint/state.json",
        "phases/phase2/checkpoint/state.json",
        "phases/streams/metrics.jsonl",
        "tails/h/kept",
    ] {
        interrupted += kill_when(&b, at) as usize;
    }
    assert!(
        interrupted >= 2,
        "only {interrupted} kill(s) hit a running process"
    );
    run_to_end(&b);
    let (ra, rb) = (report(&a), report(&b));
    for key in ["choice", "derived", "product"] {
        assert_eq!(ra[key], rb[key], "{key}");
    }
    let names = |r: &serde_json::Value| -> Vec<(String, u64)> {
        r["candidates"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["checkpoint"].as_str().unwrap().to_string(),
                    c["step"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(names(&ra), names(&rb));
    // The reports say what they chose and why, and that the synthetic env's choices read labels.
    assert_eq!(ra["choice"]["rule"], "mota");
    assert_eq!(ra["choice"]["labels_used"], true);
    assert!(ra["derived"][0]["from"]
        .as_str()
        .unwrap()
        .contains("box width"));
    assert!(ra["device_seconds"].as_f64().unwrap() > 0.0);
    let weights = |d: &Path| std::fs::read(d.join("product/weights.safetensors")).unwrap();
    assert!(weights(&a) == weights(&b), "the products' weights differ");

    // A finished run is reported again, its product untouched.
    let before = std::fs::metadata(a.join("product/weights.safetensors"))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(run_to_end(&a), line);
    let after = std::fs::metadata(a.join("product/weights.safetensors"))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(before, after);
    // The product loads as a checkpoint.
    let eval = Command::new(env!("CARGO_BIN_EXE_silot"))
        .args([
            "eval",
            "--env",
            "smoke",
            "--tracker",
            "silot",
            "--clips",
            "1",
            "--checkpoint",
        ])
        .arg(a.join("product"))
        .output()
        .unwrap();
    assert!(
        eval.status.success(),
        "{}",
        String::from_utf8_lossy(&eval.stderr)
    );
}

#[test]
fn pretrain_refuses_foreign_directories_and_changed_recipes() {
    let tmp = tempfile::tempdir().unwrap();
    let foreign = tmp.path().join("foreign");
    std::fs::create_dir_all(&foreign).unwrap();
    std::fs::write(foreign.join("notes.txt"), "mine").unwrap();
    let o = pretrain_cmd(&foreign).output().unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a pretrain run directory"));

    // A run started under one recipe does not resume under another.
    let run = tmp.path().join("run");
    let mut state = serde_json::json!({
        "format": "silot-pretrain-v1", "env": "smoke", "recipe_origin": "other.toml",
        "recipe": "[seeds]\nseeds = [9]\nsteps = 1\n", "budget_minutes": null, "device": "cpu",
        "stages": [],
    });
    std::fs::create_dir_all(&run).unwrap();
    std::fs::write(run.join("pretrain.json"), state.to_string()).unwrap();
    let o = pretrain_cmd(&run).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(
        !o.status.success() && err.contains("another recipe"),
        "{err}"
    );
    state["env"] = "scattered_mnist".into();
    std::fs::write(run.join("pretrain.json"), state.to_string()).unwrap();
    let o = pretrain_cmd(&run).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(err.contains("--env scattered_mnist"), "{err}");
}

/// A budget the fixed stages already exceed: the fill phase gets nothing, and the run says so
/// with the budget that would give it some.
#[test]
fn a_budget_too_small_for_the_fill_phase_is_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let cmd = pretrain_cmd(&out);
    // Progress lines on: drop --quiet.
    let args: Vec<_> = cmd
        .get_args()
        .filter(|a| *a != "--quiet")
        .map(|a| a.to_owned())
        .collect();
    let o = Command::new(cmd.get_program())
        .args(args)
        .args(["--budget", "0.001"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(
        stderr.contains("phase phase2 gets no time") && stderr.contains("a budget of at least"),
        "{stderr}"
    );
    let state = report(&out);
    assert_eq!(state["product"]["checkpoint"], "product");
}

/// `silot pretrain --gpus 2` (issue 47): two rank processes over TCP run a small recipe (a seed,
/// a phase, a stream phase, a tail) to its product; rank 0 alone prints and writes, every run's
/// steps are logged once, and the stream phase trains with one env per clip of each rank.
#[test]
fn pretrain_with_two_rank_processes() {
    let tmp = tempfile::tempdir().unwrap();
    let recipe = tmp.path().join("mini.toml");
    std::fs::write(
        &recipe,
        r#"
[train]
eval_every = 2
checkpoint_every = 2

[seeds]
seeds = [1]
steps = 2

[mota]
clips = 2

[[phase]]
name = "phase1"
steps = 2

[[phase]]
name = "streams"
steps = 2
fresh_adam = true
[phase.train]
streams = true
rollout_envs = 4

[[tail]]
name = "h"
steps = 1
fresh_adam = true
"#,
    )
    .unwrap();
    let out = tmp.path().join("run");
    let o = Command::new(env!("CARGO_BIN_EXE_silot"))
        .args([
            "pretrain", "--env", "smoke", "--quiet", "--gpus", "2", "--recipe",
        ])
        .arg(&recipe)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert!(o.status.success(), "{stderr}");
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(stdout.starts_with("pretrained smoke: product"), "{stdout}");
    assert!(out.join("product/weights.safetensors").exists());
    assert_eq!(report(&out)["product"]["step"], 7, "{}", report(&out));
    for run in ["seeds/s1", "phases/phase1", "phases/streams", "tails/h"] {
        let recs =
            silot::train::metrics_log::read_metrics(&out.join(run).join("metrics.jsonl")).unwrap();
        let steps: Vec<u64> = recs
            .iter()
            .filter(|r| r.kind == "train")
            .map(|r| r.step)
            .collect();
        let mut once = steps.clone();
        once.dedup();
        assert_eq!(steps, once, "{run}: {steps:?}");
        assert!(!steps.is_empty(), "{run}");
    }
}

/// `--side-by-side processes` (the seeds and the tails each in a child process, the default on
/// a GPU) makes the product of `--side-by-side threads` bit for bit, and the same choices.
#[test]
fn seeds_and_tails_as_processes_give_the_threads_product() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |mode: &str| {
        let out = tmp.path().join(mode);
        let o = pretrain_cmd(&out)
            .args(["--side-by-side", mode])
            .output()
            .expect("run silot");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        out
    };
    let (threads, processes) = (run("threads"), run("processes"));
    assert!(
        processes.join("jobs/job_1.json").exists(),
        "two jobs side by side"
    );
    assert!(!threads.join("jobs").exists());
    let weights = |out: &Path| std::fs::read(out.join("product/weights.safetensors")).unwrap();
    assert_eq!(weights(&threads), weights(&processes));
    let (a, b) = (report(&threads), report(&processes));
    for key in [
        "choice",
        "derived",
        "candidates",
        "product",
        "steps_trained",
    ] {
        assert_eq!(a[key], b[key], "{key}");
    }
}
