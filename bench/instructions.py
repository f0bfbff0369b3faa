#!/usr/bin/env python3
"""Instructions a search on rank 0, by phase, across grids and rank counts: the work count behind a
scaling claim (docs/scale.md), where one box's clock says nothing. Rank 0 runs under valgrind's
callgrind, collecting only inside the BFS engine's search (--toggle-collect); the other ranks run
natively. Each function's own instructions go to a phase by its name; the MPI library's are kept
apart (they are the library's, not g500's), as are the C and C++ runtimes' (malloc, memcpy, locks:
called by both). MPI calls a search come from g500's own counters
(--json's traffic, rank 0's kernel 2).

  bench/instructions.py --np 16 --scale 16 --grids 4x4,8x2,16x1 --roots 8 \\
      -o bench/results/scaling/instructions_2d_np16_s16.json
  bench/instructions.py --weak 4,16,64 --per-rank 12 --roots 8 --bfs hybrid-2d
  bench/instructions.py --kernel sssp --weak 4,16,64 --per-rank 12 --roots 8   # kernel 3
  bench/instructions.py --kernel sssp --weak 4,16 --g500-args "--sssp-exchange alltoallv"

A row: the configuration, instructions a search in each phase and in all of g500, the MPI
library's, and MPI calls a search. Needs valgrind (callgrind, callgrind_annotate).

The binary: valgrind 3.19 stops at AVX-512, which -march=native emits on this machine, and a
generic x86-64 build has no popcnt (each popcount a call into libgcc). So count with an AVX2
build, the closest to native that valgrind runs:
  cmake -S . -B build-v3 -DG500_NATIVE=OFF -DG500_TESTS=OFF -DCMAKE_CXX_FLAGS=-march=x86-64-v3
  cmake --build build-v3 --target g500 && bench/instructions.py --binary build-v3/g500 ...
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

ROOT = benchlib.ROOT

# Function-name patterns (first match wins) to phases. Names are callgrind's demangled ones.
PHASES = [
    ("bottom-up scan", r"bottom_up::|search_block|BlockScan|try_first_entries|search_rows|fetch_rows"),
    ("bitmap pass", r"pass_block|message_to_owner|take_found_vertices|mark_found"),
    ("bottom-up budget", r"found_over_budget|send_found_parents|decode_found_parents|FoundParentsEncoder|encode_found"),
    ("top-down step", r"top_down|expand|fold|claim|settle|encode_piece|decode_received|plan_pieces"),
    ("frontier gathers", r"gather|RowGather|SliceGather|frontier"),
    ("hybrid-1d steps", r"Hybrid1D|hybrid_1d|SummaryBitmap"),
    ("traffic counters", r"Traffic|traffic"),
    ("direction and levels", r"direction|LevelProfiler|level"),
]
# Kernel 3's phases (first match wins): the traffic counters before the exchanges they count.
SSSP_PHASES = [
    ("traffic counters", r"Traffic|traffic|count_"),
    ("exchange bookkeeping", r"OwnerBuckets|SparseExchange|displacements|alltoall|allgather|allreduce|Comm::"),
    ("relaxations", r"relax|Relaxation|DeltaStepping<[^>]*>::exchange"),
    ("pulls", r"pull|HeavyPull|BucketCopy|OwnerQuery"),
    ("finished bits", r"FinishedBits|finished"),
    ("bucket rounds", r"take_round|start_bucket|next_bucket|list_open|[Bb]ins|sum_over_ranks|BucketRecord|search"),
]
MPI_LIBRARY = r"libmpi|libopen-pal|libopen-rte|openmpi|libpmix|libevent|libhwloc|libucx|libuc[pst]"
# The engine's search function: "search(" exactly, since callgrind toggles again on entering any
# other function the pattern matches (search_block would switch collection off inside it). Anchored
# at the name's start: a function template instantiated with a lambda of search() names search()
# inside its own name ("void g500::Bins::next_after<g500::DeltaStepping<...>::search(...)::{lambda
# ...}>"), and an unanchored pattern switched collection off inside it (figures before 2026-11-29
# miss those functions).
SEARCH = {"hybrid-2d": "g500::Grid2D*::search(*", "top-down-2d": "g500::Grid2D*::search(*",
          "hybrid-1d": "g500::Hybrid1D*::search(*", "kernel-3": "g500::DeltaStepping<*>::search(*"}


def wrapper(folder, out, search):
    """A script that runs rank 0 under callgrind and every other rank as it is."""
    path = os.path.join(folder, "rank0_callgrind.sh")
    with open(path, "w") as f:
        f.write('#!/bin/sh\nif [ "${OMPI_COMM_WORLD_RANK:-0}" = 0 ]; then\n'
                '  exec valgrind --tool=callgrind --callgrind-out-file=%s --toggle-collect=%s '
                '--dump-instr=no --collect-jumps=no "$@"\nfi\nexec "$@"\n' % (out, shlex_quote(search)))
    os.chmod(path, 0o755)
    return path


def shlex_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def self_costs(callgrind_out):
    """Each function's own instructions (Ir), and the object it comes from."""
    p = subprocess.run(["callgrind_annotate", "--inclusive=no", "--threshold=100", callgrind_out],
                       capture_output=True, text=True, check=True)
    costs = []
    for line in p.stdout.splitlines():
        m = re.match(r"^\s*([\d,]+)\s+\([^)]*\)\s+(.*)$", line)
        if not m or "PROGRAM TOTALS" in line:
            continue
        rest = m.group(2)
        obj = re.search(r"\[([^\[\]]*)\]$", rest)
        function = rest.split(":", 1)[1] if ":" in rest else rest
        costs.append((int(m.group(1).replace(",", "")), function, obj.group(1) if obj else ""))
    return costs


def phase_of(function, phases=PHASES):
    for name, pattern in phases:
        if re.search(pattern, function):
            return name
    return "other"


def rank0_work(result):
    """Rank 0's work counts a search (--json's "ranks" block), when the binary writes them."""
    runs = result.get("runs", [])
    if not runs or "ranks" not in runs[0]:
        return {}
    names = [k for k in runs[0]["ranks"] if k != "compute"]
    return {k: sum(r["ranks"][k]["per_rank"][0] for r in runs) / len(runs) for k in names}


def measure(binary, np, args, searches, engine, top=0):
    sssp = engine == "kernel-3"
    table = SSSP_PHASES if sssp else PHASES
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        script = wrapper(tmp, out, SEARCH[engine])
        result, _ = benchlib.g500_json(binary, np, args, threads=1, launcher=[script])
        phases = {}
        library = libc = 0
        costs = self_costs(out)
        for ir, function, obj in sorted(costs, reverse=True)[:top]:
            print("    %10.0f a search  %s" % (ir / searches, function[:110]))
        for ir, function, obj in costs:
            if re.search(MPI_LIBRARY, obj):
                library += ir
            elif re.search(r"libc\.so|libm\.so|libgomp|libstdc|ld-linux", obj):
                libc += ir  # malloc, memset, memcpy, locks: called by g500 and by the MPI library alike
            else:
                phase = phase_of(function, table)
                phases[phase] = phases.get(phase, 0) + ir
    rank0 = result["traffic"]["per_rank"][0]["sssp" if sssp else "search"]
    return {
        "g500_per_search": sum(phases.values()) / searches,
        "phases_per_search": {k: v / searches for k, v in sorted(phases.items())},
        "library_per_search": library / searches,
        "system_libraries_per_search": libc / searches,
        "mpi_calls_per_search": rank0["calls"] / searches,
        "rank0_work_per_search": rank0_work(result),
        "grid": result.get("bfs", {}).get("grid") or result.get("layout"),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=os.path.join(ROOT, "build", "g500"))
    ap.add_argument("--kernel", default="bfs", choices=["bfs", "sssp"], help="kernel 2 (--bfs) or kernel 3")
    ap.add_argument("--bfs", default="hybrid-2d", choices=sorted(k for k in SEARCH if k != "kernel-3"))
    ap.add_argument("--np", type=int, default=16)
    ap.add_argument("--scale", type=int, default=16)
    ap.add_argument("--grids", default="", help="R x C grids at --np, comma-separated (2D engines)")
    ap.add_argument("--weak", default="", help="rank counts for weak scaling at --per-rank")
    ap.add_argument("--per-rank", type=int, default=12, help="log2 of vertices a rank, for --weak")
    ap.add_argument("--roots", type=int, default=8)
    ap.add_argument("--g500-args", default="", help="more g500 options for every run, one string")
    ap.add_argument("--label", default="", help="what --binary is (its commit), for the record")
    ap.add_argument("--top", type=int, default=0, help="also print the N costliest functions")
    ap.add_argument("-o", "--output")
    a = ap.parse_args()
    configs = []
    if a.weak:
        for np in (int(x) for x in a.weak.split(",")):
            scale = a.per_rank + (np - 1).bit_length()
            configs.append((np, ["--scale", str(scale)]))
    else:
        for grid in (a.grids.split(",") if a.grids else [""]):
            configs.append((a.np, ["--scale", str(a.scale)] + (["--grid", grid] if grid else [])))
    rows = []
    for np, extra in configs:
        engine = "kernel-3" if a.kernel == "sssp" else a.bfs
        kernel = ["--kernels", "sssp"] if a.kernel == "sssp" else ["--bfs", a.bfs]
        args = extra + kernel + ["--roots", str(a.roots), "--skip-validation"] + a.g500_args.split()
        row = {"np": np, "args": args, **measure(a.binary, np, args, a.roots, engine, a.top)}
        rows.append(row)
        print("np %4d %-28s g500 %10.0f a search  MPI library %10.0f  libc etc. %10.0f  MPI calls %6.1f" %
              (np, " ".join(extra), row["g500_per_search"], row["library_per_search"],
               row["system_libraries_per_search"], row["mpi_calls_per_search"]))
        for phase, ir in row["phases_per_search"].items():
            print("    %-22s %10.0f" % (phase, ir))
        for name, count in row["rank0_work_per_search"].items():
            print("    rank 0's %-18s %10.0f a search" % (name, count))
    if len(rows) > 1:
        print("last over first: g500 %.2f, MPI calls %.2f" % (rows[-1]["g500_per_search"] / rows[0]["g500_per_search"],
                                                             rows[-1]["mpi_calls_per_search"] / rows[0]["mpi_calls_per_search"]))
    if a.output:
        record = {"command": benchlib.shown([sys.argv[0]] + sys.argv[1:]), "binary_is": a.label, "rows": rows}
        with open(a.output, "w") as f:
            json.dump(record, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
