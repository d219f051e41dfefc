//! Gaussian spatial-attention kernel (reference §2.2): the 2-D normalised density
//! `G(d) = exp(−½‖d/s‖²)/(2π s²)` of the offsets `d = k − q` between keys and queries.

use candle_core::{Result, Tensor};

/// Offsets `d = k − q`: `q (B, Q, 2)`, `k (B, K, 2)` → `(B, Q, K, 2)`.
pub fn pairwise_differences(q: &Tensor, k: &Tensor) -> Result<Tensor> {
    let (b, nq, dq) = q.dims3()?;
    let (bk, nk, dk) = k.dims3()?;
    if b != bk || dq != 2 || dk != 2 {
        candle_core::bail!(
            "gaussian kernel expects q (B,Q,2), k (B,K,2); got {:?}, {:?}",
            q.dims(),
            k.dims()
        );
    }
    k.unsqueeze(1)?
        .broadcast_sub(&q.unsqueeze(2)?)?
        .broadcast_as((b, nq, nk, 2))?
        .contiguous()
}

/// Gaussian kernel values `(B, Q, K)`.
pub fn gaussian_kernel(q: &Tensor, k: &Tensor, std: f64) -> Result<Tensor> {
    Ok(gaussian_kernel_with_diffs(q, k, std)?.0)
}

/// Gaussian kernel values `(B, Q, K)` and the offsets `d = k − q` `(B, Q, K, 2)` (the
/// attention relation networks take both).
pub fn gaussian_kernel_with_diffs(q: &Tensor, k: &Tensor, std: f64) -> Result<(Tensor, Tensor)> {
    if !(std > 0.0 && std.is_finite()) {
        candle_core::bail!("gaussian kernel std must be positive and finite, got {std}");
    }
    let d = pairwise_differences(q, k)?;
    let sq = d.affine(1.0 / std, 0.0)?.sqr()?.sum(3)?; // (B, Q, K)
    let g = sq
        .affine(-0.5, 0.0)?
        .exp()?
        .affine(1.0 / (2.0 * std::f64::consts::PI * std * std), 0.0)?;
    Ok((g, d))
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{Device, Var};

    #[test]
    fn known_values_and_shapes() {
        let dev = Device::Cpu;
        let q = Tensor::new(&[[[0.0f64, 0.0], [1.0, 1.0]]], &dev).unwrap(); // (1,2,2)
        let k = Tensor::new(&[[[0.0f64, 0.0], [0.1, 0.0], [1.0, 1.2]]], &dev).unwrap(); // (1,3,2)
        let s = 0.1;
        let (g, d) = gaussian_kernel_with_diffs(&q, &k, s).unwrap();
        assert_eq!(g.dims(), &[1, 2, 3]);
        assert_eq!(d.dims(), &[1, 2, 3, 2]);
        let g = g.to_vec3::<f64>().unwrap();
        let norm = 1.0 / (2.0 * std::f64::consts::PI * s * s);
        assert!((g[0][0][0] - norm).abs() < 1e-9);
        assert!((g[0][0][1] - norm * (-0.5f64).exp()).abs() < 1e-9);
        assert!((g[0][1][2] - norm * (-2.0f64).exp()).abs() < 1e-9);
        let d = d.flatten_all().unwrap().to_vec1::<f64>().unwrap();
        assert_eq!(&d[6..8], &[-1.0, -1.0]); // k0 - q1
        assert!(gaussian_kernel(&q, &k, 0.0).is_err());
    }

    #[test]
    fn finite_difference_gradient_wrt_queries_and_keys() {
        let dev = Device::Cpu;
        let q0 = vec![0.05, -0.02, 0.3, 0.1];
        let k0 = vec![0.0, 0.1, 0.2, 0.15, -0.1, 0.0];
        let f = |q: &Tensor, k: &Tensor| -> Tensor {
            let w = Tensor::new(&[[[1.0f64, -2.0, 0.5], [0.3, 0.7, -1.1]]], &Device::Cpu).unwrap();
            (gaussian_kernel(q, k, 0.15).unwrap() * w)
                .unwrap()
                .sum_all()
                .unwrap()
        };
        let q = Var::from_tensor(&Tensor::from_vec(q0.clone(), (1, 2, 2), &dev).unwrap()).unwrap();
        let k = Var::from_tensor(&Tensor::from_vec(k0.clone(), (1, 3, 2), &dev).unwrap()).unwrap();
        let grads = f(q.as_tensor(), k.as_tensor()).backward().unwrap();
        let gq = grads
            .get(q.as_tensor())
            .unwrap()
            .flatten_all()
            .unwrap()
            .to_vec1::<f64>()
            .unwrap();
        let gk = grads
            .get(k.as_tensor())
            .unwrap()
            .flatten_all()
            .unwrap()
            .to_vec1::<f64>()
            .unwrap();
        let eval = |qv: &[f64], kv: &[f64]| {
            f(
                &Tensor::from_vec(qv.to_vec(), (1, 2, 2), &dev).unwrap(),
                &Tensor::from_vec(kv.to_vec(), (1, 3, 2), &dev).unwrap(),
            )
            .to_scalar::<f64>()
            .unwrap()
        };
        let eps = 1e-6;
        for i in 0..4 {
            let (mut p, mut m) = (q0.clone(), q0.clone());
            p[i] += eps;
            m[i] -= eps;
            let num = (eval(&p, &k0) - eval(&m, &k0)) / (2.0 * eps);
            assert!(
                (num - gq[i]).abs() < 1e-5 * (1.0 + num.abs()),
                "q{i}: {num} vs {}",
                gq[i]
            );
        }
        for i in 0..6 {
            let (mut p, mut m) = (k0.clone(), k0.clone());
            p[i] += eps;
            m[i] -= eps;
            let num = (eval(&q0, &p) - eval(&q0, &m)) / (2.0 * eps);
            assert!(
                (num - gk[i]).abs() < 1e-5 * (1.0 + num.abs()),
                "k{i}: {num} vs {}",
                gk[i]
            );
        }
    }
}
