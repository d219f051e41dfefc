//! Fused Gaussian relation attention, forward only (inference): for every query `q`,
//! `out[q] = Σ_k G(p_k − c_q) · MLP(proj_k + W_d·(p_k − c_q))`, with the Gaussian kernel
//! `G(d) = exp(−½‖d/s‖²)/(2π s²)` of [`super::kernel`] and an MLP whose first layer was split by
//! input columns (`proj_k` = the object-feature part plus the first bias, computed once per
//! object; `W_d` = the offset columns).
//!
//! The composed version materialises the `(B, Q, K, hidden)` pair grid (3 GB per layer for Space
//! Invaders at batch 256) although the kernel (std 0.1 anchor units) makes all but a handful of
//! pairs vanish. This op never builds the grid: per query it lists the objects within
//! [`CUTOFF_STD`] kernel widths and runs the MLP on those only. Pairs beyond the cutoff have
//! weight below `e^{−18} ≈ 1.5·10⁻⁸` of the kernel's peak; skipping them is the op's only
//! difference from the exact sum. It has no backward pass: training uses the composed version
//! (`model::attention`), which is also the reference the tests compare against.
//!
//! CPU kernel (rayon over queries) and CUDA kernel (`rel_attn_fwd_*` in `kernels.cu`, one block
//! per query) both compute in `f64` and sum the pairs in object order.

use candle_core::backend::BackendStorage;
use candle_core::{CpuStorage, CustomOp3, DType, Layout, Result, Shape, Tensor};
use rayon::prelude::*;

use super::cpu::{self, storage_slice};

/// Pairs farther than this many kernel stds from the query are skipped.
pub const CUTOFF_STD: f64 = 6.0;

/// Widest layer the CUDA kernel takes (`RA_MAXW` in `kernels.cu`).
pub const MAX_WIDTH: usize = 256;
/// Most layers after the first the CUDA kernel takes (`RA_MAXL`).
pub const MAX_LAYERS: usize = 4;
/// Most objects per batch element the CUDA kernel takes (`RA_MAXK`).
pub const MAX_OBJECTS: usize = 1024;

/// One dense layer of the relation MLP after the first: weight `(out, in)`, bias `(out)`.
pub type DenseLayer<'a> = (&'a Tensor, &'a Tensor);

/// Per-thread scratch of the CPU kernel: the output accumulator and two layer activations.
struct QueryBuffers {
    acc: Vec<f64>,
    cur: Vec<f64>,
    next: Vec<f64>,
}

impl QueryBuffers {
    fn new(out_dim: usize, max_width: usize) -> Self {
        Self {
            acc: vec![0.0; out_dim],
            cur: vec![0.0; max_width],
            next: vec![0.0; max_width],
        }
    }
}

/// [`RelationAttentionOp`]'s parameters as its CPU kernel reads them
/// ([`RelationAttentionOp::cpu_params`]).
struct CpuParams {
    /// `(h0, 2)` first-layer columns of the offset, row-major.
    w_d: Vec<f64>,
    /// Every later layer: weight transposed to `(in, out)`, row-major; bias `(out)`.
    layers: Vec<(Vec<f64>, Vec<f64>)>,
}

#[derive(Debug, Clone)]
struct RelationAttentionOp {
    k: usize,
    q: usize,
    /// `[h0, h1, …, out]`: the first layer's width, then every later layer's.
    widths: Vec<usize>,
    std: f64,
}

impl RelationAttentionOp {
    fn n_layers(&self) -> usize {
        self.widths.len() - 1
    }

    fn out_dim(&self) -> usize {
        self.widths[self.n_layers()]
    }

    fn out_shape(&self, b: usize) -> Shape {
        Shape::from((b, self.q, self.out_dim()))
    }

    /// The flat parameters (`w_d`, then every later layer's weight and bias) as the CPU kernel
    /// reads them: in `f64`, each later weight transposed to `(in, out)` so that a layer's
    /// outputs accumulate side by side (vectorisable) while each output still sums its terms in
    /// input order, as the row-by-row dot product did.
    fn cpu_params<T: candle_core::WithDType>(&self, params: &[T]) -> CpuParams {
        let w0 = self.widths[0];
        let w_d = params[..2 * w0].iter().map(|v| v.to_f64()).collect();
        let mut off = 2 * w0;
        let mut layers = Vec::with_capacity(self.n_layers());
        for l in 1..=self.n_layers() {
            let (win, wo) = (self.widths[l - 1], self.widths[l]);
            let w = &params[off..off + wo * win];
            let mut wt = vec![0.0; win * wo];
            for j in 0..wo {
                for i in 0..win {
                    wt[i * wo + j] = w[j * win + i].to_f64();
                }
            }
            let bias = params[off + wo * win..off + wo * win + wo]
                .iter()
                .map(|v| v.to_f64())
                .collect();
            layers.push((wt, bias));
            off += wo * win + wo;
        }
        CpuParams { w_d, layers }
    }

    /// Rows of one query, written into `out` (`out_dim` values).
    fn query_cpu<T: candle_core::WithDType>(
        &self,
        (proj, geo): (&[T], &[T]),
        params: &CpuParams,
        bq: usize,
        out: &mut [T],
        bufs: &mut QueryBuffers,
    ) {
        let (k_n, q_n) = (self.k, self.q);
        let (b, q) = (bq / q_n, bq % q_n);
        let g = &geo[b * (k_n + q_n) * 2..(b + 1) * (k_n + q_n) * 2];
        let (cy, cx) = (g[(k_n + q) * 2].to_f64(), g[(k_n + q) * 2 + 1].to_f64());
        let inv = 1.0 / self.std;
        let norm = 1.0 / (2.0 * std::f64::consts::PI * self.std * self.std);
        let w0 = self.widths[0];
        let nl = self.n_layers();
        let acc = &mut bufs.acc;
        let (mut cur, mut next) = (&mut bufs.cur, &mut bufs.next);
        acc.fill(0.0);
        for k in 0..k_n {
            let dy = g[k * 2].to_f64() - cy;
            let dx = g[k * 2 + 1].to_f64() - cx;
            let z2 = (dy * inv) * (dy * inv) + (dx * inv) * (dx * inv);
            if z2 > CUTOFF_STD * CUTOFF_STD {
                continue;
            }
            let gk = norm * (-0.5 * z2).exp();
            let pk = &proj[(b * k_n + k) * w0..(b * k_n + k + 1) * w0];
            for j in 0..w0 {
                let h = pk[j].to_f64() + params.w_d[2 * j] * dy + params.w_d[2 * j + 1] * dx;
                cur[j] = if nl > 0 { h.max(0.0) } else { h };
            }
            for (l, (wt, bias)) in params.layers.iter().enumerate() {
                let (win, wo) = (self.widths[l], self.widths[l + 1]);
                let nx = &mut next[..wo];
                nx.copy_from_slice(bias);
                for (i, &x) in cur[..win].iter().enumerate() {
                    for (n, w) in nx.iter_mut().zip(&wt[i * wo..(i + 1) * wo]) {
                        *n += w * x;
                    }
                }
                if l + 1 < nl {
                    for n in nx.iter_mut() {
                        *n = n.max(0.0);
                    }
                }
                std::mem::swap(&mut cur, &mut next);
            }
            for (a, v) in acc.iter_mut().zip(cur.iter()) {
                *a += gk * v;
            }
        }
        for (o, a) in out.iter_mut().zip(acc.iter()) {
            *o = T::from_f64(*a);
        }
    }

    fn cpu_typed<T: candle_core::WithDType>(
        &self,
        s: [(&CpuStorage, &Layout); 3],
    ) -> Result<Vec<T>> {
        let proj = storage_slice::<T>(s[0].0, s[0].1)?;
        let geo = storage_slice::<T>(s[1].0, s[1].1)?;
        let params = self.cpu_params(storage_slice::<T>(s[2].0, s[2].1)?);
        let b = s[0].1.dims()[0];
        let od = self.out_dim();
        let mut out = vec![T::zero(); b * self.q * od];
        out.par_chunks_mut(od).enumerate().for_each_init(
            || QueryBuffers::new(od, *self.widths.iter().max().unwrap_or(&0)),
            |bufs, (bq, o)| self.query_cpu((proj, geo), &params, bq, o, bufs),
        );
        Ok(out)
    }
}

impl CustomOp3 for RelationAttentionOp {
    fn name(&self) -> &'static str {
        "silot-relation-attention"
    }

    fn cpu_fwd(
        &self,
        s1: &CpuStorage,
        l1: &Layout,
        s2: &CpuStorage,
        l2: &Layout,
        s3: &CpuStorage,
        l3: &Layout,
    ) -> Result<(CpuStorage, Shape)> {
        let s = [(s1, l1), (s2, l2), (s3, l3)];
        let out = cpu::by_float!(s1, "relation attention", T => self.cpu_typed::<T>(s)?);
        Ok((out, self.out_shape(l1.dims()[0])))
    }

    #[cfg(feature = "cuda")]
    fn cuda_fwd(
        &self,
        s1: &candle_core::CudaStorage,
        l1: &Layout,
        s2: &candle_core::CudaStorage,
        l2: &Layout,
        s3: &candle_core::CudaStorage,
        l3: &Layout,
    ) -> Result<(candle_core::CudaStorage, Shape)> {
        use super::cuda;
        let b = l1.dims()[0];
        let dims = cuda::RelAttnDims {
            b,
            k: self.k,
            q: self.q,
            widths: &self.widths,
            std: self.std,
            cutoff_std: CUTOFF_STD,
        };
        let inputs = [(s1, l1), (s2, l2), (s3, l3)];
        let st = cuda::by_float!(s1, T => cuda::rel_attn_fwd::<T>(inputs, &dims)?);
        Ok((st, self.out_shape(b)))
    }
}

/// Whether [`relation_attention`] takes MLPs of these widths (`[h0, …, out]`) and `k` objects
/// on every device. Larger networks use the composed version.
pub fn fits(widths: &[usize], k: usize) -> bool {
    !widths.is_empty()
        && widths.len() - 1 <= MAX_LAYERS
        && widths.iter().all(|&w| (1..=MAX_WIDTH).contains(&w))
        && k <= MAX_OBJECTS
}

/// The fused attention (see the module docs).
///
/// # Shapes
/// * `proj`: `(B, K, h0)` object part of the first layer, bias included
/// * `pos`: `(B, K, 2)` object positions; `queries`: `(B, Q, 2)` query positions
/// * `w_d`: `(h0, 2)` first-layer columns of the offset `p_k − c_q`
/// * `layers`: the later layers, ReLU between layers (and after the first when there are later
///   layers), none on the output
/// * returns `(B, Q, out)`
pub fn relation_attention(
    proj: &Tensor,
    pos: &Tensor,
    queries: &Tensor,
    w_d: &Tensor,
    layers: &[DenseLayer],
    std: f64,
) -> Result<Tensor> {
    let (b, k, h0) = proj.dims3()?;
    let (bq, q, two) = queries.dims3()?;
    if pos.dims() != [b, k, 2] || bq != b || two != 2 || w_d.dims() != [h0, 2] {
        candle_core::bail!(
            "relation_attention: expected proj (B,K,h0), pos (B,K,2), queries (B,Q,2), w_d (h0,2); \
             got {:?}, {:?}, {:?}, {:?}",
            proj.dims(),
            pos.dims(),
            queries.dims(),
            w_d.dims()
        );
    }
    if !(std > 0.0 && std.is_finite()) {
        candle_core::bail!("relation_attention: std must be positive and finite, got {std}");
    }
    let mut widths = vec![h0];
    let mut params = vec![w_d.flatten_all()?];
    for (i, (w, bias)) in layers.iter().enumerate() {
        let (wo, win) = w.dims2()?;
        if win != widths[i] || bias.dims() != [wo] {
            candle_core::bail!(
                "relation_attention: layer {} is {:?} with bias {:?}; expected (out, {})",
                i + 1,
                w.dims(),
                bias.dims(),
                widths[i]
            );
        }
        widths.push(wo);
        params.push(w.flatten_all()?);
        params.push((*bias).clone());
    }
    if !fits(&widths, k) {
        candle_core::bail!(
            "relation_attention: widths {widths:?} / K = {k} exceed the kernel's limits \
             (≤ {MAX_LAYERS} later layers, widths ≤ {MAX_WIDTH}, K ≤ {MAX_OBJECTS})"
        );
    }
    let dt = proj.dtype();
    if !matches!(dt, DType::F32 | DType::F64) {
        candle_core::bail!("relation_attention supports F32 and F64, got {dt:?}");
    }
    let params = Tensor::cat(&params, 0)?.to_dtype(dt)?.contiguous()?;
    let geo = Tensor::cat(&[pos, queries], 1)?
        .to_dtype(dt)?
        .contiguous()?; // (B, K+Q, 2)
    let op = RelationAttentionOp { k, q, widths, std };
    proj.contiguous()?.apply_op3_no_bwd(&geo, &params, &op)
}

/// The composed version, straight from the definition: the `(B, Q, K, h0)` pair grid through
/// the MLP, weighted by the kernel and summed over the objects, no pair skipped (what the fused
/// op is tested and benchmarked against; training's `model::attention` composes the same).
///
/// # Shapes
/// As [`relation_attention`].
pub fn relation_attention_reference(
    proj: &Tensor,
    pos: &Tensor,
    queries: &Tensor,
    w_d: &Tensor,
    layers: &[DenseLayer],
    std: f64,
) -> Result<Tensor> {
    let (g, d) = super::kernel::gaussian_kernel_with_diffs(queries, pos, std)?;
    let mut h = d
        .broadcast_matmul(&w_d.t()?)?
        .broadcast_add(&proj.unsqueeze(1)?)?; // (B, Q, K, h0)
    for (w, b) in layers {
        h = h.relu()?.broadcast_matmul(&w.t()?)?.broadcast_add(b)?;
    }
    h.broadcast_mul(&g.unsqueeze(3)?)?.sum(2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SeededRng;
    use candle_core::Device;

    fn randn(rng: &mut SeededRng, shape: &[usize], scale: f64, dev: &Device) -> Tensor {
        rng.normal(shape, dev)
            .unwrap()
            .to_dtype(DType::F64)
            .unwrap()
            .affine(scale, 0.0)
            .unwrap()
    }

    use crate::testing::max_abs_diff;

    #[test]
    fn equals_composed_sum_within_cutoff() {
        let dev = Device::Cpu;
        let mut rng = SeededRng::new(11);
        let (b, k, q, h0, h1, out) = (2, 7, 9, 5, 6, 4);
        let std = 0.6; // every pair within the cutoff (offsets are ~N(0, 0.5²) per axis)
        let proj = randn(&mut rng, &[b, k, h0], 1.0, &dev);
        let pos = randn(&mut rng, &[b, k, 2], 0.5, &dev);
        let queries = randn(&mut rng, &[b, q, 2], 0.5, &dev);
        let w_d = randn(&mut rng, &[h0, 2], 1.0, &dev);
        let (w1, b1) = (
            randn(&mut rng, &[h1, h0], 1.0, &dev),
            randn(&mut rng, &[h1], 1.0, &dev),
        );
        let (w2, b2) = (
            randn(&mut rng, &[out, h1], 1.0, &dev),
            randn(&mut rng, &[out], 1.0, &dev),
        );
        let layers = [(&w1, &b1), (&w2, &b2)];
        let far: f64 = super::super::kernel::pairwise_differences(&queries, &pos)
            .unwrap()
            .abs()
            .unwrap()
            .max_all()
            .unwrap()
            .to_scalar()
            .unwrap();
        assert!(
            far < CUTOFF_STD * std / 2f64.sqrt(),
            "fixture has pairs beyond the cutoff"
        );
        let got = relation_attention(&proj, &pos, &queries, &w_d, &layers, std).unwrap();
        assert_eq!(got.dims(), &[b, q, out]);
        let want = relation_attention_reference(&proj, &pos, &queries, &w_d, &layers, std).unwrap();
        let scale: f64 = want.abs().unwrap().max_all().unwrap().to_scalar().unwrap();
        assert!(scale > 1e-3, "degenerate fixture");
        assert!(max_abs_diff(&got, &want) < 1e-9 * scale.max(1.0));
        // F32 inputs give F32 outputs close to the F64 ones.
        let f = |t: &Tensor| t.to_dtype(DType::F32).unwrap();
        let (w1f, b1f, w2f, b2f) = (f(&w1), f(&b1), f(&w2), f(&b2));
        let got32 = relation_attention(
            &f(&proj),
            &f(&pos),
            &f(&queries),
            &f(&w_d),
            &[(&w1f, &b1f), (&w2f, &b2f)],
            std,
        )
        .unwrap();
        assert_eq!(got32.dtype(), DType::F32);
        assert!(max_abs_diff(&got32.to_dtype(DType::F64).unwrap(), &want) < 1e-4 * scale);
    }

    #[test]
    fn far_pairs_are_skipped_near_pairs_are_not() {
        let dev = Device::Cpu;
        let std = 0.1;
        // One query at the origin; object 0 at 5.9 stds, object 1 at 6.1 stds.
        let pos = Tensor::new(&[[[0.59f64, 0.0], [0.0, 0.61]]], &dev).unwrap();
        let queries = Tensor::new(&[[[0.0f64, 0.0]]], &dev).unwrap();
        let proj = Tensor::new(&[[[1.0f64], [1000.0]]], &dev).unwrap(); // h0 = out = 1
        let w_d = Tensor::zeros((1, 2), DType::F64, &dev).unwrap();
        let got: f64 = relation_attention(&proj, &pos, &queries, &w_d, &[], std)
            .unwrap()
            .flatten_all()
            .unwrap()
            .to_vec1::<f64>()
            .unwrap()[0];
        let norm = 1.0 / (2.0 * std::f64::consts::PI * std * std);
        let want = norm * (-0.5f64 * 5.9 * 5.9).exp(); // object 0 only, no ReLU (no later layer)
        assert!((got - want).abs() < 1e-12 * norm, "{got} vs {want}");
    }

    #[test]
    fn rejects_bad_shapes_and_sizes() {
        let dev = Device::Cpu;
        let z = |s: &[usize]| Tensor::zeros(s, DType::F32, &dev).unwrap();
        let err = relation_attention(
            &z(&[1, 2, 3]),
            &z(&[1, 3, 2]),
            &z(&[1, 4, 2]),
            &z(&[3, 2]),
            &[],
            0.1,
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("expected proj"), "{err}");
        let (w, b) = (z(&[300, 3]), z(&[300]));
        let err = relation_attention(
            &z(&[1, 2, 3]),
            &z(&[1, 2, 2]),
            &z(&[1, 4, 2]),
            &z(&[3, 2]),
            &[(&w, &b)],
            0.1,
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("limits"), "{err}");
        assert!(!fits(&[64, 64, 64], MAX_OBJECTS + 1));
        assert!(fits(&[64, 64, 64], 128));
    }
}
