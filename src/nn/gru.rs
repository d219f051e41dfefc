//! Sonnet GRU cell (reference §2.3 step 7): separate `w*` (input), `u*` (recurrent) and `b*`
//! variables for the update (`z`), reset (`r`) and candidate (`h`) parts, all Glorot-uniform
//! initialised, biases included (`tf.get_variable` default; for a 1-D bias TF uses
//! `fan_in = fan_out = len`).

use candle_core::{Result, Tensor};
use candle_nn::VarBuilder;

use super::epilogue::bias_act;
use crate::rng::glorot_uniform;

/// GRU cell: `zg = σ(x W_z + h U_z + b_z)`, `r = σ(x W_r + h U_r + b_r)`,
/// `h̃ = tanh(x W_h + (r ⊙ h) U_h + b_h)`, `h' = (1 − zg) ⊙ h + zg ⊙ h̃`.
#[derive(Debug, Clone)]
pub struct Gru {
    w: [Tensor; 3], // (in, hidden) each: z, r, h
    u: [Tensor; 3], // (hidden, hidden) each
    b: [Tensor; 3], // (hidden) each
    in_dim: usize,
    hidden: usize,
}

impl Gru {
    /// Variables `wz, uz, bz, wr, ur, br, wh, uh, bh` under `vb`.
    pub fn new(vb: VarBuilder, in_dim: usize, hidden: usize) -> Result<Gru> {
        let get = |n: &str, s: (usize, usize)| vb.get_with_hints(s, n, glorot_uniform(s.0, s.1));
        let bias = |n: &str| vb.get_with_hints(hidden, n, glorot_uniform(hidden, hidden));
        Ok(Gru {
            w: [
                get("wz", (in_dim, hidden))?,
                get("wr", (in_dim, hidden))?,
                get("wh", (in_dim, hidden))?,
            ],
            u: [
                get("uz", (hidden, hidden))?,
                get("ur", (hidden, hidden))?,
                get("uh", (hidden, hidden))?,
            ],
            b: [bias("bz")?, bias("br")?, bias("bh")?],
            in_dim,
            hidden,
        })
    }

    /// Hidden size.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// One step: `x (N, in)`, `h (N, hidden)` → `(N, hidden)`.
    pub fn step(&self, x: &Tensor, h: &Tensor) -> Result<Tensor> {
        if x.rank() != 2 || x.dim(1)? != self.in_dim || h.rank() != 2 || h.dim(1)? != self.hidden {
            candle_core::bail!(
                "Gru::step expects x (N, {}) and h (N, {}), got {:?} and {:?}",
                self.in_dim,
                self.hidden,
                x.dims(),
                h.dims()
            );
        }
        // The z/r input projections in one matmul, the candidate's in another, so that every
        // elementwise op below reads contiguous tensors (candle's kernels take a slow generic
        // path for strided views such as `narrow`s of a wider matmul output).
        let hd = self.hidden;
        let xw_zr = x.matmul(&Tensor::cat(&self.w[..2], 1)?)?; // (N, 2H)
        let xw_h = x.matmul(&self.w[2])?; // (N, H)
        let hu = h.matmul(&Tensor::cat(&self.u[..2], 1)?)?; // (N, 2H)
                                                            // z and r together: one add, one fused bias pass, one sigmoid over (N, 2H).
        let b_zr = Tensor::cat(&self.b[..2], 0)?; // (2H)
        let zr = candle_nn::ops::sigmoid(&bias_act(&(xw_zr + hu)?, &b_zr, false)?)?;
        let z = zr.narrow(1, 0, hd)?.contiguous()?;
        let r = zr.narrow(1, hd, hd)?.contiguous()?;
        let cand = bias_act(&(xw_h + (&r * h)?.matmul(&self.u[2])?)?, &self.b[2], false)?.tanh()?;
        let one_minus_z = z.affine(-1.0, 1.0)?;
        (one_minus_z * h)? + (z * cand)?
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{DType, Device};
    use candle_nn::VarMap;

    fn sig(x: f64) -> f64 {
        1.0 / (1.0 + (-x).exp())
    }

    #[test]
    fn tiny_case_matches_hand_computation() {
        let dev = Device::Cpu;
        let vm = VarMap::new();
        let vb = crate::rng::seeded_var_builder(&vm, 0, DType::F64, &dev);
        let gru = Gru::new(vb, 1, 1).unwrap();
        assert_eq!(vm.all_vars().len(), 9);
        let vals = [
            ("wz", 0.5),
            ("uz", -1.0),
            ("bz", 0.1),
            ("wr", 2.0),
            ("ur", 0.3),
            ("br", -0.2),
            ("wh", 1.5),
            ("uh", 0.7),
            ("bh", 0.05),
        ];
        {
            let d = vm.data().lock().unwrap();
            for (n, v) in vals {
                let t = d[n]
                    .as_tensor()
                    .ones_like()
                    .unwrap()
                    .affine(v, 0.0)
                    .unwrap();
                d[n].set(&t).unwrap();
            }
        }
        let (x, h) = (0.8f64, -0.4f64);
        let z = sig(0.5 * x - 1.0 * h + 0.1);
        let r = sig(2.0 * x + 0.3 * h - 0.2);
        let c = (1.5 * x + 0.7 * r * h + 0.05).tanh();
        let want = (1.0 - z) * h + z * c;
        let xt = Tensor::new(&[[x]], &dev).unwrap();
        let ht = Tensor::new(&[[h]], &dev).unwrap();
        let got = gru.step(&xt, &ht).unwrap().to_vec2::<f64>().unwrap()[0][0];
        assert!((got - want).abs() < 1e-12, "{got} vs {want}");
    }

    #[test]
    fn shapes_and_glorot_biases() {
        let dev = Device::Cpu;
        let vm = VarMap::new();
        let vb = crate::rng::seeded_var_builder(&vm, 0, DType::F32, &dev);
        let gru = Gru::new(vb, 72, 128).unwrap();
        let x = Tensor::zeros((5, 72), DType::F32, &dev).unwrap();
        let h = Tensor::zeros((5, 128), DType::F32, &dev).unwrap();
        assert_eq!(gru.step(&x, &h).unwrap().dims(), &[5, 128]);
        let b = vm.data().lock().unwrap()["bz"]
            .as_tensor()
            .to_vec1::<f32>()
            .unwrap();
        let l = (6.0f32 / 256.0).sqrt();
        assert!(b.iter().all(|v| v.abs() <= l) && b.iter().any(|&v| v != 0.0));
        assert!(gru.step(&h, &h).is_err());
    }
}
