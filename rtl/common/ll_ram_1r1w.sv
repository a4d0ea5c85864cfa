// ll_ram_1r1w: simple dual-port RAM, one write port and one read port, one clock.
//
// Read latency: 1 cycle. rdata_o shows mem[raddr_i] one clock after re_i is
// high, and holds its value while re_i is low.
// Read during write to the same address: READ-FIRST, i.e. rdata_o returns the
// OLD contents; users forward the new value themselves (pipelined RMW).
// Contents are NOT reset (they are X / randomised in simulation); pair the RAM
// with ll_init_sweep so every entry is written before it is read.
// Every read (re_i) and write (we_i) address must be < Depth: simulation asserts it.
// Maps to block RAM on FPGAs and is reported as memory bits by `make synth`.
`default_nettype none

// The assertion macros: flows list rtl/common/ll_assert.svh first; a file linted on its own
// finds it through -I rtl/common.
`ifndef LL_ASSERT_SVH
`include "ll_assert.svh"
`endif

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
    if (re_i) rdata_o <= mem[raddr_i];  // cov-waiver: ram_no_read
  end

`ifndef SYNTHESIS
  // Bounds: an access past the last entry is a design error (there is no storage there:
  // a simulator returns garbage or drops the write), so it stops the simulation instead
  // (the benches compile with --assert). Users whose address can exceed Depth - 1 (a
  // depth that is not a power of two) must gate it. The RAM has no reset, so the check
  // starts at the third clock edge: before the owner's first reset edge its address
  // flops hold random start-up values (X-randomised simulation).
  logic [1:0] a_edges_q = 2'd0;
  always_ff @(posedge clk_i) begin
    if (a_edges_q != 2'd2) a_edges_q <= a_edges_q + 2'd1;
    if (a_edges_q == 2'd2) begin
      // cov-waiver: ram_no_read_assert
      if (re_i) `LL_ASSERT(`LL_INRANGE(raddr_i, Depth),
        ("ll_ram_1r1w: read address %0d past the last entry (Depth %0d)", raddr_i, Depth))
      if (we_i) `LL_ASSERT(`LL_INRANGE(waddr_i, Depth),
        ("ll_ram_1r1w: write address %0d past the last entry (Depth %0d)", waddr_i, Depth))
    end
  end
`endif
endmodule

`default_nettype wire
