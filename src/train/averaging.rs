//! Checkpoint averaging: the mean of the weights of several checkpoints of one run (weight
//! averaging over the end of a run, as in stochastic weight averaging). Not in the reference.
//!
//! Short runs end at an arbitrary point of a noisy trajectory: on Space Invaders, ten more steps
//! moved the tracking scores of a 30-minute model by as much as the recipes being compared
//! (`benches/results/cuda_train_space_invaders_session10.md`). The mean of nearby checkpoints
//! is one model that does not depend on where the run happened to stop.

use std::path::{Path, PathBuf};

use candle_core::{DType, Tensor};
use serde::Serialize;

use crate::checkpoint::{
    ckpt_err, read_files, read_optimizer, same_model_section, serialize, write_files,
    CheckpointFiles, CONFIG_FILE, OPTIMIZER_FILE, TRAINING_ONLY_MODEL_KEYS, WEIGHTS_FILE,
};
use crate::error::{Error, Result};

/// One input of an average, as recorded in the result's `state.json` (`extra.averaged_from`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AveragedInput {
    /// The checkpoint directory.
    pub checkpoint: PathBuf,
    /// Its step.
    pub step: u64,
}

/// What [`average_checkpoints`] wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct Averaged {
    /// The checkpoints averaged, in the order given.
    pub inputs: Vec<AveragedInput>,
    /// Whether the result holds the last input's Adam state: not when that input has none (a
    /// checkpoint brought back weights-only, or a packed model); such a result resumes with Adam
    /// afresh (`silot train --reset-optimizer`).
    pub with_optimizer: bool,
}

/// Writes into `out` a checkpoint whose weights are the mean of those of the checkpoints in
/// `dirs` (all of the first one's `[model]` and variables), with the last one's config, Adam state
/// (if it has one), step and progress, and the inputs listed under `extra.averaged_from`. `out`
/// must not be one of `dirs`; its files are written atomically.
pub fn average_checkpoints(dirs: &[PathBuf], out: &Path) -> Result<Averaged> {
    let (first_dir, last_dir) = match (dirs.first(), dirs.last()) {
        (Some(f), Some(l)) => (f, l),
        _ => {
            return Err(Error::Invalid(
                "nothing to average: give at least one checkpoint directory".into(),
            ))
        }
    };
    if dirs.iter().any(|d| same_dir(d, out)) {
        return Err(Error::Invalid(format!(
            "the output `{}` is one of the checkpoints to average; write the average elsewhere",
            out.display()
        )));
    }
    // Every input is read once; the first one fixes the model, the variables and their shapes.
    let first = read_files(first_dir)?;
    let mut names: Vec<String> = first.weights.keys().cloned().collect();
    names.sort();
    let kinds: Vec<(Vec<usize>, DType)> = names
        .iter()
        .map(|n| (first.weights[n].dims().to_vec(), first.weights[n].dtype()))
        .collect();
    let mut sums: Vec<Tensor> = Vec::with_capacity(names.len());
    add_weights(&mut sums, &names, &kinds, &first, first_dir)?;
    let mut inputs = vec![AveragedInput {
        checkpoint: first_dir.clone(),
        step: first.step,
    }];
    let mut later = None;
    for dir in &dirs[1..] {
        let ck = read_files(dir)?;
        same_model_section(
            &ck.config_path,
            &ck.config_toml,
            &first.config_toml,
            TRAINING_ONLY_MODEL_KEYS,
        )?;
        if let (Some(a), Some(b)) = (&first.env, &ck.env) {
            if a != b {
                return Err(ckpt_err(
                    dir,
                    format!("trained on {b}, the first checkpoint on {a}; average checkpoints of one run"),
                ));
            }
        }
        add_weights(&mut sums, &names, &kinds, &ck, dir)?;
        inputs.push(AveragedInput {
            checkpoint: dir.clone(),
            step: ck.step,
        });
        later = Some(ck);
    }
    let last = later.as_ref().unwrap_or(&first);
    let n = dirs.len() as f64;
    let mean = names
        .iter()
        .zip(&sums)
        .zip(&kinds)
        .map(|((name, s), (_, dtype))| {
            Ok((name.clone(), s.affine(1.0 / n, 0.0)?.to_dtype(*dtype)?))
        })
        .collect::<Result<Vec<_>>>()?;
    let mut extra = last.extra.clone();
    if let Some(map) = extra.as_object_mut() {
        let list = serde_json::to_value(&inputs)
            .map_err(|e| Error::Invalid(format!("cannot record the inputs: {e}")))?;
        map.insert("averaged_from".into(), list);
    }
    let mut files = vec![
        (WEIGHTS_FILE, serialize(&mean)?),
        (CONFIG_FILE, last.config_toml.clone().into_bytes()),
    ];
    let optimizer = read_optimizer(last_dir)?;
    let with_optimizer = optimizer.is_some();
    if let Some(bytes) = optimizer {
        files.push((OPTIMIZER_FILE, bytes));
    }
    write_files(out, &files, last.step, extra, last.env.as_ref())?;
    Ok(Averaged {
        inputs,
        with_optimizer,
    })
}

/// Adds the weights of `ck` (from `dir`) to `sums` (in f64, so that the order of the inputs does
/// not matter to f32 precision; the first call fills `sums`), after checking that they are
/// exactly the variables `names` with the shapes of `kinds`.
fn add_weights(
    sums: &mut Vec<Tensor>,
    names: &[String],
    kinds: &[(Vec<usize>, DType)],
    ck: &CheckpointFiles,
    dir: &Path,
) -> Result<()> {
    if ck.weights.len() != names.len() {
        return Err(ckpt_err(
            dir,
            format!(
                "holds {} variables, the first checkpoint {}; average checkpoints of one model version",
                ck.weights.len(),
                names.len()
            ),
        ));
    }
    for (i, (name, (shape, _))) in names.iter().zip(kinds).enumerate() {
        let t = ck
            .weights
            .get(name)
            .ok_or_else(|| ckpt_err(dir, format!("variable `{name}` is missing")))?;
        if t.dims() != shape.as_slice() {
            return Err(ckpt_err(
                dir,
                format!(
                    "`{name}` has shape {:?} here, {shape:?} in the first checkpoint",
                    t.dims()
                ),
            ));
        }
        let t = t.to_dtype(DType::F64)?;
        match sums.get_mut(i) {
            Some(s) => *s = (&*s + &t)?,
            None => sums.push(t),
        }
    }
    Ok(())
}

/// Whether two paths name the same directory (compared canonically where both exist).
/// Whether `a` and `b` name the same directory.
pub(crate) fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::config::RunConfig;
    use crate::train::Trainer;
    use candle_core::Device;

    fn smoke() -> RunConfig {
        RunConfig::from_toml(include_str!("../../envs/smoke.toml"), "envs/smoke.toml").unwrap()
    }

    fn weights(dir: &Path) -> std::collections::HashMap<String, Tensor> {
        read_files(dir).unwrap().weights
    }

    /// Two checkpoints of one run, three steps apart (a, b), under `root`.
    fn two_checkpoints(root: &Path) -> (PathBuf, PathBuf) {
        let cfg = smoke();
        let dev = Device::Cpu;
        let mut tr = Trainer::new(&cfg, &dev).unwrap();
        let (a, b) = (root.join("a"), root.join("b"));
        let clip = Tensor::rand(0f32, 1f32, (2, 2, 3, 24, 24), &dev).unwrap();
        let off = Tensor::zeros((2, 2), DType::F32, &dev).unwrap();
        tr.train_step(&clip, &off).unwrap();
        tr.save(&a).unwrap();
        for _ in 0..3 {
            tr.train_step(&clip, &off).unwrap();
        }
        tr.save(&b).unwrap();
        (a, b)
    }

    #[test]
    fn mean_of_two_checkpoints_loads_as_the_last_one() {
        let root = tempfile::tempdir().unwrap();
        let (a, b) = two_checkpoints(root.path());
        let out = root.path().join("avg");
        let avg = average_checkpoints(&[a.clone(), b.clone()], &out).unwrap();
        assert_eq!(
            avg.inputs.iter().map(|i| i.step).collect::<Vec<_>>(),
            vec![1, 4]
        );
        assert!(avg.with_optimizer);
        let (wa, wb, wm) = (weights(&a), weights(&b), weights(&out));
        let mut moved = 0usize;
        for (name, m) in &wm {
            let (x, y) = (&wa[name], &wb[name]);
            let expected = ((x + y).unwrap() * 0.5).unwrap();
            let err = (m - &expected).unwrap().abs().unwrap().max_all().unwrap();
            assert!(err.to_scalar::<f32>().unwrap() < 1e-6, "{name}");
            let d = (x - y).unwrap().abs().unwrap().max_all().unwrap();
            moved += usize::from(d.to_scalar::<f32>().unwrap() > 0.0);
        }
        assert!(moved > 0, "the two checkpoints should differ");
        // The result is a checkpoint of the run: it resumes (config, Adam, progress of b).
        let mut tr = Trainer::new(&smoke(), &Device::Cpu).unwrap();
        tr.load(&out).unwrap();
        assert_eq!(tr.progress.global_step, 4);
        let state = std::fs::read_to_string(out.join("state.json")).unwrap();
        assert!(state.contains("averaged_from"), "{state}");
        // One input: its weights unchanged.
        let single = root.path().join("single");
        average_checkpoints(std::slice::from_ref(&b), &single).unwrap();
        assert_eq!(
            std::fs::read(single.join(WEIGHTS_FILE)).unwrap(),
            std::fs::read(b.join(WEIGHTS_FILE)).unwrap()
        );
    }

    #[test]
    fn weights_only_last_input_gives_a_weights_only_average() {
        let root = tempfile::tempdir().unwrap();
        let (a, b) = two_checkpoints(root.path());
        // As a run brought back without Adam: state.json still lists the file, which is absent.
        std::fs::remove_file(b.join(OPTIMIZER_FILE)).unwrap();
        let out = root.path().join("avg");
        let avg = average_checkpoints(&[a.clone(), b.clone()], &out).unwrap();
        assert!(!avg.with_optimizer);
        assert!(!out.join(OPTIMIZER_FILE).exists());
        let (wa, wb, wm) = (weights(&a), weights(&b), weights(&out));
        for (name, m) in &wm {
            let expected = ((&wa[name] + &wb[name]).unwrap() * 0.5).unwrap();
            let err = (m - &expected).unwrap().abs().unwrap().max_all().unwrap();
            assert!(err.to_scalar::<f32>().unwrap() < 1e-6, "{name}");
        }
        let mut tr = Trainer::new(&smoke(), &Device::Cpu).unwrap();
        let err = tr.load(&out).unwrap_err().to_string();
        assert!(err.contains("--reset-optimizer"), "{err}");
        tr.load_with(&out, false).unwrap();
        assert_eq!(tr.progress.global_step, 4);
        // Adam comes from the last input only: a weights-only first input does not matter.
        let out2 = root.path().join("avg2");
        assert!(average_checkpoints(&[b, a], &out2).unwrap().with_optimizer);
    }

    #[test]
    fn refuses_other_models_an_input_as_output_and_nothing() {
        let root = tempfile::tempdir().unwrap();
        let (a, b) = two_checkpoints(root.path());
        let err = average_checkpoints(&[a.clone(), b.clone()], &a).unwrap_err();
        assert!(err.to_string().contains("one of the checkpoints"), "{err}");
        let err = average_checkpoints(&[], &root.path().join("x")).unwrap_err();
        assert!(err.to_string().contains("at least one"), "{err}");
        let mut other = smoke();
        other.model.n_hidden += 1;
        let tr = Trainer::new(&other, &Device::Cpu).unwrap();
        let c = root.path().join("c");
        tr.save(&c).unwrap();
        let err = average_checkpoints(&[a, c], &root.path().join("y")).unwrap_err();
        assert!(err.to_string().contains("model.n_hidden"), "{err}");
        assert!(!root.path().join("y").exists());
    }
}
