"""Includes run down the floors only: every #include "folder/..." in src/ names the including
file's own folder or a folder on a lower floor, in the order docs/architecture.md writes down.
Folders on one floor are siblings and include nothing of each other."""
import os
import re
import tempfile
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def floors():
    """Each folder's floor, lowest 0, from the 'Layer floors, lowest first:' line."""
    with open(os.path.join(ROOT, "docs", "architecture.md")) as f:
        text = f.read()
    m = re.search(r"^Layer floors, lowest first: (.+)$", text, re.MULTILINE)
    assert m, "docs/architecture.md lost its 'Layer floors, lowest first:' line"
    floor = {}
    for level, names in enumerate(m.group(1).split("<")):
        for name in names.split(","):
            floor[name.strip(" `.")] = level
    return floor


def wrong_includes(floor, root=ROOT):
    wrong = []
    for folder in floor:
        for dirpath, _, files in os.walk(os.path.join(root, "src", folder)):
            for name in files:
                path = os.path.join(dirpath, name)
                with open(path) as f:
                    for n, line in enumerate(f, 1):
                        m = re.match(r'\s*#include "([a-z_]+)/', line)
                        if not m or m.group(1) == folder:
                            continue
                        target = m.group(1)
                        where = f"{os.path.relpath(path, root)}:{n}"
                        if floor.get(target, -1) > floor[folder]:
                            wrong.append(f"{where} includes {target}/, a floor up")
                        elif floor.get(target, -1) == floor[folder]:
                            wrong.append(f"{where} includes {target}/, a sibling")
    return wrong


class Layers(unittest.TestCase):
    def test_every_source_folder_has_a_floor(self):
        folders = sorted(d for d in os.listdir(os.path.join(ROOT, "src")) if os.path.isdir(os.path.join(ROOT, "src", d)))
        self.assertEqual(sorted(floors()), folders)

    def test_includes_run_down_the_floors_only(self):
        self.assertEqual(wrong_includes(floors()), [])

    def test_the_check_sees_sibling_and_upward_includes(self):
        floor = {"core": 0, "io": 1, "bfs": 1, "app": 2}
        with tempfile.TemporaryDirectory() as tree:
            for folder, text in [("io", '#include "bfs/engine.hpp"\n#include "core/types.hpp"\n'),
                                 ("core", '#include "app/main.hpp"\n'), ("bfs", '#include "bfs/x.hpp"\n')]:
                os.makedirs(os.path.join(tree, "src", folder))
                with open(os.path.join(tree, "src", folder, "a.hpp"), "w") as f:
                    f.write(text)
            self.assertEqual(sorted(wrong_includes(floor, tree)),
                             ["src/core/a.hpp:1 includes app/, a floor up", "src/io/a.hpp:1 includes bfs/, a sibling"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
