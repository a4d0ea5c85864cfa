// dcqcn: the NIC's DCQCN block: notification point (dcqcn_np), reaction point for
// Queues QPs (dcqcn_rp) and the timing-wheel rate limiter (dcqcn_wheel), with the
// register interface of docs/CONVENTIONS.md (map: rtl/dcqcn/dcqcn_regs.json).
//
// Time base: tick_i advances the block's 48-bit time by one tick of TickPs ps; every
// period register counts these ticks, so tests reach 300 us timers in few cycles.
// After reset the time is TimeStart (default 0): a bench starts it just below a carry
// (2^24, 2^32) so that the carry into the time's upper bits happens within a run.
// The RP's rate updates (rate_*) feed the wheel inside and are also output. The RP's
// bytes-sent events (sent_*) are an input: the integration connects the TX engine
// (normally the wheel's grants) there. Payload outputs are meaningful while their
// valid is high.
// C++ twin: ll::dcqcn::Model in cpp_model/dcqcn/dcqcn.h.
`default_nettype none

module dcqcn_top #(
  parameter int Queues       = 64,      // QPs / flows, 2..65536
  parameter int Slots        = 64,      // wheel slots, power of two, 4..4096
  parameter int SlotLog2     = 6,       // wheel slot length 2^SlotLog2 ticks
  parameter int TickPs       = 1000,    // time-base tick length in ps
  parameter int LineRateMbps = 100000,  // line rate in Mb/s
  parameter int BytesW       = 14,      // packet-size field width, 7..16
  parameter int IfgBytes     = 0,       // per-packet overhead charged by the wheel
  parameter int AlphaSteps   = 8,       // RP catch-up bound: alpha periods per pass
  parameter int DecSteps     = 4,       // RP catch-up bound: decrease-check periods per pass
  parameter int ScanForce    = 4,       // RP: a scan pass at least every ScanForce cycles
  parameter int DivBits      = 4,       // wheel divider: quotient bits per cycle
  parameter logic [31:0] TimeStart = 32'd0,  // the time base after reset (ticks)
  parameter int QW = (Queues > 1) ? $clog2(Queues) : 1  // derived, do not override
) (
  input  wire logic                         clk_i,
  input  wire logic                         rst_ni,
  input  wire logic                         tick_i,
  // NP: CE-marked data packets in, CNPs out
  input  wire logic                         ce_valid_i,
  output logic                              ce_ready_o,
  input  wire logic [QW-1:0]                ce_flow_i,
  output logic                              cnpo_valid_o,
  input  wire logic                         cnpo_ready_i,
  output logic      [QW-1:0]                cnpo_flow_o,
  // RP: CNPs received, bytes sent
  input  wire logic                         cnp_valid_i,
  output logic                              cnp_ready_o,
  input  wire logic [QW-1:0]                cnp_qp_i,
  input  wire logic                         sent_valid_i,
  output logic                              sent_ready_o,
  input  wire logic [QW-1:0]                sent_qp_i,
  input  wire logic [BytesW-1:0]            sent_bytes_i,
  output logic                              rate_valid_o,
  output logic      [QW-1:0]                rate_qp_o,
  output logic      [dcqcn_fmt_pkg::RATE_W-1:0] rate_o,
  // wheel: QP tokens in, departures out
  input  wire logic                         enq_valid_i,
  output logic                              enq_ready_o,
  input  wire logic [QW-1:0]                enq_qp_i,
  input  wire logic [BytesW-1:0]            enq_bytes_i,
  output logic                              grant_valid_o,
  input  wire logic                         grant_ready_i,
  output logic      [QW-1:0]                grant_qp_o,
  output logic      [BytesW-1:0]            grant_bytes_o,
  // registers
  input  wire logic                         cfg_we_i,
  input  wire logic                         cfg_re_i,
  input  wire logic [11:0]                  cfg_addr_i,
  input  wire logic [31:0]                  cfg_wdata_i,
  output logic      [31:0]                  cfg_rdata_o,
  output logic                              cfg_rvalid_o,
  output logic                              init_done_o
);

  localparam logic [dcqcn_fmt_pkg::RATE_W-1:0] LINE = dcqcn_fmt_pkg::RATE_W'(64'(LineRateMbps) * 64'd1000000);
  localparam int AW = dcqcn_fmt_pkg::ALPHA_W;

  initial begin
    // params.py: begin generated checks (rtl/dcqcn/dcqcn_params.json)
    if (!((Queues >= 2 && Queues <= 65536))) $error("dcqcn: Queues must be in 2..65536");
    if (!(((Slots >= 4 && Slots <= 4096) && ((Slots & (Slots - 1)) == 0)))) $error("dcqcn: Slots must be a power of 2 in 4..4096");
    if (!((SlotLog2 >= 0 && SlotLog2 <= 24))) $error("dcqcn: SlotLog2 must be in 0..24");
    if (!((TickPs >= 1 && TickPs <= 1000000000))) $error("dcqcn: TickPs must be in 1..1000000000");
    if (!((LineRateMbps >= 1 && LineRateMbps <= 1000000))) $error("dcqcn: LineRateMbps must be in 1..1000000");
    if (!((BytesW >= 7 && BytesW <= 16))) $error("dcqcn: BytesW must be in 7..16");
    if (!((IfgBytes >= 0 && IfgBytes <= 255))) $error("dcqcn: IfgBytes must be in 0..255");
    if (!((AlphaSteps >= 1 && AlphaSteps <= 32))) $error("dcqcn: AlphaSteps must be in 1..32");
    if (!((DecSteps >= 1 && DecSteps <= 32))) $error("dcqcn: DecSteps must be in 1..32");
    if (!((ScanForce >= 2 && ScanForce <= 1024))) $error("dcqcn: ScanForce must be in 2..1024");
    if (!(((DivBits >= 1 && DivBits <= 16) && ((DivBits & (DivBits - 1)) == 0)))) $error("dcqcn: DivBits must be a power of 2 in 1..16");
    if (!(QW == ($clog2(Queues)))) $error("dcqcn: QW is derived; do not override it");
    // params.py: end generated checks
    // the formats are single-sourced in dcqcn_regs.json: dcqcn_fmt_pkg must agree
    if (dcqcn_fmt_pkg::RATE_W != dcqcn_regs_pkg::DCQCN_RATE_W || dcqcn_fmt_pkg::ALPHA_FRAC != dcqcn_regs_pkg::DCQCN_ALPHA_FRAC ||
        dcqcn_fmt_pkg::TIME_W != dcqcn_regs_pkg::DCQCN_TIME_W || dcqcn_fmt_pkg::TIME_FRAC != dcqcn_regs_pkg::DCQCN_TIME_FRAC ||
        dcqcn_fmt_pkg::STAGE_W != dcqcn_regs_pkg::DCQCN_STAGE_W || dcqcn_fmt_pkg::BYTE_W != dcqcn_regs_pkg::DCQCN_BYTE_W ||
        dcqcn_fmt_pkg::QCNT_W != dcqcn_regs_pkg::DCQCN_QCNT_W || dcqcn_fmt_pkg::MBPS != dcqcn_regs_pkg::DCQCN_MBPS || dcqcn_fmt_pkg::CFG_Q16 != dcqcn_regs_pkg::DCQCN_CFG_Q16)
      $error("dcqcn: dcqcn_fmt_pkg formats differ from dcqcn_regs.json; regenerate and update dcqcn_fmt_pkg.sv");
  end

  // ---- time base
  logic [dcqcn_fmt_pkg::TIME_W-1:0] now_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni)     now_q <= dcqcn_fmt_pkg::TIME_W'(TimeStart);
    else if (tick_i) now_q <= now_q + 1'b1;
  end

  // ---- staged and live configuration
  logic [31:0] st_ctrl_q, st_pa_q, st_pd_q, st_pi_q, st_br_q, st_f_q, st_rai_q, st_rhai_q;
  logic [31:0] st_rmin_q, st_first_q, st_ainit_q, st_mdf_q, st_npi_q;
  logic        lv_nic_q, lv_grow_q, lv_ctgt_q, lv_cati_q, lv_ppkt_q;
  logic [3:0]  lv_g_q;
  logic [31:0] lv_pa_q, lv_pd_q, lv_pi_q, lv_br_q, lv_npi_q;
  logic [dcqcn_fmt_pkg::STAGE_W-1:0] lv_f_q;
  logic [dcqcn_fmt_pkg::RATE_W-1:0]  lv_rai_q, lv_rhai_q, lv_rmin_q, lv_first_q;
  logic [AW-1:0]      lv_ainit_q, lv_mdf_q;

  function automatic logic [dcqcn_fmt_pkg::RATE_W-1:0] mb(input logic [31:0] v);
    logic [63:0] x;
    x = 64'(v) * 64'd1000000;
    mb = (x > 64'(LINE)) ? LINE : x[dcqcn_fmt_pkg::RATE_W-1:0];
  endfunction
  function automatic logic [AW-1:0] q16(input logic [16:0] v);
    logic [16:0] c;
    c = (v > 17'h10000) ? 17'h10000 : v;
    q16 = AW'(c) << (dcqcn_fmt_pkg::ALPHA_FRAC - dcqcn_fmt_pkg::CFG_Q16);
  endfunction
  function automatic logic [31:0] atleast1(input logic [31:0] v);
    atleast1 = (v == '0) ? 32'd1 : v;
  endfunction

  logic [dcqcn_fmt_pkg::RATE_W-1:0] c_rmin, c_first;
  always_comb begin
    c_rmin  = mb(atleast1(st_rmin_q));
    c_first = (st_first_q == '0) ? '0 : ((mb(st_first_q) < c_rmin) ? c_rmin : mb(st_first_q));
  end

  // ---- submodules
  logic np_done, rp_done, wh_done, done, cnp_sent, late, reinsert;
  // register writes (ignored before INIT_DONE)
  logic        we;
  logic [11:0] a;
  assign we  = cfg_we_i && done;
  assign a   = {cfg_addr_i[11:2], 2'b00};
  logic snap_pend_q, snap_clr_q, snap_done_q, snap_ready;
  logic [QW-1:0] snap_qp_q;
  logic stat_valid;
  logic [63:0] stat_cnt, stat_cnt_q;
  logic [15:0] stat_hai, stat_hai_q;
  logic [dcqcn_fmt_pkg::RATE_W-1:0] stat_rc, stat_rc_q;
  logic [AW-1:0] stat_alpha;
  logic [31:0]   stat_alpha_q;

  dcqcn_np #(.Queues(Queues)) u_np (
    .clk_i(clk_i), .rst_ni(rst_ni), .now_i(now_q), .per_pkt_i(lv_ppkt_q), .interval_i(lv_npi_q),
    .ce_valid_i(ce_valid_i), .ce_ready_o(ce_ready_o), .ce_flow_i(ce_flow_i),
    .cnp_valid_o(cnpo_valid_o), .cnp_ready_i(cnpo_ready_i), .cnp_flow_o(cnpo_flow_o),
    .cnp_sent_o(cnp_sent), .init_done_o(np_done)
  );

  dcqcn_rp #(.Queues(Queues), .LineRateMbps(LineRateMbps), .BytesW(BytesW), .AlphaSteps(AlphaSteps),
             .DecSteps(DecSteps), .ScanForce(ScanForce)) u_rp (
    .clk_i(clk_i), .rst_ni(rst_ni), .now_i(now_q), .commit_i(we && a == dcqcn_regs_pkg::DCQCN_COMMIT),
    .nic_i(lv_nic_q), .hai_grow_i(lv_grow_q), .clamp_tgt_i(lv_ctgt_q), .clamp_ati_i(lv_cati_q),
    .g_shift_i(lv_g_q), .p_alpha_i(lv_pa_q), .p_dec_i(lv_pd_q), .p_inc_i(lv_pi_q),
    .byte_reset_i(lv_br_q), .f_i(lv_f_q), .rai_i(lv_rai_q), .rhai_i(lv_rhai_q), .rmin_i(lv_rmin_q),
    .first_rate_i(lv_first_q), .alpha_init_i(lv_ainit_q), .min_dec_fac_i(lv_mdf_q),
    .snap_valid_i(snap_pend_q), .snap_ready_o(snap_ready), .snap_qp_i(snap_qp_q), .snap_clr_i(snap_clr_q),
    .cnp_valid_i(cnp_valid_i), .cnp_ready_o(cnp_ready_o), .cnp_qp_i(cnp_qp_i),
    .sent_valid_i(sent_valid_i), .sent_ready_o(sent_ready_o), .sent_qp_i(sent_qp_i),
    .sent_bytes_i(sent_bytes_i),
    .rate_valid_o(rate_valid_o), .rate_qp_o(rate_qp_o), .rate_o(rate_o), .late_o(late),
    .stat_valid_o(stat_valid), .stat_cnt_o(stat_cnt), .stat_hai_o(stat_hai), .stat_rc_o(stat_rc),
    .stat_alpha_o(stat_alpha), .init_done_o(rp_done)
  );

  dcqcn_wheel #(.Queues(Queues), .Slots(Slots), .SlotLog2(SlotLog2), .TickPs(TickPs),
                .LineRateMbps(LineRateMbps), .BytesW(BytesW), .IfgBytes(IfgBytes),
                .DivBits(DivBits), .TimeStart(TimeStart)) u_wheel (
    .clk_i(clk_i), .rst_ni(rst_ni), .now_i(now_q),
    .rate_we_i(rate_valid_o), .rate_qp_i(rate_qp_o), .rate_i(rate_o),
    .enq_valid_i(enq_valid_i), .enq_ready_o(enq_ready_o), .enq_qp_i(enq_qp_i), .enq_bytes_i(enq_bytes_i),
    .grant_valid_o(grant_valid_o), .grant_ready_i(grant_ready_i), .grant_qp_o(grant_qp_o),
    .grant_bytes_o(grant_bytes_o), .reinsert_o(reinsert), .init_done_o(wh_done)
  );

  assign done        = np_done && rp_done && wh_done;
  assign init_done_o = done;

  // ---- counters
  logic [3:0]  clr;
  logic [31:0] cnt_sent, cnt_late, cnt_reins, cnt_grants;
  assign clr = (we && a == dcqcn_regs_pkg::DCQCN_CNT_CLEAR) ? cfg_wdata_i[3:0] : 4'd0;

  ll_sat_counter #(.Width(32)) u_cnt_sent (.clk_i(clk_i), .rst_ni(rst_ni), .clr_i(clr[0]), .inc_i(cnp_sent), .value_o(cnt_sent));
  ll_sat_counter #(.Width(32)) u_cnt_late (.clk_i(clk_i), .rst_ni(rst_ni), .clr_i(clr[1]), .inc_i(late), .value_o(cnt_late));
  ll_sat_counter #(.Width(32)) u_cnt_reins (.clk_i(clk_i), .rst_ni(rst_ni), .clr_i(clr[2]), .inc_i(reinsert), .value_o(cnt_reins));
  ll_sat_counter #(.Width(32)) u_cnt_grants (.clk_i(clk_i), .rst_ni(rst_ni), .clr_i(clr[3]),
                                             .inc_i(grant_valid_o && grant_ready_i), .value_o(cnt_grants));

  // ---- register writes
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      st_ctrl_q  <= 32'h809;
      st_pa_q    <= 32'd1000;
      st_pd_q    <= 32'd4000;
      st_pi_q    <= 32'd300000;
      st_br_q    <= 32'd0;
      st_f_q     <= 32'd1;
      st_rai_q   <= 32'd20;
      st_rhai_q  <= 32'd200;
      st_rmin_q  <= 32'd1000;
      st_first_q <= 32'd0;
      st_ainit_q <= 32'h10000;
      st_mdf_q   <= 32'd0;
      st_npi_q   <= 32'd0;
      lv_nic_q   <= 1'b1;
      lv_grow_q  <= 1'b0;
      lv_ctgt_q  <= 1'b0;
      lv_cati_q  <= 1'b1;
      lv_ppkt_q  <= 1'b0;
      lv_g_q     <= 4'd8;
      lv_pa_q    <= 32'd1000;
      lv_pd_q    <= 32'd4000;
      lv_pi_q    <= 32'd300000;
      lv_br_q    <= 32'd0;
      lv_f_q     <= dcqcn_fmt_pkg::STAGE_W'(1);
      lv_rai_q   <= mb(32'd20);
      lv_rhai_q  <= mb(32'd200);
      lv_rmin_q  <= mb(32'd1000);
      lv_first_q <= '0;
      lv_ainit_q <= q16(17'h10000);
      lv_mdf_q   <= '0;
      lv_npi_q   <= 32'd0;
      snap_pend_q <= 1'b0;
      snap_clr_q  <= 1'b0;
      snap_done_q <= 1'b0;
      snap_qp_q   <= '0;
      stat_cnt_q   <= '0;
      stat_hai_q   <= '0;
      stat_rc_q    <= '0;
      stat_alpha_q <= '0;
    end else begin
      if (snap_pend_q && snap_ready) snap_pend_q <= 1'b0;
      if (stat_valid) begin
        stat_cnt_q   <= stat_cnt;
        stat_hai_q   <= stat_hai;
        stat_rc_q    <= stat_rc;
        stat_alpha_q <= 32'(stat_alpha >> (dcqcn_fmt_pkg::ALPHA_FRAC - 31));
        snap_done_q  <= 1'b1;
      end
      if (we) begin
        case (a)
          dcqcn_regs_pkg::DCQCN_STAGE_CTRL:         st_ctrl_q  <= cfg_wdata_i & 32'hF1F;
          dcqcn_regs_pkg::DCQCN_STAGE_ALPHA_PERIOD: st_pa_q    <= cfg_wdata_i;
          dcqcn_regs_pkg::DCQCN_STAGE_DEC_PERIOD:   st_pd_q    <= cfg_wdata_i;
          dcqcn_regs_pkg::DCQCN_STAGE_INC_PERIOD:   st_pi_q    <= cfg_wdata_i;
          dcqcn_regs_pkg::DCQCN_STAGE_BYTE_RESET:   st_br_q    <= cfg_wdata_i;
          dcqcn_regs_pkg::DCQCN_STAGE_THRESHOLD:    st_f_q     <= cfg_wdata_i & 32'hFF;
          dcqcn_regs_pkg::DCQCN_STAGE_RAI:          st_rai_q   <= cfg_wdata_i;
          dcqcn_regs_pkg::DCQCN_STAGE_RHAI:         st_rhai_q  <= cfg_wdata_i;
          dcqcn_regs_pkg::DCQCN_STAGE_RMIN:         st_rmin_q  <= cfg_wdata_i;
          dcqcn_regs_pkg::DCQCN_STAGE_FIRST_RATE:   st_first_q <= cfg_wdata_i;
          dcqcn_regs_pkg::DCQCN_STAGE_ALPHA_INIT:   st_ainit_q <= cfg_wdata_i & 32'h1FFFF;
          dcqcn_regs_pkg::DCQCN_STAGE_MIN_DEC_FAC:  st_mdf_q   <= cfg_wdata_i & 32'h1FFFF;
          dcqcn_regs_pkg::DCQCN_STAGE_NP_INTERVAL:  st_npi_q   <= cfg_wdata_i;
          dcqcn_regs_pkg::DCQCN_COMMIT: begin
            lv_nic_q   <= st_ctrl_q[dcqcn_regs_pkg::DCQCN_STAGE_CTRL_NIC_LSB];
            lv_grow_q  <= st_ctrl_q[dcqcn_regs_pkg::DCQCN_STAGE_CTRL_HAI_GROW_LSB];
            lv_ctgt_q  <= st_ctrl_q[dcqcn_regs_pkg::DCQCN_STAGE_CTRL_CLAMP_TGT_LSB];
            lv_cati_q  <= st_ctrl_q[dcqcn_regs_pkg::DCQCN_STAGE_CTRL_CLAMP_ATI_LSB];
            lv_ppkt_q  <= st_ctrl_q[dcqcn_regs_pkg::DCQCN_STAGE_CTRL_NP_PER_PKT_LSB];
            lv_g_q     <= (st_ctrl_q[11:8] == 4'd0) ? 4'd1 : st_ctrl_q[11:8];
            lv_pa_q    <= atleast1(st_pa_q);
            lv_pd_q    <= atleast1(st_pd_q);
            lv_pi_q    <= atleast1(st_pi_q);
            lv_br_q    <= st_br_q;
            lv_f_q     <= st_f_q[dcqcn_fmt_pkg::STAGE_W-1:0];
            lv_rai_q   <= mb(st_rai_q);
            lv_rhai_q  <= mb(st_rhai_q);
            lv_rmin_q  <= c_rmin;
            lv_first_q <= c_first;
            lv_ainit_q <= q16(st_ainit_q[16:0]);
            lv_mdf_q   <= q16(st_mdf_q[16:0]);
            lv_npi_q   <= st_npi_q;
          end
          dcqcn_regs_pkg::DCQCN_STAT_CTRL: begin
            if (32'(cfg_wdata_i[15:0]) < Queues) begin
              snap_pend_q <= 1'b1;
              snap_qp_q   <= QW'(cfg_wdata_i[15:0]);
              snap_clr_q  <= cfg_wdata_i[31];
              snap_done_q <= 1'b0;
            end
          end
          default: ;
        endcase
      end
    end
  end

  // ---- register reads (one cycle later)
  logic [31:0] rd;
  always_comb begin
    rd = '0;
    case ({cfg_addr_i[11:2], 2'b00})
      dcqcn_regs_pkg::DCQCN_ID:                 rd = dcqcn_regs_pkg::DCQCN_ID_VALUE;
      dcqcn_regs_pkg::DCQCN_PARAMS:             rd = {6'd0, 5'(SlotLog2), 5'($clog2(Slots)), 16'(Queues)};
      dcqcn_regs_pkg::DCQCN_STATUS:             rd = {30'd0, snap_done_q, done};
      dcqcn_regs_pkg::DCQCN_STAGE_CTRL:         rd = st_ctrl_q;
      dcqcn_regs_pkg::DCQCN_STAGE_ALPHA_PERIOD: rd = st_pa_q;
      dcqcn_regs_pkg::DCQCN_STAGE_DEC_PERIOD:   rd = st_pd_q;
      dcqcn_regs_pkg::DCQCN_STAGE_INC_PERIOD:   rd = st_pi_q;
      dcqcn_regs_pkg::DCQCN_STAGE_BYTE_RESET:   rd = st_br_q;
      dcqcn_regs_pkg::DCQCN_STAGE_THRESHOLD:    rd = st_f_q;
      dcqcn_regs_pkg::DCQCN_STAGE_RAI:          rd = st_rai_q;
      dcqcn_regs_pkg::DCQCN_STAGE_RHAI:         rd = st_rhai_q;
      dcqcn_regs_pkg::DCQCN_STAGE_RMIN:         rd = st_rmin_q;
      dcqcn_regs_pkg::DCQCN_STAGE_FIRST_RATE:   rd = st_first_q;
      dcqcn_regs_pkg::DCQCN_STAGE_ALPHA_INIT:   rd = st_ainit_q;
      dcqcn_regs_pkg::DCQCN_STAGE_MIN_DEC_FAC:  rd = st_mdf_q;
      dcqcn_regs_pkg::DCQCN_STAGE_NP_INTERVAL:  rd = st_npi_q;
      dcqcn_regs_pkg::DCQCN_CNT_CNP_SENT:       rd = cnt_sent;
      dcqcn_regs_pkg::DCQCN_CNT_LATE:           rd = cnt_late;
      dcqcn_regs_pkg::DCQCN_CNT_REINSERT:       rd = cnt_reins;
      dcqcn_regs_pkg::DCQCN_CNT_GRANTS:         rd = cnt_grants;
      dcqcn_regs_pkg::DCQCN_STAT_CNP_RX:        rd = {16'd0, stat_cnt_q[15:0]};
      dcqcn_regs_pkg::DCQCN_STAT_DEC:           rd = {16'd0, stat_cnt_q[31:16]};
      dcqcn_regs_pkg::DCQCN_STAT_FR:            rd = {16'd0, stat_cnt_q[47:32]};
      dcqcn_regs_pkg::DCQCN_STAT_AI:            rd = {16'd0, stat_cnt_q[63:48]};
      dcqcn_regs_pkg::DCQCN_STAT_HAI:           rd = {16'd0, stat_hai_q};
      dcqcn_regs_pkg::DCQCN_STAT_RC_LO:         rd = stat_rc_q[31:0];
      dcqcn_regs_pkg::DCQCN_STAT_RC_HI:         rd = {24'd0, stat_rc_q[dcqcn_fmt_pkg::RATE_W-1:32]};
      dcqcn_regs_pkg::DCQCN_STAT_ALPHA:         rd = stat_alpha_q;
      default:                  rd = '0;
    endcase
  end

  ll_cfg_read u_cfg_read (
    .clk_i (clk_i), .rst_ni (rst_ni), .re_i (cfg_re_i), .data_i (rd),
    .rdata_o (cfg_rdata_o), .rvalid_o (cfg_rvalid_o)
  );
endmodule

`default_nettype wire
