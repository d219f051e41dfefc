//! Atari 2600 games through the Arcade Learning Environment (ALE 0.6, ROMs bundled by the `ale`
//! crate), with Gymnasium/ale-py semantics.
//!
//! [`AtariEnv`] is the raw game (frameskip with summed rewards, sticky actions, frame-based
//! truncation, RGB `(210, 160, 3)` observations); [`make_atari`] builds the preset's wrapper stack
//! from an [`AtariConfig`].

pub mod ale;
pub mod config;
pub mod roms;

pub use config::{AtariConfig, AtariPreset, AtariSettings};

use ndarray::ArrayViewMut3;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use self::ale::{Ale, AleSettings, SystemState};
use super::wrappers::{
    self, check_obs_shape, Crop, EpisodicLife, FireReset, FrameStack, MaxAndSkip, NoopReset,
    ResizeGrayscale, ResizeMethod, RewardClip,
};
use super::{Env, Frame, Info, ResetOptions, Space, Transition};
use crate::error::{Error, Result};
use crate::seed::sub_seed;

/// ALE's action names, indexed by ALE action code (0..18).
pub const ACTION_MEANINGS: [&str; 18] = [
    "NOOP",
    "FIRE",
    "UP",
    "RIGHT",
    "LEFT",
    "DOWN",
    "UPRIGHT",
    "UPLEFT",
    "DOWNRIGHT",
    "DOWNLEFT",
    "UPFIRE",
    "RIGHTFIRE",
    "LEFTFIRE",
    "DOWNFIRE",
    "UPRIGHTFIRE",
    "UPLEFTFIRE",
    "DOWNRIGHTFIRE",
    "DOWNLEFTFIRE",
];

/// Salt that separates the sticky-action RNG's seed from the seeds of wrappers' RNGs.
const STICKY_SEED_SALT: u64 = 0xA1E5_EED0;
/// ALE's own RNG seed. ALE's RNG only randomises the console's RAM and RIOT timer at power-on
/// and reset; every seeded reset restores the emulator (RNG included) to its state right after
/// loading, so episodes depend only on the user's seed.
const ALE_SEED: i32 = 1;

/// Settings of the raw game env (the part of [`AtariSettings`] the emulator loop handles).
#[derive(Debug, Clone, PartialEq)]
pub struct AtariEnvOptions {
    /// Emulator frames per step (≥ 1); rewards are summed, the observation is the last frame.
    pub frameskip: u32,
    /// Sticky-action probability per emulator frame.
    pub repeat_action_probability: f32,
    /// All 18 actions instead of the minimal set.
    pub full_action_space: bool,
    /// Truncate once the episode has run this many emulator frames.
    pub max_episode_frames: Option<u64>,
}

impl Default for AtariEnvOptions {
    /// ale-py's `v5` defaults.
    fn default() -> Self {
        AtariEnvOptions {
            frameskip: 4,
            repeat_action_probability: 0.25,
            full_action_space: false,
            max_episode_frames: Some(108_000),
        }
    }
}

/// One Atari game as a Gymnasium-style env (ale-py's `AtariEnv` semantics).
///
/// - Sticky actions follow ALE's rule exactly: on every emulator frame, with probability
///   `repeat_action_probability` the previously applied action is applied again instead of the
///   new one (the previous action is NOOP after a reset). The draw comes from our own ChaCha RNG
///   rather than ALE's, because ALE's RNG can only be reseeded by re-loading the ROM, which costs
///   ~140 ms (ALE 0.6 rebuilds a 64k-entry colour-averaging palette on every load).
/// - `reset(Some(seed))` restores the emulator (ALE's RNG included) to its state right after the
///   ROM was loaded and reseeds the sticky-action RNG from `seed`, so it behaves like ale-py's
///   `seed_game` + `load_game`; then it resets the game. `reset(None)` just resets the game and
///   continues both RNG streams. Before any seeded reset the sticky RNG is seeded from OS
///   entropy, as Gymnasium does.
/// - `step` repeats the action for `frameskip` emulator frames (stopping early at game over or
///   truncation), sums rewards and returns the last frame. `terminated` = game over,
///   `truncated` = the episode reached `max_episode_frames` emulator frames.
/// - `info.frame_number` counts agent frames since the ROM was loaded or the last seeded reset,
///   as ale-py reports after its re-load.
pub struct AtariEnv {
    id: String,
    ale: Ale,
    /// The emulator right after loading, restored by seeded resets.
    initial: SystemState,
    /// Sticky-action RNG.
    rng: ChaCha8Rng,
    /// ALE code of the action applied on the last emulator frame.
    applied: i32,
    opts: AtariEnvOptions,
    /// ALE action code of each action index.
    actions: Vec<i32>,
    obs_space: Space,
    action_space: Space,
    /// No reset yet, or the episode ended.
    needs_reset: bool,
    /// Scratch screen for callers whose buffer is not contiguous.
    scratch: Vec<u8>,
}

impl AtariEnv {
    /// Load game `game` (an id from [`roms::GAME_IDS`]) with `opts`.
    pub fn new(game: &str, opts: AtariEnvOptions) -> Result<Self> {
        let rom = roms::rom_or_err(game)?;
        if opts.frameskip == 0 {
            return Err(Error::Invalid(format!(
                "atari `{game}`: frameskip must be at least 1"
            )));
        }
        let p = opts.repeat_action_probability;
        if !(0.0..=1.0).contains(&p) {
            return Err(Error::Invalid(format!(
                "atari `{game}`: repeat_action_probability must be in [0, 1], got {p}"
            )));
        }
        let settings = AleSettings {
            seed: ALE_SEED,
            repeat_action_probability: 0.0,
        };
        let mut ale = Ale::new(&rom, settings)?;
        let initial = ale.clone_system_state()?;
        let actions = if opts.full_action_space {
            ale.legal_action_set().to_vec()
        } else {
            ale.minimal_action_set().to_vec()
        };
        Ok(AtariEnv {
            id: game.to_string(),
            obs_space: Space::rgb(ale.height(), ale.width()),
            action_space: Space::Discrete { n: actions.len() },
            scratch: vec![0; ale.rgb_len()],
            ale,
            initial,
            rng: ChaCha8Rng::from_entropy(),
            applied: 0,
            opts,
            actions,
            needs_reset: true,
        })
    }

    /// The options this env runs with.
    pub fn options(&self) -> &AtariEnvOptions {
        &self.opts
    }

    /// ALE's name of each action index (`NOOP`, `FIRE`, …), like ale-py's
    /// `get_action_meanings`.
    pub fn action_meanings(&self) -> Vec<&'static str> {
        self.actions
            .iter()
            .map(|&a| ACTION_MEANINGS.get(a as usize).copied().unwrap_or("?"))
            .collect()
    }

    /// The emulator, e.g. for greyscale screens or lives.
    pub fn ale(&mut self) -> &mut Ale {
        &mut self.ale
    }

    fn info(&mut self) -> Info {
        Info {
            lives: Some(self.ale.lives()),
            episode_frame_number: Some(self.ale.episode_frame_number()),
            frame_number: Some(self.ale.frame_number()),
            objects: None,
        }
    }

    /// Write the current screen into `obs` (directly when it is contiguous).
    fn write_screen(&mut self, mut obs: ArrayViewMut3<'_, u8>) -> Result<()> {
        if let Some(out) = obs.as_slice_mut() {
            return self.ale.screen_rgb(out);
        }
        self.ale.screen_rgb(&mut self.scratch)?;
        let src = ndarray::ArrayView3::from_shape(obs.raw_dim(), &self.scratch)
            .map_err(|e| Error::Invalid(format!("atari `{}`: {e}", self.id)))?;
        obs.assign(&src);
        Ok(())
    }

    fn truncated(&mut self) -> bool {
        self.opts
            .max_episode_frames
            .is_some_and(|m| self.ale.episode_frame_number() >= m)
    }
}

impl Env for AtariEnv {
    fn id(&self) -> &str {
        &self.id
    }

    fn observation_space(&self) -> &Space {
        &self.obs_space
    }

    fn action_space(&self) -> &Space {
        &self.action_space
    }

    fn reset_into(
        &mut self,
        seed: Option<u64>,
        _options: &ResetOptions,
        obs: ArrayViewMut3<'_, u8>,
    ) -> Result<Info> {
        check_obs_shape(&self.id, &self.obs_space, &obs)?;
        if let Some(seed) = seed {
            self.ale.restore_system_state(&self.initial);
            self.rng = ChaCha8Rng::seed_from_u64(sub_seed(seed, STICKY_SEED_SALT));
        }
        self.ale.reset_game();
        self.applied = 0;
        self.needs_reset = false;
        self.write_screen(obs)?;
        Ok(self.info())
    }

    fn step_into(&mut self, action: usize, obs: ArrayViewMut3<'_, u8>) -> Result<Transition> {
        check_obs_shape(&self.id, &self.obs_space, &obs)?;
        let t = self.act(action)?;
        self.write_screen(obs)?;
        Ok(t)
    }

    fn step_unobserved(&mut self, action: usize) -> Result<Transition> {
        self.act(action)
    }

    fn render(&self) -> Option<Frame> {
        let mut frame = Frame::zeros((self.ale.height(), self.ale.width(), 3));
        self.ale.screen_rgb(frame.as_slice_mut()?).ok()?;
        Some(frame)
    }
}

impl AtariEnv {
    /// One agent step (`frameskip` emulator frames with sticky actions) without reading the
    /// screen.
    fn act(&mut self, action: usize) -> Result<Transition> {
        if self.needs_reset {
            return Err(wrappers::needs_reset_error(&self.id));
        }
        let code = *self
            .actions
            .get(action)
            .ok_or_else(|| Error::InvalidAction {
                env: self.id.clone(),
                action,
                n: self.actions.len(),
            })?;
        let mut reward = 0i64;
        let mut terminated = false;
        let mut truncated = false;
        let p = self.opts.repeat_action_probability as f64;
        for _ in 0..self.opts.frameskip {
            if p == 0.0 || self.rng.gen::<f64>() >= p {
                self.applied = code;
            }
            reward += self.ale.act(self.applied) as i64;
            terminated = self.ale.game_over();
            truncated = !terminated && self.truncated();
            if terminated || truncated {
                break;
            }
        }
        self.needs_reset = terminated || truncated;
        Ok(Transition {
            reward: reward as f32,
            terminated,
            truncated,
            info: self.info(),
        })
    }
}

/// Build the wrapper stack of `cfg`'s preset with its overrides.
///
/// Order (inner to outer), as in OpenAI baselines / Gymnasium: [`AtariEnv`] (frameskip when no
/// max-pooling, sticky actions, frame-based truncation) → [`NoopReset`] → [`MaxAndSkip`] →
/// [`EpisodicLife`] → [`FireReset`] → [`Crop`] → [`ResizeGrayscale`] → [`RewardClip`] →
/// [`FrameStack`]. Each wrapper is present only when its setting asks for it.
pub fn make_atari(cfg: &AtariConfig) -> Result<Box<dyn Env>> {
    let s = cfg.resolve()?;
    make_atari_from_settings(&s)
}

/// [`make_atari`] from already-resolved settings.
pub fn make_atari_from_settings(s: &AtariSettings) -> Result<Box<dyn Env>> {
    let skip_in_wrapper = s.max_pool && s.frameskip > 1;
    let raw = AtariEnv::new(
        &s.game,
        AtariEnvOptions {
            frameskip: if skip_in_wrapper { 1 } else { s.frameskip },
            repeat_action_probability: s.repeat_action_probability,
            full_action_space: s.full_action_space,
            max_episode_frames: s.max_episode_frames,
        },
    )?;
    let meanings = raw.action_meanings();
    let mut env: Box<dyn Env> = Box::new(raw);
    if s.noop_max > 0 {
        env = Box::new(NoopReset::new(env, s.noop_max)?);
    }
    if skip_in_wrapper {
        env = Box::new(MaxAndSkip::new(env, s.frameskip as usize)?);
    }
    if s.episodic_life {
        env = Box::new(EpisodicLife::new(env));
    }
    if s.fire_reset {
        if meanings.get(1) != Some(&"FIRE") || meanings.len() < 3 {
            return Err(Error::Invalid(format!(
                "atari `{}`: fire_reset needs FIRE as action 1 and at least 3 actions, the \
                 action set is {meanings:?}; set fire_reset = false",
                s.game
            )));
        }
        env = Box::new(FireReset::new(env));
    }
    if let Some(crop) = s.crop {
        env = Box::new(Crop::new(env, crop)?);
    }
    if let Some([h, w]) = s.grayscale_resize {
        env = Box::new(ResizeGrayscale::new(env, h, w, ResizeMethod::Area)?);
    }
    if s.reward_clip {
        env = Box::new(RewardClip::new(env));
    }
    if s.frame_stack > 1 {
        env = Box::new(FrameStack::new(env, s.frame_stack)?);
    }
    Ok(env)
}
