//! The object-centric wrapper: streaming equals the offline clip loop, per-stream resets, the
//! single and vector envs (both autoreset modes), and bad input.

use candle_core::{DType, Device, Tensor};
use ndarray::{s, Array4, Axis};
use silot::env::vector::{AutoresetMode, VectorEnv};
use silot::env::wrappers::TimeLimit;
use silot::env::{registry, Env, ResetOptions};
use silot::model::{coords_to_pixel_space, Silot, StepCtx};
use silot::wrapper::{
    GroupedObjectCentricVecEnv, ObjectBatch, ObjectCentricEnv, ObjectCentricVecEnv, ObjectEncoder,
};

use crate::model_util::{moving_squares, smoke_cfg};

/// A randomly initialised smoke model as an encoder (seed 3).
fn encoder() -> ObjectEncoder {
    let cfg = smoke_cfg();
    let (vm, model) = Silot::build(&cfg.model, 3, DType::F32, &Device::Cpu).unwrap();
    ObjectEncoder::from_model(model, vm, cfg, &Device::Cpu, 0)
}

/// `(B, T, H, W, 3)` byte clips of moving squares.
fn byte_clips(b: usize, t: usize) -> Array4<u8> {
    let x = moving_squares(b, t, 24, 24, 5); // (B, T, 3, H, W) in [0, 1]
    let v: Vec<u8> = x
        .permute((0, 1, 3, 4, 2))
        .unwrap()
        .flatten_all()
        .unwrap()
        .to_vec1::<f32>()
        .unwrap()
        .iter()
        .map(|&p| (p * 255.0).round() as u8)
        .collect();
    Array4::from_shape_vec((b * t, 24, 24, 3), v).unwrap()
}

fn max_diff(a: &ndarray::ArrayD<f32>, b: &ndarray::ArrayD<f32>) -> f32 {
    assert_eq!(a.shape(), b.shape());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

#[test]
fn streaming_equals_the_offline_clip_loop() {
    let (b, t) = (2, 4);
    let frames = byte_clips(b, t); // row = bi * t + ti
                                   // Offline: the clip loop the evaluation uses.
    let cfg = smoke_cfg();
    let (_vm, model) = Silot::build(&cfg.model, 3, DType::F32, &Device::Cpu).unwrap();
    let x = Tensor::from_vec(
        frames.iter().copied().collect::<Vec<u8>>(),
        (b, t, 24, 24, 3),
        &Device::Cpu,
    )
    .unwrap()
    .to_dtype(DType::F32)
    .unwrap()
    .affine(1.0 / 255.0, 0.0)
    .unwrap()
    .permute((0, 1, 4, 2, 3))
    .unwrap()
    .contiguous()
    .unwrap();
    let k = cfg.model.eval_objects();
    let st = model.initial_state(b, k, None, &Device::Cpu).unwrap();
    let clip = model
        .run_clip(&x, st, &mut StepCtx::encode(0), None)
        .unwrap();
    // Online: one frame per stream per call.
    let mut enc = encoder();
    for ti in 0..t {
        let step: Array4<u8> = ndarray::stack(
            Axis(0),
            &[
                frames.index_axis(Axis(0), ti),
                frames.index_axis(Axis(0), t + ti),
            ],
        )
        .unwrap();
        let got = enc.encode(step.view(), &[ti == 0, ti == 0]).unwrap();
        let want = &clip.objects[ti];
        assert_eq!(
            got.ids.iter().copied().collect::<Vec<_>>(),
            want.ids,
            "t={ti}"
        );
        let pres: Vec<f32> = want.pres.flatten_all().unwrap().to_vec1().unwrap();
        let got_pres: Vec<f32> = got.pres.iter().copied().collect();
        assert_eq!(got_pres, pres, "t={ti}");
        let boxes = coords_to_pixel_space(&want.where_, cfg.model.anchor).unwrap();
        for (bi, row) in boxes.iter().enumerate() {
            for (ki, bx) in row.iter().enumerate() {
                let g = got.boxes.slice(s![bi, ki, ..]);
                assert_eq!(
                    [g[0], g[1], g[2], g[3]],
                    [bx.top, bx.left, bx.height, bx.width]
                );
            }
        }
        assert_eq!(got.frame_hw, (24, 24));
        assert_eq!(got.features().shape(), &[b, k, 6 + cfg.model.n_what]);
    }
}

#[test]
fn a_new_episode_restarts_only_its_stream() {
    let (b, t) = (2, 4);
    let frames = byte_clips(b, t);
    let at = |ti: usize| -> Array4<u8> {
        ndarray::stack(
            Axis(0),
            &[
                frames.index_axis(Axis(0), ti),
                frames.index_axis(Axis(0), t + ti),
            ],
        )
        .unwrap()
    };
    let run = |reset_at: Option<usize>| -> Vec<ObjectBatch> {
        let mut enc = encoder();
        (0..t)
            .map(|ti| {
                let r1 = ti == 0 || Some(ti) == reset_at;
                enc.encode(at(ti).view(), &[ti == 0, r1]).unwrap()
            })
            .collect()
    };
    let plain = run(None);
    let reset = run(Some(2));
    // Stream 1 alone, starting at frame 2.
    let mut alone = encoder();
    for ti in 0..t {
        let (p, r) = (&plain[ti], &reset[ti]);
        let s0 = |o: &ObjectBatch| o.features().index_axis(Axis(0), 0).to_owned().into_dyn();
        let s1 = |o: &ObjectBatch| o.features().index_axis(Axis(0), 1).to_owned().into_dyn();
        assert!(
            max_diff(&s0(p), &s0(r)) < 1e-5,
            "stream 0 changed at t={ti}"
        );
        if ti < 2 {
            assert!(max_diff(&s1(p), &s1(r)) < 1e-5);
            continue;
        }
        let one = alone
            .encode(frames.slice(s![t + ti..t + ti + 1, .., .., ..]), &[ti == 2])
            .unwrap();
        assert!(
            max_diff(
                &s1(r),
                &one.features().index_axis(Axis(0), 0).to_owned().into_dyn()
            ) < 1e-5,
            "restarted stream 1 differs from a fresh encoder at t={ti}"
        );
        if ti == 2 {
            // A restart fills every slot with a newly discovered object under fresh ids.
            assert!(r.is_new.row(1).iter().all(|&n| n));
            let before = reset[1].ids.row(1).iter().copied().max().unwrap();
            assert!(r.ids.row(1).iter().all(|&id| id > before));
            assert!(max_diff(&s1(p), &s1(r)) > 1e-4, "the reset changed nothing");
        }
    }
}

#[test]
fn restart_starts_the_given_streams_afresh_and_keeps_the_others() {
    let (b, t) = (3, 4);
    let frames = byte_clips(b, t); // row = bi * t + ti
    let at = |ti: usize| -> Array4<u8> {
        let rows: Vec<usize> = (0..b).map(|bi| bi * t + ti).collect();
        frames.select(Axis(0), &rows)
    };
    let feats = |o: &ObjectBatch, bi: usize| o.features().index_axis(Axis(0), bi).to_owned();
    let mut enc = encoder();
    let e = enc.restart(at(0).slice(s![0..1, .., .., ..]), &[0]);
    assert!(e
        .unwrap_err()
        .to_string()
        .contains("before the first encode"));
    enc.encode(at(0).view(), &[true; 3]).unwrap();
    let before = enc.encode(at(1).view(), &[false; 3]).unwrap();
    // Streams 2 and 0 restart on frame 3 of streams 1 and 2 (any frame will do).
    let firsts = ndarray::stack(
        Axis(0),
        &[
            frames.index_axis(Axis(0), t + 3),
            frames.index_axis(Axis(0), 2 * t + 3),
        ],
    )
    .unwrap();
    let got = enc.restart(firsts.view(), &[2, 0]).unwrap();
    // Stream 1 is untouched.
    assert_eq!(feats(&got, 1), feats(&before, 1));
    assert_eq!(got.ids.row(1), before.ids.row(1));
    // A restarted stream is a fresh encoder's first step on its frame, under ids that go on
    // counting from the stream's previous ones; its next step continues from there.
    for (j, bi) in [(0, 2), (1, 0)] {
        let mut alone = encoder();
        let one = alone
            .encode(firsts.slice(s![j..j + 1, .., .., ..]), &[true])
            .unwrap();
        let d = max_diff(&feats(&got, bi).into_dyn(), &feats(&one, 0).into_dyn());
        assert!(d < 1e-5, "stream {bi}: {d}");
        assert!(got.is_new.row(bi).iter().all(|&n| n));
        let prev = before.ids.row(bi).iter().copied().max().unwrap();
        assert!(got.ids.row(bi).iter().all(|&id| id > prev), "stream {bi}");
    }
    let next = enc.encode(at(2).view(), &[false; 3]).unwrap();
    let mut alone = encoder();
    alone
        .encode(firsts.slice(s![1..2, .., .., ..]), &[true])
        .unwrap();
    let two = alone
        .encode(frames.slice(s![2..3, .., .., ..]), &[false])
        .unwrap();
    let d = max_diff(&feats(&next, 0).into_dyn(), &feats(&two, 0).into_dyn());
    assert!(d < 1e-5, "stream 0 after its restart: {d}");
    // Bad rows are refused and leave the encoder usable.
    for rows in [vec![0, 0], vec![3, 0], vec![0]] {
        let e = enc.restart(firsts.view(), &rows).unwrap_err().to_string();
        assert!(e.contains("distinct streams below 3"), "{rows:?}: {e}");
    }
    enc.encode(at(3).view(), &[false; 3]).unwrap();
}

#[test]
fn a_seeded_reset_rewinds_the_encoder_and_an_unseeded_one_continues_ids() {
    let mut env = ObjectCentricEnv::new(registry::make("smoke").unwrap(), encoder()).unwrap();
    let mut run = |seed: Option<u64>| -> Vec<ObjectBatch> {
        let mut out = vec![env.reset(seed, &ResetOptions::default()).unwrap().clone()];
        for _ in 0..3 {
            out.push(env.step(0).unwrap().objects.clone());
        }
        out
    };
    let a = run(Some(4));
    let b = run(Some(4));
    assert_eq!(a, b, "same seed, same actions: same objects and ids");
    let c = run(None);
    let last = b[3].ids.iter().copied().max().unwrap();
    assert!(
        c[0].ids.iter().all(|&id| id > last),
        "ids go on across episodes"
    );
    let mut venv = ObjectCentricVecEnv::new(vec_env(AutoresetMode::NextStep), encoder()).unwrap();
    let mut vrun = || -> Vec<ObjectBatch> {
        let mut out = vec![venv.reset(Some(9)).unwrap().0.clone()];
        for _ in 0..5 {
            out.push(venv.step(&[0, 0]).unwrap().objects.clone());
        }
        out
    };
    let a = vrun();
    assert_eq!(a, vrun());
}

#[test]
fn object_centric_env_resets_steps_and_is_deterministic() {
    let run = || {
        let env = registry::make("smoke").unwrap();
        let mut env = ObjectCentricEnv::new(env, encoder()).unwrap();
        let first = env
            .reset(Some(4), &ResetOptions::default())
            .unwrap()
            .clone();
        let mut feats = vec![first.features()];
        for _ in 0..3 {
            let step = env.step(0).unwrap();
            assert_eq!(step.rewards.len(), 1);
            assert!(step.infos[0].objects.is_some());
            feats.push(step.objects.features());
        }
        assert!(first.is_new.iter().all(|&n| n));
        (feats, env.frame().clone())
    };
    let (a, fa) = run();
    let (b, fb) = run();
    assert_eq!(a, b);
    assert_eq!(fa, fb);
    let k = smoke_cfg().model.eval_objects();
    assert_eq!(a[0].shape(), &[1, k, 6 + smoke_cfg().model.n_what]);
    assert!(a.iter().all(|f| f.iter().all(|v| v.is_finite())));
}

fn vec_env(mode: AutoresetMode) -> VectorEnv<TimeLimit<Box<dyn Env>>> {
    VectorEnv::with_autoreset(|_| TimeLimit::new(registry::make("smoke")?, 3), 2, 1, mode).unwrap()
}

#[test]
fn vector_env_restarts_the_encoder_of_autoreset_envs() {
    for mode in [AutoresetMode::NextStep, AutoresetMode::SameStep] {
        let mut venv = ObjectCentricVecEnv::new(vec_env(mode), encoder()).unwrap();
        // Reference: an encoder fed the same frames, with Gymnasium's autoreset rule applied here.
        let mut reference = encoder();
        let (objs, infos) = venv.reset(Some(1)).unwrap();
        assert_eq!(infos.len(), 2);
        let objs = objs.clone();
        let want = reference.encode(venv.inner().obs(), &[true, true]).unwrap();
        assert_eq!(objs, want);
        let mut ended_before = [false, false];
        let mut restarts = 0;
        for _ in 0..8 {
            let step = venv.step(&[0, 0]).unwrap();
            let objects = step.objects.clone();
            let ended: Vec<bool> = (0..2)
                .map(|i| step.terminated[i] || step.truncated[i])
                .collect();
            let fresh: Vec<bool> = match mode {
                AutoresetMode::NextStep => ended_before.to_vec(),
                AutoresetMode::SameStep => ended.clone(),
            };
            ended_before = [ended[0], ended[1]];
            let rows: Vec<usize> = (0..2).filter(|&i| ended[i]).collect();
            let want = if mode == AutoresetMode::SameStep && !rows.is_empty() {
                // The final frames continue their streams, then the reset frames restart them.
                let mut frames = venv.inner().obs().to_owned();
                for &i in &rows {
                    let last = venv.inner().final_obs(i).unwrap();
                    frames.index_axis_mut(Axis(0), i).assign(last);
                }
                let last = reference.encode(frames.view(), &[false, false]).unwrap();
                assert_eq!(venv.final_objects(), Some(&last));
                let firsts = venv.inner().obs().select(Axis(0), &rows);
                reference.restart(firsts.view(), &rows).unwrap()
            } else {
                assert!(venv.final_objects().is_none());
                reference.encode(venv.inner().obs(), &fresh).unwrap()
            };
            assert_eq!(objects, want, "{mode:?}");
            for (i, &f) in fresh.iter().enumerate() {
                if f {
                    restarts += 1;
                    assert!(objects.is_new.row(i).iter().all(|&n| n), "{mode:?}");
                }
            }
        }
        // Episodes of 3 steps: both envs restarted at least twice in 8 steps.
        assert!(restarts >= 4, "{mode:?}: {restarts} restarts");
    }
}

#[test]
fn bad_input_is_a_clear_error() {
    let mut enc = encoder();
    let gray = Array4::<u8>::zeros((1, 24, 24, 1));
    let e = enc.encode(gray.view(), &[true]).unwrap_err().to_string();
    assert!(e.contains("RGB") && e.contains("[1, 24, 24, 1]"), "{e}");
    let rgb = Array4::<u8>::zeros((2, 24, 24, 3));
    let e = enc.encode(rgb.view(), &[true]).unwrap_err().to_string();
    assert!(e.contains("1 new-episode flags for 2 frames"), "{e}");
    let gray_env = silot::env::wrappers::ResizeGrayscale::new(
        registry::make("smoke").unwrap(),
        24,
        24,
        silot::env::wrappers::ResizeMethod::Area,
    )
    .unwrap();
    let e = ObjectCentricEnv::new(gray_env, encoder())
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("RGB frame observations"), "{e}");
    let e = ObjectEncoder::load(std::path::Path::new("/nonexistent/run"), &Device::Cpu, 0)
        .unwrap_err()
        .to_string();
    assert!(e.contains("no checkpoint"), "{e}");
}

/// Code written only against the `gymnasium-rs` trait runs on the object-centric env.
#[cfg(feature = "gymnasium")]
fn gym_rollout<G: gymnasium_rs::core::Env<ndarray::Array2<f32>, usize>>(
    env: &mut G,
    steps: usize,
) -> Vec<ndarray::Array2<f32>> {
    let (obs, info) = env.reset_seed(2);
    assert!(info.contains_key("object_ids") && info.contains_key("objects"));
    let mut out = vec![obs];
    for _ in 0..steps {
        let (obs, _r, term, trunc, info) = env.step(0);
        assert_eq!(info["object_ids"].as_array().unwrap().len(), obs.nrows());
        out.push(obs);
        if term || trunc {
            env.reset_default();
        }
    }
    out
}

#[test]
#[cfg(feature = "gymnasium")]
fn object_centric_env_is_a_gymnasium_env() {
    use gymnasium_rs::core::{Env as GymEnv, Space};
    let mut env = ObjectCentricEnv::new(registry::make("smoke").unwrap(), encoder()).unwrap();
    let cfg = smoke_cfg();
    let (k, d) = (cfg.model.eval_objects(), 6 + cfg.model.n_what);
    match GymEnv::observation_space(&env) {
        Space::Box { low, high } => {
            assert_eq!(low.len(), k * d);
            assert_eq!((low[0], high[0], high[5]), (0.0, 1.0, 1.0));
            assert!(high[1].is_infinite() && low[d].eq(&0.0));
        }
        other => panic!("expected Box, got {other:?}"),
    }
    let a = gym_rollout(&mut env, 3);
    assert!(a.iter().all(|o| o.dim() == (k, d)));
    // The same as the native API.
    let mut native = ObjectCentricEnv::new(registry::make("smoke").unwrap(), encoder()).unwrap();
    let first = native.reset(Some(2), &ResetOptions::default()).unwrap();
    assert_eq!(first.features().index_axis(Axis(0), 0), a[0]);
}

/// Smoke envs whose episodes end after 2 to 5 steps (by the global index `i`, so the grouped and
/// the synchronous envs build the same sub-env `i`).
fn short_episodes(i: usize) -> silot::Result<TimeLimit<Box<dyn Env>>> {
    TimeLimit::new(registry::make("smoke")?, 2 + (i as u64) % 4)
}

/// Rows `rows` of `a` (all sub-envs) are `b` (one group): same ids, new flags and presence
/// decisions; presence and boxes up to the model's batched kernels at another batch size.
fn assert_same_rows(a: &ObjectBatch, rows: std::ops::Range<usize>, b: &ObjectBatch, at: &str) {
    assert_eq!(b.pres.dim().0, rows.len(), "{at}");
    for (j, i) in rows.enumerate() {
        assert_eq!(a.ids.row(i), b.ids.row(j), "{at}: env {i}");
        assert_eq!(a.is_new.row(i), b.is_new.row(j), "{at}: env {i}");
        for (x, y) in a.pres.row(i).iter().zip(b.pres.row(j)) {
            assert!((x - y).abs() < 1e-4, "{at}: env {i}: pres {x} vs {y}");
            assert_eq!(*x > 0.5, *y > 0.5, "{at}: env {i}: pres {x} vs {y}");
        }
        let (ba, bb) = (
            a.boxes.index_axis(Axis(0), i),
            b.boxes.index_axis(Axis(0), j),
        );
        for (x, y) in ba.iter().zip(bb.iter()) {
            assert!((x - y).abs() < 1e-3, "{at}: env {i}: box {x} vs {y}");
        }
    }
}

/// The grouped (pipelined) env gives every sub-env the objects, ids, rewards, flags and
/// autoresets of the synchronous env for the same seed and actions: through `step` and through
/// `send` / `recv` per group, both autoreset modes, over many episode ends.
#[test]
fn grouped_env_matches_the_synchronous_one() {
    let n = 5;
    for mode in [AutoresetMode::NextStep, AutoresetMode::SameStep] {
        for groups in [2, 3] {
            let venv = VectorEnv::with_autoreset(short_episodes, n, 2, mode).unwrap();
            let mut sync = ObjectCentricVecEnv::new(venv, encoder()).unwrap();
            let mut grouped =
                GroupedObjectCentricVecEnv::new(short_episodes, n, 2, mode, groups, |_| {
                    Ok(encoder())
                })
                .unwrap();
            assert_eq!(grouped.num_groups(), groups);
            let want = sync.reset(Some(9)).unwrap().0.clone();
            assert_same_rows(&want, 0..n, grouped.reset(Some(9)).unwrap(), "reset");
            assert_eq!(sync.inner().infos(), grouped.infos());
            let n_actions = sync.inner().single_action_space().n().unwrap();
            let mut rng = 17u64;
            let (mut ends, mut finals) = (0, 0);
            for t in 0..300 {
                let actions: Vec<usize> = (0..n)
                    .map(|_| {
                        rng = rng
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        (rng >> 33) as usize % n_actions
                    })
                    .collect();
                let s = sync.step(&actions).unwrap();
                let at = format!("{mode:?}, {groups} groups, step {t}");
                ends += (0..n)
                    .filter(|&i| s.terminated[i] || s.truncated[i])
                    .count();
                let (objects, rewards) = (s.objects.clone(), s.rewards.to_vec());
                let (terminated, new_episode) = (s.terminated.to_vec(), s.new_episode.to_vec());
                let (truncated, infos) = (s.truncated.to_vec(), s.infos.to_vec());
                let final_objects = sync.final_objects().cloned();
                if t % 2 == 0 {
                    let g = grouped.step(&actions).unwrap();
                    assert_same_rows(&objects, 0..n, g.objects, &at);
                    assert_eq!(
                        (g.rewards, g.terminated, g.truncated, g.new_episode, g.infos),
                        (
                            &rewards[..],
                            &terminated[..],
                            &truncated[..],
                            &new_episode[..],
                            &infos[..]
                        ),
                        "{at}"
                    );
                    match (&final_objects, grouped.final_objects()) {
                        (Some(a), Some(b)) => {
                            assert_same_rows(a, 0..n, b, &at);
                            finals += 1;
                        }
                        (None, None) => {}
                        (a, b) => panic!("{at}: final objects {a:?} vs {b:?}"),
                    }
                } else {
                    for g in 0..groups {
                        let r = grouped.group_range(g);
                        grouped.send(g, &actions[r]).unwrap();
                    }
                    for g in 0..groups {
                        let r = grouped.group_range(g);
                        let s = grouped.recv(g).unwrap();
                        assert_same_rows(&objects, r.clone(), s.objects, &at);
                        assert_eq!(s.rewards, &rewards[r.clone()], "{at}");
                        assert_eq!(s.terminated, &terminated[r.clone()], "{at}");
                        assert_eq!(s.truncated, &truncated[r.clone()], "{at}");
                        assert_eq!(s.new_episode, &new_episode[r.clone()], "{at}");
                        assert_eq!(s.infos, &infos[r], "{at}");
                    }
                }
            }
            assert!(ends > 200, "{mode:?}: only {ends} episode ends");
            if mode == AutoresetMode::SameStep {
                assert!(finals > 10, "{finals} steps with final objects");
            }
        }
    }
}

#[test]
fn grouped_env_refuses_bad_group_counts_and_calls() {
    for groups in [0, 4] {
        let e = GroupedObjectCentricVecEnv::new(
            short_episodes,
            3,
            1,
            AutoresetMode::NextStep,
            groups,
            |_| Ok(encoder()),
        )
        .err()
        .unwrap()
        .to_string();
        assert!(
            e.contains("1 <= groups <= envs") && e.contains("3 envs"),
            "{e}"
        );
    }
    let mut env =
        GroupedObjectCentricVecEnv::new(short_episodes, 3, 1, AutoresetMode::NextStep, 2, |_| {
            Ok(encoder())
        })
        .unwrap();
    assert_eq!((env.group_range(0), env.group_range(1)), (0..1, 1..3));
    env.reset(Some(0)).unwrap();
    let err = |r: silot::Result<()>| r.unwrap_err().to_string();
    assert!(err(env.recv(0).map(|_| ())).contains("no step of group 0 in flight"));
    assert!(err(env.send(1, &[0])).contains("1 actions for group 1 of 2 envs"));
    assert!(err(env.send(2, &[0])).contains("group 2 does not exist"));
    assert!(err(env.step(&[0, 0]).map(|_| ())).contains("2 actions for 3 envs"));
    // The smoke env has one action.
    env.send(0, &[0]).unwrap();
    assert!(err(env.send(0, &[0])).contains("in flight"));
    assert!(err(env.group(0).map(|_| ())).contains("in flight"));
    env.recv(0).unwrap();
    // A bad action: the sub-env's error with its global index.
    env.send(1, &[0, 99]).unwrap();
    match env.recv(1) {
        Err(silot::Error::SubEnv { index: 2, .. }) => {}
        other => panic!(
            "expected sub-env 2's error, got {:?}",
            other.map(|s| s.rewards.to_vec())
        ),
    }
    // The group is usable again.
    env.send(1, &[0, 0]).unwrap();
    env.recv(1).unwrap();
}
