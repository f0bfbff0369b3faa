#!/usr/bin/env python3
"""Issue 2's benchmark: g500 at SCALE 20 and 22, on -np 1 x 2 threads and -np 2 x 1 thread, 64 roots.

Writes one JSON per run (g500's own --json) and results/summary.json with the exact commands and
the figures compared in the issue note: mean BFS time and harmonic-mean TEPS. Peer codes run in the
same invocation when their binaries are given, so every figure comes from one sitting:

  bench/run_bench.py [--scales 20 22] [--gapbs PATH/bfs] [--reference PATH/graph500_reference_bfs]
                     [--fugaku PATH/runnable]

Peers are built outside this repository; this script only runs them. Commands are recorded relative
to the repository, with peers as GAPBS/, REFERENCE/ and FUGAKU/ (their checkouts).
"""
import argparse
import datetime
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CONFIGS = [(1, 2), (2, 1)]  # (MPI ranks, OpenMP threads per rank): 2 cores either way
PEER_NAMES = {}  # binary path -> how results show it


def mpirun(np):
    return ["scripts/mpirun", "-np", str(np)]  # run from the repository (execute sets cwd)


def shown(cmd):
    """The command as results record it: repository paths relative, peers by their placeholder."""
    out = []
    for word in cmd:
        if word in PEER_NAMES:
            word = PEER_NAMES[word]
        elif os.path.isabs(word) and os.path.abspath(word).startswith(ROOT + os.sep):
            word = os.path.relpath(word, ROOT)
        out.append(word)
    return shlex.join(out)


def timed(cmd):
    """Puts /usr/bin/time -v in front of the program (after the mpirun words): each process's peak
    resident memory is then in stderr."""
    at = 3 if cmd[0] == "scripts/mpirun" else 0
    return cmd[:at] + ["/usr/bin/time", "-v"] + cmd[at:]


def peaks(stderr):
    return [int(k) * 1024 for k in re.findall(r"Maximum resident set size \(kbytes\): (\d+)", stderr)]


def execute(cmd, threads, extra_env=None, want_stderr=False):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), **(extra_env or {}))
    print("+ OMP_NUM_THREADS=%d %s" % (threads, shown(cmd)), file=sys.stderr, flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    if p.returncode != 0:
        raise SystemExit("failed (%d): %s\n%s" % (p.returncode, shlex.join(cmd), p.stderr[-2000:]))
    return (p.stdout, p.stderr) if want_stderr else p.stdout


def g500_json(binary, np, args, threads=1):
    """Runs g500 with args under mpirun (--quiet, --json to a temporary file); returns its JSON
    result and the command as results record it."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        execute(mpirun(np) + [binary] + args + ["--quiet", "--json", out], threads)
        with open(out) as f:
            result = json.load(f)
    return result, "OMP_NUM_THREADS=%d %s" % (threads, shown(mpirun(np) + [binary] + args))


def number(pattern, text):
    m = re.search(pattern, text, re.MULTILINE)
    return float(m.group(1)) if m else None


def run_g500(binary, scale, np, threads, results):
    out_json = os.path.join(results, "g500_s%d_np%d_t%d.json" % (scale, np, threads))
    # Relative paths, run from the repository: g500's JSON records its own command line as given.
    cmd = mpirun(np) + [os.path.relpath(binary, ROOT), "--scale", str(scale), "--roots", "64", "--quiet", "--json",
                        os.path.relpath(out_json, ROOT)]
    execute(cmd, threads)
    with open(os.path.join(ROOT, os.path.relpath(out_json, ROOT))) as f:
        run = json.load(f)
    stats = run["statistics"]
    return {"code": "g500", "scale": scale, "np": np, "threads": threads,
            "command": "OMP_NUM_THREADS=%d %s" % (threads, shown(cmd)),
            "mean_time": stats["time"]["mean"], "harmonic_mean_teps": stats["TEPS"]["harmonic_mean"],
            "construction_time": run["construction_time"], "mean_validate": stats["validate"]["mean"],
            "peak_total_bytes": run["memory"]["peak_total"], "peak_bytes_per_tuple": run["memory"]["peak_bytes_per_tuple"],
            "peak_rank_bytes": max(run["memory"]["peak_per_rank"])}


def run_gapbs(binary, scale, threads):
    cmd = timed([binary, "-g", str(scale), "-n", "64"])
    out, err = execute(cmd, threads, want_stderr=True)
    return {"code": "gapbs", "scale": scale, "np": 1, "threads": threads,
            "command": "OMP_NUM_THREADS=%d %s" % (threads, shown(cmd)),
            "mean_time": number(r"^Average Time:\s+(\S+)", out), "harmonic_mean_teps": None,
            "construction_time": number(r"^Build Time:\s+(\S+)", out), "peak_rank_bytes": max(peaks(err), default=None)}


def run_reference(binary, scale, np):
    # The reference's validation is slow and outside the timed BFS; it is skipped to keep the run short.
    cmd = timed(mpirun(np) + [binary, str(scale), "16"])
    out, err = execute(cmd, 1, {"SKIP_VALIDATION": "1"}, want_stderr=True)
    return {"code": "reference-3.0", "scale": scale, "np": np, "threads": 1,
            "command": "SKIP_VALIDATION=1 OMP_NUM_THREADS=1 %s" % shown(cmd),
            "mean_time": number(r"mean_time:\s+(\S+)", out),
            "harmonic_mean_teps": number(r"harmonic_mean_TEPS:\s+!?\s*(\S+)", out),
            "construction_time": number(r"construction_time:\s+(\S+)", out), "peak_rank_bytes": max(peaks(err), default=None)}


def run_fugaku(binary, scale, np, threads, extra=()):
    # -v 1 validates the first root only; -v 0 would sleep 10 s per root.
    cmd = timed(mpirun(np) + [binary, str(scale), "-n", "64", "-v", "1", *extra])
    out, err = execute(cmd, threads, want_stderr=True)
    return {"code": "fugaku" + ("".join(" " + e for e in extra)), "scale": scale, "np": np, "threads": threads,
            "command": "OMP_NUM_THREADS=%d %s" % (threads, shown(cmd)),
            "mean_time": number(r"^mean_time:\s+(\S+)", out),
            "harmonic_mean_teps": number(r"^harmonic_mean_TEPS:\s+(\S+)", out),
            "construction_time": number(r"^construction_time:\s+(\S+)", out),
            "peak_rank_bytes": max(peaks(err), default=None), "peak_total_bytes": sum(peaks(err)) or None}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scales", type=int, nargs="+", default=[20, 22])
    ap.add_argument("--g500", default=os.path.join(ROOT, "build", "g500"))
    ap.add_argument("--gapbs")
    ap.add_argument("--reference")
    ap.add_argument("--fugaku")
    ap.add_argument("--results", default=os.path.join(HERE, "results"))
    args = ap.parse_args()
    os.makedirs(args.results, exist_ok=True)
    for path, name in ((args.gapbs, "GAPBS/bfs"), (args.reference, "REFERENCE/src/graph500_reference_bfs"),
                       (args.fugaku, "FUGAKU/mpi/runnable")):
        if path:
            PEER_NAMES[path] = name

    rows = []
    for scale in args.scales:
        for np, threads in CONFIGS:
            rows.append(run_g500(args.g500, scale, np, threads, args.results))
            if args.fugaku:
                rows.append(run_fugaku(args.fugaku, scale, np, threads))
                rows.append(run_fugaku(args.fugaku, scale, np, threads, ("-A", "-C")))
        if args.gapbs:
            rows.append(run_gapbs(args.gapbs, scale, 2))
        if args.reference:
            rows.append(run_reference(args.reference, scale, 2))

    summary = {"date": datetime.datetime.now().isoformat(timespec="seconds"), "cores": os.cpu_count(), "rows": rows}
    with open(os.path.join(args.results, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print("%-14s %5s %3s %3s %12s %14s %12s %12s" % ("code", "SCALE", "np", "thr", "mean_time", "hmean_TEPS", "build",
                                                   "peak_rank_GB"))
    rows.sort(key=lambda r: (r["scale"], r["np"], r["code"]))
    for r in rows:
        teps = "%.4g" % r["harmonic_mean_teps"] if r["harmonic_mean_teps"] else "-"
        build = "%.3g" % r["construction_time"] if r.get("construction_time") else "-"
        peak = "%.3g" % (r["peak_rank_bytes"] / 1e9) if r.get("peak_rank_bytes") else "-"
        print("%-14s %5d %3d %3d %12.5g %14s %12s %12s" % (r["code"], r["scale"], r["np"], r["threads"], r["mean_time"],
                                                            teps, build, peak))


if __name__ == "__main__":
    main()
