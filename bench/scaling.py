#!/usr/bin/env python3
"""The scaling curve: g500 at several SCALEs (and, when given, the peers at the same SCALEs), one
sitting, recording per SCALE the harmonic-mean TEPS, mean BFS time, construction time, mean
validation time per root and peak resident memory (summed over ranks, and per input tuple).
Writes bench/results/scaling/summary.json with the exact commands (relative to the repository),
and a plot of the curves with --plot.

  bench/scaling.py [--scales 16 18 20 22 24] [--np 2] [--threads 1] [--roots 64]
                   [--fugaku FUGAKU/mpi/runnable] [--gapbs GAPBS/bfs] [--plot]

Peak memory of the peers is the largest process's, read by /usr/bin/time -v around each rank.
"""
import argparse
import datetime
import json
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run(cmd, threads):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    print("+ OMP_NUM_THREADS=%d %s" % (threads, shlex.join(cmd)), file=sys.stderr, flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    if p.returncode != 0:
        raise SystemExit("failed (%d): %s\n%s" % (p.returncode, shlex.join(cmd), p.stderr[-3000:]))
    return p


def g500_row(scale, np, threads, roots, results):
    out = os.path.relpath(os.path.join(results, "g500_s%d_np%d_t%d.json" % (scale, np, threads)), ROOT)
    cmd = ["scripts/mpirun", "-np", str(np), "build/g500", "--scale", str(scale), "--roots", str(roots),
           "--quiet", "--json", out]
    run(cmd, threads)
    with open(os.path.join(ROOT, out)) as f:
        r = json.load(f)
    s = r["statistics"]
    return {"code": "g500", "scale": scale, "np": np, "threads": threads, "roots": roots,
            "command": "OMP_NUM_THREADS=%d %s" % (threads, shlex.join(cmd)),
            "harmonic_mean_teps": s["TEPS"]["harmonic_mean"], "mean_time": s["time"]["mean"],
            "construction_time": r["construction_time"], "mean_validate": s["validate"]["mean"],
            "peak_total_bytes": r["memory"]["peak_total"], "peak_bytes_per_tuple": r["memory"]["peak_bytes_per_tuple"],
            "peak_per_rank": r["memory"]["peak_per_rank"], "estimate_per_rank": r["memory"]["estimate_per_rank"]}


def number(pattern, text):
    m = re.search(pattern, text, re.MULTILINE)
    return float(m.group(1)) if m else None


def fugaku_row(binary, scale, np, threads, roots):
    # -v 1: the code's -v 0 sleeps between roots. /usr/bin/time -v around each rank gives its peak.
    cmd = ["scripts/mpirun", "-np", str(np), "/usr/bin/time", "-v", binary, str(scale), "-n", str(roots), "-v", "1"]
    p = run(cmd, threads)
    peaks = [int(x) * 1024 for x in re.findall(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr)]
    tuples = 16 * 2 ** scale
    return {"code": "fugaku", "scale": scale, "np": np, "threads": threads, "roots": roots,
            "command": "OMP_NUM_THREADS=%d %s" % (threads, shlex.join(cmd[:4] + ["FUGAKU/mpi/runnable"] + cmd[5:])),
            "harmonic_mean_teps": number(r"^harmonic_mean_TEPS:\s+(\S+)", p.stdout),
            "mean_time": number(r"^mean_time:\s+(\S+)", p.stdout),
            "construction_time": number(r"^construction_time:\s+(\S+)", p.stdout),
            "peak_total_bytes": sum(peaks), "peak_bytes_per_tuple": sum(peaks) / tuples if peaks else None}


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
    for code in sorted({r["code"] for r in rows}):
        mine = sorted((r for r in rows if r["code"] == code), key=lambda r: r["scale"])
        label = "%s (%dx%d)" % (code, mine[0]["np"], mine[0]["threads"])
        scales = [r["scale"] for r in mine]
        axes[0].plot(scales, [r["harmonic_mean_teps"] or float("nan") for r in mine], "o-", label=label)
        axes[1].plot(scales, [r["construction_time"] or float("nan") for r in mine], "o-", label=label)
        axes[2].plot(scales, [r["peak_bytes_per_tuple"] or float("nan") for r in mine], "o-", label=label)
    axes[0].set_ylabel("harmonic-mean TEPS")
    axes[0].set_yscale("log")
    axes[1].set_ylabel("construction time (s)")
    axes[1].set_yscale("log")
    axes[2].set_ylabel("peak resident bytes per input tuple (all ranks)")
    for ax in axes:
        ax.set_xlabel("SCALE")
        ax.grid(True, alpha=0.3)
        ax.legend()
    fig.suptitle("Graph500 BFS, one 2-core machine, one sitting")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scales", type=int, nargs="+", default=[16, 18, 20, 22, 24])
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--roots", type=int, default=64)
    ap.add_argument("--fugaku")
    ap.add_argument("--results", default=os.path.join(HERE, "results", "scaling"))
    ap.add_argument("--plot", action="store_true", help="also write scaling.png beside the summary")
    o = ap.parse_args()
    os.makedirs(o.results, exist_ok=True)
    rows = []
    for scale in o.scales:
        rows.append(g500_row(scale, o.np, o.threads, o.roots, o.results))
        if o.fugaku:
            rows.append(fugaku_row(o.fugaku, scale, o.np, o.threads, o.roots))
    with open(os.path.join(o.results, "summary.json"), "w") as f:
        json.dump({"date": datetime.datetime.now().isoformat(timespec="seconds"), "cores": os.cpu_count(),
                   "rows": rows}, f, indent=1)
    print("%-7s %5s %12s %10s %10s %10s %12s" % ("code", "SCALE", "hmean_TEPS", "mean_bfs", "build", "valid/root",
                                                 "bytes/tuple"))
    for r in rows:
        print("%-7s %5d %12.4g %10.4g %10.4g %10s %12.4g" % (
            r["code"], r["scale"], r["harmonic_mean_teps"] or 0, r["mean_time"] or 0, r["construction_time"] or 0,
            "%.4g" % r["mean_validate"] if r.get("mean_validate") is not None else "-", r["peak_bytes_per_tuple"] or 0))
    if o.plot:
        plot(rows, os.path.join(o.results, "scaling.png"))


if __name__ == "__main__":
    main()
