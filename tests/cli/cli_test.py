"""Bad input: a one-line error naming the problem and a non-zero exit, never a crash or a hang."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import program  # noqa: E402


class BadInput(unittest.TestCase):
    def assert_clean_error(self, args, expect, np=None, alone=True):
        """alone=False: the MPI library may print its own line too (Open MPI's MPI-IO reports a
        failed write on stderr before g500 does)."""
        p = program.run(args, np=np, timeout=120)
        self.assertNotEqual(p.returncode, 0, f"{args} exited 0")
        ours = [line for line in p.stderr.splitlines() if line.startswith("g500: error:")]
        self.assertEqual(len(ours), 1, p.stderr)
        self.assertIn(expect, ours[0])
        if np is None and alone:
            self.assertEqual(p.stderr.strip(), ours[0])
        for crash in ("Segmentation", "core dumped", "Aborted", "terminate called"):
            self.assertNotIn(crash, p.stderr + p.stdout)

    def test_bad_flags(self):
        cases = [
            (["--scale", "abc"], "scale"),
            (["--scale", "0"], "--scale must be between 1 and 62"),
            (["--scale", "63"], "--scale must be between 1 and 62"),
            (["--scale", "-3"], "scale"),
            (["--edgefactor", "0"], "--edgefactor must be at least 1"),
            (["--bfs", "nope"], "unknown BFS engine 'nope'"),
            (["--summary-granularity", "3"], "power of two"),
            (["--roots", "0"], "--roots must be at least 1"),
            (["--validation-batch", "0"], "--validation-batch: Value 0 not in range 1 to 16"),
            (["--validation-batch", "17"], "--validation-batch: Value 17 not in range 1 to 16"),
            (["--frobnicate"], "frobnicate"),
            (["--seed", "-1"], "--seed: '-1' is not a decimal whole number"),
            (["--seed", "18446744073709551616"], "--seed: '18446744073709551616' is out of range"),
            (["--seed", "1e23"], "--seed: '1e23' is not a decimal whole number"),
            (["--scale", "0x0c"], "--scale: '0x0c' is not a decimal integer"),
            (["--roots", "2.5"], "--roots: '2.5' is not a decimal integer"),
            (["--ids", "48"], "--ids"),
            (["--bfs", "sort-unique", "--staging", "sideways"], "--staging"),
            (["--bfs", "top-down-1d", "--coalescing-size", "0"], "--coalescing-size must be between 1 and 2^26"),
            (["--bfs", "top-down-1d", "--coalescing-size", "-4"], "--coalescing-size must be between 1 and 2^26"),
            (["--bfs", "top-down-1d", "--coalescing-size", "99999999999"], "--coalescing-size must be between"),
            (["--bfs", "hybrid-2d", "--grid", "3x3"], "--grid 3x3 needs 9 ranks"),
            (["--bfs", "top-down-2d", "--grid", "2y2"], "--grid must be RxC"),
            (["--bfs", "top-down-2d", "--grid", "x"], "--grid must be RxC"),
            (["--bfs", "hybrid-2d", "--compress", "zip"], "--compress"),
            (["--bfs", "hybrid-2d", "--sort-vertices", "maybe"], "--sort-vertices"),
            (["--kernels", "bfs,dfs"], "--kernels"),
            (["--delta", "0"], "--delta must be a positive number"),
            (["--delta", "-1"], "--delta must be a positive number"),
            (["--relay", "3x3"], "--relay 3x3 needs 9 ranks"),
            (["--relay", "2y2"], "--relay must be RxC"),
            (["--parallel-allgather"], "--parallel-allgather needs --node-shared"),
            (["--hubs", "-1"], "--hubs must be between 0 and 2^24"),
            (["--ranks-per-node", "-1"], "--ranks-per-node must be 0 (the real nodes) or positive"),
            (["--ranks-per-node", "3", "--node-shared"], "--ranks-per-node 3 does not divide"),
        ]
        for args, expect in cases:
            with self.subTest(args=args):
                self.assert_clean_error(args, expect)
                self.assert_clean_error(args, expect, np=2)

    def test_coalescing_buffers_that_cannot_fit_are_refused(self):
        # Two buffers of 2^26 8-byte queries per destination on each of 8 ranks: about 86 GB.
        if os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") < 80 * 2**30:
            self.assert_clean_error(["--scale", "8", "--bfs", "top-down-1d", "--coalescing-size", str(2**26)],
                                    "not enough memory", np=8)

    def test_cuda_build_without_a_gpu_says_so(self):
        cuda = os.path.join(os.path.dirname(program.G500), "g500-cuda")
        if not os.path.exists(cuda) or os.path.exists("/dev/nvidia0"):
            self.skipTest("no g500-cuda, or a GPU is present")
        for engine in ("sort-unique", "gpu-hybrid"):
            p = subprocess.run([cuda, "--scale", "8", "--bfs", engine], capture_output=True, text=True, timeout=60)
            self.assertEqual(p.returncode, 1, engine)
            errors = [line for line in p.stderr.splitlines() if line.startswith("g500: error:")]
            self.assertEqual(len(errors), 1, p.stderr)
            self.assertIn(engine + ": no CUDA GPU is visible", errors[0])

    def test_more_ranks_than_vertices(self):
        self.assert_clean_error(["--scale", "1"], "more MPI ranks (3) than vertices (2)", np=3)

    def test_not_enough_memory(self):
        self.assert_clean_error(["--scale", "40"], "not enough memory")
        self.assert_clean_error(["--scale", "42"], "not enough memory", np=2)
        self.assert_clean_error(["generate", "--scale", "40", "-o", "/tmp/never"], "not enough memory")
        # Sizes near 2^63 bytes: refused before any work, never wrapped around into a small number.
        self.assert_clean_error(["generate", "--scale", "42", "--edgefactor", "1048576", "-o", "/tmp/never"],
                                "not enough memory")
        self.assert_clean_error(["--scale", "42", "--edgefactor", "65536"], "not enough memory", np=4)

    def test_integers_are_decimal(self):
        p = program.run(["--scale", "010", "--roots", "2", "-q"])
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(program.statistics(p.stdout)["SCALE"], "10")

    def test_graph_without_edges(self):
        # With this seed both tuples of the SCALE 1, edgefactor 1 graph are self-loops.
        self.assert_clean_error(["--scale", "1", "--edgefactor", "1", "--seed", "4", "-q"], "nothing to search")

    def test_unwritable_outputs(self):
        self.assert_clean_error(["generate", "--scale", "4", "-o", "/nonexistent/dir/g.bin"], "cannot write", np=2)
        self.assert_clean_error(["--scale", "6", "-q", "--json", "/nonexistent/dir/r.json"], "cannot write")

    def test_full_disk_is_an_error(self):
        # /dev/full takes no byte: Open MPI calls the short write a success, g500 must not.
        for np in (None, 2):
            self.assert_clean_error(["generate", "--scale", "8", "-q", "-o", "/dev/full"], "cannot write '/dev/full'",
                                    np=np, alone=False)
            self.assert_clean_error(["--scale", "6", "-q", "--json", "/dev/full"], "cannot write '/dev/full'", np=np)

    def test_outputs_checked_before_any_work(self):
        with tempfile.TemporaryDirectory() as tmp:
            edges = os.path.join(tmp, "g.bin")
            self.assert_clean_error(["generate", "--scale", "8", "-q", "-o", edges, "--weights", "/nonexistent/w"],
                                    "cannot write '/nonexistent/w'")
            self.assertEqual(os.listdir(tmp), [])

    def test_failed_run_keeps_the_previous_json(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "r.json")
            with open(path, "w") as f:
                f.write("earlier result\n")
            p = program.run(["--scale", "8", "--roots", "2", "-q", "--inject-fault", "--json", path], np=2)
            self.assertNotEqual(p.returncode, 0)
            with open(path) as f:
                self.assertEqual(f.read(), "earlier result\n")
            self.assertEqual(os.listdir(tmp), ["r.json"])

    def test_written_files_appear_complete_or_not_at_all(self):
        with tempfile.TemporaryDirectory() as tmp:
            edges = os.path.join(tmp, "g.bin")
            p = program.run(["generate", "--scale", "8", "-q", "-o", edges], np=3)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(os.listdir(tmp), ["g.bin"])  # the temporary name is gone
            self.assertEqual(os.path.getsize(edges), 16 * 16 * 256)

    def test_warns_when_threads_share_a_core(self):
        p = program.run(["--scale", "8", "--roots", "2"], np=1, threads=2, bind="core")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("warning: 2 OpenMP threads per rank but a rank may use only 1 CPU", p.stderr)
        q = program.run(["--scale", "8", "--roots", "2"], np=1, threads=2)
        self.assertNotIn("warning", q.stderr)

    def test_ranks_share_the_node_unless_told(self):
        cpus = os.cpu_count()
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "r.json")
            p = program.run(["--scale", "8", "--roots", "2", "--json", out], np=2, threads=None)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertNotIn("warning", p.stderr)
            with open(out) as f:
                self.assertEqual(json.load(f)["machine"]["threads_per_process"], max(1, cpus // 2))
        if cpus >= 2:
            q = program.run(["--scale", "8", "--roots", "2"], np=2, threads=cpus)
            self.assertEqual(q.returncode, 0, q.stderr)
            self.assertIn("oversubscribes it", q.stderr)

    def test_validation_failure_names_rule_and_root(self):
        for np in (None, 3):
            p = program.run(["--scale", "8", "--roots", "2", "--inject-fault"], np=np)
            self.assertNotEqual(p.returncode, 0)
            ours = [line for line in p.stderr.splitlines() if line.startswith("g500: error:")]
            self.assertEqual(len(ours), 1, p.stderr)
            self.assertRegex(ours[0], r"validation failed for root \d+ \(search 1 of 2\): rule 1: the root \d+ was not reached")

    def test_sssp_validation_failure_names_rule_and_root(self):
        for np in (None, 2):
            p = program.run(["--scale", "8", "--roots", "2", "--kernels", "sssp", "--inject-fault"], np=np)
            self.assertNotEqual(p.returncode, 0)
            ours = [line for line in p.stderr.splitlines() if line.startswith("g500: error:")]
            self.assertEqual(len(ours), 1, p.stderr)
            self.assertRegex(ours[0], r"SSSP validation failed for root \d+ \(search 1 of 2\): rule 1: the root \d+ "
                                      r"has parent \d+ and distance 1\.0+, not itself and 0")

    def test_bad_graph_files(self):
        with tempfile.TemporaryDirectory() as tmp:
            def write(name, text, mode="w"):
                path = os.path.join(tmp, name)
                with open(path, mode) as f:
                    f.write(text)
                return path
            good = "".join(f"{i} {(i * 7 + 1) % 300}\n" for i in range(300))
            bad_late = good.replace("250 251\n", "250 x\n")
            cases = [
                (os.path.join(tmp, "missing.txt"), "missing.txt': no such file or directory"),
                (write("late.txt", bad_late), "late.txt' line 251: 'x' is not a vertex id"),
                (write("negative.el", "# c\n1 2\n-3 4\n"), "negative.el' line 3: vertex id -3 is out of range"),
                (write("wide.txt", "1 2\n3 4 0.5 9\n"), "wide.txt' line 2: more than three columns"),
                (write("narrow.txt", "1 2\n3\n"), "narrow.txt' line 2: fewer than two columns"),
                (write("mixed.txt", "1 2 0.5\n3 4\n"), "some lines have weights and some do not"),
                (write("weight.txt", "1 2 -0.5\n"), "'-0.5' is not a non-negative weight"),
                (write("empty.txt", ""), "holds no edges"),
                (write("comments.txt", "# only\n% comments\n\n"), "holds no edges"),
                (write("cut.bin", b"\x01" * 40, "wb"), "cut.bin' is truncated: 40 bytes"),
                (write("banner.mtx", "1 2\n"), "no %%MatrixMarket banner"),
                (write("dense.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n"), "only coordinate"),
                (write("nosize.mtx", "%%MatrixMarket matrix coordinate pattern general\n% c\n"), "no size line"),
                (write("zero.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n0 1\n"),
                 "zero.mtx' line 3: vertex id 0 is out of range (1 .."),
                (write("graph.dat", "1 2\n"), "cannot tell the format of"),
            ]
            for path, expect in cases:
                with self.subTest(path=os.path.basename(path)):
                    self.assert_clean_error(["--input", path, "--roots", "2", "-q"], expect)
                    self.assert_clean_error(["--input", path, "--roots", "2", "-q"], expect, np=3)
            unweighted = write("plain.txt", good)
            self.assert_clean_error(["--input", unweighted, "--kernels", "sssp", "-q"], "needs edge weights", np=2)
            self.assert_clean_error(["--input", unweighted, "--scale", "8", "-q"], "--scale excludes --input")
            self.assert_clean_error(["--input", unweighted, "--format", "csv", "-q"], "--format")
            self.assert_clean_error(["--input", unweighted, "--root", "300", "-q"], "root 300 is not a vertex", np=2)
            self.assert_clean_error(["--scale", "6", "--roots-file", os.path.join(tmp, "none"), "-q"],
                                    "cannot open roots file")
            self.assert_clean_error(["--scale", "6", "--roots-file", write("r.txt", "1\nabc\n"), "-q"],
                                    "r.txt' line 2: 'abc' is not a vertex id")
            self.assert_clean_error(["--scale", "6", "--output", "/nonexistent/dir/t.txt", "-q"], "cannot write")

    def test_help_succeeds(self):
        p = program.run(["--help"])
        self.assertEqual(p.returncode, 0)
        self.assertIn("--bfs", p.stdout)
        self.assertIn("hybrid-1d: direction-optimizing", p.stdout)


class GoodRun(unittest.TestCase):
    def test_graph_files_give_the_generators_answers(self):
        """The generator's tuples written as binary (g500 generate), as a text edge list and as
        Matrix Market give the same roots, edge counts and per-level vertices at 1, 3 and 4 ranks;
        a weighted text list runs kernel 3 and validates."""
        import struct
        with tempfile.TemporaryDirectory() as tmp:
            binary, weights = os.path.join(tmp, "g.bin"), os.path.join(tmp, "g.w")
            p = program.run(["generate", "--scale", "9", "-o", binary, "--weights", weights, "-q"], np=2)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(binary, "rb") as f:
                data = f.read()
            with open(weights, "rb") as f:
                w = f.read()
            tuples = [struct.unpack_from("<qq", data, 16 * i) for i in range(len(data) // 16)]
            text, mtx, weighted = (os.path.join(tmp, name) for name in ("g.txt", "g.mtx", "gw.el"))
            with open(text, "w") as f:
                f.write("# SNAP style\n\n" + "".join(f"{u}\t{v}\n" for u, v in tuples))
            with open(mtx, "w") as f:
                f.write("%%MatrixMarket matrix coordinate pattern symmetric\n% made here\n")
                f.write(f"512 512 {len(tuples)}\n" + "".join(f"{u + 1} {v + 1}\n" for u, v in tuples))
            with open(weighted, "w") as f:
                f.write("".join(f"{u} {v} {struct.unpack_from('<f', w, 4 * i)[0]!r}\n" for i, (u, v) in enumerate(tuples)))

            def fingerprint(path, np):
                out = os.path.join(tmp, "r.json")
                q = program.run(["--input", path, "--roots", "6", "-q", "--json", out], np=np)
                self.assertEqual(q.returncode, 0, q.stderr)
                self.assertEqual(program.statistics(q.stdout)["validation"], "passed")
                with open(out) as f:
                    r = json.load(f)
                base = 1 if path.endswith(".mtx") else 0  # roots are shown in the file's own ids
                return [(x["root"] - base, x["nedge"], [l["discovered"] for l in x["levels"]]) for x in r["runs"]]

            base = fingerprint(binary, 1)
            for path in (binary, text, mtx):
                for np in (1, 3, 4):
                    with self.subTest(path=os.path.basename(path), np=np):
                        self.assertEqual(fingerprint(path, np), base)
            q = program.run(["--input", weighted, "--roots", "4", "--kernels", "bfs,sssp", "-q"], np=2)
            self.assertEqual(q.returncode, 0, q.stderr)
            stats = program.statistics(q.stdout)
            self.assertEqual(stats["validation"], "passed")
            self.assertEqual(stats["SCALE"], "9")
            self.assertIn("sssp_harmonic_mean_TEPS", stats)

            # The binary file with its weights file gives kernel 3 the same distances as the text.
            def buckets(args, np):
                out = os.path.join(tmp, "s.json")
                q = program.run(args + ["--roots", "4", "--kernels", "sssp", "-q", "--json", out], np=np)
                self.assertEqual(q.returncode, 0, q.stderr)
                with open(out) as f:
                    return [(x["root"], x["nedge"], [(b["bucket"], b["settled"]) for b in x["buckets"]])
                            for x in json.load(f)["sssp"]["runs"]]
            self.assertEqual(buckets(["--input", binary, "--input-weights", weights], 3),
                             buckets(["--input", weighted], 2))
            short = os.path.join(tmp, "short.w")
            with open(short, "wb") as f:
                f.write(w[:100])
            BadInput.assert_clean_error(self, ["--input", binary, "--input-weights", short, "-q"],
                                        "holds 100 bytes, not one float32 for each of the", np=2)
            BadInput.assert_clean_error(self, ["--input", text, "--input-weights", weights, "-q"],
                                        "--input-weights goes with a binary edge file")
            # Chosen roots, in the file's own ids (from 1 in Matrix Market).
            roots = os.path.join(tmp, "roots.txt")
            with open(roots, "w") as f:
                f.write(f"# two roots\n{base[0][0] + 1}\n\n{base[1][0] + 1}\n")
            out = os.path.join(tmp, "chosen.json")
            q = program.run(["--input", mtx, "--roots-file", roots, "--root", str(base[2][0] + 1), "-q", "--json", out],
                            np=2)
            self.assertEqual(q.returncode, 0, q.stderr)
            with open(out) as f:
                chosen = json.load(f)["runs"]
            # --root first, then the file's, in order.
            self.assertEqual([(x["root"] - 1, x["nedge"]) for x in chosen],
                             [(r, n) for r, n, _ in (base[2], base[0], base[1])])

    def test_sparse_ids_are_relabelled_and_shown_as_the_file_has_them(self):
        """A file whose ids are spread out (x -> 1000000007 x + 7) is relabelled: the same roots (in
        its ids), edge counts and levels as the dense file relabelled, at 1 and 3 ranks; --root and
        --output speak the file's ids; --relabel off keeps the huge id range (refused here)."""
        with tempfile.TemporaryDirectory() as tmp:
            dense, sparse = os.path.join(tmp, "dense.txt"), os.path.join(tmp, "sparse.txt")
            p = program.run(["generate", "--scale", "9", "-o", os.path.join(tmp, "g.bin"), "-q"])
            self.assertEqual(p.returncode, 0, p.stderr)
            import struct
            with open(os.path.join(tmp, "g.bin"), "rb") as f:
                data = f.read()
            tuples = [struct.unpack_from("<qq", data, 16 * i) for i in range(len(data) // 16)]
            with open(dense, "w") as f:
                f.write("".join(f"{u} {v}\n" for u, v in tuples))
            with open(sparse, "w") as f:
                f.write("".join(f"{u * 1000000007 + 7} {v * 1000000007 + 7}\n" for u, v in tuples))

            def fingerprint(args, np, unmap=lambda r: r):
                out = os.path.join(tmp, "r.json")
                q = program.run(args + ["--roots", "5", "-q", "--json", out], np=np)
                self.assertEqual(q.returncode, 0, q.stderr)
                with open(out) as f:
                    r = json.load(f)
                return r, [(unmap(x["root"]), x["nedge"], [l["discovered"] for l in x["levels"]]) for x in r["runs"]]

            base_run, base = fingerprint(["--input", dense, "--relabel", "on"], 1)
            for np in (1, 3):
                with self.subTest(np=np):
                    run, got = fingerprint(["--input", sparse], np, lambda r: (r - 7) // 1000000007)
                    self.assertEqual(got, base)
                    self.assertEqual(run["graph"]["vertices"], base_run["graph"]["vertices"])
                    self.assertIn("relabelled", run["edge_source"])
            ids = {u * 1000000007 + 7 for u, _ in tuples} | {v * 1000000007 + 7 for _, v in tuples}
            root = base[0][0] * 1000000007 + 7
            trees = os.path.join(tmp, "t.txt")
            q = program.run(["--input", sparse, "--root", str(root), "-q", "--output", trees], np=2)
            self.assertEqual(q.returncode, 0, q.stderr)
            with open(trees) as f:
                rows = [line.split() for line in f]
            self.assertTrue(rows)
            for _, r, v, parent, _ in rows:
                self.assertEqual(int(r), root)
                self.assertIn(int(v), ids)
                self.assertIn(int(parent), ids)
            BadInput.assert_clean_error(self, ["--input", sparse, "--root", "8", "-q"], "root 8 is not a vertex", np=2)
            BadInput.assert_clean_error(self, ["--input", sparse, "--relabel", "off", "-q"], "not enough memory", np=2)

    def test_output_holds_every_tree(self):
        """--output: per root and kernel, each reached vertex with its parent and depth (distance);
        depths follow parents, distances never shrink along a tree edge, the binary records say the
        same as the text lines."""
        import struct
        with tempfile.TemporaryDirectory() as tmp:
            text, binary = os.path.join(tmp, "trees.txt"), os.path.join(tmp, "trees.bin")
            for path, fmt, np in ((text, "text", 3), (binary, "binary", 2)):
                p = program.run(["--scale", "8", "--roots", "2", "--kernels", "bfs,sssp", "-q", "--output", path,
                                 "--output-format", fmt], np=np)
                self.assertEqual(p.returncode, 0, p.stderr)
            lines = []
            with open(text) as f:
                for line in f:
                    k, r, v, parent, x = line.split()
                    lines.append((k, int(r), int(v), int(parent), float(x)))
            trees = {}
            for k, r, v, parent, x in lines:
                trees.setdefault((k, r), {})[v] = (parent, x)
            self.assertEqual(len(trees), 4)
            for (k, r), tree in trees.items():
                self.assertEqual(tree[r], (r, 0.0))
                for v, (parent, x) in tree.items():
                    if v == r:
                        continue
                    if k == "bfs":
                        self.assertEqual(x, tree[parent][1] + 1)
                    else:
                        self.assertLessEqual(tree[parent][1], x)
            for r in {r for _, r in trees}:
                self.assertEqual(set(trees[("bfs", r)]), set(trees[("sssp", r)]))
            # Without validation too (edge counts in batches): each root's own tree, the same depths.
            skipped = os.path.join(tmp, "skipped.txt")
            p = program.run(["--scale", "8", "--roots", "2", "-q", "--skip-validation", "--output", skipped], np=2)
            self.assertEqual(p.returncode, 0, p.stderr)
            depths = set()
            with open(skipped) as f:
                for line in f:
                    k, r, v, parent, x = line.split()
                    depths.add((int(r), int(v), float(x)))
                    if v == r:
                        self.assertEqual(parent, r)
            self.assertEqual(depths, {(r, v, x) for k, r, v, _, x in lines if k == "bfs"})
            with open(binary, "rb") as f:
                data = f.read()
            self.assertEqual(len(data) % 40, 0)
            records = set()
            for i in range(len(data) // 40):
                k, r, v, parent = struct.unpack_from("<qqqq", data, 40 * i)
                (x,) = struct.unpack_from("<d", data, 40 * i + 32)
                records.add(("sssp" if k else "bfs", r, v, round(x, 5)))
            self.assertEqual(records, {(k, r, v, round(x, 5)) for k, r, v, _, x in lines})

    def test_default_engine_runs_and_reports(self):
        with tempfile.TemporaryDirectory() as tmp:
            p = program.run(["--scale", "10", "--roots", "4"], np=2)
            self.assertEqual(p.returncode, 0, p.stderr)
            stats = program.statistics(p.stdout)
            self.assertEqual(stats["NBFS"], "4")
            self.assertEqual(stats["validation"], "passed")
            self.assertIn("BFS 4/4", p.stderr)
            q = program.run(["--scale", "10", "--roots", "4", "--quiet"], np=2)
            self.assertEqual(q.stderr, "")

    def test_row_codes_measure_sorted_gaps(self):
        # top-down-1d keeps rows by id in the generator's ids, so the figure can be made again here
        # from the edge file: each row's first neighbour as the zigzag gap from the row's vertex, the
        # rest as gaps, 7 bits a byte.
        def vlq(x):
            return 1 if x < 128 else (x.bit_length() + 6) // 7
        with tempfile.TemporaryDirectory() as tmp:
            edges = os.path.join(tmp, "g.bin")
            p = program.run(["generate", "--scale", "9", "-o", edges, "-q"], np=1)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(edges, "rb") as f:
                raw = f.read()
            ids = [int.from_bytes(raw[k:k + 8], "little", signed=True) for k in range(0, len(raw), 8)]
            rows = {}
            for u, v in zip(ids[0::2], ids[1::2]):
                if u != v:
                    rows.setdefault(u, set()).add(v)
                    rows.setdefault(v, set()).add(u)
            entries = sum(len(r) for r in rows.values())
            expected = 0
            for row, neighbours in rows.items():
                ordered = sorted(neighbours)
                first = ordered[0] - row
                expected += vlq(2 * first if first >= 0 else -2 * first - 1)
                expected += sum(vlq(b - a) for a, b in zip(ordered, ordered[1:]))
            for np_ in (1, 3):
                out = os.path.join(tmp, f"r{np_}.json")
                p = program.run(["--scale", "9", "--roots", "2", "-q", "--bfs", "top-down-1d", "--measure-row-codes",
                                 "--json", out], np=np_)
                self.assertEqual(p.returncode, 0, p.stderr)
                with open(out) as f:
                    codes = json.load(f)["row_codes"]
                self.assertEqual(codes["entries"], entries)
                self.assertEqual(codes["bytes"], expected)
                self.assertAlmostEqual(codes["bytes_per_tuple"], expected / (16 * 512))
            # Without the option the JSON says nothing was measured.
            p = program.run(["--scale", "9", "--roots", "2", "-q", "--json", os.path.join(tmp, "none.json")], np=2)
            with open(os.path.join(tmp, "none.json")) as f:
                self.assertIsNone(json.load(f)["row_codes"])

    def test_validation_batches_give_the_same_verdicts(self):
        # 5 roots in batches of 1, 2 and 4 (the last batch short): the same edge counts, all valid.
        with tempfile.TemporaryDirectory() as tmp:
            seen = {}
            for batch in (1, 2, 4):
                out = os.path.join(tmp, f"b{batch}.json")
                p = program.run(["--scale", "10", "--roots", "5", "-q", "--validation-batch", str(batch),
                                 "--json", out], np=2)
                self.assertEqual(p.returncode, 0, p.stderr)
                with open(out) as f:
                    result = json.load(f)
                self.assertEqual(result["options"]["validation_batch"], batch)
                roots = result["runs"]
                self.assertEqual([r["result"] for r in roots], ["valid"] * 5)
                self.assertTrue(all(r["validate_seconds"] > 0 for r in roots))
                seen[batch] = [(r["root"], r["nedge"]) for r in roots]
            self.assertEqual(seen[1], seen[2])
            self.assertEqual(seen[1], seen[4])
            # --skip-validation counts the same edges, in batches as well.
            for batch in (1, 4):
                out = os.path.join(tmp, f"s{batch}.json")
                p = program.run(["--scale", "10", "--roots", "5", "-q", "--skip-validation", "--validation-batch",
                                 str(batch), "--json", out], np=2)
                self.assertEqual(p.returncode, 0, p.stderr)
                with open(out) as f:
                    roots = json.load(f)["runs"]
                self.assertEqual([r["result"] for r in roots], ["not validated"] * 5)
                self.assertEqual([(r["root"], r["nedge"]) for r in roots], seen[1])
            # A failure inside a batch still names its rule and the first broken search.
            p = program.run(["--scale", "8", "--roots", "3", "--validation-batch", "3", "--inject-fault"], np=2)
            self.assertNotEqual(p.returncode, 0)
            self.assertIn("(search 1 of 3): rule 1", p.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
