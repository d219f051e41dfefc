//! The clip dataset directory format.
//!
//! ```text
//! DIR/meta.json    DatasetMeta (format tag, env id, clip count, T, H, W, C, seed, settings)
//! DIR/frames.u8    raw bytes, clips back to back, each (T, H, W, C) row-major
//! DIR/gt.jsonl     (only if the env has ground truth) one line per clip: [[GtObject; n_t]; T]
//! ```
//! A dataset is written into a hidden temp directory beside `DIR` and renamed into place when
//! complete, so an interrupted rollout never leaves a half-written dataset under `DIR`.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use ndarray::Array4;
use serde::{Deserialize, Serialize};

use super::Clip;
use crate::env::GtObject;
use crate::error::{Error, Result};

/// Format tag written into `meta.json`.
pub const FORMAT: &str = "silot-clips-v1";

/// Contents of `meta.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DatasetMeta {
    /// Always [`FORMAT`].
    pub format: String,
    /// Env id the clips come from.
    pub env: String,
    /// Number of clips.
    pub clips: usize,
    /// Frames per clip.
    pub frames_per_clip: usize,
    /// Frame height.
    pub height: usize,
    /// Frame width.
    pub width: usize,
    /// Channels (3 for RGB).
    pub channels: usize,
    /// Seed of the rollout.
    pub seed: u64,
    /// Whether `gt.jsonl` exists.
    pub has_gt: bool,
    /// Resolved env settings, for the record.
    pub settings: serde_json::Value,
}

impl DatasetMeta {
    fn clip_bytes(&self) -> usize {
        self.frames_per_clip * self.height * self.width * self.channels
    }
}

/// Streams clips into a new dataset directory; [`DatasetWriter::finish`] publishes it.
pub struct DatasetWriter {
    dir: PathBuf,
    tmp: PathBuf,
    meta: DatasetMeta,
    frames: BufWriter<File>,
    gt: Option<BufWriter<File>>,
    written: usize,
    overwrite: bool,
}

impl DatasetWriter {
    /// Start writing a dataset that will appear at `dir`. Unless `overwrite`, `dir` must not
    /// exist or be empty; with `overwrite` an existing dataset is replaced only once the new one
    /// is complete, and a non-empty folder that is not a dataset (no `meta.json` of this format)
    /// is refused: nothing but a dataset is ever replaced.
    pub fn create(dir: &Path, mut meta: DatasetMeta, overwrite: bool) -> Result<Self> {
        if dir.exists() && !dir.is_dir() {
            return Err(Error::Invalid(format!(
                "output `{}` is a file, not a dataset directory; choose another --out",
                dir.display()
            )));
        }
        if crate::util::is_non_empty_dir(dir)? {
            if !overwrite {
                return Err(Error::Invalid(format!(
                    "output directory `{}` already exists and is not empty; choose a new --out or \
                     pass --overwrite to replace the dataset there",
                    dir.display()
                )));
            }
            if !is_dataset(dir) {
                return Err(Error::Invalid(format!(
                    "`{}` is not a `silot rollout` dataset (no meta.json of format `{FORMAT}`); \
                     --overwrite replaces only datasets: choose another --out",
                    dir.display()
                )));
            }
        }
        let parent = dir
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let user_err = |e: std::io::Error| Error::io(dir, e);
        std::fs::create_dir_all(parent).map_err(user_err)?;
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = parent.join(format!(".{name}.partial{}", std::process::id()));
        if tmp.exists() {
            std::fs::remove_dir_all(&tmp).map_err(user_err)?;
        }
        std::fs::create_dir_all(&tmp).map_err(user_err)?;
        let open = |p: PathBuf| File::create(p).map(BufWriter::new).map_err(user_err);
        let frames = open(tmp.join("frames.u8"))?;
        let gt = if meta.has_gt {
            Some(open(tmp.join("gt.jsonl"))?)
        } else {
            None
        };
        meta.format = FORMAT.into();
        meta.clips = 0;
        Ok(Self {
            dir: dir.to_path_buf(),
            tmp,
            meta,
            frames,
            gt,
            written: 0,
            overwrite,
        })
    }

    /// Append one clip; its shape must match the dataset's.
    pub fn push(&mut self, clip: &Clip) -> Result<()> {
        let m = &self.meta;
        let want = [m.frames_per_clip, m.height, m.width, m.channels];
        if clip.frames.shape() != want {
            return Err(Error::Invalid(format!(
                "clip shape {:?} does not match the dataset's (T, H, W, C) = {want:?}",
                clip.frames.shape()
            )));
        }
        let bytes = clip.frames.as_standard_layout();
        // Errors name the dataset directory asked for, not the temp directory beside it.
        let dir = &self.dir;
        self.frames
            .write_all(bytes.as_slice().unwrap_or(&[]))
            .map_err(|e| Error::io(dir, e))?;
        if let Some(gt) = self.gt.as_mut() {
            let objects = clip.gt.as_ref().ok_or_else(|| {
                Error::Invalid("this dataset records ground truth but the clip has none".into())
            })?;
            let line = serde_json::to_string(objects).map_err(|e| Error::Invalid(e.to_string()))?;
            writeln!(gt, "{line}").map_err(|e| Error::io(dir, e))?;
        }
        self.written += 1;
        Ok(())
    }

    /// Flush, write `meta.json` and move the finished dataset into place.
    pub fn finish(mut self) -> Result<DatasetMeta> {
        let dir = self.dir.clone();
        let user_err = |e: std::io::Error| Error::io(&dir, e);
        self.frames.flush().map_err(user_err)?;
        if let Some(gt) = self.gt.as_mut() {
            gt.flush().map_err(user_err)?;
        }
        self.meta.clips = self.written;
        let json =
            serde_json::to_vec_pretty(&self.meta).map_err(|e| Error::Invalid(e.to_string()))?;
        // Plain writes: the temp directory appears under `dir` only once complete.
        std::fs::write(self.tmp.join("meta.json"), &json).map_err(user_err)?;
        let old = self.tmp.with_extension("old");
        if self.dir.exists() {
            if self.overwrite {
                std::fs::rename(&self.dir, &old).map_err(|e| Error::io(&self.dir, e))?;
            } else {
                std::fs::remove_dir(&self.dir).map_err(|e| Error::io(&self.dir, e))?;
            }
        }
        std::fs::rename(&self.tmp, &self.dir).map_err(|e| Error::io(&self.dir, e))?;
        if old.exists() {
            std::fs::remove_dir_all(&old).map_err(user_err)?;
        }
        Ok(self.meta.clone())
    }
}

/// Whether `dir` holds a dataset: a `meta.json` of [`FORMAT`].
fn is_dataset(dir: &Path) -> bool {
    std::fs::read(dir.join("meta.json"))
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .is_some_and(|v| v.get("format").and_then(|f| f.as_str()) == Some(FORMAT))
}

/// A dataset opened for reading; clips are read on demand.
pub struct Dataset {
    dir: PathBuf,
    meta: DatasetMeta,
    frames: File,
    gt: Option<Vec<Vec<Vec<GtObject>>>>,
}

impl Dataset {
    /// Open and validate the dataset at `dir`.
    pub fn open(dir: &Path) -> Result<Self> {
        let meta_path = dir.join("meta.json");
        let text = std::fs::read(&meta_path).map_err(|e| Error::io(&meta_path, e))?;
        let meta: DatasetMeta = serde_json::from_slice(&text).map_err(|e| Error::CorruptData {
            path: meta_path.clone(),
            msg: e.to_string(),
        })?;
        if meta.format != FORMAT {
            return Err(Error::CorruptData {
                path: meta_path,
                msg: format!("format `{}` is not `{FORMAT}`", meta.format),
            });
        }
        let frames_path = dir.join("frames.u8");
        let frames = File::open(&frames_path).map_err(|e| Error::io(&frames_path, e))?;
        let len = frames
            .metadata()
            .map_err(|e| Error::io(&frames_path, e))?
            .len();
        let want = (meta.clips * meta.clip_bytes()) as u64;
        if len != want {
            return Err(Error::CorruptData {
                path: frames_path,
                msg: format!("{len} bytes, expected {want} for {} clips", meta.clips),
            });
        }
        let gt = if meta.has_gt {
            Some(read_gt(&dir.join("gt.jsonl"), &meta)?)
        } else {
            None
        };
        Ok(Self {
            dir: dir.to_path_buf(),
            meta,
            frames,
            gt,
        })
    }

    /// The dataset's metadata.
    pub fn meta(&self) -> &DatasetMeta {
        &self.meta
    }

    /// Number of clips.
    pub fn len(&self) -> usize {
        self.meta.clips
    }

    /// Whether the dataset holds no clips.
    pub fn is_empty(&self) -> bool {
        self.meta.clips == 0
    }

    /// Read clip `i`.
    pub fn clip(&self, i: usize) -> Result<Clip> {
        let m = &self.meta;
        if i >= m.clips {
            return Err(Error::Invalid(format!(
                "clip index {i} out of range: dataset has {}",
                m.clips
            )));
        }
        let mut buf = vec![0u8; m.clip_bytes()];
        self.frames
            .read_exact_at(&mut buf, (i * m.clip_bytes()) as u64)
            .map_err(|e| Error::io(self.dir.join("frames.u8"), e))?;
        let frames =
            Array4::from_shape_vec((m.frames_per_clip, m.height, m.width, m.channels), buf)
                .map_err(|e| Error::Invalid(e.to_string()))?;
        Ok(Clip {
            frames,
            gt: self.gt.as_ref().map(|g| g[i].clone()),
        })
    }
}

fn read_gt(path: &Path, meta: &DatasetMeta) -> Result<Vec<Vec<Vec<GtObject>>>> {
    let f = File::open(path).map_err(|e| Error::io(path, e))?;
    let mut out = Vec::with_capacity(meta.clips);
    for (n, line) in BufReader::new(f).lines().enumerate() {
        let line = line.map_err(|e| Error::io(path, e))?;
        let clip: Vec<Vec<GtObject>> =
            serde_json::from_str(&line).map_err(|e| Error::CorruptData {
                path: path.to_path_buf(),
                msg: format!("line {}: {e}", n + 1),
            })?;
        if clip.len() != meta.frames_per_clip {
            return Err(Error::CorruptData {
                path: path.to_path_buf(),
                msg: format!(
                    "line {}: {} frames, expected {}",
                    n + 1,
                    clip.len(),
                    meta.frames_per_clip
                ),
            });
        }
        out.push(clip);
    }
    if out.len() != meta.clips {
        return Err(Error::CorruptData {
            path: path.to_path_buf(),
            msg: format!(
                "{} clips of ground truth, expected {}",
                out.len(),
                meta.clips
            ),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta() -> DatasetMeta {
        DatasetMeta {
            format: FORMAT.into(),
            env: "test".into(),
            clips: 0,
            frames_per_clip: 2,
            height: 3,
            width: 4,
            channels: 3,
            seed: 7,
            has_gt: true,
            settings: serde_json::json!({}),
        }
    }

    fn clip(v: u8) -> Clip {
        let gt = vec![
            vec![GtObject {
                id: v as u32,
                top: -0.5,
                left: 0.5,
                bottom: 1.5,
                right: 2.5
            }];
            2
        ];
        Clip {
            frames: Array4::from_elem((2, 3, 4, 3), v),
            gt: Some(gt),
        }
    }

    #[test]
    fn round_trip_and_atomic_publish() {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path().join("ds");
        let mut w = DatasetWriter::create(&dir, meta(), false).unwrap();
        assert!(!dir.exists(), "dataset must not appear before finish");
        w.push(&clip(1)).unwrap();
        w.push(&clip(9)).unwrap();
        w.finish().unwrap();
        let ds = Dataset::open(&dir).unwrap();
        assert_eq!(ds.len(), 2);
        assert_eq!(ds.clip(1).unwrap(), clip(9));
        assert_eq!(ds.clip(0).unwrap(), clip(1));
        assert!(ds.clip(2).is_err());
        assert!(
            DatasetWriter::create(&dir, meta(), false).is_err(),
            "refuses a non-empty dir"
        );
    }

    #[test]
    fn overwrite_replaces_only_a_dataset() {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path().join("ds");
        let mut w = DatasetWriter::create(&dir, meta(), false).unwrap();
        w.push(&clip(1)).unwrap();
        w.finish().unwrap();
        let mut w = DatasetWriter::create(&dir, meta(), true).unwrap();
        w.push(&clip(5)).unwrap();
        w.finish().unwrap();
        assert_eq!(Dataset::open(&dir).unwrap().clip(0).unwrap(), clip(5));
        // A training run (or anything else) is never replaced, with or without --overwrite.
        let run = d.path().join("run");
        std::fs::create_dir_all(run.join("checkpoint")).unwrap();
        std::fs::write(run.join("notes.txt"), "mine").unwrap();
        for overwrite in [false, true] {
            let err = DatasetWriter::create(&run, meta(), overwrite)
                .err()
                .unwrap()
                .to_string();
            let want = if overwrite {
                "not a `silot rollout` dataset"
            } else {
                "--overwrite"
            };
            assert!(err.contains(want) && err.contains("run`"), "{err}");
        }
        assert!(run.join("notes.txt").exists());
        let file = d.path().join("file");
        std::fs::write(&file, "x").unwrap();
        assert!(DatasetWriter::create(&file, meta(), true).is_err());
        // An empty folder needs no --overwrite.
        let empty = d.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        DatasetWriter::create(&empty, meta(), false)
            .unwrap()
            .finish()
            .unwrap();
        // No temp directories are left beside the datasets.
        let mut names: Vec<String> = std::fs::read_dir(d.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["ds", "empty", "file", "run"]);
    }

    #[test]
    fn truncated_frames_file_is_an_error() {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path().join("ds");
        let mut w = DatasetWriter::create(&dir, meta(), false).unwrap();
        w.push(&clip(3)).unwrap();
        w.finish().unwrap();
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(dir.join("frames.u8"))
            .unwrap();
        f.set_len(10).unwrap();
        let err = Dataset::open(&dir).err().unwrap().to_string();
        assert!(
            err.contains("frames.u8") && err.contains("expected"),
            "{err}"
        );
    }

    #[test]
    fn wrong_shape_rejected() {
        let d = tempfile::tempdir().unwrap();
        let mut w = DatasetWriter::create(&d.path().join("x"), meta(), false).unwrap();
        let bad = Clip {
            frames: Array4::zeros((2, 3, 5, 3)),
            gt: None,
        };
        assert!(w
            .push(&bad)
            .unwrap_err()
            .to_string()
            .contains("does not match"));
    }
}
