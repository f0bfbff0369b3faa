#!/usr/bin/env bash
# The sort-unique engine on one GPU (docs/gpu.md's first runs): bench/gpu_engine.sh with the
# engine named. Usage: bench/gpu_sort_unique.sh OUT_DIR "SCALE:ROOTS ..." [BINARY] [EXTRA ARGS...]
exec "$(dirname "$0")/gpu_engine.sh" "$1" sort-unique "${@:2}"
