//! The five Scattered Shapes sprites and six colours, rasterised analytically.
//!
//! The reference took the alpha channel of five PNGs and resized them to 14×14. We rasterise the
//! same geometry directly at the drawn size with [`SUPERSAMPLE`]² point samples per pixel, so
//! the alpha of a pixel is the fraction of it covered by the shape (anti-aliasing by area). A
//! shape is defined on the canvas `[-1, 1]²` (`u` right, `v` down) and stretched to the sprite's
//! `height × width` (the reference resizes the square patch to the drawn box):
//!
//! * circle: the disk `u² + v² ≤ 1` filling the canvas;
//! * diamond: the square rotated by 45° with its corners on the canvas edges, `|u| + |v| ≤ 1`;
//! * star: a filled regular 5-point star centred on the canvas, one point up, outer radius
//!   `65/133` and inner radius `24.7/133` of the canvas side (the reference SVG's proportions);
//! * x: the union of two bars along the canvas diagonals, each `22%` of the canvas side wide;
//! * plus: the union of a horizontal and a vertical bar through the centre, each `18%` wide.

use serde::{Deserialize, Serialize};

/// Point samples per pixel along each axis.
pub const SUPERSAMPLE: usize = 8;

/// A Scattered Shapes shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    /// Filled disk.
    Circle,
    /// Filled square rotated by 45°.
    Diamond,
    /// Filled 5-point star.
    Star,
    /// Two diagonal bars.
    X,
    /// Two orthogonal bars ("cross" in the reference).
    Plus,
}

impl Shape {
    /// All shapes, in the reference's order.
    pub const ALL: [Shape; 5] = [
        Shape::Circle,
        Shape::Diamond,
        Shape::Star,
        Shape::X,
        Shape::Plus,
    ];

    /// Whether the canvas point `(u, v)` in `[-1, 1]²` lies inside the shape.
    pub fn contains(self, u: f64, v: f64) -> bool {
        match self {
            Shape::Circle => u * u + v * v <= 1.0,
            Shape::Diamond => u.abs() + v.abs() <= 1.0,
            Shape::Star => star_contains(u, v),
            Shape::X => {
                // Half-width 0.22 in canvas units of 2 (a bar 22% of the canvas side wide).
                let d = 0.22 * std::f64::consts::SQRT_2;
                (u - v).abs() <= d || (u + v).abs() <= d
            }
            Shape::Plus => u.abs() <= 0.18 || v.abs() <= 0.18,
        }
    }
}

/// Outer radius of the star in canvas units (canvas side = 2).
pub const STAR_OUTER: f64 = 2.0 * 65.0 / 133.0;
/// Inner radius of the star in canvas units.
pub const STAR_INNER: f64 = 2.0 * 24.7 / 133.0;

/// Even-odd point-in-polygon test on the star's 10 vertices (outer points at angles
/// `-90° + 72°·k`, inner points halfway between).
fn star_contains(u: f64, v: f64) -> bool {
    let vertex = |k: usize| {
        let r = if k % 2 == 0 { STAR_OUTER } else { STAR_INNER };
        let a = -std::f64::consts::FRAC_PI_2 + k as f64 * std::f64::consts::PI / 5.0;
        (r * a.cos(), r * a.sin())
    };
    let mut inside = false;
    for k in 0..10 {
        let (x0, y0) = vertex(k);
        let (x1, y1) = vertex((k + 1) % 10);
        if (y0 > v) != (y1 > v) && u < x0 + (v - y0) * (x1 - x0) / (y1 - y0) {
            inside = !inside;
        }
    }
    inside
}

/// A named RGB colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Colour {
    /// Matplotlib name.
    pub name: &'static str,
    /// RGB bytes.
    pub rgb: [u8; 3],
}

/// The six Scattered Shapes colours (matplotlib named colours, as the reference uses).
pub const COLOURS: [Colour; 6] = [
    Colour {
        name: "red",
        rgb: [255, 0, 0],
    },
    Colour {
        name: "green",
        rgb: [0, 128, 0],
    },
    Colour {
        name: "blue",
        rgb: [0, 0, 255],
    },
    Colour {
        name: "cyan",
        rgb: [0, 255, 255],
    },
    Colour {
        name: "magenta",
        rgb: [255, 0, 255],
    },
    Colour {
        name: "yellow",
        rgb: [255, 255, 0],
    },
];

/// Coverage of `shape` stretched to `height × width` pixels, row-major `(height, width)`,
/// each value in `[0, 1]` (a multiple of `1/SUPERSAMPLE²`).
pub fn rasterise(shape: Shape, height: usize, width: usize) -> Vec<f32> {
    let n = SUPERSAMPLE;
    let per_pixel = (n * n) as f32;
    let mut alpha = Vec::with_capacity(height * width);
    for row in 0..height {
        for col in 0..width {
            let mut hits = 0usize;
            for i in 0..n {
                let y = row as f64 + (i as f64 + 0.5) / n as f64;
                let v = 2.0 * y / height as f64 - 1.0;
                for j in 0..n {
                    let x = col as f64 + (j as f64 + 0.5) / n as f64;
                    let u = 2.0 * x / width as f64 - 1.0;
                    hits += shape.contains(u, v) as usize;
                }
            }
            alpha.push(hits as f32 / per_pixel);
        }
    }
    alpha
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(a: &[f32], w: usize, r: usize, c: usize) -> f32 {
        a[r * w + c]
    }

    /// Max |a(r,c) - a(f(r,c))| over the sprite.
    fn asymmetry(a: &[f32], s: usize, f: impl Fn(usize, usize) -> (usize, usize)) -> f32 {
        let mut worst = 0f32;
        for r in 0..s {
            for c in 0..s {
                let (r2, c2) = f(r, c);
                worst = worst.max((at(a, s, r, c) - at(a, s, r2, c2)).abs());
            }
        }
        worst
    }

    #[test]
    fn symmetries() {
        let s = 14;
        let tol = 2.0 / 64.0; // samples exactly on a boundary may round either way
        for shape in Shape::ALL {
            let a = rasterise(shape, s, s);
            let lr = asymmetry(&a, s, |r, c| (r, s - 1 - c));
            assert!(lr <= tol, "{shape:?} not left-right symmetric: {lr}");
            if shape != Shape::Star {
                let ud = asymmetry(&a, s, |r, c| (s - 1 - r, c));
                let tr = asymmetry(&a, s, |r, c| (c, r));
                assert!(
                    ud <= tol && tr <= tol,
                    "{shape:?}: up-down {ud}, transpose {tr}"
                );
            }
        }
        // The star points up: its top row is covered, its bottom row not.
        let star = rasterise(Shape::Star, s, s);
        assert!(star[..s].iter().sum::<f32>() > 0.0);
        assert_eq!(star[(s - 1) * s..].iter().sum::<f32>(), 0.0);
    }

    #[test]
    fn coverage_matches_analytic_areas() {
        let x_half = 0.22 * std::f64::consts::SQRT_2;
        let band = 4.0 - (2.0 - x_half) * (2.0 - x_half);
        let expected = [
            (Shape::Circle, std::f64::consts::PI / 4.0),
            (Shape::Diamond, 0.5),
            // 10 triangles R·r·sin(36°)/2 on a canvas of area 4.
            (
                Shape::Star,
                5.0 * STAR_OUTER * STAR_INNER * (36f64).to_radians().sin() / 4.0,
            ),
            (Shape::X, (2.0 * band - 2.0 * x_half * x_half) / 4.0),
            (Shape::Plus, 2.0 * 0.18 - 0.18 * 0.18),
        ];
        for (shape, area) in expected {
            let a = rasterise(shape, 28, 28);
            let cover = a.iter().map(|&v| v as f64).sum::<f64>() / (28.0 * 28.0);
            assert!((cover - area).abs() < 0.01, "{shape:?}: {cover} vs {area}");
        }
    }

    #[test]
    fn values_in_unit_range_and_centre_covered() {
        for shape in Shape::ALL {
            let a = rasterise(shape, 14, 14);
            assert!(a.iter().all(|v| (0.0..=1.0).contains(v)));
            assert_eq!(at(&a, 14, 7, 7), 1.0, "{shape:?} centre");
        }
        // Corners: only the x reaches them.
        for shape in Shape::ALL {
            let corner = at(&rasterise(shape, 14, 14), 14, 0, 0);
            assert_eq!(corner > 0.0, shape == Shape::X, "{shape:?} corner {corner}");
        }
    }

    #[test]
    fn stretching_follows_the_box() {
        let a = rasterise(Shape::Circle, 10, 20);
        assert_eq!(a.len(), 200);
        let cover = a.iter().sum::<f32>() / 200.0;
        assert!((cover - std::f32::consts::FRAC_PI_4).abs() < 0.02);
    }
}
