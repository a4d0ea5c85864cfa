#!/usr/bin/env python3
"""Logic in front of each register of a synthesised configuration: which part of the area a
register, or a class of registers, costs with the gates that feed it.

It reads the flat IHP SG13G2 netlist `make synth` (scripts/synth.py) left in the
configuration's work directory and walks back from every endpoint (a flip-flop's data and
reset pins, a memory's write and address pins, an output port) through the combinational
cells to the registers, memories and input ports that start the paths. The flip-flops are
grouped by register as the report's "By register" table groups them (the net each one's Q
drives, bits and array elements folded into [*]); memories are named by their instance,
outputs by their port. A combinational cell whose paths all end in one register is that
register's own logic; a cell that feeds several is shared, and counted once, apart.

`--class NAME=REGEX` (repeatable) adds a row per class: every register whose name matches
REGEX (Python `re.search`), its flip-flops, and the logic whose paths all end in the class.
That is a measured lower bound of what the class's registers cost: a cell it shares with a
register outside the class is not counted.

usage: area_cones.py --block B --config C [--out DIR] [--top N] [--class NAME=REGEX ...]
Exit 1 with one error line if the work directory or its netlist is missing, or a class is
malformed or matches no register. NAND2-eq is the cell area over sg13g2_nand2_1's.
"""
import argparse
import json
import os
import re
import sys

import synth
import sta_endpoints
from ff_drive import lib_output_pins

MEM_TYPE = "LL_STA_MEM"       # scripts/synth.py's memory black box in sta_netlist.v
MEM_OUT_PINS = {"RD_DATA"}
CLOCK_PINS = {"CLK", "RD_CLK", "WR_CLK"}
CELL_START = re.compile(r"^\s+(\w+)\s+(?:(#\()|(\S+)\s*\()\s*$")
PARAM_END = re.compile(r"^\s*\)\s+(\S+)\s*\(\s*$")
PIN = re.compile(r"\.(\w+)\((.*?)\)\s*(?:,|$)")
REF = re.compile(r"\\\S+(?:\s\[\d+\])?|[A-Za-z_][\w$.]*(?:\s*\[\d+\])?|\d+'[hbdo][0-9a-fA-FxXzZ]+")
DECL = re.compile(r"^\s*(wire|input|output)\s+(?:\[(\d+):(\d+)\]\s+)?(\S+)\s*;")


def die(msg):
    print(f"area_cones: error: {msg}", file=sys.stderr)
    sys.exit(1)


def norm(ref):
    """`\\u_pass.st_o [132]` -> `u_pass.st_o[132]`; constants -> None."""
    if re.match(r"\d+'", ref):
        return None
    return re.sub(r"\s+\[", "[", ref.lstrip("\\")).strip()


def parse(netlist):
    """(cells [(type, name, {pin: [nets]})], output ports, widths) of a flat netlist (input
    ports start paths like registers; nothing needs their names)."""
    cells, outputs, widths = [], [], {}
    with open(netlist) as f:
        lines = f.read().split("\n")
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        d = DECL.match(line)
        if d:
            name = norm(d.group(4))
            width = abs(int(d.group(2)) - int(d.group(3))) + 1 if d.group(2) else 1
            widths[name] = (width, min(int(d.group(2)), int(d.group(3))) if d.group(2) else 0)
            if d.group(1) == "output":
                outputs.append(name)
            i += 1
            continue
        m = CELL_START.match(line)
        if not m or m.group(1) in ("module", "wire", "input", "output", "assign", "reg"):
            i += 1
            continue
        ctype = m.group(1)
        if m.group(2):                      # parameters: skip to ") name ("
            i += 1
            while i < n and not PARAM_END.match(lines[i]):
                i += 1
            if i >= n:
                die(f"{netlist}: unterminated parameter list of a {ctype} cell")
            cname = norm(PARAM_END.match(lines[i]).group(1))
        else:
            cname = norm(m.group(3))
        body = []
        i += 1
        while i < n and lines[i].strip() != ");":
            body.append(lines[i].strip())
            i += 1
        pins = {}
        for p in PIN.finditer("\n".join(body)):
            pins[p.group(1)] = [r for r in (norm(x) for x in REF.findall(p.group(2))) if r]
        cells.append((ctype, cname, pins))
        i += 1
    return cells, outputs, widths


def expand(net, widths):
    """A whole-bus reference -> its bits; a bit or a scalar -> itself."""
    w = widths.get(net)
    if w and w[0] > 1 and not net.endswith("]"):
        return [f"{net}[{w[1] + k}]" for k in range(w[0])]
    return [net]


def analyse(netlist):
    """({group: {"ffs", "ff_area"}}, {comb cell index: set of groups}, comb cell areas,
    total comb area) of a netlist."""
    lc = synth.lib_cells()
    outs = lib_output_pins()
    cells, outputs, widths = parse(netlist)
    driver = {}            # net -> comb cell index (only combinational cells are walked)
    comb_in = {}           # comb cell index -> its input nets
    comb_area = {}
    groups = {}            # group -> {"ffs": n, "ff_area": um^2, "ends": [nets]}
    for idx, (ctype, cname, pins) in enumerate(cells):
        if ctype == MEM_TYPE:
            g = groups.setdefault(cname, {"ffs": 0, "ff_area": 0.0, "ends": []})
            for pin, nets in pins.items():
                if pin not in MEM_OUT_PINS and pin not in CLOCK_PINS:
                    for net in nets:
                        g["ends"].extend(expand(net, widths))
            continue
        if ctype not in lc:
            die(f"{netlist}: cell type {ctype} (instance {cname}) is not in the Liberty file")
        area, seq = lc[ctype]
        opins = outs.get(ctype, set())
        if seq:
            q = pins.get("Q") or pins.get("Q_N") or ["?"]
            reg = synth.register_group(q[0])
            g = groups.setdefault(reg, {"ffs": 0, "ff_area": 0.0, "ends": []})
            g["ffs"] += 1
            g["ff_area"] += area
            for pin, nets in pins.items():
                if pin not in opins and pin not in CLOCK_PINS:
                    for net in nets:
                        g["ends"].extend(expand(net, widths))
            continue
        comb_area[idx] = area
        ins = []
        for pin, nets in pins.items():
            for net in nets:
                if pin in opins:
                    for b in expand(net, widths):
                        driver[b] = idx
                else:
                    ins.extend(expand(net, widths))
        comb_in[idx] = ins
    for port in outputs:
        for b in expand(port, widths):
            name = "port " + sta_endpoints.register_of(b)
            g = groups.setdefault(name, {"ffs": 0, "ff_area": 0.0, "ends": []})
            g["ends"].append(b)
    reach = {}
    for gname, g in groups.items():
        seen = set()
        stack = [driver[n] for n in g["ends"] if n in driver]
        while stack:
            c = stack.pop()
            if c in seen:
                continue
            seen.add(c)
            for net in comb_in[c]:
                d = driver.get(net)
                if d is not None and d not in seen:
                    stack.append(d)
        for c in seen:
            reach.setdefault(c, set()).add(gname)
    return groups, reach, comb_area


def attribute(netlist):
    """(groups, {group: its own comb area}, shared area, area reaching no endpoint, total
    comb area, reach, comb cell areas) of a netlist (areas in um^2)."""
    groups, reach, comb_area = analyse(netlist)
    own = {g: 0.0 for g in groups}
    shared = 0.0
    unreached = 0.0
    for c, area in comb_area.items():
        r = reach.get(c)
        if not r:
            unreached += area
        elif len(r) == 1:
            own[next(iter(r))] += area
        else:
            shared += area
    return groups, own, shared, unreached, sum(comb_area.values()), reach, comb_area


def class_area(groups, reach, comb_area, members):
    """(flip-flops, their area, the area of the logic whose paths all end in members)."""
    ffa = sum(groups[g]["ff_area"] for g in members)
    ca = sum(area for c, area in comb_area.items() if reach.get(c) and reach[c] <= members)
    return sum(groups[g]["ffs"] for g in members), ffa, ca


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--block", required=True, help="block (synth/<block>/configs.json)")
    ap.add_argument("--config", required=True, help="configuration name in that file")
    ap.add_argument("--out", default=os.path.join(synth.ROOT, "build", "synth"),
                    help="synthesis work root (default build/synth, as scripts/synth.py)")
    ap.add_argument("--top", type=int, default=20, help="register rows to print, largest first (0 = all; default 20)")
    ap.add_argument("--class", dest="classes", action="append", default=[], metavar="NAME=REGEX",
                    help="a class of registers: its flip-flops and the logic only it uses")
    a = ap.parse_args()
    if a.top < 0:
        die(f"--top must be >= 0, not {a.top}")
    classes = []
    for spec in a.classes:
        name, sep, rx = spec.partition("=")
        if not sep or not name or not rx:
            die(f"--class {spec!r}: expected NAME=REGEX")
        try:
            classes.append((name, re.compile(rx)))
        except re.error as e:
            die(f"--class {spec!r}: bad regular expression: {e}")
    bad = synth.block_config_error(a.block, a.config)
    if bad:
        die(bad)
    netlist = os.path.join(a.out, "work", a.block, a.config, "sta_netlist.v")
    if not os.path.isfile(netlist):
        die(f"{netlist} not found: run `python3 scripts/synth.py --block {a.block} --config {a.config}` first")

    groups, own, shared, unreached, comb_total, reach, comb_area = attribute(netlist)
    if not any(g["ffs"] for g in groups.values()):
        die(f"{netlist}: no flip-flop found (not a netlist scripts/synth.py wrote?)")
    nand2 = synth.nand2_area()
    ff_total = sum(g["ff_area"] for g in groups.values())
    nffs = sum(g["ffs"] for g in groups.values())
    members = {}
    for name, rx in classes:
        members[name] = {g for g in groups if rx.search(g)}
        if not members[name]:
            die(f"--class {name}: no register matches {rx.pattern!r}")
    eq = lambda um2: round(um2 / nand2)
    report = os.path.join(synth.ROOT, "synth", "reports", a.block, f"{a.config}.json")
    if os.path.isfile(report):
        want = json.load(open(report)).get("nand2_eq")
        if want is not None and abs(eq(ff_total + comb_total) - want) > 1:
            print(f"area_cones: warning: the work directory's logic ({eq(ff_total + comb_total):,} NAND2-eq) is not the "
                  f"committed report's ({want:,}): it was left by other RTL or another flow, its rows are not "
                  f"those of the committed figures", file=sys.stderr)
    print(f"area_cones: {a.block}/{a.config} ({os.path.relpath(netlist)}): logic {eq(ff_total + comb_total):,} NAND2-eq "
          f"= flip-flops {eq(ff_total):,} ({nffs:,} cells) + combinational {eq(comb_total):,}, of which "
          f"{eq(comb_total - shared - unreached):,} feeds one register alone, {eq(shared):,} several"
          + (f", {eq(unreached):,} none" if unreached else ""))
    # an output port driven straight by a register has no logic of its own: no row
    rows = sorted(((k, g) for k, g in groups.items() if g["ffs"] or own[k] > 0.0),
                  key=lambda kv: (-(kv[1]["ff_area"] + own[kv[0]]), kv[0]))
    shown = rows if a.top == 0 else rows[:a.top]
    print(f"{'register (or memory, output port)':44s} {'ffs':>5s} {'ff NAND2-eq':>11s} {'own logic':>10s} {'together':>9s}")
    for gname, g in shown:
        print(f"{gname:44s} {g['ffs']:5d} {eq(g['ff_area']):11,d} {eq(own[gname]):10,d} {eq(g['ff_area'] + own[gname]):9,d}")
    if len(shown) < len(rows):
        rest = rows[len(shown):]
        print(f"{'(' + str(len(rest)) + ' more)':44s} {sum(g['ffs'] for _, g in rest):5d} "
              f"{eq(sum(g['ff_area'] for _, g in rest)):11,d} {eq(sum(own[k] for k, _ in rest)):10,d} "
              f"{eq(sum(g['ff_area'] + own[k] for k, g in rest)):9,d}")
    if classes:
        print()
        print(f"{'class':24s} {'registers':>9s} {'ffs':>6s} {'ff NAND2-eq':>11s} {'own logic':>10s} {'together':>9s}  share of logic")
        for name, rx in classes:
            nff, ffa, ca = class_area(groups, reach, comb_area, members[name])
            print(f"{name:24s} {len(members[name]):9d} {nff:6d} {eq(ffa):11,d} {eq(ca):10,d} {eq(ffa + ca):9,d}  "
                  f"{100 * (ffa + ca) / (ff_total + comb_total):.1f}%")


if __name__ == "__main__":
    main()
