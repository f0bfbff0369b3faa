#!/usr/bin/env python3
"""g500-plot draws each of its plots from a small real run (and a small real sweep): the PNG has
the size the plot asks for and is not blank; bad input files give a one-line error."""
import os
import struct
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import program  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))
PLOT = os.path.join(REPO, "scripts", "g500-plot")
SWEEP = os.path.join(REPO, "bench", "coalescing_sweep.py")
# Figure size (inches) x 100 dpi, as g500-plot draws each kind.
SIZES = {"levels": (900, 500), "traffic": (1100, 450), "matrix": (650, 550), "sweep": (1100, 450),
         "buckets": (1100, 450)}


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", head[16:24])


class PlotTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.run_json = os.path.join(cls.tmp.name, "run.json")
        p = program.run(["--scale", "10", "--roots", "3", "--bfs", "top-down-1d", "--kernels", "bfs,sssp",
                         "--comm-matrix", "--quiet", "--json", cls.run_json], np=3)
        assert p.returncode == 0, p.stderr
        cls.sweep_json = os.path.join(cls.tmp.name, "sweep.json")
        s = subprocess.run([sys.executable, SWEEP, "--binary", program.G500, "--scale", "9", "--np", "2", "--roots",
                            "2", "--sizes", "16,128,1024", "-o", cls.sweep_json], capture_output=True, text=True,
                           timeout=300)
        assert s.returncode == 0, s.stderr

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def plot(self, kind, source):
        out = os.path.join(self.tmp.name, kind + ".png")
        p = subprocess.run([PLOT, kind, source, "-o", out], capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        return out

    def assert_drawn(self, path):
        import matplotlib.image
        pixels = matplotlib.image.imread(path)[:, :, :3]
        inked = (pixels.sum(axis=2) < 2.7).mean()  # share of pixels that are not (near) white
        self.assertGreater(inked, 0.02, f"{path} is blank")
        self.assertGreater(pixels.std(), 0.05)

    def test_each_plot(self):
        for kind in ("levels", "traffic", "matrix", "timeline", "sweep", "buckets"):
            with self.subTest(kind=kind):
                out = self.plot(kind, self.sweep_json if kind == "sweep" else self.run_json)
                width, height = png_size(out)
                if kind == "timeline":  # 10 inches wide; height grows with the ranks
                    self.assertEqual(width, 1000)
                    self.assertEqual(height, int(round((1.2 + 0.45 * 3) * 100)))
                else:
                    self.assertEqual((width, height), SIZES[kind])
                self.assert_drawn(out)

    def test_help(self):
        p = subprocess.run([PLOT, "--help"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0)
        self.assertIn("timeline", p.stdout)

    def test_bad_files_are_one_line_errors(self):
        truncated = os.path.join(self.tmp.name, "truncated.json")
        with open(self.run_json) as f, open(truncated, "w") as g:
            g.write(f.read()[:500])
        foreign = os.path.join(self.tmp.name, "foreign.json")
        with open(foreign, "w") as g:
            g.write('{"hello": [1, 2, 3]}\n')
        no_matrix = os.path.join(self.tmp.name, "no_matrix.json")
        p = program.run(["--scale", "8", "--roots", "2", "--quiet", "--json", no_matrix], np=2)
        self.assertEqual(p.returncode, 0, p.stderr)
        cases = [("levels", os.path.join(self.tmp.name, "missing.json"), "cannot read"),
                 ("levels", truncated, "not complete JSON"),
                 ("traffic", foreign, "not a g500 result"),
                 ("sweep", self.run_json, "not a coalescing sweep"),
                 ("matrix", no_matrix, "--comm-matrix"),
                 ("buckets", no_matrix, "no SSSP searches")]
        for kind, path, expect in cases:
            with self.subTest(kind=kind, path=os.path.basename(path)):
                p = subprocess.run([PLOT, kind, path, "-o", os.path.join(self.tmp.name, "x.png")],
                                   capture_output=True, text=True)
                self.assertEqual(p.returncode, 1)
                lines = p.stderr.strip().splitlines()
                self.assertEqual(len(lines), 1, p.stderr)
                self.assertTrue(lines[0].startswith("g500-plot: error:"), lines[0])
                self.assertIn(expect, lines[0])


if __name__ == "__main__":
    unittest.main()
