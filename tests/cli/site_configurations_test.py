"""Sites' Graph500 configurations, written for the reference code, run g500's drop-ins with only the
executable's path changed (issue 47): the command form, the environment and the patterns of JUBE
(jubench-graph500), Ramble and benchkit, at -np 2 and 3, validated or not, and with a search that
fails validation. The patterns are the configurations' own, checked first against the reference's
recorded output (fixtures/)."""
import os
import re
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import program  # noqa: E402

BIN = os.path.dirname(os.path.abspath(program.G500))
BFS = os.path.join(BIN, "g500-bfs")
BFS_SSSP = os.path.join(BIN, "g500-bfs-sssp")
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")

# JUBE: jubench-graph500's solverpattern, with JUBE's $jube_pat_fp.
JUBE_PAT_FP = r"([+-]?(?:\d*\.?\d+(?:[eE][-+]?\d+)?|\d+\.))"
JUBE = {"bfs_harmonic_mean_teps": "bfs  harmonic_mean_TEPS:     !  " + JUBE_PAT_FP,
        "sssp_harmonic_mean_teps": "sssp harmonic_mean_TEPS:     !  " + JUBE_PAT_FP}

# Ramble: its graph500 application's figures of merit, as regexes over each line.
RAMBLE_FLOAT = r"[0-9]+(?:\.[0-9]+)?(?:[eE][\+\-]?[0-9]+)?"
RAMBLE = {name: r"%s:\s+(?P<fom>%s)" % (key, RAMBLE_FLOAT) for name, key in [
    ("Harmonic Mean TEPS", r"bfs\s+harmonic_mean_TEPS"), ("Harmonic Stddev TEPS", r"bfs\s+harmonic_stddev_TEPS"),
    ("Min TEPS", r"bfs\s+min_TEPS"), ("First Quartile TEPS", r"bfs\s+firstquartile_TEPS"),
    ("Median TEPS", r"bfs\s+median_TEPS"), ("Third Quartile TEPS", r"bfs\s+thirdquartile_TEPS"),
    ("Max TEPS", r"bfs\s+max_TEPS"), ("Graph Generation Time", "graph_generation"),
    ("Construction Time", "construction_time"), ("Min BFS Time", r"bfs\s+min_time"),
    ("Median BFS Time", r"bfs\s+median_time"), ("Mean BFS Time", r"bfs\s+mean_time"),
    ("Max BFS Time", r"bfs\s+max_time"), ("Mean Validate Time", r"bfs\s+mean_validate")]}
RAMBLE.update({"Graph Scale": r"SCALE:\s+(?P<fom>[0-9]+)", "Edge Factor": r"edgefactor:\s+(?P<fom>[0-9]+)",
               "MPI Processes": r"num_mpi_processes:\s+(?P<fom>[0-9]+)"})


def fixture(name):
    with open(os.path.join(FIXTURES, name)) as f:
        return f.read()


def benchkit(stdout):
    """benchkit's reading: each line split at ':' into key and value, the value stripped of '!'."""
    out = {}
    for line in stdout.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            out[key.strip()] = float(value.strip().lstrip("!").strip())
    return out


def run(exe, args, np, env=None, timeout=300):
    """exe under mpirun as a site's script starts it: the environment exported, nothing else added."""
    full_env = dict(os.environ, OMP_NUM_THREADS="1")
    for name in ("SKIP_VALIDATION", "SKIP_BFS", "TMPFILE", "REUSEFILE"):
        full_env.pop(name, None)
    full_env.update(env or {})
    return subprocess.run([program.MPIRUN, "-np", str(np), exe] + args, capture_output=True, text=True,
                          timeout=timeout, env=full_env)


class Jube(unittest.TestCase):
    """executable: ${G500}/bin/g500-bfs-sssp, args_exec: "${scale} ${edgefactor}",
    env: export SKIP_VALIDATION=1, the two solver patterns on stdout."""

    def test_the_patterns_find_the_reference_figures(self):
        reference = fixture("reference_3.0_bfs_sssp_s10_np2.txt")
        for pattern in JUBE.values():
            self.assertIsNotNone(re.search(pattern, reference), pattern)

    def test_the_execute_line_runs_and_both_patterns_find_their_figures(self):
        for np in (2, 3):
            for skip in (True, False):
                with self.subTest(np=np, skip_validation=skip):
                    p = run(BFS_SSSP, ["10", "16"], np, {"SKIP_VALIDATION": "1"} if skip else {})
                    self.assertEqual(p.returncode, 0, p.stderr)
                    for name, pattern in JUBE.items():
                        m = re.search(pattern, p.stdout)
                        self.assertIsNotNone(m, name)
                        self.assertGreater(float(m.group(1)), 0)
                    self.assertEqual("SKIP_VALIDATION is set" in p.stderr, skip)
                    self.assertEqual(program.statistics(p.stdout)["num_mpi_processes"].strip(), str(np))
                    # The reference's validation times: -1 for searches it did not validate.
                    mean_validate = float(re.search(r"bfs  mean_validate:\s+(\S+)", p.stdout).group(1))
                    self.assertEqual(mean_validate == -1, skip)


class Ramble(unittest.TestCase):
    """executable: g500-bfs {scale} {edge_factor} {additional_args}; its figures of merit by regex."""

    def test_every_figure_found_in_the_reference_output_is_found_in_ours(self):
        reference = fixture("reference_3.0_bfs_s10_np2.txt")
        found_there = {name for name, pattern in RAMBLE.items() if re.search(pattern, reference)}
        self.assertIn("Mean BFS Time", found_there)
        self.assertIn("Graph Scale", found_there)
        for np in (2, 3):
            p = run(BFS, ["10", "16"], np)
            self.assertEqual(p.returncode, 0, p.stderr)
            for name in sorted(found_there):
                with self.subTest(np=np, figure=name):
                    m = re.search(RAMBLE[name], p.stdout)
                    self.assertIsNotNone(m)
                    float(m.group("fom"))
            self.assertEqual(re.search(RAMBLE["MPI Processes"], p.stdout).group("fom"), str(np))
            self.assertEqual(re.search(RAMBLE["Graph Scale"], p.stdout).group("fom"), "10")


class Benchkit(unittest.TestCase):
    """Every stdout line split at ':', '!' stripped: the same keys as the reference's, all numbers."""

    def test_the_keys_are_the_references_and_every_value_reads(self):
        for exe, name in ((BFS, "reference_3.0_bfs_s10_np2.txt"), (BFS_SSSP, "reference_3.0_bfs_sssp_s10_np2.txt")):
            for np, env in ((2, {"SKIP_VALIDATION": "yes"}), (3, {})):
                with self.subTest(program=os.path.basename(exe), np=np, env=env):
                    p = run(exe, ["10"], np, env)
                    self.assertEqual(p.returncode, 0, p.stderr)
                    self.assertEqual(list(benchkit(p.stdout)), list(benchkit(fixture(name))))


class InvalidRun(unittest.TestCase):
    def test_a_failed_validation_prints_the_references_line_and_fails(self):
        for exe in (BFS, BFS_SSSP):
            for np in (2, 3):
                with self.subTest(program=os.path.basename(exe), np=np):
                    p = run(exe, ["10", "16", "--inject-fault"], np)
                    self.assertNotEqual(p.returncode, 0)
                    self.assertEqual(p.stdout, "No results printed for invalid run.\n")
                    self.assertIn("validation failed for root", p.stderr)
                    for pattern in JUBE.values():
                        self.assertIsNone(re.search(pattern, p.stdout))


class Environment(unittest.TestCase):
    def test_skip_bfs_leaves_kernel_3(self):
        p = run(BFS_SSSP, ["10"], 2, {"SKIP_BFS": "1"})
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIsNotNone(re.search(JUBE["sssp_harmonic_mean_teps"], p.stdout))
        self.assertNotIn("bfs  ", p.stdout)
        refused = run(BFS, ["10"], 2, {"SKIP_BFS": "1"})
        self.assertNotEqual(refused.returncode, 0)
        self.assertEqual(refused.stderr.splitlines()[0], "g500: error: SKIP_BFS is set, which leaves g500-bfs no kernel to run")

    def test_g500_itself_takes_the_positional_form_and_skip_validation(self):
        p = program.run(["10", "16", "--roots", "4"], np=2)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(program.statistics(p.stdout)["SCALE"], "10")
        self.assertEqual(program.statistics(p.stdout)["validation"], "passed")
        skipped = run(program.G500, ["10", "--roots", "4"], 2, {"SKIP_VALIDATION": "1"})
        self.assertEqual(skipped.returncode, 0, skipped.stderr)
        self.assertNotEqual(program.statistics(skipped.stdout)["validation"], "passed")
        self.assertIn("g500: SKIP_VALIDATION is set (to '1')", skipped.stderr)

    def test_a_drop_in_without_scale_says_how_to_call_it(self):
        p = run(BFS, [], 2)
        self.assertNotEqual(p.returncode, 0)
        self.assertEqual(p.stderr.splitlines()[0],
                         "g500: error: usage: g500-bfs SCALE [edgefactor] [g500 options], as the reference's "
                         "graph500_reference_bfs")


class TmpFile(unittest.TestCase):
    """TMPFILE and REUSEFILE: the graph written once, read back by later runs, the same results."""

    def nedge(self, stdout):
        return [line for line in stdout.splitlines() if "nedge" in line or line.startswith(("SCALE", "NBFS"))]

    def test_the_file_is_temporary_without_reusefile(self):
        plain = run(BFS_SSSP, ["11"], 2)
        self.assertEqual(plain.returncode, 0, plain.stderr)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "graph.tmp")
            p = run(BFS_SSSP, ["11"], 3, {"TMPFILE": path})
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(os.listdir(tmp), [])
            self.assertEqual(self.nedge(p.stdout), self.nedge(plain.stdout))
            # One already there is the reference's error too, and is left as it was.
            with open(path, "w") as f:
                f.write("mine")
            refused = run(BFS, ["11"], 2, {"TMPFILE": path})
            self.assertNotEqual(refused.returncode, 0)
            self.assertIn("is there already: set REUSEFILE to read it", refused.stderr)
            with open(path) as f:
                self.assertEqual(f.read(), "mine")
            # So is a weights file alone, where kernel 3 would write its weights.
            os.remove(path)
            with open(path + ".weights", "w") as f:
                f.write("mine too")
            refused = run(BFS_SSSP, ["11"], 2, {"TMPFILE": path})
            self.assertNotEqual(refused.returncode, 0)
            self.assertIn("or its weights is there already", refused.stderr)
            with open(path + ".weights") as f:
                self.assertEqual(f.read(), "mine too")

    def test_reusefile_writes_once_and_later_runs_read_it(self):
        plain = run(BFS_SSSP, ["11"], 2)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "graph.bin")
            env = {"TMPFILE": path, "REUSEFILE": "1"}
            first = run(BFS_SSSP, ["11"], 2, env)
            self.assertEqual(first.returncode, 0, first.stderr)
            self.assertNotIn("REUSEFILE: reading", first.stderr)
            self.assertEqual(sorted(os.listdir(tmp)), ["graph.bin", "graph.bin.g500", "graph.bin.weights"])
            self.assertEqual(os.path.getsize(path), 16 * 16 * 2 ** 11)
            for np in (2, 3):
                again = run(BFS_SSSP, ["11"], np, env)
                self.assertEqual(again.returncode, 0, again.stderr)
                self.assertIn("g500: REUSEFILE: reading the graph from '%s'" % path, again.stderr)
                self.assertEqual(self.nedge(again.stdout), self.nedge(plain.stdout))
            # A file of another SCALE is written again, as the reference does (its record says so).
            other = run(BFS, ["10"], 2, env)
            self.assertEqual(other.returncode, 0, other.stderr)
            self.assertNotIn("REUSEFILE: reading", other.stderr)
            self.assertIn("writing the graph to '%s' again: it holds the graph of SCALE 11, not 10" % path, other.stderr)
            self.assertEqual(os.path.getsize(path), 16 * 16 * 2 ** 10)


if __name__ == "__main__":
    unittest.main(verbosity=2)
