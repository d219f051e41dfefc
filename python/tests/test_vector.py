"""The vector env: spaces, seeding against single envs, both autoreset modes, infos."""

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import silot
from conftest import TINY_ENCODER


def test_spaces_and_metadata():
    venv = silot.make_vec("smoke", 3, encoder=TINY_ENCODER)
    assert venv.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert venv.num_envs == 3
    assert venv.observation_space["features"].shape == (3, 4, 14)
    assert venv.action_space.shape == (3,)
    obs, infos = venv.reset(seed=0)
    assert venv.observation_space.contains(obs)
    obs, rewards, term, trunc, infos = venv.step(venv.action_space.sample())
    assert venv.observation_space.contains(obs)
    assert rewards.dtype == np.float64 and term.dtype == bool and trunc.shape == (3,)
    venv.close()


def test_env_i_is_the_single_env_seeded_with_seed_plus_i():
    venv = silot.make_vec("breakout", 3, num_threads=2)
    obs, infos = venv.reset(seed=7)
    singles = [silot.make("breakout") for _ in range(3)]
    first = [e.reset(seed=7 + i)[0] for i, e in enumerate(singles)]
    for i in range(3):
        np.testing.assert_array_equal(obs[i], first[i])
    np.testing.assert_array_equal(infos["lives"], [5, 5, 5])
    assert infos["_lives"].all()
    rng = np.random.default_rng(0)
    for _ in range(20):
        actions = rng.integers(0, 4, size=3)
        obs, rewards, *_ = venv.step(actions)
        for i, e in enumerate(singles):
            o, r, *_ = e.step(actions[i])
            np.testing.assert_array_equal(obs[i], o)
            assert rewards[i] == r


def test_next_step_autoreset():
    """Episodes of the synthetic envs are 8 frames: the 7th step truncates, the 8th resets."""
    venv = silot.make_vec("smoke", 2)
    single = silot.make("smoke")
    obs, _ = venv.reset(seed=4)
    ref, _ = single.reset(seed=4)
    for t in range(1, 8):
        obs, r, term, trunc, infos = venv.step([0, 0])
        ref, *_ = single.step(0)
        np.testing.assert_array_equal(obs[0], ref)
        assert trunc.tolist() == [t == 7] * 2 and not term.any()
    # The step after the end resets (its action ignored): reward 0, no flags, frame 0 of a
    # new episode (the env's RNG continues, so not the first episode's frame 0).
    obs, r, term, trunc, infos = venv.step([0, 0])
    assert not (term.any() or trunc.any()) and r.tolist() == [0, 0]
    single.reset()
    assert set(infos["objects"]["ids"][0].tolist()) == set(range(len(infos["objects"]["ids"][0])))


def test_same_step_autoreset_gives_final_obs():
    venv = silot.make_vec("smoke", 2, autoreset_mode="SameStep")
    assert venv.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    single = silot.make("smoke")
    venv.reset(seed=4)
    single.reset(seed=4)
    for t in range(1, 8):
        obs, r, term, trunc, infos = venv.step([0, 0])
        ref, _, _, ref_trunc, ref_info = single.step(0)
        if t < 7:
            assert "final_obs" not in infos
            np.testing.assert_array_equal(obs[0], ref)
    assert trunc.all()
    assert infos["_final_obs"].tolist() == [True, True]
    np.testing.assert_array_equal(infos["final_obs"][0], ref)
    np.testing.assert_array_equal(
        infos["final_info"]["objects"]["boxes"][0], ref_info["objects"]["boxes"]
    )
    # The returned observation is the next episode's first frame.
    assert not np.array_equal(obs[0], ref)


def test_encoder_restarts_objects_of_autoreset_envs():
    """NEXT_STEP: the step after an episode's end restarts that env's objects, with fresh ids
    (ids keep counting within an env across its episodes)."""
    venv = silot.make_vec("smoke", 2, encoder=TINY_ENCODER)
    obs, _ = venv.reset(seed=0)
    assert obs["ids"].min() == 0  # ids are counted from 0 in each env
    for t in range(7):
        prev = obs
        obs, r, term, trunc, infos = venv.step([0, 0])
    assert trunc.all()
    last = obs
    obs, r, term, trunc, infos = venv.step([0, 0])
    for i in range(2):
        assert obs["ids"][i].min() > max(last["ids"][i].max(), prev["ids"][i].max())


def test_infos_layout_atari():
    venv = silot.make_vec("space_invaders", 2)
    _, infos = venv.reset(seed=0)
    assert infos["lives"].tolist() == [3, 3]
    assert infos["episode_frame_number"].dtype == np.int64 and infos["_lives"].all()
    start = infos["episode_frame_number"]  # random no-op starts: one count per env
    _, _, _, _, infos = venv.step([0, 0])
    assert infos["episode_frame_number"].tolist() == (start + 4).tolist()
    assert "objects" not in infos


def test_same_step_with_an_encoder_matches_next_step():
    """SAME_STEP with an encoder: the ending step's ``final_obs`` holds the objects of the last
    frame (what NEXT_STEP returns at that step) and its observation the new episode's first
    objects (what NEXT_STEP returns one step later), with fresh ids."""
    same = silot.make_vec("smoke", 2, encoder=TINY_ENCODER, autoreset_mode="SameStep")
    nxt = silot.make_vec("smoke", 2, encoder=TINY_ENCODER)
    obs, _ = same.reset(seed=2)
    ref, _ = nxt.reset(seed=2)
    for t in range(1, 8):
        prev = obs
        obs, r, term, trunc, infos = same.step([0, 0])
        ref, *_ = nxt.step([0, 0])
        if t < 7:
            assert "final_obs" not in infos
            for k in ref:
                np.testing.assert_array_equal(obs[k], ref[k])
    assert trunc.all() and infos["_final_obs"].all()
    restarted, *_ = nxt.step([0, 0])
    for i in range(2):
        final = infos["final_obs"][i]
        assert set(final) == {"features", "pres", "ids"}
        assert same.single_observation_space.contains(final)
        for k in final:
            np.testing.assert_array_equal(final[k], ref[k][i])
        np.testing.assert_allclose(obs["features"][i], restarted["features"][i], atol=1e-5)
        np.testing.assert_array_equal(obs["ids"][i], restarted["ids"][i])
        assert obs["ids"][i].min() > max(prev["ids"][i].max(), final["ids"].max())
    # The next steps go on in step with the NEXT_STEP env (one step behind it).
    for _ in range(3):
        obs, *_ = same.step([0, 0])
        ref, *_ = nxt.step([0, 0])
        np.testing.assert_allclose(obs["features"], ref["features"], atol=1e-5)
        np.testing.assert_array_equal(obs["ids"], ref["ids"])
