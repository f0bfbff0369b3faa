#!/usr/bin/env python3
"""docs/options.md against `g500 --help`: the same options, each with the same choices and the same
default, so that the two cannot drift apart (the help is the program's; the page says more)."""
import os
import re
import subprocess
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
G500 = os.environ.get("G500", os.path.join(ROOT, "build", "g500"))
# Options the page leaves to the program (--help and --version describe themselves).
SELF_DESCRIBED = {"--help", "--version"}


def help_options():
    """{--name: (choices or None, default or None)} from g500 --help."""
    text = subprocess.run([G500, "--help"], capture_output=True, text=True, check=True).stdout
    options = {}
    for line in text.splitlines():
        m = re.match(r"^\s+(?:-\w,)?(--[\w-]+)(?:\s+[A-Z]+(?::([^=\s]+(?: in \[[^\]]*\])?))?(?:=(\S+))?)?", line)
        if not m:
            continue
        choices = m.group(2)
        choices = choices.split("|") if choices and "|" in choices else None
        options[m.group(1)] = (choices, m.group(3))
    return options


def page_rows():
    """{--name: (the row's first cell, the whole row)} from docs/options.md's table."""
    rows = {}
    with open(os.path.join(ROOT, "docs", "options.md")) as f:
        for line in f:
            if not line.startswith("| `--"):
                continue
            first = line.split(" | ")[0]
            for name in re.findall(r"`(--[\w-]+)", first):
                rows[name] = (first.replace("\\|", "|"), line)
    return rows


class OptionsPageTest(unittest.TestCase):
    def setUp(self):
        self.help = help_options()
        self.page = page_rows()

    def test_the_same_options(self):
        self.assertGreater(len(self.help), 30)
        self.assertEqual(sorted(set(self.help) - SELF_DESCRIBED - set(self.page)), [], "in --help, not in the page")
        self.assertEqual(sorted(set(self.page) - set(self.help)), [], "in the page, not in --help")

    def test_the_same_choices(self):
        for name, (choices, _) in self.help.items():
            if not choices or name not in self.page:
                continue
            with self.subTest(option=name):
                shown = re.search(re.escape(name) + r" ([\w|,.-]+)", self.page[name][0])
                self.assertIsNotNone(shown, "the page shows no choices: %s" % self.page[name][0])
                if "|" in shown.group(1):
                    self.assertEqual(shown.group(1).split("|"), choices)

    def test_the_same_defaults(self):
        for name, (_, default) in self.help.items():
            if default is None or name not in self.page:
                continue
            with self.subTest(option=name):
                row = self.page[name][1]
                said = r"defaults? (?:[^|)]*\b)?%s\b|\b%s`? \(default" % (re.escape(default), re.escape(default))
                self.assertRegex(row, said, "the page gives another default than --help's %s" % default)


if __name__ == "__main__":
    unittest.main()
