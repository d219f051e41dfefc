//! ConnComp labelling of 195×160 Space Invaders frames, measured side by side with the Python
//! reference (`benches/conncomp_reference.py`, OpenCV and scipy, one core) in the same run.
//!
//! Run: `cargo bench --bench bench_main -- conncomp` (needs `python3` with numpy,
//! opencv-python-headless and scipy for the comparison; without them only the Rust numbers are
//! printed). Frames are real Space Invaders frames from ALE (feature `atari`, 8 clips × 8
//! consecutive frames of a seeded random policy, cropped to 195×160), else synthetic ones.
//! The same frames go to Python through a temp file, and the Rust boxes are checked against
//! OpenCV's for exact equality.

use std::hint::black_box;
use std::io::Write as _;
use std::process::Command;
use std::time::{Duration, Instant};

use criterion::Criterion;
use silot::baseline::conncomp::{atari_detections, unpack_rgb};
use silot::baseline::{label_atari_clip, LabelledObject, Labeller};
use silot::env::Frame;

const H: usize = 195;
const W: usize = 160;
const CLIP: usize = 8;
const CLIPS: usize = 8;

#[cfg(feature = "atari")]
fn frames() -> Vec<Frame> {
    use rand::{Rng, SeedableRng};
    let mut ale = ale::Ale::new();
    if ale.load_rom(ale::BundledRom::SpaceInvaders).is_err() {
        return synthetic_frames();
    }
    let actions = ale.minimal_action_set().to_vec();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
    let (sw, sh) = (ale.screen_width(), ale.screen_height());
    let mut buf = vec![0u8; sw * sh * 3];
    let mut out = Vec::new();
    for _ in 0..CLIPS {
        for _ in 0..rng.gen_range(50..150) {
            ale.act(actions[rng.gen_range(0..actions.len())]);
            if ale.is_game_over() {
                ale.reset_game();
            }
        }
        for _ in 0..CLIP {
            ale.act(actions[rng.gen_range(0..actions.len())]);
            ale.get_screen_rgb(&mut buf);
            out.push(Frame::from_shape_fn((H, W, 3), |(y, x, c)| {
                buf[(y * sw + x) * 3 + c]
            }));
        }
    }
    out
}

#[cfg(not(feature = "atari"))]
fn frames() -> Vec<Frame> {
    synthetic_frames()
}

/// Space-Invaders-like frames: 6×6 grid of 8×8 sprites in 6 row colours, shields, bullets,
/// score digits; sprites have holes so the dilation matters.
#[allow(dead_code)]
fn synthetic_frames() -> Vec<Frame> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
    let sprite: Vec<bool> = (0..64).map(|_| rng.gen_bool(0.65)).collect();
    let colours: Vec<[u8; 3]> = (0..14).map(|_| [rng.gen(), rng.gen(), rng.gen()]).collect();
    let mut out = Vec::new();
    for c in 0..CLIPS {
        for t in 0..CLIP {
            let mut f = Frame::zeros((H, W, 3));
            let mut put = |y: usize, x: usize, col: [u8; 3]| {
                if y < H && x < W {
                    for k in 0..3 {
                        f[[y, x, k]] = col[k];
                    }
                }
            };
            for (r, &colour) in colours.iter().enumerate().take(6) {
                for i in 0..6 {
                    for (p, _) in sprite.iter().enumerate().filter(|(_, on)| **on) {
                        put(30 + 18 * r + p / 8, 10 + c + t + 16 * i + p % 8, colour);
                    }
                }
            }
            for s in 0..3 {
                for y in 0..8 {
                    for x in 0..6 {
                        if (x + y + s) % 5 != 0 {
                            put(160 + y, 30 + 40 * s + x, colours[6]);
                        }
                    }
                }
            }
            for b in 0..4 {
                put(140 - 3 * t + b, 20 + 30 * b, colours[7 + b]);
            }
            for d in 0..4 {
                for p in 0..35 {
                    if (p * 7 + d) % 3 != 0 {
                        put(2 + p / 5, 5 + 8 * d + p % 5, colours[11 + d % 3]);
                    }
                }
            }
            out.push(f);
        }
    }
    out
}

fn boxes_of(frames: &[Frame]) -> Vec<Vec<[i64; 7]>> {
    let mut l = Labeller::new();
    frames
        .iter()
        .map(|f| {
            atari_detections(&mut l, f)
                .unwrap_or_default()
                .iter()
                .map(|d| {
                    let c = unpack_rgb(d.class);
                    [
                        c[0].into(),
                        c[1].into(),
                        c[2].into(),
                        d.top as i64,
                        d.bottom as i64,
                        d.left as i64,
                        d.right as i64,
                    ]
                })
                .collect()
        })
        .collect()
}

/// Rust frames/s of labelling (components + boxes) over all frames, at least `min` seconds.
fn rust_fps(frames: &[Frame], min: Duration) -> f64 {
    let mut l = Labeller::new();
    let (mut n, start) = (0usize, Instant::now());
    while start.elapsed() < min {
        for f in frames {
            black_box(
                atari_detections(&mut l, black_box(f))
                    .map(|d| d.len())
                    .unwrap_or(0),
            );
        }
        n += frames.len();
    }
    n as f64 / start.elapsed().as_secs_f64()
}

/// Reference output: timing stats, OpenCV boxes per frame, scipy-Hungarian ids per frame.
type Reference = (serde_json::Value, Vec<Vec<[i64; 7]>>, Vec<Vec<u64>>);

fn python_reference(frames: &[Frame]) -> Option<Reference> {
    let dir = tempfile::tempdir().ok()?;
    let raw = dir.path().join("frames.u8");
    let boxes = dir.path().join("boxes.json");
    let ids = dir.path().join("ids.json");
    let mut file = std::fs::File::create(&raw).ok()?;
    for f in frames {
        file.write_all(f.as_standard_layout().as_slice()?).ok()?;
    }
    drop(file);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/conncomp_reference.py");
    let args = [
        script.to_string(),
        "--frames".into(),
        raw.display().to_string(),
        "--n".into(),
        frames.len().to_string(),
        "--height".into(),
        H.to_string(),
        "--width".into(),
        W.to_string(),
        "--clip-len".into(),
        CLIP.to_string(),
        "--boxes-out".into(),
        boxes.display().to_string(),
        "--ids-out".into(),
        ids.display().to_string(),
    ];
    let pinned = Command::new("taskset")
        .arg("-c")
        .arg("0")
        .arg("python3")
        .args(&args)
        .output();
    let out = match pinned {
        Ok(o) if o.status.success() => o,
        _ => Command::new("python3").args(&args).output().ok()?,
    };
    if !out.status.success() {
        eprintln!(
            "python reference failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        return None;
    }
    let stats: serde_json::Value = serde_json::from_slice(out.stdout.trim_ascii()).ok()?;
    let b: Vec<Vec<[i64; 7]>> = std::fs::read(&boxes)
        .ok()
        .and_then(|s| serde_json::from_slice(&s).ok())
        .unwrap_or_default();
    let i: Vec<Vec<u64>> = std::fs::read(&ids)
        .ok()
        .and_then(|s| serde_json::from_slice(&s).ok())
        .unwrap_or_default();
    Some((stats, b, i))
}

/// Criterion timings plus the side-by-side comparison with the Python reference.
pub fn bench(c: &mut Criterion) {
    let frames = frames();
    let mut l = Labeller::new();
    let mut g = c.benchmark_group("conncomp");
    g.sample_size(20).measurement_time(Duration::from_secs(3));
    g.bench_function("cpu_conncomp_atari_label_frame_195x160", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % frames.len();
            black_box(
                atari_detections(&mut l, black_box(&frames[i]))
                    .map(|d| d.len())
                    .unwrap_or(0),
            )
        })
    });
    g.bench_function("cpu_conncomp_atari_label_clip8_with_ids_195x160", |b| {
        b.iter(|| {
            black_box(
                label_atari_clip(black_box(&frames[..CLIP]))
                    .map(|v| v.len())
                    .unwrap_or(0),
            )
        })
    });
    g.finish();

    let objects: usize = boxes_of(&frames).iter().map(Vec::len).sum();
    let rust = rust_fps(&frames, Duration::from_secs(2));
    println!(
        "\nconncomp side by side ({} frames {H}x{W}, {:.1} objects/frame, one core):",
        frames.len(),
        objects as f64 / frames.len() as f64
    );
    println!("  rust labeller           {rust:>12.0} frames/s");
    match python_reference(&frames) {
        None => println!(
            "  python reference unavailable (python3 with numpy, opencv-python-headless, scipy)"
        ),
        Some((stats, py_boxes, py_ids)) => {
            for key in ["opencv", "scipy"] {
                if let Some(fps) = stats.get(format!("{key}_fps")).and_then(|v| v.as_f64()) {
                    println!(
                        "  python {key:<7} ({:<6})  {fps:>12.0} frames/s   rust/python = {:.1}x",
                        stats.get(key).and_then(|v| v.as_str()).unwrap_or("?"),
                        rust / fps
                    );
                }
            }
            let ours = boxes_of(&frames);
            let same = ours.iter().zip(&py_boxes).filter(|(a, b)| a == b).count();
            if let Some((a, b)) = ours.iter().zip(&py_boxes).find(|(a, b)| a != b) {
                println!(
                    "  first differing frame: rust {} boxes, opencv {} boxes",
                    a.len(),
                    b.len()
                );
                for (x, y) in a.iter().zip(b.iter()).filter(|(x, y)| x != y).take(3) {
                    println!("    rust {x:?} vs opencv {y:?}");
                }
            }
            println!(
                "  boxes identical to OpenCV's (same order) in {same}/{} frames",
                frames.len()
            );
            let ours: Vec<Vec<u64>> = frames
                .chunks(CLIP)
                .flat_map(|c| label_atari_clip(c).unwrap_or_default())
                .map(|f: Vec<LabelledObject>| f.iter().map(|o| o.id).collect())
                .collect();
            let same = ours.iter().zip(&py_ids).filter(|(a, b)| a == b).count();
            println!(
                "  ids identical to scipy-Hungarian reference in {same}/{} frames",
                frames.len()
            );
        }
    }
}
