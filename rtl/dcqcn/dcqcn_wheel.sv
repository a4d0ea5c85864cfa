// dcqcn_wheel: Carousel-style timing-wheel rate limiter over Queues QPs.
//
// A QP token (the QP's next packet, enq_*) gets the departure time
//   d = max(now, t_last);  t_last := d + (bytes + IfgBytes) * 8 / Rc
// i.e. the spec's t_next = max(now, t_last) + size*8/Rc kept as t_last, with the token
// released at the start of its serialisation slot: an idle QP banks no credit, and a
// backlogged QP's departures are spaced exactly by its rate whatever the release lag.
// The division is restoring, DivBits quotient bits a cycle (64/DivBits cycles), up to four
// a step (radix 16: the remainder against all fifteen multiples of the rate side by side).
// Tokens wait in Slots FIFO lists (head/tail flops per slot, next pointers in RAM), slot
// = floor(d / 2^SlotLog2 ticks); a departure beyond the horizon (rel + Slots - 1) is
// parked in the last slot and re-inserted when that slot is served (never released
// before its own slot). The drain pointer serves the oldest slot first, FIFO within a
// slot (fair among QPs due together), one token per two cycles (phase A reads, phase B
// unlinks and grants); a token from a slot that may hold a parked one is checked against now
// in a phase of its own (D) and granted there or re-inserted in phase C. A line-rate pacer
// (token bucket one slot deep) keeps the aggregate at the line rate. An insertion's
// departure and slot are formed a cycle ahead (it uses the now of the cycle before it); the
// odd multiples of the rate the divider needs are formed in a cycle of their own after the
// rate's read. A granted token leaves on grant_*
// (valid/ready): the deferred completion to the host side.
// Rates come from the RP (rate_we_i) into a per-QP rate RAM.
// One token per QP at a time: the host enqueues a QP's next packet after its grant.
// C++ twin: ll::dcqcn::WheelCyc in cpp_model/dcqcn/dcqcn.cpp.
`default_nettype none

// The assertion macros: flows list rtl/common/ll_assert.svh first; a file linted on its own
// finds it through -I rtl/common.
`ifndef LL_ASSERT_SVH
`include "ll_assert.svh"
`endif

module dcqcn_wheel #(
  parameter int Queues       = 64,      // QPs, >= 2
  parameter int Slots        = 64,      // slots, power of two, 4..4096
  parameter int SlotLog2     = 6,       // slot length 2^SlotLog2 ticks, 0..24
  parameter int TickPs       = 1000,    // tick length in ps
  parameter int LineRateMbps = 100000,  // line rate
  parameter int BytesW       = 14,      // packet size field width, 7..16
  parameter int IfgBytes     = 0,       // per-packet overhead (preamble + IFG), 0..255
  parameter int DivBits      = 4,       // quotient bits per cycle: 1, 2, 4, 8, 16
  parameter logic [31:0] TimeStart = 32'd0,  // now_i after reset: the drain pointer starts at its slot
  // entries per bank of the per-QP RAMs: above it they are split into banks
  // (ll_ram_1r1w_banked), the depth of the SG13G2 SRAM macro that meets a 4 ns clock
  parameter int BankWords    = 256,
  parameter int QW = (Queues > 1) ? $clog2(Queues) : 1,  // derived, do not override
  parameter int SW = (Slots > 1) ? $clog2(Slots) : 1     // derived, do not override
) (
  input  wire logic                         clk_i,
  input  wire logic                         rst_ni,
  input  wire logic [dcqcn_fmt_pkg::TIME_W-1:0] now_i,
  input  wire logic                         rate_we_i,
  input  wire logic [QW-1:0]                rate_qp_i,
  input  wire logic [dcqcn_fmt_pkg::RATE_W-1:0] rate_i,
  input  wire logic                         enq_valid_i,
  output logic                              enq_ready_o,
  input  wire logic [QW-1:0]                enq_qp_i,
  input  wire logic [BytesW-1:0]            enq_bytes_i,
  output logic                              grant_valid_o,
  input  wire logic                         grant_ready_i,
  output logic      [QW-1:0]                grant_qp_o,
  output logic      [BytesW-1:0]            grant_bytes_o,
  output logic                              reinsert_o,   // a token was re-inserted
  output logic                              init_done_o
);
  localparam int RW = dcqcn_fmt_pkg::RATE_W;
  localparam int TW = dcqcn_fmt_pkg::TIME_W;
  localparam int TF = dcqcn_fmt_pkg::TIME_FRAC;
  localparam int XW = TW + 2;                       // absolute slot numbers and horizon
  localparam logic [63:0] TPS  = 64'd65536000000000000 / 64'(TickPs);  // ticks/s, Q.16
  localparam logic [63:0] LINE = 64'(LineRateMbps) * 64'd1000000;
  localparam logic [63:0] LTPB = (TPS * 64'd8 + LINE - 64'd1) / LINE;  // ticks/byte at line, Q.16, rounded up
  localparam logic [127:0] NUMMAX = ((128'd1 << BytesW) - 128'd1 + 128'(IfgBytes)) * 128'd8 * 128'(TPS);
  localparam int SLs = TF + SlotLog2;                 // slack = 2^SLs (Q.16 ticks of a slot)
  localparam logic [63:0] SLACK = 64'd1 << SLs;
  localparam logic [63:0] LIFG = 64'(IfgBytes) * LTPB;    // the line time of the Ifg bytes
  localparam int DivCycles = 64 / DivBits;
  localparam int DivR = (DivBits < 4) ? DivBits : 4;   // quotient bits a divider step
  localparam int DivK = (1 << DivR) - 1;                // the largest digit
  localparam int NOdd = (DivK + 1) / 2;                 // odd multiples of den registered
  localparam int MW   = RW + DivR;                      // a multiple k * den, k <= DivK

  initial begin
    if (Queues < 2 || Queues > 65536) $error("dcqcn_wheel: Queues must be in 2..65536");
    if (Slots < 4 || Slots > 4096 || (Slots & (Slots - 1)) != 0) $error("dcqcn_wheel: Slots must be a power of two in 4..4096");
    if (SlotLog2 < 0 || SlotLog2 > 24) $error("dcqcn_wheel: SlotLog2 must be in 0..24");
    if (TickPs < 1 || TickPs > 1000000000) $error("dcqcn_wheel: TickPs must be in 1..1e9");
    if (LineRateMbps < 1 || LineRateMbps > 1000000) $error("dcqcn_wheel: LineRateMbps must be in 1..1000000");
    if (BytesW < 7 || BytesW > 16) $error("dcqcn_wheel: BytesW must be in 7..16");
    if (IfgBytes < 0 || IfgBytes > 255) $error("dcqcn_wheel: IfgBytes must be in 0..255");
    if (!(DivBits == 1 || DivBits == 2 || DivBits == 4 || DivBits == 8 || DivBits == 16)) $error("dcqcn_wheel: DivBits must be 1, 2, 4, 8 or 16");
    if (NUMMAX[127:63] != '0) $error("dcqcn_wheel: TickPs too small: (2^BytesW + IfgBytes) * 8 * ticks/s * 2^16 must fit 63 bits");
    if (QW != $clog2(Queues)) $error("dcqcn_wheel: QW is derived from Queues; do not override it");
    if (SW != $clog2(Slots)) $error("dcqcn_wheel: SW is derived from Slots; do not override it");
  end

  // ---- init sweep and RAMs
  logic          sw_we, done;
  logic [QW-1:0] sw_addr;
  ll_init_sweep #(.Depth(Queues)) u_sweep (
    .clk_i(clk_i), .rst_ni(rst_ni), .we_o(sw_we), .addr_o(sw_addr), .done_o(done)
  );

  logic acc, pop_start, adv, behind, ins_go, pb, pc, pd, due, single, app_en, g_accept;
  logic grant, ins_clamp_n, rei_clamp_n, app_clamp;
  logic [RW-1:0] rate_rd;
  logic [63:0]   tl_rd;
  logic [QW-1:0] nxt_rd;
  logic [64+BytesW-1:0] info_rd;
  logic [QW-1:0] app_qp, app_waddr;
  logic [SW-1:0] app_slot, rs, ins_slot_n, rei_slot_n, hor_n;
  logic [63:0]   ins_d, nowq, line_time;
  logic [64:0]   since_link;
  logic          use_now;
  logic [XW-1:0] cur_abs, d_abs_info, tl_abs;
  logic [63:0]   tl_next;
  logic          now_late;
  logic [BytesW-1:0] g_bytes_d;

  ll_ram_1r1w_banked #(.Width(RW), .Depth(Queues), .BankWords(BankWords)) u_rate (
    .clk_i(clk_i), .we_i(done ? rate_we_i : sw_we), .waddr_i(done ? rate_qp_i : sw_addr),
    .wdata_i(done ? rate_i : LINE[RW-1:0]), .re_i(acc), .raddr_i(enq_qp_i), .rdata_o(rate_rd)
  );

  // ---- state
  // enqueue state machine: idle (ready for an enqueue), read (rate and last departure
  // read), odd (the rate's odd multiples formed), divide (size * 8 / rate, DivBits per
  // cycle), insert (into the slot's list)
  localparam logic [2:0] EnqIdle = 3'd0, EnqRead = 3'd1, EnqDivide = 3'd2, EnqInsert = 3'd3,
                         EnqOdd = 3'd4;
  logic [2:0]    e_state_q;
  logic [6:0]    e_cnt_q;
  logic [QW-1:0] e_qp_q;
  logic [BytesW-1:0] e_bytes_q;
  logic [63:0]   e_num_q, e_quo_q, e_tl_q;
  logic [MW-1:0] e_odd_q [NOdd];   // k * den for the odd k < 2^DivR (e_odd_q[0] = den)
  logic [RW-1:0] e_rem_q;
  logic          p_state_q, pc_q;   // pop phase B; phase C (re-insertion)
  logic          pd_q;              // pop phase D: a token of a marked slot checked against now
  logic          p_park_q;          // the popped token's slot is marked (read in phase A)
  logic [XW-1:0] p_dabs_q;          // its departure's slot and bytes (registered in phase B)
  logic [BytesW-1:0] p_bytes_q;
  logic [Slots-1:0] park_q;         // per slot: it may hold a token parked beyond its slot
  logic          ins_clamp_q, rei_clamp_q;
  logic [QW-1:0] p_qp_q;
  logic [SW-1:0] p_slot_q, rei_slot_q, ins_slot_q;
  logic [63:0]   ins_d_q;
  logic [XW-1:0] rel_q, horizon_q;   // horizon_q = rel_q + Slots - 1
  logic [Slots-1:0] empty_q;
  logic [QW-1:0] head_q [Slots];
  logic [QW-1:0] tail_q [Slots];
  logic          g_valid_q;
  logic [QW-1:0] g_qp_q;
  logic [BytesW-1:0] g_bytes_q;
  logic [63:0]   link_q;
  logic          lpend_q, lsel_q;   // link to form this cycle; from now (else from link)
  logic [63:0]   lbase_q;           // now - slack at the last grant

  ll_ram_1r1w_banked #(.Width(64), .Depth(Queues), .BankWords(BankWords)) u_tlast (
    .clk_i(clk_i), .we_i(done ? ins_go : sw_we), .waddr_i(done ? e_qp_q : sw_addr),
    .wdata_i(done ? tl_next : 64'd0), .re_i(acc), .raddr_i(enq_qp_i), .rdata_o(tl_rd)
  );
  ll_ram_1r1w_banked #(.Width(QW), .Depth(Queues), .BankWords(BankWords)) u_next (
    .clk_i(clk_i), .we_i(app_en && !empty_q[app_slot]), .waddr_i(app_waddr), .wdata_i(app_qp),
    .re_i(pop_start), .raddr_i(head_q[rs]), .rdata_o(nxt_rd)
  );
  ll_ram_1r1w_banked #(.Width(64 + BytesW), .Depth(Queues), .BankWords(BankWords)) u_info (
    .clk_i(clk_i), .we_i(ins_go), .waddr_i(e_qp_q), .wdata_i({e_bytes_q, ins_d_q}),
    .re_i(pop_start), .raddr_i(head_q[rs]), .rdata_o(info_rd)
  );

  // ---- combinational control
  always_comb begin
    nowq       = {now_i, 16'h0000};
    cur_abs    = XW'(now_i) >> SlotLog2;
    rs         = rel_q[SW-1:0];
    acc        = enq_ready_o && enq_valid_i;
    behind     = done && !p_state_q && !pc_q && !pd_q && rel_q <= cur_abs;
    pop_start  = behind && !empty_q[rs] && !g_valid_q && nowq >= link_q && e_state_q != EnqInsert;
    adv        = behind && empty_q[rs] && rel_q < cur_abs;
    ins_go     = e_state_q == EnqInsert && !p_state_q && !pc_q && !pd_q;
    pb         = p_state_q;
    pc         = pc_q;
    pd         = pd_q;
    d_abs_info = XW'(info_rd[63:0] >> (TF + SlotLog2));
    // Every token of a slot no parked token went into is due when it is popped (it went in
    // at its own slot, which the drain pointer serves only once it is not after now's), so
    // phase B grants it without a look at its departure. A token of a marked slot is checked
    // in phase D, from its departure registered in B: granted if due, else re-inserted.
    due        = p_dabs_q <= cur_abs;
    grant      = (pb && !p_park_q) || (pd && due);
    g_bytes_d  = pd ? p_bytes_q : info_rd[64 +: BytesW];
    single     = tail_q[p_slot_q] == p_qp_q;
    g_accept   = g_valid_q && grant_ready_i;
    // The insertion's departure d = max(now, t_last) and its slot, clamped to the horizon,
    // are formed every cycle and registered (ins_d_q, ins_slot_q): an insertion uses the
    // now of the cycle before it and the horizon of its own cycle. Both candidates of d
    // are compared with the horizon side by side; a slot beyond it is the horizon's (of
    // the next cycle: + 1 if the drain pointer moves at this edge). d's slot is never
    // behind the next cycle's drain pointer: the pointer moves only while it is behind
    // now's slot.
    now_late   = nowq > e_tl_q;
    ins_d      = now_late ? nowq : e_tl_q;
    tl_abs     = XW'(e_tl_q >> (TF + SlotLog2));
    hor_n      = horizon_q[SW-1:0] + (adv ? SW'(1) : SW'(0));
    if (now_late) ins_slot_n = (cur_abs <= horizon_q) ? cur_abs[SW-1:0] : hor_n;
    else          ins_slot_n = (tl_abs <= horizon_q) ? tl_abs[SW-1:0] : hor_n;
    ins_clamp_n = now_late ? cur_abs > horizon_q : tl_abs > horizon_q;
    tl_next    = ins_d_q + e_quo_q;
    // a token popped before its slot (parked beyond the horizon) is re-inserted in phase C
    // into its slot clamped to the horizon (the pointer does not move in phases B, D, C)
    rei_slot_n = (p_dabs_q <= horizon_q) ? p_dabs_q[SW-1:0] : horizon_q[SW-1:0];
    rei_clamp_n = p_dabs_q > horizon_q;
    app_en     = pc || ins_go;
    app_slot   = pc ? rei_slot_q : ins_slot_q;
    app_clamp  = pc ? rei_clamp_q : ins_clamp_q;
    app_qp     = pc ? p_qp_q : e_qp_q;
    app_waddr  = tail_q[app_slot];
    // the pacer: link := max(now - slack, link) + the packet's line time (bytes + Ifg) * LTPB
    // (now - slack floored at 0), over two cycles: the grant's cycle registers the choice
    // and now - slack (lsel_q, lbase_q), the cycle after it forms link from them and the
    // granted bytes (lpend_q). No pop can start in that cycle (the grant is still offered:
    // g_valid_q), so every pop start sees the link of every grant before it. now - slack >
    // link is now - link > slack: one subtraction, then a test of its high bits (slack = 2^SLs)
    since_link = {1'b0, nowq} - {1'b0, link_q};
    use_now    = !since_link[64] && (since_link[63:SLs] > (64 - SLs)'(1)
                                     || (since_link[63:SLs] == (64 - SLs)'(1) && since_link[SLs-1:0] != '0));
    line_time  = 64'(g_bytes_q) * LTPB + LIFG;
  end

  assign enq_ready_o   = done && e_state_q == EnqIdle;
  assign grant_valid_o = g_valid_q;
  assign grant_qp_o    = g_qp_q;
  assign grant_bytes_o = g_bytes_q;
  assign reinsert_o    = pc;
  assign init_done_o   = done;

  // ---- divider step
  // Radix 2^DivR, DivR = min(DivBits, 4) quotient bits a step, DivBits / DivR steps a cycle:
  // a step appends DivR numerator bits to the partial remainder r (< den) and compares the
  // result with every multiple k * den, k = 1 .. 2^DivR - 1, side by side (the odd ones are
  // registered when the rate is read, the even ones are shifts of them); the digit is the
  // largest k that leaves no borrow and the new remainder is that difference, picked by a
  // one-hot AND-OR. So a cycle of 4 quotient bits is one subtract-and-select deep.
  // Restoring: the quotient and remainder are those of the bit-serial divider.
  // k = (2 * odd_of(k) + 1) << tz_of(k): k * den is e_odd_q[odd_of(k)] << tz_of(k)
  function automatic int tz_of(input int k);
    tz_of = 0;
    while (((k >> tz_of) & 1) == 0) tz_of = tz_of + 1;
  endfunction
  function automatic int odd_of(input int k);
    odd_of = (k >> tz_of(k)) / 2;
  endfunction

  // the odd multiples of den, formed in EnqOdd from den registered in EnqRead (e_odd_q[0]):
  // one shift-and-add each (11 and 13 den from 3 den)
  logic [MW-1:0] odd_n [NOdd];
  always_comb begin
    logic [MW-1:0] d1, d3;
    d1 = e_odd_q[0];
    d3 = (d1 << 1) + d1;
    for (int j = 0; j < NOdd; j++) begin
      case (2 * j + 1)
        1:       odd_n[j] = d1;
        3:       odd_n[j] = d3;
        5:       odd_n[j] = (d1 << 2) + d1;
        7:       odd_n[j] = (d1 << 3) - d1;
        9:       odd_n[j] = (d1 << 3) + d1;
        11:      odd_n[j] = (d3 << 2) - d1;
        13:      odd_n[j] = (d3 << 2) + d1;
        default: odd_n[j] = (d1 << 4) - d1;   // 15
      endcase
    end
  end

  logic [63:0] dv_num, dv_quo;
  logic [RW-1:0] dv_rem;
  always_comb begin
    logic [MW-1:0] r;              // the remainder with the step's numerator bits
    logic [MW:0]   t;              // r - k * den and its borrow
    logic [DivK:0] ge;             // ge[k]: r >= k * den (ge[0] = 1)
    logic [RW-1:0] diff [DivK+1];  // r - k * den (low RW bits: < den where it is taken)
    logic [RW-1:0] rem;
    logic [DivR-1:0] digit;
    dv_num = e_num_q;
    dv_quo = e_quo_q;
    dv_rem = e_rem_q;
    for (int i = 0; i < DivBits / DivR; i++) begin
      r      = {dv_rem, dv_num[63 -: DivR]};
      dv_num = dv_num << DivR;
      dv_quo = dv_quo << DivR;
      ge[0]   = 1'b1;
      diff[0] = r[RW-1:0];
      for (int k = 1; k <= DivK; k++) begin
        t       = {1'b0, r} - {1'b0, e_odd_q[odd_of(k)] << tz_of(k)};
        ge[k]   = !t[MW];
        diff[k] = t[RW-1:0];
      end
      rem   = '0;
      digit = '0;
      for (int k = 0; k <= DivK; k++) begin
        if (ge[k] && (k == DivK || !ge[(k == DivK) ? k : k + 1])) begin
          rem   = rem | diff[k];
          digit = digit | DivR'(k);
        end
      end
      dv_rem = rem;
      dv_quo[DivR-1:0] = digit;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      e_state_q <= EnqIdle;
      e_cnt_q   <= '0;
      p_state_q <= 1'b0;
      pc_q      <= 1'b0;
      pd_q      <= 1'b0;
      rel_q     <= XW'(TimeStart) >> SlotLog2;
      horizon_q <= (XW'(TimeStart) >> SlotLog2) + XW'(Slots) - XW'(1);
      empty_q   <= '1;
      g_valid_q <= 1'b0;
      link_q    <= '0;
      lpend_q   <= 1'b0;
    end else begin
      // pop, phase B: unlink the head; grant it (an unmarked slot) or check it in phase D,
      // which grants it or hands it to phase C (re-insertion)
      if (pb && single) empty_q[p_slot_q] <= 1'b1;
      if (grant) begin
        g_valid_q <= 1'b1;
        lpend_q   <= 1'b1;
      end else if (g_accept) begin
        g_valid_q <= 1'b0;
      end
      if (app_en && empty_q[app_slot]) empty_q[app_slot] <= 1'b0;
      p_state_q <= pop_start;
      pd_q      <= pb && p_park_q;
      pc_q      <= pd && !due;
      if (lpend_q) begin
        lpend_q <= 1'b0;
        link_q  <= (lsel_q ? lbase_q : link_q) + line_time;
      end
      if (adv) begin
        rel_q     <= rel_q + 1'b1;
        horizon_q <= horizon_q + 1'b1;
      end
      case (e_state_q)
        EnqIdle: if (acc) e_state_q <= EnqRead;
        EnqRead: e_state_q <= EnqOdd;
        EnqOdd: begin
          e_state_q <= EnqDivide;
          e_cnt_q   <= 7'(DivCycles);
        end
        EnqDivide: begin
          e_cnt_q <= e_cnt_q - 1'b1;
          if (e_cnt_q == 7'd1) e_state_q <= EnqInsert;
        end
        default: if (ins_go) e_state_q <= EnqIdle;  // EnqInsert (5..7 unused, never reached)
      endcase
    end
  end

  // payload registers (no reset: qualified by the state above)
  always_ff @(posedge clk_i) begin
    if (pb && !single) head_q[p_slot_q] <= nxt_rd;
    if (app_en) begin
      if (empty_q[app_slot]) head_q[app_slot] <= app_qp;
      tail_q[app_slot] <= app_qp;
      // a slot is marked while it holds a token appended clamped (parked beyond its slot)
      park_q[app_slot] <= (park_q[app_slot] && !empty_q[app_slot]) || app_clamp;
    end
    if (grant) begin
      g_qp_q    <= p_qp_q;
      g_bytes_q <= g_bytes_d;
      lsel_q    <= use_now;
      lbase_q   <= nowq - SLACK;
    end
    if (pop_start) begin
      p_qp_q   <= head_q[rs];
      p_slot_q <= rs;
      p_park_q <= park_q[rs];
    end
    if (pb) begin
      p_dabs_q  <= d_abs_info;
      p_bytes_q <= info_rd[64 +: BytesW];
    end
    if (pd) begin
      rei_slot_q  <= rei_slot_n;
      rei_clamp_q <= rei_clamp_n;
    end
    ins_clamp_q <= ins_clamp_n;
    ins_d_q    <= ins_d;
    ins_slot_q <= ins_slot_n;
    case (e_state_q)
      EnqIdle: if (acc) begin
        e_qp_q    <= enq_qp_i;
        e_bytes_q <= enq_bytes_i;
      end
      EnqRead: begin
        e_num_q    <= (64'(e_bytes_q) + 64'(IfgBytes)) * 64'd8 * TPS;
        e_odd_q[0] <= MW'(rate_rd);
        e_tl_q     <= tl_rd;
        e_rem_q    <= '0;
        e_quo_q    <= '0;
      end
      EnqOdd: for (int j = 0; j < NOdd; j++) e_odd_q[j] <= odd_n[j];
      EnqDivide: begin
        e_num_q <= dv_num;
        e_rem_q <= dv_rem;
        e_quo_q <= dv_quo;
      end
      default: ;
    endcase
  end

`ifndef SYNTHESIS
  // valid/ready: a grant offered and not taken stays offered, for the same QP
  ll_vr_stable #(.W(QW)) u_vr_grant (
    .clk_i (clk_i), .rst_ni (rst_ni), .valid_i (g_valid_q), .ready_i (grant_ready_i),
    .data_i (g_qp_q)
  );
  always_ff @(posedge clk_i) begin
    if (rst_ni && e_state_q == EnqRead) begin
      `LL_ASSERT(rate_rd != '0, ("dcqcn_wheel: zero rate"))
    end
    // phase B grants a token of an unmarked slot unchecked: it must be due
    if (rst_ni && pb && !p_park_q) begin
      `LL_ASSERT(d_abs_info <= cur_abs, ("dcqcn_wheel: a token of an unmarked slot popped before its slot"))
    end
  end
`endif
endmodule

`default_nettype wire
