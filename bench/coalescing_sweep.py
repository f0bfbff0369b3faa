#!/usr/bin/env python3
"""The coalescing sweep of paper 001 (its Fig. 5): top-down-1d at one SCALE and rank count for each
--coalescing-size, with mean BFS time, harmonic-mean TEPS and query messages per rank per search
beside equation (1) (with the arcs each search examined). Optionally hybrid-1d and the reference
3.0 binary at the same settings, in the same sitting, for comparison.

  bench/coalescing_sweep.py --scale 20 --np 4 [--sizes 16,64,...] [--hybrid] [--reference BIN] \\
      -o bench/results/coalescing/s20_np4.json
  scripts/g500-plot sweep bench/results/coalescing/s20_np4.json -o sweep.png
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
DEFAULT_SIZES = [16, 64, 256, 1024, 4096, 16384, 65536]


def g500_run(binary, scale, np, roots, extra):
    """One g500 run (1 thread per rank); returns its JSON."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        cmd = benchlib.mpirun(np) + [binary, "--scale", str(scale), "--roots", str(roots)] + extra + \
            ["--quiet", "--json", out]
        benchlib.execute(cmd, 1)
        with open(out) as f:
            result = json.load(f)
    shown_cmd = benchlib.mpirun(np) + [binary, "--scale", str(scale), "--roots", str(roots)] + extra
    result["shown_command"] = "OMP_NUM_THREADS=1 " + benchlib.shown(shown_cmd)
    return result


def per_search(result, np):
    """Means over searches: query messages per rank, equation (1)'s messages per rank, bytes moved
    per examined arc."""
    msgs, model, per_arc = [], [], []
    cs = result["options"].get("coalescing_size")
    for r in result["runs"]:
        arcs = sum(l["edges_examined"] for l in r["levels"])
        sent = sum(l["traffic"]["bytes_sent"] for l in r["levels"])
        per_arc.append(sent / arcs if arcs else 0)
        if cs:
            msgs.append(sum(l["traffic"]["logical"]["coalesced.messages"]["items"] for l in r["levels"]) / np)
            model.append(arcs * (np - 1) / np / np / cs)
    out = {"bytes_per_examined_arc": statistics.mean(per_arc)}
    if cs:
        out.update({"messages_per_rank": statistics.mean(msgs), "model_messages_per_rank": statistics.mean(model)})
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, "build", "g500"))
    parser.add_argument("--scale", type=int, default=20)
    parser.add_argument("--np", type=int, default=4)
    parser.add_argument("--roots", type=int, default=64)
    parser.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)))
    parser.add_argument("--hybrid", action="store_true", help="also run hybrid-1d at the same settings")
    parser.add_argument("--reference", help="the reference 3.0 binary (graph500_reference_bfs), run alike")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    sweep = {"scale": args.scale, "ranks": args.np, "threads_per_rank": 1, "roots": args.roots, "points": []}
    for size in [int(s) for s in args.sizes.split(",")]:
        r = g500_run(args.binary, args.scale, args.np, args.roots,
                     ["--bfs", "top-down-1d", "--coalescing-size", str(size), "--skip-validation"])
        point = {"coalescing_size": size, "command": r["shown_command"],
                 "mean_time": r["statistics"]["time"]["mean"], "teps": r["statistics"]["TEPS"]["harmonic_mean"]}
        point.update(per_search(r, args.np))
        print("coalescing %6d: mean %.4f s, %.3g TEPS, %.0f messages per rank (equation (1): %.0f)" %
              (size, point["mean_time"], point["teps"], point["messages_per_rank"], point["model_messages_per_rank"]),
              file=sys.stderr, flush=True)
        sweep["points"].append(point)
    best = min(sweep["points"], key=lambda p: p["mean_time"])
    sweep["best_coalescing_size"] = best["coalescing_size"]
    if args.hybrid:
        r = g500_run(args.binary, args.scale, args.np, args.roots, ["--bfs", "hybrid-1d", "--skip-validation"])
        sweep["hybrid_1d"] = {"command": r["shown_command"], "mean_time": r["statistics"]["time"]["mean"],
                              "teps": r["statistics"]["TEPS"]["harmonic_mean"], **per_search(r, args.np)}
    if args.reference:
        benchlib.name_peer(args.reference, "REFERENCE/src/graph500_reference_bfs")
        ref = benchlib.run_reference(args.reference, args.scale, args.np)
        sweep["reference_3_0"] = {"command": ref["command"], "mean_time": ref["mean_time"],
                                  "teps": ref["harmonic_mean_teps"]}
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w") as f:
        json.dump(sweep, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
