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
// The configuration is taken in P1 and travels with the pass, so one pass sees one
// configuration even if a COMMIT lands while it is in flight.
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
    for (int j = 0; j < DecSteps; j++) sdd[j] = act0 && nic_i && (defer ? (db[j] < d1) : (db[j] < lim0));
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
    late_a  = act0 && (late_al || late_i || (nic_i && late_dd));

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
  logic [AW-1:0] ach_b, a_c_lo_b, a_d1_lo_b;
  logic [AlphaSteps-1:0] sc_b, sd_b;
  logic [RW-1:0] rc0_b, rt0_b;
  logic [SW-1:0] t0_b, bc0_b;
  logic [CW-1:0] cfr0_b, cai0_b, chai0_b, cdec0_b, ccnp0_b;
  logic [dcqcn_fmt_pkg::BYTE_W-1:0] by0_b;
  logic act0_b, cnpd0_b, dec_b, enA_b, enC_b, incon_b, late_b, cnpa_c_b;
  logic [XW-1:0] dli_b, dla_b, dld_b;
  logic [1:0] ev_b;
  logic [TW-1:0] t_b;
  logic [BytesW-1:0] bytes_b;
  logic nic_b, hai_grow_b, clamp_tgt_b, clamp_ati_b;
  logic [3:0] g_shift_b;
  logic [31:0] p_alpha_b, p_dec_b, p_inc_b, byte_reset_b;
  logic [SW-1:0] f_b;
  logic [RW-1:0] rai_b, rhai_b, rmin_b, first_rate_b, line_b;
  logic [AW-1:0] alpha_init_b, min_dec_fac_b;
  always_ff @(posedge clk_i) begin
    ach_b <= ach[AH];  a_c_lo_b <= a_c_lo;  a_d1_lo_b <= a_d1_lo;  sc_b <= sc;  sd_b <= sd;
    rc0_b <= rc0;  rt0_b <= rt0;  t0_b <= t0;  bc0_b <= bc0;
    cfr0_b <= cfr0;  cai0_b <= cai0;  chai0_b <= chai0;  cdec0_b <= cdec0;  ccnp0_b <= ccnp0;
    by0_b <= by0;  act0_b <= act0;  cnpd0_b <= cnpd0;  dec_b <= dec;  enA_b <= enA;
    enC_b <= enC_a;  incon_b <= incon_a;  late_b <= late_a;  cnpa_c_b <= cnpa_c;
    dli_b <= dli_a;  dla_b <= dla_c;  dld_b <= dld_c;
    ev_b <= ev_i;  t_b <= t_i;  bytes_b <= bytes_i;
    nic_b <= nic_i;  hai_grow_b <= hai_grow_i;  clamp_tgt_b <= clamp_tgt_i;  clamp_ati_b <= clamp_ati_i;
    g_shift_b <= g_shift_i;  p_alpha_b <= p_alpha_i;  p_dec_b <= p_dec_i;  p_inc_b <= p_inc_i;
    byte_reset_b <= byte_reset_i;  f_b <= f_i;  rai_b <= rai_i;  rhai_b <= rhai_i;  rmin_b <= rmin_i;
    first_rate_b <= first_rate_i;  line_b <= line_i;  alpha_init_b <= alpha_init_i;
    min_dec_fac_b <= min_dec_fac_i;
  end

  // ==== P2: second half of the alpha chain and its taps; incA
  logic [AW-1:0] ach2 [AlphaSteps+1];
  logic [AW-1:0] a_c, a_d1;
  always_comb begin
    for (int j = 0; j <= AlphaSteps; j++) ach2[j] = ach_b;
    a_c  = a_c_lo_b;
    a_d1 = a_d1_lo_b;
    for (int j = AH; j < AlphaSteps; j++) begin
      ach2[j+1] = astep(ach2[j], g_shift_b, 1'b0);   // j >= 1: never the first update
      if (sc_b[j]) a_c = ach2[j+1];
      if (sd_b[j]) a_d1 = ach2[j+1];
    end
  end

  logic [RW-1:0] rcA, rtA;
  logic [SW-1:0] tA, bcA;
  logic [CW-1:0] cfrA, caiA, chaiA;
  dcqcn_rp_incr u_inc_a (
    .en_i(enA_b), .byte_event_i(1'b0), .byte_on_i(byte_reset_b != '0), .hai_grow_i(hai_grow_b),
    .f_i(f_b), .rai_i(rai_b), .rhai_i(rhai_b), .rmin_i(rmin_b), .line_i(line_b),
    .rc_i(rc0_b), .rt_i(rt0_b), .t_i(t0_b), .bc_i(bc0_b), .cfr_i(cfr0_b), .cai_i(cai0_b), .chai_i(chai0_b),
    .rc_o(rcA), .rt_o(rtA), .t_o(tA), .bc_o(bcA), .cfr_o(cfrA), .cai_o(caiA), .chai_o(chaiA)
  );

  // ---- P2 | P3 register
  logic [AW-1:0] a_c_c, a_d1_c;
  logic [RW-1:0] rcA_c, rtA_c;
  logic [SW-1:0] tA_c, bcA_c;
  logic [CW-1:0] cfrA_c, caiA_c, chaiA_c, cdec0_c, ccnp0_c;
  logic [dcqcn_fmt_pkg::BYTE_W-1:0] by0_c;
  logic act0_c, cnpd0_c, dec_c, enC_c, incon_c, late_c, cnpa_c_c;
  logic [XW-1:0] dli_c, dla_c_c, dld_c_c;
  logic [1:0] ev_c;
  logic [TW-1:0] t_c;
  logic [BytesW-1:0] bytes_c;
  logic nic_c, hai_grow_c, clamp_tgt_c, clamp_ati_c;
  logic [3:0] g_shift_c;
  logic [31:0] p_alpha_c, p_dec_c, p_inc_c, byte_reset_c;
  logic [SW-1:0] f_c;
  logic [RW-1:0] rai_c, rhai_c, rmin_c, first_rate_c, line_c;
  logic [AW-1:0] alpha_init_c, min_dec_fac_c;
  always_ff @(posedge clk_i) begin
    a_c_c <= a_c;  a_d1_c <= a_d1;
    rcA_c <= rcA;  rtA_c <= rtA;  tA_c <= tA;  bcA_c <= bcA;
    cfrA_c <= cfrA;  caiA_c <= caiA;  chaiA_c <= chaiA;  cdec0_c <= cdec0_b;  ccnp0_c <= ccnp0_b;
    by0_c <= by0_b;  act0_c <= act0_b;  cnpd0_c <= cnpd0_b;  dec_c <= dec_b;  enC_c <= enC_b;
    incon_c <= incon_b;  late_c <= late_b;  cnpa_c_c <= cnpa_c_b;
    dli_c <= dli_b;  dla_c_c <= dla_b;  dld_c_c <= dld_b;
    ev_c <= ev_b;  t_c <= t_b;  bytes_c <= bytes_b;
    nic_c <= nic_b;  hai_grow_c <= hai_grow_b;  clamp_tgt_c <= clamp_tgt_b;  clamp_ati_c <= clamp_ati_b;
    g_shift_c <= g_shift_b;  p_alpha_c <= p_alpha_b;  p_dec_c <= p_dec_b;  p_inc_c <= p_inc_b;
    byte_reset_c <= byte_reset_b;  f_c <= f_b;  rai_c <= rai_b;  rhai_c <= rhai_b;  rmin_c <= rmin_b;
    first_rate_c <= first_rate_b;  line_c <= line_b;  alpha_init_c <= alpha_init_b;
    min_dec_fac_c <= min_dec_fac_b;
  end

  // ==== P3: cut factor, the one multiplier (NIC decrease in the catch-up or the paper's
  // decrease at a CNP), the decrease
  logic          first, clampB;
  logic [AW-1:0] a_p, aP, cut_a, cut_f;
  logic [RW-1:0] cut_res, rc_cut, rcB, rtB;
  logic [RW+AW-1:0] cut_prod;
  logic [SW-1:0] tB, bcB;
  logic [dcqcn_fmt_pkg::BYTE_W-1:0] byB;
  logic [CW-1:0] cdecB;
  assign first = !act0_c;
  assign a_p   = first ? alpha_init_c : a_c_c;   // paper: alpha used by the cut at a CNP
  assign aP    = astep(a_p, g_shift_c, 1'b1);    // paper: alpha after a CNP
  // the cut sees Rc after the first increase: for the paper's RP there is no decrease in
  // the catch-up, so incC is off and Rc after the catch-up is rcA too
  always_comb begin
    cut_a    = nic_c ? a_d1_c : a_p;
    cut_f    = ONE - (cut_a >> 1);
    if (cut_f < min_dec_fac_c) cut_f = min_dec_fac_c;
    cut_prod = (RW+AW)'(rcA_c) * (RW+AW)'(cut_f);
    cut_res  = RW'(cut_prod >> dcqcn_fmt_pkg::ALPHA_FRAC);
    rc_cut   = (cut_res < rmin_c) ? rmin_c : cut_res;   // the paper's decrease at a CNP
  end

  always_comb begin
    clampB = clamp_tgt_c || (clamp_ati_c && tA_c != '0);
    rtB    = rtA_c;
    rcB    = rcA_c;
    tB     = tA_c;
    bcB    = bcA_c;
    byB    = by0_c;
    cdecB  = cdec0_c;
    if (dec_c) begin
      rtB   = clampB ? rcA_c : rtA_c;
      rcB   = (cut_res < rmin_c) ? rmin_c : cut_res;
      tB    = '0;
      bcB   = '0;
      byB   = '0;
      cdecB = (&cdec0_c) ? cdec0_c : cdec0_c + 1'b1;
    end
  end

  // ---- P3 | P4 register
  logic [RW-1:0] rcB_d, rtB_d, rc_cut_d;
  logic [SW-1:0] tB_d, bcB_d;
  logic [dcqcn_fmt_pkg::BYTE_W-1:0] byB_d;
  logic [CW-1:0] cdecB_d, cfrA_d, caiA_d, chaiA_d, ccnp0_d;
  logic [AW-1:0] a_c_d, aP_d;
  logic act0_d, cnpd0_d, dec_d, enC_d, incon_d, late_d, cnpa_c_d;
  logic [XW-1:0] dli_d, dla_d, dld_d;
  logic [1:0] ev_d;
  logic [TW-1:0] t_d;
  logic [BytesW-1:0] bytes_d;
  logic nic_d, hai_grow_d;
  logic [31:0] p_alpha_d, p_dec_d, p_inc_d, byte_reset_d;
  logic [SW-1:0] f_d;
  logic [RW-1:0] rai_d, rhai_d, rmin_d, first_rate_d, line_d;
  logic [AW-1:0] alpha_init_d;
  always_ff @(posedge clk_i) begin
    rcB_d <= rcB;  rtB_d <= rtB;  rc_cut_d <= rc_cut;  tB_d <= tB;  bcB_d <= bcB;  byB_d <= byB;
    cdecB_d <= cdecB;  cfrA_d <= cfrA_c;  caiA_d <= caiA_c;  chaiA_d <= chaiA_c;  ccnp0_d <= ccnp0_c;
    a_c_d <= a_c_c;  aP_d <= aP;
    act0_d <= act0_c;  cnpd0_d <= cnpd0_c;  dec_d <= dec_c;  enC_d <= enC_c;  incon_d <= incon_c;
    late_d <= late_c;  cnpa_c_d <= cnpa_c_c;
    dli_d <= dli_c;  dla_d <= dla_c_c;  dld_d <= dld_c_c;
    ev_d <= ev_c;  t_d <= t_c;  bytes_d <= bytes_c;
    nic_d <= nic_c;  hai_grow_d <= hai_grow_c;
    p_alpha_d <= p_alpha_c;  p_dec_d <= p_dec_c;  p_inc_d <= p_inc_c;
    byte_reset_d <= byte_reset_c;  f_d <= f_c;  rai_d <= rai_c;  rhai_d <= rhai_c;  rmin_d <= rmin_c;
    first_rate_d <= first_rate_c;  line_d <= line_c;  alpha_init_d <= alpha_init_c;
  end

  // ==== P4: incC (after a decrease: T = BC = 0, so its stage inputs are constant), the event
  logic [RW-1:0] rcC, rtC;
  logic [SW-1:0] tC, bcC, tCi, bcCi;
  logic [CW-1:0] cfrC, caiC, chaiC;
  dcqcn_rp_incr u_inc_c (
    .en_i(enC_d), .byte_event_i(1'b0), .byte_on_i(byte_reset_d != '0), .hai_grow_i(hai_grow_d),
    .f_i(f_d), .rai_i(rai_d), .rhai_i(rhai_d), .rmin_i(rmin_d), .line_i(line_d),
    .rc_i(rcB_d), .rt_i(rtB_d), .t_i(SW'(0)), .bc_i(SW'(0)), .cfr_i(cfrA_d), .cai_i(caiA_d), .chai_i(chaiA_d),
    .rc_o(rcC), .rt_o(rtC), .t_o(tCi), .bc_o(bcCi), .cfr_o(cfrC), .cai_o(caiC), .chai_o(chaiC)
  );
  // enC implies a decrease in this pass, which cleared T and BC
  assign tC  = enC_d ? tCi : tB_d;
  assign bcC = enC_d ? bcCi : bcB_d;

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
  assign is_cnp  = ev_d == dcqcn_fmt_pkg::EV_CNP && !late_d;
  assign is_sent = ev_d == dcqcn_fmt_pkg::EV_SENT && !late_d;

  always_comb begin
    rcE = rcC;  rtE = rtC;  aE = a_c_d;  tE = tC;  bcE = bcC;  byE = byB_d;
    dlaE = dla_d;  dliE = dli_d;  dldE = dld_d;
    actE = act0_d;  inconE = incon_d;  cnpaE = cnpa_c_d;  cnpdE = dec_d ? 1'b0 : cnpd0_d;
    ccnpE = ccnp0_d;  cdecE = cdecB_d;
    bsum = '0;
    enS = 1'b0;
    if (is_cnp) begin
      ccnpE = (&ccnp0_d) ? ccnp0_d : ccnp0_d + 1'b1;
      actE  = 1'b1;
      if (nic_d) begin
        if (!act0_d) begin
          aE    = alpha_init_d;
          cnpaE = 1'b0;
          cnpdE = 1'b1;
          dlaE  = XW'(t_d) + XW'(p_alpha_d);
          dldE  = XW'(t_d) + XW'(p_dec_d);
          if (first_rate_d != '0) begin
            rcE = first_rate_d;
            rtE = first_rate_d;
          end
        end else begin
          cnpaE = 1'b1;
          cnpdE = 1'b1;
        end
      end else begin
        rtE    = rcC;
        rcE    = rc_cut_d;
        tE     = '0;
        bcE    = '0;
        byE    = '0;
        cdecE  = (&cdecB_d) ? cdecB_d : cdecB_d + 1'b1;
        aE     = aP_d;
        dlaE   = XW'(t_d) + XW'(p_alpha_d);
        dliE   = XW'(t_d) + XW'(p_inc_d);
        inconE = 1'b1;
      end
    end else if (is_sent && incon_d && byte_reset_d != '0) begin
      bsum = (dcqcn_fmt_pkg::BYTE_W+1)'(byB_d) + (dcqcn_fmt_pkg::BYTE_W+1)'(bytes_d);
      byE  = bsum[dcqcn_fmt_pkg::BYTE_W] ? '1 : bsum[dcqcn_fmt_pkg::BYTE_W-1:0];
      if (byE >= byte_reset_d) begin
        byE = byE - byte_reset_d;
        enS = 1'b1;
      end
    end
  end

  // ---- P4 | P5 register
  logic [RW-1:0] rcE_e, rtE_e;
  logic [AW-1:0] aE_e;
  logic [SW-1:0] tE_e, bcE_e;
  logic [dcqcn_fmt_pkg::BYTE_W-1:0] byE_e;
  logic [TW-1:0] dlaE_e, dliE_e, dldE_e;
  logic actE_e, inconE_e, cnpaE_e, cnpdE_e, enS_e, late_e;
  logic [CW-1:0] ccnpE_e, cdecE_e, cfrC_e, caiC_e, chaiC_e;
  logic hai_grow_e;
  logic [SW-1:0] f_e;
  logic [RW-1:0] rai_e, rhai_e, rmin_e, line_e;
  always_ff @(posedge clk_i) begin
    rcE_e <= rcE;  rtE_e <= rtE;  aE_e <= aE;  tE_e <= tE;  bcE_e <= bcE;  byE_e <= byE;
    dlaE_e <= TW'(dlaE);  dliE_e <= TW'(dliE);  dldE_e <= TW'(dldE);
    actE_e <= actE;  inconE_e <= inconE;  cnpaE_e <= cnpaE;  cnpdE_e <= cnpdE;  enS_e <= enS;
    late_e <= late_d;
    ccnpE_e <= ccnpE;  cdecE_e <= cdecE;  cfrC_e <= cfrC;  caiC_e <= caiC;  chaiC_e <= chaiC;
    hai_grow_e <= hai_grow_d;  f_e <= f_d;  rai_e <= rai_d;  rhai_e <= rhai_d;  rmin_e <= rmin_d;
    line_e <= line_d;
  end

  // ==== P5: the byte-counter increase, pack
  logic [RW-1:0] rcS, rtS;
  logic [SW-1:0] tS, bcS;
  logic [CW-1:0] cfrS, caiS, chaiS;
  dcqcn_rp_incr u_inc_s (
    .en_i(enS_e), .byte_event_i(1'b1), .byte_on_i(1'b1), .hai_grow_i(hai_grow_e),
    .f_i(f_e), .rai_i(rai_e), .rhai_i(rhai_e), .rmin_i(rmin_e), .line_i(line_e),
    .rc_i(rcE_e), .rt_i(rtE_e), .t_i(tE_e), .bc_i(bcE_e), .cfr_i(cfrC_e), .cai_i(caiC_e), .chai_i(chaiC_e),
    .rc_o(rcS), .rt_o(rtS), .t_o(tS), .bc_o(bcS), .cfr_o(cfrS), .cai_o(caiS), .chai_o(chaiS)
  );

  always_comb begin
    late_o = late_e;
    st_o = '0;
    st_o[dcqcn_fmt_pkg::W_RC +: RW]        = rcS;
    st_o[dcqcn_fmt_pkg::W_RT +: RW]        = rtS;
    st_o[dcqcn_fmt_pkg::W_ALPHA +: AW]     = aE_e;
    st_o[dcqcn_fmt_pkg::W_T +: SW]         = tS;
    st_o[dcqcn_fmt_pkg::W_BC +: SW]        = bcS;
    st_o[dcqcn_fmt_pkg::W_BYTES +: dcqcn_fmt_pkg::BYTE_W] = byE_e;
    st_o[dcqcn_fmt_pkg::W_DLA +: TW]       = dlaE_e;
    st_o[dcqcn_fmt_pkg::W_DLI +: TW]       = dliE_e;
    st_o[dcqcn_fmt_pkg::W_DLD +: TW]       = dldE_e;
    st_o[dcqcn_fmt_pkg::W_ACTIVE]          = actE_e;
    st_o[dcqcn_fmt_pkg::W_INCON]           = inconE_e;
    st_o[dcqcn_fmt_pkg::W_CNPA]            = cnpaE_e;
    st_o[dcqcn_fmt_pkg::W_CNPD]            = cnpdE_e;
    st_o[dcqcn_fmt_pkg::W_CCNP +: CW]      = ccnpE_e;
    st_o[dcqcn_fmt_pkg::W_CDEC +: CW]      = cdecE_e;
    st_o[dcqcn_fmt_pkg::W_CFR +: CW]       = cfrS;
    st_o[dcqcn_fmt_pkg::W_CAI +: CW]       = caiS;
    st_o[dcqcn_fmt_pkg::W_CHAI +: CW]      = chaiS;
  end
endmodule

`default_nettype wire
