// Parsing and printing of the quantities a scenario file holds: durations ("1.5us"),
// link rates ("40G", "100Mbps") and byte counts ("2MB", "64KiB"). Decimal prefixes are
// powers of 1000 (KB = 1000 bytes, as the flow-size literature uses them); binary ones
// (KiB, MiB, GiB) are powers of 1024. Errors throw std::invalid_argument saying what
// was expected.
#pragma once
#include <cstdint>
#include <string>

#include "sim/time.h"

namespace ll::sim {

Time parse_time(const std::string& text);        // "10us", "1.5 ms", "250ns", "3s", "7ps"
uint64_t parse_rate(const std::string& text);    // bits/s: "40G", "40Gbps", "2.5Gb/s", "100M"
uint64_t parse_bytes(const std::string& text);   // "1500", "1500B", "2MB", "64KiB"

std::string format_time(Time t);         // "1.5 us"
std::string format_rate(uint64_t bps);   // "40 Gb/s"
std::string format_bytes(double bytes);  // "1.6 MB"

}  // namespace ll::sim
