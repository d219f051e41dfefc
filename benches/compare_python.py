#!/usr/bin/env python3
"""Atari throughput: ours (Rust, `examples/atari_throughput.rs`) vs ale-py 0.12 (`AtariEnv`,
`AtariVectorEnv`) vs envpool, same settings: Space Invaders, RGB 210x160 observations,
frameskip 1 and 4, no sticky actions, no no-op starts / fire reset / episodic life / reward
clipping / frame stacking / max-pooling where the library lets us turn them off.
envpool cannot turn off two things: `noop_max=1` still steps one no-op frame per reset, and at
frameskip >= 2 it always max-pools the last two frames (and fetches RGB for both); it also
returns CHW, so it transposes every frame. Its settings are otherwise the same.

Installs nothing. Setup (a virtualenv is fine):
    pip install "ale-py==0.12.*" envpool
    cargo build --release --example atari_throughput
Run (alternates Rust and Python measurements `--rounds` times, prints medians and ratios):
    python benches/compare_python.py --rounds 3 --seconds 3
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

import numpy as np

GAME = "space_invaders"


def actions(n, count=4096, seed=0):
    return np.random.default_rng(seed).integers(0, n, size=count)


def timed(seconds, step):
    """Run `step(i)` (returns emulator frames) for `seconds` after a 0.3 s warm-up.

    Returns (frames per wall second, frames per CPU second of the whole process)."""
    i = 0
    warm = time.perf_counter()
    while time.perf_counter() - warm < 0.3:
        step(i)
        i += 1
    frames = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    while True:
        for _ in range(16):
            frames += step(i)
            i += 1
        t = time.perf_counter() - start
        if t >= seconds:
            return frames / t, frames / (time.process_time() - cpu_start)


def alepy_single(fs, seconds):
    from ale_py import AtariEnv

    env = AtariEnv(
        game=GAME,
        obs_type="rgb",
        frameskip=fs,
        repeat_action_probability=0.0,
        max_num_frames_per_episode=108000,
    )
    env.reset(seed=1)
    acts = actions(env.action_space.n)

    def step(i):
        _, _, term, trunc, _ = env.step(int(acts[i % len(acts)]))
        if term or trunc:
            env.reset()
        return fs

    return timed(seconds, step)


def alepy_vector(fs, n, threads, seconds):
    from ale_py.vector_env import AtariVectorEnv

    env = AtariVectorEnv(
        game=GAME,
        num_envs=n,
        num_threads=threads,
        img_height=210,
        img_width=160,
        grayscale=False,
        stack_num=1,
        frameskip=fs,
        maxpool=False,
        noop_max=0,
        use_fire_reset=False,
        episodic_life=False,
        reward_clipping=False,
        repeat_action_probability=0.0,
    )
    env.reset(seed=1)
    acts = actions(env.single_action_space.n, count=4096 * n).reshape(-1, n)

    def step(i):
        env.step(acts[i % len(acts)])
        return n * fs

    rate = timed(seconds, step)
    env.close()
    return rate


def envpool_vector(fs, n, threads, seconds):
    import envpool

    env = envpool.make(
        "SpaceInvaders-v5",
        env_type="gymnasium",
        num_envs=n,
        batch_size=n,
        num_threads=threads,
        seed=1,
        img_height=210,
        img_width=160,
        gray_scale=False,
        stack_num=1,
        frame_skip=fs,
        noop_max=1,
        use_fire_reset=False,
        episodic_life=False,
        reward_clip=False,
        repeat_action_probability=0.0,
        max_episode_steps=108000 // fs,
    )
    env.reset()
    acts = actions(env.action_space.n, count=4096 * n).reshape(-1, n)

    def step(i):
        env.step(acts[i % len(acts)])
        return n * fs

    rate = timed(seconds, step)
    env.close()
    return rate


RESULT = re.compile(
    r"RESULT impl=(\S+) envs=(\d+) threads=(\d+) frameskip=(\d+) fps=([\d.]+) "
    r"cpu_fps=([\d.]+|NaN)"
)


def run_rust(args):
    cmd = [
        args.rust_bin,
        "--seconds", str(args.seconds),
        "--frameskip", ",".join(map(str, args.frameskip)),
        "--envs", ",".join(map(str, args.envs)),
        "--threads", str(args.threads),
    ]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    for m in RESULT.finditer(out):
        name, envs, threads, fs, fps, cpu_fps = m.groups()
        yield (name, int(envs), int(fs)), (float(fps), float(cpu_fps))


def run_python(args):
    for fs in args.frameskip:
        try:
            yield ("alepy_single", 1, fs), alepy_single(fs, args.seconds)
        except ImportError as e:
            print(f"ale-py unavailable: {e}", file=sys.stderr)
        for n in args.envs:
            try:
                yield ("alepy_vector", n, fs), alepy_vector(fs, n, args.threads, args.seconds)
            except ImportError as e:
                print(f"ale-py unavailable: {e}", file=sys.stderr)
            try:
                yield ("envpool", n, fs), envpool_vector(fs, n, args.threads, args.seconds)
            except ImportError as e:
                print(f"envpool unavailable: {e}", file=sys.stderr)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--frameskip", type=int, nargs="+", default=[1, 4])
    p.add_argument("--envs", type=int, nargs="+", default=[2, 8])
    p.add_argument("--threads", type=int, default=2)
    p.add_argument(
        "--rust-bin",
        default=os.path.join(
            os.environ.get("CARGO_TARGET_DIR", "target"), "release", "examples", "atari_throughput"
        ),
    )
    p.add_argument("--json", help="also write all samples to this file")
    args = p.parse_args()

    samples = {}
    for r in range(args.rounds):
        for source in (run_rust, run_python) if r % 2 == 0 else (run_python, run_rust):
            for key, (fps, cpu_fps) in source(args):
                samples.setdefault(key, []).append((fps, cpu_fps))
                print(f"round {r} {key[0]:>14} envs={key[1]} fs={key[2]}: {fps:10.0f} frames/s "
                      f"wall, {cpu_fps:10.0f} frames/s CPU (load {os.getloadavg()[0]:.1f})",
                      flush=True)

    med = {k: statistics.median(f for f, _ in v) for k, v in samples.items()}
    cpu = {k: statistics.median(c for _, c in v) for k, v in samples.items()}
    print(f"\nmedian frames/s over {args.rounds} rounds ({os.cpu_count()} CPUs, "
          f"load avg {os.getloadavg()[0]:.1f}): wall-clock | per CPU-second of the process")
    for k in sorted(med):
        print(f"  {k[0]:>14} envs={k[1]} fs={k[2]}: {med[k]:10.0f} | {cpu[k]:10.0f}")

    def ratio(label, a, b):
        if a in med and b in med:
            print(f"  {label}: {med[a] / med[b]:.2f}x wall | {cpu[a] / cpu[b]:.2f}x CPU")

    print("\nratios (wall-clock | per CPU-second):")
    for fs in args.frameskip:
        ratio(f"single / raw ALE, fs={fs}", ("rust_single", 1, fs), ("rust_raw_ale", 1, fs))
        for n in args.envs:
            v = ("rust_vector", n, fs)
            if v in med and ("rust_single", 1, fs) in med:
                single = ("rust_single", 1, fs)
                print(f"  vector {n} envs / (2 x single), fs={fs}: "
                      f"{med[v] / (2 * med[single]):.2f} wall | "
                      f"per CPU-second vector / single: {cpu[v] / cpu[single]:.2f}")
            ratio(f"vector {n} envs / ale-py AtariVectorEnv, fs={fs}", v, ("alepy_vector", n, fs))
            ratio(f"vector {n} envs / envpool, fs={fs}", v, ("envpool", n, fs))
        ratio(f"ale-py AtariEnv / raw ALE, fs={fs}", ("alepy_single", 1, fs), ("rust_raw_ale", 1, fs))
    if args.json:
        with open(args.json, "w") as f:
            json.dump([{"impl": k[0], "envs": k[1], "frameskip": k[2], "fps": f_, "cpu_fps": c}
                       for k, vs in samples.items() for f_, c in vs], f, indent=1)


if __name__ == "__main__":
    main()
