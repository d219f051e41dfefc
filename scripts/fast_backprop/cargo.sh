#!/usr/bin/env bash
# Run cargo against a patched copy of the pinned candle-core whose `Tensor::backward` stores a
# node's first gradient instead of adding it to zeros (scripts/fast_backprop/first_gradient.py
# says why and how; 1.31x per Space Invaders training step on an H100 at batch 64,
# benches/results/cuda_train_step_profile.md sec. 2; 1.44-1.50x in the recipe on an H200,
# benches/results/fast_backprop.md). scripts/cuda/build.sh builds through it by default; the
# plain `cargo` build, the tests, CI and Cargo.lock keep crates.io's candle-core.
#
#   bash scripts/fast_backprop/cargo.sh build --release --bin silot
#   CARGO_TARGET_DIR=/work/target-fast bash scripts/fast_backprop/cargo.sh test --release --lib
#   FAST_BACKPROP=0 bash scripts/fast_backprop/cargo.sh ...     # plain cargo (for A/B builds)
#
# The patched crate is made in FAST_BACKPROP_DIR (default target/fast-backprop) from the
# source cargo already fetched for Cargo.lock's candle-core; Cargo.lock is restored afterwards
# (cargo rewrites it while the patch is on). Use a separate CARGO_TARGET_DIR for patched builds,
# or switching between the two rebuilds candle each time.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "${FAST_BACKPROP:-1}" = 0 ]; then exec cargo "$@"; fi

dir=${FAST_BACKPROP_DIR:-$PWD/target/fast-backprop}
version=$(awk '/^name = "candle-core"$/ {getline; gsub(/[^0-9.]/, "", $0); print; exit}' Cargo.lock)
[ -n "$version" ] || { echo "fast_backprop: no candle-core in Cargo.lock" >&2; exit 1; }
dest=$dir/candle-core-$version
# The copy is remade whenever the rewrite script changes (its hash is the stamp).
stamp=$(sha256sum scripts/fast_backprop/first_gradient.py | cut -d' ' -f1)
if [ "$(cat "$dest/.patched" 2>/dev/null)" != "$stamp" ]; then
  cargo fetch --locked >/dev/null
  src=$(cargo metadata --format-version 1 --locked | python3 -c '
import json, sys
version = sys.argv[1]
for p in json.load(sys.stdin)["packages"]:
    if p["name"] == "candle-core" and p["version"] == version and p["source"]:
        print(p["manifest_path"].rsplit("/", 1)[0])
        break
' "$version")
  [ -d "$src" ] || { echo "fast_backprop: candle-core $version source not found" >&2; exit 1; }
  rm -rf "$dest.tmp"
  mkdir -p "$dir"
  cp -r "$src" "$dest.tmp"
  chmod -R u+w "$dest.tmp"
  python3 scripts/fast_backprop/first_gradient.py "$dest.tmp/src/backprop.rs" >&2
  echo "$stamp" >"$dest.tmp/.patched"
  rm -rf "$dest"
  mv "$dest.tmp" "$dest"
fi

lock_backup=$(mktemp)
cp Cargo.lock "$lock_backup"
trap 'cp "$lock_backup" Cargo.lock; rm -f "$lock_backup"' EXIT
cargo --config "patch.crates-io.candle-core.path=\"$dest\"" "$@"
