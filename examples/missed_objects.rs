//! Which ground-truth objects does a trained encoder leave out, and does its reconstruction draw
//! them anyway? (The streams issue's count-ratio analysis: `docs/streams.md`.)
//!
//! ```text
//! cargo run --release --example missed_objects -- \
//!     --env space_invaders --checkpoint models/space_invaders --clips 32 --seed 7900000
//! ```
//!
//! Runs the encoder with its reconstruction on fresh labelled 8-frame clips and sorts every
//! ground-truth object by its box area (ConnComp's box, 0.5 px wider each side than the object).
//! Per size class it prints how many objects there are, the share found (a prediction with
//! presence > 0.5 and IoU ≥ 0.5), the mean best IoU of any prediction with presence > 0.05, and
//! how much of the object's ink the reconstruction draws: over the box's lit pixels (brightest
//! channel > 0.1), `1 − Σ|x − x̂| / Σ x` of the brightest channel; and what leaving it out costs
//! the reconstruction term: the mean over objects of `Σ KL(Bern(x) ‖ Bern(x̂))` over the box's
//! pixels and channels, in nats (the Bernoulli loss above its floor). The last line gives what an
//! object costs the KL terms: the clips' KL terms (static, learned prior, count prior) over the
//! objects' summed presence. An object the model neither boxes nor draws, whose reconstruction
//! cost is below that price, is one the ELBO itself prefers to leave out. Each class's row is
//! followed by the same figures for the objects found and for those missed: a missed object whose
//! ink the reconstruction draws anyway is explained by another object's sprite.

use candle_core::{Device, Tensor};
use clap::Parser;
use silot::config::load_experiment;
use silot::env::{Frame, GtObject};
use silot::eval_protocol::{eval_clips, paper_protocol};
use silot::model::{coords_to_pixel_space, PixelBox, StepCtx};
use silot::trained::{clip_tensor, load_trained};
use std::path::PathBuf;

#[derive(Parser)]
struct Args {
    /// Env id or experiment TOML (as `silot eval --env`).
    #[arg(long)]
    env: String,
    /// Run or checkpoint directory of the trained model.
    #[arg(long)]
    checkpoint: PathBuf,
    /// Clips to run.
    #[arg(long, default_value_t = 32)]
    clips: usize,
    /// Seed of the clips.
    #[arg(long, default_value_t = 1000)]
    seed: u64,
}

/// Upper bounds (px², exclusive) of the size classes; the last class is unbounded.
const CLASS_BOUNDS: [f32; 3] = [30.0, 100.0, 400.0];

/// Sums over the objects of one size class.
#[derive(Default, Clone, Copy)]
struct ClassSums {
    objects: usize,
    found: usize,
    best_iou: f64,
    ink: f64,
    residual: f64,
    excess_nats: f64,
}

impl ClassSums {
    fn add(&mut self, found: bool, best_iou: f64, (ink, residual, excess): (f64, f64, f64)) {
        self.objects += 1;
        self.found += usize::from(found);
        self.best_iou += best_iou;
        self.ink += ink;
        self.residual += residual;
        self.excess_nats += excess;
    }

    /// The sums of both sets of objects.
    fn plus(self, o: Self) -> Self {
        Self {
            objects: self.objects + o.objects,
            found: self.found + o.found,
            best_iou: self.best_iou + o.best_iou,
            ink: self.ink + o.ink,
            residual: self.residual + o.residual,
            excess_nats: self.excess_nats + o.excess_nats,
        }
    }

    /// One table row: `label | objects | found | mean best IoU | ink drawn | cost`.
    fn row(&self, label: &str) -> String {
        let n = self.objects as f64;
        format!(
            "{label} | {} | {:.3} | {:.3} | {:.3} | {:.1}",
            self.objects,
            self.found as f64 / n,
            self.best_iou / n,
            1.0 - self.residual / self.ink.max(1e-9),
            self.excess_nats / n
        )
    }
}

fn class_of(area: f32) -> usize {
    CLASS_BOUNDS
        .iter()
        .position(|&b| area < b)
        .unwrap_or(CLASS_BOUNDS.len())
}

fn iou(g: &GtObject, p: &PixelBox) -> f64 {
    let (pb, pr) = (p.top + p.height, p.left + p.width);
    let h = (g.bottom.min(pb) - g.top.max(p.top)).max(0.0);
    let w = (g.right.min(pr) - g.left.max(p.left)).max(0.0);
    let inter = f64::from(h * w);
    let union = f64::from((g.bottom - g.top) * (g.right - g.left) + p.height * p.width) - inter;
    if union > 0.0 {
        inter / union
    } else {
        0.0
    }
}

/// `KL(Bern(p) ‖ Bern(q))` with the loss's safe logs (`ln(v + 1e-9)`).
fn bernoulli_kl(p: f64, q: f64) -> f64 {
    let ln = |v: f64| (v + 1e-9).ln();
    p * (ln(p) - ln(q)) + (1.0 - p) * (ln(1.0 - p) - ln(1.0 - q))
}

/// (ink, residual, excess nats) over `g`'s box: ink and residual of the brightest channel over
/// the lit pixels, the Bernoulli loss above its floor over every pixel and channel.
/// `recon`: `(3, H, W)` in [0, 1].
fn ink_and_residual(frame: &Frame, recon: &[Vec<Vec<f32>>], g: &GtObject) -> (f64, f64, f64) {
    let (h, w, _) = frame.dim();
    let clamp = |v: f32, hi: usize| (v.max(0.0).round() as usize).min(hi);
    let (mut ink, mut residual, mut excess) = (0.0, 0.0, 0.0);
    for y in clamp(g.top, h)..clamp(g.bottom, h) {
        for x in clamp(g.left, w)..clamp(g.right, w) {
            let value = |c: usize| f64::from(frame[[y, x, c]]) / 255.0;
            excess += (0..3)
                .map(|c| bernoulli_kl(value(c), f64::from(recon[c][y][x])))
                .sum::<f64>();
            let (c, v) =
                (0..3)
                    .map(|c| (c, value(c)))
                    .fold((0, 0.0), |a, b| if b.1 > a.1 { b } else { a });
            if v > 0.1 {
                ink += v;
                residual += (v - f64::from(recon[c][y][x])).abs();
            }
        }
    }
    (ink, residual, excess)
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let cfg = paper_protocol(load_experiment(&args.env)?);
    let trained = load_trained(&args.checkpoint, &Device::Cpu)?;
    let k = trained.cfg.model.eval_objects();
    let anchor = trained.cfg.model.anchor;
    let (mut kl_nats, mut total_pres) = (0.0, 0.0);
    // Per size class: the objects missed, then those found.
    let mut sums: Vec<[ClassSums; 2]> = (0..=CLASS_BOUNDS.len())
        .map(|_| Default::default())
        .collect();
    for (i, clip) in eval_clips(&cfg, args.clips, args.seed)?.iter().enumerate() {
        let x = clip_tensor(&clip.frames, &Device::Cpu)?; // (1, T, 3, H, W)
        let state = trained.model.initial_state(1, k, None, &Device::Cpu)?;
        let mut ctx = StepCtx::eval(args.seed + i as u64);
        let run = trained.model.run_clip(&x, state, &mut ctx, None)?;
        let l = run.losses.breakdown()?;
        kl_nats += l.prop_kl + l.disc_kl + l.learned_kl + l.learned_pres_kl + l.count_prior_kl;
        for (t, (frame, gt)) in clip.frames.iter().zip(&clip.gt).enumerate() {
            let recon: Vec<Vec<Vec<f32>>> = run.reconstructions[t]
                .squeeze(0)?
                .clamp(0f32, 1f32)?
                .to_vec3()?; // (3, H, W)
            let boxes = coords_to_pixel_space(&run.objects[t].where_, anchor)?.remove(0);
            let pres = presences(&run.objects[t].pres)?;
            for g in gt {
                let s = &mut sums[class_of((g.bottom - g.top) * (g.right - g.left))];
                let scored = |min: f32| {
                    boxes
                        .iter()
                        .zip(&pres)
                        .filter(move |(_, &p)| p > min)
                        .map(|(b, _)| iou(g, b))
                };
                let found = scored(0.5).any(|v| v >= 0.5);
                let best_iou = scored(0.05).fold(0.0, f64::max);
                let drawn = ink_and_residual(frame, &recon, g);
                s[usize::from(found)].add(found, best_iou, drawn);
            }
            total_pres += pres.iter().map(|&p| f64::from(p)).sum::<f64>();
        }
    }
    println!(
        "checkpoint {} (step {}), {} clips, seed {}",
        trained.checkpoint.display(),
        trained.step,
        args.clips,
        args.seed
    );
    println!(
        "box area (px²) | objects | found | mean best IoU | ink drawn | reconstruction cost (nats)"
    );
    for (c, &[missed, found]) in sums.iter().enumerate() {
        let all = missed.plus(found);
        if all.objects == 0 {
            continue;
        }
        let lo = if c == 0 { 0.0 } else { CLASS_BOUNDS[c - 1] };
        let range = CLASS_BOUNDS
            .get(c)
            .map_or(format!("≥ {lo}"), |hi| format!("{lo}–{hi}"));
        println!("{}", all.row(&range));
        for (part, label) in [(found, "found"), (missed, "missed")] {
            if part.objects > 0 {
                println!("{}", part.row(&format!("{range}, {label}")));
            }
        }
    }
    println!(
        "KL terms per object: {:.1} nats ({:.0} nats over a summed presence of {:.0})",
        kl_nats / total_pres.max(1e-9),
        kl_nats,
        total_pres
    );
    Ok(())
}

/// `(1, K)` or `(1, K, 1)` presences as a flat vector.
fn presences(pres: &Tensor) -> anyhow::Result<Vec<f32>> {
    Ok(pres
        .to_dtype(candle_core::DType::F32)?
        .flatten_all()?
        .to_vec1()?)
}
