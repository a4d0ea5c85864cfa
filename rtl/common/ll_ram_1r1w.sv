// ll_ram_1r1w: simple dual-port RAM, one write port and one read port, one clock.
//
// Read latency: 1 cycle. rdata_o shows mem[raddr_i] one clock after re_i is
// high, and holds its value while re_i is low.
// Read during write to the same address: READ-FIRST, i.e. rdata_o returns the
// OLD contents; users forward the new value themselves (pipelined RMW).
// Contents are NOT reset (they are X / randomised in simulation); pair the RAM
// with ll_init_sweep so every entry is written before it is read.
// Maps to block RAM on FPGAs and is reported as memory bits by `make synth`.
`default_nettype none

module ll_ram_1r1w #(
  parameter int Width = 8,                       // bits per entry, >= 1
  parameter int Depth = 16,                      // entries, >= 2
  parameter int AddrW = (Depth > 1) ? $clog2(Depth) : 1  // derived, do not override
) (
  input  wire logic             clk_i,
  input  wire logic             we_i,
  input  wire logic [AddrW-1:0] waddr_i,
  input  wire logic [Width-1:0] wdata_i,
  input  wire logic             re_i,
  input  wire logic [AddrW-1:0] raddr_i,
  output logic      [Width-1:0] rdata_o
);
  initial begin
    if (Width < 1) $error("ll_ram_1r1w: Width must be >= 1");
    if (Depth < 2) $error("ll_ram_1r1w: Depth must be >= 2");
    if (AddrW != $clog2(Depth)) $error("ll_ram_1r1w: AddrW is derived from Depth; do not override it");
  end

  logic [Width-1:0] mem [Depth];

  always_ff @(posedge clk_i) begin
    if (we_i) mem[waddr_i] <= wdata_i;
  end

  always_ff @(posedge clk_i) begin
    if (re_i) rdata_o <= mem[raddr_i];
  end
endmodule

`default_nettype wire
