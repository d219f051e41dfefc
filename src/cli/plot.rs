//! `silot plot`: training curves of a run (`RUN/metrics.jsonl`) as one PNG (`RUN/curves.png`),
//! a stream evaluation report's counts per frame and scores per window, or per-count reports
//! (`silot eval --counts`, `silot baseline-search --report`) as the paper's synthetic figures:
//! MOTA, AP and count error against the number of objects, one line per report.
//!
//! Six panels against the global step: the training loss (total and reconstruction), the KL
//! terms, the validation loss (early-stopping score), objects per frame, box sizes and
//! overlapping pairs (the label-free presence statistics of validation lines, on crops and on
//! full frames), and for a run validated by MOTA (`stop_criterion = "mota"`) a seventh: validation
//! MOTA and prior MOTA (its score, `-(mota + prior_mota)`, then left out of the loss panel); for
//! a run with the streams check (`train.val_streams`) one more: objects counted at the start and
//! end of its streams, identities born and overlapping pairs per frame. Raw training values are
//! drawn faint with a running mean over them. Drawn with
//! the `image` crate and a built-in 5×7 font: no plotting library, no font files.

use std::path::{Path, PathBuf};

use clap::Args;
use image::{Rgb, RgbImage};
use serde_json::Value;

use crate::eval::counts::COUNTS_KIND;
use crate::eval::{CountsReport, Scores};

/// Arguments of `silot plot`.
#[derive(Debug, Args)]
pub struct PlotArgs {
    /// Run directory (reads `RUN/metrics.jsonl`), a metrics file, a stream evaluation report
    /// (`silot eval --frames N --json REPORT.json`: objects per frame and scores per window), or
    /// one or more per-count reports (`silot eval --counts`, `silot baseline-search --report`:
    /// one line each in one figure).
    #[arg(required = true, num_args = 1..)]
    pub run: Vec<PathBuf>,
    /// Output PNG (default `curves.png` beside the metrics file; `REPORT.png` for a report, the
    /// first one's for per-count reports).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Per-count reports: their legend labels, comma-separated in the order given (default:
    /// `ConnComp` for the baseline, else each file's name without `.json`).
    #[arg(long, value_delimiter = ',')]
    pub labels: Vec<String>,
}

/// Draw the curves.
pub fn run(a: PlotArgs) -> anyhow::Result<()> {
    let counts = a
        .run
        .iter()
        .map(|p| is_counts_report(p))
        .collect::<Vec<_>>();
    if counts.iter().any(|&c| c) {
        if let Some(i) = counts.iter().position(|&c| !c) {
            anyhow::bail!(
                "{} is not a per-count report (`silot eval --counts --json`); per-count reports \
                 are plotted together, other inputs one at a time",
                a.run[i].display()
            );
        }
        anyhow::ensure!(
            a.labels.is_empty() || a.labels.len() == a.run.len(),
            "--labels gives {} labels for {} reports",
            a.labels.len(),
            a.run.len()
        );
        let out = a.out.unwrap_or_else(|| a.run[0].with_extension("png"));
        let labels = (!a.labels.is_empty()).then_some(a.labels.as_slice());
        plot_counts(&a.run, labels, &out)?;
        println!("wrote {}", out.display());
        return Ok(());
    }
    anyhow::ensure!(
        a.run.len() == 1 && a.labels.is_empty(),
        "several inputs and --labels are for per-count reports; plot a run or a stream report \
         on its own"
    );
    let run = a.run[0].clone();
    if run.extension().is_some_and(|e| e == "json") {
        let out = a.out.unwrap_or_else(|| run.with_extension("png"));
        plot_stream_report(&run, &out)?;
        println!("wrote {}", out.display());
        return Ok(());
    }
    let metrics = if run.is_dir() {
        run.join("metrics.jsonl")
    } else {
        run.clone()
    };
    let out = a.out.unwrap_or_else(|| {
        metrics
            .parent()
            .unwrap_or_else(|| Path::new("."))
            .join("curves.png")
    });
    let n = plot_metrics(&metrics, &out)?;
    println!("wrote {} ({n} metrics lines)", out.display());
    Ok(())
}

const WIDTH: u32 = 1200;
const PANEL_H: u32 = 300;
const COLS: u32 = 2;
const MARGIN_L: u32 = 110;
const MARGIN_R: u32 = 16;
const MARGIN_T: u32 = 52;
const MARGIN_B: u32 = 34;
const INSET: u32 = 6;
/// Matplotlib's `tab10` without its grey (black is ConnComp's): nine lines before a colour repeats.
const PALETTE: [[u8; 3]; 9] = [
    [31, 119, 180],
    [255, 127, 14],
    [44, 160, 44],
    [214, 39, 40],
    [148, 103, 189],
    [140, 86, 75],
    [227, 119, 194],
    [188, 189, 34],
    [23, 190, 207],
];

/// One panel: a title and its series, each `(label, kind, key path)` (`kind`: `"train"` or
/// `"val"`; a key path of nested objects joined by `.`).
struct Panel {
    title: &'static str,
    series: &'static [(&'static str, &'static str, &'static str)],
}

/// The panels of a run's curves; the last two only for runs that log what they draw:
/// [`MOTA_PANEL`] validation MOTA (`stop_criterion = "mota"`), [`STREAM_PANEL`] the streams
/// check (`train.val_streams`).
const PANELS: [Panel; 8] = [
    Panel {
        title: "training loss (negative ELBO)",
        series: &[
            ("total", "train", "total"),
            ("reconstruction", "train", "reconstruction"),
        ],
    },
    Panel {
        title: "training KL terms",
        series: &[
            ("prop", "train", "prop_kl"),
            ("disc", "train", "disc_kl"),
            ("learned", "train", "learned_kl"),
            ("learned pres", "train", "learned_pres_kl"),
            ("count prior", "train", "count_prior_kl"),
        ],
    },
    Panel {
        title: "validation",
        series: &[
            ("score", "val", "score"),
            ("total", "val", "total"),
            ("reconstruction", "val", "reconstruction"),
        ],
    },
    Panel {
        title: "objects per frame (val, pres > 0.5)",
        series: &[
            ("crops", "val", "objects_per_frame"),
            ("full frames", "val", "full_frame.objects_per_frame"),
        ],
    },
    Panel {
        title: "box size px (val)",
        series: &[
            ("height", "val", "box_height_px"),
            ("width", "val", "box_width_px"),
            ("full height", "val", "full_frame.box_height_px"),
            ("full width", "val", "full_frame.box_width_px"),
        ],
    },
    Panel {
        title: "per frame (val): overlapping pairs (iou > 0.5), identity births",
        series: &[
            ("pairs", "val", "overlapping_pairs_per_frame"),
            (
                "pairs, full frames",
                "val",
                "full_frame.overlapping_pairs_per_frame",
            ),
            ("births", "val", "births_per_frame"),
            ("births, full frames", "val", "full_frame.births_per_frame"),
        ],
    },
    Panel {
        title: "validation MOTA (stop_criterion = mota)",
        series: &[("mota", "val", "mota"), ("prior mota", "val", "prior_mota")],
    },
    Panel {
        title: "streams check (val_streams), per frame",
        series: &[
            ("objects first tenth", "val", "stream.objects_first"),
            ("objects last tenth", "val", "stream.objects_last"),
            ("births", "val", "stream.births_per_frame"),
            (
                "overlapping pairs",
                "val",
                "stream.overlapping_pairs_per_frame",
            ),
        ],
    },
];

/// Index in [`PANELS`] of the validation-MOTA panel, drawn only when the run logs it; the
/// validation panel then leaves out its `score` (`-(mota + prior_mota)`, not a loss).
const MOTA_PANEL: usize = 6;

/// Index in [`PANELS`] of the streams-check panel, drawn only when the run logs it.
const STREAM_PANEL: usize = 7;

/// Reads `metrics` (JSON lines) and writes the curves to `out`; returns the number of lines
/// read. Lines that do not parse (a line cut short by a crash) are skipped.
pub fn plot_metrics(metrics: &Path, out: &Path) -> crate::Result<usize> {
    let text = std::fs::read_to_string(metrics).map_err(|e| crate::Error::io(metrics, e))?;
    let lines: Vec<Value> = text
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    if lines.is_empty() {
        return Err(crate::Error::CorruptData {
            path: metrics.to_path_buf(),
            msg: "no metrics lines (JSON objects) in it; has the run logged a step yet?".into(),
        });
    }
    let img = draw(&lines);
    let png = crate::viz::encode_png(&img)?;
    crate::util::write_atomic(out, &png)?;
    Ok(lines.len())
}

/// Reads a stream evaluation report (`silot eval --frames N --json REPORT.json`) and writes two
/// panels to `out`: objects per frame (true, counted above 0.5, above the MOT threshold) at
/// every frame index of the streams, and MOTA, IDF1 and AP per window.
pub fn plot_stream_report(report: &Path, out: &Path) -> crate::Result<()> {
    let bad = |msg: &str| crate::Error::CorruptData {
        path: report.to_path_buf(),
        msg: msg.into(),
    };
    let text = std::fs::read_to_string(report).map_err(|e| crate::Error::io(report, e))?;
    let r: crate::eval::EvalReport = serde_json::from_str(&text)
        .map_err(|e| bad(&format!("not a `silot eval --json` report: {e}")))?;
    let stream = r
        .stream
        .as_ref()
        .ok_or_else(|| bad("a clip report: plot streams (`silot eval --frames N --json`)"))?;
    let by_t = |f: fn(&crate::eval::FrameIndexStats) -> f64| -> Vec<(f64, f64)> {
        r.by_frame_index
            .iter()
            .map(|s| (s.t as f64, f(s)))
            .collect()
    };
    let counts = [
        ("true", by_t(|s| s.gt)),
        ("counted (pres > 0.5)", by_t(|s| s.counted)),
        ("above obj threshold", by_t(|s| s.above_threshold)),
    ];
    let windows = |f: fn(&crate::eval::WindowReport) -> f64| -> Vec<(f64, f64)> {
        stream
            .windows
            .iter()
            .map(|w| (w.start as f64, f(w)))
            .collect()
    };
    let scores = [
        ("MOTA", windows(|w| w.mota)),
        ("IDF1", windows(|w| w.idf1)),
        ("AP", windows(|w| w.ap)),
    ];
    let as_series = |v: [(&'static str, Vec<(f64, f64)>); 3]| -> Vec<Series<'static>> {
        v.into_iter()
            .map(|(label, points)| Series {
                label,
                points: points.into_iter().filter(|p| p.1.is_finite()).collect(),
                noisy: false,
                colour: None,
                dashed: false,
            })
            .collect()
    };
    let mut img = RgbImage::from_pixel(WIDTH, PANEL_H, Rgb([255, 255, 255]));
    let x_range = (0.0, stream.frames_per_stream.saturating_sub(1) as f64);
    let title = format!("objects per frame, {} streams", r.clips);
    draw_panel(
        &mut img,
        (0, 0),
        &title,
        &as_series(counts),
        x_range,
        "frame",
    );
    let title = format!("per window of {} frames", stream.window);
    draw_panel(
        &mut img,
        (WIDTH / COLS, 0),
        &title,
        &as_series(scores),
        x_range,
        "window start",
    );
    crate::util::write_atomic(out, &crate::viz::encode_png(&img)?)
}

/// Whether `path` holds a per-count report (`"kind": "counts"`); other JSON and unreadable
/// files are not (their own readers name the problem).
fn is_counts_report(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "json")
        && std::fs::read_to_string(path)
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .is_some_and(|v| v.get("kind").and_then(Value::as_str) == Some(COUNTS_KIND))
}

/// Height of one legend row of a per-count figure.
const LEGEND_ROW: u32 = 20;

/// A line of the per-count figure: its colour, report, run (`None`: the reported values, else
/// `posterior_from_t` / `prior_from_t`) and whether it is dashed.
type Line<'a> = ([u8; 3], &'a CountsReport, Option<&'static str>, bool);

/// Draws per-count reports (`silot eval --counts`, `silot baseline-search --report`) as the
/// paper's synthetic figures: MOTA, AP and count error against the number of objects per video,
/// one line per report (ConnComp in black), a shared legend on top; where a report has
/// `--prior-from T` scores, a second row compares the posterior (solid) and the learned prior
/// alone (dashed, in the report's colour) on frames `T..`. `labels` name the reports (default: `ConnComp` for the baseline, else the file name).
pub fn plot_counts(paths: &[PathBuf], labels: Option<&[String]>, out: &Path) -> crate::Result<()> {
    let reports = paths
        .iter()
        .map(|p| CountsReport::read(p))
        .collect::<crate::Result<Vec<_>>>()?;
    let bad = |i: usize, msg: String| crate::Error::CorruptData {
        path: paths[i].clone(),
        msg,
    };
    for (i, r) in reports.iter().enumerate() {
        if r.counts.is_empty() {
            return Err(bad(i, "no counts in it".into()));
        }
        if r.env != reports[0].env {
            return Err(bad(
                i,
                format!("scores `{}`, the first report `{}`", r.env, reports[0].env),
            ));
        }
    }
    let names: Vec<String> = reports
        .iter()
        .zip(paths)
        .enumerate()
        .map(|(i, (r, p))| match labels {
            Some(l) => l[i].clone(),
            None if r.tracker == "conncomp" => "ConnComp".into(),
            None => p
                .file_stem()
                .map_or_else(|| format!("report {i}"), |s| s.to_string_lossy().into()),
        })
        .collect();
    // Colours: one per report, ConnComp black, the others the palette's in order.
    let mut next = 0;
    let colours: Vec<[u8; 3]> = reports
        .iter()
        .map(|r| {
            if r.tracker == "conncomp" {
                [0, 0, 0]
            } else {
                next += 1;
                PALETTE[(next - 1) % PALETTE.len()]
            }
        })
        .collect();
    // Row 1: the plotted values of every report (`run` None); row 2: frames T.. with the
    // posterior (solid) and the learned prior alone (dashed), in the report's colour.
    let mut lines: Vec<Line> = Vec::new();
    for (i, r) in reports.iter().enumerate() {
        lines.push((colours[i], r, None, false));
    }
    let prior_from = reports.iter().find_map(|r| r.prior_from);
    for (i, r) in reports.iter().enumerate() {
        if r.prior_from.is_some() {
            lines.push((colours[i], r, Some("posterior_from_t"), false));
            lines.push((colours[i], r, Some("prior_from_t"), true));
        }
    }
    // (title, value of a [mota, ap, count error] triple)
    let metrics = ["MOTA", "AP", "count abs. error"];
    let points = |r: &CountsReport, run: Option<&str>, m: usize| -> Vec<(f64, f64)> {
        r.counts
            .iter()
            .filter_map(|c| {
                let v = match run {
                    None => [c.mota, c.ap, c.count_abs_error],
                    Some(run) => {
                        let s: &Scores = c.run(run)?;
                        [s.mota, s.ap, s.count_abs_error]
                    }
                }[m];
                v.is_finite().then_some((c.objects as f64, v))
            })
            .collect()
    };
    let rows = if prior_from.is_some() { 2 } else { 1 };
    let panel_w = WIDTH / COLS;
    let width = 3 * panel_w;
    // Legend rows: entries laid left to right, wrapped at the figure's width.
    let mut entries: Vec<(String, [u8; 3])> = names.iter().cloned().zip(colours).collect();
    if let Some(t) = prior_from {
        let key = format!(
            "second row, frames t>={t}: solid the posterior, dashed the learned prior alone"
        );
        entries.push((key, [90, 90, 90]));
    }
    let mut legend = Vec::new();
    let (mut lx, mut ly) = (12, 8);
    for (label, colour) in &entries {
        let w = 18 + 6 * label.len() as u32 + 18;
        if lx + w > width && lx > 12 {
            (lx, ly) = (12, ly + LEGEND_ROW);
        }
        legend.push((lx, ly, label.as_str(), *colour));
        lx += w;
    }
    let top = ly + LEGEND_ROW + 4;
    let mut img = RgbImage::from_pixel(width, top + rows * PANEL_H, Rgb([255, 255, 255]));
    for &(x, y, label, c) in &legend {
        for dx in 0..14 {
            for dy in 0..3 {
                put(&mut img, x + dx, y + 4 + dy, Rgb(c));
            }
        }
        text(&mut img, x + 18, y, label, Rgb(c), 1);
    }
    let objects = lines
        .iter()
        .flat_map(|l| l.1.counts.iter().map(|c| c.objects as f64));
    let x_range = range(objects);
    let x_label = match reports[0].env.as_str() {
        "scattered_mnist" => "digits per video",
        "scattered_shapes" => "shapes per video",
        _ => "objects per video",
    };
    for row in 0..rows {
        for (m, title) in metrics.iter().enumerate() {
            let series: Vec<Series> = lines
                .iter()
                .filter(|l| l.2.is_some() == (row == 1))
                .map(|&(colour, r, run, dashed)| Series {
                    label: "",
                    points: points(r, run, m),
                    noisy: false,
                    colour: Some(colour),
                    dashed,
                })
                .collect();
            let title = match (row, prior_from) {
                (1, Some(t)) => format!("{title}, frames t>={t}"),
                _ => title.to_string(),
            };
            let origin = (m as u32 * panel_w, top + row * PANEL_H);
            draw_panel(&mut img, origin, &title, &series, x_range, x_label);
        }
    }
    crate::util::write_atomic(out, &crate::viz::encode_png(&img)?)
}

fn lookup(v: &Value, path: &str) -> Option<f64> {
    path.split('.')
        .try_fold(v, |v, k| v.get(k))
        .and_then(Value::as_f64)
        .filter(|x| x.is_finite())
}

/// The `(step, value)` points of one series, by step.
fn series(lines: &[Value], kind: &str, key: &str) -> Vec<(f64, f64)> {
    let mut pts: Vec<(f64, f64)> = lines
        .iter()
        .filter(|l| l.get("kind").and_then(Value::as_str) == Some(kind))
        .filter_map(|l| Some((l.get("step")?.as_f64()?, lookup(l, key)?)))
        .collect();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    pts
}

/// Running mean over a centred window (about 1/50 of the points).
fn smooth(pts: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let half = pts.len() / 100;
    if half == 0 {
        return pts.to_vec();
    }
    (0..pts.len())
        .map(|i| {
            let w = &pts[i.saturating_sub(half)..(i + half + 1).min(pts.len())];
            (
                pts[i].0,
                w.iter().map(|p| p.1).sum::<f64>() / w.len() as f64,
            )
        })
        .collect()
}

fn draw(lines: &[Value]) -> RgbImage {
    let has_mota = !series(lines, "val", "mota").is_empty();
    let has_stream = !series(lines, "val", "stream.objects_first").is_empty();
    let panels: Vec<&Panel> = PANELS
        .iter()
        .enumerate()
        .filter(|&(i, _)| match i {
            MOTA_PANEL => has_mota,
            STREAM_PANEL => has_stream,
            _ => true,
        })
        .map(|(_, p)| p)
        .collect();
    let rows = (panels.len() as u32).div_ceil(COLS);
    let mut img = RgbImage::from_pixel(WIDTH, PANEL_H * rows, Rgb([255, 255, 255]));
    let steps: Vec<f64> = lines
        .iter()
        .filter_map(|l| l.get("step")?.as_f64())
        .collect();
    let x_range = range(steps.iter().copied());
    for (i, panel) in panels.iter().enumerate() {
        let (col, row) = (i as u32 % COLS, i as u32 / COLS);
        let origin = (col * WIDTH / COLS, row * PANEL_H);
        let data: Vec<Series> = panel
            .series
            .iter()
            .filter(|&&(_, kind, key)| !(has_mota && kind == "val" && key == "score"))
            .map(|&(label, kind, key)| Series {
                label,
                points: series(lines, kind, key),
                noisy: kind == "train",
                colour: None,
                dashed: false,
            })
            .collect();
        draw_panel(&mut img, origin, panel.title, &data, x_range, "step");
    }
    img
}

/// One line of a panel: its legend label, its `(x, y)` points and whether it is a noisy
/// training series (drawn faint under a running mean, on a range without the outer 1 %).
struct Series<'a> {
    label: &'a str,
    points: Vec<(f64, f64)>,
    noisy: bool,
    /// Its colour (default: the palette's, by position).
    colour: Option<[u8; 3]>,
    /// Drawn dashed (a second line of one colour, e.g. the learned prior beside the posterior).
    dashed: bool,
}

impl Series<'_> {
    fn colour(&self, i: usize) -> [u8; 3] {
        self.colour.unwrap_or(PALETTE[i % PALETTE.len()])
    }
}

fn range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if !lo.is_finite() {
        (0.0, 1.0)
    } else if hi - lo < 1e-12 * hi.abs().max(1.0) {
        (lo - 0.5, hi + 0.5)
    } else {
        (lo, hi)
    }
}

/// The range of `values` without the outer 1 % on either side where there are enough of them
/// (a first step's loss can be 1,000x the rest and would flatten every curve).
fn robust_range(mut values: Vec<f64>) -> (f64, f64) {
    if values.len() < 20 {
        return range(values.into_iter());
    }
    values.sort_by(f64::total_cmp);
    let n = values.len() - 1;
    let (lo, hi) = ((0.01 * n as f64).ceil(), (0.99 * n as f64).floor());
    range([values[lo as usize], values[hi as usize]].into_iter())
}

fn draw_panel(
    img: &mut RgbImage,
    (ox, oy): (u32, u32),
    title: &str,
    series: &[Series],
    (x0, x1): (f64, f64),
    x_label: &str,
) {
    let w = WIDTH / COLS;
    let (left, right) = (ox + MARGIN_L, ox + w - MARGIN_R);
    let (top, bottom) = (oy + MARGIN_T, oy + PANEL_H - MARGIN_B);
    let grey = Rgb([120, 120, 120]);
    text(img, ox + 12, oy + 8, title, Rgb([0, 0, 0]), 2);
    let data: Vec<&Vec<(f64, f64)>> = series.iter().map(|s| &s.points).collect();
    // Legend under the title, series that have data only.
    let mut lx = ox + 12;
    for (si, Series { label, points, .. }) in series.iter().enumerate() {
        if points.is_empty() || label.is_empty() {
            continue;
        }
        let c = Rgb(series[si].colour(si));
        for dx in 0..14 {
            for dy in 0..3 {
                put(img, lx + dx, oy + 32 + dy, c);
            }
        }
        text(img, lx + 18, oy + 28, label, c, 1);
        lx += 18 + 6 * label.len() as u32 + 14;
    }
    // Axes box.
    for x in left..=right {
        put(img, x, top, grey);
        put(img, x, bottom, grey);
    }
    for y in top..=bottom {
        put(img, left, y, grey);
        put(img, right, y, grey);
    }
    if data.iter().all(|d| d.is_empty()) {
        text(img, left + 20, (top + bottom) / 2, "no data", grey, 2);
        return;
    }
    // Noisy training lines: the robust range; validation lines: every point.
    let values = data.iter().copied().flatten().map(|p| p.1);
    let (y0, y1) = if series.iter().all(|s| s.noisy) {
        robust_range(values.collect())
    } else {
        range(values)
    };
    let pad = (y1 - y0) * 0.05;
    // Padded, but not below zero for values that never are.
    let (y0, y1) = (
        if y0 >= 0.0 {
            (y0 - pad).max(0.0)
        } else {
            y0 - pad
        },
        y1 + pad,
    );
    // Y ticks: bottom, middle, top; x ticks: first and last step.
    for (frac, v) in [(0.0, y0), (0.5, (y0 + y1) / 2.0), (1.0, y1)] {
        let y = bottom - ((bottom - top) as f64 * frac).round() as u32;
        let label = number(v);
        let tx = left.saturating_sub(8 + 6 * label.len() as u32);
        text(img, tx, y.saturating_sub(3), &label, grey, 1);
        for x in left..left + 5 {
            put(img, x, y, grey);
        }
    }
    text(img, left, bottom + 8, &number(x0), grey, 1);
    let last = number(x1);
    text(
        img,
        right - 6 * last.len() as u32,
        bottom + 8,
        &last,
        grey,
        1,
    );
    let label_x = ((left + right) / 2).saturating_sub(3 * x_label.len() as u32);
    text(img, label_x, bottom + 20, x_label, grey, 1);
    // Points stay INSET pixels inside the box (markers at the first and last step too).
    let (pl, pr) = ((left + INSET) as f64, (right - INSET) as f64);
    let to_px = |(x, y): (f64, f64)| -> (f64, f64) {
        let fx = if x1 > x0 { (x - x0) / (x1 - x0) } else { 0.5 };
        (
            pl + fx * (pr - pl),
            // Values outside the robust range are drawn at the box's edge.
            (bottom as f64 - (y - y0) / (y1 - y0) * (bottom - top) as f64)
                .clamp(top as f64, bottom as f64),
        )
    };
    for (si, Series { points: pts, .. }) in series.iter().enumerate() {
        let c = series[si].colour(si);
        let noisy = series[si].noisy && pts.len() > 100;
        if noisy {
            let faint = Rgb(c.map(|v| ((v as u16 + 2 * 255) / 3) as u8));
            polyline(img, pts.iter().map(|&p| to_px(p)), faint, None);
            polyline(img, smooth(pts).into_iter().map(to_px), Rgb(c), None);
        } else {
            let dash = if series[si].dashed { DASH } else { None };
            polyline(img, pts.iter().map(|&p| to_px(p)), Rgb(c), dash);
            if pts.len() <= 40 {
                for &p in pts {
                    let (x, y) = to_px(p);
                    for dx in -2..=2 {
                        for dy in -2..=2 {
                            put_f(img, x + dx as f64, y + dy as f64, Rgb(c));
                        }
                    }
                }
            }
        }
    }
}

/// A compact label: about 3 significant digits, exponent form for very large or small values.
fn number(v: f64) -> String {
    let a = v.abs();
    if a != 0.0 && !(1e-2..1e5).contains(&a) {
        return format!("{v:.2e}");
    }
    let decimals = match a {
        a if a >= 100.0 => 0,
        a if a >= 10.0 => 1,
        a if a >= 1.0 => 2,
        _ => 3,
    };
    let s = format!("{v:.decimals$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        &s
    };
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

fn put(img: &mut RgbImage, x: u32, y: u32, c: Rgb<u8>) {
    if x < img.width() && y < img.height() {
        img.put_pixel(x, y, c);
    }
}

fn put_f(img: &mut RgbImage, x: f64, y: f64, c: Rgb<u8>) {
    if x >= 0.0 && y >= 0.0 {
        put(img, x.round() as u32, y.round() as u32, c);
    }
}

/// Dashes of a dashed line: `(on, period)` in pixels along the line.
const DASH: Option<(usize, usize)> = Some((6, 10));

/// Joins `pts` with straight lines of colour `c`, solid, or dashed with `dash = (on, period)`:
/// of every `period` pixels along the line, the first `on` are drawn.
fn polyline(
    img: &mut RgbImage,
    pts: impl Iterator<Item = (f64, f64)>,
    c: Rgb<u8>,
    dash: Option<(usize, usize)>,
) {
    let mut prev: Option<(f64, f64)> = None;
    let mut along = 0;
    let mut put_dashed = |img: &mut RgbImage, x: f64, y: f64| {
        if dash.is_none_or(|(on, period)| along % period < on) {
            put_f(img, x, y, c);
        }
        along += 1;
    };
    for p in pts {
        if let Some(q) = prev {
            let n = (p.0 - q.0).abs().max((p.1 - q.1).abs()).ceil().max(1.0) as usize;
            for i in 1..=n {
                let t = i as f64 / n as f64;
                put_dashed(img, q.0 + t * (p.0 - q.0), q.1 + t * (p.1 - q.1));
            }
        } else {
            put_dashed(img, p.0, p.1);
        }
        prev = Some(p);
    }
}

/// Draws `s` with the 5×7 font at `(x, y)` (top left), each font pixel `scale`² pixels;
/// letters are drawn as capitals, characters the font lacks as blanks.
fn text(img: &mut RgbImage, x: u32, y: u32, s: &str, c: Rgb<u8>, scale: u32) {
    for (i, ch) in s.chars().enumerate() {
        let rows = glyph(ch.to_ascii_uppercase());
        let gx = x + i as u32 * 6 * scale;
        for (r, bits) in rows.iter().enumerate() {
            for col in 0..5u32 {
                if bits & (0x10 >> col) != 0 {
                    for dy in 0..scale {
                        for dx in 0..scale {
                            put(img, gx + col * scale + dx, y + r as u32 * scale + dy, c);
                        }
                    }
                }
            }
        }
    }
}

/// 5×7 glyphs (rows top to bottom, bit 4 the leftmost column), after the HD44780 character set.
fn glyph(c: char) -> [u8; 7] {
    match c {
        '0' => [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E],
        '1' => [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E],
        '2' => [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F],
        '3' => [0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E],
        '4' => [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02],
        '5' => [0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E],
        '6' => [0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E],
        '7' => [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
        '8' => [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E],
        '9' => [0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C],
        'A' => [0x0E, 0x11, 0x11, 0x11, 0x1F, 0x11, 0x11],
        'B' => [0x1E, 0x11, 0x11, 0x1E, 0x11, 0x11, 0x1E],
        'C' => [0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E],
        'D' => [0x1C, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1C],
        'E' => [0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F],
        'F' => [0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10],
        'G' => [0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F],
        'H' => [0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11],
        'I' => [0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E],
        'J' => [0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C],
        'K' => [0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11],
        'L' => [0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F],
        'M' => [0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11],
        'N' => [0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11],
        'O' => [0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E],
        'P' => [0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10],
        'Q' => [0x0E, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0D],
        'R' => [0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11],
        'S' => [0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E],
        'T' => [0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04],
        'U' => [0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E],
        'V' => [0x11, 0x11, 0x11, 0x11, 0x11, 0x0A, 0x04],
        'W' => [0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0A],
        'X' => [0x11, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x11],
        'Y' => [0x11, 0x11, 0x11, 0x0A, 0x04, 0x04, 0x04],
        'Z' => [0x1F, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1F],
        '.' => [0, 0, 0, 0, 0, 0x0C, 0x0C],
        ',' => [0, 0, 0, 0, 0x0C, 0x04, 0x08],
        ':' => [0, 0x0C, 0x0C, 0, 0x0C, 0x0C, 0],
        '-' => [0, 0, 0, 0x1F, 0, 0, 0],
        '+' => [0, 0x04, 0x04, 0x1F, 0x04, 0x04, 0],
        '_' => [0, 0, 0, 0, 0, 0, 0x1F],
        '=' => [0, 0, 0x1F, 0, 0x1F, 0, 0],
        '/' => [0, 0x01, 0x02, 0x04, 0x08, 0x10, 0],
        '(' => [0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02],
        ')' => [0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08],
        '>' => [0x08, 0x04, 0x02, 0x01, 0x02, 0x04, 0x08],
        '<' => [0x02, 0x04, 0x08, 0x10, 0x08, 0x04, 0x02],
        _ => [0; 7],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const METRICS: &str = r#"{"kind":"train","step":10,"stage":0,"stage_step":10,"lr":0.0001,"n_frames":2,"grad_norm":5.0,"count_prior_log_odds":9.2,"time_s":1.0,"reconstruction":900.0,"prop_kl":1.0,"disc_kl":20.0,"learned_kl":3.0,"learned_pres_kl":0.5,"count_prior_kl":7.0,"total":931.5}
{"kind":"train","step":20,"stage":0,"stage_step":20,"lr":0.0001,"n_frames":2,"grad_norm":4.0,"count_prior_log_odds":9.2,"time_s":2.0,"reconstruction":700.0,"prop_kl":2.0,"disc_kl":25.0,"learned_kl":3.5,"learned_pres_kl":0.4,"count_prior_kl":6.0,"total":736.9}
{"kind":"val","step":20,"stage":0,"stage_step":20,"lr":0.0001,"n_frames":8,"grad_norm":0.0,"count_prior_log_odds":9.2,"time_s":2.5,"objects_per_frame":3.5,"box_height_px":10.0,"box_width_px":8.0,"overlapping_pairs_per_frame":0.25,"full_frame":{"objects_per_frame":30.0,"box_height_px":11.0,"box_width_px":9.0,"overlapping_pairs_per_frame":1.0},"score":750.0,"reconstruction":750.0,"prop_kl":2.0,"disc_kl":25.0,"learned_kl":3.5,"learned_pres_kl":0.4,"count_prior_kl":6.0,"total":786.9}
{"kind":"train","step":30,"stage":1,"stage_step":0,"lr":0.00003,"n_fr
"#;

    /// A stream report draws its two panels; a clip report is refused with a clear error.
    #[test]
    fn plots_a_stream_report() {
        use crate::env::GtObject;
        use crate::eval::{evaluate, evaluate_windows, stream_summary, EvalSettings};
        use crate::track::TrackedObject;
        let gt = |t: usize| GtObject {
            id: 0,
            top: t as f32,
            left: 0.0,
            bottom: t as f32 + 4.0,
            right: 4.0,
        };
        let g: Vec<Vec<Vec<GtObject>>> = vec![(0..30).map(|t| vec![gt(t)]).collect()];
        let p: Vec<Vec<Vec<TrackedObject>>> = vec![(0..30)
            .map(|t| {
                let o = gt(t);
                let score = if t < 20 { 0.9 } else { 0.3 };
                vec![TrackedObject {
                    id: 1,
                    top: o.top,
                    left: o.left,
                    bottom: o.bottom,
                    right: o.right,
                    score,
                }]
            })
            .collect()];
        let s = EvalSettings::default();
        let mut r = evaluate(&p, &g, &s).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let (json, png) = (dir.path().join("r.json"), dir.path().join("r.png"));
        r.write_json(&json).unwrap();
        let err = plot_stream_report(&json, &png).unwrap_err().to_string();
        assert!(err.contains("--frames"), "{err}");
        let w = evaluate_windows(&p, &g, &s, 10).unwrap();
        r.stream = Some(stream_summary(&r, w, 30, 10, 0));
        r.write_json(&json).unwrap();
        run(PlotArgs {
            run: vec![json.clone()],
            out: None,
            labels: Vec::new(),
        })
        .unwrap();
        let img = image::open(&png).unwrap().to_rgb8();
        assert_eq!(img.dimensions(), (WIDTH, PANEL_H));
        for ox in [0, WIDTH / COLS] {
            let coloured = (ox + MARGIN_L + 1..ox + WIDTH / COLS - MARGIN_R)
                .flat_map(|x| (MARGIN_T + 1..PANEL_H - MARGIN_B).map(move |y| (x, y)))
                .filter(|&(x, y)| {
                    let p = img.get_pixel(x, y).0;
                    p.iter().max().unwrap() - p.iter().min().unwrap() > 60
                })
                .count();
            assert!(coloured > 20, "panel at {ox}: {coloured} coloured pixels");
        }
    }

    #[test]
    fn plots_a_small_metrics_file_and_skips_a_cut_line() {
        let dir = tempfile::tempdir().unwrap();
        let metrics = dir.path().join("metrics.jsonl");
        std::fs::write(&metrics, METRICS).unwrap();
        run(PlotArgs {
            run: vec![dir.path().to_path_buf()],
            out: None,
            labels: Vec::new(),
        })
        .unwrap();
        let img = image::open(dir.path().join("curves.png"))
            .unwrap()
            .to_rgb8();
        // Six panels in three rows (no validation MOTA logged), each with coloured pixels.
        assert_eq!(img.dimensions(), (WIDTH, PANEL_H * 3));
        for i in 0..MOTA_PANEL as u32 {
            assert!(coloured_in_panel(&img, i) > 20, "panel {i}");
        }
        assert!(series(&[], "train", "total").is_empty());
        let lines: Vec<Value> = METRICS
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(
            series(&lines, "val", "full_frame.objects_per_frame"),
            vec![(20.0, 30.0)]
        );
        assert_eq!(
            series(&lines, "train", "total"),
            vec![(10.0, 931.5), (20.0, 736.9)]
        );
    }

    /// Clearly coloured pixels of panel `i` of a run's curves, inside its axes box, in the
    /// rows `rows(top, bottom)` of it (the whole box: `|t, b| t..b`).
    fn coloured_rows_in_panel(
        img: &RgbImage,
        i: u32,
        rows: impl Fn(u32, u32) -> std::ops::Range<u32>,
    ) -> usize {
        let (ox, oy) = (i % COLS * WIDTH / COLS, i / COLS * PANEL_H);
        rows(oy + MARGIN_T + 1, oy + PANEL_H - MARGIN_B)
            .flat_map(|y| (ox + MARGIN_L + 1..ox + WIDTH / COLS - MARGIN_R).map(move |x| (x, y)))
            .filter(|&(x, y)| {
                let p = img.get_pixel(x, y).0;
                p.iter().max().unwrap() - p.iter().min().unwrap() > 60
            })
            .count()
    }

    /// Clearly coloured pixels inside panel `i`'s axes box.
    fn coloured_in_panel(img: &RgbImage, i: u32) -> usize {
        coloured_rows_in_panel(img, i, |top, bottom| top..bottom)
    }

    #[test]
    fn a_run_validated_by_mota_gets_a_mota_panel_and_no_score_among_the_losses() {
        // Two val lines with MOTA (score = -(mota + prior_mota)), losses in the hundreds.
        let val = |step: u32, mota: f64, prior: f64, rec: f64| {
            format!(
                r#"{{"kind":"val","step":{step},"stage":0,"stage_step":{step},"lr":0.0001,"n_frames":8,"grad_norm":0.0,"count_prior_log_odds":9.2,"time_s":2.5,"objects_per_frame":3.5,"box_height_px":10.0,"box_width_px":8.0,"overlapping_pairs_per_frame":0.25,"score":{},"mota":{mota},"prior_mota":{prior},"reconstruction":{rec},"prop_kl":2.0,"disc_kl":25.0,"learned_kl":3.5,"learned_pres_kl":0.4,"count_prior_kl":6.0,"total":{}}}"#,
                -(mota + prior),
                rec + 37.0
            )
        };
        let train = METRICS.lines().take(2).collect::<Vec<_>>().join("\n");
        let text = format!(
            "{train}\n{}\n{}\n",
            val(10, 0.2, -0.4, 800.0),
            val(20, 0.5, -0.1, 600.0)
        );
        let lines: Vec<Value> = text
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        let img = draw(&lines);
        assert_eq!(img.dimensions(), (WIDTH, PANEL_H * 4));
        for i in 0..=MOTA_PANEL as u32 {
            assert!(coloured_in_panel(&img, i) > 20, "panel {i}");
        }
        // The validation panel's range is the losses' (600..837), not stretched down to the
        // score's -0.4 (which would squeeze the losses into the top quarter and leave the
        // middle of the axes empty): its lines cross the band 20-60 % up the axes.
        let in_band = coloured_rows_in_panel(&img, 2, |top, bottom| {
            bottom - (bottom - top) * 3 / 5..bottom - (bottom - top) / 5
        });
        assert!(
            in_band > 20,
            "{in_band} coloured pixels in the validation panel's middle"
        );
        // Without MOTA the score is drawn among the losses (six panels, three rows).
        assert_eq!(draw(&lines[..2]).dimensions(), (WIDTH, PANEL_H * 3));
    }

    #[test]
    fn a_run_with_the_streams_check_gets_its_panel() {
        let val = |step: u32, first: f64, last: f64| {
            format!(
                r#"{{"kind":"val","step":{step},"stage":0,"stage_step":{step},"lr":0.0001,"n_frames":8,"grad_norm":0.0,"count_prior_log_odds":9.2,"time_s":2.5,"objects_per_frame":3.5,"box_height_px":10.0,"box_width_px":8.0,"overlapping_pairs_per_frame":0.25,"score":800.0,"stream":{{"frames":300,"objects_first":{first},"objects_last":{last},"births_per_frame":0.4,"overlapping_pairs_per_frame":0.1}},"reconstruction":800.0,"prop_kl":2.0,"disc_kl":25.0,"learned_kl":3.5,"learned_pres_kl":0.4,"count_prior_kl":6.0,"total":837.0}}"#
            )
        };
        let train = METRICS.lines().take(2).collect::<Vec<_>>().join("\n");
        let text = format!("{train}\n{}\n{}\n", val(10, 5.0, 2.0), val(20, 5.5, 4.5));
        let lines: Vec<Value> = text
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        assert_eq!(
            series(&lines, "val", "stream.objects_last"),
            vec![(10.0, 2.0), (20.0, 4.5)]
        );
        // Six panels, then the streams check's as the seventh (no MOTA panel): four rows.
        let img = draw(&lines);
        assert_eq!(img.dimensions(), (WIDTH, PANEL_H * 4));
        for i in 0..7 {
            assert!(coloured_in_panel(&img, i) > 20, "panel {i}");
        }
    }

    /// A per-count report of `tracker` whose MOTA falls linearly with the count; with
    /// `prior`, the posterior and prior scores of frames 3.. too.
    fn counts_report(tracker: &str, mota0: f64, prior: bool) -> crate::eval::CountsReport {
        use crate::eval::{CountScores, CountsReport, Scores};
        let mut r = CountsReport::new("scattered_mnist", tracker, 200);
        r.prior_from = prior.then_some(3);
        for n in 1..=12 {
            let mota = mota0 - 0.03 * n as f64;
            let s = |run: &str, mota: f64| Scores {
                run: run.into(),
                mota,
                motp: 0.1,
                idf1: mota,
                ap: mota,
                count_abs_error: (2.0 - mota) * 0.3 * n as f64,
                frames: 8,
                num_gt: 8 * n,
                num_misses: 0,
                num_false_positives: 0,
                num_switches: 0,
                births_per_frame: 0.0,
                cc_threshold: None,
                cosine_threshold: None,
            };
            let mut runs = vec![s("posterior", mota)];
            if prior {
                runs.push(s("posterior_from_t", mota));
                runs.push(s("prior_from_t", mota - 0.2));
            }
            r.counts.push(CountScores {
                objects: n,
                clips: 4,
                mota,
                ap: mota,
                // Apart per report, so that no line hides another.
                count_abs_error: (2.0 - mota) * 0.3 * n as f64,
                runs,
            });
        }
        r
    }

    /// Pixels of colour `c` inside panel `(col, row)`'s axes box of a per-count figure whose
    /// panels start at `top`.
    fn pixels_of(img: &RgbImage, top: u32, (col, row): (u32, u32), c: [u8; 3]) -> usize {
        let (ox, oy) = (col * WIDTH / COLS, top + row * PANEL_H);
        (ox + MARGIN_L + 1..ox + WIDTH / COLS - MARGIN_R)
            .flat_map(|x| (oy + MARGIN_T + 1..oy + PANEL_H - MARGIN_B).map(move |y| (x, y)))
            .filter(|&(x, y)| img.get_pixel(x, y).0 == c)
            .count()
    }

    #[test]
    fn plots_per_count_reports_as_the_papers_figure() {
        let dir = tempfile::tempdir().unwrap();
        let (silot, cc) = (dir.path().join("1-12.json"), dir.path().join("cc.json"));
        counts_report("silot", 1.0, true)
            .write_json(&silot)
            .unwrap();
        counts_report("conncomp", 0.8, false)
            .write_json(&cc)
            .unwrap();
        let out = dir.path().join("fig.png");
        run(PlotArgs {
            run: vec![silot.clone(), cc.clone()],
            out: Some(out.clone()),
            labels: Vec::new(),
        })
        .unwrap();
        let img = image::open(&out).unwrap().to_rgb8();
        // Three panels wide; a legend row, then two rows (all frames; frames 3.. both ways).
        let top = LEGEND_ROW + 8 + 4;
        assert_eq!(img.dimensions(), (3 * WIDTH / COLS, top + 2 * PANEL_H));
        for col in 0..3 {
            // Row 1: the model (first palette colour) and ConnComp (black).
            assert!(pixels_of(&img, top, (col, 0), PALETTE[0]) > 100, "{col}");
            assert!(pixels_of(&img, top, (col, 0), [0, 0, 0]) > 100, "{col}");
            // Row 2: posterior and prior from frame 3, both in the model's colour; no ConnComp.
            assert!(pixels_of(&img, top, (col, 1), PALETTE[0]) > 100, "{col}");
            assert_eq!(pixels_of(&img, top, (col, 1), PALETTE[1]), 0, "{col}");
            assert_eq!(pixels_of(&img, top, (col, 1), [0, 0, 0]), 0, "{col}");
        }
        // Labels must match the reports; a counts report cannot be mixed with other input.
        let e = run(PlotArgs {
            run: vec![silot.clone(), cc.clone()],
            out: None,
            labels: vec!["one".into()],
        })
        .unwrap_err()
        .to_string();
        assert!(e.contains("1 labels for 2 reports"), "{e}");
        let e = run(PlotArgs {
            run: vec![silot.clone(), dir.path().to_path_buf()],
            out: None,
            labels: Vec::new(),
        })
        .unwrap_err()
        .to_string();
        assert!(e.contains("not a per-count report"), "{e}");
        let mut other = counts_report("silot", 1.0, false);
        other.env = "scattered_shapes".into();
        other.write_json(&cc).unwrap();
        let e = plot_counts(&[silot, cc], None, &out)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("cc.json") && e.contains("scattered_shapes"),
            "{e}"
        );
    }

    #[test]
    fn a_dashed_line_draws_its_dashes_and_leaves_the_gaps() {
        let c = Rgb([200, 0, 0]);
        let drawn = |dash| {
            let mut img = RgbImage::from_pixel(120, 3, Rgb([255, 255, 255]));
            polyline(
                &mut img,
                [(0.0, 1.0), (50.0, 1.0), (99.0, 1.0)].into_iter(),
                c,
                dash,
            );
            (0..120)
                .filter(|&x| *img.get_pixel(x, 1) == c)
                .collect::<Vec<u32>>()
        };
        assert_eq!(drawn(None), (0..100).collect::<Vec<u32>>());
        // 6 on, 4 off, continuing across the joint at x = 50.
        let dashed = drawn(DASH);
        assert_eq!(dashed.len(), 60);
        assert_eq!(&dashed[..8], &[0, 1, 2, 3, 4, 5, 10, 11]);
        assert!(dashed.contains(&50) && !dashed.contains(&56));
    }

    #[test]
    fn an_empty_file_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let metrics = dir.path().join("metrics.jsonl");
        std::fs::write(&metrics, "\n").unwrap();
        let e = plot_metrics(&metrics, &dir.path().join("c.png")).unwrap_err();
        assert!(e.to_string().contains("metrics.jsonl"), "{e}");
    }

    #[test]
    fn one_outlier_does_not_set_the_range() {
        let mut v: Vec<f64> = (0..50).map(|i| 100.0 + i as f64).collect();
        v[0] = 5e6;
        assert_eq!(robust_range(v), (102.0, 149.0));
        assert_eq!(robust_range(vec![1.0, 5e6]), (1.0, 5e6));
    }

    #[test]
    fn numbers_are_compact() {
        assert_eq!(number(0.0), "0");
        assert_eq!(number(1.25), "1.25");
        assert_eq!(number(64.518), "64.5");
        assert_eq!(number(100.0), "100");
        assert_eq!(number(7407.47), "7407");
        assert_eq!(number(316489.0), "3.16e5");
        assert_eq!(number(0.001), "1.00e-3");
    }
}
