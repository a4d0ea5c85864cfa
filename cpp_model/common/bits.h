// Small bit helpers shared by the models.
#pragma once
#include <cstdint>

namespace ll {

// ceil(log2(n)) for n >= 1, as SystemVerilog's $clog2.
constexpr unsigned clog2(uint64_t n) {
  return n <= 1 ? 0u : 64u - static_cast<unsigned>(__builtin_clzll(n - 1));
}
// A mask of the low `bits` bits (bits <= 64).
constexpr uint64_t low_mask(unsigned bits) { return bits >= 64 ? ~0ull : ((1ull << bits) - 1); }

}  // namespace ll
