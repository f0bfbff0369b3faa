#!/usr/bin/env python3
"""Paper 001's model of the asynchronous top-down BFS, checked against our counters.

Equation (1): messages per process = (arcs traversed) * (n-1)/n / n / coalescing_size, where the
paper's arcs traversed are 2 * 2^SCALE * edgefactor; equation (2): bytes = arcs * (n-1)/n * query
size. Our graph drops duplicate tuples and self-loops, and a search traverses only the root's
component, so the arcs put in the model are the ones each search examined (the levels'
edges_examined). The bounds:
  - queries: a query is an examined arc whose end another rank owns. Ids are scrambled, so each
    end is remote with probability (n-1)/n: the count is within 3% of arcs * (n-1)/n here;
  - messages: each (level, sender, destination) sends ceil(q / c) messages, so the total lies in
    [Q / c, Q / c + levels * n * (n-1)]: only the partial messages at level ends add to Q / c;
  - bytes: exactly Q * query size (end-of-level signals are empty messages, one per peer and level).
"""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import program  # noqa: E402

SCALE, NP, COALESCING = 13, 4, 64
QUERY_BYTES = 8  # two 32-bit ids


class CoalescingModel(unittest.TestCase):
    def test_messages_and_bytes_follow_equations_1_and_2(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "r.json")
            p = program.run(["--scale", str(SCALE), "--roots", "4", "--bfs", "top-down-1d", "--coalescing-size",
                             str(COALESCING), "--quiet", "--json", out], np=NP)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(out) as f:
                run = json.load(f)
        for r in run["runs"]:
            levels = r["levels"]
            arcs = sum(l["edges_examined"] for l in levels)
            logical = [l["traffic"]["logical"] for l in levels]
            queries = sum(c["coalesced.queries"]["items"] for c in logical)
            messages = sum(c["coalesced.messages"]["items"] for c in logical)
            ends = sum(c["coalesced.end_signals"]["items"] for c in logical)
            p2p_bytes = sum(l["traffic"]["ops"]["point_to_point"]["bytes_sent"] for l in levels)
            p2p_messages = sum(l["traffic"]["ops"]["point_to_point"]["messages_sent"] for l in levels)
            with self.subTest(root=r["root"]):
                self.assertGreater(arcs, 0)
                expected_queries = arcs * (NP - 1) / NP
                self.assertLess(abs(queries - expected_queries), 0.03 * expected_queries)
                # Equation (1), per process, with the measured queries; the partial-message bound.
                self.assertGreaterEqual(messages, queries / COALESCING)
                self.assertLessEqual(messages, queries / COALESCING + len(levels) * NP * (NP - 1))
                eq1 = expected_queries / NP / COALESCING
                self.assertLess(abs(messages / NP - eq1), 0.03 * eq1 + len(levels) * (NP - 1))
                # Equation (2): every query byte, nothing else.
                self.assertEqual(p2p_bytes, queries * QUERY_BYTES)
                self.assertEqual(ends, len(levels) * NP * (NP - 1))
                self.assertEqual(p2p_messages, messages + ends)


if __name__ == "__main__":
    unittest.main()
