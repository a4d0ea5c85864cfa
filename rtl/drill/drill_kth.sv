// drill_kth: index of the k-th (0-based, counted from port 0 upwards) set bit of a
// candidate mask. Purely combinational; one instance per sample of an engine.
//
// The mask is cut into bytes. cum_i holds, for every byte b, the number of set bits
// below byte b (computed once per packet by the engine and shared by all samples).
// The selected byte is the one with cum[b] <= k < cum[b+1] (an empty byte can never
// satisfy both), then the (k - cum[b])-th set bit inside that byte is picked.
// For k >= popcount(mask) the result is meaningless; the engine never uses it.
`default_nettype none

module drill_kth #(
  parameter int Ports  = 16,                    // mask width, 2..64
  parameter int CntB   = $clog2(Ports + 1),     // derived: width of a count 0..Ports
  parameter int PortAw = $clog2(Ports),         // derived: width of a port index
  parameter int NB     = (Ports + 7) / 8        // derived: bytes in the mask
) (
  input  wire logic [Ports-1:0]   set_i,  // candidate mask
  input  wire logic [NB*CntB-1:0] cum_i,  // cum[b] = set bits in bytes 0..b-1 (cum[0] = 0)
  input  wire logic [CntB-1:0]    k_i,    // rank of the wanted candidate
  output logic      [PortAw-1:0]  port_o  // its port index
);
  initial begin
    if (Ports < 2 || Ports > 64) $error("drill_kth: Ports must be in 2..64");
    if (CntB != $clog2(Ports + 1)) $error("drill_kth: CntB is derived; do not override it");
    if (PortAw != $clog2(Ports)) $error("drill_kth: PortAw is derived; do not override it");
    if (NB != (Ports + 7) / 8) $error("drill_kth: NB is derived; do not override it");
  end

  localparam int BW = (NB > 1) ? $clog2(NB) : 1;   // byte-index width
  localparam int FW = BW + 3;                      // width of byte*8 + bit

  logic [NB*8-1:0] padded;
  assign padded = (NB * 8)'(set_i);

  // ge[b]: k >= cum[b]; the wanted byte is the last b with ge[b] (ge is monotone)
  logic [NB-1:0] in_byte;
  always_comb begin
    logic [NB:0] ge;
    ge[0]  = 1'b1;
    ge[NB] = 1'b0;
    for (int b = 1; b < NB; b++) ge[b] = (k_i >= cum_i[b*CntB +: CntB]);
    for (int b = 0; b < NB; b++) in_byte[b] = ge[b] && !ge[b+1];
  end

  logic [7:0]      byte_bits;
  logic [2:0]      base;  // low 3 bits of cum[b] of the selected byte (see off below)
  logic [BW-1:0]   bidx;
  always_comb begin
    byte_bits = '0;
    base      = '0;
    bidx      = '0;
    for (int b = 0; b < NB; b++) begin
      if (in_byte[b]) begin
        byte_bits = byte_bits | padded[b*8 +: 8];
        base      = base | 3'(cum_i[b*CntB +: CntB]);
        bidx      = bidx | BW'(b);
      end
    end
  end

  // offset inside the byte: k - cum[b] < 8, so 3 bits of the difference suffice
  logic [2:0] off;
  assign off = 3'(k_i) - base;

  // inside the byte, binary descent (log depth): nibble, then pair, then bit
  logic [2:0] n_lo4, off2_full;  // off2_full < 4 (bit 2 always 0)
  logic       hi4, hi2, hi1;
  logic [3:0] nib;
  logic [1:0] n_lo2, off2, off1;
  logic       pair0;  // bit 0 of the selected pair
  assign n_lo4     = 3'(byte_bits[0]) + 3'(byte_bits[1]) + 3'(byte_bits[2]) + 3'(byte_bits[3]);
  assign hi4       = (off >= n_lo4);
  assign nib       = hi4 ? byte_bits[7:4] : byte_bits[3:0];
  assign off2_full = hi4 ? (off - n_lo4) : off;
  assign off2      = off2_full[1:0];
  assign n_lo2     = 2'(nib[0]) + 2'(nib[1]);
  assign hi2       = (off2 >= n_lo2);
  assign pair0     = hi2 ? nib[2] : nib[0];
  assign off1      = hi2 ? (off2 - n_lo2) : off2;
  assign hi1       = (off1 >= 2'(pair0));

  logic [2:0] bit_idx;
  assign bit_idx = {hi4, hi2, hi1};

  logic [FW-1:0] full;
  assign full   = {bidx, bit_idx};
  assign port_o = full[PortAw-1:0];
endmodule

`default_nettype wire
