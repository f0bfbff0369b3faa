"""g500 installed as a site installs software: EasyBuild (from PyPI) builds the working tree with the
SYSTEM-toolchain easyconfig (packaging/easybuild/g500-VERSION.eb) into a scratch prefix, writes an Lmod
module, and `module load g500` puts g500 and the reference's drop-ins on PATH; a SCALE 10 run of the
drop-in then validates. The gompi easyconfig is checked for what it must say, not built (it would
build a whole toolchain)."""
import ast
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
EASYCONFIGS = os.path.join(ROOT, "packaging", "easybuild")
MPIRUN = os.path.join(ROOT, "scripts", "mpirun")
LMOD_INIT = "/usr/share/lmod/lmod/init/bash"
LMOD_CMD = os.environ.get("LMOD_CMD", "/usr/share/lmod/lmod/libexec/lmod")


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        return re.search(r"project\(g500 VERSION ([0-9.]+)", f.read()).group(1)


def easyconfig(name):
    """An easyconfig's assignments, as EasyBuild reads them (Python, with its constants as names)."""
    with open(os.path.join(EASYCONFIGS, name)) as f:
        tree = ast.parse(f.read())
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            try:
                out[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                out[node.targets[0].id] = ast.unparse(node.value)
    return out


def source_files():
    """The working tree's files as a clean clone has them, with what is not committed yet."""
    try:
        listed = subprocess.run(["git", "-C", ROOT, "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
                                capture_output=True, check=True).stdout.decode().split("\0")
        return [f for f in listed if f and os.path.isfile(os.path.join(ROOT, f))]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for folder, dirs, names in os.walk(ROOT):
            dirs[:] = [d for d in dirs if d != ".git" and not d.startswith("build")]
            files += [os.path.relpath(os.path.join(folder, n), ROOT) for n in names]
        return files


def eb_command():
    eb = shutil.which("eb")
    return [eb] if eb else [sys.executable, "-m", "easybuild.main"]


class EasyBuild(unittest.TestCase):
    def test_the_easyconfigs_name_the_project_and_its_programs(self):
        version = project_version()
        for name, toolchain in (("g500-%s.eb" % version, "SYSTEM"), ("g500-%s-gompi-2023a.eb" % version, "gompi")):
            with self.subTest(easyconfig=name):
                ec = easyconfig(name)
                self.assertEqual(ec["easyblock"], "CMakeMake")
                self.assertEqual((ec["name"], ec["version"]), ("g500", version))
                self.assertIn(toolchain, str(ec["toolchain"]))
                self.assertEqual(sorted(ec["sanity_check_paths"]["files"]),
                                 ["bin/g500", "bin/g500-bfs", "bin/g500-bfs-sssp", "bin/g500-plot"])
                self.assertIn("g500 --version", ec["sanity_check_commands"])
                self.assertTrue(any("--scale 10" in c for c in ec["sanity_check_commands"]))
                self.assertIn("-DG500_TESTS=OFF", ec["configopts"])
        gompi = easyconfig("g500-%s-gompi-2023a.eb" % version)
        needs = [d[0] for d in gompi["builddependencies"] + gompi["dependencies"]]
        for dep in ("CLI11", "nlohmann_json", "Highway"):
            self.assertIn(dep, needs)
        self.assertNotIn("googletest", [n.lower() for n in needs])

    def test_installed_through_easybuild_the_module_puts_the_drop_ins_on_path(self):
        self.assertTrue(os.path.exists(LMOD_CMD), "Lmod is missing: scripts/install-deps.sh installs it")
        version = project_version()
        with tempfile.TemporaryDirectory() as tmp:
            # The working tree as the release tarball EasyBuild expects (SOURCE_TAR_GZ).
            sources = os.path.join(tmp, "sources", "g", "g500")
            os.makedirs(sources)
            top = "g500-%s" % version
            with tarfile.open(os.path.join(sources, top + ".tar.gz"), "w:gz") as tar:
                for f in source_files():
                    tar.add(os.path.join(ROOT, f), arcname=os.path.join(top, f))
            env = dict(os.environ, LMOD_CMD=LMOD_CMD, OMP_NUM_THREADS="1")
            env.pop("MODULEPATH", None)
            args = eb_command() + [
                os.path.join(EASYCONFIGS, "g500-%s.eb" % version),
                "--prefix=" + tmp, "--installpath=" + os.path.join(tmp, "install"),
                "--buildpath=" + os.path.join(tmp, "build"), "--sourcepath=" + os.path.join(tmp, "sources"),
                "--tmpdir=" + os.path.join(tmp, "tmp"), "--modules-tool=Lmod", "--module-syntax=Lua",
                "--robot-paths=" + EASYCONFIGS]
            if os.geteuid() == 0:
                args.append("--allow-use-as-root-and-accept-consequences")
            eb = subprocess.run(args, capture_output=True, text=True, timeout=3000, env=env)
            self.assertEqual(eb.returncode, 0, eb.stdout[-4000:] + eb.stderr[-4000:])
            self.assertIn("COMPLETED: Installation ended successfully", eb.stdout)
            # As a user would: Lmod's shell set-up, the stack's module path, then the module.
            script = ("source %s && module use %s && module load g500 && command -v g500 g500-bfs g500-bfs-sssp && "
                      "%s -np 2 g500-bfs 10" % (LMOD_INIT, os.path.join(tmp, "install", "modules", "all"), MPIRUN))
            p = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=600, env=env)
            self.assertEqual(p.returncode, 0, p.stdout[-3000:] + p.stderr[-3000:])
            found = p.stdout.splitlines()[:3]
            software = os.path.join(tmp, "install", "software", "g500", version, "bin")
            self.assertEqual(found, [os.path.join(software, n) for n in ("g500", "g500-bfs", "g500-bfs-sssp")])
            self.assertRegex(p.stdout, r"SCALE:\s+10\n")
            self.assertRegex(p.stdout, r"bfs  mean_validate:\s+[0-9.]+")  # validated: the reference prints -1 when not
            self.assertNotIn("No results printed for invalid run", p.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
