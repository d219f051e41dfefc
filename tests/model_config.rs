//! The model/train TOML sections of every experiment parse and validate (their text is handed to
//! the lead for `envs/*.toml`), and `envs/smoke.toml` is valid.

use silot::model::config::{RunConfig, StopCriterion};

const SCATTERED_MNIST: &str = r#"
[model]
image_size = [48, 48]
anchor = [48.0, 48.0]
object_size = [14, 14]
n_objects = 16
glimpse_encoder = [256, 128]
sprite_decoder = [128, 256]
colour_logit_scale = 2.0
colour_logit_bias = 0.0
alpha_logit_scale = 0.1
alpha_logit_bias = 5.0
attention_std = 0.1
independent_prop = true
eval_noisy = true

[train]
batch_size = 16
n_frames = 8
n_curric = 40000
patience = 30000
patience_start = 160000
eval_every = 5000
n_val = 128
"#;

const SCATTERED_SHAPES: &str = r#"
[model]
image_size = [96, 96]
anchor = [48.0, 48.0]
object_size = [14, 14]
n_objects = 36
glimpse_encoder = [256, 128]
sprite_decoder = [128, 256]
colour_logit_scale = 1.0
colour_logit_bias = 0.0
alpha_logit_scale = 1.0
alpha_logit_bias = 3.0
attention_std = 0.15
independent_prop = false
eval_noisy = false

[train]
batch_size = 8
n_frames = 8
n_curric = 40000
patience = 30000
patience_start = 160000
eval_every = 5000
n_val = 128
"#;

const SPACE_INVADERS: &str = r#"
[model]
image_size = [72, 72]
anchor = [24.0, 24.0]
object_size = [21, 21]
n_objects = 36
n_objects_eval = 128
glimpse_encoder = [512, 256]
sprite_decoder = [256, 512]
colour_logit_scale = 2.0
colour_logit_bias = 0.0
alpha_logit_scale = 0.1
alpha_logit_bias = 5.0
attention_std = 0.1
independent_prop = true
eval_noisy = false

[train]
batch_size = 16
n_frames = 8
crop = [72, 72]
n_curric = 20000
patience = 20000
patience_start = 100000
eval_every = 5000
n_val = 128
stop_criterion = "reconstruction_loss"
"#;

const ASTEROIDS: &str = r#"
[model]
image_size = [72, 72]
anchor = [30.0, 30.0]
object_size = [21, 21]
n_objects = 36
n_objects_eval = 128
glimpse_encoder = [512, 256]
sprite_decoder = [256, 512]
colour_logit_scale = 2.0
colour_logit_bias = 0.0
alpha_logit_scale = 0.1
alpha_logit_bias = 5.0
attention_std = 0.1
independent_prop = true
eval_noisy = false

[train]
batch_size = 16
n_frames = 8
crop = [72, 72]
n_curric = 20000
patience = 20000
patience_start = 100000
eval_every = 5000
n_val = 128
stop_criterion = "reconstruction_loss"
"#;

#[test]
fn experiment_sections_validate() {
    for (name, text) in [
        ("scattered_mnist", SCATTERED_MNIST),
        ("scattered_shapes", SCATTERED_SHAPES),
        ("space_invaders", SPACE_INVADERS),
        ("asteroids", ASTEROIDS),
    ] {
        let cfg = RunConfig::from_toml(text, name).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(cfg.model.n_what, 64, "{name}");
        assert_eq!(cfg.train.lr, 1e-4, "{name}");
        if name == "space_invaders" {
            assert_eq!(cfg.model.eval_objects(), 128);
            assert_eq!(cfg.train.stop_criterion, StopCriterion::ReconstructionLoss);
        }
    }
}

#[test]
fn smoke_config_is_valid() {
    let cfg = crate::model_util::smoke_cfg();
    assert_eq!(cfg.model.image_size, [24, 24]);
    assert_eq!(cfg.model.n_objects, 4);
}
