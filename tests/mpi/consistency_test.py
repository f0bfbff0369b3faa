"""Same seed, same graph, same answers: roots, per-root nedge and per-level vertex counts must not
depend on the number of ranks or threads; `g500 generate` writes identical files for any rank count."""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import program  # noqa: E402

SPEC_KEYS = (
    ["SCALE", "edgefactor", "NBFS", "graph_generation", "num_mpi_processes", "construction_time"]
    + [f"bfs_{s}_{q}" for q in ("time", "nedge", "validate")
       for s in ("min", "firstquartile", "median", "thirdquartile", "max", "mean", "stddev")]
    + [f"bfs_{s}_TEPS" for s in ("min", "firstquartile", "median", "thirdquartile", "max",
                                  "harmonic_mean", "harmonic_stddev")]
)


def fingerprint(result):
    return [(r["root"], r["nedge"], [level["discovered"] for level in r["levels"]]) for r in result["runs"]]


class Consistency(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def run_json(self, np, threads, extra=()):
        path = os.path.join(self.tmp.name, f"r{np}_{threads}.json")
        p = program.run(["--scale", "12", "--roots", "8", "--quiet", "--json", path, *extra], np=np, threads=threads)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(path) as f:
            return json.load(f), program.statistics(p.stdout)

    def test_answers_do_not_depend_on_ranks_or_threads(self):
        base, stats = self.run_json(1, 1)
        for key in SPEC_KEYS:
            self.assertIn(key, stats)
        self.assertEqual(stats["NBFS"], "8")
        self.assertEqual(len(base["runs"]), 8)
        self.assertTrue(all(r["result"] == "valid" for r in base["runs"]))
        for np, threads, extra in [(1, 2, []), (2, 1, []), (3, 1, []), (4, 1, []), (3, 2, []), (2, 1, ["--ids", "64"])]:
            with self.subTest(np=np, threads=threads, extra=extra):
                result, stats = self.run_json(np, threads, extra)
                self.assertEqual(fingerprint(result), fingerprint(base))
                self.assertEqual(stats["num_mpi_processes"], str(np))
                self.assertEqual(result["machine"]["threads_per_process"], threads)

    def test_sssp_answers_do_not_depend_on_ranks_or_threads(self):
        """Kernel 3 after kernel 2 over the same roots: the sssp_ block follows the bfs_ one, every
        search validates, and the vertices settled per bucket (final distances) and the edge counts
        are the same for any rank and thread count and for both id widths."""
        def sssp_fingerprint(result):
            return [(r["root"], r["nedge"], [(b["bucket"], b["settled"]) for b in r["buckets"]])
                    for r in result["sssp"]["runs"]]
        base, stats = self.run_json(1, 1, ["--kernels", "bfs,sssp"])
        keys = list(stats)
        for q in ("time", "nedge", "validate"):
            self.assertIn(f"sssp_mean_{q}", stats)
        self.assertIn("sssp_harmonic_mean_TEPS", stats)
        self.assertLess(keys.index("bfs_mean_validate"), keys.index("sssp_min_time"))
        self.assertEqual(base["options"]["kernels"], ["bfs", "sssp"])
        self.assertTrue(all(r["result"] == "valid" for r in base["sssp"]["runs"]))
        self.assertEqual([r["nedge"] for r in base["sssp"]["runs"]], [r["nedge"] for r in base["runs"]])
        for np, threads, extra in [(2, 1, []), (3, 2, []), (4, 1, ["--ids", "64"]), (2, 1, ["--delta", "0.5"])]:
            with self.subTest(np=np, threads=threads, extra=extra):
                result, _ = self.run_json(np, threads, ["--kernels", "sssp", *extra])
                self.assertEqual(result["runs"], [])
                if "--delta" in extra:  # other buckets, the same distances and edges
                    self.assertEqual([r["nedge"] for r in result["sssp"]["runs"]],
                                     [r["nedge"] for r in base["sssp"]["runs"]])
                    self.assertEqual([sum(b["settled"] for b in r["buckets"]) for r in result["sssp"]["runs"]],
                                     [sum(b["settled"] for b in r["buckets"]) for r in base["sssp"]["runs"]])
                else:
                    self.assertEqual(sssp_fingerprint(result), sssp_fingerprint(base))

    def test_2d_engines_find_the_same_levels(self):
        """Both 2D engines, on default and explicit grids and both fold formats, give hybrid-1d's
        roots, edge counts and per-level vertices; the JSON names the grid; vlq folds fewer bytes."""
        base, _ = self.run_json(1, 1)
        fold_bytes = {}
        for engine, np, extra in [("hybrid-2d", 2, []), ("hybrid-2d", 4, []), ("top-down-2d", 3, []),
                                  ("hybrid-2d", 4, ["--grid", "4x1"]), ("top-down-2d", 4, ["--compress", "none"]),
                                  ("top-down-2d", 4, [])]:
            with self.subTest(engine=engine, np=np, extra=extra):
                result, _ = self.run_json(np, 1, ["--bfs", engine, *extra])
                self.assertEqual(fingerprint(result), fingerprint(base))
                self.assertTrue(all(r["result"] == "valid" for r in result["runs"]))
                grid = extra[1] if extra[:1] == ["--grid"] else {2: "1x2", 3: "1x3", 4: "2x2"}[np]
                self.assertEqual(result["graph"]["layout"], grid + " process grid")
                if engine == "top-down-2d" and np == 4:
                    logical = result["traffic"]["search"]["logical"]
                    self.assertGreater(logical["fold.edges"]["items"], 0)
                    fold_bytes[result["options"]["compress"]] = logical["fold.bytes"]["items"]
        self.assertLess(fold_bytes["vlq"], fold_bytes["none"])

    def test_skip_validation_marks_the_output(self):
        valid, _ = self.run_json(2, 1)
        skipped, stats = self.run_json(2, 1, ["--skip-validation"])
        self.assertFalse(skipped["validated"])
        self.assertIn("NOT valid", stats["validation"])
        self.assertTrue(all(r["result"] == "not validated" for r in skipped["runs"]))
        self.assertEqual([r["nedge"] for r in skipped["runs"]], [r["nedge"] for r in valid["runs"]])

    def test_json_has_profiles_and_options(self):
        result, _ = self.run_json(2, 1, ["--summary-granularity", "256"])
        self.assertEqual(result["options"]["summary_granularity"], 256)
        # --bfs auto (the default) runs the engine that reads --summary-granularity, and says so.
        self.assertEqual(result["options"]["bfs"], "hybrid-1d")
        self.assertEqual(result["options"]["bfs_chosen_by"], "auto")
        # Kernel 1 finds N from the edges: at most 2^SCALE (here the top id has no edge).
        self.assertLessEqual(result["graph"]["vertices"], 4096)
        self.assertGreater(result["graph"]["vertices"], 2048)
        for run in result["runs"]:
            self.assertGreater(run["teps"], 0)
            levels = run["levels"]
            self.assertGreater(len(levels), 1)
            # The root alone starts the search; each level expands what the one before found.
            self.assertEqual(levels[0]["frontier_vertices"], 1)
            for before, after in zip(levels, levels[1:]):
                self.assertEqual(after["frontier_vertices"], before["discovered"])
                self.assertEqual(after["level"], before["level"] + 1)
            self.assertEqual(levels[-1]["discovered"], 0)
            for level in levels:
                self.assertIn(level["direction"], ("top-down", "bottom-up"))
                self.assertGreaterEqual(level["edges_examined"], 0)

    def test_work_counts_add_up_over_ranks(self):
        """Each search's "ranks" block: every rank's work counts, whose sum is the levels' global
        count, and its compute, whose mean, slowest rank and critical path are ordered."""
        for engine, np in (("hybrid-1d", 3), ("hybrid-2d", 4), ("top-down-2d", 2)):
            with self.subTest(engine=engine, np=np):
                result, _ = self.run_json(np, 1, ["--bfs", engine])
                for run in result["runs"]:
                    ranks = run["ranks"]
                    edges = ranks["edges_examined"]["per_rank"]
                    self.assertEqual(len(edges), np)
                    self.assertEqual(sum(edges), sum(level["edges_examined"] for level in run["levels"]))
                    self.assertAlmostEqual(ranks["edges_examined"]["mean"] * np, sum(edges))
                    self.assertEqual(ranks["edges_examined"]["max"], max(edges))
                    calls = ranks["mpi_calls"]["per_rank"]
                    # Every level closes with an allreduce on every rank.
                    self.assertTrue(all(c >= len(run["levels"]) for c in calls), calls)
                    tries, swept = ranks["first_entry_tries"]["per_rank"], ranks["words_swept"]["per_rank"]
                    bottom_up = any(level["direction"] == "bottom-up" for level in run["levels"])
                    self.assertEqual(sum(tries) > 0, bottom_up)
                    self.assertEqual(sum(swept) > 0, bottom_up)
                    self.assertTrue(all(t <= e for t, e in zip(tries, edges)))
                    compute = ranks["compute"]
                    self.assertLessEqual(compute["mean"], compute["max"] * (1 + 1e-9))
                    self.assertLessEqual(compute["max"], compute["critical_path"] * (1 + 1e-9))
                    self.assertAlmostEqual(max(compute["per_rank"]), compute["max"])

    def test_traffic_counters_add_up(self):
        """Top-down levels move parent offers (two 32-bit ids: 8 bytes, 16 with --ids 64), bottom-up
        levels the frontier bitmap: the counters must say exactly that, and one rank alone sends
        nothing."""
        alone, _ = self.run_json(1, 1)
        for run in alone["runs"]:
            for level in run["levels"]:
                self.assertEqual(level["traffic"]["bytes_sent"], 0)
        self.assertEqual(alone["traffic"]["search"]["bytes_sent"], 0)
        for np, ids, offer_bytes in ((2, "auto", 8), (3, "auto", 8), (2, "64", 16)):
            with self.subTest(np=np, ids=ids):
                result, _ = self.run_json(np, 1, ["--ids", ids])
                total = 0
                seen = set()
                for run in result["runs"]:
                    for level in run["levels"]:
                        t = level["traffic"]
                        ops = t["ops"]
                        total += t["bytes_sent"]
                        seen.add(level["direction"])
                        if level["direction"] == "top-down":
                            offers = t["logical"]["top_down.parent_offers"]["items"]
                            self.assertEqual(ops.get("alltoallv", {}).get("bytes_sent", 0), offer_bytes * offers)
                            self.assertNotIn("allgather", ops)
                        else:
                            # Each rank's slice of 4096 bits, whole 64-bit words, to each other rank.
                            self.assertEqual(ops["allgather"]["bytes_sent"], 4096 // 8 * (np - 1))
                        self.assertLessEqual(level["max_rank_bytes_sent"], t["bytes_sent"])
                        self.assertGreaterEqual(level["max_rank_bytes_sent"] * np, t["bytes_sent"])
                self.assertEqual(seen, {"top-down", "bottom-up"})
                search = result["traffic"]["search"]
                # The per-level sums cover the searches, less the root-degree allreduce before level 0.
                allreduce = search["ops"]["allreduce"]["bytes_sent"]
                self.assertEqual(search["bytes_sent"] - total, np * 8 * len(result["runs"]))
                self.assertGreater(allreduce, 0)
                self.assertEqual(len(result["traffic"]["per_rank"]), np)
                self.assertEqual(sum(r["search"]["bytes_sent"] for r in result["traffic"]["per_rank"]),
                                 search["bytes_sent"])

    def test_memory_is_reported(self):
        result, _ = self.run_json(2, 1)
        memory = result["memory"]
        self.assertEqual(len(memory["peak_per_rank"]), 2)
        for after_build, at_end in zip(memory["peak_per_rank_after_construction"], memory["peak_per_rank"]):
            self.assertGreater(after_build, 0)
            self.assertLessEqual(after_build, at_end)
        self.assertEqual(memory["peak_total"], sum(memory["peak_per_rank"]))
        self.assertGreater(memory["estimate_per_rank"], 0)
        self.assertAlmostEqual(memory["peak_bytes_per_tuple"], memory["peak_total"] / result["graph"]["edge_tuples"])
        self.assertEqual(result["edge_source"], "kronecker (regenerated on each pass)")

    def test_comm_matrix(self):
        result, _ = self.run_json(3, 1, ["--comm-matrix"])
        matrix = result["traffic"]["search_matrix_bytes"]
        self.assertEqual(len(matrix), 3)
        for s, row in enumerate(matrix):
            self.assertEqual(row[s], 0)
            self.assertEqual(sum(row), result["traffic"]["per_rank"][s]["search"]["bytes_sent"]
                             - result["traffic"]["per_rank"][s]["search"]["ops"]["allreduce"]["bytes_sent"])

    def test_generate_writes_the_same_file_for_any_rank_count(self):
        files = []
        for np in (1, 3):
            edges = os.path.join(self.tmp.name, f"g{np}.bin")
            weights = os.path.join(self.tmp.name, f"g{np}.w")
            p = program.run(["generate", "--scale", "10", "-o", edges, "--weights", weights, "-q"], np=np)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(os.path.getsize(edges), 16 * 16 * 1024)
            self.assertEqual(os.path.getsize(weights), 4 * 16 * 1024)
            with open(edges, "rb") as f, open(weights, "rb") as w:
                files.append((f.read(), w.read()))
        self.assertEqual(files[0], files[1])


if __name__ == "__main__":
    unittest.main(verbosity=2)
