//! The SILOT model (Crawford & Pineau, AAAI 2020, "Exploiting Spatial Invariance for Scalable
//! Unsupervised Object Tracking"), following the authors' code as described in
//! `shared/design/silot-reference.md` (where code and paper differ, the code is followed and the
//! difference is noted where it is implemented).
//!
//! Per timestep ([`Silot::step`]): propagation ([`propagation`], learned prior [`prior`]) →
//! discovery ([`attention`], [`discovery`]) → selection ([`selection`]) → rendering
//! ([`decoder`]) → loss ([`loss`], [`count_prior`]). Object geometry lives in one convention
//! (anchor units, centre + size; [`objects`]); [`objects::coords_to_pixel_space`] is the one
//! conversion to pixel boxes.

pub mod attention;
pub mod config;
pub mod count_prior;
pub mod decoder;
pub mod discovery;
pub mod latent;
pub mod loss;
pub mod objects;
pub mod prior;
pub mod propagation;
pub mod reid;
pub mod selection;
pub mod silot;

pub use config::{ModelConfig, PresenceCarry, RunConfig, TrainConfig};
pub use latent::Shard;
pub use loss::{LossBreakdown, LossTerms};
pub use objects::{coords_to_pixel_space, Objects, PixelBox};
pub use silot::{CarriedState, ClipOutput, Silot, StepCtx, StepOutput};
