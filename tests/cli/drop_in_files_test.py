"""The drop-ins' TMPFILE and REUSEFILE as a hostile user meets them: a run removes only what it wrote,
refuses paths that are no regular files before writing anything, never reads another graph as this
one, and leaves nothing that blocks a later run. Each case failed before its fix."""
import os
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import program  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from site_configurations_test import BFS, BFS_SSSP, run  # noqa: E402


def mode_of(path):
    return os.lstat(path).st_mode


def nedge(stdout):
    return [line for line in stdout.splitlines() if "nedge" in line or line.startswith(("SCALE", "NBFS"))]


class NotARegularFile(unittest.TestCase):
    """TMPFILE (or its weights) naming a directory, device, FIFO, socket or symbolic link."""

    def make_all(self, folder):
        made = {}
        os.mkdir(os.path.join(folder, "dir"))
        made["dir"] = "is a directory"
        os.mkfifo(os.path.join(folder, "fifo"))
        made["fifo"] = "is a FIFO"
        server = socket.socket(socket.AF_UNIX)
        server.bind(os.path.join(folder, "sock"))
        self.addCleanup(server.close)
        made["sock"] = "is a socket"
        os.symlink("nowhere", os.path.join(folder, "dangling"))
        made["dangling"] = "is a symbolic link"
        with open(os.path.join(folder, "target"), "w") as f:
            f.write("mine")
        os.symlink("target", os.path.join(folder, "link"))
        made["link"] = "is a symbolic link"
        try:
            os.mknod(os.path.join(folder, "null"), 0o666 | stat.S_IFCHR, os.makedev(1, 3))
            made["null"] = "is a device"
        except PermissionError:
            pass  # not root: the other kinds still run
        return made

    def test_each_is_refused_before_anything_is_written_and_left_as_it_was(self):
        with tempfile.TemporaryDirectory() as tmp:
            made = self.make_all(tmp)
            before = sorted(os.listdir(tmp))
            modes = {name: mode_of(os.path.join(tmp, name)) for name in before}
            for name, says in made.items():
                for exe, extra in ((BFS, {}), (BFS_SSSP, {}), (BFS, {"REUSEFILE": "1"})):
                    with self.subTest(path=name, exe=os.path.basename(exe), reuse=bool(extra)):
                        p = run(exe, ["10"], 2, dict({"TMPFILE": os.path.join(tmp, name)}, **extra))
                        self.assertNotEqual(p.returncode, 0)
                        self.assertIn("%s' %s: it must name a regular file or nothing" % (name, says), p.stderr)
                        self.assertEqual(sorted(os.listdir(tmp)), before)
                        self.assertEqual({n: mode_of(os.path.join(tmp, n)) for n in before}, modes)
            with open(os.path.join(tmp, "target")) as f:
                self.assertEqual(f.read(), "mine")

    def test_weights_that_are_no_regular_file_are_refused_too(self):
        with tempfile.TemporaryDirectory() as tmp:
            os.mkfifo(os.path.join(tmp, "g.bin.weights"))
            p = run(BFS_SSSP, ["10"], 2, {"TMPFILE": os.path.join(tmp, "g.bin")})
            self.assertNotEqual(p.returncode, 0)
            self.assertIn("g.bin.weights' is a FIFO", p.stderr)
            self.assertEqual(os.listdir(tmp), ["g.bin.weights"])


class OwnFilesOnly(unittest.TestCase):
    """Without REUSEFILE the graph lives under a name of the run's own, gone after any catchable end."""

    def start(self, tmp, scale):
        env = dict(os.environ, OMP_NUM_THREADS="1", TMPFILE=os.path.join(tmp, "g.bin"))
        env.pop("REUSEFILE", None)
        return subprocess.Popen([program.MPIRUN, "-np", "2", BFS_SSSP, str(scale)], env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)

    def wait_for_own_file(self, tmp, proc):
        end = time.time() + 120
        while time.time() < end and proc.poll() is None:
            own = [f for f in os.listdir(tmp) if f.startswith("g.bin.g500-partial-") and f.count("g500-partial") == 1]
            if own:
                return own[0]
            time.sleep(0.05)
        raise AssertionError("the run's own edge file never appeared")

    def test_a_catchable_signal_removes_the_runs_files(self):
        for sig in (signal.SIGTERM, signal.SIGINT):
            with self.subTest(signal=sig.name), tempfile.TemporaryDirectory() as tmp:
                proc = self.start(tmp, 17)
                self.wait_for_own_file(tmp, proc)
                time.sleep(1)  # into kernel 1, reading the file
                os.kill(proc.pid, sig)
                proc.communicate(timeout=120)
                self.assertNotEqual(proc.returncode, 0)
                self.assertEqual(os.listdir(tmp), [])

    def test_a_killed_runs_files_are_removed_by_the_next_run_not_a_block(self):
        with tempfile.TemporaryDirectory() as tmp:
            proc = self.start(tmp, 17)
            own = self.wait_for_own_file(tmp, proc)
            time.sleep(1)
            subprocess.run(["pkill", "-KILL", "-f", "^" + BFS_SSSP + " 17"])
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate(timeout=120)
            self.assertIn(own, os.listdir(tmp))
            p = run(BFS_SSSP, ["10"], 2, {"TMPFILE": os.path.join(tmp, "g.bin")})
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("g500: removed '%s', left by a run that was killed" % os.path.join(tmp, own), p.stderr)
            self.assertEqual(os.listdir(tmp), [])


class ReuseFile(unittest.TestCase):
    """REUSEFILE reads only files shown to hold this graph; others are written again or refused."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "g.bin")
        self.env = {"TMPFILE": self.path, "REUSEFILE": "1"}

    def tearDown(self):
        self.tmp.cleanup()

    def reuse(self, args, exe=BFS):
        p = run(exe, args, 2, self.env)
        self.assertEqual(p.returncode, 0, p.stderr)
        return p

    def assert_written_again(self, args, because, exe=BFS):
        p = self.reuse(args, exe)
        self.assertIn("g500: REUSEFILE: writing the graph to '%s' again: %s" % (self.path, because), p.stderr)
        self.assertNotIn("REUSEFILE: reading", p.stderr)
        self.assertEqual(nedge(p.stdout), nedge(run(exe, args, 2).stdout))  # the asked graph's figures
        return p

    def test_the_record_and_the_content_decide(self):
        first = self.reuse(["10"])
        self.assertIn("REUSEFILE: writing the graph to '%s', with its record" % self.path, first.stderr)
        self.assertEqual(sorted(os.listdir(self.tmp.name)), ["g.bin", "g.bin.g500"])
        again = self.reuse(["10"])
        self.assertIn("REUSEFILE: reading the graph from '%s'" % self.path, again.stderr)
        self.assertIn("4096 sampled tuples match this run", again.stderr)
        # Another seed, and another SCALE and edgefactor with the same tuple count (the same size).
        self.assert_written_again(["10", "--seed", "2"], "it holds the graph of seed 1, not 2")
        self.assert_written_again(["9", "32", "--seed", "2"], "it holds the graph of SCALE 10, not 9")
        self.assertEqual(os.path.getsize(self.path), 16 * 32 * 2 ** 9)
        # Truncated, appended, rewritten in place with the same size.
        with open(self.path, "r+b") as f:
            f.truncate(os.path.getsize(self.path) - 16)
        self.assert_written_again(["9", "32", "--seed", "2"], "'%s' changed since it was written" % self.path)
        with open(self.path, "ab") as f:
            f.write(b"\0" * 16)
        self.assert_written_again(["9", "32", "--seed", "2"], "'%s' changed since it was written" % self.path)
        with open(self.path, "r+b") as f:
            f.write(os.urandom(os.path.getsize(self.path)))
        self.assert_written_again(["9", "32", "--seed", "2"], "'%s' changed since it was written" % self.path)

    def test_a_random_graph_with_a_forged_record_fails_the_content_check(self):
        self.reuse(["10"])
        with open(self.path, "wb") as f:
            f.write(os.urandom(16 * 16 * 2 ** 10))
        # The record made to agree with the file as it is now: only the sampled tuples can tell.
        st = os.stat(self.path)
        record = self.path + ".g500"
        with open(record) as f:
            lines = f.read().splitlines()
        stamps = {"edges_bytes": st.st_size, "edges_inode": st.st_ino, "edges_mtime_ns": st.st_mtime_ns}
        lines = ["%s %d" % (line.split()[0], stamps[line.split()[0]]) if line.split()[0] in stamps else line
                 for line in lines]
        with open(record, "w") as f:
            f.write("\n".join(lines) + "\n")
        self.assert_written_again(["10"], "its tuple 0 is not this graph's")

    def test_weights_missing_from_the_record_are_written(self):
        self.reuse(["10"])  # kernel 2 only: no weights
        p = self.assert_written_again(["10"], "it holds no weights", exe=BFS_SSSP)
        self.assertEqual(sorted(os.listdir(self.tmp.name)), ["g.bin", "g.bin.g500", "g.bin.weights"])
        again = self.reuse(["10"], exe=BFS_SSSP)
        self.assertIn("REUSEFILE: reading", again.stderr)
        self.assertEqual(nedge(again.stdout), nedge(p.stdout))

    def test_a_file_without_a_record_is_neither_read_nor_replaced(self):
        mine = os.urandom(16 * 16 * 2 ** 10)  # the size of SCALE 10's list
        with open(self.path, "wb") as f:
            f.write(mine)
        p = run(BFS, ["10"], 2, self.env)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("it has no record of the graph it holds", p.stderr)
        with open(self.path, "rb") as f:
            self.assertEqual(f.read(), mine)
        self.assertEqual(os.listdir(self.tmp.name), ["g.bin"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
