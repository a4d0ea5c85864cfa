// marker_thresh: threshold tests of the RED/ECN marker (combinational, stage S2).
//   above  = qeff > Kmax   (probability 1; tested first, so Kmin > Kmax acts as a
//                           cut-off at Kmax)
//   linear = qeff > Kmin   (probability (qeff - Kmin) * M / 2^E, stages S3 and S4)
// and which action a congested verdict takes for this packet:
//   act_mark: ECN-capable -> mark; act_drop: lossy not-ECT with RED drop enabled ->
//   drop; lossless not-ECT packets are never dropped. Both are zero unless the profile
//   is enabled and this event is its marking point (enqueue or dequeue).
`default_nettype none

module marker_thresh #(
  parameter int QW = 24   // queue-length width in bytes, 8..32
) (
  input  wire logic [QW-1:0]   kmin_i,
  input  wire logic [QW-1:0]   kmax_i,
  input  wire logic            enable_i,
  input  wire logic            deq_point_i,
  input  wire logic            drop_en_i,
  input  wire logic            deq_i,
  input  wire logic [QW-1:0]   qeff_i,
  input  wire logic            ect_i,
  input  wire logic            lossless_i,
  output logic                 above_o,
  output logic                 linear_o,
  output logic      [QW-1:0]   excess_o,   // qeff - Kmin (meaningful when linear_o)
  output logic                 act_mark_o,
  output logic                 act_drop_o
);
  initial begin
    if (QW < 8 || QW > 32) $error("marker_thresh: QW must be in 8..32");
  end

  logic active;

  assign above_o  = qeff_i > kmax_i;
  assign linear_o = qeff_i > kmin_i;
  assign excess_o = qeff_i - kmin_i;

  assign active     = enable_i && (deq_i == deq_point_i);
  assign act_mark_o = active && ect_i;
  assign act_drop_o = active && !ect_i && !lossless_i && drop_en_i;
endmodule

`default_nettype wire
