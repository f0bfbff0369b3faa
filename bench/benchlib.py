"""What every bench script shares: running g500 (and its peers) under scripts/mpirun from the
repository, reading their figures, recording commands relative to the repository, and running
settings in turn. A script imports it as `import benchlib` (bench/ is on its path when run).

Peers are built outside this repository; these helpers only run them. Results show them by a
placeholder for their checkout (GAPBS/, REFERENCE/, FUGAKU/), set with `name_peer`.
"""
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PEER_NAMES = {}  # binary path -> how results show it


def mpirun(np):
    return ["scripts/mpirun", "-np", str(np)]  # run from the repository (execute sets cwd)


def name_peer(path, shown_as):
    """Results show the peer binary at `path` as `shown_as` (e.g. GAPBS/bfs)."""
    if path:
        PEER_NAMES[path] = shown_as


def shown(cmd):
    """The command as results record it: repository paths relative, peers by their placeholder,
    other absolute paths by their base name (a machine's paths never reach a results file)."""
    out = []
    for word in cmd:
        if word in PEER_NAMES:
            word = PEER_NAMES[word]
        elif os.path.isabs(word):
            path = os.path.abspath(word)
            word = os.path.relpath(path, ROOT) if path.startswith(ROOT + os.sep) else os.path.basename(path)
        out.append(word)
    return shlex.join(out)


def timed(cmd):
    """Puts /usr/bin/time -v in front of the program (after the mpirun words): each process's peak
    resident memory is then in stderr."""
    at = 3 if cmd[0] == "scripts/mpirun" else 0
    return cmd[:at] + ["/usr/bin/time", "-v"] + cmd[at:]


def peaks(stderr):
    """Each process's peak resident bytes, from /usr/bin/time -v's report."""
    return [int(k) * 1024 for k in re.findall(r"Maximum resident set size \(kbytes\): (\d+)", stderr)]


def number(pattern, text):
    """The first group of the first line matching pattern, as a float; None if none matches."""
    m = re.search(pattern, text, re.MULTILINE)
    return float(m.group(1)) if m else None


def execute(cmd, threads, extra_env=None, want_stderr=False):
    """Runs cmd from the repository with OMP_NUM_THREADS=threads; stops the script on failure."""
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), **(extra_env or {}))
    print("+ OMP_NUM_THREADS=%d %s" % (threads, shown(cmd)), file=sys.stderr, flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    if p.returncode != 0:
        raise SystemExit("failed (%d): %s\n%s" % (p.returncode, shlex.join(cmd), p.stderr[-2000:]))
    return (p.stdout, p.stderr) if want_stderr else p.stdout


def g500_json(binary, np, args, threads=1, launcher=()):
    """Runs g500 with args under mpirun (--quiet, --json to a temporary file); returns its JSON
    result and the command as results record it. `launcher`: words each rank runs g500 through
    (a profiler's wrapper)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        execute(mpirun(np) + list(launcher) + [binary] + args + ["--quiet", "--json", out], threads)
        with open(out) as f:
            result = json.load(f)
    return result, "OMP_NUM_THREADS=%d %s" % (threads, shown(mpirun(np) + [binary] + args))


def kernel_figures(result, kernel="bfs"):
    """A g500 --json result's headline figures for kernel 2 (bfs) or kernel 3 (sssp)."""
    stats = result["sssp"]["statistics"] if kernel == "sssp" else result["statistics"]
    return {"mean_time": stats["time"]["mean"], "harmonic_mean_teps": stats["TEPS"]["harmonic_mean"],
            "construction_time": result["construction_time"],
            "mean_validate": stats.get("validate", {}).get("mean", 0.0)}


def in_turn(settings, reps, run_one):
    """Runs every setting once a round, in the order given, for `reps` rounds, so that the machine's
    drift falls on all alike; returns {name: [result of each round]}. settings: {name: setting}."""
    results = {name: [] for name in settings}
    for _ in range(reps):
        for name, setting in settings.items():
            results[name].append(run_one(setting))
    return results


def ratios(a_runs, b_runs, key):
    """Round by round, a's figure over b's, with their median, least and greatest."""
    r = [a[key] / b[key] for a, b in zip(a_runs, b_runs)]
    return {"ratios": r, "median": statistics.median(r), "min": min(r), "max": max(r)}


# The peers, each run as its own documentation says; each returns a row of the same figures.

def run_gapbs(binary, scale, threads, roots=64):
    cmd = timed([binary, "-g", str(scale), "-n", str(roots)])
    out, err = execute(cmd, threads, want_stderr=True)
    return {"code": "gapbs", "scale": scale, "np": 1, "threads": threads,
            "command": "OMP_NUM_THREADS=%d %s" % (threads, shown(cmd)),
            "mean_time": number(r"^Average Time:\s+(\S+)", out), "harmonic_mean_teps": None,
            "construction_time": number(r"^Build Time:\s+(\S+)", out), "peak_rank_bytes": max(peaks(err), default=None)}


def run_reference(binary, scale, np, kernel="bfs"):
    """Reference 3.0 with SKIP_VALIDATION=1: its validation is slow and outside the timed search."""
    cmd = timed(mpirun(np) + [binary, str(scale), "16"])
    out, err = execute(cmd, 1, {"SKIP_VALIDATION": "1"}, want_stderr=True)
    prefix = "sssp " if kernel == "sssp" else ""
    return {"code": "reference-3.0", "scale": scale, "np": np, "threads": 1,
            "command": "SKIP_VALIDATION=1 OMP_NUM_THREADS=1 %s" % shown(cmd),
            "mean_time": number(r"^" + prefix + r"mean_time:\s+(\S+)", out),
            "harmonic_mean_teps": number(r"^" + prefix + r"harmonic_mean_TEPS:\s+!?\s*(\S+)", out),
            "construction_time": number(r"^construction_time:\s+(\S+)", out), "peak_rank_bytes": max(peaks(err), default=None)}


def run_fugaku(binary, scale, np, threads, roots=64, extra=()):
    """The Fugaku code with -v 1 (the first root validated): its -v 0 sleeps 10 s a root."""
    cmd = timed(mpirun(np) + [binary, str(scale), "-n", str(roots), "-v", "1", *extra])
    out, err = execute(cmd, threads, want_stderr=True)
    return {"code": "fugaku" + ("".join(" " + e for e in extra)), "scale": scale, "np": np, "threads": threads,
            "command": "OMP_NUM_THREADS=%d %s" % (threads, shown(cmd)),
            "mean_time": number(r"^mean_time:\s+(\S+)", out),
            "harmonic_mean_teps": number(r"^harmonic_mean_TEPS:\s+(\S+)", out),
            "construction_time": number(r"^construction_time:\s+(\S+)", out),
            "peak_rank_bytes": max(peaks(err), default=None), "peak_total_bytes": sum(peaks(err)) or None}
