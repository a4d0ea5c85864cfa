#!/usr/bin/env python3
"""Tests of scripts/mul_timing.py (no synthesis, a few seconds):

  * the carry-save tree it generates adds up to a * b: proven by Yosys `sat` for every input
    at small widths (3 x 3, 5 x 7, 6 x 6), and by `eval` at 65 operand pairs for 12 x 12 and
    the RP's 40 x 45;
  * the check can fail: a tree whose first carry row is not shifted, and one whose first
    sum row ORs instead of XORs, are each reported (at 5 x 7 and at 40 x 45);
  * bad arguments (an operand width out of range, a shift beyond the product, a clock of
    0 ns) each stop with one error line, exit 1 and nothing on stdout.

usage: test_mul_timing.py [--quiet]. Exit 0 when every check holds, 1 otherwise (each
failed check is named)."""
import argparse
import os
import subprocess
import sys
import tempfile

import mul_timing

BROKEN = ((") << 1;", ");", "a carry row not shifted"), (" ^ ", " | ", "a sum row with OR for XOR"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    failed = []

    def ok(msg):
        if not a.quiet:
            print(f"test_mul_timing: {msg}: ok")

    with tempfile.TemporaryDirectory() as tmp:
        for wa, wb in ((3, 3), (5, 7), (6, 6), (12, 12), (40, 45)):
            try:
                mul_timing.check_tree(wa, wb, os.path.join(tmp, f"t{wa}x{wb}"))
                ok(f"the {wa} x {wb} tree is a * b")
            except RuntimeError as e:
                failed.append(str(e))
        for wa, wb in ((5, 7), (40, 45)):
            for i, (old, new, what) in enumerate(BROKEN):
                rtl = mul_timing.tree_rtl(wa, wb, "mul_tree")
                if old not in rtl:
                    failed.append(f"{wa} x {wb}: the tree has no {old.strip()!r} to break")
                    continue
                try:
                    mul_timing.check_tree(wa, wb, os.path.join(tmp, f"b{wa}x{wb}_{i}"), rtl=rtl.replace(old, new, 1))
                    failed.append(f"{wa} x {wb}: {what} passed the check")
                except RuntimeError:
                    ok(f"{wa} x {wb}: {what} is reported")
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mul_timing.py")
    for args, what in ((["--wa", "1"], "an operand width out of range"),
                       (["--wb", "40", "--shift", "41"], "a shift beyond the product"),
                       (["--clock-ns", "0"], "a clock of 0 ns")):
        r = subprocess.run([sys.executable, script, *args], capture_output=True, text=True)
        lines = r.stderr.strip().splitlines()
        if r.returncode != 1 or len(lines) != 1 or "error" not in lines[0] or r.stdout:
            failed.append(f"{what}: exit {r.returncode}, stderr {r.stderr!r}, stdout {r.stdout[:200]!r}")
        else:
            ok(f"{what}: one error line, exit 1")
    for f in failed:
        print(f"test_mul_timing: FAIL: {f}", file=sys.stderr)
    if not a.quiet or failed:
        print(f"test_mul_timing: {'FAIL' if failed else 'ok'} ({len(failed)} failed checks)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
