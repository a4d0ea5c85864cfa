// Topology builders and modifiers.
#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <string>

#include "sim/topology.h"

namespace ll::sim {
namespace {

// Expects `f` to throw std::invalid_argument whose message starts with `param`.
void expect_param_error(const std::function<void()>& f, const std::string& param) {
  try {
    f();
    ADD_FAILURE() << "no exception for " << param;
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind(param + ":", 0), 0u) << e.what();
  }
}

size_t count_tier(const Topology& t, const std::string& tier) {
  size_t n = 0;
  for (const Node& x : t.nodes()) n += x.tier == tier;
  return n;
}

// Every port points back at itself through its link.
void expect_consistent(const Topology& t) {
  for (NodeId n = 0; n < t.num_nodes(); ++n) {
    for (PortId p = 0; p < t.node(n).ports.size(); ++p) {
      const Port& port = t.node(n).ports[p];
      const Link& l = t.link(port.link);
      const bool as_a = l.a == n && l.a_port == p && l.b == port.peer && l.b_port == port.peer_port;
      const bool as_b = l.b == n && l.b_port == p && l.a == port.peer && l.a_port == port.peer_port;
      EXPECT_TRUE(as_a || as_b) << t.node(n).name << " port " << p;
      EXPECT_EQ(t.node(port.peer).ports.at(port.peer_port).peer, n);
    }
  }
}

TEST(Topology, LeafSpineShape) {
  LeafSpineParams p;
  p.spines = 3;
  p.leaves = 5;
  p.hosts_per_leaf = 7;
  p.host_link = {25'000'000'000ull, 500 * kNs};
  p.fabric_link = {100'000'000'000ull, 2 * kUs};
  const Topology t = build_leaf_spine(p);
  EXPECT_EQ(t.num_hosts(), 35u);
  EXPECT_EQ(t.num_switches(), 8u);
  EXPECT_EQ(t.num_links(), 35u + 15u);
  EXPECT_EQ(count_tier(t, "leaf"), 5u);
  EXPECT_EQ(count_tier(t, "spine"), 3u);
  for (NodeId h = 0; h < t.num_hosts(); ++h) {
    EXPECT_TRUE(t.is_host(h));
    ASSERT_EQ(t.node(h).ports.size(), 1u);
    EXPECT_EQ(t.node(t.node(h).ports[0].peer).name, "leaf" + std::to_string(h / 7));
    EXPECT_EQ(t.host_rate(h), 25'000'000'000ull);
  }
  const NodeId leaf2 = t.find("leaf2");
  EXPECT_EQ(t.node(leaf2).ports.size(), 7u + 3u);
  EXPECT_EQ(t.node(leaf2).level, 1);
  EXPECT_EQ(t.node(t.find("spine0")).level, 2);
  const LinkId up = t.links_between(leaf2, t.find("spine1")).at(0);
  EXPECT_EQ(t.link(up).bps, 100'000'000'000ull);
  EXPECT_EQ(t.link(up).delay, 2 * kUs);
  EXPECT_EQ(t.link_tier(up), "leaf-spine");
  EXPECT_EQ(t.tiers(), (std::vector<std::string>{"host", "leaf", "spine"}));
  expect_consistent(t);
}

TEST(Topology, DcqcnTestbedFollowsFigure2) {
  const Topology t = build_dcqcn_testbed({});
  EXPECT_EQ(t.num_hosts(), 20u);
  EXPECT_EQ(count_tier(t, "tor"), 4u);
  EXPECT_EQ(count_tier(t, "leaf"), 4u);
  EXPECT_EQ(count_tier(t, "spine"), 2u);
  EXPECT_EQ(t.num_links(), 20u + 8u + 8u);
  for (const Link& l : t.links()) EXPECT_EQ(l.bps, 40'000'000'000ull);
  auto linked = [&](const char* a, const char* b) { return !t.links_between(t.find(a), t.find(b)).empty(); };
  EXPECT_TRUE(linked("T1", "L1"));
  EXPECT_TRUE(linked("T1", "L2"));
  EXPECT_FALSE(linked("T1", "L3"));
  EXPECT_TRUE(linked("T4", "L3"));
  EXPECT_TRUE(linked("T4", "L4"));
  EXPECT_TRUE(linked("T3", "L4"));
  for (const char* l : {"L1", "L2", "L3", "L4"}) {
    EXPECT_TRUE(linked(l, "S1"));
    EXPECT_TRUE(linked(l, "S2"));
  }
  EXPECT_EQ(t.node(t.find("S1")).level, 3);
  expect_consistent(t);
}

TEST(Topology, FatTreeCounts) {
  for (uint32_t k : {2u, 4u, 6u, 8u}) {
    FatTreeParams p;
    p.k = k;
    const Topology t = build_fat_tree(p);
    EXPECT_EQ(t.num_hosts(), k * k * k / 4) << k;
    EXPECT_EQ(count_tier(t, "edge"), k * k / 2);
    EXPECT_EQ(count_tier(t, "agg"), k * k / 2);
    EXPECT_EQ(count_tier(t, "core"), k * k / 4);
    EXPECT_EQ(t.num_links(), 3 * k * k * k / 4);
    // Every switch has exactly k ports.
    for (NodeId n = static_cast<NodeId>(t.num_hosts()); n < t.num_nodes(); ++n) {
      EXPECT_EQ(t.node(n).ports.size(), k) << t.node(n).name;
    }
    expect_consistent(t);
  }
}

TEST(Topology, ImpossibleParametersNameTheParameter) {
  expect_param_error([] { LeafSpineParams p; p.spines = 0; build_leaf_spine(p); }, "spines");
  expect_param_error([] { LeafSpineParams p; p.leaves = 0; build_leaf_spine(p); }, "leaves");
  expect_param_error([] { LeafSpineParams p; p.hosts_per_leaf = 0; build_leaf_spine(p); }, "hosts_per_leaf");
  expect_param_error([] { LeafSpineParams p; p.leaves = 1; p.hosts_per_leaf = 1; build_leaf_spine(p); }, "hosts_per_leaf");
  expect_param_error([] { LeafSpineParams p; p.leaves = 65536; p.hosts_per_leaf = 65536; build_leaf_spine(p); }, "hosts_per_leaf");
  expect_param_error([] { LeafSpineParams p; p.host_link.bps = 0; build_leaf_spine(p); }, "host_link.speed");
  expect_param_error([] { LeafSpineParams p; p.fabric_link.bps = 0; build_leaf_spine(p); }, "fabric_link.speed");
  expect_param_error([] { DcqcnTestbedParams p; p.hosts_per_tor = 0; build_dcqcn_testbed(p); }, "hosts_per_tor");
  expect_param_error([] { DcqcnTestbedParams p; p.leaf_spine_link.bps = 0; build_dcqcn_testbed(p); }, "leaf_spine_link.speed");
  expect_param_error([] { FatTreeParams p; p.k = 5; build_fat_tree(p); }, "k");
  expect_param_error([] { FatTreeParams p; p.k = 0; build_fat_tree(p); }, "k");
  expect_param_error([] { FatTreeParams p; p.k = 258; build_fat_tree(p); }, "k");
  expect_param_error([] { FatTreeParams p; p.agg_core_link.bps = 0; build_fat_tree(p); }, "agg_core_link.speed");
}

TEST(Topology, UnequalStripingAddsAndRemovesParallelLinks) {
  Topology t = build_leaf_spine({});
  const NodeId leaf0 = t.find("leaf0"), spine1 = t.find("spine1"), spine2 = t.find("spine2");
  const size_t links = t.num_links();
  t.set_parallel_links(leaf0, spine1, 3);
  EXPECT_EQ(t.links_between(leaf0, spine1).size(), 3u);
  EXPECT_EQ(t.num_links(), links + 2);
  t.set_parallel_links(leaf0, spine2, 0);
  EXPECT_TRUE(t.links_between(leaf0, spine2).empty());
  EXPECT_EQ(t.node(leaf0).ports.size(), 8u + 3u + 3u - 1u);
  expect_consistent(t);
  EXPECT_THROW(t.set_parallel_links(leaf0, spine2, 1), std::invalid_argument);  // not linked any more
  EXPECT_THROW(t.set_parallel_links(0, leaf0, 2), std::invalid_argument);       // host link
}

TEST(Topology, HeterogeneousSpeedsAndFailures) {
  Topology t = build_leaf_spine({});
  const LinkId l = t.links_between(t.find("leaf1"), t.find("spine3")).at(0);
  t.set_link_rate(l, 10'000'000'000ull);
  t.set_link_delay(l, 5 * kUs);
  EXPECT_EQ(t.link(l).bps, 10'000'000'000ull);
  EXPECT_EQ(t.link(l).delay, 5 * kUs);
  EXPECT_THROW(t.set_link_rate(l, 0), std::invalid_argument);
  const LinkId hl = t.node(3).ports.at(0).link;
  t.fail_link(hl);
  EXPECT_EQ(t.num_failed_links(), 1u);
  EXPECT_EQ(t.host_rate(3), 0u);
  EXPECT_EQ(t.node(3).ports.size(), 1u);  // a failed link keeps its ports
}

TEST(Topology, ConstructionRules) {
  Topology t;
  const NodeId h0 = t.add_host("a");
  const NodeId h1 = t.add_host("b");
  EXPECT_THROW(t.add_host("a"), std::invalid_argument);
  EXPECT_THROW(t.connect(h0, h1, {1, 0}), std::invalid_argument);  // host to host
  const NodeId s = t.add_switch("s", "tor", 1);
  EXPECT_THROW(t.add_host("c"), std::logic_error);                 // hosts first
  EXPECT_THROW(t.connect(s, s, {1, 0}), std::invalid_argument);
  EXPECT_THROW(t.connect(h0, s, {0, 0}), std::invalid_argument);
  EXPECT_THROW(t.find("nope"), std::invalid_argument);
  EXPECT_EQ(t.find("s"), s);
}

}  // namespace
}  // namespace ll::sim
