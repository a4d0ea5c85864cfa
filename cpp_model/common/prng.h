// Bit-exact twin of rtl/common/ll_prng.sv (xoroshiro128+).
// draw() returns the value rand_o shows before the step and then advances, which is
// what the RTL does in a cycle with en_i high.
#pragma once
#include <cstdint>

namespace ll {

class Prng {
 public:
  static constexpr uint64_t kGolden = 0x9E3779B97F4A7C15ull;

  explicit Prng(uint64_t seed = 0x0123456789ABCDEFull) : seed_(seed) { reset(); }

  void reset() {
    s0_ = seed_;
    s1_ = seed_ ^ kGolden;
  }
  uint64_t peek() const { return s0_ + s1_; }
  void advance() {
    const uint64_t t = s0_ ^ s1_;
    s0_ = rotl(s0_, 24) ^ t ^ (t << 16);
    s1_ = rotl(t, 37);
  }
  uint64_t draw() {
    const uint64_t r = peek();
    advance();
    return r;
  }
  // The top `bits` bits of the current draw (1..64): the RTL's rand_o[63 -: bits].
  static uint64_t top(uint64_t r, unsigned bits) { return bits >= 64 ? r : (r >> (64 - bits)); }
  uint64_t seed() const { return seed_; }

 private:
  static uint64_t rotl(uint64_t x, unsigned k) { return (x << k) | (x >> (64 - k)); }
  uint64_t seed_, s0_ = 0, s1_ = 0;
};

// Seed of engine/instance `index` derived from a base seed: the same formula is used
// in RTL parameters (see docs/CONVENTIONS.md), so every engine gets its own stream.
inline uint64_t derive_seed(uint64_t base, uint64_t index) {
  uint64_t z = base + (index + 1) * Prng::kGolden;  // splitmix64 finaliser
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace ll
