// lossless_sim_check: validates a scenario file and prints what it describes (topology,
// routing, generated workload). Exit 0 when valid, 1 with one error line when not, 2 on
// usage errors.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "sim/routing.h"
#include "sim/scenario.h"
#include "sim/workload.h"

int main(int argc, char** argv) {
  std::string path;
  ll::sim::ScenarioOptions opt;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--workloads") && i + 1 < argc) {
      opt.workload_dir = argv[++i];
    } else if (!std::strcmp(argv[i], "-h") || !std::strcmp(argv[i], "--help")) {
      std::printf("usage: lossless_sim_check [--workloads DIR] SCENARIO.json\n"
                  "Validates a fabric-simulator scenario (schema: sim/SCENARIO.md) and prints its\n"
                  "topology, routing and workload. Exit status 0 if valid, 1 if not, 2 on usage errors.\n"
                  "--workloads DIR  where size_cdf names are looked up (default %s)\n",
                  ll::sim::ScenarioOptions::default_workload_dir().c_str());
      return 0;
    } else if (argv[i][0] == '-' || !path.empty()) {
      std::fprintf(stderr, "lossless_sim_check: unexpected argument \"%s\" (see --help)\n", argv[i]);
      return 2;
    } else {
      path = argv[i];
    }
  }
  if (path.empty()) {
    std::fprintf(stderr, "usage: lossless_sim_check [--workloads DIR] SCENARIO.json\n");
    return 2;
  }
  try {
    const ll::sim::Scenario s = ll::sim::load_scenario(path, opt);
    const ll::sim::Routing routing(s.topology);
    const std::vector<ll::sim::Flow> flows = ll::sim::generate_flows(s.traffic, s.topology, s.seed);
    std::fputs(ll::sim::summarize(s, routing, flows).c_str(), stdout);
    std::printf("OK: %s is valid\n", path.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
