"""What an HPC centre's tools read (issue 31): the reference's statistics spelling against the
reference's own output (recorded fixtures), the energy loop, progress on long phases."""
import os
import re
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import program  # noqa: E402

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
# Scraper-style figure-of-merit patterns, as harnesses written for reference 3.0 spell them: the
# key with its exact spacing, then the value.
FOM = {name: re.compile(r"^%s:\s+(?:!\s+)?(?P<fom>[-+0-9.eE]+)$" % re.escape(key), re.MULTILINE)
       for name, key in [
           ("scale", "SCALE"), ("edgefactor", "edgefactor"), ("nbfs", "NBFS"), ("generation", "graph_generation"),
           ("processes", "num_mpi_processes"), ("construction", "construction_time"),
           ("bfs_mean_time", "bfs  mean_time"), ("bfs_median_time", "bfs  median_time"),
           ("bfs_hmean_teps", "bfs  harmonic_mean_TEPS"), ("bfs_hstddev_teps", "bfs  harmonic_stddev_TEPS"),
           ("bfs_min_teps", "bfs  min_TEPS"), ("bfs_max_teps", "bfs  max_TEPS"),
           ("bfs_mean_validate", "bfs  mean_validate"), ("mean_nedge", "mean_nedge"),
           ("sssp_mean_time", "sssp mean_time"), ("sssp_hmean_teps", "sssp harmonic_mean_TEPS"),
           ("sssp_mean_validate", "sssp mean_validate")]}


def keys_and_columns(text):
    """Each line's key (up to ':'), and the text before its value (key, spacing and any '!')."""
    out = []
    for line in text.splitlines():
        m = re.match(r"^(?P<lead>(?P<key>[^:]+):\s+(?:!\s+)?)\S+$", line)
        assert m, "not a statistics line: %r" % line
        out.append((m.group("key"), m.group("lead")))
    return out


class ReferenceSpelling(unittest.TestCase):
    def check_against(self, fixture, kernels):
        with open(os.path.join(FIXTURES, fixture)) as f:
            reference = f.read()
        p = program.run(["--scale", "10", "--kernels", kernels, "--stats-style", "reference", "-q"], np=2)
        self.assertEqual(p.returncode, 0, p.stderr)
        ours, theirs = keys_and_columns(p.stdout), keys_and_columns(reference)
        self.assertEqual([k for k, _ in ours], [k for k, _ in theirs])  # the keys, in order
        self.assertEqual(ours, theirs)  # byte for byte up to each value
        for name, pattern in FOM.items():
            if name.startswith("sssp") and "sssp" not in kernels:
                continue
            with self.subTest(fom=name):
                self.assertIsNotNone(pattern.search(reference), "the pattern misses the reference's own output")
                self.assertIsNotNone(pattern.search(p.stdout))
        return p.stdout

    def test_bfs_and_sssp_as_reference_3_prints_them(self):
        out = self.check_against("reference_3.0_bfs_sssp_s10_np2.txt", "bfs,sssp")
        self.assertIn("bfs  harmonic_mean_TEPS:     !  ", out)

    def test_bfs_alone_as_reference_3_prints_it(self):
        self.check_against("reference_3.0_bfs_s10_np2.txt", "bfs")

    def test_the_spec_style_stays_the_default(self):
        p = program.run(["--scale", "10", "--roots", "4", "-q"], np=2)
        self.assertIn("bfs_harmonic_mean_TEPS: ", p.stdout)
        self.assertNotIn("bfs  harmonic_mean_TEPS", p.stdout)


class EnergyLoop(unittest.TestCase):
    def test_without_counters_the_loop_runs_and_says_so(self):
        with tempfile.TemporaryDirectory() as empty:
            env_root = os.environ.get("G500_POWERCAP_ROOT")
            os.environ["G500_POWERCAP_ROOT"] = empty
            try:
                p = program.run(["--scale", "10", "--roots", "4", "--kernels", "bfs,sssp", "--energy-loop", "0.5"], np=2)
            finally:
                if env_root is None:
                    del os.environ["G500_POWERCAP_ROOT"]
                else:
                    os.environ["G500_POWERCAP_ROOT"] = env_root
        self.assertEqual(p.returncode, 0, p.stderr)
        stats = program.statistics(p.stdout)
        for kernel in ("bfs", "sssp"):
            self.assertGreaterEqual(float(stats[kernel + "_energy_loop_seconds"]), 0.5)
            self.assertGreaterEqual(int(stats[kernel + "_energy_loop_searches"]), 1)
            self.assertNotIn(kernel + "_energy_joules", stats)
        self.assertIn("energy counters: none under " + empty, p.stderr)

    def test_with_counters_joules_watts_and_teps_per_watt_are_reported(self):
        with tempfile.TemporaryDirectory() as root:
            for name, energy in (("intel-rapl:0", 1000), ("intel-rapl:1", 2000)):
                os.makedirs(os.path.join(root, name))
                with open(os.path.join(root, name, "energy_uj"), "w") as f:
                    f.write("%d\n" % energy)
                with open(os.path.join(root, name, "max_energy_range_uj"), "w") as f:
                    f.write("262143328850\n")
            os.environ["G500_POWERCAP_ROOT"] = root
            try:
                p = program.run(["--scale", "10", "--roots", "4", "--energy-loop", "0.3", "--json",
                                 os.path.join(root, "r.json")], np=2)
            finally:
                del os.environ["G500_POWERCAP_ROOT"]
            self.assertEqual(p.returncode, 0, p.stderr)
            stats = program.statistics(p.stdout)
            # The fixture's counters stand still: zero joules, read and reported.
            self.assertEqual(float(stats["bfs_energy_joules"]), 0)
            self.assertIn("bfs_TEPS_per_watt", stats)
            import json
            with open(os.path.join(root, "r.json")) as f:
                energy = json.load(f)["energy"]["bfs"]
            self.assertTrue(energy["counters"])
            self.assertEqual(energy["joules"], 0)

    def test_a_bad_duration_is_refused(self):
        p = program.run(["--energy-loop", "-1"])
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("--energy-loop must be a number of seconds", p.stderr)


class Progress(unittest.TestCase):
    def test_long_phases_report_progress_and_quiet_silences_it(self):
        os.environ["G500_PROGRESS_SECONDS"] = "0"  # every round is "long" here
        try:
            loud = program.run(["--scale", "12", "--roots", "4"], np=2)
            quiet = program.run(["--scale", "12", "--roots", "4", "-q"], np=2)
        finally:
            del os.environ["G500_PROGRESS_SECONDS"]
        self.assertEqual(loud.returncode, 0, loud.stderr)
        for phase in ("generation", "kernel 1", "kernel 1, pass 2", "validating BFS searches 1-4"):
            self.assertRegex(loud.stderr, r"g500: %s: \d+%% after [0-9.]+ s, about [0-9.]+ s left" % re.escape(phase))
        self.assertEqual(quiet.stderr, "")
        # The statistics are the same block either way.
        self.assertEqual([l.split(":")[0] for l in loud.stdout.splitlines()],
                         [l.split(":")[0] for l in quiet.stdout.splitlines()])

    def test_short_phases_print_nothing(self):
        p = program.run(["--scale", "10", "--roots", "4"], np=2)
        self.assertNotRegex(p.stderr, r"% after")


if __name__ == "__main__":
    unittest.main(verbosity=2)
