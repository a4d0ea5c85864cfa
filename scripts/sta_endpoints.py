#!/usr/bin/env python3
"""Worst setup slack per register of a synthesised configuration (OpenSTA), so a designer
sees which pipeline stages miss the clock, not only the one worst path the report shows.

It reuses the work directory `make synth` (scripts/synth.py) left for the configuration:
the STA script's set-up (Liberty files, the SG13G2 netlist with its memory black boxes,
the constraints), then `report_checks -format end` with one path per endpoint. Each
endpoint flip-flop (ll_ff_<n>) is named by the net its Q drives in the netlist (an RTL
register name where Yosys kept one), and bits of one register are folded into one row.

usage: sta_endpoints.py --block B --config C [--out DIR] [--top N]
  --out   synthesis work root (default build/synth, as scripts/synth.py)
  --top   rows to print (default 30; 0 = all)
Exit 1 with one error line if the work directory or its STA files are missing. A warning
(stderr) says when the work directory does not match the configuration's committed report
(synth/reports/<block>/<config>.json: another worst slack, or memories timed otherwise):
it was left by another RTL or another version of scripts/synth.py, and its rows may not be
those of the committed figures.
"""
import argparse
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# "ll_ff_12/D (sg13g2_dfrbp_1)  required  arrival  slack" or "port[3] (output) ..."
ENDPOINT_RE = re.compile(r"^(\S+?)(?:/\S+)?\s+\(\S+\)\s+(-?[0-9.]+)\s+(-?[0-9.]+)\s+(-?[0-9.]+)")
FF_RE = re.compile(r"\b(sg13g2_\w+)\s+(ll_ff_\d+)\s*\((.*?)\);", re.S)


def die(msg):
    print(f"sta_endpoints: error: {msg}", file=sys.stderr)
    sys.exit(1)


def setup_lines(sta_tcl):
    """The STA script up to its first report: reading, linking and constraints."""
    lines = []
    with open(sta_tcl) as f:
        for line in f:
            if line.startswith("puts \"LL_STA_BEGIN_CHECKS\""):
                return lines
            lines.append(line)
    die(f"{sta_tcl} has no LL_STA_BEGIN_CHECKS marker (not written by scripts/synth.py?)")


def ff_cells(netlist):
    """{flip-flop instance: (its Liberty cell, the net its Q pin drives)}"""
    with open(netlist) as f:
        text = f.read()
    out = {}
    for m in FF_RE.finditer(text):
        q = re.search(r"\.Q\(\s*([^)]*?)\s*\)", m.group(3))
        out[m.group(2)] = (m.group(1), q.group(1).lstrip("\\").strip() if q else "?")
    return out


def q_nets(netlist):
    """{flip-flop instance: the net its Q pin drives}"""
    return {inst: net for inst, (_, net) in ff_cells(netlist).items()}


def register_of(net):
    """A register's name from one bit's net: `cnt_q [3]` or `cnt_q[3]` -> `cnt_q`."""
    return re.sub(r"\s*\[\d+\]$", "", net)


def endpoints(block, config, out):
    """[(register or port, worst slack ns, its arrival ns, worst endpoint, endpoints)], the
    worst first, from a new STA run on the configuration's work directory."""
    work = os.path.join(out, "work", block, config)
    sta_tcl = os.path.join(work, "sta.tcl")
    netlist = os.path.join(work, "sta_netlist.v")
    for path in (sta_tcl, netlist):
        if not os.path.isfile(path):
            die(f"{path} not found: run `python3 scripts/synth.py --block {block} --config {config}` first")
    script = os.path.join(work, "sta_endpoints.tcl")
    with open(script, "w") as f:
        f.writelines(setup_lines(sta_tcl))
        f.write("report_checks -path_delay max -format end -group_count 1000000 -endpoint_count 1 "
                "-unique_paths_to_endpoint -digits 4\n")
    r = subprocess.run(["sta", "-exit", script], capture_output=True, text=True, timeout=1800)
    if r.returncode != 0:
        die(f"sta failed ({r.returncode}): {r.stderr.strip()[-300:]}")
    names = q_nets(netlist)
    worst = {}   # register -> (slack, arrival, endpoint instance, endpoints)
    for line in r.stdout.splitlines():
        m = ENDPOINT_RE.match(line.strip())
        if not m:
            continue
        inst, arrival, slack = m.group(1), float(m.group(3)), float(m.group(4))
        net = names.get(inst, inst)   # an output port or a memory macro keeps its own name
        reg = register_of(net)
        s, arr, at, n = worst.get(reg, (None, 0.0, inst, 0))
        if s is None or slack < s:
            s, arr, at = slack, arrival, inst
        worst[reg] = (s, arr, at, n + 1)
    if not worst:
        die("no endpoints in the STA report (an unconstrained design?)")
    return sorted(((reg,) + v for reg, v in worst.items()), key=lambda row: row[1])


def stale_reasons(block, config, work, worst_slack):
    """Why the work directory does not match the committed report ([] when it does, or when
    there is no committed report to compare with)."""
    import synth  # the memory Liberty's writer (imported here: synth imports this module)
    report = os.path.join(ROOT, "synth", "reports", block, f"{config}.json")
    if not os.path.isfile(report):
        return []
    with open(report) as f:
        sta = json.load(f).get("sta", {})
    why = []
    wns = sta.get("wns_ns")
    if wns is not None and abs(worst_slack - wns) > 0.0006:
        why.append(f"worst slack {worst_slack:.3f} ns here, {wns:.3f} ns in the report")
    lib = os.path.join(work, "sta_mem.lib")
    here = {}
    if os.path.isfile(lib):
        with open(lib) as f:
            here = synth.mem_lib_timings(f.read())
    for mem in sta.get("memories", []):
        got = here.get(mem.get("cell"))
        if got is None:
            why.append(f"{mem.get('name')} ({mem.get('cell')}) has no stated timing in {lib}")
            continue
        want = (mem.get("access_ns"), mem.get("setup_ns"))
        if abs(got[0] - want[0]) > 1e-6 or abs(got[1] - want[1]) > 1e-6:
            why.append(f"{mem.get('name')} read in {got[0]} ns here, {want[0]} ns in the report")
    return why


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--block", required=True, help="block (synth/<block>/configs.json)")
    ap.add_argument("--config", required=True, help="configuration name in that file")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "synth"),
                    help="synthesis work root (default build/synth, as scripts/synth.py)")
    ap.add_argument("--top", type=int, default=30, help="rows to print, worst first (0 = all; default 30)")
    a = ap.parse_args()
    if a.top < 0:
        die("--top must be >= 0")
    import synth  # scripts/synth.py imports this module: import it here, not at the top
    bad = synth.block_config_error(a.block, a.config)
    if bad:
        die(bad)
    rows = endpoints(a.block, a.config, a.out)
    shown = rows if a.top == 0 else rows[:a.top]
    failing = sum(1 for row in rows if row[1] < 0)
    work = os.path.join(a.out, "work", a.block, a.config)
    print(f"{a.block}/{a.config}: {len(rows)} registers and ports as endpoints, "
          f"{failing} with negative slack (worst per register or port; `sta` on {work}/sta_endpoints.tcl)")
    print("| slack ns | arrival ns | register (Q net) or port | endpoints | worst endpoint |")
    print("| ---: | ---: | --- | ---: | --- |")
    for reg, s, arr, at, n in shown:
        print(f"| {s:.3f} | {arr:.3f} | {reg} | {n} | {at} |")
    why = stale_reasons(a.block, a.config, work, rows[0][1])
    if why:
        print(f"sta_endpoints: warning: {work} does not match synth/reports/{a.block}/{a.config}.json "
              f"({'; '.join(why)}): rerun `python3 scripts/synth.py --block {a.block} --config {a.config}` "
              "for the committed RTL's figures", file=sys.stderr)


if __name__ == "__main__":
    main()
