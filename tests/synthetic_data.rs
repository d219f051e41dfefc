//! MNIST digit loading: compact file at a path, IDX folders (plain and gzipped), errors.

use std::io::Write;
use std::path::Path;

use silot::env::synthetic::{MnistDigits, ScatteredMnist, ScatteredMnistConfig, Split};
use silot::env::{Env, ResetOptions};
use silot::Error;

/// Write an IDX file of u8 with the given shape.
fn write_idx(path: &Path, shape: &[usize], data: &[u8], gz: bool) {
    let mut bytes = vec![0, 0, 0x08, shape.len() as u8];
    for &d in shape {
        bytes.extend((d as u32).to_be_bytes());
    }
    bytes.extend_from_slice(data);
    if gz {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(&bytes).unwrap();
        bytes = enc.finish().unwrap();
    }
    std::fs::write(path, bytes).unwrap();
}

/// Digits `range` of `d`, upscaled to 28x28 by pixel doubling (area averaging undoes it).
fn upscaled(d: &MnistDigits, range: std::ops::Range<usize>) -> (Vec<u8>, Vec<u8>) {
    let mut px = Vec::new();
    for i in range.clone() {
        let img = d.image(i);
        for r in 0..28 {
            for c in 0..28 {
                px.push(img[(r / 2) * 14 + c / 2]);
            }
        }
    }
    (range.map(|i| d.label(i)).collect(), px)
}

#[test]
fn idx_folder_gives_the_same_digits() {
    let d = MnistDigits::embedded().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (tl, tp) = upscaled(&d, 0..6000);
    let (el, ep) = upscaled(&d, 6000..d.len());
    write_idx(
        &dir.path().join("train-images-idx3-ubyte"),
        &[6000, 28, 28],
        &tp,
        false,
    );
    write_idx(
        &dir.path().join("train-labels-idx1-ubyte"),
        &[6000],
        &tl,
        false,
    );
    write_idx(
        &dir.path().join("t10k-images-idx3-ubyte.gz"),
        &[4000, 28, 28],
        &ep,
        true,
    );
    write_idx(
        &dir.path().join("t10k-labels.idx1-ubyte.gz"),
        &[4000],
        &el,
        true,
    );
    let loaded = MnistDigits::from_idx_dir(dir.path()).unwrap();
    assert_eq!(&loaded, d.as_ref());
    // Through the env config: same digits, same videos.
    let cfg = ScatteredMnistConfig {
        mnist_dir: Some(dir.path().into()),
        ..Default::default()
    };
    let mut a = ScatteredMnist::new(cfg, Split::Val).unwrap();
    let mut b = ScatteredMnist::new(ScatteredMnistConfig::default(), Split::Val).unwrap();
    let o = ResetOptions::default();
    assert_eq!(a.reset(Some(4), &o).unwrap(), b.reset(Some(4), &o).unwrap());
}

#[test]
fn compact_file_at_a_path() {
    let asset = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/mnist_digits.bin");
    let loaded = MnistDigits::from_compact_file(&asset).unwrap();
    assert_eq!(&loaded, MnistDigits::embedded().unwrap().as_ref());
    let cfg = ScatteredMnistConfig {
        mnist_path: Some(asset),
        ..Default::default()
    };
    ScatteredMnist::new(cfg, Split::Train).unwrap();
}

#[test]
fn missing_data_names_the_build_command() {
    let cfg = ScatteredMnistConfig {
        mnist_path: Some("/nonexistent/digits.bin".into()),
        ..Default::default()
    };
    match ScatteredMnist::new(cfg, Split::Train) {
        Err(Error::MissingData { path, hint }) => {
            assert_eq!(path, Path::new("/nonexistent/digits.bin"));
            assert!(hint.contains("python3 scripts/build_mnist.py"), "{hint}");
        }
        Err(other) => panic!("wrong error {other}"),
        Ok(_) => panic!("loaded a missing file"),
    }
    let cfg = ScatteredMnistConfig {
        mnist_dir: Some("/nonexistent/mnist".into()),
        ..Default::default()
    };
    assert!(matches!(
        ScatteredMnist::new(cfg, Split::Train),
        Err(Error::MissingData { .. })
    ));
    let empty = tempfile::tempdir().unwrap();
    assert!(matches!(
        MnistDigits::from_idx_dir(empty.path()),
        Err(Error::MissingData { .. })
    ));
}

#[test]
fn corrupt_files_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("digits.bin");
    std::fs::write(&bad, b"SILOTMN1 but not really a file").unwrap();
    assert!(matches!(
        MnistDigits::from_compact_file(&bad),
        Err(Error::CorruptData { .. })
    ));
    // IDX with a wrong length.
    write_idx(
        &dir.path().join("train-images-idx3-ubyte"),
        &[2, 28, 28],
        &[0; 100],
        false,
    );
    write_idx(
        &dir.path().join("train-labels-idx1-ubyte"),
        &[2],
        &[1, 2],
        false,
    );
    assert!(matches!(
        MnistDigits::from_idx_dir(dir.path()),
        Err(Error::CorruptData { .. })
    ));
    // Labels that are not digits.
    write_idx(
        &dir.path().join("train-images-idx3-ubyte"),
        &[2, 28, 28],
        &[0; 2 * 784],
        false,
    );
    write_idx(
        &dir.path().join("train-labels-idx1-ubyte"),
        &[2],
        &[1, 12],
        false,
    );
    assert!(matches!(
        MnistDigits::from_idx_dir(dir.path()),
        Err(Error::CorruptData { .. })
    ));
    // Too few digits for a validation split.
    write_idx(
        &dir.path().join("train-labels-idx1-ubyte"),
        &[2],
        &[1, 2],
        false,
    );
    let cfg = ScatteredMnistConfig {
        mnist_dir: Some(dir.path().into()),
        ..Default::default()
    };
    assert!(matches!(
        ScatteredMnist::new(cfg, Split::Val),
        Err(Error::CorruptData { .. })
    ));
}
