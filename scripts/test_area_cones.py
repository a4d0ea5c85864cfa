#!/usr/bin/env python3
"""Tests of scripts/area_cones.py:

  * a small hand-written netlist (two flip-flops, an output port and a memory black box,
    one cell feeding two of them): each cell is charged to the one endpoint it feeds, the
    shared cell to none, and a class holds the cells whose paths all end inside it;
  * on the smoke configurations `make synth-smoke` has just synthesised: the flip-flops and
    the combinational cells area_cones finds are every cell of the SG13G2 netlist (its
    `stat -liberty` figures), so no cell is lost or counted twice;
  * bad input: an unknown configuration, a malformed class, a class that matches no
    register and a work directory whose netlist is not one each stop with one error line, exit 1 and nothing on stdout.

usage: test_area_cones.py [--out DIR] [--quiet]. Exit 0 when every check holds, 1
otherwise (each failed check is named)."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

import area_cones
import synth

TINY = """/* a hand-written netlist in the form of sta_netlist.v */
module tiny(clk_i, a, b, y);
  input clk_i;
  input a;
  input b;
  output y;
  wire r1_q;
  wire \\r2_q [0] ;
  wire n1;
  wire x1;
  wire m1;
  wire [1:0] rd;
  sg13g2_nand2_1 _1_ (
    .A(a),
    .B(b),
    .Y(n1)
  );
  sg13g2_dfrbp_1 ll_ff_1 (
    .CLK(clk_i),
    .D(n1),
    .Q(r1_q),
    .RESET_B(b)
  );
  sg13g2_xor2_1 _2_ (
    .A(r1_q),
    .B(b),
    .X(x1)
  );
  sg13g2_dfrbp_1 ll_ff_2 (
    .CLK(clk_i),
    .D(x1),
    .Q(\\r2_q [0] ),
    .RESET_B(b)
  );
  sg13g2_inv_1 _3_ (
    .A(x1),
    .Y(y)
  );
  sg13g2_inv_1 _4_ (
    .A(\\r2_q [0] ),
    .Y(m1)
  );
  LL_STA_MEM #(
    .ABITS(32'd1),
    .MEMID("\\\\u_m.mem"),
    .WIDTH(32'd2)
  ) \\u_m.mem  (
    .RD_ADDR(a),
    .RD_CLK(clk_i),
    .RD_DATA(rd),
    .WR_ADDR(1'h0),
    .WR_CLK(clk_i),
    .WR_DATA({ m1, m1 }),
    .WR_EN({ b, b })
  );
endmodule
"""


def tiny_checks(work):
    failed = []
    path = os.path.join(work, "tiny.v")
    with open(path, "w") as f:
        f.write(TINY)
    lc = synth.lib_cells()
    groups, own, shared, unreached, comb, reach, comb_area = area_cones.attribute(path)
    area = {c: lc[c][0] for c in ("sg13g2_nand2_1", "sg13g2_xor2_1", "sg13g2_inv_1", "sg13g2_dfrbp_1")}
    want_groups = {"r1_q", "r2_q", "port y", "u_m.mem"}
    if set(groups) != want_groups:
        failed.append(f"tiny: groups {sorted(groups)} != {sorted(want_groups)}")
        return failed
    want_own = {"r1_q": area["sg13g2_nand2_1"], "r2_q": 0.0, "port y": area["sg13g2_inv_1"],
                "u_m.mem": area["sg13g2_inv_1"]}
    for g, w in want_own.items():
        if abs(own[g] - w) > 1e-6:
            failed.append(f"tiny: {g}'s own logic {own[g]:.3f} um^2 != {w:.3f}")
    if abs(shared - area["sg13g2_xor2_1"]) > 1e-6 or unreached != 0.0:
        failed.append(f"tiny: shared {shared:.3f} um^2 (want the XOR's {area['sg13g2_xor2_1']:.3f}), unreached {unreached}")
    if groups["r1_q"]["ffs"] != 1 or abs(groups["r2_q"]["ff_area"] - area["sg13g2_dfrbp_1"]) > 1e-6:
        failed.append("tiny: the flip-flops of r1_q / r2_q are not one each")
    nff, _, ca = area_cones.class_area(groups, reach, comb_area, {"r2_q", "port y"})
    if nff != 1 or abs(ca - area["sg13g2_xor2_1"] - area["sg13g2_inv_1"]) > 1e-6:
        failed.append(f"tiny: class {{r2_q, port y}}: {nff} flip-flops, logic {ca:.3f} um^2 (want 1, XOR + inverter)")
    nff, _, ca = area_cones.class_area(groups, reach, comb_area, {"r1_q", "r2_q"})
    if nff != 2 or abs(ca - area["sg13g2_nand2_1"]) > 1e-6:
        failed.append(f"tiny: class {{r1_q, r2_q}}: logic {ca:.3f} um^2 (want the NAND alone: the XOR also feeds y)")
    return failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(synth.ROOT, "build", "synth"))
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        failed += tiny_checks(tmp)
    if not a.quiet and not failed:
        print("test_area_cones: the hand-written netlist's cells are charged as written: ok")
    for block, _, cfg in synth.select(None, None, True):
        name = f"{block}/{cfg['name']}"
        work = os.path.join(a.out, "work", block, cfg["name"])
        netlist = os.path.join(work, "sta_netlist.v")
        if not os.path.isfile(netlist):
            failed.append(f"{name}: no {netlist} (run `python3 scripts/synth.py --smoke` first)")
            continue
        groups, own, shared, unreached, comb, _, _ = area_cones.attribute(netlist)
        _, cells = synth.parse_stat_cells(open(os.path.join(work, "asic.txt")).read())
        ff_want, comb_want, nff_want = synth.kind_areas(cells)
        nff = sum(g["ffs"] for g in groups.values())
        ff = sum(g["ff_area"] for g in groups.values())
        split = sum(own.values()) + shared + unreached
        if nff != nff_want or abs(ff - ff_want) > 0.01 or abs(comb - comb_want) > 0.01 or abs(split - comb) > 0.01:
            failed.append(f"{name}: {nff} flip-flops / {ff:.2f} + {comb:.2f} um^2 (split {split:.2f}) against the "
                          f"netlist's {nff_want} / {ff_want:.2f} + {comb_want:.2f}")
        elif not a.quiet:
            print(f"test_area_cones: {name}: {nff} flip-flops in {len(groups)} registers, memories and ports, "
                  f"every cell counted once: ok")
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "area_cones.py")
    tmp_out = tempfile.mkdtemp(prefix="test_area_cones_")
    smoke = next(iter(synth.select(None, None, True)))
    for args, what in ((["--block", "dcqcn", "--config", "no_such_config"], "an unknown configuration"),
                       (["--block", smoke[0], "--config", smoke[2]["name"], "--class", "nameless"], "a class without '='"),
                       (["--block", smoke[0], "--config", smoke[2]["name"], "--class", "x=^no_such_register_"],
                        "a class matching no register"),
                       (["--block", smoke[0], "--config", smoke[2]["name"]], "a file that is not a netlist")):
        out = a.out
        if what == "a file that is not a netlist":
            out = os.path.join(tmp_out, "synth")
            os.makedirs(os.path.join(out, "work", smoke[0], smoke[2]["name"]), exist_ok=True)
            with open(os.path.join(out, "work", smoke[0], smoke[2]["name"], "sta_netlist.v"), "w") as f:
                f.write("not a netlist\n")
        r = subprocess.run([sys.executable, script, *args, "--out", out], capture_output=True, text=True)
        lines = r.stderr.strip().splitlines()
        if r.returncode != 1 or len(lines) != 1 or "error" not in lines[0] or r.stdout:
            failed.append(f"{what}: exit {r.returncode}, stderr {r.stderr!r}, stdout {r.stdout[:200]!r}")
        elif not a.quiet:
            print(f"test_area_cones: {what}: one error line, exit 1: ok")
    shutil.rmtree(tmp_out, ignore_errors=True)
    for f in failed:
        print(f"test_area_cones: FAIL: {f}", file=sys.stderr)
    if not a.quiet or failed:
        print(f"test_area_cones: {'FAIL' if failed else 'ok'} ({len(failed)} failed checks)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
