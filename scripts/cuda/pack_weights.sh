#!/usr/bin/env bash
# A checkpoint's weights (weights.safetensors, state.json, config.toml; no Adam state) as
# PREFIX.tar.xz.part-aa, -ab, ... in 15 MiB parts, the GPU machine's per-file limit (a Space
# Invaders encoder packs to ~18.5 MiB). Nothing when CHECKPOINT_DIR holds no weights. Unpack with
# `cat PREFIX.tar.xz.part-* | xz -dc | tar -xf -`.
#
#   bash scripts/cuda/pack_weights.sh CHECKPOINT_DIR PREFIX
set -euo pipefail
usage="usage: pack_weights.sh CHECKPOINT_DIR PREFIX"
ck=${1:?$usage} prefix=${2:?$usage}
[ -f "$ck/weights.safetensors" ] || exit 0
tar cf - -C "$ck" weights.safetensors state.json config.toml | xz -T0 -1 |
  split -b 15M - "$prefix.tar.xz.part-"
