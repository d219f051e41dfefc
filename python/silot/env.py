"""Gymnasium classes around the native envs: :class:`SilotEnv` (one env) and
:class:`SilotVectorEnv` (the threaded vector env). Build them with :func:`silot.make` and
:func:`silot.make_vec`."""

from __future__ import annotations

import os
from typing import Any, Optional, Union

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from . import _silot

EncoderArg = Union[None, str, "os.PathLike[str]"]

#: Names of the first six columns of ``features``; columns ``6 ..`` are the appearance code.
FIXED_FEATURES = ("pres", "y", "x", "height", "width", "depth")

_INT64_MAX = np.iinfo(np.int64).max


def _encoder_arg(encoder: EncoderArg) -> Optional[str]:
    if encoder is None:
        return None
    return os.fspath(encoder)


def _check_seed(seed: Optional[int]) -> Optional[int]:
    if seed is None:
        return None
    seed = int(seed)
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed}")
    return seed


def _check_groups(groups: Optional[int], num_envs: int, has_encoder: bool) -> Optional[int]:
    """``groups`` as the native env takes it; a clear ``ValueError`` for a bad count."""
    if groups is None:
        return None
    if isinstance(groups, bool) or not isinstance(groups, (int, np.integer)):
        raise TypeError(f"groups must be an int or None, got {groups!r}")
    groups = int(groups)
    if not 1 <= groups <= num_envs:
        raise ValueError(f"groups must be between 1 and num_envs ({num_envs}), got {groups}")
    if groups > 1 and not has_encoder:
        raise ValueError(
            f"groups={groups} needs an encoder (groups pipeline the envs with the encoder); "
            "without one use groups=1 or None"
        )
    return groups


def object_space(n_slots: int, n_what: int) -> spaces.Dict:
    """The observation space of one env with an encoder: ``features (K, 6 + A)`` float32
    (``pres`` and ``depth`` in [0, 1], the rest unbounded), ``pres (K,)`` float32 in [0, 1] and
    ``ids (K,)`` int64 (identities, counted from 0 in each env)."""
    d = len(FIXED_FEATURES) + n_what
    low = np.full((n_slots, d), -np.inf, dtype=np.float32)
    high = np.full((n_slots, d), np.inf, dtype=np.float32)
    low[:, 0], high[:, 0] = 0.0, 1.0  # pres
    low[:, 5], high[:, 5] = 0.0, 1.0  # depth
    return spaces.Dict(
        {
            "features": spaces.Box(low, high, dtype=np.float32),
            "pres": spaces.Box(0.0, 1.0, (n_slots,), dtype=np.float32),
            "ids": spaces.Box(0, _INT64_MAX, (n_slots,), dtype=np.int64),
        }
    )


def _spaces(spec: dict) -> tuple[gym.Space, spaces.Discrete]:
    if "n_slots" in spec:
        obs = object_space(spec["n_slots"], spec["n_what"])
    else:
        obs = spaces.Box(0, 255, tuple(spec["frame_shape"]), dtype=np.uint8)
    return obs, spaces.Discrete(spec["n_actions"])


def _render_fps(spec: dict) -> int:
    # Atari: 60 emulator frames per second, 4 per step; the synthetic videos: 10 frames/s.
    return 15 if spec["atari"] else 10


class SilotEnv(gym.Env):
    """One silot env as a :class:`gymnasium.Env` (see :func:`silot.make`).

    Observations: ``(H, W, 3)`` uint8 frames, or with an encoder a ``Dict`` of ``features``,
    ``pres`` and ``ids`` (docs/python.md). ``info``: ``lives``, ``episode_frame_number``,
    ``frame_number`` (Atari) and ``objects`` (synthetic envs: ground truth ``ids (n,)`` int64 and
    ``boxes (n, 4)`` float32 ``top, left, bottom, right`` in pixels).
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 15}

    def __init__(
        self,
        env_id: str,
        encoder: EncoderArg = None,
        device: str = "cpu",
        seed: Optional[int] = None,
        render_mode: Optional[str] = None,
        allow_env_mismatch: bool = False,
        presence_carry: Optional[str] = None,
    ):
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        self._env = _silot.Env(
            env_id,
            encoder=_encoder_arg(encoder),
            device=device,
            seed=_check_seed(seed) or 0,
            allow_env_mismatch=allow_env_mismatch,
            presence_carry=presence_carry,
        )
        self._seed = _check_seed(seed)
        spec = self._env.spec
        self.env_id = env_id
        self.has_encoder = "n_slots" in spec
        self.observation_space, self.action_space = _spaces(spec)
        self.metadata = {**self.metadata, "render_fps": _render_fps(spec)}
        self.render_mode = render_mode

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        """Reset (``seed`` reseeds; ``None`` continues the env's RNG, or uses the ``seed`` given
        to :func:`silot.make` on the first reset). Returns ``(obs, info)``."""
        if options:
            raise ValueError(f"silot envs take no reset options, got {options!r}")
        seed = _check_seed(seed)
        super().reset(seed=seed)
        if seed is None and self._seed is not None:
            seed, self._seed = self._seed, None
        return self._env.reset(seed)

    def step(self, action):
        """One step: ``(obs, reward, terminated, truncated, info)``."""
        return self._env.step(int(action))

    def render(self):
        """The current RGB frame ``(H, W, 3)`` uint8 (``render_mode="rgb_array"``)."""
        if self.render_mode is None:
            gym.logger.warn("render() called without render_mode='rgb_array'")
            return None
        return self._env.render()


class SilotVectorEnv(VectorEnv):
    """``num_envs`` silot envs stepped on worker threads, as a
    :class:`gymnasium.vector.VectorEnv` (see :func:`silot.make_vec`).

    With an encoder, the envs can be split into ``groups`` groups stepped and encoded in a
    pipeline (``groups`` argument; default 2 for an Atari env on ``device="cuda"``, else 1):
    within each ``step``, one group's envs step on the CPU while the previous group's frames are
    encoded. Ids, rewards, terminations, truncations and autoresets are those of ``groups=1``;
    presence and boxes agree up to float rounding (the encoder runs on batches of
    ``num_envs / groups``).

    Env ``i`` is seeded with ``seed + i``. ``metadata["autoreset_mode"]`` says how an ended
    env restarts: ``NEXT_STEP`` (default: the next ``step`` resets it and ignores its action)
    or ``SAME_STEP`` (the ending step returns the reset observation; the last frame is in
    ``infos["final_obs"]`` (with an encoder, the objects of that last frame, tracked on from the
    episode's earlier frames) and its info in ``infos["final_info"]``, masked by
    ``infos["_final_obs"]``).
    Infos are in Gymnasium's vector layout: ``infos[key]`` is an array over envs and
    ``infos["_" + key]`` says which envs have it.
    """

    metadata = {"render_modes": ["rgb_array"], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        env_id: str,
        num_envs: int,
        encoder: EncoderArg = None,
        device: str = "cpu",
        seed: Optional[int] = None,
        num_threads: Optional[int] = None,
        autoreset_mode: Union[str, AutoresetMode] = AutoresetMode.NEXT_STEP,
        render_mode: Optional[str] = None,
        allow_env_mismatch: bool = False,
        groups: Optional[int] = None,
        presence_carry: Optional[str] = None,
    ):
        mode = AutoresetMode(autoreset_mode) if isinstance(autoreset_mode, str) else autoreset_mode
        names = {AutoresetMode.NEXT_STEP: "next_step", AutoresetMode.SAME_STEP: "same_step"}
        if mode not in names:
            raise ValueError(f"autoreset_mode must be NEXT_STEP or SAME_STEP, got {mode}")
        if int(num_envs) < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        groups = _check_groups(groups, int(num_envs), encoder is not None)
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        self._env = _silot.VecEnv(
            env_id,
            int(num_envs),
            encoder=_encoder_arg(encoder),
            device=device,
            seed=_check_seed(seed) or 0,
            num_threads=num_threads,
            autoreset_mode=names[mode],
            allow_env_mismatch=allow_env_mismatch,
            groups=groups,
            presence_carry=presence_carry,
        )
        self._seed = _check_seed(seed)
        spec = self._env.spec
        self.env_id = env_id
        self.has_encoder = "n_slots" in spec
        self.num_envs = int(num_envs)
        #: Groups of envs pipelined with the encoder (1: no pipeline).
        self.groups = int(spec["groups"])
        self._group_ranges = [tuple(r) for r in spec["group_ranges"]]
        self.single_observation_space, self.single_action_space = _spaces(spec)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.metadata = {
            **self.metadata,
            "autoreset_mode": mode,
            "render_fps": _render_fps(spec),
        }
        self.render_mode = render_mode

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        """Reset every env (``seed``: env ``i`` gets ``seed + i``). Returns ``(obs, infos)``."""
        if options:
            raise ValueError(f"silot envs take no reset options, got {options!r}")
        seed = _check_seed(seed)
        self._np_random_seed = None
        if seed is not None:
            self._np_random, self._np_random_seed = gym.utils.seeding.np_random(seed)
        if seed is None and self._seed is not None:
            seed, self._seed = self._seed, None
        return self._env.reset(seed)

    def step(self, actions: Any):
        """Step env ``i`` with ``actions[i]``: ``(obs, rewards, terminations, truncations,
        infos)``."""
        return self._env.step(np.asarray(actions, dtype=np.int64).reshape(-1))

    def group_slice(self, group: int) -> slice:
        """The envs of group ``group`` (contiguous; sizes differ by at most one)."""
        start, stop = self._group_ranges[group]
        return slice(start, stop)

    def send(self, actions: Any, group: int = 0) -> None:
        """EnvPool-style asynchronous stepping (with an encoder): start a step of group
        ``group``'s envs (``actions``: one per env of :meth:`group_slice`) and return at once;
        :meth:`recv` waits for it. Sending a group's next actions as soon as its results are read
        keeps the pipeline full across steps (what ``silot observe`` does). The envs step as with
        :meth:`step`; a :meth:`step` or :meth:`reset` waits for nothing else (``reset`` drops
        steps in flight; ``step`` with a group in flight is an error)."""
        self._env.send(np.asarray(actions, dtype=np.int64).reshape(-1), int(group))

    def recv(self, group: int = 0):
        """Wait for the step of group ``group`` started by :meth:`send`: ``(obs, rewards,
        terminations, truncations, infos)`` of the group's envs, as :meth:`step` gives them for
        all envs, with ``infos["env_id"]`` the envs' indices."""
        return self._env.recv(int(group))

    def render(self):
        """The current RGB frames ``(N, H, W, 3)`` uint8."""
        if self.render_mode is None:
            gym.logger.warn("render() called without render_mode='rgb_array'")
            return None
        return self._env.frames()

    def close_extras(self, **kwargs):
        # Worker threads stop when the native env is dropped.
        self._env = None
