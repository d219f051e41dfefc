#!/usr/bin/env bash
# Assemble a CUDA 13.0 toolkit prefix from PyPI wheels on a machine without CUDA (and without a
# GPU), good enough to build silot's `cuda` feature (candle 0.11 + cudarc, dynamic linking).
#
#   PREFIX=$HOME/.cache/silot-cuda13 bash scripts/cuda/toolkit.sh
#   source $PREFIX/env.sh && cargo build --release --features cuda
#
# Everything is pinned to CUDA 13.0 Update 2: a newer nvcc emits a PTX ISA that a 13.0 driver
# (R580) refuses to load. Needs python3 + pip, gcc, about 1.3 GB of disk; no root.
set -euo pipefail

PREFIX=${PREFIX:-$HOME/.cache/silot-cuda13}
PY=${PYTHON:-python3}
PINS=(
  nvidia-cuda-nvcc==13.0.88 nvidia-cuda-crt==13.0.88 nvidia-nvvm==13.0.88
  nvidia-cuda-runtime==13.0.96 nvidia-cuda-cccl==13.0.85 nvidia-cuda-nvrtc==13.0.88
  nvidia-cublas==13.1.0.3 nvidia-curand==10.4.0.35
)

if [ ! -x "$PREFIX/toolkit/bin/nvcc" ]; then
  mkdir -p "$PREFIX"
  "$PY" -m pip install --quiet --no-deps --target "$PREFIX/pkgs" "${PINS[@]}"
fi
TK="$PREFIX/pkgs/nvidia/cu13"          # all CUDA-13 wheels unpack into this one tree
ln -sfn "$TK" "$PREFIX/toolkit"

# A conventional layout: lib64 and the unversioned names the linker looks for.
[ -e "$TK/lib64" ] || ln -s lib "$TK/lib64"
for lib in cudart.so.13 cublas.so.13 cublasLt.so.13 nvrtc.so.13 curand.so.10; do
  ln -sfn "lib$lib" "$TK/lib/lib${lib%.*}"
done

# libcuda.so comes with the driver, not with any wheel. Link against a stub exporting every
# driver entry point (from the preprocessed cuda.h and its #define aliases); its SONAME is
# libcuda.so.1 so the real driver library is loaded at run time. Each stub returns 34
# (CUDA_ERROR_STUB_LIBRARY). There is deliberately no libcuda.so.1 file next to it.
mkdir -p "$TK/lib/stubs"
printf '#include <cuda.h>\n' | gcc -E -P -I"$TK/include" -x c - >"$PREFIX/cuda.i"
"$PY" - "$PREFIX/cuda.i" "$TK/include/cuda.h" >"$PREFIX/cuda_stub.c" <<'PY'
import re, sys
expanded, header = (open(p).read() for p in sys.argv[1:3])
syms = set(re.findall(r'\b(cu[A-Z]\w*)\s*\(', expanded))
for alias, target in re.findall(r'^\s*#\s*define\s+(cu[A-Z]\w*)\s+(cu[A-Z]\w*)\b', header, re.M):
    syms |= {alias, target}
syms |= {'cuProfilerInitialize', 'cuProfilerStart', 'cuProfilerStop'}
print('\n'.join(f'int {s}(void) {{ return 34; }}' for s in sorted(syms)))
PY
gcc -shared -fPIC -O1 -nostdlib -Wl,-soname,libcuda.so.1 -o "$TK/lib/stubs/libcuda.so" "$PREFIX/cuda_stub.c"

cat >"$PREFIX/env.sh" <<ENV
export CUDA_HOME="$PREFIX/toolkit"
export CUDA_PATH="\$CUDA_HOME"
export PATH="\$CUDA_HOME/bin:\$PATH"
# No nvidia-smi on a build machine: say which GPU to build for (90 = H100/H200, sm_90a).
export CUDA_COMPUTE_CAP=\${CUDA_COMPUTE_CAP:-90}
ENV
"$TK/bin/nvcc" --version | tail -1
echo "toolkit ready: source $PREFIX/env.sh"
