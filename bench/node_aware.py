#!/usr/bin/env python3
"""hybrid-1d's node-aware options against the plain engine in one sitting (papers 000,
002), one thread per rank, on pretend nodes (--ranks-per-node K) of one machine:

  - for each "np:K" setting: the plain engine, --node-shared, --node-shared --parallel-allgather,
    --relay NxM (the most square arrangement), --hubs H and all of them together, run in turn
    (round-robin, --reps times) so that drift hits every option alike;
  - the same plain / relay / hubs runs with top-down steps only (--alpha 1e-12), where every
    level's offers go point to point: peers per rank and query messages are then the relay's and
    the hubs' own;
  - per run (medians over the reps): mean BFS time, harmonic-mean TEPS, and per search: bytes
    between pretend nodes and within them (all operations, and the bitmap allgathers alone),
    peers per rank, top-down parent offers, edges to hubs kept local, relay stage bytes.

Then the targets: --node-shared cuts inter-node allgather bytes by K; --relay NxM talks to
N + M - 2 other ranks (the paper's N + M - 1 with the rank itself); --hubs cuts top-down offers.
Searches are not validated here (the tests validate every option at 1 to 6 ranks).

  bench/node_aware.py --scale 20 --settings 4:2,8:4 --roots 16 --reps 3 \\
      -o bench/results/node_aware/node_aware.json
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

ROOT = benchlib.ROOT


def most_square(ranks):
    rows = max(r for r in range(1, ranks + 1) if ranks % r == 0 and r * r <= ranks)
    return f"{rows}x{ranks // rows}"


def options(np, hubs):
    relay = ["--relay", most_square(np)]
    return {
        "plain": [],
        "node-shared": ["--node-shared"],
        "parallel-allgather": ["--node-shared", "--parallel-allgather"],
        "relay": relay,
        "hubs": ["--hubs", str(hubs)],
        "combined": ["--node-shared", "--parallel-allgather", "--hubs", str(hubs)] + relay,
        "top-down plain": ["--alpha", "1e-12"],
        "top-down relay": ["--alpha", "1e-12"] + relay,
        "top-down hubs": ["--alpha", "1e-12", "--hubs", str(hubs)],
    }


def run(binary, scale, np, k, roots, extra):
    args = ["--scale", str(scale), "--roots", str(roots), "--skip-validation", "--ranks-per-node", str(k)] + extra
    r, command = benchlib.g500_json(binary, np, args)
    search = r["traffic"]["search"]
    n = len(r["runs"])
    gather = search["ops"].get("allgather", {})
    allreduce = search["ops"].get("allreduce", {}).get("bytes_sent", 0)
    logical = search["logical"]

    def per_search(value):
        return value / n

    return {
        "command": command,
        "mean_time": r["statistics"]["time"]["mean"],
        "harmonic_mean_teps": r["statistics"]["TEPS"]["harmonic_mean"],
        "nodes": r["traffic"]["nodes"],
        "bytes_between_nodes": per_search(search["bytes_between_nodes"]),
        # Allreduces name no peers: their bytes are apart, the rest split between and within nodes.
        "bytes_within_nodes": per_search(search["bytes_sent"] - search["bytes_between_nodes"] - allreduce),
        "allreduce_bytes": per_search(allreduce),
        "allgather_bytes_between_nodes": per_search(gather.get("bytes_between_nodes", 0)),
        "allgather_bytes_within_nodes": per_search(gather.get("bytes_sent", 0) - gather.get("bytes_between_nodes", 0)),
        "peers_per_rank_max": search["distinct_peers"],
        "parent_offers": per_search(logical.get("top_down.parent_offers", {}).get("items", 0)),
        "hub_edges_kept_local": per_search(logical.get("top_down.hub_edges_kept_local", {}).get("items", 0)),
        "relay_stage_one_bytes": per_search(logical.get("relay.stage_one_bytes", {}).get("items", 0)),
        "relay_stage_two_bytes": per_search(logical.get("relay.stage_two_bytes", {}).get("items", 0)),
    }


def median_row(runs):
    row = dict(runs[0])
    for key in ("mean_time", "harmonic_mean_teps"):
        row[key] = statistics.median(x[key] for x in runs)
        row[key + "_all"] = [x[key] for x in runs]
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--g500", default="build/g500")
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--settings", default="4:2,8:4", help="np:ranks-per-node pairs")
    ap.add_argument("--roots", type=int, default=16)
    ap.add_argument("--hubs", type=int, default=4096)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("-o", "--output", default="bench/results/node_aware/node_aware.json")
    a = ap.parse_args()
    binary = os.path.relpath(os.path.abspath(a.g500), ROOT)

    settings = []
    for item in a.settings.split(","):
        np, k = (int(x) for x in item.split(":"))
        opts = options(np, a.hubs)
        runs = benchlib.in_turn(opts, a.reps, lambda extra: run(binary, a.scale, np, k, a.roots, extra))
        rows = {name: median_row(r) for name, r in runs.items()}
        plain, td = rows["plain"], rows["top-down plain"]
        n, m = (int(x) for x in most_square(np).split("x"))
        for name, row in rows.items():
            base = td if name.startswith("top-down") else plain
            row["time_over_plain"] = row["mean_time"] / base["mean_time"]
        checks = {
            "allgather_between_nodes_plain_over_shared":
                plain["allgather_bytes_between_nodes"] / rows["node-shared"]["allgather_bytes_between_nodes"],
            "node_shared_cuts_by_ranks_per_node":
                plain["allgather_bytes_between_nodes"] >= (k - 0.01) * rows["node-shared"]["allgather_bytes_between_nodes"],
            "parallel_allgather_same_bytes_between_nodes":
                rows["parallel-allgather"]["allgather_bytes_between_nodes"] == rows["node-shared"]["allgather_bytes_between_nodes"],
            "relay_arrangement": f"{n}x{m}",
            "relay_peers_per_rank": rows["top-down relay"]["peers_per_rank_max"],
            "plain_peers_per_rank": td["peers_per_rank_max"],
            "relay_peers_are_n_plus_m_minus_2": rows["top-down relay"]["peers_per_rank_max"] <= n + m - 2,
            "hubs_offers_over_plain": rows["hubs"]["parent_offers"] / plain["parent_offers"],
            "top_down_hubs_offers_over_plain": rows["top-down hubs"]["parent_offers"] / td["parent_offers"],
            "top_down_relay_bytes_over_plain": (rows["top-down relay"]["bytes_between_nodes"]
                                                + rows["top-down relay"]["bytes_within_nodes"])
                                               / (td["bytes_between_nodes"] + td["bytes_within_nodes"]),
        }
        settings.append({"np": np, "ranks_per_node": k, "runs": rows, "checks": checks})
    out = {"command": "bench/node_aware.py " + " ".join(sys.argv[1:]), "scale": a.scale, "settings": settings}
    os.makedirs(os.path.dirname(os.path.abspath(a.output)), exist_ok=True)
    with open(a.output, "w") as f:
        json.dump(out, f, indent=1)
    for s in settings:
        print(f"np {s['np']}, {s['ranks_per_node']} ranks per node")
        for name, row in s["runs"].items():
            print(f"  {name:20s} {row['mean_time'] * 1e3:8.2f} ms ({row['time_over_plain']:.3f}x)  between "
                  f"{row['bytes_between_nodes'] / 1e6:7.3f} MB (allgather {row['allgather_bytes_between_nodes'] / 1e6:7.3f})"
                  f"  within {row['bytes_within_nodes'] / 1e6:7.3f} MB  allreduce {row['allreduce_bytes'] / 1e6:6.3f} MB  peers {row['peers_per_rank_max']}"
                  f"  offers {row['parent_offers']:.0f}  hub edges {row['hub_edges_kept_local']:.0f}")
        print(json.dumps(s["checks"], indent=1))


if __name__ == "__main__":
    main()
