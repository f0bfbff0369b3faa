#!/usr/bin/env python3
"""One whole g500 benchmark (generation, kernel 1, 64 searches, 64 validations)
at a SCALE, as a user runs it, with the wall time of the whole command beside g500's own figures:
peak per rank and in total, bytes per input tuple, the peak before validation, the memory estimate
over the peak, construction, mean search, harmonic-mean TEPS, validation per root, the validation
batch, and (with --row-codes) what the rows would take stored as byte-coded gaps.

  bench/whole_run.py --scale 26 --np 2 --threads 1 --row-codes -o bench/results/whole_run/whole_s26_np2_t1.json
  bench/whole_run.py --scale 27 --np 2 --roots 8 --bfs hybrid-2d -o bench/results/whole_run/whole_s27_2d.json

The whole-run targets (SCALE 26 at -np 2: the whole command in at most 480 s, construction at most
90 s, validation at most 5 s a root; the estimate within 10% of the peak) are printed beside the
figures. g500's own JSON is kept beside the summary (the same name with .g500.json) only with
--keep-json: the summary holds what the records cite.
"""
import argparse
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

ROOT = benchlib.ROOT


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--g500", default="build/g500")
    ap.add_argument("--scale", type=int, default=26)
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--roots", type=int, default=64)
    ap.add_argument("--kernels", default="bfs", help="g500's --kernels (bfs,sssp: kernel 3's figures too)")
    ap.add_argument("--bfs", default="", help="g500's --bfs (its default when not given)")
    ap.add_argument("--row-codes", action="store_true", help="also --measure-row-codes (untimed, after kernel 1)")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--keep-json", action="store_true", help="keep g500's own --json beside the summary")
    a = ap.parse_args()
    output = os.path.abspath(a.output)
    own_json = output[:-5] + ".g500.json" if output.endswith(".json") else output + ".g500.json"
    if not a.keep_json:
        scratch = tempfile.TemporaryDirectory()
        own_json = os.path.join(scratch.name, "g500.json")
    os.makedirs(os.path.dirname(output), exist_ok=True)
    # Relative paths, run from the repository: g500's JSON records its own command line as given.
    cmd = benchlib.mpirun(a.np) + [os.path.relpath(os.path.abspath(a.g500), ROOT), "--scale", str(a.scale),
                                    "--roots", str(a.roots), "--json", os.path.relpath(own_json, ROOT) if a.keep_json else own_json]
    if a.kernels != "bfs":
        cmd += ["--kernels", a.kernels]
    if a.bfs:
        cmd += ["--bfs", a.bfs]
    if a.row_codes:
        cmd.append("--measure-row-codes")
    start = time.monotonic()
    benchlib.execute(cmd, a.threads)
    wall = time.monotonic() - start
    with open(own_json) as f:
        r = json.load(f)
    stats, memory = r["statistics"], r["memory"]
    peak_rank = max(memory["peak_per_rank"])
    summary = {
        "command": "OMP_NUM_THREADS=%d %s" % (a.threads, benchlib.shown(cmd)),
        "date": time.strftime("%Y-%m-%d"),
        "wall_seconds": wall,
        "bfs": r["options"].get("bfs"),
        "generation_seconds": r["graph_generation"],
        "construction_seconds": r["construction_time"],
        "mean_search_seconds": stats["time"]["mean"],
        "harmonic_mean_teps": stats["TEPS"]["harmonic_mean"],
        "validation_seconds_per_root": stats["validate"]["mean"],
        "validation_batch": r["options"].get("validation_batch"),
        "peak_per_rank": memory["peak_per_rank"],
        "peak_total": memory["peak_total"],
        "peak_bytes_per_tuple": memory["peak_bytes_per_tuple"],
        "peak_per_rank_before_validation": memory.get("peak_per_rank_before_validation"),
        "peak_bytes_per_tuple_before_validation":
            sum(memory.get("peak_per_rank_before_validation") or [0]) / r["graph"]["edge_tuples"],
        "estimate_per_rank": memory["estimate_per_rank"],
        "estimate_over_peak": memory["estimate_per_rank"] / peak_rank,
        "row_codes": r.get("row_codes"),
        "all_valid": all(run["result"] == "valid" for run in r["runs"] + (r["sssp"] or {}).get("runs", [])),
    }
    if r.get("sssp"):
        sssp = r["sssp"]["statistics"]
        summary["sssp_construction_seconds"] = r.get("sssp_construction_time")
        summary["sssp_mean_search_seconds"] = sssp["time"]["mean"]
        summary["sssp_harmonic_mean_teps"] = sssp["TEPS"]["harmonic_mean"]
        summary["sssp_validation_seconds_per_root"] = sssp["validate"]["mean"]
    with open(output, "w") as f:
        json.dump(summary, f, indent=2)
        f.write("\n")
    print("wall %.0f s (target 480 at SCALE 26)  construction %.1f s (target 90)  validation %.2f s/root (target 5)"
          % (wall, summary["construction_seconds"], summary["validation_seconds_per_root"]))
    print("peak %.2f GB total, %.2f bytes/tuple (%.2f before validation, batch %s); estimate/peak %.3f"
          % (summary["peak_total"] / 1e9, summary["peak_bytes_per_tuple"],
             summary["peak_bytes_per_tuple_before_validation"], summary["validation_batch"],
             summary["estimate_over_peak"]))
    if "sssp_mean_search_seconds" in summary:
        print("SSSP: graph %.1f s (after kernel 2), mean search %.3f s, %.3g TEPS, validation %.2f s/root"
              % (summary["sssp_construction_seconds"], summary["sssp_mean_search_seconds"],
                 summary["sssp_harmonic_mean_teps"], summary["sssp_validation_seconds_per_root"]))
    if summary["row_codes"]:
        c = summary["row_codes"]
        print("rows as byte-coded gaps: %.3f bytes/entry, %.3f bytes/tuple" % (c["bytes_per_entry"], c["bytes_per_tuple"]))


if __name__ == "__main__":
    main()
