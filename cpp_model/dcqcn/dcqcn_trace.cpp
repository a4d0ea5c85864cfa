// dcqcn_trace: feed a CNP time series to the DCQCN model and print the rate trajectory.
//
//   dcqcn_trace [options] cnps.txt > rates.csv
//   gnuplot -e "csv='rates.csv'; out='rates.png'" cpp_model/dcqcn/dcqcn_trace.gp
//
// Input: one event per line, "<time_us> [qp]" (qp defaults to 0); '#' starts a comment.
// Output CSV: time_us,qp,rc_gbps,rt_gbps,alpha,event  - one row per rate change (the
// model's trace: dec, fr, ai, hai; alpha left empty there), one per CNP and a sample every
// --step us for every QP seen (alpha as of that time).
// Options: dcqcn_trace --help (defaults: the NIC reference configuration at 100G, 1 ns
// ticks; --paper selects the paper's RP, explicit options override it).
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "common/ll_cli.h"
#include "common/text_file.h"
#include "dcqcn/rp_core.h"

using namespace ll::dcqcn;

namespace {

constexpr unsigned long kMaxQps = 65536;

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

// One CNP per line, "<time_us> [qp]"; blank lines and '#' comments are skipped. Anything
// else is an error naming the line.
bool read_cnps(const std::string& file, std::vector<std::pair<uint64_t, unsigned>>& ev) {
  std::istringstream f;
  try {
    f.str(ll::read_text_file(file, "CNP file " + file));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dcqcn_trace: error: %s\n", e.what());
    return false;
  }
  std::string line;
  unsigned ln = 0;
  while (std::getline(f, line)) {
    ++ln;
    const auto h = line.find('#');
    if (h != std::string::npos) line.resize(h);
    std::istringstream is(line);
    std::string ts, qs, extra;
    if (!(is >> ts)) continue;
    is >> qs >> extra;
    auto fail = [&](const char* why) {
      std::fprintf(stderr, "dcqcn_trace: error: %s:%u: %s\n", file.c_str(), ln, why);
      return false;
    };
    double t = 0;
    unsigned long q = 0;
    try {
      size_t used = 0;
      t = std::stod(ts, &used);
      if (used != ts.size() || !std::isfinite(t)) return fail("time is not a number of microseconds");
      if (!qs.empty()) {
        if (qs.find_first_not_of("0123456789") != std::string::npos) return fail("qp is not a count");
        q = std::stoul(qs);
      }
    } catch (const std::out_of_range&) {
      return fail("time or qp out of range");
    } catch (const std::exception&) {
      return fail("time is not a number of microseconds");
    }
    if (!extra.empty()) return fail("more than \"<time_us> [qp]\" on the line");
    if (q >= kMaxQps) return fail("qp too large (at most 65535)");
    if (t < 0 || t > 1e12) return fail("time must be in 0 .. 10^12 us");
    const uint64_t ns = static_cast<uint64_t>(std::llround(t * 1000));
    if (!ev.empty() && ns < ev.back().first) return fail("times must be non-decreasing");
    ev.push_back({ns, static_cast<unsigned>(q)});
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Live c;  // NIC reference configuration, 1 ns ticks
  CLI::App app{"Feeds a CNP time series (\"<time_us> [qp]\" per line) to the DCQCN reaction-point "
               "model and prints the rate trajectory as CSV (docs/dcqcn.md). Defaults: the NIC "
               "reference configuration at 100G, 1 ns ticks.",
               "dcqcn_trace"};
  std::string file;
  bool paper = false, dbl = false, clamp = false, grow = false;
  double line = 100, rmin = 1, rai = 20, rhai = 200, p_alpha = 1, p_dec = 4, p_inc = 300;
  double end_us = -1, step_us = 10;
  uint32_t bytes = 0;
  unsigned F = 1, g = 8;
  app.add_option("cnps", file, "CNP file: one \"<time_us> [qp]\" per line")->required();
  app.add_flag("--paper", paper, "the paper's RP (55 us timers, F = 5, 40/400 Mb/s steps, 10 MB "
               "byte counter, HAI grows); options given explicitly override it");
  app.add_option("--line", line, "line rate, Gb/s")->capture_default_str()->check(ll::cli::Decimal(0, 1e9, true));
  app.add_option("--rmin", rmin, "minimum rate, Gb/s")->capture_default_str()->check(ll::cli::Decimal(0, 1e9));
  app.add_option("--rai", rai, "additive increase R_AI, Mb/s")->check(ll::cli::Decimal(0, 1e9));
  app.add_option("--rhai", rhai, "hyper increase R_HAI, Mb/s")->check(ll::cli::Decimal(0, 1e9));
  app.add_option("--alpha", p_alpha, "alpha update period, us")->check(ll::cli::Decimal(0, 1e9, true));
  app.add_option("--dec", p_dec, "rate decrease check period, us")->check(ll::cli::Decimal(0, 1e9, true));
  app.add_option("--inc", p_inc, "rate increase timer, us")->check(ll::cli::Decimal(0, 1e9, true));
  app.add_option("--bytes", bytes, "byte counter B, bytes (0: off)")->check(ll::cli::Count);
  app.add_option("--F", F, "fast-recovery steps F")->check(CLI::Range(1u, 255u));
  app.add_option("--g", g, "alpha gain g = 2^-shift")->capture_default_str()->check(CLI::Range(1u, 15u));
  app.add_flag("--clamp", clamp, "clamp the target rate on a decrease");
  app.add_flag("--grow", grow, "hyper increase grows with the step count");
  app.add_option("--end", end_us, "end of the trace, us (default: last CNP + 2 s)")->check(ll::cli::Decimal(0, 1e9));
  app.add_option("--step", step_us, "sample period, us")->capture_default_str()->check(ll::cli::Decimal(0.001, 1e9));
  app.add_flag("--double", dbl, "IEEE-double mode instead of the fixed-point model");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "dcqcn_trace: error: %s (see --help)\n", e.what());
    return 2;
  }
  auto given = [&](const char* n) { return app.count(n) > 0; };
  if (paper) {
    c.nic = false;
    c.p_alpha = c.p_inc = 55000;
    c.F = 5;
    c.rai = 40000000;
    c.rhai = 400000000;
    c.byte_reset = 10000000;
    c.hai_grow = true;
  }
  auto bps = [](double v, double unit) { return static_cast<uint64_t>(std::llround(v * unit)); };
  auto ns = [](double us) { return static_cast<uint64_t>(std::llround(us * 1000)); };
  if (given("--line")) c.line = bps(line, 1e9);
  if (given("--rmin")) c.rmin = bps(rmin, 1e9);
  if (given("--rai")) c.rai = bps(rai, 1e6);
  if (given("--rhai")) c.rhai = bps(rhai, 1e6);
  if (given("--alpha")) c.p_alpha = ns(p_alpha);
  if (given("--dec")) c.p_dec = ns(p_dec);
  if (given("--inc")) c.p_inc = ns(p_inc);
  if (given("--bytes")) c.byte_reset = bytes;
  if (given("--F")) c.F = F;
  if (given("--g")) c.g_shift = g;
  if (clamp) c.clamp_tgt = true;
  if (grow) c.hai_grow = true;
  if (line > 1e4 || rmin > 1e4) {
    std::fprintf(stderr, "dcqcn_trace: error: --line and --rmin are Gb/s, at most 10000\n");
    return 2;
  }
  // a value that passes the range check but rounds to 0 in the model's units (1 ns ticks,
  // 1 b/s) would make a timer period of 0 (the trace would never end) or a zero rate
  for (const auto& [opt, v] : {std::pair<const char*, uint64_t>{"--alpha", c.p_alpha}, {"--dec", c.p_dec}, {"--inc", c.p_inc}})
    if (given(opt) && v == 0) {
      std::fprintf(stderr, "dcqcn_trace: error: %s is below the 1 ns tick (at least 0.0005 us)\n", opt);
      return 2;
    }
  if (given("--line") && c.line == 0) {
    std::fprintf(stderr, "dcqcn_trace: error: --line rounds to 0 b/s (at least 1e-9 Gb/s)\n");
    return 2;
  }
  if (c.rmin > c.line) {
    std::fprintf(stderr, "dcqcn_trace: error: --rmin (%g Gb/s) exceeds --line (%g Gb/s)\n",
                 c.rmin / 1e9, c.line / 1e9);
    return 2;
  }
  std::vector<std::pair<uint64_t, unsigned>> ev;
  if (!read_cnps(file, ev)) return 2;
  const uint64_t last = ev.empty() ? 0 : ev.back().first;
  const uint64_t end = given("--end") ? ns(end_us) : last + 2000000;
  const uint64_t step = ns(step_us);
  return dbl ? run<Double>(c, ev, end, step) : run<Fixed>(c, ev, end, step);
}
