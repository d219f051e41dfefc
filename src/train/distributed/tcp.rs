//! [`TcpGroup`]: a [`Communicator`] between processes over TCP (the CPU's stand-in for NCCL, and
//! the rendezvous and failure channel of the NCCL communicator).
//!
//! A star through rank 0: rank 0 listens at `MASTER_ADDR:MASTER_PORT`, every other rank connects
//! and introduces itself (rank, world size). A collective is a gather to rank 0 then a scatter of
//! the result: each rank sends its contribution, rank 0 reads them in rank order, combines them
//! (the mean summed in rank order as [`super::InProcessGroup`] sums it, with the same candle ops,
//! so the two give bit-identical results) and sends the result back. A rank that fails sends an
//! abort message naming itself; rank 0 forwards it to every rank. A rank whose connection closes
//! (its process ended, was killed or crashed) is named in every other rank's error.
//!
//! Wire format (little-endian): a message is a tag byte and a payload; tensors go as a count,
//! then per tensor a dtype byte, the rank, the dims (`u64` each) and the raw elements.

use std::io::{BufReader, BufWriter, ErrorKind, Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use candle_core::{DType, Device, Tensor};

use super::{check_root, devices_of, mean_in_rank_order, stopped, Communicator};
use crate::error::{Error, Result};

/// First bytes of a rank's greeting (protocol name and version).
const MAGIC: &[u8; 8] = b"SILOTDP1";

const TAG_HELLO: u8 = 1;
const TAG_WELCOME: u8 = 2;
const TAG_REFUSED: u8 = 3;
const TAG_CONTRIBUTION: u8 = 4;
const TAG_RESULT: u8 = 5;
const TAG_ABORT: u8 = 6;

/// The collective a contribution belongs to (checked: every rank must call the same one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Mean,
    Broadcast(u32),
    Barrier,
}

impl Op {
    fn encode(self) -> [u8; 5] {
        let (code, root) = match self {
            Op::Mean => (0u8, 0u32),
            Op::Broadcast(r) => (1, r),
            Op::Barrier => (2, 0),
        };
        let r = root.to_le_bytes();
        [code, r[0], r[1], r[2], r[3]]
    }

    fn decode(b: [u8; 5]) -> std::io::Result<Op> {
        let root = u32::from_le_bytes([b[1], b[2], b[3], b[4]]);
        match b[0] {
            0 => Ok(Op::Mean),
            1 => Ok(Op::Broadcast(root)),
            2 => Ok(Op::Barrier),
            c => Err(bad_data(format!("unknown collective code {c}"))),
        }
    }
}

/// A message between a rank and rank 0.
enum Msg {
    Contribution(Op, Vec<Tensor>),
    Result(Vec<Tensor>),
    Abort(String),
}

/// One connection: to rank 0 (on the other ranks) or to rank `rank` (on rank 0).
struct Peer {
    rank: usize,
    reader: BufReader<TcpStream>,
    writer: BufWriter<TcpStream>,
}

struct Inner {
    /// On rank 0 the connections to ranks `1 .. world` in rank order; elsewhere the one to rank 0.
    peers: Vec<Peer>,
    failed: Option<String>,
}

/// One rank's end of a group of processes connected over TCP ([`TcpGroup::connect`]).
/// Dropping it while the thread panics aborts the group.
pub struct TcpGroup {
    rank: usize,
    world: usize,
    inner: Mutex<Inner>,
}

/// Where and how long to meet: rank 0's address, and how long ranks wait for each other.
#[derive(Debug, Clone)]
pub struct Rendezvous {
    /// `MASTER_ADDR`: rank 0's host name or address.
    pub addr: String,
    /// `MASTER_PORT`.
    pub port: u16,
    /// How long rank 0 waits for every rank to connect, and a rank for rank 0 to listen.
    pub timeout: Duration,
}

fn bad_data(msg: String) -> std::io::Error {
    std::io::Error::new(ErrorKind::InvalidData, msg)
}

fn io_err(what: String) -> impl FnOnce(std::io::Error) -> Error {
    move |e| Error::Invalid(format!("{what}: {e}"))
}

impl TcpGroup {
    /// Join the group as `rank` of `world`: rank 0 listens at `rv.addr:rv.port` (on every
    /// interface unless the address is a loopback one) until the `world − 1` other ranks have
    /// connected; the others connect to it, retrying until `rv.timeout`. Errors name what was
    /// wrong: the port in use, a rank that never came, two processes claiming one rank, or
    /// different world sizes.
    pub fn connect(rank: usize, world: usize, rv: &Rendezvous) -> Result<TcpGroup> {
        if world == 0 || rank >= world {
            return Err(Error::Invalid(format!(
                "rank {rank} in a group of {world}: the rank must be below the world size"
            )));
        }
        let peers = if rank == 0 {
            listen(world, rv)?
        } else {
            vec![dial(rank, world, rv)?]
        };
        Ok(TcpGroup {
            rank,
            world,
            inner: Mutex::new(Inner {
                peers,
                failed: None,
            }),
        })
    }

    fn lock(&self) -> Result<MutexGuard<'_, Inner>> {
        self.inner
            .lock()
            .map_err(|_| stopped("the communicator's lock is poisoned (a panic while using it)"))
    }

    /// Gather `contrib` at rank 0, combine there, scatter the result (see the module docs).
    fn collective(
        &self,
        op: Op,
        contrib: Vec<Tensor>,
        devices: Vec<Device>,
        combine: impl FnOnce(Vec<Vec<Tensor>>) -> Result<Vec<Tensor>>,
    ) -> Result<Vec<Tensor>> {
        let mut inner = self.lock()?;
        if let Some(reason) = &inner.failed {
            return Err(stopped(reason));
        }
        let contrib = contrib
            .iter()
            .map(|t| t.to_device(&Device::Cpu))
            .collect::<candle_core::Result<Vec<_>>>()?;
        let result = if self.rank == 0 {
            self.root_collective(&mut inner, op, contrib, combine)?
        } else {
            self.leaf_collective(&mut inner, op, contrib)?
        };
        drop(inner);
        result
            .iter()
            .enumerate()
            .map(|(i, t)| match devices.get(i) {
                Some(d) => Ok(t.to_device(d)?),
                None => Ok(t.clone()),
            })
            .collect()
    }

    fn root_collective(
        &self,
        inner: &mut Inner,
        op: Op,
        contrib: Vec<Tensor>,
        combine: impl FnOnce(Vec<Vec<Tensor>>) -> Result<Vec<Tensor>>,
    ) -> Result<Vec<Tensor>> {
        let mut all = Vec::with_capacity(self.world);
        all.push(contrib);
        for i in 0..inner.peers.len() {
            let r = inner.peers[i].rank;
            let reason = match read_msg(&mut inner.peers[i].reader) {
                Ok(Msg::Contribution(o, t)) if o == op => {
                    all.push(t);
                    continue;
                }
                Ok(Msg::Contribution(o, _)) => {
                    format!("rank {r} called {o:?} while rank 0 called {op:?}")
                }
                Ok(Msg::Abort(reason)) => reason,
                Ok(Msg::Result(_)) => format!("rank {r} sent a result (a protocol error)"),
                Err(e) => closed(r, &e),
            };
            return Err(fail(inner, reason));
        }
        let result = match combine(all) {
            Ok(r) => r,
            Err(e) => return Err(fail(inner, format!("a collective operation failed: {e}"))),
        };
        for i in 0..inner.peers.len() {
            let p = &mut inner.peers[i];
            if let Err(e) = write_msg(&mut p.writer, &Msg::Result(result.clone())) {
                let reason = closed(p.rank, &e);
                return Err(fail(inner, reason));
            }
        }
        Ok(result)
    }

    fn leaf_collective(
        &self,
        inner: &mut Inner,
        op: Op,
        contrib: Vec<Tensor>,
    ) -> Result<Vec<Tensor>> {
        let p = &mut inner.peers[0];
        let sent = write_msg(&mut p.writer, &Msg::Contribution(op, contrib));
        // A failed send: rank 0 may have said why before closing.
        let reason = match read_msg(&mut p.reader) {
            Ok(Msg::Result(t)) if sent.is_ok() => return Ok(t),
            Ok(Msg::Abort(reason)) => reason,
            Ok(_) => "rank 0 sent an unexpected message (a protocol error)".to_string(),
            Err(e) => closed(0, sent.as_ref().err().unwrap_or(&e)),
        };
        inner.failed = Some(reason.clone());
        Err(stopped(&reason))
    }
}

/// The reason given when rank `r`'s connection failed with `e`.
fn closed(r: usize, e: &std::io::Error) -> String {
    match e.kind() {
        ErrorKind::UnexpectedEof => format!(
            "rank {r} closed its connection: its process ended without a word (killed or crashed)"
        ),
        _ => format!("rank {r}'s connection failed ({e}): its process ended (killed or crashed) or the network failed"),
    }
}

/// Record `reason` as the group's failure and tell every other rank (rank 0 only).
fn fail(inner: &mut Inner, reason: String) -> Error {
    if inner.failed.is_none() {
        inner.failed = Some(reason.clone());
    }
    for p in &mut inner.peers {
        let _ = write_msg(&mut p.writer, &Msg::Abort(reason.clone()));
    }
    stopped(&reason)
}

impl Communicator for TcpGroup {
    fn rank(&self) -> usize {
        self.rank
    }

    fn world_size(&self) -> usize {
        self.world
    }

    fn all_reduce_mean(&self, tensors: &[Tensor]) -> Result<Vec<Tensor>> {
        let contrib = tensors.iter().map(Tensor::detach).collect();
        let world = self.world;
        // Summed in rank order, as InProcessComm does (bit-identical results).
        self.collective(Op::Mean, contrib, devices_of(tensors), |all| {
            mean_in_rank_order(&all, world)
        })
    }

    fn broadcast(&self, tensors: &[Tensor], root: usize) -> Result<Vec<Tensor>> {
        check_root(root, self.world)?;
        let contrib = if self.rank == root {
            tensors.to_vec()
        } else {
            Vec::new()
        };
        self.collective(
            Op::Broadcast(root as u32),
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
        let Ok(mut inner) = self.inner.lock() else {
            return;
        };
        if inner.failed.is_some() {
            return;
        }
        // Rank 0 tells everyone; another rank tells rank 0, which tells everyone.
        let _ = fail(&mut inner, reason.to_string());
    }
}

impl Drop for TcpGroup {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.abort(&format!("rank {} panicked", self.rank));
        }
    }
}

/// Rank 0: listen and accept every other rank's greeting.
fn listen(world: usize, rv: &Rendezvous) -> Result<Vec<Peer>> {
    let ip = resolve(&rv.addr, rv.port)?.ip();
    // Other hosts reach rank 0 by MASTER_ADDR; listen on every interface unless it is loopback.
    let bind_ip = if ip.is_loopback() {
        ip
    } else {
        IpAddr::V4(Ipv4Addr::UNSPECIFIED)
    };
    let listener = TcpListener::bind((bind_ip, rv.port)).map_err(|e| {
        if e.kind() == ErrorKind::AddrInUse {
            Error::Invalid(format!(
                "rank 0 cannot listen at MASTER_PORT {} ({e}): another run (or a rank 0 still running) uses it; pick another MASTER_PORT",
                rv.port
            ))
        } else {
            Error::Invalid(format!(
                "rank 0 cannot listen at {bind_ip}:{} (MASTER_ADDR `{}`, MASTER_PORT): {e}",
                rv.port, rv.addr
            ))
        }
    })?;
    listener
        .set_nonblocking(true)
        .map_err(io_err("rank 0: listening socket".into()))?;
    let deadline = Instant::now() + rv.timeout;
    let mut peers: Vec<Option<Peer>> = (1..world).map(|_| None).collect();
    while peers.iter().any(Option::is_none) {
        match listener.accept() {
            Ok((stream, from)) => {
                let peer = greet(stream, world).map_err(|e| {
                    Error::Invalid(format!("rank 0: a process connecting from {from}: {e}"))
                })?;
                let slot = &mut peers[peer.rank - 1];
                if slot.is_some() {
                    let mut p = peer;
                    let msg = format!("two processes say they are rank {}", p.rank);
                    let _ = refuse(&mut p.writer, &msg);
                    return Err(Error::Invalid(format!(
                        "rank 0: {msg}: give every process its own RANK"
                    )));
                }
                *slot = Some(peer);
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                if Instant::now() >= deadline {
                    let missing: Vec<String> = peers
                        .iter()
                        .enumerate()
                        .filter(|(_, p)| p.is_none())
                        .map(|(i, _)| (i + 1).to_string())
                        .collect();
                    return Err(Error::Invalid(format!(
                        "rank 0: rank(s) {} of {world} did not connect to port {} within {:.0} s (SILOT_RENDEZVOUS_TIMEOUT): start every rank with the same MASTER_ADDR/MASTER_PORT/WORLD_SIZE",
                        missing.join(", "),
                        rv.port,
                        rv.timeout.as_secs_f64()
                    )));
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => return Err(Error::Invalid(format!("rank 0: accepting a rank: {e}"))),
        }
    }
    let mut peers: Vec<Peer> = peers.into_iter().map(|p| p.expect("all came")).collect();
    for p in &mut peers {
        p.writer
            .write_all(&[TAG_WELCOME])
            .and_then(|_| p.writer.flush())
            .map_err(|e| Error::Invalid(format!("rank 0: {}", closed(p.rank, &e))))?;
    }
    Ok(peers)
}

/// Rank 0: read a connecting rank's greeting (magic, rank, world size) and check it.
fn greet(stream: TcpStream, world: usize) -> Result<Peer> {
    let setup = |s: &TcpStream| -> std::io::Result<()> {
        s.set_nonblocking(false)?;
        s.set_nodelay(true)?;
        s.set_read_timeout(Some(Duration::from_secs(30)))
    };
    setup(&stream).map_err(io_err("socket setup".into()))?;
    let mut reader = BufReader::new(stream.try_clone().map_err(io_err("socket".into()))?);
    let mut writer = BufWriter::new(stream);
    let mut head = [0u8; 17];
    reader
        .read_exact(&mut head)
        .map_err(io_err("no greeting (not a silot rank?)".into()))?;
    if head[0] != TAG_HELLO || &head[1..9] != MAGIC {
        return Err(Error::Invalid(
            "it is not a silot rank of this version (wrong greeting); is MASTER_PORT used by something else?".into(),
        ));
    }
    let rank = u32::from_le_bytes(head[9..13].try_into().expect("4 bytes")) as usize;
    let their_world = u32::from_le_bytes(head[13..17].try_into().expect("4 bytes")) as usize;
    let problem = if their_world != world {
        Some(format!(
            "rank {rank} has WORLD_SIZE = {their_world}, rank 0 has {world}: give every rank the same WORLD_SIZE"
        ))
    } else if rank == 0 || rank >= world {
        Some(format!(
            "a process says it is rank {rank} of {world}: another rank 0, or RANK out of range"
        ))
    } else {
        None
    };
    if let Some(msg) = problem {
        let _ = refuse(&mut writer, &msg);
        return Err(Error::Invalid(msg));
    }
    reader
        .get_ref()
        .set_read_timeout(None)
        .map_err(io_err("socket setup".into()))?;
    Ok(Peer {
        rank,
        reader,
        writer,
    })
}

fn refuse(w: &mut impl Write, msg: &str) -> std::io::Result<()> {
    w.write_all(&[TAG_REFUSED])?;
    write_str(w, msg)?;
    w.flush()
}

/// A rank other than 0: connect to rank 0 (retrying until the timeout) and introduce itself.
fn dial(rank: usize, world: usize, rv: &Rendezvous) -> Result<Peer> {
    let deadline = Instant::now() + rv.timeout;
    let stream = loop {
        let addr = resolve(&rv.addr, rv.port)?;
        match TcpStream::connect_timeout(&addr, Duration::from_secs(5)) {
            Ok(s) => break s,
            Err(e) if Instant::now() < deadline => {
                tracing::debug!(rank, "rank 0 not reachable yet at {addr}: {e}");
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => {
                return Err(Error::Invalid(format!(
                    "rank {rank}: rank 0 did not answer at {}:{} within {:.0} s (SILOT_RENDEZVOUS_TIMEOUT): {e}; is rank 0 running, with the same MASTER_ADDR/MASTER_PORT?",
                    rv.addr,
                    rv.port,
                    rv.timeout.as_secs_f64()
                )))
            }
        }
    };
    let ctx = |what: &str| format!("rank {rank}: {what} rank 0 at {}:{}", rv.addr, rv.port);
    stream
        .set_nodelay(true)
        .map_err(io_err(ctx("socket setup with")))?;
    let mut reader = BufReader::new(stream.try_clone().map_err(io_err(ctx("socket to")))?);
    let mut writer = BufWriter::new(stream);
    let mut hello = vec![TAG_HELLO];
    hello.extend_from_slice(MAGIC);
    hello.extend_from_slice(&(rank as u32).to_le_bytes());
    hello.extend_from_slice(&(world as u32).to_le_bytes());
    writer
        .write_all(&hello)
        .and_then(|_| writer.flush())
        .map_err(io_err(ctx("greeting")))?;
    let mut tag = [0u8];
    reader
        .read_exact(&mut tag)
        .map_err(io_err(ctx("no answer from")))?;
    match tag[0] {
        TAG_WELCOME => Ok(Peer {
            rank: 0,
            reader,
            writer,
        }),
        TAG_REFUSED => {
            let msg = read_str(&mut reader).unwrap_or_default();
            Err(Error::Invalid(format!(
                "rank {rank}: refused by rank 0: {msg}"
            )))
        }
        t => Err(Error::Invalid(format!(
            "{}: unexpected answer {t} (not a silot rank 0 of this version?)",
            ctx("greeting")
        ))),
    }
}

fn resolve(addr: &str, port: u16) -> Result<SocketAddr> {
    let mut addrs = (addr, port).to_socket_addrs().map_err(|e| {
        Error::Invalid(format!(
            "MASTER_ADDR `{addr}` does not resolve ({e}): give rank 0's host name or IP address"
        ))
    })?;
    // IPv4 first: what `localhost` usually means to the other ranks too.
    let all: Vec<SocketAddr> = addrs.by_ref().collect();
    all.iter()
        .find(|a| a.is_ipv4())
        .or(all.first())
        .copied()
        .ok_or_else(|| Error::Invalid(format!("MASTER_ADDR `{addr}` resolves to no address")))
}

// ---- wire format ----

fn write_str(w: &mut impl Write, s: &str) -> std::io::Result<()> {
    w.write_all(&(s.len() as u64).to_le_bytes())?;
    w.write_all(s.as_bytes())
}

fn read_u64(r: &mut impl Read) -> std::io::Result<u64> {
    let mut b = [0u8; 8];
    r.read_exact(&mut b)?;
    Ok(u64::from_le_bytes(b))
}

/// Lengths read from the wire are bounded so that a stray connection cannot make us allocate
/// without end.
const MAX_LEN: u64 = 1 << 40;

fn read_len(r: &mut impl Read) -> std::io::Result<usize> {
    let n = read_u64(r)?;
    if n > MAX_LEN {
        return Err(bad_data(format!("length {n} out of range")));
    }
    Ok(n as usize)
}

fn read_str(r: &mut impl Read) -> std::io::Result<String> {
    let n = read_len(r)?;
    let mut b = vec![0u8; n];
    r.read_exact(&mut b)?;
    Ok(String::from_utf8_lossy(&b).into_owned())
}

fn write_msg(w: &mut impl Write, msg: &Msg) -> std::io::Result<()> {
    match msg {
        Msg::Contribution(op, tensors) => {
            w.write_all(&[TAG_CONTRIBUTION])?;
            w.write_all(&op.encode())?;
            write_tensors(w, tensors)?;
        }
        Msg::Result(tensors) => {
            w.write_all(&[TAG_RESULT])?;
            write_tensors(w, tensors)?;
        }
        Msg::Abort(reason) => {
            w.write_all(&[TAG_ABORT])?;
            write_str(w, reason)?;
        }
    }
    w.flush()
}

fn read_msg(r: &mut impl Read) -> std::io::Result<Msg> {
    let mut tag = [0u8];
    r.read_exact(&mut tag)?;
    match tag[0] {
        TAG_CONTRIBUTION => {
            let mut op = [0u8; 5];
            r.read_exact(&mut op)?;
            Ok(Msg::Contribution(Op::decode(op)?, read_tensors(r)?))
        }
        TAG_RESULT => Ok(Msg::Result(read_tensors(r)?)),
        TAG_ABORT => Ok(Msg::Abort(read_str(r)?)),
        t => Err(bad_data(format!("unknown message tag {t}"))),
    }
}

const DTYPES: [DType; 7] = [
    DType::U8,
    DType::U32,
    DType::I64,
    DType::BF16,
    DType::F16,
    DType::F32,
    DType::F64,
];

fn dtype_code(d: DType) -> std::io::Result<u8> {
    DTYPES
        .iter()
        .position(|x| *x == d)
        .map(|i| i as u8)
        .ok_or_else(|| bad_data(format!("dtype {d:?} cannot be sent")))
}

/// A CPU tensor's elements as little-endian bytes.
fn tensor_bytes(t: &Tensor) -> std::io::Result<Vec<u8>> {
    fn le<T: candle_core::WithDType, const N: usize>(
        t: &Tensor,
        to: impl Fn(T) -> [u8; N],
    ) -> candle_core::Result<Vec<u8>> {
        Ok(t.flatten_all()?
            .to_vec1::<T>()?
            .into_iter()
            .flat_map(to)
            .collect())
    }
    let b = match t.dtype() {
        DType::U8 => le::<u8, 1>(t, |x| [x]),
        DType::U32 => le::<u32, 4>(t, u32::to_le_bytes),
        DType::I64 => le::<i64, 8>(t, i64::to_le_bytes),
        DType::BF16 => le::<half::bf16, 2>(t, half::bf16::to_le_bytes),
        DType::F16 => le::<half::f16, 2>(t, half::f16::to_le_bytes),
        DType::F32 => le::<f32, 4>(t, f32::to_le_bytes),
        DType::F64 => le::<f64, 8>(t, f64::to_le_bytes),
        d => return Err(bad_data(format!("dtype {d:?} cannot be sent"))),
    };
    b.map_err(|e| bad_data(format!("reading a tensor: {e}")))
}

fn tensor_from_bytes(d: DType, dims: &[usize], b: &[u8]) -> candle_core::Result<Tensor> {
    fn from<T: candle_core::WithDType, const N: usize>(
        b: &[u8],
        dims: &[usize],
        f: impl Fn([u8; N]) -> T,
    ) -> candle_core::Result<Tensor> {
        let v: Vec<T> = b
            .chunks_exact(N)
            .map(|c| f(c.try_into().expect("N bytes")))
            .collect();
        Tensor::from_vec(v, dims, &Device::Cpu)
    }
    match d {
        DType::U8 => from::<u8, 1>(b, dims, |x| x[0]),
        DType::U32 => from::<u32, 4>(b, dims, u32::from_le_bytes),
        DType::I64 => from::<i64, 8>(b, dims, i64::from_le_bytes),
        DType::BF16 => from::<half::bf16, 2>(b, dims, half::bf16::from_le_bytes),
        DType::F16 => from::<half::f16, 2>(b, dims, half::f16::from_le_bytes),
        DType::F32 => from::<f32, 4>(b, dims, f32::from_le_bytes),
        _ => from::<f64, 8>(b, dims, f64::from_le_bytes),
    }
}

fn write_tensors(w: &mut impl Write, tensors: &[Tensor]) -> std::io::Result<()> {
    w.write_all(&(tensors.len() as u64).to_le_bytes())?;
    for t in tensors {
        w.write_all(&[dtype_code(t.dtype())?])?;
        w.write_all(&(t.rank() as u64).to_le_bytes())?;
        for d in t.dims() {
            w.write_all(&(*d as u64).to_le_bytes())?;
        }
        w.write_all(&tensor_bytes(t)?)?;
    }
    Ok(())
}

fn read_tensors(r: &mut impl Read) -> std::io::Result<Vec<Tensor>> {
    let n = read_len(r)?;
    let mut out = Vec::with_capacity(n.min(1 << 16));
    for _ in 0..n {
        let mut code = [0u8];
        r.read_exact(&mut code)?;
        let dtype = *DTYPES
            .get(code[0] as usize)
            .ok_or_else(|| bad_data(format!("unknown dtype code {}", code[0])))?;
        let rank = read_len(r)?;
        if rank > 16 {
            return Err(bad_data(format!("tensor rank {rank} out of range")));
        }
        let dims = (0..rank)
            .map(|_| read_len(r))
            .collect::<std::io::Result<Vec<usize>>>()?;
        let bytes = dims
            .iter()
            .try_fold(dtype.size_in_bytes() as u64, |a, d| {
                a.checked_mul(*d as u64)
            })
            .filter(|n| *n <= MAX_LEN)
            .ok_or_else(|| bad_data(format!("tensor of shape {dims:?} out of range")))?;
        let mut b = vec![0u8; bytes as usize];
        r.read_exact(&mut b)?;
        out.push(
            tensor_from_bytes(dtype, &dims, &b)
                .map_err(|e| bad_data(format!("decoding a tensor: {e}")))?,
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A free port on the loopback interface (another process may take it before we do; fine
    /// for tests).
    fn free_port() -> u16 {
        TcpListener::bind(("127.0.0.1", 0))
            .unwrap()
            .local_addr()
            .unwrap()
            .port()
    }

    fn rv(port: u16) -> Rendezvous {
        Rendezvous {
            addr: "127.0.0.1".into(),
            port,
            timeout: Duration::from_secs(20),
        }
    }

    /// `f(rank, group)` on `world` threads, each with its own TCP connection.
    fn on_threads<T: Send>(
        world: usize,
        f: impl Fn(usize, &TcpGroup) -> Result<T> + Sync,
    ) -> Vec<Result<T>> {
        let port = free_port();
        std::thread::scope(|s| {
            let hs: Vec<_> = (0..world)
                .map(|rank| {
                    let f = &f;
                    s.spawn(move || {
                        let g = TcpGroup::connect(rank, world, &rv(port))?;
                        let out = f(rank, &g);
                        if let Err(e) = &out {
                            g.abort(&format!("rank {rank} failed: {e}"));
                        }
                        out
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        })
    }

    /// Mean (f32, f64, i64), broadcast from a non-zero root and barrier give every rank the same
    /// values, bit-identical to the in-process group's; a failed rank is named in every other
    /// rank's error; a rank that drops its connection is named too.
    #[test]
    fn tcp_group_matches_the_in_process_group_and_names_failed_ranks() {
        let inputs = |rank: usize| -> Result<Vec<Tensor>> {
            let x: Vec<f32> = (0..7)
                .map(|i| (i as f32 + 0.1) / (rank as f32 + 3.0))
                .collect();
            Ok(vec![
                Tensor::from_vec(x, (7,), &Device::Cpu)?,
                Tensor::new(&[[rank as f64 / 3.0]], &Device::Cpu)?,
            ])
        };
        let tcp = on_threads(3, |rank, g| {
            assert_eq!(g.world_size(), 3);
            let m = g.all_reduce_mean(&inputs(rank)?)?;
            let step = Tensor::new(&[rank as i64 + 40], &Device::Cpu)?;
            let b = g.broadcast(&[step], 2)?[0].to_vec1::<i64>()?;
            g.barrier()?;
            Ok((m[0].to_vec1::<f32>()?, m[1].to_vec2::<f64>()?, b))
        });
        let local = super::super::run_replicas(3, |rank, comm| {
            let m = comm.all_reduce_mean(&inputs(rank)?)?;
            Ok((m[0].to_vec1::<f32>()?, m[1].to_vec2::<f64>()?))
        });
        let want = local[0].as_ref().unwrap();
        for r in tcp {
            let (m, m2, b) = r.unwrap();
            assert_eq!((&m, &m2), (&want.0, &want.1));
            assert_eq!(b, vec![42]);
        }
        // Rank 2 fails before its first collective.
        let out = on_threads(3, |rank, g| {
            if rank == 2 {
                return Err(Error::Invalid("injected".into()));
            }
            g.barrier()?;
            g.barrier()
        });
        for e in [&out[0], &out[1]] {
            let e = e.as_ref().unwrap_err().to_string();
            assert!(e.contains("rank 2 failed") && e.contains("injected"), "{e}");
        }
        // Rank 1 vanishes (its connection dropped without a word) after one barrier.
        let out = on_threads(2, |rank, g| {
            g.barrier()?;
            if rank == 1 {
                let mut inner = g.lock()?;
                inner.peers.clear();
                return Ok(());
            }
            g.barrier()
        });
        let e = out[0].as_ref().unwrap_err().to_string();
        assert!(
            e.contains("rank 1 closed its connection") || e.contains("rank 1's connection failed"),
            "{e}"
        );
        // Mismatched collectives fail on every rank instead of hanging.
        let out = on_threads(2, |rank, g| {
            if rank == 0 {
                g.barrier()
            } else {
                g.broadcast(&[], 0).map(|_| ())
            }
        });
        assert!(out.iter().all(|r| r.is_err()), "{out:?}");
    }

    /// Rendezvous errors: a port in use, a wrong world size, a rank that never comes.
    #[test]
    fn tcp_rendezvous_errors_are_clear() {
        let busy = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let port = busy.local_addr().unwrap().port();
        let e = TcpGroup::connect(0, 2, &rv(port))
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("in use") && e.contains("MASTER_PORT"), "{e}");
        drop(busy);
        let port = free_port();
        let quick = Rendezvous {
            timeout: Duration::from_millis(300),
            ..rv(port)
        };
        let e = TcpGroup::connect(0, 3, &quick).err().unwrap().to_string();
        assert!(e.contains("rank(s) 1, 2 of 3 did not connect"), "{e}");
        let e = TcpGroup::connect(1, 2, &quick).err().unwrap().to_string();
        assert!(e.contains("rank 0 did not answer"), "{e}");
        let e = TcpGroup::connect(2, 2, &quick).err().unwrap().to_string();
        assert!(e.contains("below the world size"), "{e}");
        let port = free_port();
        let out = std::thread::scope(|s| {
            let a = s.spawn(|| TcpGroup::connect(0, 2, &rv(port)).map(|_| ()));
            let b = s.spawn(|| TcpGroup::connect(1, 3, &rv(port)).map(|_| ()));
            (a.join().unwrap(), b.join().unwrap())
        });
        let (a, b) = (
            out.0.unwrap_err().to_string(),
            out.1.unwrap_err().to_string(),
        );
        assert!(a.contains("WORLD_SIZE = 3, rank 0 has 2"), "{a}");
        assert!(b.contains("refused by rank 0"), "{b}");
    }
}
