#!/usr/bin/env python3
"""Weak-scaling memory: 2^PER_RANK vertices a rank at -np 2, 4, 8, 16 (SCALE grows with
the ranks), one thread a rank, --kernels bfs,sssp, every search validated. For each build and
engine, the largest rank's measured peak (and before validation), g500's own estimate, and the
growth of the peak from the fewest ranks to the most. Builds run in turn at each rank count, so
that they share the machine's state.

  bench/weak_memory.py --build new=build/g500 --build old=OLD/g500 --engines hybrid-1d,hybrid-2d \\
      -o bench/results/whole_run/weak_memory.json
  bench/weak_memory.py --build new=build/g500 --kernels sssp --engines kernel-3 -o ...   # kernel 3's share
  bench/weak_memory.py --build new=build/g500 --engines hybrid-2d \
      --g500-args "--grid-rows sparse --grid-filled-rows list --grid-frontiers shared" -o ...

On one machine the ranks share its cores: the times say nothing; the memory is per rank as on a
cluster.
"""
import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402


def run(binary, engine, np, per_rank, roots, kernels, extra):
    scale = per_rank + int(math.log2(np))
    args = ["--scale", str(scale), "--roots", str(roots), "--kernels", kernels]
    if "bfs" in kernels.split(","):
        args += ["--bfs", engine]
    args += extra
    r, command = benchlib.g500_json(binary, np, args, 1)
    memory = r["memory"]
    runs = r.get("runs", []) + r.get("sssp", {}).get("runs", [])
    return {"np": np, "scale": scale, "command": command, "all_valid": all(x["result"] == "valid" for x in runs),
            "peak_largest_rank": max(memory["peak_per_rank"]),
            "peak_before_validation_largest_rank": max(memory.get("peak_per_rank_before_validation") or [0]),
            "estimate_per_rank": memory["estimate_per_rank"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", action="append", required=True, metavar="LABEL=PATH", help="a g500 binary and its label")
    ap.add_argument("--engines", default="hybrid-1d,hybrid-2d")
    ap.add_argument("--ranks", default="2,4,8,16")
    ap.add_argument("--per-rank", type=int, default=18, help="log2 of the vertices a rank")
    ap.add_argument("--roots", type=int, default=4)
    ap.add_argument("--kernels", default="bfs,sssp",
                    help="what each run runs: bfs,sssp, or sssp alone for kernel 3's share (then --engines names "
                         "only the rows' label)")
    ap.add_argument("--g500-args", default="", help="more options for every run (one string)")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    builds = dict(b.split("=", 1) for b in a.build)
    ranks = [int(x) for x in a.ranks.split(",")]
    rows = {}
    for engine in a.engines.split(","):
        for np in ranks:
            for label, binary in builds.items():
                row = run(binary, engine, np, a.per_rank, a.roots, a.kernels, a.g500_args.split())
                rows.setdefault((label, engine), []).append(row)
                print("%-6s %-10s -np %2d SCALE %d: peak %.1f MB (%.1f before validation), estimate %.1f MB%s" % (
                    label, engine, np, row["scale"], row["peak_largest_rank"] / 1e6,
                    row["peak_before_validation_largest_rank"] / 1e6, row["estimate_per_rank"] / 1e6,
                    "" if row["all_valid"] else ", NOT VALID"), flush=True)
    summary = []
    for (label, engine), runs in rows.items():
        first, last = runs[0], runs[-1]
        summary.append({"build": label, "engine": engine, "runs": runs,
                        "growth": last["peak_largest_rank"] / first["peak_largest_rank"],
                        "estimate_over_peak": [r["estimate_per_rank"] / r["peak_largest_rank"] for r in runs]})
        print("%-6s %-10s peak growth -np %d to %d: %.3f" % (label, engine, first["np"], last["np"],
                                                              summary[-1]["growth"]))
    # A build is LABEL=PATH: its path as results record one (no machine's paths).
    words = [w.split("=", 1)[0] + "=" + benchlib.shown([w.split("=", 1)[1]]) if w in a.build else w for w in sys.argv[1:]]
    out = {"command": "bench/weak_memory.py " + " ".join(words), "vertices_per_rank": 2 ** a.per_rank,
           "kernels": a.kernels,
           "builds": {label: benchlib.shown([path]) for label, path in builds.items()}, "results": summary}
    os.makedirs(os.path.dirname(os.path.abspath(a.output)), exist_ok=True)
    with open(a.output, "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
