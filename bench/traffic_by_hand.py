#!/usr/bin/env python3
"""Checks a run's traffic counters (g500 --json) against byte counts worked out by hand from the
run's own shape: for hybrid-1d, each level is one allreduce of three 8-byte sums per rank; a
top-down level is one alltoall of 4-byte counts to each other rank plus one alltoallv of parent
offers (two ids each); a bottom-up level allgathers each rank's slice of the frontier (N/64
words of 8 bytes in all) to the P-1 other ranks. Prints level by level, and exits 1 on a mismatch.

  bench/traffic_by_hand.py RESULT.json [--offer-bytes 8]
"""
import argparse
import json
import math
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("result")
    ap.add_argument("--offer-bytes", type=int, default=8, help="bytes of one (vertex, parent) offer: 8 or 16")
    o = ap.parse_args()
    with open(o.result) as f:
        r = json.load(f)
    p = r["machine"]["num_mpi_processes"]
    words = math.ceil(r["graph"]["vertices"] / 64)
    bad = 0
    print("%5s %6s %10s %14s %14s %14s" % ("root", "level", "direction", "counted bytes", "by hand", "offers"))
    for run in r["runs"][:3]:
        for level in run["levels"]:
            ops = level["traffic"]["ops"]
            expect = 3 * 8 * p if p > 1 else 0
            offers = 0
            if level["direction"] == "top-down":
                offers = level["traffic"]["logical"]["top_down.parent_offers"]["items"]
                expect += 4 * p * (p - 1) + o.offer_bytes * offers
            else:
                expect += words * 8 * (p - 1)
            got = level["traffic"]["bytes_sent"]
            bad += got != expect
            print("%5d %6d %10s %14d %14d %14d%s" % (run["root"], level["level"], level["direction"], got, expect,
                                                     offers, "" if got == expect else "  MISMATCH"))
    total = r["traffic"]["search"]
    print("kernel 2, all searches, all ranks: %d bytes in %d messages over %d calls" % (
        total["bytes_sent"], total["messages_sent"], total["calls"]))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
