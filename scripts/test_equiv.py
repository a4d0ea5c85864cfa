#!/usr/bin/env python3
"""Tests of the pairing rules of scripts/equiv.py + scripts/cutmiter.py on a small design of
its own (run by `make equiv`, about 10 s):

  * a state register that synthesis re-encodes (Yosys `fsm`: the 3-bit opcode `op_q`
    becomes one-hot flops of the same name) is paired through the code table of the
    synthesis log: the proof closes on both netlists, and it fails when the table is
    tampered with (two netlist codes swapped) or ignored (bit-by-bit name pairing);
  * an output the netlist takes straight from a register (`keep[1:0]` is `busy_q`) proves
    (the cycle equiv_make built in pfc_codec through such a net is not reproduced here: the
    `pfc/codec` proof of `make equiv` is that rule's regression test);
  * a one-gate change of each netlist fails the proof;
  * an array read twice at one address (`ll_mem_check`: two read ports in the RTL, one after
    synthesis merges them) is one memory on both sides with equiv.GOLD_PASSES, and proves;
    without its opt_merge the gold memory keeps two ports and equiv.memory_mismatches() names
    the difference (equiv_make of Yosys 0.23 would stop on an internal assertion).
The cut miter is tested on its own: equiv.py's fallback to equiv_simple + equiv_induct is
off here.

Exit 0 when every check holds, 1 otherwise (each failed check is named)."""
import argparse
import os
import sys

import cutmiter
import equiv
import synth

TOP = "ll_fsm_check"
RTL = """module ll_fsm_check (input wire clk, input wire rst_ni, input wire [2:0] sel,
                     input wire [7:0] d, output reg [7:0] q, output wire [3:0] keep);
  reg [2:0] op_q;     // an FSM to Yosys: next state from a mux tree of constants
  reg busy_q;
  reg [2:0] beat_q;
  always @(posedge clk) begin
    if (!rst_ni) op_q <= 3'd0;
    else if (sel[0]) op_q <= 3'd1;
    else if (sel[1]) op_q <= 3'd2;
    else if (sel[2]) op_q <= 3'd5;
    else op_q <= 3'd0;
  end
  always @(posedge clk) begin
    case (op_q)
      3'd1: q <= d;
      3'd2: q <= q + 8'd1;
      3'd5: q <= ~q;
      default: q <= q;
    endcase
    if (!rst_ni) begin busy_q <= 1'b0; beat_q <= 3'd0; end
    else if (!busy_q) begin busy_q <= sel[0]; beat_q <= 3'd0; end
    else begin beat_q <= beat_q + 3'd1; if (beat_q == 3'd7) busy_q <= 1'b0; end
  end
  assign keep = !busy_q ? 4'h0 : (beat_q == 3'd7) ? 4'h3 : 4'hf;
endmodule
"""

MEM_TOP = "ll_mem_check"
MEM_RTL = """module ll_mem_check (input wire clk, input wire we, input wire [3:0] wa, input wire [7:0] wd,
                     input wire [3:0] ra, output reg [7:0] q1, output reg [7:0] q2);
  reg [7:0] m [0:15];
  always @(posedge clk) begin
    if (we) m[wa] <= wd;
    q1 <= m[ra];
    q2 <= m[ra] ^ 8'h5a;
  end
endmodule
"""


def check_memory_pairing(out, check):
    """The memory rule of equiv.GOLD_PASSES on MEM_RTL (see the module docstring)."""
    work = synth.fresh_work(out, {f"{MEM_TOP}.v": MEM_RTL})
    read = f"read_verilog {work}/{MEM_TOP}.v\nhierarchy -check -top {MEM_TOP}\n"
    equiv.yosys(read + synth.gate_script(MEM_TOP, work, f"{work}/generic_raw.il", f"{work}/sg13g2_raw.il"),
                f"{work}/gate.ys", f"{work}/gate.log", work)
    for tag, passes in (("gold", equiv.GOLD_PASSES), ("gold_nomerge", equiv.GOLD_PASSES.replace("opt_merge\n", ""))):
        equiv.yosys(read + "proc\n" + passes + f"write_rtlil {work}/{tag}_raw.il\n",
                    f"{work}/{tag}.ys", f"{work}/{tag}.log", work)
    gold = equiv.memory_shapes(f"{work}/gold_raw.il")
    nomerge = equiv.memory_shapes(f"{work}/gold_nomerge_raw.il")
    check(nomerge.get("m", {}).get("RD_PORTS") == "2",
          f"{MEM_TOP}: without opt_merge the gold memory has two read ports ({nomerge})")
    equiv.mask_memories(f"{work}/gold_raw.il", f"{work}/gold.il")
    for n in equiv.NETLISTS:
        net = equiv.memory_shapes(f"{work}/{n}_raw.il")
        check(list(gold) == ["m"] and not equiv.memory_mismatches(gold, net),
              f"{MEM_TOP} {n}: one memory, the same shape as the gold's ({net})")
        why = equiv.memory_mismatches(nomerge, net)
        check(any("RD_PORTS 2 (RTL) vs 1 (netlist)" in w for w in why),
              f"{MEM_TOP} {n}: the unmerged gold's memory is named as different ({why})")
        equiv.mask_memories(f"{work}/{n}_raw.il", f"{work}/{n}.il")
        r = equiv.prove(work, MEM_TOP, n)
        check(r["unproven"] == 0 and r["total"] > 0 and r["merged_memories"] == 1,
              f"{MEM_TOP} {n}: proven with the memory paired ({r['proven']}/{r['total']} cells, "
              f"{r['merged_memories']} memory merged)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(equiv.ROOT, "build", "equiv", "work", "test_equiv"))
    a = ap.parse_args()
    work = synth.fresh_work(a.out, {f"{TOP}.v": RTL})
    read = f"read_verilog {work}/{TOP}.v\nhierarchy -check -top {TOP}\n"
    equiv.yosys(read + synth.gate_script(TOP, work, f"{work}/generic.il", f"{work}/sg13g2.il"),
                f"{work}/gate.ys", f"{work}/gate.log", work)
    equiv.yosys(read + "proc\n" + equiv.GOLD_PASSES + f"write_rtlil {work}/gold.il\n",
                f"{work}/gold.ys", f"{work}/gold.log", work)
    codes = cutmiter.fsm_codes(f"{work}/gate.log")
    failures = []

    def check(ok, what):
        print(f"test_equiv: {'ok  ' if ok else 'FAIL'} {what}")
        if not ok:
            failures.append(what)

    check("op_q" in codes and len(codes["op_q"]) == 4,
          f"synthesis re-encodes op_q (code table from the log: {codes.get('op_q')})")
    # the cut miter's own rules are under test: no fallback to equiv_simple + equiv_induct
    # (on a design this small equiv_induct proves the swapped-table cases by unrolling)
    equiv.FALLBACK = False
    real = cutmiter.fsm_codes
    for n in equiv.NETLISTS:
        r = equiv.prove(work, TOP, n)
        check(r["unproven"] == 0 and r["total"] > 0 and r["extra"] > 0,
              f"{n}: proven with the FSM paired ({r['proven']}/{r['total']} cells, {r['extra']} extra "
              f"obligations, {r['unproven']} unproven)")
        try:
            swapped = {k: [(v[0][0], v[1][1]), (v[1][0], v[0][1])] + v[2:] for k, v in codes.items()}
            cutmiter.fsm_codes = lambda _p: swapped
            bad = equiv.prove(work, TOP, n, tag=f"{n}_swapped")
            check(bad["unproven"] > 0, f"{n}: two netlist codes swapped fail the proof ({bad['unproven']} unproven)")
            cutmiter.fsm_codes = lambda _p: {}
            bad = equiv.prove(work, TOP, n, tag=f"{n}_nofsm")
            check(bad["unproven"] > 0, f"{n}: without the code table the proof fails ({bad['unproven']} unproven)")
        finally:
            cutmiter.fsm_codes = real
        equiv.mutate(f"{work}/{n}.il", f"{work}/{n}_mutant.il", n)
        bad = equiv.prove(work, TOP, n, gate_il=f"{work}/{n}_mutant.il", tag=f"{n}_mutant")
        check(bad["unproven"] > 0, f"{n}: a one-gate mutant fails the proof ({bad['unproven']} unproven)")
    check_memory_pairing(a.out + "_mem", check)
    print(f"test_equiv: {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
