#!/usr/bin/env python3
"""Fanout repair of the IHP SG13G2 netlist: a step of scripts/synth.py's gate_script, run by
Yosys (`exec`) between the ABC mapping and the flip-flop drive step (scripts/ff_drive.py).

ABC sizes the gates it maps but never splits a net, so a register or gate whose output
feeds hundreds of pins drives them all itself (the DCQCN RP's G_SHIFT register in the
pass drives 210 pins: 1.9 ns from clock to output even as the strong flip-flop). Physical
flows repair such nets before timing (a maximum-fanout rule); this is that rule and
nothing more: it is not timing-driven and it never changes a function.

Every net driven by a cell output (not a module input: the clock, the reset and the
inputs stay as the constraints model them) whose input pins number more than LIMIT is
split: its pins are dealt, in netlist order, into groups of at most LIMIT, each fed by one
BUF_CELL whose input is the original net. If the driver would then drive more than LIMIT
buffers, the buffers are grouped the same way (a tree, as deep as needed). Module outputs
stay on the original net. The netlist is read from and written to Yosys JSON
(write_json / read_json); cell and net names are kept, new ones are ll_fobuf_<n> and
ll_fonet_<n>.

usage: fanout_buf.py NETLIST.json OUT.json [--liberty LIB] [--limit N] [--cell CELL]
"""
import argparse
import json
import sys

import ff_drive   # scripts/ff_drive.py: output pins of the Liberty's cells
import liberty    # scripts/liberty.py: the Liberty file

LIMIT = 24                 # input pins per net (and per buffer) at most
BUF_CELL = "sg13g2_buf_8"  # the buffer of the trees
BUF_IN, BUF_OUT = "A", "X"


def cell_dirs(cell, lib_out):
    """{port: "input"/"output"} of one JSON cell: its own port_directions (Yosys' internal
    cells, e.g. $mem_v2), else the Liberty's output pins (every other pin an input)."""
    dirs = cell.get("port_directions")
    if dirs:
        return dirs
    outs = lib_out.get(cell["type"])
    if outs is None:
        raise ValueError(f"cell type {cell['type']} is neither a Yosys cell with port directions nor in the Liberty")
    return {p: ("output" if p in outs else "input") for p in cell["connections"]}


def repair_module(mod, lib_out, limit, buf_cell, counter):
    """Split the module's high-fanout nets in place; returns (nets split, buffers added)."""
    cells = mod.get("cells", {})
    driven = set()          # bits driven by a cell output
    loads = {}              # bit -> [(cell, port, index)] input pins in netlist order
    for name, c in cells.items():
        for port, d in cell_dirs(c, lib_out).items():
            for i, b in enumerate(c["connections"].get(port, [])):
                if not isinstance(b, int):
                    continue
                if d == "output":
                    driven.add(b)
                else:
                    loads.setdefault(b, []).append((name, port, i))
    top_bit = max([b for p in mod.get("ports", {}).values() for b in p["bits"] if isinstance(b, int)]
                  + [b for n in mod.get("netnames", {}).values() for b in n["bits"] if isinstance(b, int)]
                  + list(driven) + list(loads) + [1])
    nets = bufs = 0
    for bit in sorted(loads):
        pins = loads[bit]
        if bit not in driven or len(pins) <= limit:
            continue
        nets += 1
        level = pins
        while len(level) > limit:
            nxt = []
            for g in range(0, len(level), limit):
                top_bit += 1
                new = top_bit
                bname = f"ll_fobuf_{counter[0]}"
                nname = f"ll_fonet_{counter[0]}"
                counter[0] += 1
                if bname in cells or nname in mod["netnames"]:
                    raise ValueError(f"the netlist already has a cell {bname} or a net {nname}")
                cells[bname] = {"hide_name": 0, "type": buf_cell, "parameters": {}, "attributes": {},
                                "port_directions": {BUF_IN: "input", BUF_OUT: "output"},
                                "connections": {BUF_IN: [bit], BUF_OUT: [new]}}
                mod["netnames"][nname] = {"hide_name": 0, "bits": [new], "attributes": {}}
                for cname, port, i in level[g:g + limit]:
                    cells[cname]["connections"][port][i] = new
                nxt.append((bname, BUF_IN, 0))
                bufs += 1
            level = nxt
    return nets, bufs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("netlist")
    ap.add_argument("out")
    ap.add_argument("--liberty", default=liberty.LIB)
    ap.add_argument("--limit", type=int, default=LIMIT, help=f"input pins per net at most (default {LIMIT})")
    ap.add_argument("--cell", default=BUF_CELL, help=f"buffer cell (default {BUF_CELL})")
    a = ap.parse_args()
    if a.limit < 2:
        sys.exit(f"fanout_buf: --limit must be at least 2, got {a.limit}")
    lib_out = ff_drive.lib_output_pins(a.liberty)
    if lib_out.get(a.cell) != {BUF_OUT}:
        sys.exit(f"fanout_buf: {a.liberty} has no buffer cell {a.cell} with the single output {BUF_OUT}")
    with open(a.netlist) as f:
        netlist = json.load(f)
    counter, nets, bufs = [0], 0, 0
    try:
        for mod in netlist["modules"].values():
            if mod.get("attributes", {}).get("blackbox") or not mod.get("cells"):
                continue
            n, b = repair_module(mod, lib_out, a.limit, a.cell, counter)
            nets, bufs = nets + n, bufs + b
    except ValueError as e:
        sys.exit(f"fanout_buf: {e}")
    with open(a.out, "w") as f:
        json.dump(netlist, f)
    print(f"fanout_buf: {nets} nets over {a.limit} pins split by {bufs} x {a.cell}")


if __name__ == "__main__":
    main()
