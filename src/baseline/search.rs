//! The ConnComp baseline's threshold search (silot-reference §9, item 6): every point of a grid
//! of foreground (`cc_threshold`) and, for Scattered Shapes, colour (`cosine_threshold`)
//! thresholds is scored on validation clips, and the best point is picked separately for each
//! metric (AP, MOTA, count error), as the paper picked one per object count and metric before
//! scoring on test clips.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::{ConnCompConfig, ConnCompTracker};
use crate::env::{Frame, GtObject};
use crate::error::Result;
use crate::eval::{evaluate_tracker, EvalSettings};

/// `n` evenly spaced values from `lo` to `hi` inclusive (NumPy's `linspace`).
pub fn linspace(lo: f32, hi: f32, n: usize) -> Vec<f32> {
    match n {
        0 => Vec::new(),
        1 => vec![lo],
        _ => (0..n)
            .map(|i| lo + (hi - lo) * i as f32 / (n - 1) as f32)
            .collect(),
    }
}

/// The thresholds tried.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Grid {
    /// Foreground thresholds.
    pub cc: Vec<f32>,
    /// Colour thresholds (Scattered Shapes), `None` for one colour class (Scattered MNIST).
    pub cosine: Option<Vec<f32>>,
}

impl Grid {
    /// The paper's grid: `cc ∈ linspace(1e-4, 3.0001, 52)` and, with colours,
    /// `cosine ∈ linspace(1e-4, 1.0001, 27)`.
    pub fn paper(with_colours: bool) -> Grid {
        Grid {
            cc: linspace(1e-4, 3.0001, 52),
            cosine: with_colours.then(|| linspace(1e-4, 1.0001, 27)),
        }
    }

    /// Every `(cc, cosine)` point, `cc` varying slowest.
    pub fn points(&self) -> Vec<(f32, Option<f32>)> {
        self.cc
            .iter()
            .flat_map(|&cc| match &self.cosine {
                Some(cs) => cs.iter().map(|&c| (cc, Some(c))).collect::<Vec<_>>(),
                None => vec![(cc, None)],
            })
            .collect()
    }
}

/// A metric the thresholds are tuned for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// Average precision (higher is better).
    Ap,
    /// MOTA (higher is better).
    Mota,
    /// Count absolute error (lower is better).
    CountAbsError,
}

impl Metric {
    /// All three, in report order.
    pub const ALL: [Metric; 3] = [Metric::Ap, Metric::Mota, Metric::CountAbsError];

    /// The metric's snake-case name (`ap`, `mota`, `count_abs_error`), as in reports.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Ap => "ap",
            Metric::Mota => "mota",
            Metric::CountAbsError => "count_abs_error",
        }
    }

    /// Whether `a` is strictly better than `b`.
    fn better(self, a: f64, b: f64) -> bool {
        match self {
            Metric::Ap | Metric::Mota => a > b,
            Metric::CountAbsError => a < b,
        }
    }
}

/// One grid point's scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PointScore {
    /// Foreground threshold.
    pub cc_threshold: f32,
    /// Colour threshold.
    pub cosine_threshold: Option<f32>,
    /// AP on the clips.
    pub ap: f64,
    /// MOTA on the clips.
    pub mota: f64,
    /// Count absolute error on the clips.
    pub count_abs_error: f64,
}

impl PointScore {
    /// The score for `metric`.
    pub fn score(&self, metric: Metric) -> f64 {
        match metric {
            Metric::Ap => self.ap,
            Metric::Mota => self.mota,
            Metric::CountAbsError => self.count_abs_error,
        }
    }
}

/// The search's outcome: every point's scores and, per metric, the best point (the first in
/// grid order among equals, i.e. the lowest thresholds).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchResult {
    /// Scores of every grid point, in grid order.
    pub points: Vec<PointScore>,
    /// `(metric, index into points)` of each metric's pick.
    pub best: Vec<(Metric, usize)>,
}

impl SearchResult {
    /// The grid point picked for `metric`.
    pub fn best_point(&self, metric: Metric) -> Option<&PointScore> {
        let (_, i) = self.best.iter().find(|(m, _)| *m == metric)?;
        self.points.get(*i)
    }

    /// The config picked for `metric` (`base` with its thresholds).
    pub fn config_for(&self, metric: Metric, base: &ConnCompConfig) -> Option<ConnCompConfig> {
        let p = self.best_point(metric)?;
        Some(ConnCompConfig {
            cc_threshold: p.cc_threshold,
            cosine_threshold: p.cosine_threshold,
            ..base.clone()
        })
    }
}

/// Score every point of `grid` (thresholds on top of `base`) on `clips` / `gt` and pick the
/// best point per metric. Points run in parallel; the result does not depend on the threads.
pub fn grid_search(
    base: &ConnCompConfig,
    grid: &Grid,
    clips: &[Vec<Frame>],
    gt: &[Vec<Vec<GtObject>>],
    settings: &EvalSettings,
) -> Result<SearchResult> {
    let points = grid
        .points()
        .into_par_iter()
        .map(|(cc, cos)| -> Result<PointScore> {
            let cfg = ConnCompConfig {
                cc_threshold: cc,
                cosine_threshold: cos,
                ..base.clone()
            };
            let mut tracker = ConnCompTracker::new(cfg)?;
            let r = evaluate_tracker(&mut tracker, clips, gt, settings)?;
            Ok(PointScore {
                cc_threshold: cc,
                cosine_threshold: cos,
                ap: r.ap,
                mota: r.mota,
                count_abs_error: r.count_abs_error,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let best = Metric::ALL
        .iter()
        .map(|&m| {
            let mut at = 0;
            for (i, p) in points.iter().enumerate() {
                if m.better(p.score(m), points[at].score(m)) {
                    at = i;
                }
            }
            (m, at)
        })
        .collect();
    Ok(SearchResult { points, best })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_grid() {
        let g = Grid::paper(true);
        assert_eq!(g.cc.len(), 52);
        assert!((g.cc[0] - 1e-4).abs() < 1e-7 && (g.cc[51] - 3.0001).abs() < 1e-5);
        // linspace(1e-4, 3.0001, 52) steps by 3/51: the paper's picks .412, .471, … are on it.
        assert!((g.cc[7] - 0.4118).abs() < 1e-3 && (g.cc[8] - 0.4707).abs() < 1e-3);
        assert_eq!(g.points().len(), 52 * 27);
        assert_eq!(
            g.points()[1],
            (g.cc[0], Some(g.cosine.as_ref().unwrap()[1]))
        );
        assert_eq!(Grid::paper(false).points().len(), 52);
        assert_eq!(linspace(0.0, 1.0, 1), vec![0.0]);
    }

    #[test]
    fn picks_the_best_point_per_metric_with_ties_to_the_first() {
        // One frame with one 3x3 object of brightness 0.5 in each channel (Σ|x| = 1.5): any
        // cc threshold ≤ 1.5 finds it exactly, higher ones find nothing.
        let mut f = Frame::zeros((10, 10, 3));
        for y in 2..5 {
            for x in 2..5 {
                for c in 0..3 {
                    f[[y, x, c]] = 128;
                }
            }
        }
        let gt = vec![vec![vec![GtObject {
            id: 0,
            top: 1.5,
            left: 1.5,
            bottom: 4.5,
            right: 4.5,
        }]]];
        let grid = Grid {
            cc: vec![2.0, 0.1, 1.0, 2.5],
            cosine: None,
        };
        let r = grid_search(
            &ConnCompConfig::default(),
            &grid,
            &[vec![f]],
            &gt,
            &EvalSettings::default(),
        )
        .unwrap();
        assert_eq!(r.points.len(), 4);
        assert_eq!((r.points[0].mota, r.points[1].mota), (0.0, 1.0));
        // 0.1 and 1.0 tie on every metric: the first (0.1) is picked for all three.
        for m in Metric::ALL {
            let c = r.config_for(m, &ConnCompConfig::default()).unwrap();
            assert_eq!(c.cc_threshold, 0.1, "{m:?}");
        }
    }
}
