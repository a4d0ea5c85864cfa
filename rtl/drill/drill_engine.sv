// drill_engine: one DRILL forwarding engine (design note: docs/drill.md; DRILL paper,
// SIGCOMM 2017). One packet per cycle in, one decision per cycle out, fixed latency
// Latency = 5 + 2 * (Groups > 0) cycles from acceptance to out_valid_o.
//
// Pipeline (no stalls; every stage advances every cycle):
//   A  : accepted packet registered; group RAM read (Groups > 0)
//   B  : (Groups > 0 only) weighted hash of the flow over the group's 4 slots picks a
//        component (registered)
//   C  : (Groups > 0 only) component RAM read gives its port mask
//   Q0 : candidate set S fixed; byte popcounts and prefix counts of S; each sample's rank
//        scale |S| - j; one PRNG draw of ceil(D*(clog2(Ports)+10)/64) 64-bit words (its
//        top D*(clog2(Ports)+10) bits registered, sample 0's field replaced by the ECMP
//        operand in ECMP mode)
//   Q1 : ranks of the d samples in S (uniform, without replacement), or the ECMP /
//        round-robin rank; round-robin state update; up to 16 ports, each port's prefix
//        count (set bits of S below it); with two samples up to 16 ports, sample 1's skip
//        over sample 0's rank is left to Q2
//   Q2 : rank -> port (up to 16 ports a one-hot match of rank and prefix count, above 16
//        the k-th set bit); up to 16 ports the samples' occupancies from the view of the
//        next cycle (the one Q3 decides in), registered; flow-table RAM read
//   Q3 : minimum over the samples and the memory entries (whose occupancies follow the
//        view in registers of their own) with the documented tie-break, memory update,
//        flow-table pin/repin, output register
// The memory (m port ids) and the round-robin counter are each read and written in
// a single stage, so back-to-back packets of one engine always see each other's
// updates; the flow table (RAM, read in Q2, written in Q3) forwards the last write.
`default_nettype none

// The assertion macros: flows list rtl/common/ll_assert.svh first; a file linted on its own
// finds it through -I rtl/common.
`ifndef LL_ASSERT_SVH
`include "ll_assert.svh"
`endif
// The register map's mode constants: flows list drill_regs_pkg.sv before this file; a
// list in another order (or this file alone, with -I rtl/drill) reads it here first.
`ifndef DRILL_REGS_PKG_SV
`include "drill_regs_pkg.sv"
`endif

module drill_engine #(
  parameter int          Ports       = 16,  // output ports N, 2..64
  parameter int          OccW        = 16,  // queue-occupancy width, 1..32
  parameter int          D           = 2,   // samples per decision d, 1..15
  parameter int          M           = 1,   // memory entries m, 0..32
  parameter int          HashW       = 16,  // flow-hash width, 8..32
  parameter int          Groups      = 4,   // group-table rows; 0 = no component stage
  parameter int          Comps       = 8,   // component-table rows, 2..64 (if Groups > 0)
  parameter int          FlowEntries = 64,  // per-flow table entries, power of 2, 2..65536
  parameter int          SweepAw     = 6,   // width of the shared sweep address
  parameter logic [63:0] Seed        = 64'h0123_4567_89AB_CDEF,  // PRNG seed of this engine
  // derived, do not override
  parameter int          PortAw      = $clog2(Ports),
  parameter int          GrpAw       = (Groups > 1) ? $clog2(Groups) : 1
) (
  input  wire logic                    clk_i,
  input  wire logic                    rst_ni,       // synchronous, active low
  // post-reset sweep (shared ll_init_sweep in drill)
  input  wire logic                    sweep_we_i,
  input  wire logic [SweepAw-1:0]      sweep_addr_i,
  // live mode (captured per packet at acceptance)
  input  wire logic [2:0]              mode_i,
  // packet in (accept = valid; the caller gates it with ready)
  input  wire logic                    in_accept_i,
  input  wire logic [HashW-1:0]        in_hash_i,
  input  wire logic [Ports-1:0]        in_mask_i,    // candidate set when !in_grp_en_i
  input  wire logic                    in_grp_en_i,  // candidate set from the group table
  input  wire logic [GrpAw-1:0]        in_grp_i,
  // shared occupancy view, port p at [p*OccW +: OccW]: this cycle's (occ_view_i, read in
  // Q3 above 16 ports), the next cycle's (occ_next_i, read in Q2 up to 16 ports), and the
  // one change the view takes at this clock edge (occ_rst_i: every port to 0; occ_we_i:
  // port occ_port_i to occ_val_i)
  input  wire logic [Ports*OccW-1:0]   occ_view_i,
  input  wire logic [Ports*OccW-1:0]   occ_next_i,
  input  wire logic                    occ_rst_i,
  input  wire logic                    occ_we_i,
  input  wire logic [PortAw-1:0]       occ_port_i,
  input  wire logic [OccW-1:0]         occ_val_i,
  // table writes (commits from the register block)
  input  wire logic                    grp_we_i,
  input  wire logic [7:0]              grp_waddr_i,
  input  wire logic [71:0]             grp_wdata_i,  // {C3,C2,C1,C0 (8b), S3,S2,S1,S0 (10b)}, Ss = W0+..+Ws
  input  wire logic                    comp_we_i,
  input  wire logic [7:0]              comp_waddr_i,
  input  wire logic [Ports-1:0]        comp_wdata_i,
  // decision out
  output logic                         out_valid_o,
  output logic      [PortAw-1:0]       out_port_o,   // 0 when !out_valid_o or empty
  output logic                         out_empty_o,  // the candidate set was empty
  output logic      [2:0]              out_kind_o    // counter class: 0..3 = mode, 4 flow new, 5 flow pinned, 6 empty
);
  // ---------------------------------------------------------------- parameters
  localparam int FlowAw = (FlowEntries > 1) ? $clog2(FlowEntries) : 1;
  localparam int TagW   = HashW - FlowAw;
  localparam int CntB   = $clog2(Ports + 1);
  localparam int RandB  = $clog2(Ports) + 10;     // random bits per sample
  localparam int RndW   = (D * RandB + 63) / 64;  // 64-bit PRNG words per decision
  localparam int NB     = (Ports + 7) / 8;
  localparam int K      = D + M;                  // candidates per decision
  localparam int MM     = (M > 0) ? M : 1;        // array size for the memory
  localparam int RkW    = $clog2(K + 1);          // rank width
  localparam int Hc     = (HashW < 16) ? HashW : 16;  // hash bits for the component choice
  localparam int CompAw = (Comps > 1) ? $clog2(Comps) : 1;
  localparam int GrpD   = (Groups > 1) ? Groups : 2;  // RAM depths (unused if Groups == 0)
  localparam int CompD  = (Comps > 1) ? Comps : 2;
  localparam int FlowW  = 1 + TagW + PortAw;      // {valid, tag, port}
  // a port index field can name no port past the last (Ports a power of two): the range
  // tests of the candidates below are then left out altogether
  localparam bit AllIdx = (Ports == (1 << PortAw));

  // modes and counter classes (values match drill_regs.json)
  // decision modes: the register map's MODE_* constants
  localparam logic [2:0] ModeEcmp   = 3'(drill_regs_pkg::DRILL_MODE_ECMP);
  localparam logic [2:0] ModeRandom = 3'(drill_regs_pkg::DRILL_MODE_RANDOM);
  localparam logic [2:0] ModeRr     = 3'(drill_regs_pkg::DRILL_MODE_RR);
  localparam logic [2:0] ModeDrill  = 3'(drill_regs_pkg::DRILL_MODE_DRILL);
  localparam logic [2:0] ModeFlow   = 3'(drill_regs_pkg::DRILL_MODE_FLOW);
  localparam logic [2:0] KindFlowNew = 3'd4, KindFlowPinned = 3'd5, KindEmpty = 3'd6;

  initial begin
    if ((1 << SweepAw) < FlowEntries || (1 << SweepAw) < Groups || (1 << SweepAw) < Comps)
      $error("drill_engine: SweepAw too small for the tables");
    // params.py: begin generated checks (rtl/drill/drill_params.json)
    if (!((Ports >= 2 && Ports <= 64))) $error("drill_engine: Ports must be in 2..64");
    if (!((OccW >= 1 && OccW <= 32))) $error("drill_engine: OccW must be in 1..32");
    if (!((D >= 1 && D <= 15))) $error("drill_engine: D must be in 1..15");
    if (!((M >= 0 && M <= 32))) $error("drill_engine: M must be in 0..32");
    if (!((HashW >= 8 && HashW <= 32))) $error("drill_engine: HashW must be in 8..32");
    if (!((Groups == 0 || (Groups >= 2 && Groups <= 64)))) $error("drill_engine: Groups must be 0 or in 2..64");
    if (!((Comps >= 2 && Comps <= 64))) $error("drill_engine: Comps must be in 2..64");
    if (!(((FlowEntries >= 2 && FlowEntries <= 65536) && ((FlowEntries & (FlowEntries - 1)) == 0)))) $error("drill_engine: FlowEntries must be a power of 2 in 2..65536");
    if (!(PortAw == ($clog2(Ports)))) $error("drill_engine: PortAw is derived; do not override it");
    if (!(GrpAw == ((Groups > 1) ? $clog2(Groups) : 1))) $error("drill_engine: GrpAw is derived; do not override it");
    if (!(HashW > $clog2(FlowEntries))) $error("drill_engine: HashW must exceed log2(FlowEntries)");
    // params.py: end generated checks
  end

  // ---------------------------------------------------------------- stage A
  logic             a_valid_q;
  logic [2:0]       a_mode_q;
  logic [HashW-1:0] a_hash_q;
  logic [Ports-1:0] a_mask_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) a_valid_q <= 1'b0;
    else         a_valid_q <= in_accept_i;
  end
  always_ff @(posedge clk_i) begin
    a_mode_q   <= mode_i;
    a_hash_q   <= in_hash_i;
    a_mask_q   <= in_mask_i;
  end

  // ---------------------------------------------------------------- stage B (components)
  logic             s0_valid;
  logic [2:0]       s0_mode;
  logic [HashW-1:0] s0_hash;
  logic [Ports-1:0] s0_set;

  if (Groups > 0) begin : g_comp
    logic [71:0]      grp_rd;
    logic [Ports-1:0] comp_rd;
    logic             a_grp_en_q, a_grp_ok_q;

    always_ff @(posedge clk_i) begin
      a_grp_en_q <= in_grp_en_i;
      a_grp_ok_q <= (32'(in_grp_i) < Groups);
    end

    ll_ram_1r1w #(.Width(72), .Depth(GrpD)) u_grp (
      .clk_i   (clk_i),
      .we_i    (sweep_we_i ? (32'(sweep_addr_i) < Groups) : (grp_we_i && (32'(grp_waddr_i) < Groups))),
      .waddr_i (sweep_we_i ? sweep_addr_i[GrpAw-1:0] : grp_waddr_i[GrpAw-1:0]),
      .wdata_i (sweep_we_i ? 72'd0 : grp_wdata_i),
      .re_i    (1'b1),
      .raddr_i ((32'(in_grp_i) < Groups) ? in_grp_i : '0),  // ids >= Groups: row unused (a_grp_ok_q)
      .rdata_o (grp_rd)
    );

    // weighted choice: x = floor(h * W / 2^Hc) in [0, W); slot s is chosen when
    // W0 + .. + W(s-1) <= x < W0 + .. + Ws. The RAM row holds the prefix sums Ss
    // (computed at commit time), so no adder is in front of the multiplier.
    // Registered into stage B: the product, and per slot whether its component id is in
    // range, with the row fields the choice needs. S3 = W is not needed: x < W always
    // holds, so slot 3 is the choice when x is past S2 (W = 0 makes the choice unused).
    logic [9:0]        wsum;
    logic [9:0]        x;
    logic [Hc+9:0]     prod;
    logic [3:0]        id_ok;   // slot s names a component < Comps
    always_comb begin
      wsum = grp_rd[30 +: 10];
      prod = (Hc + 10)'(a_hash_q[HashW-1 -: Hc]) * (Hc + 10)'(wsum);
      x    = prod[Hc +: 10];
      for (int s = 0; s < 4; s++) id_ok[s] = (32'(grp_rd[40 + 8*s +: 8]) < Comps);
    end

    // stage B holds x; its compares against S0..S2 pick the slot, whose component id
    // addresses the component RAM (read into stage C) directly: the compares and the id
    // mux fit in front of the RAM's address setup (with the multiplier: up to 4.37 ns)
    logic             b_valid_q, b_grp_en_q, b_grp_ok_q;
    logic [2:0]       b_mode_q;
    logic [HashW-1:0] b_hash_q;
    logic [Ports-1:0] b_mask_q;
    logic [9:0]       b_x_q;
    logic [29:0]      b_sum_q;              // S0, S1, S2
    logic [4*CompAw-1:0] b_id_q;            // the slots' component ids (low CompAw bits)
    logic [3:0]       b_id_ok_q;
    always_ff @(posedge clk_i) begin
      if (!rst_ni) b_valid_q <= 1'b0;
      else         b_valid_q <= a_valid_q;
    end
    always_ff @(posedge clk_i) begin
      b_mode_q    <= a_mode_q;
      b_hash_q    <= a_hash_q;
      b_mask_q    <= a_mask_q;
      b_grp_en_q  <= a_grp_en_q;
      b_grp_ok_q  <= a_grp_en_q && a_grp_ok_q && (wsum != 10'd0);
      b_x_q       <= x;
      b_sum_q     <= grp_rd[29:0];
      b_id_ok_q   <= id_ok;
      for (int s = 0; s < 4; s++) b_id_q[s*CompAw +: CompAw] <= grp_rd[40 + 8*s +: CompAw];
    end

    logic [1:0]        slot;
    logic              comp_ok;
    logic [CompAw-1:0] b_comp_addr;  // ids >= Comps: row 0, unused (comp_ok)
    always_comb begin
      logic found;
      slot  = 2'd3;
      found = 1'b0;
      for (int s = 0; s < 3; s++) begin
        if (!found && (b_x_q < b_sum_q[10*s +: 10])) begin
          slot  = 2'(s);
          found = 1'b1;
        end
      end
      comp_ok     = b_grp_ok_q && b_id_ok_q[slot];
      b_comp_addr = b_id_ok_q[slot] ? b_id_q[slot*CompAw +: CompAw] : '0;
    end

    // stage C: the component RAM read (the port mask arrives with the c_* registers)
    ll_ram_1r1w #(.Width(Ports), .Depth(CompD)) u_comp (
      .clk_i   (clk_i),
      .we_i    (sweep_we_i ? (32'(sweep_addr_i) < Comps) : (comp_we_i && (32'(comp_waddr_i) < Comps))),
      .waddr_i (sweep_we_i ? sweep_addr_i[CompAw-1:0] : comp_waddr_i[CompAw-1:0]),
      .wdata_i (sweep_we_i ? '0 : comp_wdata_i),
      .re_i    (1'b1),
      .raddr_i (b_comp_addr),
      .rdata_o (comp_rd)
    );

    logic             c_valid_q, c_grp_en_q, c_comp_ok_q;
    logic [2:0]       c_mode_q;
    logic [HashW-1:0] c_hash_q;
    logic [Ports-1:0] c_mask_q;
    always_ff @(posedge clk_i) begin
      if (!rst_ni) c_valid_q <= 1'b0;
      else         c_valid_q <= b_valid_q;
    end
    always_ff @(posedge clk_i) begin
      c_mode_q    <= b_mode_q;
      c_hash_q    <= b_hash_q;
      c_mask_q    <= b_mask_q;
      c_grp_en_q  <= b_grp_en_q;
      c_comp_ok_q <= comp_ok;
    end

    assign s0_valid = c_valid_q;
    assign s0_mode  = c_mode_q;
    assign s0_hash  = c_hash_q;
    assign s0_set   = c_grp_en_q ? (c_comp_ok_q ? comp_rd : '0) : c_mask_q;
  end else begin : g_nocomp
    assign s0_valid = a_valid_q;
    assign s0_mode  = a_mode_q;
    assign s0_hash  = a_hash_q;
    assign s0_set   = a_mask_q;
  end

  // ---------------------------------------------------------------- Q0: prefix counts
  logic [NB*8-1:0]     s0_pad;
  logic [(NB+1)*CntB-1:0] s0_cum;  // cum[b] = set bits in bytes 0..b-1; cum[NB] = |S|
  assign s0_pad = (NB * 8)'(s0_set);
  always_comb begin
    logic [CntB-1:0] run;
    logic [3:0]      pc;
    run    = '0;
    s0_cum = '0;
    for (int b = 0; b < NB; b++) begin
      // balanced adder tree per byte
      pc = ((4'(s0_pad[b*8+0]) + 4'(s0_pad[b*8+1])) + (4'(s0_pad[b*8+2]) + 4'(s0_pad[b*8+3])))
         + ((4'(s0_pad[b*8+4]) + 4'(s0_pad[b*8+5])) + (4'(s0_pad[b*8+6]) + 4'(s0_pad[b*8+7])));
      run = CntB'(32'(run) + 32'(pc));
      s0_cum[(b+1)*CntB +: CntB] = run;
    end
  end

  // PRNG: one draw per packet, in every mode, taken in Q0 and registered (so the
  // 64-bit adder of xoroshiro128+ is not in front of the Q1 multipliers); the draw is the
  // sum of the state registers (OutReg = 0): r1_rnd_q is its only register. A draw wider
  // than 64 bits (D * RandB > 64) concatenates RndW generators, word 0 on top: word 0 is
  // seeded with Seed, word w > 0 with derive_seed(Seed, w), and all step together.
  logic [RndW*64-1:0] rnd;
  logic               rnd_step;  // a packet takes the draw in Q0: every word steps
  assign rnd_step = s0_valid;
  ll_prng #(.Seed(Seed), .OutReg(1'b0)) u_prng (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .en_i   (rnd_step),
    .rand_o (rnd[RndW*64-1 -: 64])
  );
  for (genvar w = 1; w < RndW; w++) begin : g_prng_wide
    ll_prng #(.Seed(ll_pkg::derive_seed(Seed, w)), .OutReg(1'b0)) u_prng (
      .clk_i  (clk_i),
      .rst_ni (rst_ni),
      .en_i   (rnd_step),
      .rand_o (rnd[(RndW-w)*64-1 -: 64])
    );
  end

  // ECMP operand (formed in Q0): the flow hash bit-reversed (decorrelated from the component
  // choice, which uses the top hash bits), left-aligned to RandB bits
  logic [HashW-1:0] hash_rev;
  logic [RandB-1:0] ecmp_op;
  always_comb begin
    for (int i = 0; i < HashW; i++) hash_rev[i] = s0_hash[HashW-1-i];
  end
  if (HashW >= RandB) begin : g_ecmp_trunc
    assign ecmp_op = hash_rev[HashW-1 -: RandB];
  end else begin : g_ecmp_pad
    assign ecmp_op = {hash_rev, {(RandB - HashW){1'b0}}};
  end
  // the draw, sample 0's field replaced by the ECMP operand in ECMP mode
  logic [D*RandB-1:0] s0_draw;
  always_comb begin
    s0_draw = rnd[RndW*64-1 -: D*RandB];
    if (s0_mode == ModeEcmp) s0_draw[D*RandB-1 -: RandB] = ecmp_op;
  end

  logic                   r1_valid_q;
  logic [2:0]             r1_mode_q;
  logic [HashW-1:0]       r1_hash_q;
  logic [Ports-1:0]       r1_set_q;
  logic [(NB+1)*CntB-1:0] r1_cum_q;
  logic [D*RandB-1:0]     r1_rnd_q;   // the top D*RandB bits of the draw
  always_ff @(posedge clk_i) begin
    if (!rst_ni) r1_valid_q <= 1'b0;
    else         r1_valid_q <= s0_valid;
  end
  always_ff @(posedge clk_i) begin
    r1_mode_q <= s0_mode;
    r1_hash_q <= s0_hash;
    r1_set_q  <= s0_set;
    r1_cum_q  <= s0_cum;
    r1_rnd_q  <= s0_draw;
  end
  // the rank scale of sample j, |S| - j, formed in Q0
  logic [D*CntB-1:0] r1_n_q;
  always_ff @(posedge clk_i) begin
    for (int j = 0; j < D; j++) r1_n_q[j*CntB +: CntB] <= s0_cum[NB*CntB +: CntB] - CntB'(j);
  end

  // ---------------------------------------------------------------- Q1: ranks
  // Skip2 (up to 16 ports, two samples): Q1 registers sample 1's rank among all of S
  // (the product alone) and Q2 makes the skip over sample 0's rank in its one-hot match:
  // sample 1's port p has pc[p] - 1 == k1 if k1 >= k0, else pc[p] == k1, both equalities
  // formed beside the compare that selects one. The multiplier is then the whole of Q1's
  // path (a compare and an increment behind it before).
  localparam bit Skip2 = (Ports <= 16) && (D == 2);
  logic [CntB-1:0] r1_cnt;
  assign r1_cnt = r1_cum_q[NB*CntB +: CntB];


  logic [CntB-1:0]   rr_q, rr_d, rr_k;
  logic              rr_upd;
  logic [D*CntB-1:0] q1_k;   // ranks of the samples (sample 0: mode-dependent)
  always_comb begin
    logic [D*CntB-1:0] sorted;   // ranks drawn so far, ascending
    logic [CntB-1:0]   kk, n;
    logic [RandB-1:0]  op;
    logic [RandB+CntB-1:0] prod;
    logic [CntB:0]     pos;

    rr_k   = (rr_q < r1_cnt) ? rr_q : '0;
    rr_upd = r1_valid_q && (r1_mode_q == ModeRr) && (r1_cnt != '0);
    rr_d   = rr_upd ? (rr_k + 1'b1) : rr_q;

    sorted = '0;
    q1_k   = '0;
    for (int j = 0; j < D; j++) begin
      op   = r1_rnd_q[D*RandB-1 - j*RandB -: RandB];
      n    = r1_n_q[j*CntB +: CntB];
      prod = (RandB + CntB)'(op) * (RandB + CntB)'(n);
      kk   = prod[RandB +: CntB];
      if (j == 0 && r1_mode_q == ModeRr) kk = rr_k;
      // without replacement: kk indexes the candidates not drawn yet; skip the
      // ranks already drawn in ascending order (Skip2: sample 1's skip is made in Q2)
      for (int i = 0; i < D - 1; i++) begin  // cov-waiver: d1_skip_loop
        if (!Skip2 && i < j && kk >= sorted[i*CntB +: CntB]) kk = kk + 1'b1;  // cov-waiver: d1_skip_if
      end
      q1_k[j*CntB +: CntB] = kk;
      // insert kk into the ascending list of the first j ranks
      pos = '0;
      for (int i = 0; i < D - 1; i++) begin  // cov-waiver: d1_pos_loop
        if (i < j && sorted[i*CntB +: CntB] < kk) pos = pos + 1'b1;  // cov-waiver: d1_pos_if
      end
      for (int i = D - 1; i > 0; i--) begin  // cov-waiver: d1_shift_loop
        if (i <= j && (CntB + 1)'(i) > pos) sorted[i*CntB +: CntB] = sorted[(i-1)*CntB +: CntB];  // cov-waiver: d1_shift_if
      end
      for (int i = 0; i < D; i++) begin
        if ((CntB + 1)'(i) == pos) sorted[i*CntB +: CntB] = kk;  // cov-waiver: d1_insert_else
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) rr_q <= '0;
    else         rr_q <= rr_d;
  end

  logic                   r2_valid_q;
  logic [2:0]             r2_mode_q;
  logic [HashW-1:0]       r2_hash_q;
  logic [Ports-1:0]       r2_set_q;
  logic [(NB+1)*CntB-1:0] r2_cum_q;
  logic [D*CntB-1:0]      r2_k_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) r2_valid_q <= 1'b0;
    else         r2_valid_q <= r1_valid_q;
  end
  always_ff @(posedge clk_i) begin
    r2_mode_q <= r1_mode_q;
    r2_hash_q <= r1_hash_q;
    r2_set_q  <= r1_set_q;
    r2_cum_q  <= r1_cum_q;
    r2_k_q    <= q1_k;
  end

  // ---------------------------------------------------------------- Q2: rank -> port
  logic [CntB-1:0]     r2_cnt;
  logic [D*PortAw-1:0] q2_port;
  logic [D-1:0]        q2_sv;
  assign r2_cnt = r2_cum_q[NB*CntB +: CntB];

  for (genvar j = 0; j < D; j++) begin : g_sv
    assign q2_sv[j] = (32'(r2_cnt) > j);
  end

  // Two forms of rank -> port and of the samples' occupancy reads (the same results):
  // - up to 16 ports (OhKth), one-hot: port p is sample j's iff p is in the set and
  //   pc[p], the set bits below p (formed in Q1, registered), equals k_j; the same one-hot
  //   selects the sample's occupancy from the view of the next cycle (occ_next_i), which is
  //   registered with the port, so Q3 starts from registers;
  // - above 16 ports, drill_kth (byte prefix counts, a log-depth descent in the byte) and
  //   the occupancy read in Q3 from the current view (occ_view_i): a 48:1 multiplexer
  //   behind the descent would lengthen Q2 more than it shortens Q3.
  localparam bit OhKth = (Ports <= 16);
  logic [OccW-1:0] r3_occ_q [D];   // OhKth: the samples' occupancies in Q3's view
  if (OhKth) begin : g_oh
    logic [CntB-1:0] pc1 [Ports];
    logic [CntB-1:0] r2_pc_q [Ports];
    logic            q2_ge;   // Skip2: k1 >= k0
    logic [Ports-1:0] q2_oh [D];   // sample j's port, one-hot
    always_comb begin
      for (int p = 0; p < Ports; p++) begin
        logic [CntB-1:0] in_b;
        in_b = '0;
        for (int q = 0; q < 8; q++) begin
          if (q < p % 8) in_b = in_b + CntB'(r1_set_q[(p / 8) * 8 + q]);
        end
        pc1[p] = r1_cum_q[(p / 8) * CntB +: CntB] + in_b;
      end
    end
    always_ff @(posedge clk_i) begin
      for (int p = 0; p < Ports; p++) r2_pc_q[p] <= pc1[p];
    end
    if (Skip2) begin : g_ge
      assign q2_ge = r2_k_q[CntB +: CntB] >= r2_k_q[0 +: CntB];
    end else begin : g_no_ge
      assign q2_ge = 1'b0;
    end
    always_comb begin
      for (int j = 0; j < D; j++) begin
        q2_port[j*PortAw +: PortAw] = '0;
        for (int p = 0; p < Ports; p++) begin
          q2_oh[j][p] = r2_set_q[p] && ((Skip2 && j == 1 && q2_ge) ?
              (CntB'(r2_pc_q[p] - 1'b1) == r2_k_q[j*CntB +: CntB]) : (r2_pc_q[p] == r2_k_q[j*CntB +: CntB]));
          if (q2_oh[j][p]) q2_port[j*PortAw +: PortAw] = q2_port[j*PortAw +: PortAw] | PortAw'(p);
        end
      end
    end
    // the one-hot port's occupancy in the next cycle's view, selected in the clocked block
    // (a function, not combinational logic of its own): with OccLag = 1 the next view
    // depends on a top-level input, and a simulator re-evaluates the logic behind an input
    // each time any input moves, but a clocked block only at the clock edge
    function automatic logic [OccW-1:0] pick_occ(input logic [Ports-1:0] oh,
        input logic [Ports*OccW-1:0] view);
      logic [OccW-1:0] o;
      o = '0;
      for (int p = 0; p < Ports; p++) begin
        if (oh[p]) o = o | view[p*OccW +: OccW];  // cov-waiver: pick_occ_if
      end
      pick_occ = o;
    endfunction
    always_ff @(posedge clk_i) begin
      for (int j = 0; j < D; j++) r3_occ_q[j] <= pick_occ(q2_oh[j], occ_next_i);
    end
  end else begin : g_byte
    for (genvar j = 0; j < D; j++) begin : g_kth
      drill_kth #(.Ports(Ports)) u_kth (
        .set_i  (r2_set_q),
        .cum_i  (r2_cum_q[NB*CntB-1:0]),
        .k_i    (r2_k_q[j*CntB +: CntB]),
        .port_o (q2_port[j*PortAw +: PortAw])
      );
      assign r3_occ_q[j] = '0;
    end
  end

  // flow table: {valid, tag, port}, read in Q2, written in Q3
  logic [FlowW-1:0]  flow_rd;
  logic              flow_we;
  logic [FlowAw-1:0] flow_widx;
  logic [FlowW-1:0]  flow_wdata;

  ll_ram_1r1w #(.Width(FlowW), .Depth(FlowEntries)) u_flow (
    .clk_i   (clk_i),
    .we_i    (sweep_we_i ? (32'(sweep_addr_i) < FlowEntries) : flow_we),
    .waddr_i (sweep_we_i ? sweep_addr_i[FlowAw-1:0] : flow_widx),
    .wdata_i (sweep_we_i ? '0 : flow_wdata),
    .re_i    (1'b1),
    .raddr_i (r2_hash_q[FlowAw-1:0]),
    .rdata_o (flow_rd)
  );

  logic                r3_valid_q, r3_nz_q;
  logic [2:0]          r3_mode_q;
  logic [Ports-1:0]    r3_set_q;
  logic [FlowAw-1:0]   r3_fidx_q;
  logic [TagW-1:0]     r3_tag_q;
  logic [D*PortAw-1:0] r3_port_q;
  logic [D-1:0]        r3_sv_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) r3_valid_q <= 1'b0;
    else         r3_valid_q <= r2_valid_q;
  end
  always_ff @(posedge clk_i) begin
    r3_mode_q <= r2_mode_q;
    r3_nz_q   <= (r2_cnt != '0);
    r3_set_q  <= r2_set_q;
    r3_fidx_q <= r2_hash_q[FlowAw-1:0];
    r3_tag_q  <= r2_hash_q[HashW-1:FlowAw];
    r3_port_q <= q2_port;
    r3_sv_q   <= q2_sv;
  end

  // ---------------------------------------------------------------- Q3: decision
  logic [PortAw-1:0] mem_q   [MM];
  logic [OccW-1:0]   mem_occ_q [MM];   // OhKth: occupancy of port mem_q[r] in this cycle's view
  logic [K-1:0]      mem_sel [MM];     // the candidate memory slot r takes, one-hot
  logic [MM-1:0]     mem_v_q;
  logic [MM*PortAw-1:0] mem_d;
  logic [MM-1:0]     mem_v_d;
  logic              mem_upd;

  logic [K*PortAw-1:0] cand_port;
  logic [K-1:0]        cand_v;
  logic [K*OccW-1:0]   cand_occ;
  always_comb begin
    cand_port = '0;
    cand_v    = '0;
    for (int j = 0; j < D; j++) begin
      cand_port[j*PortAw +: PortAw] = r3_port_q[j*PortAw +: PortAw];
      // a port index past the last port (in no reachable state: a sample's port is in S)
      // makes no candidate, so no decision depends on the view's read past its end (an x)
      cand_v[j] = r3_sv_q[j] && (AllIdx || 32'(r3_port_q[j*PortAw +: PortAw]) < Ports);
    end
    for (int j = 0; j < M; j++) begin
      logic dup;
      dup = 1'b0;
      for (int i = 0; i < D; i++) begin
        if (r3_sv_q[i] && (r3_port_q[i*PortAw +: PortAw] == mem_q[j])) dup = 1'b1;
      end
      cand_port[(D+j)*PortAw +: PortAw] = mem_q[j];
      // a memory entry outside the candidate set (or equal to a sample) is ignored; a port
      // index past the last port (in no reachable state) reads as outside the set
      cand_v[D+j] = mem_v_q[j] && (AllIdx || 32'(mem_q[j]) < Ports) && r3_set_q[mem_q[j]] && !dup;
    end
  end
  logic [OccW-1:0] occ [Ports];   // the current view (read here above 16 ports)
  for (genvar p = 0; p < Ports; p++) begin : g_occ
    assign occ[p] = occ_view_i[p*OccW +: OccW];
  end
  for (genvar j = 0; j < D; j++) begin : g_cocc_s
    if (OhKth) begin : g_reg
      assign cand_occ[j*OccW +: OccW] = r3_occ_q[j];
    end else begin : g_view
      assign cand_occ[j*OccW +: OccW] = occ[cand_port[j*PortAw +: PortAw]];
    end
  end
  for (genvar j = 0; j < M; j++) begin : g_cocc_m
    if (OhKth) begin : g_reg
      assign cand_occ[(D+j)*OccW +: OccW] = mem_occ_q[j];
    end else begin : g_view
      assign cand_occ[(D+j)*OccW +: OccW] = occ[mem_q[j]];
    end
  end
  // the occupancy in the next cycle's view of the candidate a new memory entry takes (sel:
  // one-hot); called in the memory's clocked block only, like pick_occ
  function automatic logic [OccW-1:0] cand_occ_next(input logic [K-1:0] sel,
      input logic [K*PortAw-1:0] port, input logic [K*OccW-1:0] now, input logic rst,
      input logic we, input logic [PortAw-1:0] up, input logic [OccW-1:0] val);
    logic [OccW-1:0] o;
    o = '0;
    for (int i = 0; i < K; i++) begin
      if (sel[i]) o = o | ((we && up == port[i*PortAw +: PortAw]) ? val : now[i*OccW +: OccW]);  // cov-waiver: cand_occ_next_if
    end
    cand_occ_next = rst ? '0 : o;
  endfunction

  // rank[i] = number of candidates that beat candidate i. Candidate i beats j (i < j)
  // iff occ_i <= occ_j: the lower occupancy wins, a tie goes to the lower candidate
  // index (samples in draw order, then memory entries in slot order).
  // top[i] (rank 0: no candidate beats i) is an AND of the comparisons, not a sum of
  // them compared with 0; the sums are only needed for the memory slots r >= 1 (M >= 2).
  logic [K*RkW-1:0] rank;
  logic [K-1:0]     top;
  always_comb begin
    logic [K*K-1:0] beats;   // beats[i*K+j]: candidate i beats candidate j
    beats = '0;
    for (int i = 0; i < K; i++) begin
      for (int j = 0; j < K; j++) begin
        if (j > i) begin
          beats[i*K+j] = cand_v[i] && (!cand_v[j] || (cand_occ[i*OccW +: OccW] <= cand_occ[j*OccW +: OccW]));
          beats[j*K+i] = cand_v[j] && !beats[i*K+j];
        end
      end
    end
    for (int i = 0; i < K; i++) begin
      rank[i*RkW +: RkW] = '0;
      top[i]             = 1'b1;
      for (int j = 0; j < K; j++) begin
        if (j != i) rank[i*RkW +: RkW] = rank[i*RkW +: RkW] + RkW'(beats[j*K+i]);
        if (j != i && beats[j*K+i]) top[i] = 1'b0;
      end
    end
  end

  logic [PortAw-1:0] win_port;
  always_comb begin
    win_port = '0;
    for (int i = 0; i < K; i++) begin
      if (cand_v[i] && top[i]) win_port = win_port | cand_port[i*PortAw +: PortAw];
    end
    // new memory: slot r takes the candidate of rank r (the m least loaded)
    for (int r = 0; r < MM; r++) begin
      mem_d[r*PortAw +: PortAw] = '0;
      mem_v_d[r] = 1'b0;
      for (int i = 0; i < K; i++) begin
        mem_sel[r][i] = cand_v[i] && ((r == 0) ? top[i] : (rank[i*RkW +: RkW] == RkW'(r)));
        if (mem_sel[r][i]) begin
          mem_d[r*PortAw +: PortAw] = mem_d[r*PortAw +: PortAw] | cand_port[i*PortAw +: PortAw];
          mem_v_d[r] = 1'b1;
        end
      end
    end
  end

  // per-flow table lookup with last-write forwarding
  logic              fwd_v_q;
  logic [FlowAw-1:0] fwd_idx_q;
  logic [FlowW-1:0]  fwd_data_q;
  logic              pinned;
  logic [PortAw-1:0] pin_port;
  logic              fwd_hit;
  logic [1:0]        pin_by;   // whether the RAM's entry (0) / the forwarded one (1) pins the flow
  assign fwd_hit  = fwd_v_q && fwd_idx_q == r3_fidx_q;
  assign pin_port = fwd_hit ? fwd_data_q[PortAw-1:0] : flow_rd[PortAw-1:0];
  // both entries are tested beside the forwarding select, which then picks one result
  always_comb begin
    logic [FlowW-1:0] e;
    for (int k = 0; k < 2; k++) begin
      e         = (k == 1) ? fwd_data_q : flow_rd;
      pin_by[k] = e[FlowW-1] && (e[PortAw +: TagW] == r3_tag_q) &&
                  (AllIdx || 32'(e[PortAw-1:0]) < Ports) && r3_set_q[e[PortAw-1:0]];
    end
  end
  assign pinned   = fwd_hit ? pin_by[1] : pin_by[0];

  logic              d_flow;
  logic              d_drill;
  assign d_flow  = r3_valid_q && r3_nz_q && (r3_mode_q == ModeFlow);
  assign d_drill = r3_valid_q && r3_nz_q && ((r3_mode_q == ModeDrill) || (d_flow && !pinned));
  assign mem_upd = d_drill && (M > 0);

  assign flow_we    = d_flow && !pinned;
  assign flow_widx  = r3_fidx_q;
  assign flow_wdata = {1'b1, r3_tag_q, win_port};

  always_ff @(posedge clk_i) begin
    if (!rst_ni) fwd_v_q <= 1'b0;
    else         fwd_v_q <= flow_we;
  end
  always_ff @(posedge clk_i) begin
    if (flow_we) begin
      fwd_idx_q  <= flow_widx;
      fwd_data_q <= flow_wdata;
    end
  end

  for (genvar r = 0; r < MM; r++) begin : g_mem
    always_ff @(posedge clk_i) begin
      if (!rst_ni)      mem_v_q[r] <= 1'b0;
      else if (mem_upd) mem_v_q[r] <= mem_v_d[r];
    end
    always_ff @(posedge clk_i) begin
      if (mem_upd) mem_q[r] <= mem_d[r*PortAw +: PortAw];
    end
    // up to 16 ports the entry's occupancy is a register that follows the view: a new
    // entry takes its candidate's next value, a kept one the update of its port
    if (OhKth) begin : g_track
      always_ff @(posedge clk_i) begin
        if (occ_rst_i)                                    mem_occ_q[r] <= '0;
        else if (mem_upd)                                 mem_occ_q[r] <= cand_occ_next(mem_sel[r],
            cand_port, cand_occ, occ_rst_i, occ_we_i, occ_port_i, occ_val_i);
        else if (occ_we_i && occ_port_i == mem_q[r])      mem_occ_q[r] <= occ_val_i;
      end
    end else begin : g_no_occ
      assign mem_occ_q[r] = '0;
    end
  end

  // output register
  logic [PortAw-1:0] port_d;
  logic [2:0]        kind_d;
  always_comb begin
    port_d = '0;
    kind_d = r3_mode_q;
    if (!r3_nz_q) begin
      kind_d = KindEmpty;
    end else begin
      case (r3_mode_q)
        ModeEcmp, ModeRandom, ModeRr: port_d = r3_port_q[0 +: PortAw];
        ModeDrill:                    port_d = win_port;
        ModeFlow: begin
          port_d = pinned ? pin_port : win_port;
          kind_d = pinned ? KindFlowPinned : KindFlowNew;
        end
        default:                      port_d = win_port;
      endcase
    end
  end

  logic              out_valid_q, out_empty_q;
  logic [PortAw-1:0] out_port_q;
  logic [2:0]        out_kind_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      out_valid_q <= 1'b0;
      out_empty_q <= 1'b0;
      out_port_q  <= '0;
      out_kind_q  <= '0;
    end else begin
      out_valid_q <= r3_valid_q;
      out_empty_q <= r3_valid_q && !r3_nz_q;
      out_port_q  <= r3_valid_q ? port_d : '0;
      out_kind_q  <= r3_valid_q ? kind_d : '0;
    end
  end
  assign out_valid_o = out_valid_q;
  assign out_port_o  = out_port_q;
  assign out_empty_o = out_empty_q;
  assign out_kind_o  = out_kind_q;

`ifndef SYNTHESIS
  // legal state: valid memory entries are distinct ports < Ports
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      for (int r = 0; r < M; r++) begin
        if (mem_v_q[r]) begin
          `LL_ASSERT(`LL_INRANGE(mem_q[r], Ports),
            ("drill_engine: memory entry %0d holds port %0d >= Ports", r, mem_q[r]))
          for (int s = 0; s < M; s++) begin
            `LL_ASSERT(s <= r || !(mem_v_q[s] && mem_q[s] == mem_q[r]),
              ("drill_engine: memory entries %0d and %0d both hold port %0d", r, s, mem_q[r]))
          end
        end
      end
      // bounds: every valid candidate's occupancy read names a port (occ has Ports rows)
      if (r3_valid_q) begin
        for (int i = 0; i < K; i++) begin
          if (cand_v[i]) `LL_ASSERT(`LL_INRANGE(cand_port[i*PortAw +: PortAw], Ports),
            ("drill_engine: candidate %0d reads the occupancy of port %0d >= Ports", i, cand_port[i*PortAw +: PortAw]))
        end
      end
      // checked on the output register, so a lockstep bench sees the wrong decision
      // (a mismatch) before this assertion stops the simulation
      `LL_ASSERT(!(out_valid_q && !out_empty_q) || a_set_q[out_port_q],
        ("drill_engine: decided port %0d is not a candidate", out_port_q))
    end
  end
  logic [Ports-1:0] a_set_q;
  always_ff @(posedge clk_i) a_set_q <= r3_set_q;
`endif
endmodule

`default_nettype wire
