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
#include "sim/time.h"
#include "sim/topology.h"

namespace ll::drill::cp { struct Tables; }
namespace ll::sim::cosim { struct BlockStats; }

namespace ll::sim {

// Header fields balancers carry in a packet from switch to switch.
struct BalancerHeader {
  uint32_t label = 0;         // Presto: the flowcell's path label (0: none)
  uint8_t tag = 0xFF;         // CONGA LBTag: the source leaf's uplink (0xFF: none)
  uint8_t ce = 0;             // CONGA: the path's congestion so far (3 bits)
  uint8_t fb_tag = 0xFF;      // CONGA feedback for the reverse direction: uplink (0xFF: none)
  uint8_t fb_metric = 0;      //   and its metric
  uint8_t cw_flag = 0;        // ConWeave: 0 none; data: 1 RTT_REQUEST, 2 REROUTED; control: 3 RTT_REPLY, 4 CLEAR
  uint8_t cw_phase = 0;       // ConWeave: 0 before the reroute of this epoch, 1 after
  uint16_t cw_epoch = 0;      // ConWeave: the flow's epoch at the source ToR
  uint32_t cw_key = 0;        // ConWeave: the flow's key (the source ToR's flow hash)
  Time cw_tx = 0;             // ConWeave: when the source ToR sent the packet
  Time cw_tail = 0;           // ConWeave, REROUTED: when the last packet on the old path left
};

// What a balancer knows of the packet it routes or sees.
struct RouteQuery {
  Time now = 0;
  unsigned engine = 0;     // ingress engine (ingress port mod balancer.engines)
  uint32_t hash = 0;       // this switch's hash of the packet's flow (5-tuple)
  uint32_t payload = 0;    // payload bytes
  NodeId src_edge = 0;     // the switch the source host hangs off
  NodeId dst_edge = 0;     // the switch the destination host hangs off
  bool first_hop = false;  // the packet entered the fabric here (arrived from a host)
  bool data = false;       // a data packet (not ACK / NACK / CNP / a balancer's control packet)
  bool control = false;    // a balancer's control packet (BalancerEnv::send)
  NodeId src_host = 0, dst_host = 0;
  BalancerHeader* hdr = nullptr;
};

// What a balancer may ask of the switch it runs in (ConWeave's control packets, reorder
// queues and timers).
class BalancerEnv {
 public:
  virtual ~BalancerEnv() = default;
  // Send a control packet (64 bytes, the control priority) from switch `from` towards host
  // `to`; the switch that host hangs off sees it in `arrive` and should consume it.
  virtual void send(NodeId from, NodeId to, const BalancerHeader& h) = 0;
  // Forward, in arrival order, the packets switch `at` held under `key`.
  virtual void release(NodeId at, uint64_t key) = 0;
  // Call on_timer(token) of switch `at`'s balancer at `when`.
  virtual void timer(NodeId at, Time when, uint64_t token) = 0;
};

// What `arrive` decides for the packet: go on, stop here (a control packet for this
// switch), or wait in a queue under `key` until `release`.
struct ArriveVerdict {
  enum Action { Pass, Consume, Hold } action = Pass;
  uint64_t key = 0;
};

// What a balancer is built from.
struct BalancerContext {
  const Scenario& scenario;
  const Topology& topo;
  NodeId node;                  // the switch
  std::vector<PortId> fabric;   // its fabric ports (>= 2), in link order
  uint64_t seed;                // the switch's balancer seed (scenario seed, switch id)
  BalancerEnv* env = nullptr;   // the network (may be null in unit tests of balancers that need none)
};

class Balancer {
 public:
  virtual ~Balancer() = default;
  // One of `candidates` (>= 2 equal-cost ports) for the packet `q` describes.
  virtual PortId choose(PortSpan candidates, RouteQuery& q) = 0;
  // The egress queue of fabric port `port` now holds `bytes`.
  virtual void occupancy(PortId port, uint64_t bytes) = 0;
  // A packet of `wire` bytes leaves through fabric port `port` (CONGA's rate estimators).
  virtual void depart(PortId /*port*/, uint32_t /*wire*/, Time /*now*/, BalancerHeader& /*hdr*/) {}
  // A packet arrived from the fabric (CONGA's feedback tables, ConWeave's reorder queues);
  // `q.hdr` is its header.
  virtual ArriveVerdict arrive(const RouteQuery& /*q*/) { return {}; }
  // A timer booked through BalancerEnv::timer.
  virtual void on_timer(uint64_t /*token*/) {}
  // Co-simulation (docs/cosim.md): what this balancer's RTL block did; false if none.
  virtual bool cosim_stats(cosim::BlockStats* /*out*/) const { return false; }
  // Event counters for the report (summed over switches under their names).
  virtual std::vector<std::pair<const char*, uint64_t>> counters() const { return {}; }
  // Symmetric components from the control plane (balancer.components): the switch's
  // tables and, per destination edge switch, its group (-1: none). A balancer without a
  // component stage keeps this default, which refuses with the message the scenario error
  // shows.
  virtual void components(const drill::cp::Tables& tables, std::vector<int> group_of_edge);
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
