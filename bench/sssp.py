#!/usr/bin/env python3
"""Kernel 3 (SSSP) beside the Graph500 reference's in one sitting (issue 11): at each SCALE and rank
count (one thread per rank), g500 --kernels sssp (64 roots, every search validated) and, when
given, the reference's graph500_reference_bfs_sssp (built outside this repository; its slow
validation skipped with SKIP_VALIDATION=1; it runs its BFS roots first), one after the other.
Records mean SSSP time, harmonic-mean SSSP TEPS, construction time and, for g500, validation time
per root and the buckets per search.

  bench/sssp.py --scales 16,18,20 --np 1,2 --reference REFERENCE/src/graph500_reference_bfs_sssp \\
      -o bench/results/sssp/sssp.json
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_bench  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_g500(binary, scale, np, roots):
    args = ["--scale", str(scale), "--roots", str(roots), "--kernels", "sssp"]
    r, command = run_bench.g500_json(binary, np, args)
    stats = r["sssp"]["statistics"]
    return {"code": "g500", "scale": scale, "np": np, "command": command,
            "mean_time": stats["time"]["mean"], "harmonic_mean_teps": stats["TEPS"]["harmonic_mean"],
            "construction_time": r["construction_time"], "mean_validate": stats["validate"]["mean"],
            "buckets_per_search": statistics.mean(len(x["buckets"]) for x in r["sssp"]["runs"]),
            "all_valid": all(x["result"] == "valid" for x in r["sssp"]["runs"])}


def run_reference(binary, scale, np):
    cmd = run_bench.mpirun(np) + [binary, str(scale), "16"]
    out = run_bench.execute(cmd, 1, {"SKIP_VALIDATION": "1"})
    return {"code": "reference-3.0", "scale": scale, "np": np,
            "command": "SKIP_VALIDATION=1 OMP_NUM_THREADS=1 %s" % run_bench.shown(cmd),
            "mean_time": run_bench.number(r"^sssp mean_time:\s+(\S+)", out),
            "harmonic_mean_teps": run_bench.number(r"^sssp harmonic_mean_TEPS:\s+!?\s*(\S+)", out),
            "construction_time": run_bench.number(r"^construction_time:\s+(\S+)", out)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--g500", default="build/g500")
    ap.add_argument("--reference", help="graph500_reference_bfs_sssp, built outside this repository")
    ap.add_argument("--scales", default="16,18,20")
    ap.add_argument("--np", default="1,2")
    ap.add_argument("--roots", type=int, default=64)
    ap.add_argument("-o", "--output", default="bench/results/sssp/sssp.json")
    a = ap.parse_args()
    binary = os.path.relpath(os.path.abspath(a.g500), ROOT)
    reference = os.path.abspath(a.reference) if a.reference else None
    if reference:
        run_bench.PEER_NAMES[reference] = "REFERENCE/src/graph500_reference_bfs_sssp"
    rows = []
    for scale in [int(s) for s in a.scales.split(",")]:
        for np in [int(n) for n in a.np.split(",")]:
            mine = run_g500(binary, scale, np, a.roots)
            rows.append(mine)
            if reference:
                ref = run_reference(reference, scale, np)
                rows.append(ref)
                mine["teps_over_reference"] = mine["harmonic_mean_teps"] / ref["harmonic_mean_teps"]
    out = {"command": "bench/sssp.py " + run_bench.shown(sys.argv[1:]), "runs": rows}
    os.makedirs(os.path.dirname(os.path.abspath(a.output)), exist_ok=True)
    with open(a.output, "w") as f:
        json.dump(out, f, indent=1)
    for r in rows:
        extra = f"  x{r['teps_over_reference']:.1f} the reference" if "teps_over_reference" in r else ""
        print(f"{r['code']:14s} S{r['scale']} np{r['np']}: {r['mean_time'] * 1e3:9.2f} ms  "
              f"{r['harmonic_mean_teps']:.3g} TEPS  build {r['construction_time']:.2f} s{extra}")


if __name__ == "__main__":
    main()
