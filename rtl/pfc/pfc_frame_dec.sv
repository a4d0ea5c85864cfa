// pfc_frame_dec: IEEE 802.1Qbb PFC frame decoder between a MAC receive stream and the
// pfc block's received-PFC input (pfc_valid_i / pfc_prio_i / pfc_quanta_i of one port).
//
// rx_*: AXI-stream of whole frames without FCS, byte 0 first on rx_data_i[7:0], keep
// contiguous from bit 0 (all ones except on the last beat), rx_err_i on the last beat
// marks a bad frame (FCS error). A frame is a PFC frame when DA = 01-80-C2-00-00-01,
// EtherType = 0x8808, opcode = 0x0101, it has >= 60 bytes, all non-last beats are full
// and rx_err_i is low. For such a frame the decoder then emits one event per bit set in
// the priority-enable vector (byte 17; byte 16 is reserved and ignored), lowest priority
// first, with that priority's quanta (bytes 18 + 2i, big endian; 0 = RESUME); while it
// emits, rx_ready_o is low. good_o / bad_o pulse with the last beat of a PFC frame /
// of a frame that matched DA + EtherType + opcode but failed another check; other frames
// (data, 802.3x PAUSE) are ignored silently.
`default_nettype none

// The assertion macros: flows list rtl/common/ll_assert.svh first; a file linted on its own
// finds it through -I rtl/common.
`ifndef LL_ASSERT_SVH
`include "ll_assert.svh"
`endif

module pfc_frame_dec (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        rx_valid_i,
  output logic             rx_ready_o,
  input  wire logic [63:0] rx_data_i,
  input  wire logic [7:0]  rx_keep_i,
  input  wire logic        rx_last_i,
  input  wire logic        rx_err_i,
  output logic             evt_valid_o,
  input  wire logic        evt_ready_i,
  output logic      [2:0]  evt_prio_o,
  output logic      [15:0] evt_quanta_o,
  output logic             good_o,
  output logic             bad_o
);
  logic [3:0]   beat_q;     // beats seen in this frame, saturating at 15
  logic         da_ok_q, ty_ok_q, full_ok_q;
  logic [7:0]   en_q, emit_q;
  logic [127:0] tq_q, etq_q;
  logic         good_q, bad_q;
  logic         acc;
  logic [3:0]   nbytes;      // bytes in this beat

  assign rx_ready_o = emit_q == 8'd0;
  assign acc = rx_valid_i && rx_ready_o;

  always_comb begin
    nbytes = 4'd0;
    for (int i = 0; i < 8; i++) nbytes = nbytes + {3'd0, rx_keep_i[i]};
  end

  // the lowest pending priority
  logic [2:0] lo;
  always_comb begin
    lo = 3'd0;
    for (int i = 7; i >= 0; i--) if (emit_q[i]) lo = 3'(i);
  end

  logic ok_now, match_now, long_enough;
  always_comb begin
    // total bytes = 8 * beats_before + nbytes >= 60  <=>  beats_before >= 7 && nbytes >= 4,
    // or beats_before >= 8 (all earlier beats full)
    long_enough = (beat_q >= 4'd8) || (beat_q == 4'd7 && nbytes >= 4'd4);
    match_now   = da_ok_q && ty_ok_q && beat_q >= 4'd2;
    ok_now      = match_now && long_enough && full_ok_q && !rx_err_i;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      beat_q <= '0; da_ok_q <= 1'b0; ty_ok_q <= 1'b0; full_ok_q <= 1'b1; en_q <= '0;
      emit_q <= '0; tq_q <= '0; etq_q <= '0; good_q <= 1'b0; bad_q <= 1'b0;
    end else begin
      good_q <= 1'b0;
      bad_q  <= 1'b0;
      if (evt_valid_o && evt_ready_i) emit_q[lo] <= 1'b0;
      if (acc) begin
        case (beat_q)
          4'd0: da_ok_q <= rx_data_i[47:0] == 48'h01_00_00_C2_80_01 && rx_keep_i[5:0] == 6'h3f;
          4'd1: ty_ok_q <= rx_data_i[63:32] == 32'h01_01_08_88 && rx_keep_i == 8'hff;
          4'd2: begin
            en_q <= rx_data_i[15:8];
            for (int i = 0; i < 3; i++) tq_q[16*i +: 16] <= {rx_data_i[16*i+16 +: 8], rx_data_i[16*i+24 +: 8]};
          end
          4'd3: for (int i = 0; i < 4; i++) tq_q[16*(i+3) +: 16] <= {rx_data_i[16*i +: 8], rx_data_i[16*i+8 +: 8]};
          4'd4: tq_q[16*7 +: 16] <= {rx_data_i[7:0], rx_data_i[15:8]};
          default: ;
        endcase
        if (!rx_last_i && rx_keep_i != 8'hff) full_ok_q <= 1'b0;
        if (rx_last_i) begin
          beat_q <= '0; full_ok_q <= 1'b1; da_ok_q <= 1'b0; ty_ok_q <= 1'b0;
          if (ok_now) begin
            good_q <= 1'b1;
            emit_q <= en_q;
            etq_q  <= tq_q;
          end else if (match_now) begin
            bad_q <= 1'b1;
          end
        end else if (beat_q != 4'hf) begin
          beat_q <= beat_q + 4'd1;
        end
      end
    end
  end

  assign evt_valid_o  = emit_q != 8'd0;
  assign evt_prio_o   = evt_valid_o ? lo : 3'd0;
  assign evt_quanta_o = evt_valid_o ? etq_q[16*lo +: 16] : 16'd0;
  assign good_o = good_q;
  assign bad_o  = bad_q;

`ifndef SYNTHESIS
  // AXI-stream rule on the input: once rx_valid_i && !rx_ready_o, the beat holds.
  ll_vr_stable #(.W(64 + 8 + 2), .Input(1'b1)) u_vr_rx (
    .clk_i (clk_i), .rst_ni (rst_ni), .valid_i (rx_valid_i), .ready_i (rx_ready_o),
    .data_i ({rx_data_i, rx_keep_i, rx_last_i, rx_err_i})
  );
  // valid/ready rule on the event output: an offered event holds until taken
  ll_vr_stable #(.W(3 + 16)) u_vr_evt (
    .clk_i (clk_i), .rst_ni (rst_ni), .valid_i (evt_valid_o), .ready_i (evt_ready_i),
    .data_i ({evt_prio_o, evt_quanta_o})
  );
  // the beat counter saturates at 15 (a long frame never wraps it back to the header beats)
  logic       a_live_q = 1'b0;
  logic       a_acc_q;
  logic [3:0] a_beat_q;
  always_ff @(posedge clk_i) begin
    a_live_q <= rst_ni;
    a_acc_q  <= acc && !rx_last_i;
    a_beat_q <= beat_q;
    if (rst_ni && a_live_q && a_acc_q) `LL_ASSERT(beat_q >= a_beat_q, ("pfc_frame_dec: beat counter wrapped"))
    // a frame is counted good or bad, never both
    if (rst_ni) `LL_ASSERT(!(good_q && bad_q), ("pfc_frame_dec: frame both good and bad"))
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni && rx_valid_i) `LL_ASSUME(rx_keep_i[0], ("pfc_frame_dec: empty beat (rx_keep_i[0] low)"))
  end
`endif
endmodule

`default_nettype wire
