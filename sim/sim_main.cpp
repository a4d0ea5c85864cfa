// lossless_sim: runs one fabric scenario through the golden models and reports.
//   lossless_sim SCENARIO.json [--out DIR] [--set key=value]... [--quiet]
// Exit status: 0 ok; 1 bad scenario (one error line naming the key); 2 usage; 3 the run
// broke an invariant (packet conservation, or a lossless drop with PFC on).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <string>
#include <sys/stat.h>

#include "sim/network.h"
#include "sim/report.h"
#include "sim/scenario.h"
#include "sim/units.h"
#include "sim/workload.h"

namespace {

void usage(FILE* f) {
  std::fprintf(f,
               "usage: lossless_sim SCENARIO.json [--out DIR] [--set key.path=value]... [--quiet]\n"
               "Runs a fabric scenario (schema: sim/SCENARIO.md) through the golden models.\n"
               "  --out DIR     write DIR/flows.csv and DIR/summary.json\n"
               "  --set K=V     override a scenario key before validation, e.g. --set balancer.mode=drill\n"
               "  --workloads D where size_cdf names are looked up\n"
               "  --quiet       no progress bar and no table (errors still go to stderr)\n"
               "Exit status: 0 ok, 1 bad scenario, 2 usage, 3 invariant broken (conservation, lossless drop).\n");
}

std::string bar(double frac, int width) {
  std::string s;
  const int full = static_cast<int>(frac * width);
  for (int i = 0; i < width; ++i) s += i < full ? '#' : '.';
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace ll::sim;
  std::string path, out;
  bool quiet = false;
  ScenarioOptions opt;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      usage(stdout);
      return 0;
    } else if (a == "--out" && i + 1 < argc) {
      out = argv[++i];
    } else if (a == "--set" && i + 1 < argc) {
      opt.overrides.push_back(argv[++i]);
    } else if (a == "--workloads" && i + 1 < argc) {
      opt.workload_dir = argv[++i];
    } else if (a == "--quiet") {
      quiet = true;
    } else if (!a.empty() && a[0] != '-' && path.empty()) {
      path = a;
    } else {
      std::fprintf(stderr, "lossless_sim: unexpected argument \"%s\" (see --help)\n", a.c_str());
      return 2;
    }
  }
  if (path.empty()) {
    usage(stderr);
    return 2;
  }
  if (!out.empty()) {
    struct stat st {};
    if (stat(out.c_str(), &st) != 0 && mkdir(out.c_str(), 0777) != 0) {
      std::fprintf(stderr, "error: --out %s: cannot create the directory\n", out.c_str());
      return 2;
    }
  }
  const auto t0 = std::chrono::steady_clock::now();
  try {
    const Scenario s = load_scenario(path, opt);
    const std::vector<Flow> flows = generate_flows(s.traffic, s.topology, s.seed);
    Network net(s, flows);
    const bool tty = !quiet && isatty(2);
    auto progress = [&](Time now, uint64_t events) {
      if (!tty) return;
      const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const double frac = static_cast<double>(now) / static_cast<double>(s.duration);
      const double eta = frac > 0 ? el * (1 - frac) / frac : 0;
      std::fprintf(stderr, "\r[%s] %5.1f%%  sim %s of %s  %.2f M events/s  ETA %.0f s   ", bar(frac, 30).c_str(),
                   frac * 100, format_time(now).c_str(), format_time(s.duration).c_str(),
                   el > 0 ? static_cast<double>(events) / el / 1e6 : 0.0, eta);
      std::fflush(stderr);
    };
    net.run(progress, s.duration / 200 ? s.duration / 200 : 1);
    if (tty) std::fprintf(stderr, "\n");
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const nlohmann::json sum = summary(net, measure_cost(wall));
    if (!out.empty()) {
      write_flows_csv(net, out + "/flows.csv");
      std::ofstream js(out + "/summary.json");
      js << sum.dump(2) << "\n";
      if (!js) throw std::runtime_error("cannot write " + out + "/summary.json");
    }
    if (!quiet) std::fputs(format_summary(sum).c_str(), stdout);
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
