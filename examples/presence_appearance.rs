//! Presence against appearance along a clip: does a tracked object's presence sink while its
//! sprite brightens to make up for it?
//!
//! ```text
//! cargo run --release --example presence_appearance -- \
//!     --env space_invaders --checkpoint RUN_DIR --clips 16
//! ```
//!
//! The renderer draws an object's pixel as `ξ·pres·β` over the black background (reference
//! §2.8), so presence and the sprite's opacity-times-colour `ξ·β` trade against each other: a
//! presence of 0.5 draws the same pixel as 1.0 with a sprite half as bright. For every object
//! selected with presence > 0.5 at the first frame, this follows its identity through the clip
//! and prints, per class (by the first frame's box, as `scripts/analysis/presence_by_class.py`)
//! and frame: the mean presence, the mean peak of `ξ·β` over the sprite, the mean peak of the
//! drawn `ξ·pres·β`, the peak of the frame inside the box, and the share still above 0.5.

use std::collections::BTreeMap;
use std::path::PathBuf;

use candle_core::{DType, Device, Tensor};
use clap::Parser;
use silot::config::load_experiment;
use silot::eval_protocol::{eval_clips, paper_protocol, EvalClip};
use silot::model::{coords_to_pixel_space, Objects, PixelBox, StepCtx};
use silot::trained::{clip_tensor, load_trained};

#[derive(Parser)]
struct Args {
    /// Env id or experiment file (as `silot eval --env`).
    #[arg(long)]
    env: String,
    /// Run or checkpoint directory of the trained model.
    #[arg(long)]
    checkpoint: PathBuf,
    /// Clips to run.
    #[arg(long, default_value_t = 16)]
    clips: usize,
    /// Seed of the clips.
    #[arg(long, default_value_t = 1000)]
    seed: u64,
}

/// One object's values at one frame.
#[derive(Clone, Copy, Default)]
struct Sample {
    pres: f64,
    sprite_peak: f64,
    drawn_peak: f64,
    frame_peak: f64,
}

/// A printed row: its name and the value it takes from a sample.
type Row = (&'static str, fn(&Sample) -> f64);

/// The rows printed per class.
const ROWS: [Row; 4] = [
    ("presence", |s| s.pres),
    ("sprite peak ξ·β", |s| s.sprite_peak),
    ("drawn peak ξ·pres·β", |s| s.drawn_peak),
    ("frame peak in box", |s| s.frame_peak),
];

/// Per-slot presence, peak `ξ·β`, peak drawn value `ξ·pres·β`, boxes and ids of one frame.
struct FrameObjects {
    pres: Vec<f32>,
    sprite_peak: Vec<f32>,
    drawn_peak: Vec<f32>,
    boxes: Vec<PixelBox>,
    ids: Vec<u64>,
}

fn frame_objects(
    model: &silot::model::Silot,
    objs: &Objects,
    anchor: [f64; 2],
) -> anyhow::Result<FrameObjects> {
    let sprites = model.decoder().sprites(objs)?;
    let drawn = sprites.alpha.broadcast_mul(&sprites.colour)?; // (1, K, 3, h, w) ξ·pres·β
    let pres = objs.pres.to_dtype(DType::F32)?.flatten_all()?;
    let k = pres.dim(0)?;
    let safe = pres.maximum(1e-6)?.reshape((1, k, 1, 1, 1))?;
    let sprite = drawn.broadcast_div(&safe)?; // ξ·β
    let peak = |t: &Tensor| -> anyhow::Result<Vec<f32>> {
        Ok(t.flatten_from(2)?.max(2)?.flatten_all()?.to_vec1::<f32>()?)
    };
    Ok(FrameObjects {
        pres: pres.to_vec1::<f32>()?,
        sprite_peak: peak(&sprite)?,
        drawn_peak: peak(&drawn)?,
        boxes: coords_to_pixel_space(&objs.where_, anchor)?.remove(0),
        ids: objs.ids.clone(),
    })
}

/// Class of an object by its box in the `paper` preset's 195×160 Space Invaders frames.
fn class_of(b: &PixelBox) -> &'static str {
    if b.width <= 3.0 {
        "bullet"
    } else if b.top < 25.0 {
        "score digits"
    } else if b.top >= 175.0 {
        "player"
    } else if b.top >= 140.0 && b.height >= 15.0 {
        "shield"
    } else {
        "alien"
    }
}

/// Brightest channel value of `frame` inside `b` (clipped to the frame), in [0, 1].
fn frame_peak(frame: &silot::env::Frame, b: &PixelBox) -> f64 {
    let (h, w, _) = frame.dim();
    let clamp = |v: f32, hi: usize| (v.max(0.0) as usize).min(hi);
    let (y0, y1) = (clamp(b.top, h), clamp(b.top + b.height, h));
    let (x0, x1) = (clamp(b.left, w), clamp(b.left + b.width, w));
    let mut peak = 0u8;
    for y in y0..y1 {
        for x in x0..x1 {
            for c in 0..3 {
                peak = peak.max(frame[[y, x, c]]);
            }
        }
    }
    f64::from(peak) / 255.0
}

/// Follow every object present (> 0.5) at t = 0 through `clip`; samples by class.
fn follow_clip(
    trained: &silot::trained::TrainedSilot,
    clip: &EvalClip,
    seed: u64,
    out: &mut BTreeMap<&'static str, Vec<Vec<Option<Sample>>>>,
) -> anyhow::Result<()> {
    let x = clip_tensor(&clip.frames, &Device::Cpu)?; // (1, T, 3, H, W)
    let k = trained.cfg.model.eval_objects();
    let state = trained.model.initial_state(1, k, None, &Device::Cpu)?;
    let run = trained
        .model
        .run_clip(&x, state, &mut StepCtx::encode(seed), None)?;
    let anchor = trained.cfg.model.anchor;
    let frames: Vec<FrameObjects> = run
        .objects
        .iter()
        .map(|o| frame_objects(&trained.model, o, anchor))
        .collect::<anyhow::Result<_>>()?;
    let first = &frames[0];
    for slot in (0..first.pres.len()).filter(|&s| first.pres[s] > 0.5) {
        let id = first.ids[slot];
        let track = frames
            .iter()
            .zip(&clip.frames)
            .map(|(f, frame)| {
                let s = f.ids.iter().position(|&i| i == id)?;
                Some(Sample {
                    pres: f64::from(f.pres[s]),
                    sprite_peak: f64::from(f.sprite_peak[s]),
                    drawn_peak: f64::from(f.drawn_peak[s]),
                    frame_peak: frame_peak(frame, &f.boxes[s]),
                })
            })
            .collect();
        out.entry(class_of(&first.boxes[slot]))
            .or_default()
            .push(track);
    }
    Ok(())
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let cfg = paper_protocol(load_experiment(&args.env)?);
    let trained = load_trained(&args.checkpoint, &Device::Cpu)?;
    let clips = eval_clips(&cfg, args.clips, args.seed)?;
    let mut by_class = BTreeMap::new();
    for clip in &clips {
        follow_clip(&trained, clip, args.seed, &mut by_class)?;
    }
    println!(
        "checkpoint {} (step {}), {} clips, seed {}",
        trained.checkpoint.display(),
        trained.step,
        clips.len(),
        args.seed
    );
    for (class, tracks) in &by_class {
        print_class(class, tracks);
    }
    Ok(())
}

/// Print one class's tracks: the mean of every row per frame, then the share above 0.5.
fn print_class(class: &str, tracks: &[Vec<Option<Sample>>]) {
    println!("\n{class}: {} objects present at t = 0", tracks.len());
    let n_t = tracks.iter().map(Vec::len).max().unwrap_or(0);
    for (name, get) in ROWS {
        let cells: Vec<String> = (0..n_t)
            .map(|t| {
                let v: Vec<f64> = tracks
                    .iter()
                    .filter_map(|tr| tr[t].map(|s| get(&s)))
                    .collect();
                format!("{:6.3}", v.iter().sum::<f64>() / v.len().max(1) as f64)
            })
            .collect();
        println!("  {name:22} {}", cells.join(" "));
    }
    let above: Vec<String> = (0..n_t)
        .map(|t| {
            let n = tracks
                .iter()
                .filter(|tr| tr[t].is_some_and(|s| s.pres > 0.5))
                .count();
            format!("{:6.3}", n as f64 / tracks.len() as f64)
        })
        .collect();
    println!("  {:22} {}", "share above 0.5", above.join(" "));
}
