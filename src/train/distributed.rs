//! Data-parallel training (issue 47, design in `docs/multi_gpu.md`): N replicas, one per device,
//! each run a shard of the global batch ([`Shard`]); their gradients are averaged by a
//! [`Communicator`] before the same Adam step on every replica
//! ([`Trainer::train_step_replica`](super::Trainer::train_step_replica)), and the parameters
//! (and Adam state) start from rank 0's ([`Trainer::adopt_from_root`](super::Trainer::adopt_from_root)).
//!
//! The training loop runs as one rank in [`run_replica`](super::run_replica).
//!
//! Implemented here: the [`Communicator`] trait, [`SingleProcess`] (world size 1),
//! [`InProcessGroup`] (replicas on threads of one process sharing host memory: the CPU tests'
//! stand-in for NCCL, usable with one device per thread too), [`run_replicas`] (a closure per
//! rank on threads; ends every rank when one fails), [`TcpGroup`] (ranks as processes, over TCP:
//! `silot train --gpus N` on the CPU), [`launch`] (the `RANK`/`WORLD_SIZE`/`MASTER_ADDR`/
//! `MASTER_PORT` variables, joining a group, launching one process per rank) and, with the `nccl`
//! feature, `NcclComm` (NCCL on CUDA, its unique id published over the TCP rendezvous).

pub mod launch;
#[cfg(feature = "nccl")]
mod nccl;
mod tcp;

#[cfg(feature = "nccl")]
pub use nccl::NcclComm;
pub use tcp::{Rendezvous, TcpGroup};

use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use candle_core::{Device, Tensor};

use crate::error::{Error, Result};
pub use crate::model::Shard;

/// The collective operations data-parallel training needs. Every rank calls the same operations
/// in the same order with tensors of the same shapes and dtypes; an operation returns on a rank
/// only once every rank has called it, or with an error when a rank failed ([`Self::abort`]).
/// No `Send`/`Sync` bound: a rank uses its communicator from one thread (cudarc's NCCL `Comm`
/// is neither).
pub trait Communicator {
    /// This replica's rank, `0 .. world_size`.
    fn rank(&self) -> usize;
    /// Number of replicas.
    fn world_size(&self) -> usize;
    /// The element-wise mean over ranks of each tensor (summed in rank order, then divided by
    /// the world size); every rank gets the same values, on its tensors' devices.
    fn all_reduce_mean(&self, tensors: &[Tensor]) -> Result<Vec<Tensor>>;
    /// Rank `root`'s tensors, on every rank (copies: later changes of root's tensors do not show).
    fn broadcast(&self, tensors: &[Tensor], root: usize) -> Result<Vec<Tensor>>;
    /// Wait until every rank is here.
    fn barrier(&self) -> Result<()>;
    /// This rank has failed (`reason`): every rank's current and next operation fails with an
    /// error naming it.
    fn abort(&self, reason: &str);
}

/// Rank `root`'s `bytes` on every rank (read on `root` only): their length, then the bytes as a
/// `(len,)` u8 host tensor. For small messages (a progress record, a pretrain job).
pub fn broadcast_bytes(comm: &dyn Communicator, bytes: &[u8], root: usize) -> Result<Vec<u8>> {
    let here = comm.rank() == root;
    let len = Tensor::new(&[if here { bytes.len() as u32 } else { 0 }], &Device::Cpu)?;
    let len = comm.broadcast(&[len], root)?[0].to_vec1::<u32>()?[0] as usize;
    let buf = if here {
        Tensor::from_vec(bytes.to_vec(), len, &Device::Cpu)?
    } else {
        Tensor::zeros(len, candle_core::DType::U8, &Device::Cpu)?
    };
    Ok(comm.broadcast(&[buf], root)?[0].to_vec1::<u8>()?)
}

/// One replica alone: every operation returns its input.
#[derive(Debug, Clone, Copy, Default)]
pub struct SingleProcess;

impl Communicator for SingleProcess {
    fn rank(&self) -> usize {
        0
    }
    fn world_size(&self) -> usize {
        1
    }
    fn all_reduce_mean(&self, tensors: &[Tensor]) -> Result<Vec<Tensor>> {
        Ok(tensors.to_vec())
    }
    fn broadcast(&self, tensors: &[Tensor], _root: usize) -> Result<Vec<Tensor>> {
        Ok(tensors
            .iter()
            .map(Tensor::copy)
            .collect::<candle_core::Result<_>>()?)
    }
    fn barrier(&self) -> Result<()> {
        Ok(())
    }
    fn abort(&self, _reason: &str) {}
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Mean,
    Broadcast(usize),
    Barrier,
}

struct State {
    generation: u64,
    op: Option<Op>,
    slots: Vec<Option<Vec<Tensor>>>,
    result: Arc<Vec<Tensor>>,
    failed: Option<String>,
}

struct Shared {
    world: usize,
    state: Mutex<State>,
    ready: Condvar,
}

/// A group of `world` replicas in one process (threads): [`InProcessGroup::new`] gives one
/// [`InProcessComm`] per rank. The tensors are combined on rank 0's contribution's device and
/// each rank gets the result on its own tensors' devices.
pub struct InProcessGroup;

impl InProcessGroup {
    /// The communicators of ranks `0 .. world`, in rank order.
    #[allow(clippy::new_ret_no_self)]
    pub fn new(world: usize) -> Vec<InProcessComm> {
        let shared = Arc::new(Shared {
            world,
            state: Mutex::new(State {
                generation: 0,
                op: None,
                slots: vec![None; world],
                result: Arc::new(Vec::new()),
                failed: None,
            }),
            ready: Condvar::new(),
        });
        (0..world)
            .map(|rank| InProcessComm {
                rank,
                shared: shared.clone(),
            })
            .collect()
    }
}

/// One rank's end of an [`InProcessGroup`]. Dropping it while the thread panics aborts the group.
pub struct InProcessComm {
    rank: usize,
    shared: Arc<Shared>,
}

/// The mean over ranks of each tensor `all[rank][i]`, summed in rank order on the device of rank
/// 0's tensors: the one order of every communicator that combines on one place, so that their
/// results agree bit for bit.
fn mean_in_rank_order(all: &[Vec<Tensor>], world: usize) -> Result<Vec<Tensor>> {
    let n = all[0].len();
    if let Some((r, c)) = all.iter().enumerate().find(|(_, c)| c.len() != n) {
        return Err(Error::Invalid(format!(
            "all-reduce: rank {r} gave {} tensors, rank 0 {n}",
            c.len()
        )));
    }
    (0..n)
        .map(|i| {
            let dev = all[0][i].device();
            let mut sum = all[0][i].clone();
            for c in &all[1..] {
                sum = (sum + c[i].to_device(dev)?)?;
            }
            Ok((sum / world as f64)?)
        })
        .collect()
}

/// A broadcast's `root` must be a rank of the group.
fn check_root(root: usize, world: usize) -> Result<()> {
    if root >= world {
        return Err(Error::Invalid(format!(
            "broadcast from rank {root} in a group of {world}"
        )));
    }
    Ok(())
}

fn devices_of(tensors: &[Tensor]) -> Vec<Device> {
    tensors.iter().map(|t| t.device().clone()).collect()
}

fn stopped(reason: &str) -> Error {
    Error::Invalid(format!("data-parallel training stopped: {reason}"))
}

impl InProcessComm {
    fn lock(&self) -> Result<MutexGuard<'_, State>> {
        self.shared
            .state
            .lock()
            .map_err(|_| stopped("the communicator's lock is poisoned (a rank panicked)"))
    }

    /// Deposit `contrib` for `op`; the last rank to arrive combines all contributions. The
    /// result's tensors go to `devices` (this rank's).
    fn collective(
        &self,
        op: Op,
        contrib: Vec<Tensor>,
        devices: Vec<Device>,
        combine: impl FnOnce(Vec<Vec<Tensor>>) -> Result<Vec<Tensor>>,
    ) -> Result<Vec<Tensor>> {
        let mut st = self.lock()?;
        if let Some(reason) = &st.failed {
            return Err(stopped(reason));
        }
        match st.op {
            Some(o) if o != op => {
                let reason = format!(
                    "rank {} called {op:?} while another rank called {o:?}",
                    self.rank
                );
                st.failed = Some(reason.clone());
                self.shared.ready.notify_all();
                return Err(stopped(&reason));
            }
            _ => st.op = Some(op),
        }
        st.slots[self.rank] = Some(contrib);
        let result = if st.slots.iter().all(Option::is_some) {
            let all: Vec<Vec<Tensor>> = st.slots.iter_mut().filter_map(Option::take).collect();
            match combine(all) {
                Ok(r) => {
                    st.result = Arc::new(r);
                    st.op = None;
                    st.generation += 1;
                    self.shared.ready.notify_all();
                    st.result.clone()
                }
                Err(e) => {
                    let reason = format!("a collective operation failed: {e}");
                    st.failed = Some(reason.clone());
                    self.shared.ready.notify_all();
                    return Err(stopped(&reason));
                }
            }
        } else {
            let gen = st.generation;
            while st.generation == gen && st.failed.is_none() {
                st = self.shared.ready.wait(st).map_err(|_| {
                    stopped("the communicator's lock is poisoned (a rank panicked)")
                })?;
            }
            if st.generation == gen {
                return Err(stopped(st.failed.as_deref().unwrap_or("unknown failure")));
            }
            st.result.clone()
        };
        drop(st);
        // On this rank's devices (the result's where this rank gave fewer tensors).
        result
            .iter()
            .enumerate()
            .map(|(i, t)| match devices.get(i) {
                Some(d) => Ok(t.to_device(d)?),
                None => Ok(t.clone()),
            })
            .collect()
    }
}

impl Communicator for InProcessComm {
    fn rank(&self) -> usize {
        self.rank
    }

    fn world_size(&self) -> usize {
        self.shared.world
    }

    fn all_reduce_mean(&self, tensors: &[Tensor]) -> Result<Vec<Tensor>> {
        let contrib = tensors.iter().map(Tensor::detach).collect();
        let world = self.shared.world;
        self.collective(Op::Mean, contrib, devices_of(tensors), |all| {
            mean_in_rank_order(&all, world)
        })
    }

    fn broadcast(&self, tensors: &[Tensor], root: usize) -> Result<Vec<Tensor>> {
        check_root(root, self.shared.world)?;
        // Only the root's tensors are read; copied now, as the root goes on changing its own.
        let contrib = if self.rank == root {
            tensors
                .iter()
                .map(Tensor::copy)
                .collect::<candle_core::Result<_>>()?
        } else {
            Vec::new()
        };
        self.collective(
            Op::Broadcast(root),
            contrib,
            devices_of(tensors),
            |mut all| Ok(std::mem::take(&mut all[root])),
        )
    }

    fn barrier(&self) -> Result<()> {
        self.collective(Op::Barrier, Vec::new(), Vec::new(), |_| Ok(Vec::new()))
            .map(|_| ())
    }

    fn abort(&self, reason: &str) {
        if let Ok(mut st) = self.shared.state.lock() {
            if st.failed.is_none() {
                st.failed = Some(reason.to_string());
            }
        }
        self.shared.ready.notify_all();
    }
}

impl Drop for InProcessComm {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.abort(&format!("rank {} panicked", self.rank));
        }
    }
}

/// Run `f(rank, communicator)` for ranks `0 .. world` on threads of this process
/// ([`InProcessGroup`]) and return their results in rank order. A rank whose `f` fails aborts
/// the group: the other ranks' next (or current) collective operation fails with an error that
/// names the failed rank and its error, so every rank ends.
pub fn run_replicas<T, F>(world: usize, f: F) -> Vec<Result<T>>
where
    T: Send,
    F: Fn(usize, &dyn Communicator) -> Result<T> + Sync,
{
    let comms = InProcessGroup::new(world);
    std::thread::scope(|s| {
        let handles: Vec<_> = comms
            .iter()
            .map(|comm| {
                let f = &f;
                s.spawn(move || {
                    let out = f(comm.rank(), comm);
                    if let Err(e) = &out {
                        comm.abort(&format!("rank {} failed: {e}", comm.rank()));
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .enumerate()
            .map(|(rank, h)| {
                h.join().unwrap_or_else(|_| {
                    comms[rank].abort(&format!("rank {rank} panicked"));
                    Err(Error::Invalid(format!("rank {rank} panicked")))
                })
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_process_mean_broadcast_and_abort() {
        let out = run_replicas(3, |rank, comm| {
            assert_eq!(comm.world_size(), 3);
            let x = Tensor::new(&[rank as f32, 2.0 * rank as f32], &Device::Cpu)?;
            let m = comm.all_reduce_mean(std::slice::from_ref(&x))?;
            let b = comm.broadcast(&[(x + 10.0)?], 2)?;
            assert_eq!(b.len(), 1);
            comm.barrier()?;
            Ok((m[0].to_vec1::<f32>()?, b[0].to_vec1::<f32>()?))
        });
        for r in out {
            let (m, b) = r.unwrap();
            assert_eq!(m, vec![1.0, 2.0]);
            assert_eq!(b, vec![12.0, 14.0]);
        }
        // Rank 1 fails before its first collective: the others' collectives fail, naming it.
        let out = run_replicas(3, |rank, comm| {
            if rank == 1 {
                return Err(Error::Invalid("injected".into()));
            }
            comm.barrier()?;
            comm.barrier()?;
            Ok(())
        });
        let errs: Vec<String> = out
            .into_iter()
            .map(|r| r.unwrap_err().to_string())
            .collect();
        assert!(errs[1].contains("injected"));
        for e in [&errs[0], &errs[2]] {
            assert!(e.contains("rank 1 failed") && e.contains("injected"), "{e}");
        }
        // Mismatched operations are an error on every rank, not a hang.
        let out = run_replicas(2, |rank, comm| {
            if rank == 0 {
                comm.barrier()
            } else {
                comm.broadcast(&[], 0).map(|_| ())
            }
        });
        assert!(out.iter().all(|r| r.is_err()));
    }
}
