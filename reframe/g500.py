# A ReFrame regression test for g500 (reframe-hpc, https://reframe-hpc.readthedocs.io): runs the
# benchmark at a chosen SCALE, engine and rank count, is sane only when every search was validated
# and g500 exited 0, and reports the figures a centre tracks as performance variables.
#
#   reframe -C reframe/settings.py -c reframe/g500.py -r                    # this machine (CI)
#   reframe -C SITE_SETTINGS -c reframe/g500.py -r --system cluster:batch \
#       -S g500_binary=$HOME/g500/bin/g500 -S scale=26 -S num_tasks=64        # a cluster (docs/reframe.md)
#
# A site sets its references by subclassing G500Check (or by editing `reference`): each figure as
# (value, lower, upper, unit), lower and upper as fractions (-0.1: at most 10% below).
import os

import reframe as rfm
import reframe.utility.sanity as sn
import reframe.utility.typecheck as typ
from reframe.core.builtins import run_before, sanity_function, variable

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@rfm.simple_test
class G500Check(rfm.RunOnlyRegressionTest):
    descr = "g500: Graph500 BFS (kernel 2) and SSSP (kernel 3), every search validated"
    valid_systems = ["*"]
    valid_prog_environs = ["*"]
    g500_binary = variable(str, value=os.path.join(REPO, "build", "g500"))
    scale = variable(int, value=14)
    engine = variable(str, value="auto")  # g500 --bfs: auto picks by rank count
    kernels = variable(str, value="bfs,sssp")
    roots = variable(int, value=64)
    extra_opts = variable(typ.List[str], value=[])  # more g500 options, e.g. --validation-batch 8
    num_tasks = 2
    num_cpus_per_task = 1
    time_limit = "30m"
    # The figures reported, and their units.
    FIGURES = {"bfs_harmonic_mean_TEPS": "TEPS", "sssp_harmonic_mean_TEPS": "TEPS", "bfs_mean_time": "s",
               "sssp_mean_time": "s", "construction_time": "s", "bfs_mean_validate": "s", "sssp_mean_validate": "s"}
    # No figure is required by default: a site puts its own here.
    reference = {"*": {name: (0, None, None, unit) for name, unit in FIGURES.items()}}

    @run_before("run")
    def set_command(self):
        self.executable = self.g500_binary
        self.executable_opts = ["--scale", str(self.scale), "--bfs", self.engine, "--kernels", self.kernels,
                                "--roots", str(self.roots), "--quiet"] + list(self.extra_opts)
        self.env_vars["OMP_NUM_THREADS"] = str(self.num_cpus_per_task)

    @sanity_function
    def every_search_validated(self):
        return sn.all([
            sn.assert_eq(self.job.exitcode, 0, msg="g500 exited {0}"),
            sn.assert_found(r"^validation: passed$", self.stdout),
            sn.assert_not_found(r"g500: error", self.stderr),
        ])

    @run_before("performance")
    def set_perf_variables(self):
        # Each figure as the statistics block prints it ("bfs_harmonic_mean_TEPS: 4.01e+09").
        self.perf_variables = {
            name: sn.make_performance_function(
                sn.extractsingle(r"^%s: (?P<value>\S+)$" % name, self.stdout, "value", float), unit)
            for name, unit in self.FIGURES.items()
        }
