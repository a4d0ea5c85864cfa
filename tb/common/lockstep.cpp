#include "lockstep.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

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

static void usage(const std::string& block) {
  std::cerr << "usage: tb_" << block
            << " --set NAME [--seed N] [--cycles N] [--bins FILE] [--out DIR] [--no-wave] | --list-sets\n"
               "  runs the RTL and the golden model in lockstep and stops at the first mismatch\n"
               "  exit codes: 0 pass, 2 usage, 3 mismatch, 4 coverage short, 5 stimulus rule broken\n";
}

Options parse_args(int argc, char** argv, const std::string& block) {
  Options o;
  o.block = block;
  for (int i = 0; i < argc; ++i) o.argv.emplace_back(argv[i]);
  auto need = [&](int& i) -> std::string {
    if (i + 1 >= argc) {
      std::cerr << "tb_" << block << ": " << argv[i] << " needs a value\n";
      usage(block);
      std::exit(kUsage);
    }
    return argv[++i];
  };
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--set") o.set = need(i);
      else if (a == "--seed") o.seed = std::stoull(need(i), nullptr, 0);
      else if (a == "--cycles") o.cycles = std::stoull(need(i), nullptr, 0);
      else if (a == "--bins") o.bins = need(i);
      else if (a == "--out") o.out = need(i);
      else if (a == "--no-wave") o.wave = false;
      else if (a == "--wave-from") o.wave_from = std::stoll(need(i), nullptr, 0);
      else if (a == "--min-hits") o.min_hits = static_cast<unsigned>(std::stoul(need(i)));
      else if (a == "--list-sets") o.list_sets = true;
      else if (a == "--help" || a == "-h") { usage(block); std::exit(0); }
      else {
        std::cerr << "tb_" << block << ": unknown argument '" << a << "'\n";
        usage(block);
        std::exit(kUsage);
      }
    }
  } catch (const std::exception&) {
    std::cerr << "tb_" << block << ": a numeric argument is not a number\n";
    std::exit(kUsage);
  }
  // `make soak` runs every bench through CTest with LL_TB_CYCLES set (e.g. 10^8).
  if (const char* soak = std::getenv("LL_TB_CYCLES")) {
    try {
      o.cycles = std::stoull(soak, nullptr, 0);
    } catch (const std::exception&) {
      std::cerr << "tb_" << block << ": LL_TB_CYCLES='" << soak << "' is not a number\n";
      std::exit(kUsage);
    }
  }
  std::error_code ec;
  std::filesystem::create_directories(o.out, ec);
  if (ec) {
    std::cerr << "tb_" << block << ": cannot create --out directory '" << o.out << "': " << ec.message() << "\n";
    std::exit(kUsage);
  }
  if (o.set.empty() && !o.list_sets) {
    std::cerr << "tb_" << block << ": --set is required\n";
    usage(block);
    std::exit(kUsage);
  }
  if (o.cycles < 10) {
    std::cerr << "tb_" << block << ": --cycles must be at least 10\n";
    std::exit(kUsage);
  }
  return o;
}

bool Coverage::check(const std::string& file, const std::string& set, unsigned min_hits,
                     std::ostream& os) const {
  std::ifstream f(file);
  if (!f) {
    os << "  FAIL: coverage bins file '" << file << "' not found\n";
    return false;
  }
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

void Coverage::write(const std::string& path) const {
  std::ofstream f(path);
  for (const auto& [name, n] : hits_) f << name << " " << n << "\n";
}

std::string hex(uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

void re_run_with_wave(const Options& o, uint64_t cycle, const std::string& vcd) {
  // The run is deterministic for a seed: run again with tracing from a window before the
  // mismatch, stopping right after it.
  std::vector<std::string> args = o.argv;
  const uint64_t from = cycle > 2000 ? cycle - 2000 : 0;
  args.push_back("--wave-from");
  args.push_back(std::to_string(from));
  args.push_back("--cycles");
  args.push_back(std::to_string(cycle + 2));
  args.push_back("--bins");
  args.push_back("");
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
}

}  // namespace ll::tb
