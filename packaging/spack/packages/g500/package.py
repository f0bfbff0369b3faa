# g500 for Spack, written to Spack's documented package conventions (CMakePackage, CudaPackage).
# Not installed by this project's tests: Spack is not in the package registries its machines
# reach (docs/install.md says what was and was not run).
from spack.package import *


class G500(CMakePackage, CudaPackage):
    """g500: the Graph500 benchmark on MPI + OpenMP. It runs the Kronecker generator, kernel 1
    (construction), kernel 2 (BFS) and kernel 3 (SSSP), validates every search and prints the
    statistics block. It also installs g500-bfs and g500-bfs-sssp, drop-ins for the reference's
    graph500_reference_bfs and graph500_reference_bfs_sssp, and g500-cuda with +cuda."""

    homepage = "https://graph500.org"

    # Built from a checkout: `spack develop --path /path/to/g500 g500@0.9.0`, then `spack install`.
    version("0.9.0")

    variant("native", default=False,
            description="Tune for the build host (-march=native); off where login and compute nodes differ")
    variant("plot", default=True, description="Python and matplotlib at run time, for g500-plot")

    depends_on("cxx", type="build")
    depends_on("cmake@3.20:", type="build")
    depends_on("mpi")
    depends_on("cli11", type="build")           # header-only
    depends_on("nlohmann-json", type="build")   # header-only
    depends_on("highway")                       # vqsort
    depends_on("python@3:", type="run", when="+plot")
    depends_on("py-matplotlib", type="run", when="+plot")
    # C++20 with OpenMP: GCC 10 or later.
    conflicts("%gcc@:9", msg="g500 needs C++20")

    def cmake_args(self):
        args = [
            self.define("G500_TESTS", False),
            self.define_from_variant("G500_NATIVE", "native"),
            self.define_from_variant("G500_CUDA", "cuda"),
        ]
        if self.spec.satisfies("+cuda"):
            archs = self.spec.variants["cuda_arch"].value
            if archs and archs[0] != "none":
                args.append(self.define("CMAKE_CUDA_ARCHITECTURES", ";".join(archs)))
        return args

    # `spack install --test=root g500`: the installed program says what it is and runs a validated
    # SCALE 10 search, as the EasyBuild easyconfig's sanity check does.
    install_time_test_callbacks = ["check_installed_search"]

    def check_installed_search(self):
        g500 = Executable(self.prefix.bin.g500)
        version = g500("--version", output=str)
        assert version.startswith("g500 "), version
        with working_dir(self.stage.path):
            g500.add_default_env("OMP_NUM_THREADS", "1")
            out = g500("--scale", "10", "--roots", "4", "-q", output=str)
        assert "validation: passed" in out, out
        for drop_in in ("g500-bfs", "g500-bfs-sssp"):
            assert os.path.islink(join_path(self.prefix.bin, drop_in)), drop_in
