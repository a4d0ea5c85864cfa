// Scenario parsing and validation: every error names its key path.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "sim/memory_estimate.h"
#include "sim/scenario.h"

namespace ll::sim {
namespace {

const std::string kDir = std::string(LL_SIM_DIR) + "/scenarios";

std::string base(const std::string& topology, const std::string& traffic,
                 const std::string& extra = "") {
  return "{\"seed\": 3, \"duration\": \"1ms\"" + extra + ", \"topology\": " + topology +
         ", \"workload\": {\"traffic\": [" + traffic + "]}}";
}
const std::string kLeafSpine =
    "{\"type\": \"leaf_spine\", \"spines\": 2, \"leaves\": 4, \"hosts_per_leaf\": 4}";
const std::string kPerm = "{\"pattern\": \"permutation\", \"size\": \"1MB\"}";

Scenario parse(const std::string& text) { return parse_scenario(text, "t.json", kDir); }

// The error message must be "t.json: <key>: <...needle...>".
void expect_error(const std::string& text, const std::string& key, const std::string& needle = "") {
  try {
    parse(text);
    ADD_FAILURE() << "accepted: " << text;
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.key(), key) << e.what();
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind("t.json: " + (key.empty() ? std::string() : key + ": "), 0), 0u) << msg;
    EXPECT_NE(msg.find(needle), std::string::npos) << msg;
  }
}

TEST(Scenario, MinimalLeafSpine) {
  const Scenario s = parse(base(kLeafSpine, kPerm));
  EXPECT_EQ(s.seed, 3u);
  EXPECT_EQ(s.duration, kMs);
  EXPECT_EQ(s.topology_type, "leaf_spine");
  EXPECT_EQ(s.topology.num_hosts(), 16u);
  ASSERT_EQ(s.traffic.size(), 1u);
  EXPECT_EQ(s.traffic[0].pattern, Pattern::Permutation);
  EXPECT_EQ(s.traffic[0].size.fixed, 1'000'000u);
  // Defaults: 10G host links, 40G fabric, 1 us delays.
  EXPECT_EQ(s.topology.host_rate(0), 10'000'000'000ull);
}

TEST(Scenario, EveryTopologyTypeAndModifier) {
  const Scenario s = parse(base(
      "{\"type\": \"leaf_spine\", \"spines\": 3, \"leaves\": 3, \"hosts_per_leaf\": 2,"
      " \"host_link\": {\"speed\": \"25G\"}, \"fabric_link\": {\"speed\": \"100Gbps\", \"delay\": \"2us\"},"
      " \"striping\": [{\"between\": [\"leaf0\", \"spine0\"], \"links\": 2}],"
      " \"link_overrides\": [{\"between\": [\"leaf0\", \"spine0\"], \"index\": 1, \"speed\": \"10G\"}],"
      " \"failed_links\": [{\"between\": [\"leaf2\", \"spine2\"]}]}",
      kPerm));
  const Topology& t = s.topology;
  const auto l = t.links_between(t.find("leaf0"), t.find("spine0"));
  ASSERT_EQ(l.size(), 2u);
  EXPECT_EQ(t.link(l[0]).bps, 100'000'000'000ull);
  EXPECT_EQ(t.link(l[1]).bps, 10'000'000'000ull);
  EXPECT_EQ(t.link(l[0]).delay, 2 * kUs);
  EXPECT_TRUE(t.link(t.links_between(t.find("leaf2"), t.find("spine2"))[0]).failed);
  EXPECT_EQ(t.host_rate(0), 25'000'000'000ull);

  EXPECT_EQ(parse(base("{\"type\": \"dcqcn_testbed\"}", kPerm)).topology.num_hosts(), 20u);
  EXPECT_EQ(parse(base("{\"type\": \"dcqcn_testbed\", \"hosts_per_tor\": 2}", kPerm)).topology.num_hosts(), 8u);
  EXPECT_EQ(parse(base("{\"type\": \"fat_tree\", \"k\": 4}", kPerm)).topology.num_hosts(), 16u);
}

TEST(Scenario, EveryPattern) {
  const std::string traffic =
      "{\"pattern\": \"random\", \"arrival\": \"poisson\", \"load\": 0.3, \"size_cdf\": \"fb_web\"},"
      "{\"pattern\": \"stride\", \"stride\": 3, \"size\": 1500},"
      "{\"pattern\": \"pairs\", \"pairs\": 5, \"arrival\": \"poisson\", \"load\": 0.2, \"stop\": \"500us\", \"size\": \"64KiB\"},"
      "{\"pattern\": \"shuffle\", \"size\": \"10KB\"},"
      "{\"pattern\": \"incast\", \"senders\": 6, \"receiver\": \"h3\", \"repeat\": 2, \"interval\": \"100us\", \"size\": \"20KB\", \"start\": \"10us\"},"
      "{\"pattern\": \"file\", \"file\": \"flows_example.txt\"}";
  const Scenario s = parse(base(kLeafSpine, traffic));
  ASSERT_EQ(s.traffic.size(), 6u);
  EXPECT_EQ(s.traffic[0].arrival, Arrival::Poisson);
  EXPECT_EQ(s.traffic[0].stop, kMs);  // defaults to the duration
  EXPECT_NE(s.traffic[0].size.cdf, nullptr);
  EXPECT_EQ(s.traffic[2].stop, 500 * kUs);
  EXPECT_EQ(s.traffic[4].incast_receiver, 3);
  EXPECT_FALSE(s.traffic[5].file_flows.empty());
  EXPECT_GT(generate_flows(s.traffic, s.topology, s.seed).size(), 100u);
}

TEST(Scenario, SyntaxAndStructureErrors) {
  expect_error("{\"seed\": 1,", "", "invalid JSON: parse error at line 1");
  expect_error("[1, 2]", "", "expected an object, got an array");
  expect_error(base(kLeafSpine, kPerm, ", \"seed\": 4"), "seed", "key appears twice");
  expect_error(base(kLeafSpine, kPerm, ", \"name\": 1e400"), "", "invalid JSON: number overflow");
  // --set values: a number beyond a double, and a duplicate key inside an object value
  auto set_error = [](const std::string& set, const std::string& key, const std::string& needle) {
    ScenarioOptions opt;
    opt.overrides = {set};
    try {
      parse_scenario(base(kLeafSpine, kPerm), "t.json", kDir, opt);
      ADD_FAILURE() << "accepted --set " << set;
    } catch (const ScenarioError& e) {
      EXPECT_EQ(e.key(), key) << e.what();
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  set_error("seed=1e400", "seed", "--set: number overflow");
  set_error("workload={\"traffic\": [{\"pattern\": \"permutation\", \"size\": 1, \"size\": 2}]}",
            "workload.traffic[0].size", "--set: key appears twice");
  // a repeated key is named by its path: nested objects and array elements
  expect_error(base(kLeafSpine, kPerm + ", {\"pattern\": \"incast\", \"load\": 1, \"load\": 2}"),
               "workload.traffic[1].load", "key appears twice");
  expect_error(base(kLeafSpine, kPerm, ", \"sede\": 4"), "sede", "unknown key (allowed here: name, description, seed");
  expect_error("{\"duration\": \"1ms\", \"workload\": {\"traffic\": []}}", "topology", "missing (required)");
  expect_error("{\"topology\": " + kLeafSpine + ", \"workload\": {\"traffic\": [" + kPerm + "]}}", "duration",
               "missing");
  expect_error(base(kLeafSpine, ""), "workload.traffic", "at least one");
}

TEST(Scenario, TypeErrors) {
  expect_error(base(kLeafSpine, kPerm, ", \"name\": 5"), "name", "expected a string, got an integer");
  expect_error("{\"seed\": \"x\", \"duration\": \"1ms\"}", "seed", "expected an integer, got a string");
  expect_error("{\"seed\": -1, \"duration\": \"1ms\"}", "seed", "must be in 0..");
  expect_error("{\"seed\": 1.5, \"duration\": \"1ms\"}", "seed", "expected an integer, got a number");
  expect_error("{\"duration\": 1000}", "duration", "expected a duration string such as \"10us\"");
  expect_error("{\"duration\": \"1 fortnight\"}", "duration", "is not a duration");
  expect_error("{\"duration\": \"0us\"}", "duration", "must be > 0");
  expect_error(base("{\"type\": \"leaf_spine\", \"spines\": \"2\", \"leaves\": 1, \"hosts_per_leaf\": 2}", kPerm),
               "topology.spines", "expected an integer");
  expect_error(base("{\"type\": \"fat_tree\", \"k\": 4, \"host_link\": {\"speed\": true}}", kPerm),
               "topology.host_link.speed", "expected a rate");
  expect_error(base("{\"type\": \"fat_tree\", \"k\": 4, \"host_link\": {\"speed\": \"0G\"}}", kPerm),
               "topology.host_link.speed", "must be > 0");
  expect_error(base("{\"type\": \"fat_tree\", \"k\": 4, \"host_link\": {\"sped\": \"1G\"}}", kPerm),
               "topology.host_link.sped", "unknown key");
  expect_error(base(kLeafSpine, "{\"pattern\": \"permutation\", \"size\": [1]}"), "workload.traffic[0].size",
               "expected a size");
  expect_error(base(kLeafSpine, "{\"pattern\": \"random\", \"arrival\": \"poisson\", \"load\": \"half\", \"size\": 1}"),
               "workload.traffic[0].load", "expected a number");
}

TEST(Scenario, ImpossibleTopologies) {
  expect_error(base("{\"type\": \"ring\"}", kPerm), "topology.type", "unknown topology type \"ring\"");
  expect_error(base("{\"spines\": 2}", kPerm), "topology.type", "missing");
  expect_error(base("{\"type\": \"leaf_spine\", \"spines\": 0, \"leaves\": 1, \"hosts_per_leaf\": 2}", kPerm),
               "topology.spines", "must be at least 1");
  expect_error(base("{\"type\": \"leaf_spine\", \"spines\": 1, \"leaves\": 1}", kPerm), "topology.hosts_per_leaf",
               "missing");
  expect_error(base("{\"type\": \"fat_tree\", \"k\": 3}", kPerm), "topology.k", "even");
  expect_error(base("{\"type\": \"fat_tree\", \"k\": 4, \"spines\": 2}", kPerm), "topology.spines",
               "unknown key (allowed here: type, k,");
  expect_error(base("{\"type\": \"dcqcn_testbed\", \"hosts_per_tor\": 0}", kPerm), "topology.hosts_per_tor",
               "at least 1");
  const std::string ls = "{\"type\": \"leaf_spine\", \"spines\": 2, \"leaves\": 2, \"hosts_per_leaf\": 2, ";
  expect_error(base(ls + "\"failed_links\": [{\"between\": [\"leaf0\", \"spine7\"]}]}", kPerm),
               "topology.failed_links[0].between", "no node named \"spine7\"");
  expect_error(base(ls + "\"failed_links\": [{\"between\": [\"leaf0\", \"leaf1\"]}]}", kPerm),
               "topology.failed_links[0].between", "no link between leaf0 and leaf1");
  expect_error(base(ls + "\"failed_links\": [{\"between\": [\"leaf0\"]}]}", kPerm),
               "topology.failed_links[0].between", "two node names");
  expect_error(base(ls + "\"failed_links\": [{\"between\": [\"leaf0\", \"spine0\"]}, {\"between\": [\"leaf0\", \"spine1\"]}]}", kPerm),
               "topology.failed_links", "hosts h0 and h2 are disconnected");
  expect_error(base(ls + "\"failed_links\": [{\"between\": [\"leaf0\", \"spine0\"]}, {\"between\": [\"spine0\", \"leaf0\"]}]}", kPerm),
               "topology.failed_links[1]", "failed twice");
  expect_error(base(ls + "\"striping\": [{\"between\": [\"leaf0\", \"spine0\"], \"links\": 2}],"
                         " \"failed_links\": [{\"between\": [\"leaf0\", \"spine0\"]}]}", kPerm),
               "topology.failed_links[0]", "2 parallel links between leaf0 and spine0: give \"index\"");
  expect_error(base(ls + "\"striping\": [{\"between\": [\"leaf0\", \"leaf1\"], \"links\": 2}]}", kPerm),
               "topology.striping[0].between", "not linked");
  expect_error(base(ls + "\"striping\": [{\"between\": [\"h0\", \"leaf0\"], \"links\": 2}]}", kPerm),
               "topology.striping[0].between", "only links between switches");
  expect_error(base(ls + "\"link_overrides\": [{\"between\": [\"leaf0\", \"spine0\"]}]}", kPerm),
               "topology.link_overrides[0]", "give \"speed\" and/or \"delay\"");
  expect_error(base(ls + "\"link_overrides\": [{\"between\": [\"leaf0\", \"spine0\"], \"index\": 1, \"speed\": \"1G\"}]}", kPerm),
               "topology.link_overrides[0].index", "must be in 0..0");
}

TEST(Scenario, ImpossibleWorkloads) {
  auto traffic_error = [&](const std::string& t, const std::string& key, const std::string& needle) {
    expect_error(base(kLeafSpine, t), "workload.traffic[0]." + key, needle);
  };
  traffic_error("{\"size\": 1}", "pattern", "missing");
  traffic_error("{\"pattern\": \"swirl\", \"size\": 1}", "pattern", "unknown pattern \"swirl\"");
  traffic_error("{\"pattern\": \"random\"}", "size", "exactly one of \"size\" and \"size_cdf\"");
  traffic_error("{\"pattern\": \"random\", \"size\": 1, \"size_cdf\": \"fb_web\"}", "size", "exactly one");
  traffic_error("{\"pattern\": \"random\", \"size\": 0}", "size", "at least 1 byte");
  traffic_error("{\"pattern\": \"random\", \"size_cdf\": \"no_such_trace\"}", "size_cdf", "cannot open");
  traffic_error("{\"pattern\": \"random\", \"size_cdf\": \"bad/nonmonotonic.cdf\"}", "size_cdf",
                "nonmonotonic.cdf:4: flow sizes must be non-decreasing");
  traffic_error("{\"pattern\": \"random\", \"arrival\": \"poisson\", \"size\": 1}", "load", "missing");
  traffic_error("{\"pattern\": \"random\", \"arrival\": \"poisson\", \"load\": 1.2, \"size\": 1000}", "load", "(0, 1]");
  traffic_error("{\"pattern\": \"random\", \"arrival\": \"poisson\", \"load\": 1, \"size\": 1, \"stop\": \"2ms\"}",
                "stop", "after the scenario's duration");
  traffic_error("{\"pattern\": \"random\", \"arrival\": \"sometimes\", \"size\": 1}", "arrival", "\"once\" or \"poisson\"");
  traffic_error("{\"pattern\": \"random\", \"load\": 0.5, \"size\": 1}", "load", "only with \"arrival\": \"poisson\"");
  traffic_error("{\"pattern\": \"random\", \"size\": 1, \"start\": \"1ms\"}", "start", "before the scenario's duration");
  traffic_error("{\"pattern\": \"stride\", \"size\": 1}", "stride", "missing");
  traffic_error("{\"pattern\": \"stride\", \"stride\": 16, \"size\": 1}", "stride", "multiple of the 16 hosts");
  traffic_error("{\"pattern\": \"permutation\", \"stride\": 2, \"size\": 1}", "stride", "unknown key");
  traffic_error("{\"pattern\": \"pairs\", \"pairs\": 241, \"size\": 1}", "pairs", "must be in 1..240");
  traffic_error("{\"pattern\": \"incast\", \"senders\": 16, \"size\": 1}", "senders", "must be in 1..15");
  traffic_error("{\"pattern\": \"incast\", \"senders\": 2, \"receiver\": \"leaf0\", \"size\": 1}", "receiver",
                "no host named \"leaf0\"");
  traffic_error("{\"pattern\": \"incast\", \"senders\": 2, \"repeat\": 3, \"size\": 1}", "interval", "must be > 0");
  traffic_error("{\"pattern\": \"incast\", \"senders\": 2, \"repeat\": 30, \"interval\": \"100us\", \"size\": 1}",
                "repeat", "last round would start after");
  traffic_error("{\"pattern\": \"incast\", \"senders\": 2, \"arrival\": \"poisson\", \"size\": 1}", "arrival",
                "unknown key");
  traffic_error("{\"pattern\": \"file\", \"file\": \"nothing_here.txt\"}", "file", "cannot open flow list file");
  traffic_error("{\"pattern\": \"file\", \"file\": \"flows_example.txt\", \"size\": 1}", "size", "unknown key");
  traffic_error("{\"pattern\": \"shuffle\", \"size\": 1, \"arrival\": \"once\"}", "arrival", "unknown key");
}

// The memory guard counts the workload's flows (each kept for the run): 1-byte Poisson flows
// at load 1 on 16 hosts for 1 ms are 2 x 10^7 flows, ~7 GB, where the fabric alone is ~1 MB.
TEST(Scenario, MemoryEstimateCountsFlows) {
  const Scenario few = parse(base(kLeafSpine, kPerm));
  EXPECT_DOUBLE_EQ(estimate_flow_count(few), 16.0);  // a permutation: one flow a host
  EXPECT_LT(estimate_memory_bytes(few), uint64_t{10} << 20);
  const Scenario many = parse(base(
      kLeafSpine, "{\"pattern\": \"random\", \"arrival\": \"poisson\", \"load\": 1, \"size\": 1}"));
  EXPECT_NEAR(estimate_flow_count(many), 2e7, 2e5);
  EXPECT_GE(estimate_memory_bytes(many), uint64_t{20'000'000} * kBytesPerFlow * 99 / 100);
  // an incast's rounds count as well: 3 senders x 2 receivers x 1000 rounds
  const Scenario rounds = parse(base(kLeafSpine,
      "{\"pattern\": \"incast\", \"senders\": 3, \"receivers\": 2, \"repeat\": 1000, \"interval\": \"100ns\", "
      "\"size\": 1}"));
  EXPECT_DOUBLE_EQ(estimate_flow_count(rounds), 6000.0);
}

// Every shipped example parses to what it says it is: each file has a row here (a new
// example without one fails), and its seed, duration, fabric size and generated workload
// match the row, so an example that silently parses into something else is caught.
TEST(Scenario, ShippedExamplesAreValid) {
  struct Expect {
    uint64_t seed;
    Time duration;
    size_t hosts, switches, links, failed;
  };
  const std::map<std::string, Expect> want = {
      {"bench_leaf_spine_256.json", {1, 10 * kMs, 256, 32, 512, 0}},
      {"dcqcn_benchmark.json", {7, 10 * kMs, 20, 10, 36, 0}},
      {"demo.json", {1, 100 * kMs, 64, 16, 128, 0}},
      {"drill_48x48x48.json", {1, 10 * kMs, 2304, 96, 4608, 0}},
      {"fat_tree_synthetic.json", {2, 20 * kMs, 16, 20, 48, 0}},
      {"leaf_spine_asymmetric.json", {5, 2 * kMs, 16, 8, 32, 1}},
      {"leaf_spine_websearch.json", {1, 20 * kMs, 64, 12, 96, 0}},
      {"rdma_leaf_spine_128.json", {1, 5 * kMs, 128, 16, 192, 0}},
      {"incast_pfc.toml", {5, 3 * kMs, 24, 5, 30, 0}},
  };
  size_t n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kDir)) {
    if (entry.path().extension() != ".json" && entry.path().extension() != ".toml") continue;
    ++n;
    const std::string name = entry.path().filename().string();
    const auto w = want.find(name);
    ASSERT_NE(w, want.end()) << name << ": a shipped example without a row in this test";
    const Scenario s = load_scenario(entry.path().string());
    EXPECT_FALSE(s.name.empty()) << name;
    EXPECT_EQ(s.seed, w->second.seed) << name;
    EXPECT_EQ(s.duration, w->second.duration) << name;
    EXPECT_EQ(s.topology.num_hosts(), w->second.hosts) << name;
    EXPECT_EQ(s.topology.num_switches(), w->second.switches) << name;
    EXPECT_EQ(s.topology.num_links(), w->second.links) << name;
    EXPECT_EQ(s.topology.num_failed_links(), w->second.failed) << name;
    const Routing r(s.topology);
    const std::vector<Flow> flows = generate_flows(s.traffic, s.topology, s.seed);
    ASSERT_FALSE(flows.empty()) << name;
    for (const Flow& f : flows) {
      ASSERT_LT(f.src, s.topology.num_hosts()) << name;
      ASSERT_LT(f.dst, s.topology.num_hosts()) << name;
      ASSERT_NE(f.src, f.dst) << name;
      ASSERT_GT(f.bytes, 0u) << name;
      ASSERT_LT(f.start, s.duration) << name;
    }
    EXPECT_NE(summarize(s, r, flows).find("every host reaches every other host"), std::string::npos) << name;
  }
  EXPECT_EQ(n, want.size());
}

// A TOML file is the same document: the example equals its JSON spelling key for key.
TEST(Scenario, TomlIsTheSameDocumentAsJson) {
  const Scenario t = load_scenario(kDir + "/incast_pfc.toml");
  const Scenario j = parse(R"({"name": "16:1 incast with PFC, TOML", "seed": 5, "duration": "3ms",
      "topology": {"type": "leaf_spine", "spines": 2, "leaves": 3, "hosts_per_leaf": 8},
      "workload": {"traffic": [{"pattern": "incast", "senders": 16, "receiver": "h0", "size": "100KB"}]},
      "switch": {"pfc": {"buffer": "1MB", "threshold": "dynamic"}}, "nic": {"transport": "gbn"}})");
  const Routing rt(t.topology), rj(j.topology);
  const std::vector<Flow> ft = generate_flows(t.traffic, t.topology, t.seed);
  const std::vector<Flow> fj = generate_flows(j.traffic, j.topology, j.seed);
  std::string st = summarize(t, rt, ft), sj = summarize(j, rj, fj);
  st = st.substr(st.find('\n'));  // the first line names the file
  sj = sj.substr(sj.find('\n'));
  EXPECT_EQ(st, sj);
  EXPECT_EQ(t.net.sw.pfc.buffer, 1'000'000u);
  EXPECT_TRUE(t.net.sw.pfc.dynamic);
  EXPECT_EQ(t.net.nic.transport, "gbn");
  ASSERT_EQ(ft.size(), fj.size());
  for (size_t i = 0; i < ft.size(); ++i) EXPECT_EQ(ft[i].src, fj[i].src);
}

TEST(Scenario, TomlSyntaxErrorNamesTheLine) {
  try {
    toml_to_json("name = \"x\"\nseed = = 3\n", "x.toml");
    ADD_FAILURE();
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("x.toml: invalid TOML: "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("at line 2"), std::string::npos) << e.what();
  }
}

TEST(Scenario, MissingFile) {
  try {
    load_scenario("/nonexistent/scenario.json");
    ADD_FAILURE();
  } catch (const ScenarioError& e) {
    EXPECT_EQ(std::string(e.what()), "/nonexistent/scenario.json: cannot open scenario file");
  }
}

}  // namespace
}  // namespace ll::sim
