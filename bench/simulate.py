#!/usr/bin/env python3
"""The scale lab (docs/scale.md): the real g500, built as g500-smpi (`make sim`), run by SimGrid's
smpirun on a simulated platform (sim/platforms/). Every figure it writes is SIMULATED: computation
is measured as it runs (each rank in turn, one thread), communication is SimGrid's model of the
platform's links.

  calibrate: real runs (scripts/mpirun) beside simulated ones on sim/platforms/this_machine.xml,
             mean search time, in one sitting.
  weak:      weak scaling, 2^--per-rank vertices a rank, for each configuration (engine and options)
             and rank count: simulated harmonic TEPS, mean search split into compute and
             communication, bytes between nodes per search, and the simulation's own wall time.
  noise:     the lab's clock on fixed work (sim/burst_noise.cpp): every rank runs the same burst
             between collectives; the mean burst against the mean of each level's slowest, which a
             level waits for. On a cluster they would be equal; their ratio is the host's noise.

  bench/simulate.py calibrate --scales 18,20 --np 1,2 -o bench/results/scale_lab/calibration.json
  bench/simulate.py weak --platform fat_tree_ib --ranks 4,16,64,256 --per-rank 16 \\
      --configs hybrid-1d,hybrid-2d,top-down-2d --roots 8 --plot \\
      -o bench/results/scale_lab/fat_tree_ib.json
  bench/simulate.py weak --platform fat_tree_ib --ranks 64 --link-bw 10Gbps \\
      --configs top-down-2d,top-down-2d-none -o bench/results/scale_lab/compress_10g.json
  bench/simulate.py weak --ranks 64 --config c768 "--bfs top-down-1d --coalescing-size 768" ...
  bench/simulate.py weak --kernel sssp --ranks 16,64,256 --per-rank 14 --roots 4 \
      --config whole "--sssp-replicas whole" --config hubs "--sssp-replicas hubs" -o ...
  bench/simulate.py noise --ranks 64,256,1024 --ranks-per-node 4 -o bench/results/scale_lab/noise.json

A configuration is a name below (CONFIGS) or one given with --config LABEL "ARGS". --link-bw runs on
a copy of the platform whose network links (not the nodes' loopback) have that bandwidth.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

HERE = benchlib.HERE
ROOT = benchlib.ROOT
PLATFORMS = os.path.join(ROOT, "sim", "platforms")
SMPI_BINARY = os.path.join(ROOT, "build-smpi", "g500-smpi")
NOISE_BINARY = os.path.join(ROOT, "build-smpi", "burst-noise")
REAL_BINARY = os.path.join(ROOT, "build", "g500")
# Host speed: the platforms' cores run at 1Gf and smpirun is told this machine runs at 1Gf, so a
# simulated core computes exactly as fast as this machine's core measured it.
# Collectives: Open MPI's algorithm choices (coll-selector ompi), as the real runs here make them; SMPI's
# default allgather posts every pair at once and takes minutes to simulate at 256 ranks.
# Polling: SMPI charges every MPI_Test and every MPI_Iprobe (MPI_Probe loops over it) 100 us by
# default, growing with each call that finds nothing, so that busy loops advance the clock. That
# inflated hybrid-2d's probe and top-down-1d's test loops many times over; 1 us a call, not growing,
# is what a progress call costs on a real MPI.
# Privatization: mmap gives each rank its own copy of the program's data but shares one copy of its
# code. dlopen loads the whole program once a rank, so at 1,024 ranks the host's caches see 1,024
# programs' code and the time measured for an instruction grows with the ranks (docs/scale.md).
SMPI_CONFIG = ["--cfg=smpi/privatization:mmap", "--cfg=smpi/host-speed:1Gf", "--cfg=smpi/coll-selector:ompi",
               "--cfg=smpi/test:1e-6", "--cfg=smpi/iprobe:1e-6", "--cfg=smpi/grow-injected-times:no",
               "--log=root.thresh:warning"]

# Named configurations: the engine and its options.
CONFIGS = {
    "hybrid-1d": ["--bfs", "hybrid-1d"],
    "hybrid-2d": ["--bfs", "hybrid-2d"],
    "top-down-2d": ["--bfs", "top-down-2d"],
    "top-down-2d-none": ["--bfs", "top-down-2d", "--compress", "none"],
    "top-down-1d": ["--bfs", "top-down-1d"],
    "hybrid-1d-node-shared": ["--bfs", "hybrid-1d", "--node-shared"],
    "hybrid-1d-parallel-allgather": ["--bfs", "hybrid-1d", "--node-shared", "--parallel-allgather"],
    "hybrid-1d-relay": ["--bfs", "hybrid-1d", "--relay", "auto"],
    "hybrid-1d-hubs": ["--bfs", "hybrid-1d", "--hubs", "1024"],
    "hybrid-2d-unsorted": ["--bfs", "hybrid-2d", "--sort-vertices", "off"],
    "top-down-2d-unsorted": ["--bfs", "top-down-2d", "--sort-vertices", "off"],
    # Without the degree order's table (2 bytes for every vertex of the graph on every rank), for the
    # 256-rank runs: all ranks live in the one simulating process, whose memory they share.
    "hybrid-1d-unordered": ["--bfs", "hybrid-1d", "--degree-order", "off"],
    "hybrid-1d-unordered-relay": ["--bfs", "hybrid-1d", "--degree-order", "off", "--relay", "auto"],
    "hybrid-1d-unordered-hubs": ["--bfs", "hybrid-1d", "--degree-order", "off", "--hubs", "1024"],
    "hybrid-1d-all-node": ["--bfs", "hybrid-1d", "--node-shared", "--parallel-allgather", "--relay", "auto",
                           "--hubs", "1024"],
}


def hostfile(ranks, per_node, folder):
    """Ranks placed in blocks of `per_node` on consecutive nodes (SMPI maps rank i to line i)."""
    path = os.path.join(folder, "hosts-%d-%d" % (ranks, per_node))
    with open(path, "w") as f:
        for r in range(ranks):
            f.write("node-%d\n" % (r // per_node))
    return path


def summarize(result, kernel="bfs"):
    """Mean search time split by phase (the busiest rank's per level, summed; kernel 2 only), TEPS,
    bytes: of kernel 2's searches, or with kernel="sssp" of kernel 3's."""
    if kernel == "sssp":
        runs, statistics = result["sssp"]["runs"], result["sssp"]["statistics"]
        search = result["traffic"].get("sssp", {})
        compute = None
    else:
        runs, statistics = result["runs"], result["statistics"]
        search = result["traffic"].get("search", {})
        compute = sum(l["phases"]["compute"]["max"] for r in runs for l in r["levels"]) / len(runs)
    total = statistics["time"]["mean"]
    # Each rank's compute is the simulated time SMPI charged for its work between MPI calls, which
    # SMPI measures as that rank's own thread CPU time: the mean rank, the slowest rank over the whole
    # search, and the critical path (each level's slowest rank, summed: what the levels wait for).
    ranks = [r["ranks"]["compute"] for r in runs if "ranks" in r]
    spread = {} if not ranks else {
        "compute_mean_rank": sum(c["mean"] for c in ranks) / len(ranks),
        "compute_slowest_rank": sum(c["max"] for c in ranks) / len(ranks),
        "compute_critical_path": sum(c["critical_path"] for c in ranks) / len(ranks),
    }
    return {
        "kernel": kernel,
        "harmonic_mean_TEPS": statistics["TEPS"]["harmonic_mean"],
        "mean_time": total,
        "compute": compute,
        "communication": None if compute is None else max(0.0, total - compute),
        "bytes_between_nodes_per_search": search.get("bytes_between_nodes", 0) / len(runs),
        "bytes_sent_per_search": search.get("bytes_sent", 0) / len(runs),
        "messages_sent_per_search": search.get("messages_sent", 0) / len(runs),
        "distinct_peers": search.get("distinct_peers"),
        "construction_time": result["construction_time"],
        "validated": result["validated"],
        "layout": result["graph"]["layout"],
        **spread,
    }


def platform_file(platform, link_bw, folder):
    """The platform's XML, or a copy whose network links have bandwidth `link_bw` (a SimGrid
    quantity such as 10Gbps); the loopback inside a node keeps its own."""
    path = os.path.join(PLATFORMS, platform + ".xml")
    if not link_bw:
        return path
    with open(path) as f:
        text = f.read()
    changed = re.sub(r'(<cluster\b[^>]*?\s)bw="[^"]*"', r'\g<1>bw="%s"' % link_bw, text, count=1)
    if changed == text:
        raise SystemExit("%s: no cluster bw attribute to change" % benchlib.shown([path]))
    copy = os.path.join(folder, "%s-%s.xml" % (platform, link_bw))
    with open(copy, "w") as f:
        f.write(changed)
    return copy


def run_measured(cmd, folder):
    """Runs cmd (one thread a rank); returns its exit code, its stderr, its wall seconds and the
    resident peak of this run alone: wait4's usage of smpirun covers the simulating process it waited
    for, where RUSAGE_CHILDREN is the largest of every child this script has had so far."""
    err_path = os.path.join(folder, "stderr.txt")
    start = time.time()
    with open(os.devnull, "w") as out, open(err_path, "w") as err:
        p = subprocess.Popen(cmd, stdout=out, stderr=err, env=dict(os.environ, OMP_NUM_THREADS="1"))
        _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
    wall = time.time() - start
    with open(err_path) as f:
        stderr = f.read()
    return p.returncode, stderr, wall, usage.ru_maxrss * 1024


def smpi_config(ranks, per_node, smpi_cfg):
    """The lab's settings for `ranks` ranks, `per_node` a node, and the --smpi-cfg ones added."""
    # SMPI 3.32's ompi selector fails when every rank is on one node (1 rank: "Actor pid=-1 is
    # gone??"; 2 ranks: a floating point exception), so one-node runs (the calibration's) use SMPI's
    # own collectives: between 2 ranks every algorithm is the same exchange.
    return [c for c in SMPI_CONFIG if ranks > per_node or "coll-selector" not in c] + ["--cfg=" + c for c in smpi_cfg]


def simulate(platform, ranks, per_node, scale, args, roots, validate, folder, link_bw=None, kernel="bfs",
             smpi_cfg=()):
    out = os.path.join(folder, "r.json")
    hosts = hostfile(ranks, per_node, folder)
    platform_xml = platform_file(platform, link_bw, folder)
    g500 = ["--scale", str(scale), "--roots", str(roots), "-q", "--json", out] + \
        (["--kernels", "sssp"] if kernel == "sssp" else []) + args
    if not validate:
        g500.append("--skip-validation")
    config = smpi_config(ranks, per_node, smpi_cfg)
    cmd = ["smpirun", "-np", str(ranks), "-platform", platform_xml, "-hostfile", hosts] + \
        config + [SMPI_BINARY] + g500
    returncode, stderr, wall, peak = run_measured(cmd, folder)
    if returncode != 0:
        raise SystemExit("failed: %s\n%s" % (" ".join(cmd), stderr[-3000:]))
    with open(out) as f:
        result = json.load(f)
    record = summarize(result, kernel)
    record.update({"ranks": ranks, "ranks_per_node": per_node, "scale": scale, "simulation_wall_seconds": wall,
                   "simulating_process_peak_bytes": peak, "simulating_process_peak_bytes_per_rank": peak / ranks,
                   "command": " ".join(["smpirun", "-np", str(ranks), "-platform",
                                        benchlib.shown([cmd[4]]) if not link_bw else "%s.xml(links %s)" % (
                                            benchlib.shown([os.path.join(PLATFORMS, platform)]), link_bw),
                                        "-hostfile", "HOSTS(%d a node)" % per_node] + config +
                                       [benchlib.shown([SMPI_BINARY])] + [a if a != out else "RESULT.json" for a in g500])})
    return record


def real(np_, scale, roots):
    result, _ = benchlib.g500_json(REAL_BINARY, np_, ["--scale", str(scale), "--roots", str(roots),
                                                      "--skip-validation"])
    return result["statistics"]["time"]["mean"]


def calibrate(a):
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for scale in a.scales:
            for np_ in a.np:
                measured = real(np_, scale, a.roots)
                sim = simulate("this_machine", np_, np_, scale, ["--bfs", "hybrid-1d"], a.roots, False, tmp)
                rows.append({"scale": scale, "np": np_, "real_mean_time": measured, "simulated_mean_time": sim["mean_time"],
                             "error": sim["mean_time"] / measured - 1})
                print("SCALE %d -np %d: real %.6f s, simulated %.6f s (%+.1f%%)" %
                      (scale, np_, measured, sim["mean_time"], 100 * rows[-1]["error"]), flush=True)
    return {"kind": "calibration", "platform": "sim/platforms/this_machine.xml", "rows": rows,
            "real_command": "scripts/mpirun -np NP build/g500 --scale S --roots %d --skip-validation" % a.roots}


# The share of this machine's memory a simulation may take: all simulated ranks live in one process,
# and past this the host pages, which slows every rank's measured compute.
MEMORY_SHARE = 0.6


def machine_memory():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) * 1024
    return 0


def too_big(rows, config, per_node, ranks):
    """One line refusing `ranks` when the simulating process would pass MEMORY_SHARE of this machine's
    memory, as the nearest smaller row of the same configuration predicts (its peak a rank, times
    the ranks: weak scaling keeps a rank's share); None when it fits or nothing predicts it."""
    earlier = [r for r in rows if r["config"] == config and r["ranks_per_node"] == per_node and r["ranks"] < ranks]
    if not earlier:
        return None
    predicted = max(earlier, key=lambda r: r["ranks"])["simulating_process_peak_bytes_per_rank"] * ranks
    limit = MEMORY_SHARE * machine_memory()
    if predicted <= limit:
        return None
    return ("refused: %s at %d ranks would take about %.1f GB in the simulating process, over %d%% of this "
            "machine's %.1f GB (use fewer vertices a rank, --per-rank)" %
            (config, ranks, predicted / 1e9, 100 * MEMORY_SHARE, machine_memory() / 1e9))


def weak(a):
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for per_node in a.ranks_per_node:
            for config in a.configs:
                for ranks in a.ranks:
                    scale = a.per_rank + int(round(math.log2(ranks)))
                    validate = ranks <= a.validate_up_to
                    refusal = too_big(rows, config, per_node, ranks)
                    if refusal:
                        print(refusal, file=sys.stderr, flush=True)
                        continue
                    r = simulate(a.platform, ranks, per_node, scale, a.config_args[config], a.roots, validate, tmp,
                                 a.link_bw, a.kernel, a.smpi_cfg)
                    r["config"] = config
                    if a.noise_probe and os.path.exists(NOISE_BINARY):
                        # The host's tail at this run's memory: each rank reads a buffer of about its
                        # share of the simulating process's peak (the power of two at or below it), once a burst.
                        kib = 2 ** max(5, math.floor(math.log2(max(1.0, r["simulating_process_peak_bytes_per_rank"] / 1024))))
                        r["host_noise"] = probe_noise(a.platform, ranks, per_node, 10, 1, kib, a.smpi_cfg, tmp)
                    rows.append(r)
                    split = "" if r["compute"] is None else " (compute %.3g, comm %.3g)" % (
                        1e3 * r["compute"], 1e3 * r["communication"])
                    if "compute_mean_rank" in r:
                        split += " (compute: mean rank %.3g, slowest rank %.3g, critical path %.3g)" % (
                            1e3 * r["compute_mean_rank"], 1e3 * r["compute_slowest_rank"],
                            1e3 * r["compute_critical_path"])
                    print("%s %-28s %4d ranks (%d a node) SCALE %d: %.3g TEPS, %.3g ms%s, "
                          "%.3g MB between nodes a search%s [%.0f s to simulate]" %
                          (a.platform, config, ranks, per_node, scale, r["harmonic_mean_TEPS"], 1e3 * r["mean_time"],
                           split, r["bytes_between_nodes_per_search"] / 1e6,
                           ", validated" if validate else "", r["simulation_wall_seconds"]), flush=True)
                    if "host_noise" in r:
                        print("    the host's clock on fixed work at this memory (%d KiB a rank): %s" %
                              (r["host_noise"]["buffer_kib"], noise_line(r["host_noise"])), flush=True)
    return {"kind": "weak scaling (SIMULATED)", "kernel": a.kernel, "platform": "sim/platforms/%s.xml" % a.platform,
            "link_bandwidth": a.link_bw or "as the platform", "ranks_per_node": a.ranks_per_node,
            "smpi_settings_added": a.smpi_cfg,
            "vertices_per_rank": 2 ** a.per_rank, "roots": a.roots,
            "configs": {c: " ".join(a.config_args[c]) for c in a.configs}, "rows": rows}


def probe_noise(platform, ranks, per_node, levels, passes, buffer_kib, smpi_cfg, folder):
    """One run of burst-noise (sim/burst_noise.cpp) with the lab's settings: its JSON row, with the
    slowest burst of a level over the mean burst."""
    hosts = hostfile(ranks, per_node, folder)
    config = smpi_config(ranks, per_node, smpi_cfg)
    cmd = ["smpirun", "-np", str(ranks), "-platform", platform_file(platform, None, folder), "-hostfile", hosts] + \
        config + [NOISE_BINARY, str(levels), str(passes), str(buffer_kib)]
    p = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, OMP_NUM_THREADS="1"))
    if p.returncode != 0:
        raise SystemExit("failed: %s\n%s" % (" ".join(cmd), p.stderr[-3000:]))
    row = json.loads(p.stdout.strip().splitlines()[-1])
    row["buffer_kib"] = buffer_kib
    row["slowest_over_mean"] = row["mean_slowest_burst"] / row["mean_burst"]
    return row


def noise_line(row):
    return "mean burst %.1f us, a level's slowest %.1f us (%.2f times), p50 %.1f p99 %.1f max %.1f us" % (
        1e6 * row["mean_burst"], 1e6 * row["mean_slowest_burst"], row["slowest_over_mean"], 1e6 * row["p50"],
        1e6 * row["p99"], 1e6 * row["max"])


def noise(a):
    """burst-noise at each rank count, with the lab's settings (and --smpi-cfg): one row each."""
    if a.levels < 1 or a.passes < 1 or a.buffer_kib < 1 or a.buffer_kib & (a.buffer_kib - 1):
        raise SystemExit("noise: --levels and --passes at least 1, --buffer-kib a power of two")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for ranks in a.ranks:
            row = probe_noise(a.platform, ranks, a.ranks_per_node[0], a.levels, a.passes, a.buffer_kib, a.smpi_cfg, tmp)
            rows.append(row)
            print("%5d ranks: %s" % (ranks, noise_line(row)), flush=True)
    return {"kind": "the lab's clock on fixed work (SIMULATED)", "platform": "sim/platforms/%s.xml" % a.platform,
            "ranks_per_node": a.ranks_per_node[0], "levels": a.levels, "passes": a.passes, "buffer_kib": a.buffer_kib,
            "smpi_settings": SMPI_CONFIG + ["--cfg=" + c for c in a.smpi_cfg], "rows": rows}


def plot(record, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.5))
    many_placements = len(record["ranks_per_node"]) > 1
    lines = dict.fromkeys((r["config"], r["ranks_per_node"]) for r in record["rows"])
    for config, per_node in lines:
        rows = [r for r in record["rows"] if r["config"] == config and r["ranks_per_node"] == per_node]
        label = config + (" (%d a node)" % per_node if many_placements else "")
        ax.plot([r["ranks"] for r in rows], [r["harmonic_mean_TEPS"] for r in rows], marker="o", label=label)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    placement = "/".join(str(k) for k in record["ranks_per_node"])
    ax.set_xlabel("ranks (%s a node, 2^%d vertices a rank)" % (placement, int(math.log2(record["vertices_per_rank"]))))
    ax.set_ylabel("harmonic-mean TEPS (SIMULATED)")
    links = "" if record["link_bandwidth"] == "as the platform" else ", links %s" % record["link_bandwidth"]
    ax.set_title("g500 weak scaling on %s%s\n(SimGrid SMPI: SIMULATED)" % (os.path.basename(record["platform"]), links))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    c = sub.add_parser("calibrate")
    c.add_argument("--scales", type=lambda s: [int(x) for x in s.split(",")], default=[18, 20])
    c.add_argument("--np", type=lambda s: [int(x) for x in s.split(",")], default=[1, 2])
    c.add_argument("--roots", type=int, default=16)
    c.add_argument("-o", "--output")
    w = sub.add_parser("weak")
    w.add_argument("--platform", default="fat_tree_ib")
    w.add_argument("--ranks", type=lambda s: [int(x) for x in s.split(",")], default=[4, 16, 64, 256])
    w.add_argument("--ranks-per-node", type=lambda s: [int(x) for x in s.split(",")], default=[1],
                   help="ranks a node, one or more (each a placement of its own)")
    w.add_argument("--link-bw", help="the network links' bandwidth (SimGrid units, e.g. 10Gbps) instead of the platform's")
    w.add_argument("--per-rank", type=int, default=16, help="log2 of the vertices a rank")
    w.add_argument("--configs", type=lambda s: s.split(","), default=[])
    w.add_argument("--config", nargs=2, action="append", default=[], metavar=("LABEL", "ARGS"),
                   help='a configuration of your own: a label and g500\'s options, e.g. c768 "--bfs top-down-1d '
                        '--coalescing-size 768"')
    w.add_argument("--roots", type=int, default=8)
    w.add_argument("--kernel", choices=["bfs", "sssp"], default="bfs",
                   help="time kernel 2 (BFS) or kernel 3 (SSSP, run as --kernels sssp)")
    w.add_argument("--smpi-cfg", action="append", default=[], metavar="KEY:VALUE",
                   help="another SimGrid setting for smpirun, e.g. smpi/alltoallv:pair (recorded in each command)")
    w.add_argument("--noise-probe", action=argparse.BooleanOptionalAction, default=True,
                   help="after each row, burst-noise at its ranks and memory: how much of a level's slowest rank "
                        "is the host's (docs/scale.md, the lab's clock)")
    w.add_argument("--validate-up-to", type=int, default=16, help="validate every search up to this many ranks")
    w.add_argument("--append", action="store_true",
                   help="add these rows to the --output record of an earlier run of the same platform and size")
    w.add_argument("--plot", action="store_true")
    w.add_argument("-o", "--output")
    n = sub.add_parser("noise")
    n.add_argument("--platform", default="fat_tree_ib")
    n.add_argument("--ranks", type=lambda s: [int(x) for x in s.split(",")], default=[64, 256])
    n.add_argument("--ranks-per-node", type=lambda s: [int(x) for x in s.split(",")], default=[4])
    n.add_argument("--levels", type=int, default=50, help="bursts a rank, each followed by a barrier")
    n.add_argument("--passes", type=int, default=20, help="passes over the rank's buffer a burst")
    n.add_argument("--buffer-kib", type=int, default=32,
                   help="a rank's buffer, a power of two: 32 stays in cache; past the caches each burst reads memory")
    n.add_argument("--smpi-cfg", action="append", default=[], metavar="KEY:VALUE")
    n.add_argument("-o", "--output")
    a = ap.parse_args()
    needed = [NOISE_BINARY] if a.what == "noise" else [SMPI_BINARY] + ([REAL_BINARY] if a.what == "calibrate" else [])
    for binary in needed:
        if not os.path.exists(binary):
            raise SystemExit("no %s: build it first (make sim%s)" % (benchlib.shown([binary]), ", make build" if "smpi" not in binary else ""))
    if a.what == "weak":
        unknown = [c for c in a.configs if c not in CONFIGS]
        if unknown:
            raise SystemExit("unknown configuration(s) %s (known: %s)" % (", ".join(unknown), ", ".join(CONFIGS)))
        a.config_args = {c: CONFIGS[c] for c in a.configs}
        for label, args in a.config:
            a.configs.append(label)
            a.config_args[label] = args.split()
        if not a.configs:
            a.configs = ["hybrid-1d", "hybrid-2d", "top-down-2d"]
            a.config_args = {c: CONFIGS[c] for c in a.configs}
    record = {"calibrate": calibrate, "noise": noise, "weak": weak}[a.what](a)
    record["command"] = "bench/simulate.py " + " ".join(sys.argv[1:])
    record["date"] = time.strftime("%Y-%m-%d %H:%M")
    if a.what == "weak" and a.append and a.output and os.path.exists(a.output):
        with open(a.output) as f:
            earlier = json.load(f)
        for key in ("platform", "link_bandwidth", "vertices_per_rank", "roots"):
            if earlier.get(key) != record[key]:
                raise SystemExit("--append: %s has %s %s, this run %s" % (a.output, key, earlier.get(key), record[key]))
        earlier["rows"] += record["rows"]
        earlier["configs"].update(record["configs"])
        earlier["ranks_per_node"] = sorted(set(earlier["ranks_per_node"]) | set(record["ranks_per_node"]))
        earlier["commands"] = earlier.get("commands", [earlier.pop("command")]) + [record["command"]]
        earlier["dates"] = earlier.get("dates", [earlier.pop("date")]) + [record["date"]]
        record = earlier
    if a.output:
        os.makedirs(os.path.dirname(os.path.abspath(a.output)), exist_ok=True)
        with open(a.output, "w") as f:
            json.dump(record, f, indent=1)
        if a.what == "weak" and a.plot:
            plot(record, os.path.splitext(a.output)[0] + ".png")


if __name__ == "__main__":
    main()
