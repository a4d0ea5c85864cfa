// marker_top: RED/ECN marker, the congestion point of DCQCN (design note: docs/marker.md;
// DCQCN paper, SIGCOMM 2015, section 3.1).
//
// One event per cycle: an enqueue or dequeue of a packet at queue ev_queue_i
// (queue = port * priorities + priority) with the queue length ev_qlen_i in bytes
// that the switch wants judged. Every accepted event leaves, in order, as one
// result (pass / mark / drop) on dec_*_o 6 cycles after it was accepted (more only
// while dec_ready_i holds the pipeline).
//
// Pipeline (a stall holds every stage: adv = !dec_valid_o || dec_ready_i)
//   accept : ev_valid_i && ev_ready_o; RAM reads of qmap[queue] and ewma[queue]
//   S0     : profile lookup (a snapshot of the whole row travels on); the EWMA word
//            with the words still on their way to the RAM forwarded
//   S1     : EWMA update and write-back on enqueue events (marker_ewma), with the
//            word of the event just ahead forwarded
//   S2     : the judged length (average or instantaneous); threshold tests against
//            Kmin and Kmax (marker_thresh)
//   S3     : (qeff - Kmin) * M; the event's PRNG draw, shifted to the profile's scale
//   S4     : random test (marker_prob)
//   out    : registered result on dec_*_o
// Tables: qmap (queue -> profile, RAM), ewma (per queue, RAM, QW.8 fixed point),
// profiles (Profiles rows of flops, loaded atomically from the STAGE_* shadow
// registers by PROFILE_COMMIT). After reset both RAMs are swept to zero; no event
// is accepted and every register write is ignored until init_done_o.
// Register map: docs/marker_regmap.md (source rtl/marker/marker_regs.json).
`default_nettype none

// The assertion macros: flows list rtl/common/ll_assert.svh first; a file linted on its own
// finds it through -I rtl/common.
`ifndef LL_ASSERT_SVH
`include "ll_assert.svh"
`endif

module marker_top #(
  parameter int          Queues   = 64,   // queues (ports x priorities), 2..65536
  parameter int          Profiles = 4,    // marking profiles, 1..256
  parameter int          QW       = 24,   // queue-length width in bytes, 8..32
  parameter int          CntW     = 32,   // statistics counter width, 1..32
  parameter logic [63:0] Seed     = 64'h0123_4567_89AB_CDEF,  // PRNG seed
  // derived, do not override
  parameter int          QIdxW    = (Queues > 1) ? $clog2(Queues) : 1,
  parameter int          PidW     = (Profiles > 1) ? $clog2(Profiles) : 1
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  // events
  input  wire logic             ev_valid_i,
  output logic                  ev_ready_o,
  input  wire logic             ev_deq_i,       // 1: dequeue event, 0: enqueue event
  input  wire logic [QIdxW-1:0] ev_queue_i,
  input  wire logic [QW-1:0]    ev_qlen_i,      // bytes
  input  wire logic             ev_ect_i,       // packet is ECN-capable
  input  wire logic             ev_lossless_i,  // packet belongs to a lossless class
  // results
  output logic                  dec_valid_o,
  input  wire logic             dec_ready_i,
  output logic      [QIdxW-1:0] dec_queue_o,
  output logic                  dec_mark_o,     // set CE
  output logic                  dec_drop_o,     // RED drop (lossy not-ECT only)
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
    // params.py: begin generated checks (rtl/marker/marker_params.json)
    if (!((Queues >= 2 && Queues <= 65536))) $error("marker_top: Queues must be in 2..65536");
    if (!((Profiles >= 1 && Profiles <= 256))) $error("marker_top: Profiles must be in 1..256");
    if (!((QW >= 8 && QW <= 32))) $error("marker_top: QW must be in 8..32");
    if (!((CntW >= 1 && CntW <= 32))) $error("marker_top: CntW must be in 1..32");
    if (!(QIdxW == ($clog2(Queues)))) $error("marker_top: QIdxW is derived; do not override it");
    if (!(PidW == ((Profiles > 1) ? $clog2(Profiles) : 1))) $error("marker_top: PidW is derived; do not override it");
    // params.py: end generated checks
  end

  localparam int AW = QW + 8;  // EWMA width (QW.8)

  // ---------------------------------------------------------------- init sweep
  logic             sweep_we;
  logic [QIdxW-1:0] sweep_addr;
  logic             init_done;

  ll_init_sweep #(.Depth(Queues)) u_sweep (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .we_o   (sweep_we),
    .addr_o (sweep_addr),
    .done_o (init_done)
  );
  assign init_done_o = init_done;

  // ---------------------------------------------------------------- registers
  logic [31:0] stage_kmin_q, stage_kmax_q, stage_slope_q, stage_flags_q;
  logic [QW-1:0] prof_kmin_q [Profiles];
  logic [QW-1:0] prof_kmax_q [Profiles];
  logic [15:0]   prof_m_q    [Profiles];
  logic [5:0]    prof_sh_q   [Profiles];  // the random test's shift 48 - min(E, 48)
  logic [7:0]    prof_flags_q[Profiles];

  logic cfg_wr;
  assign cfg_wr = cfg_we_i && init_done;

  logic commit, qmap_wr;
  logic [7:0]  commit_idx;
  logic [15:0] qmap_queue;
  logic [7:0]  qmap_prof;
  assign commit     = cfg_wr && (cfg_addr_i == marker_regs_pkg::MARKER_PROFILE_COMMIT);
  assign commit_idx = cfg_wdata_i[7:0];
  assign qmap_queue = cfg_wdata_i[15:0];
  assign qmap_prof  = cfg_wdata_i[23:16];
  assign qmap_wr    = cfg_wr && (cfg_addr_i == marker_regs_pkg::MARKER_QMAP_WRITE)
                      && (32'(qmap_queue) < Queues) && (32'(qmap_prof) < Profiles);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      stage_kmin_q  <= '0;
      stage_kmax_q  <= '0;
      stage_slope_q <= '0;
      stage_flags_q <= '0;
    end else if (cfg_wr) begin
      case (cfg_addr_i)
        marker_regs_pkg::MARKER_STAGE_KMIN:  stage_kmin_q  <= cfg_wdata_i;
        marker_regs_pkg::MARKER_STAGE_KMAX:  stage_kmax_q  <= cfg_wdata_i;
        marker_regs_pkg::MARKER_STAGE_SLOPE: stage_slope_q <= {10'h000, cfg_wdata_i[21:0]};
        marker_regs_pkg::MARKER_STAGE_FLAGS: stage_flags_q <= {24'h000000, cfg_wdata_i[7:0]};
        default: ;
      endcase
    end
  end

  // The random test compares the top min(E, 48) bits of a 48-bit draw (marker_prob): a
  // profile keeps the shift 48 - min(E, 48) that takes them, computed here when the row
  // is committed, so stage S4 starts from a register (E above 48 acts as 48)
  logic [5:0] stage_e, stage_shift;
  assign stage_e     = stage_slope_q[21:16];
  assign stage_shift = 6'd48 - ((stage_e > 6'd48) ? 6'd48 : stage_e);

  for (genvar p = 0; p < Profiles; p++) begin : g_prof
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        prof_kmin_q[p]  <= '0;
        prof_kmax_q[p]  <= '0;
        prof_m_q[p]     <= '0;
        prof_sh_q[p]    <= '0;
        prof_flags_q[p] <= '0;
      end else if (commit && (32'(commit_idx) == p)) begin
        prof_kmin_q[p]  <= stage_kmin_q[QW-1:0];
        prof_kmax_q[p]  <= stage_kmax_q[QW-1:0];
        prof_m_q[p]     <= stage_slope_q[15:0];
        prof_sh_q[p]    <= stage_shift;
        prof_flags_q[p] <= stage_flags_q[7:0];
      end
    end
  end

  // ---------------------------------------------------------------- pipeline
  logic adv, accept;
  logic dec_valid_q;
  assign adv        = !dec_valid_q || dec_ready_i;
  assign ev_ready_o = init_done && adv;
  assign accept     = ev_valid_i && ev_ready_o;

  // S0: the event with its RAM words (read at acceptance)
  logic             s0_valid_q, s0_deq_q, s0_ect_q, s0_lossless_q;
  logic [QIdxW-1:0] s0_queue_q;
  logic [QW-1:0]    s0_qlen_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      s0_valid_q <= 1'b0;
    end else if (adv) begin
      s0_valid_q <= accept;
    end
  end
  always_ff @(posedge clk_i) begin
    if (accept) begin
      s0_deq_q      <= ev_deq_i;
      s0_queue_q    <= ev_queue_i;
      s0_qlen_q     <= ev_qlen_i;
      s0_ect_q      <= ev_ect_i;
      s0_lossless_q <= ev_lossless_i;
    end
  end

  // qmap RAM: queue -> profile
  logic [PidW-1:0] pid_rd;
  ll_ram_1r1w #(.Width(PidW), .Depth(Queues)) u_qmap (
    .clk_i   (clk_i),
    .we_i    (sweep_we || qmap_wr),
    .waddr_i (sweep_we ? sweep_addr : qmap_queue[QIdxW-1:0]),
    .wdata_i (sweep_we ? '0 : qmap_prof[PidW-1:0]),
    .re_i    (accept),
    .raddr_i (ev_queue_i),
    .rdata_o (pid_rd)
  );

  // EWMA RAM, read at acceptance; S1 computes the update one stage later and writes it
  // back through a register (wb_*_q), so the RAM sees the write a cycle after S1. An event
  // accepted in cycle t therefore misses in the RAM the words of up to three events ahead
  // of it on the same queue, each forwarded, the newest winning:
  //   - the event in S1 when this one is in S0 (its word is in wb_avg_q when this one
  //     reaches S1): tested in S0, registered as s1_fwd_q, used in S1 (the RMW loop: a
  //     2:1 multiplexer in front of the update);
  //   - the event in S1 at acceptance (its word is in wb_avg_q in S0): fwd_new_q;
  //   - the registered write pending at acceptance (its word, captured then into
  //     fwd_avg_q, since S1 may overwrite wb_avg_q in t): fwd_old_q.
  // The last two are resolved in S0 into s1_avg_q, so S1 starts from registers. A stall
  // writes nothing new into wb_*_q and holds every choice; the only writers are the sweep
  // and S1.
  logic [AW-1:0]    avg_rd, avg_s0, avg_old, avg_new;
  logic             s1_wb;
  logic             wb_pend_q;
  logic [QIdxW-1:0] wb_queue_q;
  logic [AW-1:0]    wb_avg_q;
  logic             fwd_new_q, fwd_old_q;
  logic [AW-1:0]    fwd_avg_q;

  ll_ram_1r1w #(.Width(AW), .Depth(Queues)) u_ewma (
    .clk_i   (clk_i),
    .we_i    (sweep_we || wb_pend_q),
    .waddr_i (sweep_we ? sweep_addr : wb_queue_q),
    .wdata_i (sweep_we ? '0 : wb_avg_q),
    .re_i    (accept),
    .raddr_i (ev_queue_i),
    .rdata_o (avg_rd)
  );

  always_ff @(posedge clk_i) begin
    if (!rst_ni) wb_pend_q <= 1'b0;
    else         wb_pend_q <= s1_wb;
  end
  always_ff @(posedge clk_i) begin
    if (s1_wb) begin
      wb_queue_q <= s1_queue_q;
      wb_avg_q   <= avg_new;
    end
  end
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      fwd_new_q <= 1'b0;
      fwd_old_q <= 1'b0;
    end else if (accept) begin
      fwd_new_q <= s1_wb && (s1_queue_q == ev_queue_i);
      fwd_old_q <= wb_pend_q && (wb_queue_q == ev_queue_i);
    end
  end
  always_ff @(posedge clk_i) begin
    if (accept) fwd_avg_q <= wb_avg_q;
  end
  assign avg_s0 = fwd_new_q ? wb_avg_q : fwd_old_q ? fwd_avg_q : avg_rd;  // newest first

  // S0 -> S1: the profile snapshot (the whole row travels on, so a commit never tears a
  // decision), the event and its EWMA word
  logic [PidW-1:0]  pid;
  logic             s1_valid_q, s1_deq_q, s1_ect_q, s1_lossless_q, s1_fwd_q;
  logic [QIdxW-1:0] s1_queue_q;
  logic [QW-1:0]    s1_qlen_q, s1_kmin_q, s1_kmax_q;
  logic [15:0]      s1_m_q;
  logic [5:0]       s1_sh_q;
  logic [7:0]       s1_flags_q;
  logic [AW-1:0]    s1_avg_q;
  assign pid = (32'(pid_rd) < Profiles) ? pid_rd : '0;  // guard for non-power-of-two Profiles

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      s1_valid_q <= 1'b0;
    end else if (adv) begin
      s1_valid_q <= s0_valid_q;
    end
  end
  always_ff @(posedge clk_i) begin
    if (adv && s0_valid_q) begin
      s1_deq_q      <= s0_deq_q;
      s1_queue_q    <= s0_queue_q;
      s1_qlen_q     <= s0_qlen_q;
      s1_ect_q      <= s0_ect_q;
      s1_lossless_q <= s0_lossless_q;
      s1_fwd_q      <= s1_wb && (s1_queue_q == s0_queue_q);
      s1_avg_q      <= avg_s0;
      s1_kmin_q     <= prof_kmin_q[pid];
      s1_kmax_q     <= prof_kmax_q[pid];
      s1_m_q        <= prof_m_q[pid];
      s1_sh_q       <= prof_sh_q[pid];
      s1_flags_q    <= prof_flags_q[pid];
    end
  end

  // S1: the EWMA read-modify-write
  assign s1_wb   = s1_valid_q && adv && !s1_deq_q;
  assign avg_old = s1_fwd_q ? wb_avg_q : s1_avg_q;

  marker_ewma #(.QW(QW)) u_ewma_upd (
    .w_i    (s1_flags_q[7:4]),
    .qlen_i (s1_qlen_q),
    .avg_i  (avg_old),
    .avg_o  (avg_new)
  );

  // The judged length qeff is the average after the event in EWMA mode (the update on
  // an enqueue, the average as read on a dequeue), else the event's length. S2 makes the
  // last choice, so S1 ends at the update: S1 registers the update (s2_upd_q), the
  // other candidate (s2_alt_q) and whether the update is taken.
  logic             s2_valid_q, s2_deq_q, s2_ect_q, s2_lossless_q, s2_use_upd_q;
  logic [QIdxW-1:0] s2_queue_q;
  logic [QW-1:0]    s2_upd_q, s2_alt_q, s2_kmin_q, s2_kmax_q, s2_qeff;
  logic [15:0]      s2_m_q;
  logic [5:0]       s2_sh_q;
  logic             s2_enable_q, s2_point_q, s2_drop_en_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) s2_valid_q <= 1'b0;
    else if (adv) s2_valid_q <= s1_valid_q;
  end
  always_ff @(posedge clk_i) begin
    if (adv && s1_valid_q) begin
      s2_deq_q      <= s1_deq_q;
      s2_ect_q      <= s1_ect_q;
      s2_lossless_q <= s1_lossless_q;
      s2_queue_q    <= s1_queue_q;
      s2_upd_q      <= avg_new[QW+7:8];
      s2_alt_q      <= (s1_flags_q[1] && s1_deq_q) ? avg_old[QW+7:8] : s1_qlen_q;
      s2_use_upd_q  <= s1_flags_q[1] && !s1_deq_q;
      s2_kmin_q     <= s1_kmin_q;
      s2_kmax_q     <= s1_kmax_q;
      s2_m_q        <= s1_m_q;
      s2_sh_q       <= s1_sh_q;
      s2_enable_q   <= s1_flags_q[0];
      s2_point_q    <= s1_flags_q[2];
      s2_drop_en_q  <= s1_flags_q[3];
    end
  end
  assign s2_qeff = s2_use_upd_q ? s2_upd_q : s2_alt_q;

  // S2: threshold tests
  logic          above, linear, act_mark, act_drop;
  logic [QW-1:0] excess;
  marker_thresh #(.QW(QW)) u_thresh (
    .kmin_i      (s2_kmin_q),
    .kmax_i      (s2_kmax_q),
    .enable_i    (s2_enable_q),
    .deq_point_i (s2_point_q),
    .drop_en_i   (s2_drop_en_q),
    .deq_i       (s2_deq_q),
    .qeff_i      (s2_qeff),
    .ect_i       (s2_ect_q),
    .lossless_i  (s2_lossless_q),
    .above_o     (above),
    .linear_o    (linear),
    .excess_o    (excess),
    .act_mark_o  (act_mark),
    .act_drop_o  (act_drop)
  );

  logic             s3_valid_q, s3_above_q, s3_linear_q, s3_act_mark_q, s3_act_drop_q;
  logic [QIdxW-1:0] s3_queue_q;
  logic [QW-1:0]    s3_excess_q;
  logic [15:0]      s3_m_q;
  logic [5:0]       s3_sh_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) s3_valid_q <= 1'b0;
    else if (adv) s3_valid_q <= s2_valid_q;
  end
  always_ff @(posedge clk_i) begin
    if (adv && s2_valid_q) begin
      s3_queue_q    <= s2_queue_q;
      s3_above_q    <= above;
      s3_linear_q   <= linear;
      s3_excess_q   <= excess;
      s3_m_q        <= s2_m_q;
      s3_sh_q       <= s2_sh_q;
      s3_act_mark_q <= act_mark;
      s3_act_drop_q <= act_drop;
    end
  end

  // S3: the multiply (excess * M, as two 8-bit halves of M: S4 adds them inside its
  // comparison, so neither stage has a 40-bit carry after a multiplier) and the draw the
  // event will be judged with, shifted.
  // The PRNG runs one draw ahead: draw_q is the current draw (the one an event leaving S4
  // now uses) and the generator's own output register already holds the next. An event
  // entering S4 is judged with the next draw if S4's event leaves at the same edge, else
  // with the current one; so its shifted draw r = draw >> (48 - min(E, 48)) is formed here
  // and S4 starts from registers (marker_prob). The stream is the same as drawing at S4:
  // one step per event leaving S4, plus one priming step when init_done_o rises (no event
  // can be in the pipeline then), which loads draw_q with the reset state's draw.
  localparam int PW = QW + 16;  // product width
  logic             s4_valid_q, s4_mark_sure_q, s4_mark_test_q, s4_drop_sure_q, s4_drop_test_q;
  logic [QIdxW-1:0] s4_queue_q;
  logic [QW+7:0]    s4_plo_q, s4_phi_q;  // excess * M[7:0], excess * M[15:8]
  logic [PW-1:0]    s4_r_q;
  logic             r_high_s3, test_s3;
  logic [63:0] rnd;             // the next draw (ll_prng's output register)
  logic [47:0] draw_q, draw_s3, r_s3;
  logic        leave, prime, primed_q;
  assign leave = s4_valid_q && adv;
  assign prime = init_done && !primed_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) primed_q <= 1'b0;
    else         primed_q <= init_done;
  end
  ll_prng #(.Seed(Seed)) u_prng (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .en_i   (leave || prime),
    .rand_o (rnd)
  );
  always_ff @(posedge clk_i) begin
    if (leave || prime) draw_q <= rnd[63:16];
  end
  assign draw_s3 = leave ? rnd[63:16] : draw_q;
  assign r_s3    = draw_s3 >> s3_sh_q;
  // the linear part is judged by the comparison unless the shifted draw has a bit set
  // above the product's width (then r >= 2^PW > prod; never when PW = 48)
  assign r_high_s3 = |(r_s3 >> PW);
  assign test_s3   = s3_linear_q && !r_high_s3;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) s4_valid_q <= 1'b0;
    else if (adv) s4_valid_q <= s3_valid_q;
  end
  always_ff @(posedge clk_i) begin
    if (adv && s3_valid_q) begin
      s4_queue_q     <= s3_queue_q;
      s4_plo_q       <= s3_excess_q * s3_m_q[7:0];
      s4_phi_q       <= s3_excess_q * s3_m_q[15:8];
      s4_r_q         <= r_s3[PW-1:0];
      s4_mark_sure_q <= s3_above_q && s3_act_mark_q;
      s4_mark_test_q <= test_s3 && s3_act_mark_q;
      s4_drop_sure_q <= s3_above_q && s3_act_drop_q;
      s4_drop_test_q <= test_s3 && s3_act_drop_q;
    end
  end

  // S4: the random test
  logic mark, drop;
  marker_prob #(.PW(PW)) u_prob (
    .plo_i       (s4_plo_q),
    .phi_i       (s4_phi_q),
    .r_i         (s4_r_q),
    .mark_sure_i (s4_mark_sure_q),
    .mark_test_i (s4_mark_test_q),
    .drop_sure_i (s4_drop_sure_q),
    .drop_test_i (s4_drop_test_q),
    .mark_o      (mark),
    .drop_o      (drop)
  );

  // output register
  logic [QIdxW-1:0] dec_queue_q;
  logic             dec_mark_q, dec_drop_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      dec_valid_q <= 1'b0;
    end else if (adv) begin
      dec_valid_q <= s4_valid_q;
    end
  end
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      dec_queue_q <= '0;
      dec_mark_q  <= 1'b0;
      dec_drop_q  <= 1'b0;
    end else if (adv) begin
      dec_queue_q <= s4_valid_q ? s4_queue_q : '0;
      dec_mark_q  <= s4_valid_q && mark;
      dec_drop_q  <= s4_valid_q && drop;
    end
  end
  assign dec_valid_o = dec_valid_q;
  assign dec_queue_o = dec_queue_q;
  assign dec_mark_o  = dec_mark_q;
  assign dec_drop_o  = dec_drop_q;

  // ---------------------------------------------------------------- counters
  logic clr_dec, clr_mark, clr_drop;
  logic [CntW-1:0] cnt_dec, cnt_mark, cnt_drop;
  assign clr_dec  = cfg_wr && (cfg_addr_i == marker_regs_pkg::MARKER_CNT_CLEAR) && cfg_wdata_i[0];
  assign clr_mark = cfg_wr && (cfg_addr_i == marker_regs_pkg::MARKER_CNT_CLEAR) && cfg_wdata_i[1];
  assign clr_drop = cfg_wr && (cfg_addr_i == marker_regs_pkg::MARKER_CNT_CLEAR) && cfg_wdata_i[2];

  ll_sat_counter #(.Width(CntW)) u_cnt_dec (
    .clk_i (clk_i), .rst_ni (rst_ni), .clr_i (clr_dec), .inc_i (leave), .value_o (cnt_dec));
  ll_sat_counter #(.Width(CntW)) u_cnt_mark (
    .clk_i (clk_i), .rst_ni (rst_ni), .clr_i (clr_mark), .inc_i (leave && mark), .value_o (cnt_mark));
  ll_sat_counter #(.Width(CntW)) u_cnt_drop (
    .clk_i (clk_i), .rst_ni (rst_ni), .clr_i (clr_drop), .inc_i (leave && drop), .value_o (cnt_drop));

  // ---------------------------------------------------------------- register reads
  logic [31:0] rdata_d;
  always_comb begin
    rdata_d = '0;
    case (cfg_addr_i)
      marker_regs_pkg::MARKER_ID:          rdata_d = marker_regs_pkg::MARKER_ID_VALUE;
      // The outer 8'() is for Yosys 0.23: it sizes a bare `8'(x) + 8'd1` inside a
      // concatenation as 32 bits and so dropped QW from the netlist (make gates found it).
      marker_regs_pkg::MARKER_PARAMS:      rdata_d = {2'b00, 6'(QW), 8'(8'(Profiles - 1) + 8'd1), 16'(Queues)};
      marker_regs_pkg::MARKER_STATUS:      rdata_d = {31'h0, init_done};
      marker_regs_pkg::MARKER_STAGE_KMIN:  rdata_d = stage_kmin_q;
      marker_regs_pkg::MARKER_STAGE_KMAX:  rdata_d = stage_kmax_q;
      marker_regs_pkg::MARKER_STAGE_SLOPE: rdata_d = stage_slope_q;
      marker_regs_pkg::MARKER_STAGE_FLAGS: rdata_d = stage_flags_q;
      marker_regs_pkg::MARKER_CNT_DECISIONS: rdata_d = 32'(cnt_dec);
      marker_regs_pkg::MARKER_CNT_MARKS:   rdata_d = 32'(cnt_mark);
      marker_regs_pkg::MARKER_CNT_DROPS:   rdata_d = 32'(cnt_drop);
      default:                             rdata_d = '0;
    endcase
  end
  ll_cfg_read u_cfg_read (
    .clk_i (clk_i), .rst_ni (rst_ni), .re_i (cfg_re_i), .data_i (rdata_d),
    .rdata_o (cfg_rdata_o), .rvalid_o (cfg_rvalid_o)
  );

  // ---------------------------------------------------------------- assertions
`ifndef SYNTHESIS
  // valid/ready on the event input and the decision output (the shared checker)
  ll_vr_stable #(.W(QIdxW + QW + 3), .Input(1'b1)) u_vr_ev (
    .clk_i (clk_i), .rst_ni (rst_ni), .valid_i (ev_valid_i), .ready_i (ev_ready_o),
    .data_i ({ev_deq_i, ev_queue_i, ev_qlen_i, ev_ect_i, ev_lossless_i})
  );
  ll_vr_stable #(.W(QIdxW + 2)) u_vr_dec (
    .clk_i (clk_i), .rst_ni (rst_ni), .valid_i (dec_valid_o), .ready_i (dec_ready_i),
    .data_i ({dec_queue_o, dec_mark_o, dec_drop_o})
  );
  // inputs: an accepted event names a queue (the RAMs have no entry past Queues - 1), in
  // reset too (ev_ready_o can be high in a reset cycle, and the RAMs read on accept)
  always_ff @(posedge clk_i) begin
    if (ev_valid_i && ev_ready_o) `LL_ASSUME(`LL_INRANGE(ev_queue_i, Queues), ("marker_top: event queue %0d >= Queues", ev_queue_i))
  end
  logic a_live_q;
  always @(posedge clk_i) begin
    a_live_q <= rst_ni;
    if (rst_ni && a_live_q) begin
      `LL_ASSERT(!(dec_mark_o && dec_drop_o), ("marker_top: mark and drop at once"))
      // bounds: the profile row read in S0 exists (qmap holds only profile ids < Profiles)
      if (s0_valid_q) `LL_ASSERT(`LL_INRANGE(pid_rd, Profiles), ("marker_top: profile id %0d >= Profiles", pid_rd))
      `LL_ASSERT(!(dec_valid_o === 1'b0 && (dec_mark_o || dec_drop_o)),
        ("marker_top: result flags set without dec_valid_o"))
    end
  end
`endif
endmodule

`default_nettype wire
