// ll_init_sweep: post-reset clearing sweep for a RAM of Depth entries.
//
// From the first cycle after reset is released, we_o is high for exactly Depth
// cycles with addr_o = 0, 1, ..., Depth-1; the owner writes its reset value at
// addr_o. done_o rises in the cycle after the last write and stays high until
// the next reset. While done_o is low the owner accepts no traffic, so no RAM
// entry is ever read before it has been written (X-safe from the first cycle).
`default_nettype none

module ll_init_sweep #(
  parameter int Depth = 16,                              // entries to clear, >= 2
  parameter int AddrW = (Depth > 1) ? $clog2(Depth) : 1  // derived, do not override
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,   // synchronous, active low
  output logic                  we_o,
  output logic      [AddrW-1:0] addr_o,
  output logic                  done_o
);
  initial begin
    if (Depth < 2) $error("ll_init_sweep: Depth must be >= 2");
    if (AddrW != $clog2(Depth)) $error("ll_init_sweep: AddrW is derived from Depth; do not override it");
  end

  localparam logic [AddrW-1:0] LAST = AddrW'(Depth - 1);

  logic [AddrW-1:0] addr_q;
  logic             done_q;

  assign we_o   = !done_q;
  assign addr_o = addr_q;
  assign done_o = done_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      addr_q <= '0;
      done_q <= 1'b0;
    end else if (!done_q) begin
      if (addr_q == LAST) done_q <= 1'b1;
      else                addr_q <= addr_q + 1'b1;
    end
  end
endmodule

`default_nettype wire
