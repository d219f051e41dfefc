"""Type stubs of the native module ``silot._silot`` (python/src/lib.rs)."""

from typing import Any, Optional

import numpy as np
import numpy.typing as npt

class SilotError(RuntimeError):
    """An error of silot's Rust core, with its message (what was wrong, how to fix it)."""

def env_ids() -> list[str]:
    """Every env id, sorted."""

def cuda_compiled() -> bool:
    """Whether this build has CUDA support (``--features cuda``)."""

def feature_names(n_what: int) -> list[str]:
    """Column names of ``features``: ``pres, y, x, height, width, depth, what_0 ..``."""

Obs = Any  # an (H, W, 3) uint8 frame, or {"features", "pres", "ids"} arrays

class Env:
    """One env (no autoreset); ``step`` after the end of an episode raises until ``reset``."""

    def __init__(
        self,
        env_id: str,
        encoder: Optional[str] = None,
        device: str = "cpu",
        seed: int = 0,
        allow_env_mismatch: bool = False,
        presence_carry: Optional[str] = None,
    ) -> None: ...
    @property
    def spec(self) -> dict[str, Any]:
        """``env_id, frame_shape, n_actions, atari`` and, with an encoder, ``n_slots, n_what``."""
    def reset(self, seed: Optional[int] = None) -> tuple[Obs, dict[str, Any]]: ...
    def step(self, action: int) -> tuple[Obs, float, bool, bool, dict[str, Any]]: ...
    def render(self) -> Optional[npt.NDArray[np.uint8]]: ...

class VecEnv:
    """``num_envs`` envs on worker threads with autoreset (``"next_step"``/``"same_step"``);
    with an encoder, in ``groups`` groups stepped and encoded in a pipeline (default: 2 on
    ``"cuda"`` with at least 2 envs, else 1)."""

    def __init__(
        self,
        env_id: str,
        num_envs: int,
        encoder: Optional[str] = None,
        device: str = "cpu",
        seed: int = 0,
        num_threads: Optional[int] = None,
        autoreset_mode: str = "next_step",
        allow_env_mismatch: bool = False,
        groups: Optional[int] = None,
        presence_carry: Optional[str] = None,
    ) -> None: ...
    @property
    def spec(self) -> dict[str, Any]:
        """As ``Env.spec``, plus ``num_envs, num_threads, autoreset_mode, groups, group_ranges``."""
    def reset(self, seed: Optional[int] = None) -> tuple[Obs, dict[str, Any]]: ...
    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[
        Obs,
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]: ...
    def send(self, actions: npt.NDArray[np.int64], group: int) -> None:
        """Start a step of group ``group`` (actions of its envs); returns at once."""
    def recv(
        self, group: int
    ) -> tuple[
        Obs,
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """Wait for group ``group``'s step: its envs' results, ``infos["env_id"]`` their indices."""
    def frames(self) -> npt.NDArray[np.uint8]:
        """The current ``(N, H, W, 3)`` frames."""
