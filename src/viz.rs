//! Tracking pictures in the style of the paper's Figure 7: frames over time left to right,
//! ground truth (top row) above predictions (bottom row), every box drawn in a colour picked by
//! its identity so a persistent id keeps its colour. Output as a PNG strip or an animated GIF
//! (one GIF frame per time step: ground truth beside predictions).

use std::path::Path;

use image::codecs::gif::{GifEncoder, Repeat};
use image::{Delay, Rgb, RgbImage, RgbaImage};

use crate::env::{Frame, GtObject};
use crate::error::{Error, Result};
use crate::track::TrackedObject;

/// Drawing options.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderOptions {
    /// Integer upscaling of every frame (nearest neighbour). Default 3.
    pub scale: u32,
    /// Gap between panels in output pixels. Default 4.
    pub gap: u32,
    /// Predictions with `score <= obj_threshold` are not drawn. Default 0.5.
    pub obj_threshold: f32,
    /// GIF frame duration in milliseconds. Default 300.
    pub gif_delay_ms: u32,
}

impl Default for RenderOptions {
    fn default() -> Self {
        Self {
            scale: 3,
            gap: 4,
            obj_threshold: 0.5,
            gif_delay_ms: 300,
        }
    }
}

/// A box to draw: edges in the pixel-index convention and the identity that picks its colour.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DrawBox {
    /// Identity.
    pub id: u64,
    /// Top edge.
    pub top: f32,
    /// Left edge.
    pub left: f32,
    /// Bottom edge.
    pub bottom: f32,
    /// Right edge.
    pub right: f32,
}

impl From<&GtObject> for DrawBox {
    fn from(o: &GtObject) -> Self {
        Self {
            id: o.id.into(),
            top: o.top,
            left: o.left,
            bottom: o.bottom,
            right: o.right,
        }
    }
}

impl From<&TrackedObject> for DrawBox {
    fn from(o: &TrackedObject) -> Self {
        Self {
            id: o.id,
            top: o.top,
            left: o.left,
            bottom: o.bottom,
            right: o.right,
        }
    }
}

/// A bright colour for an identity: hues spaced by the golden angle, so nearby ids differ.
pub fn identity_colour(id: u64) -> Rgb<u8> {
    let hue = (id as f64 * 0.618_033_988_749_895).fract() * 6.0;
    let x = 1.0 - (hue % 2.0 - 1.0).abs();
    let (r, g, b) = match hue as u32 {
        0 => (1.0, x, 0.0),
        1 => (x, 1.0, 0.0),
        2 => (0.0, 1.0, x),
        3 => (0.0, x, 1.0),
        4 => (x, 0.0, 1.0),
        _ => (1.0, 0.0, x),
    };
    let to = |v: f64| (55.0 + 200.0 * v).round() as u8;
    Rgb([to(r), to(g), to(b)])
}

/// Upscale an `(H, W, 3)` frame by `scale` (nearest neighbour).
pub fn frame_to_image(frame: &Frame, scale: u32) -> Result<RgbImage> {
    let (h, w, c) = frame.dim();
    if c != 3 {
        return Err(Error::Invalid(format!(
            "rendering needs RGB frames, got {c} channels"
        )));
    }
    let s = scale.max(1);
    let (iw, ih) = (to_u32(w)? * s, to_u32(h)? * s);
    Ok(RgbImage::from_fn(iw, ih, |x, y| {
        let (fy, fx) = ((y / s) as usize, (x / s) as usize);
        Rgb([frame[[fy, fx, 0]], frame[[fy, fx, 1]], frame[[fy, fx, 2]]])
    }))
}

fn to_u32(v: usize) -> Result<u32> {
    u32::try_from(v).map_err(|_| Error::Invalid(format!("image dimension {v} too large")))
}

/// Draw a 1-pixel rectangle outline for each box onto an image made by [`frame_to_image`]
/// with the same `scale` (a box edge `v` lands at `(v + 0.5) * scale`); clipped to the image.
pub fn draw_boxes(img: &mut RgbImage, boxes: &[DrawBox], scale: u32) {
    let s = scale.max(1) as f32;
    let (w, h) = (img.width() as i64, img.height() as i64);
    for b in boxes {
        let colour = identity_colour(b.id);
        let px = |v: f32| ((v + 0.5) * s).round() as i64;
        let (y0, y1) = (px(b.top), px(b.bottom) - 1);
        let (x0, x1) = (px(b.left), px(b.right) - 1);
        let mut put = |x: i64, y: i64| {
            if (0..w).contains(&x) && (0..h).contains(&y) {
                img.put_pixel(x as u32, y as u32, colour);
            }
        };
        for x in x0..=x1 {
            put(x, y0);
            put(x, y1);
        }
        for y in y0..=y1 {
            put(x0, y);
            put(x1, y);
        }
    }
}

fn panel(frame: &Frame, boxes: &[DrawBox], opts: &RenderOptions) -> Result<RgbImage> {
    let mut img = frame_to_image(frame, opts.scale)?;
    draw_boxes(&mut img, boxes, opts.scale);
    Ok(img)
}

fn pred_boxes(objs: &[TrackedObject], thr: f32) -> Vec<DrawBox> {
    objs.iter()
        .filter(|o| o.score > thr)
        .map(DrawBox::from)
        .collect()
}

fn check_lengths(
    frames: &[Frame],
    gt: Option<&[Vec<GtObject>]>,
    pred: &[Vec<TrackedObject>],
) -> Result<()> {
    let gt_len = gt.map_or(frames.len(), <[_]>::len);
    if pred.len() != frames.len() || gt_len != frames.len() {
        return Err(Error::Invalid(format!(
            "render: {} frames, {} prediction lists, {gt_len} ground-truth lists; pass one per frame",
            frames.len(),
            pred.len()
        )));
    }
    if frames.is_empty() {
        return Err(Error::Invalid("render: no frames to draw".into()));
    }
    Ok(())
}

/// Paste `src` into `dst` at `(x, y)`.
fn paste(dst: &mut RgbImage, src: &RgbImage, x: u32, y: u32) {
    for (sx, sy, p) in src.enumerate_pixels() {
        if x + sx < dst.width() && y + sy < dst.height() {
            dst.put_pixel(x + sx, y + sy, *p);
        }
    }
}

/// A strip: one column per frame; ground truth on the top row (if given), predictions below.
pub fn tracking_strip(
    frames: &[Frame],
    gt: Option<&[Vec<GtObject>]>,
    pred: &[Vec<TrackedObject>],
    opts: &RenderOptions,
) -> Result<RgbImage> {
    check_lengths(frames, gt, pred)?;
    let first = frame_to_image(&frames[0], opts.scale)?;
    let (pw, ph) = (first.width(), first.height());
    let rows = if gt.is_some() { 2 } else { 1 };
    let n = to_u32(frames.len())?;
    let mut out = RgbImage::from_pixel(
        n * pw + (n + 1) * opts.gap,
        rows * ph + (rows + 1) * opts.gap,
        Rgb([255, 255, 255]),
    );
    for (t, frame) in frames.iter().enumerate() {
        let x = opts.gap + to_u32(t)? * (pw + opts.gap);
        let mut y = opts.gap;
        if let Some(g) = gt {
            let boxes: Vec<DrawBox> = g[t].iter().map(DrawBox::from).collect();
            paste(&mut out, &panel(frame, &boxes, opts)?, x, y);
            y += ph + opts.gap;
        }
        paste(
            &mut out,
            &panel(frame, &pred_boxes(&pred[t], opts.obj_threshold), opts)?,
            x,
            y,
        );
    }
    Ok(out)
}

/// One image per time step: ground truth (if given) beside predictions.
pub fn tracking_frames(
    frames: &[Frame],
    gt: Option<&[Vec<GtObject>]>,
    pred: &[Vec<TrackedObject>],
    opts: &RenderOptions,
) -> Result<Vec<RgbImage>> {
    check_lengths(frames, gt, pred)?;
    (0..frames.len())
        .map(|t| {
            let pred_panel = panel(&frames[t], &pred_boxes(&pred[t], opts.obj_threshold), opts)?;
            let Some(g) = gt else {
                return Ok(pred_panel);
            };
            let gt_boxes: Vec<DrawBox> = g[t].iter().map(DrawBox::from).collect();
            let gt_panel = panel(&frames[t], &gt_boxes, opts)?;
            let (pw, ph) = (pred_panel.width(), pred_panel.height());
            let mut out = RgbImage::from_pixel(
                2 * pw + 3 * opts.gap,
                ph + 2 * opts.gap,
                Rgb([255, 255, 255]),
            );
            paste(&mut out, &gt_panel, opts.gap, opts.gap);
            paste(&mut out, &pred_panel, 2 * opts.gap + pw, opts.gap);
            Ok(out)
        })
        .collect()
}

/// Encode images as an endlessly looping GIF.
pub fn encode_gif(images: &[RgbImage], delay_ms: u32) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    {
        let mut enc = GifEncoder::new_with_speed(&mut bytes, 10);
        enc.set_repeat(Repeat::Infinite)
            .map_err(|e| Error::Invalid(format!("GIF encoding failed: {e}")))?;
        let frames = images.iter().map(|img| {
            let rgba: RgbaImage = image::DynamicImage::ImageRgb8(img.clone()).to_rgba8();
            image::Frame::from_parts(rgba, 0, 0, Delay::from_numer_denom_ms(delay_ms, 1))
        });
        enc.encode_frames(frames)
            .map_err(|e| Error::Invalid(format!("GIF encoding failed: {e}")))?;
    }
    Ok(bytes)
}

/// Encode an image as PNG bytes.
pub fn encode_png(img: &RgbImage) -> Result<Vec<u8>> {
    let mut bytes = std::io::Cursor::new(Vec::new());
    img.write_to(&mut bytes, image::ImageFormat::Png)
        .map_err(|e| Error::Invalid(format!("PNG encoding failed: {e}")))?;
    Ok(bytes.into_inner())
}

/// Render tracking to `path`: `.png` writes the [`tracking_strip`], `.gif` an animation of
/// [`tracking_frames`]. The file is written atomically.
pub fn render_tracking(
    path: &Path,
    frames: &[Frame],
    gt: Option<&[Vec<GtObject>]>,
    pred: &[Vec<TrackedObject>],
    opts: &RenderOptions,
) -> Result<()> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let bytes = match ext.as_deref() {
        Some("png") => encode_png(&tracking_strip(frames, gt, pred, opts)?)?,
        Some("gif") => encode_gif(&tracking_frames(frames, gt, pred, opts)?, opts.gif_delay_ms)?,
        _ => {
            return Err(Error::Invalid(format!(
                "render: {} must end in .png or .gif",
                path.display()
            )))
        }
    };
    crate::util::write_atomic(path, &bytes)
}

/// Write a clip as a PNG strip at native resolution: frames left to right with 2 px white
/// gaps, ground-truth boxes (coloured by id) drawn where the clip has them. Written atomically.
pub fn write_clip_strip(path: &Path, clip: &crate::data::Clip) -> Result<()> {
    let frames = clip.frame_vec();
    if frames.is_empty() {
        return Err(Error::Invalid("cannot draw an empty clip".into()));
    }
    let opts = RenderOptions { scale: 1, ..RenderOptions::default() };
    let gap = 2u32;
    let (h, w) = (frames[0].shape()[0] as u32, frames[0].shape()[1] as u32);
    let n = to_u32(frames.len())?;
    let mut out = RgbImage::from_pixel(n * w + (n - 1) * gap, h, Rgb([255, 255, 255]));
    for (t, frame) in frames.iter().enumerate() {
        let boxes: Vec<DrawBox> = clip
            .gt
            .as_ref()
            .map(|g| g[t].iter().map(DrawBox::from).collect())
            .unwrap_or_default();
        paste(&mut out, &panel(frame, &boxes, &opts)?, to_u32(t)? * (w + gap), 0);
    }
    crate::util::write_atomic(path, &encode_png(&out)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clip() -> (Vec<Frame>, Vec<Vec<GtObject>>, Vec<Vec<TrackedObject>>) {
        let frames = vec![Frame::zeros((10, 12, 3)); 2];
        let gt = vec![
            vec![GtObject {
                id: 1,
                top: 1.5,
                left: 1.5,
                bottom: 4.5,
                right: 4.5,
            }];
            2
        ];
        let pred = vec![
            vec![TrackedObject {
                id: 3,
                top: 1.5,
                left: 1.5,
                bottom: 4.5,
                right: 4.5,
                score: 1.0,
            }];
            2
        ];
        (frames, gt, pred)
    }

    #[test]
    fn strip_layout_and_box_pixels() {
        let (frames, gt, pred) = clip();
        let o = RenderOptions {
            scale: 2,
            gap: 1,
            ..Default::default()
        };
        let img = tracking_strip(&frames, Some(&gt), &pred, &o).unwrap();
        assert_eq!((img.width(), img.height()), (2 * 24 + 3, 2 * 20 + 3));
        // GT box top-left corner: edge 1.5 -> (1.5 + 0.5) * 2 = 4, plus the gap 1.
        assert_eq!(*img.get_pixel(1 + 4, 1 + 4), identity_colour(1));
        // Prediction row uses the prediction's id colour.
        assert_eq!(*img.get_pixel(1 + 4, 1 + 20 + 1 + 4), identity_colour(3));
        // Inside the box stays black.
        assert_eq!(*img.get_pixel(1 + 6, 1 + 6), Rgb([0, 0, 0]));
        assert_ne!(identity_colour(1), identity_colour(2));
    }

    #[test]
    fn writes_png_and_gif_and_rejects_other_extensions() {
        let (frames, gt, pred) = clip();
        let dir = tempfile::tempdir().unwrap();
        let o = RenderOptions::default();
        let png = dir.path().join("a.png");
        render_tracking(&png, &frames, Some(&gt), &pred, &o).unwrap();
        let back = image::open(&png).unwrap();
        assert_eq!(back.width(), 2 * 36 + 3 * 4);
        let gif = dir.path().join("a.gif");
        render_tracking(&gif, &frames, None, &pred, &o).unwrap();
        assert_eq!(&std::fs::read(&gif).unwrap()[..3], b"GIF");
        assert!(render_tracking(&dir.path().join("a.bmp"), &frames, None, &pred, &o).is_err());
        assert!(render_tracking(&png, &frames, None, &pred[..1], &o).is_err());
    }
}
