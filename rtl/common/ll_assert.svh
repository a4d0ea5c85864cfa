// ll_assert.svh: the one set of assertion macros of the RTL (docs/signoff.md, "Assertion
// macros"). Every RTL check is written with these, never with a bare `assert`, so the same
// source serves two readers:
//   - simulation (Verilator --assert in the lockstep benches, Icarus in make lint): the
//     checked form `assert (c) else $error(...)`; a failure stops the run and names it;
//   - formal (Yosys 0.23 `read_verilog -formal`, which defines FORMAL; make formal): the
//     subset Yosys reads, immediate `assert (c);` / `assume (c);` / `cover (c);` inside an
//     always block (Yosys rejects `else $error`, `|->`, `##`, `disable iff`, property blocks).
//
// Use them inside a clocked always block, under the owner's reset condition:
//   always_ff @(posedge clk_i) if (rst_ni) `LL_ASSERT(n_q <= Depth, ("fifo overflow %0d", n_q))
//   `LL_ASSERT(c, msg)  invariant of this module: asserted in both worlds.
//   `LL_ASSUME(c, msg)  a duty of the environment (legal inputs, legal configuration): checked
//                       like an assertion in simulation, assumed by the formal proofs. Only
//                       for conditions on the block's own inputs or on registers the user
//                       programs; an assumption about internal state would hide bugs.
//   `LL_COVER(c)        a reachability goal for the formal flow; nothing in simulation.
//   `LL_INRANGE(idx, n) the array/RAM bounds condition 32'(idx) < n (issue 15: every read of
//                       a RAM or an array with a computed index asserts it).
// msg is a parenthesised $error argument list: ("fmt %0d", x). The macros end in ';' and
// expand to one statement, so they fit after `if (...)` without begin/end.
// Every flow compiles this header first (scripts/ll_rtl.py lists rtl/common/*.svh before the
// packages), so the RTL files need no `include and no tool needs an include path.
`ifndef LL_ASSERT_SVH
`define LL_ASSERT_SVH

`define LL_INRANGE(idx, n) (32'(idx) < 32'(n))

`ifdef FORMAL
`define LL_ASSERT(c, msg) assert (c);
`define LL_ASSUME(c, msg) assume (c);
`define LL_COVER(c) cover (c);
`else
`define LL_ASSERT(c, msg) assert (c) else $error msg;
`define LL_ASSUME(c, msg) assert (c) else $error msg;
`define LL_COVER(c) ;
`endif

`endif
