//! [`AtariConfig`]: the serde config of an Atari env, its presets and their resolution into
//! concrete [`AtariSettings`].
//!
//! Every field except `game` and `preset` is an override: left out (`None`), it takes the
//! preset's value. [`AtariConfig::resolve`] validates the result.

use serde::{Deserialize, Serialize};

use super::roms;
use crate::error::{Error, Result};

/// Full ALE screen height.
pub const SCREEN_HEIGHT: usize = 210;
/// Full ALE screen width.
pub const SCREEN_WIDTH: usize = 160;

/// A named bundle of defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum AtariPreset {
    /// Gymnasium/ale-py `ALE/<Game>-v5`: frameskip 4 (rewards summed, observation = last
    /// frame), sticky actions 0.25, minimal action set, truncation at 108,000 emulator frames,
    /// full RGB 210x160, no no-op starts.
    #[default]
    V5,
    /// The SILOT paper's data protocol (`<Game>NoFrameskip-v4` under the OpenAI-baselines
    /// `make_atari` stack): no sticky actions, up to 30 random no-ops after reset, max-and-skip 4
    /// (rewards summed, observation = pixel-wise max of the last two frames), minimal action set,
    /// full-resolution RGB with the per-game crop of the paper (Space Invaders keeps rows
    /// 0..195 → 195x160; Asteroids none), truncation at gym v4's `frameskip * 100000` frames
    /// (300,000 for Space Invaders, whose v4 frameskip was 3; 400,000 otherwise).
    ///
    /// The reference notes that the authors' exact recording stack is unknown; this is the
    /// standard baselines stack their PPO rollouts most likely used.
    Paper,
}

/// Config of one Atari env (e.g. a `[env]` table of an experiment TOML).
///
/// ```toml
/// game = "space_invaders"
/// preset = "paper"
/// noop_max = 0          # override one setting of the preset
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AtariConfig {
    /// Game id, one of [`roms::GAME_IDS`] (default `space_invaders`).
    pub game: String,
    /// Preset giving the defaults of every other field (default `v5`).
    pub preset: AtariPreset,
    /// Emulator frames per agent step (v5: 4, paper: 4).
    pub frameskip: Option<u32>,
    /// Sticky-action probability per emulator frame (v5: 0.25, paper: 0).
    pub repeat_action_probability: Option<f32>,
    /// Use all 18 actions instead of the game's minimal set (both presets: false).
    pub full_action_space: Option<bool>,
    /// Truncate an episode after this many emulator frames; 0 disables (v5: 108,000; paper:
    /// 300,000 for Space Invaders, 400,000 otherwise).
    pub max_episode_frames: Option<u64>,
    /// Observation = max over the last two emulator frames of a step (v5: false, paper: true).
    pub max_pool: Option<bool>,
    /// Random number of no-ops, uniform in `1..=noop_max`, after each reset; 0 disables
    /// (v5: 0, paper: 30).
    pub noop_max: Option<u32>,
    /// Crop `[top, bottom, left, right]`: keep rows `top..bottom`, columns `left..right`
    /// (v5: none; paper: Space Invaders `[0, 195, 0, 160]`, other games none). Give the full
    /// frame `[0, 210, 0, 160]` to disable a preset's crop.
    pub crop: Option<[usize; 4]>,
    /// A lost life ends the episode (`terminated`); the game only resets on game over
    /// (both presets: false).
    pub episodic_life: Option<bool>,
    /// Press FIRE (then action 2) after each reset, for games that need it (both: false).
    pub fire_reset: Option<bool>,
    /// Convert to greyscale and resize to `[height, width]` with area interpolation
    /// (both: none, i.e. RGB at full or cropped resolution).
    pub grayscale_resize: Option<[usize; 2]>,
    /// Replace rewards by their sign (both: false).
    pub reward_clip: Option<bool>,
    /// Stack the last k observations along channels; 1 disables (both: 1).
    pub frame_stack: Option<usize>,
}

impl Default for AtariConfig {
    fn default() -> Self {
        AtariConfig {
            game: "space_invaders".into(),
            preset: AtariPreset::V5,
            frameskip: None,
            repeat_action_probability: None,
            full_action_space: None,
            max_episode_frames: None,
            max_pool: None,
            noop_max: None,
            crop: None,
            episodic_life: None,
            fire_reset: None,
            grayscale_resize: None,
            reward_clip: None,
            frame_stack: None,
        }
    }
}

/// Fully resolved, validated settings of an Atari env stack.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AtariSettings {
    /// Game id.
    pub game: String,
    /// Emulator frames per agent step (≥ 1).
    pub frameskip: u32,
    /// Sticky-action probability in `[0, 1]`.
    pub repeat_action_probability: f32,
    /// All 18 actions instead of the minimal set.
    pub full_action_space: bool,
    /// Truncation limit in emulator frames, `None` for no limit.
    pub max_episode_frames: Option<u64>,
    /// Max over the last two frames of each step.
    pub max_pool: bool,
    /// Maximum number of reset no-ops (0: none).
    pub noop_max: u32,
    /// Crop `[top, bottom, left, right]`, `None` for the full frame.
    pub crop: Option<[usize; 4]>,
    /// Life loss ends the episode.
    pub episodic_life: bool,
    /// FIRE after reset.
    pub fire_reset: bool,
    /// Greyscale resize target `[height, width]`.
    pub grayscale_resize: Option<[usize; 2]>,
    /// Sign rewards.
    pub reward_clip: bool,
    /// Frames stacked along channels (≥ 1).
    pub frame_stack: usize,
}

impl AtariSettings {
    /// Observation shape `(H, W, C)` the resolved stack produces.
    pub fn obs_shape(&self) -> [usize; 3] {
        let (mut h, mut w) = (SCREEN_HEIGHT, SCREEN_WIDTH);
        if let Some([t, b, l, r]) = self.crop {
            (h, w) = (b - t, r - l);
        }
        let mut c = 3;
        if let Some([gh, gw]) = self.grayscale_resize {
            (h, w, c) = (gh, gw, 1);
        }
        [h, w, c * self.frame_stack]
    }
}

/// The paper's per-game crop `[top, bottom, left, right]` (reference §6), `None` for none.
pub fn paper_crop(game: &str) -> Option<[usize; 4]> {
    match game {
        "space_invaders" => Some([0, 195, 0, SCREEN_WIDTH]),
        _ => None,
    }
}

impl AtariConfig {
    /// A config for `game` with `preset` and no overrides.
    pub fn new(game: &str, preset: AtariPreset) -> Self {
        AtariConfig {
            game: game.into(),
            preset,
            ..Default::default()
        }
    }

    /// Resolve the preset and overrides into concrete, validated settings.
    pub fn resolve(&self) -> Result<AtariSettings> {
        roms::rom_or_err(&self.game)?;
        let paper = self.preset == AtariPreset::Paper;
        let default_max_frames = match (self.preset, self.game.as_str()) {
            (AtariPreset::V5, _) => 108_000,
            (AtariPreset::Paper, "space_invaders") => 300_000,
            (AtariPreset::Paper, _) => 400_000,
        };
        let max_frames = self.max_episode_frames.unwrap_or(default_max_frames);
        let crop = match self.crop {
            Some(c) => Some(c),
            None if paper => paper_crop(&self.game),
            None => None,
        };
        let s = AtariSettings {
            game: self.game.clone(),
            frameskip: self.frameskip.unwrap_or(4),
            repeat_action_probability: self.repeat_action_probability.unwrap_or(if paper {
                0.0
            } else {
                0.25
            }),
            full_action_space: self.full_action_space.unwrap_or(false),
            max_episode_frames: (max_frames > 0).then_some(max_frames),
            max_pool: self.max_pool.unwrap_or(paper),
            noop_max: self.noop_max.unwrap_or(if paper { 30 } else { 0 }),
            crop: crop.filter(|&c| c != [0, SCREEN_HEIGHT, 0, SCREEN_WIDTH]),
            episodic_life: self.episodic_life.unwrap_or(false),
            fire_reset: self.fire_reset.unwrap_or(false),
            grayscale_resize: self.grayscale_resize,
            reward_clip: self.reward_clip.unwrap_or(false),
            frame_stack: self.frame_stack.unwrap_or(1),
        };
        validate(&s)?;
        Ok(s)
    }
}

fn invalid(key: &str, msg: String) -> Error {
    Error::Config {
        path: "<atari config>".into(),
        msg: format!("`{key}`: {msg}"),
    }
}

fn validate(s: &AtariSettings) -> Result<()> {
    if s.frameskip == 0 {
        return Err(invalid("frameskip", "must be at least 1".into()));
    }
    let p = s.repeat_action_probability;
    if !(0.0..=1.0).contains(&p) {
        return Err(invalid(
            "repeat_action_probability",
            format!("must be in [0, 1], got {p}"),
        ));
    }
    if let Some([t, b, l, r]) = s.crop {
        if !(t < b && b <= SCREEN_HEIGHT && l < r && r <= SCREEN_WIDTH) {
            return Err(invalid(
                "crop",
                format!(
                    "[top, bottom, left, right] = [{t}, {b}, {l}, {r}] must satisfy \
                     top < bottom <= {SCREEN_HEIGHT} and left < right <= {SCREEN_WIDTH}"
                ),
            ));
        }
    }
    if let Some([h, w]) = s.grayscale_resize {
        let max = crate::env::MAX_FRAME_SIDE;
        if h == 0 || w == 0 || h > max || w > max {
            return Err(invalid(
                "grayscale_resize",
                format!("[height, width] must be in 1..={max}, got [{h}, {w}]"),
            ));
        }
    }
    if s.frame_stack == 0 {
        return Err(invalid(
            "frame_stack",
            "must be at least 1 (1 disables stacking)".into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v5_defaults() {
        let s = AtariConfig::new("breakout", AtariPreset::V5)
            .resolve()
            .unwrap();
        assert_eq!(s.frameskip, 4);
        assert_eq!(s.repeat_action_probability, 0.25);
        assert_eq!(s.max_episode_frames, Some(108_000));
        assert!(!s.max_pool && !s.full_action_space);
        assert_eq!(s.noop_max, 0);
        assert_eq!(s.obs_shape(), [210, 160, 3]);
    }

    #[test]
    fn paper_defaults_and_crop() {
        let si = AtariConfig::new("space_invaders", AtariPreset::Paper)
            .resolve()
            .unwrap();
        assert_eq!(si.repeat_action_probability, 0.0);
        assert!(si.max_pool);
        assert_eq!(si.noop_max, 30);
        assert_eq!(si.obs_shape(), [195, 160, 3]);
        assert_eq!(si.max_episode_frames, Some(300_000));
        let ast = AtariConfig::new("asteroids", AtariPreset::Paper)
            .resolve()
            .unwrap();
        assert_eq!(ast.crop, None);
        assert_eq!(ast.obs_shape(), [210, 160, 3]);
    }

    #[test]
    fn overrides_and_full_frame_crop_disables() {
        let cfg: AtariConfig = toml::from_str(
            "game = 'space_invaders'\npreset = 'paper'\ncrop = [0, 210, 0, 160]\n\
             max_episode_frames = 0\ngrayscale_resize = [84, 84]\nframe_stack = 4\n",
        )
        .unwrap();
        let s = cfg.resolve().unwrap();
        assert_eq!(s.crop, None);
        assert_eq!(s.max_episode_frames, None);
        assert_eq!(s.obs_shape(), [84, 84, 4]);
    }

    #[test]
    fn rejects_unknown_keys_and_bad_values() {
        assert!(toml::from_str::<AtariConfig>("gmae = 'pong'").is_err());
        let bad = AtariConfig {
            crop: Some([10, 5, 0, 160]),
            ..Default::default()
        };
        assert!(bad.resolve().unwrap_err().to_string().contains("crop"));
        let unknown = AtariConfig::new("pacman", AtariPreset::V5);
        assert!(unknown
            .resolve()
            .unwrap_err()
            .to_string()
            .contains("ms_pacman"));
    }

    #[test]
    fn toml_round_trip() {
        let cfg = AtariConfig {
            frameskip: Some(2),
            crop: Some([1, 2, 3, 4]),
            ..AtariConfig::new("pong", AtariPreset::Paper)
        };
        let text = toml::to_string(&cfg).unwrap();
        assert_eq!(toml::from_str::<AtariConfig>(&text).unwrap(), cfg);
    }
}
