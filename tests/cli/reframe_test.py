"""The ReFrame check (reframe/g500.py) run through ReFrame itself, on this machine's configuration
(reframe/settings.py): sane and reporting every performance variable when the run validates; not
sane when a search fails validation."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
FIGURES = ["bfs_harmonic_mean_TEPS", "sssp_harmonic_mean_TEPS", "bfs_mean_time", "sssp_mean_time",
           "construction_time", "bfs_mean_validate", "sssp_mean_validate"]


def reframe_command():
    """The reframe script scripts/install-deps.sh installed: on PATH, beside this python, or in the
    user's scripts folder."""
    for candidate in (shutil.which("reframe"), os.path.join(os.path.dirname(sys.executable), "reframe"),
                      os.path.expanduser("~/.local/bin/reframe")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    raise AssertionError("no reframe command: scripts/install-deps.sh installs reframe-hpc")


def reframe(*settings):
    with tempfile.TemporaryDirectory() as prefix:
        cmd = [reframe_command(), "-C", os.path.join(ROOT, "reframe", "settings.py"), "-c",
               os.path.join(ROOT, "reframe", "g500.py"), "--prefix", prefix, "-S",
               "g500_binary=" + os.environ["G500"], "-S", "scale=10", "-S", "roots=8", "-r"]
        for s in settings:
            cmd += ["-S", s]
        env = dict(os.environ, RFM_REPORT_FILE=os.path.join(prefix, "report.json"), RFM_SAVE_LOG_FILES="n")
        return subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)


class ReFrameCheck(unittest.TestCase):
    def test_a_validated_run_is_sane_and_reports_every_figure(self):
        p = reframe()
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("PASSED", p.stdout)
        for figure in FIGURES:
            line = [l for l in p.stdout.splitlines() if l.startswith("P: %s: " % figure)]
            self.assertEqual(len(line), 1, figure)
            self.assertGreater(float(line[0].split()[2]), 0, line[0])

    def test_a_failed_validation_is_not_sane(self):
        p = reframe("extra_opts=--inject-fault")
        self.assertNotEqual(p.returncode, 0, p.stdout)
        self.assertIn("FAILED", p.stdout)
        self.assertIn("sanity", p.stdout.lower())


if __name__ == "__main__":
    unittest.main(verbosity=2)
