#!/usr/bin/env bash
# The gpu-hybrid measurement for a GPU machine's few minutes, as one call (docs/gpu.md): run
# from the repository root there, after scripts/gpu-bundle packed build/ here.
#   gpu-hybrid on the GPU at SCALE 20, 22, 24 (64 roots) and 26 (16), 27 when the plan says it fits;
#   sort-unique on the GPU at SCALE 24 and 26, as before;
#   hybrid-1d on the host's cores at the same SCALEs;
#   gpu-hybrid's CPU build at SCALE 20 and 22 (16 roots), whose levels must equal the GPU's.
# Then bench/gpu_compare.py writes OUT/gpu_hybrid.json (and OUT/sort_unique.json).
# Usage: bench/gpu_hybrid_session.sh OUT_DIR [LARGEST_SCALE]
set -uo pipefail
out=$1
largest=${2:-26}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"/gpu "$out"/cpu "$out"/host
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)} OMP_PROC_BIND=spread OMP_PLACES=cores
gpu_runs="20:64 22:64 24:64 $largest:16"
host_runs=$gpu_runs
nvidia-smi || true
"$here/gpu_engine.sh" "$out/gpu" gpu-hybrid "$gpu_runs" g500-cuda
"$here/gpu_engine.sh" "$out/host" hybrid-1d "$host_runs" g500
"$here/gpu_engine.sh" "$out/cpu" gpu-hybrid "20:16 22:16" g500
"$here/gpu_engine.sh" "$out/gpu" sort-unique "24:16 26:8" g500-cuda
python3 "$here/gpu_compare.py" --engine gpu-hybrid --gpu "$out/gpu" --cpu "$out/cpu" --host "$out/host" \
  --command "bench/gpu_hybrid_session.sh OUT $largest" -o "$out/gpu_hybrid.json"
python3 "$here/gpu_compare.py" --engine sort-unique --gpu "$out/gpu" --host "$out/host" \
  --command "bench/gpu_hybrid_session.sh OUT $largest" -o "$out/sort_unique.json"
