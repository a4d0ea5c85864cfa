#include "lockstep.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>

#include "common/ll_cli.h"
#include "common/text_file.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace ll::tb {

Params parse_params(const std::string& s) {
  Params p;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("parameter '" + item + "' has no '='");
    p[item.substr(0, eq)] = std::stoull(item.substr(eq + 1), nullptr, 0);
  }
  return p;
}

Options parse_args(int argc, char** argv, const std::string& block) {
  Options o;
  o.block = block;
  for (int i = 0; i < argc; ++i) o.argv.emplace_back(argv[i]);
  CLI::App app{"Runs the RTL and the golden model in lockstep and stops at the first mismatch. "
               "Exit codes: 0 pass, 2 usage, 3 mismatch, 4 coverage short, 5 stimulus rule broken.",
               "tb_" + block};
  app.add_option("--set", o.set, "parameter set to run (--list-sets shows them)");
  app.add_option("--seed", o.seed, "stimulus seed")->capture_default_str()->check(ll::cli::Count);
  app.add_option("--cycles", o.cycles, "cycles to compare (>= 100; LL_TB_CYCLES overrides)")
      ->capture_default_str()
      ->check(ll::cli::Count);
  app.add_option("--bins", o.bins, "coverage bins file (each bin needs --min-hits hits)")->check(CLI::ExistingFile);
  app.add_option("--out", o.out, "directory for reports and waveforms")->capture_default_str();
  app.add_flag("!--no-wave", o.wave, "on a mismatch, do not re-run with tracing to write a VCD");
  app.add_option("--wave-from", o.wave_from, "trace from this cycle (set by the re-run)")->check(ll::cli::Count);
  app.add_option("--inject-mismatch", o.inject_mismatch,
                 "report a mismatch at this cycle (tests the report and the waveform re-run)")
      ->check(ll::cli::Count)
      ->group("");
  app.add_option("--stop-after", o.stop_after,
                 "end the run after this cycle, with the stimulus of the full --cycles run (set by the re-run)")
      ->check(ll::cli::Count);
  app.add_option("--min-hits", o.min_hits, "hits each coverage bin needs")
      ->capture_default_str()
      ->check(CLI::Range(0u, 1000000000u));
  app.add_flag("--profile", o.profile,
               "time each phase of a cycle (stimulus, RTL, model, model edge and bench) and print ns a cycle "
               "for each and the rate of the RTL alone");
  app.add_flag("--list-sets", o.list_sets, "print the parameter sets and exit");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    std::exit(app.exit(e));
  } catch (const CLI::ParseError& e) {
    std::cerr << "tb_" << block << ": error: " << e.what() << " (see --help)\n";
    std::exit(kUsage);
  }
  // `make soak` runs every bench through CTest with LL_TB_CYCLES set (e.g. 10^8).
  if (const char* soak = std::getenv("LL_TB_CYCLES")) {
    if (!ll::cli::is_count(soak)) {
      std::cerr << "tb_" << block << ": LL_TB_CYCLES='" << soak << "' is not a count (a whole number up to 2^64 - 1)\n";
      std::exit(kUsage);
    }
    o.cycles = std::stoull(soak);
  }
  if (o.set.empty() && !o.list_sets) {
    std::cerr << "tb_" << block << ": error: --set is required (see --help)\n";
    std::exit(kUsage);
  }
  if (o.cycles < kMinCycles) {
    std::cerr << "tb_" << block << ": error: " << (std::getenv("LL_TB_CYCLES") ? "LL_TB_CYCLES" : "--cycles")
              << " must be at least " << kMinCycles
              << " (a shorter run is mostly reset and set-up, and fails the rule that inputs are valid on half "
                 "the live cycles)\n";
    std::exit(kUsage);
  }
  if (!o.bins.empty()) {  // read now: a bad bins file is a usage error before the run, not after it
    try {
      o.bins_text = ll::read_text_file(o.bins, "coverage bins file '" + o.bins + "'");
    } catch (const std::exception& e) {
      std::cerr << "tb_" << block << ": error: " << e.what() << "\n";
      std::exit(kUsage);
    }
  }
  return o;
}

bool Coverage::check(const std::string& file, const std::string& text, const std::string& set,
                     unsigned min_hits, std::ostream& os) const {
  std::istringstream f(text);
  std::set<std::string> listed;
  unsigned checked = 0, short_bins = 0;
  std::string line;
  while (std::getline(f, line)) {
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    std::stringstream ls(line);
    std::string name, sets;
    if (!(ls >> name)) continue;
    listed.insert(name);
    if (ls >> sets) {  // optional comma list of the sets the bin applies to
      bool applies = false;
      std::stringstream ss(sets);
      std::string s;
      while (std::getline(ss, s, ',')) applies |= (s == set);
      if (!applies) continue;
    }
    ++checked;
    if (count(name) < min_hits) {
      os << "  FAIL: coverage bin '" << name << "' hit " << count(name) << " times (< " << min_hits << ")\n";
      ++short_bins;
    }
  }
  unsigned unknown = 0;
  for (const auto& [name, n] : hits_) {
    if (!listed.count(name)) {
      os << "  FAIL: coverage bin '" << name << "' (" << n << " hits) is not listed in " << file << "\n";
      ++unknown;
    }
  }
  os << "  coverage: " << (checked - short_bins) << "/" << checked << " bins hit >= " << min_hits
     << " times\n";
  return short_bins == 0 && unknown == 0;
}

bool Coverage::write(const std::string& path) const {
  std::ofstream f(path);
  for (const auto& [name, n] : hits_) f << name << " " << n << "\n";
  f.close();
  return static_cast<bool>(f);
}

bool make_out_dir(const Options& o) {
  std::error_code ec;
  std::filesystem::create_directories(o.out, ec);
  if (ec) {
    std::cerr << "tb_" << o.block << ": cannot create --out directory '" << o.out << "': " << ec.message() << "\n";
    return false;
  }
  return true;
}

std::string hex(uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

void print_profile(std::ostream& os, const std::chrono::steady_clock::duration (&t)[4], uint64_t cycles,
                   double rate) {
  using Clock = std::chrono::steady_clock;
  // the cost of one timer read, measured here: the loop reads the clock five times a cycle
  constexpr int kReads = 100000;
  const Clock::time_point t0 = Clock::now();
  Clock::time_point last = t0;
  for (int i = 0; i < kReads; ++i) last = Clock::now();
  const double read_ns = std::chrono::duration<double, std::nano>(last - t0).count() / kReads;
  auto ns = [&](int ph) { return std::chrono::duration<double, std::nano>(t[ph]).count() / static_cast<double>(cycles); };
  const double total = 1e9 / rate;
  char line[512];
  std::snprintf(line, sizeof line,
                "  profile, ns a cycle (wall; five steady_clock reads a cycle, %.0f ns each, each booked to the phase it "
                "ends):\n"
                "    stimulus and input drive        %7.0f  (%4.1f%%)\n"
                "    RTL: two evals and port reads   %7.0f  (%4.1f%%)\n"
                "    model outputs and comparison    %7.0f  (%4.1f%%)\n"
                "    model clock edge and bench      %7.0f  (%4.1f%%)\n"
                "    cycle                           %7.0f  (%.3f M cycles/s with the timers; the RTL phase alone: %.3f M/s)\n",
                read_ns, ns(0), 100 * ns(0) / total, ns(1), 100 * ns(1) / total, ns(2), 100 * ns(2) / total, ns(3),
                100 * ns(3) / total, total, rate / 1e6, 1e3 / ns(1));
  os << line;
}

void re_run_with_wave(const Options& o, uint64_t cycle, const std::string& vcd) {
  // The run is deterministic for a seed: run again with tracing from a window before the
  // mismatch, stopping right after it.
  // The re-run checks no coverage bins (it stops at the mismatch): drop --bins FILE and
  // --bins=FILE (an empty --bins is refused by the option's existing-file check).
  std::vector<std::string> args;
  for (size_t i = 0; i < o.argv.size(); ++i) {
    if (i > 0 && o.argv[i] == "--bins") {
      ++i;
      continue;
    }
    if (i > 0 && o.argv[i].rfind("--bins=", 0) == 0) continue;
    args.push_back(o.argv[i]);
  }
  const uint64_t from = cycle > 2000 ? cycle - 2000 : 0;
  args.push_back("--wave-from");
  args.push_back(std::to_string(from));
  // --stop-after, not --cycles: the mid-run reset schedule is drawn from --cycles, so a
  // shorter --cycles would be a different run
  args.push_back("--stop-after");
  args.push_back(std::to_string(cycle + 1));
  std::vector<char*> cargs;
  for (auto& a : args) cargs.push_back(a.data());
  cargs.push_back(nullptr);
  std::cout.flush();
  const pid_t pid = fork();
  if (pid == 0) {
    const int devnull = ::open("/dev/null", 1);
    if (devnull >= 0) { dup2(devnull, 1); }
    execv("/proc/self/exe", cargs.data());
    _exit(127);
  }
  int status = 0;
  if (pid > 0) waitpid(pid, &status, 0);
  std::cout << "  waveform: " << vcd << " (cycles " << from << ".." << cycle + 1 << ")\n";
  // the traced re-run must meet the same mismatch, or the waveform shows a different run
  if (!(WIFEXITED(status) && WEXITSTATUS(status) == kMismatch))
    std::cout << "  waveform: the traced re-run did not reproduce the mismatch (status " << status
              << "): the waveform does not show it\n";
}

}  // namespace ll::tb
