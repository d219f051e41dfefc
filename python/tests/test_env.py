"""Single envs: the env checker, spaces, infos, seeding, registration."""

from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import silot
from conftest import SYNTHETIC, TINY_ENCODER, env_id_params

# Scattered Shapes in 1,000-frame episodes (the streams issue's condition file).
SHAPES_STREAMS = str(
    Path(__file__).resolve().parents[2] / "conditions" / "shapes_1_10_streams.toml"
)


def test_env_ids_cover_synthetic_and_atari(all_ids):
    for env_id in SYNTHETIC + ["space_invaders", "pong", "breakout"]:
        assert env_id in all_ids
    assert all_ids == sorted(all_ids)


@pytest.mark.parametrize("env_id", env_id_params())
def test_env_checker_frames(env_id):
    env = silot.make(env_id)
    check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=0)
    assert obs.dtype == np.uint8 and obs.ndim == 3 and obs.shape[2] == 3
    assert env.observation_space.contains(obs)


@pytest.mark.parametrize("env_id", env_id_params())
def test_env_checker_objects(env_id):
    """With an encoder: the shipped one where there is one, a tiny random one elsewhere."""
    shipped = silot.shipped_encoders().get(env_id)
    if shipped:
        env = silot.make(env_id, encoder=shipped)
    else:
        env = silot.make(env_id, encoder=TINY_ENCODER)
    check_env(env, skip_render_check=True)
    obs, _ = env.reset(seed=1)
    assert env.observation_space.contains(obs)


def test_object_observation_layout():
    env = silot.make("smoke", encoder=TINY_ENCODER)
    k, a = 4, 8  # envs/smoke.toml: n_objects (K), n_what (A)
    space = env.observation_space
    assert isinstance(space, gym.spaces.Dict)
    assert space["features"].shape == (k, 6 + a) and space["features"].dtype == np.float32
    assert space["pres"].shape == (k,) and space["ids"].dtype == np.int64
    obs, _ = env.reset(seed=3)
    for _ in range(3):
        obs, *_ = env.step(0)
        f = obs["features"]
        assert f.dtype == np.float32 and obs["ids"].dtype == np.int64
        np.testing.assert_array_equal(f[:, 0], obs["pres"])  # column 0 is presence
        assert np.all((f[:, 5] >= 0) & (f[:, 5] <= 1))  # depth
        assert np.all(f[:, 3:5] >= 0)  # box height, width (fractions of the frame)
        assert np.all(obs["ids"] >= 0)
    assert silot.feature_names(2) == ["pres", "y", "x", "height", "width", "depth", "what_0", "what_1"]


def test_shipped_encoder_finds_space_invaders_objects():
    env = silot.make("space_invaders", encoder="space_invaders")
    assert env.observation_space["features"].shape == (128, 6 + 64)
    obs, info = env.reset(seed=0)
    for _ in range(4):
        obs, r, term, trunc, info = env.step(0)
    # The invaders' rows alone hold dozens of objects (README: ~47 per frame above 0.5).
    present = obs["pres"] > 0.5
    assert present.sum() > 20
    ids = obs["ids"][present]
    assert len(set(ids.tolist())) == len(ids)  # identities are unique
    assert np.all((obs["features"][present, 1:3] > 0) & (obs["features"][present, 1:3] < 1))
    assert info["lives"] == 3 and info["episode_frame_number"] > 0


def test_infos():
    env = silot.make("space_invaders")
    _, info = env.reset(seed=0)
    assert set(info) == {"lives", "episode_frame_number", "frame_number"}
    start = info["episode_frame_number"]  # after the paper preset's random no-op starts
    _, _, _, _, info = env.step(0)
    assert info["episode_frame_number"] == start + 4  # the paper preset skips 4 frames a step
    assert info["frame_number"] >= info["episode_frame_number"]
    env = silot.make("scattered_shapes")
    obs, info = env.reset(seed=0)
    gt = info["objects"]
    assert gt["ids"].dtype == np.int64 and gt["boxes"].shape == (len(gt["ids"]), 4)
    top, left, bottom, right = gt["boxes"].T
    assert np.all((top < bottom) & (left < right))
    # Every ground-truth box covers lit pixels of the frame.
    for t, l, b, r in gt["boxes"]:
        patch = obs[int(t + 0.5) : int(b + 0.5), int(l + 0.5) : int(r + 0.5)]
        assert patch.max() > 0


def _rollout(env, seed, steps, actions):
    """Observations of ``steps`` steps from a seeded reset; an ended episode is followed by an
    unseeded reset (the env's RNG goes on), so several episodes are covered."""
    obs, _ = env.reset(seed=seed)
    out = [obs]
    for t in range(steps):
        obs, _, term, trunc, _ = env.step(actions[t % len(actions)])
        out.append(obs)
        if term or trunc:
            obs, _ = env.reset()
            out.append(obs)
    return out


def _same(a, b):
    if isinstance(a, dict):
        return all(np.array_equal(a[k], b[k]) for k in a)
    return np.array_equal(a, b)


@pytest.mark.parametrize(
    "env_id,encoder", [("breakout", None), ("scattered_mnist", None), ("smoke", TINY_ENCODER)]
)
def test_seeding_is_deterministic(env_id, encoder):
    actions = [0, 1, 2, 3] if env_id == "breakout" else [0]
    a = _rollout(silot.make(env_id, encoder=encoder), 5, 30, actions)
    b = _rollout(silot.make(env_id, encoder=encoder), 5, 30, actions)
    assert all(_same(x, y) for x, y in zip(a, b))
    c = _rollout(silot.make(env_id, encoder=encoder), 6, 30, actions)
    assert not all(_same(x, y) for x, y in zip(a, c))


def test_make_seed_is_used_by_the_first_reset():
    a, _ = silot.make("scattered_shapes", seed=11).reset()
    b, _ = silot.make("scattered_shapes").reset(seed=11)
    np.testing.assert_array_equal(a, b)


def test_gymnasium_make_registration():
    env = gym.make("silot/SpaceInvaders-objects-v0")
    obs, _ = env.reset(seed=0)
    assert obs["features"].shape == (128, 70)
    env = gym.make("silot/ScatteredShapes-v0")
    assert env.reset(seed=0)[0].shape == (96, 96, 3)
    venv = gym.make_vec("silot/Smoke-v0", num_envs=3)
    assert venv.reset(seed=0)[0].shape == (3, 24, 24, 3)


def test_render():
    env = silot.make("smoke", render_mode="rgb_array")
    obs, _ = env.reset(seed=0)
    np.testing.assert_array_equal(env.render(), obs)


def test_presence_carry_reid_keeps_identities_dedup_loses():
    # 1,000-frame Scattered Shapes episodes with the shipped encoder: where shapes touch, the
    # tracked object dies and discovery finds the shape again; `reid` gives it back its identity.
    identities = {}
    for carry in ["dedup", "reid"]:
        env = silot.make(SHAPES_STREAMS, encoder="scattered_shapes", seed=5, presence_carry=carry)
        obs, _ = env.reset()
        seen = set()
        for _ in range(200):
            seen.update(obs["ids"][obs["pres"] > 0.5].tolist())
            obs, *_ = env.step(0)
        identities[carry] = len(seen)
    assert identities["reid"] < identities["dedup"], identities
    with pytest.raises(silot.SilotError, match="presence_carry must be"):
        silot.make("smoke", encoder=TINY_ENCODER, presence_carry="sticky")
