"""Helpers for the whole-program tests: run g500 (under mpirun when asked) with a time limit."""
import os
import subprocess

G500 = os.environ["G500"]
# scripts/mpirun: the project's one place for mpirun flags and Open MPI variables.
MPIRUN = os.environ.get("G500_MPIRUN",
                        os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "mpirun"))


def run(args, np=None, threads=1, timeout=300, bind=None):
    """Runs g500 with args; returns CompletedProcess. np=None runs it without mpirun; bind=core
    binds each rank to a core (the default of a bare mpirun); threads=None leaves OMP_NUM_THREADS
    unset, so g500 chooses."""
    cmd = [G500] + args
    if np is not None:
        cmd = [MPIRUN, "-np", str(np)] + cmd
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    if threads is None:
        del env["OMP_NUM_THREADS"]
    if bind:
        env["G500_BIND"] = bind
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)


def statistics(stdout):
    """The `key: value` lines of the statistics block as a dict."""
    out = {}
    for line in stdout.splitlines():
        key, sep, value = line.partition(": ")
        if sep:
            out[key] = value
    return out
