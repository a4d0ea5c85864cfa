// marker_ewma: the EWMA update (combinational, stage S1 of marker_top).
//   avg_o = avg (QW.8 fixed point) + (((q << 8) - avg) >>> W)
// the average after an enqueue event; the caller keeps the average on dequeue events
// (it does not decay while the queue is idle) and chooses the length a decision is
// judged on (the average or q).
//
// Timing: the subtract-then-shift of the formula is rewritten so that both shifts run
// in parallel and one three-input add follows. With x = q << 8, y = avg, s = W:
//   (x - y) >>> s = (x >> s) - (y >> s) - borrow,  borrow = (x mod 2^s) < (y mod 2^s)
// (floor division of a difference), which is exactly the arithmetic shift of the spec;
// the lockstep bench checks it against the model's direct formula.
// The three-input sum avg + xs + ~ys (+ 1) is first reduced to two operands by a
// carry-save layer (one XOR / majority per bit), so it takes one carry chain, and the
// borrow (a comparison, another chain) is not that chain's carry-in: both sums (borrow 0
// and 1) are formed alongside it and the borrow picks one.
`default_nettype none

module marker_ewma #(
  parameter int QW = 24   // queue-length width in bytes, 8..32
) (
  input  wire logic [3:0]      w_i,        // EWMA weight shift
  input  wire logic [QW-1:0]   qlen_i,
  input  wire logic [QW+7:0]   avg_i,      // stored EWMA before this event
  output logic      [QW+7:0]   avg_o       // EWMA after this event if it is an enqueue
);
  initial begin
    if (QW < 8 || QW > 32) $error("marker_ewma: QW must be in 8..32");
  end

  localparam int AW = QW + 8;
  logic [AW-1:0] x, xs, ys, xlow, ylow, mask, upd_b0, upd_b1, nys, cs_s, cs_c;
  logic          borrow;

  assign x      = {qlen_i, 8'h00};
  assign xs     = x >> w_i;
  assign ys     = avg_i >> w_i;
  assign mask   = ~({AW{1'b1}} << w_i);
  assign xlow   = x & mask;
  assign ylow   = avg_i & mask;
  assign borrow = xlow < ylow;
  // avg + xs + ~ys = cs_s + cs_c (mod 2^AW): carry-save, the carries one place up; the
  // free low bit of the carries takes the + 1 of the borrow-0 sum, so each sum is one adder
  assign nys    = ~ys;
  assign cs_s   = avg_i ^ xs ^ nys;
  assign cs_c   = {((avg_i[AW-2:0] & xs[AW-2:0]) | (avg_i[AW-2:0] & nys[AW-2:0]) | (xs[AW-2:0] & nys[AW-2:0])), 1'b0};
  // each sum as a carry-select adder: the low half once, the high half for both carries
  localparam int LW = AW / 2;
  localparam int HW = AW - LW;
  logic [LW:0]   lo_b0, lo_b1;
  logic [HW-1:0] hi_0, hi_1;
  assign lo_b0  = {1'b0, cs_s[LW-1:0]} + {1'b0, cs_c[LW-1:1], 1'b1};
  assign lo_b1  = {1'b0, cs_s[LW-1:0]} + {1'b0, cs_c[LW-1:0]};
  assign hi_0   = cs_s[AW-1:LW] + cs_c[AW-1:LW];
  assign hi_1   = cs_s[AW-1:LW] + cs_c[AW-1:LW] + 1'b1;
  assign upd_b0 = {lo_b0[LW] ? hi_1 : hi_0, lo_b0[LW-1:0]};  // avg + xs - ys
  assign upd_b1 = {lo_b1[LW] ? hi_1 : hi_0, lo_b1[LW-1:0]};  // avg + xs - ys - 1
  assign avg_o  = borrow ? upd_b1 : upd_b0;
endmodule

`default_nettype wire
