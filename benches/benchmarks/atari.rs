//! Atari throughput in one run: raw ALE (act + RGB fetch through `ale-sys`) vs our single env at
//! frameskip 1 and 4 vs our vector env with 2 and 8 envs on 2 threads. Space Invaders, RGB
//! observations, no sticky actions. Throughput is in emulator frames.
//!
//! `cargo bench --bench bench_main -- atari`

use std::ffi::CString;

use criterion::{criterion_group, BenchmarkId, Criterion, Throughput};
use silot::env::atari::{roms, AtariEnv, AtariEnvOptions};
use silot::env::vector::VectorEnv;
use silot::env::{Env, ResetOptions};

const GAME: &str = "space_invaders";
/// Agent steps per criterion iteration.
const STEPS: usize = 64;

fn actions(n: usize) -> Vec<usize> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    (0..4096)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        })
        .collect()
}

fn options(frameskip: u32) -> AtariEnvOptions {
    AtariEnvOptions {
        frameskip,
        repeat_action_probability: 0.0,
        ..Default::default()
    }
}

/// One raw ALE instance with our env's settings, driven through the C API only.
struct RawAle {
    ptr: *mut ale_sys::ALEInterface,
    minimal: Vec<i32>,
}

impl RawAle {
    fn new() -> RawAle {
        let rom = roms::bundled_rom(GAME).expect("bundled");
        let dir = std::env::temp_dir().join(format!("silot-bench-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join(rom.filename());
        std::fs::write(&path, rom.data()).expect("write ROM");
        let c = |s: &str| CString::new(s).expect("no NUL");
        // SAFETY: single-threaded use of the C API; the ROM file exists.
        unsafe {
            ale_sys::setLoggerMode(2);
            let ptr = ale_sys::ALE_new();
            ale_sys::setInt(ptr, c("random_seed").as_ptr(), 1);
            ale_sys::setFloat(ptr, c("repeat_action_probability").as_ptr(), 0.0);
            ale_sys::setInt(ptr, c("frame_skip").as_ptr(), 1);
            ale_sys::setBool(ptr, c("color_averaging").as_ptr(), false);
            ale_sys::loadROM(ptr, c(&path.to_string_lossy()).as_ptr());
            let _ = std::fs::remove_dir_all(&dir);
            let mut minimal = vec![0; ale_sys::getMinimalActionSize(ptr) as usize];
            ale_sys::getMinimalActionSet(ptr, minimal.as_mut_ptr());
            ale_sys::reset_game(ptr);
            RawAle { ptr, minimal }
        }
    }
}

impl Drop for RawAle {
    fn drop(&mut self) {
        // SAFETY: owned interface.
        unsafe { ale_sys::ALE_del(self.ptr) }
    }
}

fn atari(c: &mut Criterion) {
    let mut g = c.benchmark_group("atari_space_invaders_rgb");
    g.sample_size(10);
    for frameskip in [1u32, 4] {
        g.throughput(Throughput::Elements(STEPS as u64 * frameskip as u64));
        let raw = RawAle::new();
        let acts = actions(raw.minimal.len());
        let mut screen = vec![0u8; 210 * 160 * 3];
        let mut i = 0;
        g.bench_function(BenchmarkId::new("raw_ale", format!("fs{frameskip}")), |b| {
            b.iter(|| {
                for _ in 0..STEPS {
                    let code = raw.minimal[acts[i % acts.len()]];
                    i += 1;
                    // SAFETY: valid interface; the buffer holds one RGB screen.
                    unsafe {
                        for _ in 0..frameskip {
                            ale_sys::act(raw.ptr, code);
                            if ale_sys::game_over(raw.ptr) {
                                break;
                            }
                        }
                        ale_sys::getScreenRGB(raw.ptr, screen.as_mut_ptr());
                        if ale_sys::game_over(raw.ptr) {
                            ale_sys::reset_game(raw.ptr);
                        }
                    }
                }
            })
        });

        let mut env = AtariEnv::new(GAME, options(frameskip)).expect("env");
        let mut obs = env.new_obs_buffer();
        env.reset_into(Some(1), &ResetOptions::default(), obs.view_mut())
            .expect("reset");
        g.bench_function(BenchmarkId::new("single", format!("fs{frameskip}")), |b| {
            b.iter(|| {
                for _ in 0..STEPS {
                    let t = env
                        .step_into(acts[i % acts.len()], obs.view_mut())
                        .expect("step");
                    i += 1;
                    if t.terminated || t.truncated {
                        env.reset_into(None, &ResetOptions::default(), obs.view_mut())
                            .expect("reset");
                    }
                }
            })
        });

        for n in [2usize, 8] {
            g.throughput(Throughput::Elements(
                (STEPS / n.min(4)) as u64 * n as u64 * frameskip as u64,
            ));
            let mut venv = VectorEnv::new(move |_| AtariEnv::new(GAME, options(frameskip)), n, 2)
                .expect("vector env");
            venv.reset(Some(1)).expect("reset");
            let mut batch = vec![0; n];
            g.bench_function(
                BenchmarkId::new(format!("vector_{n}envs_2threads"), format!("fs{frameskip}")),
                |b| {
                    b.iter(|| {
                        for _ in 0..STEPS / n.min(4) {
                            for a in batch.iter_mut() {
                                *a = acts[i % acts.len()];
                                i += 1;
                            }
                            venv.step(&batch).expect("step");
                        }
                    })
                },
            );
        }
        g.throughput(Throughput::Elements(STEPS as u64 * frameskip as u64));
    }
    g.finish();
}

criterion_group!(benches, atari);
