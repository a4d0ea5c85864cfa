// The transports of the NIC (sim/transport*.cpp) on a small fabric: loss recovery with one
// packet dropped, reordering with one packet held back, the rate of one long flow, and
// DCTCP's ECN reaction against the same TCP without it. Each case runs every transport of
// the registry that it applies to, so a new transport is covered by adding it.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "sim/balancer.h"
#include "sim/network.h"
#include "sim/scenario.h"
#include "sim/workload.h"

namespace ll::sim {
namespace {

const std::string kDir = std::string(LL_SIM_DIR) + "/scenarios";

// Two hosts on two leaves of one spine, 100G links of the default delay: one flow h0 -> h1 of
// `size`, no other traffic. DCQCN stays on (it does not slow a lone flow); for DCTCP it is
// switched off, as a TCP fabric has none.
std::string one_flow(const std::string& size) {
  return R"({"seed": 3, "duration": "20ms",
    "topology": {"type": "leaf_spine", "spines": 1, "leaves": 2, "hosts_per_leaf": 1,
                 "host_link": {"speed": "100G"}, "fabric_link": {"speed": "100G"}},
    "workload": {"traffic": [{"pattern": "pairs", "pairs": 1, "size": ")" +
         size + R"("}]}})";
}

struct OneRun {
  Scenario s;
  std::vector<Flow> flows;
  std::unique_ptr<Network> net;
  OneRun(const std::string& json, const std::vector<std::string>& sets) {
    ScenarioOptions opt;
    opt.overrides = sets;
    s = parse_scenario(json, "t.json", kDir, opt);
    flows = generate_flows(s.traffic, s.topology, s.seed);
    net = std::make_unique<Network>(s, flows);
  }
  const FlowResult& go() {
    net->run();
    EXPECT_EQ(net->conservation_error(), "");
    EXPECT_EQ(net->flows().size(), 1u);
    return net->flows()[0];
  }
};

std::vector<std::string> with(const std::string& transport, std::vector<std::string> sets = {}) {
  sets.push_back("nic.transport=" + transport);
  if (transport == "dctcp") sets.push_back("nic.dcqcn.enable=false");
  return sets;
}

// 200 packets of 1000 B; packet 50 is lost once on the sender's link.
TEST(Transport, OneDropIsRecovered) {
  for (const TransportEntry& e : transport_registry()) {
    SCOPED_TRACE(e.name);
    OneRun r(one_flow("200KB"), with(e.name));
    r.net->test_drop(0, 50);
    const FlowResult& f = r.go();
    ASSERT_TRUE(f.done());
    EXPECT_EQ(r.net->totals().data_dropped, 1u);
    std::printf("[ drop    ] %-6s packet 50 of 200 lost: %u retransmitted, FCT %.1f us\n", e.name, f.retx,
                static_cast<double>(f.finish - f.start) / kUs);
    // go-back-N resends everything sent after the lost packet; every other transport
    // resends the lost packet alone.
    if (std::string(e.name) == "gbn") EXPECT_GT(f.retx, 1u);
    else EXPECT_EQ(f.retx, 1u);
    EXPECT_EQ(f.dup_rx, 0u);  // the one resent packet had been lost: no spurious retransmission
    EXPECT_EQ(f.reordered, 0u);  // a loss is not reordering
  }
}

// The last packet is lost: no later packet reveals the loss, the timer must.
TEST(Transport, TailDropIsRecoveredByTheTimer) {
  for (const TransportEntry& e : transport_registry()) {
    SCOPED_TRACE(e.name);
    OneRun r(one_flow("200KB"), with(e.name));
    r.net->test_drop(0, 199);
    const FlowResult& f = r.go();
    ASSERT_TRUE(f.done());
    EXPECT_EQ(f.retx, 1u);
    std::printf("[ tail    ] %-6s last packet lost: FCT %.1f us\n", e.name, static_cast<double>(f.finish - f.start) / kUs);
  }
  // IRN's RTO_low (100 us) recovers a tail loss well before its RTO_high (320 us).
  OneRun irn(one_flow("200KB"), with("irn"));
  irn.net->test_drop(0, 199);
  const FlowResult& f = irn.go();
  EXPECT_LT(f.finish - f.start, 150 * kUs);
  OneRun slow(one_flow("200KB"), with("irn", {"nic.irn.rto_low_pkts=0"}));
  slow.net->test_drop(0, 199);
  const FlowResult& g = slow.go();
  EXPECT_GT(g.finish - g.start, 300 * kUs);
}

// Packet 50 reaches the first switch 1 us late: about 11 later packets overtake it, none
// is lost.
TEST(Transport, ReorderingWithoutLoss) {
  struct Case {
    std::string transport;
    std::vector<std::string> sets;
    int retx;  // -1: more than one
  };
  const std::vector<Case> cases = {
      {"gbn", {}, -1},                             // the NACK sends it back over every later packet
      {"sr", {}, 1},                               // the NACKed packet is resent once
      {"irn", {}, 1},                              // IRN as published: a higher SACK means lost
      {"irn", {"nic.irn.reorder=16"}, 0},          // tolerates 16 packets of displacement
      {"dctcp", {}, 1},                            // 3 duplicate ACKs: one fast retransmit
      {"dctcp", {"nic.dctcp.shim=\"10us\""}, 0},   // the shim holds the gap until it fills
  };
  for (const Case& c : cases) {
    const std::string label = c.transport + (c.sets.empty() ? "" : " " + c.sets[0]);
    SCOPED_TRACE(label);
    OneRun r(one_flow("200KB"), with(c.transport, c.sets));
    r.net->test_delay(0, 50, 1 * kUs);
    const FlowResult& f = r.go();
    ASSERT_TRUE(f.done());
    EXPECT_EQ(r.net->totals().data_dropped, 0u);
    EXPECT_GE(f.ooo, 5u);
    EXPECT_EQ(f.reordered, 1u);  // packet 50, overtaken once (its resends do not count)
    std::printf("[ reorder ] %-32s %u out of order, %u retransmitted (%u spurious), %u duplicate ACKs\n", label.c_str(),
                f.ooo, f.retx, f.dup_rx, f.dupacks);
    if (c.retx < 0) EXPECT_GT(f.retx, 1u);
    else EXPECT_EQ(f.retx, static_cast<uint32_t>(c.retx));
    // Nothing was lost: every packet resent after reaching the receiver is a duplicate there.
    if (c.transport != "gbn") {
      EXPECT_EQ(f.dup_rx, f.retx);
    }
    // DCTCP's receiver sends a duplicate ACK per packet that overtook packet 50 (at least
    // the 3 of a fast retransmit); with the shim holding the gap, none.
    if (c.transport == "dctcp" && c.sets.empty()) {
      EXPECT_GE(f.dupacks, 3u);
    } else if (c.transport == "dctcp") {
      EXPECT_EQ(f.dupacks, 0u);
    }
  }
}

// The receiving NIC's reorder buffer (nic.reorder): packet 50 is 1 us late and 11 packets
// overtake it. With 16 slots the transport never sees the reordering (no out-of-order
// arrival, nothing resent, for every transport, go-back-N included); with 4 slots the
// buffer overflows and gives the gap up, and the transport reacts as without it.
TEST(Transport, ReorderBufferHidesReordering) {
  for (const TransportEntry& e : transport_registry()) {
    SCOPED_TRACE(e.name);
    OneRun r(one_flow("200KB"), with(e.name, {"nic.reorder.slots=16"}));
    r.net->test_delay(0, 50, 1 * kUs);
    const FlowResult& f = r.go();
    ASSERT_TRUE(f.done());
    EXPECT_EQ(f.ooo, 0u);
    EXPECT_EQ(f.retx, 0u);
    EXPECT_EQ(f.reordered, 1u);  // the network still reordered it
    const ReorderBuffer* rb = r.net->reorder_buffer();
    ASSERT_NE(rb, nullptr);
    EXPECT_GE(rb->stats().held, 10u);
    EXPECT_EQ(rb->stats().timeouts + rb->stats().overflows, 0u);
    std::printf("[ rob     ] %-6s 16 slots: %llu packets held, peak %u a QP, %u resent\n", e.name,
                static_cast<unsigned long long>(rb->stats().held), rb->stats().peak_qp, f.retx);
    OneRun small(one_flow("200KB"), with(e.name, {"nic.reorder.slots=4"}));
    small.net->test_delay(0, 50, 1 * kUs);
    const FlowResult& g = small.go();
    ASSERT_TRUE(g.done());
    EXPECT_GE(small.net->reorder_buffer()->stats().overflows, 1u);
    EXPECT_GT(g.ooo, 0u);
  }
}

// A real loss behind the reorder buffer: the gap is held for the timeout, then given up, and
// the transport recovers the packet as it would without the buffer, that much later.
TEST(Transport, ReorderBufferGivesUpALossAfterItsTimeout) {
  for (const TransportEntry& e : transport_registry()) {
    SCOPED_TRACE(e.name);
    OneRun r(one_flow("200KB"), with(e.name, {"nic.reorder.slots=1000", "nic.reorder.timeout=\"30us\""}));
    r.net->test_drop(0, 50);
    const FlowResult& f = r.go();
    ASSERT_TRUE(f.done());
    EXPECT_GE(f.retx, 1u);
    EXPECT_EQ(r.net->reorder_buffer()->stats().timeouts, 1u);
    EXPECT_GT(f.finish - f.start, 30 * kUs);
  }
}

// One 20 MB flow alone: the host link carries it at >= 95% of its rate, headers counted.
TEST(Transport, OneLongFlowFillsTheLink) {
  for (const TransportEntry& e : transport_registry()) {
    SCOPED_TRACE(e.name);
    OneRun r(one_flow("20MB"), with(e.name));
    const FlowResult& f = r.go();
    ASSERT_TRUE(f.done());
    EXPECT_EQ(f.retx, 0u);
    const uint64_t pkts = (f.flow->bytes + 999) / 1000;
    const double wire_bits = 8.0 * static_cast<double>(f.flow->bytes + pkts * kHeaderBytes);
    const double rate = wire_bits / (static_cast<double>(f.finish - f.start) / kSec);
    std::printf("[ rate    ] %-6s %.2f Gb/s of 100 on the wire\n", e.name, rate / 1e9);
    EXPECT_GE(rate, 0.95e11);
  }
}

// IRN's cap: the longest path's bandwidth-delay product, which grows with the links'
// propagation delay.
TEST(Transport, IrnCapIsTheLongestPathBdp) {
  OneRun r(one_flow("200KB"), with("irn"));
  const uint32_t cap = r.net->bdp_packets();
  OneRun far(one_flow("200KB"), with("irn", {"topology.fabric_link.delay=\"5us\"", "topology.host_link.delay=\"5us\""}));
  const uint32_t cap_far = far.net->bdp_packets();
  std::printf("[ bdp     ] IRN cap %u packets (default links), %u with 5 us fabric links\n", cap, cap_far);
  EXPECT_GT(cap, 1u);
  EXPECT_GT(cap_far, cap + 100);  // 4 x 4 us more propagation at 100 Gb/s: ~188 packets more
  // A cap of a quarter of the BDP holds one flow to about a quarter of the link.
  OneRun small(one_flow("2MB"), with("irn", {"nic.irn.bdp_cap=" + std::to_string(cap / 4)}));
  const FlowResult& f = small.go();
  ASSERT_TRUE(f.done());
  const double rate = 8.0 * static_cast<double>(f.flow->bytes) / (static_cast<double>(f.finish - f.start) / kSec);
  std::printf("[ bdp     ] cap %u packets: %.1f Gb/s\n", cap / 4, rate / 1e9);
  EXPECT_LT(rate, 0.4e11);
}

// Two senders into one receiver over a lossless fabric: DCTCP's ECN reaction keeps the
// bottleneck queue near the marking threshold; the same TCP without it fills the queue
// until PFC holds it.
TEST(Transport, DctcpKeepsTheQueueNearTheMarkingThreshold) {
  const std::string incast = R"({"seed": 5, "duration": "5ms",
    "topology": {"type": "leaf_spine", "spines": 1, "leaves": 2, "hosts_per_leaf": 2,
                 "host_link": {"speed": "100G"}, "fabric_link": {"speed": "100G"}},
    "switch": {"marker": {"mode": "cutoff", "kmin": "30KB"}},
    "workload": {"traffic": [{"pattern": "incast", "senders": 2, "receiver": "h0", "size": "4MB"}]}})";
  uint64_t maxq[2] = {};
  for (int ecn = 0; ecn < 2; ++ecn) {
    ScenarioOptions opt;
    opt.overrides = {"nic.transport=dctcp", "nic.dcqcn.enable=false", std::string("nic.dctcp.ecn=") + (ecn ? "true" : "false")};
    const Scenario s = parse_scenario(incast, "t.json", kDir, opt);
    const std::vector<Flow> flows = generate_flows(s.traffic, s.topology, s.seed);
    Network net(s, flows);
    net.run();
    for (const FlowResult& f : net.flows()) EXPECT_TRUE(f.done());
    for (const TierStats& t : net.tier_stats()) maxq[ecn] = std::max(maxq[ecn], t.max_queue);
    std::printf("[ dctcp   ] ecn %s: deepest queue %llu B\n", ecn ? "on " : "off", static_cast<unsigned long long>(maxq[ecn]));
  }
  EXPECT_LT(maxq[1] * 3, maxq[0]);
  EXPECT_LT(maxq[1], 150'000u);
}

// Every balancer and transport of the registries has its row in the scenario schema and
// in docs/sim.md (a new part without docs fails here).
TEST(Transport, EveryRegisteredPartIsDocumented) {
  auto read = [](const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  const std::string schema = read(std::string(LL_SIM_DIR) + "/SCENARIO.md");
  const std::string docs = read(std::string(LL_SIM_DIR) + "/../docs/sim.md");
  ASSERT_FALSE(schema.empty());
  ASSERT_FALSE(docs.empty());
  for (const TransportEntry& e : transport_registry()) {
    const std::string name = "`" + std::string(e.name) + "`";
    EXPECT_NE(docs.find("| " + name + " |"), std::string::npos) << e.name << ": no row in docs/sim.md, Transports";
    EXPECT_NE(schema.find("\"" + std::string(e.name) + "\""), std::string::npos) << e.name << ": not in sim/SCENARIO.md";
  }
  for (const BalancerEntry& e : balancer_registry()) {
    EXPECT_NE(schema.find("`" + std::string(e.name) + "`"), std::string::npos) << e.name << ": not in sim/SCENARIO.md";
  }
}

}  // namespace
}  // namespace ll::sim
