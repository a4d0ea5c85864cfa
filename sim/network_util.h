// Helpers the parts of the fabric (network.cpp, switch.cpp, nic.cpp) share; not an
// interface of the simulator.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>

#include "marker/marker.h"
#include "marker/marker_params.h"
#include "pfc/pfc.h"
#include "pfc/pfc_params.h"
#include "sim/net_config.h"
#include "sim/scenario.h"

namespace ll::sim::detail {

// A switch's hash of a flow: the 5-tuple hash mixed with the switch's seed and id.
inline uint32_t mix32(uint64_t a, uint64_t b, uint64_t c) {
  uint64_t z = a * 0x9E3779B97F4A7C15ull ^ (b << 21) ^ (c << 42) ^ c;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return static_cast<uint32_t>(z ^ (z >> 31));
}

// A scenario the network cannot be built from: one error naming the key.
[[noreturn]] inline void config_error(const Scenario& s, const std::string& key, const std::string& what) {
  throw ScenarioError(s.file, key, what);
}

// Whether a switch of `ports` ports can have the block: "" or the RTL parameter rule it
// breaks (rtl/<block>/<block>_params.json, through the model's generated check).
inline unsigned marker_queues(unsigned ports) { return std::max(2u, ports * BlockSizes::kMarkerQueuesPerPort); }
inline std::string marker_size_rule(unsigned ports) {
  marker::Config c;
  c.Queues = marker_queues(ports);
  return marker::params::check(c);
}
inline std::string pfc_size_rule(unsigned ports) {
  pfc::Config c;
  c.Ports = std::max(2u, ports);
  return pfc::params::check(c);
}

}  // namespace ll::sim::detail
