//! Spatial attention between objects and locations (reference §2.2, `SpatialAttentionLayerV2`).
//!
//! Locations are `(yt, xt)` in anchor units; the kernel is the 2-D Gaussian density
//! `G(d) = exp(−½‖d/s‖²)/(2π s²)` (not normalised over objects).
//!
//! * [`DiscoveryAttention`] (`d_spatial`): `v_td[q] = Σ_k G(p_k − g_q)·MLP_rel([f_k, p_k − g_q])`.
//! * [`PropagationAttention`] (`p_td`/`p_spatial`): independent form `u_ℓ = MLP_obj(f_ℓ)`, or
//!   `u_ℓ = o_ℓ + Σ_k G(p_k − p_ℓ)·MLP_rel([f_k, p_k − p_ℓ, o_ℓ])` with `o_ℓ = MLP_obj(f_ℓ)`.

use candle_core::{Module, Result, Tensor, D};
use candle_nn::{Linear, VarBuilder};

use crate::nn::kernel::gaussian_kernel;
use crate::nn::mlp::{linear, Mlp};
use crate::nn::relation_attention;

/// Apply an MLP on the last dim of a tensor of any rank by flattening the leading dims.
pub(crate) fn mlp_nd(mlp: &Mlp, x: &Tensor) -> Result<Tensor> {
    let dims = x.dims().to_vec();
    let (lead, last) = dims.split_at(dims.len() - 1);
    let rows: usize = lead.iter().product();
    let y = mlp.forward(&x.reshape((rows, last[0]))?)?;
    let mut out = lead.to_vec();
    out.push(y.dim(1)?);
    y.reshape(out)
}

/// `(B, Q, K, 2)` differences `p_k − l_q` and `(B, Q, K)` kernel values.
fn pairwise(loc: &Tensor, pos: &Tensor, std: f64) -> Result<(Tensor, Tensor)> {
    let (b, q, _) = loc.dims3()?;
    let (_, k, _) = pos.dims3()?;
    let d = pos
        .unsqueeze(1)?
        .broadcast_sub(&loc.unsqueeze(2)?)?
        .contiguous()?; // (B, Q, K, 2)
    let g = gaussian_kernel(loc, pos, std)?; // (B, Q, K)
    debug_assert_eq!(g.dims(), &[b, q, k]);
    Ok((d, g))
}

/// The relation MLP `MLP[h…] → out` on a concatenation `[x_1, …, x_n]` of parts that live on
/// different axes of the `(B, Q, K, ·)` pair grid. The first layer is split by input columns
/// (`W·[x_1; …; x_n] = Σ W_i x_i`), so each part is multiplied at its own size and broadcast
/// afterwards instead of materialising the `(B, Q, K, Σ width)` concatenation. Numerically the
/// same network as an [`Mlp`] on the concatenation.
#[derive(Debug, Clone)]
struct RelationMlp {
    first: Linear,
    rest: Option<Mlp>,
    widths: Vec<usize>,
}

impl RelationMlp {
    fn new(vb: VarBuilder, widths: &[usize], hidden: &[usize], out_dim: usize) -> Result<Self> {
        let in_dim = widths.iter().sum();
        let (first_out, rest) = match hidden.split_first() {
            Some((&h0, more)) => (h0, Some(Mlp::new(vb.pp("rest"), h0, more, out_dim)?)),
            None => (out_dim, None),
        };
        Ok(Self {
            first: linear(vb.pp("layer0"), in_dim, first_out)?,
            rest,
            widths: widths.to_vec(),
        })
    }

    /// `parts[i]`: `(B, X_i, Y_i, widths[i])`, broadcastable to a common `(B, Q, K, ·)`.
    fn forward(&self, parts: &[&Tensor]) -> Result<Tensor> {
        let w = self.first.weight(); // (h0, Σ widths)
        let mut acc: Option<Tensor> = None;
        let mut off = 0;
        for (x, &wd) in parts.iter().zip(&self.widths) {
            let wi = w.narrow(1, off, wd)?.t()?.contiguous()?; // (wd, h0)
            off += wd;
            let dims = x.dims().to_vec();
            let rows = x.elem_count() / wd;
            let y = x.reshape((rows, wd))?.matmul(&wi)?; // (rows, h0)
            let mut out_dims = dims;
            if let Some(last) = out_dims.last_mut() {
                *last = y.dim(1)?;
            }
            let y = y.reshape(out_dims)?;
            acc = Some(match acc {
                Some(a) => a.broadcast_add(&y)?,
                None => y,
            });
        }
        let mut h = match acc {
            Some(a) => a,
            None => candle_core::bail!("relation MLP needs at least one input part"),
        };
        if let Some(b) = self.first.bias() {
            h = h.broadcast_add(b)?;
        }
        match &self.rest {
            Some(rest) => mlp_nd(rest, &h.relu()?),
            None => Ok(h),
        }
    }
}

/// Discovery attention: propagated objects → grid cell centres.
#[derive(Debug, Clone)]
pub struct DiscoveryAttention {
    rel: RelationMlp,
    std: f64,
}

impl DiscoveryAttention {
    /// `feat_dim` = object feature size (198 at paper sizes); output `out_dim` (64).
    pub fn new(
        vb: VarBuilder,
        feat_dim: usize,
        hidden: &[usize],
        out_dim: usize,
        std: f64,
    ) -> Result<Self> {
        Ok(Self {
            rel: RelationMlp::new(vb.pp("rel"), &[feat_dim, 2], hidden, out_dim)?,
            std,
        })
    }

    /// # Shapes
    /// * `feats`: `(B, K, F)` object features; `pos`: `(B, K, 2)` object centres (anchor units)
    /// * `cells`: `(B, Q, 2)` grid-cell centres (anchor units)
    /// * returns `(B, Q, out)`
    pub fn forward(&self, feats: &Tensor, pos: &Tensor, cells: &Tensor) -> Result<Tensor> {
        let (d, g) = pairwise(cells, pos, self.std)?; // (B, Q, K, 2), (B, Q, K)
        let rel = self.rel.forward(&[&feats.unsqueeze(1)?, &d])?; // (B, Q, K, out)
        rel.broadcast_mul(&g.unsqueeze(D::Minus1)?)?.sum(2) // (B, Q, out)
    }

    /// [`Self::forward`] for inference: the fused op of [`crate::nn::relation_attention`], which
    /// never builds the `(B, Q, K, ·)` pair grid and skips pairs beyond 6 kernel stds. No
    /// gradients flow through it. Falls back to [`Self::forward`] for networks the op does not
    /// take.
    pub fn forward_inference(
        &self,
        feats: &Tensor,
        pos: &Tensor,
        cells: &Tensor,
    ) -> Result<Tensor> {
        let (_, k, f) = feats.dims3()?;
        let rest: Vec<&Linear> = match &self.rel.rest {
            Some(m) => m.layers().iter().collect(),
            None => vec![],
        };
        let w = self.rel.first.weight(); // (h0, F + 2)
        let mut widths = vec![w.dim(0)?];
        widths.extend(rest.iter().map(|l| l.weight().dims()[0]));
        let biased = rest.iter().all(|l| l.bias().is_some()) && self.rel.first.bias().is_some();
        if !biased || !relation_attention::fits(&widths, k) || !crate::nn::fused_attention() {
            return self.forward(feats, pos, cells);
        }
        let proj = feature_projection(&self.rel.first, feats, f)?; // (B, K, h0) incl. bias
        let w_d = w.narrow(1, f, 2)?; // (h0, 2)
        let layers: Vec<relation_attention::DenseLayer> = rest
            .iter()
            .filter_map(|l| l.bias().map(|b| (l.weight(), b)))
            .collect();
        relation_attention::relation_attention(&proj, pos, cells, &w_d, &layers, self.std)
    }
}

/// The feature part of a split first layer on `(B, K, F)` features: `x·W[:, :F]ᵀ + b`.
fn feature_projection(first: &Linear, feats: &Tensor, f: usize) -> Result<Tensor> {
    let (b, k, _) = feats.dims3()?;
    let wf = first.weight().narrow(1, 0, f)?.t()?.contiguous()?; // (F, h0)
    let y = feats.reshape((b * k, f))?.matmul(&wf)?;
    let y = match first.bias() {
        Some(bias) => y.broadcast_add(bias)?,
        None => y,
    };
    y.reshape((b, k, ()))
}

/// Propagation attention (shared by the posterior and the learned prior).
#[derive(Debug, Clone)]
pub struct PropagationAttention {
    obj: Mlp,
    rel: Option<RelationMlp>,
    std: f64,
}

impl PropagationAttention {
    /// `independent = true` builds only the object-wise MLP (MNIST, Atari).
    pub fn new(
        vb: VarBuilder,
        feat_dim: usize,
        hidden: &[usize],
        out_dim: usize,
        std: f64,
        independent: bool,
    ) -> Result<Self> {
        let obj = Mlp::new(vb.pp("obj"), feat_dim, hidden, out_dim)?;
        let rel = if independent {
            None
        } else {
            Some(RelationMlp::new(
                vb.pp("rel"),
                &[feat_dim, 2, out_dim],
                hidden,
                out_dim,
            )?)
        };
        Ok(Self { obj, rel, std })
    }

    /// Zeroes the relation MLP's last layer in place (its variables too): the interaction then
    /// adds 0, so the module computes what the independent one does, while the earlier layers
    /// keep their values and the last one still learns. What a branch onto object interaction
    /// starts from. A no-op when independent.
    pub fn silence_interaction(&self) -> Result<()> {
        let Some(rel) = &self.rel else {
            return Ok(());
        };
        let last = rel
            .rest
            .as_ref()
            .and_then(|m| m.layers().last())
            .unwrap_or(&rel.first);
        last.weight().zero_set()?;
        match last.bias() {
            Some(b) => b.zero_set(),
            None => Ok(()),
        }
    }

    /// # Shapes
    /// * `feats`: `(B, K, F)`, `pos`: `(B, K, 2)` → `(B, K, out)`
    pub fn forward(&self, feats: &Tensor, pos: &Tensor) -> Result<Tensor> {
        let o = mlp_nd(&self.obj, feats)?; // (B, K, out)
        let Some(rel) = &self.rel else {
            return Ok(o);
        };
        let (d, g) = pairwise(pos, pos, self.std)?; // (B, L, K, 2), (B, L, K)
        let r = rel.forward(&[&feats.unsqueeze(1)?, &d, &o.unsqueeze(2)?])?; // (B, L, K, out)
        o + r.broadcast_mul(&g.unsqueeze(D::Minus1)?)?.sum(2)?
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{seeded_var_builder, SeededRng};
    use candle_core::{DType, Device, Var};
    use candle_nn::VarMap;

    fn randn(rng: &mut SeededRng, shape: &[usize], scale: f64) -> Tensor {
        rng.normal(shape, &Device::Cpu)
            .unwrap()
            .to_dtype(DType::F64)
            .unwrap()
            .affine(scale, 0.0)
            .unwrap()
    }

    /// Central finite differences of `f` wrt every element of `x` vs autograd.
    fn grad_check(x: &Var, f: &dyn Fn(&Tensor) -> Tensor) {
        let g = f(x.as_tensor()).backward().unwrap();
        let analytic: Vec<f64> = g
            .get(x.as_tensor())
            .unwrap()
            .flatten_all()
            .unwrap()
            .to_vec1()
            .unwrap();
        let x0: Vec<f64> = x.as_tensor().flatten_all().unwrap().to_vec1().unwrap();
        let eps = 1e-6;
        let mut worst = 0f64;
        for i in 0..x0.len() {
            let eval = |d: f64| {
                let mut v = x0.clone();
                v[i] += d;
                let t = Tensor::from_vec(v, x.as_tensor().shape(), &Device::Cpu).unwrap();
                f(&t).to_scalar::<f64>().unwrap()
            };
            let num = (eval(eps) - eval(-eps)) / (2.0 * eps);
            let err = (num - analytic[i]).abs() / (1e-6 + num.abs().max(analytic[i].abs()));
            worst = worst.max(err);
            assert!(
                err < 1e-5,
                "element {i}: numeric {num} vs autograd {}",
                analytic[i]
            );
        }
        assert!(analytic.iter().any(|v| *v != 0.0), "all-zero gradient");
        assert!(worst < 1e-5);
    }

    #[test]
    fn split_first_layer_equals_concatenation() {
        let dev = Device::Cpu;
        let vm = VarMap::new();
        let r = RelationMlp::new(
            seeded_var_builder(&vm, 5, DType::F64, &dev),
            &[3, 2],
            &[4, 5],
            6,
        )
        .unwrap();
        let mut rng = SeededRng::new(6);
        let a = randn(&mut rng, &[2, 1, 3, 3], 1.0); // (B, 1, K, 3)
        let d = randn(&mut rng, &[2, 4, 3, 2], 1.0); // (B, Q, K, 2)
        let got = r.forward(&[&a, &d]).unwrap();
        let cat = Tensor::cat(&[&a.broadcast_as((2, 4, 3, 3)).unwrap(), &d], 3)
            .unwrap()
            .contiguous()
            .unwrap();
        let h = cat
            .broadcast_matmul(&r.first.weight().t().unwrap())
            .unwrap();
        let h = h
            .broadcast_add(r.first.bias().unwrap())
            .unwrap()
            .relu()
            .unwrap();
        let want = mlp_nd(r.rest.as_ref().unwrap(), &h).unwrap();
        let diff: f64 = (got - want)
            .unwrap()
            .abs()
            .unwrap()
            .max_keepdim(3)
            .unwrap()
            .flatten_all()
            .unwrap()
            .max(0)
            .unwrap()
            .to_scalar()
            .unwrap();
        assert!(diff < 1e-12, "{diff}");
    }

    #[test]
    fn interaction_with_its_last_layer_at_zero_is_the_independent_model() {
        // What a branch onto object interaction starts from (`Trainer::branch_from`).
        let dev = Device::Cpu;
        let vm = VarMap::new();
        let vb = seeded_var_builder(&vm, 3, DType::F64, &dev);
        let att = PropagationAttention::new(vb, 5, &[4, 4], 6, 0.3, false).unwrap();
        let mut rng = SeededRng::new(4);
        let feats = randn(&mut rng, &[2, 3, 5], 1.0); // (B, K, F)
        let pos = randn(&mut rng, &[2, 3, 2], 0.3); // (B, K, 2)
        let alone: Vec<f64> = mlp_nd(&att.obj, &feats)
            .unwrap()
            .flatten_all()
            .unwrap()
            .to_vec1()
            .unwrap();
        let joint = |att: &PropagationAttention| -> Vec<f64> {
            let y = att.forward(&feats, &pos).unwrap();
            y.flatten_all().unwrap().to_vec1().unwrap()
        };
        assert_ne!(
            joint(&att),
            alone,
            "the interaction adds nothing to begin with"
        );
        att.silence_interaction().unwrap();
        assert_eq!(joint(&att), alone);
        // In place: the variables the module was built from are zeroed too.
        let data = vm.data().lock().unwrap();
        for name in ["rel.rest.layer1.weight", "rel.rest.layer1.bias"] {
            let v: Vec<f64> = data[name].flatten_all().unwrap().to_vec1().unwrap();
            assert!(v.iter().all(|x| *x == 0.0), "{name}");
        }
    }

    #[test]
    fn discovery_attention_gradients_and_shape() {
        let dev = Device::Cpu;
        let vm = VarMap::new();
        let vb = seeded_var_builder(&vm, 1, DType::F64, &dev);
        let att = DiscoveryAttention::new(vb, 5, &[6], 3, 0.3).unwrap();
        let mut rng = SeededRng::new(2);
        let feats = Var::from_tensor(&randn(&mut rng, &[2, 3, 5], 1.0)).unwrap();
        let pos = Var::from_tensor(&randn(&mut rng, &[2, 3, 2], 0.3)).unwrap();
        let cells = randn(&mut rng, &[2, 4, 2], 0.3);
        let w = randn(&mut rng, &[2, 4, 3], 1.0);
        let out = att
            .forward(feats.as_tensor(), pos.as_tensor(), &cells)
            .unwrap();
        assert_eq!(out.dims(), &[2, 4, 3]);
        let p = pos.as_tensor().clone();
        grad_check(&feats, &|f| {
            att.forward(f, &p, &cells)
                .unwrap()
                .mul(&w)
                .unwrap()
                .sum_all()
                .unwrap()
        });
        let fe = feats.as_tensor().clone();
        grad_check(&pos, &|p| {
            att.forward(&fe, p, &cells)
                .unwrap()
                .mul(&w)
                .unwrap()
                .sum_all()
                .unwrap()
        });
    }

    #[test]
    fn propagation_attention_gradients_and_independence() {
        let dev = Device::Cpu;
        let vm = VarMap::new();
        let vb = seeded_var_builder(&vm, 3, DType::F64, &dev);
        let att = PropagationAttention::new(vb, 5, &[6], 4, 0.4, false).unwrap();
        let mut rng = SeededRng::new(4);
        let feats = Var::from_tensor(&randn(&mut rng, &[2, 3, 5], 1.0)).unwrap();
        let pos = Var::from_tensor(&randn(&mut rng, &[2, 3, 2], 0.3)).unwrap();
        let w = randn(&mut rng, &[2, 3, 4], 1.0);
        let p = pos.as_tensor().clone();
        grad_check(&feats, &|f| {
            att.forward(f, &p)
                .unwrap()
                .mul(&w)
                .unwrap()
                .sum_all()
                .unwrap()
        });
        let fe = feats.as_tensor().clone();
        grad_check(&pos, &|p| {
            att.forward(&fe, p)
                .unwrap()
                .mul(&w)
                .unwrap()
                .sum_all()
                .unwrap()
        });
        // The independent form ignores other objects: changing object 1 leaves object 0 alone.
        let vm = VarMap::new();
        let ind = PropagationAttention::new(
            seeded_var_builder(&vm, 3, DType::F64, &dev),
            5,
            &[6],
            4,
            0.4,
            true,
        )
        .unwrap();
        let a = ind.forward(feats.as_tensor(), pos.as_tensor()).unwrap();
        let f2 = feats
            .as_tensor()
            .slice_assign(&[0..2, 1..2, 0..5], &randn(&mut rng, &[2, 1, 5], 1.0))
            .unwrap();
        let b = ind.forward(&f2, pos.as_tensor()).unwrap();
        let d0: f64 = (a.narrow(1, 0, 1).unwrap() - b.narrow(1, 0, 1).unwrap())
            .unwrap()
            .abs()
            .unwrap()
            .sum_all()
            .unwrap()
            .to_scalar()
            .unwrap();
        assert_eq!(d0, 0.0);
        // The attention form does depend on neighbours (they are within a few kernel widths).
        let c = att.forward(&f2, pos.as_tensor()).unwrap();
        let a2 = att.forward(feats.as_tensor(), pos.as_tensor()).unwrap();
        let d1: f64 = (a2.narrow(1, 0, 1).unwrap() - c.narrow(1, 0, 1).unwrap())
            .unwrap()
            .abs()
            .unwrap()
            .sum_all()
            .unwrap()
            .to_scalar()
            .unwrap();
        assert!(d1 > 0.0);
    }
}
