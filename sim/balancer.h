// A switch's load balancer (docs/sim.md, "Parts"): given the equal-cost next hops of a
// packet, it picks one. A switch with two or more fabric ports owns one, made by the
// balancer registry from the scenario's balancer.mode, and tells it the egress bytes of
// its fabric ports as they change. A new balancer is one file that implements this
// interface and one row in the registry (sim/balancer.cpp), plus its test and a docs row.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/routing.h"
#include "sim/scenario.h"
#include "sim/topology.h"

namespace ll::drill::cp { struct Tables; }

namespace ll::sim {

// What a balancer is built from.
struct BalancerContext {
  const Scenario& scenario;
  const Topology& topo;
  NodeId node;                  // the switch
  std::vector<PortId> fabric;   // its fabric ports (>= 2), in link order
  uint64_t seed;                // the switch's balancer seed (scenario seed, switch id)
};

class Balancer {
 public:
  virtual ~Balancer() = default;
  // One of `candidates` (>= 2 equal-cost ports) for a packet of the flow with the switch's
  // hash `hash`, handled by ingress engine `engine`, towards a host attached to `dst_edge`.
  virtual PortId choose(PortSpan candidates, unsigned engine, uint32_t hash, NodeId dst_edge) = 0;
  // The egress queue of fabric port `port` now holds `bytes`.
  virtual void occupancy(PortId port, uint64_t bytes) = 0;
  // Symmetric components from the control plane (balancer.components): the switch's
  // tables and, per destination edge switch, its group (-1: none). A balancer that has no
  // component stage says so with a ScenarioError-worthy message in std::invalid_argument.
  virtual void components(const drill::cp::Tables& tables, std::vector<int> group_of_edge) = 0;
};

using BalancerFactory = std::unique_ptr<Balancer> (*)(const BalancerContext&);

struct BalancerEntry {
  const char* name;       // balancer.mode
  const char* what;       // one line for docs and --help
  BalancerFactory make;
};

// Every balancer the simulator has, in the order the docs list them.
const std::vector<BalancerEntry>& balancer_registry();
// The entry named `name`, or nullptr.
const BalancerEntry* find_balancer(const std::string& name);
// "ecmp, random, ..." for messages.
std::string balancer_names();

}  // namespace ll::sim
