// dcqcn_rp: DCQCN reaction point for Queues QPs.
//
// Per-QP state (dcqcn_fmt_pkg word, 401 bits) lives in one ll_ram_1r1w and is updated by a
// seven-stage read-modify-write pipeline, one event per cycle:
//   S0     arbitration and RAM read   (forced scan > snapshot > CNP > bytes sent > idle scan)
//   S1     RAM data, hazard forwarding (the S6 result of the same QP, else the word written
//          in the previous cycle, which a read-first RAM does not return yet)
//   S2..S6 dcqcn_rp_pass P1..P5 (P1: deadlines, lateness, half the alpha chain; P2: the
//          rest of it, incA; P3: cut multiplier, decrease; P4: incC, the event; P5: incS);
//          S6 writes the RAM
// An event whose QP is in S2..S5 (result not ready) waits in S1: a bubble goes into S2 and
// every ready is low (a same-QP event right behind another costs 4 cycles).
// Replay (exactness for any configuration): a pass whose bounded catch-up leaves something
// due is late (known in P1 = S2); it writes back its partial catch-up without the event,
// the event (kind, QP, captured time, bytes) moves from S2 into the replay register, waits
// there until its partial pass is in S6 (rep_wait_q) and re-enters S2 on that result
// (forwarded), ahead of S1, until a pass is not late. Meanwhile S1 holds (re-reading its
// QP's word each cycle) and every ready is low, so no later event of any QP overtakes it.
// A late scan is not replayed.
// Configuration: the passes read one copy of the live configuration (c_*_q), not the live
// inputs. A COMMIT (commit_i: the live inputs change at the end of this cycle) makes the
// copy pending: from the next cycle S1 and S0 hold (every ready low, no scan) until no
// pass is in S2..S5, and in that cycle the copy takes the live inputs and S1 moves on. A
// replay chain in flight goes on with the copy it started with. So a pass never sees a
// configuration change, and the pass stages carry no configuration of their own.
// Timers are per-QP deadlines in the word; nothing ticks per QP. A round-robin scan
// pass visits every QP at least once per Queues * ScanForce cycles, which keeps replays
// rare (late_o pulses for every late pass).
// Outputs: rate_* is registered (one pulse per pass that changed Rc: the wheel's rate
// update); late_o and stat_* are combinational from S6 for the NIC-wide counters.
// C++ twin: ll::dcqcn::RpCyc in cpp_model/dcqcn/dcqcn.cpp.
`default_nettype none

// The assertion macros: flows list rtl/common/ll_assert.svh first; a file linted on its own
// finds it through -I rtl/common.
`ifndef LL_ASSERT_SVH
`include "ll_assert.svh"
`endif

module dcqcn_rp #(
  parameter int Queues       = 64,      // QPs, >= 2
  parameter int LineRateMbps = 100000,  // line rate (initial Rc, Rt cap)
  parameter int BytesW       = 14,      // bytes-sent field width
  parameter int AlphaSteps   = 8,       // catch-up bound: alpha periods per pass
  parameter int DecSteps     = 4,       // catch-up bound: decrease-check periods per pass
  parameter int ScanForce    = 4,       // a scan pass at least every ScanForce cycles, >= 2
  parameter int QW = (Queues > 1) ? $clog2(Queues) : 1  // derived, do not override
) (
  input  wire logic                          clk_i,
  input  wire logic                          rst_ni,
  input  wire logic [dcqcn_fmt_pkg::TIME_W-1:0]  now_i,
  input  wire logic                          commit_i,   // the live configuration changes at the end of this cycle
  // live configuration
  input  wire logic                          nic_i,
  input  wire logic                          hai_grow_i,
  input  wire logic                          clamp_tgt_i,
  input  wire logic                          clamp_ati_i,
  input  wire logic [3:0]                    g_shift_i,
  input  wire logic [31:0]                   p_alpha_i,
  input  wire logic [31:0]                   p_dec_i,
  input  wire logic [31:0]                   p_inc_i,
  input  wire logic [31:0]                   byte_reset_i,
  input  wire logic [dcqcn_fmt_pkg::STAGE_W-1:0] f_i,
  input  wire logic [dcqcn_fmt_pkg::RATE_W-1:0]  rai_i,
  input  wire logic [dcqcn_fmt_pkg::RATE_W-1:0]  rhai_i,
  input  wire logic [dcqcn_fmt_pkg::RATE_W-1:0]  rmin_i,
  input  wire logic [dcqcn_fmt_pkg::RATE_W-1:0]  first_rate_i,
  input  wire logic [dcqcn_fmt_pkg::ALPHA_W-1:0] alpha_init_i,
  input  wire logic [dcqcn_fmt_pkg::ALPHA_W-1:0] min_dec_fac_i,
  // events
  input  wire logic                          snap_valid_i,
  output logic                               snap_ready_o,
  input  wire logic [QW-1:0]                 snap_qp_i,
  input  wire logic                          snap_clr_i,
  input  wire logic                          cnp_valid_i,
  output logic                               cnp_ready_o,
  input  wire logic [QW-1:0]                 cnp_qp_i,
  input  wire logic                          sent_valid_i,
  output logic                               sent_ready_o,
  input  wire logic [QW-1:0]                 sent_qp_i,
  input  wire logic [BytesW-1:0]             sent_bytes_i,
  // results
  output logic                               rate_valid_o,
  output logic      [QW-1:0]                 rate_qp_o,
  output logic      [dcqcn_fmt_pkg::RATE_W-1:0]  rate_o,
  output logic                               late_o,
  output logic                               stat_valid_o,
  output logic      [63:0]                   stat_cnt_o,   // {AI, FR, DEC, CNP_RX} 16 bits each
  output logic      [15:0]                   stat_hai_o,
  output logic      [dcqcn_fmt_pkg::RATE_W-1:0]  stat_rc_o,
  output logic      [dcqcn_fmt_pkg::ALPHA_W-1:0] stat_alpha_o,
  output logic                               init_done_o
);

  localparam logic [dcqcn_fmt_pkg::RATE_W-1:0] LINE = dcqcn_fmt_pkg::RATE_W'(64'(LineRateMbps) * 64'd1000000);

  initial begin
    if (Queues < 2 || Queues > 65536) $error("dcqcn_rp: Queues must be in 2..65536");
    if (LineRateMbps < 1 || LineRateMbps > 1000000) $error("dcqcn_rp: LineRateMbps must be in 1..1000000");
    if (ScanForce < 2 || ScanForce > 1024) $error("dcqcn_rp: ScanForce must be in 2..1024");
    if (QW != $clog2(Queues)) $error("dcqcn_rp: QW is derived from Queues; do not override it");
  end

  // ---- init sweep and RAM
  logic          sw_we, done;
  logic [QW-1:0] sw_addr;
  ll_init_sweep #(.Depth(Queues)) u_sweep (
    .clk_i(clk_i), .rst_ni(rst_ni), .we_o(sw_we), .addr_o(sw_addr), .done_o(done)
  );

  logic            ram_re, ram_we;
  logic [QW-1:0]   ram_raddr, ram_waddr;
  logic [dcqcn_fmt_pkg::QP_W-1:0] ram_wdata, ram_rdata, init_word;
  ll_ram_1r1w #(.Width(dcqcn_fmt_pkg::QP_W), .Depth(Queues)) u_ram (
    .clk_i(clk_i), .we_i(ram_we), .waddr_i(ram_waddr), .wdata_i(ram_wdata),
    .re_i(ram_re), .raddr_i(ram_raddr), .rdata_o(ram_rdata)
  );

  always_comb begin
    init_word = '0;
    init_word[dcqcn_fmt_pkg::W_RC +: dcqcn_fmt_pkg::RATE_W] = LINE;
    init_word[dcqcn_fmt_pkg::W_RT +: dcqcn_fmt_pkg::RATE_W] = LINE;
  end

  // ---- S0: arbitration
  logic [$clog2(ScanForce+1)-1:0] gap_q, gap_d;
  logic [QW-1:0] scan_q, scan_d;
  logic          force_scan, stall;
  logic          e0_valid, e0_clr;
  logic [1:0]    e0_kind;
  logic [QW-1:0] e0_qp;
  logic [BytesW-1:0] e0_bytes;

  logic          late_s2a, rep_now, rep_go, hold;
  // ---- the configuration copy the passes read (see the header)
  logic          cfg_pend_q, drained, cfg_block, cfg_load;
  logic          c_nic_q, c_grow_q, c_ctgt_q, c_cati_q;
  logic [3:0]    c_g_q;
  logic [31:0]   c_pa_q, c_pd_q, c_pi_q, c_br_q;
  logic [dcqcn_fmt_pkg::STAGE_W-1:0] c_f_q;
  logic [dcqcn_fmt_pkg::RATE_W-1:0]  c_rai_q, c_rhai_q, c_rmin_q, c_first_q;
  logic [dcqcn_fmt_pkg::ALPHA_W-1:0] c_ainit_q, c_mdf_q;
  assign drained   = !s2_valid_q && !s3_valid_q && !s4_valid_q && !s5_valid_q;
  assign cfg_block = cfg_pend_q && !drained;
  assign cfg_load  = !done || (cfg_pend_q && drained);
  assign force_scan   = 32'(gap_q) + 32'd1 >= 32'(ScanForce);
  // S1's QP has a pass in S2..S5 (its result is not ready yet): wait
  assign stall        = s1_valid_q && ((s2_valid_q && s1_qp_q == s2_qp_q) || (s3_valid_q && s1_qp_q == s3_qp_q) ||
                                       (s4_valid_q && s1_qp_q == s4_qp_q) || (s5_valid_q && s1_qp_q == s5_qp_q));
  // the event/snapshot in S2 is late: replay it (S2 -> replay register)
  assign rep_now      = s2_valid_q && s2_kind_q != dcqcn_fmt_pkg::EV_SCAN && late_s2a;
  // the replay re-enters S2 when its partial pass is in S6 (forwarded)
  assign rep_go       = rep_valid_q && rep_wait_q == '0;
  assign hold         = stall || rep_valid_q || rep_now || cfg_block;
  assign snap_ready_o = done && !hold && !force_scan;
  assign cnp_ready_o  = snap_ready_o && !snap_valid_i;
  assign sent_ready_o = cnp_ready_o && !cnp_valid_i;

  always_comb begin
    e0_valid = done && !hold;
    e0_kind  = dcqcn_fmt_pkg::EV_SCAN;
    e0_qp    = scan_q;
    e0_bytes = '0;
    e0_clr   = 1'b0;
    if (force_scan) begin
      e0_kind = dcqcn_fmt_pkg::EV_SCAN;
    end else if (snap_valid_i) begin
      e0_kind = dcqcn_fmt_pkg::EV_SNAP;
      e0_qp   = snap_qp_i;
      e0_clr  = snap_clr_i;
    end else if (cnp_valid_i) begin
      e0_kind = dcqcn_fmt_pkg::EV_CNP;
      e0_qp   = cnp_qp_i;
    end else if (sent_valid_i) begin
      e0_kind  = dcqcn_fmt_pkg::EV_SENT;
      e0_qp    = sent_qp_i;
      e0_bytes = sent_bytes_i;
    end
    scan_d = scan_q;
    gap_d  = gap_q;
    if (e0_valid && e0_kind == dcqcn_fmt_pkg::EV_SCAN) begin
      gap_d  = '0;
      scan_d = (32'(scan_q) == Queues - 1) ? '0 : scan_q + 1'b1;
    end else if (e0_valid && 32'(gap_q) < ScanForce) begin
      gap_d = gap_q + 1'b1;
    end
  end

  // ---- pipeline registers
  logic          s1_valid_q, s1_clr_q, s2_valid_q, s2_clr_q, s3_valid_q, s4_valid_q, s5_valid_q;
  logic          s6_valid_q, s3_clr_q, s4_clr_q, s5_clr_q, s6_clr_q, wb_valid_q;
  logic [1:0]    s1_kind_q, s2_kind_q, s3_kind_q, s4_kind_q, s5_kind_q, s6_kind_q;
  logic [QW-1:0] s1_qp_q, s2_qp_q, s3_qp_q, s4_qp_q, s5_qp_q, s6_qp_q, wb_qp_q;
  // Rc before the pass (rate-change detection), S3..S6
  logic [dcqcn_fmt_pkg::RATE_W-1:0] s3_rc_q, s4_rc_q, s5_rc_q, s6_rc_q;
  logic [dcqcn_fmt_pkg::TIME_W-1:0] s1_t_q, s2_t_q;
  logic [BytesW-1:0] s1_bytes_q, s2_bytes_q;
  logic [dcqcn_fmt_pkg::QP_W-1:0]   s2_st_q, wb_q, st1, res, res_w;
  logic              late;
  // replay register (a late event waiting to re-enter S2) and the event S2 takes next
  logic              rep_valid_q, rep_clr_q;
  logic [1:0]        rep_wait_q;   // cycles until the replay's partial pass is in S6
  logic [1:0]        rep_kind_q;
  logic [QW-1:0]     rep_qp_q, e1_qp;
  logic [dcqcn_fmt_pkg::TIME_W-1:0] rep_t_q;
  logic [BytesW-1:0] rep_bytes_q;
  assign e1_qp = rep_go ? rep_qp_q : s1_qp_q;

  // ---- S2..S6: the pass (result in S6)
  dcqcn_rp_pass #(.AlphaSteps(AlphaSteps), .DecSteps(DecSteps), .BytesW(BytesW)) u_pass (
    .clk_i(clk_i), .st_i(s2_st_q), .ev_i(s2_kind_q), .t_i(s2_t_q), .bytes_i(s2_bytes_q),
    .nic_i(c_nic_q), .hai_grow_i(c_grow_q), .clamp_tgt_i(c_ctgt_q), .clamp_ati_i(c_cati_q),
    .g_shift_i(c_g_q), .p_alpha_i(c_pa_q), .p_dec_i(c_pd_q), .p_inc_i(c_pi_q),
    .byte_reset_i(c_br_q), .f_i(c_f_q), .rai_i(c_rai_q), .rhai_i(c_rhai_q), .rmin_i(c_rmin_q),
    .first_rate_i(c_first_q), .line_i(LINE), .alpha_init_i(c_ainit_q),
    .min_dec_fac_i(c_mdf_q), .st_o(res), .late_s2a_o(late_s2a), .late_o(late)
  );

  always_comb begin
    res_w = res;
    if (s6_kind_q == dcqcn_fmt_pkg::EV_SNAP && s6_clr_q && !late) begin
      res_w[dcqcn_fmt_pkg::W_CCNP +: dcqcn_fmt_pkg::QCNT_W] = '0;
      res_w[dcqcn_fmt_pkg::W_CDEC +: dcqcn_fmt_pkg::QCNT_W] = '0;
      res_w[dcqcn_fmt_pkg::W_CFR +: dcqcn_fmt_pkg::QCNT_W]  = '0;
      res_w[dcqcn_fmt_pkg::W_CAI +: dcqcn_fmt_pkg::QCNT_W]  = '0;
      res_w[dcqcn_fmt_pkg::W_CHAI +: dcqcn_fmt_pkg::QCNT_W] = '0;
    end
  end

  assign late_o       = s6_valid_q && late;
  assign stat_valid_o = s6_valid_q && s6_kind_q == dcqcn_fmt_pkg::EV_SNAP && !late;
  assign stat_cnt_o   = {res[dcqcn_fmt_pkg::W_CAI +: dcqcn_fmt_pkg::QCNT_W], res[dcqcn_fmt_pkg::W_CFR +: dcqcn_fmt_pkg::QCNT_W], res[dcqcn_fmt_pkg::W_CDEC +: dcqcn_fmt_pkg::QCNT_W], res[dcqcn_fmt_pkg::W_CCNP +: dcqcn_fmt_pkg::QCNT_W]};
  assign stat_hai_o   = res[dcqcn_fmt_pkg::W_CHAI +: dcqcn_fmt_pkg::QCNT_W];
  assign stat_rc_o    = res[dcqcn_fmt_pkg::W_RC +: dcqcn_fmt_pkg::RATE_W];
  assign stat_alpha_o = res[dcqcn_fmt_pkg::W_ALPHA +: dcqcn_fmt_pkg::ALPHA_W];

  // ---- S1: forwarding for the event that enters S2 (a re-entering replay's QP is in S6)
  always_comb begin
    if (s6_valid_q && s6_qp_q == e1_qp)      st1 = res_w;
    else if (wb_valid_q && wb_qp_q == e1_qp) st1 = wb_q;
    else                                     st1 = ram_rdata;
  end

  // ---- RAM ports (a held S1 re-reads its QP: forwarding covers only the last two writes)
  always_comb begin
    ram_re    = e0_valid || (done && hold && s1_valid_q);
    ram_raddr = e0_valid ? e0_qp : s1_qp_q;
    ram_we    = done ? s6_valid_q : sw_we;
    ram_waddr = done ? s6_qp_q : sw_addr;
    ram_wdata = done ? res_w : init_word;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      gap_q        <= '0;
      scan_q       <= '0;
      s1_valid_q   <= 1'b0;
      s2_valid_q   <= 1'b0;
      s3_valid_q   <= 1'b0;
      s4_valid_q   <= 1'b0;
      s5_valid_q   <= 1'b0;
      s6_valid_q   <= 1'b0;
      wb_valid_q   <= 1'b0;
      rep_valid_q  <= 1'b0;
      rep_wait_q   <= '0;
      rate_valid_o <= 1'b0;
      cfg_pend_q   <= 1'b0;
    end else begin
      cfg_pend_q   <= commit_i || cfg_block;
      gap_q        <= gap_d;
      scan_q       <= scan_d;
      if (!hold) s1_valid_q <= e0_valid;
      s2_valid_q   <= !rep_now && (rep_go || (s1_valid_q && !hold));
      rep_valid_q  <= rep_now || (rep_valid_q && !rep_go);
      if (rep_now)          rep_wait_q <= 2'd3;   // partial pass: S3, S4, S5, then S6
      else if (rep_valid_q) rep_wait_q <= rep_wait_q - 1'b1;
      s3_valid_q   <= s2_valid_q;
      s4_valid_q   <= s3_valid_q;
      s5_valid_q   <= s4_valid_q;
      s6_valid_q   <= s5_valid_q;
      wb_valid_q   <= s6_valid_q;
      rate_valid_o <= s6_valid_q && res_w[dcqcn_fmt_pkg::W_RC +: dcqcn_fmt_pkg::RATE_W] != s6_rc_q;
    end
  end

  // the configuration copy: taken during the init sweep and when a pending COMMIT finds
  // S2..S5 empty (no reset: the sweep loads it before any pass)
  always_ff @(posedge clk_i) begin
    if (cfg_load) begin
      c_nic_q   <= nic_i;
      c_grow_q  <= hai_grow_i;
      c_ctgt_q  <= clamp_tgt_i;
      c_cati_q  <= clamp_ati_i;
      c_g_q     <= g_shift_i;
      c_pa_q    <= p_alpha_i;
      c_pd_q    <= p_dec_i;
      c_pi_q    <= p_inc_i;
      c_br_q    <= byte_reset_i;
      c_f_q     <= f_i;
      c_rai_q   <= rai_i;
      c_rhai_q  <= rhai_i;
      c_rmin_q  <= rmin_i;
      c_first_q <= first_rate_i;
      c_ainit_q <= alpha_init_i;
      c_mdf_q   <= min_dec_fac_i;
    end
  end

  // payload registers (no reset: qualified by the valid bits above)
  always_ff @(posedge clk_i) begin
    if (!hold) begin
      s1_kind_q  <= e0_kind;
      s1_qp_q    <= e0_qp;
      s1_t_q     <= now_i;
      s1_bytes_q <= e0_bytes;
      s1_clr_q   <= e0_clr;
    end
    if (rep_go) begin   // the replay: same event, its captured time
      s2_kind_q  <= rep_kind_q;
      s2_qp_q    <= rep_qp_q;
      s2_t_q     <= rep_t_q;
      s2_bytes_q <= rep_bytes_q;
      s2_clr_q   <= rep_clr_q;
    end else begin
      s2_kind_q  <= s1_kind_q;
      s2_qp_q    <= s1_qp_q;
      s2_t_q     <= s1_t_q;
      s2_bytes_q <= s1_bytes_q;
      s2_clr_q   <= s1_clr_q;
    end
    s2_st_q    <= st1;
    if (rep_now) begin   // the late event waits in the replay register
      rep_kind_q  <= s2_kind_q;
      rep_qp_q    <= s2_qp_q;
      rep_t_q     <= s2_t_q;
      rep_bytes_q <= s2_bytes_q;
      rep_clr_q   <= s2_clr_q;
    end
    s3_kind_q  <= s2_kind_q;
    s3_qp_q    <= s2_qp_q;
    s3_clr_q   <= s2_clr_q;
    s3_rc_q    <= s2_st_q[dcqcn_fmt_pkg::W_RC +: dcqcn_fmt_pkg::RATE_W];
    s4_kind_q  <= s3_kind_q;
    s4_qp_q    <= s3_qp_q;
    s4_clr_q   <= s3_clr_q;
    s4_rc_q    <= s3_rc_q;
    s5_kind_q  <= s4_kind_q;
    s5_qp_q    <= s4_qp_q;
    s5_clr_q   <= s4_clr_q;
    s5_rc_q    <= s4_rc_q;
    s6_kind_q  <= s5_kind_q;
    s6_qp_q    <= s5_qp_q;
    s6_clr_q   <= s5_clr_q;
    s6_rc_q    <= s5_rc_q;
    wb_qp_q    <= s6_qp_q;
    wb_q       <= res_w;
    if (s6_valid_q && res_w[dcqcn_fmt_pkg::W_RC +: dcqcn_fmt_pkg::RATE_W] != s6_rc_q) begin
      rate_qp_o <= s6_qp_q;
      rate_o    <= res_w[dcqcn_fmt_pkg::W_RC +: dcqcn_fmt_pkg::RATE_W];
    end
  end

  assign init_done_o = done;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni && done) begin
      `LL_ASSERT(!(s1_valid_q && 32'(s1_qp_q) >= Queues), ("dcqcn_rp: QP index out of range"))
    end
  end
`endif
endmodule

`default_nettype wire
