"""bench/results/README.md names every file under bench/results (bench/results_index.py writes it),
so no result sits there without its command and commit beside it."""
import os
import tempfile
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def unnamed(results):
    """Files under `results` that its README.md does not name."""
    with open(os.path.join(results, "README.md")) as f:
        index = f.read()
    missing = []
    for dirpath, _, files in os.walk(results):
        for name in files:
            rel = os.path.relpath(os.path.join(dirpath, name), results)
            if rel != "README.md" and "`%s`" % rel not in index:
                missing.append(rel)
    return sorted(missing)


class ResultsIndex(unittest.TestCase):
    def test_every_result_is_in_the_index(self):
        self.assertEqual(unnamed(os.path.join(ROOT, "bench", "results")), [])

    def test_the_check_sees_a_file_left_out(self):
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "a"))
            for rel in ("a/x.json", "a/y.json"):
                open(os.path.join(tmp, rel), "w").close()
            with open(os.path.join(tmp, "README.md"), "w") as f:
                f.write("| `a/x.json` | - | abc |\n")
            self.assertEqual(unnamed(tmp), ["a/y.json"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
