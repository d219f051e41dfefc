//! The pretraining recipe as data: a TOML file of phases, seeds, choice rules and finishing
//! branches ([`Recipe`]), laid over an env's experiment file ([`Recipe::experiment`]).
//!
//! One recipe serves every env: it may not set the paper's per-experiment hyperparameters
//! (image size, anchor, object size, K, the training crop), which stay in `envs/ID.toml`.
//! Unknown keys are errors naming the key; every default is documented on its field.

use serde::{Deserialize, Serialize};

use crate::config::ExperimentConfig;
use crate::error::{Error, Result};
use crate::model::config::{ModelConfig, TrainConfig};

/// The default recipe (`recipes/default.toml`), embedded in the binary.
pub const DEFAULT_RECIPE: &str = include_str!("../../recipes/default.toml");

/// Where [`DEFAULT_RECIPE`] comes from, for messages.
pub const DEFAULT_ORIGIN: &str = "recipes/default.toml (embedded)";

/// `[model]` keys a recipe may not set: the paper's per-experiment hyperparameters (reference §1),
/// which belong to the env's experiment file.
pub const PAPER_MODEL_KEYS: &[&str] = &[
    "image_size",
    "anchor",
    "object_size",
    "n_objects",
    "n_objects_eval",
];

/// `[train]` keys a recipe may not set, for the same reason (the crop is the model's image size).
pub const PAPER_TRAIN_KEYS: &[&str] = &["crop"];

/// A whole recipe file.
///
/// ```toml
/// budget_minutes = 28.0
/// [train]                      # laid over every phase's [train]
/// batch_size = 64
/// [seeds]
/// seeds = [301, 305]
/// steps = 2000
/// [[phase]]
/// name = "phase1"
/// steps = 2671
/// [[tail]]
/// name = "h"
/// steps = 30
/// keep_every = 6
/// [product]
/// rule = "auto"
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recipe {
    /// The device-time budget in minutes when `--budget` is not given; `None` (the default):
    /// no deadline, every phase runs its `steps`.
    #[serde(default)]
    pub budget_minutes: Option<f64>,
    /// `[model]` keys laid over the env's experiment file in every phase. Default: none.
    #[serde(default)]
    pub model: toml::Table,
    /// `[train]` keys laid over the env's experiment file in every phase. Default: none.
    #[serde(default)]
    pub train: toml::Table,
    /// The seeds trained side by side from scratch and the choice among them.
    pub seeds: SeedsSection,
    /// Knobs the tool derives from the model's own statistics.
    #[serde(default)]
    pub derive: DeriveSection,
    /// Validation clips for the label-using rule (`mota`, synthetic envs only).
    #[serde(default)]
    pub mota: MotaSection,
    /// The chosen seed's phases, in order; each starts from the previous one's last checkpoint
    /// (the first from the chosen seed's).
    #[serde(default, rename = "phase")]
    pub phases: Vec<Phase>,
    /// Finishing branches, trained side by side from the last phase's end; their checkpoints
    /// (kept ones and ends) are the product's candidates. None: the last phase's end is the
    /// only candidate.
    #[serde(default, rename = "tail")]
    pub tails: Vec<Tail>,
    /// The rule that picks the product among the candidates.
    #[serde(default)]
    pub product: ProductSection,
}

/// `[seeds]`: several training seeds from scratch, side by side, then one chosen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedsSection {
    /// Training seeds (`[train] seed`), trained side by side (one thread each). At least one.
    pub seeds: Vec<u64>,
    /// Steps every seed trains before the choice (at least 1).
    pub steps: u64,
    /// How the seed is chosen. Default `auto`.
    #[serde(default)]
    pub rule: Rule,
    /// Sets aside a seed whose validation box width exceeds this many times the narrowest seed's
    /// (a model that boxes two objects as one proposes wider boxes than its peers). 0 turns it
    /// off; else it must be > 1. Default 1.5.
    #[serde(default = "default_width_outlier")]
    pub width_outlier: f64,
}

fn default_width_outlier() -> f64 {
    1.5
}

/// `[derive]`: knobs derived from the model's own statistics at the seed choice, logged in the
/// report.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DeriveSection {
    /// After the choice, cap box widths (`[model] max_width`) at this many times the chosen
    /// seed's validation box width (presence-weighted mean), in anchor units; no cap where that
    /// is at least `max_hw`. 0 turns it off. Default 1.75.
    pub max_width: f64,
}

impl Default for DeriveSection {
    fn default() -> Self {
        Self { max_width: 1.75 }
    }
}

/// `[mota]`: the labelled validation clips of the `mota` rule (synthetic envs only), drawn from
/// the validation split, apart from `silot eval`'s test clips.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MotaSection {
    /// Clips scored per checkpoint. Default 16.
    pub clips: usize,
    /// Seed of the clips. Default 131011.
    pub seed: u64,
}

impl Default for MotaSection {
    fn default() -> Self {
        Self {
            clips: 16,
            seed: 131_011,
        }
    }
}

/// A choice rule: which checkpoint wins (seeds at the choice, candidates for the product).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// `reconstruction` on Atari envs, `mota` on the synthetic ones: the reference's stopping
    /// criteria (reference §1). The default.
    #[default]
    Auto,
    /// Lowest validation reconstruction loss (label-free).
    Reconstruction,
    /// Lowest validation total loss, the negative ELBO (label-free).
    Total,
    /// Highest validation MOTA on labelled clips ([`MotaSection`]); synthetic envs only: on
    /// Atari the labels are ConnComp's, and no choice may read them.
    Mota,
}

impl Rule {
    /// The rule `Auto` stands for on an env (`atari`: whether it is an Atari game).
    pub fn resolve(self, atari: bool) -> Self {
        match self {
            Rule::Auto if atari => Rule::Reconstruction,
            Rule::Auto => Rule::Mota,
            r => r,
        }
    }

    /// Its name in recipes and reports.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Auto => "auto",
            Rule::Reconstruction => "reconstruction",
            Rule::Total => "total",
            Rule::Mota => "mota",
        }
    }

    /// Whether the rule reads ground truth.
    pub fn uses_labels(self) -> bool {
        self == Rule::Mota
    }
}

/// `[[phase]]`: one stretch of the chosen seed's training under its own config.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Phase {
    /// Name (lower-case letters, digits, `_`; unique): the run directory `RUN/phases/NAME`.
    pub name: String,
    /// Steps this phase trains. Required unless `fill`; with `fill`, a cap (and the length when
    /// there is no budget).
    #[serde(default)]
    pub steps: Option<u64>,
    /// Train until the budget's deadline, less the time the later phases, tails and scoring are
    /// estimated to take (from the step rate measured so far). At most one phase. Default false.
    #[serde(default)]
    pub fill: bool,
    /// Start with a fresh Adam (zero moments) instead of the previous phase's. Default false.
    #[serde(default)]
    pub fresh_adam: bool,
    /// `[model]` keys laid over the recipe's for this phase (only training-only keys may
    /// differ from the previous phase's: `discovery_dropout`, `kl_pres_weight_gradient`,
    /// `priors`; and the frame geometry, `image_size`, `n_objects`, `n_objects_eval`).
    #[serde(default)]
    pub model: toml::Table,
    /// `[train]` keys laid over the recipe's for this phase.
    #[serde(default)]
    pub train: toml::Table,
}

/// `[[tail]]`: a finishing branch from the last phase's end; its checkpoints are candidates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tail {
    /// Name (as a phase's): the run directory `RUN/tails/NAME`.
    pub name: String,
    /// Steps it trains (at least 1).
    pub steps: u64,
    /// Keep a checkpoint every this many steps as a candidate too. Default: only the end.
    #[serde(default)]
    pub keep_every: Option<u64>,
    /// Start with a fresh Adam. Default false.
    #[serde(default)]
    pub fresh_adam: bool,
    /// `[model]` keys laid over the recipe's and the last phase's.
    #[serde(default)]
    pub model: toml::Table,
    /// `[train]` keys laid over the recipe's and the last phase's.
    #[serde(default)]
    pub train: toml::Table,
}

/// `[product]`: how the product is picked among the candidates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct ProductSection {
    /// The rule. Default `auto`.
    pub rule: Rule,
}

/// Lays `top` over `under`: tables merged key by key, any other value replacing.
pub fn lay_over(under: &mut toml::Table, top: &toml::Table) {
    for (k, v) in top {
        match (under.get_mut(k), v) {
            (Some(toml::Value::Table(u)), toml::Value::Table(t)) => lay_over(u, t),
            (_, v) => {
                under.insert(k.clone(), v.clone());
            }
        }
    }
}

impl Recipe {
    /// Parse and check recipe text; `origin` names the file in errors.
    pub fn from_toml(text: &str, origin: &str) -> Result<Self> {
        let recipe: Recipe = toml::from_str(text).map_err(|e| Error::Config {
            path: origin.into(),
            msg: format!(
                "{}\n(recipe keys: budget_minutes, [model], [train], [seeds], [derive], [mota], \
                 [[phase]], [[tail]], [product]; see recipes/default.toml)",
                e.to_string().trim_end()
            ),
        })?;
        recipe.validate().map_err(|msg| Error::Config {
            path: origin.into(),
            msg,
        })?;
        Ok(recipe)
    }

    /// The embedded default recipe.
    pub fn default_recipe() -> Result<Self> {
        Self::from_toml(DEFAULT_RECIPE, DEFAULT_ORIGIN)
    }

    /// Load `path`, or the default recipe for `None`.
    pub fn load(path: Option<&std::path::Path>) -> Result<Self> {
        match path {
            None => Self::default_recipe(),
            Some(p) => {
                let text = std::fs::read_to_string(p).map_err(|e| Error::io(p, e))?;
                Self::from_toml(&text, &p.display().to_string())
            }
        }
    }

    /// Every check that needs no env; the message names the key and the fix.
    fn validate(&self) -> std::result::Result<(), String> {
        if let Some(b) = self.budget_minutes {
            if !(b.is_finite() && b > 0.0) {
                return Err(format!(
                    "`budget_minutes = {b}`: must be a positive number of minutes (or leave it out: no deadline)"
                ));
            }
        }
        let s = &self.seeds;
        if s.seeds.is_empty() {
            return Err("`[seeds] seeds = []`: list at least one training seed".into());
        }
        if let Some(d) = s
            .seeds
            .iter()
            .enumerate()
            .find_map(|(i, x)| s.seeds[..i].contains(x).then_some(x))
        {
            return Err(format!(
                "`[seeds] seeds`: seed {d} is listed twice; list each seed once"
            ));
        }
        if s.steps == 0 {
            return Err(
                "`[seeds] steps = 0`: the seeds must train at least 1 step before the choice"
                    .into(),
            );
        }
        if !(s.width_outlier == 0.0 || (s.width_outlier.is_finite() && s.width_outlier > 1.0)) {
            return Err(format!(
                "`[seeds] width_outlier = {}`: must be 0 (off) or a factor > 1",
                s.width_outlier
            ));
        }
        let f = self.derive.max_width;
        if !(f.is_finite() && f >= 0.0) {
            return Err(format!(
                "`[derive] max_width = {f}`: must be 0 (off) or a positive factor"
            ));
        }
        if self.mota.clips == 0 {
            return Err("`[mota] clips = 0`: score at least 1 clip".into());
        }
        check_overrides("", &self.model, &self.train)?;
        let mut names: Vec<String> = Vec::new();
        let mut check_name = |kind: &str, name: &str| -> std::result::Result<(), String> {
            if name.is_empty()
                || !name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            {
                return Err(format!(
                    "[[{kind}]] name `{name}`: use lower-case letters, digits and `_` (it names a directory)"
                ));
            }
            if names.iter().any(|n| n == name) {
                return Err(format!(
                    "[[{kind}]] name `{name}` is used twice; give every phase and tail its own name"
                ));
            }
            names.push(name.to_string());
            Ok(())
        };
        for p in &self.phases {
            check_name("phase", &p.name)?;
            let at = format!("[[phase]] `{}`", p.name);
            match (p.steps, p.fill) {
                (None, false) => {
                    return Err(format!(
                        "{at}: no `steps`: give the steps it trains, or `fill = true` to train to the budget's deadline"
                    ))
                }
                (Some(0), _) => return Err(format!("{at}: `steps = 0`: train at least 1 step")),
                _ => {}
            }
            check_overrides(&at, &p.model, &p.train)?;
        }
        let fills: Vec<&str> = self
            .phases
            .iter()
            .filter(|p| p.fill)
            .map(|p| p.name.as_str())
            .collect();
        if fills.len() > 1 {
            return Err(format!(
                "phases {} all have `fill = true`: at most one phase fills the budget",
                fills.join(", ")
            ));
        }
        for t in &self.tails {
            check_name("tail", &t.name)?;
            let at = format!("[[tail]] `{}`", t.name);
            if t.steps == 0 {
                return Err(format!("{at}: `steps = 0`: train at least 1 step"));
            }
            if t.keep_every == Some(0) {
                return Err(format!(
                    "{at}: `keep_every = 0`: keep every N >= 1 steps, or leave it out (the end only)"
                ));
            }
            check_overrides(&at, &t.model, &t.train)?;
        }
        Ok(())
    }

    /// The phase that fills the budget, if any.
    pub fn fill_phase(&self) -> Option<&Phase> {
        self.phases.iter().find(|p| p.fill)
    }

    /// The rules checked against an env (`atari`: an Atari game): `mota` reads labels, which
    /// Atari choices may not.
    pub fn check_env(&self, atari: bool, env: &str) -> Result<()> {
        for (what, rule) in [
            ("[seeds] rule", self.seeds.rule),
            ("[product] rule", self.product.rule),
        ] {
            if atari && rule == Rule::Mota {
                return Err(Error::Invalid(format!(
                    "{what} = \"mota\" reads ground truth, and on the Atari env `{env}` no choice may \
                     (its labels are ConnComp's, kept for `silot eval`): use \"reconstruction\" or \"auto\""
                )));
            }
        }
        Ok(())
    }

    /// The experiment a stage trains under: `base` (the env's experiment file) with the
    /// recipe's `[model]`/`[train]`, then each of `layers` (a phase's or tail's, in order), then
    /// `extra_model` (derived knobs) laid over it.
    pub fn experiment(
        &self,
        base: &ExperimentConfig,
        layers: &[(&toml::Table, &toml::Table)],
        extra_model: &toml::Table,
    ) -> Result<ExperimentConfig> {
        let text = base.to_toml()?;
        let mut table: toml::Table = text
            .parse()
            .map_err(|e| Error::Invalid(format!("cannot re-read the experiment: {e}")))?;
        let mut lay = |section: &str, t: &toml::Table| {
            if t.is_empty() {
                return;
            }
            let mut top = toml::Table::new();
            top.insert(section.into(), toml::Value::Table(t.clone()));
            lay_over(&mut table, &top);
        };
        lay("model", &self.model);
        lay("train", &self.train);
        for (m, t) in layers {
            lay("model", m);
            lay("train", t);
        }
        lay("model", extra_model);
        one_env_per_stream(&mut table);
        let merged = toml::to_string(&table)
            .map_err(|e| Error::Invalid(format!("cannot write the merged experiment: {e}")))?;
        ExperimentConfig::from_toml(&merged, &format!("env `{}` under the recipe", base.env.id))
    }

    /// Every stage's experiment on `base` (the seeds', each phase's, each tail's over the last
    /// phase), checked as its run will check it, so that a recipe that cannot run on this env
    /// fails before any training rather than after its first stages. The knobs derived during
    /// the run (e.g. `max_width`) are not known yet and not checked.
    pub fn check_stages(&self, base: &ExperimentConfig, env: &str) -> Result<()> {
        let none = toml::Table::new();
        let mut stages: Vec<(String, Vec<(&toml::Table, &toml::Table)>)> =
            vec![("the seeds' stage".into(), Vec::new())];
        for p in &self.phases {
            stages.push((format!("phase `{}`", p.name), vec![(&p.model, &p.train)]));
        }
        let last = self.phases.last().map(|p| (&p.model, &p.train));
        for t in &self.tails {
            let layers = last.into_iter().chain([(&t.model, &t.train)]).collect();
            stages.push((format!("tail `{}`", t.name), layers));
        }
        for (stage, layers) in stages {
            self.experiment(base, &layers, &none)
                .and_then(|exp| exp.run_config(env))
                .map_err(|e| {
                    Error::Invalid(format!(
                        "the recipe's {stage} cannot run on env `{env}`: {e}"
                    ))
                })?;
        }
        Ok(())
    }
}

/// A stage that trains on streams rolls out one env per clip (`train.streams` needs
/// `rollout_envs >= batch_size`, and more are never used): its `rollout_envs` is set to its
/// batch size, whatever the env's experiment file or the recipe say, so that one recipe fits
/// every env's batch size.
fn one_env_per_stream(table: &mut toml::Table) {
    let Some(toml::Value::Table(train)) = table.get_mut("train") else {
        return;
    };
    if train.get("streams").and_then(toml::Value::as_bool) != Some(true) {
        return;
    }
    let batch = train
        .get("batch_size")
        .and_then(toml::Value::as_integer)
        .unwrap_or(TrainConfig::default().batch_size as i64);
    train.insert("rollout_envs".into(), toml::Value::Integer(batch));
}

/// The recipe's `[model]` / `[train]` overrides at `at`: known keys of valid types, none of the
/// paper's per-experiment hyperparameters.
fn check_overrides(
    at: &str,
    model: &toml::Table,
    train: &toml::Table,
) -> std::result::Result<(), String> {
    let at = if at.is_empty() {
        String::new()
    } else {
        format!("{at}: ")
    };
    for (section, keys, table) in [
        ("model", PAPER_MODEL_KEYS, model),
        ("train", PAPER_TRAIN_KEYS, train),
    ] {
        if let Some(k) = keys.iter().find(|k| table.contains_key(**k)) {
            return Err(format!(
                "{at}`[{section}] {k}` is one of the paper's per-experiment hyperparameters: set it in \
                 the env's experiment file (envs/ID.toml), not in a recipe every env shares"
            ));
        }
        if section == "train" && table.contains_key("seed") {
            return Err(format!(
                "{at}`[train] seed`: the training seeds are `[seeds] seeds`"
            ));
        }
    }
    toml::Value::Table(model.clone())
        .try_into::<ModelConfig>()
        .map_err(|e| format!("{at}[model]: {}", e.to_string().trim_end()))?;
    toml::Value::Table(train.clone())
        .try_into::<TrainConfig>()
        .map_err(|e| format!("{at}[train]: {}", e.to_string().trim_end()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = "[seeds]\nseeds = [1, 2]\nsteps = 4\n";

    fn err(text: &str) -> String {
        Recipe::from_toml(text, "r.toml").unwrap_err().to_string()
    }

    /// The envs with a model section and their experiments (the Atari ones only in a build
    /// with Atari).
    fn envs_with_a_model() -> impl Iterator<Item = (&'static str, ExperimentConfig)> {
        [
            "space_invaders",
            "asteroids",
            "smoke",
            "scattered_mnist",
            "scattered_shapes",
        ]
        .into_iter()
        .filter_map(|env| Some((env, crate::config::load_experiment(env).ok()?)))
    }

    #[test]
    fn the_default_recipe_parses_and_fits_every_env_with_a_model() {
        let r = Recipe::default_recipe().unwrap();
        assert!(r.seeds.seeds.len() >= 2);
        assert_eq!(r.fill_phase().map(|p| p.name.as_str()), Some("phase2"));
        for (env, base) in envs_with_a_model() {
            let last = r.phases.last().unwrap();
            let tail = &r.tails[0];
            let exp = r
                .experiment(
                    &base,
                    &[(&last.model, &last.train), (&tail.model, &tail.train)],
                    &toml::Table::new(),
                )
                .unwrap();
            let run = exp.run_config(env).unwrap();
            // The paper's hyperparameters are the env's own.
            assert_eq!(
                run.model.anchor,
                base.model.as_ref().unwrap().anchor,
                "{env}"
            );
            assert_eq!(run.train.batch_size, 64);
        }
    }

    #[test]
    fn minimal_recipe_takes_the_documented_defaults() {
        let r = Recipe::from_toml(MINIMAL, "r.toml").unwrap();
        assert_eq!(r.seeds.rule, Rule::Auto);
        assert_eq!(r.seeds.width_outlier, 1.5);
        assert_eq!(r.derive.max_width, 1.75);
        assert_eq!(r.product.rule, Rule::Auto);
        assert_eq!(r.mota, MotaSection::default());
        assert!(r.phases.is_empty() && r.tails.is_empty() && r.budget_minutes.is_none());
    }

    #[test]
    fn unknown_keys_are_named() {
        let e = err(&format!("budget = 2\n{MINIMAL}"));
        assert!(e.contains("unknown field `budget`"), "{e}");
        assert!(e.contains("recipe keys: budget_minutes"), "{e}");
        let e = err("[seeds]\nseeds = [1]\nsteps = 4\nstep = 3\n");
        assert!(e.contains("unknown field `step`"), "{e}");
        let e = err(&format!(
            "{MINIMAL}[[phase]]\nname = \"a\"\nsteps = 1\nfil = true\n"
        ));
        assert!(e.contains("unknown field `fil`"), "{e}");
        // Config keys are checked too, with the phase named.
        let e = err(&format!(
            "{MINIMAL}[[phase]]\nname = \"a\"\nsteps = 1\n[phase.train]\nbatchsize = 3\n"
        ));
        assert!(
            e.contains("[[phase]] `a`: [train]") && e.contains("batchsize"),
            "{e}"
        );
        let e = err(&format!("{MINIMAL}[model]\nmax_widht = 0.5\n"));
        assert!(e.contains("[model]") && e.contains("max_widht"), "{e}");
    }

    #[test]
    fn bad_values_are_named_with_the_fix() {
        let cases = [
            ("[seeds]\nseeds = []\nsteps = 4\n", "list at least one"),
            ("[seeds]\nseeds = [3, 3]\nsteps = 4\n", "seed 3 is listed twice"),
            ("[seeds]\nseeds = [1]\nsteps = 0\n", "at least 1 step"),
            ("[seeds]\nseeds = [1]\nsteps = 2\nwidth_outlier = 0.9\n", "factor > 1"),
            ("[seeds]\nseeds = [1]\nsteps = 2\nrule = \"best\"\n", "unknown variant `best`"),
            ("budget_minutes = -1\n[seeds]\nseeds = [1]\nsteps = 2\n", "positive number of minutes"),
            (&format!("{MINIMAL}[derive]\nmax_width = -1.0\n"), "positive factor"),
            (&format!("{MINIMAL}[[phase]]\nname = \"a\"\n"), "`fill = true`"),
            (&format!("{MINIMAL}[[phase]]\nname = \"A b\"\nsteps = 1\n"), "lower-case"),
            (
                &format!("{MINIMAL}[[phase]]\nname = \"a\"\nsteps = 1\n[[tail]]\nname = \"a\"\nsteps = 1\n"),
                "used twice",
            ),
            (
                &format!("{MINIMAL}[[phase]]\nname = \"a\"\nfill = true\n[[phase]]\nname = \"b\"\nfill = true\n"),
                "at most one phase fills",
            ),
            (&format!("{MINIMAL}[[tail]]\nname = \"t\"\nsteps = 3\nkeep_every = 0\n"), "keep_every = 0"),
            (&format!("{MINIMAL}[model]\nanchor = [24.0, 24.0]\n"), "per-experiment hyperparameters"),
            (&format!("{MINIMAL}[train]\ncrop = [72, 72]\n"), "per-experiment hyperparameters"),
            (&format!("{MINIMAL}[train]\nseed = 4\n"), "`[seeds] seeds`"),
            (&format!("{MINIMAL}[train]\nbatch_size = \"big\"\n"), "[train]"),
        ];
        for (text, want) in cases {
            let e = err(text);
            assert!(e.contains(want), "{text:?}: {e}");
            assert!(e.contains("r.toml"), "{e}");
        }
    }

    #[test]
    fn mota_is_refused_on_atari_only() {
        let r = Recipe::from_toml(&format!("{MINIMAL}[product]\nrule = \"mota\"\n"), "r").unwrap();
        assert!(r.check_env(false, "smoke").is_ok());
        let e = r.check_env(true, "asteroids").unwrap_err().to_string();
        assert!(
            e.contains("[product] rule") && e.contains("asteroids"),
            "{e}"
        );
        assert_eq!(Rule::Auto.resolve(true), Rule::Reconstruction);
        assert_eq!(Rule::Auto.resolve(false), Rule::Mota);
        assert_eq!(Rule::Total.resolve(false), Rule::Total);
    }

    #[test]
    fn layers_are_laid_over_in_order() {
        let r = Recipe::from_toml(
            &format!("{MINIMAL}[train]\nlr = 0.5\nbatch_size = 2\n"),
            "r",
        )
        .unwrap();
        let base = crate::config::load_experiment("smoke").unwrap();
        let mut m = toml::Table::new();
        m.insert(
            "kl_pres_weight_gradient".into(),
            toml::Value::Table({
                let mut t = toml::Table::new();
                t.insert("propagation".into(), toml::Value::Float(0.5));
                t
            }),
        );
        let mut t = toml::Table::new();
        t.insert("lr".into(), toml::Value::Float(0.25));
        let mut derived = toml::Table::new();
        derived.insert("max_width".into(), toml::Value::Float(0.8));
        let run = r
            .experiment(&base, &[(&m, &t)], &derived)
            .unwrap()
            .run_config("x")
            .unwrap();
        assert_eq!(run.train.lr, 0.25);
        assert_eq!(run.train.batch_size, 2);
        assert_eq!(run.train.n_frames, 4); // the env's own
        assert_eq!(run.model.kl_pres_weight_gradient.propagation, 0.5);
        assert_eq!(run.model.max_width, Some(0.8));
    }

    /// A recipe with a streams phase (and a tail inheriting it) that sets no `rollout_envs`.
    fn streams_recipe(extra_train: &str) -> Recipe {
        Recipe::from_toml(
            &format!(
                "{MINIMAL}[[phase]]\nname = \"streams\"\nsteps = 2\n[phase.train]\nstreams = true\n\
                 {extra_train}[[tail]]\nname = \"t\"\nsteps = 1\n"
            ),
            "r",
        )
        .unwrap()
    }

    #[test]
    fn a_streams_stage_rolls_out_one_env_per_clip_of_its_batch() {
        // The same recipe over envs of different batch sizes (smoke 4, Scattered MNIST 1-12's
        // condition 64), and over a recipe that sets too few envs for the batch.
        let mnist =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("conditions/mnist_1_12.toml");
        for (recipe, env, batch) in [
            (streams_recipe(""), "smoke", 4),
            (streams_recipe(""), mnist.to_str().unwrap(), 64),
            (
                streams_recipe("rollout_envs = 4\n"),
                mnist.to_str().unwrap(),
                64,
            ),
        ] {
            let base = crate::config::load_experiment(env).unwrap();
            let p = &recipe.phases[0];
            let none = toml::Table::new();
            let run = recipe
                .experiment(&base, &[(&p.model, &p.train)], &none)
                .unwrap()
                .run_config("x")
                .unwrap();
            assert!(run.train.streams);
            assert_eq!(run.train.batch_size, batch, "{env}");
            assert_eq!(run.train.rollout_envs, batch, "{env}");
            recipe.check_stages(&base, env).unwrap();
            // A stage without streams keeps the env's own count.
            let seeds = recipe
                .experiment(&base, &[], &none)
                .unwrap()
                .run_config("x")
                .unwrap();
            assert_eq!(
                seeds.train.rollout_envs,
                base.run_config("x").unwrap().train.rollout_envs
            );
        }
    }

    #[test]
    fn a_stage_that_cannot_run_is_refused_before_any_training() {
        // Values each stage's run would refuse (a zero evaluation interval in a tail, a zero
        // logging interval in a phase) are found by check_stages, the stage named.
        let base = crate::config::load_experiment("smoke").unwrap();
        let r = Recipe::from_toml(
            &format!(
                "{MINIMAL}[[phase]]\nname = \"a\"\nsteps = 1\n[[tail]]\nname = \"t\"\nsteps = 1\n\
                 [tail.train]\neval_every = 0\n"
            ),
            "r",
        )
        .unwrap();
        let e = r.check_stages(&base, "smoke").unwrap_err().to_string();
        assert!(e.contains("tail `t`") && e.contains("eval_every"), "{e}");
        let r = Recipe::from_toml(
            &format!("{MINIMAL}[[phase]]\nname = \"a\"\nsteps = 1\n[phase.train]\nlog_every = 0\n"),
            "r",
        )
        .unwrap();
        let e = r.check_stages(&base, "smoke").unwrap_err().to_string();
        assert!(e.contains("phase `a`") && e.contains("log_every"), "{e}");
        // The shipped recipes fit every env with a model.
        for recipe in [
            Recipe::default_recipe().unwrap(),
            Recipe::load(Some(std::path::Path::new(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/recipes/smoke.toml"
            ))))
            .unwrap(),
        ] {
            for (env, base) in envs_with_a_model() {
                recipe.check_stages(&base, env).unwrap();
            }
        }
    }
}
