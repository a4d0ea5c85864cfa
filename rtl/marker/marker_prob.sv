// marker_prob: the random test of the RED/ECN marker (combinational, stage S4).
//
// The marking probability without a divider: the control plane stores the slope
// Pmax / (Kmax - Kmin) as M / 2^E (16-bit mantissa M, exponent E; E above 48 acts as
// 48); stage S3 multiplies prod = (qeff - Kmin) * M, and a fresh 48-bit draw r48 decides
//   congested = above || (linear && (r48 >> (48 - E)) < prod)
// i.e. P(congested) = min(1, (qeff - Kmin) * M / 2^E) in the linear region (a slope whose
// probability passes 1 before Kmax saturates at 1). The shift 48 - min(E, 48) comes in
// ready (marker_top computes it when a profile is committed). prod has PW <= 48 bits, so
// r < prod is a PW-bit comparison and a test that the bits of r above them are zero.
`default_nettype none

module marker_prob #(
  parameter int PW = 40   // product width (QW + 16), <= 48
) (
  input  wire logic            above_i,
  input  wire logic            linear_i,
  input  wire logic [PW-1:0]   prod_i,
  input  wire logic [5:0]      shift_i,    // 48 - min(E, 48), 0..48
  input  wire logic            act_mark_i,
  input  wire logic            act_drop_i,
  input  wire logic [47:0]     rand_i,     // rand_o[63:16] of ll_prng
  output logic                 mark_o,
  output logic                 drop_o
);
  initial begin
    if (PW < 24 || PW > 48) $error("marker_prob: PW must be in 24..48");
  end

  logic [47:0] r;
  logic        hit, r_high;

  assign r      = rand_i >> shift_i;
  if (PW < 48) begin : g_high
    assign r_high = |r[47:PW];
  end else begin : g_nohigh
    assign r_high = 1'b0;
  end
  assign hit    = above_i || (linear_i && !r_high && (r[PW-1:0] < prod_i));
  assign mark_o = hit && act_mark_i;
  assign drop_o = hit && act_drop_i;
endmodule

`default_nettype wire
