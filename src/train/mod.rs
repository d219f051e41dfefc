//! Training SILOT (reference §4.6–§4.8): Adam + global-norm clipping (+ gradient noise in stage 1),
//! the frames curriculum, training wheels, count-prior annealing, and three stages of early
//! stopping with rollback to the best checkpoint and the learning rate divided by 3.
//!
//! [`run`] is the entry point: it writes `RUNDIR/config.toml`, appends `RUNDIR/metrics.jsonl`,
//! keeps the latest checkpoint in `RUNDIR/checkpoint/` and the best one in `RUNDIR/best/`, and
//! resumes from `RUNDIR` if it already holds a checkpoint. Every checkpoint is saved as an atomic
//! set ([`checkpoint`]): a kill at any instant leaves a checkpoint the same command resumes from.
//! A resume first drops the `metrics.jsonl` lines of steps after the checkpoint's (logged before
//! the kill, and logged again), so each step has its lines once.
//!
//! `best/` holds the best validation of the stage its progress record names: a stage's first
//! eligible improvement replaces an earlier stage's. A stage change rolls back to `best/` only
//! when it is of the stage that ends ([`Trainer::next_stage`]); otherwise the current weights go
//! on, never an earlier stage's best.
//!
//! Validation runs every `eval_every` steps through a [`Validator`]: [`run`] uses
//! [`LossValidator`] (`n_val` fixed clips scored by the configured
//! [`StopCriterion`](crate::model::config::StopCriterion), reconstruction or total loss — the
//! code's Atari criterion). The code's MNIST/Shapes criterion (`stop_criterion = "mota"`:
//! `MOTA + prior MOTA` on labelled validation clips) needs ground truth and the evaluation
//! metrics: [`MotaValidator`], through [`run_with_validator`]; [`validator_for`] builds the
//! validator a config asks for, as `silot train` and `silot pretrain` do.

pub mod adam;
pub mod averaging;
pub mod distributed;
pub mod metrics_log;
mod mota;
mod runner;
pub mod schedule;
pub mod source;
mod stream_check;
mod validation;

pub use averaging::{average_checkpoints, Averaged, AveragedInput};
pub use mota::{mota_val_seed, MotaValidator, MOTA_VAL_SEED_BASE};
pub use runner::{run, run_replica, run_with_validator, TrainOptions, TrainSummary};
pub use stream_check::{StreamCheck, StreamChecker, StreamSums, WithStreamCheck};
use validation::ObjectSums;
pub use validation::{
    validator_for, BoxedValidator, LossValidator, MotaScores, ObjectStats, Validation, Validator,
};

use std::path::Path;

use candle_core::{DType, Device, Tensor, Var};
use candle_nn::VarMap;
use serde::{Deserialize, Serialize};

use crate::checkpoint;
use crate::data::ClipPosition;
use crate::error::{Error, Result};
use crate::model::config::RunConfig;
use crate::model::{CarriedState, LossBreakdown, Shard, Silot, StepCtx};
use crate::rng::SeededRng;
use crate::seed::mix_seed;
use adam::{clip_scale, grad_squares, Adam, AdamConfig, GradNorms, GradientNoise};
use distributed::Communicator;
use schedule::EarlyStopping;
use source::ClipBatch;

/// Statistics of one update.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepStats {
    /// Loss terms.
    pub loss: LossBreakdown,
    /// Gradient norm before clipping, over the trained parameters (all of them unless
    /// `train.train_only` names some).
    pub grad_norm: f64,
    /// Frames used.
    pub n_frames: usize,
    /// Learning rate.
    pub lr: f64,
    /// Count-prior log-odds.
    pub count_prior_log_odds: f64,
    /// Clips that started from the objects their stream's previous clip ended with
    /// (`train.streams`; 0 otherwise).
    pub streams_continued: usize,
}

/// Progress of a run, saved in the checkpoint's `extra` JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// Total steps over all stages.
    pub global_step: u64,
    /// Stage (0-based).
    pub stage: usize,
    /// Stage-local step.
    pub stage_step: u64,
    /// Early-stopping state of the stage.
    pub early: EarlyStopping,
    /// All stages done.
    pub finished: bool,
}

/// The training progress saved in a checkpoint's `extra` JSON.
fn progress_of(dir: &Path, meta: &checkpoint::CheckpointMeta) -> Result<Progress> {
    serde_json::from_value(meta.extra.clone()).map_err(|e| Error::Checkpoint {
        path: dir.to_path_buf(),
        msg: format!("state.json `extra` is not a training progress record: {e}"),
    })
}

const NOISE_STREAM: u64 = 1 << 40;
const DATA_STREAM: u64 = 2 << 40;
const VAL_STREAM: u64 = 3 << 40;
/// The data streams of data-parallel ranks other than 0 (`mix_seed(seed, RANK_STREAM + rank)`).
const RANK_STREAM: u64 = 4 << 40;

/// Model, parameters, optimiser and schedule state.
pub struct Trainer {
    /// The run's config.
    pub cfg: RunConfig,
    /// The model.
    pub model: Silot,
    /// Its parameters.
    pub varmap: VarMap,
    /// Optimiser.
    pub adam: Adam,
    /// Schedule state.
    pub progress: Progress,
    /// The env the model trains on, recorded in its checkpoints (`None`: unknown).
    pub env: Option<checkpoint::EnvRecord>,
    vars: Vec<(String, Var)>,
    /// Indices into `vars` of the parameters trained (`train.train_only`; all by default).
    trained: Vec<usize>,
    device: Device,
    /// The last update's per-parameter sums of squared gradients (before clipping), in `vars`
    /// order.
    last_grad_squares: Vec<f64>,
    /// Training on streams (`train.streams`): the objects the last update's clips ended with
    /// (detached) and where those clips lie, for the next batch's clips that continue them.
    /// Not checkpointed: after a resume (when the source's streams restart too) every stream
    /// starts afresh.
    stream_carry: Option<(CarriedState, Vec<ClipPosition>)>,
}

fn sorted_vars(varmap: &VarMap) -> Result<Vec<(String, Var)>> {
    let data = varmap
        .data()
        .lock()
        .map_err(|_| Error::Invalid("parameter map lock poisoned".into()))?;
    let mut v: Vec<(String, Var)> = data.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(v)
}

impl Trainer {
    /// Fresh model from `cfg.train.seed`.
    pub fn new(cfg: &RunConfig, device: &Device) -> Result<Self> {
        cfg.validate()?;
        let (varmap, model) = Silot::build(&cfg.model, cfg.train.seed, DType::F32, device)?;
        let vars = sorted_vars(&varmap)?;
        let trained = trained_indices(&vars, &cfg.train.train_only)?;
        let adam = Adam::new(
            subset(&vars, &trained),
            adam_config(schedule::learning_rate(&cfg.train, 0, 0)),
        )?;
        let t = &cfg.train;
        Ok(Self {
            cfg: cfg.clone(),
            model,
            varmap,
            adam,
            progress: Progress {
                global_step: 0,
                stage: 0,
                stage_step: 0,
                early: EarlyStopping::new(t.patience, schedule::patience_start(t, 0)),
                finished: false,
            },
            env: None,
            vars,
            trained,
            device: device.clone(),
            last_grad_squares: Vec::new(),
            stream_carry: None,
        })
    }

    /// The last update's gradient norms before clipping, in all and per parameter group (the
    /// first two parts of the parameter names): where a large or spiking norm comes from.
    pub fn last_grad_norms(&self) -> GradNorms {
        GradNorms::from_squares(&self.vars, &self.last_grad_squares)
    }

    /// The model's parameters sorted by name.
    pub fn vars(&self) -> &[(String, Var)] {
        &self.vars
    }

    /// One update on a batch `frames (B, T, 3, H, W)`, `offsets (B, 2)` pixels, of independent
    /// clips (every clip starts from the null object set).
    pub fn train_step(&mut self, frames: &Tensor, offsets: &Tensor) -> Result<StepStats> {
        self.train_step_at(frames, offsets, None, None)
    }

    /// One data-parallel update ([`distributed`]): this replica runs rows `shard` of the global
    /// batch (`frames (shard.rows, T, 3, H, W)`, `offsets (shard.rows, 2)`) with those rows'
    /// noise, its gradients and loss terms are averaged over the replicas through `comm`, and the
    /// averaged gradient makes the same update (clipped by its norm) on every replica. With
    /// equal shards (every loss term is a mean over the batch) that is the update of one replica
    /// on the whole batch, up to float rounding; the returned statistics are the global batch's.
    pub fn train_step_replica(
        &mut self,
        frames: &Tensor,
        offsets: &Tensor,
        comm: &dyn Communicator,
        shard: Shard,
    ) -> Result<StepStats> {
        self.train_step_at(frames, offsets, None, Some((comm, shard)))
    }

    /// [`Trainer::train_batch`] as one replica of a data-parallel update
    /// ([`Trainer::train_step_replica`]): `batch` holds this replica's `shard.rows` clips.
    pub fn train_batch_replica(
        &mut self,
        batch: &ClipBatch,
        comm: &dyn Communicator,
        shard: Shard,
    ) -> Result<StepStats> {
        let frames = batch.frames_tensor(&self.device)?;
        let offsets = batch.offsets_tensor(&self.device)?;
        self.train_step_at(
            &frames,
            &offsets,
            batch.positions.as_deref(),
            Some((comm, shard)),
        )
    }

    /// Make every replica start from rank 0's state: its parameters and Adam state are
    /// broadcast and set on the other ranks. The ranks' progress records must agree (each
    /// loaded the same checkpoint, or none): a rank at another step is an error on every rank.
    pub fn sync_from_root(&mut self, comm: &dyn Communicator) -> Result<()> {
        // Every rank compares its step with rank 0's; any mismatch fails every rank.
        let s = self.progress.global_step as f64;
        let at = |x: f64| Tensor::new(&[x], &self.device);
        let root_step = comm.broadcast(&[at(s)?], 0)?[0].to_vec1::<f64>()?[0];
        let differs = comm.all_reduce_mean(&[at(f64::from(u8::from(root_step != s)))?])?[0]
            .to_vec1::<f64>()?[0];
        if differs > 0.0 {
            return Err(Error::Invalid(format!(
                "the replicas are not all at one step (rank {} at step {s}, rank 0 at step {root_step}): every rank must resume from the same checkpoint",
                comm.rank()
            )));
        }
        self.broadcast_weights_and_adam(comm)
    }

    /// Make this rank rank 0's trainer without reading any file: rank 0's progress record (as
    /// JSON bytes), parameters and Adam state are broadcast, and every other rank takes them
    /// (with a fresh Adam of rank 0's stage first, whose state is then overwritten). For ranks
    /// that did not open the run's checkpoint themselves (other hosts, no shared file system),
    /// and after rank 0 alone moved to the next stage.
    pub fn adopt_from_root(&mut self, comm: &dyn Communicator) -> Result<()> {
        let root = comm.rank() == 0;
        let json = if root {
            serde_json::to_vec(&self.progress)
                .map_err(|e| Error::Invalid(format!("progress record to JSON: {e}")))?
        } else {
            Vec::new()
        };
        let bytes = distributed::broadcast_bytes(comm, &json, 0)?;
        if !root {
            let p: Progress = serde_json::from_slice(&bytes).map_err(|e| {
                Error::Invalid(format!("rank 0's progress record does not parse: {e}"))
            })?;
            let t = &self.cfg.train;
            self.adam = Adam::new(
                subset(&self.vars, &self.trained),
                adam_config(schedule::learning_rate(t, p.stage, 0)),
            )?;
            self.stream_carry = None;
            self.progress = p;
        }
        self.broadcast_weights_and_adam(comm)
    }

    /// Rank 0's parameters and Adam state, set on every other rank.
    fn broadcast_weights_and_adam(&mut self, comm: &dyn Communicator) -> Result<()> {
        let adam_state = self.adam.state();
        let mut tensors: Vec<Tensor> = self
            .vars
            .iter()
            .map(|(_, v)| v.as_tensor().clone())
            .collect();
        tensors.extend(adam_state.iter().map(|(_, t)| t.clone()));
        let got = comm.broadcast(&tensors, 0)?;
        if comm.rank() != 0 {
            let (params, opt) = got.split_at(self.vars.len());
            for ((_, var), t) in self.vars.iter().zip(params) {
                var.set(t)?;
            }
            let state = adam_state
                .iter()
                .zip(opt)
                .map(|((n, _), t)| (n.clone(), t.clone()))
                .collect();
            self.adam.load_state(&state)?;
        }
        Ok(())
    }

    /// One update on `batch`; with `train.streams`, its clips that continue the last update's
    /// ([`ClipBatch::positions`]) start from the objects those ended with
    /// ([`Silot::continue_streams`]).
    pub fn train_batch(&mut self, batch: &ClipBatch) -> Result<StepStats> {
        let frames = batch.frames_tensor(&self.device)?;
        let offsets = batch.offsets_tensor(&self.device)?;
        self.train_step_at(&frames, &offsets, batch.positions.as_deref(), None)
    }

    /// Forget the objects the last update's clips ended with: the next batch's clips start from
    /// the null set (training on streams, at the start of new streams).
    pub fn end_streams(&mut self) {
        self.stream_carry = None;
    }

    /// The clips of this batch that continue the last update's, if training on streams.
    fn continues(&self, positions: Option<&[ClipPosition]>) -> Option<Vec<bool>> {
        let (_, prev) = self.stream_carry.as_ref()?;
        let now = positions?;
        (self.cfg.train.streams && prev.len() == now.len()).then(|| {
            prev.iter()
                .zip(now)
                .map(|(p, q)| p.is_followed_by(q))
                .collect()
        })
    }

    fn train_step_at(
        &mut self,
        frames: &Tensor,
        offsets: &Tensor,
        positions: Option<&[ClipPosition]>,
        replica: Option<(&dyn Communicator, Shard)>,
    ) -> Result<StepStats> {
        let t = &self.cfg.train;
        let (stage, step) = (self.progress.stage, self.progress.stage_step);
        let n_frames = schedule::n_frames(t, stage, step);
        let lr = schedule::learning_rate(t, stage, step);
        let count = schedule::count_prior_log_odds(t, stage, step);
        let mut ctx = StepCtx {
            rng: SeededRng::new(mix_seed(t.seed, NOISE_STREAM + self.progress.global_step)),
            training: true,
            training_wheels: schedule::training_wheels(t, stage, step),
            count_prior_log_odds: count,
            prior_start: None,
            compute_loss: true,
            reconstruct: true,
            shard: replica.map(|(_, s)| s),
        };
        let b = frames.dim(0)?;
        if let Some((_, s)) = replica {
            if s.rows != b || s.offset + s.rows > s.global {
                return Err(Error::Invalid(format!(
                    "replica batch of {b} clips for shard {s:?} (rows {}..{} of {})",
                    s.offset,
                    s.offset + s.rows,
                    s.global
                )));
            }
        }
        let fresh =
            self.model
                .initial_state(b, self.cfg.model.n_objects, Some(offsets), &self.device)?;
        let continues = self.continues(positions);
        let mut state = match (&continues, &self.stream_carry) {
            (Some(c), Some((carried, _))) => {
                let carry = self.cfg.train.streams_carry;
                self.model.continue_streams(fresh, carried, c, carry)?
            }
            _ => fresh,
        };
        let continued_here = continues
            .as_ref()
            .map_or(0, |c| c.iter().filter(|&&x| x).count());
        let mut streams_continued = continued_here;
        if let (Some((comm, _)), true) = (replica, t.streams) {
            // Discovery dropout goes on (t > 0) only when every clip of the global batch
            // continues, as with one replica: this shard's verdict, combined over the replicas
            // (with the number of continuing clips, for the statistics).
            let all_here = continues.as_ref().is_some_and(|c| c.iter().all(|&x| x));
            let here = [f64::from(u8::from(all_here)), continued_here as f64];
            let mean =
                comm.all_reduce_mean(&[Tensor::new(&here, &Device::Cpu)?])?[0].to_vec1::<f64>()?;
            let world = comm.world_size() as f64;
            if mean[0] < 1.0 - 0.5 / world {
                state.t = 0;
            }
            streams_continued = (mean[1] * world).round() as usize;
        }
        let out = {
            let _span = tracing::trace_span!("forward").entered();
            self.model
                .run_clip(frames, state, &mut ctx, Some(n_frames))?
        };
        // Where the clips end: the frames run (the curriculum may run fewer than given).
        self.stream_carry = match positions {
            Some(p) if self.cfg.train.streams => {
                let ran = n_frames.min(frames.dim(1)?) as u64;
                let ends = p.iter().map(|q| ClipPosition { len: ran, ..*q }).collect();
                Some((out.state.detach(), ends))
            }
            _ => None,
        };
        let total = out.losses.total_with_kl_beta(self.cfg.train.kl_beta)?;
        let mut loss = out.losses.breakdown()?;
        if replica.is_none() && !loss.total.is_finite() {
            return Err(Error::Invalid(format!(
                "non-finite loss at step {} (stage {stage}): {loss:?}; lower train.lr or check the data",
                self.progress.global_step
            )));
        }
        let mut grads = {
            let _span = tracing::trace_span!("backward").entered();
            total.backward()?
        };
        if let Some((comm, _)) = replica {
            let _span = tracing::trace_span!("all_reduce").entered();
            self.average_over_replicas(comm, &mut grads, &mut loss)?;
            if !loss.total.is_finite() {
                return Err(Error::Invalid(format!(
                    "non-finite loss at step {} (stage {stage}): {loss:?}; lower train.lr or check the data",
                    self.progress.global_step
                )));
            }
        }
        let _span = tracing::trace_span!("optimizer").entered();
        self.last_grad_squares = grad_squares(&grads, &self.vars)?;
        // The trained parameters' norm (all of them by default): what clipping scales.
        let grad_norm = self
            .trained
            .iter()
            .map(|&i| self.last_grad_squares[i])
            .sum::<f64>()
            .sqrt();
        if !grad_norm.is_finite() {
            return Err(Error::Invalid(format!(
                "non-finite gradient norm at step {} (stage {stage}); the update was skipped and the last checkpoint is intact: lower train.lr or train.max_grad_norm",
                self.progress.global_step
            )));
        }
        // Clipping (global norm) and the stage-1 gradient noise happen inside the fused update.
        let noise =
            GradientNoise::draw(schedule::gradient_noise_sigma(t, stage, step), &mut ctx.rng);
        self.adam.set_lr(lr);
        self.adam
            .step_with(&grads, clip_scale(grad_norm, t.max_grad_norm), noise)?;
        self.progress.global_step += 1;
        self.progress.stage_step += 1;
        Ok(StepStats {
            loss,
            grad_norm,
            n_frames,
            lr,
            count_prior_log_odds: count,
            streams_continued,
        })
    }

    /// Replace this replica's gradients and loss terms by their means over the replicas: one
    /// all-reduce of every parameter's gradient (zeros where this replica has none: its share of
    /// the sum is zero), a presence flag per parameter (absent on every replica: stays absent)
    /// and the loss terms.
    fn average_over_replicas(
        &self,
        comm: &dyn Communicator,
        grads: &mut candle_core::backprop::GradStore,
        loss: &mut LossBreakdown,
    ) -> Result<()> {
        let n = self.vars.len();
        let mut tensors = Vec::with_capacity(n + 2);
        let mut present = Vec::with_capacity(n);
        for (_, var) in &self.vars {
            match grads.get(var.as_tensor()) {
                Some(g) => {
                    tensors.push(g.clone());
                    present.push(1f32);
                }
                None => {
                    tensors.push(var.as_tensor().zeros_like()?);
                    present.push(0f32);
                }
            }
        }
        tensors.push(Tensor::new(present, &self.device)?);
        let terms = [
            loss.reconstruction,
            loss.prop_kl,
            loss.disc_kl,
            loss.learned_kl,
            loss.learned_pres_kl,
            loss.count_prior_kl,
        ];
        tensors.push(Tensor::new(&terms, &self.device)?);
        let mut mean = comm.all_reduce_mean(&tensors)?;
        let terms = mean.pop().expect("pushed").to_vec1::<f64>()?;
        let present = mean.pop().expect("pushed").to_vec1::<f32>()?;
        for (((_, var), g), p) in self.vars.iter().zip(mean).zip(present) {
            if p > 0.0 {
                grads.insert(var.as_tensor(), g);
            }
        }
        *loss = LossBreakdown {
            reconstruction: terms[0],
            prop_kl: terms[1],
            disc_kl: terms[2],
            learned_kl: terms[3],
            learned_pres_kl: terms[4],
            count_prior_kl: terms[5],
            // As `LossTerms::breakdown` sums them.
            total: terms.iter().sum(),
        };
        Ok(())
    }

    /// The device the model trains on.
    pub fn device(&self) -> &Device {
        &self.device
    }

    /// Mean loss terms over validation batches (all frames, no dropout, no wheels, the stage's
    /// count prior).
    pub fn validate(&self, batches: &[ClipBatch]) -> Result<LossBreakdown> {
        Ok(self.validate_with_objects(batches)?.0)
    }

    /// [`Trainer::validate`] and the [`ObjectStats`] of the objects the model finds there.
    pub fn validate_with_objects(
        &self,
        batches: &[ClipBatch],
    ) -> Result<(LossBreakdown, ObjectStats)> {
        let t = &self.cfg.train;
        let mut acc = LossBreakdown::default();
        let mut objects = ObjectSums::default();
        let mut n = 0usize;
        for (i, batch) in batches.iter().enumerate() {
            let frames = batch.frames_tensor(&self.device)?;
            let offsets = batch.offsets_tensor(&self.device)?;
            let mut ctx = StepCtx::eval(mix_seed(t.val_seed, VAL_STREAM + 1_000_000 + i as u64));
            ctx.count_prior_log_odds =
                schedule::count_prior_log_odds(t, self.progress.stage, self.progress.stage_step);
            let state = self.model.initial_state(
                batch.len(),
                self.cfg.model.n_objects,
                Some(&offsets),
                &self.device,
            )?;
            let out = self.model.run_clip(&frames, state, &mut ctx, None)?;
            objects.add(&out.objects, self.cfg.model.anchor)?;
            let l = out.losses.breakdown()?;
            let w = batch.len() as f64;
            acc.reconstruction += w * l.reconstruction;
            acc.prop_kl += w * l.prop_kl;
            acc.disc_kl += w * l.disc_kl;
            acc.learned_kl += w * l.learned_kl;
            acc.learned_pres_kl += w * l.learned_pres_kl;
            acc.count_prior_kl += w * l.count_prior_kl;
            acc.total += w * l.total;
            n += batch.len();
        }
        let n = n.max(1) as f64;
        let loss = LossBreakdown {
            reconstruction: acc.reconstruction / n,
            prop_kl: acc.prop_kl / n,
            disc_kl: acc.disc_kl / n,
            learned_kl: acc.learned_kl / n,
            learned_pres_kl: acc.learned_pres_kl / n,
            count_prior_kl: acc.count_prior_kl / n,
            total: acc.total / n,
        };
        Ok((loss, objects.stats()))
    }

    /// The [`ObjectStats`] of the objects the model finds on full-frame clips as `silot eval`
    /// runs it: `n_objects_eval` slots, no crop offsets, pure encoding (no losses).
    pub fn full_frame_objects(&self, batches: &[ClipBatch]) -> Result<ObjectStats> {
        let mut objects = ObjectSums::default();
        let k = self.cfg.model.eval_objects();
        for (i, batch) in batches.iter().enumerate() {
            let frames = batch.frames_tensor(&self.device)?; // (B, T, 3, H, W)
            let seed = mix_seed(self.cfg.train.val_seed, VAL_STREAM + 2_000_000 + i as u64);
            let mut ctx = StepCtx::encode(seed);
            let state = self
                .model
                .initial_state(batch.len(), k, None, &self.device)?;
            let out = self.model.run_clip(&frames, state, &mut ctx, None)?;
            objects.add(&out.objects, self.cfg.model.anchor)?;
        }
        Ok(objects.stats())
    }

    /// Save the latest state to `dir` (an atomic set: [`checkpoint`]).
    pub fn save(&self, dir: &Path) -> Result<()> {
        self.save_with(dir, &mut |_| Ok(()))
    }

    /// [`Trainer::save`] with `fault` called before every file-system step
    /// ([`checkpoint::write_set`]): for tests that interrupt a save at every point.
    #[doc(hidden)]
    pub fn save_with(&self, dir: &Path, fault: &mut dyn FnMut(&str) -> Result<()>) -> Result<()> {
        let extra = serde_json::to_value(&self.progress)
            .map_err(|e| Error::Invalid(format!("cannot serialise progress: {e}")))?;
        let weights: Vec<(String, Tensor)> = self
            .vars
            .iter()
            .map(|(n, v)| (n.clone(), v.as_tensor().clone()))
            .collect();
        let files = [
            (checkpoint::WEIGHTS_FILE, checkpoint::serialize(&weights)?),
            (
                checkpoint::OPTIMIZER_FILE,
                checkpoint::serialize(&self.adam.state())?,
            ),
            (checkpoint::CONFIG_FILE, self.cfg.to_toml()?.into_bytes()),
        ];
        checkpoint::write_set(
            dir,
            &files,
            self.progress.global_step,
            extra,
            self.env.as_ref(),
            fault,
        )
    }

    /// Restore parameters, optimiser and progress from `dir` (config must match).
    pub fn load(&mut self, dir: &Path) -> Result<()> {
        self.load_with(dir, true)
    }

    /// Restore parameters and progress from `dir` (config must match), and the optimiser state
    /// too when `with_optimizer` (otherwise Adam starts afresh and its file is not read).
    pub fn load_with(&mut self, dir: &Path, with_optimizer: bool) -> Result<()> {
        let adam = with_optimizer.then_some(&mut self.adam as &mut dyn checkpoint::OptimizerState);
        let meta =
            checkpoint::load_checkpoint(dir, &self.varmap, adam, Some(&self.cfg.to_toml()?))?;
        self.progress = progress_of(dir, &meta)?;
        self.stream_carry = None;
        Ok(())
    }

    /// Start from another run's checkpoint in `dir` under this trainer's config, whose `[model]`
    /// section must be the checkpoint's (apart from [`checkpoint::TRAINING_ONLY_MODEL_KEYS`] and
    /// [`checkpoint::FRAME_GEOMETRY_MODEL_KEYS`]):
    /// its parameters, Adam state and progress (steps, stage, best validation so far), with this
    /// config's schedule from there on (learning rate, batch size, clip length, count prior,
    /// patience). To try a change of `[train]` from a point of an earlier run. Without
    /// `with_optimizer` Adam starts afresh and `dir` needs no `optimizer.safetensors` (a
    /// weights-only checkpoint).
    ///
    /// From a checkpoint that propagates each object alone onto object interaction
    /// (`independent_prop` true → false; Adam afresh): the relation MLP starts from its
    /// initialisation with its last layer zeroed, so the branch starts as the model it came from.
    pub fn branch_from(&mut self, dir: &Path, with_optimizer: bool) -> Result<()> {
        let cfg = self.cfg.to_toml()?;
        let added = checkpoint::check_same_model(dir, &cfg)?;
        let adam = with_optimizer.then_some(&mut self.adam as &mut dyn checkpoint::OptimizerState);
        let (meta, fresh) =
            checkpoint::load_checkpoint_adding(dir, &self.varmap, adam, None, &added)?;
        if !fresh.is_empty() {
            self.model.silence_object_interaction()?;
            tracing::info!(
                variables = fresh.len(),
                "branching onto object interaction: the relation MLP starts with its last layer at zero"
            );
        }
        let mut progress = progress_of(dir, &meta)?;
        let t = &self.cfg.train;
        if progress.stage >= t.n_stages {
            return Err(Error::Checkpoint {
                path: dir.to_path_buf(),
                msg: format!(
                    "the checkpoint is in stage {} but this config has {} stage(s) (train.n_stages)",
                    progress.stage + 1,
                    t.n_stages
                ),
            });
        }
        progress.early.patience = t.patience;
        progress.early.patience_start = schedule::patience_start(t, progress.stage);
        self.progress = progress;
        self.stream_carry = None;
        Ok(())
    }

    /// End the current stage: move to the next one ([`Self::next_stage`]) or, after the last,
    /// mark the run finished.
    pub fn end_stage(&mut self, best_dir: &Path) -> Result<()> {
        if self.progress.stage + 1 >= self.cfg.train.n_stages {
            self.progress.finished = true;
            Ok(())
        } else {
            self.next_stage(best_dir)
        }
    }

    /// Move to the next stage: reload the best weights of this stage (if any), fresh Adam with
    /// lr ÷ divisor, stage-local step 0, fresh early stopping (reference §4.8).
    ///
    /// The rule for `best_dir`: it holds the best validation of the stage its progress record
    /// names (a stage's first improvement overwrites an earlier stage's). The rollback happens
    /// only when that is the stage ending now; weights of an earlier stage (this stage never
    /// improved, e.g. within its patience start) are never reloaded: the current ones go on.
    pub fn next_stage(&mut self, best_dir: &Path) -> Result<()> {
        if checkpoint::exists(best_dir) {
            let best_stage = progress_of(best_dir, &checkpoint::read_meta(best_dir)?)?.stage;
            if best_stage == self.progress.stage {
                checkpoint::load_checkpoint(
                    best_dir,
                    &self.varmap,
                    None,
                    Some(&self.cfg.to_toml()?),
                )?;
            } else {
                tracing::info!(
                    stage = self.progress.stage + 1,
                    "no best checkpoint of this stage (best/ is of stage {}); going on from the current weights",
                    best_stage + 1
                );
            }
        }
        let t = &self.cfg.train;
        self.stream_carry = None;
        self.progress.stage += 1;
        self.progress.stage_step = 0;
        self.progress.early =
            EarlyStopping::new(t.patience, schedule::patience_start(t, self.progress.stage));
        self.adam = Adam::new(
            subset(&self.vars, &self.trained),
            adam_config(schedule::learning_rate(t, self.progress.stage, 0)),
        )?;
        Ok(())
    }
}

/// Indices into `vars` (sorted by name) of the parameters `prefixes` name: a name equal to a
/// prefix or continuing it after a `.`; all of them when `prefixes` is empty. A prefix that names
/// no parameter is an error listing the parameter groups there are.
fn trained_indices(vars: &[(String, Var)], prefixes: &[String]) -> Result<Vec<usize>> {
    if prefixes.is_empty() {
        return Ok((0..vars.len()).collect());
    }
    let named = |name: &str, p: &str| {
        name.strip_prefix(p)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
    };
    for p in prefixes {
        if !vars.iter().any(|(n, _)| named(n, p)) {
            let mut groups: Vec<&str> = vars
                .iter()
                .map(|(n, _)| n.rsplit_once('.').map_or(n.as_str(), |(g, _)| g))
                .collect();
            groups.dedup();
            return Err(Error::Config {
                path: "[train]".into(),
                msg: format!(
                    "`train_only`: `{p}` names no parameter; give whole name parts, e.g. one of: {}",
                    groups.join(", ")
                ),
            });
        }
    }
    Ok((0..vars.len())
        .filter(|&i| prefixes.iter().any(|p| named(&vars[i].0, p)))
        .collect())
}

/// The variables at `indices`.
fn subset(vars: &[(String, Var)], indices: &[usize]) -> Vec<(String, Var)> {
    indices.iter().map(|&i| vars[i].clone()).collect()
}

fn adam_config(lr: f64) -> AdamConfig {
    AdamConfig {
        lr,
        beta1: 0.9,
        beta2: 0.999,
        eps: 1e-8,
    }
}
