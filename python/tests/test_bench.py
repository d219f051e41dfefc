"""python/bench/vec_speed.py runs and reports in silot observe's format (both APIs)."""

import importlib.util
import re
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench" / "vec_speed.py"


@pytest.mark.parametrize("api", ["step", "async"])
def test_vec_speed_reports_like_observe(api, capsys):
    spec = importlib.util.spec_from_file_location("vec_speed", BENCH)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["vec_speed"] = mod
    spec.loader.exec_module(mod)
    mod.main(["--env", "smoke", "--encoder", "untrained:smoke", "--envs", "5", "--steps", "20",
              "--groups", "2", "--api", api, "--device", "cpu"])
    out = capsys.readouterr().out
    # 20 steps of 8-frame episodes: each of the 5 envs ends 2 (next_step autoreset).
    assert re.search(
        r"^5 envs x 20 steps on Cpu: 105 frames in [0-9.]+ s = [0-9.]+ frames/s \(env \+ encoder\); "
        r"[0-9.]+ objects per frame with pres > 0.5; 10 episodes ended; 2 env groups \(pipelined\)",
        out, re.M), out
    assert re.search(r"^  python, 2 groups +[0-9.]+$", out, re.M), out
