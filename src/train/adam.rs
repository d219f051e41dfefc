//! Adam exactly as TensorFlow 1's `AdamOptimizer` runs it (reference §4.7), global-norm
//! gradient clipping (`tf.clip_by_global_norm`) and the stage-1 gradient noise.
//!
//! TF's update uses the "epsilon-hat" form:
//! `m ← β1 m + (1−β1) g`, `v ← β2 v + (1−β2) g²`,
//! `lr_t = lr·sqrt(1−β2^t)/(1−β1^t)`, `θ ← θ − lr_t · m / (sqrt(v) + ε)`
//! (ε is added to the uncorrected `sqrt(v)`, unlike the paper of Kingma & Ba). Variables
//! without a gradient are left untouched (moments too); the step count `t` is global.

use std::collections::HashMap;

use candle_core::backprop::GradStore;
use candle_core::{DType, Result, Tensor, Var};

use crate::error::Error;
use crate::nn::fused_adam::{apply_update, noise_key, update_moments, GradTransform};
use crate::rng::{counter_truncated_normal, SeededRng};

/// Adam hyperparameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AdamConfig {
    /// Learning rate.
    pub lr: f64,
    /// First-moment decay.
    pub beta1: f64,
    /// Second-moment decay.
    pub beta2: f64,
    /// ε added to `sqrt(v)`.
    pub eps: f64,
}

impl Default for AdamConfig {
    /// The paper's values: lr 1e-4, β1 0.9, β2 0.999, ε 1e-8.
    fn default() -> Self {
        AdamConfig {
            lr: 1e-4,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
        }
    }
}

/// Name of the step counter in [`Adam::state`].
pub const STEP_KEY: &str = "step";

/// The Adam optimiser over named variables.
pub struct Adam {
    vars: Vec<(String, Var)>,
    /// Per variable, the moments `m` and `v` stacked: `(2, n)`.
    mv: Vec<Tensor>,
    step: u64,
    cfg: AdamConfig,
}

impl std::fmt::Debug for Adam {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Adam")
            .field("n_vars", &self.vars.len())
            .field("step", &self.step)
            .field("cfg", &self.cfg)
            .finish()
    }
}

impl Adam {
    /// An optimiser for `vars` (names must be unique) with zero moments.
    pub fn new(vars: Vec<(String, Var)>, cfg: AdamConfig) -> Result<Adam> {
        let mut seen = std::collections::HashSet::new();
        for (n, _) in &vars {
            if n == STEP_KEY || !seen.insert(n.as_str()) {
                candle_core::bail!("Adam: variable name `{n}` is duplicated or reserved; names must be unique and not `{STEP_KEY}`");
            }
        }
        let mv = vars
            .iter()
            .map(|(_, v)| Tensor::zeros((2, v.elem_count()), v.dtype(), v.device()))
            .collect::<Result<Vec<_>>>()?;
        Ok(Adam {
            vars,
            mv,
            step: 0,
            cfg,
        })
    }

    /// Current configuration.
    pub fn config(&self) -> AdamConfig {
        self.cfg
    }

    /// Sets the learning rate for the next steps.
    pub fn set_lr(&mut self, lr: f64) {
        self.cfg.lr = lr;
    }

    /// Number of steps taken.
    pub fn step_count(&self) -> u64 {
        self.step
    }

    /// The optimised variables.
    pub fn vars(&self) -> &[(String, Var)] {
        &self.vars
    }

    /// `lr_t` of the next step (`lr·sqrt(1−β2^t)/(1−β1^t)`, `t` = steps so far + 1).
    fn next_lr_t(&self) -> f64 {
        let t = (self.step + 1) as f64;
        let c = &self.cfg;
        c.lr * (1.0 - c.beta2.powf(t)).sqrt() / (1.0 - c.beta1.powf(t))
    }

    /// One update with the raw gradients in `grads` (no clipping, no noise).
    pub fn step(&mut self, grads: &GradStore) -> Result<()> {
        self.step_with(grads, 1.0, None)
    }

    /// One update from `grad_scale · g + noise` (the clip factor of [`clip_scale`] and the
    /// optional gradient noise), fused per variable ([`crate::nn::fused_adam`]: two kernels).
    pub fn step_with(
        &mut self,
        grads: &GradStore,
        grad_scale: f64,
        noise: Option<GradientNoise>,
    ) -> Result<()> {
        let lr_t = self.next_lr_t();
        self.step += 1;
        let AdamConfig {
            beta1, beta2, eps, ..
        } = self.cfg;
        for (i, (_, var)) in self.vars.iter().enumerate() {
            let Some(g) = grads.get(var.as_tensor()) else {
                continue;
            };
            let transform = GradTransform {
                scale: grad_scale,
                sigma: noise.map_or(0.0, |n| n.sigma),
                key: noise.map_or(0, |n| noise_key(n.key, i)),
            };
            let g = g.detach().to_dtype(var.dtype())?;
            if crate::nn::fused_optimizer() {
                update_moments(&self.mv[i], &g, transform, beta1, beta2)?;
                apply_update(var.as_tensor(), &self.mv[i], lr_t, eps)?;
            } else {
                self.mv[i] = composed_update(var, &self.mv[i], &g, transform, &self.cfg, lr_t)?;
            }
        }
        Ok(())
    }

    /// Optimiser state: `m/NAME`, `v/NAME` per variable and [`STEP_KEY`] (an I64 `(1,)` tensor).
    pub fn state(&self) -> Vec<(String, Tensor)> {
        let mut out = Vec::with_capacity(2 * self.vars.len() + 1);
        for ((n, var), mv) in self.vars.iter().zip(&self.mv) {
            for (row, key) in [(0, format!("m/{n}")), (1, format!("v/{n}"))] {
                if let Ok(t) = mv.get(row).and_then(|t| t.reshape(var.shape())) {
                    out.push((key, t));
                }
            }
        }
        let dev = self
            .mv
            .first()
            .map(|t| t.device().clone())
            .unwrap_or(candle_core::Device::Cpu);
        if let Ok(s) = Tensor::new(&[self.step as i64], &dev) {
            out.push((STEP_KEY.to_string(), s));
        }
        out
    }

    /// Restores a state produced by [`Adam::state`]; every name and shape must match this
    /// optimiser's variables (else nothing is changed and the error lists the mismatches).
    pub fn load_state(&mut self, tensors: &HashMap<String, Tensor>) -> crate::Result<()> {
        let mut problems = Vec::new();
        let mut expected = std::collections::HashSet::new();
        for (n, var) in &self.vars {
            for key in [format!("m/{n}"), format!("v/{n}")] {
                match tensors.get(&key) {
                    None => problems.push(format!("missing `{key}`")),
                    Some(t) if t.shape() != var.shape() => problems.push(format!(
                        "`{key}` has shape {:?}, the variable has {:?}",
                        t.dims(),
                        var.dims()
                    )),
                    Some(_) => {}
                }
                expected.insert(key);
            }
        }
        let step = match tensors.get(STEP_KEY) {
            None => {
                problems.push(format!("missing `{STEP_KEY}`"));
                0
            }
            Some(t) => match t
                .flatten_all()
                .and_then(|t| t.to_dtype(DType::F64))
                .and_then(|t| t.to_vec1::<f64>())
            {
                Ok(v) if v.len() == 1 && v[0] >= 0.0 && v[0].fract() == 0.0 => v[0] as u64,
                _ => {
                    problems.push(format!("`{STEP_KEY}` must hold one non-negative integer"));
                    0
                }
            },
        };
        let mut extra: Vec<&String> = tensors
            .keys()
            .filter(|k| *k != STEP_KEY && !expected.contains(*k))
            .collect();
        extra.sort();
        for k in extra {
            problems.push(format!(
                "unexpected `{k}` (no such variable among those optimised)"
            ));
        }
        if !problems.is_empty() {
            let n = problems.len();
            problems.truncate(12);
            return Err(Error::Invalid(format!(
                "optimiser state does not match the model ({n} problem(s)): {}; was it saved by another model version or config (e.g. another `train.train_only`)? `--reset-optimizer` starts Adam afresh",
                problems.join("; ")
            )));
        }
        let mut mv = Vec::with_capacity(self.vars.len());
        for (n, var) in &self.vars {
            let row = |key: String| -> Result<Tensor> {
                tensors[&key]
                    .to_dtype(var.dtype())?
                    .to_device(var.device())?
                    .flatten_all()
            };
            mv.push(Tensor::stack(
                &[row(format!("m/{n}"))?, row(format!("v/{n}"))?],
                0,
            )?);
        }
        self.mv = mv;
        self.step = step;
        Ok(())
    }
}

/// The update as it was before [`crate::nn::fused_adam`] (benchmarks' "before" path, selected by
/// `nn::set_fused_optimizer(false)`): candle ops per variable, the gradient noise drawn on the
/// host with ChaCha8 (keyed by the same key; other values than the fused path's counter stream,
/// same distribution) and copied to the device. Returns the new moments `(2, n)`.
fn composed_update(
    var: &Var,
    mv: &Tensor,
    g: &Tensor,
    t: GradTransform,
    cfg: &AdamConfig,
    lr_t: f64,
) -> Result<Tensor> {
    let mut g = (g * t.scale)?;
    if t.sigma != 0.0 {
        let noise = SeededRng::new(t.key)
            .truncated_normal(g.dims(), g.device())?
            .to_dtype(g.dtype())?;
        g = (g + (noise * t.sigma)?)?;
    }
    let (m, v) = (
        mv.get(0)?.reshape(var.shape())?,
        mv.get(1)?.reshape(var.shape())?,
    );
    let m = ((m * cfg.beta1)? + (&g * (1.0 - cfg.beta1))?)?;
    let v = ((v * cfg.beta2)? + (g.sqr()? * (1.0 - cfg.beta2))?)?;
    let upd = (&m / (v.sqrt()? + cfg.eps)?)?;
    var.set(&(var.as_tensor() - (upd * lr_t)?)?)?;
    Tensor::stack(&[m.flatten_all()?, v.flatten_all()?], 0)
}

/// The global L2 norm of the gradients of `vars` (summed in f64 on the device; one host
/// synchronisation for all variables).
pub fn global_grad_norm(grads: &GradStore, vars: &[(String, Var)]) -> Result<f64> {
    Ok(norm_of_squares(&grad_squares(grads, vars)?))
}

/// The L2 norm from per-parameter sums of squares ([`grad_squares`]).
pub fn norm_of_squares(squares: &[f64]) -> f64 {
    squares.iter().sum::<f64>().sqrt()
}

/// The global gradient norm and its split over parameter groups.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GradNorms {
    /// L2 norm of all gradients.
    pub total: f64,
    /// Per group of parameters (the first two `.`-separated parts of their names, e.g.
    /// `propagation.where`), sorted by group: the L2 norm of the group's gradients.
    pub groups: Vec<(String, f64)>,
}

/// The group of a parameter: its name's first two `.`-separated parts.
fn group_of(name: &str) -> &str {
    match name.match_indices('.').nth(1) {
        Some((i, _)) => &name[..i],
        None => name,
    }
}

/// [`GradNorms`] of `vars` (summed in f64 on the device; one host transfer of the
/// per-parameter sums of squares).
pub fn grad_norms(grads: &GradStore, vars: &[(String, Var)]) -> Result<GradNorms> {
    Ok(GradNorms::from_squares(vars, &grad_squares(grads, vars)?))
}

/// Per parameter of `vars`, the sum of squares of its gradient (0 without one), in f64: one host
/// transfer for all.
pub fn grad_squares(grads: &GradStore, vars: &[(String, Var)]) -> Result<Vec<f64>> {
    let sums = vars
        .iter()
        .map(|(_, v)| match grads.get(v.as_tensor()) {
            Some(g) => g.to_dtype(DType::F64)?.sqr()?.sum_all(),
            None => Tensor::zeros((), DType::F64, v.device()),
        })
        .collect::<Result<Vec<_>>>()?;
    if sums.is_empty() {
        return Ok(Vec::new());
    }
    Tensor::stack(&sums, 0)?.to_vec1::<f64>()
}

impl GradNorms {
    /// From [`grad_squares`] of `vars`; parameters without a gradient are left out of the groups.
    pub fn from_squares(vars: &[(String, Var)], squares: &[f64]) -> Self {
        let mut groups = std::collections::BTreeMap::<&str, f64>::new();
        for ((name, _), sq) in vars.iter().zip(squares) {
            if *sq > 0.0 {
                *groups.entry(group_of(name)).or_default() += sq;
            }
        }
        Self {
            total: norm_of_squares(squares),
            groups: groups
                .into_iter()
                .map(|(g, sq)| (g.to_string(), sq.sqrt()))
                .collect(),
        }
    }
}

/// `tf.clip_by_global_norm`'s factor `max_norm / max(norm, max_norm)`; 1 for a non-finite norm.
pub fn clip_scale(norm: f64, max_norm: f64) -> f64 {
    if norm.is_finite() && norm > max_norm {
        max_norm / norm
    } else {
        1.0
    }
}

/// Scales the gradients of `vars` so that their global L2 norm is at most `max_norm`
/// (`tf.clip_by_global_norm`); returns the norm before clipping. A non-finite norm is returned
/// as is and the gradients are left unchanged, so the caller can skip the update. (The trainer
/// passes [`clip_scale`] to [`Adam::step_with`] instead, which scales inside the update.)
pub fn clip_grad_norm(grads: &mut GradStore, vars: &[(String, Var)], max_norm: f64) -> Result<f64> {
    let norm = global_grad_norm(grads, vars)?;
    let scale = clip_scale(norm, max_norm);
    if scale != 1.0 {
        for (_, v) in vars {
            if let Some(g) = grads.get(v.as_tensor()) {
                let scaled = (g * scale)?;
                grads.insert(v.as_tensor(), scaled);
            }
        }
    }
    Ok(norm)
}

/// The stage-1 gradient noise of one step (reference §4.7): `sigma · TruncatedNormal(0, 1)`
/// (TF's, |x| ≤ 2) per gradient element, from the counter-based stream
/// [`counter_truncated_normal`] keyed by the step's `key` and the variable's index, so the GPU
/// draws it inside the Adam kernel.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GradientNoise {
    /// Standard deviation.
    pub sigma: f64,
    /// The step's key.
    pub key: u64,
}

impl GradientNoise {
    /// The noise of a step with standard deviation `sigma`, keyed by one draw from `rng`;
    /// `None` (and no draw) for `sigma = 0`.
    pub fn draw(sigma: f64, rng: &mut SeededRng) -> Option<GradientNoise> {
        (sigma > 0.0).then(|| GradientNoise {
            sigma,
            key: rng.next_u64(),
        })
    }
}

/// Adds `noise` to every gradient of `vars` in the store: the same values [`Adam::step_with`]
/// adds inside its kernels (variable `i` of `vars` uses stream `noise_key(noise.key, i)`),
/// composed from candle ops; kept as the reference for tests and custom loops.
pub fn add_gradient_noise(
    grads: &mut GradStore,
    vars: &[(String, Var)],
    noise: GradientNoise,
) -> Result<()> {
    for (i, (_, v)) in vars.iter().enumerate() {
        if let Some(g) = grads.get(v.as_tensor()) {
            let key = noise_key(noise.key, i);
            let values: Vec<f64> = (0..g.elem_count() as u64)
                .map(|j| noise.sigma * counter_truncated_normal(key, j))
                .collect();
            let n = Tensor::from_vec(values, g.shape(), &candle_core::Device::Cpu)?
                .to_dtype(g.dtype())?
                .to_device(g.device())?;
            let noisy = (g + n)?;
            grads.insert(v.as_tensor(), noisy);
        }
    }
    Ok(())
}

/// Adam's moments and step counter are what a checkpoint's `optimizer.safetensors` holds.
impl crate::checkpoint::OptimizerState for Adam {
    fn state(&self) -> Vec<(String, Tensor)> {
        Adam::state(self)
    }

    fn load_state(&mut self, tensors: &HashMap<String, Tensor>) -> crate::Result<()> {
        Adam::load_state(self, tensors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::Device;

    fn vars() -> Vec<(String, Var)> {
        let dev = Device::Cpu;
        vec![
            ("a".into(), Var::new(&[1.0f64, -2.0], &dev).unwrap()),
            ("b".into(), Var::new(&[[0.5f64]], &dev).unwrap()),
        ]
    }

    fn loss_grads(vs: &[(String, Var)]) -> GradStore {
        // L = Σ a² · (1, 3) + 4·b³
        let w = Tensor::new(&[1.0f64, 3.0], &Device::Cpu).unwrap();
        let a = vs[0].1.as_tensor();
        let b = vs[1].1.as_tensor();
        let l = ((a.sqr().unwrap() * w).unwrap().sum_all().unwrap()
            + (b.powf(3.0).unwrap() * 4.0).unwrap().sum_all().unwrap())
        .unwrap();
        l.backward().unwrap()
    }

    fn values(vs: &[(String, Var)]) -> Vec<f64> {
        vs.iter()
            .flat_map(|(_, v)| {
                v.as_tensor()
                    .flatten_all()
                    .unwrap()
                    .to_vec1::<f64>()
                    .unwrap()
            })
            .collect()
    }

    #[test]
    fn two_steps_match_hand_computation() {
        let vs = vars();
        let cfg = AdamConfig {
            lr: 0.1,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
        };
        let mut adam = Adam::new(vs.clone(), cfg).unwrap();
        // Hand computation per scalar: grads 2a·w and 12b².
        let mut theta = [1.0f64, -2.0, 0.5];
        let (mut m, mut v) = ([0.0f64; 3], [0.0f64; 3]);
        for t in 1..=2 {
            let g = [2.0 * theta[0], 6.0 * theta[1], 12.0 * theta[2] * theta[2]];
            let lr_t = 0.1 * (1.0 - 0.999f64.powi(t)).sqrt() / (1.0 - 0.9f64.powi(t));
            for i in 0..3 {
                m[i] = 0.9 * m[i] + 0.1 * g[i];
                v[i] = 0.999 * v[i] + 0.001 * g[i] * g[i];
                theta[i] -= lr_t * m[i] / (v[i].sqrt() + 1e-8);
            }
            adam.step(&loss_grads(&vs)).unwrap();
            let got = values(&vs);
            for i in 0..3 {
                assert!(
                    (got[i] - theta[i]).abs() < 1e-14,
                    "step {t} [{i}]: {} vs {}",
                    got[i],
                    theta[i]
                );
            }
        }
        // First step moves every coordinate by ≈ lr against the gradient sign.
        assert_eq!(adam.step_count(), 2);
    }

    #[test]
    fn save_load_continue_is_bit_identical() {
        let cfg = AdamConfig {
            lr: 0.05,
            ..Default::default()
        };
        let vs1 = vars();
        let mut a1 = Adam::new(vs1.clone(), cfg).unwrap();
        for _ in 0..5 {
            a1.step(&loss_grads(&vs1)).unwrap();
        }
        // Interrupted run: 3 steps, save, rebuild from values + state, 2 more steps.
        let vs2 = vars();
        let mut a2 = Adam::new(vs2.clone(), cfg).unwrap();
        for _ in 0..3 {
            a2.step(&loss_grads(&vs2)).unwrap();
        }
        let state: HashMap<String, Tensor> = a2.state().into_iter().collect();
        let vs3 = vars();
        for ((_, dst), (_, src)) in vs3.iter().zip(&vs2) {
            dst.set(src.as_tensor()).unwrap();
        }
        let mut a3 = Adam::new(vs3.clone(), cfg).unwrap();
        a3.load_state(&state).unwrap();
        assert_eq!(a3.step_count(), 3);
        for _ in 0..2 {
            a3.step(&loss_grads(&vs3)).unwrap();
        }
        let (x, y) = (values(&vs1), values(&vs3));
        assert!(
            x.iter().zip(&y).all(|(p, q)| p.to_bits() == q.to_bits()),
            "{x:?} vs {y:?}"
        );
    }

    #[test]
    fn load_state_rejects_mismatches() {
        let vs = vars();
        let mut adam = Adam::new(vs.clone(), AdamConfig::default()).unwrap();
        let good: HashMap<String, Tensor> = adam.state().into_iter().collect();
        let mut missing = good.clone();
        missing.remove("m/a");
        let e = adam.load_state(&missing).unwrap_err().to_string();
        assert!(e.contains("missing `m/a`"), "{e}");
        let mut renamed = good.clone();
        let t = renamed.remove("v/b").unwrap();
        renamed.insert("v/c".into(), t);
        let e = adam.load_state(&renamed).unwrap_err().to_string();
        assert!(
            e.contains("missing `v/b`") && e.contains("unexpected `v/c`"),
            "{e}"
        );
        let mut shape = good.clone();
        shape.insert(
            "m/a".into(),
            Tensor::zeros(3, DType::F64, &Device::Cpu).unwrap(),
        );
        assert!(adam
            .load_state(&shape)
            .unwrap_err()
            .to_string()
            .contains("shape"));
        let mut step = good.clone();
        step.insert(
            STEP_KEY.into(),
            Tensor::new(&[-1i64], &Device::Cpu).unwrap(),
        );
        assert!(adam.load_state(&step).is_err());
        adam.load_state(&good).unwrap();
        assert!(Adam::new(vec![vs[0].clone(), vs[0].clone()], AdamConfig::default()).is_err());
    }

    #[test]
    fn grad_norms_split_by_the_first_two_name_parts() {
        let dev = Device::Cpu;
        let vs: Vec<(String, Var)> = [
            ("prop.where.w", vec![3.0f64]),
            ("init", vec![1.0, 1.0]),
            ("prop.where.b", vec![4.0]),
            ("prop.what.w", vec![2.0]),
            ("unused.x.y", vec![7.0]),
        ]
        .into_iter()
        .map(|(n, v)| (n.to_string(), Var::new(v.as_slice(), &dev).unwrap()))
        .collect();
        // L = Σ x²/2 over all but the unused one: each gradient is the value.
        let l = vs[..4]
            .iter()
            .map(|(_, v)| (v.as_tensor().sqr().unwrap().sum_all().unwrap() * 0.5).unwrap())
            .reduce(|a, b| (a + b).unwrap())
            .unwrap();
        let g = l.backward().unwrap();
        let n = grad_norms(&g, &vs).unwrap();
        assert!((n.total - (9.0f64 + 2.0 + 16.0 + 4.0).sqrt()).abs() < 1e-12);
        assert_eq!(n.total, global_grad_norm(&g, &vs).unwrap());
        let groups: Vec<(&str, f64)> = n.groups.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        let expect = [
            ("init", 2f64.sqrt()),
            ("prop.what", 2.0),
            ("prop.where", 5.0),
        ];
        assert_eq!(groups.len(), expect.len(), "{groups:?}");
        for ((k, v), (ek, ev)) in groups.iter().zip(expect) {
            assert_eq!(*k, ek);
            assert!((v - ev).abs() < 1e-12, "{k}: {v} vs {ev}");
        }
        assert_eq!(grad_norms(&g, &vs[4..]).unwrap(), GradNorms::default());
    }

    #[test]
    fn clipping_and_noise() {
        let vs = vars();
        let mut g = loss_grads(&vs); // grads (2, -12) and (3)
        let norm = clip_grad_norm(&mut g, &vs, 100.0).unwrap();
        assert!((norm - (4.0f64 + 144.0 + 9.0).sqrt()).abs() < 1e-12);
        let norm2 = clip_grad_norm(&mut g, &vs, 1.0).unwrap();
        assert_eq!(norm, norm2);
        let after = clip_grad_norm(&mut g, &vs, 1e9).unwrap();
        assert!((after - 1.0).abs() < 1e-12);
        let before: Vec<f64> = g.get(vs[0].1.as_tensor()).unwrap().to_vec1().unwrap();
        let noise = GradientNoise::draw(0.01, &mut SeededRng::new(4)).unwrap();
        assert!(GradientNoise::draw(0.0, &mut SeededRng::new(4)).is_none());
        add_gradient_noise(&mut g, &vs, noise).unwrap();
        let noisy: Vec<f64> = g.get(vs[0].1.as_tensor()).unwrap().to_vec1().unwrap();
        for (a, b) in before.iter().zip(&noisy) {
            assert!(a != b && (a - b).abs() <= 0.02 + 1e-12);
        }
        // Same seed → same noise.
        let mut g2 = loss_grads(&vs);
        clip_grad_norm(&mut g2, &vs, 1.0).unwrap();
        let noise2 = GradientNoise::draw(0.01, &mut SeededRng::new(4)).unwrap();
        add_gradient_noise(&mut g2, &vs, noise2).unwrap();
        assert_eq!(
            noisy,
            g2.get(vs[0].1.as_tensor())
                .unwrap()
                .to_vec1::<f64>()
                .unwrap()
        );
    }

    #[test]
    fn fused_clip_and_noise_equal_the_composed_update() {
        let cfg = AdamConfig {
            lr: 0.05,
            ..Default::default()
        };
        let noise = GradientNoise {
            sigma: 0.3,
            key: 17,
        };
        // Composed: clip the stored gradients, add the noise, plain step.
        let vs1 = vars();
        let mut a1 = Adam::new(vs1.clone(), cfg).unwrap();
        // Fused: the clip factor and the noise inside the update.
        let vs2 = vars();
        let mut a2 = Adam::new(vs2.clone(), cfg).unwrap();
        for _ in 0..3 {
            let mut g1 = loss_grads(&vs1);
            clip_grad_norm(&mut g1, &vs1, 1.0).unwrap();
            add_gradient_noise(&mut g1, &vs1, noise).unwrap();
            a1.step(&g1).unwrap();
            let g2 = loss_grads(&vs2);
            let norm = global_grad_norm(&g2, &vs2).unwrap();
            a2.step_with(&g2, clip_scale(norm, 1.0), Some(noise))
                .unwrap();
        }
        let (x, y) = (values(&vs1), values(&vs2));
        assert!(
            x.iter().zip(&y).all(|(p, q)| (p - q).abs() < 1e-12),
            "{x:?} vs {y:?}"
        );
        // The noise changed the trajectory (the comparison is not vacuous).
        let vs3 = vars();
        let mut a3 = Adam::new(vs3.clone(), cfg).unwrap();
        for _ in 0..3 {
            let g3 = loss_grads(&vs3);
            let norm = global_grad_norm(&g3, &vs3).unwrap();
            a3.step_with(&g3, clip_scale(norm, 1.0), None).unwrap();
        }
        assert!(values(&vs3)
            .iter()
            .zip(&y)
            .any(|(p, q)| (p - q).abs() > 1e-6));
        assert_eq!(clip_scale(f64::NAN, 1.0), 1.0);
        assert_eq!(clip_scale(4.0, 1.0), 0.25);
        assert_eq!(clip_scale(0.5, 1.0), 1.0);
    }

    #[test]
    fn the_composed_before_path_gives_the_same_update_without_noise() {
        let cfg = AdamConfig {
            lr: 0.05,
            ..Default::default()
        };
        let run = |fused: bool| {
            let vs = vars();
            let mut a = Adam::new(vs.clone(), cfg).unwrap();
            for _ in 0..3 {
                let g = loss_grads(&vs);
                let norm = global_grad_norm(&g, &vs).unwrap();
                if fused {
                    a.step_with(&g, clip_scale(norm, 1.0), None).unwrap();
                } else {
                    for (i, (_, var)) in vs.iter().enumerate() {
                        let gi = g.get(var.as_tensor()).unwrap().detach();
                        let t = GradTransform {
                            scale: clip_scale(norm, 1.0),
                            sigma: 0.0,
                            key: 0,
                        };
                        a.mv[i] =
                            composed_update(var, &a.mv[i], &gi, t, &cfg, a.next_lr_t()).unwrap();
                    }
                    a.step += 1;
                }
            }
            values(&vs)
        };
        let (x, y) = (run(true), run(false));
        assert!(
            x.iter().zip(&y).all(|(p, q)| (p - q).abs() < 1e-12),
            "{x:?} vs {y:?}"
        );
    }
}
