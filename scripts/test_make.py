#!/usr/bin/env python3
"""Self-test of the Makefile: a multi-step target stops at its first failing step.

`make blocks` and `make test` run several stages in one recipe. Each is run here with
PYTHON=false, so their first Python step (lint, resp. the register-map check) fails; the
target must exit non-zero, must not print that step's time stamp, and must not start the
next stage (the build). The runs use a scratch build directory, so they never touch the
real one, and take about a second each (the build they would reach is never started).

Usage: test_make.py [--make MAKE] [-v]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAKE = "make"


def run_make(target, build):
    env = dict(os.environ)
    for var in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES"):
        env.pop(var, None)
    cmd = [MAKE, "--no-print-directory", "-C", ROOT, target, "PYTHON=false", f"BUILD={build}"]
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=120)
    return p.returncode, p.stdout


class FailingStepStopsTarget(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="ll-make-selftest-")
        self.build = os.path.join(self.tmp.name, "build")

    def tearDown(self):
        self.tmp.cleanup()

    def check(self, target, first_stage):
        rc, out = run_make(target, self.build)
        self.assertNotEqual(rc, 0, f"make {target} with a failing {first_stage} exited 0:\n{out}")
        self.assertNotIn(f"== {first_stage}:", out,
                         f"make {target} stamped the failed {first_stage} step:\n{out}")
        self.assertNotIn("== build:", out, f"make {target} went on to the build:\n{out}")
        self.assertFalse(os.path.exists(self.build),
                         f"make {target} went on to configure {self.build}:\n{out}")

    def test_blocks_stops_at_lint(self):
        self.check("blocks", "lint")

    def test_test_stops_at_regmap_check(self):
        self.check("test", "regmap")


def main():
    global MAKE
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--make", default="make", help="make program to test (default: make)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    MAKE = args.make
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(FailingStepStopsTarget)
    result = unittest.TextTestRunner(verbosity=2 if args.verbose else 1).run(suite)
    sys.exit(0 if result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()
