#!/usr/bin/env python3
"""Do two simulator builds give the same results? The refactoring check of the simulator.

Runs every shipped scenario (sim/scenarios/*.json, *.toml), or the ones named, through
both binaries and compares their outputs: flows.csv byte for byte, summary.json key for
key apart from "performance" (wall time, events/s, memory), which no two runs share.
Exit 0 when every output agrees, 1 when any differs (the differing keys are listed),
2 on a run that fails.

Usage: sim_compare.py --base OLD_BIN --new NEW_BIN [--out DIR] [scenario ...]
"""
import argparse
import filecmp
import glob
import json
import os
import subprocess
import sys
import tempfile

from ll_out import dir_problem  # scripts/ll_out.py

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(binary, scenario, out):
    p = subprocess.run([binary, scenario, "--quiet", "--out", out], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit(f"sim_compare: {binary} {scenario}: exit {p.returncode}: {p.stderr.strip()}")


def main():
    ap = argparse.ArgumentParser(description="Compare two simulator builds on the shipped scenarios.")
    ap.add_argument("--base", required=True, help="the reference lossless_sim binary")
    ap.add_argument("--new", required=True, help="the lossless_sim binary under test")
    ap.add_argument("--out", help="keep the outputs here (default: a temporary directory)")
    ap.add_argument("scenarios", nargs="*", help="scenario files (default: every shipped one)")
    args = ap.parse_args()
    for b in (args.base, args.new):
        if not (os.path.isfile(b) and os.access(b, os.X_OK)):
            sys.exit(f"sim_compare: {b}: not an executable file")
    scenarios = args.scenarios or sorted(glob.glob(f"{ROOT}/sim/scenarios/*.json") +
                                         glob.glob(f"{ROOT}/sim/scenarios/*.toml"))
    names = {}
    for sc in scenarios:  # every one before the first run
        if not os.path.isfile(sc):
            sys.exit(f"sim_compare: {sc}: no such scenario file")
        if os.path.basename(sc) in names:  # its runs would replace the other's (a run is named by its file)
            sys.exit(f"sim_compare: {sc}: a second scenario named {os.path.basename(sc)} (also {names[os.path.basename(sc)]})")
        names[os.path.basename(sc)] = sc
    if args.out is not None and dir_problem(args.out):
        sys.exit(f"sim_compare: --out {args.out}: {dir_problem(args.out)}")
    tmp = None if args.out is not None else tempfile.TemporaryDirectory(prefix="sim-compare-")
    root = args.out or tmp.name
    differ = 0
    for sc in scenarios:
        name = os.path.basename(sc)
        a, b = os.path.join(root, "base", name), os.path.join(root, "new", name)
        run(args.base, sc, a)
        run(args.new, sc, b)
        same_csv = filecmp.cmp(os.path.join(a, "flows.csv"), os.path.join(b, "flows.csv"), shallow=False)
        with open(os.path.join(a, "summary.json")) as fa, open(os.path.join(b, "summary.json")) as fb:
            ja, jb = json.load(fa), json.load(fb)
        keys = sorted(k for k in set(ja) | set(jb) if k != "performance" and ja.get(k) != jb.get(k))
        ok = same_csv and not keys
        differ += 0 if ok else 1
        print(f"sim_compare: {name:32s} flows.csv {'same' if same_csv else 'DIFFERS'}, summary "
              + ("same (performance aside)" if not keys else "DIFFERS in " + ", ".join(keys)), flush=True)
    print(f"sim_compare: {len(scenarios) - differ}/{len(scenarios)} scenarios give identical results")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
