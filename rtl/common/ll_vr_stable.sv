// ll_vr_stable: the valid/ready handshake rule of docs/CONVENTIONS.md as a checker. Once
// valid_i && !ready_i, in the next cycle valid_i is still high and data_i is unchanged.
// One instance per interface of every block; failures name the instance path (%m), so a
// message says which block and which interface broke the rule. Simulation only: the body
// is empty when SYNTHESIS is defined (Yosys defines it), so it costs no gates.
`default_nettype none

module ll_vr_stable #(
  parameter int W = 1  // payload width, >= 1
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
      assert (valid_i) else $error("%m: valid dropped while not ready");
      assert (data_i == data_q) else $error("%m: payload changed while not ready");
    end
  end
`endif
endmodule

`default_nettype wire
