//! Atari throughput: raw ALE (act + RGB fetch through `ale-sys`) vs our single env vs our vector
//! env, Space Invaders, RGB observations, no sticky actions. Prints one `RESULT` line per
//! measurement, the format `benches/compare_python.py` parses:
//!
//! ```text
//! cargo run --release --example atari_throughput -- --seconds 3 --frameskip 1,4 --envs 2,8 --threads 2
//! RESULT impl=rust_raw_ale envs=1 threads=1 frameskip=1 fps=12345.6 cpu_fps=12400.2
//! ```
//!
//! `fps` is frames per wall-clock second; `cpu_fps` is frames per second of CPU time used by the
//! whole process (Linux `/proc/self/stat`), which on a loaded machine measures per-core overhead
//! more stably than wall time.

use std::ffi::CString;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::Parser;
use silot::env::atari::{AtariEnv, AtariEnvOptions};
use silot::env::vector::VectorEnv;
use silot::env::{Env, ResetOptions};

#[derive(Parser, Debug)]
#[command(about = "Frames per second of raw ALE, our Atari env and our vector env")]
struct Args {
    /// Seconds per measurement (after a short warm-up).
    #[arg(long, default_value_t = 3.0)]
    seconds: f64,
    /// Frameskips to measure.
    #[arg(long, value_delimiter = ',', default_value = "1,4")]
    frameskip: Vec<u32>,
    /// Vector env sizes to measure.
    #[arg(long, value_delimiter = ',', default_value = "2,8")]
    envs: Vec<usize>,
    /// Threads of the vector env (the caller counts as one).
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Which measurements: raw, single, vector (and `load`: construction and seeded-reset
    /// times, not included by default).
    #[arg(long, value_delimiter = ',', default_value = "raw,single,vector")]
    only: Vec<String>,
    /// Repeat the whole set this many times (alternating implementations).
    #[arg(long, default_value_t = 1)]
    rounds: usize,
    /// Game id.
    #[arg(long, default_value = "space_invaders")]
    game: String,
}

/// A fixed pseudo-random action sequence (xorshift), the same for every implementation.
fn actions(n: usize) -> Vec<usize> {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    (0..4096)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        })
        .collect()
}

/// CPU seconds (user + system) used by this process so far, if `/proc` tells.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// Frames per wall-clock second and per CPU second.
struct Rate {
    fps: f64,
    cpu_fps: f64,
}

/// Run `step` (returning emulator frames done) for `seconds` after a warm-up.
fn measure(seconds: f64, mut step: impl FnMut(usize) -> u64) -> Rate {
    let warm = Instant::now();
    let mut i = 0;
    while warm.elapsed() < Duration::from_millis(300) {
        step(i);
        i += 1;
    }
    let start = Instant::now();
    let cpu_start = cpu_seconds();
    let mut frames = 0u64;
    loop {
        for _ in 0..16 {
            frames += step(i);
            i += 1;
        }
        let t = start.elapsed().as_secs_f64();
        if t >= seconds {
            let cpu = cpu_start
                .zip(cpu_seconds())
                .map_or(f64::NAN, |(a, b)| b - a);
            return Rate {
                fps: frames as f64 / t,
                cpu_fps: frames as f64 / cpu,
            };
        }
    }
}

fn report(name: &str, envs: usize, threads: usize, frameskip: u32, rate: Rate) {
    println!(
        "RESULT impl={name} envs={envs} threads={threads} frameskip={frameskip} fps={:.1} \
         cpu_fps={:.1}",
        rate.fps, rate.cpu_fps
    );
}

/// Raw ALE through `ale-sys`: the same settings our env uses, no wrapper at all.
struct RawAle(*mut ale_sys::ALEInterface);

impl RawAle {
    fn new(game: &str) -> Result<(Self, Vec<i32>)> {
        let rom = silot::env::atari::roms::rom_or_err(game)?;
        let dir = tempfile_dir()?;
        let path = dir.join(rom.filename());
        std::fs::write(&path, rom.data())?;
        let c = |s: &str| CString::new(s).expect("no NUL");
        // SAFETY: plain ALE C API use on one thread; the ROM file exists.
        unsafe {
            ale_sys::setLoggerMode(2);
            let p = ale_sys::ALE_new();
            ale_sys::setInt(p, c("random_seed").as_ptr(), 1);
            ale_sys::setFloat(p, c("repeat_action_probability").as_ptr(), 0.0);
            ale_sys::setInt(p, c("frame_skip").as_ptr(), 1);
            ale_sys::setBool(p, c("color_averaging").as_ptr(), false);
            ale_sys::loadROM(p, c(&path.to_string_lossy()).as_ptr());
            std::fs::remove_dir_all(&dir)?;
            let mut set = vec![0; ale_sys::getMinimalActionSize(p) as usize];
            ale_sys::getMinimalActionSet(p, set.as_mut_ptr());
            ale_sys::reset_game(p);
            Ok((RawAle(p), set))
        }
    }
}

impl Drop for RawAle {
    fn drop(&mut self) {
        // SAFETY: owned interface.
        unsafe { ale_sys::ALE_del(self.0) }
    }
}

fn tempfile_dir() -> Result<std::path::PathBuf> {
    let dir = std::env::temp_dir().join(format!("atari-throughput-{}", std::process::id()));
    std::fs::create_dir_all(&dir).context("temp dir")?;
    Ok(dir)
}

fn raw(args: &Args, frameskip: u32) -> Result<Rate> {
    let (ale, set) = RawAle::new(&args.game)?;
    let acts = actions(set.len());
    let mut screen = vec![0u8; 210 * 160 * 3];
    Ok(measure(args.seconds, |i| unsafe {
        // SAFETY: valid interface; the buffer holds one RGB screen.
        let code = set[acts[i % acts.len()]];
        let mut frames = 0;
        for _ in 0..frameskip {
            ale_sys::act(ale.0, code);
            frames += 1;
            if ale_sys::game_over(ale.0) {
                break;
            }
        }
        ale_sys::getScreenRGB(ale.0, screen.as_mut_ptr());
        if ale_sys::game_over(ale.0) {
            ale_sys::reset_game(ale.0);
        }
        frames
    }))
}

fn options(frameskip: u32) -> AtariEnvOptions {
    AtariEnvOptions {
        frameskip,
        repeat_action_probability: 0.0,
        ..Default::default()
    }
}

fn single(args: &Args, frameskip: u32) -> Result<Rate> {
    let mut env = AtariEnv::new(&args.game, options(frameskip))?;
    let acts = actions(env.action_space().n().unwrap_or(1));
    let mut obs = env.new_obs_buffer();
    env.reset_into(Some(1), &ResetOptions::default(), obs.view_mut())?;
    let mut failure = None;
    let fps = measure(args.seconds, |i| {
        match env.step_into(acts[i % acts.len()], obs.view_mut()) {
            Ok(t) if t.terminated || t.truncated => {
                if let Err(e) = env.reset_into(None, &ResetOptions::default(), obs.view_mut()) {
                    failure = Some(e);
                }
            }
            Ok(_) => {}
            Err(e) => failure = Some(e),
        }
        frameskip as u64
    });
    failure.map_or(Ok(fps), |e| Err(e.into()))
}

fn vector(args: &Args, frameskip: u32, n: usize) -> Result<Rate> {
    let game = args.game.clone();
    let mut venv = VectorEnv::new(
        move |_| AtariEnv::new(&game, options(frameskip)),
        n,
        args.threads,
    )?;
    let acts = actions(venv.single_action_space().n().unwrap_or(1));
    venv.reset(Some(1))?;
    let mut batch = vec![0; n];
    let mut failure = None;
    let fps = measure(args.seconds, |i| {
        for (k, a) in batch.iter_mut().enumerate() {
            *a = acts[(i * n + k) % acts.len()];
        }
        if let Err(e) = venv.step(&batch) {
            failure = Some(e);
        }
        (n as u64) * frameskip as u64
    });
    failure.map_or(Ok(fps), |e| Err(e.into()))
}

fn main() -> Result<()> {
    let args = Args::parse();
    let want = |s: &str| args.only.iter().any(|o| o == s);
    if want("load") {
        let t = Instant::now();
        let mut env = AtariEnv::new(&args.game, options(4))?;
        let new_ms = t.elapsed().as_secs_f64() * 1e3;
        let t = Instant::now();
        env.reset(Some(3), &ResetOptions::default())?;
        let seeded_ms = t.elapsed().as_secs_f64() * 1e3;
        let t = Instant::now();
        env.reset(None, &ResetOptions::default())?;
        let unseeded_ms = t.elapsed().as_secs_f64() * 1e3;
        println!(
            "LOAD new_ms={new_ms:.2} seeded_reset_ms={seeded_ms:.2} unseeded_reset_ms={unseeded_ms:.2}"
        );
    }
    for _ in 0..args.rounds {
        for &fs in &args.frameskip {
            if want("raw") {
                report("rust_raw_ale", 1, 1, fs, raw(&args, fs)?);
            }
            if want("single") {
                report("rust_single", 1, 1, fs, single(&args, fs)?);
            }
            if want("vector") {
                for &n in &args.envs {
                    let fps = vector(&args, fs, n)?;
                    report("rust_vector", n, args.threads.min(n), fs, fps);
                }
            }
        }
    }
    Ok(())
}
