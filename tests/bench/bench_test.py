#!/usr/bin/env python3
"""The bench scripts: every one loads and answers --help; the shared module (bench/benchlib.py)
records commands without a machine's paths, reads figures, and runs settings in turn; and
bench/ab_compare.py compares two real runs end to end and writes its record."""
import glob
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BENCH = os.path.join(REPO, "bench")
sys.path.insert(0, BENCH)
import benchlib  # noqa: E402

G500 = os.environ.get("G500", os.path.join(REPO, "build", "g500"))


class ScriptsTest(unittest.TestCase):
    def test_every_script_loads_and_answers_help(self):
        scripts = sorted(glob.glob(os.path.join(BENCH, "*.py")))
        self.assertGreater(len(scripts), 10)
        for script in scripts:
            if os.path.basename(script) == "benchlib.py":
                continue
            p = subprocess.run([sys.executable, script, "--help"], capture_output=True, text=True, timeout=60)
            self.assertEqual(p.returncode, 0, "%s --help: %s" % (script, p.stderr[-500:]))
            self.assertIn("usage", p.stdout.lower(), script)

    def test_no_script_rewrites_the_shared_helpers(self):
        shared = ("def shown(", "def execute(", "def number(", "def peaks(", "def mpirun(", "def timed(")
        for script in glob.glob(os.path.join(BENCH, "*.py")):
            if os.path.basename(script) == "benchlib.py":
                continue
            with open(script) as f:
                text = f.read()
            for helper in shared:
                self.assertNotIn(helper, text, "%s defines %s): use benchlib's" % (script, helper))


class BenchlibTest(unittest.TestCase):
    def test_shown_keeps_no_machine_paths(self):
        benchlib.name_peer("/opt/peers/gapbs/bfs", "GAPBS/bfs")
        cmd = benchlib.mpirun(2) + [os.path.join(REPO, "build", "g500"), "/tmp/x/g500-new", "/opt/peers/gapbs/bfs",
                                    "--scale", "20"]
        self.assertEqual(benchlib.shown(cmd), "scripts/mpirun -np 2 build/g500 g500-new GAPBS/bfs --scale 20")

    def test_timed_goes_after_the_mpirun_words(self):
        self.assertEqual(benchlib.timed(benchlib.mpirun(3) + ["a", "b"]),
                         ["scripts/mpirun", "-np", "3", "/usr/bin/time", "-v", "a", "b"])
        self.assertEqual(benchlib.timed(["a"]), ["/usr/bin/time", "-v", "a"])

    def test_figures_are_read_from_text(self):
        text = "x\nmean_time: 0.25\nharmonic_mean_TEPS: ! 3.5e9\n"
        self.assertEqual(benchlib.number(r"^mean_time:\s+(\S+)", text), 0.25)
        self.assertEqual(benchlib.number(r"^harmonic_mean_TEPS:\s+!?\s*(\S+)", text), 3.5e9)
        self.assertIsNone(benchlib.number(r"^median_time:\s+(\S+)", text))
        self.assertEqual(benchlib.peaks("Maximum resident set size (kbytes): 10\n"
                                        "Maximum resident set size (kbytes): 3\n"), [10240, 3072])

    def test_settings_run_in_turn(self):
        order = []
        runs = benchlib.in_turn({"a": 1, "b": 2}, 3, lambda s: order.append(s) or s * 10)
        self.assertEqual(order, [1, 2, 1, 2, 1, 2])
        self.assertEqual(runs, {"a": [10, 10, 10], "b": [20, 20, 20]})
        r = benchlib.ratios([{"t": 2.0}, {"t": 3.0}, {"t": 1.0}], [{"t": 1.0}, {"t": 2.0}, {"t": 2.0}], "t")
        self.assertEqual(r["ratios"], [2.0, 1.5, 0.5])
        self.assertEqual((r["median"], r["min"], r["max"]), (1.5, 0.5, 2.0))


@unittest.skipUnless(os.path.exists(G500), "g500 is not built")
class AbCompareTest(unittest.TestCase):
    def test_two_real_runs_give_a_record(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "ab.json")
            p = subprocess.run([sys.executable, os.path.join(BENCH, "ab_compare.py"), "--a", G500, "--b", G500,
                                "--pairs", "2", "--np", "2", "--b-args", "--bfs top-down-1d", "--out", out,
                                "--a-is", "hybrid-1d", "--b-is", "top-down-1d", "--", "--scale", "10", "--roots", "4"],
                               capture_output=True, text=True, timeout=300,
                               env=dict(os.environ, OMP_WAIT_POLICY="passive"))
            self.assertEqual(p.returncode, 0, p.stderr[-2000:])
            with open(out) as f:
                record = json.load(f)
        self.assertTrue(record["b"].endswith("--scale 10 --roots 4 --bfs top-down-1d"), record["b"])
        self.assertNotIn(tmp, record["a"] + record["b"])
        for key in ("mean_time", "harmonic_mean_teps", "construction_time", "mean_validate"):
            figures = record["summary"][key]
            self.assertEqual(len(figures["ratios_a_over_b"]), 2)
            self.assertGreater(figures["median_a"], 0)
            self.assertGreater(figures["median_b"], 0)


if __name__ == "__main__":
    unittest.main()
