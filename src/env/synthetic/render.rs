//! Drawing sprites onto a frame and deriving ground-truth boxes.
//!
//! Frames are composed in `f32` (an `(H, W, 3)` canvas in `[0, 255]`) and rounded to bytes once
//! per frame. Sprites are drawn in object order with `pixel = α·colour + (1 − α)·pixel` at the
//! box's truncated position (reference `PatchesDataset._make`).

use std::sync::Arc;

use ndarray::ArrayViewMut3;

use crate::env::GtObject;

use super::motion::Body;

/// An alpha sprite of one colour, drawn at exactly its size.
#[derive(Debug, Clone, PartialEq)]
pub struct Sprite {
    /// Rows.
    pub height: usize,
    /// Columns.
    pub width: usize,
    /// Alpha in `[0, 1]`, row-major `(height, width)`.
    pub alpha: Arc<[f32]>,
    /// Colour drawn where alpha is 1.
    pub colour: [f32; 3],
}

/// Rows and columns of the non-zero alpha of the base (un-resized) patch, as fractions of its
/// size: an object drawn in an `h × w` box spans rows `y0·h .. y1·h` of the box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Extent {
    /// First non-zero row / patch height.
    pub y0: f64,
    /// (Last non-zero row + 1) / patch height.
    pub y1: f64,
    /// First non-zero column / patch width.
    pub x0: f64,
    /// (Last non-zero column + 1) / patch width.
    pub x1: f64,
}

impl Extent {
    /// Extent of the non-zero entries of an `(h, w)` row-major patch; `None` if all are zero.
    pub fn of_patch<T: Copy + Default + PartialEq>(
        patch: &[T],
        h: usize,
        w: usize,
    ) -> Option<Self> {
        let zero = T::default();
        let (mut r0, mut r1, mut c0, mut c1) = (usize::MAX, 0, usize::MAX, 0);
        for r in 0..h {
            for c in 0..w {
                if patch[r * w + c] != zero {
                    r0 = r0.min(r);
                    r1 = r1.max(r);
                    c0 = c0.min(c);
                    c1 = c1.max(c);
                }
            }
        }
        (r0 != usize::MAX).then(|| Extent {
            y0: r0 as f64 / h as f64,
            y1: (r1 + 1) as f64 / h as f64,
            x0: c0 as f64 / w as f64,
            x1: (c1 + 1) as f64 / w as f64,
        })
    }
}

/// The ground-truth box of an object drawn at `body` (reference `_get_annotations`):
/// `top = y0·h + int(top) − 0.5`, `bottom = y1·h + int(top) − 0.5` (same for x), clipped to
/// `[0, frame_h] × [0, frame_w]`; `None` if the clipped box has no area.
pub fn gt_box(
    id: u32,
    extent: &Extent,
    body: &Body,
    frame_h: usize,
    frame_w: usize,
) -> Option<GtObject> {
    let (fh, fw) = (frame_h as f64, frame_w as f64);
    let (t, l) = (body.draw_top() as f64, body.draw_left() as f64);
    let (h, w) = (body.height as f64, body.width as f64);
    let clip = |v: f64, hi: f64| v.clamp(0.0, hi);
    let top = clip(extent.y0 * h + t - 0.5, fh);
    let bottom = clip(extent.y1 * h + t - 0.5, fh);
    let left = clip(extent.x0 * w + l - 0.5, fw);
    let right = clip(extent.x1 * w + l - 0.5, fw);
    (bottom > top && right > left).then_some(GtObject {
        id,
        top: top as f32,
        left: left as f32,
        bottom: bottom as f32,
        right: right as f32,
    })
}

/// Alpha-composite `sprite` onto an `(H, W, 3)` row-major canvas with its top-left pixel at
/// `(top, left)`; the parts outside the canvas are skipped.
pub fn draw(
    canvas: &mut [f32],
    frame_h: usize,
    frame_w: usize,
    sprite: &Sprite,
    top: usize,
    left: usize,
) {
    let rows = sprite.height.min(frame_h.saturating_sub(top));
    let cols = sprite.width.min(frame_w.saturating_sub(left));
    for r in 0..rows {
        let src = &sprite.alpha[r * sprite.width..r * sprite.width + cols];
        let start = ((top + r) * frame_w + left) * 3;
        let dst = &mut canvas[start..start + cols * 3];
        for (px, &a) in dst.chunks_exact_mut(3).zip(src) {
            if a > 0.0 {
                for (p, &c) in px.iter_mut().zip(&sprite.colour) {
                    *p = a * c + (1.0 - a) * *p;
                }
            }
        }
    }
}

/// Round an `(H, W, 3)` canvas to bytes into `out` (same shape).
///
/// Canvas values are blends of colours in `[0, 255]`, so `(v + 0.5) as u8` (a saturating cast)
/// rounds half up.
pub fn to_bytes(canvas: &[f32], mut out: ArrayViewMut3<'_, u8>) {
    let quantise = |v: f32| (v + 0.5) as u8;
    match out.as_slice_mut() {
        Some(dst) => {
            for (d, &v) in dst.iter_mut().zip(canvas) {
                *d = quantise(v);
            }
        }
        None => {
            for (d, &v) in out.iter_mut().zip(canvas) {
                *d = quantise(v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::synthetic::motion::PixelBox;

    fn sprite(alpha: Vec<f32>, h: usize, w: usize, colour: [f32; 3]) -> Sprite {
        Sprite {
            height: h,
            width: w,
            alpha: alpha.into(),
            colour,
        }
    }

    #[test]
    fn draw_blends_in_order() {
        let mut canvas = vec![0f32; 3 * 3 * 3];
        let red = sprite(vec![1.0; 4], 2, 2, [255.0, 0.0, 0.0]);
        let half_blue = sprite(vec![0.5; 4], 2, 2, [0.0, 0.0, 255.0]);
        draw(&mut canvas, 3, 3, &red, 0, 0);
        draw(&mut canvas, 3, 3, &half_blue, 1, 1);
        let px = |r: usize, c: usize| &canvas[(r * 3 + c) * 3..(r * 3 + c) * 3 + 3];
        assert_eq!(px(0, 0), &[255.0, 0.0, 0.0]);
        assert_eq!(px(1, 1), &[127.5, 0.0, 127.5]);
        assert_eq!(px(2, 2), &[0.0, 0.0, 127.5]);
        assert_eq!(px(0, 2), &[0.0, 0.0, 0.0]);
    }

    #[test]
    fn extent_and_gt_box() {
        // Non-zero rows 2..=11, columns 4..=9 of a 14x14 patch.
        let mut patch = vec![0u8; 196];
        for r in 2..=11 {
            for c in 4..=9 {
                patch[r * 14 + c] = 1;
            }
        }
        let e = Extent::of_patch(&patch, 14, 14).unwrap();
        assert_eq!((e.y0, e.y1), (2.0 / 14.0, 12.0 / 14.0));
        let placed = PixelBox {
            top: 10,
            left: 20,
            height: 14,
            width: 14,
        };
        let mut body = Body::new(placed, (0.0, 0.0));
        body.top += 0.9; // truncated when drawn
        let g = gt_box(3, &e, &body, 48, 48).unwrap();
        assert_eq!(
            (g.id, g.top, g.bottom, g.left, g.right),
            (3, 11.5, 21.5, 23.5, 29.5)
        );
        // Clipped to the frame at the top-left corner.
        let corner = Body::new(
            PixelBox {
                top: 0,
                left: 0,
                height: 14,
                width: 14,
            },
            (0.0, 0.0),
        );
        let full = Extent {
            y0: 0.0,
            y1: 1.0,
            x0: 0.0,
            x1: 1.0,
        };
        let g = gt_box(0, &full, &corner, 48, 48).unwrap();
        assert_eq!((g.top, g.left, g.bottom, g.right), (0.0, 0.0, 13.5, 13.5));
        assert!(Extent::of_patch(&[0u8; 4], 2, 2).is_none());
    }
}
