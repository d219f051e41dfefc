//! Streams: envs run for many steps through the object-centric wrapper with ground truth
//! (`silot eval --frames`), episode restarts inside a stream, and the same objects as
//! `silot observe` on the same seed.

use std::path::Path;
use std::process::Command;

use candle_core::{DType, Device};
use silot::env::registry;
use silot::eval::{evaluate, evaluate_windows, stream_summary, EvalSettings};
use silot::model::{PresenceCarry, Silot};
use silot::streams::{encode_streams, StreamOptions, StreamRecord, EPISODE_ID_STRIDE};
use silot::wrapper::ObjectEncoder;

use crate::model_util::smoke_cfg;

/// A randomly initialised smoke model as an encoder (seed 3).
fn encoder(carry: PresenceCarry) -> ObjectEncoder {
    let cfg = smoke_cfg();
    let (vm, model) = Silot::build(&cfg.model, 3, DType::F32, &Device::Cpu).unwrap();
    let mut e = ObjectEncoder::from_model(model, vm, cfg, &Device::Cpu, 0);
    e.set_presence_carry(carry);
    e
}

/// Two smoke streams of `frames` frames from `seed` through a random smoke encoder.
fn smoke_streams(carry: PresenceCarry, frames: usize, seed: u64) -> StreamRecord {
    let spec = silot::config::load_experiment("smoke").unwrap().env;
    let opts = StreamOptions {
        streams: 2,
        frames,
        seed,
        keep_frames_every: 0,
        restart_every: 0,
    };
    encode_streams(&spec, encoder(carry), &opts).unwrap()
}

/// The smoke env's episodes are 8 frames long: a 20-frame stream holds three episodes; ground
/// truth restarts its identities (offset per episode) and the encoder its objects.
#[test]
fn episodes_restart_inside_a_stream() {
    let rec = smoke_streams(PresenceCarry::Product, 20, 5);
    assert_eq!(rec.pred.len(), 2);
    assert!(rec.pred.iter().all(|s| s.len() == 20));
    assert!(rec.gt.iter().all(|s| s.len() == 20));
    assert_eq!(rec.episodes_ended, 4, "episodes restart at frames 8 and 16");
    for s in 0..2 {
        for (t, frame) in rec.gt[s].iter().enumerate() {
            let episode = (t / 8) as u32;
            assert!(!frame.is_empty());
            assert!(
                frame
                    .iter()
                    .all(|o| o.id / EPISODE_ID_STRIDE == episode && o.id % EPISODE_ID_STRIDE < 3),
                "stream {s} frame {t}: {frame:?}"
            );
        }
        // The first frame's truth is the env's own after a reset with seed + s.
        let mut env = registry::make("smoke").unwrap();
        let mut obs = env.new_obs_buffer();
        let info = env
            .reset_into(Some(5 + s as u64), &Default::default(), obs.view_mut())
            .unwrap();
        assert_eq!(Some(&rec.gt[s][0]), info.objects.as_ref());
        // Objects at an episode's first frame are all newly discovered: ids above every
        // earlier one of the stream.
        for start in [8, 16] {
            let before = rec.pred[s][..start]
                .iter()
                .flatten()
                .map(|o| o.id)
                .max()
                .unwrap_or(0);
            assert!(
                rec.pred[s][start].iter().all(|o| o.id > before),
                "stream {s} frame {start}"
            );
        }
    }
    // Scored like clips: totals plus windows that cover every frame once.
    let settings = EvalSettings::default();
    let totals = evaluate(&rec.pred, &rec.gt, &settings).unwrap();
    let windows = evaluate_windows(&rec.pred, &rec.gt, &settings, 8).unwrap();
    assert_eq!(windows.len(), 3);
    let gt_frames: f64 = windows
        .iter()
        .map(|w| w.gt_per_frame * 2.0 * (w.end - w.start) as f64)
        .sum();
    assert_eq!(gt_frames as usize, totals.num_gt);
    let summary = stream_summary(&totals, windows, 20, 8, rec.episodes_ended);
    assert_eq!(summary.episodes_ended, 4);
    assert_eq!(totals.frames, 40);
}

/// `--restart-every 3`: frames before the first restart are the carried stream's; on frames 3
/// and 6 every object is newly discovered (ids above all earlier ones) and is what a fresh
/// encoder finds on that frame alone (same boxes and presence).
#[test]
fn streams_restarted_every_n_frames() {
    let spec = silot::config::load_experiment("smoke").unwrap().env;
    let run = |restart_every| {
        let opts = StreamOptions {
            streams: 2,
            frames: 8,
            seed: 4,
            keep_frames_every: 3,
            restart_every,
        };
        encode_streams(&spec, encoder(PresenceCarry::Binary), &opts).unwrap()
    };
    let (carried, restarted) = (run(0), run(3));
    let boxes = |objs: &[silot::track::TrackedObject]| {
        let mut b: Vec<_> = objs
            .iter()
            .map(|o| (o.top, o.left, o.bottom, o.right, o.score))
            .collect();
        b.sort_by(|x, y| x.partial_cmp(y).unwrap());
        b
    };
    for s in 0..2 {
        assert_eq!(carried.gt[s], restarted.gt[s]);
        assert_eq!(carried.pred[s][..3], restarted.pred[s][..3]);
        for t in [3, 6] {
            let before = restarted.pred[s][..t].iter().flatten().map(|o| o.id).max();
            assert!(
                restarted.pred[s][t].iter().all(|o| Some(o.id) > before),
                "stream {s} frame {t}"
            );
            let (kept_t, frame) = &restarted.frames[s][t / 3];
            assert_eq!(*kept_t, t);
            let frames = frame.view().insert_axis(ndarray::Axis(0));
            let fresh = encoder(PresenceCarry::Binary)
                .encode(frames, &[true])
                .unwrap();
            let fresh = silot::streams::tracked_objects(&fresh, 0);
            let (a, b) = (boxes(&fresh), boxes(&restarted.pred[s][t]));
            assert_eq!(a.len(), b.len(), "stream {s} frame {t}");
            for (x, y) in a.iter().zip(&b) {
                let d = [x.0 - y.0, x.1 - y.1, x.2 - y.2, x.3 - y.3, x.4 - y.4];
                assert!(
                    d.iter().all(|v| v.abs() < 1e-3),
                    "stream {s} frame {t}: {x:?} vs {y:?}"
                );
            }
        }
        assert_ne!(carried.pred[s][3..], restarted.pred[s][3..], "stream {s}");
    }
}

/// Binary presence carry changes nothing at a stream's first frame (nothing is carried yet)
/// and, unlike the product, never reports a propagated object whose presence was decided gone.
#[test]
fn binary_presence_carry() {
    let product = smoke_streams(PresenceCarry::Product, 8, 1);
    let binary = smoke_streams(PresenceCarry::Binary, 8, 1);
    for s in 0..2 {
        assert_eq!(product.pred[s][0], binary.pred[s][0]);
        assert_eq!(product.gt[s], binary.gt[s]);
        for t in 1..8 {
            // An id reported at t that was already there at t - 1 was carried: under binary
            // carry only if it was decided present (> 0.5) at t - 1.
            for o in &binary.pred[s][t] {
                if let Some(prev) = binary.pred[s][t - 1].iter().find(|p| p.id == o.id) {
                    assert!(prev.score > 0.5, "stream {s} frame {t}: {prev:?} -> {o:?}");
                }
            }
        }
    }
}

/// Pairs `(older id, newer id)` of objects reported present (> 0.5) at frame `t - 1` that
/// overlap with IoU >= 0.5 and whose newer id is still reported (> 0) at frame `t`.
fn duplicates_carried(rec: &StreamRecord) -> Vec<(usize, usize, u64, u64)> {
    let bbox = |o: &silot::track::TrackedObject| {
        silot::eval::bbox::BBox::new(o.top as f64, o.left as f64, o.bottom as f64, o.right as f64)
    };
    let mut out = Vec::new();
    for (s, stream) in rec.pred.iter().enumerate() {
        for t in 1..stream.len() {
            let present: Vec<_> = stream[t - 1].iter().filter(|o| o.score > 0.5).collect();
            for a in &present {
                for b in &present {
                    let kept = stream[t].iter().any(|o| o.id == b.id && o.score > 0.0);
                    if a.id < b.id && bbox(a).iou(&bbox(b)) >= 0.5 && kept {
                        out.push((s, t, a.id, b.id));
                    }
                }
            }
        }
    }
    out
}

/// `dedup` carries only the oldest of present objects that overlap (IoU >= 0.5): on streams
/// where `binary` carries such duplicates on, none survives into the next frame.
#[test]
fn dedup_presence_carry_drops_the_newer_of_overlapping_objects() {
    // One smoke episode (8 frames): ids are compared across consecutive frames of it.
    let binary = smoke_streams(PresenceCarry::Binary, 8, 2);
    let dedup = smoke_streams(PresenceCarry::Dedup, 8, 2);
    assert!(
        !duplicates_carried(&binary).is_empty(),
        "the random encoder must carry duplicates under binary for this test to mean anything"
    );
    assert_eq!(duplicates_carried(&dedup), vec![]);
    for s in 0..2 {
        // Nothing is carried into a stream's first frame.
        assert_eq!(binary.pred[s][0], dedup.pred[s][0]);
    }
}

/// `silot eval --frames N` sees what `silot observe` sees: on the same env, seed and checkpoint,
/// every object observe writes (presence > 0) is in the stream report's frame dump, same id,
/// box and presence.
#[test]
fn stream_eval_matches_observe() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let bin = env!("CARGO_BIN_EXE_silot");
    let ok = |args: &[&str]| {
        let out = Command::new(bin).args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let p = |p: &Path| p.to_str().unwrap().to_string();
    ok(&[
        "train",
        "--config",
        "smoke",
        "--out",
        &p(&run),
        "--steps",
        "2",
    ]);
    let lines = dir.path().join("objects.jsonl");
    let observe = |lines: &Path, groups: &str| {
        let out = ok(&[
            "observe",
            "--env",
            "smoke",
            "--checkpoint",
            &p(&run),
            "--envs",
            "2",
            "--steps",
            "11",
            "--seed",
            "4",
            "--threshold",
            "0",
            "--json",
            &p(lines),
            "--gif",
            &p(&dir.path().join("objects.gif")),
            "--gif-every",
            "3",
            "--groups",
            groups,
        ]);
        assert!(out.contains(&format!("; {groups} env group")), "{out}");
    };
    // Two groups (pipelined, one env each) write what one group writes (same ids and presence
    // decisions), both compared with the stream report below.
    let grouped = dir.path().join("objects-grouped.jsonl");
    observe(&grouped, "2");
    observe(&lines, "1");
    let bad = Command::new(bin)
        .args([
            "observe",
            "--env",
            "smoke",
            "--checkpoint",
            &p(&run),
            "--envs",
            "2",
        ])
        .args(["--groups", "3"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert!(
        !bad.status.success() && stderr.contains("--groups must be between 1 and --envs (2)"),
        "{stderr}"
    );
    // Env 0's steps 0, 3, 6, 9 drawn as a GIF.
    let gif = std::fs::read(dir.path().join("objects.gif")).unwrap();
    assert_eq!(&gif[..6], b"GIF89a");
    let report = dir.path().join("streams.json");
    let table = ok(&[
        "eval",
        "--env",
        "smoke",
        "--tracker",
        "silot",
        "--checkpoint",
        &p(&run),
        "--clips",
        "2",
        "--frames",
        "12",
        "--window",
        "4",
        "--seed",
        "4",
        "--dump-frames",
        "--json",
        &p(&report),
    ]);
    assert!(
        table.contains("streams of 12 frames, windows of 4"),
        "{table}"
    );
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    assert_eq!(v["stream"]["windows"].as_array().unwrap().len(), 3);
    assert_eq!(v["stream"]["episodes_ended"], 2);
    let detail = v["frames_detail"].as_array().unwrap();
    let mut compared = 0;
    let read = |p: &Path| std::fs::read_to_string(p).unwrap();
    let (one, two) = (read(&lines), read(&grouped));
    assert_eq!(one.lines().count(), two.lines().count());
    for line in one.lines().chain(two.lines()) {
        let l: serde_json::Value = serde_json::from_str(line).unwrap();
        // observe's step s returns the stream's frame s + 1.
        let (env, t) = (l["env"].as_u64().unwrap(), l["step"].as_u64().unwrap() + 1);
        let frame = detail
            .iter()
            .find(|f| f["clip"] == env && f["t"] == t)
            .unwrap();
        let pred = frame["pred"].as_array().unwrap();
        let objects = l["objects"].as_array().unwrap();
        assert_eq!(objects.len(), pred.len(), "env {env} frame {t}");
        for o in objects {
            let d = pred.iter().find(|d| d["id"] == o["id"]).unwrap();
            let b: Vec<f64> = o["bbox"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect();
            let close = |a: &serde_json::Value, b: f64| (a.as_f64().unwrap() - b).abs() < 1e-4;
            assert!(close(&d["top"], b[0]) && close(&d["left"], b[1]), "{o} {d}");
            assert!(close(&d["bottom"], b[0] + b[2]) && close(&d["right"], b[1] + b[3]));
            assert!(close(&d["score"], o["pres"].as_f64().unwrap()));
            compared += 1;
        }
    }
    assert!(compared > 0, "no objects compared");
}
