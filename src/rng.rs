//! Seeded randomness for the model (candle's own RNG cannot be seeded on CPU). Initial weights
//! and discovery dropout are drawn on the host from ChaCha8 and copied to the device; the latent
//! and gradient noise (millions of values per step) come from counter-based streams
//! ([`counter_normal`], [`counter_uniform`], [`counter_truncated_normal`]) whose keys are ChaCha8
//! draws, so the GPU makes them in place. Same seed → the same results (bit-identical on CPU).

use std::sync::{Arc, Mutex};

use candle_core::{DType, Device, Result, Shape, Tensor, Var};
use candle_nn::var_builder::SimpleBackend;
use candle_nn::{Init, VarBuilder, VarMap};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

use crate::seed::{mix64, GOLDEN};

/// A seeded random generator (ChaCha8) producing candle tensors.
#[derive(Debug, Clone)]
pub struct SeededRng {
    rng: ChaCha8Rng,
}

impl SeededRng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// An independent child generator for `stream` (e.g. one per worker or per purpose).
    /// Advances `self` by one 256-bit draw, so successive forks differ even for the same stream.
    pub fn fork(&mut self, stream: u64) -> SeededRng {
        let key: [u8; 32] = self.rng.gen();
        let mut rng = ChaCha8Rng::from_seed(key);
        rng.set_stream(stream);
        SeededRng { rng }
    }

    /// One f32 from N(0, 1).
    pub fn normal_f32(&mut self) -> f32 {
        self.rng.sample(StandardNormal)
    }

    /// One f32 uniform in `[0, 1)`.
    pub fn uniform_f32(&mut self) -> f32 {
        self.rng.gen::<f32>()
    }

    /// One u64 (e.g. to seed something else).
    pub fn next_u64(&mut self) -> u64 {
        self.rng.gen()
    }

    /// One draw of TensorFlow's truncated normal: N(0, 1) redrawn while `|x| > 2`.
    pub fn truncated_normal_f32(&mut self) -> f32 {
        loop {
            let x: f32 = self.rng.sample(StandardNormal);
            if x.abs() <= 2.0 {
                return x;
            }
        }
    }

    fn tensor(
        &mut self,
        shape: &[usize],
        dev: &Device,
        f: impl FnMut(&mut Self) -> f32,
    ) -> Result<Tensor> {
        let n: usize = shape.iter().product();
        let mut f = f;
        let data: Vec<f32> = (0..n).map(|_| f(self)).collect();
        Tensor::from_vec(data, shape, dev)
    }

    /// f32 tensor of N(0, 1) draws.
    pub fn normal(&mut self, shape: &[usize], dev: &Device) -> Result<Tensor> {
        self.tensor(shape, dev, |r| r.normal_f32())
    }

    /// f32 tensor uniform in `[lo, hi)`.
    pub fn uniform(&mut self, shape: &[usize], lo: f32, hi: f32, dev: &Device) -> Result<Tensor> {
        self.tensor(shape, dev, |r| lo + (hi - lo) * r.uniform_f32())
    }

    /// f32 tensor of TensorFlow-style truncated normal draws (|x| ≤ 2).
    pub fn truncated_normal(&mut self, shape: &[usize], dev: &Device) -> Result<Tensor> {
        self.tensor(shape, dev, |r| r.truncated_normal_f32())
    }

    /// f32 tensor of Bernoulli(p) draws, values 0.0 / 1.0.
    pub fn bernoulli(&mut self, shape: &[usize], p: f32, dev: &Device) -> Result<Tensor> {
        self.tensor(shape, dev, |r| if r.uniform_f32() < p { 1.0 } else { 0.0 })
    }

    /// Values of `init` for a tensor of `shape`, as f64 (candle's fan rules for Kaiming).
    fn init_values(&mut self, init: Init, shape: &Shape) -> Vec<f64> {
        let n = shape.elem_count();
        match init {
            Init::Const(c) => vec![c; n],
            Init::Uniform { lo, up } => (0..n)
                .map(|_| lo + (up - lo) * self.rng.gen::<f64>())
                .collect(),
            Init::Randn { mean, stdev } => (0..n)
                .map(|_| mean + stdev * self.rng.sample::<f64, _>(StandardNormal))
                .collect(),
            Init::Kaiming {
                dist,
                fan,
                non_linearity,
            } => {
                let std = non_linearity.gain() / (fan.for_shape(shape) as f64).sqrt();
                match dist {
                    candle_nn::init::NormalOrUniform::Uniform => {
                        let b = 3f64.sqrt() * std;
                        (0..n)
                            .map(|_| -b + 2.0 * b * self.rng.gen::<f64>())
                            .collect()
                    }
                    candle_nn::init::NormalOrUniform::Normal => (0..n)
                        .map(|_| std * self.rng.sample::<f64, _>(StandardNormal))
                        .collect(),
                }
            }
        }
    }
}

/// Glorot (Xavier) uniform initialisation, TensorFlow's default for dense/conv kernels
/// (reference §0): `U(-l, l)` with `l = sqrt(6 / (fan_in + fan_out))`.
pub fn glorot_uniform(fan_in: usize, fan_out: usize) -> Init {
    let l = (6.0 / (fan_in + fan_out).max(1) as f64).sqrt();
    Init::Uniform { lo: -l, up: l }
}

/// The 64 random bits of element `index`, attempt `attempt`, of counter stream `key`.
#[inline]
fn counter_bits(key: u64, index: u64, attempt: u64) -> u64 {
    let base = mix64(key ^ mix64(index.wrapping_mul(GOLDEN)));
    mix64(base.wrapping_add(attempt.wrapping_mul(GOLDEN)))
}

/// One Box–Muller normal from 48 of the bits: `sqrt(−2 ln u1)·cos(2π u2)`, `u1 ∈ (0, 1]`.
#[inline]
fn box_muller(bits: u64) -> f64 {
    let u1 = ((bits >> 40) as f64 + 1.0) * (1.0 / 16_777_216.0);
    let u2 = (bits & 0xff_ffff) as f64 * (1.0 / 16_777_216.0);
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// Element `index` of the counter-based N(0, 1) stream `key` (Box–Muller on [`mix64`] hashes):
/// a pure function of its arguments, so a GPU kernel draws the same values in parallel, with no
/// host RNG and no copy (`kernels.cu` has the same functions; `log`/`cos` may differ there in
/// the last bit).
pub fn counter_normal(key: u64, index: u64) -> f64 {
    box_muller(counter_bits(key, index, 0))
}

/// Element `index` of the counter-based U[0, 1) stream `key` (24 random bits).
pub fn counter_uniform(key: u64, index: u64) -> f64 {
    (counter_bits(key, index, 0) >> 40) as f64 * (1.0 / 16_777_216.0)
}

/// Element `index` of the counter-based TruncatedNormal(0, 1) stream `key` (TF's truncation:
/// redrawn while `|x| > 2`, each attempt with fresh bits).
pub fn counter_truncated_normal(key: u64, index: u64) -> f64 {
    let z = box_muller(counter_bits(key, index, 0));
    if z.abs() <= 2.0 {
        z
    } else {
        truncated_normal_retry(key, index)
    }
}

/// Attempts 1..32 of [`counter_truncated_normal`] (4.6 % of draws get here). Kept out of line:
/// with the whole rejection loop inlined, rustc generated code that ran ~10x slower on the dev
/// box (0.42 µs instead of 0.04 µs per draw).
#[cold]
#[inline(never)]
fn truncated_normal_retry(key: u64, index: u64) -> f64 {
    for attempt in 1..32u64 {
        let z = box_muller(counter_bits(key, index, attempt));
        if z.abs() <= 2.0 {
            return z;
        }
    }
    0.0 // 32 rejections in a row: probability 0.0455^32, never in practice
}

/// FNV-1a hash of a variable name, to derive its own random stream.
fn name_hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// VarBuilder backend creating missing variables from a seeded RNG and registering them in a
/// `VarMap`.
struct SeededBackend {
    varmap: VarMap,
    seed: u64,
    /// Serialises creation so that concurrent builders cannot race on the map.
    lock: Arc<Mutex<()>>,
}

impl SimpleBackend for SeededBackend {
    fn get(&self, s: Shape, name: &str, h: Init, dtype: DType, dev: &Device) -> Result<Tensor> {
        let _guard = self
            .lock
            .lock()
            .map_err(|_| candle_core::Error::Msg("seeded var builder lock poisoned".into()))?;
        let mut data = self
            .varmap
            .data()
            .lock()
            .map_err(|_| candle_core::Error::Msg("VarMap lock poisoned".into()))?;
        if let Some(v) = data.get(name) {
            if v.shape() != &s {
                candle_core::bail!(
                    "variable `{name}` already exists with shape {:?} but shape {s:?} was requested; \
                     use a distinct name for each parameter",
                    v.shape()
                );
            }
            return Ok(v.as_tensor().clone());
        }
        // One stream per variable: the value depends only on (seed, name), not creation order.
        let mut rng = SeededRng::new(self.seed ^ name_hash(name).rotate_left(17));
        let vals = rng.init_values(h, &s);
        let t = Tensor::from_vec(vals, s, &Device::Cpu)?
            .to_dtype(dtype)?
            .to_device(dev)?;
        let var = Var::from_tensor(&t)?;
        let out = var.as_tensor().clone();
        data.insert(name.to_string(), var);
        Ok(out)
    }

    fn get_unchecked(&self, name: &str, dtype: DType, dev: &Device) -> Result<Tensor> {
        let data = self
            .varmap
            .data()
            .lock()
            .map_err(|_| candle_core::Error::Msg("VarMap lock poisoned".into()))?;
        match data.get(name) {
            Some(v) => v.as_tensor().to_dtype(dtype)?.to_device(dev),
            None => candle_core::bail!(
                "variable `{name}` does not exist and no shape was given to create it"
            ),
        }
    }

    fn contains_tensor(&self, name: &str) -> bool {
        self.varmap
            .data()
            .lock()
            .map(|d| d.contains_key(name))
            .unwrap_or(false)
    }
}

/// A `VarBuilder` that creates every missing variable from our seeded RNG according to its
/// `Init` hint and registers it in `varmap` (so it trains and is saved). Each variable's values
/// depend only on `seed` and its full name: same seed → bit-identical parameters, independent
/// of construction order. Existing variables in `varmap` are returned unchanged.
pub fn seeded_var_builder(
    varmap: &VarMap,
    seed: u64,
    dtype: DType,
    dev: &Device,
) -> VarBuilder<'static> {
    let backend = SeededBackend {
        varmap: varmap.clone(),
        seed,
        lock: Arc::new(Mutex::new(())),
    };
    VarBuilder::from_backend(Box::new(backend), dtype, dev.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_tensors_and_forks_differ() {
        let dev = Device::Cpu;
        let a = SeededRng::new(7)
            .normal(&[5], &dev)
            .unwrap()
            .to_vec1::<f32>()
            .unwrap();
        let b = SeededRng::new(7)
            .normal(&[5], &dev)
            .unwrap()
            .to_vec1::<f32>()
            .unwrap();
        let c = SeededRng::new(8)
            .normal(&[5], &dev)
            .unwrap()
            .to_vec1::<f32>()
            .unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
        let mut r = SeededRng::new(1);
        let f1 = r
            .fork(0)
            .normal(&[4], &dev)
            .unwrap()
            .to_vec1::<f32>()
            .unwrap();
        let f2 = r
            .fork(0)
            .normal(&[4], &dev)
            .unwrap()
            .to_vec1::<f32>()
            .unwrap();
        assert_ne!(f1, f2);
    }

    #[test]
    fn distributions_have_the_right_range_and_moments() {
        let dev = Device::Cpu;
        let mut r = SeededRng::new(3);
        let t = r
            .truncated_normal(&[20000], &dev)
            .unwrap()
            .to_vec1::<f32>()
            .unwrap();
        assert!(t.iter().all(|x| x.abs() <= 2.0));
        let var = t.iter().map(|x| x * x).sum::<f32>() / t.len() as f32;
        // Variance of N(0,1) truncated at ±2 is ≈ 0.774.
        assert!((var - 0.774).abs() < 0.03, "{var}");
        let u = r
            .uniform(&[10000], -2.0, 3.0, &dev)
            .unwrap()
            .to_vec1::<f32>()
            .unwrap();
        assert!(u.iter().all(|&x| (-2.0..3.0).contains(&x)));
        let m = u.iter().sum::<f32>() / u.len() as f32;
        assert!((m - 0.5).abs() < 0.05);
        let b = r
            .bernoulli(&[10000], 0.3, &dev)
            .unwrap()
            .to_vec1::<f32>()
            .unwrap();
        assert!(b.iter().all(|&x| x == 0.0 || x == 1.0));
        let p = b.iter().sum::<f32>() / b.len() as f32;
        assert!((p - 0.3).abs() < 0.02);
        let n = r.normal(&[20000], &dev).unwrap().to_vec1::<f32>().unwrap();
        let m = n.iter().sum::<f32>() / n.len() as f32;
        let v = n.iter().map(|x| (x - m) * (x - m)).sum::<f32>() / n.len() as f32;
        assert!(m.abs() < 0.03 && (v - 1.0).abs() < 0.04);
    }

    fn build(seed: u64, order_swapped: bool) -> Vec<(String, Vec<f32>)> {
        let vm = VarMap::new();
        let vb = seeded_var_builder(&vm, seed, DType::F32, &Device::Cpu);
        let names = if order_swapped {
            ["b", "a"]
        } else {
            ["a", "b"]
        };
        for n in names {
            vb.pp(n)
                .get_with_hints((3, 4), "w", glorot_uniform(4, 3))
                .unwrap();
        }
        let mut out: Vec<_> = vm
            .data()
            .lock()
            .unwrap()
            .iter()
            .map(|(k, v)| {
                (
                    k.clone(),
                    v.as_tensor()
                        .flatten_all()
                        .unwrap()
                        .to_vec1::<f32>()
                        .unwrap(),
                )
            })
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    #[test]
    fn seeded_var_builder_is_deterministic_and_order_independent() {
        let a = build(5, false);
        assert_eq!(a.len(), 2);
        assert_eq!(a, build(5, false));
        assert_eq!(a, build(5, true));
        assert_ne!(a, build(6, false));
        assert_ne!(a[0].1, a[1].1);
        let l = (6.0f32 / 7.0).sqrt();
        assert!(a.iter().all(|(_, v)| v.iter().all(|x| x.abs() <= l)));
    }

    #[test]
    fn seeded_var_builder_reuses_and_checks_shapes() {
        let vm = VarMap::new();
        let vb = seeded_var_builder(&vm, 1, DType::F32, &Device::Cpu);
        let a = vb.get_with_hints((2, 2), "x", Init::Const(0.5)).unwrap();
        let b = vb.get_with_hints((2, 2), "x", Init::Const(9.0)).unwrap();
        assert_eq!(a.to_vec2::<f32>().unwrap(), b.to_vec2::<f32>().unwrap());
        assert!(vb.get_with_hints((3, 2), "x", Init::Const(0.5)).is_err());
        assert_eq!(vm.all_vars().len(), 1);
    }

    #[test]
    fn counter_truncated_normal_is_a_pure_truncated_standard_normal() {
        let n = 200_000u64;
        let xs: Vec<f64> = (0..n).map(|i| counter_truncated_normal(42, i)).collect();
        assert_eq!(counter_truncated_normal(42, 7), xs[7]);
        assert_ne!(counter_truncated_normal(43, 7), xs[7]);
        assert!(xs.iter().all(|x| x.abs() <= 2.0));
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
        // N(0, 1) truncated to [-2, 2]: mean 0, variance 1 − 4φ(2)/(2Φ(2) − 1) = 0.7737.
        assert!(mean.abs() < 0.01, "mean {mean}");
        assert!((var - 0.7737).abs() < 0.01, "variance {var}");
        // Neighbouring indices are uncorrelated.
        let c = xs.windows(2).map(|w| w[0] * w[1]).sum::<f64>() / (n - 1) as f64;
        assert!(c.abs() < 0.01, "lag-1 correlation {c}");
        assert_eq!(mix64(0), 0);
        assert_ne!(mix64(1), 1);
    }
}
