// dcqcn_np: DCQCN notification point (receiver side), one entry per flow in RAM.
//
// A CE-marked data packet of flow f (ce_*) may produce a CNP for f (cnp_*):
//  - per-packet mode (per_pkt_i): a CNP for every marked packet (the RP coalesces);
//  - NP-side coalescing: a CNP if the flow never sent one or the last one is at least
//    interval_i ticks old (the first mark after a quiet window goes out at once), i.e.
//    at most one CNP per flow per interval.
// Pipeline: S0 accepts the packet and reads its entry (read-first RAM); S1 takes the word,
// with the write the read missed forwarded; S2 decides and, when it sends a CNP, writes the
// entry ({seen, last} = {1, now}; a packet that sends none leaves its entry as it was), so
// the write data never waits for the decision (only the write enable and the forwarding
// flags do). A packet misses in the RAM the writes of the two packets ahead of it: the one
// in S2 when it is read (forwarded in S1) and the one in S2 when it is in S1 (forwarded in
// S2, the read-modify-write loop: a 2:1 multiplexer with a registered select in front of
// the interval test). The FIFO push and the CNP counter take the decision from a register
// (S3).
// The interval test (now - last) mod 2^TW >= interval is one adder (see S2) and a
// comparison beside it, not a subtraction followed by a comparison.
// CNPs wait in an 8-entry FIFO; ce_ready_o leaves room for the packets in S1..S3, so the
// FIFO never overflows.
// C++ twin: ll::dcqcn::NpCyc in cpp_model/dcqcn/dcqcn.cpp.
`default_nettype none

// The assertion macros: flows list rtl/common/ll_assert.svh first; a file linted on its own
// finds it through -I rtl/common.
`ifndef LL_ASSERT_SVH
`include "ll_assert.svh"
`endif

module dcqcn_np #(
  parameter int Queues = 64,                            // flows, >= 2
  // entries per bank of the flow RAM: above it the RAM is split into banks
  // (ll_ram_1r1w_banked), the depth of the SG13G2 SRAM macro that meets a 4 ns clock
  parameter int BankWords = 256,
  parameter int QW = (Queues > 1) ? $clog2(Queues) : 1  // derived, do not override
) (
  input  wire logic                         clk_i,
  input  wire logic                         rst_ni,
  input  wire logic [dcqcn_fmt_pkg::TIME_W-1:0] now_i,
  input  wire logic                         per_pkt_i,
  input  wire logic [31:0]                  interval_i,
  input  wire logic                         ce_valid_i,
  output logic                              ce_ready_o,
  input  wire logic [QW-1:0]                ce_flow_i,
  output logic                              cnp_valid_o,
  input  wire logic                         cnp_ready_i,
  output logic      [QW-1:0]                cnp_flow_o,
  output logic                              cnp_sent_o,   // a CNP entered the FIFO
  output logic                              init_done_o
);
  localparam int TW = dcqcn_fmt_pkg::TIME_W;
  localparam int EW = TW + 1;   // {seen, last}
  localparam int Depth = 8;   // CNP FIFO entries (a power of two: the pointers wrap)

  initial begin
    if (Queues < 2 || Queues > 65536) $error("dcqcn_np: Queues must be in 2..65536");
    if (QW != $clog2(Queues)) $error("dcqcn_np: QW is derived from Queues; do not override it");
  end

  logic          sw_we, done;
  logic [QW-1:0] sw_addr;
  ll_init_sweep #(.Depth(Queues)) u_sweep (
    .clk_i(clk_i), .rst_ni(rst_ni), .we_o(sw_we), .addr_o(sw_addr), .done_o(done)
  );

  logic          ram_we, acc;
  logic [QW-1:0] ram_waddr;
  logic [EW-1:0] ram_wdata, ram_rdata;
  ll_ram_1r1w_banked #(.Width(EW), .Depth(Queues), .BankWords(BankWords)) u_ram (
    .clk_i(clk_i), .we_i(ram_we), .waddr_i(ram_waddr), .wdata_i(ram_wdata),
    .re_i(acc), .raddr_i(ce_flow_i), .rdata_o(ram_rdata)
  );

  logic          s1_valid_q, s2_valid_q, s3_valid_q, far_q, s2_near_q, s3_send_q;
  logic [QW-1:0] s1_flow_q, s2_flow_q, s3_flow_q;
  logic [TW-1:0] s1_t_q, s2_t_q;
  logic [EW-1:0] s2_ent_q;    // S2's entry unless the packet ahead of it wrote it (s2_near_q)
  logic [TW-1:0] wb_t_q;      // the time S2's packet stamped at the last edge (if it sent: near/far)
  logic [EW-1:0] ent;
  logic          send;
  logic [QW-1:0] fifo_q [Depth];
  logic [2:0]    rd_q, wr_q;
  logic [3:0]    n_q;
  logic          pop;

  assign ce_ready_o = done && (32'(n_q) + (s1_valid_q ? 32'd1 : 32'd0) + (s2_valid_q ? 32'd1 : 32'd0)
                               + (s3_valid_q ? 32'd1 : 32'd0) < Depth);
  assign acc        = ce_ready_o && ce_valid_i;

  // S2's entry: the word the packet ahead wrote at the last edge, else the one S1 took
  assign ent = s2_near_q ? {1'b1, wb_t_q} : s2_ent_q;

  // Interval test, d = (t - last) mod 2^TW, I = interval: d >= I iff d + ~I + 1 carries
  // out of TW bits. With S = t + ~last + ~I + 2 (TW + 2 bits, no overflow) and
  // wrap = (t >= last), d + ~I + 1 = S - wrap * 2^TW, so
  //   d >= I  iff  S >= (1 + wrap) * 2^TW  iff  wrap ? S[TW+1] : (S[TW+1] | S[TW]).
  // S1 forms A = t + ~I + 1 (I is the interval in force while the packet is in S1), so S2
  // adds two operands, S = A + ~last + 1, of which only the top two bits are used,
  // carry-select: the low LW bits' carry-out picks one of the two high sums formed beside
  // it. wrap is split the same way (high greater, or high equal and low at least).
  localparam int LW = (TW + 2) / 2;     // low part of S
  localparam int HW = TW + 2 - LW;      // high part of S
  localparam int WL = TW / 2;           // low part of the wrap comparison
  logic [TW+1:0] s2_a_q, iv_nl;
  logic [LW:0]   iv_lo;                 // {carry-out, low sum}
  logic [HW-1:0] iv_hi0, iv_hi1;        // high sums without / with the low carry
  logic [1:0]    iv_top;                // S[TW+1:TW]
  logic          iv_wrap, iv_ge;
  always_ff @(posedge clk_i) begin
    s2_a_q <= {2'b00, s1_t_q} + {2'b00, ~{{(TW - 32){1'b0}}, interval_i}} + 1'b1;
  end
  always_comb begin
    iv_nl  = {2'b00, ~ent[TW-1:0]};
    iv_lo  = {1'b0, s2_a_q[LW-1:0]} + {1'b0, iv_nl[LW-1:0]} + 1'b1;
    iv_hi0 = s2_a_q[TW+1:LW] + iv_nl[TW+1:LW];
    iv_hi1 = s2_a_q[TW+1:LW] + iv_nl[TW+1:LW] + 1'b1;
    iv_top = iv_lo[LW] ? iv_hi1[HW-1 -: 2] : iv_hi0[HW-1 -: 2];
    iv_wrap = (s2_t_q[TW-1:WL] > ent[TW-1:WL])
           || ((s2_t_q[TW-1:WL] == ent[TW-1:WL]) && (s2_t_q[WL-1:0] >= ent[WL-1:0]));
    iv_ge   = iv_wrap ? iv_top[1] : (iv_top[1] | iv_top[0]);
  end

  always_comb begin
    send    = per_pkt_i || !ent[TW] || iv_ge;
    ram_we    = done ? (s2_valid_q && send) : sw_we;
    ram_waddr = done ? s2_flow_q : sw_addr;
    ram_wdata = done ? {1'b1, s2_t_q} : '0;
  end

  assign cnp_valid_o = n_q != '0;
  assign cnp_flow_o  = fifo_q[rd_q];
  assign pop         = cnp_valid_o && cnp_ready_i;
  assign cnp_sent_o  = s3_send_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      s1_valid_q <= 1'b0;
      s2_valid_q <= 1'b0;
      s3_valid_q <= 1'b0;
      s3_send_q  <= 1'b0;
      rd_q       <= '0;
      wr_q       <= '0;
      n_q        <= '0;
    end else begin
      s1_valid_q <= acc;
      s2_valid_q <= s1_valid_q;
      s3_valid_q <= s2_valid_q;
      s3_send_q  <= s2_valid_q && send;
      if (pop) rd_q <= rd_q + 1'b1;
      if (s3_send_q) wr_q <= wr_q + 1'b1;
      n_q <= n_q + (s3_send_q ? 4'd1 : 4'd0) - (pop ? 4'd1 : 4'd0);
    end
  end

  always_ff @(posedge clk_i) begin
    s1_flow_q <= ce_flow_i;
    s1_t_q    <= now_i;
    far_q     <= s2_valid_q && send && (s2_flow_q == ce_flow_i);   // its write is at this edge
    s2_flow_q <= s1_flow_q;
    s2_t_q    <= s1_t_q;
    s2_ent_q  <= far_q ? {1'b1, wb_t_q} : ram_rdata;
    s2_near_q <= s2_valid_q && send && (s2_flow_q == s1_flow_q);   // its write is at this edge
    wb_t_q    <= s2_t_q;
    s3_flow_q <= s2_flow_q;
    if (s3_send_q) fifo_q[wr_q] <= s3_flow_q;
  end

  assign init_done_o = done;

`ifndef SYNTHESIS
  // valid/ready: a CNP offered and not taken stays offered, with the same flow
  ll_vr_stable #(.W(QW)) u_vr_cnp (
    .clk_i (clk_i), .rst_ni (rst_ni), .valid_i (cnp_valid_o), .ready_i (cnp_ready_i),
    .data_i (cnp_flow_o)
  );
  always_ff @(posedge clk_i) begin
    // input: an accepted CE event names a flow (the RAM has no entry past Queues - 1)
    if (ce_valid_i && ce_ready_o) `LL_ASSUME(`LL_INRANGE(ce_flow_i, Queues), ("dcqcn_np: CE flow %0d >= Queues", ce_flow_i))
    if (rst_ni) begin
      `LL_ASSERT(32'(n_q) <= Depth, ("dcqcn_np: FIFO overflow"))
      // the occupancy and the FIFO pointers agree (the CNP read is the oldest entry)
      `LL_ASSERT(n_q[2:0] == wr_q - rd_q, ("dcqcn_np: FIFO count %0d disagrees with pointers %0d/%0d", n_q, wr_q, rd_q))
      `LL_ASSERT(!(ce_valid_i && ce_ready_o && !done), ("dcqcn_np: accepted before init_done"))
    end
  end
`endif
endmodule

`default_nettype wire
