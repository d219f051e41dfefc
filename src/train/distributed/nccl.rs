//! [`NcclComm`]: the [`Communicator`] of one GPU per process, through NCCL (the `nccl` feature;
//! cudarc's bindings as candle-core exposes them). Rank 0 creates the NCCL unique id and
//! publishes its 128 bytes over the TCP rendezvous ([`TcpGroup`] at `MASTER_ADDR:MASTER_PORT`),
//! the other ranks read it and every rank joins with `ncclCommInitRank` on candle's stream of its
//! GPU, so NCCL's kernels are ordered with the model's.
//!
//! All-reduce and broadcast go in buckets: the tensors of one dtype are flattened into one
//! contiguous buffer (`Tensor::cat`), reduced (`ncclAvg`) or broadcast in one NCCL call, and cut
//! back into the tensors' shapes. The TCP group stays open as the control channel: collectives
//! of host tensors only (the training loop's flags, a progress record, a pretrain job: every rank
//! makes the same call with tensors on the same devices) and `barrier` go through it, so a rank
//! waiting there for rank 0 (validating, scoring) does not spin on its GPU and learns of a
//! failure; `abort` tells the other ranks through it and aborts the NCCL communicator
//! (`ncclCommAbort`, when cudarc's `Comm` is dropped). Every NCCL collective starts with a TCP
//! barrier, so a rank that failed or died before it is reported to the others there; a rank
//! blocked inside an NCCL call when another dies during that call is not woken by the TCP
//! message: the launcher (`silot train --gpus N`, or the external one) ends it.

use std::cell::RefCell;

use candle_core::backend::BackendStorage;
use candle_core::cuda_backend::cudarc::driver::DeviceRepr;
use candle_core::cuda_backend::cudarc::nccl::{Comm, Id, NcclType, ReduceOp};
use candle_core::cuda_backend::{CudaDType, CudaStorage};
use candle_core::{CpuStorage, CustomOp1, DType, Device, Layout, Shape, Tensor};

use super::launch::RankEnv;
use super::tcp::TcpGroup;
use super::{stopped, Communicator};
use crate::error::{Error, Result};

/// One rank's NCCL communicator on its GPU ([`NcclComm::connect`]).
pub struct NcclComm {
    control: TcpGroup,
    /// `None` once aborted (dropping cudarc's `Comm` calls `ncclCommAbort`).
    comm: RefCell<Option<Comm>>,
    device: Device,
    failed: RefCell<Option<String>>,
}

fn nccl_err(
    what: &str,
) -> impl Fn(candle_core::cuda_backend::cudarc::nccl::result::NcclError) -> Error + '_ {
    move |e| {
        Error::Invalid(format!(
            "NCCL {what} failed: {e:?} (NCCL_DEBUG=INFO says more)"
        ))
    }
}

impl NcclComm {
    /// Join the group `env` names on `device` (a CUDA device: the rank's `LOCAL_RANK` GPU):
    /// the TCP rendezvous first, then rank 0's NCCL unique id through it, then
    /// `ncclCommInitRank`.
    pub fn connect(env: &RankEnv, device: &Device) -> Result<NcclComm> {
        let cuda = device.as_cuda_device().map_err(|_| {
            Error::Invalid("the NCCL communicator needs a CUDA device (--device cuda)".into())
        })?;
        if std::env::var_os("NCCL_NVLS_ENABLE").is_none() {
            tracing::warn!(
                "NCCL_NVLS_ENABLE is not set: set it to 0 (no NVLink multicast; silot train --gpus N does)"
            );
        }
        let control = TcpGroup::connect(env.rank, env.world_size, &env.rendezvous())?;
        // (128,) u8: ncclUniqueId's bytes, made by rank 0.
        let id = if env.rank == 0 {
            let id = match Id::new() {
                Ok(id) => id,
                Err(e) => {
                    let err = nccl_err("ncclGetUniqueId")(e);
                    control.abort(&format!("rank 0 failed: {err}"));
                    return Err(err);
                }
            };
            id.internal().iter().map(|c| *c as u8).collect()
        } else {
            vec![0u8; 128]
        };
        let id = Tensor::from_vec(id, 128, &Device::Cpu)?;
        let id = control.broadcast(&[id], 0)?[0].to_vec1::<u8>()?;
        let mut internal = [0 as std::ffi::c_char; 128];
        for (d, s) in internal.iter_mut().zip(&id) {
            *d = *s as std::ffi::c_char;
        }
        let comm = Comm::from_rank(
            cuda.cuda_stream(),
            env.rank,
            env.world_size,
            Id::uninit(internal),
        );
        let comm = match comm {
            Ok(c) => c,
            Err(e) => {
                let err = nccl_err("ncclCommInitRank")(e);
                control.abort(&format!("rank {} failed: {err}", env.rank));
                return Err(err);
            }
        };
        Ok(NcclComm {
            control,
            comm: RefCell::new(Some(comm)),
            device: device.clone(),
            failed: RefCell::new(None),
        })
    }

    /// Run `op` on every dtype bucket of `tensors` (see the module docs); the results on the
    /// tensors' own devices, in their shapes.
    fn bucketed(
        &self,
        tensors: &[Tensor],
        op: &dyn Fn(&Comm, &Tensor) -> Result<Tensor>,
    ) -> Result<Vec<Tensor>> {
        if let Some(reason) = self.failed.borrow().as_ref() {
            return Err(stopped(reason));
        }
        // Every rank is alive and here before NCCL is entered: a rank that failed or died
        // before this collective is reported over TCP instead of leaving the others waiting
        // inside NCCL (one host round trip per collective; no GPU synchronisation).
        self.control.barrier()?;
        let comm = self.comm.borrow();
        let comm = comm
            .as_ref()
            .ok_or_else(|| stopped("the NCCL communicator was aborted"))?;
        let mut out: Vec<Option<Tensor>> = vec![None; tensors.len()];
        let mut dtypes: Vec<DType> = tensors.iter().map(Tensor::dtype).collect();
        dtypes.dedup();
        let mut seen = Vec::new();
        for dt in dtypes {
            if seen.contains(&dt) {
                continue;
            }
            seen.push(dt);
            let idx: Vec<usize> = (0..tensors.len())
                .filter(|&i| tensors[i].dtype() == dt)
                .collect();
            // (Σ numel,) of this dtype on the GPU.
            let flat = idx
                .iter()
                .map(|&i| tensors[i].to_device(&self.device)?.flatten_all())
                .collect::<candle_core::Result<Vec<_>>>()?;
            let bucket = Tensor::cat(&flat, 0)?.contiguous()?;
            let done = match op(comm, &bucket) {
                Ok(t) => t,
                Err(e) => {
                    drop(flat);
                    let reason = format!("rank {} failed: {e}", self.control.rank());
                    *self.failed.borrow_mut() = Some(reason.clone());
                    return Err(stopped(&reason));
                }
            };
            let mut at = 0;
            for &i in &idx {
                let t = &tensors[i];
                let n = t.elem_count();
                let piece = done.narrow(0, at, n)?.reshape(t.shape())?;
                out[i] = Some(piece.to_device(t.device())?);
                at += n;
            }
        }
        Ok(out
            .into_iter()
            .map(|t| t.expect("every dtype done"))
            .collect())
    }
}

impl Communicator for NcclComm {
    fn rank(&self) -> usize {
        self.control.rank()
    }

    fn world_size(&self) -> usize {
        self.control.world_size()
    }

    fn all_reduce_mean(&self, tensors: &[Tensor]) -> Result<Vec<Tensor>> {
        if on_host(tensors) {
            return self.control.all_reduce_mean(tensors);
        }
        self.bucketed(tensors, &|comm, bucket| {
            Ok(bucket.apply_op1_no_bwd(&NcclOp {
                comm,
                kind: Kind::Avg,
            })?)
        })
    }

    fn broadcast(&self, tensors: &[Tensor], root: usize) -> Result<Vec<Tensor>> {
        super::check_root(root, self.world_size())?;
        if on_host(tensors) {
            return self.control.broadcast(tensors, root);
        }
        // The other ranks' tensors only give the buffers' shapes.
        self.bucketed(tensors, &|comm, bucket| {
            Ok(bucket.apply_op1_no_bwd(&NcclOp {
                comm,
                kind: Kind::Broadcast(root),
            })?)
        })
    }

    fn barrier(&self) -> Result<()> {
        self.control.barrier()
    }

    fn abort(&self, reason: &str) {
        if self.failed.borrow().is_none() {
            *self.failed.borrow_mut() = Some(reason.to_string());
        }
        // Dropping cudarc's Comm calls ncclCommAbort.
        if let Ok(mut c) = self.comm.try_borrow_mut() {
            c.take();
        }
        self.control.abort(reason);
    }
}

/// Whether every tensor is in host memory (then the collective goes over TCP).
fn on_host(tensors: &[Tensor]) -> bool {
    tensors.iter().all(|t| t.device().is_cpu())
}

/// Which collective an [`NcclOp`] runs.
#[derive(Clone, Copy)]
enum Kind {
    Avg,
    Broadcast(usize),
}

/// One NCCL call on a contiguous CUDA tensor, as a candle custom op (its output a new buffer).
struct NcclOp<'a> {
    comm: &'a Comm,
    kind: Kind,
}

impl NcclOp<'_> {
    fn run<T: CudaDType + NcclType + DeviceRepr>(
        &self,
        s: &CudaStorage,
        start: usize,
        end: usize,
    ) -> candle_core::Result<CudaStorage> {
        let dev = s.device.clone();
        let src = s.as_cuda_slice::<T>()?.slice(start..end);
        // SAFETY: every element is written by the NCCL call before anything reads it.
        let mut dst = unsafe { dev.alloc::<T>(end - start)? };
        let status = match self.kind {
            Kind::Avg => self.comm.all_reduce(&src, &mut dst, &ReduceOp::Avg),
            Kind::Broadcast(root) => {
                let send = (self.comm.rank() == root).then_some(&src);
                self.comm.broadcast(send, &mut dst, root as i32)
            }
        };
        status.map_err(|e| candle_core::Error::Msg(format!("NCCL: {e:?}")))?;
        Ok(CudaStorage::wrap_cuda_slice(dst, dev))
    }
}

impl CustomOp1 for NcclOp<'_> {
    fn name(&self) -> &'static str {
        match self.kind {
            Kind::Avg => "nccl-all-reduce-avg",
            Kind::Broadcast(_) => "nccl-broadcast",
        }
    }

    fn cpu_fwd(&self, _: &CpuStorage, _: &Layout) -> candle_core::Result<(CpuStorage, Shape)> {
        Err(candle_core::Error::Msg(
            "NCCL collectives run on CUDA tensors only".into(),
        ))
    }

    fn cuda_fwd(&self, s: &CudaStorage, l: &Layout) -> candle_core::Result<(CudaStorage, Shape)> {
        let (start, end) = l.contiguous_offsets().ok_or_else(|| {
            candle_core::Error::Msg("NCCL collectives need a contiguous tensor".into())
        })?;
        let out = match s.dtype() {
            DType::F32 => self.run::<f32>(s, start, end)?,
            DType::F64 => self.run::<f64>(s, start, end)?,
            DType::U8 => self.run::<u8>(s, start, end)?,
            DType::U32 => self.run::<u32>(s, start, end)?,
            DType::I64 => self.run::<i64>(s, start, end)?,
            d => {
                return Err(candle_core::Error::Msg(format!(
                    "NCCL collectives: dtype {d:?} not supported"
                )))
            }
        };
        Ok((out, l.shape().clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::distributed::run_replicas;

    fn env(rank: usize, world: usize, port: u16) -> RankEnv {
        RankEnv {
            rank,
            world_size: world,
            local_rank: rank,
            master_addr: "127.0.0.1".into(),
            master_port: port,
            timeout: std::time::Duration::from_secs(60),
        }
    }

    fn free_port() -> u16 {
        super::super::launch::free_port().unwrap()
    }

    /// Rank `rank`'s inputs on `dev`: f32 (3, 5) and (2,), f64 (4,), a host f32 (2,), an i64 (1,).
    fn inputs(rank: usize, dev: &Device) -> Result<Vec<Tensor>> {
        let r = rank as f32;
        let a: Vec<f32> = (0..15).map(|i| (i as f32 + 0.25) / (r + 3.0)).collect();
        Ok(vec![
            Tensor::from_vec(a, (3, 5), dev)?,
            Tensor::new(&[r, -r], dev)?,
            Tensor::new(&[0.1 * r as f64, 1.0, 2.0, r as f64 / 7.0], dev)?,
            Tensor::new(&[r + 0.5, 1.0], &Device::Cpu)?,
            Tensor::new(&[rank as i64 + 40], dev)?,
        ])
    }

    fn host(ts: &[Tensor]) -> Vec<Vec<f64>> {
        ts.iter()
            .map(|t| {
                t.flatten_all()
                    .and_then(|t| t.to_dtype(DType::F64))
                    .and_then(|t| t.to_vec1::<f64>())
                    .unwrap()
            })
            .collect()
    }

    /// One rank on the first GPU: the mean over one rank and a broadcast are the inputs
    /// (values, shapes, dtypes and devices), through the NCCL buckets and the TCP channel.
    #[test]
    fn nccl_world_of_one_returns_its_inputs() {
        let dev = crate::testing::cuda_device();
        let comm = NcclComm::connect(&env(0, 1, free_port()), &dev).unwrap();
        let x = inputs(0, &dev).unwrap();
        let floats = &x[..4];
        let m = comm.all_reduce_mean(floats).unwrap();
        for (a, b) in m.iter().zip(floats) {
            assert_eq!((a.dims(), a.dtype()), (b.dims(), b.dtype()));
            assert_eq!(a.device().is_cpu(), b.device().is_cpu());
        }
        assert_eq!(host(&m), host(floats));
        let b = comm.broadcast(&x, 0).unwrap();
        assert_eq!(host(&b), host(&x));
        comm.barrier().unwrap();
    }

    /// Two ranks on GPUs 0 and 1 (threads of this process; skipped with fewer GPUs): the mean and
    /// a broadcast from rank 1 agree with the in-process group's on the CPU (f32 to rounding:
    /// NCCL's summation order is its own).
    #[test]
    fn nccl_two_gpus_agree_with_the_in_process_group() {
        use candle_core::cuda_backend::cudarc::driver::CudaContext;
        if CudaContext::device_count().unwrap_or(0) < 2 {
            eprintln!("skipped: fewer than 2 GPUs");
            return;
        }
        let port = free_port();
        let gpu = std::thread::scope(|s| {
            let hs: Vec<_> = (0..2)
                .map(|rank| {
                    s.spawn(move || {
                        let dev = Device::new_cuda(rank).unwrap();
                        let comm = NcclComm::connect(&env(rank, 2, port), &dev).unwrap();
                        let x = inputs(rank, &dev).unwrap();
                        let m = comm.all_reduce_mean(&x[..4]).unwrap();
                        let b = comm.broadcast(&x, 1).unwrap();
                        (host(&m), host(&b))
                    })
                })
                .collect();
            hs.into_iter()
                .map(|h| h.join().unwrap())
                .collect::<Vec<_>>()
        });
        let cpu = run_replicas(2, |rank, comm| {
            let x = inputs(rank, &Device::Cpu)?;
            Ok((
                host(&comm.all_reduce_mean(&x[..4])?),
                host(&comm.broadcast(&x, 1)?),
            ))
        });
        let want = cpu[0].as_ref().unwrap();
        for (m, b) in &gpu {
            assert_eq!(b, &want.1);
            for (u, v) in m.iter().flatten().zip(want.0.iter().flatten()) {
                assert!((u - v).abs() <= 1e-6 * v.abs().max(1.0), "{u} vs {v}");
            }
        }
        assert_eq!(gpu[0], gpu[1], "the ranks disagree");
    }

    /// `(B, T, 3, 24, 24)` clips of step `s` (a bright square moving along a row per clip, its
    /// place set by the clip's row) and `(B, 2)` zero offsets.
    fn clips(b: usize, t: usize, s: usize, dev: &Device) -> (Tensor, Tensor) {
        let mut x = vec![0f32; b * t * 3 * 24 * 24];
        for i in 0..b {
            for f in 0..t {
                let (y0, x0) = ((3 * i + s) % 16, (2 * f + i + s) % 16);
                for c in 0..3 {
                    for y in y0..y0 + 6 {
                        for xx in x0..x0 + 6 {
                            x[(((i * t + f) * 3 + c) * 24 + y) * 24 + xx] = 0.3 + 0.2 * c as f32;
                        }
                    }
                }
            }
        }
        (
            Tensor::from_vec(x, (b, t, 3, 24, 24), dev).unwrap(),
            Tensor::zeros((b, 2), DType::F32, dev).unwrap(),
        )
    }

    /// The equivalence on GPUs (skipped with fewer than 2): the smoke model on 2 GPUs
    /// with 2 clips each (NCCL) makes the updates of one GPU with the 4 clips, within the CPU
    /// test's bounds (tests/distributed.rs): loss terms 5e-5, updates 3e-2 relative; the two
    /// ranks end bit-identical.
    #[test]
    fn nccl_two_gpu_replicas_make_the_updates_of_one_gpu() {
        use crate::train::Trainer;
        use candle_core::cuda_backend::cudarc::driver::CudaContext;
        if CudaContext::device_count().unwrap_or(0) < 2 {
            eprintln!("skipped: fewer than 2 GPUs");
            return;
        }
        let cfg = crate::model::config::RunConfig::from_toml(
            include_str!("../../../envs/smoke.toml"),
            "envs/smoke.toml",
        )
        .unwrap();
        let (b, steps) = (4usize, 7usize);
        let weights = |tr: &Trainer| -> Vec<Vec<f32>> {
            tr.vars()
                .iter()
                .map(|(_, v)| v.as_tensor().flatten_all().unwrap().to_vec1().unwrap())
                .collect()
        };
        let dev0 = crate::testing::cuda_device();
        let mut one = Trainer::new(&cfg, &dev0).unwrap();
        let init = weights(&one);
        let mut one_losses = Vec::new();
        for s in 0..steps {
            let (x, o) = clips(b, 4, s, &dev0);
            one_losses.push(one.train_step(&x, &o).unwrap().loss);
        }
        let one_w = weights(&one);
        let port = free_port();
        let runs = std::thread::scope(|sc| {
            let hs: Vec<_> = (0..2)
                .map(|rank| {
                    let cfg = &cfg;
                    sc.spawn(move || {
                        let dev = Device::new_cuda(rank).unwrap();
                        crate::nn::prepare_device(&dev);
                        let comm = NcclComm::connect(&env(rank, 2, port), &dev).unwrap();
                        let mut tr = Trainer::new(cfg, &dev).unwrap();
                        tr.sync_from_root(&comm).unwrap();
                        let shard = crate::model::Shard::of_rank(rank, 2, b).unwrap();
                        let mut losses = Vec::new();
                        for s in 0..steps {
                            let (x, o) = clips(b, 4, s, &dev);
                            let x = x.narrow(0, shard.offset, shard.rows).unwrap();
                            let o = o.narrow(0, shard.offset, shard.rows).unwrap();
                            let st = tr.train_step_replica(&x, &o, &comm, shard).unwrap();
                            losses.push(st.loss);
                        }
                        (losses, weights(&tr))
                    })
                })
                .collect();
            hs.into_iter()
                .map(|h| h.join().unwrap())
                .collect::<Vec<_>>()
        });
        assert!(runs[0].1 == runs[1].1, "the ranks' weights differ");
        let rel = |a: f64, b: f64| (a - b).abs() / a.abs().max(b.abs()).max(1e-12);
        let mut loss_err = 0f64;
        for (x, y) in one_losses.iter().zip(&runs[0].0) {
            for ((_, u), (_, v)) in x.terms().iter().zip(y.terms()) {
                loss_err = loss_err.max(rel(*u, v));
            }
        }
        let mut upd_err = 0f64;
        for ((wa, wb), w0) in one_w.iter().zip(&runs[0].1).zip(&init) {
            let (mut d, mut u) = (0f64, 0f64);
            for ((x, y), z) in wa.iter().zip(wb).zip(w0) {
                d += ((x - y) as f64).powi(2);
                u += ((x - z) as f64).powi(2);
            }
            if u > 0.0 {
                upd_err = upd_err.max((d / u).sqrt());
            }
        }
        eprintln!("2 GPUs vs 1: loss terms {loss_err:.2e}, updates {upd_err:.2e} (relative)");
        assert!(loss_err < 5e-5, "loss terms differ by {loss_err}");
        assert!(upd_err < 3e-2, "updates differ by {upd_err}");
    }
}
