// Scenario files: one JSON document describing a run (topology, workload, seed, duration),
// validated completely before anything runs. The schema is in sim/SCENARIO.md. Every
// problem (bad JSON, duplicate or unknown key, wrong type, impossible value, missing or bad
// file) throws one ScenarioError whose message names the file and the key path, e.g.
//   scenarios/x.json: topology.failed_links[1].between: no node named "leaf9"
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/net_config.h"
#include "sim/routing.h"
#include "sim/time.h"
#include "sim/topology.h"
#include "sim/workload.h"

namespace ll::sim {

class ScenarioError : public std::invalid_argument {
 public:
  ScenarioError(const std::string& file, const std::string& key, const std::string& what);
  const std::string& key() const { return key_; }

 private:
  std::string key_;
};

struct ScenarioOptions {
  // Where a size_cdf given by bare name ("websearch_dctcp") is looked up.
  std::string workload_dir = default_workload_dir();
  static std::string default_workload_dir();
  // "key.path=value" settings applied to the document before validation (the command
  // line's --set): value is JSON if it parses as JSON, else a string. Objects on the path
  // are created; "traffic[2]" addresses an array element.
  std::vector<std::string> overrides;
};

// How long the run goes and which flows its statistics count (section "run").
struct RunCfg {
  bool all_done = false;    // until = "all_done": past the duration until every flow finished
  Time cap = 0;             // all_done: the run stops here at the latest (reported loudly)
  Time window_from = 0;     // statistics count the flows that start in [window_from, window_to)
  Time window_to = 0;       // (default: the whole duration)
  Time deadlock_after = 1'000'000'000;  // a PFC wait cycle without progress this long ends the run (0: never); 1 ms
};

struct Scenario {
  std::string file;         // the scenario file ("<text>" when parsed from a string)
  std::string name;
  std::string description;
  uint64_t seed = 1;
  Time duration = 0;
  std::string topology_type;  // "leaf_spine", "dcqcn_testbed", "fat_tree"
  Topology topology;          // built, with every modifier applied; all hosts connected
  std::vector<TrafficSpec> traffic;
  NetConfig net;              // sections "switch", "nic", "balancer", "report"
  RunCfg run;                 // section "run"
  // Where the run stops at the latest: the duration, or the cap with until = "all_done".
  Time end() const { return run.all_done ? run.cap : duration; }
  bool in_window(Time start) const { return start >= run.window_from && start < run.window_to; }
};

// A file ending in .toml is TOML (same keys and checks: it is converted to the JSON
// document first); anything else is JSON.
Scenario load_scenario(const std::string& path, const ScenarioOptions& opt = {});
// TOML text -> the equivalent JSON text; ScenarioError("invalid TOML: ... at line L, column C").
std::string toml_to_json(const std::string& toml_text, const std::string& origin);
// `origin` names the text in errors; relative file names resolve against `base_dir`.
Scenario parse_scenario(const std::string& json_text, const std::string& origin,
                        const std::string& base_dir, const ScenarioOptions& opt = {});

// Human-readable summary of the topology, its routing and the generated workload
// (what lossless_sim_check prints).
std::string summarize(const Scenario& s, const Routing& routing, const std::vector<Flow>& flows);

}  // namespace ll::sim
