//! Multi-process launch (`docs/multi_gpu.md`): the `RANK` / `WORLD_SIZE` / `LOCAL_RANK` /
//! `MASTER_ADDR` / `MASTER_PORT` variables an external launcher (or [`launch_ranks`]) sets
//! ([`RankEnv`]), the communicator a rank process joins ([`RankEnv::join`]: TCP on the CPU, NCCL
//! on CUDA with the `nccl` feature), and [`launch_ranks`], which runs one child process of the
//! current command per rank and ends them all when one fails.

use std::ffi::OsString;
use std::process::{Child, Command, ExitStatus};
use std::time::{Duration, Instant};

use candle_core::Device;

use super::tcp::{Rendezvous, TcpGroup};
use super::Communicator;
use crate::error::{Error, Result};

/// How long ranks wait for each other at the start unless `SILOT_RENDEZVOUS_TIMEOUT` (seconds)
/// says otherwise.
pub const DEFAULT_RENDEZVOUS_TIMEOUT: Duration = Duration::from_secs(300);

/// How long [`launch_ranks`] lets the other ranks end on their own (each reporting the failed
/// rank) after one failed, before killing them.
pub const GRACE: Duration = Duration::from_secs(10);

/// A rank process's place in the group, from the launcher's variables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RankEnv {
    /// `RANK`: this process's rank, `0 .. world_size`.
    pub rank: usize,
    /// `WORLD_SIZE`: number of processes (ranks).
    pub world_size: usize,
    /// `LOCAL_RANK`: the GPU ordinal on this host (default: `RANK`).
    pub local_rank: usize,
    /// `MASTER_ADDR`: rank 0's host.
    pub master_addr: String,
    /// `MASTER_PORT`: the port rank 0 listens at.
    pub master_port: u16,
    /// `SILOT_RENDEZVOUS_TIMEOUT` (seconds): how long the ranks wait for each other.
    pub timeout: Duration,
}

impl RankEnv {
    /// The variables of this process; `None` when neither `RANK` nor `WORLD_SIZE` is set (not
    /// launched as a rank).
    pub fn from_env() -> Result<Option<RankEnv>> {
        Self::from_vars(|k| std::env::var(k).ok())
    }

    /// [`RankEnv::from_env`] with the variables given by `var`. Errors name the variable, its
    /// value and what it should be.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Option<RankEnv>> {
        let (rank, world) = (var("RANK"), var("WORLD_SIZE"));
        if rank.is_none() && world.is_none() {
            return Ok(None);
        }
        let need = "a rank process needs RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT (as torchrun sets them), or none of them";
        let int = |name: &str, v: Option<String>| -> Result<u64> {
            let v = v.ok_or_else(|| Error::Invalid(format!("{name} is not set: {need}")))?;
            v.trim().parse::<u64>().map_err(|_| {
                Error::Invalid(format!(
                    "{name} = `{v}` is not a non-negative integer: {need}"
                ))
            })
        };
        let world_size = int("WORLD_SIZE", world)? as usize;
        let rank = int("RANK", rank)? as usize;
        if world_size == 0 {
            return Err(Error::Invalid(
                "WORLD_SIZE = 0: it counts the ranks, at least 1".into(),
            ));
        }
        if rank >= world_size {
            return Err(Error::Invalid(format!(
                "RANK = {rank} with WORLD_SIZE = {world_size}: ranks go from 0 to WORLD_SIZE − 1"
            )));
        }
        let local_rank = match var("LOCAL_RANK") {
            Some(v) => int("LOCAL_RANK", Some(v))? as usize,
            None => rank,
        };
        let master_addr = match var("MASTER_ADDR") {
            Some(a) if !a.trim().is_empty() => a.trim().to_string(),
            _ if world_size == 1 => "127.0.0.1".to_string(),
            _ => {
                return Err(Error::Invalid(format!(
                    "MASTER_ADDR is not set: {need} (rank 0's host, e.g. 127.0.0.1 on one machine)"
                )))
            }
        };
        let master_port = match var("MASTER_PORT") {
            Some(p) => {
                let n = int("MASTER_PORT", Some(p.clone()))?;
                if n == 0 || n > u64::from(u16::MAX) {
                    return Err(Error::Invalid(format!(
                        "MASTER_PORT = `{p}` is not a TCP port (1-65535)"
                    )));
                }
                n as u16
            }
            None if world_size == 1 => 0,
            None => {
                return Err(Error::Invalid(format!(
                    "MASTER_PORT is not set: {need} (a free TCP port on rank 0's host, e.g. 29500)"
                )))
            }
        };
        let timeout = match var("SILOT_RENDEZVOUS_TIMEOUT") {
            Some(v) => match v.trim().parse::<f64>() {
                Ok(s) if s > 0.0 && s.is_finite() => Duration::from_secs_f64(s),
                _ => {
                    return Err(Error::Invalid(format!(
                        "SILOT_RENDEZVOUS_TIMEOUT = `{v}` is not a positive number of seconds"
                    )))
                }
            },
            None => DEFAULT_RENDEZVOUS_TIMEOUT,
        };
        Ok(Some(RankEnv {
            rank,
            world_size,
            local_rank,
            master_addr,
            master_port,
            timeout,
        }))
    }

    /// The rendezvous these variables name.
    pub fn rendezvous(&self) -> Rendezvous {
        Rendezvous {
            addr: self.master_addr.clone(),
            port: self.master_port,
            timeout: self.timeout,
        }
    }

    /// Join the group on `device`: [`TcpGroup`] on the CPU (or on CUDA when
    /// `SILOT_DIST_BACKEND=tcp`: tensors through host memory, slow, for testing), NCCL on CUDA
    /// (build with `--features nccl`). One rank alone gets [`super::SingleProcess`].
    pub fn join(&self, device: &Device) -> Result<Box<dyn Communicator>> {
        if self.world_size == 1 {
            return Ok(Box::new(super::SingleProcess));
        }
        let backend = std::env::var("SILOT_DIST_BACKEND").unwrap_or_default();
        match (device, backend.as_str()) {
            (_, "tcp") | (Device::Cpu, "") => Ok(Box::new(TcpGroup::connect(
                self.rank,
                self.world_size,
                &self.rendezvous(),
            )?)),
            (Device::Cpu, b) => Err(Error::Invalid(format!(
                "SILOT_DIST_BACKEND = `{b}`: on the CPU only `tcp`"
            ))),
            (_, "" | "nccl") => self.join_nccl(device),
            (_, b) => Err(Error::Invalid(format!(
                "SILOT_DIST_BACKEND = `{b}` is not a backend: `nccl` (default on GPUs) or `tcp`"
            ))),
        }
    }

    #[cfg(feature = "nccl")]
    fn join_nccl(&self, device: &Device) -> Result<Box<dyn Communicator>> {
        Ok(Box::new(super::nccl::NcclComm::connect(self, device)?))
    }

    #[cfg(not(feature = "nccl"))]
    fn join_nccl(&self, _device: &Device) -> Result<Box<dyn Communicator>> {
        Err(Error::Invalid(
            "several ranks on GPUs need NCCL: this binary was built without it; rebuild with `--features nccl` (docs/multi_gpu.md), or set SILOT_DIST_BACKEND=tcp to average through host memory (slow)".into(),
        ))
    }
}

/// Exit status of a rank process that ended because another rank failed (its communicator was
/// aborted or lost a rank): [`launch_ranks`] names the rank that failed on its own instead.
pub const STOPPED_EXIT: i32 = 3;

/// Whether `e` is the error of a rank stopped by another rank's failure.
pub fn stopped_by_another_rank(e: &dyn std::fmt::Display) -> bool {
    e.to_string().contains("data-parallel training stopped")
}

/// Set by [`launch_ranks`] for its ranks: the launcher's process id ([`exit_with_launcher`]).
pub const LAUNCHER_PID: &str = "SILOT_LAUNCHER_PID";

/// In a rank started by [`launch_ranks`]: a thread that ends this process (exit status 1) once
/// the launcher is gone (this process's parent changes: the launcher was killed, e.g. by a time
/// limit), so that no rank outlives it. Nothing happens in other processes.
pub fn exit_with_launcher() {
    #[cfg(unix)]
    {
        let Some(launcher) = std::env::var(LAUNCHER_PID)
            .ok()
            .and_then(|p| p.parse::<u32>().ok())
        else {
            return;
        };
        let rank = std::env::var("RANK").unwrap_or_default();
        let watch = move || loop {
            if std::os::unix::process::parent_id() != launcher {
                eprintln!(
                    "error: rank {rank}: the launcher (process {launcher}) is gone; this rank stops"
                );
                std::process::exit(1);
            }
            std::thread::sleep(Duration::from_millis(500));
        };
        if let Err(e) = std::thread::Builder::new()
            .name("launcher-watch".into())
            .spawn(watch)
        {
            tracing::warn!("cannot watch the launcher: {e}");
        }
    }
}

/// A free TCP port on the loopback interface, for [`launch_ranks`] (another process could take
/// it before rank 0 listens: then rank 0 fails with "in use" and the run can be restarted).
pub fn free_port() -> Result<u16> {
    let l = std::net::TcpListener::bind(("127.0.0.1", 0))
        .map_err(|e| Error::Invalid(format!("no free TCP port on 127.0.0.1: {e}")))?;
    Ok(l.local_addr()
        .map_err(|e| Error::Invalid(format!("no free TCP port on 127.0.0.1: {e}")))?
        .port())
}

/// Run `world` child processes of this executable with `args`, rank `r` with `RANK=r`,
/// `LOCAL_RANK=r`, `WORLD_SIZE`, `LOCAL_WORLD_SIZE`, `MASTER_ADDR=127.0.0.1` and
/// `MASTER_PORT` (`$MASTER_PORT` if set, else a free port), and `NCCL_NVLS_ENABLE=0` unless it
/// is set (no NVLink multicast), their output going to ours. When a
/// rank exits unsuccessfully the others get [`GRACE`] to end on their own (their communicator
/// names the failed rank), then are killed; the error names the first rank that failed.
pub fn launch_ranks(world: usize, args: &[OsString]) -> Result<()> {
    let exe = std::env::current_exe()
        .map_err(|e| Error::Invalid(format!("cannot find this executable to launch ranks: {e}")))?;
    let port = match std::env::var("MASTER_PORT") {
        Ok(p) => p.trim().parse::<u16>().map_err(|_| {
            Error::Invalid(format!("MASTER_PORT = `{p}` is not a TCP port (1-65535)"))
        })?,
        Err(_) => free_port()?,
    };
    let mut children: Vec<Option<Child>> = Vec::with_capacity(world);
    for rank in 0..world {
        let mut cmd = Command::new(&exe);
        if std::env::var_os("NCCL_NVLS_ENABLE").is_none() {
            // Never NVLink multicast (NVLS): the lent machines must not use it.
            cmd.env("NCCL_NVLS_ENABLE", "0");
        }
        let child = cmd
            .args(args)
            .env(LAUNCHER_PID, std::process::id().to_string())
            .env("RANK", rank.to_string())
            .env("LOCAL_RANK", rank.to_string())
            .env("WORLD_SIZE", world.to_string())
            .env("LOCAL_WORLD_SIZE", world.to_string())
            .env("MASTER_ADDR", "127.0.0.1")
            .env("MASTER_PORT", port.to_string())
            .spawn();
        match child {
            Ok(c) => children.push(Some(c)),
            Err(e) => {
                kill_all(&mut children);
                return Err(Error::Invalid(format!(
                    "cannot start rank {rank} ({}): {e}",
                    exe.display()
                )));
            }
        }
    }
    supervise(children)
}

/// Wait for the ranks; see [`launch_ranks`].
fn supervise(mut children: Vec<Option<Child>>) -> Result<()> {
    let mut first_failure: Option<(usize, ExitStatus)> = None;
    let mut deadline: Option<Instant> = None;
    let mut killed = Vec::new();
    loop {
        for (rank, slot) in children.iter_mut().enumerate() {
            let Some(child) = slot else { continue };
            match child.try_wait() {
                Ok(Some(status)) => {
                    *slot = None;
                    // The cause: the first rank that failed on its own, rather than one
                    // stopped by another's failure (several can be seen in one pass).
                    let stopped = |s: &ExitStatus| s.code() == Some(STOPPED_EXIT);
                    if !status.success()
                        && first_failure
                            .as_ref()
                            .is_none_or(|(_, f)| stopped(f) && !stopped(&status))
                    {
                        first_failure = Some((rank, status));
                        deadline.get_or_insert(Instant::now() + GRACE);
                    }
                }
                Ok(None) => {}
                Err(e) => {
                    tracing::warn!(rank, "cannot wait for rank {rank}: {e}");
                }
            }
        }
        if children.iter().all(Option::is_none) {
            break;
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            for (rank, slot) in children.iter_mut().enumerate() {
                if let Some(c) = slot {
                    let _ = c.kill();
                    let _ = c.wait();
                    killed.push(rank.to_string());
                    *slot = None;
                }
            }
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    match first_failure {
        None => Ok(()),
        Some((rank, status)) => Err(Error::Invalid(format!(
            "rank {rank} failed ({}), so the run stopped{}; the last checkpoint in the run directory is intact and the same command resumes from it",
            match status.code() {
                Some(_) => format!("{status}; its error is above"),
                None => format!("killed: {status}"),
            },
            if killed.is_empty() {
                String::new()
            } else {
                format!(
                    " (rank(s) {} killed after {} s)",
                    killed.join(", "),
                    GRACE.as_secs()
                )
            }
        ))),
    }
}

fn kill_all(children: &mut [Option<Child>]) {
    for c in children.iter_mut().flatten() {
        let _ = c.kill();
        let _ = c.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(vars: &[(&str, &str)]) -> Result<Option<RankEnv>> {
        RankEnv::from_vars(|k| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        })
    }

    #[test]
    fn rank_variables_are_checked() {
        assert_eq!(parse(&[]).unwrap(), None);
        let env = parse(&[
            ("RANK", "1"),
            ("WORLD_SIZE", "2"),
            ("MASTER_ADDR", "10.0.0.1"),
            ("MASTER_PORT", "29500"),
        ])
        .unwrap()
        .unwrap();
        assert_eq!((env.rank, env.world_size, env.local_rank), (1, 2, 1));
        assert_eq!(
            (env.master_addr.as_str(), env.master_port),
            ("10.0.0.1", 29500)
        );
        let err = |vars: &[(&str, &str)]| parse(vars).unwrap_err().to_string();
        let e = err(&[("RANK", "2"), ("WORLD_SIZE", "2")]);
        assert!(e.contains("RANK = 2 with WORLD_SIZE = 2"), "{e}");
        let e = err(&[("RANK", "0")]);
        assert!(e.contains("WORLD_SIZE is not set"), "{e}");
        let e = err(&[("RANK", "0"), ("WORLD_SIZE", "2"), ("MASTER_ADDR", "h")]);
        assert!(e.contains("MASTER_PORT is not set"), "{e}");
        let e = err(&[("RANK", "0"), ("WORLD_SIZE", "2"), ("MASTER_PORT", "1")]);
        assert!(e.contains("MASTER_ADDR is not set"), "{e}");
        let e = err(&[
            ("RANK", "x"),
            ("WORLD_SIZE", "2"),
            ("MASTER_ADDR", "h"),
            ("MASTER_PORT", "1"),
        ]);
        assert!(e.contains("RANK = `x`"), "{e}");
        let e = err(&[
            ("RANK", "0"),
            ("WORLD_SIZE", "2"),
            ("MASTER_ADDR", "h"),
            ("MASTER_PORT", "70000"),
        ]);
        assert!(e.contains("not a TCP port"), "{e}");
        // One rank alone needs no rendezvous.
        let one = parse(&[("RANK", "0"), ("WORLD_SIZE", "1")])
            .unwrap()
            .unwrap();
        assert_eq!(one.world_size, 1);
    }
}
