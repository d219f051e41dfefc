#!/usr/bin/env bash
# Build the `silot` Python wheel with the CUDA encoder (`device="cuda"`) and put it, with the
# pure-Python wheels a GPU machine without internet lacks (gymnasium and its needs,
# stable-baselines3), into python/kit/ (git-ignored): what scripts/cuda/ppo_compare.sh installs
# there. Runs on a machine with or without a GPU.
#
#   bash scripts/cuda/build_python.sh                 # toolkit from PyPI wheels (toolkit.sh)
#   CUDA_ENV=none bash scripts/cuda/build_python.sh   # CUDA installed: nvcc on PATH, CUDA_HOME set
#
# CARGO_TARGET_DIR (default /work/target-cuda-py): keep it, and the environment, the same between
# builds (another CUDA_* or RUSTFLAGS rebuilds candle's kernels: minutes of nvcc); a first build is
# ~20 min on two cores, later ones recompile the extension alone. The build is maturin's release
# profile of python/Cargo.toml (thin LTO) with `--features cuda`, stripped; plain crates.io
# candle-core (inference only: scripts/fast_backprop's patch speeds up backprop, which the
# encoder never runs). The extension links libcuda, libcublas(Lt) and libcurand dynamically (as the
# `silot` CLI of scripts/cuda/build.sh does): the wheel carries none of them; on the GPU machine
# they come from the driver and /usr/local/cuda (ppo_compare.sh sets LD_LIBRARY_PATH).
# SILOT_PY_VENV: a venv with maturin (default python/.venv, made by python/.ci.sh).
# KIT: the output folder (default python/kit). Size budget: BUDGET MiB (default 40).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

PREFIX=${PREFIX:-$HOME/.cache/silot-cuda13}
if [ "${CUDA_ENV:-wheels}" != none ]; then
  [ -f "$PREFIX/env.sh" ] || PREFIX="$PREFIX" bash scripts/cuda/toolkit.sh
  # shellcheck disable=SC1091
  source "$PREFIX/env.sh"
fi
command -v nvcc >/dev/null || { echo "nvcc not on PATH (run scripts/cuda/toolkit.sh or install CUDA)" >&2; exit 1; }

venv=${SILOT_PY_VENV:-$root/python/.venv}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
py=$venv/bin/python
"$py" -c 'import maturin' 2>/dev/null || "$py" -m pip install -q "maturin>=1.7,<2"
kit=${KIT:-$root/python/kit}
BUDGET=${BUDGET:-40}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/work/target-cuda-py}
mkdir -p "$kit"
rm -f "$kit"/silot-*.whl

# abi3 (cp39+): one wheel for the GPU machine's Python 3.12. `--auditwheel skip`: the CUDA
# libraries stay outside the wheel (repair would copy cuBLAS in: hundreds of MiB); the tag is
# the build host's glibc (manylinux_2_34 here; the GPU machine's image has a newer one).
(cd python && "$venv/bin/maturin" build --release --features cuda --strip \
  --auditwheel skip --compatibility manylinux_2_34 --interpreter "$py" --out "$kit")

# Wheels the GPU machine lacks (KINDS.md "Python packages already there": numpy, torch, pandas,
# matplotlib, cloudpickle, typing-extensions are there). Pure Python: platform `any`.
want=(gymnasium==1.4.0 farama-notifications==0.0.6 stable-baselines3==2.9.2)
if [ -n "${KIT_WHEELS:-}" ]; then read -r -a want <<<"$KIT_WHEELS"; fi
"$py" -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
  --implementation py --platform any -d "$kit" "${want[@]}"
ls -la "$kit"
size=$(du -sm "$kit" | cut -f1)
echo "python/kit: ${size} MiB (budget ${BUDGET} MiB); carry it as \"python/kit\""
[ "$size" -le "$BUDGET" ] || { echo "over budget" >&2; exit 1; }
