#!/usr/bin/env python3
"""Writes bench/results/README.md: every file under bench/results with what it shows, the command
recorded in it (JSON files that carry one) and the commit that added it. Run it after adding a
result; tests/layout/results_index_test.py checks that the index names every file.

  bench/results_index.py            # rewrites bench/results/README.md
"""
import argparse
import json
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RESULTS = os.path.join(HERE, "results")
INDEX = os.path.join(RESULTS, "README.md")

# What each folder measures (docs/results.md has the records that cite the files).
FOLDERS = {
    "ab": "paired runs of two builds (bench/ab_compare.py): a change's cost, named by what it measures and the commits",
    "coalescing": "top-down-1d's --coalescing-size sweep beside paper 001's model (bench/coalescing_sweep.py)",
    "graph_files": "graph files in: generate, read back, relabel (bench/graph_files.py)",
    "grid_2d": "the 2D engines beside hybrid-1d: time, bytes, fold compression (bench/grid_2d.py)",
    "instructions": "instructions a search on rank 0 by phase, under callgrind, and MPI calls a search (bench/instructions.py)",
    "memory": "weak-scaling memory per rank, builds side by side (bench/weak_memory.py)",
    "node_aware": "hybrid-1d's node options on pretend nodes; the summary granularity sweep",
    "peers": "SCALE 22 sitting beside GAPBS, the Fugaku code and the reference (bench/run_bench.py)",
    "scale_lab": "SIMULATED: SimGrid SMPI weak scaling and calibration (bench/simulate.py, docs/scale.md)",
    "scaling": "SCALE 16 to 24: TEPS, construction, bytes per tuple (bench/scaling.py)",
    "sort_unique": "the sort-unique engine: CPU build beside hybrid-1d; on one H200 (bench/gpu_sort_unique.sh, bench/gpu_compare.py)",
    "sssp": "kernel 3: sittings beside the reference and GAPBS, delta sweeps (bench/sssp.py)",
    "traffic": "traffic counters checked by hand, and what counting costs (bench/traffic_by_hand.py)",
    "validation_batch": "validation batch sizes in turn (bench/validation_batch.py)",
    "whole_run": "whole benchmark runs at SCALE 22 to 27: wall time, peak memory and its estimate (bench/whole_run.py)",
}


def recorded_command(path):
    """The command a JSON result records, shortened; '' when it records none."""
    if not path.endswith(".json"):
        return ""
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError):
        return ""
    if not isinstance(data, dict):
        return ""
    for key in ("command", "commands", "a"):
        if key in data:
            value = data[key][0] if isinstance(data[key], list) else data[key]
            text = str(value).replace("|", "\\|")
            return text if len(text) <= 110 else text[:107] + "..."
    return ""


def added_in(path):
    out = subprocess.run(["git", "log", "--follow", "--diff-filter=A", "--format=%h", "-1", "--", path], cwd=ROOT,
                         capture_output=True, text=True)
    return out.stdout.strip() or "(not committed)"


def main():
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    lines = ["# bench/results: what each file shows", "",
             "Written by `bench/results_index.py`; the records that cite these files, with their dates and",
             "the figures read off them, are in docs/results.md. Commands are as each file records them",
             "(relative to the repository); the commit is the one that added the file.", ""]
    by_folder = {}
    for dirpath, _, files in os.walk(RESULTS):
        for name in files:
            path = os.path.join(dirpath, name)
            if path == INDEX:
                continue
            folder = os.path.relpath(dirpath, RESULTS)
            by_folder.setdefault(folder, []).append(path)
    for folder in sorted(by_folder):
        lines += ["## %s" % ("bench/results" if folder == "." else folder + "/"),
                  FOLDERS.get(folder, "(undescribed: add a line to bench/results_index.py)") + ".", "",
                  "| file | command recorded | added in |", "|---|---|---|"]
        for path in sorted(by_folder[folder]):
            command = recorded_command(path)
            lines.append("| `%s` | %s | %s |" % (os.path.relpath(path, RESULTS),
                                                  "`%s`" % command if command else "-", added_in(path)))
        lines.append("")
    with open(INDEX, "w") as f:
        f.write("\n".join(lines).rstrip("\n") + "\n")


if __name__ == "__main__":
    main()
