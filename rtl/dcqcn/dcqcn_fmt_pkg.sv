// dcqcn_fmt_pkg: fixed-point formats and the per-QP state word of the DCQCN block.
//
// The formats are single-sourced in rtl/dcqcn/dcqcn_regs.json ("constants"), generated
// into dcqcn_regs_pkg.sv (RTL) and cpp_model/dcqcn/dcqcn_regs.h (C++ formats.h). This
// package cannot import the generated one (packages compile in file-name order), so it
// restates them and dcqcn.sv stops elaboration with $error if the two ever differ.
//
//   rate   RATE_W  = 40 bits, unsigned integer b/s
//   alpha  Q1.44   = 45 bits (ALPHA_FRAC = 44), 1.0 = 2^44
//   time   TIME_W  = 48 bits of ticks; wheel departure times Q48.16 (TIME_FRAC = 16)
// Error bound against the IEEE-double reference: docs/dcqcn.md, "Formats".
`default_nettype none

package dcqcn_fmt_pkg;
  localparam int RATE_W     = 40;
  localparam int ALPHA_FRAC = 44;
  localparam int ALPHA_W    = ALPHA_FRAC + 1;
  localparam int TIME_W     = 48;
  localparam int TIME_FRAC  = 16;
  localparam int STAGE_W    = 8;
  localparam int BYTE_W     = 32;
  localparam int QCNT_W     = 16;
  localparam int MBPS       = 1000000;
  localparam int CFG_Q16    = 16;

  // Per-QP state word of the RP's RAM (LSB first). C++ twin: ll::dcqcn::Qp<Fixed>.
  localparam int W_RC     = 0;                 // current rate Rc
  localparam int W_RT     = W_RC + RATE_W;     // target rate Rt
  localparam int W_ALPHA  = W_RT + RATE_W;     // alpha, Q1.44
  localparam int W_T      = W_ALPHA + ALPHA_W; // timer stage T
  localparam int W_BC     = W_T + STAGE_W;     // byte stage BC
  localparam int W_BYTES  = W_BC + STAGE_W;    // bytes since the last byte-counter expiry
  localparam int W_DLA    = W_BYTES + BYTE_W;  // next alpha update / alpha timer
  localparam int W_DLI    = W_DLA + TIME_W;    // next rate-increase timer expiry
  localparam int W_DLD    = W_DLI + TIME_W;    // next NIC decrease check
  localparam int W_ACTIVE = W_DLD + TIME_W;    // first CNP seen
  localparam int W_INCON  = W_ACTIVE + 1;      // increase timer / byte counter running
  localparam int W_CNPA   = W_INCON + 1;       // NIC: CNP since the last alpha update
  localparam int W_CNPD   = W_CNPA + 1;        // NIC: CNP since the last decrease check
  localparam int W_CCNP   = W_CNPD + 1;        // counters, QCNT_W bits each, saturating
  localparam int W_CDEC   = W_CCNP + QCNT_W;
  localparam int W_CFR    = W_CDEC + QCNT_W;
  localparam int W_CAI    = W_CFR + QCNT_W;
  localparam int W_CHAI   = W_CAI + QCNT_W;
  localparam int QP_W     = W_CHAI + QCNT_W;   // 401 bits

  // Event kinds of the RP pipeline (C++: ll::dcqcn::Ev).
  localparam logic [1:0] EV_SCAN = 2'd0;
  localparam logic [1:0] EV_CNP  = 2'd1;
  localparam logic [1:0] EV_SENT = 2'd2;
  localparam logic [1:0] EV_SNAP = 2'd3;
endpackage

`default_nettype wire
