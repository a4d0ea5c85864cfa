// marker_prob: the random test of the RED/ECN marker (combinational, stage S4).
//
// The marking probability without a divider: the control plane stores the slope
// Pmax / (Kmax - Kmin) as M / 2^E (16-bit mantissa M, exponent E; E above 48 acts as
// 48); stage S3 multiplies prod = (qeff - Kmin) * M, and a fresh 48-bit draw r48 decides
//   congested = above || (linear && (r48 >> (48 - E)) < prod)
// i.e. P(congested) = min(1, (qeff - Kmin) * M / 2^E) in the linear region (a slope whose
// probability passes 1 before Kmax saturates at 1). marker_top forms r = r48 >> (48 -
// min(E, 48)) in S3 (the shift is computed when a profile is committed) and passes its low
// PW bits and whether any bit above them is set (then r >= 2^PW > prod), so this stage is
// one comparison. S3 delivers the product in two parts, prod = plo + (phi << 8) (the two
// 8-bit halves of M); r < prod is tested as plo + (phi << 8) + ~r >= 0 (that sum is
// prod - r - 1), one carry-save layer and one carry chain of PW + 2 bits.
// S3 also folds everything but the comparison into two terms per action (registered):
//   mark = mark_sure || (mark_test && r < prod), mark_sure = above && act_mark,
//   mark_test = linear && !r_high && act_mark (drop alike), so one gate follows the chain.
`default_nettype none

module marker_prob #(
  parameter int PW = 40   // product width (QW + 16), <= 48
) (
  input  wire logic [PW-9:0]   plo_i,        // (qeff - Kmin) * M[7:0]
  input  wire logic [PW-9:0]   phi_i,        // (qeff - Kmin) * M[15:8]
  input  wire logic [PW-1:0]   r_i,          // the shifted draw's low PW bits
  input  wire logic            mark_sure_i,  // above Kmax and the profile marks
  input  wire logic            mark_test_i,  // linear part, marks iff r < prod
  input  wire logic            drop_sure_i,
  input  wire logic            drop_test_i,
  output logic                 mark_o,
  output logic                 drop_o
);
  initial begin
    if (PW < 24 || PW > 48) $error("marker_prob: PW must be in 24..48");
  end

  // all three operands zero- / sign-extended to PW + 2 bits: prod < 2^PW and r < 2^PW, so
  // prod - r - 1 lies in [-2^PW, 2^PW - 2] and its sign bit is the test
  localparam int SW = PW + 2;
  logic [SW-1:0] a, b, c, cs_s, cs_c, d;
  logic          r_lt_prod;
  assign a         = {10'h000, plo_i};
  assign b         = {2'b00, phi_i, 8'h00};
  assign c         = ~{2'b00, r_i};
  assign cs_s      = a ^ b ^ c;
  assign cs_c      = {((a[SW-2:0] & b[SW-2:0]) | (a[SW-2:0] & c[SW-2:0]) | (b[SW-2:0] & c[SW-2:0])), 1'b0};
  assign d         = cs_s + cs_c;
  assign r_lt_prod = !d[SW-1];
  assign mark_o    = mark_sure_i || (mark_test_i && r_lt_prod);
  assign drop_o    = drop_sure_i || (drop_test_i && r_lt_prod);
endmodule

`default_nettype wire
