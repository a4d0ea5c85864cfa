#!/usr/bin/env python3
"""experiments.py --resume: a finished run is reused only while the simulator binary, the
scenario file and the arguments are unchanged; anything else runs again. Uses a stand-in
simulator (a shell script that counts its calls and writes a summary), no real runs. And
commit(): a summary's commit is "-dirty" for a code change, not for the results/ files and
README table that earlier FULL runs wrote (a scratch git repository)."""
import json
import os
import stat
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import experiments as ex  # noqa: E402

FAKE = """#!/bin/sh
# $1 scenario, then --quiet --out DIR --set ...
out=""; prev=""
for a in "$@"; do [ "$prev" = "--out" ] && out="$a"; prev="$a"; done
mkdir -p "$out"
echo x >> "{calls}"
echo '{{"value": {value}}}' > "$out/summary.json"
"""


class Resume(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        d = self.tmp.name
        self.calls = os.path.join(d, "calls")
        self.sim = os.path.join(d, "sim")
        self.write_sim(1)
        with open(os.path.join(d, "scenario.json"), "w") as f:
            f.write("{}")
        self.e = {"dir": d, "scenario": "scenario.json", "quick": {"set": []},
                  "metrics": {"value": {"path": "value"}}}
        self.runs = os.path.join(d, "runs")
        os.makedirs(self.runs)

    def tearDown(self):
        self.tmp.cleanup()

    def write_sim(self, value):
        with open(self.sim, "w") as f:
            f.write(FAKE.format(calls=self.calls, value=value))
        os.chmod(self.sim, os.stat(self.sim).st_mode | stat.S_IEXEC)

    def run_once(self, sets=(), resume=True):
        return ex.run_point(self.sim, self.e, "quick", {"a": "x"}, list(sets), 1, self.runs, resume)

    def ncalls(self):
        with open(self.calls) as f:
            return len(f.read().split())

    def test_reuse_and_invalidation(self):
        self.assertEqual(self.run_once(), {"value": 1})
        self.assertEqual(self.run_once(), {"value": 1})
        self.assertEqual(self.ncalls(), 1, "an unchanged run must be reused")
        self.run_once(sets=["k=2"])
        self.assertEqual(self.ncalls(), 2, "other arguments must run again")
        self.run_once(sets=["k=2"], resume=False)
        self.assertEqual(self.ncalls(), 3, "without --resume every run runs")
        self.write_sim(7)   # a rebuilt simulator
        self.assertEqual(self.run_once(sets=["k=2"]), {"value": 7})
        self.assertEqual(self.ncalls(), 4, "a changed binary must run again")
        with open(os.path.join(self.e["dir"], "scenario.json"), "w") as f:
            f.write('{"changed": 1}')
        self.run_once(sets=["k=2"])
        self.assertEqual(self.ncalls(), 5, "a changed scenario must run again")

    def test_cut_short_run_is_not_reused(self):
        self.run_once()
        d = os.path.join(self.runs, "a-x_seed1")
        os.remove(os.path.join(d, "run_key.json"))   # as if the run had stopped before its key
        self.run_once()
        self.assertEqual(self.ncalls(), 2)
        with open(os.path.join(d, "run_key.json")) as f:
            self.assertIn("sim_sha256", json.load(f))


class Commit(unittest.TestCase):
    """commit(): "-dirty" only for a change a run can depend on, never for the results/ files
    and README table that FULL runs write themselves."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        for rel in ("results/x/summary.md", "README.md", "scripts/tool.py"):
            path = os.path.join(self.root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write("v1\n")
        git = ["git", "-C", self.root, "-c", "user.name=t", "-c", "user.email=t@t"]
        for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "c"]):
            subprocess.run(git + cmd, check=True, capture_output=True)
        self.saved = ex.ROOT, ex._COMMIT

    def tearDown(self):
        ex.ROOT, ex._COMMIT = self.saved
        self.tmp.cleanup()

    def commit_after(self, rel):
        if rel:
            with open(os.path.join(self.root, rel), "a") as f:
                f.write("v2\n")
        ex.ROOT, ex._COMMIT = self.root, None
        return ex.commit()

    def test_clean_tree(self):
        self.assertNotIn("dirty", self.commit_after(None))

    def test_results_and_readme_written_by_runs_do_not_count(self):
        self.commit_after("results/x/summary.md")
        self.assertNotIn("dirty", self.commit_after("README.md"))

    def test_a_code_change_counts(self):
        self.assertTrue(self.commit_after("scripts/tool.py").endswith("-dirty"))


if __name__ == "__main__":
    unittest.main()
