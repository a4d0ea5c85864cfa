#include "sim/units.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>

namespace ll::sim {
namespace {

// "<digits>[.<digits>]<spaces><unit>" -> (value, unit). Only plain non-negative
// decimals: no signs, exponents, hex, or trailing junk.
// `frac`, when given, receives the digits after the point (for an exact wholeness test).
std::pair<long double, std::string> split(const std::string& text, const char* what, std::string* frac = nullptr) {
  size_t i = 0;
  const size_t n = text.size();
  while (i < n && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  const size_t start = i;
  bool digits = false;
  while (i < n && std::isdigit(static_cast<unsigned char>(text[i]))) { ++i; digits = true; }
  if (i < n && text[i] == '.') {
    ++i;
    const size_t f0 = i;
    while (i < n && std::isdigit(static_cast<unsigned char>(text[i]))) { ++i; digits = true; }
    if (frac) *frac = text.substr(f0, i - f0);
  }
  if (!digits) {
    throw std::invalid_argument("\"" + text + "\" is not a " + what);
  }
  const long double v = std::strtold(text.substr(start, i - start).c_str(), nullptr);
  while (i < n && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  size_t end = n;
  while (end > i && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  return {v, text.substr(i, end - i)};
}

uint64_t to_u64(long double v, const std::string& text, const char* what) {
  const long double r = std::round(v);
  if (!(r >= 0) || r > 18446744073709549568.0L) {
    throw std::invalid_argument("\"" + text + "\" is out of range for a " + what);
  }
  return static_cast<uint64_t>(r);
}

std::string trim_number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

Time parse_time(const std::string& text) {
  static const char* what = "duration (a number and a unit: ps, ns, us, ms or s)";
  auto [v, unit] = split(text, what);
  long double scale;
  if (unit == "ps") scale = kPs;
  else if (unit == "ns") scale = kNs;
  else if (unit == "us") scale = kUs;
  else if (unit == "ms") scale = kMs;
  else if (unit == "s") scale = kSec;
  else throw std::invalid_argument("\"" + text + "\" is not a " + what);
  return to_u64(v * scale, text, "duration");
}

uint64_t parse_rate(const std::string& text) {
  static const char* what = "rate (a number and a unit: bps, K, M, G, T, Kbps, Mbps, Gbps, Tbps, Gb/s, ...)";
  auto [v, unit] = split(text, what);
  static const std::pair<const char*, long double> units[] = {
      {"bps", 1},   {"b/s", 1},    {"K", 1e3L},    {"Kbps", 1e3L}, {"Kb/s", 1e3L},
      {"M", 1e6L},  {"Mbps", 1e6L}, {"Mb/s", 1e6L}, {"G", 1e9L},    {"Gbps", 1e9L},
      {"Gb/s", 1e9L}, {"T", 1e12L}, {"Tbps", 1e12L}, {"Tb/s", 1e12L}};
  for (const auto& [name, scale] : units) {
    if (unit == name) return to_u64(v * scale, text, "rate");
  }
  throw std::invalid_argument("\"" + text + "\" is not a " + what);
}

uint64_t parse_bytes(const std::string& text) {
  static const char* what = "byte count (a number and optionally B, KB, MB, GB, KiB, MiB or GiB)";
  std::string frac;
  auto [v, unit] = split(text, what, &frac);
  long double scale;
  unsigned dec = 0, bin = 0;  // the unit is 10^dec or 2^bin bytes
  if (unit.empty() || unit == "B") scale = 1;
  else if (unit == "KB" || unit == "kB") scale = 1e3L, dec = 3;
  else if (unit == "MB") scale = 1e6L, dec = 6;
  else if (unit == "GB") scale = 1e9L, dec = 9;
  else if (unit == "KiB") scale = 1024.0L, bin = 10;
  else if (unit == "MiB") scale = 1024.0L * 1024, bin = 20;
  else if (unit == "GiB") scale = 1024.0L * 1024 * 1024, bin = 30;
  else throw std::invalid_argument("\"" + text + "\" is not a " + what);
  // A fraction of a byte is a mistake, not something to round ("1.5B"): tested exactly on
  // the digits after the point. With a decimal unit they must end within its power of ten;
  // with a binary one, fraction x 2^bin must be a whole number (0.5KiB = 512 B).
  while (!frac.empty() && frac.back() == '0') frac.pop_back();
  bool whole = frac.size() <= dec;
  if (!whole && bin > 0 && frac.size() <= 19) {
    unsigned __int128 f = 0, p10 = 1;
    for (char c : frac) {
      f = f * 10 + static_cast<unsigned>(c - '0');
      p10 *= 10;
    }
    whole = ((f << bin) % p10) == 0;
  }
  if (!whole) throw std::invalid_argument("\"" + text + "\" is not a whole number of bytes");
  return to_u64(v * scale, text, "byte count");
}

std::string format_time(Time t) {
  if (t == kNever) return "never";
  if (t >= kSec) return trim_number(static_cast<double>(t) / kSec) + " s";
  if (t >= kMs) return trim_number(static_cast<double>(t) / kMs) + " ms";
  if (t >= kUs) return trim_number(static_cast<double>(t) / kUs) + " us";
  if (t >= kNs) return trim_number(static_cast<double>(t) / kNs) + " ns";
  return std::to_string(t) + " ps";
}

std::string format_rate(uint64_t bps) {
  const double v = static_cast<double>(bps);
  if (v >= 1e12) return trim_number(v / 1e12) + " Tb/s";
  if (v >= 1e9) return trim_number(v / 1e9) + " Gb/s";
  if (v >= 1e6) return trim_number(v / 1e6) + " Mb/s";
  if (v >= 1e3) return trim_number(v / 1e3) + " Kb/s";
  return trim_number(v) + " b/s";
}

std::string format_bytes(double bytes) {
  if (bytes >= 1e9) return trim_number(bytes / 1e9) + " GB";
  if (bytes >= 1e6) return trim_number(bytes / 1e6) + " MB";
  if (bytes >= 1e3) return trim_number(bytes / 1e3) + " KB";
  return trim_number(bytes) + " B";
}

}  // namespace ll::sim
