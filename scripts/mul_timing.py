#!/usr/bin/env python3
"""Area and static timing of one unsigned WA x WB multiply, registered on both sides, through
the same SG13G2 flow and OpenSTA constraints as `make synth` (scripts/synth.py: generic
synthesis, dfflibmap, ABC with the flow's recipe, fanout buffering, flip-flop drive strength,
then `sta` at the configured clock with registered I/O). It answers one question the DCQCN
RP's timing target raises (docs/synthesis.md, "DCQCN RP"): does its 40 x 45 cut multiply fit
one 4 ns stage, and in how many does it fit?

Three forms of the same product, each kept as the top bits p = (a * b) >> shift:

  array  `a * b` in RTL (Yosys 0.23 maps $mul to an array of adders; ABC restructures it)
  tree   a carry-save (Wallace) tree of 3:2 compressors written out as gates, one adder at
         the end, all in one stage
  tree2  the same tree with its two output rows registered, the final adder in a second stage

Usage:
  mul_timing.py [--wa 40] [--wb 45] [--shift 44] [--clock-ns 4.0] [--form array --form tree ...]
                [--out build/synth]

Before a tree form is measured, Yosys checks that the tree adds up to a * b (`sat` over
every input when wa + wb <= 12, else `eval` at 65 operand pairs). Prints one row per form:
SG13G2 area (flip-flops included), flip-flops, NAND2-eq of the logic without the
flip-flops, the STA critical path and worst slack. Work files land in
<out>/work/mul_timing/<form>_<wa>x<wb>/. Bad arguments or a failed tool or check: one error
line, exit 1.
"""
import argparse
import os
import random
import re
import sys

import synth  # scripts/synth.py: the flow's Yosys steps and the STA run

FORMS = ("array", "tree", "tree2")


def die(msg):
    print(f"mul_timing: error: {msg}", file=sys.stderr)
    sys.exit(1)


def tree_rtl(wa, wb, name):
    """A module `name` (a, b -> s, c) whose s + c is a * b: partial product j is
    b[j] ? a << j : 0; each level turns every full group of three rows x, y, z into
    x ^ y ^ z and the majority shifted left by one; rows left over pass on, down to two
    (wb >= 3, as main() requires)."""
    pw = wa + wb
    out = [f"module {name} (input wire [{wa - 1}:0] a, input wire [{wb - 1}:0] b,",
           f"  output wire [{pw - 1}:0] s, output wire [{pw - 1}:0] c);"]
    cur = []
    for j in range(wb):
        out.append(f"  wire [{pw - 1}:0] r0_{j} = b[{j}] ? ({{{wb}'d0, a}} << {j}) : {pw}'d0;")
        cur.append(f"r0_{j}")
    lvl = 0
    while len(cur) > 2:
        lvl += 1
        nxt = []
        groups = len(cur) // 3
        for g in range(groups):
            x, y, z = cur[3 * g:3 * g + 3]
            out.append(f"  wire [{pw - 1}:0] r{lvl}_{2 * g} = {x} ^ {y} ^ {z};")
            out.append(f"  wire [{pw - 1}:0] r{lvl}_{2 * g + 1} = (({x} & {y}) | ({x} & {z}) | ({y} & {z})) << 1;")
            nxt += [f"r{lvl}_{2 * g}", f"r{lvl}_{2 * g + 1}"]
        nxt += cur[3 * groups:]
        cur = nxt
    out += [f"  assign s = {cur[0]};", f"  assign c = {cur[1]};", "endmodule", ""]
    return "\n".join(out)


def top_rtl(form, wa, wb, shift):
    """The top `m`: a, b registered, the product's bits [shift +: wa] registered."""
    pw = wa + wb
    head = [f"module m (input wire clk_i, input wire [{wa - 1}:0] a, input wire [{wb - 1}:0] b,",
            f"  output reg [{wa - 1}:0] p);",
            f"  reg [{wa - 1}:0] aq;", f"  reg [{wb - 1}:0] bq;", f"  wire [{pw - 1}:0] prod;",
            "  always @(posedge clk_i) begin aq <= a; bq <= b; end",
            f"  always @(posedge clk_i) p <= prod[{shift + wa - 1}:{shift}];"]
    if form == "array":
        body = [f"  assign prod = {{{wb}'d0, aq}} * {{{wa}'d0, bq}};"]
        extra = ""
    else:
        body = [f"  wire [{pw - 1}:0] s, c;", "  mul_tree u_tree (.a(aq), .b(bq), .s(s), .c(c));"]
        if form == "tree":
            body.append("  assign prod = s + c;")
        else:
            body += [f"  reg [{pw - 1}:0] sq, cq;", "  always @(posedge clk_i) begin sq <= s; cq <= c; end",
                     "  assign prod = sq + cq;"]
        extra = tree_rtl(wa, wb, "mul_tree")
    return extra + "\n".join(head + body + ["endmodule", ""])


def check_tree(wa, wb, work, rtl=None, vectors=64, seed=1):
    """Check with Yosys that the tree's s + c is a * b: `sat` proves it for every input when
    wa + wb <= 12, else `eval` tries `vectors` random operand pairs and the all-ones pair.
    rtl: the tree module's text (default: tree_rtl). Raises RuntimeError on a difference."""
    pw = wa + wb
    os.makedirs(work, exist_ok=True)
    src = os.path.join(work, "tree_check.v")
    with open(src, "w") as f:
        f.write((rtl or tree_rtl(wa, wb, "mul_tree")) +
                f"module chk (input wire [{wa - 1}:0] a, input wire [{wb - 1}:0] b, output wire ok);\n"
                f"  wire [{pw - 1}:0] s, c;\n  mul_tree u (.a(a), .b(b), .s(s), .c(c));\n"
                f"  assign ok = (s + c) == ({{{wb}'d0, a}} * {{{wa}'d0, b}});\nendmodule\n")
    cmds = [f"read_verilog -noautowire {src}", "hierarchy -check -top chk", "flatten", "opt_clean"]
    if pw <= 12:
        cmds.append("sat -prove ok 1 -verify")
        pairs = []
    else:
        rnd = random.Random(seed)
        pairs = [((1 << wa) - 1, (1 << wb) - 1)] + [(rnd.getrandbits(wa), rnd.getrandbits(wb)) for _ in range(vectors)]
        cmds += [f"eval -set a {x} -set b {y} -show ok" for x, y in pairs]
    ys = os.path.join(work, "tree_check.ys")
    with open(ys, "w") as f:
        f.write("\n".join(cmds) + "\n")
    try:
        log = synth.yosys(ys, os.path.join(work, "tree_check.log"), work)
    except RuntimeError as e:
        raise RuntimeError(f"the {wa} x {wb} carry-save tree is not a * b (Yosys sat, {work}/tree_check.log)") from e
    results = re.findall(r"Eval result: \\ok = 1'([01])", log)
    if len(results) != len(pairs) or "0" in results:
        i = results.index("0") if "0" in results else len(results)
        x, y = pairs[i] if i < len(pairs) else (None, None)
        raise RuntimeError(f"the {wa} x {wb} carry-save tree is not a * b at a = {x}, b = {y} "
                           f"(Yosys eval, {work}/tree_check.log)")


def run_form(form, wa, wb, shift, clock_ns, out):
    work = os.path.join(out, "work", "mul_timing", f"{form}_{wa}x{wb}")
    os.makedirs(work, exist_ok=True)
    if form != "array":
        check_tree(wa, wb, work)
    src = os.path.join(work, "m.v")
    with open(src, "w") as f:
        f.write(top_rtl(form, wa, wb, shift))
    ys = os.path.join(work, "asic.ys")
    with open(ys, "w") as f:
        f.write(f"read_verilog -noautowire {src}\nhierarchy -check -top m\n" + synth.gate_script("m", work)
                + f"opt_clean -purge\nsplitnets -ports\nopt_clean -purge\nwrite_verilog -noattr {work}/sta_netlist.v\n")
    synth.yosys(ys, os.path.join(work, "asic.log"), work)
    at = open(os.path.join(work, "asic.txt")).read()
    area = synth.chip_area(at)
    if area <= 0:
        raise RuntimeError(f"no area in {work}/asic.txt")
    _, cells = synth.parse_stat_cells(at)
    ff_area, _, ffs = synth.kind_areas(cells)
    sta = synth.run_sta(work, {"clock_port": "clk_i", "clock_ns": clock_ns}, "m")
    return {"form": form, "area_um2": area, "ffs": ffs,
            "logic_nand2_eq": round((area - ff_area) / synth.nand2_area()),
            "critical_ns": sta["critical_ns"], "wns_ns": sta["wns_ns"]}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wa", type=int, default=40, help="width of the first operand (default 40: the RP's rate)")
    ap.add_argument("--wb", type=int, default=45, help="width of the second operand (default 45: the RP's cut factor)")
    ap.add_argument("--shift", type=int, default=44, help="the product is kept as its bits [shift +: wa] (default 44)")
    ap.add_argument("--clock-ns", type=float, default=synth.DEFAULT_CLOCK_NS, help="STA clock period (default 4.0)")
    ap.add_argument("--form", action="append", choices=FORMS, help="form to measure (repeatable; default all three)")
    ap.add_argument("--out", default=os.path.join(synth.ROOT, "build", "synth"), help="work root (default build/synth)")
    a = ap.parse_args(argv)
    if not 2 <= a.wa <= 64 or not 3 <= a.wb <= 64:
        die(f"--wa must be in 2..64 and --wb in 3..64 (got {a.wa}, {a.wb})")
    if not 0 <= a.shift <= a.wb:
        die(f"--shift must be in 0..wb ({a.wb}) so that bits [shift +: wa] are in the product (got {a.shift})")
    if not 0.1 <= a.clock_ns <= 100:
        die(f"--clock-ns must be in 0.1..100 (got {a.clock_ns})")
    forms = a.form or list(FORMS)
    print(f"{a.wa} x {a.wb} multiply, bits [{a.shift} +: {a.wa}] kept, registered on both sides; "
          f"SG13G2 typical, STA at {a.clock_ns:g} ns")
    print("| form | area um^2 (flip-flops included) | flip-flops | logic NAND2-eq without them | STA critical path ns | WNS ns |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for form in forms:
        try:
            r = run_form(form, a.wa, a.wb, a.shift, a.clock_ns, a.out)
        except RuntimeError as e:
            die(f"{form}: {e}")
        print(f"| {form} | {r['area_um2']:,.0f} | {r['ffs']} | {r['logic_nand2_eq']:,} | "
              f"{r['critical_ns']:.2f} | {r['wns_ns']:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
