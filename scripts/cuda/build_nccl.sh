#!/usr/bin/env bash
# Build the data-parallel (NCCL) silot and its library test binary and pack them into ship/ as
# silot_nccl.xz and test-lib_nccl.xz (docs/multi_gpu.md): `bash ship/run.sh silot_nccl ...` on the
# GPU machine, with libnccl on LD_LIBRARY_PATH and NCCL_NVLS_ENABLE=0 there.
#
#   bash scripts/cuda/build_nccl.sh                       # build and pack
#   CARGO_CMD=check bash scripts/cuda/build_nccl.sh       # type-check only, nothing packed
#
# The `nccl` feature links libnccl.so.2 (candle's cudarc uses dynamic linking). The pip wheel
# nvidia-nccl-cu13 ships only libnccl.so.2, so a directory with a libnccl.so symlink to it is
# handed to cudarc's build script through CUDNN_LIB (one of the roots it searches, ROOT/lib).
# NCCL_LIB names the wheel's lib directory; by default the first one found under python3's
# site-packages or a venv in this repository.
# Uses its own CARGO_TARGET_DIR (default /work/target-cuda-nccl) and the fast-backprop
# candle-core, as scripts/cuda/build.sh does.
set -euo pipefail
cd "$(dirname "$0")/../.."

PREFIX=${PREFIX:-$HOME/.cache/silot-cuda13}
[ -f "$PREFIX/env.sh" ] || PREFIX="$PREFIX" bash scripts/cuda/toolkit.sh
# shellcheck disable=SC1091
source "$PREFIX/env.sh"

if [ -z "${NCCL_LIB:-}" ]; then
  NCCL_LIB=$(python3 -c 'import nvidia.nccl, os; print(os.path.dirname(nvidia.nccl.__file__) + "/lib")' 2>/dev/null ||
    find python/.venv /tmp/silot-py -path '*nvidia/nccl/lib/libnccl.so.2' 2>/dev/null | head -1 | xargs -r dirname)
fi
[ -f "${NCCL_LIB:-}/libnccl.so.2" ] || {
  echo "no libnccl.so.2 found: pip install nvidia-nccl-cu13 (2.30) somewhere and set NCCL_LIB to its nvidia/nccl/lib" >&2
  exit 1
}
NCCL_LIB=$(cd "$NCCL_LIB" && pwd)   # absolute: the symlink must not depend on where it is read
link=${NCCL_LINK_DIR:-$HOME/.cache/silot-nccl}
mkdir -p "$link/lib"
ln -sf "$NCCL_LIB/libnccl.so.2" "$link/lib/libnccl.so"
export CUDNN_LIB=$link
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/work/target-cuda-nccl}
echo "libnccl: $NCCL_LIB/libnccl.so.2 (linked as $link/lib/libnccl.so); target dir $CARGO_TARGET_DIR"

cargo() { FAST_BACKPROP=${FAST_BACKPROP:-1} bash scripts/fast_backprop/cargo.sh "$@"; }
cmd=${CARGO_CMD:-build}
if [ "$cmd" = check ]; then
  cargo check --release --features nccl --bin silot --lib --tests
  exit 0
fi
msgs=$(mktemp)
cargo build --release --features nccl --bin silot --message-format=json >"$msgs"
cargo test --release --features nccl --lib --no-run --message-format=json >>"$msgs"
read -r bin test_lib < <(python3 - "$msgs" <<'PY'
import json, sys
bin_path = test_path = ""
for line in open(sys.argv[1]):
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("reason") != "compiler-artifact" or not m.get("executable"):
        continue
    if m["target"]["name"] == "silot" and "bin" in m["target"]["kind"] and not m["profile"]["test"]:
        bin_path = m["executable"]
    if m["target"]["name"] == "silot" and "lib" in m["target"]["kind"] and m["profile"]["test"]:
        test_path = m["executable"]
print(bin_path, test_path)
PY
)
rm -f "$msgs"
[ -n "$bin" ] && [ -n "$test_lib" ] || { echo "build produced no silot binary or lib test binary" >&2; exit 1; }
mkdir -p ship
strip -o ship/silot_nccl "$bin" && xz -T0 -6 -f ship/silot_nccl
strip -o ship/test-lib_nccl "$test_lib" && xz -T0 -6 -f ship/test-lib_nccl
ls -la ship/silot_nccl.xz ship/test-lib_nccl.xz
echo "ship/: $(du -sm ship | cut -f1) MiB (pack.sh's budget: 60)"
