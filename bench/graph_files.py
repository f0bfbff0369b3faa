#!/usr/bin/env python3
"""Reading a graph of your own: the generator's SCALE graph (with weights) written as a
binary edge file (g500 generate), a three-column text edge list and a real Matrix Market file,
each read by g500 --input at -np N (one thread per rank), beside the generator itself. Records per
format: file size, the time of one whole read pass (graph_generation), construction time, mean BFS
time and peak memory per rank and per tuple. The files live in a temporary folder.

  bench/graph_files.py --scale 20 --np 2 --roots 8 -o bench/results/graph_files/graph_files.json
"""
import argparse
import json
import os
import struct
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

ROOT = benchlib.ROOT


def write_text_copies(binary, weights, text, mtx, vertices):
    """The same tuples and weights as text (0-based, "u v w") and Matrix Market (1-based)."""
    with open(binary, "rb") as fb, open(weights, "rb") as fw, open(text, "w") as ft, open(mtx, "w") as fm:
        data, w = fb.read(), fw.read()
        n = len(data) // 16
        fm.write("%%MatrixMarket matrix coordinate real symmetric\n")
        fm.write(f"{vertices} {vertices} {n}\n")
        chunk = 1 << 20
        for first in range(0, n, chunk):
            last = min(n, first + chunk)
            ids = struct.unpack_from("<%dq" % (2 * (last - first)), data, 16 * first)
            ws = struct.unpack_from("<%df" % (last - first), w, 4 * first)
            ft.write("".join(f"{ids[2 * k]} {ids[2 * k + 1]} {ws[k]:.9g}\n" for k in range(last - first)))
            fm.write("".join(f"{ids[2 * k] + 1} {ids[2 * k + 1] + 1} {ws[k]:.9g}\n" for k in range(last - first)))


def run(binary, np, roots, args, label, path=None):
    r, command = benchlib.g500_json(binary, np, args + ["--roots", str(roots), "--skip-validation"])
    shown = r["edge_source"]
    if path:  # the files live in a temporary folder: results name them by extension only
        command = command.replace(path, "FILE." + path.rsplit(".", 1)[1])
        shown = shown.replace(path, "FILE." + path.rsplit(".", 1)[1])
    return {"source": label, "command": command,
            "file_bytes": os.path.getsize(path) if path else None,
            "read_pass_seconds": r["graph_generation"], "construction_time": r["construction_time"],
            "mean_bfs_time": r["statistics"]["time"]["mean"],
            "peak_rank_bytes": max(r["memory"]["peak_per_rank"]),
            "peak_bytes_per_tuple": r["memory"]["peak_bytes_per_tuple"], "edge_source": shown}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--g500", default="build/g500")
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--roots", type=int, default=8)
    ap.add_argument("-o", "--output", default="bench/results/graph_files/graph_files.json")
    a = ap.parse_args()
    binary = os.path.relpath(os.path.abspath(a.g500), ROOT)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        edges, weights = os.path.join(tmp, "g.bin"), os.path.join(tmp, "g.w")
        text, mtx = os.path.join(tmp, "g.el"), os.path.join(tmp, "g.mtx")
        benchlib.execute(benchlib.mpirun(a.np) + [binary, "generate", "--scale", str(a.scale), "-o", edges,
                                                     "--weights", weights, "-q"], 1)
        write_text_copies(edges, weights, text, mtx, 1 << a.scale)
        rows.append(run(binary, a.np, a.roots, ["--scale", str(a.scale)], "generator"))
        for label, path in (("binary", edges), ("text edge list", text), ("Matrix Market", mtx)):
            rows.append(run(binary, a.np, a.roots, ["--input", path], label, path))
    out = {"command": "bench/graph_files.py " + " ".join(sys.argv[1:]), "scale": a.scale, "np": a.np, "runs": rows}
    os.makedirs(os.path.dirname(os.path.abspath(a.output)), exist_ok=True)
    with open(a.output, "w") as f:
        json.dump(out, f, indent=1)
    for r in rows:
        size = f"{r['file_bytes'] / 1e6:8.1f} MB" if r["file_bytes"] else "       -   "
        print(f"{r['source']:15s} {size}  read pass {r['read_pass_seconds']:6.2f} s  build {r['construction_time']:6.2f} s"
              f"  BFS {r['mean_bfs_time'] * 1e3:6.2f} ms  peak {r['peak_rank_bytes'] / 1e9:.3f} GB/rank"
              f" ({r['peak_bytes_per_tuple']:.1f} B/tuple)")


if __name__ == "__main__":
    main()
