#!/usr/bin/env python3
"""Print the demo's summary from what the flows just produced (no numbers of its own).

Reads the lockstep bench lines from CTest's last log and the smoke synthesis results.
Usage: summary.py [BUILD_DIR]
"""
import argparse
import json
import os
import re

ap = argparse.ArgumentParser(description="Summary of the block flows' latest results.")
ap.add_argument("build", nargs="?", default="build", help="build directory (default: build)")
build = ap.parse_args().build
if not os.path.isdir(build):
    raise SystemExit(f"summary: {build} is not a build directory")
log = os.path.join(build, "Testing", "Temporary", "LastTest.log")
smoke = os.path.join(build, "synth", "smoke.json")
smoke_rows = None
if os.path.exists(smoke):  # read and checked before the first line is printed
    try:
        with open(smoke) as f:
            smoke_rows = json.load(f)
    except (OSError, ValueError) as e:
        raise SystemExit(f"summary: {smoke}: not a readable JSON file ({e})")
    numbers = ("nand2_eq", "area_um2", "memory_bits", "abc_delay_ps")

    def usable(r):
        return (isinstance(r, dict) and all(isinstance(r.get(k), str) for k in ("block", "config"))
                and all(k in r for k in ("xc7_lut", "xc7_ff"))
                and all(isinstance(r.get(k), (int, float)) and not isinstance(r[k], bool) for k in numbers)
                and isinstance(r.get("ice40_fmax_mhz"), (int, float, type(None))))
    if not isinstance(smoke_rows, list) or not all(usable(r) for r in smoke_rows):
        raise SystemExit(f"summary: {smoke}: not a list of synthesis results (block, config, xc7_lut, xc7_ff "
                         f"and the numbers {', '.join(numbers)}); make synth-smoke writes it")
print("\n================ lossless: summary of this run ================")
if os.path.exists(log):
    text = open(log, errors="replace").read()
    runs = re.findall(r"^tb (\S+) set (\S+) seed (\d+): (\d+) cycles compared, (\d+) mismatches, "
                      r"(\d+) cycles/s, (\d+) cycles/s CPU, inputs valid on (\d+)% of cycles\n\s+coverage: (\d+)/(\d+) bins",
                      text, re.M)
    print("Lockstep RTL vs golden model (make tb):")
    for b, s, seed, n, mm, rate, cpu_rate, valid, hit, bins in sorted(runs, key=lambda r: (r[0], r[1], int(r[2]))):
        print(f"  {b:7s} set {s} seed {seed}: {int(n):>10,} cycles compared, {mm} mismatches, "
              f"{int(rate) / 1e6:4.2f} M cycles/s ({int(cpu_rate) / 1e6:4.2f} M per CPU-s), valid {valid}%, "
              f"coverage {hit}/{bins} bins >= 10 hits")
    if not runs:
        print("  (no bench results in the last CTest log)")
else:
    print(f"(no CTest log at {log})")
if smoke_rows is not None:
    print("Synthesis, one configuration per block (make synth for all):")
    for r in smoke_rows:
        fm = r.get("ice40_fmax_mhz")
        print(f"  {r['block']:7s} {r['config']:10s}: {r['nand2_eq']:>7,} NAND2-eq ({r['area_um2']:,.0f} um^2 IHP SG13G2), "
              f"{r['memory_bits']:,} memory bits, ABC delay {r['abc_delay_ps']:,.0f} ps, "
              f"xc7 {r['xc7_lut']} LUT / {r['xc7_ff']} FF, iCE40 {r.get('ice40_lc')} LC @ "
              f"{'n/a' if fm is None else f'{fm:.1f}'} MHz")
print("===============================================================")
