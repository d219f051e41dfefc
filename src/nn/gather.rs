//! Row gather with distinct indices whose backward pass is a gather too.
//!
//! Selection (top-K, reference §2.7) gathers K of the `K + H·W` candidate objects per stream, nine
//! fields per frame. candle differentiates `index_select` with `index_add`, whose CUDA kernel
//! scans the whole index list for every output element: on the H100 it took ~0.8 ms per call,
//! 21 % of a Space Invaders training step's GPU time (`benches/results/
//! cuda_train_step_profile.md`). The selected rows are distinct, so the gradient of the source
//! is a gather as well: row `j` takes the gradient of the output row that selected it, or zero
//! ([`RowGather`] keeps the inverse index for that).

use candle_core::backend::BackendStorage;
use candle_core::{CpuStorage, CustomOp1, Device, Layout, Result, Shape, Storage, Tensor};

/// A gather of rows `index` (distinct) from a source of `rows` rows, prepared once and applied
/// to several `(rows, D)` tensors.
#[derive(Debug, Clone)]
pub struct RowGather {
    /// `(M)` u32: source row of each output row.
    index: Tensor,
    /// `(rows)` u32: output row that took each source row, `M` (a zero row) if none; `None`
    /// when `index` repeats a row (then candle's `index_select` and `index_add` are used).
    inverse: Option<Tensor>,
    rows: usize,
}

impl RowGather {
    /// Gather of `index` (each `< rows`) on `device`.
    pub fn new(index: &[u32], rows: usize, device: &Device) -> Result<RowGather> {
        let m = index.len();
        let mut inverse = vec![m as u32; rows];
        let mut distinct = true;
        for (i, &j) in index.iter().enumerate() {
            let slot = inverse.get_mut(j as usize).ok_or_else(|| {
                candle_core::Error::Msg(format!(
                    "RowGather: index {j} out of range for {rows} rows"
                ))
            })?;
            distinct &= *slot == m as u32;
            *slot = i as u32;
        }
        Ok(RowGather {
            index: Tensor::from_slice(index, m, device)?,
            inverse: match distinct {
                true => Some(Tensor::from_vec(inverse, rows, device)?),
                false => None,
            },
            rows,
        })
    }

    /// Rows of `src (rows, D)` → `(M, D)`; differentiable in `src`.
    pub fn apply(&self, src: &Tensor) -> Result<Tensor> {
        let (r, _) = src.dims2()?;
        if r != self.rows {
            candle_core::bail!(
                "RowGather: source has {r} rows, the gather was made for {}",
                self.rows
            );
        }
        match &self.inverse {
            Some(inverse) => src.apply_op1(GatherRows {
                index: self.index.clone(),
                inverse: inverse.clone(),
            }),
            None => src.index_select(&self.index, 0),
        }
    }
}

/// The op: forward `index_select`, backward a gather of `[grad; 0]` by the inverse index.
struct GatherRows {
    index: Tensor,
    inverse: Tensor,
}

impl GatherRows {
    fn out_shape(&self, l: &Layout) -> Result<Shape> {
        Ok(Shape::from((self.index.dim(0)?, l.dims()[1])))
    }
}

impl CustomOp1 for GatherRows {
    fn name(&self) -> &'static str {
        "silot-gather-rows"
    }

    fn cpu_fwd(&self, s: &CpuStorage, l: &Layout) -> Result<(CpuStorage, Shape)> {
        let (st, il) = self.index.storage_and_layout();
        let Storage::Cpu(ids) = &*st else {
            candle_core::bail!("gather_rows: the index is not on the source's device");
        };
        Ok((s.index_select(ids, l, il, 0)?, self.out_shape(l)?))
    }

    #[cfg(feature = "cuda")]
    fn cuda_fwd(
        &self,
        s: &candle_core::CudaStorage,
        l: &Layout,
    ) -> Result<(candle_core::CudaStorage, Shape)> {
        let (st, il) = self.index.storage_and_layout();
        let Storage::Cuda(ids) = &*st else {
            candle_core::bail!("gather_rows: the index is not on the source's device");
        };
        Ok((s.index_select(ids, l, il, 0)?, self.out_shape(l)?))
    }

    fn bwd(&self, _src: &Tensor, _res: &Tensor, grad: &Tensor) -> Result<Option<Tensor>> {
        let d = grad.dim(1)?;
        let zero = Tensor::zeros((1, d), grad.dtype(), grad.device())?;
        let padded = Tensor::cat(&[grad, &zero], 0)?; // (M + 1, D)
        Ok(Some(padded.index_select(&self.inverse, 0)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SeededRng;
    use crate::testing::max_abs_diff;
    use candle_core::Var;

    /// Same values and source gradient as candle's `index_select` (distinct and repeated rows).
    fn agrees_with_index_select(dev: &Device) {
        let mut rng = SeededRng::new(2);
        let src = Var::from_tensor(&rng.normal(&[7, 3], dev).unwrap()).unwrap();
        let g = rng.normal(&[4, 3], dev).unwrap();
        for index in [[5u32, 0, 6, 2], [1, 1, 3, 0]] {
            let gather = RowGather::new(&index, 7, dev).unwrap();
            assert_eq!(gather.inverse.is_some(), index != [1, 1, 3, 0]);
            let run = |fused: bool| {
                let y = if fused {
                    gather.apply(&src).unwrap()
                } else {
                    let idx = Tensor::from_slice(&index, 4, dev).unwrap();
                    src.index_select(&idx, 0).unwrap()
                };
                let grads = (&y * &g).unwrap().sum_all().unwrap().backward().unwrap();
                (y, grads.get(&src).unwrap().clone())
            };
            let (a, b) = (run(true), run(false));
            assert_eq!(a.0.dims(), &[4, 3]);
            assert!(max_abs_diff(&a.0, &b.0) < 1e-7);
            assert!(max_abs_diff(&a.1, &b.1) < 1e-6);
        }
    }

    crate::test_device!(agrees_with_index_select, gather_rows_cpu, gather_rows_cuda);

    #[test]
    fn bad_index_and_shape_are_clear_errors() {
        let dev = Device::Cpu;
        let err = RowGather::new(&[0, 9], 4, &dev).unwrap_err();
        assert!(err.to_string().contains("out of range"), "{err}");
        let g = RowGather::new(&[0, 2], 4, &dev).unwrap();
        let err = g.apply(&Tensor::zeros((3, 2), candle_core::DType::F32, &dev).unwrap());
        assert!(err.unwrap_err().to_string().contains("made for 4"));
    }
}
