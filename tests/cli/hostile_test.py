"""What sweeps of hostile but fair input found, end to end. Issue 27: files left behind by
interrupted, killed or failed runs; malformed Matrix Market accepted; byte order marks; messages
that misled. Issue 42: zero-weight edges in kernel 3, one rank's I/O error hanging the job, inputs
that are no regular files, outputs that overwrite inputs. Each test fails without its fix."""
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import program  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
import cli_test  # noqa: E402  (its BadInput.assert_clean_error; imported as a module so its tests do not run here)


def error_line(p):
    ours = [line for line in p.stderr.splitlines() if line.startswith("g500: error:")]
    return ours[0] if len(ours) == 1 else "\n".join(ours) or p.stderr


def start(args, np):
    """g500 under mpirun, in the background, in a session of its own."""
    env = dict(os.environ, OMP_NUM_THREADS="1")
    return subprocess.Popen([program.MPIRUN, "-np", str(np), program.G500] + args, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


def wait_for_staging(folder, name, proc, seconds=120):
    """The staging file of `name` once it exists (the run is writing its trees)."""
    end = time.time() + seconds
    while time.time() < end and proc.poll() is None:
        staged = [f for f in os.listdir(folder) if f.startswith(name + ".g500-partial-")]
        if staged:
            return staged[0]
        time.sleep(0.05)
    raise AssertionError("no staging file appeared")


class FilesLeftBehind(unittest.TestCase):
    # Long enough that the trees are still being written when the signal comes: every search is
    # validated and written before the next one.
    RUN = ["--scale", "18", "--roots", "64", "-q"]

    def test_a_catchable_signal_removes_the_staging_file(self):
        for sig in (signal.SIGTERM, signal.SIGINT):
            with self.subTest(signal=sig.name), tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, "trees.txt")
                proc = start(self.RUN + ["--output", out], np=3)
                wait_for_staging(tmp, "trees.txt", proc)
                os.kill(proc.pid, sig)  # to mpirun, as a user's ^C or a scheduler's stop
                proc.communicate(timeout=120)
                self.assertNotEqual(proc.returncode, 0)
                self.assertEqual(os.listdir(tmp), [])

    def test_a_killed_runs_staging_file_is_removed_by_the_next_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "trees.txt")
            proc = start(self.RUN + ["--output", out], np=2)
            staged = wait_for_staging(tmp, "trees.txt", proc)
            # SIGKILL to every process of the run (the ranks first: mpirun's death leaves them
            # running), which nobody can catch.
            subprocess.run(["pkill", "-KILL", "-f", "^" + program.G500 + " .*" + out])
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate(timeout=120)
            self.assertEqual(os.listdir(tmp), [staged])
            p = program.run(["--scale", "6", "--roots", "2", "-q", "--output", out], np=2)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("g500: removed '%s', left by a run that was killed" % os.path.join(tmp, staged), p.stderr)
            self.assertEqual(os.listdir(tmp), ["trees.txt"])

    def test_a_live_runs_staging_file_is_left_alone(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "trees.txt")
            # A staging name whose process is alive (this test's own).
            alive = "trees.txt.g500-partial-%s-%d" % (os.uname().nodename.replace("-", "_"), os.getpid())
            open(os.path.join(tmp, alive), "w").close()
            p = program.run(["--scale", "6", "--roots", "2", "-q", "--output", out], np=2)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(sorted(os.listdir(tmp)), sorted([alive, "trees.txt"]))

    def test_a_failed_generate_leaves_neither_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            edges = os.path.join(tmp, "gen.bin")
            for np in (None, 2):
                p = program.run(["generate", "--scale", "10", "-q", "-o", edges, "--weights", "/dev/full"], np=np)
                self.assertNotEqual(p.returncode, 0)
                self.assertIn("cannot write '/dev/full'", error_line(p))
                self.assertEqual(os.listdir(tmp), [])


class MalformedGraphFiles(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def write(self, name, text, mode="w"):
        path = os.path.join(self.tmp, name)
        with open(path, mode) as f:
            f.write(text)
        return path

    def entries(self, n=8000, value=""):
        import random
        rng = random.Random(5)
        return "".join("%d %d%s\n" % (rng.randint(1, 1000), rng.randint(1, 1000), value) for _ in range(n))

    def test_matrix_market_must_agree_with_its_size_line(self):
        pattern = "%%MatrixMarket matrix coordinate pattern general\n"
        body = self.entries()
        cases = [
            (self.write("outside.mtx", pattern + "5 5 8000\n" + body), "outside.mtx' line 3: entry (", "5 x 5 matrix"),
            (self.write("more.mtx", pattern + "1000 1000 100\n" + body), "more.mtx' line 103: more entries than the 100",
             "(line 2)"),
            (self.write("fewer.mtx", pattern + "1000 1000 8500\n" + body), "declares 8500 entries", "holds 8000"),
            (self.write("valued.mtx", pattern + "1000 1000 8000\n" + self.entries(value=" 2.0")),
             "valued.mtx' line 3: a pattern matrix's entries carry no value", ""),
        ]
        for path, expect, also in cases:
            for np in (None, 3):
                with self.subTest(file=os.path.basename(path), np=np):
                    p = program.run(["--input", path, "--roots", "2", "-q"], np=np)
                    self.assertNotEqual(p.returncode, 0)
                    self.assertIn(expect, error_line(p))
                    self.assertIn(also, error_line(p))

    def test_a_byte_order_mark_is_skipped(self):
        body = self.entries(2000)
        plain_list = self.write("plain.txt", body)
        bom_list = self.write("bom.txt", b"\xef\xbb\xbf" + body.encode(), "wb")
        mtx = "%%MatrixMarket matrix coordinate pattern general\n1000 1000 2000\n" + body
        plain_mtx = self.write("plain.mtx", mtx)
        bom_mtx = self.write("bom.mtx", b"\xef\xbb\xbf" + mtx.encode(), "wb")
        for plain, bom in ((plain_list, bom_list), (plain_mtx, bom_mtx)):
            for np in (None, 3):
                with self.subTest(file=os.path.basename(bom), np=np):
                    a = program.run(["--input", plain, "--roots", "4"], np=np)
                    b = program.run(["--input", bom, "--roots", "4"], np=np)
                    self.assertEqual(b.returncode, 0, b.stderr)
                    sa, sb = program.statistics(a.stdout), program.statistics(b.stdout)
                    self.assertEqual(sa["bfs_mean_nedge"], sb["bfs_mean_nedge"])
                    self.assertEqual(sa["validation"], "passed")


class MessagesThatMisled(unittest.TestCase):
    def test_a_directory_as_input_says_so(self):
        with tempfile.TemporaryDirectory() as tmp:
            for fmt in ("binary", "edgelist", "mtx"):
                p = program.run(["--input", tmp, "--format", fmt, "-q"], np=2)
                self.assertNotEqual(p.returncode, 0)
                self.assertIn("cannot read '%s': it is a directory" % tmp, error_line(p))

    def test_offending_text_is_escaped_and_clipped(self):
        with tempfile.TemporaryDirectory() as tmp:
            nul = os.path.join(tmp, "nul.txt")
            with open(nul, "wb") as f:
                f.write(b"1 2\n2\x003 4\n")
            p = program.run(["--input", nul, "-q"])
            self.assertIn("line 2: '2\\x003' is not a vertex id", error_line(p))
            huge = os.path.join(tmp, "huge.txt")
            with open(huge, "w") as f:
                f.write("1 2\n" + "9" * 100000 + " 3\n")
            p = program.run(["--input", huge, "-q"])
            self.assertIn("line 2: '9999", error_line(p))
            self.assertLess(len(error_line(p)), 200)

    def test_an_unreadable_file_says_permission_denied(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "secret.txt")
            with open(path, "w") as f:
                f.write("1 2\n")
            os.chmod(path, 0)
            cmd = [program.G500, "--input", path, "-q"]
            if os.geteuid() == 0:  # root reads anything: run as nobody
                if not shutil.which("setpriv"):
                    self.skipTest("root, and no setpriv to drop privileges")
                cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + cmd
            env = dict(os.environ, OMP_NUM_THREADS="1", HOME=tmp, TMPDIR=tmp)
            os.chmod(tmp, 0o777)
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
            self.assertNotEqual(p.returncode, 0)
            self.assertIn("cannot read '%s': permission denied" % path, error_line(p))

    def test_options_that_do_not_apply_are_refused(self):
        cases = [
            (["--bfs", "top-down-2d", "--hubs", "3"], "--hubs does not apply to --bfs top-down-2d"),
            (["--bfs", "sort-unique", "--grid", "2x1", "--compress", "none"], "--grid does not apply to --bfs sort-unique"),
            (["--bfs", "hybrid-2d", "--summary-check"], "--summary-check does not apply to --bfs hybrid-2d"),
            (["--hubs", "2", "--grid", "2x2"], "no engine reads both --hubs (hybrid-1d) and --grid (hybrid-2d)"),
            (["--coalescing-size", "9"], "--coalescing-size does not apply to --bfs auto"),
            (["--input-weights", "/nonexistent/w"], "--input-weights does not apply without --input"),
            (["--comm-matrix"], "--comm-matrix does not apply without --json"),
            (["--kernels", "bfs,bfs"], "--kernels names bfs twice"),
            (["--root", "5", "--root", "5"], "--root 5 is given twice"),
            (["--json", ""], "--json needs a file name"),
            (["--json", "r.json", "--output", "r.json"], "--json and --output name the same file"),
            (["--ids", "1"], "--ids: must be auto|32|64, got '1'"),
            (["--kernels", "sssp", "--delta", "1e-300"], "got '1e-300'"),
        ]
        for args, expect in cases:
            with self.subTest(args=args):
                cli_test.BadInput.assert_clean_error(self, args + ["--scale", "6"], expect, np=2)

    def test_missing_input_weights_name_the_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            edges = os.path.join(tmp, "g.bin")
            self.assertEqual(program.run(["generate", "--scale", "6", "-q", "-o", edges]).returncode, 0)
            missing = os.path.join(tmp, "missing.w")
            cli_test.BadInput.assert_clean_error(self, ["--input", edges, "--input-weights", missing, "-q"],
                                        "cannot read '%s': no such file or directory" % missing, np=2)


def write_file(folder, name, data):
    path = os.path.join(folder, name)
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)
    return path


class ZeroWeights(unittest.TestCase):
    """Kernel 3 on weights that add nothing: the root keeps itself, ties close no cycle."""

    def test_the_generators_own_zero_weight_tuple(self):
        # Tuple (1194206, 151443) of SCALE 21, seed 1, has weight exactly 0.
        p = program.run(["--scale", "21", "--seed", "1", "--kernels", "sssp", "--root", "1194206", "-q"], np=2)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(program.statistics(p.stdout)["validation"], "passed")

    def test_zero_and_negligible_weights_in_files(self):
        with tempfile.TemporaryDirectory() as tmp:
            cases = [("zero.txt", "0 1 0\n1 2 1\n", ["--root", "1"]),
                     ("minus_zero.txt", "0 1 -0\n1 2 1\n", ["--root", "1"]),
                     ("tiny.txt", "0 1 1e-50\n1 2 1\n", ["--root", "1"]),
                     ("all_zero.txt", "0 1 0\n1 2 0\n2 0 0\n2 3 0\n3 4 0\n4 2 0\n", ["--root", "4", "--root", "1"]),
                     ("cycle.mtx", "%%MatrixMarket matrix coordinate real general\n5 5 4\n1 2 0\n2 3 0\n3 1 0\n3 4 0.5\n",
                      ["--root", "2", "--root", "4"])]
            for name, text, roots in cases:
                path = write_file(tmp, name, text)
                trees = os.path.join(tmp, name + ".trees")
                for np in (1, 2, 3):
                    with self.subTest(file=name, np=np):
                        p = program.run(["--input", path, "--kernels", "sssp", "-q", "--output", trees] + roots, np=np)
                        self.assertEqual(p.returncode, 0, p.stderr)
                        self.assertEqual(program.statistics(p.stdout)["validation"], "passed")
                        # "sssp ROOT VERTEX PARENT DISTANCE": each root is its own parent.
                        with open(trees) as f:
                            rows = [line.split() for line in f if line.startswith("sssp ")]
                        for root in roots[1::2]:
                            self.assertIn(["sssp", root, root, root, "0"], rows)

    def test_binary_minus_zero_weights(self):
        with tempfile.TemporaryDirectory() as tmp:
            edges = write_file(tmp, "g.bin", struct.pack("<4q", 0, 1, 1, 2))
            weights = write_file(tmp, "g.w", struct.pack("<2f", -0.0, 1.0))
            p = program.run(["--input", edges, "--input-weights", weights, "--kernels", "sssp", "--root", "1", "-q"],
                            np=2)
            self.assertEqual(p.returncode, 0, p.stderr)

    def test_a_distance_past_the_largest_float_is_refused_in_one_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = write_file(tmp, "huge.txt", "0 1 2e38\n1 2 2e38\n")
            for np in (None, 2):
                p = program.run(["--input", path, "--kernels", "sssp", "--root", "0", "-q"], np=np)
                self.assertNotEqual(p.returncode, 0)
                self.assertIn("a path's weights sum past the largest float", error_line(p))
                self.assertNotIn("validation", error_line(p))


class OneRanksError(unittest.TestCase):
    """An error only one rank meets ends the whole job in seconds, with its message."""

    def run_and_spoil(self, args, spoil, np=3):
        """Runs g500, spoils its input as kernel 1 starts (every validation pass reads it again),
        returns (rc, stderr)."""
        env = dict(os.environ, OMP_NUM_THREADS="1")
        proc = subprocess.Popen([program.MPIRUN, "-np", str(np), program.G500] + args, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
        seen = []
        try:
            for line in proc.stderr:
                seen.append(line)
                if "kernel 1:" in line:
                    spoil()
                    break
            rest = proc.communicate(timeout=60)[1]
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            self.fail("the job hung after its input changed: " + "".join(seen)[-2000:])
        return proc.returncode, "".join(seen) + rest

    def test_an_input_that_changes_during_the_run_ends_the_job(self):
        with tempfile.TemporaryDirectory() as tmp:
            edges, text = os.path.join(tmp, "g.bin"), os.path.join(tmp, "g.txt")
            self.assertEqual(program.run(["generate", "--scale", "16", "-q", "-o", edges]).returncode, 0)
            with open(edges, "rb") as f:
                tuples = f.read()
            lines = "".join("%d %d\n" % struct.unpack_from("<2q", tuples, k) for k in range(0, len(tuples), 16))

            def cut(path, share):
                return lambda: os.truncate(path, int(os.path.getsize(path) * share))

            def garbage(path):
                def spoil():
                    with open(path, "r+b") as f:
                        f.seek(len(tuples) // 2)
                        f.write(os.urandom(len(tuples) - len(tuples) // 2))
                return spoil

            cases = [("binary cut to 50%", edges, cut(edges, 0.5), "it is shorter now"),
                     ("binary cut to 99%", edges, cut(edges, 0.99), "it is shorter now"),
                     ("binary garbage over its end", edges, garbage(edges), "changed while it was being read"),
                     # A text file's cut shows either as tuples that ended early or as the file's
                     # size, whichever a rank meets first: both say what happened, in one line.
                     ("text cut to 50%", text, cut(text, 0.5), ("changed while it was being read", "it is shorter now"))]
            for name, path, spoil, expect in cases:
                for extra in ([], ["--output", os.path.join(tmp, "trees.txt")]):
                    with self.subTest(case=name, output=bool(extra)):
                        write_file(tmp, "g.bin", tuples)
                        write_file(tmp, "g.txt", lines)
                        rc, err = self.run_and_spoil(["--input", path, "--roots", "64"] + extra, spoil)
                        self.assertNotEqual(rc, 0)
                        ours = [line for line in err.splitlines() if line.startswith("g500: error:")]
                        self.assertTrue(ours, err[-2000:])
                        expected = expect if isinstance(expect, tuple) else (expect,)
                        self.assertTrue(any(e in ours[0] for e in expected), ours[0])
                        self.assertEqual([f for f in os.listdir(tmp) if "g500-partial" in f], [])

    def test_inputs_that_are_no_regular_files_are_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            fifo = os.path.join(tmp, "fifo")
            os.mkfifo(fifo)
            edges = os.path.join(tmp, "g.bin")
            self.assertEqual(program.run(["generate", "--scale", "6", "-q", "-o", edges]).returncode, 0)
            cases = [(["--input", fifo, "--format", "edgelist"], "cannot read '%s': it is not a regular file" % fifo),
                     (["--input", edges, "--input-weights", fifo, "--kernels", "sssp"],
                      "cannot read '%s': it is not a regular file" % fifo),
                     (["--scale", "6", "--roots-file", fifo], "roots file '%s' is not a regular file" % fifo),
                     (["--scale", "6", "--roots-file", "/dev/random"], "roots file '/dev/random' is not a regular file")]
            for args, expect in cases:
                with self.subTest(args=args):
                    p = program.run(args + ["-q"], np=2, timeout=60)
                    self.assertNotEqual(p.returncode, 0)
                    self.assertIn(expect, error_line(p))


class OutputsThatOverwriteInputs(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.edges = os.path.join(self.tmp, "g.bin")
        self.weights = os.path.join(self.tmp, "g.w")
        p = program.run(["generate", "--scale", "6", "-q", "-o", self.edges, "--weights", self.weights])
        self.assertEqual(p.returncode, 0, p.stderr)
        self.roots = write_file(self.tmp, "roots.txt", "1\n2\n")
        self.text = write_file(self.tmp, "g.txt", "0 1\n1 2\n")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def contents(self):
        out = {}
        for name in sorted(os.listdir(self.tmp)):
            with open(os.path.join(self.tmp, name), "rb") as f:
                out[name] = f.read()
        return out

    def test_an_output_that_is_an_input_is_refused_before_anything_is_written(self):
        link = os.path.join(self.tmp, "link.txt")
        os.symlink(self.text, link)
        cases = [(["--input", self.text, "--output", self.text], "--output '%s' is the --input file" % self.text),
                 (["--input", self.text, "--json", self.text], "--json '%s' is the --input file" % self.text),
                 (["--input", self.text, "--json", link], "--json '%s' is the --input file" % link),
                 (["--input", self.edges, "--input-weights", self.weights, "--kernels", "sssp", "--json", self.weights],
                  "--json '%s' is the --input-weights file" % self.weights),
                 (["--input", self.text, "--roots-file", self.roots, "--output", self.roots],
                  "--output '%s' is the --roots-file file" % self.roots),
                 (["--scale", "6", "--roots-file", self.roots, "--output", os.path.join(self.tmp, ".", "roots.txt")],
                  "is the --roots-file file")]
        for args, expect in cases:
            with self.subTest(args=args):
                before = self.contents()
                p = program.run(args + ["-q"], np=2)
                self.assertNotEqual(p.returncode, 0)
                self.assertIn(expect, error_line(p))
                self.assertEqual(self.contents(), before)

    def test_generate_refuses_one_file_for_edges_and_weights(self):
        same = write_file(self.tmp, "same.bin", "earlier")
        for np in (None, 2):
            p = program.run(["generate", "--scale", "6", "-q", "-o", same, "--weights", same], np=np)
            self.assertNotEqual(p.returncode, 0)
            self.assertIn("are one file", error_line(p))
            with open(same) as f:
                self.assertEqual(f.read(), "earlier")

    def test_an_output_through_a_link(self):
        json_path = os.path.join(self.tmp, "r.json")
        link = os.path.join(self.tmp, "trees.link")
        os.symlink(json_path, link)
        p = program.run(["--scale", "6", "--roots", "2", "-q", "--json", json_path, "--output", link], np=2)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("are one file", error_line(p))
        self.assertTrue(os.path.islink(link))
        # A link to a file of its own is written through: the link stays, its target gets the trees.
        target = os.path.join(self.tmp, "trees.txt")
        os.remove(link)
        os.symlink(target, link)
        p = program.run(["--scale", "6", "--roots", "2", "-q", "--output", link], np=2)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertTrue(os.path.islink(link))
        self.assertGreater(os.path.getsize(target), 0)

    def test_matrix_market_banners_g500_cannot_read_faithfully(self):
        cases = [("%%MatrixMarket matrix coordinate real skew-symmetric", "skew-symmetric matrix is no undirected"),
                 ("%%MatrixMarket matrix coordinate real general extra", "the banner has a word too many: 'extra'"),
                 ("%%MatrixMarket matrix coordinate real hermitian", "hermitian matrix is no undirected")]
        for banner, expect in cases:
            with self.subTest(banner=banner):
                path = write_file(self.tmp, "m.mtx", banner + "\n3 3 1\n2 1 0.5\n")
                p = program.run(["--input", path, "-q"], np=2)
                self.assertNotEqual(p.returncode, 0)
                self.assertIn(expect, error_line(p))

    def test_validation_messages_name_the_files_ids(self):
        path = write_file(self.tmp, "z.mtx", "%%MatrixMarket matrix coordinate real general\n4 4 3\n1 2 0.5\n2 3 0.5\n3 4 1\n")
        for kernel, expect in (("sssp", "SSSP validation failed for root 2 (search 1 of 1): rule 1: the root 2 has parent"),
                               ("bfs", "validation failed for root 2 (search 1 of 1): rule 1: the root 2 was not reached")):
            for np in (None, 2):
                with self.subTest(kernel=kernel, np=np):
                    p = program.run(["--input", path, "--kernels", kernel, "--root", "2", "--inject-fault", "-q"], np=np)
                    self.assertNotEqual(p.returncode, 0)
                    self.assertIn(expect, error_line(p))


if __name__ == "__main__":
    unittest.main(verbosity=2)
