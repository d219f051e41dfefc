//! Distribution helpers (reference §0, §2.9, §4.2, §4.3): the std non-linearity, Normal KL,
//! the logistic (binary concrete) log density, safe log and the Bernoulli likelihood.

use candle_core::{Result, Tensor};

/// `std(ℓ) = 2·σ(clip(ℓ, −10, 10))`.
pub fn std_from_logit(l: &Tensor) -> Result<Tensor> {
    candle_nn::ops::sigmoid(&super::epilogue::clamp(l, -10.0, 10.0)?)?.affine(2.0, 0.0)
}

/// Elementwise `KL(N(μ, σ) ‖ N(μ_p, σ_p)) = log(σ_p/σ) + (σ² + (μ−μ_p)²)/(2σ_p²) − ½`;
/// all four arguments broadcast against each other.
pub fn normal_kl(
    mu: &Tensor,
    sigma: &Tensor,
    prior_mu: &Tensor,
    prior_sigma: &Tensor,
) -> Result<Tensor> {
    let log_ratio = prior_sigma.log()?.broadcast_sub(&sigma.log()?)?;
    let diff = mu.broadcast_sub(prior_mu)?;
    let num = sigma.sqr()?.broadcast_add(&diff.sqr()?)?;
    let den = prior_sigma.sqr()?.affine(2.0, 0.0)?;
    log_ratio
        .broadcast_add(&num.broadcast_div(&den)?)?
        .affine(1.0, -0.5)
}

/// [`normal_kl`] against a fixed prior `N(prior_mu, prior_sigma)` given as numbers:
/// `(σ² + (μ−μ_p)²)/(2σ_p²) + log σ_p − ½ − log σ`, seven elementwise ops on `μ`, `σ` (same
/// shape) and no broadcast against scalar tensors — the static-prior KLs run eight times per
/// frame in training, forward and backward, where the step is bound by op launches.
pub fn normal_kl_fixed(
    mu: &Tensor,
    sigma: &Tensor,
    prior_mu: f64,
    prior_sigma: f64,
) -> Result<Tensor> {
    let scale = 1.0 / (2.0 * prior_sigma * prior_sigma);
    let num = (mu.affine(1.0, -prior_mu)?.sqr()? + sigma.sqr()?)?;
    num.affine(scale, prior_sigma.ln() - 0.5)? - sigma.log()?
}

/// Log density of the logistic (binary concrete pre-sigmoid) distribution with log-odds `λ`
/// and temperature `τ` at `s` (reference §4.3):
/// `log(τ+1e-9) − τs + λ − 2·log(1 + exp(−τs + λ) + 1e-9)`.
pub fn logistic_log_density(s: &Tensor, log_odds: &Tensor, temp: f64) -> Result<Tensor> {
    let a = log_odds.broadcast_sub(&s.affine(temp, 0.0)?)?; // λ − τs
    let soft = a.exp()?.affine(1.0, 1.0 + 1e-9)?.log()?;
    a.affine(1.0, (temp + 1e-9).ln())? - soft.affine(2.0, 0.0)?
}

/// `log(x + 1e-9)` with non-finite results replaced by −100 (gradient 0 there).
pub fn safe_log(x: &Tensor) -> Result<Tensor> {
    let y = x.affine(1.0, 1e-9)?.log()?;
    // finite ⇔ not NaN (y == y) and |y| < ∞.
    let finite = (y.eq(&y)? * y.abs()?.lt(f64::INFINITY)?)?; // u8 mask
    let fill = y.zeros_like()?.affine(0.0, -100.0)?;
    finite.where_cond(&y, &fill)
}

/// Elementwise Bernoulli negative log-likelihood of targets `x ∈ [0,1]` under means `x_hat`
/// (reference §2.9): `−[x·safe_log(x̂) + (1−x)·safe_log(1−x̂)]`. Sum it as the loss needs.
pub fn bernoulli_nll(x_hat: &Tensor, x: &Tensor) -> Result<Tensor> {
    let pos = x.broadcast_mul(&safe_log(x_hat)?)?;
    let neg = x
        .affine(-1.0, 1.0)?
        .broadcast_mul(&safe_log(&x_hat.affine(-1.0, 1.0)?)?)?;
    (pos + neg)?.neg()
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{Device, Var};

    fn t(v: &[f64]) -> Tensor {
        Tensor::new(v, &Device::Cpu).unwrap()
    }

    #[test]
    fn fixed_prior_kl_equals_the_general_one_with_gradients() {
        let mu = Var::from_tensor(&t(&[-1.3, 0.0, 0.4, 2.5, -0.2])).unwrap();
        let sigma = Var::from_tensor(&t(&[0.2, 1.0, 0.7, 3.1, 0.05])).unwrap();
        for (pm, ps) in [(0.0, 1.0), (-2.1972245773362196, 0.5), (0.0, 0.3)] {
            let fixed = normal_kl_fixed(&mu, &sigma, pm, ps).unwrap();
            let (pm_t, ps_t) = (t(&[pm]), t(&[ps]));
            let general = normal_kl(&mu, &sigma, &pm_t, &ps_t).unwrap();
            for (a, b) in v(&fixed).iter().zip(v(&general)) {
                assert!((a - b).abs() < 1e-12 * (1.0 + b.abs()), "{a} vs {b}");
            }
            let ga = fixed.sum_all().unwrap().backward().unwrap();
            let gb = general.sum_all().unwrap().backward().unwrap();
            for var in [&mu, &sigma] {
                let (a, b) = (v(ga.get(var).unwrap()), v(gb.get(var).unwrap()));
                for (x, y) in a.iter().zip(&b) {
                    assert!((x - y).abs() < 1e-10 * (1.0 + y.abs()), "{x} vs {y}");
                }
            }
        }
    }
    fn v(x: &Tensor) -> Vec<f64> {
        x.to_vec1::<f64>().unwrap()
    }

    #[test]
    fn normal_kl_known_values() {
        // KL(N(0,1)||N(0,1)) = 0; KL(N(1,1)||N(0,1)) = 0.5; KL(N(0,2)||N(0,1)) = -ln2 + 2 - 0.5.
        let kl = normal_kl(
            &t(&[0.0, 1.0, 0.0, 0.3]),
            &t(&[1.0, 1.0, 2.0, 0.4]),
            &t(&[0.0]),
            &t(&[1.0]),
        )
        .unwrap();
        let want = [
            0.0,
            0.5,
            -(2f64.ln()) + 1.5,
            (1f64 / 0.4).ln() + (0.16 + 0.09) / 2.0 - 0.5,
        ];
        for (g, w) in v(&kl).iter().zip(want) {
            assert!((g - w).abs() < 1e-12, "{g} vs {w}");
        }
        // Broadcast against a scalar-like prior with the reference's propagation sizes.
        let kl = normal_kl(&t(&[-2.197]), &t(&[0.5]), &t(&[-2.197]), &t(&[0.5])).unwrap();
        assert!(v(&kl)[0].abs() < 1e-12);
    }

    #[test]
    fn std_and_safe_log() {
        let s = v(&std_from_logit(&t(&[0.0, 100.0, -100.0])).unwrap());
        assert!((s[0] - 1.0).abs() < 1e-12);
        assert!((s[1] - 2.0 / (1.0 + (-10f64).exp())).abs() < 1e-12);
        assert!((s[2] - 2.0 / (1.0 + 10f64.exp())).abs() < 1e-12);
        let l = v(&safe_log(&t(&[1.0, 0.0, -1.0, f64::NAN])).unwrap());
        assert!((l[0] - 1e-9).abs() < 1e-12);
        assert!((l[1] - (1e-9f64).ln()).abs() < 1e-9);
        assert_eq!(l[2], -100.0);
        assert_eq!(l[3], -100.0);
    }

    #[test]
    fn bernoulli_nll_known_values() {
        let n = v(&bernoulli_nll(&t(&[0.5, 0.9, 0.2]), &t(&[1.0, 0.0, 0.25])).unwrap());
        let want = [
            -(0.5f64 + 1e-9).ln(),
            -(0.1f64 + 1e-9).ln(),
            -(0.25 * (0.2f64 + 1e-9).ln() + 0.75 * (0.8f64 + 1e-9).ln()),
        ];
        for (g, w) in n.iter().zip(want) {
            assert!((g - w).abs() < 1e-9);
        }
    }

    #[test]
    fn logistic_density_integrates_to_one_and_matches_formula() {
        // Logistic with location λ/τ and scale 1/τ: density τ e^{-(τs-λ)} / (1+e^{-(τs-λ)})².
        let (lam, tau) = (0.7, 1.5);
        let xs: Vec<f64> = (0..40001).map(|i| -20.0 + i as f64 * 0.001).collect();
        let d = logistic_log_density(&t(&xs), &t(&[lam]), tau).unwrap();
        let integral: f64 = v(&d).iter().map(|l| l.exp() * 0.001).sum();
        assert!((integral - 1.0).abs() < 1e-3, "{integral}");
        let s = 0.3;
        let e = (-(tau * s) + lam).exp();
        let want = tau.ln() - tau * s + lam - 2.0 * (1.0 + e).ln();
        let got = v(&logistic_log_density(&t(&[s]), &t(&[lam]), tau).unwrap())[0];
        assert!((got - want).abs() < 1e-8);
    }

    fn fd_check(f: impl Fn(&Tensor) -> Tensor, x0: &[f64]) {
        let x = Var::new(x0, &Device::Cpu).unwrap();
        let y = f(x.as_tensor()).sum_all().unwrap();
        let g = v(y.backward().unwrap().get(x.as_tensor()).unwrap());
        for i in 0..x0.len() {
            let eps = 1e-6;
            let mut p = x0.to_vec();
            p[i] += eps;
            let mut m = x0.to_vec();
            m[i] -= eps;
            let fp = f(&t(&p)).sum_all().unwrap().to_scalar::<f64>().unwrap();
            let fm = f(&t(&m)).sum_all().unwrap().to_scalar::<f64>().unwrap();
            let num = (fp - fm) / (2.0 * eps);
            assert!(
                (num - g[i]).abs() < 1e-6 * (1.0 + num.abs()),
                "i={i}: fd {num} vs {}",
                g[i]
            );
        }
    }

    #[test]
    fn finite_difference_gradients() {
        let x0 = [0.3, -1.2, 2.5];
        fd_check(|x| std_from_logit(x).unwrap(), &x0);
        fd_check(
            |x| normal_kl(x, &x.exp().unwrap(), &t(&[0.1]), &t(&[0.7])).unwrap(),
            &x0,
        );
        fd_check(|x| logistic_log_density(x, &t(&[0.4]), 1.0).unwrap(), &x0);
        fd_check(
            |x| bernoulli_nll(&candle_nn::ops::sigmoid(x).unwrap(), &t(&[0.2, 0.9, 0.5])).unwrap(),
            &x0,
        );
    }
}
