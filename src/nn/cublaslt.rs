//! cuBLASLt matmuls with a bias (+ ReLU) epilogue for [`super::fused_dense`], with a per-shape
//! plan cache: the matmul descriptor, the three matrix layouts and the algorithm chosen by
//! cuBLASLt's heuristic are made once per `(rows, k, n, relu)` and reused, so a call costs one
//! descriptor attribute (the bias pointer) and the launch. (cudarc's safe `Matmul::matmul`
//! rebuilds all of them and queries the heuristic on every call: host time that made the fused
//! layer slower than matmul + `bias_act` when the step is launch-bound.) Only built with `cuda`.

use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::{Arc, Mutex, OnceLock};

use candle_core::backend::BackendStorage;
use candle_core::cuda_backend::cudarc::cublaslt::{result, sys};
use candle_core::cuda_backend::cudarc::driver::{CudaSlice, DevicePtr, DevicePtrMut};
use candle_core::{CudaStorage, Layout, Result};

/// Workspace cuBLASLt may use (NVIDIA's recommendation for Hopper).
const WORKSPACE_BYTES: usize = 32 << 20;

fn lt_err(what: &str, e: impl std::fmt::Debug) -> candle_core::Error {
    candle_core::Error::Msg(format!("cuBLASLt {what}: {e:?}"))
}

/// Descriptor, layouts and algorithm of one matmul shape (raw handles, owned by the cache).
#[derive(Clone, Copy)]
struct Plan {
    desc: sys::cublasLtMatmulDesc_t,
    a: sys::cublasLtMatrixLayout_t,
    b: sys::cublasLtMatrixLayout_t,
    c: sys::cublasLtMatrixLayout_t,
    algo: sys::cublasLtMatmulAlgo_t,
}

/// The handle, workspace and plans of one CUDA stream.
struct StreamState {
    stream_key: usize,
    handle: sys::cublasLtHandle_t,
    workspace: CudaSlice<u8>,
    plans: HashMap<(usize, usize, usize, bool), Plan>,
}

// SAFETY: the raw cuBLASLt handles are only used under the cache's mutex, and cuBLASLt handles
// and descriptors may be used from any host thread.
unsafe impl Send for StreamState {}

static STATES: OnceLock<Mutex<Vec<StreamState>>> = OnceLock::new();

fn set_desc<T>(
    desc: sys::cublasLtMatmulDesc_t,
    attr: sys::cublasLtMatmulDescAttributes_t,
    v: &T,
) -> Result<()> {
    // SAFETY: `v` is a live value of the size the attribute expects.
    unsafe {
        result::set_matmul_desc_attribute(
            desc,
            attr,
            v as *const T as *const c_void,
            std::mem::size_of::<T>(),
        )
    }
    .map_err(|e| lt_err("descriptor attribute", e))
}

impl StreamState {
    /// The plan of `y (rows, n) = act(x (rows, k) · wᵀ + b)` in column-major terms:
    /// `yᵀ (n × rows) = op(W) · xᵀ` with `W` the row-major `w` read as column-major `k × n`
    /// (transposed by the op) and `xᵀ` the row-major `x` read as column-major `k × rows`.
    fn plan(&mut self, rows: usize, k: usize, n: usize, relu: bool, bias: u64) -> Result<Plan> {
        use std::collections::hash_map::Entry;
        let handle = self.handle;
        match self.plans.entry((rows, k, n, relu)) {
            Entry::Occupied(e) => Ok(*e.get()),
            Entry::Vacant(e) => {
                let f32t = sys::cudaDataType_t::CUDA_R_32F;
                let desc = result::create_matmul_desc(
                    sys::cublasComputeType_t::CUBLAS_COMPUTE_32F_FAST_TF32,
                    f32t,
                )
                .map_err(|e| lt_err("descriptor", e))?;
                use sys::cublasLtMatmulDescAttributes_t as A;
                set_desc(desc, A::CUBLASLT_MATMUL_DESC_TRANSA, &1i32)?;
                set_desc(desc, A::CUBLASLT_MATMUL_DESC_TRANSB, &0i32)?;
                let epilogue = if relu {
                    sys::cublasLtEpilogue_t::CUBLASLT_EPILOGUE_RELU_BIAS
                } else {
                    sys::cublasLtEpilogue_t::CUBLASLT_EPILOGUE_BIAS
                };
                set_desc(desc, A::CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue)?;
                set_desc(desc, A::CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias)?;
                let layout = |r: usize, c: usize, ld: usize| {
                    result::create_matrix_layout(f32t, r as u64, c as u64, ld as i64)
                        .map_err(|e| lt_err("layout", e))
                };
                let (a, b, c) = (layout(k, n, k)?, layout(k, rows, k)?, layout(n, rows, n)?);
                let pref = result::create_matmul_pref().map_err(|e| lt_err("preference", e))?;
                let ws = WORKSPACE_BYTES;
                // SAFETY: all handles were just created and are alive.
                let heuristic = unsafe {
                    result::set_matmul_pref_attribute(
                        pref,
                        sys::cublasLtMatmulPreferenceAttributes_t::CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                        &ws as *const usize as *const c_void,
                        std::mem::size_of::<usize>(),
                    )
                    .map_err(|e| lt_err("preference", e))?;
                    let h = result::get_matmul_algo_heuristic(handle, desc, a, b, c, c, pref);
                    result::destroy_matmul_pref(pref).map_err(|e| lt_err("preference", e))?;
                    h.map_err(|e| lt_err(&format!("no algorithm for {rows}x{k}x{n}"), e))?
                };
                Ok(*e.insert(Plan {
                    desc,
                    a,
                    b,
                    c,
                    algo: heuristic.algo,
                }))
            }
        }
    }
}

/// The contiguous f32 elements of a storage.
fn slice<'a>(
    (s, l): (&'a CudaStorage, &Layout),
) -> Result<candle_core::cuda_backend::cudarc::driver::CudaView<'a, f32>> {
    let (a, b) = l
        .contiguous_offsets()
        .ok_or_else(|| candle_core::Error::Msg("dense_lt: inputs must be contiguous".into()))?;
    Ok(s.as_cuda_slice::<f32>()?.slice(a..b))
}

/// `act(x Wᵀ + b)` as one cuBLASLt matmul (TF32) with the bias (+ ReLU) epilogue:
/// `x (rows, k)`, `w (n, k)`, `b (n)`, all contiguous f32 → `(rows, n)`.
pub(crate) fn dense_lt(
    x: (&CudaStorage, &Layout),
    w: (&CudaStorage, &Layout),
    b: (&CudaStorage, &Layout),
    (rows, k, n): (usize, usize, usize),
    relu: bool,
) -> Result<CudaStorage> {
    let dev = x.0.device();
    let (xv, wv, bv) = (slice(x)?, slice(w)?, slice(b)?);
    // SAFETY: cuBLASLt writes every output element (beta = 0).
    let mut out = unsafe { dev.alloc::<f32>((rows * n).max(1))? };
    let stream = dev.cuda_stream();
    let key = Arc::as_ptr(&stream) as usize;
    let mut states = STATES
        .get_or_init(|| Mutex::new(Vec::new()))
        .lock()
        .map_err(|_| candle_core::Error::Msg("cuBLASLt plan cache poisoned".into()))?;
    if !states.iter().any(|s| s.stream_key == key) {
        let handle = result::create_handle().map_err(|e| lt_err("handle", e))?;
        // SAFETY: scratch memory for cuBLASLt, never read by us.
        let workspace = unsafe { dev.alloc::<u8>(WORKSPACE_BYTES)? };
        states.push(StreamState {
            stream_key: key,
            handle,
            workspace,
            plans: HashMap::new(),
        });
    }
    let state = states
        .iter_mut()
        .find(|s| s.stream_key == key)
        .expect("state just ensured");
    {
        let (xp, _gx) = xv.device_ptr(&stream);
        let (wp, _gw) = wv.device_ptr(&stream);
        let (bp, _gb) = bv.device_ptr(&stream);
        let plan = state.plan(rows, k, n, relu, bp)?;
        set_desc(
            plan.desc,
            sys::cublasLtMatmulDescAttributes_t::CUBLASLT_MATMUL_DESC_BIAS_POINTER,
            &bp,
        )?;
        let (wsp, _gws) = state.workspace.device_ptr(&stream);
        let (yp, _gy) = out.device_ptr_mut(&stream);
        let (alpha, beta) = (1.0f32, 0.0f32);
        debug_assert_eq!(xv.len(), rows * k);
        debug_assert_eq!(wv.len(), n * k);
        debug_assert_eq!(bv.len(), n);
        // SAFETY: the plan's layouts describe these contiguous buffers, the descriptor's bias
        // pointer was just set to `b`, and the call is ordered on candle's stream.
        unsafe {
            result::matmul(
                state.handle,
                plan.desc,
                &alpha as *const f32 as *const c_void,
                &beta as *const f32 as *const c_void,
                wp as *const c_void,
                plan.a,
                xp as *const c_void,
                plan.b,
                yp as *const c_void,
                plan.c,
                yp as *mut c_void,
                plan.c,
                &plan.algo,
                wsp as *mut c_void,
                WORKSPACE_BYTES,
                stream.cu_stream() as sys::cudaStream_t,
            )
        }
        .map_err(|e| lt_err(&format!("matmul {rows}x{k}x{n}"), e))?;
    }
    drop(states);
    Ok(CudaStorage::wrap_cuda_slice(out, dev.clone()))
}
