// red_marker_decide: the RED/ECN decision for one event, purely combinational.
//
// Marking probability of the spec, without a divider: the control plane stores
// the slope Pmax / (Kmax - Kmin) as M / 2^E (M 16-bit mantissa, E exponent), so
//   p(q) = 0                    q <= Kmin
//        = (q - Kmin) * M / 2^E  Kmin < q <= Kmax      (capped at 1 by construction)
//        = 1                    q > Kmax
// and a decision is made with 48 fresh random bits r48 = rand[63:16]:
//   congested = q > Kmax || (q > Kmin && (r48 >> (48 - E)) < (q - Kmin) * M)
// which equals P(r < p * 2^E) for r uniform on [0, 2^E). The "q > Kmax" test comes
// first, so Kmin > Kmax acts as a cut-off at Kmax, and a slope whose p exceeds 1
// saturates at 1 (these are the documented behaviours of nonsensical settings).
// EWMA: avg (QW.8 fixed point) += ((q << 8) - avg) >>> W on enqueue events only.
`default_nettype none

module red_marker_decide #(
  parameter int QW = 24   // queue-length width in bytes, 8..32
) (
  // profile
  input  wire logic [QW-1:0]   kmin_i,
  input  wire logic [QW-1:0]   kmax_i,
  input  wire logic [15:0]     slope_m_i,
  input  wire logic [5:0]      slope_e_i,
  input  wire logic            enable_i,
  input  wire logic            ewma_i,
  input  wire logic            deq_point_i,
  input  wire logic            drop_en_i,
  input  wire logic [3:0]      w_i,
  // event
  input  wire logic            deq_i,
  input  wire logic [QW-1:0]   qlen_i,
  input  wire logic            ect_i,
  input  wire logic            lossless_i,
  input  wire logic [QW+7:0]   avg_i,      // stored EWMA before this event
  input  wire logic [47:0]     rand_i,     // rand_o[63:16] of ll_prng
  // results
  output logic      [QW+7:0]   avg_o,      // EWMA after this event
  output logic                 mark_o,
  output logic                 drop_o
);
  initial begin
    if (QW < 8 || QW > 32) $error("red_marker_decide: QW must be in 8..32");
  end

  logic signed [QW+8:0] diff;
  logic signed [QW+8:0] step;
  logic [QW-1:0]        qeff;
  logic [QW-1:0]        excess;
  logic [QW+15:0]       prod;
  logic [5:0]           eff_e;
  logic [47:0]          r;
  logic                 above, linear, hit, congested;

  assign diff  = $signed({1'b0, qlen_i, 8'h00}) - $signed({1'b0, avg_i});
  assign step  = diff >>> w_i;
  assign avg_o = deq_i ? avg_i : (avg_i + step[QW+7:0]);
  assign qeff  = ewma_i ? avg_o[QW+7:8] : qlen_i;

  assign above  = qeff > kmax_i;
  assign linear = qeff > kmin_i;
  assign excess = qeff - kmin_i;
  assign prod   = excess * slope_m_i;
  assign eff_e  = (slope_e_i > 6'd48) ? 6'd48 : slope_e_i;
  assign r      = rand_i >> (6'd48 - eff_e);
  assign hit    = above || (linear && (r < 48'(prod)));

  assign congested = enable_i && (deq_i == deq_point_i) && hit;
  assign mark_o    = congested && ect_i;
  assign drop_o    = congested && !ect_i && !lossless_i && drop_en_i;
endmodule

`default_nettype wire
