"""Agent steps/s of the Python vector env (``silot.make_vec`` with an encoder) under random
actions, reported as ``silot observe`` reports its runs, to set the two side by side (issue 46,
item 4: the Python vector env with the GPU encoder at 256 envs reaches >= 0.9 of ``silot
observe`` at the same settings).

    python python/bench/vec_speed.py --envs 256 --steps 1000 --seed 5 --device cuda --groups 2
    silot observe --env space_invaders --checkpoint space_invaders --envs 256 --steps 1000 \\
        --seed 5 --device cuda --groups 2

``--observe PATH`` runs that ``silot observe`` (PATH: the CLI) after the Python run, with the
same settings, and prints the ratio of the two frames/s. ``--api step`` (default) times
Gymnasium's synchronous ``step`` (all groups sent, all received: within a step, one group's envs
step while another's frames are encoded); ``--api async`` times ``send``/``recv`` per group as
``silot observe`` drives its envs (a group's next actions are sent as soon as its results are
read, so the pipeline runs across steps too).

The first line is ``silot observe``'s: frames = envs x (steps + 1) over the time from before
the reset to the end, objects with presence > 0.5 per frame, episodes ended, groups. The second
gives agent steps/s of the steps alone.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time

import numpy as np

import silot


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--env", default="space_invaders")
    p.add_argument("--encoder", default="space_invaders", help="encoder (as silot.make_vec takes it)")
    p.add_argument("--envs", type=int, default=256)
    p.add_argument("--steps", type=int, default=1000)
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    p.add_argument("--groups", type=int, default=None, help="default: make_vec's (2 on cuda, 1 on the CPU)")
    p.add_argument("--num-threads", type=int, default=None, help="env threads (default: one per core)")
    p.add_argument("--threshold", type=float, default=0.5)
    p.add_argument("--api", choices=["step", "async"], default="step")
    p.add_argument("--observe", default=None, help="path of the silot CLI: also run silot observe and compare")
    p.add_argument("--allow-env-mismatch", action="store_true")
    return p.parse_args(argv)


def run_python(a):
    venv = silot.make_vec(
        a.env, a.envs, encoder=a.encoder, device=a.device, seed=a.seed, groups=a.groups,
        num_threads=a.num_threads, allow_env_mismatch=a.allow_env_mismatch,
    )
    n_actions = int(venv.single_action_space.n)
    rng = np.random.default_rng(a.seed)
    counted = episodes = 0
    start = time.perf_counter()
    venv.reset(seed=a.seed)
    step_start = time.perf_counter()
    if a.api == "step":
        for _ in range(a.steps):
            obs, r, term, trunc, _ = venv.step(rng.integers(0, n_actions, size=a.envs))
            counted += int((obs["pres"] > a.threshold).sum())
            episodes += int((term | trunc).sum())
    else:
        groups = venv.groups
        actions = rng.integers(0, n_actions, size=a.envs)
        for g in range(groups):
            venv.send(actions[venv.group_slice(g)], group=g)
        for step in range(a.steps):
            more = step + 1 < a.steps
            nxt = rng.integers(0, n_actions, size=a.envs) if more else None
            for g in range(groups):
                obs, r, term, trunc, _ = venv.recv(group=g)
                if more:
                    venv.send(nxt[venv.group_slice(g)], group=g)
                counted += int((obs["pres"] > a.threshold).sum())
                episodes += int((term | trunc).sum())
    end = time.perf_counter()
    groups = venv.groups
    venv.close()
    return end - start, end - step_start, counted, episodes, groups


def main(argv=None):
    a = parse_args(argv)
    print(f"# silot {silot.__version__} from {silot.__file__} (CUDA build: {silot.cuda_compiled()})", flush=True)
    secs, step_secs, counted, episodes, groups = run_python(a)
    frames = a.envs * (a.steps + 1)
    fps = frames / secs
    device = "Cpu" if a.device == "cpu" else "Cuda"
    print(
        f"{a.envs} envs x {a.steps} steps on {device}: {frames} frames in {secs:.2f} s = {fps:.1f} "
        f"frames/s (env + encoder); {counted / (a.envs * a.steps):.1f} objects per frame with pres > "
        f"{a.threshold}; {episodes} episodes ended; {groups} env group"
        + ("" if groups == 1 else "s (pipelined)")
        + f" [python make_vec, --api {a.api}]"
    )
    print(f"agent steps/s (steps only, {a.envs} envs):")
    print(f"  {'python, ' + str(groups) + ' group' + ('' if groups == 1 else 's'):<20} {a.envs * a.steps / step_secs:>10.1f}")
    sys.stdout.flush()
    if a.observe:
        cmd = [a.observe, "observe", "--env", a.env, "--checkpoint", a.encoder, "--envs", str(a.envs),
               "--steps", str(a.steps), "--seed", str(a.seed), "--device", a.device, "--groups", str(groups)]
        if a.num_threads:
            cmd += ["--env-threads", str(a.num_threads)]
        if a.allow_env_mismatch:
            cmd += ["--allow-env-mismatch"]
        print("$ " + " ".join(cmd), flush=True)
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        print(out, end="")
        m = re.search(r"= ([0-9.]+) frames/s", out)
        if m:
            ref = float(m.group(1))
            print(f"python / observe (frames/s of the first lines): {fps:.1f} / {ref:.1f} = {fps / ref:.2f}")


if __name__ == "__main__":
    main()
