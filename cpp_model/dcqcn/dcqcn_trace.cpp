// dcqcn_trace: feed a CNP time series to the DCQCN model and print the rate trajectory.
//
//   dcqcn_trace [options] cnps.txt > rates.csv
//   gnuplot -e "csv='rates.csv'; out='rates.png'" cpp_model/dcqcn/dcqcn_trace.gp
//
// Input: one event per line, "<time_us> [qp]" (qp defaults to 0); '#' starts a comment.
// Output CSV: time_us,qp,rc_gbps,rt_gbps,alpha,event  - one row per rate change (the
// model's trace: dec, fr, ai, hai; alpha left empty there), one per CNP and a sample every
// --step us for every QP seen (alpha as of that time).
// Options (defaults: the NIC reference configuration at 100G, 1 ns ticks):
//   --paper            the paper's RP (default: NIC-style)
//   --line G  --rmin G  --rai M  --rhai M  (Gb/s, Gb/s, Mb/s, Mb/s)
//   --alpha us  --dec us  --inc us  --bytes B  --F n  --g shift  --clamp  --grow
//   --end us  --step us  --double  (IEEE-double mode instead of the fixed-point model)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "dcqcn/rp_core.h"

using namespace ll::dcqcn;

namespace {

const char* name(Step s) {
  switch (s) {
    case Step::FR: return "fr";
    case Step::AI: return "ai";
    case Step::HAI: return "hai";
    default: return "dec";
  }
}

template <class Ar>
int run(const Live& c, const std::vector<std::pair<uint64_t, unsigned>>& ev, uint64_t end,
        uint64_t step) {
  unsigned nq = 1;
  for (const auto& e : ev) nq = std::max(nq, e.second + 1);
  Rp<Ar> rp(nq, c);
  Trace tr;
  rp.set_trace(&tr);
  std::printf("time_us,qp,rc_gbps,rt_gbps,alpha,event\n");
  auto flush = [&](unsigned q) {
    for (const auto& t : tr)
      std::printf("%.3f,%u,%.9f,%.9f,,%s\n", t.time / 1000.0, q, t.rc / 1e9, t.rt / 1e9, name(t.step));
    tr.clear();
  };
  size_t i = 0;
  for (uint64_t t = 0; t <= end; t += step) {
    for (; i < ev.size() && ev[i].first <= t; ++i) {
      rp.on_cnp(ev[i].second, ev[i].first);
      flush(ev[i].second);
      std::printf("%.3f,%u,%.9f,%.9f,%.9f,cnp\n", ev[i].first / 1000.0, ev[i].second,
                  rp.rate(ev[i].second) / 1e9, rp.target(ev[i].second) / 1e9, rp.alpha(ev[i].second));
    }
    for (unsigned q = 0; q < nq; ++q) {
      rp.advance(q, t);
      flush(q);
      std::printf("%.3f,%u,%.9f,%.9f,%.9f,sample\n", t / 1000.0, q, rp.rate(q) / 1e9, rp.target(q) / 1e9, rp.alpha(q));
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Live c;  // NIC reference configuration, 1 ns ticks
  bool dbl = false;
  double end_us = -1, step_us = 10;
  std::string file;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto val = [&]() -> double {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "dcqcn_trace: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return std::atof(argv[++i]);
    };
    if (a == "--paper") {
      c.nic = false;
      c.p_alpha = c.p_inc = 55000;
      c.F = 5;
      c.rai = 40000000;
      c.rhai = 400000000;
      c.byte_reset = 10000000;
      c.hai_grow = true;
    } else if (a == "--line") c.line = static_cast<uint64_t>(val() * 1e9);
    else if (a == "--rmin") c.rmin = static_cast<uint64_t>(val() * 1e9);
    else if (a == "--rai") c.rai = static_cast<uint64_t>(val() * 1e6);
    else if (a == "--rhai") c.rhai = static_cast<uint64_t>(val() * 1e6);
    else if (a == "--alpha") c.p_alpha = static_cast<uint64_t>(val() * 1000);
    else if (a == "--dec") c.p_dec = static_cast<uint64_t>(val() * 1000);
    else if (a == "--inc") c.p_inc = static_cast<uint64_t>(val() * 1000);
    else if (a == "--bytes") c.byte_reset = static_cast<uint32_t>(val());
    else if (a == "--F") c.F = static_cast<unsigned>(val());
    else if (a == "--g") c.g_shift = static_cast<unsigned>(val());
    else if (a == "--clamp") c.clamp_tgt = true;
    else if (a == "--grow") c.hai_grow = true;
    else if (a == "--end") end_us = val();
    else if (a == "--step") step_us = val();
    else if (a == "--double") dbl = true;
    else if (a == "-h" || a == "--help") {
      std::printf("usage: dcqcn_trace [--paper] [--line G] [--rmin G] [--rai M] [--rhai M] [--alpha us] [--dec us]\n"
                  "                   [--inc us] [--bytes B] [--F n] [--g shift] [--clamp] [--grow] [--end us]\n"
                  "                   [--step us] [--double] cnps.txt\n");
      return 0;
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "dcqcn_trace: unknown option %s\n", a.c_str());
      return 2;
    } else file = a;
  }
  if (file.empty()) {
    std::fprintf(stderr, "dcqcn_trace: no CNP file (see --help)\n");
    return 2;
  }
  std::ifstream f(file);
  if (!f) {
    std::fprintf(stderr, "dcqcn_trace: cannot read %s\n", file.c_str());
    return 2;
  }
  if (c.rmin > c.line || c.g_shift < 1 || c.g_shift > 15 || step_us <= 0) {
    std::fprintf(stderr, "dcqcn_trace: bad configuration (rmin > line, g outside 1..15 or step <= 0)\n");
    return 2;
  }
  std::vector<std::pair<uint64_t, unsigned>> ev;
  std::string line;
  unsigned ln = 0;
  while (std::getline(f, line)) {
    ++ln;
    const auto h = line.find('#');
    if (h != std::string::npos) line.resize(h);
    std::istringstream is(line);
    double t;
    unsigned q = 0;
    if (!(is >> t)) continue;
    is >> q;
    if (t < 0 || (!ev.empty() && static_cast<uint64_t>(t * 1000) < ev.back().first)) {
      std::fprintf(stderr, "dcqcn_trace: %s:%u: times must be >= 0 and non-decreasing\n", file.c_str(), ln);
      return 2;
    }
    ev.push_back({static_cast<uint64_t>(t * 1000 + 0.5), q});
  }
  const uint64_t last = ev.empty() ? 0 : ev.back().first;
  const uint64_t end = end_us >= 0 ? static_cast<uint64_t>(end_us * 1000) : last + 2000000;
  const uint64_t step = static_cast<uint64_t>(step_us * 1000);
  return dbl ? run<Double>(c, ev, end, step) : run<Fixed>(c, ev, end, step);
}
