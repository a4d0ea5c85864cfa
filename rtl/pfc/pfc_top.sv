// pfc_top: PFC (IEEE 802.1Qbb) admission, PAUSE generation, received-PAUSE state and the
// PFC watchdog of a shared-buffer switch (design note: docs/pfc.md; DCQCN paper section 4,
// Azure RDMA paper sections 6.2 and 7.1).
//
// Events (valid/ready, at most one of each kind offered per cycle, one accepted per cycle):
//   adm_*  packet admission (ingress port, egress port, priority, length, lossless)
//          -> in-order decision dec_* exactly 2 + RegWords cycles after acceptance
//   dep_*  packet departure (the same fields, carried with the packet)
//   pfc_*  one received PFC entry (port, priority, quanta; quanta 0 = RESUME), e.g. from
//          pfc_frame_dec
//   tick_i time base, one pulse per TickNs ns; all timers count ticks
// Outputs: pause_* PAUSE / RESUME requests (quanta 0 = RESUME) per port and priority,
//   valid for one cycle, no back-pressure (pfc_frame_enc always accepts);
//   eg_paused_o / eg_storm_o: the 8 egress queues of port eg_qport_i (combinational).
//
// Pipeline: S0 arbitrates (STAT_CMD > timer sweep > pfc > dep > adm; the sweep wins at
// least every other cycle while it runs) and reads the ingress-queue RAM (iq, per
// ingress port x priority) and the egress-queue RAM (eq, per egress port x priority).
// S1 registers both words: the RAM's, or the write of the op in S2 now to the same
// address (near), or the write of the cycle before, which the read-first RAM missed (far).
// S2 decides from those registers, writes both RAMs back and registers the outputs.
// Latency: accept -> dec_valid_o = 3. With RegWords = 0 there is no S2: S0 forms the op's
// threshold brackets, S1 decides on the RAM's word or the far write and writes back
// (latency 2; the s2_* names below are then S1's registers), and S0 issues no op in the
// cycle a COMMIT takes effect.
// COMMIT takes effect at the end of the cycle after its write (the write is registered).
// The shared headroom pool size and the sweep's E x bits per tick are computed from the live
// configuration at the start of each cycle and used by the op deciding in the next (one
// cycle behind); the dynamic thresholds are computed from the pools and the live
// configuration at the start of each cycle and used by the op deciding two cycles later.
// The pool limits are checked exactly.
// Timer sweep: every tick starts one pass over all Ports*8 queues (PAUSE refresh, XON
// re-check, received-quanta countdown, paused time, watchdog). A pass accounts for all
// ticks since the previous pass, so timers are exact in ticks even if passes lag.
// Threshold convention, accounting and pool mode: docs/pfc.md.
// Register map: docs/pfc_regmap.md (source rtl/pfc/pfc_regs.json).
`default_nettype none

// The assertion macros: flows list rtl/common/ll_assert.svh first; a file linted on its own
// finds it through -I rtl/common.
`ifndef LL_ASSERT_SVH
`include "ll_assert.svh"
`endif

module pfc_top #(
  parameter int Ports  = 8,     // switch ports, 2..64
  parameter int CntW   = 24,    // byte-counter width (sizes up to 2^CntW - 1 bytes), 16..30
  parameter int StatW  = 32,    // statistics counter width, 1..32 (saturating)
  parameter int TimerW = 20,    // tick-timer width (refresh, watchdog), 4..24
  parameter int TickNs = 1000,  // ns per tick_i period, 1..65535
  // 1: S1 registers the RAM words and S2 decides (3 cycles of latency; the RAM's access
  // time is off the decision's path). 0: the decision in S1, straight from the RAM's read
  // data (2 cycles; fewer flip-flops: the iCE40 HX8K build)
  parameter int RegWords = 1,
  // derived, do not override
  parameter int PortW  = (Ports > 1) ? $clog2(Ports) : 1
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  // admission events
  input  wire logic             adm_valid_i,
  output logic                  adm_ready_o,
  input  wire logic [PortW-1:0] adm_iport_i,
  input  wire logic [PortW-1:0] adm_eport_i,
  input  wire logic [2:0]       adm_prio_i,
  input  wire logic [13:0]      adm_len_i,       // bytes, >= 1
  input  wire logic             adm_lossless_i,
  output logic                  dec_valid_o,
  output logic      [1:0]       dec_o,           // 0 admit, 1 headroom, 2 drop
  output logic      [2:0]       dec_why_o,       // drop reason (PFC_WHY_*)
  // departure events
  input  wire logic             dep_valid_i,
  output logic                  dep_ready_o,
  input  wire logic [PortW-1:0] dep_iport_i,
  input  wire logic [PortW-1:0] dep_eport_i,
  input  wire logic [2:0]       dep_prio_i,
  input  wire logic [13:0]      dep_len_i,
  input  wire logic             dep_lossless_i,
  // received PFC entries
  input  wire logic             pfc_valid_i,
  output logic                  pfc_ready_o,
  input  wire logic [PortW-1:0] pfc_port_i,
  input  wire logic [2:0]       pfc_prio_i,
  input  wire logic [15:0]      pfc_quanta_i,
  // time base
  input  wire logic             tick_i,
  // PAUSE / RESUME requests
  output logic                  pause_valid_o,
  output logic      [PortW-1:0] pause_port_o,
  output logic      [2:0]       pause_prio_o,
  output logic      [15:0]      pause_quanta_o,
  // egress paused state query
  input  wire logic [PortW-1:0] eg_qport_i,
  output logic      [7:0]       eg_paused_o,
  output logic      [7:0]       eg_storm_o,
  // register interface (docs/CONVENTIONS.md)
  input  wire logic             cfg_we_i,
  input  wire logic             cfg_re_i,
  input  wire logic [11:0]      cfg_addr_i,
  input  wire logic [31:0]      cfg_wdata_i,
  output logic      [31:0]      cfg_rdata_o,
  output logic                  cfg_rvalid_o,
  output logic                  init_done_o
);
  initial begin
    // params.py: begin generated checks (rtl/pfc/pfc_params.json)
    if (!((Ports >= 2 && Ports <= 64))) $error("pfc_top: Ports must be in 2..64");
    if (!((CntW >= 16 && CntW <= 30))) $error("pfc_top: CntW must be in 16..30");
    if (!((StatW >= 1 && StatW <= 32))) $error("pfc_top: StatW must be in 1..32");
    if (!((TimerW >= 4 && TimerW <= 24))) $error("pfc_top: TimerW must be in 4..24");
    if (!((TickNs >= 1 && TickNs <= 65535))) $error("pfc_top: TickNs must be in 1..65535");
    if (!((RegWords >= 0 && RegWords <= 1))) $error("pfc_top: RegWords must be in 0..1");
    if (!(PortW == ($clog2(Ports)))) $error("pfc_top: PortW is derived; do not override it");
    // params.py: end generated checks
  end

  localparam int QW      = PortW + 3;        // queue index width
  localparam int Entries = Ports * 8;
  localparam int RemW    = 25;               // remaining pause in bit times (quanta * 512)
  localparam int NCnt    = 12;               // global counters
  // ingress-queue entry
  localparam int I_CNT = 0, I_HDR = CntW, I_XOFF = 2 * CntW, I_RT = 2 * CntW + 1;
  localparam int I_PSENT = I_RT + TimerW, I_HDROP = I_PSENT + StatW, I_HPEAK = I_HDROP + StatW;
  localparam int IW = I_HPEAK + CntW;
  // egress-queue entry
  localparam int E_CNT = 0, E_PACT = CntW, E_REM = CntW + 1, E_STORM = CntW + 1 + RemW;
  localparam int E_WDT = E_STORM + 1, E_PRCV = E_WDT + TimerW, E_PTIME = E_PRCV + StatW;
  localparam int E_WSTORM = E_PTIME + StatW, E_WDROP = E_WSTORM + StatW, E_WREST = E_WDROP + StatW;
  localparam int EW = E_WREST + StatW;
  // ops
  // Decision and drop reason on dec_o / dec_why_o: the register map's DEC_* and WHY_*
  localparam logic [1:0] DecAdmit = 2'(pfc_regs_pkg::PFC_DEC_ADMIT);
  localparam logic [1:0] DecHdrm  = 2'(pfc_regs_pkg::PFC_DEC_HEADROOM);
  localparam logic [1:0] DecDrop  = 2'(pfc_regs_pkg::PFC_DEC_DROP);
  localparam logic [2:0] WhyNone  = 3'(pfc_regs_pkg::PFC_WHY_NONE);
  localparam logic [2:0] WhyHdrm  = 3'(pfc_regs_pkg::PFC_WHY_HDRM);
  localparam logic [2:0] WhyEgll  = 3'(pfc_regs_pkg::PFC_WHY_EGLL);
  localparam logic [2:0] WhyIng   = 3'(pfc_regs_pkg::PFC_WHY_ING);
  localparam logic [2:0] WhyEgly  = 3'(pfc_regs_pkg::PFC_WHY_EGLY);
  localparam logic [2:0] WhyWd    = 3'(pfc_regs_pkg::PFC_WHY_WD);
  localparam logic [2:0] OpNone = 3'd0, OpAdm = 3'd1, OpDep = 3'd2, OpPfc = 3'd3,
                         OpSweep = 3'd4, OpStat = 3'd5;
  // global counter indices
  localparam int CAdmit = 0, CHdrm = 1, CViol = 2, CLossy = 3, CWdDrop = 4, CPauseTx = 5,
                 CResumeTx = 6, CPauseRx = 7, CResumeRx = 8, CStorm = 9, CRestore = 10,
                 COverrun = 11;
  localparam logic [CntW-1:0]   CMAX = {CntW{1'b1}};
  localparam logic [StatW-1:0]  SMAX = {StatW{1'b1}};
  localparam logic [TimerW-1:0] TMAX = {TimerW{1'b1}};
  // reset values
  localparam int DefRefreshI = 167772 / TickNs;      // ~half of 0xffff quanta at 100G
  localparam int DefWdI      = 200000000 / TickNs;   // 200 ms
  localparam int TMaxI       = (1 << TimerW) - 1;
  localparam logic [TimerW-1:0] DefRefresh = (DefRefreshI < 1) ? TimerW'(1) :
      (DefRefreshI > TMaxI) ? TMAX : TimerW'(DefRefreshI);
  localparam logic [TimerW-1:0] DefWd = (DefWdI > TMaxI) ? TMAX : TimerW'(DefWdI);
  localparam logic [25:0] TickNs26 = 26'(TickNs);
  localparam logic [7:0]      RstLlmask = 8'h18;              // LOSSLESS: priorities 3 and 4
  localparam logic [CntW-1:0] RstHdrm   = CntW'(22400);       // HDRM[p]
  localparam logic [CntW+2:0] HSumRst   = (CntW + 3)'(RstHdrm) + (CntW + 3)'(RstHdrm);  // its lossless sum

  // ------------------------------------------------------------------ helpers
  // alpha = 2^k, k two's complement in -8..7; left shifts saturate at all ones.
  function automatic logic [CntW-1:0] ashift(input logic [CntW-1:0] v, input logic [3:0] k);
    logic [CntW+7:0] w;
    logic [3:0]      m;
    m = k[3] ? (4'd0 - k) : k;
    w = {8'd0, v} << m;
    if (k[3])                 ashift = v >> m;
    else if (|w[CntW+7:CntW]) ashift = CMAX;
    else                      ashift = w[CntW-1:0];
  endfunction
  function automatic logic [CntW-1:0] cadd(input logic [CntW-1:0] a, input logic [CntW-1:0] b);
    logic [CntW:0] s;
    s = {1'b0, a} + {1'b0, b};
    cadd = s[CntW] ? CMAX : s[CntW-1:0];
  endfunction
  function automatic logic [CntW-1:0] csub(input logic [CntW-1:0] a, input logic [CntW-1:0] b);
    csub = (a > b) ? a - b : '0;
  endfunction
  function automatic logic [StatW-1:0] sinc(input logic [StatW-1:0] v);
    sinc = (v == SMAX) ? v : v + 1'b1;
  endfunction
  function automatic logic [StatW-1:0] sadd(input logic [StatW-1:0] v, input logic [3:0] e);
    logic [32:0] s;
    s = 33'(v) + 33'(e);
    sadd = (s > 33'(SMAX)) ? SMAX : StatW'(s);
  endfunction
  function automatic logic [TimerW-1:0] tadd(input logic [TimerW-1:0] v, input logic [3:0] e);
    logic [TimerW:0] s;
    s = {1'b0, v} + (TimerW + 1)'(e);
    tadd = s[TimerW] ? TMAX : s[TimerW-1:0];
  endfunction
  localparam int XW = CntW + 4;               // the signed width of the threshold sums
  // Sums of three terms in carry-save form, written out: one row of full adders, then one
  // carry chain. A test "a + b <= c" is the sign of a + b + ~c (a + b - c - 1). Written as
  // expressions, sums with two operands in common (the queue's cnt + hdr against several
  // limits) share their first add in synthesis and put two carry chains in series. The
  // operands come in SW bits, extended by their own signedness (the w_* wires below).
  localparam int SW = XW;
  function automatic logic [SW-1:0] sum3(input logic [SW-1:0] a, input logic [SW-1:0] b,
                                         input logic [SW-1:0] c, input logic cin);
    logic [SW-1:0] s, cy;
    s  = a ^ b ^ c;
    cy = {((a[SW-2:0] & b[SW-2:0]) | (a[SW-2:0] & c[SW-2:0]) | (b[SW-2:0] & c[SW-2:0])), cin};
    sum3 = s + cy;
  endfunction
  // a + b - c - 1 + cin; neg3 and neg3n: the sign of sum3 and of sum3n
  function automatic logic [SW-1:0] sum3n(input logic [SW-1:0] a, input logic [SW-1:0] b,
                                          input logic [SW-1:0] c, input logic cin);
    sum3n = sum3(a, b, ~c, cin);
  endfunction
  function automatic logic neg3(input logic [SW-1:0] a, input logic [SW-1:0] b,
                                input logic [SW-1:0] c, input logic cin);
    logic [SW-1:0] t;
    t = sum3(a, b, c, cin);
    neg3 = t[SW-1];
  endfunction
  function automatic logic neg3n(input logic [SW-1:0] a, input logic [SW-1:0] b,
                                 input logic [SW-1:0] c, input logic cin);
    neg3n = neg3(a, b, ~c, cin);
  endfunction

  // ------------------------------------------------------------------ init sweep
  logic          init_we, init_done;
  logic [QW-1:0] init_addr;
  ll_init_sweep #(.Depth(Entries)) u_init (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .we_o   (init_we),
    .addr_o (init_addr),
    .done_o (init_done)
  );
  assign init_done_o = init_done;

  // ------------------------------------------------------------------ configuration
  // stg_*_q staged shadow, live_*_q live. A COMMIT write is registered (commit_q) and
  // copies stg_*_q -> live_*_q at the next edge: the live configuration changes at the end
  // of the cycle after the write. The write's decode (inputs, a compare, init_done) thus
  // reaches no logic but commit_q; everything that must see the COMMIT early (the brackets,
  // the S0 selections, hold) reads the flip-flop. The cycle after a COMMIT write carries no
  // other write, so the staged registers are the COMMIT's through that cycle.
  logic              stg_dyn_q, stg_pool_q, live_dyn_q, live_pool_q;
  logic [7:0]        stg_llmask_q, live_llmask_q;
  logic [CntW-1:0]   stg_xoff_q, live_xoff_q, stg_xon_q, live_xon_q, stg_shsz_q, live_shsz_q, stg_egll_q, live_egll_q, stg_egly_q, live_egly_q;
  logic [3:0]        stg_aing_q, live_aing_q, stg_aeg_q, live_aeg_q;
  logic [2:0]        stg_os_q, live_os_q;
  logic [15:0]       stg_quanta_q, live_quanta_q;
  logic [TimerW-1:0] stg_refresh_q, live_refresh_q, stg_wddet_q, live_wddet_q, stg_wdres_q, live_wdres_q;
  logic [9:0]        stg_gbps_q;   // live: bpt_q, the live speed's bits per tick
  logic [8*CntW-1:0] stg_rsv_q, live_rsv_q, stg_hdrm_q, live_hdrm_q;
  logic [QW-1:0]     stat_sel_q;

  logic        we_ok;
  logic [9:0]  waddr;   // word address
  assign we_ok = cfg_we_i && init_done;
  assign waddr = cfg_addr_i[11:2];

  logic              commit, commit_q, stat_cmd_we;
  logic [NCnt-1:0]   cnt_clr;
  logic              peak_clr;
  assign commit      = we_ok && cfg_addr_i == pfc_regs_pkg::PFC_COMMIT && cfg_wdata_i[0];
  assign stat_cmd_we = we_ok && cfg_addr_i == pfc_regs_pkg::PFC_STAT_CMD;
  assign cnt_clr     = (we_ok && cfg_addr_i == pfc_regs_pkg::PFC_CLEAR) ? cfg_wdata_i[NCnt-1:0] : '0;
  assign peak_clr    = we_ok && cfg_addr_i == pfc_regs_pkg::PFC_CLEAR && cfg_wdata_i[12];

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      stg_dyn_q <= 1'b1; stg_pool_q <= 1'b0; stg_llmask_q <= RstLlmask;
      stg_xoff_q <= CntW'(24475); stg_xon_q <= CntW'(3000);
      stg_shsz_q <= CMAX; stg_egll_q <= CMAX; stg_egly_q <= CMAX;
      stg_aing_q <= 4'd0; stg_aeg_q <= 4'd0; stg_os_q <= 3'd0; stg_quanta_q <= 16'hffff;
      stg_refresh_q <= DefRefresh; stg_wddet_q <= DefWd; stg_wdres_q <= DefWd; stg_gbps_q <= 10'd100;
      stg_rsv_q <= '0; stg_hdrm_q <= {8{RstHdrm}};
      live_dyn_q <= 1'b1; live_pool_q <= 1'b0; live_llmask_q <= RstLlmask;
      live_xoff_q <= CntW'(24475); live_xon_q <= CntW'(3000);
      live_shsz_q <= CMAX; live_egll_q <= CMAX; live_egly_q <= CMAX;
      live_aing_q <= 4'd0; live_aeg_q <= 4'd0; live_os_q <= 3'd0; live_quanta_q <= 16'hffff;
      live_refresh_q <= DefRefresh; live_wddet_q <= DefWd; live_wdres_q <= DefWd;
      live_rsv_q <= '0; live_hdrm_q <= {8{RstHdrm}};
      stat_sel_q <= '0; commit_q <= 1'b0;
    end else begin
      commit_q <= commit;
      if (we_ok) begin
        case (cfg_addr_i)
          pfc_regs_pkg::PFC_MODE:        begin stg_dyn_q <= cfg_wdata_i[0]; stg_pool_q <= cfg_wdata_i[1]; end
          pfc_regs_pkg::PFC_LOSSLESS:    stg_llmask_q <= cfg_wdata_i[7:0];
          pfc_regs_pkg::PFC_XOFF_STATIC: stg_xoff_q <= cfg_wdata_i[CntW-1:0];
          pfc_regs_pkg::PFC_ALPHA:       begin stg_aing_q <= cfg_wdata_i[3:0]; stg_aeg_q <= cfg_wdata_i[11:8]; end
          pfc_regs_pkg::PFC_XON_OFFSET:  stg_xon_q <= cfg_wdata_i[CntW-1:0];
          pfc_regs_pkg::PFC_SHARED_SIZE: stg_shsz_q <= cfg_wdata_i[CntW-1:0];
          pfc_regs_pkg::PFC_EGLL_SIZE:   stg_egll_q <= cfg_wdata_i[CntW-1:0];
          pfc_regs_pkg::PFC_EGLY_SIZE:   stg_egly_q <= cfg_wdata_i[CntW-1:0];
          pfc_regs_pkg::PFC_SHP:         stg_os_q <= cfg_wdata_i[2:0];
          pfc_regs_pkg::PFC_QUANTA:      stg_quanta_q <= cfg_wdata_i[15:0];
          pfc_regs_pkg::PFC_REFRESH:     stg_refresh_q <= cfg_wdata_i[TimerW-1:0];
          pfc_regs_pkg::PFC_LINK_GBPS:   stg_gbps_q <= cfg_wdata_i[9:0];
          pfc_regs_pkg::PFC_WD_DETECT:   stg_wddet_q <= cfg_wdata_i[TimerW-1:0];
          pfc_regs_pkg::PFC_WD_RESTORE:  stg_wdres_q <= cfg_wdata_i[TimerW-1:0];
          pfc_regs_pkg::PFC_STAT_SEL:    if (cfg_wdata_i < 32'(Entries)) stat_sel_q <= cfg_wdata_i[QW-1:0];
          default: begin
            if (waddr >= 10'h020 && waddr < 10'h028) stg_rsv_q[waddr[2:0]*CntW +: CntW] <= cfg_wdata_i[CntW-1:0];
            if (waddr >= 10'h028 && waddr < 10'h030) stg_hdrm_q[waddr[2:0]*CntW +: CntW] <= cfg_wdata_i[CntW-1:0];
          end
        endcase
      end
      if (commit_q) begin
        live_dyn_q <= stg_dyn_q; live_pool_q <= stg_pool_q; live_llmask_q <= stg_llmask_q; live_xoff_q <= stg_xoff_q; live_xon_q <= stg_xon_q;
        live_shsz_q <= stg_shsz_q; live_egll_q <= stg_egll_q; live_egly_q <= stg_egly_q; live_aing_q <= stg_aing_q; live_aeg_q <= stg_aeg_q;
        live_os_q <= stg_os_q; live_quanta_q <= stg_quanta_q; live_refresh_q <= stg_refresh_q;
        live_wddet_q <= stg_wddet_q; live_wdres_q <= stg_wdres_q; live_rsv_q <= stg_rsv_q; live_hdrm_q <= stg_hdrm_q;
      end
    end
  end

  // derived live values, registered (they follow COMMIT one cycle later; no op can reach
  // S1 in the cycle after reset, the RAM sweep runs first). The shared headroom pool size
  // in two steps: hsum_q holds the live configuration's sum of the lossless priorities'
  // headroom (on COMMIT it takes the staged configuration's sum, whose two halves are
  // registered from the staged registers every cycle: in commit_q's cycle they hold the
  // COMMIT's values), and shp_q its scaled, clamped value. bpt_q, the bits per tick of the
  // live link speed, changes with the live registers (it takes the staged speed's product
  // on COMMIT), so it always equals the live link speed x TickNs.
  logic [CntW-1:0] shp_size, shp_q;
  logic [CntW+2:0] hsum_q, hs_lo_q, hs_hi_q;
  logic [25:0]     bpt, bpt_q;       // bits per tick
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      shp_q <= '0; hsum_q <= HSumRst; hs_lo_q <= '0; hs_hi_q <= '0; bpt_q <= 26'(100) * TickNs26;
    end else begin
      // a chain of conditional adds, not a tree of masked operands: Yosys would merge that
      // tree into one multi-operand add, whose carry-save form the equivalence proof
      // (make equiv) cannot match against the RTL's adders in reasonable time
      logic [CntW+2:0] lo, hi;
      lo = '0;
      hi = '0;
      for (int p = 0; p < 4; p++)
        if (stg_llmask_q[p]) lo = lo + (CntW + 3)'(stg_hdrm_q[p*CntW +: CntW]);
      for (int p = 4; p < 8; p++)
        if (stg_llmask_q[p]) hi = hi + (CntW + 3)'(stg_hdrm_q[p*CntW +: CntW]);
      hs_lo_q <= lo;
      hs_hi_q <= hi;
      shp_q <= shp_size;
      if (commit_q) begin
        hsum_q <= hs_lo_q + hs_hi_q;
        bpt_q  <= 26'(stg_gbps_q) * TickNs26;
      end
    end
  end
  always_comb begin
    logic [CntW+9:0]  prod;
    prod = (CntW + 10)'(hsum_q) * (CntW + 10)'(Ports);
    prod = prod >> live_os_q;
    shp_size = (|prod[CntW+9:CntW]) ? CMAX : prod[CntW-1:0];
  end
  assign bpt = bpt_q;

  // ------------------------------------------------------------------ state
  logic [CntW-1:0]  sh_used_q, hdr_used_q, egll_used_q, egly_used_q, hdr_peak_q;
  logic [Entries-1:0] paused_q, storm_q;
  logic             stat_pend_q, stat_snap_q;
  logic [7:0]       stat_clr_q;
  // timer sweep
  logic             sw_act_q, sw_turn_q;
  logic [QW-1:0]    sw_idx_q;
  logic [3:0]       sw_pend_q, sw_e_q;
  // S1
  logic             s1_valid_q;
  logic [2:0]       s1_op_q;
  logic [QW-1:0]    s1_qi_q, s1_qe_q;
  logic [13:0]      s1_len_q;
  logic             s1_ll_q, s1_snap_q;
  logic [15:0]      s1_quanta_q;
  logic [7:0]       s1_clr_q;
  logic [3:0]       s1_e_q;       // a sweep op's ticks (the pass's E)
  // S2 (the deciding stage; with RegWords = 0 these are S1's registers)
  logic             s2_valid_q;
  logic [2:0]       s2_op_q;
  logic [QW-1:0]    s2_qi_q, s2_qe_q;
  logic [13:0]      s2_len_q;
  logic             s2_ll_q, s2_snap_q;
  logic [15:0]      s2_quanta_q;
  logic [7:0]       s2_clr_q;
  logic [3:0]       s2_e_q;
  logic [29:0]      s2_bits_q;    // bits the sweep op's E ticks carry (E * bits per tick)
  // far forwarding: the write of the cycle in which S1's op read the RAM (read-first)
  logic             iqf_hit_q, eqf_hit_q;
  logic [IW-1:0]    iqf_d_q;
  logic [EW-1:0]    eqf_d_q;

  // ------------------------------------------------------------------ S0: arbitration
  logic ext_any, stat_go, sweep_go, ext_ok, stat_go_p, sweep_go_p, ext_ok_p;
  assign ext_any  = pfc_valid_i || dep_valid_i || adm_valid_i;
  // With RegWords = 0, S0 forms the brackets for its op from the live configuration, so S0
  // issues no op in the cycle a COMMIT takes effect at its end (hold: the cycle after the
  // COMMIT write): the op deciding next would otherwise see brackets of the configuration
  // before it
  logic hold;
  assign hold     = (RegWords == 0) && commit_q;
  // The arbitration without hold (_p), then hold applied to the grants and the op: the
  // op's fields (queue indices, length) come from the arbitration without hold, since under
  // hold no op issues and they go unused; so hold is off the path into S0's brackets.
  // The same once more without init_done (_r): the op's fields are selected by these, so
  // the reset state is off the path into S0's brackets too (before the initial sweep ends
  // no op issues and the fields go unused).
  logic stat_r, sweep_r, ext_r;
  assign stat_r     = stat_pend_q;
  assign sweep_r    = !stat_r && sw_act_q && (sw_turn_q || !ext_any);
  assign ext_r      = !stat_r && !sweep_r;
  assign stat_go_p  = init_done && stat_r;
  assign sweep_go_p = init_done && sweep_r;
  assign ext_ok_p   = init_done && ext_r;
  assign stat_go  = stat_go_p && !hold;
  assign sweep_go = sweep_go_p && !hold;
  assign ext_ok   = ext_ok_p && !hold;
  assign pfc_ready_o = ext_ok;
  assign dep_ready_o = ext_ok && !pfc_valid_i;
  assign adm_ready_o = ext_ok && !pfc_valid_i && !dep_valid_i;

  logic [2:0]    s0_op, s0_op_p;
  logic [QW-1:0] s0_qi, s0_qe;
  logic [13:0]   s0_len;
  logic          s0_ll;
  always_comb begin
    s0_op_p = OpNone; s0_qi = '0; s0_qe = '0; s0_len = '0; s0_ll = 1'b0;
    if (stat_r) begin
      s0_op_p = OpStat; s0_qi = stat_sel_q; s0_qe = stat_sel_q;
    end else if (sweep_r) begin
      s0_op_p = OpSweep; s0_qi = sw_idx_q; s0_qe = sw_idx_q;
    end else if (pfc_valid_i) begin
      s0_op_p = OpPfc; s0_qi = {pfc_port_i, pfc_prio_i}; s0_qe = {pfc_port_i, pfc_prio_i};
    end else if (dep_valid_i) begin
      s0_op_p = OpDep; s0_qi = {dep_iport_i, dep_prio_i}; s0_qe = {dep_eport_i, dep_prio_i};
      s0_len = dep_len_i; s0_ll = dep_lossless_i;
    end else if (adm_valid_i) begin
      s0_op_p = OpAdm; s0_qi = {adm_iport_i, adm_prio_i}; s0_qe = {adm_eport_i, adm_prio_i};
      s0_len = adm_len_i; s0_ll = adm_lossless_i;
    end
    if (!init_done) s0_op_p = OpNone;
    s0_op = hold ? OpNone : s0_op_p;
  end

  // ------------------------------------------------------------------ RAMs
  logic          iq_we, eq_we, iq_we1, eq_we1;
  logic [QW-1:0] iq_wa, eq_wa;
  logic [IW-1:0] iq_wd, iq_wd1, iq_rd;
  logic [EW-1:0] eq_wd, eq_wd1, eq_rd;
  assign iq_we = init_we || iq_we1;
  assign eq_we = init_we || eq_we1;
  assign iq_wa = init_we ? init_addr : s2_qi_q;
  assign eq_wa = init_we ? init_addr : s2_qe_q;
  assign iq_wd = init_we ? '0 : iq_wd1;
  assign eq_wd = init_we ? '0 : eq_wd1;

  ll_ram_1r1w #(.Width(IW), .Depth(Entries)) u_iq (
    .clk_i (clk_i), .we_i (iq_we), .waddr_i (iq_wa), .wdata_i (iq_wd),
    .re_i (1'b1), .raddr_i (s0_qi), .rdata_o (iq_rd)
  );
  ll_ram_1r1w #(.Width(EW), .Depth(Entries)) u_eq (
    .clk_i (clk_i), .we_i (eq_we), .waddr_i (eq_wa), .wdata_i (eq_wd),
    .re_i (1'b1), .raddr_i (s0_qe), .rdata_o (eq_rd)
  );

  // ------------------------------------------------------------------ S1: the words
  // S1's op read its entries in S0. Newest first: the op in S2 writes the same entry now
  // (near: its write data), or the op before it wrote it in S0's cycle, which the
  // read-first RAM does not show (far: that write, registered; the address compare was
  // made in S0), or the RAM's word.
  logic [IW-1:0] iq_cur;   // the words the deciding stage works on
  logic [EW-1:0] eq_cur;
  if (RegWords != 0) begin : g_s2
    logic          iqn_hit, eqn_hit;
    logic [IW-1:0] iq_s1, iq_s2_q;
    logic [EW-1:0] eq_s1, eq_s2_q;
    assign iqn_hit = iq_we1 && s2_qi_q == s1_qi_q;
    assign eqn_hit = eq_we1 && s2_qe_q == s1_qe_q;
    assign iq_s1   = iqn_hit ? iq_wd1 : (iqf_hit_q ? iqf_d_q : iq_rd);
    assign eq_s1   = eqn_hit ? eq_wd1 : (eqf_hit_q ? eqf_d_q : eq_rd);
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        s2_valid_q <= 1'b0; s2_op_q <= OpNone; s2_qi_q <= '0; s2_qe_q <= '0; s2_len_q <= '0;
        s2_ll_q <= 1'b0; s2_quanta_q <= '0; s2_snap_q <= 1'b0; s2_clr_q <= '0; s2_e_q <= '0;
        iq_s2_q <= '0; eq_s2_q <= '0;
      end else begin
        s2_valid_q  <= s1_valid_q;
        s2_op_q     <= s1_op_q;
        s2_qi_q     <= s1_qi_q;
        s2_qe_q     <= s1_qe_q;
        s2_len_q    <= s1_len_q;
        s2_ll_q     <= s1_ll_q;
        s2_quanta_q <= s1_quanta_q;
        s2_snap_q   <= s1_snap_q;
        s2_clr_q    <= s1_clr_q;
        s2_e_q      <= s1_e_q;
        iq_s2_q     <= iq_s1;
        eq_s2_q     <= eq_s1;
      end
    end
    assign iq_cur = iq_s2_q;
    assign eq_cur = eq_s2_q;
  end else begin : g_s1
    assign {s2_valid_q, s2_op_q, s2_qi_q, s2_qe_q, s2_len_q, s2_ll_q, s2_quanta_q, s2_snap_q, s2_clr_q, s2_e_q} =
           {s1_valid_q, s1_op_q, s1_qi_q, s1_qe_q, s1_len_q, s1_ll_q, s1_quanta_q, s1_snap_q, s1_clr_q, s1_e_q};
    assign iq_cur = iqf_hit_q ? iqf_d_q : iq_rd;
    assign eq_cur = eqf_hit_q ? eqf_d_q : eq_rd;
  end

  // ------------------------------------------------------------------ S2: decide and write back

  // current fields
  logic [CntW-1:0]   i_cnt, i_hdr, i_hpeak, e_cnt;
  logic              i_xoff, e_pact, e_storm;
  logic [TimerW-1:0] i_rt, e_wdt;
  logic [StatW-1:0]  i_psent, i_hdrop, e_prcv, e_ptime, e_wstorm, e_wdrop, e_wrest;
  logic [RemW-1:0]   e_rem;
  assign i_cnt    = iq_cur[I_CNT +: CntW];
  assign i_hdr    = iq_cur[I_HDR +: CntW];
  assign i_xoff   = iq_cur[I_XOFF];
  assign i_rt     = iq_cur[I_RT +: TimerW];
  assign i_psent  = iq_cur[I_PSENT +: StatW];
  assign i_hdrop  = iq_cur[I_HDROP +: StatW];
  assign i_hpeak  = iq_cur[I_HPEAK +: CntW];
  assign e_cnt    = eq_cur[E_CNT +: CntW];
  assign e_pact   = eq_cur[E_PACT];
  assign e_rem    = eq_cur[E_REM +: RemW];
  assign e_storm  = eq_cur[E_STORM];
  assign e_wdt    = eq_cur[E_WDT +: TimerW];
  assign e_prcv   = eq_cur[E_PRCV +: StatW];
  assign e_ptime  = eq_cur[E_PTIME +: StatW];
  assign e_wstorm = eq_cur[E_WSTORM +: StatW];
  assign e_wdrop  = eq_cur[E_WDROP +: StatW];
  assign e_wrest  = eq_cur[E_WREST +: StatW];

  // next fields
  logic [CntW-1:0]   cnt_d, hdr_d, hpeak_d, ecnt_d;
  logic              xoff_d, pact_d, storm_d;
  logic [TimerW-1:0] rt_d, wdt_d;
  logic [StatW-1:0]  psent_d, hdrop_d, prcv_d, ptime_d, wstorm_d, wdrop_d, wrest_d;
  logic [RemW-1:0]   rem_d;
  // pools and outputs (next)
  logic [CntW-1:0]   sh_used_d, hdr_used_d, egll_used_d, egly_used_d;
  logic              dec_v_d, pz_v_d;
  logic [1:0]        dec_d;
  logic [2:0]        why_d;
  logic [15:0]       pz_q_d;
  logic [NCnt-1:0]   cnt_inc;
  logic              snap_we;

  // Threshold terms ("brackets"). Each admission test is the sign of one sum: "x <= limit -
  // len" is x + (len - limit - 1) < 0, with the bracket from flops. (The model computes the
  // same decisions the straightforward way: the lockstep bench checks the equivalence.)
  // The brackets are formed in the stage before the deciding one (S1 with RegWords = 1, S0
  // with RegWords = 0) for the op there, from the configuration the deciding cycle will see
  // and the registered thresholds, and registered with the op; the pool occupancies, which
  // the deciding op may change at this edge, are added in the deciding stage.
  // The dynamic XOFF threshold and the egress lossy one are registered (thr_q, egthr_q)
  // from the pools and the live configuration of their cycle: the op deciding in cycle t
  // tests against the thresholds of the pools at the start of cycle t - 2 (a threshold is a
  // share of the free pool; its path, the pool's free space, alpha's shift and the add into
  // the bracket, does not fit into one cycle beside the bracket's other sums).
  logic [CntW-1:0]   thr_n, egthr_n, thr_q, egthr_q;
  assign thr_n   = live_dyn_q ? ashift(csub(live_shsz_q, sh_used_q), live_aing_q) : live_xoff_q;
  assign egthr_n = ashift(csub(live_egly_q, egly_used_q), live_aeg_q);
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      thr_q <= CMAX; egthr_q <= CMAX;
    end else begin
      thr_q <= thr_n; egthr_q <= egthr_n;
    end
  end
  logic [CntW:0]     b_len;
  logic [CntW-1:0]   b_rsv, b_hcap, b_thr, b_egthr, b_xon, b_shsz;
  if (RegWords != 0) begin : g_bsrc
    // S0 registers the configuration the op's deciding cycle (two edges on) will see: the
    // staged value when a COMMIT takes effect at S0's edge or at S1's (commit_q now, or the
    // COMMIT written now: its cycle carries no other write, so the staged set stands), else
    // the live one; RSV and HDRM selected by the op's priority (it comes from the event
    // inputs there). S1 forms the brackets from these flip-flops and the registered
    // thresholds alone.
    logic [CntW-1:0] sel_rsv_q, sel_hdrm_q, sel_xon_q, sel_shsz_q;
    logic [2:0]      sel_p;
    logic            sel_stg;
    assign sel_p      = s0_qi[2:0];
    assign sel_stg    = commit || commit_q;
    always_ff @(posedge clk_i) begin
      sel_rsv_q  <= sel_stg ? stg_rsv_q[sel_p*CntW +: CntW] : live_rsv_q[sel_p*CntW +: CntW];
      sel_hdrm_q <= sel_stg ? stg_hdrm_q[sel_p*CntW +: CntW] : live_hdrm_q[sel_p*CntW +: CntW];
      sel_xon_q  <= sel_stg ? stg_xon_q : live_xon_q;
      sel_shsz_q <= sel_stg ? stg_shsz_q : live_shsz_q;
    end
    assign b_len   = (CntW + 1)'(s1_len_q);
    assign b_rsv   = sel_rsv_q;
    assign b_hcap  = sel_hdrm_q;
    assign b_xon   = sel_xon_q;
    assign b_shsz  = sel_shsz_q;
  end else begin : g_bsrc
    // no op in S0 in the cycle a COMMIT takes effect (hold): the live configuration is the
    // deciding cycle's
    logic [2:0] b_prio;
    assign b_prio  = s0_qi[2:0];
    assign b_len   = (CntW + 1)'(s0_len);
    assign b_rsv   = live_rsv_q[b_prio*CntW +: CntW];
    assign b_hcap  = live_hdrm_q[b_prio*CntW +: CntW];
    assign b_xon   = live_xon_q;
    assign b_shsz  = live_shsz_q;
  end
  assign b_thr   = thr_q;
  assign b_egthr = egthr_q;
  logic [CntW+2:0]   b_len_m_rsv, b_dep, b_sw;  // signed
  logic [CntW+1:0]   b_rl;
  logic [XW-1:0]     b_lim, b_sh, b_hc, b_eg;
  // The op's RSV and length arrive last (with RegWords = 0 through S0's arbitration and
  // priority select); the terms of flip-flops alone are formed beside them: the threshold
  // less the XON offset, the threshold's and the shared pool size's negatives. Each bracket
  // is then one sum of at most three operands.
  logic [CntW+2:0]   b_k;                      // thr - XON_OFFSET, signed
  logic [XW-1:0]     b_nthr, b_nshsz;          // -thr, -SHARED_SIZE
  assign b_k         = (CntW + 3)'(b_thr) - (CntW + 3)'(b_xon);
  assign b_nthr      = XW'(0) - XW'(b_thr);
  assign b_nshsz     = XW'(0) - XW'(b_shsz);
  assign b_len_m_rsv = (CntW + 3)'(b_len) - (CntW + 3)'(b_rsv);
  assign b_dep       = (CntW + 3)'(b_rsv) + (CntW + 3)'(b_len) + b_k;  // XON after a departure: lim + len - XON_OFFSET
  assign b_sw        = (CntW + 3)'(b_rsv) + b_k;                       // XON in the sweep: lim - XON_OFFSET
  assign b_rl        = (CntW + 2)'(b_rsv) + (CntW + 2)'(b_len);        // rsv + len
  // len - lim - 1 (lim = rsv + thr; -rsv - 1 = ~rsv); len - rsv - SHARED_SIZE - 1 (+
  // shared_used in S2: len - rsv - pool free - 1); len - HDRM[p] - 1; len - egress
  // threshold - 1
  assign b_lim       = XW'(b_len) + ~(XW'(b_rsv)) + b_nthr;
  assign b_sh        = XW'(b_len) + ~(XW'(b_rsv)) + b_nshsz;
  assign b_hc        = XW'(b_len) + ~(XW'(b_hcap));
  assign b_eg        = XW'(b_len) + ~(XW'(b_egthr));
  // what the deciding stage uses: the brackets, registered
  logic [CntW-1:0]   rsv, rsv_q;
  logic [CntW+2:0]   len_m_rsv, k_dep, k_sw, len_m_rsv_q, k_dep_q, k_sw_q;  // signed
  logic [CntW+1:0]   k_rl, k_rl_q;
  logic [XW-1:0]     k_lim, k_sh, k_hcap, k_eg, k_lim_q, k_sh_q, k_hcap_q, k_eg_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rsv_q <= '0; len_m_rsv_q <= '0; k_dep_q <= '0; k_sw_q <= '0; k_rl_q <= '0;
      k_lim_q <= '0; k_sh_q <= '0; k_hcap_q <= '0; k_eg_q <= '0;
    end else begin
      rsv_q <= b_rsv; len_m_rsv_q <= b_len_m_rsv; k_dep_q <= b_dep; k_sw_q <= b_sw; k_rl_q <= b_rl;
      k_lim_q <= b_lim; k_sh_q <= b_sh; k_hcap_q <= b_hc; k_eg_q <= b_eg;
    end
  end
  assign {rsv, len_m_rsv, k_dep, k_sw, k_rl, k_lim, k_sh, k_hcap, k_eg} =
         {rsv_q, len_m_rsv_q, k_dep_q, k_sw_q, k_rl_q, k_lim_q, k_sh_q, k_hcap_q, k_eg_q};
  logic [CntW:0]     len_x;
  logic              sh_in, len_fits;
  logic [XW-1:0]     x_cnt, x_hdr;
  assign len_x       = (CntW + 1)'(s2_len_q);
  assign sh_in       = sh_used_q <= live_shsz_q;
  // the operands of the three-term sums, extended to SW bits (the signed ones by sign)
  logic [SW-1:0] w_sh_used_q, w_hdr_used_q, w_egll_used_q, w_egly_used_q, w_len_x, w_live_shsz_q, w_shp_q;
  logic [SW-1:0] w_live_egll_q, w_live_egly_q, w_i_cnt, w_i_hdr, w_k_rl, w_i_hpeak;
  logic [SW-1:0] w_k_dep, w_x_cnt, w_k_sh;
  assign {w_sh_used_q, w_hdr_used_q, w_egll_used_q, w_egly_used_q, w_len_x, w_live_shsz_q, w_shp_q} =
         {SW'(sh_used_q), SW'(hdr_used_q), SW'(egll_used_q), SW'(egly_used_q), SW'(len_x), SW'(live_shsz_q), SW'(shp_q)};
  assign {w_live_egll_q, w_live_egly_q, w_i_cnt, w_i_hdr, w_k_rl, w_i_hpeak} =
         {SW'(live_egll_q), SW'(live_egly_q), SW'(i_cnt), SW'(i_hdr), SW'(k_rl), SW'(i_hpeak)};
  assign {w_k_dep, w_x_cnt, w_k_sh} = {SW'($signed(k_dep)), SW'($signed(x_cnt)), SW'($signed(k_sh))};
  assign len_fits    = neg3n(w_sh_used_q, w_len_x, w_live_shsz_q, 1'b0);  // len <= pool free
  // the other pools' tests, used + len <= size
  logic              php_fits, pll_fits, ply_fits;
  assign php_fits    = neg3n(w_hdr_used_q, w_len_x, w_shp_q, 1'b0);
  assign pll_fits    = neg3n(w_egll_used_q, w_len_x, w_live_egll_q, 1'b0);
  assign ply_fits    = neg3n(w_egly_used_q, w_len_x, w_live_egly_q, 1'b0);
  assign x_cnt       = XW'(i_cnt);
  assign x_hdr       = XW'(i_hdr);
  // admission: cnt + len <= min(lim, CMAX) (so min(lim, CMAX) >= len too); with cnt < rsv,
  // cnt + len - rsv <= pool free; hdr + len <= HDRM[p]; ecnt + len <= egress threshold
  logic [CntW:0]     cnt_p_len;
  logic              fit_lim, fit_sh, fit_hcap, fit_eg;
  assign cnt_p_len   = {1'b0, i_cnt} + len_x;
  assign fit_lim     = (x_cnt + k_lim) >> (XW - 1) != '0 && !cnt_p_len[CntW];
  assign fit_sh      = neg3(w_x_cnt, w_k_sh, w_sh_used_q, 1'b0);
  assign fit_hcap    = (x_hdr + k_hcap) >> (XW - 1) != '0;
  assign fit_eg      = (XW'(e_cnt) + k_eg) >> (XW - 1) != '0;
  // departure terms: the ingress queue's bytes, cnt + hdr, against the length, the XON
  // level after a departure (k_dep) and rsv + len, each one three-term sum
  logic [SW-1:0]     dep_rest;                // cnt + hdr - len
  logic              tot_le_len, tot_le_dep, tot_ge_rl;
  assign dep_rest    = sum3n(w_i_cnt, w_i_hdr, w_len_x, 1'b1);
  assign tot_le_len  = neg3n(w_i_cnt, w_i_hdr, w_len_x, 1'b0);
  assign tot_le_dep  = neg3n(w_i_cnt, w_i_hdr, w_k_dep, 1'b0);
  assign tot_ge_rl   = !neg3n(w_i_cnt, w_i_hdr, w_k_rl, 1'b1);
  logic              hdr_ge_len;
  logic [CntW+1:0]   sh_ret;                 // signed: shared_used less the bytes returned
  assign hdr_ge_len  = {1'b0, i_hdr} >= len_x;
  // shared_used - min(len - hdr, cnt - rsv) = max(shared_used + hdr - len,
  // shared_used + rsv - cnt); the first is the larger when cnt + hdr >= rsv + len
  assign sh_ret      = tot_ge_rl
                       ? (CntW + 2)'(sh_used_q) + (CntW + 2)'(i_hdr) - (CntW + 2)'(len_x)
                       : (CntW + 2)'(sh_used_q) + (CntW + 2)'(rsv) - (CntW + 2)'(i_cnt);

  // hdr + len > the headroom peak (hdr + len - peak - 1 >= 0)
  logic              peak_up;
  assign peak_up     = !neg3n(w_i_hdr, w_len_x, w_i_hpeak, 1'b0);

  always_comb begin
    logic [CntW+2:0] csum;
    logic [CntW-1:0] dsh;
    logic            fits, hok, egfit, xon, peff, wd_on;
    logic [TimerW-1:0] tt;
    // defaults: entries unchanged, nothing written or emitted
    cnt_d = i_cnt; hdr_d = i_hdr; xoff_d = i_xoff; rt_d = i_rt; psent_d = i_psent;
    hdrop_d = i_hdrop; hpeak_d = i_hpeak;
    ecnt_d = e_cnt; pact_d = e_pact; rem_d = e_rem; storm_d = e_storm; wdt_d = e_wdt;
    prcv_d = e_prcv; ptime_d = e_ptime; wstorm_d = e_wstorm; wdrop_d = e_wdrop; wrest_d = e_wrest;
    sh_used_d = sh_used_q; hdr_used_d = hdr_used_q; egll_used_d = egll_used_q; egly_used_d = egly_used_q;
    iq_we1 = 1'b0; eq_we1 = 1'b0;
    dec_v_d = 1'b0; dec_d = DecAdmit; why_d = WhyNone;
    pz_v_d = 1'b0; pz_q_d = 16'd0;
    cnt_inc = '0; snap_we = 1'b0;
    // admission tests
    //   fits:  cnt + len <= min(lim, 2^CntW - 1)  and  shared_used + dsh <= SHARED_SIZE
    //   dsh:   growth of the queue's part above its reserved minimum
    csum = (CntW + 3)'(i_cnt) + len_m_rsv;                          // cnt + len - rsv
    dsh  = (i_cnt >= rsv) ? len_x[CntW-1:0] : (csum[CntW+2] ? '0 : csum[CntW-1:0]);
    // dsh <= pool free, each case without waiting for dsh (a csum of 2^CntW or more, which
    // dsh would wrap, fails fit_lim already)
    fits = fit_lim && sh_in && ((i_cnt >= rsv) ? len_fits : fit_sh);
    hok  = fit_hcap && (!live_pool_q || php_fits);
    egfit = fit_eg && ply_fits;
    xon = 1'b0; peff = 1'b0; wd_on = 1'b0;
    tt = '0;

    if (s2_valid_q) begin
      case (s2_op_q)
        OpAdm: begin
          iq_we1 = 1'b1; eq_we1 = 1'b1; dec_v_d = 1'b1;
          if (e_storm) begin
            dec_d = DecDrop; why_d = WhyWd; wdrop_d = sinc(e_wdrop); cnt_inc[CWdDrop] = 1'b1;
          end else if (s2_ll_q) begin
            if (live_pool_q && !pll_fits) begin
              dec_d = DecDrop; why_d = WhyEgll; hdrop_d = sinc(i_hdrop); cnt_inc[CViol] = 1'b1;
            end else if (!i_xoff && fits) begin
              cnt_d = i_cnt + len_x[CntW-1:0]; sh_used_d = sh_used_q + dsh;
              ecnt_d = cadd(e_cnt, len_x[CntW-1:0]); egll_used_d = cadd(egll_used_q, len_x[CntW-1:0]);
              cnt_inc[CAdmit] = 1'b1;
            end else begin
              if (!i_xoff) begin
                xoff_d = 1'b1; rt_d = '0; pz_v_d = 1'b1; pz_q_d = live_quanta_q;
                psent_d = sinc(i_psent); cnt_inc[CPauseTx] = 1'b1;
              end
              if (hok) begin
                dec_d = DecHdrm; hdr_d = i_hdr + len_x[CntW-1:0]; hdr_used_d = cadd(hdr_used_q, len_x[CntW-1:0]);
                hpeak_d = peak_up ? i_hdr + len_x[CntW-1:0] : i_hpeak;
                ecnt_d = cadd(e_cnt, len_x[CntW-1:0]); egll_used_d = cadd(egll_used_q, len_x[CntW-1:0]);
                cnt_inc[CHdrm] = 1'b1;
              end else begin
                dec_d = DecDrop; why_d = WhyHdrm; hdrop_d = sinc(i_hdrop); cnt_inc[CViol] = 1'b1;
              end
            end
          end else begin
            if (!fits) begin
              dec_d = DecDrop; why_d = WhyIng; cnt_inc[CLossy] = 1'b1;
            end else if (live_pool_q && !egfit) begin
              dec_d = DecDrop; why_d = WhyEgly; cnt_inc[CLossy] = 1'b1;
            end else begin
              cnt_d = i_cnt + len_x[CntW-1:0]; sh_used_d = sh_used_q + dsh;
              ecnt_d = cadd(e_cnt, len_x[CntW-1:0]); egly_used_d = cadd(egly_used_q, len_x[CntW-1:0]);
              cnt_inc[CAdmit] = 1'b1;
            end
          end
        end
        OpDep: begin
          // Headroom drains first: min(hdr, len) leaves the headroom, the rest the count,
          // and the shared pool gets back what left the count above the reserved minimum.
          // In closed form (docs/synthesis.md), each result one adder and a select deep:
          //   hdr >= len: hdr -= len; count and pool unchanged
          //   hdr <  len: hdr = 0, cnt = max(cnt + hdr - len, 0), and if cnt > rsv
          //               shared_used = max(shared_used - min(len - hdr, cnt - rsv), 0)
          iq_we1 = 1'b1; eq_we1 = 1'b1;
          if (hdr_ge_len) begin
            hdr_d = i_hdr - len_x[CntW-1:0];
            hdr_used_d = csub(hdr_used_q, len_x[CntW-1:0]);
          end else begin
            hdr_d = '0;
            cnt_d = dep_rest[SW-1] ? '0 : dep_rest[CntW-1:0];
            hdr_used_d = csub(hdr_used_q, i_hdr);
            if (i_cnt > rsv) sh_used_d = sh_ret[CntW+1] ? '0 : sh_ret[CntW-1:0];
          end
          ecnt_d = csub(e_cnt, len_x[CntW-1:0]);
          if (s2_ll_q) egll_used_d = csub(egll_used_q, len_x[CntW-1:0]);
          else         egly_used_d = csub(egly_used_q, len_x[CntW-1:0]);
          // XON only with the headroom empty after the departure (hdr <= len), so the next
          // PAUSE can rely on all of HDRM[p]; and then the queue is empty (cnt + hdr <= len)
          // or cnt + hdr - len + XON_OFFSET <= lim
          xon = {1'b0, i_hdr} <= len_x &&
                (tot_le_len || tot_le_dep);
          if (i_xoff && xon) begin
            xoff_d = 1'b0; rt_d = '0; pz_v_d = 1'b1; pz_q_d = 16'd0; cnt_inc[CResumeTx] = 1'b1;
          end
        end
        OpPfc: begin
          eq_we1 = 1'b1;
          prcv_d = sinc(e_prcv);
          if (s2_quanta_q != 16'd0) begin
            pact_d = 1'b1; rem_d = {s2_quanta_q, 9'd0}; cnt_inc[CPauseRx] = 1'b1;
            if (e_storm) wdt_d = '0;
          end else begin
            pact_d = 1'b0; rem_d = '0; cnt_inc[CResumeRx] = 1'b1;
          end
        end
        OpSweep: begin
          iq_we1 = 1'b1; eq_we1 = 1'b1;
          // ingress side: XON re-check (dynamic threshold may have grown), PAUSE refresh
          if (i_xoff) begin
            // the same rule as a departure: headroom empty, then count zero or low enough
            // (cnt + hdr = cnt once hdr = 0)
            xon = i_hdr == '0 && (i_cnt == '0 || (!k_sw[CntW+2] && (CntW + 3)'(i_cnt) <= k_sw));
            if (xon) begin
              xoff_d = 1'b0; rt_d = '0; pz_v_d = 1'b1; pz_q_d = 16'd0; cnt_inc[CResumeTx] = 1'b1;
            end else begin
              tt = tadd(i_rt, s2_e_q);
              if (live_refresh_q != '0 && tt >= live_refresh_q) begin
                rt_d = '0; pz_v_d = 1'b1; pz_q_d = live_quanta_q; psent_d = sinc(i_psent);
                cnt_inc[CPauseTx] = 1'b1;
              end else begin
                rt_d = tt;
              end
            end
          end
          // egress side: paused time, quanta countdown, watchdog
          peff = e_pact && !e_storm;
          if (peff) ptime_d = sadd(e_ptime, s2_e_q);
          if (e_pact) begin
            if (30'(e_rem) <= s2_bits_q) begin pact_d = 1'b0; rem_d = '0; end
            else rem_d = e_rem - RemW'(s2_bits_q);
          end
          wd_on = live_wddet_q != '0 && live_llmask_q[s2_qe_q[2:0]];
          if (!wd_on) begin
            storm_d = 1'b0; wdt_d = '0;
          end else if (!e_storm) begin
            if (peff && e_cnt != '0) begin
              tt = tadd(e_wdt, s2_e_q);
              if (tt >= live_wddet_q) begin
                storm_d = 1'b1; wdt_d = '0; wstorm_d = sinc(e_wstorm); cnt_inc[CStorm] = 1'b1;
              end else begin
                wdt_d = tt;
              end
            end else begin
              wdt_d = '0;
            end
          end else begin
            if (pact_d) begin
              wdt_d = '0;
            end else begin
              tt = tadd(e_wdt, s2_e_q);
              if (tt >= live_wdres_q) begin
                storm_d = 1'b0; wdt_d = '0; wrest_d = sinc(e_wrest); cnt_inc[CRestore] = 1'b1;
              end else begin
                wdt_d = tt;
              end
            end
          end
        end
        OpStat: begin
          iq_we1 = 1'b1; eq_we1 = 1'b1; snap_we = s2_snap_q;
          if (s2_clr_q[0]) psent_d = '0;
          if (s2_clr_q[1]) hdrop_d = '0;
          if (s2_clr_q[2]) hpeak_d = '0;
          if (s2_clr_q[3]) prcv_d = '0;
          if (s2_clr_q[4]) ptime_d = '0;
          if (s2_clr_q[5]) wstorm_d = '0;
          if (s2_clr_q[6]) wdrop_d = '0;
          if (s2_clr_q[7]) wrest_d = '0;
        end
        default: ;
      endcase
    end
    iq_wd1 = {hpeak_d, hdrop_d, psent_d, rt_d, xoff_d, hdr_d, cnt_d};
    eq_wd1 = {wrest_d, wdrop_d, wstorm_d, ptime_d, prcv_d, wdt_d, storm_d, rem_d, pact_d, ecnt_d};
  end

  // ------------------------------------------------------------------ sequential
  logic             dec_v_q, pz_v_q;
  logic [1:0]       dec_q;
  logic [2:0]       why_q;
  logic [PortW-1:0] pz_port_q;
  logic [2:0]       pz_prio_q;
  logic [15:0]      pz_quanta_q;
  // snapshot registers
  logic [StatW-1:0] sn_psent_q, sn_hdrop_q, sn_prcv_q, sn_ptime_q, sn_wstorm_q, sn_wdrop_q, sn_wrest_q;
  logic [CntW-1:0]  sn_hpeak_q, sn_cnt_q, sn_hdr_q, sn_ecnt_q;
  logic [2:0]       sn_flags_q;
  logic             sw_start;
  assign sw_start = init_done && !sw_act_q && sw_pend_q != 4'd0;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      s1_valid_q <= 1'b0; s1_op_q <= OpNone; s1_qi_q <= '0; s1_qe_q <= '0; s1_len_q <= '0;
      s1_ll_q <= 1'b0; s1_quanta_q <= '0; s1_snap_q <= 1'b0; s1_clr_q <= '0; s1_e_q <= '0;
      s2_bits_q <= '0;
      iqf_hit_q <= 1'b0; eqf_hit_q <= 1'b0; iqf_d_q <= '0; eqf_d_q <= '0;
      sh_used_q <= '0; hdr_used_q <= '0; egll_used_q <= '0; egly_used_q <= '0; hdr_peak_q <= '0;
      paused_q <= '0; storm_q <= '0;
      stat_pend_q <= 1'b0; stat_snap_q <= 1'b0; stat_clr_q <= '0;
      sw_act_q <= 1'b0; sw_turn_q <= 1'b0; sw_idx_q <= '0; sw_pend_q <= '0; sw_e_q <= '0;
      dec_v_q <= 1'b0; dec_q <= '0; why_q <= '0;
      pz_v_q <= 1'b0; pz_port_q <= '0; pz_prio_q <= '0; pz_quanta_q <= '0;
      sn_psent_q <= '0; sn_hdrop_q <= '0; sn_prcv_q <= '0; sn_ptime_q <= '0; sn_wstorm_q <= '0;
      sn_wdrop_q <= '0; sn_wrest_q <= '0; sn_hpeak_q <= '0; sn_cnt_q <= '0; sn_hdr_q <= '0; sn_ecnt_q <= '0;
      sn_flags_q <= '0;
    end else begin
      // S0 -> S1
      s1_valid_q  <= s0_op != OpNone;
      s1_op_q     <= s0_op;
      s1_qi_q     <= s0_qi;
      s1_qe_q     <= s0_qe;
      s1_len_q    <= s0_len;
      s1_ll_q     <= s0_ll;
      s1_quanta_q <= (s0_op == OpPfc) ? pfc_quanta_i : 16'd0;
      s1_snap_q   <= stat_go && stat_snap_q;
      s1_clr_q    <= stat_go ? stat_clr_q : 8'd0;
      s1_e_q      <= sw_e_q;   // a sweep's E cannot change while the sweep runs
      // the sweep op's bits, with the bits per tick of the cycle before the deciding one
      s2_bits_q   <= (RegWords != 0 ? 30'(s1_e_q) : 30'(sw_e_q)) * 30'(bpt);
      // far forwarding, for the op S0 issues now
      iqf_hit_q <= iq_we1 && s2_qi_q == s0_qi; iqf_d_q <= iq_wd1;
      eqf_hit_q <= eq_we1 && s2_qe_q == s0_qe; eqf_d_q <= eq_wd1;
      // pools
      sh_used_q <= sh_used_d; hdr_used_q <= hdr_used_d;
      egll_used_q <= egll_used_d; egly_used_q <= egly_used_d;
      if (peak_clr) hdr_peak_q <= '0;
      else if (hdr_used_q > hdr_peak_q) hdr_peak_q <= hdr_used_q;
      // egress paused / storm flags
      if (s2_valid_q && (s2_op_q == OpPfc || s2_op_q == OpSweep)) begin
        paused_q[s2_qe_q] <= pact_d && !storm_d;
        storm_q[s2_qe_q]  <= storm_d;
      end
      // STAT_CMD
      if (stat_cmd_we) begin
        stat_pend_q <= 1'b1; stat_snap_q <= cfg_wdata_i[0]; stat_clr_q <= cfg_wdata_i[15:8];
      end else if (stat_go) begin
        stat_pend_q <= 1'b0;
      end
      // timer sweep
      sw_turn_q <= !sw_turn_q;
      if (sw_start) begin
        sw_act_q <= 1'b1; sw_idx_q <= '0; sw_e_q <= sw_pend_q;
        sw_pend_q <= {3'd0, tick_i};
      end else begin
        if (tick_i && sw_pend_q != 4'hf) sw_pend_q <= sw_pend_q + 4'd1;
        if (sweep_go) begin
          if (sw_idx_q == QW'(Entries - 1)) sw_act_q <= 1'b0;
          else sw_idx_q <= sw_idx_q + 1'b1;
        end
      end
      // outputs
      dec_v_q <= dec_v_d;
      dec_q   <= dec_v_d ? dec_d : DecAdmit;
      why_q   <= dec_v_d ? why_d : WhyNone;
      pz_v_q  <= pz_v_d;
      pz_port_q   <= pz_v_d ? s2_qi_q[QW-1:3] : '0;
      pz_prio_q   <= pz_v_d ? s2_qi_q[2:0] : '0;
      pz_quanta_q <= pz_v_d ? pz_q_d : '0;
      if (snap_we) begin
        sn_psent_q <= i_psent; sn_hdrop_q <= i_hdrop; sn_hpeak_q <= i_hpeak; sn_prcv_q <= e_prcv;
        sn_ptime_q <= e_ptime; sn_wstorm_q <= e_wstorm; sn_wdrop_q <= e_wdrop; sn_wrest_q <= e_wrest;
        sn_cnt_q <= i_cnt; sn_hdr_q <= i_hdr; sn_ecnt_q <= e_cnt; sn_flags_q <= {e_storm, e_pact, i_xoff};
      end
    end
  end

  assign dec_valid_o    = dec_v_q;
  assign dec_o          = dec_q;
  assign dec_why_o      = why_q;
  assign pause_valid_o  = pz_v_q;
  assign pause_port_o   = pz_port_q;
  assign pause_prio_o   = pz_prio_q;
  assign pause_quanta_o = pz_quanta_q;
  assign eg_paused_o    = paused_q[eg_qport_i*8 +: 8];
  assign eg_storm_o     = storm_q[eg_qport_i*8 +: 8];

  // ------------------------------------------------------------------ global counters
  logic [NCnt*StatW-1:0] cnt_val;
  logic [NCnt-1:0]       cnt_inc_g;
  always_comb begin
    cnt_inc_g = cnt_inc;
    cnt_inc_g[COverrun] = sw_start && sw_pend_q > 4'd1;
  end
  // An event is counted a cycle after its decision (cnt_pend_q), so the deciding stage ends
  // at a flip-flop, not at a counter's increment; a read adds the pending event (cnt_rd),
  // so the register value is that of a counter incremented in the event's own cycle. A
  // CLEAR drops the event of its own cycle (cleared first, as ll_sat_counter does) and the
  // pending one (counted before the clear).
  logic [NCnt-1:0]       cnt_pend_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) cnt_pend_q <= '0;
    else         cnt_pend_q <= cnt_inc_g & ~cnt_clr;
  end
  for (genvar g = 0; g < NCnt; g++) begin : g_cnt
    ll_sat_counter #(.Width(StatW)) u_cnt (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .clr_i   (cnt_clr[g]),
      .inc_i   (cnt_pend_q[g]),
      .value_o (cnt_val[g*StatW +: StatW])
    );
  end
  // the selected counter (the register map's 16 slots; the read uses slots below NCnt)
  logic [16*StatW-1:0] cnt_val16;
  logic [15:0]         cnt_pend16;
  logic [StatW-1:0]    cnt_sel, cnt_rd;
  assign cnt_val16  = (16 * StatW)'(cnt_val);
  assign cnt_pend16 = 16'(cnt_pend_q);
  assign cnt_sel    = cnt_val16[waddr[3:0]*StatW +: StatW];
  assign cnt_rd     = (cnt_pend16[waddr[3:0]] && !(&cnt_sel)) ? cnt_sel + 1'b1 : cnt_sel;

  // ------------------------------------------------------------------ register reads
  logic [31:0] rd;
  always_comb begin
    rd = 32'd0;
    case (cfg_addr_i)
      pfc_regs_pkg::PFC_ID:          rd = pfc_regs_pkg::PFC_ID_VALUE;
      pfc_regs_pkg::PFC_PARAMS:      rd = {2'd0, 6'(TimerW), 2'd0, 6'(StatW), 2'd0, 6'(CntW), 8'(Ports)};
      pfc_regs_pkg::PFC_STATUS:      rd = {30'd0, stat_pend_q || (s1_valid_q && s1_op_q == OpStat) || (RegWords != 0 && s2_valid_q && s2_op_q == OpStat), init_done};
      pfc_regs_pkg::PFC_TICK_NS:     rd = 32'(TickNs);
      pfc_regs_pkg::PFC_MODE:        rd = {30'd0, stg_pool_q, stg_dyn_q};
      pfc_regs_pkg::PFC_LOSSLESS:    rd = {24'd0, stg_llmask_q};
      pfc_regs_pkg::PFC_XOFF_STATIC: rd = 32'(stg_xoff_q);
      pfc_regs_pkg::PFC_ALPHA:       rd = {20'd0, stg_aeg_q, 4'd0, stg_aing_q};
      pfc_regs_pkg::PFC_XON_OFFSET:  rd = 32'(stg_xon_q);
      pfc_regs_pkg::PFC_SHARED_SIZE: rd = 32'(stg_shsz_q);
      pfc_regs_pkg::PFC_EGLL_SIZE:   rd = 32'(stg_egll_q);
      pfc_regs_pkg::PFC_EGLY_SIZE:   rd = 32'(stg_egly_q);
      pfc_regs_pkg::PFC_SHP:         rd = {29'd0, stg_os_q};
      pfc_regs_pkg::PFC_QUANTA:      rd = {16'd0, stg_quanta_q};
      pfc_regs_pkg::PFC_REFRESH:     rd = 32'(stg_refresh_q);
      pfc_regs_pkg::PFC_LINK_GBPS:   rd = {22'd0, stg_gbps_q};
      pfc_regs_pkg::PFC_WD_DETECT:   rd = 32'(stg_wddet_q);
      pfc_regs_pkg::PFC_WD_RESTORE:  rd = 32'(stg_wdres_q);
      pfc_regs_pkg::PFC_STAT_SEL:    rd = 32'(stat_sel_q);
      pfc_regs_pkg::PFC_HDR_PEAK:    rd = 32'(hdr_peak_q);
      pfc_regs_pkg::PFC_SHARED_USED: rd = 32'(sh_used_q);
      pfc_regs_pkg::PFC_HDR_USED:    rd = 32'(hdr_used_q);
      pfc_regs_pkg::PFC_EGLL_USED:   rd = 32'(egll_used_q);
      pfc_regs_pkg::PFC_EGLY_USED:   rd = 32'(egly_used_q);
      pfc_regs_pkg::PFC_SHP_SIZE:    rd = 32'(shp_q);
      pfc_regs_pkg::PFC_SNAP_PSENT:  rd = 32'(sn_psent_q);
      pfc_regs_pkg::PFC_SNAP_HDROP:  rd = 32'(sn_hdrop_q);
      pfc_regs_pkg::PFC_SNAP_HPEAK:  rd = 32'(sn_hpeak_q);
      pfc_regs_pkg::PFC_SNAP_PRCV:   rd = 32'(sn_prcv_q);
      pfc_regs_pkg::PFC_SNAP_PTIME:  rd = 32'(sn_ptime_q);
      pfc_regs_pkg::PFC_SNAP_WSTORM: rd = 32'(sn_wstorm_q);
      pfc_regs_pkg::PFC_SNAP_WDROP:  rd = 32'(sn_wdrop_q);
      pfc_regs_pkg::PFC_SNAP_WREST:  rd = 32'(sn_wrest_q);
      pfc_regs_pkg::PFC_SNAP_CNT:    rd = 32'(sn_cnt_q);
      pfc_regs_pkg::PFC_SNAP_HDR:    rd = 32'(sn_hdr_q);
      pfc_regs_pkg::PFC_SNAP_ECNT:   rd = 32'(sn_ecnt_q);
      pfc_regs_pkg::PFC_SNAP_FLAGS:  rd = {29'd0, sn_flags_q};
      default: begin
        if (waddr >= 10'h020 && waddr < 10'h028) rd = 32'(stg_rsv_q[waddr[2:0]*CntW +: CntW]);
        if (waddr >= 10'h028 && waddr < 10'h030) rd = 32'(stg_hdrm_q[waddr[2:0]*CntW +: CntW]);
        if (waddr[9:4] == 6'h05 && waddr[3:0] < 4'(NCnt)) rd = 32'(cnt_rd);
      end
    endcase
  end

  ll_cfg_read u_cfg_read (
    .clk_i (clk_i), .rst_ni (rst_ni), .re_i (cfg_re_i), .data_i (rd),
    .rdata_o (cfg_rdata_o), .rvalid_o (cfg_rvalid_o)
  );

  // ------------------------------------------------------------------ interface assertions
`ifndef SYNTHESIS
  // valid/ready on the three event inputs (the shared checker)
  ll_vr_stable #(.W(2 * PortW + 3 + 14 + 1), .Input(1'b1)) u_vr_adm (
    .clk_i (clk_i), .rst_ni (rst_ni), .valid_i (adm_valid_i), .ready_i (adm_ready_o),
    .data_i ({adm_iport_i, adm_eport_i, adm_prio_i, adm_len_i, adm_lossless_i})
  );
  ll_vr_stable #(.W(2 * PortW + 3 + 14 + 1), .Input(1'b1)) u_vr_dep (
    .clk_i (clk_i), .rst_ni (rst_ni), .valid_i (dep_valid_i), .ready_i (dep_ready_o),
    .data_i ({dep_iport_i, dep_eport_i, dep_prio_i, dep_len_i, dep_lossless_i})
  );
  ll_vr_stable #(.W(PortW + 3 + 16), .Input(1'b1)) u_vr_pfc (
    .clk_i (clk_i), .rst_ni (rst_ni), .valid_i (pfc_valid_i), .ready_i (pfc_ready_o),
    .data_i ({pfc_port_i, pfc_prio_i, pfc_quanta_i})
  );
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (adm_valid_i) begin
        `LL_ASSUME(adm_len_i != '0 && 32'(adm_iport_i) < Ports && 32'(adm_eport_i) < Ports,
          ("pfc_top: illegal admission event"))
      end
      if (dep_valid_i) begin
        `LL_ASSUME(dep_len_i != '0 && 32'(dep_iport_i) < Ports && 32'(dep_eport_i) < Ports,
          ("pfc_top: illegal departure event"))
      end
      if (pfc_valid_i) `LL_ASSUME(`LL_INRANGE(pfc_port_i, Ports), ("pfc_top: illegal PFC port"))
      `LL_ASSUME(`LL_INRANGE(eg_qport_i, Ports), ("pfc_top: eg_qport_i out of range"))
      // legal states
      if (sw_act_q) `LL_ASSERT(`LL_INRANGE(sw_idx_q, Entries), ("pfc_top: sweep index out of range"))
      if (s1_valid_q) `LL_ASSERT(s1_op_q >= OpAdm && s1_op_q <= OpStat, ("pfc_top: bad S1 op"))
      if (s2_valid_q) `LL_ASSERT(s2_op_q >= OpAdm && s2_op_q <= OpStat, ("pfc_top: bad S2 op"))
    end
  end
`endif
endmodule

`default_nettype wire
