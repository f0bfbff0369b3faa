#!/usr/bin/env python3
"""The scaling curve: g500 at several SCALEs (and, when given, the peers at the same SCALEs), one
sitting, recording per SCALE the harmonic-mean TEPS, mean BFS time, construction time, mean
validation time per root and peak resident memory (summed over ranks, and per input tuple).
Writes bench/results/scaling/summary.json with the exact commands (relative to the repository),
and a plot of the curves with --plot.

  bench/scaling.py [--scales 16 18 20 22 24] [--np 2] [--threads 1] [--roots 64]
                   [--fugaku PATH/runnable] [--plot]

Peak memory of the peers is the largest process's, read by /usr/bin/time -v around each rank.
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


def g500_row(scale, np, threads, roots):
    r, command = benchlib.g500_json("build/g500", np, ["--scale", str(scale), "--roots", str(roots)], threads)
    row = {"code": "g500", "scale": scale, "np": np, "threads": threads, "roots": roots, "command": command}
    row.update(benchlib.kernel_figures(r))
    row.update({"peak_total_bytes": r["memory"]["peak_total"], "peak_bytes_per_tuple": r["memory"]["peak_bytes_per_tuple"],
                "peak_per_rank": r["memory"]["peak_per_rank"], "estimate_per_rank": r["memory"]["estimate_per_rank"]})
    return row


def fugaku_row(binary, scale, np, threads, roots):
    row = benchlib.run_fugaku(binary, scale, np, threads, roots)
    row["roots"] = roots
    row["peak_bytes_per_tuple"] = row["peak_total_bytes"] / (16 * 2 ** scale) if row["peak_total_bytes"] else None
    return row


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
    benchlib.name_peer(o.fugaku, "FUGAKU/mpi/runnable")
    os.makedirs(o.results, exist_ok=True)
    rows = []
    for scale in o.scales:
        rows.append(g500_row(scale, o.np, o.threads, o.roots))
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
