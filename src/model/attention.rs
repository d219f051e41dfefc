//! Spatial attention between objects and locations (reference §2.2, `SpatialAttentionLayerV2`).
//!
//! Locations are `(yt, xt)` in anchor units; the kernel is the 2-D Gaussian density
//! `G(d) = exp(−½‖d/s‖²)/(2π s²)` (not normalised over objects).
//!
//! * [`DiscoveryAttention`] (`d_spatial`): `v_td[q] = Σ_k G(p_k − g_q)·MLP_rel([f_k, p_k − g_q])`.
//! * [`PropagationAttention`] (`p_td`/`p_spatial`): independent form `u_ℓ = MLP_obj(f_ℓ)`, or
//!   `u_ℓ = o_ℓ + Σ_k G(p_k − p_ℓ)·MLP_rel([f_k, p_k − p_ℓ, o_ℓ])` with `o_ℓ = MLP_obj(f_ℓ)`.

use candle_core::{Module, Result, Tensor, D};
use candle_nn::VarBuilder;

use crate::nn::kernel::gaussian_kernel;
use crate::nn::mlp::Mlp;

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

/// Discovery attention: propagated objects → grid cell centres.
#[derive(Debug, Clone)]
pub struct DiscoveryAttention {
    rel: Mlp,
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
            rel: Mlp::new(vb.pp("rel"), feat_dim + 2, hidden, out_dim)?,
            std,
        })
    }

    /// # Shapes
    /// * `feats`: `(B, K, F)` object features; `pos`: `(B, K, 2)` object centres (anchor units)
    /// * `cells`: `(B, Q, 2)` grid-cell centres (anchor units)
    /// * returns `(B, Q, out)`
    pub fn forward(&self, feats: &Tensor, pos: &Tensor, cells: &Tensor) -> Result<Tensor> {
        let (b, k, f) = feats.dims3()?;
        let q = cells.dim(1)?;
        let (d, g) = pairwise(cells, pos, self.std)?;
        let fk = feats
            .unsqueeze(1)?
            .broadcast_as((b, q, k, f))?
            .contiguous()?;
        let rel = mlp_nd(&self.rel, &Tensor::cat(&[&fk, &d], D::Minus1)?)?; // (B, Q, K, out)
        rel.broadcast_mul(&g.unsqueeze(D::Minus1)?)?.sum(2) // (B, Q, out)
    }
}

/// Propagation attention (shared by the posterior and the learned prior).
#[derive(Debug, Clone)]
pub struct PropagationAttention {
    obj: Mlp,
    rel: Option<Mlp>,
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
            Some(Mlp::new(
                vb.pp("rel"),
                feat_dim + 2 + out_dim,
                hidden,
                out_dim,
            )?)
        };
        Ok(Self { obj, rel, std })
    }

    /// # Shapes
    /// * `feats`: `(B, K, F)`, `pos`: `(B, K, 2)` → `(B, K, out)`
    pub fn forward(&self, feats: &Tensor, pos: &Tensor) -> Result<Tensor> {
        let o = mlp_nd(&self.obj, feats)?; // (B, K, out)
        let Some(rel) = &self.rel else {
            return Ok(o);
        };
        let (b, k, f) = feats.dims3()?;
        let od = o.dim(D::Minus1)?;
        let (d, g) = pairwise(pos, pos, self.std)?; // (B, L, K, 2), (B, L, K)
        let fk = feats
            .unsqueeze(1)?
            .broadcast_as((b, k, k, f))?
            .contiguous()?;
        let ol = o.unsqueeze(2)?.broadcast_as((b, k, k, od))?.contiguous()?;
        let r = mlp_nd(rel, &Tensor::cat(&[&fk, &d, &ol], D::Minus1)?)?; // (B, L, K, out)
        o + r.broadcast_mul(&g.unsqueeze(D::Minus1)?)?.sum(2)?
    }
}
