//! The learned prior (reference §2.4, §4.3): a second, separately parameterised propagation layer
//! without image access, teacher-forced on the posterior's selected objects (using their
//! `prior_prop_state`), and the KLs of the posterior against it.
//!
//! The paper describes "an even mixture of the static and learned priors"; the code **adds** the
//! learned-prior KL to the static one (each weight 1). We follow the code.

use candle_core::{Result, Tensor};
use candle_nn::VarBuilder;

use super::config::ModelConfig;
use super::latent::LatentSampler;
use super::loss::{mean_sum, pres_weighted_learned};
use super::objects::Objects;
use super::propagation::{PropagationLayer, PropagationOut};
use crate::nn::dist::logistic_log_density;

/// The learned prior propagation module.
#[derive(Debug, Clone)]
pub struct LearnedPrior {
    layer: PropagationLayer,
    concrete_temp: f64,
}

impl LearnedPrior {
    /// Build under `vb` (separate weights from the posterior layer).
    pub fn new(vb: VarBuilder, cfg: &ModelConfig) -> Result<Self> {
        Ok(Self {
            layer: PropagationLayer::new(vb, cfg, false)?,
            concrete_temp: cfg.obj_concrete_temp,
        })
    }

    /// Run the prior on the previous selected objects; `u_td` from the shared propagation
    /// attention applied to features built with `prior_prop_state`.
    pub fn forward(
        &self,
        u_td: &Tensor,
        prev: &Objects,
        s: &mut LatentSampler,
    ) -> Result<PropagationOut> {
        self.layer.forward(None, u_td, prev, s)
    }

    /// `(Normal KLs, pres KL)` of the posterior `q` against this prior's output `p`:
    /// the six Normal KLs weighted by `weight` (the posterior's new pres, passing the gradient
    /// that [`super::loss::propagated_kl_weight`] sets), and
    /// `Σ_k [log q(s_k) − log p(s_k)]` (logistic densities at the posterior's pre-sigmoid sample,
    /// not pres-weighted). Both scalars (`mean_sum`).
    pub fn kl(
        &self,
        q: &PropagationOut,
        p: &PropagationOut,
        weight: &Tensor,
    ) -> Result<(Tensor, Tensor)> {
        let normal = pres_weighted_learned(
            &[
                (&q.d_yx, &p.d_yx),
                (&q.hw, &p.hw),
                (&q.d_what, &p.d_what),
                (&q.d_depth, &p.d_depth),
            ],
            weight,
        )?;
        let s = &q.d_pres.pre_sigmoid;
        let lq = logistic_log_density(s, &q.d_pres.log_odds, self.concrete_temp)?;
        let lp = logistic_log_density(s, &p.d_pres.log_odds, self.concrete_temp)?;
        Ok((normal, mean_sum(&(lq - lp)?)?))
    }
}
