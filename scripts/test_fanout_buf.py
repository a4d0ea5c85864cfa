#!/usr/bin/env python3
"""Tests of scripts/fanout_buf.py (the fanout repair of synth.py's gate_script) on a small
design of its own, mapped to IHP SG13G2 by the same Yosys commands (run by
`make synth-smoke`, a few seconds):

  * a register that drives 70 gate pins and a module output, and a gate (a parity) that drives 20:
    with a limit of 8, every net driven by a cell then drives at most 8 input pins (the
    register through a two-level tree), the module output stays on the register's net,
    and the clock and the inputs (driven by ports) are not buffered;
  * the buffered netlist is proved equivalent to the unbuffered one (Yosys equiv_make /
    equiv_simple over the Liberty functions), and the same proof fails on a netlist whose
    buffering moved one pin to the wrong tree (so the check can fail);
  * bad input (a limit below 2, a cell type the Liberty does not have) stops with one
    message and a non-zero exit.

Exit 0 when every check holds, 1 otherwise (each failed check is named)."""
import argparse
import json
import os
import subprocess
import sys

import fanout_buf
import ff_drive
import synth

TOP = "ll_fanout_check"
RTL = """module ll_fanout_check (input wire clk, input wire [69:0] a, input wire [19:0] b,
                        input wire [1:0] s, output wire [69:0] y, output wire [19:0] z,
                        output wire r_o);
  reg r;
  always @(posedge clk) r <= s[0] ^ s[1];
  wire g = ^a;
  assign y = a & {70{r}};
  assign z = b | {20{g}};
  assign r_o = r;
endmodule
"""
LIMIT = 8


def yosys(script, work, name):
    path = os.path.join(work, f"{name}.ys")
    with open(path, "w") as f:
        f.write(script)
    r = subprocess.run(["yosys", "-q", "-l", os.path.join(work, f"{name}.log"), "-s", path],
                       capture_output=True, text=True)
    return r.returncode


def buffer_run(work, args):
    return subprocess.run([sys.executable, os.path.join(synth.ROOT, "scripts", "fanout_buf.py")] + args,
                          capture_output=True, text=True, cwd=work)


def loads_and_drivers(netlist):
    """(bit -> input pins, bits driven by cells, output-port bits) of the single module."""
    lib_out = ff_drive.lib_output_pins()
    mod = netlist["modules"][TOP]
    loads, driven = {}, set()
    for c in mod["cells"].values():
        for port, d in fanout_buf.cell_dirs(c, lib_out).items():
            for b in c["connections"][port]:
                if isinstance(b, int):
                    if d == "output":
                        driven.add(b)
                    else:
                        loads[b] = loads.get(b, 0) + 1
    outs = {b for p in mod["ports"].values() if p["direction"] == "output" for b in p["bits"]}
    return loads, driven, outs


def equiv_script(gold_json, gate_json):
    """Yosys commands that exit 0 only if the two netlists agree on every output for four
    cycles from a zero start (a miter over the Liberty functions; the test design has one
    register, so this covers every state it can reach)."""
    return (f"read_liberty -ignore_miss_func {synth.LIB}\n"
            f"read_json {gold_json}\nrename {TOP} gold\nread_json {gate_json}\nrename {TOP} gate\n"
            f"setattr -mod -unset top gold gate\nflatten\nasync2sync\nopt_clean\n"
            f"miter -equiv -flatten -make_assert gold gate miter\nhierarchy -top miter\n"
            f"sat -verify -prove-asserts -set-init-zero -seq 4 miter\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quiet", action="store_true", help="print only failed checks and the verdict")
    ap.add_argument("--out", default=os.path.join(synth.ROOT, "build", "synth", "work", "test_fanout_buf"))
    a = ap.parse_args()
    work = synth.fresh_work(a.out, {f"{TOP}.v": RTL})
    failures = []

    def check(ok, what):
        if not ok or not a.quiet:
            print(f"test_fanout_buf: {'ok  ' if ok else 'FAIL'} {what}")
        if not ok:
            failures.append(what)

    rc = yosys(f"read_verilog {work}/{TOP}.v\nhierarchy -check -top {TOP}\nsynth -top {TOP} -flatten\n"
               f"dfflibmap -liberty {synth.LIB}\nabc -liberty {synth.LIB}\nopt_clean\n"
               f"write_json {work}/in.json\n", work, "map")
    if rc != 0:
        print(f"test_fanout_buf: FAIL the mapping of the test design (see {work}/map.log)")
        return 1
    r = buffer_run(work, ["--limit", str(LIMIT), "in.json", "out.json"])
    check(r.returncode == 0, f"fanout_buf.py --limit {LIMIT} runs ({r.stdout.strip() or r.stderr.strip()})")
    if r.returncode != 0:
        return 1
    before, after = json.load(open(f"{work}/in.json")), json.load(open(f"{work}/out.json"))
    l0, d0, outs = loads_and_drivers(before)
    l1, d1, _ = loads_and_drivers(after)
    big = sorted(b for b in d0 if l0.get(b, 0) > LIMIT)
    check([l0[b] for b in big] == [20, 70] or [l0[b] for b in big] == [70, 20],
          f"the unbuffered netlist has the two nets over the limit (pins: {[l0[b] for b in big]})")
    worst = max(l1.get(b, 0) for b in d1)
    check(worst <= LIMIT, f"every cell-driven net drives at most {LIMIT} pins after (worst {worst})")
    bufs = [c for c in after["modules"][TOP]["cells"].values() if c["type"] == fanout_buf.BUF_CELL]
    # 70 pins: 9 buffers, then 2 above them; 20 pins: 3 buffers
    check(len(bufs) == 14, f"buffer count 14 (70 pins: 9 + 2 in two levels, 20 pins: 3), got {len(bufs)}")
    r_bit = after["modules"][TOP]["ports"]["r_o"]["bits"][0]
    check(r_bit in d1 and r_bit in outs, "the module output r_o stays on the register's own net")
    port_in = {b for p in after["modules"][TOP]["ports"].values() if p["direction"] == "input" for b in p["bits"]}
    fed = {c["connections"]["A"][0] for c in bufs}
    check(not (fed & port_in), "no buffer is fed by a module input (clock, data inputs)")

    check(yosys(equiv_script(f"{work}/in.json", f"{work}/out.json"), work, "equiv") == 0,
          "the buffered netlist is equivalent to the unbuffered one")
    # a wrong tree: one of the register's pins moved onto the gate's tree
    bad = json.load(open(f"{work}/out.json"))
    mod = bad["modules"][TOP]
    g_bit = next(b for b in big if l0[b] == 20)
    g_tree = {c["connections"]["X"][0] for c in mod["cells"].values()
              if c["type"] == fanout_buf.BUF_CELL and c["connections"]["A"][0] == g_bit}
    r_tree = {c["connections"]["X"][0] for c in mod["cells"].values() if c["type"] == fanout_buf.BUF_CELL} - g_tree
    moved = False
    for c in mod["cells"].values():
        for bits in c["connections"].values():
            for i, b in enumerate(bits):
                if not moved and c["type"] != fanout_buf.BUF_CELL and b in r_tree:
                    bits[i] = min(g_tree)
                    moved = True
    with open(f"{work}/bad.json", "w") as f:
        json.dump(bad, f)
    check(moved and yosys(equiv_script(f"{work}/in.json", f"{work}/bad.json"), work, "equiv_bad") != 0,
          "the proof fails on a netlist with one pin on the wrong tree")

    r = buffer_run(work, ["--limit", "1", "in.json", "x.json"])
    check(r.returncode != 0 and "--limit must be at least 2" in r.stderr and not os.path.exists(f"{work}/x.json"),
          f"--limit 1 is refused ({r.stderr.strip()})")
    unknown = json.load(open(f"{work}/in.json"))
    cell = next(iter(unknown["modules"][TOP]["cells"].values()))
    cell["type"] = "sg13g2_no_such_cell"
    cell.pop("port_directions", None)
    with open(f"{work}/unknown.json", "w") as f:
        json.dump(unknown, f)
    r = buffer_run(work, ["unknown.json", "x.json"])
    check(r.returncode != 0 and "sg13g2_no_such_cell" in r.stderr and not os.path.exists(f"{work}/x.json"),
          f"an unknown cell type is refused ({r.stderr.strip()})")
    if failures:
        print(f"test_fanout_buf: {len(failures)} check(s) failed")
        return 1
    print("test_fanout_buf: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
