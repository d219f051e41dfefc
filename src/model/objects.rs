//! The per-slot object record carried between timesteps (reference §0, §2.10) and the one
//! conversion from model geometry to pixel boxes (reference §3, `coords_to_pixel_space`).

use crate::nn::gather::RowGather;
use candle_core::{DType, Device, Result, Tensor, D};

/// A batch of object sets, `B` streams × `N` objects (N = K slots, or H·W discovered objects).
///
/// Geometry is in **anchor units** with centre + size: `where_ = (yt, xt, ys, xs)` with
/// `Y_pix = yt·a_h`, `h_pix = ys·a_h` (pixel `k` covers `[k, k+1)`).
#[derive(Debug, Clone)]
pub struct Objects {
    /// `(B, N, 4)` `yt, xt, ys, xs`: box centre and size in anchor units.
    pub where_: Tensor,
    /// `(B, N, 2)` box centre in anchor units relative to the full (uncropped) frame.
    pub abs_posn: Tensor,
    /// `(B, N, A)` appearance latent.
    pub what: Tensor,
    /// `(B, N, 1)` depth `z ∈ (0, 1)`.
    pub depth: Tensor,
    /// `(B, N, 1)` presence `obj ∈ [0, 1]`.
    pub pres: Tensor,
    /// `(B, N, 2)` size logits `ys_logit, xs_logit`.
    pub size_logit: Tensor,
    /// `(B, N, 1)` depth logit `z_logit`.
    pub depth_logit: Tensor,
    /// `(B, N, S)` posterior GRU state (S = 2·n_hidden).
    pub prop_state: Tensor,
    /// `(B, N, S)` learned-prior GRU state.
    pub prior_prop_state: Tensor,
    /// Host-side persistent identity per slot, row-major `(B, N)`; meaningful for selected
    /// objects (a slot keeps its id while its object is propagated; `is_new` slots get fresh ids).
    pub ids: Vec<u64>,
    /// Host-side `(B, N)`: the slot was filled by a newly discovered object at this step.
    pub is_new: Vec<bool>,
}

impl Objects {
    /// The null object set of reference §2.0: every attribute and state zero, `pres = 0`.
    pub fn null(b: usize, n: usize, n_what: usize, state: usize, dev: &Device) -> Result<Self> {
        let z = |d: usize| Tensor::zeros((b, n, d), DType::F32, dev);
        Ok(Self {
            where_: z(4)?,
            abs_posn: z(2)?,
            what: z(n_what)?,
            depth: z(1)?,
            pres: z(1)?,
            size_logit: z(2)?,
            depth_logit: z(1)?,
            prop_state: z(state)?,
            prior_prop_state: z(state)?,
            ids: vec![0; b * n],
            is_new: vec![false; b * n],
        })
    }

    /// `(B, N)` dims.
    pub fn dims(&self) -> Result<(usize, usize)> {
        let (b, n, _) = self.where_.dims3()?;
        Ok((b, n))
    }

    /// `(B, N, 2)` centre `(yt, xt)` in anchor units.
    pub fn centre(&self) -> Result<Tensor> {
        self.where_.narrow(D::Minus1, 0, 2)
    }

    /// `(B, N, 2)` size `(ys, xs)` in anchor units.
    pub fn size(&self) -> Result<Tensor> {
        self.where_.narrow(D::Minus1, 2, 2)
    }

    /// Per-object features for attention (reference §2.2, `use_abs_posn=True`):
    /// `[abs_posn(2), ys, xs(2), what(A), z(1), obj(1), state(S)]` → `(B, N, 6 + A + S)`, with
    /// `state` the posterior (`prior = false`) or learned-prior GRU state.
    pub fn features(&self, prior: bool) -> Result<Tensor> {
        let state = if prior {
            &self.prior_prop_state
        } else {
            &self.prop_state
        };
        Tensor::cat(
            &[
                &self.abs_posn,
                &self.size()?,
                &self.what,
                &self.depth,
                &self.pres,
                state,
            ],
            D::Minus1,
        )
    }

    /// The set whose every tensor is `f(this set's, other's)` (a concatenation, a per-stream
    /// choice between two sets, ...), with the host-side `ids` and `is_new` given.
    pub fn zip_tensors(
        &self,
        other: &Objects,
        mut f: impl FnMut(&Tensor, &Tensor) -> Result<Tensor>,
        ids: Vec<u64>,
        is_new: Vec<bool>,
    ) -> Result<Objects> {
        Ok(Objects {
            where_: f(&self.where_, &other.where_)?,
            abs_posn: f(&self.abs_posn, &other.abs_posn)?,
            what: f(&self.what, &other.what)?,
            depth: f(&self.depth, &other.depth)?,
            pres: f(&self.pres, &other.pres)?,
            size_logit: f(&self.size_logit, &other.size_logit)?,
            depth_logit: f(&self.depth_logit, &other.depth_logit)?,
            prop_state: f(&self.prop_state, &other.prop_state)?,
            prior_prop_state: f(&self.prior_prop_state, &other.prior_prop_state)?,
            ids,
            is_new,
        })
    }

    /// Concatenate two sets along the object axis (`self` first); host-side fields too.
    pub fn cat(&self, other: &Objects) -> Result<Objects> {
        let c = |a: &Tensor, b: &Tensor| Tensor::cat(&[a, b], 1);
        let (b, n1) = self.dims()?;
        let (_, n2) = other.dims()?;
        let mut ids = Vec::with_capacity(b * (n1 + n2));
        let mut is_new = Vec::with_capacity(b * (n1 + n2));
        for bi in 0..b {
            ids.extend_from_slice(&self.ids[bi * n1..(bi + 1) * n1]);
            ids.extend_from_slice(&other.ids[bi * n2..(bi + 1) * n2]);
            is_new.extend_from_slice(&self.is_new[bi * n1..(bi + 1) * n1]);
            is_new.extend_from_slice(&other.is_new[bi * n2..(bi + 1) * n2]);
        }
        self.zip_tensors(other, c, ids, is_new)
    }

    /// Gather objects: `index` holds, row-major `(B, M)`, indices into this set's object axis.
    /// Differentiable wrt the gathered values (not the choice). Host fields are gathered too.
    pub fn gather(&self, index: &[u32], m: usize) -> Result<Objects> {
        let (b, n) = self.dims()?;
        if index.len() != b * m {
            candle_core::bail!("Objects::gather: {} indices for B={b}, M={m}", index.len());
        }
        let flat: Vec<u32> = index
            .iter()
            .enumerate()
            .map(|(i, &j)| (i / m * n) as u32 + j)
            .collect();
        // Distinct rows (selection): the backward pass is a gather too (`nn::gather`).
        let rows = RowGather::new(&flat, b * n, self.where_.device())?;
        let g = |t: &Tensor| -> Result<Tensor> {
            let d = t.dim(D::Minus1)?;
            rows.apply(&t.reshape((b * n, d))?)?.reshape((b, m, d))
        };
        Ok(Objects {
            where_: g(&self.where_)?,
            abs_posn: g(&self.abs_posn)?,
            what: g(&self.what)?,
            depth: g(&self.depth)?,
            pres: g(&self.pres)?,
            size_logit: g(&self.size_logit)?,
            depth_logit: g(&self.depth_logit)?,
            prop_state: g(&self.prop_state)?,
            prior_prop_state: g(&self.prior_prop_state)?,
            ids: flat.iter().map(|&i| self.ids[i as usize]).collect(),
            is_new: flat.iter().map(|&i| self.is_new[i as usize]).collect(),
        })
    }

    /// The set with the objects of every stream `b` with `reset[b]` replaced by the null set
    /// (a new episode starts there); other streams are unchanged.
    pub fn reset_streams(&self, reset: &[bool]) -> Result<Objects> {
        let (b, n) = self.dims()?;
        if reset.len() != b {
            candle_core::bail!(
                "Objects::reset_streams: {} flags for {b} streams",
                reset.len()
            );
        }
        let keep: Vec<f32> = reset.iter().map(|&r| if r { 0.0 } else { 1.0 }).collect();
        let keep = Tensor::from_vec(keep, (b, 1, 1), self.where_.device())?
            .to_dtype(self.where_.dtype())?;
        // The null set is all zeros, so masking by `keep` resets exactly those streams.
        let m = |t: &Tensor| t.broadcast_mul(&keep);
        let host = |v: &[u64], zero: u64| -> Vec<u64> {
            v.chunks(n.max(1))
                .zip(reset)
                .flat_map(|(row, &r)| row.iter().map(move |&x| if r { zero } else { x }))
                .collect()
        };
        let ids = host(&self.ids, 0);
        let is_new = self
            .is_new
            .chunks(n.max(1))
            .zip(reset)
            .flat_map(|(row, &r)| row.iter().map(move |&x| x && !r))
            .collect();
        Ok(Objects {
            where_: m(&self.where_)?,
            abs_posn: m(&self.abs_posn)?,
            what: m(&self.what)?,
            depth: m(&self.depth)?,
            pres: m(&self.pres)?,
            size_logit: m(&self.size_logit)?,
            depth_logit: m(&self.depth_logit)?,
            prop_state: m(&self.prop_state)?,
            prior_prop_state: m(&self.prior_prop_state)?,
            ids,
            is_new,
        })
    }

    /// Detach every tensor (truncated back-propagation, evaluation).
    pub fn detach(&self) -> Objects {
        Objects {
            where_: self.where_.detach(),
            abs_posn: self.abs_posn.detach(),
            what: self.what.detach(),
            depth: self.depth.detach(),
            pres: self.pres.detach(),
            size_logit: self.size_logit.detach(),
            depth_logit: self.depth_logit.detach(),
            prop_state: self.prop_state.detach(),
            prior_prop_state: self.prior_prop_state.detach(),
            ids: self.ids.clone(),
            is_new: self.is_new.clone(),
        }
    }
}

/// A box in pixel space in the evaluation convention (pixel `k` has its centre at index `k`, so an
/// object on rows `y0..=y1` has `top = y0 − 0.5`, `bottom = y1 + 0.5`), like `env::GtObject`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PixelBox {
    /// Top edge.
    pub top: f32,
    /// Left edge.
    pub left: f32,
    /// Height.
    pub height: f32,
    /// Width.
    pub width: f32,
}

impl PixelBox {
    /// Bottom edge `top + height`.
    pub fn bottom(&self) -> f32 {
        self.top + self.height
    }
    /// Right edge `left + width`.
    pub fn right(&self) -> f32 {
        self.left + self.width
    }
}

/// `coords_to_pixel_space` of reference §3 for one box: `h = ys·a_h`, `top = yt·a_h − 0.5 − h/2`
/// (same for x), from `(yt, xt, ys, xs)` in anchor units.
pub fn pixel_box(yx_hw: [f32; 4], anchor: [f64; 2]) -> PixelBox {
    let (ah, aw) = (anchor[0] as f32, anchor[1] as f32);
    let (h, w) = (yx_hw[2] * ah, yx_hw[3] * aw);
    PixelBox {
        top: yx_hw[0] * ah - 0.5 - h / 2.0,
        left: yx_hw[1] * aw - 0.5 - w / 2.0,
        height: h,
        width: w,
    }
}

/// [`pixel_box`] of every object: `where_` is `(B, N, 4)` `(yt, xt, ys, xs)` anchor units.
/// Returns `B` rows of `N` boxes.
pub fn coords_to_pixel_space(where_: &Tensor, anchor: [f64; 2]) -> Result<Vec<Vec<PixelBox>>> {
    let rows = where_.to_dtype(DType::F32)?.to_vec3::<f32>()?;
    Ok(rows
        .into_iter()
        .map(|objs| {
            objs.into_iter()
                .map(|v| pixel_box([v[0], v[1], v[2], v[3]], anchor))
                .collect()
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixel_box_convention() {
        // An object on rows 10..=13 (4 px): centre 12 px in continuous coords, size 4.
        let w = Tensor::new(
            &[[[12.0f32 / 48.0, 24.0 / 48.0, 4.0 / 48.0, 8.0 / 48.0]]],
            &Device::Cpu,
        )
        .unwrap();
        let b = coords_to_pixel_space(&w, [48.0, 48.0]).unwrap()[0][0];
        assert!(
            (b.top - 9.5).abs() < 1e-5 && (b.bottom() - 13.5).abs() < 1e-5,
            "{b:?}"
        );
        assert!(
            (b.left - 19.5).abs() < 1e-5 && (b.right() - 27.5).abs() < 1e-5,
            "{b:?}"
        );
    }

    #[test]
    fn null_cat_gather() {
        let dev = Device::Cpu;
        let mut a = Objects::null(2, 3, 5, 4, &dev).unwrap();
        a.ids = (0..6).collect();
        a.pres = Tensor::arange(0f32, 6., &dev)
            .unwrap()
            .reshape((2, 3, 1))
            .unwrap();
        let mut b = Objects::null(2, 2, 5, 4, &dev).unwrap();
        b.ids = (100..104).collect();
        b.pres = Tensor::arange(10f32, 14., &dev)
            .unwrap()
            .reshape((2, 2, 1))
            .unwrap();
        let c = a.cat(&b).unwrap();
        assert_eq!(c.dims().unwrap(), (2, 5));
        assert_eq!(c.features(false).unwrap().dims(), &[2, 5, 6 + 5 + 4]);
        let g = c.gather(&[4, 0, 3, 2], 2).unwrap();
        let p: Vec<f32> = g.pres.flatten_all().unwrap().to_vec1().unwrap();
        assert_eq!(p, vec![11.0, 0.0, 12.0, 5.0]);
        assert_eq!(g.ids, vec![101, 0, 102, 5]);
    }
}
