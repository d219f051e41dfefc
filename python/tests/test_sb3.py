"""The Stable-Baselines3 adapter (skipped without stable-baselines3; CI installs it)."""

import numpy as np
import pytest

sb3 = pytest.importorskip("stable_baselines3")

from stable_baselines3 import PPO  # noqa: E402
from stable_baselines3.common.env_checker import check_env as _unused  # noqa: E402,F401
from stable_baselines3.common.vec_env import VecMonitor  # noqa: E402

from silot.sb3 import SB3VecEnv  # noqa: E402

from conftest import TINY_ENCODER  # noqa: E402


def test_terminal_observations_and_reset_obs():
    env = SB3VecEnv("smoke", 2)
    obs = env.reset()
    assert obs.shape == (2, 24, 24, 3)
    for t in range(1, 8):
        obs, rewards, dones, infos = env.step(np.zeros(2, dtype=np.int64))
        assert dones.tolist() == [t == 7] * 2
    for i in range(2):
        assert infos[i]["TimeLimit.truncated"] is True
        term = infos[i]["terminal_observation"]
        assert term.shape == (24, 24, 3) and not np.array_equal(term, obs[i])
        assert "objects" in infos[i]


def test_terminal_observations_of_objects():
    env = SB3VecEnv("smoke", 2, encoder=TINY_ENCODER, obs_keys=("features", "ids"))
    assert set(env.observation_space.spaces) == {"features", "ids"}
    obs = env.reset()
    for t in range(1, 8):
        prev = obs
        obs, rewards, dones, infos = env.step(np.zeros(2, dtype=np.int64))
    assert dones.all()
    for i in range(2):
        term = infos[i]["terminal_observation"]
        assert set(term) == {"features", "ids"} and term["features"].shape == (4, 14)
        assert env.observation_space["features"].contains(term["features"])
        # The returned objects are the new episode's: fresh ids.
        assert obs["ids"][i].min() > max(term["ids"].max(), prev["ids"][i].max())


def test_ppo_multi_input_policy_runs_on_objects():
    env = VecMonitor(SB3VecEnv("smoke", 2, encoder=TINY_ENCODER, seed=0))
    model = PPO("MultiInputPolicy", env, n_steps=16, batch_size=16, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=64)
    assert model.num_timesteps >= 64
    obs = env.reset()
    action, _ = model.predict(obs, deterministic=True)
    assert action.shape == (2,)
    # VecMonitor saw whole episodes (8 frames each).
    assert len(model.ep_info_buffer) > 0 and model.ep_info_buffer[0]["l"] == 7
