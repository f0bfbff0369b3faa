"""g500-smpi (make sim) on a simulated cluster (SimGrid's SMPI): 16 ranks on the fat tree and on the
torus, every search validated, the same per-level counts as the real binary at the same rank
count, and the simulated clock (not the wall clock) in its times."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SMPI = os.environ.get("G500_SMPI_BINARY", os.path.join(ROOT, "build-smpi", "g500-smpi"))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from simulate import PLATFORMS, SMPI_CONFIG  # noqa: E402  (the lab's settings, docs/scale.md)


def simulate(platform_xml, ranks, args, folder, per_node=1):
    hosts = os.path.join(folder, "hosts")
    with open(hosts, "w") as f:
        f.writelines("node-%d\n" % (r // per_node) for r in range(ranks))
    out = os.path.join(folder, "sim.json")
    cmd = ["smpirun", "-np", str(ranks), "-platform", platform_xml, "-hostfile", hosts] + SMPI_CONFIG + [SMPI] + \
        args + ["-q", "--json", out]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=dict(os.environ, OMP_NUM_THREADS="1"))
    return p, (json.load(open(out)) if p.returncode == 0 else None)


def levels(result):
    return [[(l["level"], l["discovered"]) for l in r["levels"]] for r in result["runs"]]


class Simulated(unittest.TestCase):
    def test_sixteen_simulated_ranks_validate_and_agree_with_the_real_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            real_out = os.path.join(tmp, "real.json")
            real = subprocess.run([os.path.join(ROOT, "scripts", "mpirun"), "-np", "16", os.environ["G500"], "--scale",
                                   "14", "--roots", "4", "-q", "--json", real_out], capture_output=True, text=True,
                                  timeout=300, env=dict(os.environ, OMP_NUM_THREADS="1"))
            self.assertEqual(real.returncode, 0, real.stderr)
            with open(real_out) as f:
                expect = levels(json.load(f))
            for platform, per_node in (("fat_tree_ib", 1), ("torus_tofu", 4)):
                for engine in ("hybrid-1d", "hybrid-2d"):
                    with self.subTest(platform=platform, engine=engine):
                        p, result = simulate(os.path.join(PLATFORMS, platform + ".xml"), 16, ["--scale", "14", "--roots", "4", "--bfs", engine], tmp,
                                             per_node)
                        self.assertEqual(p.returncode, 0, p.stderr[-2000:])
                        self.assertTrue(result["validated"])
                        self.assertTrue(all(r["result"] == "valid" for r in result["runs"]))
                        self.assertEqual(levels(result), expect)
                        self.assertEqual(result["traffic"]["nodes"], 16 // per_node)

    def test_kernel_3_validates_on_sixteen_simulated_ranks(self):
        # The lab runs kernel 3's alltoallv (SMPI hangs in the sparse exchange) and refuses sparse.
        with tempfile.TemporaryDirectory() as tmp:
            fat_tree = os.path.join(PLATFORMS, "fat_tree_ib.xml")
            p, result = simulate(fat_tree, 16, ["--scale", "12", "--roots", "2", "--kernels", "sssp"], tmp, 4)
            self.assertEqual(p.returncode, 0, p.stderr[-2000:])
            self.assertTrue(result["validated"])
            self.assertEqual(result["options"]["sssp_exchange"], "alltoallv")
            p, _ = simulate(fat_tree, 4, ["--scale", "10", "--kernels", "sssp", "--sssp-exchange", "sparse"], tmp, 4)
            self.assertNotEqual(p.returncode, 0)
            self.assertIn("--sssp-exchange sparse does not run under SimGrid's SMPI", p.stdout + p.stderr)

    def test_the_noise_probe_times_fixed_work(self):
        # bench/simulate.py noise: the same burst on every rank, timed by the lab's clock.
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "noise.json")
            p = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "simulate.py"), "noise", "--ranks", "4,8",
                                "--levels", "5", "-o", out], capture_output=True, text=True, timeout=300,
                               env=dict(os.environ, OMP_NUM_THREADS="1"))
            self.assertEqual(p.returncode, 0, p.stderr[-2000:])
            with open(out) as f:
                rows = json.load(f)["rows"]
            self.assertEqual([r["ranks"] for r in rows], [4, 8])
            for r in rows:
                self.assertGreater(r["mean_burst"], 0)
                self.assertGreaterEqual(r["mean_slowest_burst"], r["mean_burst"])
                self.assertLessEqual(r["p50"], r["p99"])
                self.assertLessEqual(r["p99"], r["max"])

    def test_the_simulated_clock_follows_the_links(self):
        # The same run on a platform whose links are 1000 times slower takes longer in simulated time.
        with tempfile.TemporaryDirectory() as tmp:
            slow = os.path.join(tmp, "slow.xml")
            fat_tree = os.path.join(PLATFORMS, "fat_tree_ib.xml")
            with open(fat_tree) as f:
                text = f.read().replace('bw="12.5GBps" lat="1us"', 'bw="12.5MBps" lat="1ms"')
            with open(slow, "w") as f:
                f.write(text)
            args = ["--scale", "12", "--roots", "4", "--skip-validation"]
            p, fast = simulate(fat_tree, 8, args, tmp)
            self.assertEqual(p.returncode, 0, p.stderr[-2000:])
            p, slow_result = simulate(slow, 8, args, tmp)
            self.assertEqual(p.returncode, 0, p.stderr[-2000:])
            self.assertGreater(slow_result["statistics"]["time"]["mean"], 10 * fast["statistics"]["time"]["mean"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
