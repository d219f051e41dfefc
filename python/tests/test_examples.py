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


def test_ppo_example_runs_with_attention_over_slots(tmp_path):
    ppo = _load("ppo_objects")
    summary = ppo.main([
        "--obs", "objects", "--set-encoder", "attention", "--attention-layers", "1",
        "--attention-heads", "2", "--env", "smoke", "--encoder", "untrained:smoke",
        "--device", "cpu", "--total-timesteps", "256", "--num-envs", "2", "--num-steps", "64",
        "--num-minibatches", "2", "--update-epochs", "1", "--hidden", "16", "--out", str(tmp_path),
    ])
    assert summary["agent_steps"] == 256 and summary["episodes"] == 36


def test_attention_agent_is_a_set_function_of_present_slots():
    """Permuting the slots leaves the output unchanged; an absent slot's features (presence 0)
    barely move it (its keys are weighted by presence 1e-4), a present slot's move it a lot."""
    import torch

    ppo = _load("ppo_objects")
    torch.manual_seed(0)
    agent = ppo.AttentionObjectAgent(slot_dim=9, n_actions=4, hidden=32, layers=2, heads=4)
    x = torch.randn(3, 10, 9)
    x[..., 0] = torch.rand(3, 10) * 0.5 + 0.5
    x[:, 7:, 0] = 0.0  # slots 7..9 absent
    base = agent.hidden(x)
    perm = torch.randperm(10)
    assert torch.allclose(agent.hidden(x[:, perm]), base, atol=1e-5)
    moved_absent = x.clone()
    moved_absent[:, 7:, 1:] += 5.0 * torch.randn(3, 3, 8)
    moved_present = x.clone()
    moved_present[:, 2, 1:] += 5.0 * torch.randn(3, 8)
    d_absent = (agent.hidden(moved_absent) - base).abs().max().item()
    d_present = (agent.hidden(moved_present) - base).abs().max().item()
    assert d_absent < 1e-2 * d_present and d_present > 1e-2


def test_ppo_example_resumes_a_checkpoint_older_than_its_flags(tmp_path):
    """A checkpoint whose saved arguments lack a flag added since (--set-encoder) resumes with
    that flag's default, the agent it was trained with."""
    import torch

    ppo = _load("ppo_objects")
    run = tmp_path / "run"
    common = ["--run-dir", str(run), "--device", "cpu", "--save-every", "1"]
    ppo.main(common + [
        "--obs", "objects", "--env", "smoke", "--encoder", "untrained:smoke",
        "--total-timesteps", "256", "--num-envs", "2", "--num-steps", "64",
        "--num-minibatches", "2", "--update-epochs", "1", "--hidden", "16", "--stop-after", "1e-9",
    ])
    ckpt = torch.load(run / "checkpoint.pt", map_location="cpu", weights_only=False)
    for k in ("set_encoder", "attention_layers", "attention_heads"):
        del ckpt["args"][k]
    torch.save(ckpt, run / "checkpoint.pt")
    done = ppo.main(common + ["--resume"])
    assert done["finished"] and done["agent_steps"] == 256


@pytest.mark.parametrize("obs", ["objects", "pixels"])
def test_ppo_example_stops_and_resumes(obs, tmp_path):
    """--stop-after checkpoints after the first update and exits; --resume goes on to the end:
    the optimizer's step count, the global step and the episode log continue."""
    import torch

    ppo = _load("ppo_objects")
    run = tmp_path / "run"
    common = [
        "--run-dir", str(run), "--device", "cpu", "--save-every", "1",
    ]
    first = ppo.main(common + [
        "--obs", obs, "--env", "smoke", "--encoder", "untrained:smoke",
        "--total-timesteps", "512", "--num-envs", "2", "--num-steps", "64",
        "--num-minibatches", "2", "--update-epochs", "1", "--hidden", "16",
        "--stop-after", "1e-9",
    ])
    assert first["agent_steps"] == 128 and not first["finished"]
    ckpt = torch.load(run / "checkpoint.pt", map_location="cpu", weights_only=False)
    assert ckpt["iteration"] == 1 and ckpt["global_step"] == 128
    # Only --resume and the sitting's own flags: the rest comes from the checkpoint.
    done = ppo.main(common + ["--resume"])
    assert done["agent_steps"] == 512 and done["finished"] and done["total_timesteps"] == 512
    ckpt = torch.load(run / "checkpoint.pt", map_location="cpu", weights_only=False)
    assert ckpt["iteration"] == 4
    steps = {int(s["step"]) for s in ckpt["optimizer"]["state"].values()}
    assert steps == {4 * 2}  # 4 updates x 1 epoch x 2 minibatches, across the two sittings
    lines = (run / "episodes.csv").read_text().splitlines()
    assert len(lines) == done["episodes"] + 1 and done["episodes"] >= first["episodes"] + 50
    assert json.loads((run / "summary.json").read_text())["finished"]
