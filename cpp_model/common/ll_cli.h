// Command-line helpers shared by the project's tools (CLI11, Debian libcli11-dev).
#pragma once
#include <CLI/CLI.hpp>

#include <cctype>
#include <cmath>
#include <exception>
#include <sstream>
#include <string>

namespace ll::cli {

// A count: decimal digits only, at most 2^64 - 1 (no sign, no unit, no trailing text).
inline bool is_count(const std::string& s) {
  if (s.empty() || s.size() > 20) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return s.size() < 20 || s <= "18446744073709551615";  // same length: compares as numbers
}

// A count (ports, priorities, bytes of an MTU, cycles, seeds): is_count. CLI11's own
// conversion wraps "-3" into a huge unsigned value and its range checks print doubles;
// this names the problem instead.
inline const CLI::Validator Count(
    [](std::string& s) -> std::string {
      if (s.empty()) return "a count must not be empty";
      if (!is_count(s)) return "'" + s + "' is not a count (a whole number up to 2^64 - 1, no sign or unit)";
      return "";
    },
    "COUNT");

// A decimal number in [lo, hi] (lo excluded when lo_open): "--line: 'abc' is not a
// number" rather than CLI11's range message with its 300-digit bound.
inline CLI::Validator Decimal(double lo, double hi, bool lo_open = false) {
  return CLI::Validator(
      [=](std::string& s) -> std::string {
        size_t used = 0;
        double v = 0;
        try {
          v = std::stod(s, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != s.size() || !std::isfinite(v)) return "'" + s + "' is not a number";
        if (v < lo || v > hi || (lo_open && v == lo)) {
          std::ostringstream os;
          os << "'" << s << "' is outside " << (lo_open ? "(" : "[") << lo << ", " << hi << "]";
          return os.str();
        }
        return "";
      },
      "NUMBER");
}

}  // namespace ll::cli
