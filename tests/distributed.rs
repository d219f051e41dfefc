//! Data-parallel training (issue 47) on the CPU, replicas on threads with the in-process
//! communicator standing in for NCCL: N replicas with B/N clips each make the updates one replica
//! makes with B clips (same losses and weights up to float rounding), and a rank that fails ends
//! every rank with an error naming it while the last complete checkpoint stays loadable.

use candle_core::{Device, Tensor};
use silot::model::LossBreakdown;
use silot::train::distributed::{run_replicas, Communicator, Shard};
use silot::train::Trainer;

use crate::model_util::{cpu_opts, moving_squares, smoke_cfg};

/// Global batch.
const B: usize = 4;
/// Updates compared: past the smoke config's 5 training-wheel steps, with T = 2 frames (the
/// curriculum's start), so discovery dropout runs at t = 1.
const STEPS: usize = 7;

/// The global batch of step `s`: `(B, 4, 3, 24, 24)` clips and `(B, 2)` crop offsets (distinct
/// per row, so a replica given another replica's rows would differ).
fn batch(s: usize) -> (Tensor, Tensor) {
    let clip = moving_squares(B, 4, 24, 24, 100 + s as u64);
    let off: Vec<f32> = (0..B * 2).map(|i| ((i * 3 + s) % 5) as f32).collect();
    (clip, Tensor::from_vec(off, (B, 2), &Device::Cpu).unwrap())
}

fn weights(tr: &Trainer) -> Vec<Vec<f32>> {
    tr.vars()
        .iter()
        .map(|(_, v)| v.as_tensor().flatten_all().unwrap().to_vec1().unwrap())
        .collect()
}

struct Run {
    losses: Vec<LossBreakdown>,
    grad_norms: Vec<f64>,
    weights: Vec<Vec<f32>>,
}

fn single() -> Run {
    let mut tr = Trainer::new(&smoke_cfg(), &Device::Cpu).unwrap();
    let (mut losses, mut grad_norms) = (Vec::new(), Vec::new());
    for s in 0..STEPS {
        let (clip, off) = batch(s);
        let st = tr.train_step(&clip, &off).unwrap();
        losses.push(st.loss);
        grad_norms.push(st.grad_norm);
    }
    Run {
        losses,
        grad_norms,
        weights: weights(&tr),
    }
}

/// One replica of `world`: its rows of every global batch. The replicas' trainers are built from
/// different seeds (rank 0's is the run's): the broadcast from rank 0 must make them equal.
/// `wrong_noise`: every replica draws the noise of rows `0 .. B/N` (the negative control).
fn replica(rank: usize, comm: &dyn Communicator, wrong_noise: bool) -> silot::Result<Run> {
    let mut cfg = smoke_cfg();
    cfg.train.seed += rank as u64 * 1000;
    let mut tr = Trainer::new(&cfg, &Device::Cpu)?;
    cfg.train.seed -= rank as u64 * 1000;
    tr.cfg = cfg; // the step's noise comes from the run's seed, the same on every rank
    tr.sync_from_root(comm)?;
    let shard = Shard::of_rank(rank, comm.world_size(), B)?;
    let noise_shard = if wrong_noise {
        Shard { offset: 0, ..shard }
    } else {
        shard
    };
    let (mut losses, mut grad_norms) = (Vec::new(), Vec::new());
    for s in 0..STEPS {
        let (clip, off) = batch(s);
        let clip = clip.narrow(0, shard.offset, shard.rows)?;
        let off = off.narrow(0, shard.offset, shard.rows)?;
        let st = tr.train_step_replica(&clip, &off, comm, noise_shard)?;
        losses.push(st.loss);
        grad_norms.push(st.grad_norm);
    }
    Ok(Run {
        losses,
        grad_norms,
        weights: weights(&tr),
    })
}

fn replicas(world: usize, wrong_noise: bool) -> Vec<Run> {
    run_replicas(world, |rank, comm| replica(rank, comm, wrong_noise))
        .into_iter()
        .map(|r| r.unwrap())
        .collect()
}

fn max_rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / a.abs().max(b.abs()).max(1e-12)
}

/// The largest relative difference of the loss terms over the steps.
fn loss_diff(a: &Run, b: &Run) -> f64 {
    let mut e = 0f64;
    for (x, y) in a.losses.iter().zip(&b.losses) {
        for ((_, u), (_, v)) in x.terms().iter().zip(y.terms()) {
            e = e.max(max_rel(*u, v));
        }
    }
    e
}

/// The largest difference of the parameters' updates relative to the update's size, over the
/// parameters: `‖(w_a − w0) − (w_b − w0)‖ / ‖w_a − w0‖` per parameter tensor.
fn update_diff(a: &Run, b: &Run, init: &[Vec<f32>]) -> f64 {
    let mut e = 0f64;
    for ((wa, wb), w0) in a.weights.iter().zip(&b.weights).zip(init) {
        let (mut d, mut u) = (0f64, 0f64);
        for ((x, y), z) in wa.iter().zip(wb).zip(w0) {
            d += ((x - y) as f64).powi(2);
            u += ((x - z) as f64).powi(2);
        }
        if u > 0.0 {
            e = e.max((d / u).sqrt());
        }
    }
    e
}

/// N replicas with B/N clips each against one with B: every rank ends with bit-identical
/// weights (they apply the same averaged gradient), and the replicas' losses, gradient norms
/// and updates equal the single replica's up to float rounding; one replica through the
/// data-parallel path (N = 1) is bit-identical to the plain path.
///
/// Tolerances, and why: a shard sums other rows before its mean and the CPU kernels block B/N
/// rows differently from B, so the loss terms and gradients differ in the last bits of f32
/// (~1e-6 relative: the smoke model's learned-prior KL starts near 1e7, where one f32 ulp is 1).
/// Adam divides by √v, so a gradient element near zero (cancellation: its rounding error is
/// large relative to itself) moves by up to lr = 1e-2 whatever its size, and 7 steps at that
/// learning rate compound it; the first steps after the training wheels (steps 5–6) add new
/// gradient paths into the backbone. Measured here (2 cores): loss terms ≤ 7e-6 relative, gradient
/// norms ≤ 7.1e-5 relative, per-tensor updates ≤ 8.3e-3 relative (N = 4; ≤ 1e-4 for N = 2);
/// the bounds below leave 3–7x room. The negative control (every replica drawing rows 0..B/N's
/// noise) is off by far more (checked), so the bounds do test the noise sharding.
#[test]
fn replicas_on_shards_make_the_updates_of_one_replica_on_the_whole_batch() {
    let one = single();
    let init = weights(&Trainer::new(&smoke_cfg(), &Device::Cpu).unwrap());
    let alone = replicas(1, false);
    assert_eq!(alone[0].losses, one.losses);
    assert_eq!(alone[0].grad_norms, one.grad_norms);
    assert!(
        alone[0].weights == one.weights,
        "N = 1 is not bit-identical"
    );
    for world in [2, 4] {
        let runs = replicas(world, false);
        for r in &runs[1..] {
            assert!(r.weights == runs[0].weights, "ranks disagree (N = {world})");
            assert_eq!(r.losses, runs[0].losses);
        }
        let got = &runs[0];
        let loss_err = loss_diff(&one, got);
        let norm_err = one
            .grad_norms
            .iter()
            .zip(&got.grad_norms)
            .map(|(a, b)| max_rel(*a, *b))
            .fold(0f64, f64::max);
        let upd_err = update_diff(&one, got, &init);
        eprintln!(
            "N = {world}: loss terms max rel diff {loss_err:.2e}, grad norm {norm_err:.2e}, updates {upd_err:.2e}"
        );
        assert!(
            loss_err < 5e-5,
            "N = {world}: loss terms differ by {loss_err}"
        );
        assert!(
            norm_err < 5e-4,
            "N = {world}: grad norms differ by {norm_err}"
        );
        assert!(upd_err < 3e-2, "N = {world}: updates differ by {upd_err}");
    }
    let wrong = &replicas(2, true)[0];
    let (loss_err, upd_err) = (loss_diff(&one, wrong), update_diff(&one, wrong, &init));
    eprintln!("N = 2, wrong noise rows: loss terms {loss_err:.2e}, updates {upd_err:.2e}");
    assert!(loss_err > 1e-3 && upd_err > 0.1, "{loss_err} {upd_err}");
}

/// Rank 1 fails at step 3: rank 0 (which saves a checkpoint after every 2 steps) ends with an
/// error naming rank 1 and its error, instead of waiting for it, and the checkpoint of step 2 is
/// complete and holds the weights of step 2.
#[test]
fn a_failing_rank_ends_every_rank_and_the_last_checkpoint_stays() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("checkpoint");
    let saved = std::sync::Mutex::new(Vec::new());
    let out = run_replicas(2, |rank, comm| -> silot::Result<()> {
        let mut tr = Trainer::new(&smoke_cfg(), &Device::Cpu)?;
        tr.sync_from_root(comm)?;
        let shard = Shard::of_rank(rank, 2, B)?;
        for s in 0..STEPS {
            if rank == 1 && s == 3 {
                return Err(silot::Error::Invalid("injected failure".into()));
            }
            let (clip, off) = batch(s);
            let clip = clip.narrow(0, shard.offset, shard.rows)?;
            let off = off.narrow(0, shard.offset, shard.rows)?;
            tr.train_step_replica(&clip, &off, comm, shard)?;
            if rank == 0 && tr.progress.global_step % 2 == 0 {
                tr.save(&ckpt)?;
                *saved.lock().unwrap() = weights(&tr);
            }
        }
        Ok(())
    });
    let errs: Vec<String> = out
        .into_iter()
        .map(|r| r.unwrap_err().to_string())
        .collect();
    assert!(errs[1].contains("injected failure"), "{}", errs[1]);
    assert!(
        errs[0].contains("rank 1 failed") && errs[0].contains("injected failure"),
        "{}",
        errs[0]
    );
    let mut tr = Trainer::new(&smoke_cfg(), &Device::Cpu).unwrap();
    tr.load(&ckpt).unwrap();
    assert_eq!(tr.progress.global_step, 2);
    assert!(weights(&tr) == *saved.lock().unwrap());
    // The ranks start from rank 0's parameters even when built differently; a rank resumed at
    // another step is refused on every rank.
    let out = run_replicas(2, |rank, comm| -> silot::Result<()> {
        let mut tr = Trainer::new(&smoke_cfg(), &Device::Cpu)?;
        if rank == 1 {
            tr.load(&ckpt)?;
        }
        tr.sync_from_root(comm)
    });
    assert!(out.iter().all(|r| r.is_err()), "{out:?}");
}

/// Clips drawn from the step's data stream (so the ranks, seeded apart, train on different
/// clips); `fail_at`: the call (0-based) that fails.
struct RandomSquares {
    calls: u64,
    fail_at: Option<u64>,
}

impl silot::train::source::ClipSource for RandomSquares {
    fn next_batch(
        &mut self,
        spec: &silot::train::source::ClipSpec,
        rng: &mut silot::rng::SeededRng,
    ) -> silot::Result<silot::train::source::ClipBatch> {
        let call = self.calls;
        self.calls += 1;
        if self.fail_at == Some(call) {
            return Err(silot::Error::Invalid("injected source failure".into()));
        }
        let (b, t) = (spec.batch, spec.n_frames);
        let x = moving_squares(b, t, 24, 24, rng.next_u64() % 1000);
        let v: Vec<f32> = x.permute((0, 1, 3, 4, 2))?.flatten_all()?.to_vec1()?;
        let bytes: Vec<u8> = v.iter().map(|f| (f * 255.0).round() as u8).collect();
        Ok(silot::train::source::ClipBatch {
            frames: ndarray::Array5::from_shape_vec((b, t, 24, 24, 3), bytes).unwrap(),
            offsets: vec![[0.0, 0.0]; b],
            positions: None,
        })
    }
}

/// `world` replicas of `train::run_replica` into `dir` up to `steps`; rank `fail.0`'s source
/// fails at its call `fail.1`.
fn run_world(
    world: usize,
    cfg: &silot::model::config::RunConfig,
    dir: &std::path::Path,
    steps: u64,
    fail: Option<(usize, u64)>,
) -> Vec<silot::Result<silot::train::TrainSummary>> {
    run_replicas(world, |rank, comm| {
        let mut source = RandomSquares {
            calls: 0,
            fail_at: fail.filter(|f| f.0 == rank).map(|f| f.1),
        };
        let mut val = RandomSquares {
            calls: 0,
            fail_at: None,
        };
        let mut validator = silot::train::LossValidator::from_source(cfg, &mut val)?;
        silot::train::run_replica(
            cfg,
            dir,
            &mut source,
            &mut validator,
            cpu_opts(Some(steps)),
            comm,
        )
    })
}

/// The training loop with two replicas: rank 0 alone writes the run directory (each step's
/// metrics once, the validation, best/ and the checkpoints), a resume goes on from the
/// checkpoint, a rank whose source fails ends both with an error naming it and leaves the last
/// checkpoint, from which the same command then finishes the run.
#[test]
fn two_replica_runs_write_once_resume_and_survive_a_failed_rank() {
    let mut cfg = smoke_cfg();
    cfg.train.steps = 12;
    cfg.train.patience_start = 10;
    let dir = tempfile::tempdir().unwrap();
    for s in run_world(2, &cfg, dir.path(), 6, None) {
        assert_eq!(s.unwrap().steps, 6);
    }
    // Rank 1's source fails at its 3rd batch after the resume (step 9).
    let out = run_world(2, &cfg, dir.path(), 12, Some((1, 2)));
    let errs: Vec<String> = out
        .into_iter()
        .map(|r| r.unwrap_err().to_string())
        .collect();
    assert!(errs[1].contains("injected source failure"), "{}", errs[1]);
    assert!(
        errs[0].contains("rank 1 failed") && errs[0].contains("injected source failure"),
        "{}",
        errs[0]
    );
    let state = std::fs::read_to_string(dir.path().join("checkpoint/state.json")).unwrap();
    assert!(state.contains("\"step\": 6"), "{state}");
    let summaries: Vec<_> = run_world(2, &cfg, dir.path(), 12, None)
        .into_iter()
        .map(|r| r.unwrap())
        .collect();
    assert_eq!((summaries[0].steps, summaries[0].steps_this_run), (12, 6));
    assert_eq!(summaries[1].steps, 12);
    let recs = silot::train::metrics_log::read_metrics(&dir.path().join("metrics.jsonl")).unwrap();
    let train_steps: Vec<u64> = recs
        .iter()
        .filter(|r| r.kind == "train")
        .map(|r| r.step)
        .collect();
    assert_eq!(train_steps, (1..=12).collect::<Vec<_>>());
    assert_eq!(
        recs.iter()
            .filter(|r| r.kind == "val")
            .map(|r| r.step)
            .collect::<Vec<_>>(),
        vec![10]
    );
    let best = std::fs::read_to_string(dir.path().join("best/state.json")).unwrap();
    assert!(best.contains("\"step\": 10"), "{best}");
    // A batch that does not split into equal shards is refused on every rank.
    cfg.train.batch_size = 3;
    let other = tempfile::tempdir().unwrap();
    assert!(run_world(2, &cfg, other.path(), 2, None)
        .iter()
        .all(|r| r.is_err()));
}

/// `Trainer::adopt_from_root`: a rank that read no checkpoint (another seed, stage 1, step 0)
/// takes rank 0's progress (stage 2, its step and early-stopping record), parameters and Adam
/// state, bit for bit.
#[test]
fn a_rank_adopts_rank_0s_progress_weights_and_adam_state() {
    let out = run_replicas(2, |rank, comm| {
        let mut cfg = smoke_cfg();
        cfg.train.seed += rank as u64;
        let mut tr = Trainer::new(&cfg, &Device::Cpu)?;
        if rank == 0 {
            let (clip, off) = batch(0);
            tr.train_step(&clip, &off)?;
            tr.next_stage(std::path::Path::new("/nonexistent"))?;
            tr.train_step(&clip, &off)?;
        }
        tr.adopt_from_root(comm)?;
        let adam: Vec<Vec<f32>> = tr
            .adam
            .state()
            .iter()
            .map(|(_, t)| {
                t.flatten_all()?
                    .to_dtype(candle_core::DType::F32)?
                    .to_vec1()
            })
            .collect::<candle_core::Result<_>>()?;
        Ok((tr.progress.clone(), weights(&tr), adam))
    });
    let out: Vec<_> = out.into_iter().map(|r| r.unwrap()).collect();
    assert_eq!(out[0].0.stage, 1);
    assert_eq!(out[0].0.global_step, 2);
    assert_eq!(out[1].0, out[0].0);
    assert!(out[1].1 == out[0].1, "weights differ");
    assert!(out[1].2 == out[0].2, "Adam state differs");
}

/// A stage ended by `max_stage_steps` in the middle of a two-replica run: rank 0 alone reads
/// best/, the other rank adopts its state, and both go on in stage 2.
#[test]
fn two_replicas_move_to_the_next_stage_together() {
    let mut cfg = smoke_cfg();
    cfg.train.steps = 6;
    cfg.train.eval_every = 2;
    cfg.train.patience_start = 0;
    cfg.train.max_stage_steps = Some(silot::model::config::StageSteps::PerStage(vec![3]));
    let dir = tempfile::tempdir().unwrap();
    for s in run_world(2, &cfg, dir.path(), 6, None) {
        let s = s.unwrap();
        assert_eq!((s.steps, s.stage), (6, 1));
    }
    let recs = silot::train::metrics_log::read_metrics(&dir.path().join("metrics.jsonl")).unwrap();
    let stages: Vec<usize> = recs
        .iter()
        .filter(|r| r.kind == "train")
        .map(|r| r.stage)
        .collect();
    assert_eq!(stages, vec![0, 0, 0, 1, 1, 1]);
}
