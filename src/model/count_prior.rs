//! SPAIR count prior on presence (`SequentialObjKL`, reference §4.4).
//!
//! Per frame and stream, the objects `[props (K); discovered (H·W)]` (N in all) are visited in
//! order. With the count distribution `π_0(n) ∝ p^n` (n = 0..N) and `c_0 = 0`:
//! `a_i(n) = clip((n − c_i)/(N − i), 0, 1)`, `ρ_i = Σ_n π_i(n) a_i(n)`,
//! `KL_i = q_i (log q_i − log ρ_i) + (1 − q_i)(log(1 − q_i) − log(1 − ρ_i))`,
//! `π_{i+1} ∝ π_i · (b_i a_i + (1 − b_i) ā_i)` (normaliser floored at 1e-6), `c_{i+1} = c_i + b_i`.
//!
//! `ρ_i` depends only on `p` and the non-differentiable indicators `b_i = 1[o_i > 0.5]`, so it
//! is computed without gradient, in f64 (O(N²) per stream): on the host for CPU tensors, by one
//! warp per stream on the GPU (no copy to the host and no wait for the GPU in the training
//! step); only `q_i` carries gradient, through the fused Bernoulli KL
//! ([`crate::nn::bernoulli::bernoulli_kl`]).

use candle_core::backend::BackendStorage;
use candle_core::{CpuStorage, CustomOp1, DType, Layout, Result, Shape, Tensor, WithDType};

use crate::nn::bernoulli::{bernoulli_kl, bernoulli_kl_composed};
use crate::nn::cpu::{self, storage_slice};

/// `ρ_i` for one stream: `b` are the indicators in visiting order, `log_odds` the count prior.
pub fn rho(b: &[bool], log_odds: f64) -> Vec<f64> {
    let n_obj = b.len();
    // π_0(n) ∝ p^n, in log space to avoid underflow for small p.
    let p = 1.0 / (1.0 + (-log_odds).exp());
    let lp = p.ln();
    let logs: Vec<f64> = (0..=n_obj).map(|n| n as f64 * lp).collect();
    let mx = logs.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let mut pi: Vec<f64> = logs.iter().map(|l| (l - mx).exp()).collect();
    let s: f64 = pi.iter().sum();
    pi.iter_mut().for_each(|v| *v /= s);
    let mut c = 0.0f64;
    let mut out = Vec::with_capacity(n_obj);
    for (i, &bi) in b.iter().enumerate() {
        let rem = (n_obj - i) as f64;
        let a = |n: usize| ((n as f64 - c) / rem).clamp(0.0, 1.0);
        let abar = |n: usize| ((rem - n as f64 + c) / rem).clamp(0.0, 1.0);
        let r: f64 = pi.iter().enumerate().map(|(n, &v)| v * a(n)).sum();
        out.push(r);
        let mut norm = 0.0;
        for (n, v) in pi.iter_mut().enumerate() {
            *v *= if bi { a(n) } else { abar(n) };
            norm += *v;
        }
        let norm = norm.max(1e-6);
        pi.iter_mut().for_each(|v| *v /= norm);
        c = (c + if bi { 1.0 } else { 0.0 }).round();
    }
    out
}

/// `ρ (B, N)` of the presences `o (B, N)` (indicators `o > 0.5`), without gradient.
struct CountRho {
    log_odds: f64,
}

impl CountRho {
    fn cpu<T: WithDType>(&self, o: &[T], n: usize) -> Vec<T> {
        o.chunks(n.max(1))
            .flat_map(|row| {
                let ind: Vec<bool> = row.iter().map(|v| v.to_f64() > 0.5).collect();
                rho(&ind, self.log_odds)
            })
            .map(T::from_f64)
            .collect()
    }
}

impl CustomOp1 for CountRho {
    fn name(&self) -> &'static str {
        "silot-count-prior-rho"
    }

    fn cpu_fwd(&self, s: &CpuStorage, l: &Layout) -> Result<(CpuStorage, Shape)> {
        let (_, n) = l.shape().dims2()?;
        let out = cpu::by_float!(s, "count prior ρ", T => self.cpu(storage_slice::<T>(s, l)?, n));
        Ok((out, l.shape().clone()))
    }

    #[cfg(feature = "cuda")]
    fn cuda_fwd(
        &self,
        s: &candle_core::CudaStorage,
        l: &Layout,
    ) -> Result<(candle_core::CudaStorage, Shape)> {
        use crate::nn::cuda;
        let dims = l.shape().dims2()?;
        let st = cuda::by_float!(s, T => cuda::count_rho::<T>((s, l), dims, self.log_odds)?);
        Ok((st, l.shape().clone()))
    }
}

/// `ρ (B, N)` of presences `o (B, N)` in visiting order (no gradient), in `o`'s dtype.
pub fn count_rho(o: &Tensor, log_odds: f64) -> Result<Tensor> {
    o.dims2()?;
    let o = match o.dtype() {
        DType::F32 | DType::F64 => o.detach(),
        _ => o.to_dtype(DType::F32)?,
    };
    o.contiguous()?.apply_op1_no_bwd(&CountRho { log_odds })
}

/// Count-prior KL per object.
///
/// * `q`: `(B, N)` Bernoulli probabilities in visiting order (props' per-step survival
///   probability `σ(d_obj_log_odds)`, then discovered `σ(obj_log_odds)`), differentiable.
/// * `o`: `(B, N)` presence values whose `> 0.5` gives the indicators (props `obj_prev·d_obj`,
///   discovered masked `obj`).
///
/// Returns `(B, N)` KL values.
pub fn count_prior_kl(q: &Tensor, o: &Tensor, log_odds: f64) -> Result<Tensor> {
    let (b, n) = q.dims2()?;
    if o.dims() != [b, n] {
        candle_core::bail!(
            "count prior: q {:?} and o {:?} must both be (B, N)",
            q.dims(),
            o.dims()
        );
    }
    let r = count_rho(o, log_odds)?.to_dtype(q.dtype())?;
    bernoulli_kl(q, &r)
}

/// [`count_prior_kl`] with `ρ` computed on the host and the KL composed from candle ops: the
/// reference of the tests.
pub fn count_prior_kl_composed(q: &Tensor, o: &Tensor, log_odds: f64) -> Result<Tensor> {
    let (b, n) = q.dims2()?;
    let ov: Vec<f32> = o.to_dtype(DType::F32)?.flatten_all()?.to_vec1()?;
    let mut rhos = Vec::with_capacity(b * n);
    for bi in 0..b {
        let ind: Vec<bool> = ov[bi * n..(bi + 1) * n].iter().map(|&v| v > 0.5).collect();
        rhos.extend(rho(&ind, log_odds));
    }
    let r = Tensor::from_vec(rhos, (b, n), q.device())?.to_dtype(q.dtype())?;
    bernoulli_kl_composed(q, &r)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force: enumerate the count prior, condition on the indicators seen so far by the
    /// exchangeable "urn" model the recursion implements.
    #[test]
    fn first_rho_is_expected_fraction() {
        // ρ_0 = Σ_n π(n)·n/N = E[n]/N.
        let lo = 0.3f64;
        let p = 1.0 / (1.0 + (-lo).exp());
        let nn = 5;
        let w: Vec<f64> = (0..=nn).map(|n| p.powi(n as i32)).collect();
        let z: f64 = w.iter().sum();
        let en: f64 = w.iter().enumerate().map(|(n, v)| n as f64 * v / z).sum();
        let r = rho(&[true, false, true, true, false], lo);
        assert!((r[0] - en / nn as f64).abs() < 1e-12);
        // Posterior after one "on": π_1(n) ∝ π(n)·n/N; ρ_1 = Σ π_1(n)(n−1)/(N−1).
        let w1: Vec<f64> = (0..=nn).map(|n| w[n] * n as f64 / nn as f64).collect();
        let z1: f64 = w1.iter().sum();
        let r1: f64 = (1..=nn)
            .map(|n| w1[n] / z1 * (n as f64 - 1.0) / (nn as f64 - 1.0))
            .sum();
        assert!((r[1] - r1).abs() < 1e-12, "{} vs {r1}", r[1]);
    }

    #[test]
    fn certain_counts() {
        // With p → 1 the count prior is uniform over 0..=N, and after i "on" indicators the
        // recursion gives Laplace's rule of succession ρ_i = (i + 1)/(i + 2).
        let r = rho(&[true; 4], 30.0);
        for (i, v) in r.iter().enumerate() {
            assert!(
                (v - (i as f64 + 1.0) / (i as f64 + 2.0)).abs() < 1e-9,
                "{r:?}"
            );
        }
        // Tiny p on 400 objects: no underflow, ρ small, finite.
        let r = rho(&vec![false; 400], (0.0125f64).ln());
        assert!(
            r.iter().all(|v| v.is_finite() && *v < 0.02),
            "{:?}",
            &r[..3]
        );
    }

    #[test]
    fn kl_zero_when_q_equals_rho() {
        let dev = candle_core::Device::Cpu;
        let lo = 0.0125f64;
        let ind = [false, true, false];
        let r = rho(&ind, lo);
        let q = Tensor::from_vec(
            r.iter().map(|&v| v as f32).collect::<Vec<_>>(),
            (1, 3),
            &dev,
        )
        .unwrap();
        let o = Tensor::new(&[[0.0f32, 1.0, 0.0]], &dev).unwrap();
        let kl: Vec<f32> = count_prior_kl(&q, &o, lo)
            .unwrap()
            .flatten_all()
            .unwrap()
            .to_vec1()
            .unwrap();
        assert!(kl.iter().all(|v| v.abs() < 1e-5), "{kl:?}");
    }

    /// The fused path (ρ by the op: one warp per stream on the GPU) equals the host-ρ composed
    /// reference in value and gradient, for several prior strengths and a long stream (more
    /// objects than a warp has lanes).
    fn fused_agrees_with_composed(dev: &candle_core::Device) {
        use crate::rng::SeededRng;
        use candle_core::Var;
        let mut rng = SeededRng::new(41);
        for (b, n) in [(3, 7), (2, 75)] {
            let q = Var::from_tensor(
                &rng.uniform(&[b, n], 0.01, 0.99, dev)
                    .unwrap()
                    .to_dtype(DType::F64)
                    .unwrap(),
            )
            .unwrap();
            let o = rng
                .uniform(&[b, n], 0.0, 1.0, dev)
                .unwrap()
                .to_dtype(DType::F64)
                .unwrap();
            for lo in [3.9, 0.0, -2.0, (0.0125f64).ln()] {
                let run = |fused: bool| {
                    let kl = match fused {
                        true => count_prior_kl(&q, &o, lo).unwrap(),
                        false => count_prior_kl_composed(&q, &o, lo).unwrap(),
                    };
                    let g = kl.sum_all().unwrap().backward().unwrap();
                    (kl, g.get(&q).unwrap().clone())
                };
                let ((k1, g1), (k0, g0)) = (run(true), run(false));
                let (ek, eg) = (
                    crate::testing::max_abs_diff(&k1, &k0),
                    crate::testing::max_abs_diff(&g1, &g0),
                );
                assert!(
                    ek < 1e-9 && eg < 1e-8,
                    "({b}, {n}) log-odds {lo}: {ek} {eg}"
                );
            }
        }
    }

    crate::test_device!(
        fused_agrees_with_composed,
        count_prior_fused_cpu,
        count_prior_fused_cuda
    );

    #[test]
    fn gradient_flows_only_through_q_and_matches_finite_differences() {
        use candle_core::{Device, Var};
        let dev = Device::Cpu;
        let q0 = [0.3f64, 0.8, 0.1, 0.6];
        let q = Var::new(&[q0], &dev).unwrap();
        let o = Var::new(&[[0.9f64, 0.2, 0.7, 0.4]], &dev).unwrap();
        let lo = -1.0;
        let kl = count_prior_kl(q.as_tensor(), o.as_tensor(), lo).unwrap();
        let g = kl.sum_all().unwrap().backward().unwrap();
        assert!(
            g.get(o.as_tensor()).is_none(),
            "indicators carry no gradient"
        );
        let gq: Vec<f64> = g
            .get(q.as_tensor())
            .unwrap()
            .flatten_all()
            .unwrap()
            .to_vec1()
            .unwrap();
        let r = rho(&[true, false, true, false], lo);
        for i in 0..4 {
            // d/dq [q log q − q log ρ + (1−q) log(1−q) − (1−q) log(1−ρ)] = log(q/(1−q)) − log(ρ/(1−ρ))
            // (up to the 1e-9 offsets inside the safe logs).
            let (qi, ri) = (q0[i], r[i]);
            let want = (qi / (1.0 - qi)).ln() - (ri / (1.0 - ri)).ln();
            assert!((gq[i] - want).abs() < 1e-6, "{i}: {} vs {want}", gq[i]);
        }
    }
}
