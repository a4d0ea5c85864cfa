// lossless_sim_check: validates a scenario file and prints what it describes (topology,
// routing, generated workload). It builds the network as lossless_sim does (without
// running it), so it rejects everything lossless_sim rejects. Exit 0 when valid, 1 with
// one error line when not, 2 on usage errors.
#include <cstdio>
#include <exception>
#include <string>

#include "sim/cli.h"
#include "sim/cosim.h"
#include "sim/memory_estimate.h"
#include "sim/network.h"
#include "sim/routing.h"
#include "sim/scenario.h"
#include "sim/workload.h"

int main(int argc, char** argv) {
  std::string path;
  ll::sim::ScenarioOptions opt;
  CLI::App app{"Validates a fabric-simulator scenario (schema: sim/SCENARIO.md) and prints its "
               "topology, routing and workload. Exit status 0 if valid, 1 if not, 2 on usage errors.",
               "lossless_sim_check"};
  ll::sim::add_scenario_options(app, path, opt);
  if (const int rc = ll::sim::parse_command_line(app, argc, argv); rc >= 0) return rc;
  try {
    const ll::sim::Scenario s = ll::sim::load_scenario(path, opt);
    ll::sim::check_fits_in_memory(s);
    const ll::sim::Routing routing(s.topology);
    const std::vector<ll::sim::Flow> flows = ll::sim::generate_flows(s.traffic, s.topology, s.seed);
    // A "cosim" section is validated (its node and block names) but no RTL is built.
    ll::sim::cosim::set_check_only(true);
    const ll::sim::Network net(s, flows);  // the checks lossless_sim makes when it builds it
    std::fputs(ll::sim::summarize(s, routing, flows).c_str(), stdout);
    std::printf("OK: %s is valid\n", path.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
