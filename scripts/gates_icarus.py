#!/usr/bin/env python3
"""Second opinion on a gate netlist: replay an RTL lockstep run's inputs into the netlist
under Icarus Verilog (4-state, event-driven; no Verilator) and compare its outputs with the
RTL's, cycle by cycle.

`make gates` simulates netlists with Verilator. When a netlist mismatches there, this tells
a wrong netlist from a wrong simulation of a right one: the RTL bench (build/tb, traced)
writes the waveform of the same seed up to a cycle; its top-level inputs drive the netlist in
Icarus, and every output bit Icarus resolves to 0/1 must equal the RTL's. Bits Icarus leaves
x (registers no reset reaches, data outputs while their valid is low) are counted, not
compared. Slow (Icarus runs a 100k-cell netlist at tens of cycles a second): for short
windows, e.g. up to the first Verilator mismatch.

Usage:
  gates_icarus.py --block dcqcn --set s0 --netlist build/gates/netlists/dcqcn.s0.v --cycles 100
                  [--seed 1] [--full-cycles 1000000] [--tb build/tb/dcqcn/tb_dcqcn] [--out DIR]
  --full-cycles: the --cycles of the run whose stimulus is replayed (the mid-run resets are
  drawn from it), so the window is the start of that run.
Exit 0: every resolved output bit equal; 1: a difference (the first ones are listed); 2: usage.
"""
import argparse
import os
import shutil
import subprocess
import sys

import gates   # scripts/gates.py: how a gate netlist's module and ports are read

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HALF_PS = 1000  # the bench's clock: falling edge at 2000c ps, rising edge at 2000c + 1000


def die(msg):
    print(f"gates_icarus: {msg}", file=sys.stderr)
    sys.exit(2)


def netlist_ports(path):
    """(module name, {port: (direction, width)}) of the netlist's top module (the first:
    gates.py's wrapper), read as gates.py reads it."""
    try:
        top = gates.netlist_top(path)
        ports = {n: (d, w) for n, d, w in gates.verilog_ports(path, top)}
    except RuntimeError as e:
        die(str(e))
    if not ports:
        die(f"{path}: module {top} has no ports")
    return top, ports


def read_vcd(path, scope):
    """The value changes of the variables directly in scope (a list of names), as
    {name: [(time, bits)]}, bits MSB first at full width."""
    code, width, changes = {}, {}, {}
    stack, t = [], 0
    with open(path) as f:
        header = True
        for line in f:
            tok = line.split()
            if not tok:
                continue
            if header:
                if tok[0] == "$scope":
                    stack.append(tok[2])
                elif tok[0] == "$upscope":
                    stack.pop()
                elif tok[0] == "$var" and stack == scope:
                    code.setdefault(tok[3], []).append(tok[4])
                    width[tok[4]] = int(tok[2])
                elif tok[0] == "$enddefinitions":
                    header = False
                continue
            c = line[0]
            if c == "#":
                t = int(line[1:])
                continue
            if c in "bB":
                bits, ident = tok[0][1:], tok[1]
            elif c in "01xXzZ":
                bits, ident = c, line[1:].strip()
            else:
                continue
            for name in code.get(ident, ()):
                w = width[name]
                pad = bits[0] if bits[0] in "xXzZ" else "0"
                changes.setdefault(name, []).append((t, bits.lower().rjust(w, pad.lower())))
    return changes, width


def value_at(series, t):
    v = None
    for tt, bits in series:
        if tt > t:
            break
        v = bits
    return v


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--block", required=True)
    ap.add_argument("--set", required=True)
    ap.add_argument("--netlist", required=True)
    ap.add_argument("--cycles", type=int, required=True, help="cycles to replay and compare")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--full-cycles", type=int, default=1000000)
    ap.add_argument("--tb", help="the traced RTL bench (default build/tb/<block>/tb_<block>)")
    ap.add_argument("--out", help="work directory (default build/gates-icarus/<block>.<set>)")
    a = ap.parse_args()
    if a.full_cycles < 100:  # the bench runs it: its shortest run
        die("--full-cycles must be at least 100 (the benches refuse runs below 100 cycles)")
    if a.cycles < 1 or a.cycles > a.full_cycles:
        die("--cycles must be in 1..--full-cycles")
    for tool in ("iverilog", "vvp"):
        if not shutil.which(tool):
            die(f"{tool} not found (make deps installs iverilog)")
    if not os.path.isfile(a.netlist):
        die(f"{a.netlist}: no such netlist (python3 scripts/gates.py writes them)")
    tb = a.tb or os.path.join(ROOT, "build", "tb", a.block, f"tb_{a.block}")
    if not os.access(tb, os.X_OK):
        die(f"{tb}: no traced RTL bench (make build)")
    out = os.path.abspath(a.out or os.path.join(ROOT, "build", "gates-icarus", f"{a.block}.{a.set}"))
    os.makedirs(out, exist_ok=True)
    top, ports = netlist_ports(a.netlist)

    # 1. the RTL run, traced from cycle 0 to the window's end, with the full run's stimulus
    for f in os.listdir(out):
        if f.endswith(".vcd"):
            os.remove(os.path.join(out, f))
    p = subprocess.run([tb, "--set", a.set, "--seed", str(a.seed), "--cycles", str(a.full_cycles),
                        "--stop-after", str(a.cycles + 1), "--wave-from", "0", "--bins", "", "--out", out],
                       capture_output=True, text=True)
    vcds = [f for f in os.listdir(out) if f.endswith(".vcd")]
    if not vcds:
        die(f"the RTL bench wrote no waveform (exit {p.returncode}): {p.stdout[-400:]}{p.stderr[-400:]}")
    changes, width = read_vcd(os.path.join(out, vcds[0]), ["dut", top])
    missing = [n for n in ports if n not in changes]
    if missing:
        die(f"ports missing from the RTL waveform's scope dut.{top}: {', '.join(missing[:5])}")
    for n, (_, w) in ports.items():
        if width[n] != w:
            die(f"port {n}: {w} bits in the netlist, {width[n]} in the RTL waveform")
    ins = sorted(n for n, (d, _) in ports.items() if d == "input")
    outs = sorted(n for n, (d, _) in ports.items() if d == "output")

    # 2. a testbench that replays the inputs at their times and prints the outputs between edges
    events = sorted({t for n in ins for t, _ in changes[n]})
    body, now = [], 0
    for t in events:
        if t > now:
            body.append(f"    #{t - now};")
            now = t
        for n in ins:
            for tt, bits in changes[n]:
                if tt == t:
                    body.append(f"    {n} = {width[n]}'b{bits};")
    end = 2000 * (a.cycles + 1) + HALF_PS
    lines = ["`timescale 1ps/1ps", "module gates_icarus_tb;"]
    lines += [f"  reg [{width[n] - 1}:0] {n};" for n in ins]
    lines += [f"  wire [{width[n] - 1}:0] {n};" for n in outs]
    lines.append(f"  {top} dut(" + ", ".join(f".{n}({n})" for n in ins + outs) + ");")
    fmt = " ".join(f"{n}=%b" for n in outs)
    lines.append(f"  always @(negedge clk_i) #{HALF_PS // 2} $display(\"T %0t {fmt}\", $time, "
                 + ", ".join(outs) + ");")
    lines.append("  initial begin")
    lines += body
    lines.append(f"    #{max(1, end - now)}; $finish;")
    lines += ["  end", "endmodule"]
    tbv = os.path.join(out, "gates_icarus_tb.v")
    with open(tbv, "w") as f:
        f.write("\n".join(lines) + "\n")
    sim = os.path.join(out, "sim.vvp")
    ram = os.path.join(ROOT, "rtl", "common", "ll_ram_1r1w.sv")
    p = subprocess.run(["iverilog", "-g2012", "-I", os.path.join(ROOT, "rtl", "common"), "-o", sim,
                        tbv, a.netlist, ram], capture_output=True, text=True)
    if p.returncode != 0:
        die(f"iverilog failed: {p.stderr[-800:]}")
    p = subprocess.run(["vvp", "-n", sim], capture_output=True, text=True)
    if p.returncode != 0:
        die(f"vvp failed: {p.stderr[-800:]}")

    # 3. compare every resolved bit with the RTL's value at the same time
    diffs, xbits, compared = [], 0, 0
    for line in p.stdout.splitlines():
        if not line.startswith("T "):
            continue
        f = line.split()
        t = int(f[1])
        cycle = (t - HALF_PS // 2) // 2000
        if "rst_ni" in changes and value_at(changes["rst_ni"], t) != "1":
            continue  # in reset: the bench does not compare either
        for kv in f[2:]:
            n, got = kv.split("=")
            exp = value_at(changes[n], t)
            for i, (g, e) in enumerate(zip(got, exp)):
                if g not in "01":
                    xbits += 1
                    continue
                compared += 1
                if e in "01" and g != e:
                    diffs.append(f"cycle {cycle}: {n}[{len(got) - 1 - i}] netlist {g}, RTL {e}")
    print(f"gates_icarus: {a.block} set {a.set} seed {a.seed}, cycles 1..{a.cycles} out of reset: "
          f"{compared} output bits compared, {len(diffs)} differ, {xbits} left x by Icarus")
    for d in diffs[:20]:
        print("  " + d)
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
