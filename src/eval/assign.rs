//! Minimum-cost assignment (Hungarian / Kuhn–Munkres), wrapped once for the whole crate.
//!
//! The solver is `pathfinding`'s `kuhn_munkres_min`, which needs integer (`Ord`) costs, at most
//! as many rows as columns, and no infinities (it may loop forever on them). This wrapper takes
//! float costs with non-finite entries meaning "may not pair" and handles all three.

use pathfinding::prelude::{kuhn_munkres_min, Matrix};

use crate::error::{Error, Result};

/// Largest scaled finite cost for tiny problems; chosen so results keep ~15 significant digits.
const MAX_SCALE: f64 = 1e15;
/// Bound on `rows * forbidden_cost` so the solver's sums never overflow `i64`.
const I64_BUDGET: f64 = 2e18;

/// Solve the rectangular assignment problem on a row-major `(rows, cols)` cost matrix.
///
/// Entries that are `NaN` or infinite are forbidden pairs. The result is the assignment that
/// first **maximises the number of allowed pairs** and then **minimises their total cost** —
/// exactly what py-motmetrics' `linear_sum_assignment` computes after replacing forbidden
/// entries by a prohibitively large cost and dropping them afterwards. Returns `(row, col)`
/// pairs sorted by row; every row and column appears at most once.
///
/// Costs are shifted and scaled to integers with ~1e-15 relative resolution before solving, so
/// costs closer than that may be treated as ties; ties are broken deterministically.
pub fn assign(rows: usize, cols: usize, costs: &[f64]) -> Result<Vec<(usize, usize)>> {
    if costs.len() != rows * cols {
        return Err(Error::Invalid(format!(
            "assignment cost matrix has {} entries but rows * cols = {rows} * {cols}; pass a \
             row-major matrix of exactly that size",
            costs.len()
        )));
    }
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for &c in costs.iter().filter(|c| c.is_finite()) {
        lo = lo.min(c);
        hi = hi.max(c);
    }
    if rows == 0 || cols == 0 || lo > hi {
        return Ok(Vec::new()); // empty, or every pair forbidden
    }
    // Solve with r <= c by transposing when needed.
    let transpose = rows > cols;
    let (r, c) = if transpose {
        (cols, rows)
    } else {
        (rows, cols)
    };
    let at = |i: usize, j: usize| {
        if transpose {
            costs[j * cols + i]
        } else {
            costs[i * cols + j]
        }
    };
    let rf = r as f64;
    let scale_max = (I64_BUDGET / (rf * (rf + 1.0) + 1.0))
        .min(MAX_SCALE)
        .floor();
    // Halve everything when the span itself overflows (costs near ±f64::MAX).
    let half = !(hi - lo).is_finite();
    let (lo, hi) = if half { (lo / 2.0, hi / 2.0) } else { (lo, hi) };
    let span = hi - lo;
    let factor = if span > 0.0 { scale_max / span } else { 0.0 };
    // One forbidden pair must cost more than r allowed pairs at the maximum scaled cost.
    let forbidden = (rf * scale_max) as i64 + 1;
    let matrix = Matrix::from_fn(r, c, |(i, j)| {
        let v = at(i, j);
        if v.is_finite() {
            let v = if half { v / 2.0 } else { v };
            ((v - lo) * factor).round() as i64
        } else {
            forbidden
        }
    });
    let (_, cols_of_rows) = kuhn_munkres_min(&matrix);
    let mut pairs: Vec<(usize, usize)> = cols_of_rows
        .into_iter()
        .enumerate()
        .filter(|&(i, j)| at(i, j).is_finite())
        .map(|(i, j)| if transpose { (j, i) } else { (i, j) })
        .collect();
    pairs.sort_unstable();
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Best (count of allowed pairs, -total cost) over all injective maps by brute force.
    fn brute(rows: usize, cols: usize, costs: &[f64]) -> (usize, f64) {
        #[allow(clippy::too_many_arguments)]
        fn rec(
            i: usize,
            rows: usize,
            cols: usize,
            costs: &[f64],
            used: &mut Vec<bool>,
            n: usize,
            s: f64,
            best: &mut (usize, f64),
        ) {
            if i == rows {
                if n > best.0 || (n == best.0 && s < best.1) {
                    *best = (n, s);
                }
                return;
            }
            rec(i + 1, rows, cols, costs, used, n, s, best); // row i unassigned
            for j in 0..cols {
                let v = costs[i * cols + j];
                if !used[j] && v.is_finite() {
                    used[j] = true;
                    rec(i + 1, rows, cols, costs, used, n + 1, s + v, best);
                    used[j] = false;
                }
            }
        }
        let mut best = (0, 0.0);
        rec(
            0,
            rows,
            cols,
            costs,
            &mut vec![false; cols],
            0,
            0.0,
            &mut best,
        );
        best
    }

    #[test]
    fn known_square_and_rectangular() {
        let c = [4.0, 1.0, 3.0, 2.0, 0.0, 5.0, 3.0, 2.0, 2.0];
        assert_eq!(assign(3, 3, &c).unwrap(), vec![(0, 1), (1, 0), (2, 2)]);
        // 3 rows, 2 cols: transposed internally.
        let c = [1.0, 9.0, 9.0, 1.0, 0.5, 0.5];
        let p = assign(3, 2, &c).unwrap();
        assert_eq!(p.len(), 2);
        let total: f64 = p.iter().map(|&(i, j)| c[i * 2 + j]).sum();
        assert!((total - 1.5).abs() < 1e-12);
    }

    #[test]
    fn forbidden_pairs_never_returned_and_no_hang() {
        let n = f64::NAN;
        let i = f64::INFINITY;
        assert!(assign(2, 2, &[n, i, -i, n]).unwrap().is_empty());
        assert_eq!(
            assign(2, 2, &[n, 1.0, 2.0, n]).unwrap(),
            vec![(0, 1), (1, 0)]
        );
        assert!(assign(0, 3, &[]).unwrap().is_empty());
        assert!(assign(2, 2, &[1.0]).is_err());
    }

    #[test]
    fn extreme_costs_keep_their_order() {
        let c = [f64::MAX, -f64::MAX, 0.0, f64::MAX];
        assert_eq!(assign(2, 2, &c).unwrap(), vec![(0, 1), (1, 0)]);
        let c = [1e300, 1e-300, 0.0, 1e300];
        assert_eq!(assign(2, 2, &c).unwrap(), vec![(0, 1), (1, 0)]);
    }

    #[test]
    fn cardinality_beats_cost() {
        // Taking the cheap (0,0) pair would leave row 1 unmatched; two pairs win.
        let c = [0.0, 100.0, 1.0, f64::NAN];
        assert_eq!(assign(2, 2, &c).unwrap(), vec![(0, 1), (1, 0)]);
    }

    fn arb_problem() -> impl Strategy<Value = (usize, usize, Vec<f64>)> {
        (1usize..=6, 1usize..=6).prop_flat_map(|(r, c)| {
            let cell = prop_oneof![
                4 => (-50.0f64..50.0).boxed(),
                1 => Just(f64::NAN).boxed(),
                1 => Just(f64::INFINITY).boxed(),
                1 => (0i32..4).prop_map(f64::from).boxed(),
            ];
            (Just(r), Just(c), proptest::collection::vec(cell, r * c))
        })
    }

    proptest! {
        #[test]
        fn equals_brute_force((r, c, costs) in arb_problem()) {
            let pairs = assign(r, c, &costs).unwrap();
            let mut rows_seen = vec![false; r];
            let mut cols_seen = vec![false; c];
            for &(i, j) in &pairs {
                prop_assert!(costs[i * c + j].is_finite());
                prop_assert!(!rows_seen[i] && !cols_seen[j]);
                rows_seen[i] = true;
                cols_seen[j] = true;
            }
            let total: f64 = pairs.iter().map(|&(i, j)| costs[i * c + j]).sum();
            let (n, s) = brute(r, c, &costs);
            prop_assert_eq!(pairs.len(), n);
            prop_assert!((total - s).abs() < 1e-9, "total {} vs brute {}", total, s);
        }
    }
}
