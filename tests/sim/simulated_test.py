"""g500-smpi (make sim) on a simulated cluster (SimGrid's SMPI): 16 ranks on the fat tree and on the
torus, every search validated, the same per-level counts as the real binary at the same rank
count, and the simulated clock (not the wall clock) in its times."""
import json
import os
import subprocess
import tempfile
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SMPI = os.environ.get("G500_SMPI_BINARY", os.path.join(ROOT, "build-smpi", "g500-smpi"))
# As bench/simulate.py runs it (docs/scale.md): globals per rank, this machine's speed, Open MPI's
# collective algorithms.
SMPI_CONFIG = ["--cfg=smpi/privatization:dlopen", "--cfg=smpi/host-speed:1Gf", "--cfg=smpi/coll-selector:ompi",
               "--cfg=smpi/test:1e-6", "--cfg=smpi/iprobe:1e-6", "--cfg=smpi/grow-injected-times:no",
               "--log=root.thresh:warning"]


def simulate(platform, ranks, args, folder, per_node=1):
    hosts = os.path.join(folder, "hosts")
    with open(hosts, "w") as f:
        f.writelines("node-%d\n" % (r // per_node) for r in range(ranks))
    out = os.path.join(folder, "sim.json")
    cmd = ["smpirun", "-np", str(ranks), "-platform", os.path.join(ROOT, "sim", "platforms", platform + ".xml"),
           "-hostfile", hosts] + SMPI_CONFIG + [SMPI] + args + ["-q", "--json", out]
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
                        p, result = simulate(platform, 16, ["--scale", "14", "--roots", "4", "--bfs", engine], tmp,
                                             per_node)
                        self.assertEqual(p.returncode, 0, p.stderr[-2000:])
                        self.assertTrue(result["validated"])
                        self.assertTrue(all(r["result"] == "valid" for r in result["runs"]))
                        self.assertEqual(levels(result), expect)
                        self.assertEqual(result["traffic"]["nodes"], 16 // per_node)

    def test_the_simulated_clock_follows_the_links(self):
        # The same run on a platform whose links are 1000 times slower takes longer in simulated time.
        with tempfile.TemporaryDirectory() as tmp:
            slow = os.path.join(tmp, "slow.xml")
            with open(os.path.join(ROOT, "sim", "platforms", "fat_tree_ib.xml")) as f:
                text = f.read().replace('bw="12.5GBps" lat="1us"', 'bw="12.5MBps" lat="1ms"')
            with open(slow, "w") as f:
                f.write(text)
            args = ["--scale", "12", "--roots", "4", "--skip-validation"]
            _, fast = simulate("fat_tree_ib", 8, args, tmp)
            hosts = os.path.join(tmp, "hosts")
            p = subprocess.run(["smpirun", "-np", "8", "-platform", slow, "-hostfile", hosts] + SMPI_CONFIG + [SMPI] + args + ["-q", "--json", os.path.join(tmp, "s.json")],
                               capture_output=True, text=True, timeout=300, env=dict(os.environ, OMP_NUM_THREADS="1"))
            self.assertEqual(p.returncode, 0, p.stderr[-2000:])
            with open(os.path.join(tmp, "s.json")) as f:
                slow_result = json.load(f)
            self.assertGreater(slow_result["statistics"]["time"]["mean"], 10 * fast["statistics"]["time"]["mean"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
