#!/usr/bin/env python3
"""Where a lockstep bench's time goes, per parameter set: each bench runs with `--profile`
(tb/common/lockstep.h), which times the phases of every cycle (stimulus and input drive,
the Verilated RTL's two evals and port reads, the model's outputs and the comparison, the
model's clock edge and the bench's bookkeeping), and this script prints one table row per
bench and set. "RTL alone" is the rate of the RTL phase by itself: no bench can compare
cycles faster than that, and "budget for 1 M/s" is what stimulus, model and bench together
may cost a cycle for a run to reach 1 M compared cycles/s (none when the RTL alone needs a
microsecond or more).

The figures are wall time: run it on an idle machine (-j 1 on two cores leaves one free).

usage: tb_profile.py [--build DIR] [--bench NAME ...] [--cycles N] [--seed S] [-j N]
Exit 1 with one error line when a bench is missing or a run fails.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

from ll_out import dir_problem  # scripts/ll_out.py

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# bench name -> its executable under the build directory
BENCHES = {
    "marker": "tb/marker/tb_marker",
    "drill": "tb/drill/tb_drill",
    "pfc": "tb/pfc/tb_pfc",
    "codec": "tb/pfc/codec/tb_pfc_codec",
    "dcqcn": "tb/dcqcn/tb_dcqcn",
}
PHASES = [("stim", "stimulus and input drive"), ("rtl", "RTL: two evals and port reads"),
          ("model", "model outputs and comparison"), ("tick", "model clock edge and bench")]
PHASE_RE = {k: re.compile(r"^\s+" + re.escape(text) + r"\s+([0-9]+)\s") for k, text in PHASES}
CYCLE_RE = re.compile(r"^\s+cycle\s+([0-9]+)\s")
RATE_RE = re.compile(r"cycles compared, 0 mismatches, ([0-9]+) cycles/s")


def die(msg):
    print(f"tb_profile: error: {msg}", file=sys.stderr)
    sys.exit(1)


def list_sets(exe):
    r = subprocess.run([exe, "--list-sets"], capture_output=True, text=True,
                       env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
    if r.returncode != 0 or not r.stdout.split():
        die(f"{exe} --list-sets failed (exit {r.returncode})")
    return r.stdout.split()


def profile(bench, exe, s, cycles, seed, out):
    cmd = [exe, "--set", s, "--seed", str(seed), "--cycles", str(cycles), "--no-wave", "--profile",
           "--out", out]
    r = subprocess.run(cmd, capture_output=True, text=True,
                       env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
    row = {"bench": bench, "set": s, "cmd": " ".join(cmd), "rc": r.returncode}
    for line in r.stdout.splitlines():
        m = RATE_RE.search(line)
        if m:
            row["rate"] = int(m.group(1))
        for k, rx in PHASE_RE.items():
            m = rx.match(line)
            if m:
                row[k] = int(m.group(1))
        m = CYCLE_RE.match(line)
        if m:
            row["cycle"] = int(m.group(1))
    missing = [k for k in ["rate", "cycle"] + [k for k, _ in PHASES] if k not in row]
    if r.returncode != 0 or missing:
        tail = (r.stdout + r.stderr).strip().splitlines()[-3:]
        row["error"] = f"exit {r.returncode}, missing {', '.join(missing) or 'nothing'}: " + " | ".join(tail)
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="build directory (default build)")
    ap.add_argument("--bench", action="append", choices=sorted(BENCHES), help="bench to profile (repeatable; default all)")
    ap.add_argument("--cycles", type=int, default=300000, help="compared cycles a run (default 300000)")
    ap.add_argument("--seed", type=int, default=1, help="stimulus seed (default 1)")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="runs at once (default 1: the figures are wall time)")
    a = ap.parse_args()
    if a.cycles < 100:
        die("--cycles must be at least 100 (the benches' shortest run)")
    if a.jobs < 1:
        die("-j must be at least 1")
    if a.seed < 0:
        die(f"--seed must be at least 0 (got {a.seed})")
    if not os.path.isdir(a.build):
        die(f"--build {a.build}: {'not a directory' if os.path.exists(a.build) else 'no such directory'} "
            "(make build first)")
    out = os.path.join(a.build, "tb_profile")
    if dir_problem(out):
        die(f"{out}: {dir_problem(out)}")
    exes = {b: os.path.join(a.build, BENCHES[b]) for b in a.bench or list(BENCHES)}
    for exe in exes.values():
        if not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
            die(f"no bench {exe} (make build first)")
    jobs = []
    for b, exe in exes.items():
        for s in list_sets(exe):
            jobs.append((b, exe, s))
    os.makedirs(out, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        rows = list(pool.map(lambda j: profile(j[0], j[1], j[2], a.cycles, a.seed, out), jobs))
    bad = [r for r in rows if "error" in r]
    print(f"Lockstep time per cycle, ns (wall; `--profile`, {a.cycles:,} cycles, seed {a.seed}, {a.jobs} at once)")
    print()
    print("| bench | set | stimulus | RTL | model | model edge + bench | cycle | compared M/s | RTL alone M/s "
          "| budget for 1 M/s |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        if "error" in r:
            print(f"| {r['bench']} | {r['set']} | failed: {r['error']} |")
            continue
        budget = 1000 - r["rtl"]
        print(f"| {r['bench']} | {r['set']} | {r['stim']} | {r['rtl']} | {r['model']} | {r['tick']} | {r['cycle']} "
              f"| {r['rate'] / 1e6:.2f} | {1e3 / r['rtl']:.2f} | {str(budget) + ' ns' if budget > 0 else 'none'} |")
    if bad:
        for r in bad:
            print(f"tb_profile: error: {r['bench']} {r['set']}: {r['cmd']}: {r['error']}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
