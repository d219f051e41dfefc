"""Gymnasium registration: ``gymnasium.make("silot/SpaceInvaders-v0")`` (frames) and
``gymnasium.make("silot/SpaceInvaders-objects-v0")`` (objects from the shipped encoder), after
``import silot`` (or as ``gymnasium.make("silot:silot/SpaceInvaders-objects-v0")``)."""

from __future__ import annotations

import gymnasium as gym

from . import _silot

#: Shipped encoders: env id -> encoder name (models/NAME in the repository).
_SHIPPED = {
    "space_invaders": "space_invaders",
    "scattered_mnist": "scattered_mnist",
    "scattered_shapes": "scattered_shapes",
}


def shipped_encoders() -> dict:
    """``{env_id: encoder name}`` of the encoders shipped with silot."""
    return dict(_SHIPPED)


def gym_name(env_id: str) -> str:
    """``space_invaders`` -> ``SpaceInvaders``."""
    return "".join(p[:1].upper() + p[1:] for p in env_id.split("_"))


def _make(**kwargs):
    from . import SilotEnv

    return SilotEnv(**kwargs)


def _make_vec(num_envs: int = 1, vectorization_mode=None, vector_kwargs=None, **kwargs):
    from . import SilotVectorEnv

    return SilotVectorEnv(num_envs=num_envs, **{**kwargs, **(vector_kwargs or {})})


def register_envs() -> None:
    """Register ``silot/NAME-v0`` for every env id and ``silot/NAME-objects-v0`` for every env
    with a shipped encoder (idempotent)."""
    for env_id in _silot.env_ids():
        variants = [("v0", {})]
        if env_id in _SHIPPED:
            variants.append(("objects-v0", {"encoder": _SHIPPED[env_id]}))
        for suffix, extra in variants:
            gid = f"silot/{gym_name(env_id)}-{suffix}"
            if gid in gym.registry:
                continue
            gym.register(
                id=gid,
                entry_point=_make,
                vector_entry_point=_make_vec,
                kwargs={"env_id": env_id, **extra},
                disable_env_checker=False,
            )
