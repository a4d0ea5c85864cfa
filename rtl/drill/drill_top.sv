// drill: DRILL load-balancing selector with Engines parallel forwarding engines
// (DRILL paper, SIGCOMM 2017; design note: docs/drill.md; register map:
// docs/drill_regmap.md, source rtl/drill/drill_regs.json).
//
// Engine e (e < Engines <= 4) has its own port set e<e>_*: a packet (valid, flow
// hash, candidate mask or group id) in, one decision (port or "empty") out exactly
// Latency = 5 + 2 * (Groups > 0) cycles later. Engines share only the occupancy view.
// Port sets of engines >= Engines exist but are unused (ready and outputs are 0).
//
// Occupancy view: Ports registers of OccW bits, written by the update port
// (occ_we_i, occ_port_i, occ_value_i: absolute occupancy of one port per cycle). An
// update presented in cycle t is visible to decisions from cycle t + OccLag on; a
// packet accepted in cycle t reads the view in cycle t + Latency - 1, so it sees
// every update presented up to cycle t + Latency - 1 - OccLag.
//
// After reset a sweep clears every engine's flow, group and component RAMs
// (max(FlowEntries, Groups, Comps) cycles); ready is low and register writes are
// ignored until init_done_o.
`default_nettype none

// The assertion macros: flows list rtl/common/ll_assert.svh first; a file linted on its own
// finds it through -I rtl/common.
`ifndef LL_ASSERT_SVH
`include "ll_assert.svh"
`endif

module drill_top #(
  parameter int          Ports       = 16,  // output ports N, 2..64
  parameter int          OccW        = 16,  // queue-occupancy width, 1..32
  parameter int          D           = 2,   // samples per decision d, 1..15
  parameter int          M           = 1,   // memory entries m, 0..32
  parameter int          Engines     = 1,   // forwarding engines E, 1..4
  parameter int          HashW       = 16,  // flow-hash width, 8..32
  parameter int          Groups      = 4,   // group-table rows; 0 = no component stage
  parameter int          Comps       = 8,   // component-table rows, 2..64 (if Groups > 0)
  parameter int          FlowEntries = 64,  // per-flow table entries per engine, power of 2
  parameter int          OccLag      = 1,   // occupancy-update visibility delay, 1..8 cycles
  parameter int          CntW        = 32,  // statistics counter width, 4..32
  parameter logic [63:0] Seed        = 64'h0123_4567_89AB_CDEF,  // base seed; engine e uses derive_seed(Seed, e)
  // derived, do not override
  parameter int          PortAw      = $clog2(Ports),
  parameter int          GrpAw       = (Groups > 1) ? $clog2(Groups) : 1
) (
  input  wire logic                 clk_i,
  input  wire logic                 rst_ni,
  // engine 0
  input  wire logic                 e0_valid_i,
  output logic                      e0_ready_o,
  input  wire logic [HashW-1:0]     e0_hash_i,
  input  wire logic [Ports-1:0]     e0_mask_i,
  input  wire logic                 e0_grp_en_i,
  input  wire logic [GrpAw-1:0]     e0_grp_i,
  output logic                      e0_out_valid_o,
  output logic      [PortAw-1:0]    e0_out_port_o,
  output logic                      e0_out_empty_o,
  // engine 1
  input  wire logic                 e1_valid_i,
  output logic                      e1_ready_o,
  input  wire logic [HashW-1:0]     e1_hash_i,
  input  wire logic [Ports-1:0]     e1_mask_i,
  input  wire logic                 e1_grp_en_i,
  input  wire logic [GrpAw-1:0]     e1_grp_i,
  output logic                      e1_out_valid_o,
  output logic      [PortAw-1:0]    e1_out_port_o,
  output logic                      e1_out_empty_o,
  // engine 2
  input  wire logic                 e2_valid_i,
  output logic                      e2_ready_o,
  input  wire logic [HashW-1:0]     e2_hash_i,
  input  wire logic [Ports-1:0]     e2_mask_i,
  input  wire logic                 e2_grp_en_i,
  input  wire logic [GrpAw-1:0]     e2_grp_i,
  output logic                      e2_out_valid_o,
  output logic      [PortAw-1:0]    e2_out_port_o,
  output logic                      e2_out_empty_o,
  // engine 3
  input  wire logic                 e3_valid_i,
  output logic                      e3_ready_o,
  input  wire logic [HashW-1:0]     e3_hash_i,
  input  wire logic [Ports-1:0]     e3_mask_i,
  input  wire logic                 e3_grp_en_i,
  input  wire logic [GrpAw-1:0]     e3_grp_i,
  output logic                      e3_out_valid_o,
  output logic      [PortAw-1:0]    e3_out_port_o,
  output logic                      e3_out_empty_o,
  // occupancy updates
  input  wire logic                 occ_we_i,
  input  wire logic [PortAw-1:0]    occ_port_i,   // ignored if >= Ports
  input  wire logic [OccW-1:0]      occ_value_i,
  // register interface (docs/CONVENTIONS.md)
  input  wire logic                 cfg_we_i,
  input  wire logic                 cfg_re_i,
  input  wire logic [11:0]          cfg_addr_i,
  input  wire logic [31:0]          cfg_wdata_i,
  output logic      [31:0]          cfg_rdata_o,
  output logic                      cfg_rvalid_o,
  output logic                      init_done_o
);
  localparam int MaxE     = 4;
  localparam int Latency  = 5 + ((Groups > 0) ? 2 : 0);
  localparam int SweepD0  = (FlowEntries > Groups) ? FlowEntries : Groups;
  localparam int SweepD   = (SweepD0 > Comps) ? SweepD0 : Comps;
  localparam int SweepAw  = $clog2(SweepD);
  localparam int FlowAw   = $clog2(FlowEntries);
  localparam int IncW     = $clog2(Engines + 1);

  initial begin
    // params.py: begin generated checks (rtl/drill/drill_params.json)
    if (!((Ports >= 2 && Ports <= 64))) $error("drill: Ports must be in 2..64");
    if (!((OccW >= 1 && OccW <= 32))) $error("drill: OccW must be in 1..32");
    if (!((D >= 1 && D <= 15))) $error("drill: D must be in 1..15");
    if (!((M >= 0 && M <= 32))) $error("drill: M must be in 0..32");
    if (!((Engines >= 1 && Engines <= 4))) $error("drill: Engines must be in 1..4");
    if (!((HashW >= 8 && HashW <= 32))) $error("drill: HashW must be in 8..32");
    if (!((Groups == 0 || (Groups >= 2 && Groups <= 64)))) $error("drill: Groups must be 0 or in 2..64");
    if (!((Comps >= 2 && Comps <= 64))) $error("drill: Comps must be in 2..64");
    if (!(((FlowEntries >= 2 && FlowEntries <= 65536) && ((FlowEntries & (FlowEntries - 1)) == 0)))) $error("drill: FlowEntries must be a power of 2 in 2..65536");
    if (!((OccLag >= 1 && OccLag <= 8))) $error("drill: OccLag must be in 1..8");
    if (!((CntW >= 4 && CntW <= 32))) $error("drill: CntW must be in 4..32");
    if (!(PortAw == ($clog2(Ports)))) $error("drill: PortAw is derived; do not override it");
    if (!(GrpAw == ((Groups > 1) ? $clog2(Groups) : 1))) $error("drill: GrpAw is derived; do not override it");
    if (!(HashW > $clog2(FlowEntries))) $error("drill: HashW must exceed log2(FlowEntries)");
    // params.py: end generated checks
  end

  // ---------------------------------------------------------------- init sweep
  logic               sweep_we, init_done;
  logic [SweepAw-1:0] sweep_addr;
  ll_init_sweep #(.Depth(SweepD)) u_sweep (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .we_o   (sweep_we),
    .addr_o (sweep_addr),
    .done_o (init_done)
  );
  assign init_done_o = init_done;

  // ---------------------------------------------------------------- registers
  logic        cfg_wr;
  assign cfg_wr = cfg_we_i && init_done;

  logic [2:0]  stage_mode_q, mode_q;
  logic [31:0] stage_mask_lo_q, stage_mask_hi_q, stage_gw_q, stage_gc_q;
  logic        mode_commit, comp_commit, grp_commit;
  // decision modes (the register map's MODE_*): DRILL(d,m) after reset; values above
  // per-flow DRILL, the last mode, are not committed
  localparam logic [2:0] ModeReset = 3'(drill_regs_pkg::DRILL_MODE_DRILL);
  localparam logic [2:0] ModeLast  = 3'(drill_regs_pkg::DRILL_MODE_FLOW);
  assign mode_commit = cfg_wr && (cfg_addr_i == drill_regs_pkg::DRILL_MODE_COMMIT) && (stage_mode_q <= ModeLast);
  assign comp_commit = cfg_wr && (cfg_addr_i == drill_regs_pkg::DRILL_COMP_COMMIT);
  assign grp_commit  = cfg_wr && (cfg_addr_i == drill_regs_pkg::DRILL_GROUP_COMMIT);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      stage_mode_q    <= ModeReset;
      mode_q          <= ModeReset;
      stage_mask_lo_q <= '0;
      stage_mask_hi_q <= '0;
      stage_gw_q      <= '0;
      stage_gc_q      <= '0;
    end else begin
      if (cfg_wr) begin
        case (cfg_addr_i)
          drill_regs_pkg::DRILL_STAGE_MODE:          stage_mode_q    <= cfg_wdata_i[2:0];
          drill_regs_pkg::DRILL_STAGE_MASK_LO:       stage_mask_lo_q <= cfg_wdata_i;
          drill_regs_pkg::DRILL_STAGE_MASK_HI:       stage_mask_hi_q <= cfg_wdata_i;
          drill_regs_pkg::DRILL_STAGE_GROUP_WEIGHTS: stage_gw_q      <= cfg_wdata_i;
          drill_regs_pkg::DRILL_STAGE_GROUP_COMPS:   stage_gc_q      <= cfg_wdata_i;
          default: ;
        endcase
      end
      if (mode_commit) mode_q <= stage_mode_q;
    end
  end

  logic [63:0] stage_mask;
  assign stage_mask = {stage_mask_hi_q, stage_mask_lo_q};

  // group rows are stored with the prefix sums of their weights (10 bits each)
  logic [39:0] stage_gcum;
  always_comb begin
    logic [9:0] run;
    run = '0;
    for (int s = 0; s < 4; s++) begin
      run = run + 10'(stage_gw_q[8*s +: 8]);
      stage_gcum[10*s +: 10] = run;
    end
  end

  // ---------------------------------------------------------------- occupancy view
  logic             upd_we   [OccLag];
  logic [PortAw-1:0] upd_port [OccLag];
  logic [OccW-1:0]  upd_val  [OccLag];
  // stage 0 is the input port itself; stages 1..OccLag-1 are delay registers
  assign upd_we[0]   = occ_we_i;
  assign upd_port[0] = occ_port_i;
  assign upd_val[0]  = occ_value_i;
  for (genvar s = 1; s < OccLag; s++) begin : g_lag
    always_ff @(posedge clk_i) begin
      if (!rst_ni) upd_we[s] <= 1'b0;
      else         upd_we[s] <= upd_we[s-1];
    end
    always_ff @(posedge clk_i) begin
      upd_port[s] <= upd_port[s-1];
      upd_val[s]  <= upd_val[s-1];
    end
  end

  // the view register; view_d, the view of the next cycle, is formed only for the engines
  // up to 16 ports, which register the occupancies they will compare from it one stage
  // ahead (above 16 ports they read view_q in Q3). The register has its own clocked block:
  // with OccLag = 1 the next view is a function of a top-level input, and a simulator
  // re-evaluates combinational logic behind an input each time any input moves
  logic [Ports*OccW-1:0] view_q, view_d;
  logic                  vupd_we;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      view_q <= '0;
    end else begin
      for (int p = 0; p < Ports; p++) begin
        if (upd_we[OccLag-1] && (32'(upd_port[OccLag-1]) == p)) view_q[p*OccW +: OccW] <= upd_val[OccLag-1];
      end
    end
  end
  if (Ports <= 16) begin : g_vnext
    for (genvar p = 0; p < Ports; p++) begin : g_view
      always_comb begin
        view_d[p*OccW +: OccW] = view_q[p*OccW +: OccW];
        if (!rst_ni) begin
          view_d[p*OccW +: OccW] = '0;
        end else if (upd_we[OccLag-1] && (32'(upd_port[OccLag-1]) == p)) begin
          view_d[p*OccW +: OccW] = upd_val[OccLag-1];
        end
      end
    end
  end else begin : g_no_vnext
    assign view_d = '0;   // not read above 16 ports
  end
  assign vupd_we = rst_ni && upd_we[OccLag-1];

  // ---------------------------------------------------------------- engines
  logic [MaxE-1:0]        in_valid, in_grp_en;
  logic [HashW-1:0]       in_hash  [MaxE];
  logic [Ports-1:0]       in_mask  [MaxE];
  logic [GrpAw-1:0]       in_grp   [MaxE];
  logic [MaxE-1:0]        out_valid, out_empty;
  logic [PortAw-1:0]      out_port [MaxE];
  logic [2:0]             out_kind [MaxE];

  assign in_valid  = {e3_valid_i, e2_valid_i, e1_valid_i, e0_valid_i};
  assign in_grp_en = {e3_grp_en_i, e2_grp_en_i, e1_grp_en_i, e0_grp_en_i};
  assign in_hash[0] = e0_hash_i;  assign in_mask[0] = e0_mask_i;  assign in_grp[0] = e0_grp_i;
  assign in_hash[1] = e1_hash_i;  assign in_mask[1] = e1_mask_i;  assign in_grp[1] = e1_grp_i;
  assign in_hash[2] = e2_hash_i;  assign in_mask[2] = e2_mask_i;  assign in_grp[2] = e2_grp_i;
  assign in_hash[3] = e3_hash_i;  assign in_mask[3] = e3_mask_i;  assign in_grp[3] = e3_grp_i;

  logic [MaxE-1:0] ready;
  for (genvar e = 0; e < MaxE; e++) begin : g_eng
    if (e < Engines) begin : g_on
      assign ready[e] = init_done;
      drill_engine #(
        .Ports       (Ports),
        .OccW        (OccW),
        .D           (D),
        .M           (M),
        .HashW       (HashW),
        .Groups      (Groups),
        .Comps       (Comps),
        .FlowEntries (FlowEntries),
        .SweepAw     (SweepAw),
        .Seed        (ll_pkg::derive_seed(Seed, e))
      ) u_engine (
        .clk_i        (clk_i),
        .rst_ni       (rst_ni),
        .sweep_we_i   (sweep_we),
        .sweep_addr_i (sweep_addr),
        .mode_i       (mode_q),
        .in_accept_i  (in_valid[e] && init_done),
        .in_hash_i    (in_hash[e]),
        .in_mask_i    (in_mask[e]),
        .in_grp_en_i  (in_grp_en[e]),
        .in_grp_i     (in_grp[e]),
        .occ_view_i   (view_q),
        .occ_next_i   (view_d),
        .occ_rst_i    (!rst_ni),
        .occ_we_i     (vupd_we),
        .occ_port_i   (upd_port[OccLag-1]),
        .occ_val_i    (upd_val[OccLag-1]),
        .grp_we_i     (grp_commit),
        .grp_waddr_i  (cfg_wdata_i[7:0]),
        .grp_wdata_i  ({stage_gc_q, stage_gcum}),
        .comp_we_i    (comp_commit),
        .comp_waddr_i (cfg_wdata_i[7:0]),
        .comp_wdata_i (stage_mask[Ports-1:0]),
        .out_valid_o  (out_valid[e]),
        .out_port_o   (out_port[e]),
        .out_empty_o  (out_empty[e]),
        .out_kind_o   (out_kind[e])
      );
    end else begin : g_off
      assign ready[e]     = 1'b0;
      assign out_valid[e] = 1'b0;
      assign out_port[e]  = '0;
      assign out_empty[e] = 1'b0;
      assign out_kind[e]  = '0;
    end
  end

  assign e0_ready_o = ready[0];  assign e0_out_valid_o = out_valid[0];
  assign e0_out_port_o = out_port[0];  assign e0_out_empty_o = out_empty[0];
  assign e1_ready_o = ready[1];  assign e1_out_valid_o = out_valid[1];
  assign e1_out_port_o = out_port[1];  assign e1_out_empty_o = out_empty[1];
  assign e2_ready_o = ready[2];  assign e2_out_valid_o = out_valid[2];
  assign e2_out_port_o = out_port[2];  assign e2_out_empty_o = out_empty[2];
  assign e3_ready_o = ready[3];  assign e3_out_valid_o = out_valid[3];
  assign e3_out_port_o = out_port[3];  assign e3_out_empty_o = out_empty[3];

  // ---------------------------------------------------------------- counters
  // kind counters: 0 ECMP, 1 RANDOM, 2 RR, 3 DRILL, 4 FLOW_NEW, 5 FLOW_PINNED, 6 EMPTY
  localparam int Kinds = 7;
  logic [IncW-1:0] kind_inc [Kinds];
  logic [IncW-1:0] port_inc [Ports];
  logic [CntW-1:0] kind_cnt [Kinds];
  logic [CntW-1:0] port_cnt [Ports];
  logic [Kinds-1:0] kind_clr;
  logic [63:0]      port_clr;

  assign kind_clr = (cfg_wr && cfg_addr_i == drill_regs_pkg::DRILL_CNT_CLEAR) ? cfg_wdata_i[Kinds-1:0] : '0;
  assign port_clr[31:0]  = (cfg_wr && cfg_addr_i == drill_regs_pkg::DRILL_CNT_PORT_CLEAR_LO) ? cfg_wdata_i : '0;
  assign port_clr[63:32] = (cfg_wr && cfg_addr_i == drill_regs_pkg::DRILL_CNT_PORT_CLEAR_HI) ? cfg_wdata_i : '0;

  for (genvar k = 0; k < Kinds; k++) begin : g_kind
    always_comb begin
      kind_inc[k] = '0;
      for (int e = 0; e < Engines; e++) begin
        if (out_valid[e] && out_kind[e] == 3'(k)) kind_inc[k] = kind_inc[k] + 1'b1;
      end
    end
    drill_sat_acc #(.Width(CntW), .IncW(IncW)) u_cnt (
      .clk_i (clk_i), .rst_ni (rst_ni), .clr_i (kind_clr[k]), .inc_i (kind_inc[k]), .value_o (kind_cnt[k]));
  end

  for (genvar p = 0; p < Ports; p++) begin : g_pcnt
    always_comb begin
      port_inc[p] = '0;
      for (int e = 0; e < Engines; e++) begin
        if (out_valid[e] && !out_empty[e] && 32'(out_port[e]) == p) port_inc[p] = port_inc[p] + 1'b1;
      end
    end
    drill_sat_acc #(.Width(CntW), .IncW(IncW)) u_cnt (
      .clk_i (clk_i), .rst_ni (rst_ni), .clr_i (port_clr[p]), .inc_i (port_inc[p]), .value_o (port_cnt[p]));
  end

  // ---------------------------------------------------------------- register reads
  logic [31:0] rdata_d;
  logic [5:0]  cnt_idx;
  assign cnt_idx = cfg_addr_i[7:2];
  always_comb begin
    rdata_d = '0;
    case (cfg_addr_i)
      drill_regs_pkg::DRILL_ID:                  rdata_d = drill_regs_pkg::DRILL_ID_VALUE;
      drill_regs_pkg::DRILL_PARAMS:              rdata_d = {2'b00, 4'(OccLag), 4'(Latency), 4'(Engines),
                                                            6'(M), 4'(D), 8'(Ports)};
      drill_regs_pkg::DRILL_PARAMS2:             rdata_d = {1'b0, 5'(FlowAw), 7'(Comps), 7'(Groups),
                                                            6'(HashW), 6'(OccW)};
      drill_regs_pkg::DRILL_STATUS:              rdata_d = {28'h0, mode_q, init_done};
      drill_regs_pkg::DRILL_STAGE_MODE:          rdata_d = {29'h0, stage_mode_q};
      drill_regs_pkg::DRILL_STAGE_MASK_LO:       rdata_d = stage_mask_lo_q;
      drill_regs_pkg::DRILL_STAGE_MASK_HI:       rdata_d = stage_mask_hi_q;
      drill_regs_pkg::DRILL_STAGE_GROUP_WEIGHTS: rdata_d = stage_gw_q;
      drill_regs_pkg::DRILL_STAGE_GROUP_COMPS:   rdata_d = stage_gc_q;
      drill_regs_pkg::DRILL_CNT_ECMP:            rdata_d = 32'(kind_cnt[0]);
      drill_regs_pkg::DRILL_CNT_RANDOM:          rdata_d = 32'(kind_cnt[1]);
      drill_regs_pkg::DRILL_CNT_RR:              rdata_d = 32'(kind_cnt[2]);
      drill_regs_pkg::DRILL_CNT_DRILL:           rdata_d = 32'(kind_cnt[3]);
      drill_regs_pkg::DRILL_CNT_FLOW_NEW:        rdata_d = 32'(kind_cnt[4]);
      drill_regs_pkg::DRILL_CNT_FLOW_PINNED:     rdata_d = 32'(kind_cnt[5]);
      drill_regs_pkg::DRILL_CNT_EMPTY:           rdata_d = 32'(kind_cnt[6]);
      default: begin
        if (cfg_addr_i[11:8] == drill_regs_pkg::DRILL_CNT_PORT_BASE[11:8] && cfg_addr_i[1:0] == 2'b00) begin
          for (int p = 0; p < Ports; p++) begin
            if (32'(cnt_idx) == p) rdata_d = 32'(port_cnt[p]);
          end
        end
      end
    endcase
  end
  ll_cfg_read u_cfg_read (
    .clk_i (clk_i), .rst_ni (rst_ni), .re_i (cfg_re_i), .data_i (rdata_d),
    .rdata_o (cfg_rdata_o), .rvalid_o (cfg_rvalid_o)
  );

  // ---------------------------------------------------------------- assertions
`ifndef SYNTHESIS
  // valid/ready on every engine input (the shared checker, one instance per engine slot;
  // slots past Engines are never valid); the live mode is always legal
  for (genvar e = 0; e < MaxE; e++) begin : g_vr_in
    ll_vr_stable #(.W(HashW + Ports + GrpAw + 1), .Input(1'b1)) u_vr_in (
      .clk_i (clk_i), .rst_ni (rst_ni), .valid_i (e < Engines && in_valid[e]), .ready_i (ready[e]),
      .data_i ({in_hash[e], in_mask[e], in_grp_en[e], in_grp[e]})
    );
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) `LL_ASSERT(mode_q <= ModeLast, ("drill: illegal live mode %0d", mode_q))
  end
`endif
endmodule

`default_nettype wire
