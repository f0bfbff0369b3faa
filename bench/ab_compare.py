#!/usr/bin/env python3
"""Two g500 builds (or settings) side by side: runs A and B in turn (A B A B ...) with the same
arguments and reports, pair by pair, the ratio A/B of kernel 2's mean BFS time, its harmonic-mean
TEPS, kernel 1's construction time and the mean validation time a root (when validated), with the
medians. On a shared machine only ratios of runs taken in turn can be trusted; absolute times drift.

  bench/ab_compare.py --a build/g500 --b OTHER/g500 [--pairs 5] [--np 2] [--threads 1] \\
      [--a-args "..."] [--b-args "..."] -- --scale 22 --skip-validation
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MPIRUN = os.path.join(ROOT, "scripts", "mpirun")


def shown(path):
    """A path as the results record it: relative to the repository when inside it."""
    path = os.path.abspath(path)
    return os.path.relpath(path, ROOT) if path.startswith(ROOT + os.sep) else os.path.basename(path)


def run_once(binary, args, np, threads, out_json, kernel="bfs"):
    cmd = [MPIRUN, "-np", str(np), binary] + args + ["--quiet", "--json", out_json]
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        raise SystemExit("failed: %s\n%s" % (shlex.join(cmd), p.stderr[-2000:]))
    with open(out_json) as f:
        r = json.load(f)
    stats = r["sssp"]["statistics"] if kernel == "sssp" else r["statistics"]
    return {"mean_time": stats["time"]["mean"], "teps": stats["TEPS"]["harmonic_mean"],
            "construction": r["construction_time"], "validation": stats.get("validate", {}).get("mean", 0.0)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True, help="g500 binary A")
    ap.add_argument("--b", required=True, help="g500 binary B")
    ap.add_argument("--a-args", default="", help="extra arguments for A only")
    ap.add_argument("--b-args", default="", help="extra arguments for B only")
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--kernel", choices=["bfs", "sssp"], default="bfs",
                    help="whose statistics to compare (sssp: run with --kernels sssp or bfs,sssp)")
    ap.add_argument("--out", help="write the figures and commands as JSON here")
    ap.add_argument("--a-is", default="", help="what A is (a commit, a build option), for the record")
    ap.add_argument("--b-is", default="", help="what B is, for the record")
    ap.add_argument("args", nargs=argparse.REMAINDER, help="-- then the g500 arguments both get")
    o = ap.parse_args()
    common = [a for a in o.args if a != "--"]
    a_cmd = common + shlex.split(o.a_args)
    b_cmd = common + shlex.split(o.b_args)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(o.pairs):
            a = run_once(o.a, a_cmd, o.np, o.threads, os.path.join(tmp, "a.json"), o.kernel)
            b = run_once(o.b, b_cmd, o.np, o.threads, os.path.join(tmp, "b.json"), o.kernel)
            rows.append((a, b))
            print("pair %d: mean search %.5f / %.5f s, TEPS %.4g / %.4g, construction %.3f / %.3f s, validation %.3f / %.3f s a root" % (
                i + 1, a["mean_time"], b["mean_time"], a["teps"], b["teps"], a["construction"], b["construction"],
                a["validation"], b["validation"]), file=sys.stderr, flush=True)
    summary = {}
    for key in ("mean_time", "teps", "construction", "validation"):
        if any(a[key] <= 0 or b[key] <= 0 for a, b in rows):
            continue  # not validated
        ratios = [a[key] / b[key] for a, b in rows]
        summary[key] = {"median_a": statistics.median(a[key] for a, _ in rows),
                        "median_b": statistics.median(b[key] for _, b in rows),
                        "ratios_a_over_b": ratios, "median_ratio": statistics.median(ratios),
                        "min_ratio": min(ratios), "max_ratio": max(ratios)}
        print("%-13s A median %.5g  B median %.5g  A/B median %.3f (min %.3f, max %.3f)" % (
            key, summary[key]["median_a"], summary[key]["median_b"], summary[key]["median_ratio"],
            summary[key]["min_ratio"], summary[key]["max_ratio"]))
    if o.out:
        record = {"a": "OMP_NUM_THREADS=%d scripts/mpirun -np %d %s %s" % (o.threads, o.np, shown(o.a), shlex.join(a_cmd)),
                  "b": "OMP_NUM_THREADS=%d scripts/mpirun -np %d %s %s" % (o.threads, o.np, shown(o.b), shlex.join(b_cmd)),
                  "a_is": o.a_is, "b_is": o.b_is, "pairs": o.pairs, "summary": summary}
        with open(o.out, "w") as f:
            json.dump(record, f, indent=1)


if __name__ == "__main__":
    main()
