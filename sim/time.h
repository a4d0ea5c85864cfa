// Simulated time and the unit conversions the fabric simulator uses everywhere.
// Time is an integer number of picoseconds (uint64_t): 2^64 ps is about 213 days, so a
// run never wraps, and integer time makes every run bit-for-bit repeatable.
#pragma once
#include <cstdint>
#include <limits>

namespace ll::sim {

using Time = uint64_t;  // picoseconds

constexpr Time kPs = 1;
constexpr Time kNs = 1000 * kPs;
constexpr Time kUs = 1000 * kNs;
constexpr Time kMs = 1000 * kUs;
constexpr Time kSec = 1000 * kMs;
constexpr Time kNever = std::numeric_limits<Time>::max();

// Time to put `bytes` on a wire of `bps` bits per second, rounded up to a whole ps
// (a packet is never on the wire for less time than its bits need).
inline Time serialization_time(uint64_t bytes, uint64_t bps) {
  if (bps == 0) return kNever;
  const unsigned __int128 num = static_cast<unsigned __int128>(bytes) * 8u * kSec;
  const unsigned __int128 t = (num + bps - 1) / bps;
  return t > kNever ? kNever : static_cast<Time>(t);
}

}  // namespace ll::sim
