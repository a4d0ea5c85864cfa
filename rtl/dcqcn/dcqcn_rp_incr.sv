// dcqcn_rp_incr: one DCQCN rate-increase event (combinational).
//
// The stage before this event selects the phase (T = timer stage, BC = byte stage; BC
// follows T when the byte counter is off): max(T,BC) < F fast recovery, min(T,BC) > F
// hyper increase (step i*R_HAI with i = min-F if HaiGrow, else R_HAI), otherwise
// additive increase. Rt is capped at the line rate; Rc = max(Rmin, floor(Rc/2) +
// floor(Rt/2)). Then the event's own stage counts up (saturating).
// C++ twin: ll::dcqcn::increase() in cpp_model/dcqcn/rp_core.h.
`default_nettype none

module dcqcn_rp_incr (
  input  wire logic                          en_i,         // apply the event (else pass through)
  input  wire logic                          byte_event_i, // 1: byte-counter event, 0: timer event
  input  wire logic                          byte_on_i,    // byte counter configured
  input  wire logic                          hai_grow_i,
  input  wire logic [dcqcn_fmt_pkg::STAGE_W-1:0] f_i,          // threshold F
  input  wire logic [dcqcn_fmt_pkg::RATE_W-1:0]  rai_i,
  input  wire logic [dcqcn_fmt_pkg::RATE_W-1:0]  rhai_i,
  input  wire logic [dcqcn_fmt_pkg::RATE_W-1:0]  rmin_i,
  input  wire logic [dcqcn_fmt_pkg::RATE_W-1:0]  line_i,
  input  wire logic [dcqcn_fmt_pkg::RATE_W-1:0]  rc_i,
  input  wire logic [dcqcn_fmt_pkg::RATE_W-1:0]  rt_i,
  input  wire logic [dcqcn_fmt_pkg::STAGE_W-1:0] t_i,
  input  wire logic [dcqcn_fmt_pkg::STAGE_W-1:0] bc_i,
  input  wire logic [dcqcn_fmt_pkg::QCNT_W-1:0]  cfr_i,
  input  wire logic [dcqcn_fmt_pkg::QCNT_W-1:0]  cai_i,
  input  wire logic [dcqcn_fmt_pkg::QCNT_W-1:0]  chai_i,
  output logic      [dcqcn_fmt_pkg::RATE_W-1:0]  rc_o,
  output logic      [dcqcn_fmt_pkg::RATE_W-1:0]  rt_o,
  output logic      [dcqcn_fmt_pkg::STAGE_W-1:0] t_o,
  output logic      [dcqcn_fmt_pkg::STAGE_W-1:0] bc_o,
  output logic      [dcqcn_fmt_pkg::QCNT_W-1:0]  cfr_o,
  output logic      [dcqcn_fmt_pkg::QCNT_W-1:0]  cai_o,
  output logic      [dcqcn_fmt_pkg::QCNT_W-1:0]  chai_o
);
  localparam int RW = dcqcn_fmt_pkg::RATE_W;
  localparam int SW = dcqcn_fmt_pkg::STAGE_W;

  logic [SW-1:0]   bb, mx, mn, i_step;
  logic [RW+SW:0]  add, sum;     // i * R_HAI and Rt + step (no overflow before the cap)
  logic [RW-1:0]   rt_new, half;

  always_comb begin
    bb     = byte_on_i ? bc_i : t_i;
    mx     = (t_i > bb) ? t_i : bb;
    mn     = (t_i < bb) ? t_i : bb;
    i_step = hai_grow_i ? (mn - f_i) : SW'(1);
    add    = '0;
    if (f_i > mx) begin
      add = '0;                                        // fast recovery
    end else if (mn > f_i) begin
      add = (RW+SW+1)'(i_step) * (RW+SW+1)'(rhai_i);   // hyper increase
    end else begin
      add = (RW+SW+1)'(rai_i);                         // additive increase
    end
    sum    = (RW+SW+1)'(rt_i) + add;
    rt_new = (sum > (RW+SW+1)'(line_i)) ? line_i : sum[RW-1:0];
    half   = {1'b0, rc_i[RW-1:1]} + {1'b0, rt_new[RW-1:1]};

    rc_o   = rc_i;
    rt_o   = rt_i;
    t_o    = t_i;
    bc_o   = bc_i;
    cfr_o  = cfr_i;
    cai_o  = cai_i;
    chai_o = chai_i;
    if (en_i) begin
      rt_o = rt_new;
      rc_o = (half < rmin_i) ? rmin_i : half;
      if (f_i > mx)     cfr_o  = (&cfr_i)  ? cfr_i  : cfr_i + 1'b1;
      else if (mn > f_i) chai_o = (&chai_i) ? chai_i : chai_i + 1'b1;
      else                                 cai_o  = (&cai_i)  ? cai_i  : cai_i + 1'b1;
      if (byte_event_i) bc_o = (&bc_i) ? bc_i : bc_i + 1'b1;
      else              t_o  = (&t_i)  ? t_i  : t_i + 1'b1;
    end
  end
endmodule

`default_nettype wire
