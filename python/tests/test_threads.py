"""The GIL is released while envs step and the encoder runs."""

import os
import threading
import time

import numpy as np
import pytest

import silot
from conftest import TINY_ENCODER


def _step_loop(venv, steps, actions):
    for _ in range(steps):
        venv.step(actions)


def test_python_threads_run_during_a_native_step():
    """A pure-Python thread keeps counting while another thread is inside long native steps
    (impossible if those calls held the GIL)."""
    venv = silot.make_vec("space_invaders", 2, encoder="space_invaders", num_threads=1)
    venv.reset(seed=0)
    count = 0
    stop = threading.Event()

    def spin():
        nonlocal count
        while not stop.is_set():
            count += 1

    t = threading.Thread(target=spin)
    # Python switches threads only every sys.getswitchinterval() (5 ms): a 4-step native call
    # (hundreds of ms on a CPU) that held the GIL would leave the counter still.
    t.start()
    time.sleep(0.05)
    before = count
    start = time.perf_counter()
    _step_loop(venv, 4, np.zeros(2, dtype=np.int64))
    native = time.perf_counter() - start
    during = count - before
    stop.set()
    t.join()
    assert native > 0.05
    assert during > 1000, f"Python thread counted {during} times during {native:.3f} s of native steps"


def _throughput(venvs, steps):
    """Env steps per second of ``len(venvs)`` Python threads, one per vector env."""
    actions = np.zeros(venvs[0].num_envs, dtype=np.int64)
    threads = [threading.Thread(target=_step_loop, args=(v, steps, actions)) for v in venvs]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return len(venvs) * venvs[0].num_envs * steps / (time.perf_counter() - start)


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="needs two cores")
@pytest.mark.skipif(os.environ.get("SILOT_SKIP_TIMING") == "1", reason="SILOT_SKIP_TIMING=1")
def test_two_threads_step_two_vector_envs_nearly_twice_as_fast():
    """Two Python threads stepping two vector envs (4 Breakout envs each, one worker thread
    each, no encoder: Atari stepping dominates) reach >= 1.8x the env steps/s of one thread.

    On a shared machine (CI, two cores) other processes take cores away, so each trial also
    measures what Rust's own threads get out of the machine at that moment: one Python thread
    stepping one vector env of 8 envs on 2 worker threads (no GIL involved at all), against
    the 4-env one. The bound is 1.8x, or 90% of that native speedup where the machine gives
    less; with less than 1.5x native (no second core free) the test is skipped, not passed.
    A step that held the GIL would give two Python threads ~1.0x whatever the load."""
    venvs = [silot.make_vec("breakout", 4, num_threads=1) for _ in range(2)]
    native = silot.make_vec("breakout", 8, num_threads=2)
    for v in venvs + [native]:
        v.reset(seed=0)
    steps = 150
    trials = []
    for _ in range(5):
        one = _throughput(venvs[:1], steps)
        two = _throughput(venvs, steps)
        par = _throughput([native], steps)
        trials.append((two / one, par / one))
        bound = min(1.8, 0.9 * trials[-1][1])
        if trials[-1][1] >= 1.5 and trials[-1][0] >= bound:
            break
    print("two Python threads / one, native 2 workers / 1: "
          + ", ".join(f"{r:.2f} / {n:.2f}" for r, n in trials))
    usable = [(r, n) for r, n in trials if n >= 1.5]
    if not usable:
        pytest.skip(f"no second core free (native speedups {[round(n, 2) for _, n in trials]})")
    assert any(r >= min(1.8, 0.9 * n) for r, n in usable), f"(two/one, native) = {trials}"
