// ll_sat_counter: a statistics counter that saturates at all-ones.
// clr_i has priority over inc_i in the same cycle (the cleared value is 0 and the
// coinciding event is not counted). inc_i adds 1.
`default_nettype none

// The assertion macros: flows list rtl/common/ll_assert.svh first; a file linted on its own
// finds it through -I rtl/common.
`ifndef LL_ASSERT_SVH
`include "ll_assert.svh"
`endif

module ll_sat_counter #(
  parameter int Width = 32   // counter width, 1..32 (read through a 32-bit register)
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             clr_i,
  input  wire logic             inc_i,
  output logic      [Width-1:0] value_o
);
  initial begin
    if (Width < 1 || Width > 32) $error("ll_sat_counter: Width must be in 1..32");
  end

  logic [Width-1:0] cnt_q;
  assign value_o = cnt_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni || clr_i)        cnt_q <= '0;
    else if (inc_i && !(&cnt_q)) cnt_q <= cnt_q + 1'b1;
  end

`ifndef SYNTHESIS
  // no overflow: out of reset and without a clear the count never goes down (it stops at
  // all-ones instead of wrapping to 0)
  logic             a_live_q = 1'b0;  // last cycle: out of reset and no clear
  logic [Width-1:0] a_prev_q;
  always_ff @(posedge clk_i) begin
    a_live_q <= rst_ni && !clr_i;
    a_prev_q <= cnt_q;
    if (rst_ni && a_live_q) `LL_ASSERT(cnt_q >= a_prev_q, ("%m: counter wrapped from %0d to %0d", a_prev_q, cnt_q))
  end
`endif
endmodule

`default_nettype wire
