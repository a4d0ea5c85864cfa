#include "sim/balancer.h"

#include <stdexcept>

namespace ll::sim {

BalancerFactory selector_factory(const std::string& mode);                // balancer_selector.cpp
std::unique_ptr<Balancer> make_letflow(const BalancerContext& ctx);      // balancer_letflow.cpp
std::unique_ptr<Balancer> make_presto(const BalancerContext& ctx);       // balancer_presto.cpp
std::unique_ptr<Balancer> make_conga(const BalancerContext& ctx);        // balancer_conga.cpp
std::unique_ptr<Balancer> make_conweave(const BalancerContext& ctx);     // balancer_conweave.cpp

void Balancer::components(const drill::cp::Tables&, std::vector<int>) {
  throw std::invalid_argument("this balancer has no symmetric-component stage (balancer.components needs a selector mode)");
}

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
      {"letflow", "LetFlow (NSDI'17): a random port per flowlet (a gap over balancer.flowlet_gap starts one)",
       make_letflow},
      {"presto", "Presto (SIGCOMM'15): 64 KB flowcells of a flow round robin over the paths, chosen at the first hop",
       make_presto},
      {"conga", "CONGA (SIGCOMM'14): per flowlet the source leaf's least congested path, from DRE metrics fed back leaf to leaf",
       make_conga},
      {"conweave", "ConWeave (SIGCOMM'23): RTT probes reroute a flow off a congested path; the destination ToR reorders",
       make_conweave},
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
