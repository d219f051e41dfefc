//! Shared helpers of the model tests: the smoke config and a tiny synthetic clip generator.

use candle_core::{Device, Tensor};
use silot::model::config::RunConfig;

/// `envs/smoke.toml`, parsed and validated.
pub fn smoke_cfg() -> RunConfig {
    RunConfig::from_toml(include_str!("../envs/smoke.toml"), "envs/smoke.toml").unwrap()
}

/// `(B, T, 3, H, W)` clips of 1–2 coloured 5×5 squares moving one pixel per frame on black.
pub fn moving_squares(b: usize, t: usize, h: usize, w: usize, seed: u64) -> Tensor {
    let mut data = vec![0f32; b * t * 3 * h * w];
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = |m: usize| {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((s >> 33) as usize) % m
    };
    let colours = [
        [1.0f32, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.5, 1.0],
        [1.0, 1.0, 0.0],
    ];
    for bi in 0..b {
        let n = 1 + next(2);
        for _ in 0..n {
            let (y0, x0) = (next(h - 5 - t), next(w - 5 - t));
            let (dy, dx) = (next(2), next(2));
            let c = colours[next(4)];
            for ti in 0..t {
                for y in 0..5 {
                    for x in 0..5 {
                        let (py, px) = (y0 + y + dy * ti, x0 + x + dx * ti);
                        for (ch, &v) in c.iter().enumerate() {
                            data[(((bi * t + ti) * 3 + ch) * h + py) * w + px] = v;
                        }
                    }
                }
            }
        }
    }
    Tensor::from_vec(data, (b, t, 3, h, w), &Device::Cpu).unwrap()
}

/// Plain CPU training options: at most `steps` (else the config's), no progress bar, no time
/// limit, optimiser and stage as saved.
pub fn cpu_opts(steps: Option<u64>) -> silot::train::TrainOptions {
    silot::train::TrainOptions {
        steps,
        device: Device::Cpu,
        progress: false,
        time_limit: None,
        reset_optimizer: false,
        start_stage: None,
        branch_from: None,
        keep_every: None,
        env: None,
        allow_env_mismatch: false,
    }
}
