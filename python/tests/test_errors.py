"""Rust errors surface as silot.SilotError with the Rust message; bad arguments as ValueError."""

import numpy as np
import pytest

import silot
from conftest import TINY_ENCODER


def test_unknown_env():
    with pytest.raises(silot.SilotError, match="unknown env id `nope`; known ids: .*space_invaders"):
        silot.make("nope")
    with pytest.raises(silot.SilotError, match="unknown env id"):
        silot.make_vec("nope", 2)


def test_invalid_action():
    env = silot.make("breakout")
    env.reset(seed=0)
    with pytest.raises(silot.SilotError, match=r"invalid action 9: the action space is Discrete\(4\)"):
        env.step(9)
    with pytest.raises(silot.SilotError, match="invalid action -1"):
        env.step(-1)
    venv = silot.make_vec("breakout", 2)
    venv.reset(seed=0)
    with pytest.raises(silot.SilotError, match="invalid action 4"):
        venv.step([0, 4])
    with pytest.raises(silot.SilotError, match="3 actions for 2 envs"):
        venv.step([0, 0, 0])


def test_step_before_reset_and_after_the_end():
    env = silot.make("smoke")
    with pytest.raises(silot.SilotError, match="reset"):
        env.step(0)
    env.reset(seed=0)
    for _ in range(7):
        *_, trunc, _ = env.step(0)
    assert trunc
    with pytest.raises(silot.SilotError, match="reset"):
        env.step(0)
    env.reset()
    env.step(0)  # usable again


def test_encoder_errors():
    with pytest.raises(silot.SilotError, match="no_such_run"):
        silot.make("smoke", encoder="/tmp/no_such_run")
    # The shipped encoder was trained on 195x160 Space Invaders frames.
    with pytest.raises(silot.SilotError, match="trained on"):
        silot.make("breakout", encoder="space_invaders")
    env = silot.make("breakout", encoder="space_invaders", allow_env_mismatch=True)
    assert env.observation_space["features"].shape == (128, 70)
    with pytest.raises(silot.SilotError, match="unknown env id `nope`"):
        silot.make("smoke", encoder="untrained:nope")


def test_device_errors():
    with pytest.raises(silot.SilotError, match='device must be "cpu" or "cuda"'):
        silot.make("smoke", encoder=TINY_ENCODER, device="tpu")
    if not silot.cuda_compiled():
        with pytest.raises(silot.SilotError, match="without CUDA support"):
            silot.make("smoke", encoder=TINY_ENCODER, device="cuda")


def test_bad_arguments():
    with pytest.raises(ValueError, match="non-negative"):
        silot.make("smoke").reset(seed=-1)
    with pytest.raises(ValueError, match="non-negative"):
        silot.make_vec("smoke", 2).reset(seed=-1)
    with pytest.raises(ValueError, match="num_envs"):
        silot.make_vec("smoke", 0)
    with pytest.raises(ValueError, match="autoreset_mode"):
        silot.make_vec("smoke", 1, autoreset_mode="Disabled")
    with pytest.raises(ValueError, match="reset options"):
        silot.make("smoke").reset(options={"x": 1})


def test_bad_config_file(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text('[env]\nid = "bad"\n[env.scattered_shapes]\nepisode_length = 0\n')
    with pytest.raises(silot.SilotError, match="episode_length"):
        silot.make(str(p))
