// The peer balancers on their own (a balancer object fed packets) and in a fabric:
// LetFlow's flowlets, Presto's flowcells. (The selector's modes: test_network.cpp.)
#include <gtest/gtest.h>

#include <cstdio>
#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "sim/balancer.h"
#include "sim/network.h"
#include "sim/scenario.h"
#include "sim/workload.h"

namespace ll::sim {
namespace {

const std::string kDir = std::string(LL_SIM_DIR) + "/scenarios";

// leaf0 of a 4-spine, 2-leaf fabric at 100G, with the balancer `mode`.
struct Leaf {
  Scenario s;
  std::unique_ptr<Balancer> bal;
  std::vector<PortId> up;
  explicit Leaf(const std::string& mode, const std::vector<std::string>& sets = {}) {
    ScenarioOptions opt;
    opt.overrides = sets;
    opt.overrides.push_back("balancer.mode=" + mode);
    s = parse_scenario(R"({"seed": 1, "duration": "1ms",
      "topology": {"type": "leaf_spine", "spines": 4, "leaves": 2, "hosts_per_leaf": 1,
                   "host_link": {"speed": "100G"}, "fabric_link": {"speed": "100G"}},
      "workload": {"traffic": [{"pattern": "permutation", "size": "1MB"}]}})",
                       "t.json", kDir, opt);
    const NodeId leaf = s.topology.find("leaf0");
    for (PortId p = 0; p < s.topology.node(leaf).ports.size(); ++p)
      if (!s.topology.is_host(s.topology.node(leaf).ports[p].peer)) up.push_back(p);
    bal = find_balancer(mode)->make(BalancerContext{s, s.topology, leaf, up, 77});
  }
  PortId route(uint32_t hash, Time now, uint32_t payload = 1000, bool first = true, BalancerHeader* hdr = nullptr) {
    BalancerHeader own;
    RouteQuery q;
    q.now = now;
    q.hash = hash;
    q.payload = payload;
    q.first_hop = first;
    q.src_edge = s.topology.find("leaf0");
    q.dst_edge = s.topology.find("leaf1");
    q.hdr = hdr ? hdr : &own;
    return bal->choose(PortSpan{up.data(), up.data() + up.size()}, q);
  }
};

// Packets of one flow closer together than the gap (50 us at 100G) stay on one port; after
// each idle gap longer than it, the port is drawn again (over 64 flowlets, more than one).
TEST(Balancer, LetFlowKeepsAFlowletOnOnePort) {
  Leaf l("letflow");
  std::set<PortId> across;
  Time t = 0;
  for (int flowlet = 0; flowlet < 64; ++flowlet) {
    const PortId first = l.route(0xABCDu, t);
    for (int i = 0; i < 100; ++i) {
      t += 10 * kUs;  // packets 10 us apart: one flowlet
      ASSERT_EQ(l.route(0xABCDu, t), first) << "flowlet " << flowlet << " packet " << i;
    }
    across.insert(first);
    t += 51 * kUs;  // idle longer than the gap
  }
  EXPECT_GE(across.size(), 3u);
  // With the gap set to 1 ms the same idle time does not start a flowlet.
  Leaf slow("letflow", {"balancer.flowlet_gap=\"1ms\""});
  const PortId p0 = slow.route(0xABCDu, 0);
  for (int i = 1; i < 64; ++i) EXPECT_EQ(slow.route(0xABCDu, i * 61 * kUs), p0);
}

// 64 KB flowcells: the port changes exactly every 64 KB of payload, round robin over the
// four uplinks, and later switches follow the label.
TEST(Balancer, PrestoFlowcellsGoRoundRobin) {
  Leaf l("presto");
  std::vector<PortId> cells;
  BalancerHeader h;
  uint32_t last_label = 0;
  for (int i = 0; i < 1000; ++i) {
    const PortId p = l.route(0x1234u, i * kUs, 1000, true, &h);
    if (cells.empty() || h.label != last_label) cells.push_back(p);
    last_label = h.label;
  }
  // 1,000 packets of 1,000 B: a cell is 66 packets (66,000 B >= 65,536), so 16 cells.
  ASSERT_EQ(cells.size(), 16u);
  for (size_t i = 1; i < cells.size(); ++i) {
    const size_t a = static_cast<size_t>(std::find(l.up.begin(), l.up.end(), cells[i - 1]) - l.up.begin());
    const size_t b = static_cast<size_t>(std::find(l.up.begin(), l.up.end(), cells[i]) - l.up.begin());
    EXPECT_EQ(b, (a + 1) % 4) << "cell " << i;
  }
  // A switch further on picks by the label: the same label, the same port.
  BalancerHeader fixed = h;
  const PortId later = l.route(0x9999u, 0, 1000, false, &fixed);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(l.route(0x9999u, i * kUs, 1000, false, &fixed), later);
}

// CONGA at leaf0: an uplink whose rate estimator is full is avoided by new flowlets; its
// metric decays once the traffic stops; a congested path reported back from the other
// leaf (piggybacked feedback) is avoided too, until the report ages out.
TEST(Balancer, CongaAvoidsCongestedPathsAndForgets) {
  Leaf l("conga");
  const NodeId leaf0 = l.s.topology.find("leaf0"), leaf1 = l.s.topology.find("leaf1");
  BalancerHeader h;
  // 1,000 packets of 1,062 B on uplink 0 within 10 us: X ~ 1 MB against C tau = 2.5 MB at
  // 100G: metric 3; the other uplinks idle (0).
  for (int i = 0; i < 1000; ++i) l.bal->depart(l.up[0], 1062, i * 10 * kNs, h);
  EXPECT_EQ(h.ce, 3u);  // the packets carry the port's metric
  std::set<PortId> chosen;
  for (uint32_t f = 0; f < 64; ++f) chosen.insert(l.route(f * 7919u, 10 * kUs));
  EXPECT_EQ(chosen.count(l.up[0]), 0u);
  EXPECT_EQ(chosen.size(), 3u);
  // 2 ms later the estimator has decayed (0.9^100): uplink 0 is a candidate again.
  chosen.clear();
  for (uint32_t f = 0; f < 64; ++f) chosen.insert(l.route(0x100000u + f * 7919u, 2 * kMs));
  EXPECT_EQ(chosen.count(l.up[0]), 1u);
  // leaf1 reports that the path through leaf0's uplink 2 is congested (metric 6).
  BalancerHeader fb;
  fb.fb_tag = 2;
  fb.fb_metric = 6;
  RouteQuery back;
  back.now = 3 * kMs;
  back.src_edge = leaf1;
  back.dst_edge = leaf0;
  back.hdr = &fb;
  l.bal->arrive(back);
  chosen.clear();
  for (uint32_t f = 0; f < 64; ++f) chosen.insert(l.route(0x200000u + f * 7919u, 3 * kMs));
  EXPECT_EQ(chosen.count(l.up[2]), 0u);
  EXPECT_EQ(chosen.size(), 3u);
  // 10 ms without a refresh: the entry is stale and counts as 0.
  chosen.clear();
  for (uint32_t f = 0; f < 64; ++f) chosen.insert(l.route(0x300000u + f * 7919u, 14 * kMs));
  EXPECT_EQ(chosen.count(l.up[2]), 1u);
  // leaf0 as a destination: it records the congestion of arriving packets and sends it
  // back, piggybacked, on its packets towards their source leaf.
  BalancerHeader data;
  data.tag = 1;
  data.ce = 5;
  RouteQuery in;
  in.now = 15 * kMs;
  in.src_edge = leaf1;
  in.dst_edge = leaf0;
  in.hdr = &data;
  l.bal->arrive(in);
  BalancerHeader reply;
  l.route(0xBEEFu, 15 * kMs, 64, true, &reply);  // towards leaf1 (Leaf::route's destination)
  EXPECT_EQ(reply.fb_tag, 1u);
  EXPECT_EQ(reply.fb_metric, 5u);
}

// ConWeave on a leaf-spine whose leaf0-spine0 link runs at 50G (the others 100G): flows
// whose RTT probes come back late are rerouted, and the destination ToR holds the packets
// of the new path until the old path's tail arrives, so the go-back-N NICs see no packet
// out of order (with the holding switched off in the code this run showed 21,739).
TEST(Balancer, ConWeaveReroutesAndDeliversInOrder) {
  const std::string fabric = R"({"seed": 1, "duration": "20ms", "run": {"until": "all_done"},
    "topology": {"type": "leaf_spine", "spines": 2, "leaves": 2, "hosts_per_leaf": 4,
                 "host_link": {"speed": "100G"}, "fabric_link": {"speed": "100G"},
                 "link_overrides": [{"between": ["leaf0", "spine0"], "index": 0, "speed": "50G"}]},
    "balancer": {"mode": "conweave"},
    "nic": {"transport": "gbn"},
    "workload": {"traffic": [{"pattern": "stride", "stride": 4, "size": "4MB"}]}})";
  ScenarioOptions opt;
  const Scenario s = parse_scenario(fabric, "t.json", kDir, opt);
  const std::vector<Flow> flows = generate_flows(s.traffic, s.topology, s.seed);
  Network net(s, flows);
  net.run();
  EXPECT_EQ(net.conservation_error(), "");
  uint64_t reroutes = 0, holds = 0, timeouts = 0;
  for (const auto& [name, v] : net.balancer_counters()) {
    if (name == "conweave_reroutes") reroutes = v;
    if (name == "conweave_reorder_holds") holds = v;
    if (name == "conweave_flush_timeouts") timeouts = v;
  }
  uint32_t ooo = 0;
  for (const FlowResult& f : net.flows()) {
    EXPECT_TRUE(f.done());
    ooo += f.ooo;
  }
  const RunTotals& t = net.totals();
  std::printf("[ conweave] %llu reroutes, %llu holds (%llu packets, at most %llu at once), %llu flush timeouts, "
              "%u out of order at the NICs\n",
              static_cast<unsigned long long>(reroutes), static_cast<unsigned long long>(holds),
              static_cast<unsigned long long>(t.reorder_held), static_cast<unsigned long long>(t.reorder_max),
              static_cast<unsigned long long>(timeouts), ooo);
  EXPECT_GT(reroutes, 10u);
  EXPECT_GT(t.reorder_held, 100u);
  EXPECT_EQ(timeouts, 0u);
  EXPECT_EQ(ooo, 0u);
  EXPECT_GT(t.balancer_control, 0u);
}

// One 8 MB flow over 4 spines with Presto: its flowcells arrive out of order at the
// receiver, and a reorder-tolerant receiver (DCTCP's shim) resends nothing; without the
// shim the duplicate ACKs cause spurious fast retransmits.
TEST(Balancer, PrestoWithTheReassemblyReceiverResendsNothing) {
  const std::string one = R"({"seed": 4, "duration": "20ms",
    "topology": {"type": "leaf_spine", "spines": 4, "leaves": 2, "hosts_per_leaf": 2,
                 "host_link": {"speed": "100G"}, "fabric_link": {"speed": "25G"}},
    "balancer": {"mode": "presto"},
    "nic": {"transport": "dctcp", "dcqcn": {"enable": false}},
    "workload": {"traffic": [{"pattern": "pairs", "pairs": 1, "size": "8MB"}]}})";
  uint32_t retx[2] = {}, ooo[2] = {};
  for (int shim = 0; shim < 2; ++shim) {
    ScenarioOptions opt;
    if (shim) opt.overrides = {"nic.dctcp.shim=\"100us\""};
    const Scenario s = parse_scenario(one, "t.json", kDir, opt);
    const std::vector<Flow> flows = generate_flows(s.traffic, s.topology, s.seed);
    Network net(s, flows);
    net.run();
    ASSERT_EQ(net.flows().size(), 1u);
    ASSERT_TRUE(net.flows()[0].done());
    EXPECT_EQ(net.conservation_error(), "");
    retx[shim] = net.flows()[0].retx;
    ooo[shim] = net.flows()[0].ooo;
    std::printf("[ presto  ] shim %s: %u out of order, %u retransmitted\n", shim ? "100us" : "off  ", ooo[shim], retx[shim]);
  }
  EXPECT_GT(ooo[1], 0u);
  EXPECT_EQ(retx[1], 0u);
  EXPECT_GT(retx[0], 0u);
}

}  // namespace
}  // namespace ll::sim
