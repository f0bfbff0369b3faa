"""What a hostile sweep found in memory limits, scratch files, outputs and small claims: limits are
refused in one line before allocating, an allocation that fails anywhere ends in one line, scratch
files do not outlive a run, a run's outputs land together, and what g500 says is true. Each case
failed before its fix."""
import json
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import program  # noqa: E402

REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
CRASH_SIGNS = ("bad_alloc", "terminate called", "Aborted", "Segmentation", "Killed", "core dumped")


def run_limited(args, np, limits, env=None):
    """g500 under mpirun with process limits (as `ulimit` sets them) on mpirun and every rank."""
    def set_limits():
        for which, value in limits:
            resource.setrlimit(which, (value, value))
    full_env = dict(os.environ, OMP_NUM_THREADS="1", **(env or {}))
    return subprocess.run([program.MPIRUN, "-np", str(np), program.G500] + args, capture_output=True, text=True,
                          timeout=300, env=full_env, preexec_fn=set_limits)


class MemoryLimits(unittest.TestCase):
    def test_a_cgroup_limit_below_the_estimate_is_refused_in_one_line(self):
        with tempfile.TemporaryDirectory() as root:
            # A cgroup v2 hierarchy as this process sees it ("0::/"), limited to 300 MiB.
            with open(os.path.join(root, "memory.max"), "w") as f:
                f.write("%d\n" % (300 << 20))
            with open(os.path.join(root, "memory.current"), "w") as f:
                f.write("0\n")
            env = dict(os.environ, OMP_NUM_THREADS="1", G500_CGROUP_ROOT=root)
            p = subprocess.run([program.MPIRUN, "-np", "2", program.G500, "--scale", "22", "--roots", "4", "-q"],
                               capture_output=True, text=True, timeout=300, env=env)
        self.assertNotEqual(p.returncode, 0)
        self.assertRegex(p.stderr, r"g500: error: not enough memory for SCALE 22: a memory cgroup .* needs about "
                                   r"\d+ MiB but has 300 MiB available")
        self.assertEqual(p.stdout, "")

    def test_a_real_cgroup_where_one_can_be_made(self):
        group = "/sys/fs/cgroup/memory/g500-limits-test-%d" % os.getpid()
        try:
            os.mkdir(group)
        except OSError:
            self.skipTest("no writable cgroup v1 memory hierarchy here (the fake hierarchy's test stands)")
        try:
            with open(os.path.join(group, "memory.limit_in_bytes"), "w") as f:
                f.write("%d\n" % (300 << 20))
            env = dict(os.environ, OMP_NUM_THREADS="1")
            p = subprocess.run(["sh", "-c", 'echo $$ > %s/cgroup.procs && exec "$@"' % group, "sh", program.MPIRUN,
                                "-np", "2", program.G500, "--scale", "22", "--roots", "4", "-q"],
                               capture_output=True, text=True, timeout=300, env=env)
        finally:
            os.rmdir(group)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("not enough memory for SCALE 22: a memory cgroup", p.stderr)

    def test_process_limits_end_in_one_line_never_an_abort(self):
        # Limits below, near and above the estimate: each run ends well, or in one of g500's lines.
        for which, name in ((resource.RLIMIT_AS, "ulimit -v"), (resource.RLIMIT_DATA, "ulimit -d")):
            for kib in (280000, 300000, 360000, 400000, 600000):
                for kernels in ("sssp", "bfs"):
                    with self.subTest(limit=name, kib=kib, kernels=kernels):
                        p = run_limited(["--scale", "19", "--roots", "4", "--kernels", kernels, "-q"], 2,
                                        [(which, kib * 1024)])
                        for sign in CRASH_SIGNS:
                            self.assertNotIn(sign, p.stderr)
                        if p.returncode != 0:
                            self.assertRegex(p.stderr, r"g500: error: (not enough memory for SCALE 19: a rank under "
                                                       r"its process limits|out of memory on rank \d)")
        low = run_limited(["--scale", "19", "--roots", "4", "--kernels", "sssp", "-q"], 2,
                          [(resource.RLIMIT_AS, 280000 * 1024)])
        self.assertIn("not enough memory for SCALE 19: a rank under its process limits", low.stderr)

    def test_the_refusal_names_the_smallest_need_as_the_plan_does(self):
        # SCALE 30 at -np 2 fits no machine here; the run's need a node is twice the plan's peak a
        # rank at validation batch 1, the batch the run would fall back to.
        p = program.run(["--scale", "30", "-q"], np=2)
        self.assertNotEqual(p.returncode, 0)
        need = float(re.search(r"a node needs about ([0-9.]+) GiB", p.stderr).group(1))
        plan = program.run(["plan", "--nodes", "1", "--ranks-per-node", "2", "--memory-per-node", "24GiB",
                            "--scale", "30"])
        self.assertIn("does not fit even with validation batch 1", plan.stdout)
        peak = float(re.search(r"^  peak\s+([0-9.]+) GiB a rank", plan.stdout, re.M).group(1))
        self.assertAlmostEqual(need, 2 * peak, delta=0.15)


class ScratchFiles(unittest.TestCase):
    """--relabel's scratch file of dense tuples, in $TMPDIR."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.scratch = os.path.join(self.tmp.name, "scratch")
        os.mkdir(self.scratch)
        self.graph = os.path.join(self.tmp.name, "g.bin")
        p = program.run(["generate", "--scale", "14", "-q", "-o", self.graph])
        self.assertEqual(p.returncode, 0, p.stderr)

    def tearDown(self):
        self.tmp.cleanup()

    def start(self):
        # Progress on every round, so the test knows when validation has begun.
        env = dict(os.environ, OMP_NUM_THREADS="1", TMPDIR=self.scratch, G500_PROGRESS_SECONDS="0")
        args = ["--input", self.graph, "--relabel", "on", "--roots", "64",
                "--output", os.path.join(self.tmp.name, "trees.txt")]
        return subprocess.Popen([program.MPIRUN, "-np", "2", program.G500] + args, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)

    def ours(self):
        """g500's files in $TMPDIR (Open MPI keeps its session folder there too)."""
        return [f for f in os.listdir(self.scratch) if f.startswith("g500-")]

    def wait_for_scratch(self, proc):
        """The scratch file, once the run validates its searches."""
        for line in proc.stderr:
            if line.startswith("g500: validating"):
                break
        self.assertEqual(len(self.ours()), 1, "no scratch file during validation")
        return self.ours()[0]

    def test_a_catchable_signal_removes_it(self):
        for sig in (signal.SIGTERM, signal.SIGINT):
            with self.subTest(signal=sig.name):
                proc = self.start()
                self.wait_for_scratch(proc)
                os.kill(proc.pid, sig)
                proc.communicate(timeout=120)
                self.assertNotEqual(proc.returncode, 0)
                self.assertEqual(self.ours(), [])

    def test_a_killed_runs_scratch_file_is_removed_by_the_next_run(self):
        proc = self.start()
        left = self.wait_for_scratch(proc)
        subprocess.run(["pkill", "-KILL", "-f", "^" + program.G500 + " --input " + self.graph])
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=120)
        self.assertEqual(self.ours(), [left])
        env = dict(os.environ, OMP_NUM_THREADS="1", TMPDIR=self.scratch)
        p = subprocess.run([program.MPIRUN, "-np", "2", program.G500, "--input", self.graph, "--relabel", "on",
                            "--roots", "2", "-q"], capture_output=True, text=True, timeout=300, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("g500: removed '%s', left by a run that was killed" % os.path.join(self.scratch, left), p.stderr)
        self.assertEqual(self.ours(), [])


class OutputsLandTogether(unittest.TestCase):
    def test_a_failed_json_leaves_the_earlier_trees_in_place(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "o.txt")
            with open(out, "w") as f:
                f.write("the earlier run's trees\n")
            p = program.run(["--scale", "10", "--roots", "2", "-q", "--output", out, "--output-format", "binary",
                             "--json", "/dev/full"], np=3)
            self.assertNotEqual(p.returncode, 0)
            self.assertIn("cannot write '/dev/full'", p.stderr)
            with open(out) as f:
                self.assertEqual(f.read(), "the earlier run's trees\n")
            self.assertEqual(os.listdir(tmp), ["o.txt"])
            # Both land when both can be written.
            p = program.run(["--scale", "10", "--roots", "2", "-q", "--output", out, "--json",
                             os.path.join(tmp, "j.json")], np=3)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(sorted(os.listdir(tmp)), ["j.json", "o.txt"])
            with open(out) as f:
                self.assertTrue(f.readline().startswith("bfs "))


class SmallClaims(unittest.TestCase):
    def test_roots_counted_and_named_at_once_are_refused(self):
        for extra in (["--root", "3"], ["--roots-file", "/dev/null"]):
            p = program.run(["--scale", "10", "--roots", "4", "-q"] + extra)
            self.assertNotEqual(p.returncode, 0)
            self.assertIn("--roots counts roots chosen by the seed", p.stderr)

    def test_text_weights_reach_the_largest_float32_and_no_further(self):
        with tempfile.TemporaryDirectory() as tmp:
            for weight, ok in (("3.4028234e38", True), ("3.1e38", True), ("3.5e38", False)):
                path = os.path.join(tmp, "w.el")
                # A star searched from its centre: no path sums two weights.
                with open(path, "w") as f:
                    f.write("".join("0 %d %s\n" % (i, weight) for i in range(1, 64)))
                p = program.run(["--input", path, "--kernels", "sssp", "--root", "0", "-q"], np=2)
                with self.subTest(weight=weight):
                    if ok:
                        self.assertEqual(p.returncode, 0, p.stderr)
                    else:
                        self.assertNotEqual(p.returncode, 0)
                        self.assertIn("is above the largest float32 weight", p.stderr)

    def test_a_file_rewritten_in_place_is_said_to_have_changed(self):
        with tempfile.TemporaryDirectory() as tmp:
            graph = os.path.join(tmp, "g.bin")
            other = os.path.join(tmp, "other.bin")
            program.run(["generate", "--scale", "15", "-q", "-o", graph])
            program.run(["generate", "--scale", "15", "--seed", "9", "-q", "-o", other])
            env = dict(os.environ, OMP_NUM_THREADS="1")
            proc = subprocess.Popen([program.MPIRUN, "-np", "2", program.G500, "--input", graph, "--roots", "64"],
                                    env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            for line in proc.stderr:
                if "kernel 1" in line:
                    break
            with open(other, "rb") as src, open(graph, "r+b") as dst:
                dst.write(src.read())  # the same size, another graph
            err = proc.stderr.read()
            proc.wait(timeout=300)
            self.assertNotEqual(proc.returncode, 0)
            self.assertIn("g.bin' changed while it was being read", err)
            self.assertNotIn("validation failed", err)

    def test_a_plus_sign_is_read_as_the_references_atoi_reads_it(self):
        bfs = os.path.join(os.path.dirname(program.G500), "g500-bfs")
        env = dict(os.environ, OMP_NUM_THREADS="1")
        p = subprocess.run([program.MPIRUN, "-np", "2", bfs, "+8", "-q"], capture_output=True, text=True, timeout=300,
                           env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertRegex(p.stdout, r"SCALE:\s+8\n")


class Plan(unittest.TestCase):
    def plan(self, *args):
        return program.run(["plan", "--nodes", "1", "--ranks-per-node", "2"] + list(args))

    def test_a_machine_that_holds_nothing_is_refused(self):
        for memory in ("32KiB", "1k", "1e-9G"):
            with self.subTest(memory=memory):
                p = self.plan("--memory-per-node", memory)
                self.assertNotEqual(p.returncode, 0)
                self.assertIn("g500: error: no SCALE fits this machine", p.stderr)
                self.assertEqual(p.stdout, "")

    def test_sizes_are_decimal_in_one_set_of_units(self):
        for memory in ("0x20G", "32 GiBs", "-1G", "inf", "0.1B"):
            with self.subTest(memory=memory):
                p = self.plan("--memory-per-node", memory)
                self.assertNotEqual(p.returncode, 0)
                self.assertIn("--memory-per-node must be", p.stderr)
        for memory, rank in (("24GiB", "12.0 GiB a rank"), ("24GB", "11.2 GiB a rank"), ("1P", "512.0 TiB a rank")):
            self.assertIn(rank, self.plan("--memory-per-node", memory).stdout)

    def test_kernels_given_twice_are_refused(self):
        for args in (["plan", "--nodes", "1", "--ranks-per-node", "2", "--memory-per-node", "24GiB"], ["--scale", "8"]):
            p = program.run(args + ["--kernels", "bfs", "--kernels=sssp"])
            self.assertNotEqual(p.returncode, 0)
            self.assertIn("--kernels is given twice", p.stderr)

    def test_the_plans_peak_is_the_runs_estimate(self):
        # The plan made in a process of another thread count than the run's ranks: one number all the same.
        with tempfile.TemporaryDirectory() as tmp:
            for np, scale in ((2, 14), (3, 16)):
                with self.subTest(np=np, scale=scale):
                    j = os.path.join(tmp, "r.json")
                    p = program.run(["--scale", str(scale), "-q", "--json", j], np=np)
                    self.assertEqual(p.returncode, 0, p.stderr)
                    with open(j) as f:
                        estimate = json.load(f)["memory"]["estimate_per_rank"] / 2 ** 20
                    plan = program.run(["plan", "--nodes", "1", "--ranks-per-node", str(np), "--memory-per-node",
                                        "24GiB", "--scale", str(scale)], threads=None)
                    peak = float(re.search(r"^  peak\s+([0-9.]+) MiB a rank", plan.stdout, re.M).group(1))
                    self.assertAlmostEqual(peak, estimate, delta=0.051)

    def test_the_figures_quoted_in_the_docs_are_the_plans(self):
        with open(os.path.join(REPO, "docs", "options.md")) as f:
            quoted = re.findall(r"`g500 plan ([^`]+)`: `(largest SCALE: \d+)`", f.read())
        self.assertGreaterEqual(len(quoted), 5)
        for args, says in quoted:
            with self.subTest(args=args):
                p = program.run(["plan"] + args.split())
                self.assertIn(says + " ", p.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
