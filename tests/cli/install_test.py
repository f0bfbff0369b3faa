"""`cmake --install` puts g500, its drop-ins for the reference's programs and g500-plot under a prefix, and
the installed g500 says what it is."""
import os
import re
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import program  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
BUILD = os.path.dirname(program.G500)


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        return re.search(r"project\(g500 VERSION ([0-9.]+)", f.read()).group(1)


class Install(unittest.TestCase):
    def test_install_puts_both_programs_under_the_prefix(self):
        with tempfile.TemporaryDirectory() as prefix:
            p = subprocess.run(["cmake", "--install", BUILD, "--prefix", prefix], capture_output=True, text=True,
                               timeout=120)
            self.assertEqual(p.returncode, 0, p.stderr)
            for name in ("g500", "g500-plot"):
                path = os.path.join(prefix, "bin", name)
                self.assertTrue(os.access(path, os.X_OK), path)
            installed = os.path.join(prefix, "bin", "g500")
            v = subprocess.run([installed, "--version"], capture_output=True, text=True, timeout=60)
            self.assertEqual(v.returncode, 0, v.stderr)
            lines = v.stdout.splitlines()
            self.assertEqual(lines[0], "g500 " + project_version())
            self.assertIn("hybrid-1d", v.stdout)
            self.assertTrue(any(line.startswith("CUDA: no") for line in lines), v.stdout)
            self.assertTrue(any(line.startswith("MPI: ") and ("(MPI 3." in line or "(MPI 4." in line) for line in lines),
                            v.stdout)
            plot = subprocess.run([os.path.join(prefix, "bin", "g500-plot"), "--help"], capture_output=True,
                                  text=True, timeout=60)
            self.assertEqual(plot.returncode, 0, plot.stderr)
            self.assertIn("levels", plot.stdout)
            # The installed binary runs a benchmark like the built one.
            run = subprocess.run([installed, "--scale", "8", "--roots", "2", "-q"], capture_output=True, text=True,
                                 timeout=120, env=dict(os.environ, OMP_NUM_THREADS="1"))
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertEqual(program.statistics(run.stdout)["validation"], "passed")
            # The reference's two programs, as links to the installed g500, run as the reference does.
            for name in ("g500-bfs", "g500-bfs-sssp"):
                link = os.path.join(prefix, "bin", name)
                self.assertEqual(os.readlink(link), "g500")
                ran = subprocess.run([link, "8", "16", "--roots", "2"], capture_output=True, text=True, timeout=120,
                                     env=dict(os.environ, OMP_NUM_THREADS="1"))
                self.assertEqual(ran.returncode, 0, ran.stderr)
                self.assertIn("bfs  harmonic_mean_TEPS:     !  ", ran.stdout)
                self.assertEqual("sssp harmonic_mean_TEPS:     !  " in ran.stdout, name == "g500-bfs-sssp")

    def test_version_under_mpirun_prints_once(self):
        p = program.run(["--version"], np=2)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.count("g500 "), 1, p.stdout)


if __name__ == "__main__":
    unittest.main()
