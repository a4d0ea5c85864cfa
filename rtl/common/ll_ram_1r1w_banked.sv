// ll_ram_1r1w_banked: the RAM of ll_ram_1r1w (same ports, same cycle behaviour) built from
// banks of at most BankWords entries, for memories deeper than the SRAM macro that meets
// the clock. The SG13G2 two-port macros of 1,024 words deliver read data 4.31 ns after the
// clock (typical corner), more than a 4 ns cycle; the 256-word macro 2.95 ns
// (docs/synthesis.md, "Static timing", memories), which leaves a 4:1 multiplexer and the next
// register's setup inside the cycle.
//
// Up to BankWords entries it is one ll_ram_1r1w. Above, bank b holds entries
// b * BankWords .. b * BankWords + BankWords - 1; the last bank is
// a whole BankWords deep even when Depth is not a multiple (a macro comes in whole words).
// A write goes to one bank; a read enables only the bank it addresses (the others hold
// their last read word, as a macro does with its enable low), and a register of the bank
// number, loaded with the read, selects the bank's word: read latency 1, read-first, and
// rdata_o holds while re_i is low, exactly as ll_ram_1r1w.
// Every read and write address must be < Depth: simulation asserts it (each bank checks
// its own range; this level checks the bank number).
`default_nettype none

// The assertion macros: flows list rtl/common/ll_assert.svh first; a file linted on its own
// finds it through -I rtl/common.
`ifndef LL_ASSERT_SVH
`include "ll_assert.svh"
`endif

module ll_ram_1r1w_banked #(
  parameter int Width     = 8,                       // bits per entry, >= 1
  parameter int Depth     = 1024,                    // entries, >= 2
  parameter int BankWords = 256,                     // entries per bank, a power of two >= 2
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
  localparam int BW    = (BankWords > 1) ? $clog2(BankWords) : 1;  // address bits in a bank
  localparam int Banks = (Depth + BankWords - 1) / BankWords;
  localparam int SW    = (AddrW > BW) ? AddrW - BW : 1;             // bank number bits

  initial begin
    if (Width < 1) $error("ll_ram_1r1w_banked: Width must be >= 1");
    if (BankWords < 2 || (BankWords & (BankWords - 1)) != 0)
      $error("ll_ram_1r1w_banked: BankWords must be a power of two >= 2");
    if (Depth < 2) $error("ll_ram_1r1w_banked: Depth must be >= 2");
    if (AddrW != $clog2(Depth)) $error("ll_ram_1r1w_banked: AddrW is derived from Depth; do not override it");
  end

  if (Depth <= BankWords) begin : g_one
    ll_ram_1r1w #(.Width(Width), .Depth(Depth)) u_ram (
      .clk_i(clk_i), .we_i(we_i), .waddr_i(waddr_i), .wdata_i(wdata_i),
      .re_i(re_i), .raddr_i(raddr_i), .rdata_o(rdata_o)
    );
  end else begin : g_banks
    logic [Width-1:0] bank_rdata [Banks];
    logic [SW-1:0]    sel_q;

    for (genvar b = 0; b < Banks; b++) begin : g_bank
      ll_ram_1r1w #(.Width(Width), .Depth(BankWords)) u_ram (
        .clk_i(clk_i),
        .we_i(we_i && waddr_i[AddrW-1:BW] == SW'(b)), .waddr_i(waddr_i[BW-1:0]), .wdata_i(wdata_i),
        .re_i(re_i && raddr_i[AddrW-1:BW] == SW'(b)), .raddr_i(raddr_i[BW-1:0]),
        .rdata_o(bank_rdata[b])
      );
    end

    always_ff @(posedge clk_i) begin
      if (re_i) sel_q <= raddr_i[AddrW-1:BW];
    end

    // sel_q is a bank number: the bounds assertion below keeps reads inside Depth
    assign rdata_o = bank_rdata[sel_q];
  end

`ifndef SYNTHESIS
  // Bounds, as in ll_ram_1r1w: an address past Depth - 1 selects no bank (or the unused
  // tail of the last one) and stops the simulation; from the third clock edge on (the
  // owner's address flops are random before its first reset edge).
  logic [1:0] a_edges_q = 2'd0;
  always_ff @(posedge clk_i) begin
    if (a_edges_q != 2'd2) a_edges_q <= a_edges_q + 2'd1;
    if (a_edges_q == 2'd2) begin
      if (re_i) `LL_ASSERT(`LL_INRANGE(raddr_i, Depth),
        ("ll_ram_1r1w_banked: read address %0d past the last entry (Depth %0d)", raddr_i, Depth))
      if (we_i) `LL_ASSERT(`LL_INRANGE(waddr_i, Depth),
        ("ll_ram_1r1w_banked: write address %0d past the last entry (Depth %0d)", waddr_i, Depth))
    end
  end
`endif
endmodule

`default_nettype wire
