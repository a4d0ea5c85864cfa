// marker_ewma: EWMA update and the queue length a decision uses (combinational,
// stage S1 of marker_top).
//   avg (QW.8 fixed point) += ((q << 8) - avg) >>> W   on enqueue events only
//   qeff = EWMA mode ? avg >> 8 : q   (avg after this event: a dequeue leaves it)
// The average does not decay while the queue is idle (dequeue events leave it).
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
  input  wire logic            ewma_i,     // profile decides on the average
  input  wire logic [3:0]      w_i,        // EWMA weight shift
  input  wire logic            deq_i,      // dequeue event
  input  wire logic [QW-1:0]   qlen_i,
  input  wire logic [QW+7:0]   avg_i,      // stored EWMA before this event
  output logic      [QW+7:0]   avg_o,      // EWMA after this event if it is an enqueue
                                           // (the caller writes it back on enqueues only)
  output logic      [QW-1:0]   qeff_o
);
  initial begin
    if (QW < 8 || QW > 32) $error("marker_ewma: QW must be in 8..32");
  end

  localparam int AW = QW + 8;
  logic [AW-1:0] x, xs, ys, xlow, ylow, mask, upd, upd_b0, upd_b1, nys, cs_s, cs_c;
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
  assign upd_b0 = cs_s + {cs_c[AW-1:1], 1'b1};  // avg + xs - ys
  assign upd_b1 = cs_s + cs_c;                  // avg + xs - ys - 1
  assign upd    = borrow ? upd_b1 : upd_b0;
  assign avg_o  = upd;
  assign qeff_o = ewma_i ? (deq_i ? avg_i[QW+7:8] : upd[QW+7:8]) : qlen_i;
endmodule

`default_nettype wire
