// The fabric as an explicit graph: nodes (hosts and switches with a tier label) joined by
// full-duplex links (rate in bits/s, one-way propagation delay in ps). Every node's ports
// are numbered 0..n-1 in the order its links were created; a port is one end of one link.
//
// Invariants: hosts are added before any switch, so host i is node i (0 <= i < num_hosts());
// names are unique; hosts never link to hosts. A failed link stays in the graph (its ports
// keep their numbers, as on a real switch whose cable was pulled) but routing ignores it.
//
// Builders for the standard fabrics are below; impossible parameters throw one
// std::invalid_argument whose message starts with the parameter's name.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/time.h"

namespace ll::sim {

using NodeId = uint32_t;
using LinkId = uint32_t;
using PortId = uint32_t;

enum class NodeKind : uint8_t { Host, Switch };

struct Port {
  LinkId link;
  NodeId peer;
  PortId peer_port;
};

struct Node {
  NodeKind kind;
  std::string name;
  std::string tier;  // "host", "leaf", "spine", "tor", "edge", "agg", "core", ...
  int level;         // 0 = host, 1 = the switches hosts attach to, 2 = next tier up, ...
  int pod;           // pod / group index where the topology has one, else -1
  std::vector<Port> ports;
};

struct Link {
  NodeId a, b;
  PortId a_port, b_port;
  uint64_t bps;  // each direction
  Time delay;    // one-way propagation delay
  bool failed = false;
};

struct LinkSpec {
  uint64_t bps;
  Time delay;
};

class Topology {
 public:
  explicit Topology(std::string description = "custom") : description_(std::move(description)) {}

  // --- construction ---
  NodeId add_host(const std::string& name);
  NodeId add_switch(const std::string& name, const std::string& tier, int level, int pod = -1);
  LinkId connect(NodeId a, NodeId b, const LinkSpec& spec);

  // --- modifiers (asymmetric variants) ---
  // Unequal striping: makes exactly `count` parallel links between two switches that are
  // already linked (new links copy the first existing one's rate and delay; count 0
  // removes them all). Ports of every node are renumbered afterwards.
  void set_parallel_links(NodeId a, NodeId b, unsigned count);
  void set_link_rate(LinkId l, uint64_t bps);
  void set_link_delay(LinkId l, Time delay);
  void fail_link(LinkId l);

  // --- queries ---
  const std::string& description() const { return description_; }
  size_t num_nodes() const { return nodes_.size(); }
  size_t num_hosts() const { return num_hosts_; }
  size_t num_switches() const { return nodes_.size() - num_hosts_; }
  size_t num_links() const { return links_.size(); }
  size_t num_failed_links() const;
  const Node& node(NodeId n) const { return nodes_.at(n); }
  const Link& link(LinkId l) const { return links_.at(l); }
  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<Link>& links() const { return links_; }
  bool is_host(NodeId n) const { return n < num_hosts_; }
  // Node called `name`; std::invalid_argument("no node named ...") if none.
  NodeId find(const std::string& name) const;
  bool has(const std::string& name) const { return by_name_.count(name) != 0; }
  // Links between a and b in creation order (failed ones included).
  std::vector<LinkId> links_between(NodeId a, NodeId b) const;
  // Sum of the rates of a host's live links: what "load of the host link" is scaled to.
  uint64_t host_rate(NodeId host) const;
  // The share of a host's rate its edge switch can carry upwards: the edge switch's live
  // uplink capacity over its hosts' live link capacity, at most 1 (a 2:1 leaf gives 0.5);
  // 0 when the edge switch has no uplink.
  double uplink_share(NodeId host) const;
  // Tier names in level order, then first appearance ("host" first).
  std::vector<std::string> tiers() const;
  // "leaf-spine" style label of a link's two tiers, lower level first.
  std::string link_tier(LinkId l) const;

 private:
  void rebuild_ports();

  std::string description_;
  std::vector<Node> nodes_;
  std::vector<Link> links_;
  std::unordered_map<std::string, NodeId> by_name_;
  size_t num_hosts_ = 0;
};

// 2-tier leaf-spine: every leaf links to every spine; hosts_per_leaf hosts per leaf.
// Names: h<i> (hosts numbered leaf by leaf), leaf<i>, spine<j>; pod = leaf index.
struct LeafSpineParams {
  uint32_t spines = 4;
  uint32_t leaves = 4;
  uint32_t hosts_per_leaf = 8;
  LinkSpec host_link{10'000'000'000ull, 1 * kUs};    // host - leaf
  LinkSpec fabric_link{40'000'000'000ull, 1 * kUs};  // leaf - spine
};
Topology build_leaf_spine(const LeafSpineParams& p);

// The DCQCN paper's 3-tier testbed (Figure 2): ToRs T1..T4, leaves L1..L4, spines S1, S2,
// all links 40G. Reading of the figure and text (the victim-flow experiment): two pods,
// {T1, T2} under {L1, L2} and {T3, T4} under {L3, L4}; every ToR links to both leaves of its
// pod; every leaf links to both spines. The benchmark puts five hosts under each ToR.
struct DcqcnTestbedParams {
  uint32_t hosts_per_tor = 5;
  LinkSpec host_link{40'000'000'000ull, 1 * kUs};       // host - ToR
  LinkSpec tor_leaf_link{40'000'000'000ull, 1 * kUs};   // ToR - leaf
  LinkSpec leaf_spine_link{40'000'000'000ull, 1 * kUs}; // leaf - spine
};
Topology build_dcqcn_testbed(const DcqcnTestbedParams& p);

// k-ary fat-tree (Al-Fares et al.): k pods of k/2 edge and k/2 aggregation switches,
// (k/2)^2 core switches, k/2 hosts per edge switch (k^3/4 hosts). Aggregation switch i of
// every pod links to cores i*k/2 .. i*k/2 + k/2 - 1. Names: h<i>, edge<p>_<i>, agg<p>_<i>,
// core<i>.
struct FatTreeParams {
  uint32_t k = 4;
  LinkSpec host_link{10'000'000'000ull, 1 * kUs};      // host - edge
  LinkSpec edge_agg_link{10'000'000'000ull, 1 * kUs};  // edge - aggregation
  LinkSpec agg_core_link{10'000'000'000ull, 1 * kUs};  // aggregation - core
};
Topology build_fat_tree(const FatTreeParams& p);

// Largest fabric the builders accept (hosts); beyond it the routing tables alone would
// not fit a developer machine.
constexpr uint64_t kMaxHosts = 1u << 20;

}  // namespace ll::sim
