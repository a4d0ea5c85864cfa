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
  logic [CntB-1:0] base;
  logic [BW-1:0]   bidx;
  always_comb begin
    byte_bits = '0;
    base      = '0;
    bidx      = '0;
    for (int b = 0; b < NB; b++) begin
      if (in_byte[b]) begin
        byte_bits = byte_bits | padded[b*8 +: 8];
        base      = base | cum_i[b*CntB +: CntB];
        bidx      = bidx | BW'(b);
      end
    end
  end

  logic [CntB-1:0] off_full;
  logic [2:0]      off;
  assign off_full = k_i - base;
  assign off      = 3'(off_full);

  // inside the byte: bit i is wanted if it is set and has `off` set bits below it
  logic [2:0] bit_idx;
  always_comb begin
    logic [2:0] below;
    bit_idx = '0;
    below   = '0;
    for (int i = 0; i < 8; i++) begin
      if (byte_bits[i] && (below == off)) bit_idx = bit_idx | 3'(i);
      below = below + {2'b00, byte_bits[i]};
    end
  end

  logic [FW-1:0] full;
  assign full   = {bidx, bit_idx};
  assign port_o = full[PortAw-1:0];
endmodule

`default_nettype wire
