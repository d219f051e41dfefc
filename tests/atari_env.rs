//! Atari through ALE: seeding/determinism, sticky actions, presets' resolved settings,
//! truncation, errors, the gymnasium-rs adapter.

use ndarray::Array3;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use silot::env::atari::{make_atari, AtariConfig, AtariEnv, AtariEnvOptions, AtariPreset};
use silot::env::{Env, ResetOptions};
use silot::Error;

const OPTS: ResetOptions = ResetOptions {};

fn si(preset: AtariPreset) -> AtariConfig {
    AtariConfig::new("space_invaders", preset)
}

/// Observations and rewards of `steps` steps with a fixed random action sequence.
fn rollout(env: &mut dyn Env, seed: Option<u64>, steps: usize) -> (Vec<Array3<u8>>, Vec<f32>) {
    let n = env.action_space().n().unwrap();
    let mut actions = ChaCha8Rng::seed_from_u64(99);
    let (obs, _) = env.reset(seed, &OPTS).unwrap();
    let (mut frames, mut rewards) = (vec![obs], vec![]);
    for _ in 0..steps {
        let s = env.step(actions.gen_range(0..n)).unwrap();
        frames.push(s.obs);
        rewards.push(s.reward);
        if s.terminated || s.truncated {
            break;
        }
    }
    (frames, rewards)
}

#[test]
fn same_seed_same_trajectory_without_sticky_actions() {
    let cfg = AtariConfig {
        repeat_action_probability: Some(0.0),
        ..si(AtariPreset::V5)
    };
    let mut a = make_atari(&cfg).unwrap();
    let mut b = make_atari(&cfg).unwrap();
    let ra = rollout(a.as_mut(), Some(7), 200);
    let rb = rollout(b.as_mut(), Some(7), 200);
    assert_eq!(ra, rb);
    assert!(
        ra.1.iter().sum::<f32>() > 0.0,
        "random play scores in 200 steps"
    );
    // A seeded reset on a used env restarts the same trajectory.
    assert_eq!(rollout(a.as_mut(), Some(7), 200), ra);
}

/// Unobserved steps (warm-ups, gaps between training clips) skip reading the screen but leave
/// the game exactly as observed steps do: same transitions, same later frames, for the raw env
/// and for the paper and v5 stacks (sticky actions, max-and-skip, crop, no-op starts).
#[test]
fn unobserved_steps_change_nothing_but_the_screen_read() {
    for preset in [AtariPreset::Paper, AtariPreset::V5] {
        let cfg = si(preset);
        let (mut a, mut b) = (make_atari(&cfg).unwrap(), make_atari(&cfg).unwrap());
        let n = a.action_space().n().unwrap();
        let mut actions = ChaCha8Rng::seed_from_u64(3);
        a.reset(Some(11), &OPTS).unwrap();
        b.reset(Some(11), &OPTS).unwrap();
        let mut rewards = 0.0;
        for step in 0..400 {
            let act = actions.gen_range(0..n);
            let sa = a.step(act).unwrap();
            let tb = if step % 10 == 9 {
                let sb = b.step(act).unwrap();
                assert_eq!(sa.obs, sb.obs, "{preset:?}: frame after step {step}");
                (sb.reward, sb.terminated, sb.truncated, sb.info)
            } else {
                let t = b.step_unobserved(act).unwrap();
                (t.reward, t.terminated, t.truncated, t.info)
            };
            assert_eq!((sa.reward, sa.terminated, sa.truncated, sa.info), tb);
            rewards += sa.reward;
            if sa.terminated || sa.truncated {
                break;
            }
        }
        assert!(rewards > 0.0, "{preset:?}: the compared play scores");
    }
    // The raw env, frameskip 4.
    let opts = AtariEnvOptions {
        frameskip: 4,
        ..AtariEnvOptions::default()
    };
    let mut a = AtariEnv::new("space_invaders", opts.clone()).unwrap();
    let mut b = AtariEnv::new("space_invaders", opts).unwrap();
    a.reset(Some(5), &OPTS).unwrap();
    b.reset(Some(5), &OPTS).unwrap();
    for act in [1, 2, 3, 0, 4, 5, 1, 1] {
        let sa = a.step(act).unwrap();
        assert_eq!(b.step_unobserved(act).unwrap().reward, sa.reward);
    }
    assert_eq!(a.step(0).unwrap().obs, b.step(0).unwrap().obs);
    assert!(
        b.step_unobserved(99).is_err(),
        "an invalid action is still refused"
    );
}

#[test]
fn paper_preset_seeds_change_noop_starts() {
    let mut env = make_atari(&si(AtariPreset::Paper)).unwrap();
    let frames: Vec<u64> = (0..8)
        .map(|seed| {
            let (_, info) = env.reset(Some(seed), &OPTS).unwrap();
            info.episode_frame_number.unwrap()
        })
        .collect();
    // 1..=30 no-ops of 1 frame each before max-and-skip.
    assert!(frames.iter().all(|&f| (1..=30).contains(&f)), "{frames:?}");
    assert!(frames.iter().any(|&f| f != frames[0]), "{frames:?}");
    let again: Vec<u64> = (0..8)
        .map(|seed| {
            env.reset(Some(seed), &OPTS)
                .unwrap()
                .1
                .episode_frame_number
                .unwrap()
        })
        .collect();
    assert_eq!(frames, again);
}

#[test]
fn sticky_actions_make_runs_depend_on_the_seed() {
    let cfg = si(AtariPreset::V5);
    assert_eq!(cfg.resolve().unwrap().repeat_action_probability, 0.25);
    let mut env = make_atari(&cfg).unwrap();
    let r1 = rollout(env.as_mut(), Some(1), 200);
    let r2 = rollout(env.as_mut(), Some(2), 200);
    let r1_again = rollout(env.as_mut(), Some(1), 200);
    assert_eq!(r1, r1_again);
    assert_ne!(r1.0, r2.0);
    // Without sticky actions both seeds play the same (ALE 0.6 resets deterministically).
    let cfg0 = AtariConfig {
        repeat_action_probability: Some(0.0),
        ..cfg
    };
    let mut env = make_atari(&cfg0).unwrap();
    assert_eq!(
        rollout(env.as_mut(), Some(1), 100),
        rollout(env.as_mut(), Some(2), 100)
    );
}

#[test]
fn unseeded_reset_continues_the_rng_stream() {
    let mut a = make_atari(&si(AtariPreset::V5)).unwrap();
    let mut b = make_atari(&si(AtariPreset::V5)).unwrap();
    rollout(a.as_mut(), Some(5), 50);
    rollout(b.as_mut(), Some(5), 50);
    let ca = rollout(a.as_mut(), None, 100);
    assert_eq!(ca, rollout(b.as_mut(), None, 100));
    // ... and does not restart it.
    let mut c = make_atari(&si(AtariPreset::V5)).unwrap();
    assert_ne!(ca.0, rollout(c.as_mut(), Some(5), 100).0);
}

#[test]
fn presets_resolve_as_documented() {
    let v5 = make_atari(&si(AtariPreset::V5)).unwrap();
    assert_eq!(v5.observation_space().shape(), Some([210, 160, 3]));
    assert_eq!(
        v5.action_space().n(),
        Some(6),
        "Space Invaders' minimal action set"
    );
    let paper = make_atari(&si(AtariPreset::Paper)).unwrap();
    assert_eq!(paper.observation_space().shape(), Some([195, 160, 3]));
    let s = si(AtariPreset::Paper).resolve().unwrap();
    assert_eq!(
        (s.frameskip, s.max_pool, s.repeat_action_probability),
        (4, true, 0.0)
    );
    let ast = make_atari(&AtariConfig::new("asteroids", AtariPreset::Paper)).unwrap();
    assert_eq!(ast.observation_space().shape(), Some([210, 160, 3]));
    let full = make_atari(&AtariConfig {
        full_action_space: Some(true),
        ..si(AtariPreset::V5)
    })
    .unwrap();
    assert_eq!(full.action_space().n(), Some(18));
    let small = make_atari(&AtariConfig {
        grayscale_resize: Some([84, 84]),
        frame_stack: Some(4),
        ..si(AtariPreset::V5)
    })
    .unwrap();
    assert_eq!(small.observation_space().shape(), Some([84, 84, 4]));
}

#[test]
fn frameskip_sums_rewards_and_counts_frames() {
    let opts = |frameskip| AtariEnvOptions {
        frameskip,
        repeat_action_probability: 0.0,
        ..Default::default()
    };
    let mut skip4 = AtariEnv::new("space_invaders", opts(4)).unwrap();
    let mut skip1 = AtariEnv::new("space_invaders", opts(1)).unwrap();
    skip4.reset(Some(0), &OPTS).unwrap();
    skip1.reset(Some(0), &OPTS).unwrap();
    let mut total = 0.0;
    for t in 0..150 {
        let a = [1, 1, 3, 1, 4, 5][t % 6];
        let s4 = skip4.step(a).unwrap();
        let mut r1 = 0.0;
        let mut last = None;
        for _ in 0..4 {
            let s = skip1.step(a).unwrap();
            r1 += s.reward;
            last = Some(s);
        }
        let s1 = last.unwrap();
        assert_eq!(s4.obs, s1.obs, "step {t}");
        assert_eq!(s4.reward, r1, "step {t}");
        assert_eq!(s4.info.episode_frame_number, Some(4 * (t as u64 + 1)));
        assert_eq!(s4.info.lives, s1.info.lives);
        total += r1;
    }
    assert!(total > 0.0);
}

#[test]
fn paper_obs_is_cropped_max_of_last_two_frames() {
    let cfg = AtariConfig {
        noop_max: Some(0),
        ..si(AtariPreset::Paper)
    };
    let mut paper = make_atari(&cfg).unwrap();
    let mut raw = AtariEnv::new(
        "space_invaders",
        AtariEnvOptions {
            frameskip: 1,
            repeat_action_probability: 0.0,
            ..Default::default()
        },
    )
    .unwrap();
    paper.reset(Some(3), &OPTS).unwrap();
    raw.reset(Some(3), &OPTS).unwrap();
    let mut differs_from_last = false;
    for t in 0..60 {
        let a = [1, 3, 4][t % 3];
        let p = paper.step(a).unwrap();
        let mut frames = Vec::new();
        let mut reward = 0.0;
        for _ in 0..4 {
            let s = raw.step(a).unwrap();
            reward += s.reward;
            frames.push(s.obs);
        }
        let max = ndarray::Zip::from(&frames[2])
            .and(&frames[3])
            .map_collect(|&x, &y| x.max(y));
        assert_eq!(p.obs, max.slice(ndarray::s![0..195, .., ..]), "step {t}");
        assert_eq!(p.reward, reward);
        differs_from_last |= p.obs != frames[3].slice(ndarray::s![0..195, .., ..]);
    }
    assert!(
        differs_from_last,
        "Space Invaders flickers, so max-pooling shows"
    );
}

#[test]
fn truncates_after_max_episode_frames() {
    let cfg = AtariConfig {
        max_episode_frames: Some(100),
        ..si(AtariPreset::V5)
    };
    let mut env = make_atari(&cfg).unwrap();
    env.reset(Some(0), &OPTS).unwrap();
    for _ in 0..24 {
        let s = env.step(0).unwrap();
        assert!(!s.truncated && !s.terminated);
    }
    let s = env.step(0).unwrap();
    assert!(s.truncated && !s.terminated);
    assert_eq!(s.info.episode_frame_number, Some(100));
    assert!(matches!(env.step(0), Err(Error::NeedsReset { .. })));
    env.reset(None, &OPTS).unwrap();
    assert!(env.step(0).is_ok());
    // The default v5 limit is ALE's 108,000 frames (30 minutes at 60 Hz).
    assert_eq!(
        si(AtariPreset::V5).resolve().unwrap().max_episode_frames,
        Some(108_000)
    );
}

#[test]
fn errors_name_the_problem() {
    let mut env = make_atari(&si(AtariPreset::V5)).unwrap();
    assert!(matches!(env.step(0), Err(Error::NeedsReset { .. })));
    let (_, info) = env.reset(Some(0), &OPTS).unwrap();
    assert_eq!(info.lives, Some(3));
    assert_eq!(info.episode_frame_number, Some(0));
    match env.step(6) {
        Err(Error::InvalidAction {
            action: 6, n: 6, ..
        }) => {}
        other => panic!("expected InvalidAction, got {:?}", other.map(|s| s.reward)),
    }
    let unknown = make_atari(&AtariConfig::new("space_invadrs", AtariPreset::V5));
    match unknown {
        Err(e @ Error::UnknownEnv { .. }) => assert!(e.to_string().contains("space_invaders")),
        Err(e) => panic!("expected UnknownEnv, got {e}"),
        Ok(_) => panic!("expected UnknownEnv"),
    }
    let fire = make_atari(&AtariConfig {
        fire_reset: Some(true),
        ..AtariConfig::new("pong", AtariPreset::V5)
    });
    assert!(fire.is_ok(), "Pong has FIRE at index 1");
    let mut bad = make_atari(&si(AtariPreset::V5)).unwrap();
    let mut wrong = Array3::<u8>::zeros((10, 10, 3));
    assert!(bad.reset_into(Some(0), &OPTS, wrong.view_mut()).is_err());
}

#[test]
fn episode_runs_to_game_over_with_lives_counting_down() {
    let mut env = make_atari(&AtariConfig {
        repeat_action_probability: Some(0.0),
        ..si(AtariPreset::V5)
    })
    .unwrap();
    env.reset(Some(0), &OPTS).unwrap();
    let mut lives = vec![];
    for _ in 0..20_000 {
        let s = env.step(0).unwrap();
        if lives.last() != s.info.lives.as_ref() {
            lives.push(s.info.lives.unwrap());
        }
        if s.terminated {
            assert_eq!(lives, vec![3, 2, 1, 0]);
            return;
        }
    }
    panic!("a no-op player should lose Space Invaders; lives seen {lives:?}");
}

#[test]
#[cfg(feature = "gymnasium")]
fn gymnasium_rs_code_runs_on_atari() {
    use gymnasium_rs::core::{Env as GymEnv, Space as GymSpace};
    use silot::env::gym_adapter::GymnasiumAdapter;

    fn play<G: GymEnv<Array3<u8>, usize>>(env: &mut G) -> usize {
        let GymSpace::Discrete(n) = env.action_space() else {
            panic!("discrete actions")
        };
        let (obs, info) = env.reset_seed(1);
        assert_eq!(info["lives"], 3);
        let mut steps = 0;
        for t in 0..50 {
            let (o, _, term, trunc, _) = env.step(t % n as usize);
            assert_eq!(o.shape(), obs.shape());
            steps += 1;
            if term || trunc {
                break;
            }
        }
        steps
    }
    let mut env = GymnasiumAdapter::new(make_atari(&si(AtariPreset::V5)).unwrap());
    assert_eq!(play(&mut env), 50);
    let GymSpace::Box { low, .. } = env.observation_space() else {
        panic!("box observations")
    };
    assert_eq!(low.len(), 210 * 160 * 3);
}

#[test]
fn observations_lie_in_their_space_and_render_shows_the_screen() {
    for cfg in [
        si(AtariPreset::V5),
        si(AtariPreset::Paper),
        AtariConfig {
            grayscale_resize: Some([84, 84]),
            frame_stack: Some(4),
            episodic_life: Some(true),
            fire_reset: Some(true),
            reward_clip: Some(true),
            ..AtariConfig::new("breakout", AtariPreset::V5)
        },
    ] {
        let mut env = make_atari(&cfg).unwrap();
        let space = env.observation_space().clone();
        let (obs, info) = env.reset(Some(0), &OPTS).unwrap();
        assert!(space.contains_obs(obs.view()));
        assert!(info.lives.is_some() && info.frame_number.is_some());
        for t in 0..300 {
            let s = env.step(t % env.action_space().n().unwrap()).unwrap();
            assert!(space.contains_obs(s.obs.view()), "{cfg:?}");
            assert!(s.reward.is_finite());
            if cfg.reward_clip == Some(true) {
                assert!([-1.0, 0.0, 1.0].contains(&s.reward));
            }
            if s.terminated || s.truncated {
                env.reset(None, &OPTS).unwrap();
            }
        }
    }
    // The raw v5 observation is the current screen.
    let mut env = make_atari(&si(AtariPreset::V5)).unwrap();
    env.reset(Some(0), &OPTS).unwrap();
    let s = env.step(1).unwrap();
    assert_eq!(env.render().unwrap(), s.obs);
}

#[test]
fn sticky_probability_one_keeps_the_reset_noop() {
    let opts = |p| AtariEnvOptions {
        repeat_action_probability: p,
        ..Default::default()
    };
    let mut always = AtariEnv::new("space_invaders", opts(1.0)).unwrap();
    let mut noop = AtariEnv::new("space_invaders", opts(0.0)).unwrap();
    always.reset(Some(4), &OPTS).unwrap();
    noop.reset(Some(9), &OPTS).unwrap();
    for t in 0..100 {
        // Every new action is dropped, so the NOOP applied since the reset sticks.
        assert_eq!(
            always.step(1 + t % 5).unwrap(),
            noop.step(0).unwrap(),
            "step {t}"
        );
    }
}

#[test]
fn gymnasium_env_checker_passes_on_atari_stacks() {
    use silot::env::check::{check_env_with, CheckOptions};
    let short = |cfg: AtariConfig| AtariConfig {
        max_episode_frames: Some(2_000),
        ..cfg
    };
    // ALE 0.6 resets deterministically: without no-op starts, seeds only drive sticky actions.
    let deterministic_reset = CheckOptions {
        seeds_change_reset: false,
        unseeded_reset_differs: false,
        ..Default::default()
    };
    // render() shows the full screen (Gymnasium's `rgb_array`), not the cropped/resized obs.
    let transformed_obs = CheckOptions {
        render_matches_obs: false,
        ..Default::default()
    };
    let stacks = [
        (short(si(AtariPreset::V5)), deterministic_reset),
        (short(si(AtariPreset::Paper)), transformed_obs.clone()),
        (
            short(AtariConfig {
                grayscale_resize: Some([84, 84]),
                frame_stack: Some(4),
                fire_reset: Some(true),
                reward_clip: Some(true),
                noop_max: Some(30),
                ..AtariConfig::new("breakout", AtariPreset::V5)
            }),
            transformed_obs,
        ),
    ];
    for (cfg, opts) in stacks {
        let mut env = make_atari(&cfg).unwrap();
        check_env_with(env.as_mut(), &opts).unwrap_or_else(|e| panic!("{cfg:?}: {e}"));
    }
}
