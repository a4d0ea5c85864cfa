// The command-line options both simulator tools share (CLI11): the scenario file,
// --set overrides and --workloads.
#pragma once
#include <CLI/CLI.hpp>

#include <string>

#include "sim/balancer.h"
#include "sim/scenario.h"
#include "sim/transport.h"

namespace ll::sim {

inline void add_scenario_options(CLI::App& app, std::string& path, ScenarioOptions& opt) {
  app.add_option("scenario", path, "scenario file (.json or .toml; schema: sim/SCENARIO.md)");
  // Acted on after the whole command line parsed (parse_command_line), so a bad option
  // beside it is still an error.
  app.add_flag("--list", "print the balancer and transport names (one 'kind name' a line) and exit");
  app.add_option("--set", opt.overrides,
                 "override a scenario key before validation, e.g. --set balancer.mode=drill "
                 "or --set 'workload.traffic[0].load=0.5' (repeatable; the value is JSON if it "
                 "parses as JSON, else a string)")
      ->type_name("KEY=VALUE")
      ->take_all()
      ->allow_extra_args(false);
  app.add_option("--workloads", opt.workload_dir, "where size_cdf names are looked up")
      ->capture_default_str();
  // The names a scenario may use for its parts, from the registries.
  std::string parts = "\nbalancer.mode (sim/balancer.cpp):\n";
  for (const BalancerEntry& e : balancer_registry()) parts += "  " + std::string(e.name) + ": " + e.what + "\n";
  parts += "nic.transport (sim/transport.cpp):\n";
  for (const TransportEntry& e : transport_registry()) parts += "  " + std::string(e.name) + ": " + e.what + "\n";
  app.footer(parts);
}

// Parses argv; returns -1 to go on, else the exit status (0 after --help, 2 on a usage
// error, with one "<tool>: error: ..." line).
inline int parse_command_line(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
    if (app.count("--list") > 0 && app.get_option("--list")->as<bool>()) {  // not for --list=false
      for (const BalancerEntry& e : balancer_registry()) std::printf("balancer %s\n", e.name);
      for (const TransportEntry& e : transport_registry()) std::printf("transport %s\n", e.name);
      return 0;
    }
    if (app.get_option("scenario")->empty()) throw CLI::RequiredError("scenario");
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "%s: error: %s (see --help)\n", app.get_name().c_str(), e.what());
    return 2;
  }
  return -1;
}

}  // namespace ll::sim
