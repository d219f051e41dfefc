#!/usr/bin/env bash
# Build silot's CUDA binaries, test binaries and the GPU benchmark (release profile), on a machine
# with or without a GPU.
#
#   bash scripts/cuda/build.sh                 # toolkit from PyPI wheels (scripts/cuda/toolkit.sh)
#   CUDA_ENV=none bash scripts/cuda/build.sh   # CUDA already installed: nvcc on PATH, CUDA_HOME set
#
# PREFIX (default ~/.cache/silot-cuda13) is where toolkit.sh puts the wheel toolkit; it is
# assembled on first use. Keep CARGO_TARGET_DIR and the environment the same between builds:
# changing CUDA_* or RUSTFLAGS rebuilds candle's kernels (6+ minutes of nvcc).
# Prints the paths of the built executables (for scripts/cuda/pack.sh) to build/cuda-artifacts.txt.
# Builds against the patched candle-core of scripts/fast_backprop/cargo.sh (the first gradient
# stored, not added to zeros): 1.44-1.50x per Space Invaders training step alone on an H200,
# 1.35x for two runs sharing one, 252/252 CUDA unit tests passing
# (benches/results/fast_backprop.md). FAST_BACKPROP=0 builds against crates.io's candle-core
# instead (the A/B baseline): give each its own CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/../.."

PREFIX=${PREFIX:-$HOME/.cache/silot-cuda13}
if [ "${CUDA_ENV:-wheels}" != none ]; then
  [ -f "$PREFIX/env.sh" ] || PREFIX="$PREFIX" bash scripts/cuda/toolkit.sh
  # shellcheck disable=SC1091
  source "$PREFIX/env.sh"
fi
command -v nvcc >/dev/null || { echo "nvcc not on PATH (run scripts/cuda/toolkit.sh or install CUDA)" >&2; exit 1; }

mkdir -p build
msgs=build/cuda-cargo.json
cargo() { FAST_BACKPROP=${FAST_BACKPROP:-1} bash scripts/fast_backprop/cargo.sh "$@"; }
cargo build --release --features cuda --bin silot --example gpu_bench --example clip_source_bench \
  --example atari_throughput --benches --message-format=json >"$msgs"
cargo test --release --features cuda --no-run --message-format=json >>"$msgs"
# Executables cargo produced (bin, example, lib unit tests, integration tests).
python3 - "$msgs" >build/cuda-artifacts.txt <<'PY'
import json, sys
seen = []
for line in open(sys.argv[1]):
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("reason") == "compiler-artifact" and m.get("executable"):
        kind = m["target"]["kind"][0]
        if m["profile"]["test"]:
            kind = "test-" + kind  # test-lib, test-bin, test-test (integration), test-bench
        entry = f'{kind} {m["target"]["name"]} {m["executable"]}'
        if entry not in seen:
            seen.append(entry)
print("\n".join(seen))
PY
cat build/cuda-artifacts.txt
