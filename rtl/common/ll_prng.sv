// ll_prng: the project's shared random-number primitive.
//
// xoroshiro128+ (Blackman & Vigna), one full state step per accepted draw.
//   rand_o  = s0 + s1            (64 bits; with OutReg = 1 kept in its own register,
//                                 computed from the next state, so the adder is off the
//                                 consumer's path; with OutReg = 0 the sum of the state
//                                 registers, for a consumer that registers the bits it
//                                 takes anyway: the same value, without 64 flip-flops)
//   on en_i: s1' = s0 ^ s1
//            s0' = rotl(s0, 24) ^ s1' ^ (s1' << 16)
//            s1'' = rotl(s1', 37)
// A consumer reads rand_o in the cycle it makes a decision and pulses en_i in
// the same cycle, so every decision sees a fresh 64-bit draw (never a one-bit
// shift of the previous one). The low bits of xoroshiro128+ are weak: users
// take the bits they need from the top (rand_o[63 -: k]).
// Seeding: s0 = Seed, s1 = Seed ^ 64'h9E37_79B9_7F4A_7C15, so the state is never
// all-zero for any Seed. Bit-exact C++ twin: cpp_model/common/prng.h.
`default_nettype none

module ll_prng #(
  parameter logic [63:0] Seed   = 64'h0123_4567_89AB_CDEF,  // reset value of the state
  parameter bit          OutReg = 1'b1  // 1: rand_o from its own register; 0: s0 + s1 (same value)
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,   // synchronous, active low
  input  wire logic        en_i,     // advance the state (a draw was consumed)
  output logic [63:0]      rand_o    // current draw
);
  localparam logic [63:0] GOLDEN = 64'h9E37_79B9_7F4A_7C15;

  logic [63:0] s0_q, s1_q, s0_d, s1_d, t, rand_q;

  // rand_q == s0_q + s1_q after every edge (reset and step write both from the same
  // next state), so the two forms give the same draw; with OutReg = 0 rand_q has no
  // reader and synthesis removes it
  assign rand_o = OutReg ? rand_q : (s0_q + s1_q);

  assign t    = s0_q ^ s1_q;
  assign s0_d = {s0_q[39:0], s0_q[63:40]} ^ t ^ {t[47:0], 16'h0000};
  assign s1_d = {t[26:0], t[63:27]};

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      s0_q   <= Seed;
      s1_q   <= Seed ^ GOLDEN;
      rand_q <= Seed + (Seed ^ GOLDEN);
    end else if (en_i) begin
      s0_q   <= s0_d;
      s1_q   <= s1_d;
      rand_q <= s0_d + s1_d;
    end
  end
endmodule

`default_nettype wire
