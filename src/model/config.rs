//! Model and training configuration (`[model]` / `[train]` sections of an experiment TOML).
//!
//! Defaults are the values the authors' code runs for Scattered MNIST (`conv_silot`, reference
//! §1); the other experiments override a few keys (see `envs/*.toml`). Every struct denies
//! unknown keys so a typo is an error, and `validate()` names the offending values.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The reference's backbone cell size in pixels (strides 3·2·2, reference §2.1): the default
/// of [`ModelConfig::discovery_cell`]; the sizes the backbone makes are
/// [`crate::nn::backbone::CELL_STRIDES`].
pub const CELL_SIZE: usize = 12;

/// Rendering compositing rule.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
#[serde(tag = "mode", rename_all = "snake_case", deny_unknown_fields)]
pub enum RenderModeConfig {
    /// What the authors' code does (reference §2.8): linear importance, alpha blending over the
    /// background, single-sprite shortcut. The default.
    #[default]
    Code,
    /// The paper's formula `Σ β'α' e^{γ'/λ} / Σ e^{γ'/λ}` with this temperature λ.
    Softmax {
        /// Temperature λ of the exponential importance.
        temperature: f64,
    },
}

/// How an object's presence is carried from one inference step to the next (`silot eval`, the
/// tracker and the wrapper; training and its validation losses always carry the relaxed product
/// of the paper).
///
/// Written in TOML as `eval_presence_carry = "reid"` (the default), `"dedup"`, `"binary"` or
/// `"product"` (the paper).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum PresenceCarry {
    /// The reference (§2.3 step 6): `obj_t = obj_{t−1} · d_obj`, the product of every step's
    /// survival probability since discovery. On a stream it decays geometrically (0.99 per
    /// step is 0.37 after 100 steps) however well the object is tracked, and a faded object
    /// keeps its slot, so nothing finds it again.
    Product,
    /// Decide each step: an object whose presence is above 0.5 is carried into
    /// the next step as present (`obj_{t−1} = 1`); one at or below is gone. A gone tracked
    /// object becomes the null object (reference §2.0), its slot free for a new discovery; a
    /// low-presence discovery that only filled a spare slot keeps its attributes with presence
    /// 0, as the spare slots of every training step hold such leftovers. The reported presence
    /// is the step's survival probability `d_obj` (or the discovery presence). On Space
    /// Invaders it beats the product on 8-frame clips and on 1,000-frame streams
    /// (`docs/streams.md`). The default until session 44.
    Binary,
    /// [`Binary`](Self::Binary), and of present objects that overlap (IoU ≥
    /// [`DUPLICATE_IOU`]) only the oldest (lowest id) is carried: the others are gone as above.
    /// Two slots on one object (a carried object found again by discovery, or two tracks
    /// drifting onto one object) are one object again from the next step, under the older
    /// identity. Not in the reference; the cost: of two objects that truly overlap that much,
    /// one is dropped and found again by discovery (a new id) when they part. On Scattered
    /// MNIST it lifts stream MOTA from ~0 to 0.21–0.25 and clip MOTA by 0.03 (count error
    /// worse); on Space Invaders it changes nothing measurable (`docs/streams.md`). The default
    /// from session 44 to 50.
    Dedup,
    /// The default (since session 50): [`Dedup`](Self::Dedup), and identities carried across a
    /// re-discovery: a present object discovered at this step takes the identity of a tracked
    /// object lost in the last few steps, where their boxes overlap (with the lost object's last
    /// box, its propagated box, or its box moved on at its last velocity); the two swap ids
    /// ([`crate::model::reid`]). Most identity switches on the synthetic streams are such
    /// re-discoveries, where objects touch (`scripts/analysis/switch_causes.py`,
    /// `docs/streams.md`). On unseen streams of all three shipped encoders it removes 38–56 % of
    /// the identity switches and raises MOTA (Space Invaders +0.002, Scattered Shapes +0.038,
    /// Scattered MNIST +0.041); on their 8-frame clips it is as good or better. Inference only;
    /// not in the reference.
    #[default]
    Reid,
}

impl std::str::FromStr for PresenceCarry {
    type Err = Error;

    /// A carry by its TOML name (`"dedup"`, `"reid"`, `"binary"`, `"product"`).
    fn from_str(name: &str) -> Result<Self> {
        use serde::de::IntoDeserializer;
        let de: serde::de::value::StrDeserializer<'_, serde::de::value::Error> =
            name.into_deserializer();
        Self::deserialize(de).map_err(|_| {
            Error::Invalid(format!(
                "unknown presence carry {name:?}: use \"reid\" (the default), \"dedup\", \
                 \"binary\" or \"product\""
            ))
        })
    }
}

/// How much gradient the presence weights of the Normal KLs (`pres ⊙ KL`, reference §4.2–4.3)
/// pass into presence: a scale in `[0, 1]` for the discovered and for the propagated objects'
/// weights (1 = the reference, 0 = detached; the forward value is the same for every scale).
/// Written in TOML as `"all"` (1, 1; the default), `"discovery"` (1, 0), `"none"` (0, 0),
/// `true` / `false` (= `"all"` / `"none"`), or a table such as
/// `{ discovery = 1.0, propagation = 0.25 }` (a missing key is 1; `duplicate`, when given, is the
/// scale for propagated objects that duplicate a more present one, see below).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "toml::Value", into = "toml::Value")]
pub struct PresWeightGradient {
    /// Scale of the gradient through the discovered objects' weights.
    pub discovery: f64,
    /// Scale of the gradient through the propagated objects' weights (static and learned-prior
    /// KLs). Below 1, a tracked object's presence is pushed down less to save the KLs of its
    /// updates, while discovery keeps the pressure that holds spurious objects out.
    pub propagation: f64,
    /// Scale for the propagated objects that overlap a more present propagated object of the
    /// same frame (IoU ≥ [`DUPLICATE_IOU`]), in place of `propagation`; `None` (the default):
    /// `propagation` for all. Not in the reference: a tail at `propagation` < 1 keeps every
    /// tracked object's presence up, second boxes on an object with the rest; with
    /// `duplicate = 1` those keep the full pressure that removes them
    /// (benches/results/cuda_train_space_invaders_session28.md).
    pub duplicate: Option<f64>,
}

/// The IoU from which a propagated object counts as a duplicate of a more present one for
/// [`PresWeightGradient::duplicate`] (the label-free overlapping-pairs measure's threshold).
pub const DUPLICATE_IOU: f64 = 0.5;

impl Default for PresWeightGradient {
    fn default() -> Self {
        Self::ALL
    }
}

impl PresWeightGradient {
    /// Every weight passes its full gradient, as the reference. The default.
    pub const ALL: Self = Self {
        discovery: 1.0,
        propagation: 1.0,
        duplicate: None,
    };
    /// Only the discovered objects' weights pass gradient; the propagated objects' are detached.
    pub const DISCOVERY: Self = Self {
        discovery: 1.0,
        propagation: 0.0,
        duplicate: None,
    };
    /// No weight passes gradient: all detached.
    pub const NONE: Self = Self {
        discovery: 0.0,
        propagation: 0.0,
        duplicate: None,
    };

    /// Checks that every scale is in `[0, 1]`, naming the one that is not.
    pub fn check(self) -> std::result::Result<(), String> {
        for (key, v) in [
            ("discovery", Some(self.discovery)),
            ("propagation", Some(self.propagation)),
            ("duplicate", self.duplicate),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (k, v)))
        {
            if !(0.0..=1.0).contains(&v) {
                return Err(format!(
                    "kl_pres_weight_gradient.{key} = {v}: a gradient scale must be in [0, 1]"
                ));
            }
        }
        Ok(())
    }

    fn name(self) -> Option<&'static str> {
        [
            (Self::ALL, "all"),
            (Self::DISCOVERY, "discovery"),
            (Self::NONE, "none"),
        ]
        .into_iter()
        .find_map(|(v, n)| (v == self).then_some(n))
    }
}

impl From<PresWeightGradient> for toml::Value {
    fn from(v: PresWeightGradient) -> Self {
        match v.name() {
            Some(n) => toml::Value::String(n.into()),
            None => {
                let mut t = toml::map::Map::new();
                t.insert("discovery".into(), toml::Value::Float(v.discovery));
                t.insert("propagation".into(), toml::Value::Float(v.propagation));
                if let Some(d) = v.duplicate {
                    t.insert("duplicate".into(), toml::Value::Float(d));
                }
                toml::Value::Table(t)
            }
        }
    }
}

/// Reads the TOML forms of [`PresWeightGradient`], naming what was wrong.
impl TryFrom<toml::Value> for PresWeightGradient {
    type Error = String;

    fn try_from(v: toml::Value) -> std::result::Result<Self, String> {
        const FORMS: &str = "expected \"all\", \"discovery\", \"none\", true, false or a table \
                             such as { discovery = 1.0, propagation = 0.25, duplicate = 1.0 }";
        match v {
            toml::Value::Boolean(true) => Ok(Self::ALL),
            toml::Value::Boolean(false) => Ok(Self::NONE),
            toml::Value::String(n) => match n.as_str() {
                "all" => Ok(Self::ALL),
                "discovery" => Ok(Self::DISCOVERY),
                "none" => Ok(Self::NONE),
                other => Err(format!(
                    "unknown kl_pres_weight_gradient `{other}`: {FORMS}"
                )),
            },
            toml::Value::Table(t) => {
                let mut out = Self::ALL;
                for (key, value) in t {
                    let slot = match key.as_str() {
                        "discovery" => &mut out.discovery,
                        "propagation" => &mut out.propagation,
                        "duplicate" => out.duplicate.insert(1.0),
                        other => {
                            return Err(format!(
                                "unknown key kl_pres_weight_gradient.{other}: expected \
                                 `discovery`, `propagation` or `duplicate`"
                            ))
                        }
                    };
                    *slot = match value {
                        toml::Value::Float(f) => f,
                        toml::Value::Integer(i) => i as f64,
                        other => {
                            return Err(format!(
                                "kl_pres_weight_gradient.{key} = {other}: expected a number"
                            ))
                        }
                    };
                }
                out.check().map(|()| out)
            }
            other => Err(format!("kl_pres_weight_gradient = {other}: {FORMS}")),
        }
    }
}

/// A Normal prior `N(mean, std)`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NormalPrior {
    /// Mean.
    pub mean: f64,
    /// Standard deviation (> 0).
    pub std: f64,
}

impl NormalPrior {
    const fn new(mean: f64, std: f64) -> Self {
        Self { mean, std }
    }
}

/// `log(0.1/0.9)`: the static prior mean of size logits (sizes ≈ 0.1 anchor).
pub const SIZE_LOGIT_PRIOR_MEAN: f64 = -2.197_224_577_336_219_6;

/// Static priors of reference §1.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PriorsConfig {
    /// Discovery `cell_y/x_logit` prior, N(0, 1).
    pub cell_yx: NormalPrior,
    /// Discovery `height/width_logit` prior, N(−2.197, 0.5).
    pub hw: NormalPrior,
    /// Discovery `what` prior per dim, N(0, 1).
    pub what: NormalPrior,
    /// Discovery `z_logit` (depth) prior, N(0, 1).
    pub depth: NormalPrior,
    /// Propagation `d_yt/d_xt_logit` prior, N(0, 0.3).
    pub prop_d_yx: NormalPrior,
    /// Propagation **absolute** `ys/xs_logit` prior, N(−2.197, 0.5) (reference §10.4; the paper
    /// table says N(0, 0.3) on the update).
    pub prop_hw: NormalPrior,
    /// Propagation `d_what` prior per dim, N(0, 0.4).
    pub prop_d_what: NormalPrior,
    /// Propagation `d_z_logit` prior, N(0, 1).
    pub prop_d_depth: NormalPrior,
}

impl Default for PriorsConfig {
    fn default() -> Self {
        Self {
            cell_yx: NormalPrior::new(0.0, 1.0),
            hw: NormalPrior::new(SIZE_LOGIT_PRIOR_MEAN, 0.5),
            what: NormalPrior::new(0.0, 1.0),
            depth: NormalPrior::new(0.0, 1.0),
            prop_d_yx: NormalPrior::new(0.0, 0.3),
            prop_hw: NormalPrior::new(SIZE_LOGIT_PRIOR_MEAN, 0.5),
            prop_d_what: NormalPrior::new(0.0, 0.4),
            prop_d_depth: NormalPrior::new(0.0, 1.0),
        }
    }
}

/// SILOT architecture and latent-variable settings (reference §1, §5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ModelConfig {
    /// Training frame size `[H, W]` in pixels (after any random crop). Default `[48, 48]`.
    pub image_size: [usize; 2],
    /// Anchor box `[a_h, a_w]` in pixels: the unit of all object geometry. Default `[48, 48]`.
    pub anchor: [f64; 2],
    /// Object (glimpse and sprite) size `[h_o, w_o]` in pixels. Default `[14, 14]`.
    pub object_size: [usize; 2],
    /// Number of object slots K in training. Default 16.
    pub n_objects: usize,
    /// Number of object slots at evaluation (Atari: 128). Default: same as `n_objects`.
    pub n_objects_eval: Option<usize>,
    /// `what` dimension A. Default 64.
    pub n_what: usize,
    /// `n_hidden`; the GRU state has `2·n_hidden` units. Default 64.
    pub n_hidden: usize,
    /// Backbone output channels (code: 64, paper: 128). Default 64.
    pub n_backbone_features: usize,
    /// Passthrough features between the discovery heads. Default 64.
    pub n_passthrough_features: usize,
    /// Glimpse encoder hidden sizes (`d_obj`, `p_bu`, `p_obj`). Default `[256, 128]`.
    pub glimpse_encoder: Vec<usize>,
    /// Sprite decoder `r_obj` hidden sizes. Default `[128, 256]`.
    pub sprite_decoder: Vec<usize>,
    /// Hidden sizes of the propagation MLPs (`p_glimpse`, `p_where`, `p_what`, ...). Default
    /// `[100, 100]`.
    pub prop_mlp: Vec<usize>,
    /// Hidden sizes of the attention MLPs (`d_spatial`, `p_td`, `p_spatial`). Default `[64, 64]`.
    pub attention_mlp: Vec<usize>,
    /// Colour logit scale σ^β. Default 2.0.
    pub colour_logit_scale: f64,
    /// Colour logit bias μ^β. Default 0.0.
    pub colour_logit_bias: f64,
    /// Alpha logit scale σ^ξ. Default 0.1.
    pub alpha_logit_scale: f64,
    /// Alpha logit bias μ^ξ. Default 5.0.
    pub alpha_logit_bias: f64,
    /// Spatial attention kernel std in anchor units. Default 0.1 (Shapes 0.15).
    pub attention_std: f64,
    /// Propagation without object interaction (MNIST, Atari: true; Shapes: false). A run may
    /// branch from an independent checkpoint onto interaction (`--branch-from` with
    /// `--reset-optimizer`): the relation MLP it adds starts with its last layer at zero.
    pub independent_prop: bool,
    /// Sample latents at evaluation (MNIST: true; Shapes, Atari: false).
    pub eval_noisy: bool,
    /// How presence is carried between inference steps ([`PresenceCarry`]; default
    /// `"reid"`; `"product"` is the reference). Inference only; not written to saved configs
    /// when `"reid"` (configs saved without the key meant `"binary"` before session 44 and
    /// `"dedup"` before session 50).
    #[serde(skip_serializing_if = "is_reid")]
    pub eval_presence_carry: PresenceCarry,
    /// Compositing rule of the renderer.
    pub render: RenderModeConfig,
    /// Importance temperature λ of the code renderer. Default 0.25.
    pub importance_temp: f64,
    /// Range of the discovery cell offset `[min_yx, max_yx]`. Default `[-0.5, 1.5]`.
    pub yx_range: [f64; 2],
    /// Discovery cell size in pixels: 12 (default, the reference's backbone) or 6 (its last
    /// stride 1: four times the cells, one proposal each, from the same weights, so a 12-px
    /// checkpoint can be branched onto it). Not in the reference: discovery proposes one object
    /// per cell, and objects whose neighbour shares their cell are missed more (docs/streams.md).
    /// Not written to saved configs when 12.
    #[serde(skip_serializing_if = "is_reference_cell")]
    pub discovery_cell: usize,
    /// Range of object sizes in anchor units `[min_hw, max_hw]`. Default `[0, 1]`.
    pub hw_range: [f64; 2],
    /// A lower cap on box widths, in anchor units (in `(min_hw, max_hw]`); default none: widths
    /// range as heights do. Not in the reference (it bounds both by `hw_range`): on Space
    /// Invaders about one run in three from scratch settles on boxing aliens in pairs (mean box
    /// width 15.7–20.9 px at step 2,000 against 9.5–11.8, every ground-truth object at most
    /// 13 px wide); a cap between is meant to rule that optimum out (untried at scale).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_width: Option<f64>,
    /// Largest propagation move per frame in anchor units. Default 1.0.
    pub where_t_scale: f64,
    /// Pres logit temperature. Default 1.0.
    pub obj_temp: f64,
    /// Concrete (logistic noise) temperature of the presence samples in training,
    /// `σ((λ + noise) / τ)`. Default 1.0, the reference's. Below 1 the samples sit nearer 0 and
    /// 1 (the chance of one above 0.5 stays `σ(λ)`), so a box less often renders part of its
    /// sprite, presence as an opacity, which inference (latent means, threshold 0.5) never does:
    /// 0.5 on Scattered Shapes missed 15–25 % fewer shapes than the same steps at 1
    /// (benches/results/synthetic_shapes.md, session 59), but on Scattered MNIST, whose digits
    /// pile up, it scored 0.10–0.13 stream MOTA under the same steps at 1, with 1.8–2× the
    /// false positives (synthetic_mnist.md, session 60): an env's choice. Unused at inference
    /// with latent means (`eval_noisy = false`).
    pub obj_concrete_temp: f64,
    /// Discovery dropout probability `p_dd` (training, `t > 0`). Default 0.5.
    pub discovery_dropout: f64,
    /// How much gradient the Normal-KL presence weights pass into presence
    /// ([`PresWeightGradient`]; default `"all"`, as the reference). Training only; not written
    /// to saved configs when `"all"`.
    #[serde(skip_serializing_if = "is_all")]
    pub kl_pres_weight_gradient: PresWeightGradient,
    /// Train a learned prior (the prior propagation module). Default true.
    pub learn_prior: bool,
    /// Static priors. Training only (they enter only the KL terms): a run may branch from a
    /// checkpoint made under other priors.
    pub priors: PriorsConfig,
}

impl Default for ModelConfig {
    fn default() -> Self {
        Self {
            image_size: [48, 48],
            anchor: [48.0, 48.0],
            object_size: [14, 14],
            n_objects: 16,
            n_objects_eval: None,
            n_what: 64,
            n_hidden: 64,
            n_backbone_features: 64,
            n_passthrough_features: 64,
            glimpse_encoder: vec![256, 128],
            sprite_decoder: vec![128, 256],
            prop_mlp: vec![100, 100],
            attention_mlp: vec![64, 64],
            colour_logit_scale: 2.0,
            colour_logit_bias: 0.0,
            alpha_logit_scale: 0.1,
            alpha_logit_bias: 5.0,
            attention_std: 0.1,
            independent_prop: true,
            eval_noisy: true,
            eval_presence_carry: PresenceCarry::Reid,
            render: RenderModeConfig::Code,
            importance_temp: 0.25,
            yx_range: [-0.5, 1.5],
            discovery_cell: CELL_SIZE,
            hw_range: [0.0, 1.0],
            max_width: None,
            where_t_scale: 1.0,
            obj_temp: 1.0,
            obj_concrete_temp: 1.0,
            discovery_dropout: 0.5,
            kl_pres_weight_gradient: PresWeightGradient::ALL,
            learn_prior: true,
            priors: PriorsConfig::default(),
        }
    }
}

fn is_reid(v: &PresenceCarry) -> bool {
    *v == PresenceCarry::Reid
}

fn is_all(v: &PresWeightGradient) -> bool {
    *v == PresWeightGradient::ALL
}

fn is_reference_cell(v: &usize) -> bool {
    *v == CELL_SIZE
}

fn bad(key: &str, msg: String) -> Error {
    Error::Config {
        path: "[model]/[train]".into(),
        msg: format!("`{key}`: {msg}"),
    }
}

fn check_positive(key: &str, v: f64) -> Result<()> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(bad(key, format!("must be a finite number > 0, got {v}")))
    }
}

impl ModelConfig {
    /// GRU state size `2·n_hidden`.
    pub fn state_size(&self) -> usize {
        2 * self.n_hidden
    }

    /// K at evaluation.
    pub fn eval_objects(&self) -> usize {
        self.n_objects_eval.unwrap_or(self.n_objects)
    }

    /// Grid size `(H, W)` in discovery cells for a frame of `image` pixels: `ceil(L/cell)` per
    /// dim, `cell` = [`Self::discovery_cell`].
    pub fn grid_size(&self, image: [usize; 2]) -> [usize; 2] {
        let c = self.discovery_cell;
        [image[0].div_ceil(c), image[1].div_ceil(c)]
    }

    /// Check every value; the error names the key, the value and the valid range.
    pub fn validate(&self) -> Result<()> {
        let c = self.discovery_cell;
        if crate::nn::backbone::strides_4x4(c).is_err() {
            return Err(bad(
                "discovery_cell",
                format!("{c} px is not a cell the backbone makes; use 12 (the reference) or 6"),
            ));
        }
        let [h, w] = self.image_size;
        if h < c || w < c {
            return Err(bad(
                "image_size",
                format!("{h}x{w} is smaller than one {c}-px backbone cell; use at least {c}x{c}"),
            ));
        }
        if self.n_objects < 1 {
            return Err(bad("n_objects", "K must be >= 1".into()));
        }
        if self.n_objects_eval == Some(0) {
            return Err(bad("n_objects_eval", "K at evaluation must be >= 1".into()));
        }
        let [oh, ow] = self.object_size;
        if oh < 2 || ow < 2 {
            return Err(bad(
                "object_size",
                format!("{oh}x{ow}: glimpses need at least 2x2 pixels (corner-aligned sampling)"),
            ));
        }
        for (k, v) in [("n_what", self.n_what), ("n_hidden", self.n_hidden)]
            .into_iter()
            .chain([
                ("n_backbone_features", self.n_backbone_features),
                ("n_passthrough_features", self.n_passthrough_features),
            ])
        {
            if v == 0 {
                return Err(bad(k, "must be >= 1".into()));
            }
        }
        for (k, v) in [
            ("glimpse_encoder", &self.glimpse_encoder),
            ("sprite_decoder", &self.sprite_decoder),
            ("prop_mlp", &self.prop_mlp),
            ("attention_mlp", &self.attention_mlp),
        ] {
            if v.contains(&0) {
                return Err(bad(k, format!("hidden sizes must be >= 1, got {v:?}")));
            }
        }
        check_positive("anchor[0]", self.anchor[0])?;
        check_positive("anchor[1]", self.anchor[1])?;
        check_positive("attention_std", self.attention_std)?;
        check_positive("importance_temp", self.importance_temp)?;
        check_positive("obj_temp", self.obj_temp)?;
        check_positive("obj_concrete_temp", self.obj_concrete_temp)?;
        check_positive("where_t_scale", self.where_t_scale)?;
        check_positive("colour_logit_scale", self.colour_logit_scale)?;
        check_positive("alpha_logit_scale", self.alpha_logit_scale)?;
        if let RenderModeConfig::Softmax { temperature } = self.render {
            check_positive("render.temperature", temperature)?;
        }
        self.kl_pres_weight_gradient
            .check()
            .map_err(|m| bad("kl_pres_weight_gradient", m))?;
        if !(0.0..1.0).contains(&self.discovery_dropout) {
            return Err(bad(
                "discovery_dropout",
                format!("{} must be in [0, 1)", self.discovery_dropout),
            ));
        }
        if self.yx_range[0] >= self.yx_range[1] || self.hw_range[0] >= self.hw_range[1] {
            return Err(bad(
                "yx_range/hw_range",
                format!(
                    "need min < max, got {:?} / {:?}",
                    self.yx_range, self.hw_range
                ),
            ));
        }
        if let Some(w) = self.max_width {
            let [lo, hi] = self.hw_range;
            if !(w > lo && w <= hi) {
                return Err(bad(
                    "max_width",
                    format!("{w} must be in (min_hw, max_hw] = ({lo}, {hi}]: a cap on widths"),
                ));
            }
        }
        let p = &self.priors;
        for (k, pr) in [
            ("priors.cell_yx", p.cell_yx),
            ("priors.hw", p.hw),
            ("priors.what", p.what),
            ("priors.depth", p.depth),
            ("priors.prop_d_yx", p.prop_d_yx),
            ("priors.prop_hw", p.prop_hw),
            ("priors.prop_d_what", p.prop_d_what),
            ("priors.prop_d_depth", p.prop_d_depth),
        ] {
            check_positive(&format!("{k}.std"), pr.std)?;
            if !pr.mean.is_finite() {
                return Err(bad(k, format!("mean must be finite, got {}", pr.mean)));
            }
        }
        Ok(())
    }
}

/// A number of steps for every stage, or one per stage ([`TrainConfig::max_stage_steps`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum StageSteps {
    /// The same for every stage.
    Every(u64),
    /// By stage (first, second, ...); stages past the end of the list have none.
    PerStage(Vec<u64>),
}

impl StageSteps {
    /// The value for `stage` (0-based), if any.
    pub fn of_stage(&self, stage: usize) -> Option<u64> {
        match self {
            Self::Every(n) => Some(*n),
            Self::PerStage(v) => v.get(stage).copied(),
        }
    }

    /// Every value given.
    fn values(&self) -> &[u64] {
        match self {
            Self::Every(n) => std::slice::from_ref(n),
            Self::PerStage(v) => v,
        }
    }
}

/// Criterion for early stopping and best-checkpoint selection (`stop_criterion` in `[train]`:
/// `"reconstruction_loss"`, the default, `"total_loss"` or `"mota"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum StopCriterion {
    /// Minimise the validation reconstruction loss (the code's Atari criterion).
    #[default]
    ReconstructionLoss,
    /// Minimise the validation total loss.
    TotalLoss,
    /// Maximise validation `MOTA + prior MOTA` on labelled clips (the code's Scattered MNIST and
    /// Shapes criterion, reference §4.8): `n_val` 8-frame clips of the env's validation split,
    /// scored as `silot eval` scores them, once with the posterior (all frames) and once with
    /// the learned prior propagating alone from frame [`TrainConfig::val_prior_from`] (frames
    /// from there on); the score is `-(mota + prior_mota)`. Needs exact ground truth, so only
    /// the synthetic envs (an error at load time on Atari), and `learn_prior = true`.
    Mota,
}

/// Training schedule, optimiser and bookkeeping (reference §4.6–§4.8).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TrainConfig {
    /// Clips per batch. Default 16.
    pub batch_size: usize,
    /// Frames per clip T. Default 8.
    pub n_frames: usize,
    /// Random crop `[H, W]` of every clip (same window for all frames); `None` = full frames.
    pub crop: Option<[usize; 2]>,
    /// With `crop`, every this-many-th training clip of a batch is cropped at the frame's top row
    /// instead of a uniform one (columns stay uniform; validation crops stay uniform). Default 0
    /// (off, as the reference). Not in the reference: uniform 72x72 crops show Space Invaders'
    /// score rows (9-20) in ~8 % of clips, and the score digits cost trained models 0.06-0.10
    /// MOTA (benches/results/cuda_train_space_invaders_session16.md).
    pub crop_top_every: usize,
    /// Adam learning rate of stage 1. Default 1e-4.
    pub lr: f64,
    /// Learning rate divisor between stages. Default 3.
    pub lr_stage_divisor: f64,
    /// Global-norm gradient clip. Default 10.
    pub max_grad_norm: f64,
    /// Frames curriculum step `N_curric`: `T_dyn = min(2 + 2·floor(t/N_curric), T)`. Default 40 000.
    pub n_curric: u64,
    /// Frames at the start of the curriculum. Default 2.
    pub initial_n_frames: usize,
    /// Frames added per curriculum step. Default 2.
    pub n_frames_scale: usize,
    /// Early-stopping patience in steps. Default 30 000.
    pub patience: u64,
    /// Stage-1 step before which validations are ineligible and early stopping cannot trigger.
    /// Default 160 000 (stages 2 and 3 use 1, reference §4.8).
    pub patience_start: u64,
    /// Number of curriculum stages (reference: 3). Default 3.
    pub n_stages: usize,
    /// End a stage after this many steps if early stopping has not (as if it had: best
    /// eligible weights reloaded, else the current ones; fresh Adam; the next stage's
    /// schedule): one number for every stage (`max_stage_steps = 4000`) or one per stage
    /// (`max_stage_steps = [2600]`: stage 1 only). Not in the reference, whose stages run for
    /// days; for short runs, where stage 2's weak count prior and lower learning rate help
    /// (`benches/results/cuda_train_space_invaders_session9.md`, `..._session10.md`).
    /// Default: none.
    pub max_stage_steps: Option<StageSteps>,
    /// Validate every this many steps. Default 5000.
    pub eval_every: u64,
    /// Validation clips. Default 128.
    pub n_val: usize,
    /// Full-frame clips (no crop, `n_objects_eval` slots, pure encoding: as `silot eval` runs
    /// the model) on which every validation also measures the label-free [`ObjectStats`] of the
    /// objects found (`full_frame` on validation lines). A run that holds objects twice shows
    /// it there and not on the training crops (benches/results/cuda_train_space_invaders_session19.md).
    /// Drawn after the `n_val` clips from the validation source (from the training source
    /// where there is no other). Default 0 (off); not written to saved configs when 0.
    ///
    /// [`ObjectStats`]: crate::train::ObjectStats
    #[serde(skip_serializing_if = "is_zero")]
    pub val_full_frames: usize,
    /// Streams of the label-free streams check (`crate::train::StreamCheck`, docs/streams.md):
    /// every validation also runs the current model on this many envs of the validation split
    /// for [`val_stream_frames`](Self::val_stream_frames) frames through the object-centric
    /// wrapper and logs the objects counted in the first and last tenth of the frames, the
    /// identities born per frame and the overlapping pairs (`stream` on validation lines).
    /// Default 0 (off); not written to saved configs when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub val_streams: usize,
    /// Frames of each stream of the streams check (at least 10). Default 300; not written to
    /// saved configs when 300.
    #[serde(skip_serializing_if = "is_default_val_stream_frames")]
    pub val_stream_frames: usize,
    /// Stopping criterion ([`StopCriterion`]). Default `"reconstruction_loss"`.
    pub stop_criterion: StopCriterion,
    /// Under `stop_criterion = "mota"`: the frame `T` from which the prior MOTA runs the learned
    /// prior alone (frames `0..T` with the posterior, then no frame seen and no discovery; scored
    /// on frames `T..`), as `silot eval --prior-from T`. In `1..=7` (the clips have 8 frames).
    /// Default 3, the reference's `prior_start_step` (§8). Not written to saved configs when 3.
    #[serde(skip_serializing_if = "is_default_val_prior_from")]
    pub val_prior_from: usize,
    /// Hard cap on total training steps over all stages. Default 1 000 000.
    pub steps: u64,
    /// Write a metrics line every this many steps. Default 100.
    pub log_every: u64,
    /// Write a checkpoint every this many steps. Default 5000.
    pub checkpoint_every: u64,
    /// Seed of parameter init, clip sampling and all noise.
    pub seed: u64,
    /// Add gradient noise `σ_g(t) = scale·0.1^{t/1000}` in stage 1 (reference §4.7).
    pub gradient_noise: bool,
    /// Gradient noise scale. Default 0.001.
    pub gradient_noise_scale: f64,
    /// Stop-gradient "training wheels" duration in steps (stage 1). Default 1000.
    pub training_wheels_steps: u64,
    /// Once the training wheels come off, ramp stage 1's learning rate linearly from `lr / N` up
    /// to `lr` over these N steps. Default 0 (off, as the reference). Not in the reference: the
    /// gradient's norm jumps ~100x when the wheels come off, and runs that box Space Invaders
    /// aliens in pairs settle there (benches/results/cuda_train_space_invaders_session17.md).
    pub wheels_off_lr_warmup: u64,
    /// Count prior schedule `v(t) = (initial − final)·rate^{t/decay_steps} + final`; log-odds
    /// `log(v + 1e-6)`. Default initial 1e6.
    pub count_prior_initial: f64,
    /// Default final 0.0125.
    pub count_prior_final: f64,
    /// Default 1000.
    pub count_prior_decay_steps: f64,
    /// Default 0.1.
    pub count_prior_decay_rate: f64,
    /// Constant count-prior log-odds of stages 2 and 3. The code reuses 0.0125 as log-odds there
    /// (p ≈ 0.503, reference §4.4 "surprise"); reproduced here as the default.
    pub later_stage_count_prior_log_odds: f64,
    /// Envs the training clips are rolled out in when they come from an env (not a dataset),
    /// one thread each; a batch's clips are spread over them, so this is part of the data a
    /// seed gives and is fixed here instead of following the host's core count (capped by
    /// `batch_size`). Default 16, the single-GPU machines' core count, which every GPU run
    /// before this key had; not written to saved configs when 16.
    #[serde(skip_serializing_if = "is_default_rollout_envs")]
    pub rollout_envs: usize,
    /// Seed of the validation clips and of the validation's noise, apart from `seed`: runs of
    /// one experiment under different training seeds validate on the same clips, so their
    /// validation losses compare (the reference validates on fixed held-out episodes). Default
    /// 0 (a seed-0 run validates as before this key); not written to saved configs when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub val_seed: u64,
    /// Train only the parameters named by these prefixes (whole `.`-separated parts, e.g.
    /// `["propagation.pres"]` for `propagation.pres.*`); the rest stay fixed (no update, no Adam
    /// state), and gradient clipping uses the trained parameters' norm. Default empty: every
    /// parameter, as the reference. Not in the reference: to change one module of a trained
    /// encoder (a presence-only tail, benches/results/cuda_train_space_invaders_session31.md).
    /// Not written to saved configs when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub train_only: Vec<String>,
    /// Train on streams (docs/streams.md): clip `b` of successive batches comes from env `b`'s
    /// running episode without a gap, at the same crop window, and the model starts each clip
    /// from the objects its slot ended the previous clip with (detached: gradients stay within a
    /// clip, truncated back-propagation through time), their presence decided as at inference
    /// ([`PresenceCarry::Binary`]); a clip that starts a new episode starts from the null set.
    /// So the model learns from the slot contents, recurrent states and presences it meets after
    /// hundreds of steps, not only from a clip's first frames. Needs envs as the clip source
    /// and `rollout_envs >= batch_size` (one env per clip). Default false (the reference:
    /// independent clips); not written to saved configs when false.
    #[serde(skip_serializing_if = "is_zero")]
    pub streams: bool,
    /// With [`streams`](Self::streams): how the objects a clip ended with carry into the next
    /// clip ([`PresenceCarry`], as `model.eval_presence_carry` at inference). Default `"binary"`
    /// (every streams run so far); `"dedup"` trains on the carried sets inference makes by
    /// default. Not written to saved configs when `"binary"`.
    #[serde(skip_serializing_if = "is_binary")]
    pub streams_carry: PresenceCarry,
    /// Weight β of every KL term (static, learned-prior, presence and count prior) in the
    /// training loss `reconstruction + β·KL`; the logged terms and totals stay unweighted.
    /// Default 1 (the reference's ELBO). Not in the reference: below 1 an object is cheaper
    /// against the pixels it explains, e.g. objects of a few pixels that the ELBO leaves out
    /// (`examples/missed_objects.rs`, docs/streams.md). Tried at 0.5: on Space Invaders it
    /// boxed no bomb and tripled the duplicates; on Scattered MNIST it boxed more piled digits
    /// and doubled the duplicates, MOTA no higher (docs/training.md). Not written to saved
    /// configs when 1.
    #[serde(skip_serializing_if = "is_one")]
    pub kl_beta: f64,
}

/// [`TrainConfig::rollout_envs`]'s default.
pub const DEFAULT_ROLLOUT_ENVS: usize = 16;

/// [`TrainConfig::val_prior_from`]'s default: the reference's `prior_start_step` (§8).
pub const DEFAULT_VAL_PRIOR_FROM: usize = 3;

/// Frames of the labelled clips of the `mota` criterion (the evaluation clips' length,
/// `crate::eval_protocol::EVAL_FRAMES`): [`TrainConfig::val_prior_from`] must be below it.
pub const MOTA_CLIP_FRAMES: usize = 8;

/// [`TrainConfig::val_stream_frames`]'s default.
pub const DEFAULT_VAL_STREAM_FRAMES: usize = 300;

fn is_default_val_stream_frames(n: &usize) -> bool {
    *n == DEFAULT_VAL_STREAM_FRAMES
}

fn is_default_val_prior_from(n: &usize) -> bool {
    *n == DEFAULT_VAL_PRIOR_FROM
}

fn is_default_rollout_envs(n: &usize) -> bool {
    *n == DEFAULT_ROLLOUT_ENVS
}

fn is_binary(c: &PresenceCarry) -> bool {
    *c == PresenceCarry::Binary
}

fn is_one(v: &f64) -> bool {
    *v == 1.0
}

fn is_zero<T: Default + PartialEq>(n: &T) -> bool {
    *n == T::default()
}

impl Default for TrainConfig {
    fn default() -> Self {
        Self {
            batch_size: 16,
            n_frames: 8,
            crop: None,
            crop_top_every: 0,
            lr: 1e-4,
            lr_stage_divisor: 3.0,
            max_grad_norm: 10.0,
            n_curric: 40_000,
            initial_n_frames: 2,
            n_frames_scale: 2,
            patience: 30_000,
            patience_start: 160_000,
            n_stages: 3,
            max_stage_steps: None,
            eval_every: 5000,
            n_val: 128,
            val_full_frames: 0,
            val_streams: 0,
            val_stream_frames: DEFAULT_VAL_STREAM_FRAMES,
            stop_criterion: StopCriterion::ReconstructionLoss,
            val_prior_from: DEFAULT_VAL_PRIOR_FROM,
            steps: 1_000_000,
            log_every: 100,
            checkpoint_every: 5000,
            seed: 0,
            gradient_noise: true,
            gradient_noise_scale: 0.001,
            training_wheels_steps: 1000,
            wheels_off_lr_warmup: 0,
            count_prior_initial: 1e6,
            count_prior_final: 0.0125,
            count_prior_decay_steps: 1000.0,
            count_prior_decay_rate: 0.1,
            later_stage_count_prior_log_odds: 0.0125,
            rollout_envs: DEFAULT_ROLLOUT_ENVS,
            val_seed: 0,
            train_only: Vec::new(),
            streams: false,
            streams_carry: PresenceCarry::Binary,
            kl_beta: 1.0,
        }
    }
}

impl TrainConfig {
    /// Envs to roll the training clips out in: [`TrainConfig::rollout_envs`], at most one per
    /// clip of a batch.
    pub fn rollout_env_count(&self) -> usize {
        self.rollout_envs.min(self.batch_size).max(1)
    }

    /// Check every value against itself and the model config.
    pub fn validate(&self, model: &ModelConfig) -> Result<()> {
        let nonzero = [
            ("batch_size", self.batch_size as u64),
            ("n_frames", self.n_frames as u64),
            ("n_curric", self.n_curric),
            ("initial_n_frames", self.initial_n_frames as u64),
            ("n_stages", self.n_stages as u64),
            ("eval_every", self.eval_every),
            ("n_val", self.n_val as u64),
            ("log_every", self.log_every),
            ("checkpoint_every", self.checkpoint_every),
            ("rollout_envs", self.rollout_envs as u64),
        ];
        for (k, v) in nonzero {
            if v == 0 {
                return Err(bad(k, "must be >= 1".into()));
            }
        }
        if self.val_streams > 0 && self.val_stream_frames < 10 {
            return Err(bad(
                "val_stream_frames",
                format!(
                    "is {}: the streams check compares the first and last tenth of its frames, \
                     so it needs at least 10",
                    self.val_stream_frames
                ),
            ));
        }
        if !self.streams && self.streams_carry != PresenceCarry::Binary {
            return Err(bad(
                "streams_carry",
                "only applies to training on streams: set streams = true, or leave it out".into(),
            ));
        }
        if self.streams && self.rollout_envs < self.batch_size {
            return Err(bad(
                "streams",
                format!(
                    "needs one env per clip of a batch, but rollout_envs = {} < batch_size = {}: \
                     set rollout_envs = {}",
                    self.rollout_envs, self.batch_size, self.batch_size
                ),
            ));
        }
        if !(1..MOTA_CLIP_FRAMES).contains(&self.val_prior_from) {
            return Err(bad(
                "val_prior_from",
                format!(
                    "{}: the prior needs at least one posterior frame before it and one frame \
                     after it of the {MOTA_CLIP_FRAMES}-frame clips; give 1 to {}",
                    self.val_prior_from,
                    MOTA_CLIP_FRAMES - 1
                ),
            ));
        }
        if self.stop_criterion == StopCriterion::Mota && !model.learn_prior {
            return Err(bad(
                "stop_criterion",
                "\"mota\" also scores the learned prior (prior MOTA), but model.learn_prior = \
                 false; set learn_prior = true or use stop_criterion = \"reconstruction_loss\""
                    .into(),
            ));
        }
        if let Some(caps) = &self.max_stage_steps {
            if caps.values().contains(&0) {
                return Err(bad("max_stage_steps", "must be >= 1".into()));
            }
            if caps.values().len() > self.n_stages {
                return Err(bad(
                    "max_stage_steps",
                    format!(
                        "lists {} stages, but n_stages is {}",
                        caps.values().len(),
                        self.n_stages
                    ),
                ));
            }
        }
        check_positive("lr", self.lr)?;
        check_positive("lr_stage_divisor", self.lr_stage_divisor)?;
        check_positive("max_grad_norm", self.max_grad_norm)?;
        check_positive("kl_beta", self.kl_beta)?;
        check_positive("count_prior_decay_steps", self.count_prior_decay_steps)?;
        if self.count_prior_initial.is_nan()
            || self.count_prior_final.is_nan()
            || self.count_prior_initial < 0.0
            || self.count_prior_final < 0.0
        {
            return Err(bad(
                "count_prior_initial/final",
                "must be >= 0 (they are odds, log is taken)".into(),
            ));
        }
        if self.gradient_noise_scale.is_nan() || self.gradient_noise_scale < 0.0 {
            return Err(bad("gradient_noise_scale", "must be >= 0".into()));
        }
        if let Some([ch, cw]) = self.crop {
            if ch != model.image_size[0] || cw != model.image_size[1] {
                return Err(bad(
                    "crop",
                    format!(
                        "{ch}x{cw} must equal model.image_size {:?} (the model trains on the crops)",
                        model.image_size
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// The `[model]` and `[train]` sections of an experiment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct RunConfig {
    /// Model settings.
    #[serde(default)]
    pub model: ModelConfig,
    /// Training settings.
    #[serde(default)]
    pub train: TrainConfig,
}

impl RunConfig {
    /// Parse TOML text; `origin` names the file in errors.
    ///
    /// The text may be a whole experiment file: its `[env]` and `[eval]` tables are accepted and
    /// ignored here (see [`crate::config::ExperimentConfig`] for those).
    pub fn from_toml(text: &str, origin: &str) -> Result<Self> {
        /// A whole experiment file, keeping only the model's sections.
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct FileView {
            #[serde(default)]
            model: ModelConfig,
            #[serde(default)]
            train: TrainConfig,
            #[serde(default)]
            #[allow(dead_code)]
            env: Option<toml::Value>,
            #[serde(default)]
            #[allow(dead_code)]
            eval: Option<toml::Value>,
        }
        let view: FileView = toml::from_str(text).map_err(|e| Error::Config {
            path: origin.into(),
            msg: e.to_string(),
        })?;
        let cfg = RunConfig {
            model: view.model,
            train: view.train,
        };
        cfg.validate()?;
        Ok(cfg)
    }

    /// Serialise to TOML (the resolved copy written into run directories).
    pub fn to_toml(&self) -> Result<String> {
        toml::to_string(self).map_err(|e| Error::Invalid(format!("cannot serialise config: {e}")))
    }

    /// Validate both sections.
    pub fn validate(&self) -> Result<()> {
        self.model.validate()?;
        self.train.validate(&self.model)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reid_is_the_default_carry_and_only_other_carries_are_written() {
        let cfg = RunConfig::default();
        assert_eq!(cfg.model.eval_presence_carry, PresenceCarry::Reid);
        assert!(!cfg.to_toml().unwrap().contains("eval_presence_carry"));
        let mut dedup = cfg.clone();
        dedup.model.eval_presence_carry = PresenceCarry::Dedup;
        let text = dedup.to_toml().unwrap();
        assert!(text.contains("eval_presence_carry = \"dedup\""), "{text}");
        let back = RunConfig::from_toml(&text, "x").unwrap();
        assert_eq!(back.model.eval_presence_carry, PresenceCarry::Dedup);
    }

    #[test]
    fn presence_carries_parse_by_their_toml_names() {
        let names = ["dedup", "reid", "binary", "product"];
        let parsed: Vec<PresenceCarry> = names.iter().map(|n| n.parse().unwrap()).collect();
        use PresenceCarry::*;
        assert_eq!(parsed, vec![Dedup, Reid, Binary, Product]);
        let e = "sticky".parse::<PresenceCarry>().unwrap_err().to_string();
        assert!(e.contains("\"sticky\"") && e.contains("\"reid\""), "{e}");
    }

    #[test]
    fn defaults_validate_and_round_trip() {
        let cfg = RunConfig::default();
        cfg.validate().unwrap();
        let text = cfg.to_toml().unwrap();
        let back = RunConfig::from_toml(&text, "x").unwrap();
        assert_eq!(cfg, back);
    }

    #[test]
    fn errors_name_the_value() {
        let mut cfg = RunConfig::default();
        cfg.model.n_objects = 0;
        let e = cfg.validate().unwrap_err().to_string();
        assert!(e.contains("n_objects"), "{e}");
        let mut cfg = RunConfig::default();
        cfg.model.image_size = [8, 48];
        let e = cfg.validate().unwrap_err().to_string();
        assert!(e.contains("8x48"), "{e}");
        let e = RunConfig::from_toml("[model]\nbogus = 1\n", "f.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("bogus") && e.contains("f.toml"), "{e}");
        let mut cfg = RunConfig::default();
        cfg.train.crop = Some([60, 60]);
        assert!(cfg.validate().unwrap_err().to_string().contains("60x60"));
    }

    #[test]
    fn max_width_is_a_cap_within_hw_range_and_written_only_when_set() {
        assert!(!RunConfig::default()
            .to_toml()
            .unwrap()
            .contains("max_width"));
        let cfg = RunConfig::from_toml("[model]\nmax_width = 0.65\n", "x").unwrap();
        cfg.validate().unwrap();
        assert_eq!(cfg.model.max_width, Some(0.65));
        assert_eq!(
            RunConfig::from_toml(&cfg.to_toml().unwrap(), "x").unwrap(),
            cfg
        );
        for bad in ["0.0", "1.5", "-1.0"] {
            let text = format!("[model]\nmax_width = {bad}\n");
            let e = RunConfig::from_toml(&text, "x").unwrap_err().to_string();
            assert!(e.contains("max_width") && e.contains("(0, 1]"), "{e}");
        }
    }

    #[test]
    fn val_seed_defaults_to_zero_and_is_written_only_when_set() {
        let cfg = RunConfig::default();
        assert_eq!(cfg.train.val_seed, 0);
        // Configs saved before the key resume unchanged.
        assert!(!cfg.to_toml().unwrap().contains("val_seed"));
        let cfg = RunConfig::from_toml("[train]\nval_seed = 9\nseed = 4\n", "x").unwrap();
        assert_eq!((cfg.train.val_seed, cfg.train.seed), (9, 4));
        let text = cfg.to_toml().unwrap();
        assert!(text.contains("val_seed = 9"), "{text}");
        assert_eq!(RunConfig::from_toml(&text, "x").unwrap(), cfg);
    }

    #[test]
    fn kl_beta_defaults_to_the_elbo_and_is_written_only_when_set() {
        let cfg = RunConfig::default();
        assert_eq!(cfg.train.kl_beta, 1.0);
        // Configs saved before the key resume unchanged.
        assert!(!cfg.to_toml().unwrap().contains("kl_beta"));
        let cfg = RunConfig::from_toml("[train]\nkl_beta = 0.5\n", "x").unwrap();
        assert_eq!(cfg.train.kl_beta, 0.5);
        let text = cfg.to_toml().unwrap();
        assert!(text.contains("kl_beta = 0.5"), "{text}");
        assert_eq!(RunConfig::from_toml(&text, "x").unwrap(), cfg);
        for bad in ["0.0", "-0.5", "nan"] {
            let text = format!("[train]\nkl_beta = {bad}\n");
            let e = RunConfig::from_toml(&text, "x").unwrap_err().to_string();
            assert!(e.contains("kl_beta") && e.contains("> 0"), "{e}");
        }
    }

    #[test]
    fn streams_carry_defaults_to_binary_and_is_written_only_when_set() {
        let cfg = RunConfig::default();
        assert_eq!(cfg.train.streams_carry, PresenceCarry::Binary);
        // Configs saved before the key resume unchanged.
        assert!(!cfg.to_toml().unwrap().contains("streams_carry"));
        let e = RunConfig::from_toml("[train]\nstreams_carry = \"dedup\"\n", "x")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("streams_carry") && e.contains("streams = true"),
            "{e}"
        );
        let cfg = RunConfig::from_toml(
            "[train]\nstreams = true\nrollout_envs = 16\nstreams_carry = \"dedup\"\n",
            "x",
        )
        .unwrap();
        assert_eq!(cfg.train.streams_carry, PresenceCarry::Dedup);
        let text = cfg.to_toml().unwrap();
        assert!(text.contains("streams_carry = \"dedup\""), "{text}");
        assert_eq!(RunConfig::from_toml(&text, "x").unwrap(), cfg);
        let e = RunConfig::from_toml("[train]\nstreams_carry = \"twice\"\n", "x")
            .unwrap_err()
            .to_string();
        assert!(e.contains("twice") && e.contains("dedup"), "{e}");
    }

    #[test]
    fn stop_criterion_parses_mota_and_rejects_unknown_values() {
        assert_eq!(
            RunConfig::default().train.stop_criterion,
            StopCriterion::ReconstructionLoss
        );
        for (text, want) in [
            ("reconstruction_loss", StopCriterion::ReconstructionLoss),
            ("total_loss", StopCriterion::TotalLoss),
            ("mota", StopCriterion::Mota),
        ] {
            let cfg = RunConfig::from_toml(&format!("[train]\nstop_criterion = \"{text}\"\n"), "x")
                .unwrap();
            assert_eq!(cfg.train.stop_criterion, want);
            let saved = cfg.to_toml().unwrap();
            assert!(
                saved.contains(&format!("stop_criterion = \"{text}\"")),
                "{saved}"
            );
            assert_eq!(RunConfig::from_toml(&saved, "x").unwrap(), cfg);
        }
        for bad in ["\"MOTA\"", "\"mota_prior\"", "\"\"", "1"] {
            let text = format!("[train]\nstop_criterion = {bad}\n");
            let e = RunConfig::from_toml(&text, "f.toml")
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("f.toml") && e.contains("stop_criterion"),
                "{bad}: {e}"
            );
        }
        // The prior term needs a learned prior.
        let e = RunConfig::from_toml(
            "[model]\nlearn_prior = false\n[train]\nstop_criterion = \"mota\"\n",
            "x",
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("learn_prior") && e.contains("reconstruction_loss"),
            "{e}"
        );
    }

    #[test]
    fn val_prior_from_defaults_to_the_references_3_and_is_written_only_when_set() {
        let cfg = RunConfig::default();
        assert_eq!(cfg.train.val_prior_from, 3);
        // Configs saved before the key resume unchanged.
        assert!(!cfg.to_toml().unwrap().contains("val_prior_from"));
        let cfg = RunConfig::from_toml(
            "[train]\nstop_criterion = \"mota\"\nval_prior_from = 5\n",
            "x",
        )
        .unwrap();
        assert_eq!(cfg.train.val_prior_from, 5);
        let text = cfg.to_toml().unwrap();
        assert!(text.contains("val_prior_from = 5"), "{text}");
        assert_eq!(RunConfig::from_toml(&text, "x").unwrap(), cfg);
        for bad in [0, 8, 20] {
            let text = format!("[train]\nval_prior_from = {bad}\n");
            let e = RunConfig::from_toml(&text, "x").unwrap_err().to_string();
            assert!(e.contains("val_prior_from") && e.contains("1 to 7"), "{e}");
        }
    }

    #[test]
    fn rollout_envs_are_fixed_by_the_config_not_the_host() {
        let cfg = RunConfig::default();
        assert_eq!(cfg.train.rollout_envs, DEFAULT_ROLLOUT_ENVS);
        assert_eq!(cfg.train.rollout_env_count(), 16);
        // The default is not written, so configs saved before the key resume unchanged.
        assert!(!cfg.to_toml().unwrap().contains("rollout_envs"));
        let cfg =
            RunConfig::from_toml("[train]\nrollout_envs = 40\nbatch_size = 64\n", "x").unwrap();
        assert_eq!(cfg.train.rollout_env_count(), 40);
        let text = cfg.to_toml().unwrap();
        assert!(text.contains("rollout_envs = 40"), "{text}");
        assert_eq!(RunConfig::from_toml(&text, "x").unwrap(), cfg);
        // At most one env per clip of a batch.
        let cfg =
            RunConfig::from_toml("[train]\nrollout_envs = 40\nbatch_size = 8\n", "x").unwrap();
        assert_eq!(cfg.train.rollout_env_count(), 8);
        let mut cfg = RunConfig::default();
        cfg.train.rollout_envs = 0;
        let e = cfg.validate().unwrap_err().to_string();
        assert!(e.contains("rollout_envs"), "{e}");
    }

    #[test]
    fn render_mode_toml() {
        let cfg = RunConfig::from_toml(
            "[model]\nrender = { mode = \"softmax\", temperature = 0.5 }\n",
            "x",
        )
        .unwrap();
        assert_eq!(
            cfg.model.render,
            RenderModeConfig::Softmax { temperature: 0.5 }
        );
        assert_eq!(ModelConfig::default().grid_size([195, 160]), [17, 14]);
    }

    #[test]
    fn discovery_cell_default_six_and_refused() {
        let cfg = RunConfig::default();
        assert_eq!(cfg.model.discovery_cell, 12);
        // The default is not written, so saved configs stay as they were.
        assert!(!cfg.to_toml().unwrap().contains("discovery_cell"));
        let cfg = RunConfig::from_toml("[model]\ndiscovery_cell = 6\n", "x").unwrap();
        assert_eq!(cfg.model.grid_size([195, 160]), [33, 27]);
        assert_eq!(cfg.model.grid_size([48, 48]), [8, 8]);
        assert!(cfg.to_toml().unwrap().contains("discovery_cell = 6"));
        cfg.validate().unwrap();
        let mut bad_cell = RunConfig::default();
        bad_cell.model.discovery_cell = 8;
        let e = bad_cell.validate().unwrap_err().to_string();
        assert!(
            e.contains("discovery_cell") && e.contains("12") && e.contains("6"),
            "{e}"
        );
    }
}
