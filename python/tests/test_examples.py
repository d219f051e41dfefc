"""The CleanRL-style PPO example runs (a few hundred steps; skipped without torch)."""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _load(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("obs", ["objects", "pixels"])
def test_ppo_example_runs(obs, tmp_path):
    ppo = _load("ppo_objects")
    summary = ppo.main([
        "--obs", obs, "--env", "smoke", "--encoder", "untrained:smoke", "--device", "cpu",
        "--total-timesteps", "256", "--num-envs", "2", "--num-steps", "64",
        "--num-minibatches", "2", "--update-epochs", "1", "--hidden", "16",
        "--out", str(tmp_path),
    ])
    assert summary["agent_steps"] == 256
    # Episodes of the synthetic env are 8 frames (7 steps): 2 envs x 128 steps end 2 x 18.
    assert summary["episodes"] == 36
    run = tmp_path / summary["run"]
    assert json.loads((run / "summary.json").read_text())["obs"] == obs
    lines = (run / "episodes.csv").read_text().splitlines()
    assert lines[0] == "global_step,return,length" and len(lines) == summary["episodes"] + 1
