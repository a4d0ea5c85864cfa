// The buffer calculator (DCQCN paper section 4; docs/pfc.md "Buffer calculator").
//
// All sizes are bytes and exact: sizes are integers, beta is a decimal fraction, and
// every bound is computed as an exact rational and printed rounded DOWN to the shown
// precision (they are strict upper bounds, so rounding down keeps them safe). The
// paper's KB and MB are decimal (1 KB = 1000 B).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ll::pfc::buffer {

// An exact non-negative rational num / den.
struct Q {
  __int128 num = 0, den = 1;
};

struct Inputs {
  std::optional<uint64_t> buffer;      // B, bytes
  std::optional<uint64_t> ports;       // n
  uint64_t prios = 8;                  // lossless priorities the analysis reserves for
  std::optional<uint64_t> tflight;     // headroom per port and priority, bytes (given)
  // t_flight derivation (used when tflight is not given)
  std::optional<Q> speed_gbps;
  std::optional<Q> cable_m;
  uint64_t mtu = 1500;
  std::optional<Q> response_ns;
  std::optional<Q> beta;
  // proposed settings to check
  std::optional<uint64_t> kmin, kmax, xoff;
};

struct Report {
  Q tflight;                // bytes
  bool tflight_derived = false;
  Q static_tpfc;            // (B - P n t_flight) / (P n)
  Q static_tecn;            // static_tpfc / n
  Q dynamic_tpfc_empty;     // beta (B - P n t_flight) / P   (s = 0)
  Q dynamic_tecn;           // beta (B - P n t_flight) / (P n (beta + 1))
  Q shared_size;            // B - P n t_flight: the RTL's SHARED_SIZE (reserved = 0)
  Q alpha;                  // beta / P: the RTL's alpha
  std::optional<int> alpha_shift;  // log2(alpha) when alpha is a power of two in 2^-8..2^7
};

// Parses "12MB", "22.4KB", "1500", "1.5e3"? (no: plain decimals with an optional
// K/KB/M/MB/G/GB suffix, decimal units) into bytes; throws std::invalid_argument.
uint64_t parse_bytes(const std::string& s, const std::string& what);
Q parse_decimal(const std::string& s, const std::string& what);  // "8", "0.5", "40"
// t_flight = R (2 L d + t_resp) / 8 + 2 MTU + 64, R in bit/s, d = 5 ns/m (docs/pfc.md).
Q derive_tflight(const Q& speed_gbps, const Q& cable_m, uint64_t mtu, const Q& response_ns);
// Validates the inputs and computes every bound; throws std::invalid_argument with one
// clear message on bad input.
Report compute(const Inputs& in);
// The printed report (several lines).
std::string format(const Inputs& in, const Report& r);
// x / 1000 rounded down to 2 decimals, e.g. 24475 -> "24.47".
std::string kb(const Q& bytes);
// Command-line front end: returns the exit code; output on out, one error line on err.
int run(const std::vector<std::string>& args, std::string& out, std::string& err);

}  // namespace ll::pfc::buffer
