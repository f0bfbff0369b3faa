#!/usr/bin/env bash
# One engine on one GPU machine, run from a bundle that scripts/gpu-bundle made: every search
# validated, one JSON a SCALE (<binary>_<engine>_s<SCALE>.json), and, for g500-cuda, the GPU's
# memory in use sampled every 100 ms through each run. bench/gpu_compare.py then sets the GPU's
# levels beside the CPU build's and the host engines'.
# Usage: bench/gpu_engine.sh OUT_DIR ENGINE "SCALE:ROOTS ..." [BINARY] [EXTRA ARGS...]
#   e.g. bench/gpu_engine.sh out gpu-hybrid "20:64 22:64 24:64 26:16" g500-cuda
#        OMP_NUM_THREADS=16 bench/gpu_engine.sh out hybrid-1d "24:64" g500
set -uo pipefail
out=$1
engine=$2
runs=$3
binary=${4:-g500-cuda}
shift 4 2>/dev/null || shift $#
bundle=$(cd "$(dirname "$0")/.." && pwd)/gpu-bundle
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$out"   # the JSON files record --json relative to it, no machine path
log=$out/${binary}_${engine}_log.txt

{
  date -u +%FT%TZ
  uname -r
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  nproc
} | tee "$log"

for run in $runs; do
  scale=${run%%:*}
  roots=${run##*:}
  name=${binary}_${engine}_s${scale}
  sampler=
  if [[ $binary == g500-cuda* ]] && command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=timestamp,memory.used --format=csv,noheader,nounits -lms 100 > "$out/${name}_smi.csv" &
    sampler=$!
  fi
  echo "== $binary --bfs $engine --scale $scale --roots $roots $*" | tee -a "$log"
  start=$(date +%s%N)
  "$bundle/run" "$binary" --bfs "$engine" --scale "$scale" --roots "$roots" --json "$name.json" "$@" 2>&1 |
    tee -a "$log"
  status=${PIPESTATUS[0]}
  [[ -n $sampler ]] && kill "$sampler" 2>/dev/null
  echo "== exit $status, $(( ($(date +%s%N) - start) / 1000000 )) ms" | tee -a "$log"
  if [[ -f $out/${name}_smi.csv ]]; then
    echo "== GPU memory used, peak MiB: $(cut -d, -f2 "$out/${name}_smi.csv" | sort -n | tail -1)" | tee -a "$log"
  fi
  (( status == 0 )) || break
done
