#!/usr/bin/env bash
# The sort-unique engine on one GPU (issue 48), run on the GPU machine from a bundle that
# scripts/gpu-bundle made: every search validated, one JSON a SCALE, and the GPU's memory in use
# sampled through each run. bench/gpu_compare.py then sets the GPU's level counters beside the
# CPU build's.
# Usage: bench/gpu_sort_unique.sh OUT_DIR "SCALE:ROOTS ..." [BINARY] [EXTRA ARGS...]
#   e.g. bench/gpu_sort_unique.sh out "16:64 20:64 22:64 24:64 26:8" g500-cuda
set -uo pipefail
out=$1
runs=$2
binary=${3:-g500-cuda}
shift 3 2>/dev/null || shift $#
bundle=$(cd "$(dirname "$0")/.." && pwd)/gpu-bundle
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$out"   # the JSON files record --json relative to it, no machine path
log=$out/${binary}_log.txt

{
  date -u +%FT%TZ
  uname -r
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  nproc
} | tee "$log"

for run in $runs; do
  scale=${run%%:*}
  roots=${run##*:}
  name=${binary}_s${scale}
  sampler=
  if [[ $binary == g500-cuda* ]] && command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=timestamp,memory.used --format=csv,noheader,nounits -lms 100 > "$out/${name}_smi.csv" &
    sampler=$!
  fi
  echo "== $binary --bfs sort-unique --scale $scale --roots $roots $*" | tee -a "$log"
  start=$(date +%s%N)
  "$bundle/run" "$binary" --bfs sort-unique --scale "$scale" --roots "$roots" --json "$name.json" "$@" 2>&1 |
    tee -a "$log"
  status=${PIPESTATUS[0]}
  [[ -n $sampler ]] && kill "$sampler" 2>/dev/null
  echo "== exit $status, $(( ($(date +%s%N) - start) / 1000000 )) ms" | tee -a "$log"
  if [[ -f $out/${name}_smi.csv ]]; then
    echo "== GPU memory used, peak MiB: $(cut -d, -f2 "$out/${name}_smi.csv" | sort -n | tail -1)" | tee -a "$log"
  fi
  (( status == 0 )) || break
done
