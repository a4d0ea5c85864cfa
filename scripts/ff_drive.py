#!/usr/bin/env python3
"""Flip-flop drive strength of the IHP SG13G2 netlist: a step of scripts/synth.py's
gate_script, run by Yosys (`exec`) between the ABC mapping and the area report.

dfflibmap maps every flip-flop to one cell (sg13g2_dfrbp_1, the weaker of the library's
two) and ABC sizes only the logic it maps, so a register whose output fans out to tens of
gates keeps the weak driver: its clock-to-output grows to 0.8-1.5 ns (a fanout of 50-90
in the reports). This step maps every flip-flop whose outputs drive more than FANOUT_LIMIT
input pins to the stronger cell of the same function (sg13g2_dfrbp_2, +7.26 um^2, one
NAND2 equivalent). It reads the netlist Yosys wrote (write_json, flip-flops renamed
ll_ff_<n>) and writes the `chtype` commands Yosys runs next (`script`).

usage: ff_drive.py NETLIST.json OUT.ys [--liberty LIB]
"""
import argparse
import json
import re
import sys

import liberty    # scripts/liberty.py: the Liberty file and its cells

FF_CELL = "sg13g2_dfrbp_1"
FF_STRONG = "sg13g2_dfrbp_2"
FF_PATTERN = "ll_ff_%"      # rename -enumerate -pattern of the flip-flops before write_json
FANOUT_LIMIT = 16           # more driven pins than this: the strong cell


def lib_output_pins(lib_path=liberty.LIB):
    """{cell: set of output pin names} of a Liberty file."""
    pin_re = re.compile(r"\bpin\s*\(\s*\"?(\w+)\"?\s*\)\s*\{\s*direction\s*:\s*\"?(\w+)")
    return {name: {p.group(1) for p in pin_re.finditer(group) if p.group(2) == "output"}
            for name, group in liberty.cell_groups(lib_path).items()}


def fanouts(netlist, lib_out):
    """{(module, flip-flop cell name): driven input pins} over every module of a write_json
    netlist (module output ports count as one pin per bit)."""
    result = {}
    for mname, mod in netlist["modules"].items():
        cells = mod.get("cells", {})
        if not any(c["type"] == FF_CELL for c in cells.values()):
            continue
        load = {}      # net bit -> input pins on it
        for c in cells.values():
            dirs = c.get("port_directions", {})
            outs = lib_out.get(c["type"])
            for port, bits in c["connections"].items():
                d = dirs.get(port) or ("output" if outs is not None and port in outs else "input")
                if d == "input":
                    for b in bits:
                        if isinstance(b, int):
                            load[b] = load.get(b, 0) + 1
        for p in mod.get("ports", {}).values():
            if p["direction"] == "output":
                for b in p["bits"]:
                    if isinstance(b, int):
                        load[b] = load.get(b, 0) + 1
        for name, c in cells.items():
            if c["type"] != FF_CELL:
                continue
            n = 0
            for port in lib_out[FF_CELL]:
                for b in c["connections"].get(port, []):
                    if isinstance(b, int):
                        n += load.get(b, 0)
            result[(mname, name)] = n
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("netlist")
    ap.add_argument("out")
    ap.add_argument("--liberty", default=liberty.LIB)
    a = ap.parse_args()
    lib_out = lib_output_pins(a.liberty)
    if not lib_out.get(FF_CELL) or lib_out[FF_CELL] != lib_out.get(FF_STRONG):
        sys.exit(f"ff_drive: {a.liberty} lacks {FF_CELL} / {FF_STRONG} with the same output pins")
    with open(a.netlist) as f:
        fo = fanouts(json.load(f), lib_out)
    prefix = FF_PATTERN.replace("%", "")
    bad = [f"{m}/{n}" for m, n in fo if not re.fullmatch(re.escape(prefix) + r"\d+", n) or not re.fullmatch(r"\w+", m)]
    if bad:
        sys.exit(f"ff_drive: flip-flops not renamed {FF_PATTERN} before write_json, or in a module "
                 f"with an escaped name: {bad[:3]}")
    strong = sorted((k for k, f in fo.items() if f > FANOUT_LIMIT), key=lambda k: (k[0], int(k[1][len(prefix):])))
    names = [f"{m}/{n}" for m, n in strong]
    with open(a.out, "w") as f:
        f.write(f"# scripts/ff_drive.py: {len(strong)} of {len(fo)} flip-flops drive more than "
                f"{FANOUT_LIMIT} pins -> {FF_STRONG}\n")
        f.write(f"select -assert-count 0 t:{FF_STRONG}\n")
        for i in range(0, len(names), 200):
            f.write(f"chtype -set {FF_STRONG} " + " ".join(names[i:i + 200]) + "\n")
        f.write(f"select -assert-count {len(strong)} t:{FF_STRONG}\n")
    print(f"ff_drive: {len(strong)} of {len(fo)} flip-flops -> {FF_STRONG}")


if __name__ == "__main__":
    main()
