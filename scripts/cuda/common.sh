# Shell functions the GPU recipe scripts share; `source` it (not a script of its own).

# The step of the checkpoint in the run directory RUN (RUN/checkpoint/state.json; 0 if none).
step_of() {
  sed -n 's/^ *"step": *\([0-9]*\).*/\1/p' "$1/checkpoint/state.json" 2>/dev/null |
    head -1 | grep . || echo 0
}

# How many GPUs the host has (nvidia-smi; 1 where it finds none, e.g. a CPU test run).
host_gpu_count() {
  local n
  n=$(nvidia-smi --list-gpus 2>/dev/null | wc -l)
  [ "$n" -gt 0 ] && echo "$n" || echo 1
}
