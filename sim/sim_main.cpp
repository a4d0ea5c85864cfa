// lossless_sim: runs one fabric scenario through the golden models and reports.
//   lossless_sim SCENARIO [--out DIR] [--set key=value]... [--quiet]   (--help for all)
// Exit status: 0 ok; 1 bad scenario (one error line naming the key); 2 usage or --out
// problem; 3 the run broke an invariant (packet conservation, or a lossless drop with PFC
// on).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <optional>
#include <string>

#include "sim/cli.h"
#include "sim/cosim.h"
#if LL_COSIM
#include "sim/cosim/adapters.h"
#endif
#include "sim/memory_estimate.h"
#include "sim/network.h"
#include "sim/out_dir.h"
#include "sim/report.h"
#include "sim/scenario.h"
#include "sim/units.h"
#include "sim/workload.h"

namespace {

std::string bar(double frac, int width) {
  std::string s;
  const int full = static_cast<int>(frac * width);
  for (int i = 0; i < width; ++i) s += i < full ? '#' : '.';
  return s;
}

// Co-simulation: one line per RTL block (stderr) and DIR/cosim.json; summary.json stays
// what the pure-model run writes.
nlohmann::json cosim_report(const ll::sim::Network& net, bool print) {
  nlohmann::json arr = nlohmann::json::array();
  for (const ll::sim::cosim::BlockStats& b : net.cosim_stats()) {
    const double per = b.calls ? static_cast<double>(b.cycles) / static_cast<double>(b.calls) : 0.0;
    arr.push_back({{"node", b.node}, {"block", b.block}, {"calls", b.calls}, {"init_cycles", b.init_cycles},
                   {"cycles", b.cycles}, {"cycles_per_call", per}, {"rtl_s", b.seconds},
                   {"calls_per_rtl_s", b.seconds > 0 ? static_cast<double>(b.calls) / b.seconds : 0.0}});
    if (print) {
      std::fprintf(stderr, "cosim: %s %s as RTL: %llu calls, %llu cycles (%.2f per call) + %llu start-up, %.3f s in the RTL\n",
                   b.node.c_str(), b.block.c_str(), static_cast<unsigned long long>(b.calls),
                   static_cast<unsigned long long>(b.cycles), per, static_cast<unsigned long long>(b.init_cycles), b.seconds);
    }
  }
  return arr;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace ll::sim;
  std::string path, out;
  bool quiet = false;
  ScenarioOptions opt;
  CLI::App app{"Runs a fabric scenario through the golden models (docs/sim.md). Exit status: 0 ok, "
               "1 bad scenario, 2 usage or --out problem, 3 invariant broken (packet conservation, "
               "lossless drop), 4 PFC deadlock (the run ended on it; outputs are written).",
               "lossless_sim"};
  add_scenario_options(app, path, opt);
  app.add_option("--out", out,
                 "write DIR/flows.csv and DIR/summary.json (created with its parents; an existing "
                 "DIR is replaced only if lossless_sim wrote it, else it must be empty)")
      ->check(CLI::Validator([](std::string& v) { return v.empty() ? std::string("an empty directory name") : std::string(); },
                             "DIR"));
  app.add_flag("--quiet", quiet, "no progress bar and no table (errors still go to stderr)");
  if (const int rc = parse_command_line(app, argc, argv); rc >= 0) return rc;
  std::optional<OutDir> dir;
  try {
    if (!out.empty()) {  // checked now, created once the scenario is valid
      dir.emplace(out);
      dir->refuse_input_inside(path, "scenario file");
      dir->refuse_input_inside(opt.workload_dir, "--workloads directory");
    }
  } catch (const OutDir::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  const auto t0 = std::chrono::steady_clock::now();
#if LL_COSIM
  ll::sim::cosim::install(&ll::sim::cosim::rtl_factory());
#endif
  try {
    const Scenario s = load_scenario(path, opt);
    if (dir) {
      try {
        for (const TrafficSpec& t : s.traffic) {
          dir->refuse_input_inside(t.file, "flow list");
          if (t.size.cdf) dir->refuse_input_inside(t.size.cdf->origin(), "size CDF");
        }
      } catch (const OutDir::Error& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 2;
      }
    }
    check_fits_in_memory(s);
    const std::vector<Flow> flows = generate_flows(s.traffic, s.topology, s.seed);
    if (s.net.cosim.trace) {
      // cosim.trace: DIR/cosim_<node>_<block>.fst (the current directory without --out)
      const CosimCfg& c = s.net.cosim;
      const std::string name = "cosim_" + s.topology.node(c.trace_node).name + "_" + c.trace_block + ".fst";
      cosim::set_trace({s.topology.node(c.trace_node).name, c.trace_block, dir ? dir->file(name).string() : name,
                        c.trace_from, c.trace_to});
    }
    Network net(s, flows);
    if (dir) {
      try {
        dir->create();
      } catch (const OutDir::Error& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 2;
      }
    }
    const bool tty = !quiet && isatty(2);
    auto progress = [&](Time now, uint64_t events) {
      if (!tty) return;
      const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const double frac = static_cast<double>(now) / static_cast<double>(s.end());
      const double eta = frac > 0 ? el * (1 - frac) / frac : 0;
      std::fprintf(stderr, "\r[%s] %5.1f%%  sim %s of %s  %.2f M events/s  ETA %.0f s   ", bar(frac, 30).c_str(),
                   frac * 100, format_time(now).c_str(), format_time(s.end()).c_str(),
                   el > 0 ? static_cast<double>(events) / el / 1e6 : 0.0, eta);
      std::fflush(stderr);
    };
    net.run(progress, s.end() / 200 ? s.end() / 200 : 1);
    if (tty) std::fprintf(stderr, "\n");
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const nlohmann::json sum = summary(net, measure_cost(wall));
    if (dir) {
      write_flows_csv(net, dir->file("flows.csv").string());
      if (s.net.report.paused_series) write_paused_csv(net, dir->file("paused.csv").string());
      if (s.net.report.rate_interval) write_rates_csv(net, dir->file("rates.csv").string());
      std::ofstream js(dir->file("summary.json"));
      js << sum.dump(2) << "\n";
      if (!js) throw std::runtime_error("cannot write " + dir->file("summary.json").string());
    }
    if (!quiet) std::fputs(format_summary(sum).c_str(), stdout);
    if (!s.net.cosim.empty()) {
      const nlohmann::json cj = cosim_report(net, !quiet);
      if (dir) {
        std::ofstream co(dir->file("cosim.json"));
        co << cj.dump(2) << "\n";
        if (!co) throw std::runtime_error("cannot write " + dir->file("cosim.json").string());
      }
    }
    if (std::string(net.ended_by()) == "cap") {
      std::fprintf(stderr, "warning: the run hit run.cap (%s) with %llu flows unfinished\n", format_time(s.run.cap).c_str(),
                   static_cast<unsigned long long>(sum["flows"]["unfinished"].get<uint64_t>()));
    }
    if (!net.deadlock().empty()) {
      std::fprintf(stderr, "error: PFC deadlock: the wait cycle %s made no progress for %s; the run ended at %s\n",
                   net.deadlock().c_str(), format_time(s.run.deadlock_after).c_str(), format_time(net.ended_at()).c_str());
      return 4;
    }
    const std::string cons = net.conservation_error(), loss = net.lossless_error();
    if (!cons.empty() || !loss.empty()) {
      std::fprintf(stderr, "error: %s\n", (cons.empty() ? loss : cons).c_str());
      return 3;
    }
    return 0;
  } catch (const ScenarioError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
