//! Loss terms (reference §4): Bernoulli reconstruction, pres-weighted Normal KLs against the
//! static priors, and the per-term breakdown for logging.
//!
//! Every term is `mean_sum`: summed over all non-batch axes (objects, dims, pixels; and over
//! frames when accumulated by the clip loop), then averaged over the batch.

use candle_core::{Result, Tensor};
use serde::{Deserialize, Serialize};

use super::config::{NormalPrior, PresWeightGradient, DUPLICATE_IOU};
use super::latent::NormalLatent;
use crate::nn::bernoulli::bernoulli_nll_fused;
use crate::nn::dist::{normal_kl, normal_kl_fixed};
use crate::nn::weighted_kl::weighted_kl_fixed;

/// `(B, ...)` → scalar: sum over non-batch axes, mean over the batch.
pub fn mean_sum(x: &Tensor) -> Result<Tensor> {
    let b = x.dim(0)?;
    x.reshape((b, ()))?.sum(1)?.mean(0)
}

/// Elementwise `KL(q ‖ N(prior))` of a latent against a static prior.
pub fn kl_static(q: &NormalLatent, prior: NormalPrior) -> Result<Tensor> {
    normal_kl_fixed(&q.mean, &q.std, prior.mean, prior.std)
}

/// Elementwise `KL(q ‖ p)` of two latents (learned prior).
pub fn kl_learned(q: &NormalLatent, p: &NormalLatent) -> Result<Tensor> {
    normal_kl(&q.mean, &q.std, &p.mean, &p.std)
}

/// The presence weights of the Normal KLs: `pres` itself, passing `scale` times its gradient
/// into presence (1 = the reference; 0 = detached; see
/// [`crate::model::config::PresWeightGradient`]). The value is `pres` exactly for every scale.
pub fn kl_weight(pres: &Tensor, scale: f64) -> Result<Tensor> {
    if scale == 1.0 {
        return Ok(pres.clone());
    }
    let fixed = pres.detach();
    if scale == 0.0 {
        return Ok(fixed);
    }
    // fixed + scale·(pres − fixed): the difference is exactly zero forward.
    let delta = ((pres - &fixed)? * scale)?;
    fixed + delta
}

/// [`kl_weight`] with a scale per object: `scale` `(B, N, 1)` (no gradient), `pres` `(B, N, 1)`.
pub fn kl_weight_by_object(pres: &Tensor, scale: &Tensor) -> Result<Tensor> {
    let fixed = pres.detach();
    fixed.add(&(pres - &fixed)?.mul(&scale.detach())?)
}

/// The propagated objects' Normal-KL presence weights under `grad`
/// ([`PresWeightGradient`]): `pres` `(B, K, 1)`, `where_` `(B, K, 4)` their boxes. With
/// `grad.duplicate` set, objects overlapping a more present one ([`duplicate_mask`]) pass that
/// scale of the gradient and the rest `grad.propagation`.
pub fn propagated_kl_weight(
    pres: &Tensor,
    where_: &Tensor,
    grad: PresWeightGradient,
) -> Result<Tensor> {
    match grad.duplicate {
        Some(dup) if dup != grad.propagation => {
            let mask = duplicate_mask(where_, pres, DUPLICATE_IOU)?; // (B, K, 1) 0 / 1
            let scale = mask.affine(dup - grad.propagation, grad.propagation)?;
            kl_weight_by_object(pres, &scale)
        }
        _ => kl_weight(pres, grad.propagation),
    }
}

/// `(B, N, 1)`: 1 where an object overlaps (IoU ≥ `min_iou`) a strictly more present object of
/// the same set, else 0. `where_` `(B, N, 4)` `yt, xt, ys, xs` (centre and size; IoU is the same
/// in any units), `pres` `(B, N, 1)`. No gradient; `O(N²)` per set, as one batched tensor op.
pub fn duplicate_mask(where_: &Tensor, pres: &Tensor, min_iou: f64) -> Result<Tensor> {
    let p = pres.detach();
    let less_present = p.broadcast_lt(&p.transpose(1, 2)?)?; // (B, N, N): pres_i < pres_j
    overlapping_any(where_, &less_present, min_iou)
}

/// `(B, N, 1)`: 1 where object `i` overlaps (IoU ≥ `min_iou`) some object `j` with
/// `outranked[b, i, j] = 1` (`(B, N, N)` of 0 / 1, any dtype), else 0; no gradient.
pub(crate) fn overlapping_any(where_: &Tensor, outranked: &Tensor, min_iou: f64) -> Result<Tensor> {
    let iou = pairwise_iou(where_)?;
    let dtype = iou.dtype();
    iou.ge(min_iou)?
        .to_dtype(dtype)?
        .mul(&outranked.to_dtype(dtype)?)?
        .max_keepdim(2)
}

/// `(B, N, N)` IoU of every pair of boxes of a set: `where_` `(B, N, 4)` `yt, xt, ys, xs`
/// (centre and size, any units); no gradient.
fn pairwise_iou(where_: &Tensor) -> Result<Tensor> {
    let w = where_.detach();
    let centre = w.narrow(2, 0, 2)?; // (B, N, 2)
    let half = w.narrow(2, 2, 2)?.affine(0.5, 0.0)?; // (B, N, 2)
    let lo = (&centre - &half)?;
    let hi = (&centre + &half)?;
    // (B, N, N, 2) overlap extent of objects i (dim 1) and j (dim 2) along y and x.
    let extent = hi
        .unsqueeze(2)?
        .broadcast_minimum(&hi.unsqueeze(1)?)?
        .sub(&lo.unsqueeze(2)?.broadcast_maximum(&lo.unsqueeze(1)?)?)?
        .relu()?;
    let inter = extent
        .narrow(3, 0, 1)?
        .mul(&extent.narrow(3, 1, 1)?)?
        .squeeze(3)?; // (B, N, N)
    let area = w.narrow(2, 2, 1)?.mul(&w.narrow(2, 3, 1)?)?; // (B, N, 1)
    let union = area.broadcast_add(&area.transpose(1, 2)?)?.sub(&inter)?;
    inter.div(&union.maximum(1e-12)?)
}

/// `mean_sum(pres ⊙ KL)`: `kl` `(B, N, D)`, `pres` `(B, N, 1)`.
pub fn pres_weighted(kl: &Tensor, pres: &Tensor) -> Result<Tensor> {
    mean_sum(&kl.broadcast_mul(pres)?)
}

/// `mean_sum(pres ⊙ Σ_latents Σ_d KL(q ‖ N(prior)))` for latents of the same objects, `(B, N, ·)`
/// each with `pres` `(B, N, 1)`: equals the sum of [`pres_weighted`]`(`[`kl_static`]`)` over the
/// latents, with each KL one fused op ([`crate::nn::weighted_kl`]) instead of ~12 graph nodes.
pub fn pres_weighted_static(
    latents: &[(&NormalLatent, NormalPrior)],
    pres: &Tensor,
) -> Result<Tensor> {
    let mut acc: Option<Tensor> = None;
    for (q, prior) in latents {
        let kl = weighted_kl_fixed(&q.mean, &q.std, pres, prior.mean, prior.std)?; // (B, N)
        acc = Some(match acc {
            Some(a) => (a + kl)?,
            None => kl,
        });
    }
    match acc {
        Some(a) => mean_sum(&a),
        None => candle_core::bail!("pres_weighted_static: no latents"),
    }
}

/// `Σ_i mean_sum(pres ⊙ KL(q_i ‖ p_i))` for latent pairs of the same objects `(B, N, ·)` with
/// `pres` `(B, N, 1)`: the sum of [`pres_weighted`]`(`[`kl_learned`]`)` over the pairs, computed
/// as one KL of the latents side by side (four concatenations, then ~16 graph nodes once instead
/// of per pair: every node costs a kernel and, in the backward pass, a zero fill and an add).
pub fn pres_weighted_learned(
    pairs: &[(&NormalLatent, &NormalLatent)],
    pres: &Tensor,
) -> Result<Tensor> {
    if pairs.is_empty() {
        candle_core::bail!("pres_weighted_learned: no latents");
    }
    let side = |f: &dyn Fn(&(&NormalLatent, &NormalLatent)) -> Tensor| {
        let parts: Vec<Tensor> = pairs.iter().map(f).collect();
        Tensor::cat(&parts, candle_core::D::Minus1)
    };
    let kl = normal_kl(
        &side(&|(q, _)| q.mean.clone())?,
        &side(&|(q, _)| q.std.clone())?,
        &side(&|(_, p)| p.mean.clone())?,
        &side(&|(_, p)| p.std.clone())?,
    )?;
    pres_weighted(&kl, pres)
}

/// Reconstruction loss `mean_sum(BCE(x̂, x))`: `(B, 3, H, W)` each; differentiable in `x_hat`.
pub fn reconstruction(x_hat: &Tensor, x: &Tensor) -> Result<Tensor> {
    mean_sum(&bernoulli_nll_fused(x_hat, x)?)
}

/// Scalar loss terms of one step (or summed over a clip), as differentiable tensors.
#[derive(Debug, Clone)]
pub struct LossTerms {
    /// Bernoulli reconstruction (§4.1).
    pub reconstruction: Tensor,
    /// Propagated objects' Normal KLs vs the static priors, pres-weighted (§4.2).
    pub prop_kl: Tensor,
    /// Discovered objects' Normal KLs vs the static priors, weighted by masked pres (§4.2).
    pub disc_kl: Tensor,
    /// Propagated objects' Normal KLs vs the learned prior, pres-weighted (§4.3).
    pub learned_kl: Tensor,
    /// Logistic pres KL vs the learned prior, not pres-weighted (§4.3).
    pub learned_pres_kl: Tensor,
    /// SPAIR count prior KL (§4.4).
    pub count_prior_kl: Tensor,
}

impl LossTerms {
    /// Total loss (all weights 1, §4.5).
    pub fn total(&self) -> Result<Tensor> {
        self.reconstruction
            .add(&self.prop_kl)?
            .add(&self.disc_kl)?
            .add(&self.learned_kl)?
            .add(&self.learned_pres_kl)?
            .add(&self.count_prior_kl)
    }

    /// Training loss `reconstruction + β·(every KL term)` ([`TrainConfig::kl_beta`]): equal
    /// to [`LossTerms::total`] at β = 1 (the reference's ELBO).
    ///
    /// [`TrainConfig::kl_beta`]: crate::model::TrainConfig::kl_beta
    pub fn total_with_kl_beta(&self, beta: f64) -> Result<Tensor> {
        if beta == 1.0 {
            // The same sum in the same order as before the key: β = 1 runs stay bit-identical.
            return self.total();
        }
        let kl = self
            .prop_kl
            .add(&self.disc_kl)?
            .add(&self.learned_kl)?
            .add(&self.learned_pres_kl)?
            .add(&self.count_prior_kl)?;
        self.reconstruction.add(&kl.affine(beta, 0.0)?)
    }

    /// Elementwise sum of two sets of terms (accumulating over frames).
    pub fn add(&self, o: &LossTerms) -> Result<LossTerms> {
        Ok(LossTerms {
            reconstruction: (&self.reconstruction + &o.reconstruction)?,
            prop_kl: (&self.prop_kl + &o.prop_kl)?,
            disc_kl: (&self.disc_kl + &o.disc_kl)?,
            learned_kl: (&self.learned_kl + &o.learned_kl)?,
            learned_pres_kl: (&self.learned_pres_kl + &o.learned_pres_kl)?,
            count_prior_kl: (&self.count_prior_kl + &o.count_prior_kl)?,
        })
    }

    /// Host-side values for logging.
    pub fn breakdown(&self) -> Result<LossBreakdown> {
        let v =
            |t: &Tensor| -> Result<f64> { t.to_dtype(candle_core::DType::F64)?.to_scalar::<f64>() };
        let mut b = LossBreakdown {
            reconstruction: v(&self.reconstruction)?,
            prop_kl: v(&self.prop_kl)?,
            disc_kl: v(&self.disc_kl)?,
            learned_kl: v(&self.learned_kl)?,
            learned_pres_kl: v(&self.learned_pres_kl)?,
            count_prior_kl: v(&self.count_prior_kl)?,
            total: 0.0,
        };
        b.total = b.reconstruction
            + b.prop_kl
            + b.disc_kl
            + b.learned_kl
            + b.learned_pres_kl
            + b.count_prior_kl;
        Ok(b)
    }
}

/// Every loss term as a number (for `metrics.jsonl`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct LossBreakdown {
    /// Reconstruction.
    pub reconstruction: f64,
    /// Static prop KL.
    pub prop_kl: f64,
    /// Static discovery KL.
    pub disc_kl: f64,
    /// Learned-prior Normal KL.
    pub learned_kl: f64,
    /// Learned-prior pres KL.
    pub learned_pres_kl: f64,
    /// Count prior KL.
    pub count_prior_kl: f64,
    /// Sum of all terms.
    pub total: f64,
}

impl LossBreakdown {
    /// Every term with its field's name, `total` last (for tables and logs).
    pub fn terms(&self) -> [(&'static str, f64); 7] {
        [
            ("reconstruction", self.reconstruction),
            ("prop_kl", self.prop_kl),
            ("disc_kl", self.disc_kl),
            ("learned_kl", self.learned_kl),
            ("learned_pres_kl", self.learned_pres_kl),
            ("count_prior_kl", self.count_prior_kl),
            ("total", self.total),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::Device;

    #[test]
    fn breakdown_terms_name_every_field() {
        let l = LossBreakdown {
            reconstruction: 1.0,
            prop_kl: 2.0,
            disc_kl: 3.0,
            learned_kl: 4.0,
            learned_pres_kl: 5.0,
            count_prior_kl: 6.0,
            total: 21.0,
        };
        let t = l.terms();
        assert_eq!(t.map(|(_, v)| v), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 21.0]);
        assert_eq!(t[0].0, "reconstruction");
        assert_eq!(t[6].0, "total");
        // The names are the serialised field names (the metrics log's keys).
        let json = serde_json::to_value(l).unwrap();
        for (name, v) in t {
            assert_eq!(json[name].as_f64(), Some(v), "{name}");
        }
    }

    #[test]
    fn kl_beta_scales_every_kl_term_and_its_gradient() {
        let dev = Device::Cpu;
        let vars: Vec<candle_core::Var> = [3.0f64, 1.0, 2.0, 4.0, 0.5, 0.25]
            .iter()
            .map(|&v| candle_core::Var::new(v, &dev).unwrap())
            .collect();
        let t = |i: usize| vars[i].as_tensor().clone();
        let terms = LossTerms {
            reconstruction: t(0),
            prop_kl: t(1),
            disc_kl: t(2),
            learned_kl: t(3),
            learned_pres_kl: t(4),
            count_prior_kl: t(5),
        };
        let value = |x: &Tensor| x.to_scalar::<f64>().unwrap();
        assert_eq!(value(&terms.total_with_kl_beta(1.0).unwrap()), 10.75);
        for beta in [0.5, 0.1, 2.0] {
            let loss = terms.total_with_kl_beta(beta).unwrap();
            // 3 + β·(1 + 2 + 4 + 0.5 + 0.25)
            assert!(
                (value(&loss) - (3.0 + beta * 7.75)).abs() < 1e-12,
                "β {beta}"
            );
            let grads = loss.backward().unwrap();
            let g = |i: usize| value(grads.get(vars[i].as_tensor()).unwrap());
            assert_eq!(g(0), 1.0, "the reconstruction is not weighted");
            for i in 1..6 {
                assert!((g(i) - beta).abs() < 1e-12, "KL term {i}, β {beta}");
            }
        }
    }

    #[test]
    fn kl_weight_keeps_the_value_and_scales_the_gradient() {
        let dev = Device::Cpu;
        let kl = Tensor::new(&[[[0.5f64, 1.5], [2.0, 0.25]]], &dev).unwrap();
        let pres = candle_core::Var::new(&[[[0.3f64], [0.8]]], &dev).unwrap();
        for scale in [1.0, 0.25, 0.0] {
            let v = pres_weighted(&kl, &kl_weight(pres.as_tensor(), scale).unwrap()).unwrap();
            // 0.3·(0.5 + 1.5) + 0.8·(2.0 + 0.25) = 2.4
            assert!((v.to_scalar::<f64>().unwrap() - 2.4).abs() < 1e-12);
            let grads = v.backward().unwrap();
            let g = grads.get(pres.as_tensor());
            if scale > 0.0 {
                let g = g.unwrap().flatten_all().unwrap().to_vec1::<f64>().unwrap();
                assert_eq!(g, vec![2.0 * scale, 2.25 * scale], "scale {scale}");
            } else {
                assert!(g.is_none(), "a detached weight must not pass gradient");
            }
        }
    }

    fn duplicate_mask_flags_the_less_present_of_overlapping_objects(dev: &Device) {
        // yt, xt, ys, xs: 0 and 1 overlap with IoU 0.6 (1 less present), 2 overlaps 1 with IoU
        // 1/3 (and 0 with 1/7), 3 coincides with 4 at equal presence (neither is the less present).
        let boxes = [
            [1.0f32, 1.0, 2.0, 2.0],
            [1.5, 1.0, 2.0, 2.0],
            [2.5, 1.0, 2.0, 2.0],
            [9.0, 9.0, 1.0, 1.0],
            [9.0, 9.0, 1.0, 1.0],
        ];
        let where_ = Tensor::new(&boxes, dev).unwrap().unsqueeze(0).unwrap();
        let pres = Tensor::new(&[[[0.9f32], [0.8], [0.3], [0.5], [0.5]]], dev).unwrap();
        let mask = |iou: f64| {
            duplicate_mask(&where_, &pres, iou)
                .unwrap()
                .flatten_all()
                .unwrap()
                .to_vec1::<f32>()
                .unwrap()
        };
        // IoU(0, 1) = 3 / (8 − 3) = 0.6; IoU(1, 2) = 2 / (8 − 2) = 1/3; IoU(0, 2) = 1 / 7.
        assert_eq!(mask(0.5), vec![0.0, 1.0, 0.0, 0.0, 0.0]);
        assert_eq!(mask(0.3), vec![0.0, 1.0, 1.0, 0.0, 0.0]);
        assert_eq!(mask(0.61), vec![0.0; 5]);
    }

    proptest::proptest! {
        /// The batched tensor mask equals the host rule written with the evaluation's
        /// [`crate::eval::BBox::iou`]: flagged iff some strictly more present object overlaps
        /// with IoU ≥ 0.5 (cases within 1e-9 of the threshold skipped).
        #[test]
        fn duplicate_mask_matches_the_host_iou(
            objects in proptest::collection::vec(
                (0.0f64..6.0, 0.0f64..6.0, 0.1f64..3.0, 0.1f64..3.0, 0.0f64..1.0), 1..10)
        ) {
            use crate::eval::BBox;
            let n = objects.len();
            let boxes: Vec<BBox> = objects
                .iter()
                .map(|&(y, x, h, w, _)| BBox::new(y - h / 2.0, x - w / 2.0, y + h / 2.0, x + w / 2.0))
                .collect();
            for (i, a) in boxes.iter().enumerate() {
                for b in &boxes[i + 1..] {
                    proptest::prop_assume!((a.iou(b) - DUPLICATE_IOU).abs() > 1e-9);
                }
            }
            let flat: Vec<f64> = objects.iter().flat_map(|&(y, x, h, w, _)| [y, x, h, w]).collect();
            let where_ = Tensor::from_vec(flat, (1, n, 4), &Device::Cpu).unwrap();
            let pres: Vec<f64> = objects.iter().map(|o| o.4).collect();
            let pres_t = Tensor::from_vec(pres.clone(), (1, n, 1), &Device::Cpu).unwrap();
            let got = duplicate_mask(&where_, &pres_t, DUPLICATE_IOU)
                .unwrap()
                .flatten_all()
                .unwrap()
                .to_vec1::<f64>()
                .unwrap();
            let want: Vec<f64> = (0..n)
                .map(|i| {
                    let dup = (0..n).any(|j| {
                        pres[i] < pres[j] && boxes[i].iou(&boxes[j]) >= DUPLICATE_IOU
                    });
                    f64::from(u8::from(dup))
                })
                .collect();
            proptest::prop_assert_eq!(got, want);
        }
    }

    crate::test_device!(
        duplicate_mask_flags_the_less_present_of_overlapping_objects,
        duplicate_mask_cpu,
        duplicate_mask_cuda
    );

    fn propagated_kl_weight_scales_duplicates_apart(dev: &Device) {
        let where_ = Tensor::new(
            &[[
                [1.0f64, 1.0, 2.0, 2.0],
                [1.5, 1.0, 2.0, 2.0],
                [6.0, 6.0, 2.0, 2.0],
            ]],
            dev,
        )
        .unwrap();
        let pres = candle_core::Var::new(&[[[0.9f64], [0.8], [0.7]]], dev).unwrap();
        let grad_of = |grad: PresWeightGradient| {
            let w = propagated_kl_weight(pres.as_tensor(), &where_, grad).unwrap();
            let value = w.flatten_all().unwrap().to_vec1::<f64>().unwrap();
            assert_eq!(
                value,
                vec![0.9, 0.8, 0.7],
                "the value is pres for every scale"
            );
            let g = w.sum_all().unwrap().backward().unwrap();
            let g = g.get(pres.as_tensor()).unwrap();
            g.flatten_all().unwrap().to_vec1::<f64>().unwrap()
        };
        let half = PresWeightGradient {
            propagation: 0.5,
            ..PresWeightGradient::ALL
        };
        assert_eq!(grad_of(half), vec![0.5, 0.5, 0.5]);
        let dup = PresWeightGradient {
            duplicate: Some(1.0),
            ..half
        };
        assert_eq!(grad_of(dup), vec![0.5, 1.0, 0.5]);
        let same = PresWeightGradient {
            duplicate: Some(0.5),
            ..half
        };
        assert_eq!(grad_of(same), vec![0.5, 0.5, 0.5]);
    }

    crate::test_device!(
        propagated_kl_weight_scales_duplicates_apart,
        propagated_kl_weight_cpu,
        propagated_kl_weight_cuda
    );

    #[test]
    fn mean_sum_and_weighting() {
        let dev = Device::Cpu;
        let kl = Tensor::new(
            &[[[1.0f32, 2.0], [3.0, 4.0]], [[1.0, 1.0], [1.0, 1.0]]],
            &dev,
        )
        .unwrap();
        let pres = Tensor::new(&[[[1.0f32], [0.0]], [[0.5], [0.5]]], &dev).unwrap();
        // batch 0: 1+2 = 3; batch 1: 0.5·4 = 2 → mean 2.5
        let v = pres_weighted(&kl, &pres)
            .unwrap()
            .to_scalar::<f32>()
            .unwrap();
        assert!((v - 2.5).abs() < 1e-6);
        let q = NormalLatent {
            mean: Tensor::new(&[0.5f32], &dev).unwrap(),
            std: Tensor::new(&[2.0f32], &dev).unwrap(),
            sample: Tensor::new(&[0.0f32], &dev).unwrap(),
        };
        // KL(N(.5,2)||N(0,1)) = log(1/2) + (4 + .25)/2 − .5
        let k = kl_static(
            &q,
            NormalPrior {
                mean: 0.0,
                std: 1.0,
            },
        )
        .unwrap()
        .to_vec1::<f32>()
        .unwrap()[0];
        assert!((k as f64 - (0.5f64.ln() + 4.25 / 2.0 - 0.5)).abs() < 1e-5);
    }

    #[test]
    fn fused_static_kls_equal_the_sum_of_weighted_terms() {
        let dev = Device::Cpu;
        let mut rng = crate::rng::SeededRng::new(3);
        let mut latent = |d: usize| NormalLatent {
            mean: rng.normal(&[4, 6, d], &dev).unwrap(),
            std: rng.uniform(&[4, 6, d], 0.2, 2.0, &dev).unwrap(),
            sample: Tensor::zeros((4, 6, d), candle_core::DType::F32, &dev).unwrap(),
        };
        let (a, b) = (latent(2), latent(5));
        let pres = rng.uniform(&[4, 6, 1], 0.0, 1.0, &dev).unwrap();
        let (pa, pb) = (
            NormalPrior {
                mean: 0.0,
                std: 1.0,
            },
            NormalPrior {
                mean: -1.0,
                std: 0.5,
            },
        );
        let fused = pres_weighted_static(&[(&a, pa), (&b, pb)], &pres)
            .unwrap()
            .to_scalar::<f32>()
            .unwrap();
        let composed = (pres_weighted(&kl_static(&a, pa).unwrap(), &pres).unwrap()
            + pres_weighted(&kl_static(&b, pb).unwrap(), &pres).unwrap())
        .unwrap()
        .to_scalar::<f32>()
        .unwrap();
        assert!(
            (fused - composed).abs() < 1e-4 * composed.abs().max(1.0),
            "{fused} vs {composed}"
        );
    }

    /// The side-by-side learned KL equals the sum of the per-latent ones, with gradients.
    #[test]
    fn learned_side_by_side_equals_sum_of_parts() {
        use crate::rng::SeededRng;
        use candle_core::{DType, Device, Var};
        let dev = Device::Cpu;
        let mut rng = SeededRng::new(17);
        let mut var = |d: usize, positive: bool| {
            let t = rng
                .normal(&[2, 3, d], &dev)
                .unwrap()
                .to_dtype(DType::F64)
                .unwrap();
            let t = if positive { t.exp().unwrap() } else { t };
            Var::from_tensor(&t).unwrap()
        };
        let widths = [2, 2, 4, 1];
        let vars: Vec<[Var; 4]> = widths
            .iter()
            .map(|&d| [var(d, false), var(d, true), var(d, false), var(d, true)])
            .collect();
        let lat = |m: &Var, s: &Var| NormalLatent {
            mean: m.as_tensor().clone(),
            std: s.as_tensor().clone(),
            sample: m.as_tensor().clone(),
        };
        let q: Vec<NormalLatent> = vars.iter().map(|v| lat(&v[0], &v[1])).collect();
        let p: Vec<NormalLatent> = vars.iter().map(|v| lat(&v[2], &v[3])).collect();
        let pres = Var::from_tensor(
            &rng.uniform(&[2, 3, 1], 0.0, 1.0, &dev)
                .unwrap()
                .to_dtype(DType::F64)
                .unwrap(),
        )
        .unwrap();
        let pairs: Vec<(&NormalLatent, &NormalLatent)> = q.iter().zip(&p).collect();
        let fused = pres_weighted_learned(&pairs, &pres).unwrap();
        let parts = pairs
            .iter()
            .map(|(a, b)| pres_weighted(&kl_learned(a, b).unwrap(), &pres).unwrap())
            .reduce(|x, y| (x + y).unwrap())
            .unwrap();
        let (a, b) = (
            fused.to_scalar::<f64>().unwrap(),
            parts.to_scalar::<f64>().unwrap(),
        );
        assert!((a - b).abs() < 1e-10 * b.abs().max(1.0), "{a} vs {b}");
        let (ga, gb) = (fused.backward().unwrap(), parts.backward().unwrap());
        for v in vars.iter().flatten().chain([&pres]) {
            let err = crate::testing::max_abs_diff(ga.get(v).unwrap(), gb.get(v).unwrap());
            assert!(err < 1e-10, "{:?}: {err}", v.dims());
        }
    }
}
