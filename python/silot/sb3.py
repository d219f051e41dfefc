"""Stable-Baselines3 adapter: :class:`SB3VecEnv` is an SB3 ``VecEnv`` over
:class:`silot.SilotVectorEnv` (``SAME_STEP`` autoreset, SB3's convention): a ``done`` env's
returned observation is already its reset one, its last one is in
``infos[i]["terminal_observation"]`` (a frame, or with an encoder the objects of that last
frame, so SB3 bootstraps a truncated episode's value from them),
``infos[i]["TimeLimit.truncated"]`` says whether the episode was cut by a time limit. Needs
``stable-baselines3`` (``pip install silot[sb3]``).

>>> from stable_baselines3 import PPO
>>> from stable_baselines3.common.vec_env import VecMonitor
>>> env = VecMonitor(SB3VecEnv("space_invaders", 8, encoder="space_invaders"))
>>> PPO("MultiInputPolicy", env).learn(10_000)
"""

from __future__ import annotations

from typing import Any, Iterable, Optional, Sequence

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from .env import SilotVectorEnv


def _unbatch_infos(infos: dict, n: int) -> list[dict]:
    """Gymnasium vector infos (arrays over envs + ``_key`` masks) as one dict per env."""
    out: list[dict] = [{} for _ in range(n)]
    for key, value in infos.items():
        if key.startswith("_"):
            continue
        mask = infos.get("_" + key, np.ones(n, dtype=bool))
        for i in np.flatnonzero(mask):
            if isinstance(value, dict):
                out[i][key] = _unbatch_infos(value, n)[i]
            else:
                out[i][key] = value[i].item() if isinstance(value[i], np.generic) else value[i]
    return out


class SB3VecEnv(VecEnv):
    """``num_envs`` silot envs as an SB3 ``VecEnv``. Arguments as :func:`silot.make_vec`;
    ``obs_keys`` keeps only these keys of an object observation (e.g. ``("features",)``)."""

    def __init__(
        self,
        env_id: str,
        num_envs: int,
        obs_keys: Optional[Sequence[str]] = None,
        **kwargs: Any,
    ):
        kwargs["autoreset_mode"] = AutoresetMode.SAME_STEP
        self.venv = SilotVectorEnv(env_id, num_envs, **kwargs)
        obs_space = self.venv.single_observation_space
        self._keys = None
        if obs_keys is not None:
            if not isinstance(obs_space, spaces.Dict):
                raise ValueError("obs_keys applies to envs with an encoder (Dict observations)")
            self._keys = tuple(obs_keys)
            obs_space = spaces.Dict({k: obs_space[k] for k in self._keys})
        super().__init__(num_envs, obs_space, self.venv.single_action_space)
        self._actions: Optional[np.ndarray] = None
        self.render_mode = None

    def _obs(self, obs):
        if self._keys is None:
            return obs
        return {k: obs[k] for k in self._keys}

    def reset(self):
        seed = self._seeds[0] if getattr(self, "_seeds", None) and self._seeds[0] is not None else None
        obs, infos = self.venv.reset(seed=seed)
        self.reset_infos = _unbatch_infos(infos, self.num_envs)
        self._reset_seeds() if hasattr(self, "_reset_seeds") else None
        return self._obs(obs)

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self):
        obs, rewards, terminated, truncated, infos = self.venv.step(self._actions)
        dones = terminated | truncated
        per_env = _unbatch_infos({k: v for k, v in infos.items() if "final" not in k}, self.num_envs)
        final_obs = infos.get("final_obs")
        for i in np.flatnonzero(dones):
            per_env[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            if final_obs is not None and final_obs[i] is not None:
                per_env[i]["terminal_observation"] = self._obs(final_obs[i])
        return self._obs(obs), rewards.astype(np.float32), dones, per_env

    def close(self) -> None:
        self.venv.close()

    def get_attr(self, attr_name: str, indices=None) -> list:
        return [getattr(self.venv, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        setattr(self.venv, attr_name, value)

    def env_method(self, method_name: str, *args, indices=None, **kwargs) -> list:
        raise NotImplementedError("silot's envs are native: no per-env Python methods")

    def env_is_wrapped(self, wrapper_class, indices=None) -> list:
        return [False] * len(self._indices(indices))

    def _indices(self, indices) -> Iterable[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return indices
