// pfc_frame_enc: IEEE 802.1Qbb PFC frame encoder between the pfc block's PAUSE / RESUME
// requests (one port) and a MAC transmit stream.
//
// Requests (req_valid_i, priority, quanta; quanta 0 = RESUME) are always accepted: each
// sets the priority's pending bit and overwrites its pending quanta (newest wins). When
// the encoder is idle and any bit is pending, it latches every pending priority into one
// frame (priority-enable vector = the pending bits, eight 16-bit quanta, 0 for priorities
// not enabled) and clears them; requests that arrive meanwhile wait for the next frame.
// Frame (60 bytes, the MAC appends the FCS), byte 0 first on tx_data_o[7:0]:
//   0-5 DA 01-80-C2-00-00-01 | 6-11 SA src_mac_i | 12-13 EtherType 0x8808 |
//   14-15 opcode 0x0101 | 16-17 priority-enable vector (16 bits, big endian) |
//   18-33 quanta[0..7] (16 bits each, big endian) | 34-59 zero pad
// 8 beats of 8 bytes; the last beat has tx_keep_o = 8'h0f. AXI-stream rules: valid never
// depends on ready; data is stable while valid && !ready.
`default_nettype none

// The assertion macros: flows list rtl/common/ll_assert.svh first; a file linted on its own
// finds it through -I rtl/common.
`ifndef LL_ASSERT_SVH
`include "ll_assert.svh"
`endif

module pfc_frame_enc (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic [47:0] src_mac_i,      // source MAC (held static)
  input  wire logic        req_valid_i,
  input  wire logic [2:0]  req_prio_i,
  input  wire logic [15:0] req_quanta_i,
  output logic             tx_valid_o,
  input  wire logic        tx_ready_i,
  output logic      [63:0] tx_data_o,
  output logic      [7:0]  tx_keep_o,
  output logic             tx_last_o,
  output logic             frame_sent_o    // one-cycle pulse with the last beat's handshake
);
  logic [7:0]   pend_q, fr_en_q;
  logic [127:0] pq_q, fr_q_q;              // quanta[i] at [16*i +: 16]
  logic         busy_q;
  logic [2:0]   beat_q;
  logic         start, fire;
  logic [7:0]   req_bit;

  assign start   = !busy_q && pend_q != 8'd0;
  assign fire    = busy_q && tx_ready_i;
  assign req_bit = req_valid_i ? (8'd1 << req_prio_i) : 8'd0;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      pend_q <= '0; pq_q <= '0; fr_en_q <= '0; fr_q_q <= '0; busy_q <= 1'b0; beat_q <= '0;
    end else begin
      if (start) begin
        busy_q  <= 1'b1;
        beat_q  <= '0;
        fr_en_q <= pend_q;
        for (int i = 0; i < 8; i++) fr_q_q[16*i +: 16] <= pend_q[i] ? pq_q[16*i +: 16] : 16'd0;
      end else if (fire) begin
        if (beat_q == 3'd7) busy_q <= 1'b0;
        beat_q <= beat_q + 3'd1;
      end
      pend_q <= (start ? 8'd0 : pend_q) | req_bit;
      if (req_valid_i) pq_q[16*req_prio_i +: 16] <= req_quanta_i;
    end
  end

  // the 60-byte frame, byte k at frame[8*k +: 8]
  logic [511:0] frame;
  always_comb begin
    frame = '0;
    frame[0 +: 48]   = 48'h01_00_00_C2_80_01;          // bytes 0..5 = 01 80 C2 00 00 01
    for (int k = 0; k < 6; k++) frame[8*(6+k) +: 8] = src_mac_i[8*(5-k) +: 8];
    frame[8*12 +: 8] = 8'h88;
    frame[8*13 +: 8] = 8'h08;
    frame[8*14 +: 8] = 8'h01;
    frame[8*15 +: 8] = 8'h01;
    frame[8*16 +: 8] = 8'h00;
    frame[8*17 +: 8] = fr_en_q;
    for (int i = 0; i < 8; i++) begin
      frame[8*(18+2*i) +: 8] = fr_q_q[16*i+8 +: 8];
      frame[8*(19+2*i) +: 8] = fr_q_q[16*i +: 8];
    end
  end

  assign tx_valid_o   = busy_q;
  assign tx_data_o    = busy_q ? frame[64*beat_q +: 64] : 64'd0;
  assign tx_keep_o    = !busy_q ? 8'h00 : (beat_q == 3'd7) ? 8'h0f : 8'hff;
  assign tx_last_o    = busy_q && beat_q == 3'd7;
  assign frame_sent_o = fire && beat_q == 3'd7;

`ifndef SYNTHESIS
`ifdef FORMAL
  // Formal only. The proofs assume the documented contract that src_mac_i is held static,
  // at least while a frame is being sent, and under it they prove the AXI-stream rule on
  // the output. The lockstep bench drives src_mac_i freely, and the frame carries it
  // combinationally, so in simulation a stalled beat can change with it.
  // AXI-stream rule on the output: a beat offered and not taken holds
  ll_vr_stable #(.W(64 + 8 + 1)) u_vr_tx (
    .clk_i (clk_i), .rst_ni (rst_ni), .valid_i (tx_valid_o), .ready_i (tx_ready_i),
    .data_i ({tx_data_o, tx_keep_o, tx_last_o})
  );
  // input: the source MAC is held static, at least while a frame is being sent
  logic        a_busy_q = 1'b0;
  logic [47:0] a_mac_q;
  always_ff @(posedge clk_i) begin
    a_busy_q <= rst_ni && busy_q;
    a_mac_q  <= src_mac_i;
    if (rst_ni && busy_q && a_busy_q) `LL_ASSUME(src_mac_i == a_mac_q, ("pfc_frame_enc: src_mac_i changed during a frame"))
  end
`endif
  // legal state: a frame in flight always carries at least one enabled priority
  always_ff @(posedge clk_i) begin
    if (rst_ni && busy_q) `LL_ASSERT(fr_en_q != 8'd0, ("pfc_frame_enc: frame without priorities"))
  end
`endif
endmodule

`default_nettype wire
