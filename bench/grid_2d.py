#!/usr/bin/env python3
"""The 2D engines against hybrid-1d in one sitting (paper 004), one thread per rank:

  - at each SCALE and rank count: mean BFS time, harmonic-mean TEPS, bytes sent per search and
    peak memory per input tuple of top-down-2d, hybrid-2d and hybrid-1d; for top-down-2d the fold
    with --compress vlq and none (fold bytes per edge sent, from the fold.bytes / fold.edges
    counters);
  - at -np 16 (SCALE --scale16): the same, with hybrid-2d on every grid listed;
  - paired runs (A B A B ...) of hybrid-2d against hybrid-1d at -np 4, the ratio per pair.

Then the targets: vlq fold bytes <= 40% of none; hybrid-2d at -np 4 no slower than hybrid-1d;
hybrid-2d's bytes per search at -np 16 at most half of hybrid-1d's; peak bytes per tuple no worse.

  bench/grid_2d.py --scales 20,22 --np 1,2,4 --scale16 18 --roots 16 --pairs 3 \\
      -o bench/results/grid_2d/grid_2d.json
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

ROOT = benchlib.ROOT


def logical(result, name):
    return sum(l["traffic"]["logical"].get(name, {}).get("items", 0) for x in result["runs"] for l in x["levels"])


def run(binary, engine, scale, np, roots, extra=()):
    args = ["--scale", str(scale), "--roots", str(roots), "--bfs", engine, "--skip-validation"] + list(extra)
    r, command = benchlib.g500_json(binary, np, args)
    fold_edges, fold_bytes = logical(r, "fold.edges"), logical(r, "fold.bytes")
    return {
        "engine": engine, "scale": scale, "np": np, "layout": r["graph"]["layout"],
        "command": command,
        "mean_time": r["statistics"]["time"]["mean"],
        "harmonic_mean_teps": r["statistics"]["TEPS"]["harmonic_mean"],
        "bytes_sent_per_search": statistics.mean(sum(l["traffic"]["bytes_sent"] for l in x["levels"])
                                                 for x in r["runs"]),
        "fold_bytes_per_edge": fold_bytes / fold_edges if fold_edges else None,
        "construction_time": r["construction_time"],
        "peak_bytes_per_tuple": r["memory"]["peak_bytes_per_tuple"],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--g500", default="build/g500")
    ap.add_argument("--scales", default="20,22")
    ap.add_argument("--np", default="1,2,4")
    ap.add_argument("--scale16", type=int, default=18)
    ap.add_argument("--grids16", default="4x4,2x8", help="hybrid-2d grids at -np 16")
    ap.add_argument("--roots", type=int, default=16)
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--pair-scale", type=int, default=20)
    ap.add_argument("-o", "--output", default="bench/results/grid_2d/grid_2d.json")
    a = ap.parse_args()
    binary = os.path.relpath(os.path.abspath(a.g500), ROOT)

    rows = []
    for scale in [int(s) for s in a.scales.split(",")]:
        for np in [int(n) for n in a.np.split(",")]:
            for engine in ("top-down-2d", "hybrid-2d", "hybrid-1d"):
                rows.append(run(binary, engine, scale, np, a.roots))
            rows.append(dict(run(binary, "top-down-2d", scale, np, a.roots, ["--compress", "none"]),
                             engine="top-down-2d --compress none"))
    at16 = [run(binary, "hybrid-1d", a.scale16, 16, a.roots), run(binary, "top-down-2d", a.scale16, 16, a.roots)]
    for grid in a.grids16.split(","):
        at16.append(dict(run(binary, "hybrid-2d", a.scale16, 16, a.roots, ["--grid", grid]),
                         engine="hybrid-2d --grid " + grid))

    turns = benchlib.in_turn({e: e for e in ("hybrid-2d", "hybrid-1d")}, a.pairs,
                             lambda engine: run(binary, engine, a.pair_scale, 4, a.roots))
    pairs = [{"hybrid_2d_mean_time": two["mean_time"], "hybrid_1d_mean_time": one["mean_time"],
              "ratio_2d_over_1d": two["mean_time"] / one["mean_time"]}
             for two, one in zip(turns["hybrid-2d"], turns["hybrid-1d"])]

    def find(engine, scale, np, source=rows):
        return next(r for r in source if r["engine"] == engine and r["scale"] == scale and r["np"] == np)

    fold = []
    for r in rows:
        if r["engine"] == "top-down-2d" and r["np"] > 1:
            none = find("top-down-2d --compress none", r["scale"], r["np"])
            fold.append({"scale": r["scale"], "np": r["np"], "vlq_bytes_per_edge": r["fold_bytes_per_edge"],
                         "none_bytes_per_edge": none["fold_bytes_per_edge"],
                         "vlq_over_none": r["fold_bytes_per_edge"] / none["fold_bytes_per_edge"]})
    one16 = find("hybrid-1d", a.scale16, 16, at16)
    bytes16 = {r["engine"]: r["bytes_sent_per_search"] / one16["bytes_sent_per_search"]
               for r in at16 if r["engine"].startswith("hybrid-2d")}
    memory = []
    for r in rows:
        if r["engine"] in ("top-down-2d", "hybrid-2d"):
            one = find("hybrid-1d", r["scale"], r["np"])
            memory.append({"scale": r["scale"], "np": r["np"], "engine": r["engine"],
                           "over_hybrid_1d": r["peak_bytes_per_tuple"] / one["peak_bytes_per_tuple"]})
    ratios = [p["ratio_2d_over_1d"] for p in pairs]
    targets = {
        "fold_vlq_over_none_max": max(f["vlq_over_none"] for f in fold) if fold else None,
        "fold_vlq_at_most_40_percent": all(f["vlq_over_none"] <= 0.40 for f in fold) if fold else None,
        "np4_hybrid_2d_over_1d_time_median": statistics.median(ratios) if ratios else None,
        "np4_hybrid_2d_no_slower": statistics.median(ratios) <= 1.0 if ratios else None,
        "np16_hybrid_2d_bytes_over_1d": bytes16,
        "np16_bytes_at_most_half": {g: v <= 0.5 for g, v in bytes16.items()},
        "peak_memory_over_hybrid_1d_max": max(m["over_hybrid_1d"] for m in memory) if memory else None,
    }
    out = {"command": "bench/grid_2d.py " + " ".join(sys.argv[1:]), "runs": rows, "np16": at16,
           "np4_pairs": pairs, "fold_compression": fold, "memory": memory, "targets": targets}
    os.makedirs(os.path.dirname(os.path.abspath(a.output)), exist_ok=True)
    with open(a.output, "w") as f:
        json.dump(out, f, indent=1)
    print(json.dumps(targets, indent=1))


if __name__ == "__main__":
    main()
