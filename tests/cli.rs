//! End-to-end tests of the `silot` binary.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The binary under test: `SILOT_BIN` if set, else the one cargo built, else (test binaries
/// copied to another machine, as to the GPU machine, where the build path is absent) `silot`
/// on PATH.
fn silot_command() -> Command {
    let built = Path::new(env!("CARGO_BIN_EXE_silot"));
    let bin = std::env::var_os("SILOT_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            if built.exists() {
                built.to_path_buf()
            } else {
                PathBuf::from("silot")
            }
        });
    Command::new(bin)
}

fn silot(args: &[&str]) -> (bool, String, String) {
    let out = silot_command().args(args).output().expect("run silot");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `silot args`, asserts that it succeeded (stderr as the message) and returns its stdout.
fn silot_ok(args: &[&str]) -> String {
    let (ok, stdout, stderr) = silot(args);
    assert!(ok, "{stderr}");
    stdout
}

/// Runs `silot args`, asserts that it failed with every one of `needles` in its stderr (stderr
/// as the message) and returns that stderr.
fn silot_err(args: &[&str], needles: &[&str]) -> String {
    let (ok, _, stderr) = silot(args);
    assert!(!ok, "{stderr}");
    for n in needles {
        assert!(stderr.contains(n), "{stderr}");
    }
    stderr
}

/// `silot eval --env smoke --tracker silot --checkpoint CHECKPOINT EXTRA...`; its stdout.
fn eval_smoke_silot(checkpoint: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "eval",
        "--env",
        "smoke",
        "--tracker",
        "silot",
        "--checkpoint",
        checkpoint,
    ];
    args.extend_from_slice(extra);
    silot_ok(&args)
}

/// A path as a command-line argument.
fn arg(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `silot train --config smoke --out OUT --steps STEPS EXTRA...`; its stdout.
fn train_smoke(out: &Path, steps: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "train",
        "--config",
        "smoke",
        "--out",
        arg(out),
        "--steps",
        steps,
    ];
    args.extend_from_slice(extra);
    silot_ok(&args)
}

/// `--gpus 2` on the CPU (issue 47): two data-parallel replicas on threads train the run, rank 0
/// writing it once; a batch that does not split evenly and several seeds are refused.
#[test]
fn train_with_two_cpu_replicas() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let line = train_smoke(&out, "3", &["--gpus", "2"]);
    assert!(line.contains("trained to step 3"), "{line}");
    let recs = silot::train::metrics_log::read_metrics(&out.join("metrics.jsonl")).unwrap();
    let steps: Vec<u64> = recs
        .iter()
        .filter(|r| r.kind == "train")
        .map(|r| r.step)
        .collect();
    assert_eq!(steps, vec![1, 2, 3]);
    assert!(out.join("checkpoint/state.json").exists());
    let other = dir.path().join("other");
    silot_err(
        &[
            "train",
            "--config",
            "smoke",
            "--out",
            arg(&other),
            "--steps",
            "1",
            "--gpus",
            "3",
        ],
        &["batch_size = 4", "3 equal shards"],
    );
    silot_err(
        &[
            "train",
            "--config",
            "smoke",
            "--out",
            arg(&other),
            "--gpus",
            "2",
            "--seed",
            "1,2",
        ],
        &["with several --seed values is not supported"],
    );
}

/// `silot args` with the variables `vars` set; (success, stdout, stderr).
fn silot_env(args: &[&str], vars: &[(&str, String)]) -> (bool, String, String) {
    let mut cmd = silot_command();
    cmd.args(args);
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run silot");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A run's `metrics.jsonl` records without their clock fields (`time_s`, `data_wait_s`).
fn metrics_without_clock(run: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(run.join("metrics.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            let o = v.as_object_mut().unwrap();
            o.remove("time_s");
            o.remove("data_wait_s");
            v
        })
        .collect()
}

/// The steps of a run's `train` records.
fn train_steps(run: &Path) -> Vec<u64> {
    silot::train::metrics_log::read_metrics(&run.join("metrics.jsonl"))
        .unwrap()
        .iter()
        .filter(|r| r.kind == "train")
        .map(|r| r.step)
        .collect()
}

/// A free TCP port on the loopback interface.
fn free_port() -> u16 {
    std::net::TcpListener::bind(("127.0.0.1", 0))
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `--gpus 2` as two processes over TCP (issue 47) trains the bit-identical run of two replicas
/// as threads (metrics, weights, Adam state), printing one line; the run then resumes with one
/// process and with four at the same global batch (4), each line of metrics written once.
#[test]
fn two_rank_processes_match_two_threads_and_resume_with_other_counts() {
    let dir = tempfile::tempdir().unwrap();
    let (procs, threads) = (dir.path().join("procs"), dir.path().join("threads"));
    let line = train_smoke(&procs, "3", &["--gpus", "2"]);
    assert_eq!(line.lines().count(), 1, "{line}");
    assert!(line.contains("trained to step 3"), "{line}");
    train_smoke(&threads, "3", &["--gpus", "2", "--launch", "threads"]);
    assert_eq!(
        metrics_without_clock(&procs),
        metrics_without_clock(&threads)
    );
    for f in ["weights.safetensors", "optimizer.safetensors", "state.json"] {
        let read = |run: &Path| std::fs::read(run.join("checkpoint").join(f)).unwrap();
        assert!(read(&procs) == read(&threads), "checkpoint/{f} differs");
    }
    // On streams (each rank one env per clip of its share, new streams every 2 steps) too;
    // episodes of 64 frames, so that streams warmed up by up to one episode continue.
    let smoke = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/envs/smoke.toml"))
        .unwrap()
        .replace(
            "\ncheckpoint_every = 10\n",
            "\ncheckpoint_every = 2\nstreams = true\nrollout_envs = 4\n",
        )
        .replace(
            "\nmax_overlap = 18.0\n",
            "\nmax_overlap = 18.0\nepisode_length = 64\n",
        );
    assert!(
        smoke.contains("episode_length = 64"),
        "envs/smoke.toml changed"
    );
    let streams = dir.path().join("streams.toml");
    std::fs::write(&streams, smoke).unwrap();
    let (sp, st) = (dir.path().join("s-procs"), dir.path().join("s-threads"));
    for (run, launch) in [(&sp, "processes"), (&st, "threads")] {
        let cfg = arg(&streams);
        silot_ok(&[
            "train",
            "--config",
            cfg,
            "--out",
            arg(run),
            "--steps",
            "4",
            "--gpus",
            "2",
            "--launch",
            launch,
        ]);
    }
    let (a, b) = (metrics_without_clock(&sp), metrics_without_clock(&st));
    assert_eq!(a, b);
    assert!(
        a.iter().any(|r| r["streams_continued"].as_u64() == Some(4)),
        "{a:?}"
    );
    let line = train_smoke(&procs, "5", &[]);
    assert!(line.contains("trained to step 5"), "{line}");
    let line = train_smoke(&procs, "6", &["--gpus", "4"]);
    assert!(line.contains("trained to step 6"), "{line}");
    assert_eq!(train_steps(&procs), (1..=6).collect::<Vec<_>>());
    let cfg = silot::config::load_experiment("smoke")
        .unwrap()
        .run_config("smoke")
        .unwrap();
    let mut tr = silot::train::Trainer::new(&cfg, &candle_core::Device::Cpu).unwrap();
    tr.load(&procs.join("checkpoint")).unwrap();
    assert_eq!(tr.progress.global_step, 6);
}

/// Ranks started by an external launcher (`RANK`, `WORLD_SIZE`, `MASTER_ADDR`, `MASTER_PORT`):
/// two processes train the run, rank 0 alone printing; bad variables, a port in use and a
/// `--gpus` that contradicts `WORLD_SIZE` are clear errors.
#[test]
fn ranks_under_an_external_launcher_and_bad_variables() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let args = [
        "train",
        "--config",
        "smoke",
        "--out",
        arg(&out),
        "--steps",
        "2",
    ];
    let port = free_port().to_string();
    let vars = |rank: &str| {
        vec![
            ("RANK", rank.to_string()),
            ("WORLD_SIZE", "2".to_string()),
            ("MASTER_ADDR", "127.0.0.1".to_string()),
            ("MASTER_PORT", port.clone()),
        ]
    };
    let (r0, r1) = std::thread::scope(|s| {
        let a = s.spawn(|| silot_env(&args, &vars("0")));
        let b = s.spawn(|| silot_env(&args, &vars("1")));
        (a.join().unwrap(), b.join().unwrap())
    });
    assert!(r0.0 && r1.0, "{}\n{}", r0.2, r1.2);
    assert!(r0.1.contains("trained to step 2"), "{}", r0.1);
    assert!(r1.1.is_empty(), "rank 1 printed: {}", r1.1);
    assert_eq!(train_steps(&out), vec![1, 2]);
    let env = |pairs: &[(&'static str, &str)]| -> Vec<(&'static str, String)> {
        pairs.iter().map(|(k, v)| (*k, v.to_string())).collect()
    };
    let fails = |vars: Vec<(&str, String)>, extra: &[&str], needle: &str| {
        let mut a = args.to_vec();
        a.extend_from_slice(extra);
        let (ok, _, stderr) = silot_env(&a, &vars);
        assert!(!ok && stderr.contains(needle), "{stderr}");
    };
    fails(
        env(&[("RANK", "2"), ("WORLD_SIZE", "2")]),
        &[],
        "RANK = 2 with WORLD_SIZE = 2",
    );
    fails(
        env(&[
            ("RANK", "0"),
            ("WORLD_SIZE", "2"),
            ("MASTER_ADDR", "127.0.0.1"),
        ]),
        &[],
        "MASTER_PORT is not set",
    );
    let busy = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let busy_port = busy.local_addr().unwrap().port().to_string();
    fails(
        env(&[
            ("RANK", "0"),
            ("WORLD_SIZE", "2"),
            ("MASTER_ADDR", "127.0.0.1"),
            ("MASTER_PORT", &busy_port),
        ]),
        &[],
        "cannot listen at MASTER_PORT",
    );
    fails(vars("0"), &["--gpus", "3"], "--gpus 3 but WORLD_SIZE = 2");
}

/// A rank process killed mid-run (issue 47): the other rank ends with an error naming it, the
/// launcher reports it and exits non-zero, the last checkpoint loads, and the same command
/// resumes from it to the end.
#[cfg(target_os = "linux")]
#[test]
fn a_killed_rank_process_ends_the_run_and_the_checkpoint_stays() {
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    // The smoke config with a checkpoint every 2 steps.
    let smoke =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/envs/smoke.toml")).unwrap();
    assert!(smoke.contains("\ncheckpoint_every = 10\n"));
    let config = dir.path().join("smoke2.toml");
    std::fs::write(
        &config,
        smoke.replace("\ncheckpoint_every = 10\n", "\ncheckpoint_every = 2\n"),
    )
    .unwrap();
    let out = dir.path().join("run");
    let args = [
        "train",
        "--config",
        arg(&config),
        "--out",
        arg(&out),
        "--steps",
        "1000",
        "--gpus",
        "2",
    ];
    let log = dir.path().join("stderr.txt");
    let mut launcher = silot_command()
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let until = |what: &str, done: &mut dyn FnMut() -> bool| {
        while !done() {
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "timed out: {what}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    // Past the checkpoint of step 4.
    until("step 5", &mut || {
        std::fs::read_to_string(out.join("metrics.jsonl")).is_ok_and(|m| m.contains("\"step\":5,"))
    });
    let pid = launcher.id();
    let children = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).unwrap();
    let rank1 = children
        .split_whitespace()
        .find(|c| {
            std::fs::read(format!("/proc/{c}/environ"))
                .is_ok_and(|e| e.split(|b| *b == 0).any(|v| v == b"RANK=1"))
        })
        .expect("rank 1's process")
        .to_string();
    assert!(Command::new("kill")
        .args(["-9", &rank1])
        .status()
        .unwrap()
        .success());
    let mut status = None;
    until("the launcher's exit", &mut || {
        status = launcher.try_wait().unwrap();
        status.is_some()
    });
    assert!(start.elapsed() < Duration::from_secs(120));
    let stderr = std::fs::read_to_string(&log).unwrap();
    assert!(!status.unwrap().success(), "{stderr}");
    // "rank 1 closed its connection" or, when rank 0 was writing to it, "rank 1's connection
    // failed (Connection reset by peer)".
    assert!(
        stderr.contains("rank 0 of 2: data-parallel training stopped: rank 1")
            && stderr.contains("killed or crashed"),
        "{stderr}"
    );
    assert!(stderr.contains("rank 1 failed (killed"), "{stderr}");
    let cfg = silot::config::load_experiment(arg(&config))
        .unwrap()
        .run_config(arg(&config))
        .unwrap();
    let mut tr = silot::train::Trainer::new(&cfg, &candle_core::Device::Cpu).unwrap();
    tr.load(&out.join("checkpoint")).unwrap();
    let at = tr.progress.global_step;
    assert!(at >= 4 && at % 2 == 0, "checkpoint at step {at}");
    let mut again = args.to_vec();
    let to = (at + 2).to_string();
    again[6] = &to;
    let line = silot_ok(&again);
    assert!(line.contains(&format!("trained to step {to}")), "{line}");
    assert_eq!(train_steps(&out), (1..=at + 2).collect::<Vec<_>>());
}

/// Rank processes do not outlive their launcher: `silot train --gpus 2` killed with SIGKILL mid-run
/// (as a time limit would) takes both ranks with it within seconds.
#[cfg(target_os = "linux")]
#[test]
fn rank_processes_end_when_their_launcher_is_killed() {
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let mut launcher = silot_command()
        .args([
            "train",
            "--config",
            "smoke",
            "--out",
            arg(&out),
            "--steps",
            "1000",
            "--gpus",
            "2",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !std::fs::read_to_string(out.join("metrics.jsonl"))
        .is_ok_and(|m| m.contains("\"step\":2,"))
    {
        assert!(start.elapsed() < Duration::from_secs(120), "no step 2");
        std::thread::sleep(Duration::from_millis(50));
    }
    let pid = launcher.id();
    let children: Vec<String> = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children"))
        .unwrap()
        .split_whitespace()
        .map(str::to_string)
        .collect();
    assert_eq!(children.len(), 2, "{children:?}");
    launcher.kill().unwrap();
    launcher.wait().unwrap();
    // Gone, or a zombie waiting for whoever adopted it.
    let ended = |c: &String| {
        std::fs::read_to_string(format!("/proc/{c}/stat")).map_or(true, |s| {
            s.rsplit(')')
                .next()
                .is_some_and(|r| r.trim_start().starts_with('Z'))
        })
    };
    let t0 = Instant::now();
    while !children.iter().all(ended) {
        assert!(
            t0.elapsed() < Duration::from_secs(10),
            "ranks {children:?} outlived their launcher"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn envs_lists_experiments_and_atari_games() {
    let (ok, stdout, _) = silot(&["envs"]);
    assert!(ok);
    let ids: Vec<&str> = stdout.lines().collect();
    let mut expect = vec!["scattered_mnist", "scattered_shapes", "smoke"];
    if cfg!(feature = "atari") {
        expect.extend(["space_invaders", "asteroids", "breakout", "pong"]);
    }
    for id in expect {
        assert!(ids.contains(&id), "missing {id} in {ids:?}");
    }
    let mut sorted = ids.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted, ids, "one id per line, sorted, no duplicates");

    // --long: what each env can do, shipped encoders by the env they were trained on.
    let (ok, long, _) = silot(&["envs", "--long"]);
    assert!(ok);
    let row = |id: &str| -> Vec<String> {
        let line = long
            .lines()
            .find(|l| l.split_whitespace().next() == Some(id));
        let line = line.unwrap_or_else(|| panic!("no row for {id} in\n{long}"));
        line.split_whitespace().map(str::to_owned).collect()
    };
    assert_eq!(
        row("scattered_shapes"),
        ["scattered_shapes", "synthetic", "yes", "scattered_shapes"]
    );
    assert_eq!(row("smoke"), ["smoke", "synthetic", "yes", "-"]);
    if cfg!(feature = "atari") {
        assert_eq!(
            row("space_invaders"),
            ["space_invaders", "atari", "yes", "space_invaders"]
        );
        assert_eq!(row("breakout"), ["breakout", "atari", "-", "-"]);
    }
    assert!(
        long.contains(&format!("of {} envs have a [model] section", ids.len())),
        "{long}"
    );
}

#[test]
fn unknown_env_is_a_clear_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x");
    let stderr = silot_err(
        &["rollout", "--env", "space_invaderz", "--out", arg(&out)],
        &[
            "unknown env id `space_invaderz`",
            "scattered_mnist, scattered_shapes", // lists known ids
        ],
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn bad_toml_key_names_file_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("bad.toml");
    std::fs::write(
        &cfg,
        "[env]\nid = \"x\"\n[env.scattered_shapes]\nspeeed = 3\n",
    )
    .unwrap();
    let out = dir.path().join("o");
    silot_err(
        &["rollout", "--env", arg(&cfg), "--out", arg(&out)],
        &["bad.toml", "speeed"],
    );
}

#[test]
fn rollout_writes_a_readable_dataset_with_ground_truth() {
    let dir = tempfile::tempdir().unwrap();
    let rollout = |out: &Path, extra: &[&str]| {
        let mut args = vec!["rollout", "--env", "scattered_shapes", "--clips", "3"];
        args.extend(["--seed", "5", "--out", arg(out)]);
        args.extend(extra);
        silot_ok(&args)
    };
    let out = dir.path().join("shapes");
    let png = dir.path().join("strip.png");
    let stdout = rollout(&out, &["--png", arg(&png)]);
    assert!(stdout.contains("wrote 3 clips"), "{stdout}");
    let ds = silot::data::Dataset::open(&out).unwrap();
    assert_eq!(ds.len(), 3);
    let clip = ds.clip(2).unwrap();
    assert_eq!(clip.frames.shape(), &[8, 96, 96, 3]);
    let gt = clip.gt.expect("synthetic clips carry ground truth");
    assert_eq!(gt.len(), 8);
    assert!(!gt[0].is_empty());
    let img = image::open(&png).unwrap();
    assert_eq!(img.height(), 96);
    assert_eq!(img.width(), 8 * 96 + 7 * 2, "8 frames with 2 px gaps");
    // Same seed, same data.
    let out2 = dir.path().join("shapes2");
    rollout(&out2, &[]);
    assert_eq!(
        std::fs::read(out.join("frames.u8")).unwrap(),
        std::fs::read(out2.join("frames.u8")).unwrap()
    );
}

#[cfg(feature = "atari")]
#[test]
fn rollout_atari_paper_preset_is_cropped() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("si");
    silot_ok(&[
        "rollout",
        "--env",
        "space_invaders",
        "--clips",
        "2",
        "--warmup",
        "20",
        "--out",
        arg(&out),
    ]);
    let ds = silot::data::Dataset::open(&out).unwrap();
    assert_eq!(ds.clip(0).unwrap().frames.shape(), &[8, 195, 160, 3]);
    assert!(ds.clip(0).unwrap().gt.is_none());
}

/// Pairs of counted boxes (`score > 0.5`) with IoU >= 0.5 over all frames of a report's
/// `frames_detail`, by brute force over all pairs.
fn recomputed_overlapping_pairs(detail: &[serde_json::Value]) -> usize {
    let edges =
        |b: &serde_json::Value| ["top", "left", "bottom", "right"].map(|k| b[k].as_f64().unwrap());
    let iou = |a: [f64; 4], b: [f64; 4]| {
        let ih = (a[2].min(b[2]) - a[0].max(b[0])).max(0.0);
        let iw = (a[3].min(b[3]) - a[1].max(b[1])).max(0.0);
        let area = |r: [f64; 4]| (r[2] - r[0]) * (r[3] - r[1]);
        ih * iw / (area(a) + area(b) - ih * iw)
    };
    detail
        .iter()
        .map(|f| {
            let boxes: Vec<[f64; 4]> = f["pred"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|p| p["score"].as_f64().unwrap() > 0.5)
                .map(edges)
                .collect();
            (0..boxes.len())
                .flat_map(|i| (i + 1..boxes.len()).map(move |j| (i, j)))
                .filter(|&(i, j)| iou(boxes[i], boxes[j]) >= 0.5)
                .count()
        })
        .sum()
}

/// Counted ids (score > 0.5) of each frame not counted at the same clip's frame before, summed
/// over the frames after each clip's first; and how many such frames.
fn recomputed_births(detail: &[serde_json::Value]) -> (usize, usize) {
    let counted = |f: &serde_json::Value| -> Vec<u64> {
        f["pred"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["score"].as_f64().unwrap() > 0.5)
            .map(|p| p["id"].as_u64().unwrap())
            .collect()
    };
    let (mut births, mut frames) = (0, 0);
    for pair in detail.windows(2) {
        if pair[1]["clip"] == pair[0]["clip"] {
            let before = counted(&pair[0]);
            births += counted(&pair[1])
                .iter()
                .filter(|id| !before.contains(id))
                .count();
            frames += 1;
        }
    }
    (births, frames)
}

/// `silot eval` of ConnComp on 8 Scattered Shapes clips (seed 3) with `--dump-frames`, as JSON.
fn shapes_conncomp_report() -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("report.json");
    silot_ok(&[
        "eval",
        "--env",
        "scattered_shapes",
        "--tracker",
        "conncomp",
        "--clips",
        "8",
        "--seed",
        "3",
        "--json",
        arg(&json),
        "--dump-frames",
    ]);
    serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap()
}

#[test]
fn eval_reports_identity_births_as_recomputed_from_the_frames() {
    let v = shapes_conncomp_report();
    let detail = v["frames_detail"].as_array().expect("frames_detail");
    let (births, frames) = recomputed_births(detail);
    assert_eq!(frames, 8 * 7);
    assert!(
        births > 0,
        "the case should hold identities born after frame 0"
    );
    let got = v["births_per_frame"].as_f64().unwrap();
    assert!(
        (got - births as f64 / frames as f64).abs() < 1e-9,
        "{got} vs {births} births"
    );
}

#[test]
fn eval_reports_overlapping_pairs_as_recomputed_from_the_frames() {
    // Scattered Shapes seed 3, 8 clips: ConnComp's boxes overlap (IoU >= 0.5) once in the 64
    // frames, so the recomputation has something to find.
    let v = shapes_conncomp_report();
    let detail = v["frames_detail"].as_array().expect("frames_detail");
    let pairs = recomputed_overlapping_pairs(detail);
    assert!(pairs > 0, "the case should hold overlapping boxes");
    let got = v["overlapping_pairs_per_frame"].as_f64().unwrap();
    assert!(
        (got - pairs as f64 / detail.len() as f64).abs() < 1e-9,
        "{got} vs {pairs} pairs"
    );
}

#[test]
fn eval_writes_recomputable_json_report() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("report.json");
    let stdout = silot_ok(&[
        "eval",
        "--env",
        "scattered_mnist",
        "--tracker",
        "conncomp",
        "--clips",
        "3",
        "--seed",
        "77",
        "--json",
        arg(&json),
        "--dump-frames",
    ]);
    assert!(stdout.contains("MOTA"), "prints a table: {stdout}");
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    for key in [
        "mota",
        "motp",
        "idf1",
        "ap",
        "count_abs_error",
        "clips",
        "frames",
        "num_gt",
        "num_pred",
        "overlapping_pairs_per_frame",
        "births_per_frame",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert_eq!(v["clips"], 3);
    assert_eq!(v["frames"], 24);
    assert_eq!(v["env"], "scattered_mnist");
    assert_eq!(v["tracker"], "conncomp");
    assert_eq!(v["seed"], 77);
    let detail = v["frames_detail"].as_array().expect("frames_detail");
    assert_eq!(detail.len(), 24);
    // Recompute two numbers from the dumped frames.
    let num_gt: usize = detail
        .iter()
        .map(|f| f["gt"].as_array().unwrap().len())
        .sum();
    assert_eq!(v["num_gt"].as_u64().unwrap() as usize, num_gt);
    let count_err: f64 = detail
        .iter()
        .map(|f| {
            let pred = f["pred"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|p| p["score"].as_f64().unwrap() > 0.5)
                .count();
            (pred as f64 - f["gt"].as_array().unwrap().len() as f64).abs()
        })
        .sum::<f64>()
        / 24.0;
    assert!((v["count_abs_error"].as_f64().unwrap() - count_err).abs() < 1e-9);
}

#[test]
fn render_and_label_write_files() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("t.png");
    let gif = dir.path().join("t.gif");
    for out in [&png, &gif] {
        silot_ok(&[
            "render",
            "--env",
            "scattered_shapes",
            "--seed",
            "3",
            "--out",
            arg(out),
        ]);
    }
    assert!(image::open(&png).unwrap().width() > 8 * 96);
    assert!(std::fs::read(&gif).unwrap().starts_with(b"GIF89a"));
    if !cfg!(feature = "atari") {
        return;
    }
    let labels = dir.path().join("l.jsonl");
    silot_ok(&[
        "label",
        "--env",
        "space_invaders",
        "--clips",
        "2",
        "--seed",
        "1",
        "--out",
        arg(&labels),
    ]);
    let text = std::fs::read_to_string(&labels).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    let frames = lines[0]["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 8);
    assert!(
        frames.iter().all(|f| !f.as_array().unwrap().is_empty()),
        "Space Invaders frames have objects"
    );
}

#[test]
fn train_smoke_writes_metrics_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let r = arg(&run);
    let stdout = train_smoke(&run, "3", &[]);
    assert!(stdout.contains("trained to step 3"), "{stdout}");
    assert!(run.join("config.toml").exists());
    let lines = |p: &Path| std::fs::read_to_string(p).unwrap().lines().count();
    let first = lines(&run.join("metrics.jsonl"));
    assert!(first >= 3, "one JSON line per logged step");
    let rec: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(run.join("metrics.jsonl"))
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert!(
        rec.to_string().contains("total"),
        "loss terms are logged: {rec}"
    );
    // The gradient norm per parameter group adds up to the global one.
    let groups = rec["grad_norms"].as_object().expect("grad_norms logged");
    assert!(groups.contains_key("discovery.where") && groups.contains_key("backbone.conv0"));
    let sq: f64 = groups.values().map(|v| v.as_f64().unwrap().powi(2)).sum();
    let total = rec["grad_norm"].as_f64().unwrap();
    assert!(
        (sq.sqrt() - total).abs() <= 1e-9 * total,
        "{} vs {total}",
        sq.sqrt()
    );
    let stdout = train_smoke(&run, "5", &[]);
    assert!(stdout.contains("trained to step 5"), "resumed: {stdout}");
    for (args, needle) in [
        (
            [
                "train",
                "--config",
                "scattered_shapes",
                "--out",
                r,
                "--steps",
                "1",
            ],
            "different config",
        ),
        (
            [
                "train",
                "--config",
                "smoke",
                "--out",
                r,
                "--time-limit",
                "0",
            ],
            "positive number of seconds",
        ),
    ] {
        silot_err(&args, &[needle]);
    }
    let (ok, stdout, stderr) = silot(&[
        "train",
        "--config",
        "smoke",
        "--out",
        r,
        "--steps",
        "50",
        "--time-limit",
        "1e-9",
    ]);
    assert!(
        ok && stdout.contains("trained to step 6") && stdout.contains("time limit"),
        "{stdout}{stderr}"
    );
    // The trained model tracks: `silot eval --tracker silot` scores it with the same code.
    let json = dir.path().join("silot.json");
    let table = eval_smoke_silot(
        r,
        &[
            "--clips",
            "2",
            "--seed",
            "9",
            "--json",
            arg(&json),
            "--dump-frames",
        ],
    );
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(v["tracker"], "silot");
    // The report names the checkpoint it scored (the run's latest here: no eligible
    // validation yet, so no best/).
    let ckpt = dir.path().join("run/checkpoint").display().to_string();
    assert!(!dir.path().join("run/best").exists());
    assert_eq!(v["checkpoint"]["path"], ckpt.as_str());
    assert_eq!(v["checkpoint"]["step"], 6);
    assert!(
        table.contains(&format!("checkpoint {ckpt} (step 6)")),
        "{table}"
    );
    let detail = v["frames_detail"].as_array().unwrap();
    assert_eq!(detail.len(), 16);
    assert!(
        detail
            .iter()
            .all(|f| f["pred"].as_array().unwrap().len() == 4),
        "K = 4 slots per frame"
    );
    silot_err(
        &[
            "eval",
            "--env",
            "smoke",
            "--tracker",
            "silot",
            "--clips",
            "1",
        ],
        &["--checkpoint"],
    );
    // The object-centric wrapper over 2 envs: one JSON line per env and step, ids persistent.
    let lines = dir.path().join("objects.jsonl");
    let stdout = silot_ok(&[
        "observe",
        "--env",
        "smoke",
        "--checkpoint",
        r,
        "--envs",
        "2",
        "--steps",
        "5",
        "--threshold",
        "0",
        "--json",
        arg(&lines),
    ]);
    assert!(
        stdout.contains("2 envs x 5 steps") && stdout.contains("frames/s"),
        "{stdout}"
    );
    let recs: Vec<serde_json::Value> = std::fs::read_to_string(&lines)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(recs.len(), 10);
    assert!(recs
        .iter()
        .all(|r| r["objects"].as_array().unwrap().len() == 4));
    assert!(
        recs[0]["objects"][0].get("what").is_none(),
        "what only with --what"
    );
    silot_err(
        &["observe", "--env", "smoke", "--checkpoint", "/nonexistent"],
        &["checkpoint /nonexistent"],
    );
    let env_only = dir.path().join("env_only.toml");
    std::fs::write(&env_only, "[env]\nid = \"x\"\n[env.scattered_mnist]\n").unwrap();
    let out_b = dir.path().join("b");
    silot_err(
        &["train", "--config", arg(&env_only), "--out", arg(&out_b)],
        &["no [model] section"],
    );
    #[cfg(not(feature = "cuda"))]
    silot_err(
        &["train", "--config", "smoke", "--out", r, "--device", "cuda"],
        &["built without CUDA"],
    );
}

#[test]
fn average_then_branch_from_the_average() {
    let dir = tempfile::tempdir().unwrap();
    let (run, early) = (dir.path().join("run"), dir.path().join("early"));
    let train_to = |steps: &str| train_smoke(&run, steps, &[]);
    train_to("2");
    let copy = |from: &Path, to: &Path| {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    };
    copy(&run.join("checkpoint"), &early);
    train_to("4");
    let avg = dir.path().join("avg");
    let latest = run.join("checkpoint");
    let stdout = silot_ok(&["average", "--out", arg(&avg), arg(&early), arg(&latest)]);
    assert!(
        stdout.contains("averaged 2 checkpoint(s) (steps 2, 4)"),
        "{stdout}"
    );
    let table = eval_smoke_silot(arg(&avg), &["--clips", "1"]);
    assert!(table.contains("(step 4)"), "{table}");
    let branch = dir.path().join("branch");
    let stdout = train_smoke(&branch, "5", &["--branch-from", arg(&avg)]);
    assert!(stdout.contains("trained to step 5"), "{stdout}");
    silot_err(
        &["average", "--out", arg(&avg), arg(&avg)],
        &["one of the checkpoints"],
    );
    silot_err(
        &[
            "train",
            "--config",
            "scattered_mnist",
            "--out",
            arg(&dir.path().join("m")),
            "--branch-from",
            arg(&avg),
        ],
        &["another model"],
    );
}

#[test]
fn branch_from_weights_only_needs_a_fresh_optimizer() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    train_smoke(&run, "2", &[]);
    // A weights-only copy of the checkpoint (what comes back from the GPU machine).
    let weights = dir.path().join("weights");
    std::fs::create_dir_all(&weights).unwrap();
    for f in ["weights.safetensors", "state.json", "config.toml"] {
        std::fs::copy(run.join("checkpoint").join(f), weights.join(f)).unwrap();
    }
    let out = |name: &str| dir.path().join(name);
    let branch = |name: &str, extra: &[&str]| {
        let mut args = vec!["--branch-from", arg(&weights)];
        args.extend_from_slice(extra);
        let o = out(name);
        silot(
            &[
                &[
                    "train",
                    "--config",
                    "smoke",
                    "--steps",
                    "4",
                    "--out",
                    arg(&o),
                ],
                &args[..],
            ]
            .concat(),
        )
    };
    // Without --reset-optimizer the missing Adam state is named, and no run is left behind.
    let (ok, _, stderr) = branch("plain", &[]);
    assert!(!ok && stderr.contains("optimizer.safetensors"), "{stderr}");
    assert!(!out("plain").join("checkpoint").exists());
    // With it the branch goes on from step 2 with a fresh Adam and saves a full checkpoint.
    let (ok, stdout, stderr) = branch("fresh", &["--reset-optimizer"]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("trained to step 4"), "{stdout}");
    assert!(out("fresh/checkpoint/optimizer.safetensors").exists());
}

#[test]
fn conncomp_baseline_on_atari_is_refused_with_the_way_out() {
    if !cfg!(feature = "atari") {
        return;
    }
    // The synthetic-env baseline must not be scored on Atari.
    silot_err(
        &["eval", "--env", "space_invaders", "--clips", "1"],
        &["synthetic envs", "--tracker silot"],
    );
}

#[test]
fn tf32_without_cuda_device_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path().join("run");
    silot_err(
        &[
            "train",
            "--config",
            "smoke",
            "--out",
            arg(&r),
            "--steps",
            "1",
            "--tf32",
        ],
        &["--tf32 applies to --device cuda"],
    );
}

#[test]
fn half_backbone_without_cuda_device_is_a_clear_error() {
    // Checked before the checkpoint is read: the path need not exist.
    let dir = tempfile::tempdir().unwrap();
    let none = dir.path().join("none");
    silot_err(
        &[
            "observe",
            "--env",
            "scattered_mnist",
            "--checkpoint",
            arg(&none),
            "--half-backbone",
        ],
        &["--half-backbone applies to --device cuda"],
    );
}

#[test]
fn baseline_search_tunes_per_count_and_metric() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("search.json");
    let stdout = silot_ok(&[
        "baseline-search",
        "--env",
        "scattered_mnist",
        "--counts",
        "2",
        "--clips",
        "2",
        "--json",
        arg(&json),
    ]);
    assert!(
        stdout.contains("52 grid points") && stdout.contains("| 2 | Mota |"),
        "{stdout}"
    );
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(v[0]["objects"], 2);
    assert_eq!(v[0]["search"]["points"].as_array().unwrap().len(), 52);
    assert_eq!(v[0]["picks"].as_array().unwrap().len(), 3);
    silot_err(
        &["baseline-search", "--env", "smoke_missing_env"],
        &["smoke_missing_env"],
    );
}

#[test]
fn composed_ops_train_as_the_fused_ones() {
    // `--composed-ops` is the reference path for checking a training result. The first step's
    // losses (the forward) must agree with the fused path's; its gradient norm up to rounding.
    // Later steps drift apart by design: Adam's first updates are ~lr·sign(g), so rounding flips
    // the sign of near-zero gradients, and the composed Adam draws its gradient noise from
    // another stream.
    let dir = tempfile::tempdir().unwrap();
    let first_step = |name: &str, extra: &[&str]| -> serde_json::Value {
        let run = dir.path().join(name);
        train_smoke(&run, "2", extra);
        let text = std::fs::read_to_string(run.join("metrics.jsonl")).unwrap();
        serde_json::from_str(text.lines().next().unwrap()).unwrap()
    };
    let fused = first_step("fused", &[]);
    let composed = first_step("composed", &["--composed-ops"]);
    // The gradients go through other kernels, so the flag took effect.
    assert_ne!(fused["grad_norm"], composed["grad_norm"]);
    for (key, tol) in [
        ("reconstruction", 1e-6),
        ("disc_kl", 1e-5),
        ("total", 1e-5),
        ("grad_norm", 1e-2),
    ] {
        let (f, c) = (
            fused[key].as_f64().unwrap(),
            composed[key].as_f64().unwrap(),
        );
        assert!(
            (f - c).abs() <= tol * f.abs().max(1.0),
            "{key}: fused {f} vs composed {c}"
        );
    }
}

#[test]
fn train_seed_flag_replaces_the_configs_seed() {
    let dir = tempfile::tempdir().unwrap();
    let first_record = |run: &Path| -> serde_json::Value {
        let text = std::fs::read_to_string(run.join("metrics.jsonl")).unwrap();
        serde_json::from_str(text.lines().next().unwrap()).unwrap()
    };
    let seeded = dir.path().join("seeded");
    train_smoke(&seeded, "1", &["--seed", "5"]);
    let saved = std::fs::read_to_string(seeded.join("config.toml")).unwrap();
    assert!(saved.contains("seed = 5"), "{saved}");
    let plain = dir.path().join("plain");
    train_smoke(&plain, "1", &[]);
    // Other initial weights, clips and noise.
    assert_ne!(
        first_record(&seeded)["total"],
        first_record(&plain)["total"]
    );
    // The same seed again gives the same run.
    let again = dir.path().join("again");
    train_smoke(&again, "1", &["--seed", "5"]);
    assert_eq!(
        first_record(&seeded)["total"],
        first_record(&again)["total"]
    );
    // Resuming without the seed names the difference.
    let (ok, _, stderr) = silot(&[
        "train",
        "--config",
        "smoke",
        "--out",
        arg(&seeded),
        "--steps",
        "2",
    ]);
    assert!(!ok);
    assert!(
        stderr.contains("train.seed") && stderr.contains("--seed"),
        "{stderr}"
    );
    // With it, the run resumes.
    let stdout = train_smoke(&seeded, "2", &["--seed", "5"]);
    assert!(stdout.contains("trained to step 2"), "{stdout}");
}

#[test]
fn validation_frequency_does_not_change_training() {
    // A recipe may validate more often than the experiment file; that must only add `val`
    // lines (validation draws its own clips and noise; stage 1 never reloads a best checkpoint).
    let dir = tempfile::tempdir().unwrap();
    let smoke = concat!(env!("CARGO_MANIFEST_DIR"), "/envs/smoke.toml");
    let train_losses = |eval_every: u32| -> (Vec<f64>, usize) {
        let cfg = dir.path().join(format!("every{eval_every}.toml"));
        std::fs::write(
            &cfg,
            format!("base = {smoke:?}\n[train]\neval_every = {eval_every}\n"),
        )
        .unwrap();
        let run = dir.path().join(format!("run{eval_every}"));
        silot_ok(&[
            "train",
            "--config",
            arg(&cfg),
            "--out",
            arg(&run),
            "--steps",
            "14",
        ]);
        let text = std::fs::read_to_string(run.join("metrics.jsonl")).unwrap();
        let recs: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let losses = recs
            .iter()
            .filter(|r| r["kind"] == "train")
            .map(|r| r["total"].as_f64().unwrap())
            .collect();
        (losses, recs.iter().filter(|r| r["kind"] == "val").count())
    };
    let (often, n_often) = train_losses(3);
    let (rarely, n_rarely) = train_losses(7);
    assert_eq!((n_often, n_rarely), (4, 2));
    assert_eq!(often.len(), 14);
    assert_eq!(often, rarely);
}

/// `silot train --steps 8` on the smoke env with `extra` (TOML sections) laid over it, in
/// `dir/NAME`; its `metrics.jsonl` lines.
fn smoke_train_metrics(dir: &Path, name: &str, extra: &str) -> Vec<serde_json::Value> {
    let smoke = concat!(env!("CARGO_MANIFEST_DIR"), "/envs/smoke.toml");
    let cfg = dir.join(format!("{name}.toml"));
    std::fs::write(&cfg, format!("base = {smoke:?}\n{extra}")).unwrap();
    let out = dir.join(name);
    silot_ok(&[
        "train",
        "--config",
        arg(&cfg),
        "--out",
        arg(&out),
        "--steps",
        "8",
    ]);
    std::fs::read_to_string(out.join("metrics.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn full_frame_validation_measures_uncropped_clips_and_leaves_training_alone() {
    // `train.val_full_frames` adds a `full_frame` object (label-free object statistics on
    // uncropped clips, as `silot eval` runs the model) to each `val` line and changes nothing
    // else: 48x48 frames, 24x24 training crops.
    let dir = tempfile::tempdir().unwrap();
    let run = |full: u32| {
        smoke_train_metrics(
            dir.path(),
            &format!("full{full}"),
            &format!(
                "[env.scattered_shapes]\nheight = 48\nwidth = 48\n\
                 [train]\ncrop = [24, 24]\neval_every = 4\nval_full_frames = {full}\n"
            ),
        )
    };
    let (plain, full) = (run(0), run(3));
    let vals: Vec<&serde_json::Value> = full.iter().filter(|r| r["kind"] == "val").collect();
    assert_eq!(vals.len(), 2);
    for v in &vals {
        let ff = &v["full_frame"];
        for key in [
            "objects_per_frame",
            "box_width_px",
            "overlapping_pairs_per_frame",
            "births_per_frame",
        ] {
            let x = ff[key]
                .as_f64()
                .unwrap_or_else(|| panic!("no full_frame.{key}: {v}"));
            assert!(x.is_finite() && x >= 0.0, "{key} {x}");
        }
    }
    assert!(plain.iter().all(|r| r.get("full_frame").is_none()));
    let losses = |recs: &[serde_json::Value]| -> Vec<f64> {
        recs.iter().map(|r| r["total"].as_f64().unwrap()).collect()
    };
    assert_eq!(losses(&plain), losses(&full));
}

#[test]
fn the_streams_check_logs_what_the_objects_do_and_leaves_training_alone() {
    // `train.val_streams` adds a `stream` object (label-free: objects counted at the start and
    // the end of streams of the validation split run through the wrapper, identities born,
    // overlapping pairs) to each `val` line and changes nothing else.
    let dir = tempfile::tempdir().unwrap();
    let run = |streams: u32| {
        smoke_train_metrics(
            dir.path(),
            &format!("s{streams}"),
            &format!("[train]\neval_every = 4\nval_streams = {streams}\nval_stream_frames = 20\n"),
        )
    };
    let (plain, checked) = (run(0), run(2));
    let vals: Vec<&serde_json::Value> = checked.iter().filter(|r| r["kind"] == "val").collect();
    assert_eq!(vals.len(), 2);
    for v in &vals {
        let st = &v["stream"];
        assert_eq!(st["frames"], 20, "{v}");
        for key in [
            "objects_first",
            "objects_last",
            "births_per_frame",
            "overlapping_pairs_per_frame",
        ] {
            let x = st[key]
                .as_f64()
                .unwrap_or_else(|| panic!("no stream.{key}: {v}"));
            assert!(x.is_finite() && x >= 0.0, "{key} {x}");
        }
    }
    assert!(plain.iter().all(|r| r.get("stream").is_none()));
    let losses = |recs: &[serde_json::Value]| -> Vec<f64> {
        recs.iter().map(|r| r["total"].as_f64().unwrap()).collect()
    };
    assert_eq!(losses(&plain), losses(&checked));
}

#[test]
fn several_seeds_train_at_once_each_as_alone() {
    // `--seed 1,2` trains one run per seed on its own thread, in OUT/s1 and OUT/s2; each run is
    // the one `--seed N` alone gives (records equal, validation included), and the same command
    // resumes both.
    let dir = tempfile::tempdir().unwrap();
    let records = |run: &Path| -> Vec<serde_json::Value> {
        std::fs::read_to_string(run.join("metrics.jsonl"))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let totals = |run: &Path| -> Vec<(String, f64)> {
        records(run)
            .iter()
            .map(|r| {
                (
                    r["kind"].as_str().unwrap().to_string(),
                    r["total"].as_f64().unwrap(),
                )
            })
            .collect()
    };
    let both = dir.path().join("both");
    let stdout = train_smoke(&both, "11", &["--seed", "1,2"]);
    assert!(stdout.contains("seed 1: trained to step 11"), "{stdout}");
    assert!(stdout.contains("seed 2: trained to step 11"), "{stdout}");
    for seed in ["1", "2"] {
        let alone = dir.path().join(format!("alone{seed}"));
        train_smoke(&alone, "11", &["--seed", seed]);
        let together = both.join(format!("s{seed}"));
        assert_eq!(totals(&together), totals(&alone), "seed {seed}");
        assert!(totals(&alone).iter().any(|(k, _)| k == "val"));
    }
    assert_ne!(totals(&both.join("s1")), totals(&both.join("s2")));
    let stdout = train_smoke(&both, "13", &["--seed", "1", "--seed", "2"]);
    assert!(stdout.contains("seed 2: trained to step 13"), "{stdout}");
    assert_eq!(
        records(&both.join("s1")).last().unwrap()["step"].as_u64(),
        Some(13)
    );
    silot_err(
        &[
            "train",
            "--config",
            "smoke",
            "--out",
            arg(&both),
            "--seed",
            "2,2",
        ],
        &["--seed 2", "twice"],
    );
}

#[test]
fn log_lines_of_several_seeds_name_their_seed_in_plain_text() {
    // Two runs in one process log into one stream: each line says which seed it is from, and a
    // log written to a file (not a terminal) carries no colour codes.
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("base");
    train_smoke(&base, "2", &[]);
    let out = silot_command()
        .args([
            "train", "--config", "smoke", "--steps", "3", "--seed", "3,4",
        ])
        .args(["--out", arg(&dir.path().join("both"))])
        .args(["--branch-from", arg(&base.join("checkpoint"))])
        .env("SILOT_LOG", "info")
        .output()
        .expect("run silot");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    for seed in ["3", "4"] {
        assert!(
            stderr
                .lines()
                .any(|l| l.contains(&format!("run{{seed={seed}}}")) && l.contains("started from")),
            "{stderr}"
        );
    }
    assert!(!stderr.contains('\u{1b}'), "{stderr}");
}

/// A run on the reference's 12-px discovery cells branches onto 6-px cells (`discovery_cell`,
/// the same weights, four times the cells), trains and is scored; its saved config keeps the
/// setting, and an unsupported cell is refused by name.
#[test]
fn branch_onto_six_px_discovery_cells() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("base");
    train_smoke(&base, "2", &[]);
    let six = smoke_variant(
        dir.path(),
        "six.toml",
        &[("n_objects = 4\n", "n_objects = 4\ndiscovery_cell = 6\n")],
    );
    let run = dir.path().join("six");
    let line = silot_ok(&[
        "train",
        "--config",
        arg(&six),
        "--out",
        arg(&run),
        "--steps",
        "3",
        "--branch-from",
        arg(&base.join("checkpoint")),
        "--reset-optimizer",
    ]);
    assert!(line.contains("trained to step 3"), "{line}");
    let saved = std::fs::read_to_string(run.join("checkpoint/config.toml")).unwrap();
    assert!(saved.contains("discovery_cell = 6"), "{saved}");
    let report = eval_smoke_silot(arg(&run.join("checkpoint")), &["--clips", "2"]);
    assert!(report.contains("MOTA"), "{report}");
    let eight = smoke_variant(
        dir.path(),
        "eight.toml",
        &[("n_objects = 4\n", "n_objects = 4\ndiscovery_cell = 8\n")],
    );
    let eight_out = dir.path().join("eight");
    silot_err(
        &[
            "train",
            "--config",
            arg(&eight),
            "--out",
            arg(&eight_out),
            "--steps",
            "1",
        ],
        &["discovery_cell", "12", "6"],
    );
}

/// `envs/smoke.toml` with `edits` (pairs of text to replace) written to `dir/name`.
fn smoke_variant(dir: &Path, name: &str, edits: &[(&str, &str)]) -> PathBuf {
    let mut text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("envs/smoke.toml"))
            .unwrap();
    for (from, to) in edits {
        assert!(text.contains(from), "{from}");
        text = text.replace(from, to);
    }
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn eval_scores_the_latest_checkpoint_unless_best_and_refuses_another_env() {
    let dir = tempfile::tempdir().unwrap();
    // Validation at step 2 is eligible: best/ is step 2, the latest checkpoint step 3.
    let cfg = smoke_variant(
        dir.path(),
        "smoke.toml",
        &[
            ("patience_start = 20", "patience_start = 2"),
            ("eval_every = 10", "eval_every = 2"),
        ],
    );
    let other = smoke_variant(
        dir.path(),
        "other.toml",
        &[("id = \"smoke\"", "id = \"other\"")],
    );
    let run = dir.path().join("run");
    for steps in ["2", "3"] {
        silot_ok(&[
            "train",
            "--config",
            arg(&cfg),
            "--out",
            arg(&run),
            "--steps",
            steps,
        ]);
    }
    let eval = |env: &Path, extra: &[&str]| {
        let mut args = vec![
            "eval",
            "--env",
            arg(env),
            "--tracker",
            "silot",
            "--clips",
            "1",
        ];
        args.extend_from_slice(&["--checkpoint", arg(&run)]);
        args.extend_from_slice(extra);
        silot(&args)
    };
    let (ok, latest, stderr) = eval(&cfg, &[]);
    assert!(ok, "{stderr}");
    let ckpt = run.join("checkpoint").display().to_string();
    assert!(
        latest.contains(&format!("checkpoint {ckpt} (step 3)")),
        "{latest}"
    );
    let (ok, best, stderr) = eval(&cfg, &["--best"]);
    assert!(ok, "{stderr}");
    let best_dir = run.join("best").display().to_string();
    assert!(
        best.contains(&format!("checkpoint {best_dir} (step 2)")),
        "{best}"
    );
    // Another env (here only its id differs): refused, naming both, unless asked for.
    let (ok, _, stderr) = eval(&other, &[]);
    assert!(!ok, "{stderr}");
    for needle in [
        "trained on `smoke`",
        "used on `other`",
        "--allow-env-mismatch",
    ] {
        assert!(stderr.contains(needle), "{stderr}");
    }
    let (ok, _, stderr) = eval(&other, &["--allow-env-mismatch"]);
    assert!(ok, "{stderr}");
    silot_err(
        &[
            "observe",
            "--env",
            arg(&other),
            "--checkpoint",
            arg(&run),
            "--steps",
            "1",
        ],
        &["trained on `smoke`", "used on `other`"],
    );
    // A dataset of another env for `train --data`: refused, naming both.
    let ds = dir.path().join("ds");
    let ds_args = ["--clips", "1", "--frames", "2", "--out", arg(&ds)];
    silot_ok(&[&["rollout", "--env", arg(&other)][..], &ds_args].concat());
    silot_err(
        &[
            "train",
            "--config",
            "smoke",
            "--data",
            arg(&ds),
            "--out",
            arg(&dir.path().join("d")),
        ],
        &[
            "holds clips of `other`",
            "trains on `smoke`",
            "--allow-env-mismatch",
        ],
    );
    // Nothing is destroyed: --overwrite replaces only what the command writes.
    let notes = run.join("notes.txt");
    std::fs::write(&notes, "mine").unwrap();
    let into_run = ["--clips", "1", "--frames", "2", "--out", arg(&run)];
    silot_err(
        &[
            &["rollout", "--env", "smoke"][..],
            &into_run,
            &["--overwrite"],
        ]
        .concat(),
        &["not a `silot rollout` dataset"],
    );
    silot_err(
        &[&["rollout", "--env", "smoke"][..], &into_run].concat(),
        &["--overwrite"],
    );
    let latest_ckpt = run.join("checkpoint");
    silot_err(
        &[
            "average",
            "--out",
            arg(&run),
            arg(&latest_ckpt),
            "--overwrite",
        ],
        &["not a checkpoint directory"],
    );
    assert!(notes.exists() && run.join("checkpoint/state.json").exists());
    let avg = dir.path().join("avg");
    silot_ok(&["average", "--out", arg(&avg), arg(&latest_ckpt)]);
    silot_err(
        &["average", "--out", arg(&avg), arg(&latest_ckpt)],
        &["--overwrite"],
    );
    silot_ok(&[
        "average",
        "--out",
        arg(&avg),
        arg(&latest_ckpt),
        "--overwrite",
    ]);
    // Training into a folder that is not a run is refused.
    silot_err(
        &[
            "train",
            "--config",
            "smoke",
            "--out",
            arg(&ds),
            "--steps",
            "1",
        ],
        &["not a run directory"],
    );
}

#[test]
fn small_holes_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.png");
    silot_err(
        &[
            "render",
            "--env",
            "smoke",
            "--clips",
            "0",
            "--out",
            arg(&out),
        ],
        &["--clips"],
    );
    #[cfg(feature = "atari")]
    silot_err(
        &["baseline-search", "--env", "space_invaders", "--clips", "1"],
        &["not Scattered MNIST or Scattered Shapes"],
    );
    silot_err(
        &["baseline-search", "--env", "smoke", "--counts", "abc"],
        &["--counts `abc`"],
    );
    let big = smoke_variant(
        dir.path(),
        "big.toml",
        &[("height = 24", "height = 1000000")],
    );
    let ds = dir.path().join("ds");
    silot_err(
        &["rollout", "--env", arg(&big), "--out", arg(&ds)],
        &["larger than the 4096"],
    );
    silot_err(
        &[
            "rollout",
            "--env",
            "smoke",
            "--frames",
            "4000000000",
            "--out",
            arg(&ds),
        ],
        &["--frames 4000000000", "GiB"],
    );
    silot_err(
        &[
            "rollout",
            "--env",
            "smoke",
            "--frames",
            "0",
            "--out",
            arg(&ds),
        ],
        &["--frames"],
    );
    // Output paths are checked before any work, and the error names the user's path.
    let file = dir.path().join("file");
    std::fs::write(&file, "x").unwrap();
    let under = file.join("labels.jsonl");
    silot_err(
        &["label", "--env", "smoke", "--out", arg(&under)],
        &["--out", arg(&under)],
    );
    silot_err(
        &[
            "eval",
            "--env",
            "smoke",
            "--clips",
            "1",
            "--json",
            arg(&under),
        ],
        &["--json", arg(&under)],
    );
    silot_err(
        &["render", "--env", "smoke", "--out", arg(&under)],
        &["--out", arg(&under)],
    );
    // An OS error is said once.
    let missing = dir.path().join("missing");
    let stderr = silot_err(
        &[
            "train",
            "--config",
            "smoke",
            "--data",
            arg(&missing),
            "--out",
            arg(&ds),
        ],
        &["missing/meta.json"],
    );
    assert_eq!(stderr.matches("No such file").count(), 1, "{stderr}");
    assert!(!ds.exists());
}

/// The synthetic experiments' path end to end (issue 43): a model trained, scored per object count
/// with the learned prior beside the posterior, ConnComp tuned per count, and both drawn in one
/// per-count figure.
#[test]
fn per_count_scores_of_a_model_and_conncomp_plot_together() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    train_smoke(&run, "2", &[]);
    let model = dir.path().join("silot.json");
    let stdout = silot_ok(&[
        "eval",
        "--env",
        "smoke",
        "--tracker",
        "silot",
        "--checkpoint",
        arg(&run.join("checkpoint")),
        "--counts",
        "1-3",
        "--clips",
        "2",
        "--seed",
        "200",
        "--prior-from",
        "1",
        "--json",
        arg(&model),
    ]);
    assert!(stdout.contains("posterior MOTA"), "{stdout}");
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&model).unwrap()).unwrap();
    let counts = report["counts"].as_array().unwrap();
    assert_eq!(counts.len(), 3);
    for (n, c) in (1..=3).zip(counts) {
        assert_eq!(c["objects"], n);
        assert_eq!(c["clips"], 2);
        let runs: Vec<&str> = c["runs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["run"].as_str().unwrap())
            .collect();
        assert_eq!(
            runs,
            ["posterior", "posterior_from_t", "prior_from_t"],
            "count {n}"
        );
    }
    let conncomp = dir.path().join("conncomp.json");
    silot_ok(&[
        "baseline-search",
        "--env",
        "smoke",
        "--counts",
        "1-3",
        "--clips",
        "2",
        "--report",
        arg(&conncomp),
    ]);
    let png = dir.path().join("counts.png");
    silot_ok(&[
        "plot",
        arg(&model),
        arg(&conncomp),
        "--labels",
        "SILOT,ConnComp",
        "--out",
        arg(&png),
    ]);
    let bytes = std::fs::read(&png).unwrap();
    assert!(
        bytes.starts_with(b"\x89PNG") && bytes.len() > 10_000,
        "{} bytes",
        bytes.len()
    );
}
