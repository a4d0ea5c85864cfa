// Shortest-path routing over the live links of a Topology: for every node and destination
// host, the set of equal-cost next-hop ports (ports whose peer is one hop closer to the
// destination). These are the candidate sets a load balancer chooses from (ECMP hashes
// over them, DRILL samples them); choosing among them is not routing's business.
//
// Paths never transit a host. Hosts whose live links all go to one switch (every builder's
// hosts) share one breadth-first search from that switch, so the table is
// (nodes x such groups), not (nodes x hosts); the attachment switch itself looks up the
// destination's own port(s). Hop distances are kept in 8 bits (a fabric deeper than 254
// hops is rejected).
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "sim/topology.h"

namespace ll::sim {

struct PortSpan {
  const PortId* first = nullptr;
  const PortId* last = nullptr;
  const PortId* begin() const { return first; }
  const PortId* end() const { return last; }
  size_t size() const { return static_cast<size_t>(last - first); }
  bool empty() const { return first == last; }
  PortId operator[](size_t i) const { return first[i]; }
};

class Routing {
 public:
  static constexpr uint32_t kUnreachable = 0xFFFFFFFFu;

  explicit Routing(const Topology& topo);

  // Equal-cost next-hop ports of `node` towards host `dst`; empty when node == dst or when
  // dst cannot be reached from node.
  PortSpan next_hops(NodeId node, NodeId dst) const;
  // Hops from `node` to host `dst` over live links, kUnreachable if none.
  uint32_t distance(NodeId node, NodeId dst) const;
  // Number of distinct shortest paths (counting parallel links separately) from every
  // node to host `dst`; saturates at UINT64_MAX.
  std::vector<uint64_t> path_counts_to(NodeId dst) const;
  uint64_t path_count(NodeId src, NodeId dst) const { return path_counts_to(dst).at(src); }
  // The disconnected host pair (lower index first) that sorts first;
  // (kUnreachable, kUnreachable) if every host reaches every other one.
  std::pair<uint32_t, uint32_t> first_unreachable_pair() const;
  // std::invalid_argument("hosts <a> and <b> are disconnected ...") if any pair is.
  void check_all_reachable() const;

  const Topology& topology() const { return topo_; }
  size_t num_groups() const { return roots_.size(); }

 private:
  struct Bfs {
    std::vector<uint32_t> dist;   // per node
    std::vector<NodeId> order;    // nodes reached, by non-decreasing distance
  };
  Bfs bfs(uint32_t group) const;
  bool usable_peer(uint32_t group, NodeId peer) const;

  const Topology& topo_;
  std::vector<NodeId> roots_;           // per group: attachment switch, or the host itself
  std::vector<uint32_t> host_group_;    // per host
  std::vector<uint8_t> dist_;           // [node * groups + group], 255 = unreachable
  std::vector<uint32_t> offset_;        // CSR over [node * groups + group]
  std::vector<PortId> ports_;
  std::vector<uint32_t> down_offset_;   // per host: its live ports on its attachment switch
  std::vector<PortId> down_ports_;
};

}  // namespace ll::sim
