"""silot: pixel RL envs (Atari through ALE, Scattered MNIST/Shapes) as Gymnasium envs, with
observations optionally turned into object sets by a trained SILOT encoder.

>>> import silot
>>> env = silot.make("space_invaders", encoder="space_invaders")   # a gymnasium.Env
>>> envs = silot.make_vec("space_invaders", 8, encoder="space_invaders")

See docs/python.md for the observation layout, infos and seeding.
"""

from __future__ import annotations

from typing import Optional, Union

from gymnasium.vector import AutoresetMode

from ._silot import SilotError, cuda_compiled, env_ids, feature_names
from .env import FIXED_FEATURES, EncoderArg, SilotEnv, SilotVectorEnv, object_space
from .registration import register_envs, shipped_encoders

__all__ = [
    "FIXED_FEATURES",
    "SilotEnv",
    "SilotError",
    "SilotVectorEnv",
    "cuda_compiled",
    "env_ids",
    "feature_names",
    "make",
    "make_vec",
    "object_space",
    "register_envs",
    "shipped_encoders",
]

__version__ = "0.1.0"


def make(
    env_id: str,
    encoder: EncoderArg = None,
    device: str = "cpu",
    seed: Optional[int] = None,
    render_mode: Optional[str] = None,
    allow_env_mismatch: bool = False,
    presence_carry: Optional[str] = None,
) -> SilotEnv:
    """One env as a :class:`gymnasium.Env`.

    ``env_id``: a silot env id (:func:`env_ids`: ``"space_invaders"``, ``"scattered_mnist"``,
    any bundled Atari game, ...) or an experiment TOML path. ``encoder``: ``None`` (observations
    are RGB frames), a shipped encoder's name (``"space_invaders"``), a run or checkpoint
    directory of ``silot train``, or ``"untrained:EXPERIMENT"`` (a random model, for tests).
    ``device``: ``"cpu"`` or ``"cuda"`` (a CUDA build). ``seed``: used by the first
    ``reset()`` without a seed, and for the encoder's noise. ``presence_carry``: how objects are
    carried from step to step, ``None`` (the encoder's own setting, ``"reid"`` for the shipped
    ones: an object found again where a lost one was, or where its motion takes it, keeps the
    lost one's id; docs/streams.md), ``"dedup"`` (without that: about twice the identity
    switches), ``"binary"`` or ``"product"`` (the paper's).
    """
    return SilotEnv(
        env_id, encoder, device, seed, render_mode, allow_env_mismatch, presence_carry
    )


def make_vec(
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
) -> SilotVectorEnv:
    """``num_envs`` envs stepped on ``num_threads`` threads (default: one per core) as a
    :class:`gymnasium.vector.VectorEnv`; one batched encoder step per vector step. Arguments as
    :func:`make`; env ``i`` is seeded with ``seed + i``.

    ``groups`` (with an encoder): split the envs into this many groups (``1 <= groups <=
    num_envs``, sizes differing by at most one), each with its own copy of the encoder, stepped
    and encoded in a pipeline: one group's envs step while another group's frames are encoded
    (``silot observe --groups``). Default: 2 for an Atari env on ``device="cuda"`` (with at
    least 2 envs), else 1: a synthetic env steps ~30x faster than the encoder, so the pipeline
    would only halve the encoder's batch, and on the CPU the envs and the encoder share the
    cores. Same ids, rewards, flags and autoresets as ``groups=1``."""
    return SilotVectorEnv(
        env_id,
        num_envs,
        encoder,
        device,
        seed,
        num_threads,
        autoreset_mode,
        render_mode,
        allow_env_mismatch,
        groups,
        presence_carry,
    )


register_envs()
