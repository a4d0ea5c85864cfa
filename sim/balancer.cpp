#include "sim/balancer.h"

namespace ll::sim {

BalancerFactory selector_factory(const std::string& mode);  // balancer_selector.cpp

const std::vector<BalancerEntry>& balancer_registry() {
  static const std::vector<BalancerEntry> r = {
      {"ecmp", "hash of the flow over the equal-cost ports (the DRILL selector's ECMP mode)",
       selector_factory("ecmp")},
      {"random", "a uniformly random equal-cost port per packet (selector, Random mode)",
       selector_factory("random")},
      {"rr", "per-engine round robin over the equal-cost ports (selector, RR mode)", selector_factory("rr")},
      {"drill", "DRILL(d, m): the least loaded of d samples and m remembered ports, per packet",
       selector_factory("drill")},
      {"per_flow", "DRILL for a flow's first packet, then the flow stays on that port",
       selector_factory("per_flow")},
  };
  return r;
}

const BalancerEntry* find_balancer(const std::string& name) {
  for (const BalancerEntry& e : balancer_registry())
    if (name == e.name) return &e;
  return nullptr;
}

std::string balancer_names() {
  std::string s;
  for (const BalancerEntry& e : balancer_registry()) s += (s.empty() ? "" : ", ") + std::string(e.name);
  return s;
}

}  // namespace ll::sim
