// CDF loading and sampling, traffic patterns, Poisson load scaling, flow files.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <tuple>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>

#include "sim/workload.h"

namespace ll::sim {
namespace {

const std::string kWorkloads = std::string(LL_SIM_DIR) + "/workloads/";

std::string write_tmp(const std::string& name, const std::string& text) {
  std::filesystem::create_directories(LL_SIM_TEST_TMP);
  const std::string path = std::string(LL_SIM_TEST_TMP) + "/" + name;
  std::ofstream(path) << text;
  return path;
}

void expect_error(const std::function<void()>& f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "no exception, expected one containing: " << needle;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(Cdf, LoadsEveryShippedDistribution) {
  for (const char* name : {"alibaba_storage", "datamining_vl2", "fb_cache", "fb_hadoop", "fb_web",
                           "google_rpc", "websearch_dctcp"}) {
    const Cdf c = Cdf::load(kWorkloads + name + ".cdf");
    EXPECT_GE(c.points().size(), 3u) << name;
    EXPECT_DOUBLE_EQ(c.points().back().fraction, 1.0);
    EXPECT_GT(c.mean(), 0) << name;
    EXPECT_LE(c.mean(), c.points().back().bytes);
  }
}

TEST(Cdf, InterpolatesLinearly) {
  const Cdf c = Cdf::from_points({{0, 0}, {100, 0.5}, {100, 0.6}, {1100, 1.0}}, "test");
  EXPECT_EQ(c.quantile(0.25), 50u);
  EXPECT_EQ(c.quantile(0.5), 100u);
  EXPECT_EQ(c.quantile(0.55), 100u);  // the step: a point mass at 100 bytes
  EXPECT_EQ(c.quantile(0.8), 600u);
  EXPECT_EQ(c.quantile(1.0), 1100u);
  EXPECT_EQ(c.quantile(0.0), 1u);  // size 0 is clamped to one byte
  // mean = 0.5*50 + 0.1*100 + 0.4*600
  EXPECT_DOUBLE_EQ(c.mean(), 25 + 10 + 240);
  // A first fraction above zero is a point mass at the first size.
  const Cdf d = Cdf::from_points({{300, 0.2}, {500, 1.0}}, "mass");
  EXPECT_EQ(d.quantile(0.1), 300u);
  EXPECT_DOUBLE_EQ(d.mean(), 0.2 * 300 + 0.8 * 400);
}

TEST(Cdf, SampleMeanMatchesAnalyticMean) {
  for (const char* name : {"websearch_dctcp", "fb_web", "alibaba_storage"}) {
    const Cdf c = Cdf::load(kWorkloads + name + ".cdf");
    Rng rng(123);
    double sum = 0;
    const int n = 400000;
    for (int i = 0; i < n; ++i) sum += static_cast<double>(c.sample(rng));
    EXPECT_NEAR(sum / n / c.mean(), 1.0, 0.03) << name << " mean " << c.mean();
  }
}

TEST(Cdf, WebSearchMeanIsAsPublished) {
  // The DCTCP web-search distribution's mean is about 1.6 MB in the literature.
  const Cdf c = Cdf::load(kWorkloads + "websearch_dctcp.cdf");
  EXPECT_GT(c.mean(), 1.5e6);
  EXPECT_LT(c.mean(), 1.8e6);
}

TEST(Cdf, BadFilesGiveOneClearError) {
  expect_error([] { Cdf::load("/nonexistent/x.cdf"); }, "/nonexistent/x.cdf: cannot open");
  expect_error([] { Cdf::load(write_tmp("nonmono.cdf", "0 0\n100 0.5\n50 0.7\n200 1\n")); },
               "nonmono.cdf:3: flow sizes must be non-decreasing");
  expect_error([] { Cdf::load(write_tmp("fracdown.cdf", "0 0\n100 0.5\n150 0.4\n200 1\n")); },
               "fracdown.cdf:3: cumulative fractions must be non-decreasing");
  expect_error([] { Cdf::load(write_tmp("notone.cdf", "0 0\n100 0.5\n200 0.9\n")); },
               "the last cumulative fraction must be 1");
  expect_error([] { Cdf::load(write_tmp("junk.cdf", "0 0\n100 half\n")); }, "junk.cdf:2: expected");
  expect_error([] { Cdf::load(write_tmp("empty.cdf", "# nothing\n\n")); }, "no points");
  expect_error([] { Cdf::load(write_tmp("over.cdf", "0 0\n100 1.5\n")); }, "over.cdf:2: cumulative fraction must be in [0, 1]");
  // a size past what a double holds exactly (or past 2^64) is refused, not turned into 0 bytes
  expect_error([] { Cdf::load(write_tmp("huge.cdf", "0 0\n18446744073709551616 1\n")); },
               "huge.cdf:2: flow size must be below 2^53 bytes");
  // Comments and blank lines are fine.
  EXPECT_NO_THROW(Cdf::load(write_tmp("ok.cdf", "# size fraction\n0 0\n\n100 1 # end\n")));
}

Topology small() {
  LeafSpineParams p;
  p.spines = 2;
  p.leaves = 4;
  p.hosts_per_leaf = 4;
  return build_leaf_spine(p);  // 16 hosts, 10G host links
}

TrafficSpec fixed(Pattern pat, uint64_t bytes) {
  TrafficSpec s;
  s.pattern = pat;
  s.size.fixed = bytes;
  return s;
}

TEST(Workload, PermutationSendsAndReceivesOnce) {
  const Topology t = small();
  const std::vector<Flow> flows = generate_flows({fixed(Pattern::Permutation, 2'000'000)}, t, 5);
  ASSERT_EQ(flows.size(), 16u);
  std::set<NodeId> srcs, dsts;
  for (const Flow& f : flows) {
    EXPECT_NE(f.src, f.dst);
    EXPECT_EQ(f.bytes, 2'000'000u);
    EXPECT_EQ(f.start, 0u);
    srcs.insert(f.src);
    dsts.insert(f.dst);
  }
  EXPECT_EQ(srcs.size(), 16u);
  EXPECT_EQ(dsts.size(), 16u);
  auto dsts_of = [&](uint64_t seed) {
    std::vector<NodeId> d;
    for (const Flow& f : generate_flows({fixed(Pattern::Permutation, 1)}, t, seed)) d.push_back(f.dst);
    return d;
  };
  EXPECT_EQ(dsts_of(5), dsts_of(5));
  EXPECT_NE(dsts_of(5), dsts_of(6));
}

TEST(Workload, StrideIsExact) {
  const Topology t = small();
  TrafficSpec s = fixed(Pattern::Stride, 1000);
  s.stride = 5;
  for (const Flow& f : generate_flows({s}, t, 1)) EXPECT_EQ(f.dst, (f.src + 5) % 16);
  s.stride = 32;
  EXPECT_THROW(generate_flows({s}, t, 1), std::invalid_argument);
}

TEST(Workload, RandomNeverPicksItselfAndCoversEveryone) {
  const Topology t = small();
  TrafficSpec s = fixed(Pattern::Random, 10'000);
  s.arrival = Arrival::Poisson;
  s.load = 0.5;
  s.stop = 10 * kMs;
  std::map<NodeId, int> hits;
  const std::vector<Flow> flows = generate_flows({s}, t, 3);
  for (const Flow& f : flows) {
    ASSERT_NE(f.src, f.dst);
    ++hits[f.dst];
  }
  EXPECT_EQ(hits.size(), 16u);
}

TEST(Workload, PoissonOffersTheTargetLoad) {
  const Topology t = small();
  TrafficSpec s = fixed(Pattern::Permutation, 100'000);
  s.arrival = Arrival::Poisson;
  s.load = 0.6;
  s.start = 1 * kMs;
  s.stop = 201 * kMs;
  const std::vector<Flow> flows = generate_flows({s}, t, 11);
  double bytes = 0;
  std::vector<double> gaps;
  Time prev_h0 = s.start;
  for (const Flow& f : flows) {
    ASSERT_GE(f.start, s.start);
    ASSERT_LT(f.start, s.stop);
    bytes += static_cast<double>(f.bytes);
    if (f.src == 0) {
      gaps.push_back(static_cast<double>(f.start - prev_h0));
      prev_h0 = f.start;
    }
  }
  const double capacity = 16 * 10e9 * 0.2;  // bits over the 200 ms window
  EXPECT_NEAR(bytes * 8 / capacity, 0.6, 0.02);
  // Mean gap of one host: 100 KB at 6 Gb/s = 133.3 us.
  double sum = 0;
  for (double g : gaps) sum += g;
  EXPECT_NEAR(sum / gaps.size() / kUs, 133.33, 8.0);
  // Sorted by start.
  for (size_t i = 1; i < flows.size(); ++i) EXPECT_LE(flows[i - 1].start, flows[i].start);
}

TEST(Workload, PoissonScalesToEachHostsLinkRate) {
  Topology t = small();
  t.set_link_rate(t.node(0).ports[0].link, 40'000'000'000ull);  // h0 has a 4x faster link
  TrafficSpec s = fixed(Pattern::Stride, 50'000);
  s.stride = 1;
  s.arrival = Arrival::Poisson;
  s.load = 0.5;
  s.stop = 100 * kMs;
  std::vector<double> per(16, 0);
  for (const Flow& f : generate_flows({s}, t, 2)) per[f.src] += 1;
  EXPECT_NEAR(per[0] / per[1], 4.0, 0.5);
}

// load_on = "uplinks": the load is of the oversubscribed tier. 4 leaves of 8 hosts under 2
// spines, all links 10G: 2:8 uplink to host capacity, so each host offers a quarter of it.
TEST(Workload, LoadOnTheUplinks) {
  LeafSpineParams p;
  p.spines = 2;
  p.leaves = 4;
  p.hosts_per_leaf = 8;
  p.fabric_link.bps = 10'000'000'000ull;
  const Topology t = build_leaf_spine(p);
  EXPECT_DOUBLE_EQ(t.uplink_share(0), 0.25);
  TrafficSpec s = fixed(Pattern::Random, 100'000);
  s.arrival = Arrival::Poisson;
  s.load = 0.8;
  s.stop = 100 * kMs;
  double host = 0, up = 0;
  for (const Flow& f : generate_flows({s}, t, 4)) host += static_cast<double>(f.bytes);
  s.load_on_uplinks = true;
  for (const Flow& f : generate_flows({s}, t, 4)) up += static_cast<double>(f.bytes);
  const double capacity = 32 * 10e9 * 0.1;  // host-link bits over the 100 ms
  EXPECT_NEAR(host * 8 / capacity, 0.8, 0.02);
  EXPECT_NEAR(up * 8 / capacity, 0.2, 0.01);
}

TEST(Workload, IncastPicksKDistinctSenders) {
  const Topology t = small();
  TrafficSpec s = fixed(Pattern::Incast, 10'000);
  s.incast_senders = 8;
  s.repeat = 3;
  s.interval = 100 * kUs;
  s.start = 10 * kUs;
  const std::vector<Flow> flows = generate_flows({s}, t, 4);
  ASSERT_EQ(flows.size(), 24u);
  for (uint32_t r = 0; r < 3; ++r) {
    std::set<NodeId> senders, receivers;
    for (const Flow& f : flows) {
      if (f.start != 10 * kUs + r * 100 * kUs) continue;
      senders.insert(f.src);
      receivers.insert(f.dst);
      EXPECT_NE(f.src, f.dst);
    }
    EXPECT_EQ(senders.size(), 8u);
    EXPECT_EQ(receivers.size(), 1u);
  }
  s.incast_receiver = 7;
  s.incast_senders = 15;
  for (const Flow& f : generate_flows({s}, t, 4)) EXPECT_EQ(f.dst, 7u);
  s.incast_senders = 16;  // only 15 other hosts
  EXPECT_THROW(generate_flows({s}, t, 4), std::invalid_argument);
}

// The DRILL paper's incast: several receivers a round, each with its own senders.
TEST(Workload, IncastWithSeveralReceiversARound) {
  const Topology t = small();
  TrafficSpec s = fixed(Pattern::Incast, 10'000);
  s.incast_senders = 3;
  s.incast_receivers = 4;
  s.repeat = 2;
  s.interval = 100 * kUs;
  const std::vector<Flow> flows = generate_flows({s}, t, 4);
  ASSERT_EQ(flows.size(), 2u * 4u * 3u);
  for (uint32_t r = 0; r < 2; ++r) {
    std::map<NodeId, std::set<NodeId>> by_receiver;
    for (const Flow& f : flows) {
      if (f.start != r * 100 * kUs) continue;
      EXPECT_NE(f.src, f.dst);
      by_receiver[f.dst].insert(f.src);
    }
    EXPECT_EQ(by_receiver.size(), 4u);  // distinct receivers
    for (const auto& [recv, senders] : by_receiver) EXPECT_EQ(senders.size(), 3u) << "receiver " << recv;
  }
}

TEST(Workload, ShuffleChainsEveryHostThroughAllOthers) {
  const Topology t = small();
  const std::vector<Flow> flows = generate_flows({fixed(Pattern::Shuffle, 1'000'000)}, t, 8);
  ASSERT_EQ(flows.size(), 16u * 15u);
  std::map<NodeId, std::set<NodeId>> dsts;
  std::map<NodeId, int> heads;
  for (const Flow& f : flows) {
    dsts[f.src].insert(f.dst);
    EXPECT_NE(f.src, f.dst);
    if (f.after == kNoFlow) {
      ++heads[f.src];
    } else {
      ASSERT_LT(f.after, flows.size());
      EXPECT_EQ(flows[f.after].src, f.src);  // chained behind the same sender's flow
      EXPECT_NE(flows[f.after].dst, f.dst);
    }
  }
  for (NodeId h = 0; h < 16; ++h) {
    EXPECT_EQ(dsts[h].size(), 15u);
    EXPECT_EQ(heads[h], 1);
  }
}

TEST(Workload, PairsAreDistinct) {
  const Topology t = small();
  TrafficSpec s = fixed(Pattern::Pairs, 1000);
  s.pairs = 20;
  const std::vector<Flow> flows = generate_flows({s}, t, 9);
  std::set<std::pair<NodeId, NodeId>> pairs;
  for (const Flow& f : flows) pairs.emplace(f.src, f.dst);
  EXPECT_EQ(flows.size(), 20u);
  EXPECT_EQ(pairs.size(), 20u);
}

TEST(Workload, SameSeedSameFlowsAndEntriesAreIndependent) {
  const Topology t = small();
  TrafficSpec a = fixed(Pattern::Random, 0);
  a.size.cdf = std::make_shared<const Cdf>(Cdf::load(kWorkloads + "fb_web.cdf"));
  a.arrival = Arrival::Poisson;
  a.load = 0.3;
  a.stop = 5 * kMs;
  TrafficSpec b = fixed(Pattern::Incast, 10'000);
  b.incast_senders = 4;
  auto key = [](const std::vector<Flow>& v) {
    std::vector<std::tuple<NodeId, NodeId, uint64_t, Time>> out;
    for (const Flow& f : v) out.emplace_back(f.src, f.dst, f.bytes, f.start);
    return out;
  };
  EXPECT_EQ(key(generate_flows({a, b}, t, 77)), key(generate_flows({a, b}, t, 77)));
  EXPECT_NE(key(generate_flows({a, b}, t, 77)), key(generate_flows({a, b}, t, 78)));
  // Entry 0's flows do not depend on entry 1 being there.
  std::vector<Flow> both = generate_flows({a, b}, t, 77), alone = generate_flows({a}, t, 77);
  both.erase(std::remove_if(both.begin(), both.end(), [](const Flow& f) { return f.source != 0; }), both.end());
  EXPECT_EQ(key(both), key(alone));
}

TEST(Workload, ValidationNamesTheField) {
  const Topology t = small();
  TrafficSpec s = fixed(Pattern::Random, 1000);
  s.arrival = Arrival::Poisson;
  s.stop = kMs;
  s.load = 1.5;
  expect_error([&] { generate_flows({s}, t, 1); }, "load: must be in (0, 1]");
  s.load = 0;
  expect_error([&] { generate_flows({s}, t, 1); }, "load: must be in (0, 1]");
  s.load = 1.0;
  s.size.fixed = 1;
  s.stop = 10 * kSec;
  expect_error([&] { generate_flows({s}, t, 1); }, "load: about");  // far too many flows
  TrafficSpec z = fixed(Pattern::Random, 0);
  expect_error([&] { generate_flows({z}, t, 1); }, "size: must be at least 1 byte");
}

TEST(FlowFile, ParsesNamesIndicesAndUnits) {
  const Topology t = small();
  const std::string path = write_tmp("flows.txt", "# start src dst size\n0us h0 h5 2MB\n\n1.5us 3 h7 1500  # comment\n");
  const std::vector<Flow> file = load_flow_file(path, t);
  ASSERT_EQ(file.size(), 2u);
  EXPECT_EQ(file[0].src, 0u);
  EXPECT_EQ(file[0].dst, 5u);
  EXPECT_EQ(file[0].bytes, 2'000'000u);
  EXPECT_EQ(file[1].start, 1500 * kNs);
  EXPECT_EQ(file[1].src, 3u);
  TrafficSpec s;
  s.pattern = Pattern::File;
  s.file_flows = file;
  s.start = 10 * kUs;
  const std::vector<Flow> flows = generate_flows({s}, t, 1);
  ASSERT_EQ(flows.size(), 2u);
  EXPECT_EQ(flows[1].start, 10 * kUs + 1500 * kNs);
}

TEST(FlowFile, BadLinesGiveOneClearError) {
  const Topology t = small();
  expect_error([&] { load_flow_file("/nonexistent/flows.txt", t); }, "cannot open");
  expect_error([&] { load_flow_file(write_tmp("f1.txt", "0us h0 h1 10\n0us h0 h99 10\n"), t); },
               "f1.txt:2: no node named \"h99\"");
  expect_error([&] { load_flow_file(write_tmp("f2.txt", "0us h0 h0 10\n"), t); }, "f2.txt:1: source and destination");
  expect_error([&] { load_flow_file(write_tmp("f3.txt", "0us h0 leaf0 10\n"), t); }, "is a switch");
  expect_error([&] { load_flow_file(write_tmp("f4.txt", "0 h0 h1 10\n"), t); }, "f4.txt:1: \"0\" is not a duration");
  expect_error([&] { load_flow_file(write_tmp("f5.txt", "0us h0 h1\n"), t); }, "f5.txt:1: expected");
  expect_error([&] { load_flow_file(write_tmp("f6.txt", "0us 0 16 10\n"), t); }, "host index 16 out of range");
}

}  // namespace
}  // namespace ll::sim
