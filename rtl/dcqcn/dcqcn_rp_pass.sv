// dcqcn_rp_pass: one reaction-point pass over one QP's state word, five pipeline stages
// (P1..P5; dcqcn_rp's S2..S6), each ending in a free-running register (bubbles are the
// caller's valid):
//   P1  deadline arithmetic (flat: deadline + j * period, parallel compares), the decrease
//       decision, the increase-timer deadlines, whether the pass is late (late_s2a_o,
//       combinational), and the first ceil(AlphaSteps/2) steps of the alpha chain;
//   P2  the rest of the alpha chain and its taps (k and k1 updates), the increase before a
//       decrease (incA);
//   P3  the cut factor and the 40x45 cut multiplier, the decrease;
//   P4  the increase after a decrease (incC; T = BC = 0 there, so fast recovery or additive
//       only), the event;
//   P5  the byte-counter increase of a bytes-sent event (incS) and the packing (st_o,
//       late_o: combinational, they belong to the inputs of four cycles earlier).
// The configuration inputs are read where they are used, in any stage: the caller holds
// them constant while a pass is in P1..P5 (dcqcn_rp changes its copy only when S2..S5 are
// empty), so one pass sees one configuration.
//
// pass = catch-up (the timer expiries with time < limit, in time order; same time:
// alpha update, increase timer, decrease check) + the event (CNP, bytes sent, or none
// for a scan/snapshot). limit = t for a CNP, scan or snapshot (timers at t wait, so
// a CNP precedes them) and t + 1 for bytes sent (the byte counter comes last).
// The catch-up is bounded: at most AlphaSteps alpha periods (an unrolled chain of exact
// per-period steps, tapped at the decrease time), DecSteps decrease-check periods, one
// increase before and one after a decrease. If something due (< limit) is left the pass
// is late: it applies its partial catch-up only, NOT the event (st_o keeps the event's
// fields), and the caller replays the same event (dcqcn_rp: replay register) until a
// pass is not late - so the result is the event-exact one for any configuration.
// late_s2a_o is known in P1 (deadline arithmetic only) so the caller can hold S1.
// C++ twin: ll::dcqcn::pass<Fixed>() in cpp_model/dcqcn/rp_core.h.
`default_nettype none

module dcqcn_rp_pass #(
  parameter int AlphaSteps = 8,   // alpha periods one pass applies, 1..32
  parameter int DecSteps   = 4,   // decrease-check periods one pass skips, 1..32
  parameter int BytesW     = 14   // width of a sent-bytes event
) (
  input  wire logic                          clk_i,
  input  wire logic [dcqcn_fmt_pkg::QP_W-1:0]    st_i,
  input  wire logic [1:0]                    ev_i,        // dcqcn_fmt_pkg::EV_*
  input  wire logic [dcqcn_fmt_pkg::TIME_W-1:0]  t_i,         // event time (ticks)
  input  wire logic [BytesW-1:0]             bytes_i,
  // live configuration
  input  wire logic                          nic_i,
  input  wire logic                          hai_grow_i,
  input  wire logic                          clamp_tgt_i,
  input  wire logic                          clamp_ati_i,
  input  wire logic [3:0]                    g_shift_i,   // 1..15
  input  wire logic [31:0]                   p_alpha_i,   // >= 1
  input  wire logic [31:0]                   p_dec_i,     // >= 1
  input  wire logic [31:0]                   p_inc_i,     // >= 1
  input  wire logic [31:0]                   byte_reset_i,
  input  wire logic [dcqcn_fmt_pkg::STAGE_W-1:0] f_i,
  input  wire logic [dcqcn_fmt_pkg::RATE_W-1:0]  rai_i,
  input  wire logic [dcqcn_fmt_pkg::RATE_W-1:0]  rhai_i,
  input  wire logic [dcqcn_fmt_pkg::RATE_W-1:0]  rmin_i,
  input  wire logic [dcqcn_fmt_pkg::RATE_W-1:0]  first_rate_i,
  input  wire logic [dcqcn_fmt_pkg::RATE_W-1:0]  line_i,
  input  wire logic [dcqcn_fmt_pkg::ALPHA_W-1:0] alpha_init_i,
  input  wire logic [dcqcn_fmt_pkg::ALPHA_W-1:0] min_dec_fac_i,
  output logic      [dcqcn_fmt_pkg::QP_W-1:0]    st_o,
  output logic                               late_s2a_o,  // the pass of st_i/ev_i/t_i is late
  output logic                               late_o       // the pass of st_o was late
);

  initial begin
    if (AlphaSteps < 1 || AlphaSteps > 32) $error("dcqcn_rp_pass: AlphaSteps must be in 1..32");
    if (DecSteps < 1 || DecSteps > 32) $error("dcqcn_rp_pass: DecSteps must be in 1..32");
    if (BytesW < 7 || BytesW > 16) $error("dcqcn_rp_pass: BytesW must be in 7..16");
  end

  localparam int RW = dcqcn_fmt_pkg::RATE_W;
  localparam int AW = dcqcn_fmt_pkg::ALPHA_W;
  localparam int TW = dcqcn_fmt_pkg::TIME_W;
  localparam int XW = dcqcn_fmt_pkg::TIME_W + 7;   // deadline arithmetic: 48-bit time + 32 * 32-bit period
  localparam int SW = dcqcn_fmt_pkg::STAGE_W;
  localparam int CW = dcqcn_fmt_pkg::QCNT_W;
  localparam logic [AW-1:0] ONE = AW'(1) << dcqcn_fmt_pkg::ALPHA_FRAC;

  // ---- unpack
  logic [RW-1:0] rc0, rt0;
  logic [AW-1:0] a0;
  logic [SW-1:0] t0, bc0;
  logic [dcqcn_fmt_pkg::BYTE_W-1:0] by0;
  logic [TW-1:0] dla0, dli0, dld0;
  logic act0, incon0, cnpa0, cnpd0;
  logic [CW-1:0] ccnp0, cdec0, cfr0, cai0, chai0;
  always_comb begin
    rc0    = st_i[dcqcn_fmt_pkg::W_RC +: RW];
    rt0    = st_i[dcqcn_fmt_pkg::W_RT +: RW];
    a0     = st_i[dcqcn_fmt_pkg::W_ALPHA +: AW];
    t0     = st_i[dcqcn_fmt_pkg::W_T +: SW];
    bc0    = st_i[dcqcn_fmt_pkg::W_BC +: SW];
    by0    = st_i[dcqcn_fmt_pkg::W_BYTES +: dcqcn_fmt_pkg::BYTE_W];
    dla0   = st_i[dcqcn_fmt_pkg::W_DLA +: TW];
    dli0   = st_i[dcqcn_fmt_pkg::W_DLI +: TW];
    dld0   = st_i[dcqcn_fmt_pkg::W_DLD +: TW];
    act0   = st_i[dcqcn_fmt_pkg::W_ACTIVE];
    incon0 = st_i[dcqcn_fmt_pkg::W_INCON];
    cnpa0  = st_i[dcqcn_fmt_pkg::W_CNPA];
    cnpd0  = st_i[dcqcn_fmt_pkg::W_CNPD];
    ccnp0  = st_i[dcqcn_fmt_pkg::W_CCNP +: CW];
    cdec0  = st_i[dcqcn_fmt_pkg::W_CDEC +: CW];
    cfr0   = st_i[dcqcn_fmt_pkg::W_CFR +: CW];
    cai0   = st_i[dcqcn_fmt_pkg::W_CAI +: CW];
    chai0  = st_i[dcqcn_fmt_pkg::W_CHAI +: CW];
  end

  function automatic logic [AW-1:0] astep(input logic [AW-1:0] a, input logic [3:0] s, input logic plus);
    astep = a - (a >> s) + (plus ? (ONE >> s) : '0);
  endfunction

  localparam int AH = (AlphaSteps + 1) / 2;   // alpha steps in P1; the rest in P2

  // j * p for a constant j (0..32) as a sum of shifted copies: adders, not a multiplier
  function automatic logic [XW-1:0] cmul(input logic [31:0] p, input int j);
    cmul = '0;
    for (int b = 0; b < 6; b++) if (((j >> b) & 1) != 0) cmul = cmul + (XW'(p) << b);
  endfunction

  // ==== P1: limit, decrease decision, deadlines, lateness, first half of the alpha chain
  logic [XW-1:0] lim0, d1, x1, x2, y1;
  logic          dec_cand, alpha_short, two_inc, dec, defer;
  logic [XW-1:0] ab [AlphaSteps+1];   // alpha boundaries dla + j * p_alpha
  logic [XW-1:0] db [DecSteps+1];     // decrease-check boundaries dld + j * p_dec
  logic [AlphaSteps-1:0] sc, sd;      // alpha update j applied (thermometer); and before d1
  logic [DecSteps-1:0]   sdd;         // decrease boundary j skipped (thermometer)
  logic [AW-1:0] ach [AH+1];          // alpha after j updates, j <= AH
  logic [AW-1:0] a_c_lo, a_d1_lo;
  logic [XW-1:0] dla_c, dld_c, dli_a;
  logic          cnpa_c, enA, enC_a, incon_a, late_al, late_dd, late_i, late_a, dli0_lt;

  always_comb begin
    lim0 = (ev_i == dcqcn_fmt_pkg::EV_SENT) ? XW'(t_i) + XW'(1) : XW'(t_i);
    d1   = XW'(dld0);
    for (int j = 0; j <= AlphaSteps; j++) ab[j] = XW'(dla0) + cmul(p_alpha_i, j);
    for (int j = 0; j <= DecSteps; j++)   db[j] = XW'(dld0) + cmul(p_dec_i, j);
    x1 = d1 + XW'(p_inc_i);
    x2 = d1 + (XW'(p_inc_i) << 1);
    y1 = XW'(dli0) + XW'(p_inc_i);
    dec_cand    = act0 && nic_i && cnpd0 && (d1 < lim0);
    alpha_short = ab[AlphaSteps] <= d1;
    two_inc     = incon0 && (y1 <= d1);
    dec         = dec_cand && !alpha_short && !two_inc;
    defer       = dec_cand && !dec;   // the limit is d1 (stop before the decrease)
    // catch-up with limit lim = !act0 ? 0 : defer ? d1 : lim0, as parallel compares
    for (int j = 0; j < AlphaSteps; j++) begin
      sc[j] = act0 && (defer ? (ab[j] < d1) : (ab[j] < lim0));
      sd[j] = dec && ab[j] <= d1;
    end
    // the decrease-check deadline runs in both variants (a COMMIT to the NIC's finds it current)
    for (int j = 0; j < DecSteps; j++) sdd[j] = act0 && (defer ? (db[j] < d1) : (db[j] < lim0));
    cnpa_c = sc[0] ? 1'b0 : cnpa0;
    dla_c  = ab[0];
    for (int j = 0; j < AlphaSteps; j++) if (sc[j]) dla_c = ab[j+1];
    dld_c  = db[0];
    for (int j = 0; j < DecSteps; j++) if (sdd[j]) dld_c = db[j+1];
    // late: the first boundary not applied is still < lim0
    late_al = 1'b0;
    for (int j = 0; j <= AlphaSteps; j++)
      if ((j == 0 || sc[(j == 0) ? 0 : j-1]) && (j == AlphaSteps || !sc[(j == AlphaSteps) ? 0 : j]) && ab[j] < lim0)
        late_al = 1'b1;
    late_dd = 1'b0;
    for (int j = 0; j <= DecSteps; j++)
      if ((j == 0 || sdd[(j == 0) ? 0 : j-1]) && (j == DecSteps || !sdd[(j == DecSteps) ? 0 : j]) && db[j] < lim0)
        late_dd = 1'b1;
    // increase timer: incA before a decrease (or alone), incC after it
    dli0_lt = act0 && (defer ? (XW'(dli0) < d1) : (XW'(dli0) < lim0));
    enA     = act0 && incon0 && (dec ? (XW'(dli0) <= d1) : dli0_lt);
    enC_a   = dec && (x1 < lim0);
    if (dec)      dli_a = enC_a ? x2 : x1;
    else if (enA) dli_a = y1;
    else          dli_a = XW'(dli0);
    incon_a = dec || incon0;
    if (dec)      late_i = enC_a && (x2 < lim0);
    else if (enA) late_i = y1 < lim0;
    else          late_i = incon0 && (XW'(dli0) < lim0);
    late_a  = act0 && (late_al || late_i || late_dd);

    // alpha chain, first half (does not depend on the deadlines)
    ach[0]  = a0;
    a_c_lo  = a0;
    a_d1_lo = a0;
    for (int j = 0; j < AH; j++) begin
      ach[j+1] = astep(ach[j], g_shift_i, nic_i && (j == 0) && cnpa0);
      if (sc[j]) a_c_lo = ach[j+1];
      if (sd[j]) a_d1_lo = ach[j+1];
    end
  end
  assign late_s2a_o = late_a;

  // ---- P1 | P2 register
  logic [AW-1:0] ach_s2_q, a_c_lo_s2_q, a_d1_lo_s2_q;
  logic [AlphaSteps-1:0] sc_s2_q, sd_s2_q;
  logic [RW-1:0] rc0_s2_q, rt0_s2_q;
  logic [SW-1:0] t0_s2_q, bc0_s2_q;
  logic [CW-1:0] cfr0_s2_q, cai0_s2_q, chai0_s2_q, cdec0_s2_q, ccnp0_s2_q;
  logic [dcqcn_fmt_pkg::BYTE_W-1:0] by0_s2_q;
  logic act0_s2_q, cnpd0_s2_q, dec_s2_q, enA_s2_q, enC_s2_q, incon_s2_q, late_s2_q, cnpa_c_s2_q;
  logic [XW-1:0] dli_s2_q, dla_s2_q, dld_s2_q;
  logic [1:0] ev_s2_q;
  logic [TW-1:0] t_s2_q;
  logic [BytesW-1:0] bytes_s2_q;
  always_ff @(posedge clk_i) begin
    ach_s2_q <= ach[AH];  a_c_lo_s2_q <= a_c_lo;  a_d1_lo_s2_q <= a_d1_lo;  sc_s2_q <= sc;  sd_s2_q <= sd;
    rc0_s2_q <= rc0;  rt0_s2_q <= rt0;  t0_s2_q <= t0;  bc0_s2_q <= bc0;
    cfr0_s2_q <= cfr0;  cai0_s2_q <= cai0;  chai0_s2_q <= chai0;  cdec0_s2_q <= cdec0;  ccnp0_s2_q <= ccnp0;
    by0_s2_q <= by0;  act0_s2_q <= act0;  cnpd0_s2_q <= cnpd0;  dec_s2_q <= dec;  enA_s2_q <= enA;
    enC_s2_q <= enC_a;  incon_s2_q <= incon_a;  late_s2_q <= late_a;  cnpa_c_s2_q <= cnpa_c;
    dli_s2_q <= dli_a;  dla_s2_q <= dla_c;  dld_s2_q <= dld_c;
    ev_s2_q <= ev_i;  t_s2_q <= t_i;  bytes_s2_q <= bytes_i;
  end

  // ==== P2: second half of the alpha chain and its taps; incA
  logic [AW-1:0] ach2 [AlphaSteps+1];
  logic [AW-1:0] a_c, a_d1;
  always_comb begin
    for (int j = 0; j <= AlphaSteps; j++) ach2[j] = ach_s2_q;
    a_c  = a_c_lo_s2_q;
    a_d1 = a_d1_lo_s2_q;
    for (int j = AH; j < AlphaSteps; j++) begin
      ach2[j+1] = astep(ach2[j], g_shift_i, 1'b0);   // j >= 1: never the first update
      if (sc_s2_q[j]) a_c = ach2[j+1];
      if (sd_s2_q[j]) a_d1 = ach2[j+1];
    end
  end

  logic [RW-1:0] rcA, rtA;
  logic [SW-1:0] tA, bcA;
  logic [CW-1:0] cfrA, caiA, chaiA;
  dcqcn_rp_incr u_inc_a (
    .en_i(enA_s2_q), .byte_event_i(1'b0), .byte_on_i(byte_reset_i != '0), .hai_grow_i(hai_grow_i),
    .f_i(f_i), .rai_i(rai_i), .rhai_i(rhai_i), .rmin_i(rmin_i), .line_i(line_i),
    .rc_i(rc0_s2_q), .rt_i(rt0_s2_q), .t_i(t0_s2_q), .bc_i(bc0_s2_q), .cfr_i(cfr0_s2_q), .cai_i(cai0_s2_q), .chai_i(chai0_s2_q),
    .rc_o(rcA), .rt_o(rtA), .t_o(tA), .bc_o(bcA), .cfr_o(cfrA), .cai_o(caiA), .chai_o(chaiA)
  );

  // ---- P2 | P3 register
  logic [AW-1:0] a_c_s3_q, a_d1_s3_q;
  logic [RW-1:0] rcA_s3_q, rtA_s3_q;
  logic [SW-1:0] tA_s3_q, bcA_s3_q;
  logic [CW-1:0] cfrA_s3_q, caiA_s3_q, chaiA_s3_q, cdec0_s3_q, ccnp0_s3_q;
  logic [dcqcn_fmt_pkg::BYTE_W-1:0] by0_s3_q;
  logic act0_s3_q, cnpd0_s3_q, dec_s3_q, enC_s3_q, incon_s3_q, late_s3_q, cnpa_c_s3_q;
  logic [XW-1:0] dli_s3_q, dla_c_s3_q, dld_c_s3_q;
  logic [1:0] ev_s3_q;
  logic [TW-1:0] t_s3_q;
  logic [BytesW-1:0] bytes_s3_q;
  always_ff @(posedge clk_i) begin
    a_c_s3_q <= a_c;  a_d1_s3_q <= a_d1;
    rcA_s3_q <= rcA;  rtA_s3_q <= rtA;  tA_s3_q <= tA;  bcA_s3_q <= bcA;
    cfrA_s3_q <= cfrA;  caiA_s3_q <= caiA;  chaiA_s3_q <= chaiA;  cdec0_s3_q <= cdec0_s2_q;  ccnp0_s3_q <= ccnp0_s2_q;
    by0_s3_q <= by0_s2_q;  act0_s3_q <= act0_s2_q;  cnpd0_s3_q <= cnpd0_s2_q;  dec_s3_q <= dec_s2_q;  enC_s3_q <= enC_s2_q;
    incon_s3_q <= incon_s2_q;  late_s3_q <= late_s2_q;  cnpa_c_s3_q <= cnpa_c_s2_q;
    dli_s3_q <= dli_s2_q;  dla_c_s3_q <= dla_s2_q;  dld_c_s3_q <= dld_s2_q;
    ev_s3_q <= ev_s2_q;  t_s3_q <= t_s2_q;  bytes_s3_q <= bytes_s2_q;
  end

  // ==== P3: cut factor, the one multiplier (NIC decrease in the catch-up or the paper's
  // decrease at a CNP), the decrease
  logic          first, clampB;
  logic [AW-1:0] a_p, aP, cut_a, cut_f0, cut_f;
  logic [RW-1:0] cut_res, rc_cut, rcB, rtB;
  logic [RW+AW-1:0] cut_prod;
  logic [SW-1:0] tB, bcB;
  logic [dcqcn_fmt_pkg::BYTE_W-1:0] byB;
  logic [CW-1:0] cdecB;
  assign first = !act0_s3_q;
  assign a_p   = first ? alpha_init_i : a_c_s3_q;   // paper: alpha used by the cut at a CNP
  assign aP    = astep(a_p, g_shift_i, 1'b1);    // paper: alpha after a CNP
  // the cut sees Rc after the first increase: for the paper's RP there is no decrease in
  // the catch-up, so incC is off and Rc after the catch-up is rcA too
  always_comb begin
    cut_a    = nic_i ? a_d1_s3_q : a_p;
    // cut_f0 keeps the unclamped factor: Verilator 5.006 re-tests an if's condition after its
    // body to count line coverage, so a body that rewrites the tested variable is never counted
    cut_f0   = ONE - (cut_a >> 1);
    cut_f    = cut_f0;
    if (cut_f0 < min_dec_fac_i) cut_f = min_dec_fac_i;
    cut_prod = (RW+AW)'(rcA_s3_q) * (RW+AW)'(cut_f);
    cut_res  = RW'(cut_prod >> dcqcn_fmt_pkg::ALPHA_FRAC);
    rc_cut   = (cut_res < rmin_i) ? rmin_i : cut_res;   // the paper's decrease at a CNP
  end

  always_comb begin
    clampB = clamp_tgt_i || (clamp_ati_i && tA_s3_q != '0);
    rtB    = rtA_s3_q;
    rcB    = rcA_s3_q;
    tB     = tA_s3_q;
    bcB    = bcA_s3_q;
    byB    = by0_s3_q;
    cdecB  = cdec0_s3_q;
    if (dec_s3_q) begin
      rtB   = clampB ? rcA_s3_q : rtA_s3_q;
      rcB   = (cut_res < rmin_i) ? rmin_i : cut_res;
      tB    = '0;
      bcB   = '0;
      byB   = '0;
      cdecB = (&cdec0_s3_q) ? cdec0_s3_q : cdec0_s3_q + 1'b1;
    end
  end

  // ---- P3 | P4 register
  logic [RW-1:0] rcB_s4_q, rtB_s4_q, rc_cut_s4_q;
  logic [SW-1:0] tB_s4_q, bcB_s4_q;
  logic [dcqcn_fmt_pkg::BYTE_W-1:0] byB_s4_q;
  logic [CW-1:0] cdecB_s4_q, cfrA_s4_q, caiA_s4_q, chaiA_s4_q, ccnp0_s4_q;
  logic [AW-1:0] a_c_s4_q, aP_s4_q;
  logic act0_s4_q, cnpd0_s4_q, dec_s4_q, enC_s4_q, incon_s4_q, late_s4_q, cnpa_c_s4_q;
  logic [XW-1:0] dli_s4_q, dla_s4_q, dld_s4_q;
  logic [1:0] ev_s4_q;
  logic [TW-1:0] t_s4_q;
  logic [BytesW-1:0] bytes_s4_q;
  always_ff @(posedge clk_i) begin
    rcB_s4_q <= rcB;  rtB_s4_q <= rtB;  rc_cut_s4_q <= rc_cut;  tB_s4_q <= tB;  bcB_s4_q <= bcB;  byB_s4_q <= byB;
    cdecB_s4_q <= cdecB;  cfrA_s4_q <= cfrA_s3_q;  caiA_s4_q <= caiA_s3_q;  chaiA_s4_q <= chaiA_s3_q;  ccnp0_s4_q <= ccnp0_s3_q;
    a_c_s4_q <= a_c_s3_q;  aP_s4_q <= aP;
    act0_s4_q <= act0_s3_q;  cnpd0_s4_q <= cnpd0_s3_q;  dec_s4_q <= dec_s3_q;  enC_s4_q <= enC_s3_q;  incon_s4_q <= incon_s3_q;
    late_s4_q <= late_s3_q;  cnpa_c_s4_q <= cnpa_c_s3_q;
    dli_s4_q <= dli_s3_q;  dla_s4_q <= dla_c_s3_q;  dld_s4_q <= dld_c_s3_q;
    ev_s4_q <= ev_s3_q;  t_s4_q <= t_s3_q;  bytes_s4_q <= bytes_s3_q;
  end

  // ==== P4: incC (after a decrease: T = BC = 0, so its stage inputs are constant), the event
  logic [RW-1:0] rcC, rtC;
  logic [SW-1:0] tC, bcC, tCi, bcCi;
  logic [CW-1:0] cfrC, caiC, chaiC;
  dcqcn_rp_incr u_inc_c (
    .en_i(enC_s4_q), .byte_event_i(1'b0), .byte_on_i(byte_reset_i != '0), .hai_grow_i(hai_grow_i),
    .f_i(f_i), .rai_i(rai_i), .rhai_i(rhai_i), .rmin_i(rmin_i), .line_i(line_i),
    .rc_i(rcB_s4_q), .rt_i(rtB_s4_q), .t_i(SW'(0)), .bc_i(SW'(0)), .cfr_i(cfrA_s4_q), .cai_i(caiA_s4_q), .chai_i(chaiA_s4_q),
    .rc_o(rcC), .rt_o(rtC), .t_o(tCi), .bc_o(bcCi), .cfr_o(cfrC), .cai_o(caiC), .chai_o(chaiC)
  );
  // enC implies a decrease in this pass, which cleared T and BC
  assign tC  = enC_s4_q ? tCi : tB_s4_q;
  assign bcC = enC_s4_q ? bcCi : bcB_s4_q;

  logic          is_cnp, is_sent;
  logic [RW-1:0] rcE, rtE;
  logic [AW-1:0] aE;
  logic [SW-1:0] tE, bcE;
  logic [dcqcn_fmt_pkg::BYTE_W-1:0] byE;
  logic [dcqcn_fmt_pkg::BYTE_W:0]   bsum;
  logic [XW-1:0] dlaE, dliE, dldE;
  logic          actE, inconE, cnpaE, cnpdE;
  logic [CW-1:0] ccnpE, cdecE;
  logic          enS;

  // a late pass applies its catch-up only; the event waits for its replay
  assign is_cnp  = ev_s4_q == dcqcn_fmt_pkg::EV_CNP && !late_s4_q;
  assign is_sent = ev_s4_q == dcqcn_fmt_pkg::EV_SENT && !late_s4_q;

  always_comb begin
    rcE = rcC;  rtE = rtC;  aE = a_c_s4_q;  tE = tC;  bcE = bcC;  byE = byB_s4_q;
    dlaE = dla_s4_q;  dliE = dli_s4_q;  dldE = dld_s4_q;
    actE = act0_s4_q;  inconE = incon_s4_q;  cnpaE = cnpa_c_s4_q;  cnpdE = dec_s4_q ? 1'b0 : cnpd0_s4_q;
    ccnpE = ccnp0_s4_q;  cdecE = cdecB_s4_q;
    bsum = '0;
    enS = 1'b0;
    if (is_cnp) begin
      ccnpE = (&ccnp0_s4_q) ? ccnp0_s4_q : ccnp0_s4_q + 1'b1;
      actE  = 1'b1;
      if (nic_i) begin
        if (!act0_s4_q) begin
          aE    = alpha_init_i;
          cnpaE = 1'b0;
          cnpdE = 1'b1;
          dlaE  = XW'(t_s4_q) + XW'(p_alpha_i);
          dldE  = XW'(t_s4_q) + XW'(p_dec_i);
          if (first_rate_i != '0) begin
            rcE = first_rate_i;
            rtE = first_rate_i;
          end
        end else begin
          cnpaE = 1'b1;
          cnpdE = 1'b1;
        end
      end else begin
        if (!act0_s4_q) dldE = XW'(t_s4_q) + XW'(p_dec_i);  // the decrease-check period starts
        rtE    = rcC;
        rcE    = rc_cut_s4_q;
        tE     = '0;
        bcE    = '0;
        byE    = '0;
        cdecE  = (&cdecB_s4_q) ? cdecB_s4_q : cdecB_s4_q + 1'b1;
        aE     = aP_s4_q;
        dlaE   = XW'(t_s4_q) + XW'(p_alpha_i);
        dliE   = XW'(t_s4_q) + XW'(p_inc_i);
        inconE = 1'b1;
      end
    end else if (is_sent && incon_s4_q && byte_reset_i != '0) begin
      bsum = (dcqcn_fmt_pkg::BYTE_W+1)'(byB_s4_q) + (dcqcn_fmt_pkg::BYTE_W+1)'(bytes_s4_q);
      byE  = bsum[dcqcn_fmt_pkg::BYTE_W] ? '1 : bsum[dcqcn_fmt_pkg::BYTE_W-1:0];
      if (byE >= byte_reset_i) begin
        byE = byE - byte_reset_i;
        enS = 1'b1;
      end
    end
  end

  // ---- P4 | P5 register
  logic [RW-1:0] rcE_s5_q, rtE_s5_q;
  logic [AW-1:0] aE_s5_q;
  logic [SW-1:0] tE_s5_q, bcE_s5_q;
  logic [dcqcn_fmt_pkg::BYTE_W-1:0] byE_s5_q;
  logic [TW-1:0] dlaE_s5_q, dliE_s5_q, dldE_s5_q;
  logic actE_s5_q, inconE_s5_q, cnpaE_s5_q, cnpdE_s5_q, enS_s5_q, late_s5_q;
  logic [CW-1:0] ccnpE_s5_q, cdecE_s5_q, cfrC_s5_q, caiC_s5_q, chaiC_s5_q;
  always_ff @(posedge clk_i) begin
    rcE_s5_q <= rcE;  rtE_s5_q <= rtE;  aE_s5_q <= aE;  tE_s5_q <= tE;  bcE_s5_q <= bcE;  byE_s5_q <= byE;
    dlaE_s5_q <= TW'(dlaE);  dliE_s5_q <= TW'(dliE);  dldE_s5_q <= TW'(dldE);
    actE_s5_q <= actE;  inconE_s5_q <= inconE;  cnpaE_s5_q <= cnpaE;  cnpdE_s5_q <= cnpdE;  enS_s5_q <= enS;
    late_s5_q <= late_s4_q;
    ccnpE_s5_q <= ccnpE;  cdecE_s5_q <= cdecE;  cfrC_s5_q <= cfrC;  caiC_s5_q <= caiC;  chaiC_s5_q <= chaiC;
  end

  // ==== P5: the byte-counter increase, pack
  logic [RW-1:0] rcS, rtS;
  logic [SW-1:0] tS, bcS;
  logic [CW-1:0] cfrS, caiS, chaiS;
  dcqcn_rp_incr u_inc_s (
    .en_i(enS_s5_q), .byte_event_i(1'b1), .byte_on_i(1'b1), .hai_grow_i(hai_grow_i),
    .f_i(f_i), .rai_i(rai_i), .rhai_i(rhai_i), .rmin_i(rmin_i), .line_i(line_i),
    .rc_i(rcE_s5_q), .rt_i(rtE_s5_q), .t_i(tE_s5_q), .bc_i(bcE_s5_q), .cfr_i(cfrC_s5_q), .cai_i(caiC_s5_q), .chai_i(chaiC_s5_q),
    .rc_o(rcS), .rt_o(rtS), .t_o(tS), .bc_o(bcS), .cfr_o(cfrS), .cai_o(caiS), .chai_o(chaiS)
  );

  always_comb begin
    late_o = late_s5_q;
    st_o = '0;
    st_o[dcqcn_fmt_pkg::W_RC +: RW]        = rcS;
    st_o[dcqcn_fmt_pkg::W_RT +: RW]        = rtS;
    st_o[dcqcn_fmt_pkg::W_ALPHA +: AW]     = aE_s5_q;
    st_o[dcqcn_fmt_pkg::W_T +: SW]         = tS;
    st_o[dcqcn_fmt_pkg::W_BC +: SW]        = bcS;
    st_o[dcqcn_fmt_pkg::W_BYTES +: dcqcn_fmt_pkg::BYTE_W] = byE_s5_q;
    st_o[dcqcn_fmt_pkg::W_DLA +: TW]       = dlaE_s5_q;
    st_o[dcqcn_fmt_pkg::W_DLI +: TW]       = dliE_s5_q;
    st_o[dcqcn_fmt_pkg::W_DLD +: TW]       = dldE_s5_q;
    st_o[dcqcn_fmt_pkg::W_ACTIVE]          = actE_s5_q;
    st_o[dcqcn_fmt_pkg::W_INCON]           = inconE_s5_q;
    st_o[dcqcn_fmt_pkg::W_CNPA]            = cnpaE_s5_q;
    st_o[dcqcn_fmt_pkg::W_CNPD]            = cnpdE_s5_q;
    st_o[dcqcn_fmt_pkg::W_CCNP +: CW]      = ccnpE_s5_q;
    st_o[dcqcn_fmt_pkg::W_CDEC +: CW]      = cdecE_s5_q;
    st_o[dcqcn_fmt_pkg::W_CFR +: CW]       = cfrS;
    st_o[dcqcn_fmt_pkg::W_CAI +: CW]       = caiS;
    st_o[dcqcn_fmt_pkg::W_CHAI +: CW]      = chaiS;
  end
endmodule

`default_nettype wire
