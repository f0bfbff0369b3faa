#!/usr/bin/env python3
"""Summary bitmap granularity sweep (paper 000 §III.C, Fig. 16): hybrid-1d with
--summary-granularity 64 ... 4096, one thread per rank, run in turn (round-robin, --reps times).
Per granularity: the mean BFS time (median over the reps) and, per bottom-up level, the fraction of
summary bits that are zero (a zero bit lets a bottom-up step skip that many frontier bits unread)
and the level's mean time. The counters are bottom_up.summary_bits and bottom_up.summary_bits_set.

  bench/summary_sweep.py --scale 20 --np 2 --roots 16 --reps 3 \\
      -o bench/results/node_aware/summary_sweep.json
"""
import argparse
import json
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

ROOT = benchlib.ROOT


def run(binary, scale, np, roots, granularity):
    args = ["--scale", str(scale), "--roots", str(roots), "--skip-validation", "--summary-check",
            "--summary-granularity", str(granularity)]
    r, command = benchlib.g500_json(binary, np, args)
    zero, seconds = defaultdict(list), defaultdict(list)
    for search in r["runs"]:
        for level in search["levels"]:
            counts = level["traffic"]["logical"]
            bits = counts.get("bottom_up.summary_bits", {}).get("items", 0)
            if level["direction"] != "bottom-up" or not bits:
                continue
            zero[level["level"]].append(1 - counts["bottom_up.summary_bits_set"]["items"] / bits)
            seconds[level["level"]].append(level["seconds"])
    return {
        "command": command,
        "mean_time": r["statistics"]["time"]["mean"],
        "bottom_up_levels": [{"level": l, "searches": len(zero[l]), "zero_fraction": statistics.mean(zero[l]),
                              "mean_seconds": statistics.mean(seconds[l])} for l in sorted(zero)],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--g500", default="build/g500")
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--roots", type=int, default=16)
    ap.add_argument("--granularities", default="64,128,256,512,1024,2048,4096")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("-o", "--output", default="bench/results/node_aware/summary_sweep.json")
    a = ap.parse_args()
    binary = os.path.relpath(os.path.abspath(a.g500), ROOT)
    grains = [int(g) for g in a.granularities.split(",")]
    runs = benchlib.in_turn({g: g for g in grains}, a.reps, lambda g: run(binary, a.scale, a.np, a.roots, g))
    rows = []
    base = statistics.median(x["mean_time"] for x in runs[grains[0]])
    for g in grains:
        row = dict(runs[g][0])
        row["granularity"] = g
        row["mean_time_all"] = [x["mean_time"] for x in runs[g]]
        row["mean_time"] = statistics.median(row["mean_time_all"])
        row["time_over_first"] = row["mean_time"] / base
        rows.append(row)
    out = {"command": "bench/summary_sweep.py " + " ".join(sys.argv[1:]), "scale": a.scale, "np": a.np, "rows": rows}
    os.makedirs(os.path.dirname(os.path.abspath(a.output)), exist_ok=True)
    with open(a.output, "w") as f:
        json.dump(out, f, indent=1)
    for row in rows:
        levels = ", ".join(f"L{x['level']} {x['zero_fraction']:.3f}" for x in row["bottom_up_levels"])
        print(f"granularity {row['granularity']:5d}: {row['mean_time'] * 1e3:7.2f} ms ({row['time_over_first']:.3f}x)"
              f"  zero summary bits: {levels}")


if __name__ == "__main__":
    main()
