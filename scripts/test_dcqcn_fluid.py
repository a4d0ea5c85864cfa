#!/usr/bin/env python3
"""Bad input to scripts/dcqcn_fluid.py (the DCQCN fluid model of `make experiments`): each
case must stop with a non-zero exit and an error naming the option, print nothing on stdout
and write neither --out nor --json; a good run next to them must write both.

Cases: NaN and infinite durations, sizes and rates; --out in a missing directory or a
directory; --json in a missing directory (the CSV must not be written first); --flows with
--starts; a start at or after --duration; --window-from beyond --duration.

usage: test_dcqcn_fluid.py [--quiet]. Exit 0 when every check holds, 1 otherwise."""
import argparse
import os
import subprocess
import sys
import tempfile

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dcqcn_fluid.py")


def run(args):
    return subprocess.run([sys.executable, SCRIPT, "--duration", "2ms", *args], capture_output=True, text=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        csv, js = os.path.join(tmp, "f.csv"), os.path.join(tmp, "f.json")
        cases = (
            (["--duration", "nanms"], "--duration"), (["--duration", "infms"], "--duration"),
            (["--capacity", "nanG"], "--capacity"), (["--kmin", "nanKB"], "--kmin"),
            (["--packet", "inf"], "--packet"), (["--pmax", "nan"], "--pmax"), (["--pmax", "abc"], "is not a number"),
            (["--starts", "0us,nanus"], "--starts"), (["--starts", "0us,2ms"], "--starts"),
            (["--flows", "2", "--starts", "0us,1us"], "--flows"),
            (["--window-from", "3ms"], "--window-from"),
            (["--out", os.path.join(tmp, "no_dir", "f.csv")], "--out"), (["--out", tmp], "--out"),
            (["--json", os.path.join(tmp, "no_dir", "f.json")], "--json"),
        )
        for args, opt in cases:
            r = run(args + (["--out", csv] if "--out" not in args else []) + (["--json", js] if "--json" not in args else []))
            wrote = [p for p in (csv, js) if os.path.exists(p)]
            if r.returncode == 0 or opt not in r.stderr or "Traceback" in r.stderr or r.stdout or wrote:
                failed.append(f"{' '.join(args)}: exit {r.returncode}, stderr {r.stderr.strip()[-160:]!r}, "
                              f"stdout {r.stdout[:80]!r}, wrote {wrote}")
            elif not a.quiet:
                print(f"test_dcqcn_fluid: {' '.join(args)}: refused, names {opt}, nothing written: ok")
            for p in wrote:
                os.remove(p)
        r = run(["--starts", "0us,1ms", "--window-from", "1ms", "--out", csv, "--json", js])
        if r.returncode or not os.path.exists(csv) or not os.path.exists(js) or "final rates" not in r.stdout:
            failed.append(f"a good run: exit {r.returncode}, stderr {r.stderr.strip()[-160:]!r}")
        elif not a.quiet:
            print("test_dcqcn_fluid: a good run writes both files: ok")
    for f in failed:
        print(f"test_dcqcn_fluid: FAIL: {f}", file=sys.stderr)
    if not a.quiet or failed:
        print(f"test_dcqcn_fluid: {'FAIL' if failed else 'ok'} ({len(failed)} failed checks)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
