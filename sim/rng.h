// Seedable random source of the fabric simulator: splitmix64 (fully specified, so a run
// is reproducible across compilers and standard libraries, unlike std::*_distribution).
// Every consumer owns its own Rng, derived from the scenario seed with
// ll::derive_seed(base, index) (cpp_model/common/prng.h), so adding a host or a traffic
// source never shifts another one's stream. No global state.
#pragma once
#include <cmath>
#include <cstdint>

#include "common/prng.h"

namespace ll::sim {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}

  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  // Uniform in [0, n), exactly unbiased (Lemire's multiply-and-reject). below(0) == 0.
  uint64_t below(uint64_t n) {
    if (n == 0) return 0;
    unsigned __int128 m = static_cast<unsigned __int128>(next()) * n;
    uint64_t low = static_cast<uint64_t>(m);
    if (low < n) {
      const uint64_t threshold = (0 - n) % n;  // 2^64 mod n
      while (low < threshold) {
        m = static_cast<unsigned __int128>(next()) * n;
        low = static_cast<uint64_t>(m);
      }
    }
    return static_cast<uint64_t>(m >> 64);
  }

  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // Exponentially distributed with the given mean (> 0); never negative.
  double exponential(double mean) { return -mean * std::log1p(-uniform()); }

  // A new independent stream for sub-consumer `index` of this one.
  Rng fork(uint64_t index) { return Rng(ll::derive_seed(next(), index)); }

 private:
  uint64_t state_;
};

// Fisher-Yates shuffle driven by an Rng (std::shuffle's draw pattern is unspecified).
template <class Vec>
void shuffle(Vec& v, Rng& rng) {
  for (size_t i = v.size(); i > 1; --i) {
    const size_t j = static_cast<size_t>(rng.below(i));
    std::swap(v[i - 1], v[j]);
  }
}

}  // namespace ll::sim
