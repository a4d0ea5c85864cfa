#!/usr/bin/env python3
"""Tests of scripts/sta_endpoints.py on the smoke configurations `make synth-smoke` has just
synthesised (their work directories under build/synth/work/):

  * every smoke configuration lists at least one register, and the worst slack over its
    registers and ports equals the worst slack of the configuration's own STA run
    (`report_worst_slack` in its sta.log) to 0.001 ns: the per-register view misses no path;
  * the report's flip-flops by register (synth.ff_registers, on sta_endpoints.ff_cells) hold
    every flip-flop of the configuration's SG13G2 netlist (its `stat -liberty` count);
  * a configuration without a work directory stops with one error line and exit 1;
  * a work directory whose memories are timed otherwise than in the committed report, or
    whose worst slack differs from it, is named stale (a copy of a smoke configuration's
    memory Liberty with one access time changed; a worst slack moved by 0.1 ns).

usage: test_sta_endpoints.py [--out DIR] [--quiet]. Exit 0 when every check holds, 1
otherwise (each failed check is named)."""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

import sta_endpoints
import synth


def worst_slack(sta_log):
    with open(sta_log) as f:
        m = re.search(r"^worst slack (-?[0-9.]+)", f.read(), re.M)
    return float(m.group(1)) if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(sta_endpoints.ROOT, "build", "synth"))
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    failed = []
    for block, _, cfg in synth.select(None, None, True):
        name = f"{block}/{cfg['name']}"
        log = os.path.join(a.out, "work", block, cfg["name"], "sta.log")
        if not os.path.isfile(log):
            failed.append(f"{name}: no {log} (run `python3 scripts/synth.py --smoke` first)")
            continue
        rows = sta_endpoints.endpoints(block, cfg["name"], a.out)
        want = worst_slack(log)
        got = rows[0][1]
        if want is None:
            failed.append(f"{name}: no 'worst slack' line in {log}")
        elif abs(got - want) > 0.001:
            failed.append(f"{name}: worst slack over the registers {got:.4f} ns != the STA run's {want:.4f} ns")
        elif not a.quiet:
            print(f"test_sta_endpoints: {name}: {len(rows)} registers and ports, worst {got:.3f} ns "
                  f"({rows[0][0]}) = the STA run's: ok")
        work = os.path.join(a.out, "work", block, cfg["name"])
        _, cells = synth.parse_stat_cells(open(os.path.join(work, "asic.txt")).read())
        nff = synth.kind_areas(cells)[2]
        fr = synth.ff_registers(work)
        if fr["ffs"] != nff or nff == 0:
            failed.append(f"{name}: {fr['ffs']} flip-flops grouped by register, the netlist has {nff}")
        elif not a.quiet:
            print(f"test_sta_endpoints: {name}: {nff} flip-flops in {fr['registers']} registers: ok")
        # the staleness check: the directory as left matches its committed report (make test
        # synthesises the committed RTL); a copy of its memory Liberty with one access time
        # changed does not, nor does a worst slack moved by 0.1 ns
        why = sta_endpoints.stale_reasons(block, cfg["name"], work, got)
        if why:
            failed.append(f"{name}: the fresh work directory is named stale: {why}")
        lib = os.path.join(work, "sta_mem.lib")
        text = open(lib).read() if os.path.isfile(lib) else ""
        m = synth.MEM_LIB_RE.search(text)
        if not m:
            failed.append(f"{name}: no memory timing found in {lib} (every smoke configuration has memories)")
        else:
            with tempfile.TemporaryDirectory() as tmp:
                changed = text[:m.start(2)] + f"{float(m.group(2)) + 1.0:g}" + text[m.end(2):]
                with open(os.path.join(tmp, "sta_mem.lib"), "w") as f:
                    f.write(changed)
                why = sta_endpoints.stale_reasons(block, cfg["name"], tmp, got)
                if not any("read in" in w for w in why):
                    failed.append(f"{name}: a memory timed 1 ns slower than in the report is not named stale ({why})")
                shutil.copy(lib, os.path.join(tmp, "sta_mem.lib"))
                why = sta_endpoints.stale_reasons(block, cfg["name"], tmp, got - 0.1)
                if not any("worst slack" in w for w in why):
                    failed.append(f"{name}: a worst slack 0.1 ns off the report's is not named stale ({why})")
                elif not a.quiet:
                    print(f"test_sta_endpoints: {name}: a stale work directory is named: ok")
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sta_endpoints.py")
    for block, config, want, what in (("dcqcn", "no_such_config", "no configuration 'no_such_config'",
                                       "an unknown configuration"),
                                      ("no_such_block", "x", "unknown block 'no_such_block'", "an unknown block")):
        r = subprocess.run([sys.executable, script, "--block", block, "--config", config,
                            "--out", a.out], capture_output=True, text=True)
        lines = r.stderr.strip().splitlines()
        if r.returncode != 1 or len(lines) != 1 or want not in lines[0] or r.stdout:
            failed.append(f"{what}: exit {r.returncode}, stderr {r.stderr!r}, stdout {r.stdout!r}")
        elif not a.quiet:
            print(f"test_sta_endpoints: {what}: one error line naming it, exit 1: ok")
    for f in failed:
        print(f"test_sta_endpoints: FAIL: {f}", file=sys.stderr)
    if not a.quiet or failed:
        print(f"test_sta_endpoints: {'FAIL' if failed else 'ok'} ({len(failed)} failed checks)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
