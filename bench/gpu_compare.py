#!/usr/bin/env python3
"""A GPU engine's runs beside the same engine's CPU build and a host engine's runs.

Reads the JSON files bench/gpu_engine.sh wrote for g500-cuda (GPU) and g500 (CPU), checks that
every search was validated, that both searched the same roots of the same graph, and that each
level's counters are equal (sort-unique: expanded, after unique, after visited; any engine: the
direction, the vertices found and the entries examined), then writes one record: TEPS, time a
level, the share of each step, and the GPU memory sampled by nvidia-smi. With --host, a host
engine's runs of the same SCALEs (hybrid-1d on the GPU machine's cores): the vertices found level
by level must agree, and the record gives the GPU's TEPS over the host's.

Usage: bench/gpu_compare.py [--engine E] --gpu DIR --cpu DIR [--cpu DIR ...] [--host DIR]
                            [--baseline DIR] -o RESULT.json
"""
import argparse
import glob
import json
import os
import statistics
import sys

COUNTERS = ("expanded", "after_unique", "after_visited")


def load_runs(directory, binary, engine):
    """SCALE -> the run's JSON, for every <binary>_<engine>_s<SCALE>.json in directory (and, for
    sort-unique, the first runs' <binary>_s<SCALE>.json)."""
    found = {}
    prefixes = [f"{binary}_{engine}"] + ([binary] if engine == "sort-unique" else [])
    for prefix in prefixes:
        for path in glob.glob(os.path.join(directory, f"{prefix}_s*.json")):
            scale = os.path.basename(path)[len(prefix) + 2:-len(".json")]
            if scale.isdigit():
                with open(path) as f:
                    found.setdefault(int(scale), json.load(f))
    return found


def level_counters(run):
    """One tuple of counters a level, in level order: the engine's own (sort-unique's three
    logical counters) where it has them, else its direction, finds and entries examined."""
    rows = []
    for level in run["levels"]:
        logical = level["traffic"]["logical"]
        if any(f"sort_unique.{c}" in logical for c in COUNTERS):
            rows.append(tuple(logical.get(f"sort_unique.{c}", {}).get("items", 0) for c in COUNTERS))
        else:
            rows.append((level["direction"], level["discovered"], level["edges_examined"]))
    return rows


def found_per_level(run):
    return [level["discovered"] for level in run["levels"]]


def compare_with_host(gpu, host):
    """Roots both searched, and whether each found the same vertices level by level."""
    host_by_root = {r["root"]: r for r in host["runs"]}
    both = [(r, host_by_root[r["root"]]) for r in gpu["runs"] if r["root"] in host_by_root]
    return {"roots_compared": len(both),
            "roots_with_equal_levels": sum(found_per_level(a) == found_per_level(b) for a, b in both)}


def peak_gpu_mib(directory, scale, binary="g500-cuda", engine="sort-unique"):
    path = os.path.join(directory, f"{binary}_{engine}_s{scale}_smi.csv")
    if not os.path.exists(path):
        path = os.path.join(directory, f"{binary}_s{scale}_smi.csv")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        used = [int(line.split(",")[1]) for line in f if line.count(",") == 1 and line.split(",")[1].strip().isdigit()]
    return max(used) if used else None


def summary(result):
    """TEPS, time a search and a level, and each step's share of the level time."""
    runs = result["runs"]
    steps = {}
    levels = 0
    for run in runs:
        for level in run["levels"]:
            levels += 1
            for name, seconds in level.get("steps", {}).items():
                steps[name] = steps.get(name, 0.0) + seconds
    total = sum(steps.values())
    return {
        "roots": len(runs),
        "all_valid": all(r["result"] == "valid" for r in runs),
        "harmonic_mean_teps": result["statistics"]["TEPS"]["harmonic_mean"],
        "median_search_s": statistics.median(r["seconds"] for r in runs),
        "mean_levels": levels / len(runs),
        "mean_level_s": sum(r["seconds"] for r in runs) / levels,
        "step_share": {name: s / total for name, s in sorted(steps.items())},
        "construction_s": result["construction_time"],
        "host_peak_bytes": result["memory"]["peak_total"],
        "host_estimate_bytes": result["memory"]["estimate_per_rank"],
        "threads": result["machine"]["threads_per_process"],
    }


def compare_counters(gpu, cpu):
    """Roots searched by both, and how many of their levels have equal counters."""
    cpu_by_root = {r["root"]: r for r in cpu["runs"]}
    roots = levels = equal = 0
    first_difference = None
    for run in gpu["runs"]:
        other = cpu_by_root.get(run["root"])
        if other is None:
            continue
        roots += 1
        a, b = level_counters(run), level_counters(other)
        levels += max(len(a), len(b))
        for k in range(max(len(a), len(b))):
            if k < len(a) and k < len(b) and a[k] == b[k]:
                equal += 1
            elif first_difference is None:
                first_difference = {"root": run["root"], "level": k,
                                    "gpu": a[k] if k < len(a) else None, "cpu": b[k] if k < len(b) else None}
    return {"roots_compared": roots, "levels_compared": levels, "levels_equal": equal,
            "first_difference": first_difference}


def paired_ratio(new, old):
    """Search time new/old root by root, for the roots both searched."""
    old_by_root = {r["root"]: r["seconds"] for r in old["runs"]}
    ratios = [r["seconds"] / old_by_root[r["root"]] for r in new["runs"] if r["root"] in old_by_root]
    return {"roots": len(ratios), "median": statistics.median(ratios), "min": min(ratios), "max": max(ratios)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default="sort-unique", help="the GPU engine (default sort-unique)")
    parser.add_argument("--gpu", required=True, help="folder of g500-cuda_<engine>_s*.json and their _smi.csv")
    parser.add_argument("--cpu", action="append", default=[], help="folder of g500_<engine>_s*.json (repeatable)")
    parser.add_argument("--host", action="append", default=[], help="folder of a host engine's g500_<host>_s*.json")
    parser.add_argument("--host-engine", default="hybrid-1d", help="the host engine (default hybrid-1d)")
    parser.add_argument("--baseline", help="folder of an earlier g500-cuda's runs on the same machine")
    parser.add_argument("--baseline-binary", default="g500-cuda-old", help="its binary's name (default g500-cuda-old)")
    parser.add_argument("--command", default="", help="how the runs were made, for the record")
    parser.add_argument("-o", "--out", required=True)
    args = parser.parse_args()

    gpu = load_runs(args.gpu, "g500-cuda", args.engine)
    cpu, host = {}, {}  # SCALE -> every CPU build's run of it, every host engine's
    for directory in args.cpu:
        for scale, result in load_runs(directory, "g500", args.engine).items():
            cpu.setdefault(scale, []).append(result)
    for directory in args.host:
        for scale, result in load_runs(directory, "g500", args.host_engine).items():
            host.setdefault(scale, []).append(result)
    baseline = load_runs(args.baseline, args.baseline_binary, args.engine) if args.baseline else {}
    if not gpu:
        sys.exit(f"gpu_compare: no g500-cuda_{args.engine}_s*.json in {args.gpu}")

    rows = []
    ok = True
    for scale in sorted(gpu):
        row = {"scale": scale, "engine": args.engine, "command": gpu[scale]["command"], "gpu": summary(gpu[scale]),
               "gpu_peak_memory_mib": peak_gpu_mib(args.gpu, scale, engine=args.engine)}
        ok &= row["gpu"]["all_valid"]
        row["cpu"] = []
        for result in cpu.get(scale, []):
            entry = {"command": result["command"], **summary(result),
                     "counters": compare_counters(gpu[scale], result)}
            entry["gpu_over_cpu_teps"] = row["gpu"]["harmonic_mean_teps"] / entry["harmonic_mean_teps"]
            ok &= entry["all_valid"] and entry["counters"]["levels_equal"] == entry["counters"]["levels_compared"] > 0
            row["cpu"].append(entry)
        row["host"] = []
        for result in host.get(scale, []):
            entry = {"engine": args.host_engine, "command": result["command"], **summary(result),
                     "levels": compare_with_host(gpu[scale], result)}
            entry["gpu_over_host_teps"] = row["gpu"]["harmonic_mean_teps"] / entry["harmonic_mean_teps"]
            levels = entry["levels"]
            ok &= entry["all_valid"] and levels["roots_with_equal_levels"] == levels["roots_compared"]
            row["host"].append(entry)
        if scale in baseline:
            row["baseline"] = {"command": baseline[scale]["command"], **summary(baseline[scale]),
                               "peak_memory_mib": peak_gpu_mib(args.baseline, scale, args.baseline_binary, args.engine),
                               "counters": compare_counters(gpu[scale], baseline[scale]),
                               "new_over_old_search_time": paired_ratio(gpu[scale], baseline[scale])}
        rows.append(row)

    with open(args.out, "w") as f:
        json.dump({"command": args.command, "rows": rows, "all_valid_and_equal": ok}, f, indent=1)
        f.write("\n")
    for row in rows:
        g = row["gpu"]
        print(f"SCALE {row['scale']}: GPU {g['roots']} roots valid={g['all_valid']} "
              f"{g['harmonic_mean_teps']:.4g} TEPS, {g['mean_level_s'] * 1e3:.2f} ms a level, "
              f"peak {row['gpu_peak_memory_mib']} MiB")
        for c in row["cpu"]:
            n = c["counters"]
            print(f"  CPU {c['threads']} threads, {c['roots']} roots valid={c['all_valid']}: "
                  f"{c['harmonic_mean_teps']:.4g} TEPS, GPU/CPU {c['gpu_over_cpu_teps']:.1f}; counters equal in "
                  f"{n['levels_equal']}/{n['levels_compared']} levels of {n['roots_compared']} roots")
        for h in row["host"]:
            print(f"  host {h['engine']} {h['threads']} threads, {h['roots']} roots valid={h['all_valid']}: "
                  f"{h['harmonic_mean_teps']:.4g} TEPS, GPU/host {h['gpu_over_host_teps']:.2f}; levels equal for "
                  f"{h['levels']['roots_with_equal_levels']}/{h['levels']['roots_compared']} roots")
        if "baseline" in row:
            b = row["baseline"]
            r = b["new_over_old_search_time"]
            print(f"  baseline {b['roots']} roots: {b['harmonic_mean_teps']:.4g} TEPS; new/old search time "
                  f"median {r['median']:.3f} ({r['min']:.3f}-{r['max']:.3f}) over {r['roots']} roots; "
                  f"counters equal in {b['counters']['levels_equal']}/{b['counters']['levels_compared']} levels")
    print("every search valid and every compared level equal:" if ok else "NOT all valid and equal:", ok)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
