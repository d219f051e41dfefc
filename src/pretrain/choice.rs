//! The recipe's choices as pure functions of what validation measured: which seed goes on
//! ([`choose_seed`]), the box-width cap derived from the chosen seed ([`derive_max_width`]), and
//! which candidate is the product ([`choose_product`]). Each returns the reasons it gives in
//! `report.json`.

use serde::{Deserialize, Serialize};

use super::recipe::Rule;
use crate::error::{Error, Result};

/// What validation measured on one checkpoint (the fixed validation clips of the run).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Score {
    /// Validation reconstruction loss.
    pub reconstruction: f64,
    /// Validation total loss (negative ELBO).
    pub total: f64,
    /// Presence-weighted mean box width on the validation clips, pixels.
    pub box_width_px: f64,
    /// Objects of presence above 0.5 per validation frame.
    pub objects_per_frame: f64,
    /// Overlapping pairs per full frame (objects held twice), where measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_frame_pairs_per_frame: Option<f64>,
    /// MOTA on the labelled validation clips (only under the `mota` rule; synthetic envs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mota: Option<f64>,
}

impl Score {
    /// The value `rule` (resolved, not `Auto`) minimises.
    pub fn key(&self, rule: Rule) -> Result<f64> {
        match rule {
            Rule::Reconstruction => Ok(self.reconstruction),
            Rule::Total => Ok(self.total),
            Rule::Mota => self.mota.map(|m| -m).ok_or_else(|| {
                Error::Invalid("the mota rule needs a MOTA score, and this one has none".into())
            }),
            Rule::Auto => Err(Error::Invalid(
                "the `auto` rule must be resolved against the env first".into(),
            )),
        }
    }

    /// The rule's value as reported (MOTA as is, losses as is).
    fn shown(&self, rule: Rule) -> String {
        match rule {
            Rule::Mota => format!("validation MOTA {:.4}", self.mota.unwrap_or(f64::NAN)),
            Rule::Total => format!("validation total loss {:.3}", self.total),
            _ => format!("validation reconstruction loss {:.3}", self.reconstruction),
        }
    }
}

/// One seed at the choice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeedEntry {
    /// The training seed.
    pub seed: u64,
    /// Its step at the choice.
    pub step: u64,
    /// What validation measured.
    pub score: Score,
    /// Why it was not eligible, if it was not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set_aside: Option<String>,
}

/// The seed choice and its reasons.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeedChoice {
    /// The rule applied (resolved).
    pub rule: Rule,
    /// Whether the rule read ground truth (the `mota` rule, synthetic envs only).
    pub labels_used: bool,
    /// The chosen seed.
    pub chosen: u64,
    /// Every seed, in the recipe's order.
    pub seeds: Vec<SeedEntry>,
    /// Why, in a sentence.
    pub why: String,
}

/// Picks the seed of the best `rule` value (first listed on a tie) among those not set aside by
/// the width rule: a seed whose box width exceeds `width_outlier` times the narrowest seed's
/// (0: off). The narrowest seed is never set aside, so some seed is always chosen.
pub fn choose_seed(
    mut seeds: Vec<SeedEntry>,
    rule: Rule,
    width_outlier: f64,
) -> Result<SeedChoice> {
    if seeds.is_empty() {
        return Err(Error::Invalid("no seed to choose from".into()));
    }
    let narrowest = seeds
        .iter()
        .map(|s| s.score.box_width_px)
        .fold(f64::INFINITY, f64::min);
    if width_outlier > 0.0 {
        for s in &mut seeds {
            let limit = width_outlier * narrowest;
            if s.score.box_width_px > limit {
                s.set_aside = Some(format!(
                    "box width {:.1} px > {width_outlier} x the narrowest seed's {narrowest:.1} px \
                     (= {limit:.1} px): objects boxed in pairs",
                    s.score.box_width_px
                ));
            }
        }
    }
    let mut best: Option<(usize, f64)> = None;
    for (i, s) in seeds.iter().enumerate() {
        if s.set_aside.is_some() {
            continue;
        }
        let k = s.score.key(rule)?;
        if best.is_none_or(|(_, b)| k < b) {
            best = Some((i, k));
        }
    }
    let (i, _) = best.ok_or_else(|| Error::Invalid("every seed was set aside".into()))?;
    let chosen = &seeds[i];
    let eligible = seeds.iter().filter(|s| s.set_aside.is_none()).count();
    let why = format!(
        "seed {} has the best {} at step {} of the {eligible} seed(s) not set aside (of {})",
        chosen.seed,
        chosen.score.shown(rule),
        chosen.step,
        seeds.len()
    );
    Ok(SeedChoice {
        rule,
        labels_used: rule.uses_labels(),
        chosen: chosen.seed,
        seeds,
        why,
    })
}

/// A knob the tool derived, with where it came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Derived {
    /// The `[model]` key set.
    pub key: String,
    /// Its value (`None`: left unset, with the reason in `from`).
    pub value: Option<f64>,
    /// How it was derived.
    pub from: String,
}

/// `[model] max_width` (anchor units) at `factor` times the chosen seed's mean box width
/// `width_px`; unset where the factor is 0 or the cap would not bind (at least `max_hw`).
pub fn derive_max_width(factor: f64, width_px: f64, anchor_w: f64, max_hw: f64) -> Derived {
    let cap = factor * width_px / anchor_w;
    let (value, from) = if factor == 0.0 {
        (None, "off ([derive] max_width = 0)".to_string())
    } else if !(cap.is_finite() && cap > 0.0) || cap >= max_hw {
        (
            None,
            format!(
                "{factor} x the chosen seed's box width {width_px:.2} px = {cap:.3} anchor units \
                 does not cap below max_hw {max_hw}: no cap"
            ),
        )
    } else {
        (
            Some(cap),
            format!(
                "{factor} x the chosen seed's validation box width {width_px:.2} px / anchor \
                 width {anchor_w} px = {cap:.3} anchor units ({:.1} px)",
                cap * anchor_w
            ),
        )
    };
    Derived {
        key: "max_width".into(),
        value,
        from,
    }
}

/// A product candidate: a checkpoint of a tail (or the last phase's end).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// The branch it comes from (a tail's or the last phase's name).
    pub branch: String,
    /// Its step.
    pub step: u64,
    /// Its checkpoint directory, relative to the run directory.
    pub checkpoint: String,
    /// What validation measured.
    pub score: Score,
}

/// The product: the candidate of the best `rule` value (the first in order on a tie), and why.
pub fn choose_product(candidates: &[Candidate], rule: Rule) -> Result<(usize, String)> {
    let mut best: Option<(usize, f64)> = None;
    for (i, c) in candidates.iter().enumerate() {
        let k = c.score.key(rule)?;
        if best.is_none_or(|(_, b)| k < b) {
            best = Some((i, k));
        }
    }
    let (i, _) = best.ok_or_else(|| Error::Invalid("no candidate to choose from".into()))?;
    let c = &candidates[i];
    Ok((
        i,
        format!(
            "{} step {} has the best {} of {} candidate(s)",
            c.branch,
            c.step,
            c.score.shown(rule),
            candidates.len()
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(reconstruction: f64, total: f64, width: f64, mota: Option<f64>) -> Score {
        Score {
            reconstruction,
            total,
            box_width_px: width,
            objects_per_frame: 5.0,
            full_frame_pairs_per_frame: None,
            mota,
        }
    }

    fn seed(seed: u64, s: Score) -> SeedEntry {
        SeedEntry {
            seed,
            step: 2000,
            score: s,
            set_aside: None,
        }
    }

    #[test]
    fn the_seed_of_lowest_reconstruction_among_narrow_ones_is_chosen() {
        // Seed 2 has the lowest loss but boxes in pairs (18 px against 10): set aside.
        let seeds = vec![
            seed(1, score(100.0, 150.0, 10.0, None)),
            seed(2, score(90.0, 140.0, 18.0, None)),
            seed(3, score(95.0, 160.0, 11.0, None)),
        ];
        let c = choose_seed(seeds.clone(), Rule::Reconstruction, 1.5).unwrap();
        assert_eq!(c.chosen, 3);
        assert!(!c.labels_used);
        assert!(c.seeds[1].set_aside.as_ref().unwrap().contains("18.0 px"));
        assert!(c.seeds[0].set_aside.is_none() && c.seeds[2].set_aside.is_none());
        assert!(
            c.why.contains("seed 3") && c.why.contains("2 seed(s)"),
            "{}",
            c.why
        );
        // Width rule off: the lowest loss wins.
        assert_eq!(
            choose_seed(seeds.clone(), Rule::Reconstruction, 0.0)
                .unwrap()
                .chosen,
            2
        );
        // By total loss.
        assert_eq!(choose_seed(seeds, Rule::Total, 1.5).unwrap().chosen, 1);
    }

    #[test]
    fn the_narrowest_seed_is_never_set_aside_and_ties_go_to_the_first() {
        let seeds = vec![
            seed(7, score(50.0, 1.0, 30.0, None)),
            seed(8, score(50.0, 1.0, 30.0, None)),
        ];
        let c = choose_seed(seeds, Rule::Reconstruction, 1.1).unwrap();
        assert_eq!(c.chosen, 7);
        assert!(c.seeds.iter().all(|s| s.set_aside.is_none()));
        assert!(choose_seed(vec![], Rule::Total, 1.5).is_err());
    }

    #[test]
    fn mota_rule_maximises_mota_and_says_it_used_labels() {
        let seeds = vec![
            seed(1, score(1.0, 1.0, 10.0, Some(0.7))),
            seed(2, score(2.0, 2.0, 10.0, Some(0.9))),
        ];
        let c = choose_seed(seeds, Rule::Mota, 1.5).unwrap();
        assert_eq!(c.chosen, 2);
        assert!(c.labels_used);
        assert!(c.why.contains("MOTA 0.9000"), "{}", c.why);
        // A score without MOTA cannot be ranked by it; `auto` must be resolved first.
        assert!(score(1.0, 1.0, 1.0, None).key(Rule::Mota).is_err());
        assert!(score(1.0, 1.0, 1.0, None).key(Rule::Auto).is_err());
    }

    #[test]
    fn max_width_is_derived_from_the_models_own_boxes() {
        // Space Invaders-like: 10 px boxes, 24-px anchor: 1.75 x 10 / 24 = 0.729 (17.5 px).
        let d = derive_max_width(1.75, 10.0, 24.0, 1.0);
        assert!((d.value.unwrap() - 17.5 / 24.0).abs() < 1e-12);
        assert!(d.from.contains("17.5 px"), "{}", d.from);
        // Off, or not binding: no cap.
        assert_eq!(derive_max_width(0.0, 10.0, 24.0, 1.0).value, None);
        assert_eq!(derive_max_width(1.75, 20.0, 24.0, 1.0).value, None);
        assert_eq!(derive_max_width(1.75, f64::NAN, 24.0, 1.0).value, None);
    }

    #[test]
    fn the_product_is_the_best_candidate_first_on_ties() {
        let cand = |branch: &str, step, rec| Candidate {
            branch: branch.into(),
            step,
            checkpoint: format!("tails/{branch}/kept/step-{step:08}"),
            score: score(rec, rec + 10.0, 10.0, Some(1.0 / rec)),
        };
        let cands = [cand("h", 6, 5.0), cand("h", 12, 4.0), cand("d", 6, 4.0)];
        let (i, why) = choose_product(&cands, Rule::Reconstruction).unwrap();
        assert_eq!(i, 1);
        assert!(
            why.contains("h step 12") && why.contains("3 candidate(s)"),
            "{why}"
        );
        assert_eq!(choose_product(&cands, Rule::Mota).unwrap().0, 1);
        assert!(choose_product(&[], Rule::Total).is_err());
    }
}
