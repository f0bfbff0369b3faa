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
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

KEYS = ("mean_time", "harmonic_mean_teps", "construction_time", "mean_validate")


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
    binaries = {"A": os.path.abspath(o.a), "B": os.path.abspath(o.b)}
    settings = {"A": a_cmd, "B": b_cmd}

    def run_one(name):
        result, _ = benchlib.g500_json(binaries[name], o.np, settings[name], o.threads)
        figures = benchlib.kernel_figures(result, o.kernel)
        print("%s: mean search %.5f s, TEPS %.4g, construction %.3f s, validation %.3f s a root" % (
            name, figures["mean_time"], figures["harmonic_mean_teps"], figures["construction_time"],
            figures["mean_validate"]), file=sys.stderr, flush=True)
        return figures

    runs = benchlib.in_turn({"A": "A", "B": "B"}, o.pairs, run_one)
    summary = {}
    for key in KEYS:
        if any(r[key] <= 0 for r in runs["A"] + runs["B"]):
            continue  # not validated
        ratio = benchlib.ratios(runs["A"], runs["B"], key)
        summary[key] = {"median_a": statistics.median(r[key] for r in runs["A"]),
                        "median_b": statistics.median(r[key] for r in runs["B"]),
                        "ratios_a_over_b": ratio["ratios"], "median_ratio": ratio["median"],
                        "min_ratio": ratio["min"], "max_ratio": ratio["max"]}
        print("%-17s A median %.5g  B median %.5g  A/B median %.3f (min %.3f, max %.3f)" % (
            key, summary[key]["median_a"], summary[key]["median_b"], ratio["median"], ratio["min"], ratio["max"]))
    if o.out:
        record = {"a": "OMP_NUM_THREADS=%d %s" % (o.threads, benchlib.shown(benchlib.mpirun(o.np) + [binaries["A"]] + a_cmd)),
                  "b": "OMP_NUM_THREADS=%d %s" % (o.threads, benchlib.shown(benchlib.mpirun(o.np) + [binaries["B"]] + b_cmd)),
                  "a_is": o.a_is, "b_is": o.b_is, "pairs": o.pairs, "summary": summary}
        with open(o.out, "w") as f:
            json.dump(record, f, indent=1)


if __name__ == "__main__":
    main()
