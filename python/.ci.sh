#!/usr/bin/env bash
# Builds the Python package from this checkout into a virtual environment and runs its pytest
# suite: what .ci/run runs after `cargo test`. The extension is built in the dev profile into
# the crate's target/ (CARGO_TARGET_DIR), where it reuses the dependencies `cargo test` built
# (python/Cargo.toml says how); it compiles only pyo3/numpy, ALE and the silot crate (path
# dependencies are keyed by their path relative to the package) and the extension: ~3 min on
# two cores. SILOT_PY_VENV: the venv (default python/.venv, made if missing).
set -euo pipefail
cd "$(dirname "$0")"
venv=${SILOT_PY_VENV:-$PWD/.venv}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
py="$venv/bin/python"
"$py" -m pip install -q --upgrade pip
# Test dependencies. stable-baselines3 and the PPO example need torch: the CPU-only wheel from
# PyTorch's own index (~200 MB), or where that index cannot be reached PyPI's (with its CUDA
# libraries, ~3 GB).
if ! "$py" -c "import torch" 2>/dev/null; then
  "$py" -m pip install -q --retries 0 --timeout 30 \
    --index-url https://download.pytorch.org/whl/cpu torch ||
    { echo "python/.ci.sh: PyTorch's CPU index unreachable; torch from PyPI" >&2
      "$py" -m pip install -q torch; }
fi
"$py" -m pip install -q "maturin>=1.7,<2" "gymnasium>=1.0" numpy pytest stable-baselines3
echo "python/.ci.sh: test dependencies installed (${SECONDS} s)"
rm -rf dist
# The crate's exact dependency versions (cargo drops what this package does not use and adds
# pyo3/numpy), so that the build reuses the artifacts `cargo test` left in target/.
cp ../Cargo.lock Cargo.lock
CARGO_TARGET_DIR=../target "$venv/bin/maturin" build --profile dev --interpreter "$py" --out dist
"$py" -m pip install -q --force-reinstall --no-deps dist/silot-*.whl
echo "python/.ci.sh: wheel built and installed (${SECONDS} s)"
# Run from tests/ so that `import silot` is the installed wheel, not the source folder.
cd tests && "$py" -m pytest -q -rs "$@"
