//! Scattered MNIST / Shapes as Gymnasium envs: the env checker, episode semantics and errors.

use silot::env::check::{check_env, check_env_with, CheckOptions};
use silot::env::synthetic::{
    ScatteredMnist, ScatteredMnistConfig, ScatteredShapes, ScatteredShapesConfig, Split, COLOURS,
};
use silot::env::{Env, ResetOptions, Space};
use silot::Error;

fn mnist(cfg: ScatteredMnistConfig) -> ScatteredMnist {
    ScatteredMnist::new(cfg, Split::Train).unwrap()
}

fn shapes(cfg: ScatteredShapesConfig) -> ScatteredShapes {
    ScatteredShapes::new(cfg).unwrap()
}

#[test]
fn env_checker_passes() {
    check_env(&mut mnist(ScatteredMnistConfig::default())).unwrap();
    check_env(&mut shapes(ScatteredShapesConfig::default())).unwrap();
    for split in [Split::Val, Split::Test] {
        check_env(&mut ScatteredMnist::new(ScatteredMnistConfig::default(), split).unwrap())
            .unwrap();
    }
    let no_jitter = ScatteredShapesConfig {
        size_jitter: false,
        min_objects: 20,
        max_objects: 30,
        ..Default::default()
    };
    check_env(&mut shapes(no_jitter)).unwrap();
    // One-frame episodes: reset only, any step needs a reset.
    let one = ScatteredMnistConfig {
        episode_length: 1,
        ..Default::default()
    };
    let opts = CheckOptions {
        n_steps: 0,
        ..CheckOptions::default()
    };
    check_env_with(&mut mnist(one), &opts).unwrap();
}

#[test]
fn spaces() {
    let env = mnist(ScatteredMnistConfig::default());
    assert_eq!(env.observation_space(), &Space::rgb(48, 48));
    assert_eq!(env.action_space(), &Space::Discrete { n: 1 });
    assert_eq!(env.id(), "scattered_mnist");
    let env = shapes(ScatteredShapesConfig::default());
    assert_eq!(env.observation_space(), &Space::rgb(96, 96));
    assert_eq!(env.id(), "scattered_shapes");
}

#[test]
fn episode_of_eight_frames_truncates_on_frame_seven() {
    let mut env = mnist(ScatteredMnistConfig::default());
    assert!(matches!(env.step(0), Err(Error::NeedsReset { .. })));
    assert!(env.render().is_none());
    for seed in [0u64, 1] {
        let (obs, info) = env.reset(Some(seed), &ResetOptions::default()).unwrap();
        assert_eq!(env.render().unwrap(), obs);
        assert_eq!(env.frame_index(), Some(0));
        assert!(info.objects.is_some());
        for t in 1..8 {
            let s = env.step(0).unwrap();
            assert_eq!(s.reward, 0.0);
            assert!(!s.terminated);
            assert_eq!(s.truncated, t == 7, "frame {t}");
            assert_eq!(env.render().unwrap(), s.obs);
            assert_eq!(env.frame_index(), Some(t));
        }
        match env.step(0) {
            Err(Error::NeedsReset { what, .. }) => assert!(what.contains("reset")),
            other => panic!("expected NeedsReset, got {other:?}"),
        }
    }
    assert!(matches!(
        env.step(1),
        Err(Error::InvalidAction {
            action: 1,
            n: 1,
            ..
        })
    ));
}

#[test]
fn frames_change_over_the_video_and_reset_none_continues() {
    let mut env = shapes(ScatteredShapesConfig::default());
    let (f0, _) = env.reset(Some(5), &ResetOptions::default()).unwrap();
    let f1 = env.step(0).unwrap().obs;
    assert_ne!(f0, f1, "objects move at 5 px/frame");
    // reset(None) after a seeded episode equals the second episode of the same seed's stream.
    let (g0, _) = env.reset(None, &ResetOptions::default()).unwrap();
    let mut again = shapes(ScatteredShapesConfig::default());
    again.reset(Some(5), &ResetOptions::default()).unwrap();
    let (h0, _) = again.reset(None, &ResetOptions::default()).unwrap();
    assert_eq!(g0, h0);
    assert_ne!(g0, f0);
}

#[test]
fn object_counts_follow_the_config() {
    let cfg = ScatteredShapesConfig {
        min_objects: 3,
        max_objects: 5,
        ..Default::default()
    };
    let mut env = shapes(cfg);
    let mut seen = [0usize; 6];
    for seed in 0..60 {
        let (_, info) = env.reset(Some(seed), &ResetOptions::default()).unwrap();
        let n = info.objects.unwrap().len();
        assert_eq!(n, env.objects().len());
        seen[n] += 1;
    }
    assert_eq!(seen[..3], [0, 0, 0]);
    assert!(seen[3..].iter().all(|&c| c > 8), "{seen:?}");
    let mut env = mnist(ScatteredMnistConfig {
        min_objects: 12,
        max_objects: 12,
        ..Default::default()
    });
    for seed in 0..5 {
        assert_eq!(
            env.reset(Some(seed), &ResetOptions::default())
                .unwrap()
                .1
                .objects
                .unwrap()
                .len(),
            12
        );
    }
    let mut empty = mnist(ScatteredMnistConfig {
        min_objects: 0,
        max_objects: 0,
        ..Default::default()
    });
    let (obs, info) = empty.reset(Some(0), &ResetOptions::default()).unwrap();
    assert!(obs.iter().all(|&v| v == 0) && info.objects.unwrap().is_empty());
}

#[test]
fn shapes_use_the_six_colours_and_all_five_shapes_appear() {
    let mut env = shapes(ScatteredShapesConfig {
        min_objects: 10,
        max_objects: 10,
        ..Default::default()
    });
    let mut colours = [0usize; 6];
    for seed in 0..20 {
        env.reset(Some(seed), &ResetOptions::default()).unwrap();
        for o in env.objects() {
            let rgb = o.sprite.colour.map(|c| c as u8);
            let k = COLOURS
                .iter()
                .position(|c| c.rgb == rgb)
                .expect("a dataset colour");
            colours[k] += 1;
        }
    }
    // 200 draws of 6 colours: each appears about 33 times.
    assert!(colours.iter().all(|&c| c > 15), "{colours:?}");
}

#[test]
fn mnist_is_white_on_black() {
    let mut env = mnist(ScatteredMnistConfig::default());
    let (obs, _) = env.reset(Some(2), &ResetOptions::default()).unwrap();
    for px in obs.rows() {
        assert!(px[0] == px[1] && px[1] == px[2], "grey pixels only");
    }
    assert!(obs.iter().any(|&v| v == 255) || obs.iter().any(|&v| v > 200));
}
