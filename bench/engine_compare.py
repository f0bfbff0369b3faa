#!/usr/bin/env python3
"""Engines side by side in one sitting: each engine at each SCALE and rank count (the machine's
cores shared out as threads: -np 1 x 2 threads, -np 2 x 1 on two cores), with mean BFS time,
harmonic-mean TEPS, bytes sent per search, and for sort-unique the next-level array per level
through sort + unique and the visited filter (the pruning figures of paper 003). Optionally the
reference 3.0 binary at the same rank counts.

  bench/engine_compare.py --engines sort-unique,hybrid-1d --scales 18,19,20 --np 1,2 \\
      [--reference BIN] -o bench/results/sort_unique/compare.json
"""
import argparse
import json
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

ROOT = benchlib.ROOT


def pruning(result):
    """Per level: the sums over ranks of the next-level array through sort-unique's steps, the
    mean over searches."""
    depth = max(len(r["levels"]) for r in result["runs"])
    rows = []
    for i in range(depth):
        sums = {"expanded": 0, "after_unique": 0, "after_visited": 0}
        for r in result["runs"]:
            if i < len(r["levels"]):
                logical = r["levels"][i]["traffic"]["logical"]
                for key in sums:
                    sums[key] += logical.get("sort_unique." + key, {}).get("items", 0)
        row = {k: v / len(result["runs"]) for k, v in sums.items()}
        row["level"] = i
        row["removed"] = 1 - row["after_visited"] / row["expanded"] if row["expanded"] else 0
        rows.append(row)
    return rows


def run_engine(binary, engine, scale, np, threads, roots):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        args = ["--scale", str(scale), "--roots", str(roots), "--bfs", engine, "--skip-validation"]
        benchlib.execute(benchlib.mpirun(np) + [binary] + args + ["--quiet", "--json", out], threads)
        with open(out) as f:
            r = json.load(f)
    row = {"code": "g500 " + engine, "scale": scale, "np": np, "threads": threads,
           "command": "OMP_NUM_THREADS=%d %s" % (threads, benchlib.shown(benchlib.mpirun(np) + [binary] + args)),
           "mean_time": r["statistics"]["time"]["mean"], "harmonic_mean_teps": r["statistics"]["TEPS"]["harmonic_mean"],
           "bytes_sent_per_search": statistics.mean(sum(l["traffic"]["bytes_sent"] for l in x["levels"]) for x in r["runs"])}
    if engine == "sort-unique":
        row["pruning_per_level"] = pruning(r)
        totals = [sum(l["traffic"]["logical"].get("sort_unique." + k, {}).get("items", 0) for x in r["runs"] for l in x["levels"])
                  for k in ("expanded", "after_visited")]
        row["removed_overall"] = 1 - totals[1] / totals[0] if totals[0] else 0
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, "build", "g500"))
    parser.add_argument("--engines", default="sort-unique,hybrid-1d")
    parser.add_argument("--scales", default="18,19,20")
    parser.add_argument("--np", default="1,2")
    parser.add_argument("--cores", type=int, default=os.cpu_count())
    parser.add_argument("--roots", type=int, default=64)
    parser.add_argument("--reference", help="the reference 3.0 binary, run at the same rank counts")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    if args.reference:
        benchlib.name_peer(args.reference, "REFERENCE/src/graph500_reference_bfs")
    rows = []
    for scale in [int(s) for s in args.scales.split(",")]:
        for np in [int(n) for n in args.np.split(",")]:
            threads = max(1, args.cores // np)
            for engine in args.engines.split(","):
                rows.append(run_engine(args.binary, engine, scale, np, threads, args.roots))
                print("%-22s SCALE %d np %d x %d: mean %.4f s, %.3g TEPS" % (rows[-1]["code"], scale, np, threads,
                      rows[-1]["mean_time"], rows[-1]["harmonic_mean_teps"]), file=sys.stderr, flush=True)
            if args.reference:
                ref = benchlib.run_reference(args.reference, scale, np)
                rows.append(ref)
                print("reference 3.0          SCALE %d np %d: mean %.4f s, %.3g TEPS" % (scale, np, ref["mean_time"],
                      ref["harmonic_mean_teps"]), file=sys.stderr, flush=True)
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w") as f:
        json.dump({"rows": rows}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
