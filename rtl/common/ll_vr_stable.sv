// ll_vr_stable: the valid/ready handshake rule of docs/CONVENTIONS.md as a checker. Once
// valid_i && !ready_i, in the next cycle valid_i is still high and data_i is unchanged.
// One instance per interface of every block; failures name the instance path (%m), so a
// message says which block and which interface broke the rule. Simulation only: the body
// is empty when SYNTHESIS is defined (Yosys defines it), so it costs no gates.
`default_nettype none

// The assertion macros: flows list rtl/common/ll_assert.svh first; a file linted on its own
// finds it through -I rtl/common.
`ifndef LL_ASSERT_SVH
`include "ll_assert.svh"
`endif

module ll_vr_stable #(
  parameter int W     = 1,     // payload width, >= 1
  // 1: the checked interface is an input of the block (the producer is the environment).
  // Simulation checks the rule either way; the formal proofs (FORMAL) assume it on an
  // input interface and prove it on an output interface (rtl/common/ll_assert.svh).
  parameter bit Input = 1'b0
) (
  input  wire logic         clk_i,
  input  wire logic         rst_ni,
  input  wire logic         valid_i,
  input  wire logic         ready_i,
  input  wire logic [W-1:0] data_i
);
  initial begin
    if (W < 1) $error("ll_vr_stable: W must be at least 1");
  end

`ifndef SYNTHESIS
  logic         hold_q;  // last cycle: valid && !ready, out of reset
  logic [W-1:0] data_q;
  always_ff @(posedge clk_i) begin
    hold_q <= rst_ni && valid_i && !ready_i;
    data_q <= data_i;
    if (rst_ni && hold_q) begin
      if (Input) begin
        `LL_ASSUME(valid_i, ("%m: valid dropped while not ready"))
        `LL_ASSUME(data_i == data_q, ("%m: payload changed while not ready"))
      end else begin
        `LL_ASSERT(valid_i, ("%m: valid dropped while not ready"))
        `LL_ASSERT(data_i == data_q, ("%m: payload changed while not ready"))
      end
    end
  end
`endif
endmodule

`default_nettype wire
