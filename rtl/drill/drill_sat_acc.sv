// drill_sat_acc: a statistics counter that adds 0..2^IncW-1 per cycle and saturates
// at all-ones. It is ll_sat_counter generalised to several events per cycle (the
// DRILL counters are summed over all engines, which can decide on the same port or
// in the same mode in one cycle). clr_i beats a same-cycle increment (the cleared
// value is 0 and the coinciding events are not counted).
`default_nettype none

// The assertion macros: flows list rtl/common/ll_assert.svh first; a file linted on its own
// finds it through -I rtl/common.
`ifndef LL_ASSERT_SVH
`include "ll_assert.svh"
`endif

module drill_sat_acc #(
  parameter int Width = 32,  // counter width, 1..32 (read through a 32-bit register)
  parameter int IncW  = 3    // width of the per-cycle increment, 1..8
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,   // synchronous, active low
  input  wire logic             clr_i,
  input  wire logic [IncW-1:0]  inc_i,
  output logic      [Width-1:0] value_o
);
  initial begin
    if (Width < 1 || Width > 32) $error("drill_sat_acc: Width must be in 1..32");
    if (IncW < 1 || IncW > 8) $error("drill_sat_acc: IncW must be in 1..8");
  end

  localparam int SW = ((Width > IncW) ? Width : IncW) + 1;  // sum width, cannot overflow

  logic [Width-1:0] acc_q;
  logic [SW-1:0]    sum;
  logic [Width-1:0] d;

  assign value_o = acc_q;
  assign sum     = SW'(acc_q) + SW'(inc_i);
  assign d       = (|sum[SW-1:Width]) ? '1 : sum[Width-1:0];  // carry out of Width bits: saturate

  always_ff @(posedge clk_i) begin
    if (!rst_ni || clr_i) acc_q <= '0;
    else                  acc_q <= d;
  end

`ifndef SYNTHESIS
  // no overflow: out of reset and without a clear the count never goes down (it stops at
  // all-ones instead of wrapping)
  logic             a_live_q = 1'b0;  // last cycle: out of reset and no clear
  logic [Width-1:0] a_prev_q;
  always_ff @(posedge clk_i) begin
    a_live_q <= rst_ni && !clr_i;
    a_prev_q <= acc_q;
    if (rst_ni && a_live_q) `LL_ASSERT(acc_q >= a_prev_q, ("%m: counter wrapped from %0d to %0d", a_prev_q, acc_q))
  end
`endif
endmodule

`default_nettype wire
