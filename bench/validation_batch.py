#!/usr/bin/env python3
"""Validation in batches: g500 with --validation-batch K for each K given, run
in turn round after round (K1 K2 ... K1 K2 ...), so that every ratio compares runs taken side by
side. For each run: validation seconds per root (mean), peak bytes per input tuple over all ranks,
harmonic-mean TEPS and construction time; then the medians per K and, round by round, each K's
validation time over the first K's.

  bench/validation_batch.py --scale 22 --np 2 --threads 1 --batches 1,2,3,4 --roots 16 --rounds 3 \\
      -o bench/results/validation_batch/validation_batch.json
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

ROOT = benchlib.ROOT


def run(binary, scale, np, threads, roots, batch):
    args = ["--scale", str(scale), "--roots", str(roots), "--validation-batch", str(batch)]
    r, command = benchlib.g500_json(binary, np, args, threads)
    stats = r["statistics"]
    return {"batch": batch, "command": command, "validate_mean": stats["validate"]["mean"],
            "validate_median": stats["validate"]["median"],
            "peak_bytes_per_tuple": r["memory"]["peak_bytes_per_tuple"],
            "peak_per_rank": r["memory"]["peak_per_rank"],
            "harmonic_mean_teps": stats["TEPS"]["harmonic_mean"], "construction_time": r["construction_time"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--g500", default="build/g500")
    ap.add_argument("--scale", type=int, default=22)
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--batches", default="1,2,3,4")
    ap.add_argument("--roots", type=int, default=16)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("-o", "--output", default="bench/results/validation_batch/validation_batch.json")
    a = ap.parse_args()
    binary = os.path.abspath(a.g500)
    batches = [int(b) for b in a.batches.split(",")]
    def run_one(b):
        row = run(binary, a.scale, a.np, a.threads, a.roots, b)
        print("batch %2d  validation %.3f s/root  peak %.2f B/tuple  %.3g TEPS" %
              (b, row["validate_mean"], row["peak_bytes_per_tuple"], row["harmonic_mean_teps"]), flush=True)
        return row

    runs = benchlib.in_turn({b: b for b in batches}, a.rounds, run_one)
    rounds = [[runs[b][i] for b in batches] for i in range(a.rounds)]
    summary = []
    for j, b in enumerate(batches):
        ratios = [r[j]["validate_mean"] / r[0]["validate_mean"] for r in rounds]
        summary.append({
            "batch": b,
            "validate_mean_median": statistics.median(r[j]["validate_mean"] for r in rounds),
            "validate_ratio_to_first": ratios,
            "validate_ratio_median": statistics.median(ratios),
            "peak_bytes_per_tuple_max": max(r[j]["peak_bytes_per_tuple"] for r in rounds),
            "harmonic_mean_teps_median": statistics.median(r[j]["harmonic_mean_teps"] for r in rounds),
        })
    print("\nbatch  validation s/root (median)  / batch %d (median, per round)  peak B/tuple (max)" % batches[0])
    for s in summary:
        print("%5d  %26.3f  %8.3f %s  %8.2f" % (s["batch"], s["validate_mean_median"], s["validate_ratio_median"],
                                                  ["%.3f" % x for x in s["validate_ratio_to_first"]],
                                                  s["peak_bytes_per_tuple_max"]))
    out = os.path.join(ROOT, a.output) if not os.path.isabs(a.output) else a.output
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        json.dump({"command": "bench/validation_batch.py " + " ".join(sys.argv[1:]), "scale": a.scale, "np": a.np,
                   "threads": a.threads, "roots": a.roots, "rounds": rounds, "summary": summary}, f, indent=1)


if __name__ == "__main__":
    main()
