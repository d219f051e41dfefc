//! A thin safe wrapper over one ALE 0.6 emulator instance from `ale-sys`.
//!
//! The `ale` crate's safe `Ale` cannot set options, so we drive `ale-sys` directly: create the
//! interface, set `random_seed`, `repeat_action_probability`, `frame_skip = 1` and
//! `color_averaging = false`, then load the ROM (ALE applies settings at `loadROM`).
//!
//! Thread safety: constructing ALE instances or loading ROMs on several threads at once corrupts
//! the heap (ALE touches process-wide state there: stdio buffering, the logger, Stella's static
//! tables). Every construction, ROM load and destruction therefore holds one process-wide mutex.
//! Stepping different instances in parallel afterwards is safe and deterministic.

use std::ffi::CString;
use std::os::raw::c_int;
use std::path::PathBuf;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, Once};

use ale::BundledRom;
use ale_sys::ALEInterface;

use crate::error::{Error, Result};

/// Serialises ALE construction, ROM loading and destruction process-wide.
static ALE_LOCK: Mutex<()> = Mutex::new(());
/// Set ALE's (global) logger to errors only, once.
static QUIET_LOGGER: Once = Once::new();
/// Makes every temporary ROM directory name unique within the process.
static ROM_DIR_COUNTER: AtomicU64 = AtomicU64::new(0);

/// ALE's logger mode for errors only (`ale::Logger::Error`).
const LOGGER_ERROR: c_int = 2;

/// Take the process-wide ALE lock (a poisoned lock is still usable: it guards no data).
fn ale_lock() -> MutexGuard<'static, ()> {
    ALE_LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// Emulator settings applied when a ROM is loaded.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AleSettings {
    /// ALE's RNG seed (drives sticky actions); must be in `1..=i32::MAX` (0 means "clock").
    pub seed: i32,
    /// Probability that the emulator repeats the previous action instead of the new one, per
    /// emulator frame ("sticky actions").
    pub repeat_action_probability: f32,
}

/// One ALE emulator with a loaded ROM.
pub struct Ale {
    ptr: NonNull<ALEInterface>,
    width: usize,
    height: usize,
    minimal_actions: Vec<i32>,
    legal_actions: Vec<i32>,
}

// SAFETY: an `ALEInterface` owns all of its state (OSystem, settings, RNG, emulator, screen) and
// has no thread affinity; the process-global state ALE touches is only touched during
// construction, ROM loading and destruction, which all hold `ALE_LOCK`. All other calls take
// `&mut self` (or only read the screen through `&self`), so one instance is never used from two
// threads at once. `Ale` is deliberately not `Sync`.
unsafe impl Send for Ale {}

impl Ale {
    /// Create an emulator and load `rom` with `settings`.
    pub fn new(rom: &BundledRom, settings: AleSettings) -> Result<Ale> {
        check_seed(settings.seed)?;
        let _guard = ale_lock();
        QUIET_LOGGER.call_once(|| unsafe { ale_sys::setLoggerMode(LOGGER_ERROR) });
        // SAFETY: ALE_new has no preconditions; it returns an owned heap object.
        let ptr = NonNull::new(unsafe { ale_sys::ALE_new() })
            .ok_or_else(|| Error::Ale("ALE_new returned a null interface".into()))?;
        let mut ale = Ale {
            ptr,
            width: 0,
            height: 0,
            minimal_actions: Vec::new(),
            legal_actions: Vec::new(),
        };
        ale.set_int("frame_skip", 1);
        ale.set_bool("color_averaging", false);
        ale.set_int("max_num_frames_per_episode", 0);
        ale.load_locked(rom, settings)?;
        Ok(ale)
    }

    /// Re-load the ROM with new settings (a fresh emulator state and RNG seed), like ale-py's
    /// `seed_game` + `load_game`. Frame numbers restart at 0. Slow: ALE 0.6 rebuilds its
    /// colour-averaging palette on every load (~140 ms measured); to restart an episode from the
    /// loaded state, [`Ale::restore_system_state`] is ~10x cheaper.
    pub fn reload(&mut self, rom: &BundledRom, settings: AleSettings) -> Result<()> {
        check_seed(settings.seed)?;
        let _guard = ale_lock();
        self.load_locked(rom, settings)
    }

    /// Set options and load the ROM; the caller holds `ALE_LOCK`.
    fn load_locked(&mut self, rom: &BundledRom, settings: AleSettings) -> Result<()> {
        self.set_int("random_seed", settings.seed);
        self.set_float(
            "repeat_action_probability",
            settings.repeat_action_probability,
        );
        // ALE picks per-game settings from the file name, and exits the process if the file is
        // missing, so write the bundled bytes under their canonical name first.
        let dir = std::env::temp_dir().join(format!(
            "silot-ale-{}-{}",
            std::process::id(),
            ROM_DIR_COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
        let path = dir.join(rom.filename());
        let loaded = write_and_load(self.ptr.as_ptr(), &path, rom.data());
        let _ = std::fs::remove_dir_all(&dir);
        loaded?;
        // SAFETY: the ROM is loaded, so the screen and action queries are valid.
        unsafe {
            let p = self.ptr.as_ptr();
            self.width = ale_sys::getScreenWidth(p).max(0) as usize;
            self.height = ale_sys::getScreenHeight(p).max(0) as usize;
            self.minimal_actions = vec![0; ale_sys::getMinimalActionSize(p).max(0) as usize];
            ale_sys::getMinimalActionSet(p, self.minimal_actions.as_mut_ptr());
            self.legal_actions = vec![0; ale_sys::getLegalActionSize(p).max(0) as usize];
            ale_sys::getLegalActionSet(p, self.legal_actions.as_mut_ptr());
        }
        Ok(())
    }

    fn set_int(&mut self, key: &str, value: i32) {
        let key = CString::new(key).expect("static key without NUL");
        // SAFETY: valid interface and NUL-terminated key; ALE copies the value.
        unsafe { ale_sys::setInt(self.ptr.as_ptr(), key.as_ptr(), value) }
    }

    fn set_float(&mut self, key: &str, value: f32) {
        let key = CString::new(key).expect("static key without NUL");
        // SAFETY: as in `set_int`.
        unsafe { ale_sys::setFloat(self.ptr.as_ptr(), key.as_ptr(), value) }
    }

    fn set_bool(&mut self, key: &str, value: bool) {
        let key = CString::new(key).expect("static key without NUL");
        // SAFETY: as in `set_int`.
        unsafe { ale_sys::setBool(self.ptr.as_ptr(), key.as_ptr(), value) }
    }

    /// Emulate one frame with ALE action code `action` (an element of the legal set); returns
    /// the frame's reward. Does nothing (reward 0) once the game is over.
    #[inline]
    pub fn act(&mut self, action: i32) -> i32 {
        // SAFETY: loaded interface; ALE turns illegal codes into NOOP itself.
        unsafe { ale_sys::act(self.ptr.as_ptr(), action) }
    }

    /// Whether the game is over.
    #[inline]
    pub fn game_over(&mut self) -> bool {
        // SAFETY: loaded interface.
        unsafe { ale_sys::game_over(self.ptr.as_ptr()) }
    }

    /// Reset the game (not the whole system): ALE's 60 no-op frames and a console reset.
    pub fn reset_game(&mut self) {
        // SAFETY: loaded interface.
        unsafe { ale_sys::reset_game(self.ptr.as_ptr()) }
    }

    /// Remaining lives.
    #[inline]
    pub fn lives(&mut self) -> i32 {
        // SAFETY: loaded interface (ALE throws only when no ROM is set).
        unsafe { ale_sys::lives(self.ptr.as_ptr()) }
    }

    /// Agent frames emulated since the ROM was loaded.
    #[inline]
    pub fn frame_number(&mut self) -> u64 {
        // SAFETY: loaded interface.
        unsafe { ale_sys::getFrameNumber(self.ptr.as_ptr()).max(0) as u64 }
    }

    /// Agent frames emulated since the start of this episode.
    #[inline]
    pub fn episode_frame_number(&mut self) -> u64 {
        // SAFETY: loaded interface.
        unsafe { ale_sys::getEpisodeFrameNumber(self.ptr.as_ptr()).max(0) as u64 }
    }

    /// Screen width in pixels (160).
    pub fn width(&self) -> usize {
        self.width
    }

    /// Screen height in pixels (210).
    pub fn height(&self) -> usize {
        self.height
    }

    /// ALE action codes of the game's minimal action set.
    pub fn minimal_action_set(&self) -> &[i32] {
        &self.minimal_actions
    }

    /// ALE action codes of the full legal action set (all 18).
    pub fn legal_action_set(&self) -> &[i32] {
        &self.legal_actions
    }

    /// Number of bytes of one RGB screen, `height * width * 3`.
    pub fn rgb_len(&self) -> usize {
        self.height * self.width * 3
    }

    /// Write the current screen as RGB, `(H, W, 3)` row-major, straight into `out`.
    pub fn screen_rgb(&self, out: &mut [u8]) -> Result<()> {
        if out.len() != self.rgb_len() {
            return Err(Error::Invalid(format!(
                "ALE screen buffer has {} bytes, expected {}x{}x3 = {}",
                out.len(),
                self.height,
                self.width,
                self.rgb_len()
            )));
        }
        // SAFETY: `out` holds exactly H*W*3 bytes, which is what ALE writes; reading the screen
        // does not mutate the interface.
        unsafe { ale_sys::getScreenRGB(self.ptr.as_ptr(), out.as_mut_ptr()) }
        Ok(())
    }

    /// Write the current screen as ALE's greyscale (luminance of the palette), `(H, W)`.
    pub fn screen_grayscale(&self, out: &mut [u8]) -> Result<()> {
        if out.len() != self.height * self.width {
            return Err(Error::Invalid(format!(
                "ALE greyscale buffer has {} bytes, expected {}x{} = {}",
                out.len(),
                self.height,
                self.width,
                self.height * self.width
            )));
        }
        // SAFETY: `out` holds exactly H*W bytes; reading the screen does not mutate ALE.
        unsafe { ale_sys::getScreenGrayscale(self.ptr.as_ptr(), out.as_mut_ptr()) }
        Ok(())
    }
}

/// A saved emulator state including its RNG (ALE's "system state").
pub struct SystemState(NonNull<ale_sys::ALEState>);

// SAFETY: an owned, immutable heap object of plain data.
unsafe impl Send for SystemState {}

impl Drop for SystemState {
    fn drop(&mut self) {
        // SAFETY: we own the state object.
        unsafe { ale_sys::deleteState(self.0.as_ptr()) }
    }
}

impl Ale {
    /// Save the whole emulator state, RNG included.
    pub fn clone_system_state(&mut self) -> Result<SystemState> {
        // SAFETY: loaded interface; returns an owned heap object.
        let ptr = unsafe { ale_sys::cloneSystemState(self.ptr.as_ptr()) };
        NonNull::new(ptr)
            .map(SystemState)
            .ok_or_else(|| Error::Ale("cloneSystemState returned null".into()))
    }

    /// Restore a state saved by [`Ale::clone_system_state`] of this emulator.
    pub fn restore_system_state(&mut self, state: &SystemState) {
        // SAFETY: loaded interface; ALE only reads the state.
        unsafe { ale_sys::restoreSystemState(self.ptr.as_ptr(), state.0.as_ptr()) }
    }
}

impl Drop for Ale {
    fn drop(&mut self) {
        let _guard = ale_lock();
        // SAFETY: we own the interface and nobody else holds its pointer.
        unsafe { ale_sys::ALE_del(self.ptr.as_ptr()) }
    }
}

fn check_seed(seed: i32) -> Result<()> {
    if seed < 1 {
        return Err(Error::Invalid(format!(
            "ALE random_seed must be in 1..={} (0 would seed from the clock), got {seed}",
            i32::MAX
        )));
    }
    Ok(())
}

/// Write the ROM bytes to `path` and load them into `ale`.
fn write_and_load(ale: *mut ALEInterface, path: &PathBuf, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).map_err(|e| Error::io(path, e))?;
    let c_path = CString::new(path.to_string_lossy().as_bytes()).map_err(|_| {
        Error::Invalid(format!(
            "temporary ROM path {} contains a NUL byte; set TMPDIR to a plain directory",
            path.display()
        ))
    })?;
    // SAFETY: valid interface, existing ROM file named as ALE expects, caller holds ALE_LOCK.
    unsafe { ale_sys::loadROM(ale, c_path.as_ptr()) };
    Ok(())
}
