"""No include runs back up the layers: every #include "folder/..." in src/ names a folder at or
below the including file's own, in the order docs/architecture.md writes down."""
import os
import re
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def layer_order():
    with open(os.path.join(ROOT, "docs", "architecture.md")) as f:
        text = f.read()
    m = re.search(r"^Layer order, lowest first: (.+)$", text, re.MULTILINE)
    assert m, "docs/architecture.md lost its 'Layer order, lowest first:' line"
    return [name.strip(" `.") for name in m.group(1).split("<")]


class Layers(unittest.TestCase):
    def test_every_source_folder_has_a_layer(self):
        order = layer_order()
        folders = sorted(d for d in os.listdir(os.path.join(ROOT, "src")) if os.path.isdir(os.path.join(ROOT, "src", d)))
        self.assertEqual(sorted(order), folders)

    def test_includes_run_down_the_layers_only(self):
        order = layer_order()
        rank = {name: i for i, name in enumerate(order)}
        wrong = []
        for folder in order:
            for dirpath, _, files in os.walk(os.path.join(ROOT, "src", folder)):
                for name in files:
                    path = os.path.join(dirpath, name)
                    with open(path) as f:
                        for n, line in enumerate(f, 1):
                            m = re.match(r'\s*#include "([a-z_]+)/', line)
                            if m and rank.get(m.group(1), -1) > rank[folder]:
                                wrong.append(f"{os.path.relpath(path, ROOT)}:{n} includes {m.group(1)}/")
        self.assertEqual(wrong, [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
