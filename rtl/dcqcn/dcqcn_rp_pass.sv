// dcqcn_rp_pass: one reaction-point pass over one QP's state word, two pipeline stages:
// S2a (inputs -> register) the deadline arithmetic, the alpha chain, the decrease decision,
// the increase before it and whether the pass is late (late_s2a_o, combinational);
// S2b (register -> st_o/late_o, combinational) the decrease, the increase after it, the
// event and the packing. st_o/late_o belong to the inputs of the previous cycle; the stage
// register is free-running (bubbles are the caller's valid).
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
// late_s2a_o is known in S2a (deadline arithmetic only) so the caller can hold S1.
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

  // ---- limit and the decrease decision
  logic [XW-1:0] lim0, lim, d1;
  logic          dec_cand, alpha_short, two_inc, dec;
  logic [XW-1:0] ab [AlphaSteps+1];   // alpha boundaries
  logic [AW-1:0] ach [AlphaSteps+1];  // alpha after j updates
  logic [XW-1:0] db [DecSteps+1];     // decrease-check boundaries
  logic [AW-1:0] a_d1, a_c;
  logic [XW-1:0] dla_c, dld_c;
  logic          cnpa_c;

  always_comb begin
    lim0 = (ev_i == dcqcn_fmt_pkg::EV_SENT) ? XW'(t_i) + XW'(1) : XW'(t_i);
    d1   = XW'(dld0);
    ab[0] = XW'(dla0);
    for (int j = 0; j < AlphaSteps; j++) ab[j+1] = ab[j] + XW'(p_alpha_i);
    db[0] = XW'(dld0);
    for (int j = 0; j < DecSteps; j++) db[j+1] = db[j] + XW'(p_dec_i);
    dec_cand    = act0 && nic_i && cnpd0 && (d1 < lim0);
    alpha_short = ab[AlphaSteps] <= d1;
    two_inc     = incon0 && (XW'(dli0) + XW'(p_inc_i) <= d1);
    dec         = dec_cand && !alpha_short && !two_inc;
    lim         = (dec_cand && !dec) ? d1 : lim0;
    if (!act0) lim = '0;   // timers do not run before the first CNP

    // alpha chain
    ach[0] = a0;
    a_d1   = a0;
    a_c    = a0;
    dla_c  = XW'(dla0);
    cnpa_c = cnpa0;
    for (int j = 0; j < AlphaSteps; j++) begin
      ach[j+1] = astep(ach[j], g_shift_i, nic_i && (j == 0) && cnpa0);
      if (ab[j] < lim) begin
        a_c    = ach[j+1];
        dla_c  = ab[j+1];
        cnpa_c = 1'b0;
        if (dec && ab[j] <= d1) a_d1 = ach[j+1];
      end
    end
    dld_c = XW'(dld0);
    if (nic_i) begin
      for (int j = 0; j < DecSteps; j++) if (db[j] < lim) dld_c = db[j+1];
    end
  end

  // ---- increases and the decrease (incA before a decrease or alone, incC after it)
  logic          enA, enC;
  logic [RW-1:0] rcA, rtA, rcB, rtB, rcC, rtC;
  logic [SW-1:0] tA, bcA, tB, bcB, tC, bcC;
  logic [CW-1:0] cfrA, caiA, chaiA, cfrC, caiC, chaiC;
  logic          clampB;
  logic [dcqcn_fmt_pkg::BYTE_W-1:0] byB;
  logic [CW-1:0] cdecB;
  // the one multiplier: NIC decrease in the catch-up or the paper's decrease at a CNP
  logic [RW-1:0] cut_rc, cut_res;
  logic [AW-1:0] cut_a, cut_f;
  logic [RW+AW-1:0] cut_prod;

  assign enA = act0 && incon0 && (dec ? (XW'(dli0) <= d1) : (XW'(dli0) < lim));

  // increase-timer deadline after the catch-up (deadline arithmetic only, so S2a knows
  // whether the pass is late): restarted by a decrease, advanced by incA / incC
  logic [XW-1:0] dliB_a;
  logic          enC_a, incon_a, late_a;
  logic [XW-1:0] dli_a;
  always_comb begin
    if (dec)      dliB_a = d1 + XW'(p_inc_i);
    else if (enA) dliB_a = XW'(dli0) + XW'(p_inc_i);
    else          dliB_a = XW'(dli0);
    enC_a   = dec && (dliB_a < lim);
    dli_a   = enC_a ? dliB_a + XW'(p_inc_i) : dliB_a;
    incon_a = dec || incon0;
    late_a  = act0 && ((dla_c < lim0) || (incon_a && dli_a < lim0) || (nic_i && dld_c < lim0));
  end
  assign late_s2a_o = late_a;

  dcqcn_rp_incr u_inc_a (
    .en_i(enA), .byte_event_i(1'b0), .byte_on_i(byte_reset_i != '0), .hai_grow_i(hai_grow_i),
    .f_i(f_i), .rai_i(rai_i), .rhai_i(rhai_i), .rmin_i(rmin_i), .line_i(line_i),
    .rc_i(rc0), .rt_i(rt0), .t_i(t0), .bc_i(bc0), .cfr_i(cfr0), .cai_i(cai0), .chai_i(chai0),
    .rc_o(rcA), .rt_o(rtA), .t_o(tA), .bc_o(bcA), .cfr_o(cfrA), .cai_o(caiA), .chai_o(chaiA)
  );

  // ==== S2a | S2b register stage: the catch-up's intermediate results, the event and
  // the configuration it used (so the whole pass sees one configuration even if a
  // COMMIT lands between the two halves).
  logic [RW-1:0] rcA_q;
  logic [RW-1:0] rtA_q;
  logic [SW-1:0] tA_q;
  logic [SW-1:0] bcA_q;
  logic [CW-1:0] cfrA_q;
  logic [CW-1:0] caiA_q;
  logic [CW-1:0] chaiA_q;
  logic [dcqcn_fmt_pkg::BYTE_W-1:0] by0_q;
  logic [CW-1:0] cdec0_q;
  logic [CW-1:0] ccnp0_q;
  logic act0_q;
  logic cnpd0_q;
  logic dec_q;
  logic enC_q;
  logic [XW-1:0] dli_c_q;
  logic incon_c_q;
  logic late_q;
  logic [AW-1:0] a_d1_q;
  logic [AW-1:0] a_c_q;
  logic [XW-1:0] dla_c_q;
  logic [XW-1:0] dld_c_q;
  logic cnpa_c_q;
  logic [1:0] ev_q;
  logic [dcqcn_fmt_pkg::TIME_W-1:0] t_q;
  logic [BytesW-1:0] bytes_q;
  logic nic_q;
  logic hai_grow_q;
  logic clamp_tgt_q;
  logic clamp_ati_q;
  logic [3:0] g_shift_q;
  logic [31:0] p_alpha_q;
  logic [31:0] p_dec_q;
  logic [31:0] p_inc_q;
  logic [31:0] byte_reset_q;
  logic [dcqcn_fmt_pkg::STAGE_W-1:0] f_q;
  logic [dcqcn_fmt_pkg::RATE_W-1:0] rai_q;
  logic [dcqcn_fmt_pkg::RATE_W-1:0] rhai_q;
  logic [dcqcn_fmt_pkg::RATE_W-1:0] rmin_q;
  logic [dcqcn_fmt_pkg::RATE_W-1:0] first_rate_q;
  logic [dcqcn_fmt_pkg::RATE_W-1:0] line_q;
  logic [dcqcn_fmt_pkg::ALPHA_W-1:0] alpha_init_q;
  logic [dcqcn_fmt_pkg::ALPHA_W-1:0] min_dec_fac_q;
  always_ff @(posedge clk_i) begin
    rcA_q <= rcA;
    rtA_q <= rtA;
    tA_q <= tA;
    bcA_q <= bcA;
    cfrA_q <= cfrA;
    caiA_q <= caiA;
    chaiA_q <= chaiA;
    by0_q <= by0;
    cdec0_q <= cdec0;
    ccnp0_q <= ccnp0;
    act0_q <= act0;
    cnpd0_q <= cnpd0;
    dec_q <= dec;
    enC_q <= enC_a;
    dli_c_q <= dli_a;
    incon_c_q <= incon_a;
    late_q <= late_a;
    a_d1_q <= a_d1;
    a_c_q <= a_c;
    dla_c_q <= dla_c;
    dld_c_q <= dld_c;
    cnpa_c_q <= cnpa_c;
    ev_q <= ev_i;
    t_q <= t_i;
    bytes_q <= bytes_i;
    nic_q <= nic_i;
    hai_grow_q <= hai_grow_i;
    clamp_tgt_q <= clamp_tgt_i;
    clamp_ati_q <= clamp_ati_i;
    g_shift_q <= g_shift_i;
    p_alpha_q <= p_alpha_i;
    p_dec_q <= p_dec_i;
    p_inc_q <= p_inc_i;
    byte_reset_q <= byte_reset_i;
    f_q <= f_i;
    rai_q <= rai_i;
    rhai_q <= rhai_i;
    rmin_q <= rmin_i;
    first_rate_q <= first_rate_i;
    line_q <= line_i;
    alpha_init_q <= alpha_init_i;
    min_dec_fac_q <= min_dec_fac_i;
  end

  // ==== S2b: decrease, increases after it, the event, pack
  always_comb begin
    cut_f    = ONE - (cut_a >> 1);
    if (cut_f < min_dec_fac_q) cut_f = min_dec_fac_q;
    cut_prod = (RW+AW)'(cut_rc) * (RW+AW)'(cut_f);
    cut_res  = RW'(cut_prod >> dcqcn_fmt_pkg::ALPHA_FRAC);
  end

  always_comb begin
    clampB = clamp_tgt_q || (clamp_ati_q && tA_q != '0);
    rtB    = rtA_q;
    rcB    = rcA_q;
    tB     = tA_q;
    bcB    = bcA_q;
    byB    = by0_q;
    cdecB  = cdec0_q;
    if (dec_q) begin
      rtB   = clampB ? rcA_q : rtA_q;
      rcB   = (cut_res < rmin_q) ? rmin_q : cut_res;
      tB    = '0;
      bcB   = '0;
      byB   = '0;
      cdecB = (&cdec0_q) ? cdec0_q : cdec0_q + 1'b1;
    end
  end

  assign enC = enC_q;

  dcqcn_rp_incr u_inc_c (
    .en_i(enC), .byte_event_i(1'b0), .byte_on_i(byte_reset_q != '0), .hai_grow_i(hai_grow_q),
    .f_i(f_q), .rai_i(rai_q), .rhai_i(rhai_q), .rmin_i(rmin_q), .line_i(line_q),
    .rc_i(rcB), .rt_i(rtB), .t_i(tB), .bc_i(bcB), .cfr_i(cfrA_q), .cai_i(caiA_q), .chai_i(chaiA_q),
    .rc_o(rcC), .rt_o(rtC), .t_o(tC), .bc_o(bcC), .cfr_o(cfrC), .cai_o(caiC), .chai_o(chaiC)
  );

  // ---- the event
  logic          is_cnp, is_sent, first;
  logic [RW-1:0] rcE, rtE;
  logic [AW-1:0] aE, a_p;
  logic [SW-1:0] tE, bcE;
  logic [dcqcn_fmt_pkg::BYTE_W-1:0] byE;
  logic [dcqcn_fmt_pkg::BYTE_W:0]   bsum;
  logic [XW-1:0] dlaE, dliE, dldE;
  logic          actE, inconE, cnpaE, cnpdE;
  logic [CW-1:0] ccnpE, cdecE;
  logic          enS;
  logic [RW-1:0] rcS, rtS;
  logic [SW-1:0] tS, bcS;
  logic [CW-1:0] cfrS, caiS, chaiS;

  // a late pass applies its catch-up only; the event waits for its replay
  assign is_cnp  = ev_q == dcqcn_fmt_pkg::EV_CNP && !late_q;
  assign is_sent = ev_q == dcqcn_fmt_pkg::EV_SENT && !late_q;
  assign first   = !act0_q;
  assign a_p     = first ? alpha_init_q : a_c_q;   // paper: alpha used by the cut at a CNP

  // the cut sees Rc after the first increase: for the paper's RP there is no decrease in
  // the catch-up, so incC is off and Rc after the catch-up is rcA too
  always_comb begin
    cut_rc = rcA_q;
    cut_a  = nic_q ? a_d1_q : a_p;
  end

  always_comb begin
    rcE = rcC;  rtE = rtC;  aE = a_c_q;  tE = tC;  bcE = bcC;  byE = byB;
    dlaE = dla_c_q;  dliE = dli_c_q;  dldE = dld_c_q;
    actE = act0_q;  inconE = incon_c_q;  cnpaE = cnpa_c_q;  cnpdE = dec_q ? 1'b0 : cnpd0_q;
    ccnpE = ccnp0_q;  cdecE = cdecB;
    bsum = '0;
    enS = 1'b0;
    if (is_cnp) begin
      ccnpE = (&ccnp0_q) ? ccnp0_q : ccnp0_q + 1'b1;
      actE  = 1'b1;
      if (nic_q) begin
        if (first) begin
          aE    = alpha_init_q;
          cnpaE = 1'b0;
          cnpdE = 1'b1;
          dlaE  = XW'(t_q) + XW'(p_alpha_q);
          dldE  = XW'(t_q) + XW'(p_dec_q);
          if (first_rate_q != '0) begin
            rcE = first_rate_q;
            rtE = first_rate_q;
          end
        end else begin
          cnpaE = 1'b1;
          cnpdE = 1'b1;
        end
      end else begin
        rtE    = rcC;
        rcE    = (cut_res < rmin_q) ? rmin_q : cut_res;
        tE     = '0;
        bcE    = '0;
        byE    = '0;
        cdecE  = (&cdecB) ? cdecB : cdecB + 1'b1;
        aE     = astep(a_p, g_shift_q, 1'b1);
        dlaE   = XW'(t_q) + XW'(p_alpha_q);
        dliE   = XW'(t_q) + XW'(p_inc_q);
        inconE = 1'b1;
      end
    end else if (is_sent && incon_c_q && byte_reset_q != '0) begin
      bsum = (dcqcn_fmt_pkg::BYTE_W+1)'(byB) + (dcqcn_fmt_pkg::BYTE_W+1)'(bytes_q);
      byE  = bsum[dcqcn_fmt_pkg::BYTE_W] ? '1 : bsum[dcqcn_fmt_pkg::BYTE_W-1:0];
      if (byE >= byte_reset_q) begin
        byE = byE - byte_reset_q;
        enS = 1'b1;
      end
    end
  end

  dcqcn_rp_incr u_inc_s (
    .en_i(enS), .byte_event_i(1'b1), .byte_on_i(1'b1), .hai_grow_i(hai_grow_q),
    .f_i(f_q), .rai_i(rai_q), .rhai_i(rhai_q), .rmin_i(rmin_q), .line_i(line_q),
    .rc_i(rcE), .rt_i(rtE), .t_i(tE), .bc_i(bcE), .cfr_i(cfrC), .cai_i(caiC), .chai_i(chaiC),
    .rc_o(rcS), .rt_o(rtS), .t_o(tS), .bc_o(bcS), .cfr_o(cfrS), .cai_o(caiS), .chai_o(chaiS)
  );

  // ---- late and pack
  always_comb begin
    late_o = late_q;
    st_o = '0;
    st_o[dcqcn_fmt_pkg::W_RC +: RW]        = rcS;
    st_o[dcqcn_fmt_pkg::W_RT +: RW]        = rtS;
    st_o[dcqcn_fmt_pkg::W_ALPHA +: AW]     = aE;
    st_o[dcqcn_fmt_pkg::W_T +: SW]         = tS;
    st_o[dcqcn_fmt_pkg::W_BC +: SW]        = bcS;
    st_o[dcqcn_fmt_pkg::W_BYTES +: dcqcn_fmt_pkg::BYTE_W] = byE;
    st_o[dcqcn_fmt_pkg::W_DLA +: TW]       = TW'(dlaE);
    st_o[dcqcn_fmt_pkg::W_DLI +: TW]       = TW'(dliE);
    st_o[dcqcn_fmt_pkg::W_DLD +: TW]       = TW'(dldE);
    st_o[dcqcn_fmt_pkg::W_ACTIVE]          = actE;
    st_o[dcqcn_fmt_pkg::W_INCON]           = inconE;
    st_o[dcqcn_fmt_pkg::W_CNPA]            = cnpaE;
    st_o[dcqcn_fmt_pkg::W_CNPD]            = cnpdE;
    st_o[dcqcn_fmt_pkg::W_CCNP +: CW]      = ccnpE;
    st_o[dcqcn_fmt_pkg::W_CDEC +: CW]      = cdecE;
    st_o[dcqcn_fmt_pkg::W_CFR +: CW]       = cfrS;
    st_o[dcqcn_fmt_pkg::W_CAI +: CW]       = caiS;
    st_o[dcqcn_fmt_pkg::W_CHAI +: CW]      = chaiS;
  end
endmodule

`default_nettype wire
