//! Shipped encoders, found by name.
//!
//! A trained model ships as a plain checkpoint folder `models/NAME/` (`config.toml`,
//! `state.json`, `weights.safetensors`, the weights usually in f16 and cast to f32 on load)
//! with a `manifest.toml` ([`Manifest`]): the env it was trained on, the sha256 of each file,
//! the scores and how they were measured, and a quick re-scoring check for CI.
//!
//! [`resolve`] turns what a user gives as `--checkpoint` into a directory: an existing
//! directory is taken as it is, a bare name (no `/`) such as `space_invaders` is looked up in
//! `$SILOT_MODELS` (if set), this crate's `models/` folder, then `./models`. Every folder with a
//! manifest has its files' sha256 checked before it is returned.
//!
//! ```no_run
//! let dir = silot::models::resolve("space_invaders".as_ref())?;
//! let manifest = silot::models::Manifest::read(&dir)?;
//! println!("{} trained on {}: MOTA {}", manifest.name, manifest.env, manifest.scores.mota);
//! # Ok::<(), silot::Error>(())
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::error::{Error, Result};

/// Environment variable naming another folder of shipped models (searched first).
pub const MODELS_ENV: &str = "SILOT_MODELS";
/// File name of a shipped model's manifest.
pub const MANIFEST_FILE: &str = "manifest.toml";

/// The crate's own `models/` folder (where the source tree was at build time).
pub fn builtin_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("models")
}

/// The folders searched for models by name: `$SILOT_MODELS` (if set), [`builtin_dir`], then
/// `models/` in the current directory (a binary run from a copy of the repository elsewhere,
/// e.g. on a GPU machine).
pub fn search_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(d) = std::env::var_os(MODELS_ENV).filter(|d| !d.is_empty()) {
        dirs.push(PathBuf::from(d));
    }
    dirs.push(builtin_dir());
    dirs.push(PathBuf::from("models"));
    dirs
}

/// A shipped model's `manifest.toml`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The name it is found by (the folder's name).
    pub name: String,
    /// The env id it was trained on (`silot envs`).
    pub env: String,
    /// Frame size `(H, W)` it encodes, as the env's `paper` preset gives it.
    pub frame_size: [usize; 2],
    /// Size `(H, W)` of the training crops.
    pub image_size: [usize; 2],
    /// What it is and how it was trained.
    pub description: String,
    /// Element type of the stored weights (`f16` or `f32`).
    pub weights_dtype: String,
    /// Each file of the folder (but the manifest) by name.
    pub files: BTreeMap<String, FileEntry>,
    /// The scores and how they were measured.
    pub scores: Scores,
    /// A quick re-scoring on the CPU (the CI test).
    pub ci_check: CiCheck,
}

/// One file of a shipped model.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileEntry {
    /// Size in bytes.
    pub bytes: u64,
    /// SHA-256, lower-case hex.
    pub sha256: String,
}

/// The scores a shipped model was measured at.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scores {
    /// CLEAR-MOT MOTA.
    pub mota: f64,
    /// Average precision over IoU 0.1…0.9.
    pub ap: f64,
    /// Mean absolute count error per frame.
    pub count_abs_error: f64,
    /// How: seeds, clips, command, commit, machine.
    pub measured: String,
}

/// A re-scoring small enough for CI: `silot eval --env ENV --tracker silot --checkpoint NAME
/// --clips CLIPS --seed SEED` on the CPU must give `mota` within `tol`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CiCheck {
    /// Env id or experiment file of the clips.
    pub env: String,
    /// Seed of the evaluation clips.
    pub seed: u64,
    /// Number of clips.
    pub clips: usize,
    /// Frames per clip (the experiment's evaluation clip length).
    pub frames: usize,
    /// Expected MOTA.
    pub mota: f64,
    /// Expected count error.
    pub count_abs_error: f64,
    /// Largest difference allowed in either figure.
    pub tol: f64,
}

impl Manifest {
    /// Read and parse `dir/manifest.toml`.
    pub fn read(dir: &Path) -> Result<Self> {
        let path = dir.join(MANIFEST_FILE);
        let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
        toml::from_str(&text).map_err(|e| Error::Config {
            path: path.display().to_string(),
            msg: e.to_string(),
        })
    }

    /// Check every file the manifest lists against its size and sha256.
    pub fn verify(&self, dir: &Path) -> Result<()> {
        for (name, entry) in &self.files {
            let path = dir.join(name);
            let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
            let got = sha256_hex(&bytes);
            if bytes.len() as u64 != entry.bytes || got != entry.sha256 {
                return Err(Error::Checkpoint {
                    path,
                    msg: format!(
                        "{} bytes, sha256 {got}; the manifest records {} bytes, sha256 {}: the \
                         file is damaged or was replaced (git checkout it again; a file stored \
                         with Git LFS needs `git lfs pull`)",
                        bytes.len(),
                        entry.bytes,
                        entry.sha256
                    ),
                });
            }
        }
        Ok(())
    }
}

/// The names of the shipped models in [`search_dirs`] (folders with a manifest), sorted.
pub fn names() -> Vec<String> {
    names_in_dirs(&search_dirs())
}

fn names_in_dirs(dirs: &[PathBuf]) -> Vec<String> {
    let mut out: Vec<String> = dirs.iter().flat_map(|d| names_in(d)).collect();
    out.sort();
    out.dedup();
    out
}

/// The names of the models in folder `dir` (sub-folders with a manifest), sorted.
pub fn names_in(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join(MANIFEST_FILE).is_file())
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .collect();
    out.sort();
    out
}

/// The checkpoint directory meant by `name_or_path`: an existing directory as it is, else a
/// bare name (no path separator) looked up in [`search_dirs`]. A directory with a
/// `manifest.toml` has its files checked ([`Manifest::verify`]) first.
pub fn resolve(name_or_path: &Path) -> Result<PathBuf> {
    resolve_in(name_or_path, &search_dirs())
}

/// [`resolve`] with the folders searched for names given.
pub fn resolve_in(name_or_path: &Path, dirs: &[PathBuf]) -> Result<PathBuf> {
    let dir = if name_or_path.is_dir() {
        name_or_path.to_path_buf()
    } else {
        find(name_or_path, dirs)?
    };
    if dir.join(MANIFEST_FILE).is_file() {
        Manifest::read(&dir)?.verify(&dir)?;
    }
    Ok(dir)
}

fn find(name: &Path, dirs: &[PathBuf]) -> Result<PathBuf> {
    let bare = name.components().count() == 1
        && matches!(
            name.components().next(),
            Some(std::path::Component::Normal(_))
        );
    let not_found = |what: &str| Error::Checkpoint {
        path: name.to_path_buf(),
        msg: format!(
            "{what}; give a checkpoint or run directory, or the name of a shipped model ({}; \
             searched {})",
            match names_in_dirs(dirs) {
                n if n.is_empty() => "none found".to_string(),
                n => n.join(", "),
            },
            dirs.iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    if !bare {
        return Err(not_found("no such directory"));
    }
    dirs.iter()
        .map(|d| d.join(name))
        .find(|d| d.join(MANIFEST_FILE).is_file())
        .ok_or_else(|| not_found("no such directory and no shipped model of that name"))
}

/// SHA-256 of `data` as lower-case hex (FIPS 180-4).
pub fn sha256_hex(data: &[u8]) -> String {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut msg = data.to_vec();
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&((data.len() as u64).wrapping_mul(8)).to_be_bytes());
    for block in msg.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for (ki, wi) in K.iter().zip(w) {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(*ki)
                .wrapping_add(wi);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            hh = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *x = x.wrapping_add(y);
        }
    }
    h.iter().map(|x| format!("{x:08x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_known_vectors() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        // Two blocks (56 bytes: the padding spills over).
        assert_eq!(
            sha256_hex(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
    }
}
