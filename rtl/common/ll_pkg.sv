// ll_pkg: constants and constant functions shared by every block.
`default_nettype none

package ll_pkg;
  localparam logic [63:0] GOLDEN = 64'h9E37_79B9_7F4A_7C15;

  // Seed of instance `index` derived from a base seed (splitmix64 finaliser).
  // Bit-exact twin: ll::derive_seed() in cpp_model/common/prng.h.
  function automatic logic [63:0] derive_seed(input logic [63:0] base, input int index);
    logic [63:0] z;
    z = base + (64'(index) + 64'd1) * GOLDEN;
    z = (z ^ (z >> 30)) * 64'hBF58_476D_1CE4_E5B9;
    z = (z ^ (z >> 27)) * 64'h94D0_49BB_1331_11EB;
    derive_seed = z ^ (z >> 31);
  endfunction
endpackage

`default_nettype wire
