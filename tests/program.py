"""Helpers for the whole-program tests: run g500 (under mpirun when asked) with a time limit."""
import os
import subprocess

G500 = os.environ["G500"]
MPIEXEC = os.environ.get("MPIEXEC", "mpirun")


def run(args, np=None, threads=1, timeout=300):
    """Runs g500 with args; returns CompletedProcess. np=None runs it without mpirun."""
    cmd = [G500] + args
    if np is not None:
        cmd = [MPIEXEC, "-np", str(np), "--oversubscribe", "--bind-to", "none"] + cmd
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)


def statistics(stdout):
    """The `key: value` lines of the statistics block as a dict."""
    out = {}
    for line in stdout.splitlines():
        key, sep, value = line.partition(": ")
        if sep:
            out[key] = value
    return out
