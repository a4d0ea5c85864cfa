// Equal-cost next-hop sets and path counts.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "sim/routing.h"

namespace ll::sim {
namespace {

std::set<std::string> peers(const Topology& t, const Routing& r, NodeId node, NodeId dst) {
  std::set<std::string> out;
  for (PortId p : r.next_hops(node, dst)) out.insert(t.node(t.node(node).ports[p].peer).name);
  return out;
}

TEST(Routing, LeafSpineCandidatesAndPathCounts) {
  LeafSpineParams p;
  p.spines = 4;
  p.leaves = 3;
  p.hosts_per_leaf = 2;
  const Topology t = build_leaf_spine(p);
  const Routing r(t);
  r.check_all_reachable();
  const NodeId leaf0 = t.find("leaf0"), spine2 = t.find("spine2");
  // h0, h1 on leaf0; h2, h3 on leaf1; h4, h5 on leaf2.
  EXPECT_EQ(peers(t, r, leaf0, 4), (std::set<std::string>{"spine0", "spine1", "spine2", "spine3"}));
  EXPECT_EQ(peers(t, r, leaf0, 1), (std::set<std::string>{"h1"}));
  EXPECT_EQ(peers(t, r, spine2, 4), (std::set<std::string>{"leaf2"}));
  EXPECT_EQ(peers(t, r, 0, 4), (std::set<std::string>{"leaf0"}));
  EXPECT_TRUE(r.next_hops(3, 3).empty());
  EXPECT_EQ(r.path_count(0, 4), 4u);
  EXPECT_EQ(r.path_count(0, 1), 1u);
  EXPECT_EQ(r.path_count(5, 2), 4u);
  EXPECT_EQ(r.distance(0, 4), 4u);
  EXPECT_EQ(r.distance(0, 1), 2u);
  EXPECT_EQ(r.distance(leaf0, 1), 1u);
  EXPECT_EQ(r.distance(spine2, 0), 2u);
  EXPECT_EQ(r.distance(3, 3), 0u);
  EXPECT_EQ(r.num_groups(), 3u);  // one per leaf
}

TEST(Routing, FatTreePathCounts) {
  for (uint32_t k : {4u, 6u}) {
    FatTreeParams p;
    p.k = k;
    const Topology t = build_fat_tree(p);
    const Routing r(t);
    r.check_all_reachable();
    const uint64_t half = k / 2;
    // h0 and h1 share edge0_0; h<half> is on edge0_1 (same pod); the last host is in pod k-1.
    EXPECT_EQ(r.path_count(0, 1), 1u);
    EXPECT_EQ(r.path_count(0, static_cast<NodeId>(half)), half);
    const NodeId far = static_cast<NodeId>(t.num_hosts() - 1);
    EXPECT_EQ(r.path_count(0, far), half * half);
    EXPECT_EQ(r.distance(0, far), 6u);
    EXPECT_EQ(r.next_hops(t.find("edge0_0"), far).size(), half);
    EXPECT_EQ(r.next_hops(t.find("agg0_0"), far).size(), half);
    EXPECT_EQ(r.next_hops(t.find("core0"), far).size(), 1u);
    EXPECT_EQ(r.next_hops(t.find("agg0_0"), 0).size(), 1u);  // down to edge0_0
  }
}

TEST(Routing, DcqcnTestbedPaths) {
  const Topology t = build_dcqcn_testbed({});
  const Routing r(t);
  // h0 under T1, h5 under T2 (same pod), h15 under T4 (other pod).
  EXPECT_EQ(r.path_count(0, 5), 2u);
  EXPECT_EQ(r.path_count(0, 15), 8u);
  EXPECT_EQ(peers(t, r, t.find("T1"), 15), (std::set<std::string>{"L1", "L2"}));
  EXPECT_EQ(peers(t, r, t.find("S1"), 15), (std::set<std::string>{"L3", "L4"}));
  EXPECT_EQ(peers(t, r, t.find("L3"), 15), (std::set<std::string>{"T4"}));
}

TEST(Routing, FailedLinkRemovesCandidates) {
  Topology t = build_leaf_spine({});  // 4 spines, 4 leaves, 8 hosts each
  const NodeId leaf0 = t.find("leaf0"), leaf1 = t.find("leaf1"), spine0 = t.find("spine0");
  t.fail_link(t.links_between(leaf0, spine0).at(0));
  const Routing r(t);
  r.check_all_reachable();
  // Towards leaf0's hosts spine0 is no longer on a shortest path from other leaves.
  EXPECT_EQ(peers(t, r, leaf1, 0), (std::set<std::string>{"spine1", "spine2", "spine3"}));
  EXPECT_EQ(peers(t, r, leaf0, 8), (std::set<std::string>{"spine1", "spine2", "spine3"}));
  EXPECT_EQ(r.path_count(8, 0), 3u);
  EXPECT_EQ(r.path_count(16, 8), 4u);  // leaf2 -> leaf1 untouched
  // spine0 itself must go down to another leaf and back up: 4 hops to leaf0.
  EXPECT_EQ(r.distance(spine0, 0), 4u);
  EXPECT_EQ(peers(t, r, spine0, 0), (std::set<std::string>{"leaf1", "leaf2", "leaf3"}));
}

TEST(Routing, StripingMultipliesPaths) {
  Topology t = build_leaf_spine({});
  t.set_parallel_links(t.find("leaf0"), t.find("spine0"), 2);
  t.set_parallel_links(t.find("leaf1"), t.find("spine3"), 0);
  const Routing r(t);
  EXPECT_EQ(r.next_hops(t.find("leaf0"), 16).size(), 5u);  // two ports to spine0
  EXPECT_EQ(r.path_count(0, 16), 5u);
  EXPECT_EQ(r.path_count(0, 8), 2u + 1u + 1u);  // spine3 no longer reaches leaf1
  EXPECT_EQ(r.next_hops(t.find("spine0"), 0).size(), 2u);
}

TEST(Routing, DisconnectionIsReported) {
  LeafSpineParams p;
  p.spines = 1;
  p.leaves = 2;
  p.hosts_per_leaf = 2;
  Topology t = build_leaf_spine(p);
  t.fail_link(t.links_between(t.find("leaf1"), t.find("spine0")).at(0));
  const Routing r(t);
  EXPECT_EQ(r.first_unreachable_pair(), std::make_pair(uint32_t{0}, uint32_t{2}));
  EXPECT_EQ(r.distance(0, 2), Routing::kUnreachable);
  EXPECT_TRUE(r.next_hops(t.find("spine0"), 2).empty());
  EXPECT_EQ(r.path_count(0, 2), 0u);
  EXPECT_EQ(r.path_count(0, 1), 1u);
  try {
    r.check_all_reachable();
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("h0 and h2 are disconnected"), std::string::npos) << e.what();
  }
}

TEST(Routing, HostWithFailedLinkIsUnreachable) {
  Topology t = build_leaf_spine({});
  t.fail_link(t.node(5).ports[0].link);
  const Routing r(t);
  EXPECT_EQ(r.first_unreachable_pair(), std::make_pair(uint32_t{0}, uint32_t{5}));
  EXPECT_TRUE(r.next_hops(t.find("leaf0"), 5).empty());
}

TEST(Routing, PathsNeverTransitAHost) {
  // Two switches joined only through a dual-homed host: no path between their hosts.
  Topology t;
  const NodeId a = t.add_host("a"), b = t.add_host("b"), m = t.add_host("m");
  const NodeId s1 = t.add_switch("s1", "tor", 1), s2 = t.add_switch("s2", "tor", 1);
  t.connect(a, s1, {1000, 0});
  t.connect(b, s2, {1000, 0});
  t.connect(m, s1, {1000, 0});
  t.connect(m, s2, {1000, 0});
  const Routing r(t);
  EXPECT_EQ(r.distance(a, b), Routing::kUnreachable);
  EXPECT_EQ(r.distance(a, m), 2u);  // the dual-homed host itself is reachable
  EXPECT_EQ(r.distance(m, b), 2u);
  EXPECT_EQ(r.path_count(m, a), 1u);
}

}  // namespace
}  // namespace ll::sim
