//! Vector env: batched outputs equal stepping the envs one by one, `seed + i` seeding, exact
//! NextStep/SameStep autoreset sequences, error propagation, concurrent ALE construction.

use ndarray::ArrayViewMut3;
#[cfg(feature = "atari")]
use silot::env::atari::{make_atari, AtariConfig, AtariEnv, AtariEnvOptions, AtariPreset};
use silot::env::vector::{AutoresetMode, VectorEnv};
use silot::env::{Env, Frame, Info, ResetOptions, Space, Transition};
use silot::{Error, Result};

/// Deterministic test env: obs = one pixel holding `10 * seed + t`, reward = `t`, episode of
/// `len` steps; `info.episode_frame_number = t`, `info.frame_number = seed`.
struct Counter {
    len: u64,
    seed: u64,
    t: u64,
    running: bool,
    space: Space,
}

impl Counter {
    fn new(len: u64) -> Self {
        Counter {
            len,
            seed: 0,
            t: 0,
            running: false,
            space: Space::image(1, 1, 1),
        }
    }
    fn info(&self) -> Info {
        Info {
            episode_frame_number: Some(self.t),
            frame_number: Some(self.seed),
            ..Default::default()
        }
    }
}

impl Env for Counter {
    fn id(&self) -> &str {
        "counter"
    }
    fn observation_space(&self) -> &Space {
        &self.space
    }
    fn action_space(&self) -> &Space {
        &Space::Discrete { n: 2 }
    }
    fn reset_into(
        &mut self,
        seed: Option<u64>,
        _: &ResetOptions,
        mut obs: ArrayViewMut3<'_, u8>,
    ) -> Result<Info> {
        if let Some(s) = seed {
            self.seed = s;
        }
        self.t = 0;
        self.running = true;
        obs[(0, 0, 0)] = (10 * self.seed) as u8;
        Ok(self.info())
    }
    fn step_into(&mut self, action: usize, mut obs: ArrayViewMut3<'_, u8>) -> Result<Transition> {
        if !self.running {
            return Err(Error::NeedsReset {
                env: "counter".into(),
                what: "reset first".into(),
            });
        }
        if action == 1 {
            panic!("counter was told to panic");
        }
        self.t += 1;
        self.running = self.t < self.len;
        obs[(0, 0, 0)] = (10 * self.seed + self.t) as u8;
        Ok(Transition {
            reward: self.t as f32,
            terminated: !self.running,
            truncated: false,
            info: self.info(),
        })
    }
    fn render(&self) -> Option<Frame> {
        None
    }
}

fn pixels(v: &VectorEnv<Counter>) -> Vec<u8> {
    v.obs().iter().copied().collect()
}

#[test]
fn seeds_are_seed_plus_index() {
    let mut v = VectorEnv::new(|_| Ok(Counter::new(5)), 4, 2).unwrap();
    let (obs, infos) = v.reset(Some(3)).unwrap();
    assert_eq!(obs.shape(), &[4, 1, 1, 1]);
    let seeds: Vec<u64> = infos.iter().map(|i| i.frame_number.unwrap()).collect();
    assert_eq!(seeds, vec![3, 4, 5, 6]);
    assert_eq!(pixels(&v), vec![30, 40, 50, 60]);
    // Unseeded resets keep each env's seed.
    v.reset(None).unwrap();
    assert_eq!(pixels(&v), vec![30, 40, 50, 60]);
}

#[test]
fn next_step_autoreset_exact_sequence() {
    // Env i has episodes of 2 + i steps.
    let mut v = VectorEnv::new(|i| Ok(Counter::new(2 + i as u64)), 2, 2).unwrap();
    v.reset(Some(0)).unwrap();
    let mut rows = Vec::new();
    for _ in 0..6 {
        let s = v.step(&[0, 0]).unwrap();
        rows.push((
            s.obs.iter().copied().collect::<Vec<u8>>(),
            s.rewards.to_vec(),
            s.terminated.to_vec(),
            s.truncated.to_vec(),
        ));
    }
    let expected = vec![
        (
            vec![1, 11],
            vec![1.0, 1.0],
            vec![false, false],
            vec![false, false],
        ),
        (
            vec![2, 12],
            vec![2.0, 2.0],
            vec![true, false],
            vec![false, false],
        ),
        // env 0 autoresets: reset obs, reward 0, flags false.
        (
            vec![0, 13],
            vec![0.0, 3.0],
            vec![false, true],
            vec![false, false],
        ),
        (
            vec![1, 10],
            vec![1.0, 0.0],
            vec![false, false],
            vec![false, false],
        ),
        (
            vec![2, 11],
            vec![2.0, 1.0],
            vec![true, false],
            vec![false, false],
        ),
        (
            vec![0, 12],
            vec![0.0, 2.0],
            vec![false, false],
            vec![false, false],
        ),
    ];
    assert_eq!(rows, expected);
    assert_eq!(v.infos()[0].episode_frame_number, Some(0), "reset info");
}

#[test]
fn same_step_autoreset_keeps_final_obs() {
    let mut v =
        VectorEnv::with_autoreset(|_| Ok(Counter::new(2)), 3, 2, AutoresetMode::SameStep).unwrap();
    v.reset(Some(1)).unwrap();
    v.step(&[0, 0, 0]).unwrap();
    assert!(v.final_obs(0).is_none());
    let s = v.step(&[0, 0, 0]).unwrap();
    assert_eq!(s.terminated, &[true, true, true]);
    assert_eq!(s.rewards, &[2.0, 2.0, 2.0]);
    assert_eq!(s.obs.iter().copied().collect::<Vec<_>>(), vec![10, 20, 30]);
    assert_eq!(s.infos[1].episode_frame_number, Some(0));
    assert_eq!(v.final_obs(1).unwrap()[(0, 0, 0)], 22);
    assert_eq!(v.final_info(2).unwrap().episode_frame_number, Some(2));
    let s = v.step(&[0, 0, 0]).unwrap();
    assert_eq!(s.terminated, &[false, false, false]);
    assert!(v.final_obs(0).is_none());
}

#[test]
fn worker_errors_and_panics_become_results() {
    let mut v = VectorEnv::new(|_| Ok(Counter::new(50)), 4, 3).unwrap();
    assert!(matches!(
        v.step(&[0; 4]),
        Err(Error::SubEnv { index: 0, .. })
    ));
    v.reset(Some(0)).unwrap();
    match v.step(&[0, 0, 1, 0]) {
        Err(e @ Error::SubEnv { index: 2, .. }) => {
            assert!(e.to_string().contains("counter was told to panic"), "{e}")
        }
        other => panic!("expected a SubEnv error, got {:?}", other.err()),
    }
    // The vector env keeps working after a failed call.
    v.reset(Some(0)).unwrap();
    assert!(v.step(&[0; 4]).is_ok());
    // Construction errors propagate too.
    let bad = VectorEnv::new(
        |i| {
            if i == 3 {
                Err(Error::Invalid("env 3 cannot be built".into()))
            } else {
                Ok(Counter::new(5))
            }
        },
        4,
        2,
    );
    assert!(bad
        .err()
        .unwrap()
        .to_string()
        .contains("env 3 cannot be built"));
}

#[cfg(feature = "atari")]
fn sticky_si() -> AtariConfig {
    AtariConfig::new("space_invaders", AtariPreset::V5)
}

#[cfg(feature = "atari")]
#[test]
fn atari_batch_equals_envs_stepped_one_by_one() {
    let n = 4;
    let mut v = VectorEnv::new(|_| make_atari(&sticky_si()), n, 2).unwrap();
    let mut singles: Vec<Box<dyn Env>> =
        (0..n).map(|_| make_atari(&sticky_si()).unwrap()).collect();
    v.reset(Some(100)).unwrap();
    for (i, e) in singles.iter_mut().enumerate() {
        let (obs, _) = e
            .reset(Some(100 + i as u64), &ResetOptions::default())
            .unwrap();
        assert_eq!(v.obs().index_axis(ndarray::Axis(0), i), obs);
    }
    for t in 0..60 {
        let actions: Vec<usize> = (0..n).map(|i| (t * 7 + i * 3) % 6).collect();
        let s = v.step(&actions).unwrap();
        for (i, e) in singles.iter_mut().enumerate() {
            let one = e.step(actions[i]).unwrap();
            assert_eq!(
                s.obs.index_axis(ndarray::Axis(0), i),
                one.obs,
                "env {i} step {t}"
            );
            assert_eq!(s.rewards[i], one.reward);
            assert_eq!(s.infos[i], one.info);
        }
    }
    // Sticky actions: different seeds gave different trajectories.
    let o = v.obs();
    assert_ne!(
        o.index_axis(ndarray::Axis(0), 0),
        o.index_axis(ndarray::Axis(0), 1)
    );
}

#[cfg(feature = "atari")]
#[test]
fn concurrent_construction_of_eight_ale_envs() {
    for round in 0..3 {
        let mut v = VectorEnv::new(
            |_| {
                AtariEnv::new(
                    "space_invaders",
                    AtariEnvOptions {
                        repeat_action_probability: 0.0,
                        ..Default::default()
                    },
                )
            },
            8,
            8,
        )
        .unwrap();
        assert_eq!(v.num_threads(), 8);
        v.reset(Some(round)).unwrap();
        for _ in 0..10 {
            v.step(&[1; 8]).unwrap();
        }
        // Without sticky actions all 8 play identically.
        let o = v.obs();
        for i in 1..8 {
            assert_eq!(
                o.index_axis(ndarray::Axis(0), 0),
                o.index_axis(ndarray::Axis(0), i)
            );
        }
    }
}
