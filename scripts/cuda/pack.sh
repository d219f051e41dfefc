#!/usr/bin/env bash
# Pack what a GPU machine without a Rust toolchain needs into ship/ (under a size budget): the
# stripped, xz-compressed executables listed by scripts/cuda/build.sh, the driver's PTX JIT cache
# if one was brought back (ship/nvcache.tgz is kept), the experiment configs, and run.sh, which
# unpacks everything on the GPU machine.
#
#   bash scripts/cuda/pack.sh [BUDGET_MIB]        # default 60
#
# On the GPU machine:  bash ship/run.sh ship/bin/silot --help
# run.sh sets LD_LIBRARY_PATH for the usual driver/toolkit locations and CUDA_CACHE_PATH to the
# unpacked cache (the PTX of candle's kernels takes ~20 s to JIT-compile on a cold cache).
set -euo pipefail
cd "$(dirname "$0")/../.."
BUDGET=${1:-60}
[ -f build/cuda-artifacts.txt ] || { echo "run scripts/cuda/build.sh first" >&2; exit 1; }

mkdir -p ship
# PACK_SUFFIX (e.g. _crates, for a FAST_BACKPROP=0 build) names the executables silot_crates, ...
# and keeps the other build's in ship/: two builds side by side (run the second with PATH pointing
# at a folder where `silot` links to the suffixed one; twenty-sixth session's A/B).
suffix=${PACK_SUFFIX:-}
rm -f ship/*"$suffix".xz ship/run.sh
while read -r kind name path; do
  case $kind:$name in
    bin:silot) out=silot ;;                    # the CLI
    example:gpu_bench) out=gpu_bench ;;        # GPU benchmarks
    example:clip_source_bench) out=clip_source_bench ;;  # the training clip source's speed there
    example:atari_throughput) out=atari_throughput ;;    # the emulator's speed there
    test-lib:silot) out=test-lib ;;            # unit tests (test_device! ones run on the GPU)
    test-test:integration) out=test-integration ;;  # integration tests incl. tests/device.rs
    *) continue ;;
  esac
  out=$out$suffix
  strip -o "ship/$out" "$path"
  xz -T0 -6 -f "ship/$out"
done <build/cuda-artifacts.txt
cp -r envs ship/ 2>/dev/null || true

cat >ship/run.sh <<'RUN'
#!/usr/bin/env bash
# Unpack the shipped executables and the JIT cache once, then run "$@" with the CUDA environment.
# Safe to start several at once: each unpacks into a temporary name and renames it into place.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dest=${SILOT_SHIP_DIR:-/tmp/silot-ship}
mkdir -p "$dest/bin"
for f in "$here"/*.xz; do
  out="$dest/bin/$(basename "$f" .xz)"
  [ -x "$out" ] && continue
  if command -v xz >/dev/null; then xz -dc "$f" >"$out.$$"
  else python3 -c 'import lzma,sys,shutil; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],"wb"))' "$f" "$out.$$"; fi
  chmod +x "$out.$$"
  mv -f "$out.$$" "$out"
done
if [ -f "$here/nvcache.tgz" ] && [ ! -d "$dest/nvc" ]; then
  tmp=$(mktemp -d "$dest/unpack.XXXXXX")
  tar -C "$tmp" -xzf "$here/nvcache.tgz"
  mv -T "$tmp/nvc" "$dest/nvc" 2>/dev/null || true  # another run.sh was first
  rm -rf "$tmp"
fi
mkdir -p "$dest/nvc"
export CUDA_CACHE_PATH=$dest/nvc CUDA_CACHE_MAXSIZE=4294967296
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/nvidia/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=$dest/bin:$PATH
[ $# -gt 0 ] && exec "$@"
RUN
chmod +x ship/run.sh
size=$(du -sm ship | cut -f1)
ls -la ship
echo "ship/: ${size} MiB (budget ${BUDGET} MiB)"
[ "$size" -le "$BUDGET" ] || { echo "over budget: drop executables or raise BUDGET" >&2; exit 1; }
