#!/usr/bin/env python3
"""Kernel 3 (SSSP) in one sitting beside its peers (issues 11 and 29).

sitting: at each SCALE and (ranks x threads) of 2 cores, g500 --kernels bfs,sssp (64 roots, every
search validated: the BFS validation is the yardstick for the SSSP one), the Graph500 reference's
graph500_reference_bfs_sssp at the same rank count (one thread a rank; its slow validation skipped
with SKIP_VALIDATION=1), and GAPBS's sssp -g SCALE -n 64 with 2 threads (its own integer weights
and delta, so only time a search and edges a second compare). Peers are built outside this
repository and named by placeholders in the record.

construction: kernel 3's graph build beside kernel 1's, each layout's runs in turn, in
one sitting: `--kernels bfs,sssp` (searches unvalidated: only the builds are read) gives both times in
one run, the BFS graph's kernel 1 (vertex count and rows) and the weighted graph's build; the
ratio is taken run by run. Then one `--kernels bfs` and one `--kernels sssp` run give each graph's
peak bytes a tuple and the estimate beside it.

sweep: g500 alone, one SCALE and layout, each variant (a label and g500 options, e.g. a --delta or
an --sssp-* mode) run in turn, every search validated; the mean time a search of each.

  bench/sssp.py sitting --scales 22 --layouts 2x1,1x2 --reference REF --gapbs GAPBS \\
      -o bench/results/sssp/sitting_s22.json
  bench/sssp.py construction --scale 22 --layouts 2x1,1x2 --runs 5 \\
      -o bench/results/sssp/construction_s22.json
  bench/sssp.py sweep --scale 20 --layout 2x1 --roots 16 --variant d0.1 "--delta 0.1" \\
      --variant d0.01 "--delta 0.01" -o bench/results/sssp/delta_s20.json
"""
import argparse
import json
import os
import shlex
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

ROOT = benchlib.ROOT


def layout(text):
    np, threads = (int(x) for x in text.split("x"))
    return np, threads


def run_g500(binary, scale, np, threads, roots, extra=(), kernels="bfs,sssp"):
    args = ["--scale", str(scale), "--roots", str(roots), "--kernels", kernels] + list(extra)
    r, command = benchlib.g500_json(binary, np, args, threads)
    sssp = r["sssp"]["statistics"]
    row = {"code": "g500", "scale": scale, "np": np, "threads": threads, "command": command,
           "mean_time": sssp["time"]["mean"], "harmonic_mean_teps": sssp["TEPS"]["harmonic_mean"],
           "edges_per_second": statistics.mean(x["nedge"] for x in r["sssp"]["runs"]) / sssp["time"]["mean"],
           "construction_time": r["construction_time"], "sssp_mean_validate": sssp["validate"]["mean"],
           "buckets_per_search": statistics.mean(len(x["buckets"]) for x in r["sssp"]["runs"]),
           "all_valid": all(x["result"] == "valid" for x in r["sssp"]["runs"]),
           "peak_bytes_per_tuple": r["memory"]["peak_bytes_per_tuple"], "options": r["options"]}
    if "bfs" in kernels:
        bfs = r["statistics"]
        row["bfs_mean_time"] = bfs["time"]["mean"]
        row["bfs_mean_validate"] = bfs["validate"]["mean"]
        row["sssp_over_bfs_validate"] = row["sssp_mean_validate"] / row["bfs_mean_validate"]
        row["all_valid"] = row["all_valid"] and all(x["result"] == "valid" for x in r["runs"])
    return row


def run_gapbs(binary, scale, threads, roots):
    row = benchlib.run_gapbs(binary, scale, threads, roots)
    # GAPBS's Kronecker graph: 16 * 2^SCALE undirected edges before it drops duplicates.
    row["edges_per_second"] = 16 * 2 ** scale / row["mean_time"]
    return row


def sitting(a, binary):
    reference = os.path.abspath(a.reference) if a.reference else None
    gapbs = os.path.abspath(a.gapbs) if a.gapbs else None
    if reference:
        benchlib.name_peer(reference, "REFERENCE/src/graph500_reference_bfs_sssp")
    if gapbs:
        benchlib.name_peer(gapbs, "GAPBS/sssp")
    rows = []
    for scale in [int(s) for s in a.scales.split(",")]:
        gap = run_gapbs(gapbs, scale, 2, a.roots) if gapbs else None
        if gap:
            rows.append(gap)
        for np, threads in (layout(x) for x in a.layouts.split(",")):
            mine = run_g500(binary, scale, np, threads, a.roots)
            rows.append(mine)
            if reference:
                ref = benchlib.run_reference(reference, scale, np, kernel="sssp")
                rows.append(ref)
                mine["teps_over_reference"] = mine["harmonic_mean_teps"] / ref["harmonic_mean_teps"]
            if gap:
                mine["time_over_gapbs"] = mine["mean_time"] / gap["mean_time"]
    return rows


def sweep(a, binary):
    np, threads = layout(a.layout)
    rows = []
    for label, args in a.variant:
        row = run_g500(binary, a.scale, np, threads, a.roots, shlex.split(args), kernels="sssp")
        row["label"] = label
        rows.append(row)
    return rows


def construction(a, binary):
    rows = []
    for np, threads in (layout(x) for x in a.layouts.split(",")):
        ratios, kernel1, kernel3 = [], [], []
        for _ in range(a.runs):
            args = ["--scale", str(a.scale), "--roots", str(a.roots), "--kernels", "bfs,sssp", "--skip-validation"]
            r, command = benchlib.g500_json(binary, np, args, threads)
            k3 = r["sssp_construction_time"]
            k1 = r["construction_time"] - k3
            kernel1.append(k1)
            kernel3.append(k3)
            ratios.append(k3 / k1)
        peaks = {}
        for kernels in ("bfs", "sssp"):
            args = ["--scale", str(a.scale), "--roots", "4", "--kernels", kernels]
            r, peak_command = benchlib.g500_json(binary, np, args, threads)
            peaks[kernels] = {"command": peak_command, "peak_bytes_per_tuple": r["memory"]["peak_bytes_per_tuple"],
                              "peak_per_rank": max(r["memory"]["peak_per_rank"]),
                              "estimate_per_rank": r["memory"]["estimate_per_rank"]}
        rows.append({"code": "g500", "scale": a.scale, "np": np, "threads": threads, "command": command,
                     "kernel1_seconds": kernel1, "kernel3_build_seconds": kernel3, "ratios": ratios,
                     "median_ratio": statistics.median(ratios), "median_kernel1": statistics.median(kernel1),
                     "median_kernel3_build": statistics.median(kernel3), "peaks": peaks})
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    s = sub.add_parser("sitting")
    s.add_argument("--scales", default="20")
    s.add_argument("--layouts", default="2x1,1x2", help="ranks x threads, comma-separated")
    s.add_argument("--reference", help="graph500_reference_bfs_sssp, built outside this repository")
    s.add_argument("--gapbs", help="GAPBS's sssp, built outside this repository")
    c = sub.add_parser("construction")
    c.add_argument("--scale", type=int, default=22)
    c.add_argument("--layouts", default="2x1,1x2", help="ranks x threads, comma-separated")
    c.add_argument("--runs", type=int, default=5)
    w = sub.add_parser("sweep")
    w.add_argument("--scale", type=int, default=20)
    w.add_argument("--layout", default="2x1")
    w.add_argument("--variant", nargs=2, action="append", metavar=("LABEL", "ARGS"), required=True)
    for p in (s, w, c):
        p.add_argument("--g500", default="build/g500")
        p.add_argument("--roots", type=int, default=64 if p is not c else 2)
        p.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    binary = os.path.relpath(os.path.abspath(a.g500), ROOT)
    rows = {"sitting": sitting, "sweep": sweep, "construction": construction}[a.what](a, binary)
    out = {"command": "bench/sssp.py " + benchlib.shown(sys.argv[1:]), "runs": rows}
    os.makedirs(os.path.dirname(os.path.abspath(a.output)), exist_ok=True)
    with open(a.output, "w") as f:
        json.dump(out, f, indent=1)
    if a.what == "construction":
        for r in rows:
            print(f"S{r['scale']} {r['np']}x{r['threads']}: kernel 1 {r['median_kernel1']:.2f} s, kernel 3's build "
                  f"{r['median_kernel3_build']:.2f} s, ratio {r['median_ratio']:.3f} "
                  f"({min(r['ratios']):.3f}-{max(r['ratios']):.3f}); peak bytes a tuple: bfs "
                  f"{r['peaks']['bfs']['peak_bytes_per_tuple']:.2f}, sssp {r['peaks']['sssp']['peak_bytes_per_tuple']:.2f}")
        return
    for r in rows:
        extra = "".join(f"  {k} {r[k]:.3g}" for k in ("teps_over_reference", "time_over_gapbs", "sssp_over_bfs_validate")
                        if k in r)
        teps = f"{r['harmonic_mean_teps']:.3g} TEPS" if r.get("harmonic_mean_teps") else ""
        print(f"{r.get('label', r['code']):14s} S{r['scale']} {r['np']}x{r['threads']}: {r['mean_time'] * 1e3:9.2f} ms  "
              f"{teps}  build {r['construction_time']:.2f} s{extra}")


if __name__ == "__main__":
    main()
