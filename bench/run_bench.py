#!/usr/bin/env python3
"""The default benchmark: g500 at SCALE 20 and 22, on -np 1 x 2 threads and -np 2 x 1 thread, 64 roots.

Writes bench/results/peers/summary.json with the exact commands and the figures compared in the
issue note: mean BFS time and harmonic-mean TEPS. Peer codes run in the
same invocation when their binaries are given, so every figure comes from one sitting:

  bench/run_bench.py [--scales 20 22] [--gapbs PATH/bfs] [--reference PATH/graph500_reference_bfs]
                     [--fugaku PATH/runnable]

Peers are built outside this repository; this script only runs them. Commands are recorded relative
to the repository, with peers as GAPBS/, REFERENCE/ and FUGAKU/ (their checkouts).
"""
import argparse
import datetime
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

HERE = benchlib.HERE
ROOT = benchlib.ROOT
CONFIGS = [(1, 2), (2, 1)]  # (MPI ranks, OpenMP threads per rank): 2 cores either way


def run_g500(binary, scale, np, threads):
    run, command = benchlib.g500_json(os.path.relpath(binary, ROOT), np, ["--scale", str(scale), "--roots", "64"],
                                      threads)
    row = {"code": "g500", "scale": scale, "np": np, "threads": threads, "command": command}
    row.update(benchlib.kernel_figures(run))
    row.update({"peak_total_bytes": run["memory"]["peak_total"], "peak_bytes_per_tuple": run["memory"]["peak_bytes_per_tuple"],
                "peak_rank_bytes": max(run["memory"]["peak_per_rank"])})
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scales", type=int, nargs="+", default=[20, 22])
    ap.add_argument("--g500", default=os.path.join(ROOT, "build", "g500"))
    ap.add_argument("--gapbs")
    ap.add_argument("--reference")
    ap.add_argument("--fugaku")
    ap.add_argument("--results", default=os.path.join(HERE, "results", "peers"))
    args = ap.parse_args()
    os.makedirs(args.results, exist_ok=True)
    benchlib.name_peer(args.gapbs, "GAPBS/bfs")
    benchlib.name_peer(args.reference, "REFERENCE/src/graph500_reference_bfs")
    benchlib.name_peer(args.fugaku, "FUGAKU/mpi/runnable")

    rows = []
    for scale in args.scales:
        for np, threads in CONFIGS:
            rows.append(run_g500(args.g500, scale, np, threads))
            if args.fugaku:
                rows.append(benchlib.run_fugaku(args.fugaku, scale, np, threads))
                rows.append(benchlib.run_fugaku(args.fugaku, scale, np, threads, extra=("-A", "-C")))
        if args.gapbs:
            rows.append(benchlib.run_gapbs(args.gapbs, scale, 2))
        if args.reference:
            rows.append(benchlib.run_reference(args.reference, scale, 2))

    summary = {"date": datetime.datetime.now().isoformat(timespec="seconds"), "cores": os.cpu_count(), "rows": rows}
    with open(os.path.join(args.results, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print("%-14s %5s %3s %3s %12s %14s %12s %12s" % ("code", "SCALE", "np", "thr", "mean_time", "hmean_TEPS", "build",
                                                   "peak_rank_GB"))
    rows.sort(key=lambda r: (r["scale"], r["np"], r["code"]))
    for r in rows:
        teps = "%.4g" % r["harmonic_mean_teps"] if r["harmonic_mean_teps"] else "-"
        build = "%.3g" % r["construction_time"] if r.get("construction_time") else "-"
        peak = "%.3g" % (r["peak_rank_bytes"] / 1e9) if r.get("peak_rank_bytes") else "-"
        print("%-14s %5d %3d %3d %12.5g %14s %12s %12s" % (r["code"], r["scale"], r["np"], r["threads"], r["mean_time"],
                                                            teps, build, peak))


if __name__ == "__main__":
    main()
