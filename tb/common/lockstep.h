// The lockstep harness every block's SystemC testbench runs on.
//
// A block provides a Bench class template over its Verilated top (see
// docs/CONVENTIONS.md); run_lockstep<Bench<Vtop>>() does the rest: clocking, reset at
// the start and in the middle of traffic, cycle-by-cycle comparison of the DUT's
// outputs with the golden model's, the first-mismatch report with a waveform, the
// coverage-bin check and the valid-cycle check. SystemC elaborates the Verilated module
// and binds its ports; the cycles run without the SystemC scheduler (see Wire below).
#pragma once
#include <systemc.h>
#include <verilated.h>
#if LL_TRACE
#include <verilated_vcd_c.h>
#endif
#if VM_COVERAGE
#include <verilated_cov.h>
#endif

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <type_traits>
#include <vector>

#include "common/cfg_op.h"

namespace ll::tb {

using Params = std::map<std::string, uint64_t>;
Params parse_params(const std::string& s);  // "A=1,B=0x10" -> {A:1, B:16}

// The shortest run a bench accepts: below it the start-up reset and set-up phase dominate and
// the stimulus rule (inputs valid on half the live cycles) cannot hold (checked down to 100
// on every set with seeds 1-6).
constexpr uint64_t kMinCycles = 100;

struct Options {
  std::string block, set;
  uint64_t seed = 1;
  uint64_t cycles = 1000000;
  std::string bins;              // coverage bins file ("" = no coverage check)
  std::string bins_text;         // its contents, read (size-capped) before the run
  std::string out = ".";         // where reports and waveforms go
  bool wave = true;              // on a mismatch, re-run with tracing to write a VCD
  int64_t wave_from = -1;        // >= 0: trace from this cycle (set by the re-run)
  uint64_t stop_after = 0;       // > 0: end the run after this cycle; the stimulus stays that
                                 // of the full --cycles run (set by the re-run)
  uint64_t inject_mismatch = 0;  // > 0: report a mismatch at this cycle (the harness's own
                                 // test of the mismatch report and the waveform re-run)
  unsigned min_hits = 10;
  bool profile = false;          // time each phase of a cycle and print where the time went
  bool list_sets = false;        // print the parameter sets and exit
  std::vector<std::string> argv; // for the re-run
};
Options parse_args(int argc, char** argv, const std::string& block);
bool make_out_dir(const Options& o);  // creates --out (once the set is known); false: could not

// The channel every DUT port is bound to: an sc_signal whose write() takes effect at once,
// with no update request and no event. run_lockstep() does not run the SystemC scheduler
// per cycle: it sets the inputs, sets the clock and calls the Verilated module's eval()
// itself, twice a cycle (the clock's falling and rising half), which is exactly what the
// scheduler did through the module's SC_METHOD (sensitive to the clock and the inputs,
// none of them fed back from an output), minus the update and delta-cycle machinery that
// cost more than the RTL itself. SystemC still elaborates the module and binds its ports.
template <class T>
class Wire final : public sc_signal<T> {  // final: the benches' reads and writes bind statically
 public:
  void write(const T& v) override {
    this->m_cur_val = v;
    this->m_new_val = v;
  }
};

// The Verilated module's eval(), which Verilator 5.006 declares private in a SystemC model
// (the kernel calls it as the SC_METHOD). An explicit instantiation may name a private
// member (C++17 [temp.explicit]/14), so LL_TB_MAIN instantiates EvalGrant<V, &V::eval>
// once per Verilated top of the bench, which stores the pointer before sc_main runs.
template <class Dut>
struct EvalAccess {
  static inline void (Dut::*eval)() = nullptr;
};
template <class Dut, void (Dut::*P)()>
struct EvalGrant {
  static inline const bool granted = (EvalAccess<Dut>::eval = P, true);
};

// One register write of a bench's configuration program (docs/CONVENTIONS.md register
// interface: cfg_we_i, cfg_addr_i, cfg_wdata_i); shared with the models' programs and the
// co-simulation adapters (cpp_model/common/cfg_op.h, tb/common/reg_bus.h).
using CfgOp = ll::CfgOp;

// The signals of the register interface every block has (docs/CONVENTIONS.md: cfg_we_i,
// cfg_re_i, cfg_addr_i, cfg_wdata_i, cfg_rdata_o, cfg_rvalid_o, init_done_o), bound,
// driven and sampled the same way by every bench. In / Out are the model's port structs.
struct RegPort {
  Wire<bool> we, re, rvalid, init_done;
  Wire<uint32_t> addr, wdata, rdata;
  template <class Dut>
  void bind(Dut& d) {
    d.cfg_we_i(we);
    d.cfg_re_i(re);
    d.cfg_addr_i(addr);
    d.cfg_wdata_i(wdata);
    d.cfg_rdata_o(rdata);
    d.cfg_rvalid_o(rvalid);
    d.init_done_o(init_done);
  }
  template <class In>
  void drive(const In& in) {
    we.write(in.cfg_we);
    re.write(in.cfg_re);
    addr.write(in.cfg_addr);
    wdata.write(in.cfg_wdata);
  }
  template <class Out>
  void sample(Out& o) const {
    o.cfg_rdata = rdata.read();
    o.cfg_rvalid = rvalid.read();
    o.init_done = init_done.read();
  }
};

// Exit codes of a bench.
enum Exit : int { kPass = 0, kUsage = 2, kMismatch = 3, kCoverage = 4, kStimulus = 5 };

// Deterministic stimulus randomness (xoroshiro-free, fully specified: splitmix64).
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed ^ 0xD1B54A32D192ED03ull) {}
  [[gnu::always_inline]] uint64_t next() {
    uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  [[gnu::always_inline]] uint64_t below(uint64_t n) { return n ? static_cast<uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64) : 0; }
  uint64_t range(uint64_t lo, uint64_t hi) { return lo + below(hi - lo + 1); }  // inclusive
  bool chance(unsigned percent) { return below(100) < percent; }

 private:
  uint64_t s_;
};

}  // namespace ll::tb

// The start of the executable's image and of its writable data (GNU ld's default linker
// script and glibc's crt1): the bytes between them (code, string literals, other constant
// data) never change while the bench runs.
extern "C" char __executable_start[], __data_start[];

namespace ll::tb {

inline bool in_constant_image(const char* p) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  return a >= reinterpret_cast<uintptr_t>(__executable_start) && a < reinterpret_cast<uintptr_t>(__data_start);
}

class Coverage {
 public:
  // Bins are hit on most cycles, so the hot form takes the bin's name as a C string and
  // finds its counter through a cache keyed by the string's address: no std::string is
  // built on the common path. A string in the executable's constant image (a literal, or a
  // table of them) cannot change, so its address alone identifies the bin; any other
  // string's cached name is checked against it, so a reused buffer cannot be counted in a
  // stale bin.
  void hit(const char* bin, uint64_t n = 1) {
    Slot& s = cache_[(reinterpret_cast<uintptr_t>(bin) >> 3) % kCache];
    if (s.key != bin || (!s.constant && std::strcmp(s.name, bin) != 0)) {
      const auto it = hits_.try_emplace(bin, 0).first;
      s = Slot{bin, it->first.c_str(), &it->second, in_constant_image(bin)};
    }
    *s.count += n;
  }
  void hit(const std::string& bin, uint64_t n = 1) { hits_[bin] += n; }
  uint64_t count(const std::string& bin) const {
    auto it = hits_.find(bin);
    return it == hits_.end() ? 0 : it->second;
  }
  // Checks every bin listed in `text` (the bins file `file`, read before the run) that
  // applies to `set` against min_hits; bins hit but not listed are an error too (a renamed
  // bin must not silently stop being checked).
  bool check(const std::string& file, const std::string& text, const std::string& set, unsigned min_hits,
             std::ostream& os) const;
  bool write(const std::string& path) const;  // false: the file could not be written

 private:
  std::map<std::string, uint64_t> hits_;  // node addresses are stable: the cache points into it
  struct Slot {
    const char* key = nullptr;
    const char* name = "";
    uint64_t* count = nullptr;
    bool constant = false;  // key lies in the constant image (in_constant_image)
  };
  static constexpr size_t kCache = 509;
  Slot cache_[kCache];
};

// The keys (a queue, a flow) of the events a bench saw accepted in its last N cycles, for
// coverage of read-modify-write coincidences: an event against one on the same key
// accepted `ago` cycles before it. push() once per cycle (valid false: no such event).
template <unsigned N>
class RecentKeys {
 public:
  void push(bool valid, uint32_t key) {
    for (unsigned i = N - 1; i > 0; --i) slot_[i] = slot_[i - 1];
    slot_[0] = Slot{valid, key};
  }
  // an event with `key` was pushed `ago` (1..N) cycles ago
  bool at(unsigned ago, uint32_t key) const { return slot_[ago - 1].valid && slot_[ago - 1].key == key; }

 private:
  struct Slot {
    bool valid = false;
    uint32_t key = 0;
  };
  Slot slot_[N];
};

std::string hex(uint64_t v);
// --profile's report: ns a cycle per phase (stimulus and input drive; the Verilated RTL's two
// evals and its port reads; the model's outputs and the comparison; the model's clock edge
// and the bench's bookkeeping), the timer's own cost, and the rate of the RTL phase alone.
void print_profile(std::ostream& os, const std::chrono::steady_clock::duration (&t)[4], uint64_t cycles,
                   double rate);
void re_run_with_wave(const Options& o, uint64_t cycle, const std::string& vcd);

// Whether a bench has `bool want_reset()` (see run_lockstep).
template <class B, class = void>
struct HasWantReset : std::false_type {};
template <class B>
struct HasWantReset<B, std::void_t<decltype(std::declval<B&>().want_reset())>> : std::true_type {};

// Whether a bench has `void run_length(uint64_t)` (see run_lockstep).
template <class B, class = void>
struct HasRunLength : std::false_type {};
template <class B>
struct HasRunLength<B, std::void_t<decltype(std::declval<B&>().run_length(uint64_t{}))>> : std::true_type {};

template <class B>
int run_lockstep(const Options& o, const Params& params) {
  using In = typename B::In;
  using Out = typename B::Out;
  if (!make_out_dir(o)) return kUsage;
  const std::string seed_arg = "+verilator+seed+" + std::to_string(o.seed % 2147483647 + 1);
  const char* vargs[] = {"tb", "+verilator+rand+reset+2", seed_arg.c_str()};
  Verilated::commandArgs(3, vargs);
#if LL_TRACE
  if (o.wave_from >= 0) Verilated::traceEverOn(true);
#endif
  Coverage cov;
  std::unique_ptr<B> bench;
  try {
    bench = std::make_unique<B>(params, o.seed, cov);
  } catch (const std::exception& e) {
    std::cerr << "tb " << o.block << " " << o.set << ": bad parameter set: " << e.what() << "\n";
    return kUsage;
  }
  Wire<bool> clk;
  using Dut = std::remove_reference_t<decltype(bench->dut())>;
  auto& dut = bench->dut();
  void (Dut::*const eval)() = EvalAccess<Dut>::eval;
  if (!eval) {
    std::cerr << "tb " << o.block << " " << o.set << ": no EvalGrant for this Verilated top (LL_TB_MAIN)\n";
    return kUsage;
  }
  dut.clk_i(clk);
  bench->bind();
#if LL_TRACE
  std::unique_ptr<VerilatedVcdC> tfp;
#endif
  sc_start(SC_ZERO_TIME);  // elaboration, and the module's first eval (initial blocks)
#if LL_TRACE
  const std::string vcd = o.out + "/" + o.block + "_" + o.set + "_seed" + std::to_string(o.seed) + ".vcd";
  if (o.wave_from >= 0) {
    tfp = std::make_unique<VerilatedVcdC>();
    dut.trace(tfp.get(), 99);
    tfp->set_time_unit("1ps");
    tfp->set_time_resolution("1ps");
  }
#else
  const std::string vcd;
#endif
  // One half cycle: the clock level, Verilator's time (ps; two halves of 1 ns per cycle,
  // the times the SystemC kernel gave), the module's eval, and the waveform sample.
  VerilatedContext* const ctx = Verilated::threadContextp();
  auto half = [&](bool level, uint64_t ps) {
    clk.write(level);
    ctx->time(ps);
    (dut.*eval)();
#if LL_TRACE
    if (tfp && tfp->isOpen()) tfp->dump(ps);
#endif
  };

  // --profile: the time of each phase of a cycle (steady_clock around it, summed over the
  // run), so the share of the Verilated RTL and of the bench and model can be read without a
  // profiler; the phases are those of the loop below.
  using Clock = std::chrono::steady_clock;
  enum Phase { kStim, kRtl, kModel, kTick, kPhases };
  Clock::duration phase_t[kPhases] = {};
  Clock::time_point mark{};
  auto lap = [&](Phase ph) {
    if (!o.profile) return;
    const Clock::time_point now = Clock::now();
    phase_t[ph] += now - mark;
    mark = now;
  };

  // A bench may also ask for a reset at a moment of its choosing (a rare state worth a reset
  // in the middle of it): `bool want_reset()`, asked after each live cycle; the reset then
  // starts on the next cycle and lasts 4.
  uint64_t asked_until = 0;
  Rng sched(o.seed * 7919 + 17);
  const uint64_t init_reset = 4;
  // Five resets in the middle of traffic, each 4..8 cycles long, at random cycles.
  constexpr int kMidResets = 5;
  uint64_t mid_at[kMidResets], mid_len[kMidResets];
  for (int k = 0; k < kMidResets; ++k) {
    mid_at[k] = (k + 1) * o.cycles / (kMidResets + 1) + sched.below(o.cycles / (4 * kMidResets) + 1);
    mid_len[k] = sched.range(4, 8);
  }
  // A bench may learn the run's length, to place a phase at its end (one that would change
  // the trajectory of all that follows it): `void run_length(uint64_t)` gets the last cycle
  // (--cycles), before the first.
  if constexpr (HasRunLength<B>::value) bench->run_length(o.cycles);
  auto in_mid_reset = [&](uint64_t c) {
    for (int k = 0; k < kMidResets; ++k)
      if (c >= mid_at[k] && c < mid_at[k] + mid_len[k]) return true;
    return false;
  };
  uint64_t valid_cycles = 0, live_cycles = 0, compared = 0;
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t cpu0 = std::clock();  // the machine is shared: CPU time is the figure to compare

  // Cycle 0 is not compared (the DUT's state is defined from the first reset edge on), so
  // the run takes one more cycle than it compares: --cycles N compares exactly N.
  const uint64_t last = o.stop_after > 0 ? std::min(o.stop_after, o.cycles) : o.cycles;
  if (o.profile) mark = Clock::now();  // each lap books the time since the one before
  for (uint64_t c = 0; c <= last; ++c) {
    const bool in_reset = c < init_reset || in_mid_reset(c) || c < asked_until;
    In in = bench->stimulus(c, in_reset);
    in.rst_n = !in_reset;
    bench->drive(in);
#if LL_TRACE
    if (tfp && !tfp->isOpen() && static_cast<int64_t>(c) >= o.wave_from) tfp->open(vcd.c_str());
#endif
    lap(kStim);
    half(false, 2000 * c);
    if (c > 0) {  // the DUT's state is defined from the first reset edge on
      const Out act = bench->sample();
      lap(kRtl);
      const Out exp = bench->expected(in);
      ++compared;
      const bool injected = o.inject_mismatch > 0 && c == o.inject_mismatch;
      if (!(act == exp) || injected) {  // every field of the block's output list (port_struct.h)
        std::cout << "MISMATCH in tb " << o.block << " set " << o.set << " seed " << o.seed
                  << " at cycle " << c << (injected ? " (injected by --inject-mismatch)" : "")
                  << "\n  inputs:   " << B::show(in)
                  << "\n  expected: " << to_string(exp) << "\n  actual:   " << to_string(act) << "\n";
#if LL_TRACE
        if (tfp) {
          tfp->flush();
          tfp->close();
        } else if (o.wave) {
          re_run_with_wave(o, c, vcd);
        }
#endif
        std::cout << "1 failed: lockstep mismatch\n";
        return kMismatch;
      }
    }
    if (!in_reset) {
      ++live_cycles;
      if (B::valid(in)) ++valid_cycles;
    }
    if (in_mid_reset(c) && B::valid(in)) cov.hit("reset_mid_traffic");
    lap(kModel);  // the model's outputs, the comparison and the counts above
    bench->tick(in);
    if constexpr (HasWantReset<B>::value) {
      if (!in_reset && bench->want_reset()) asked_until = c + 1 + 4;
    }
    lap(kTick);
    half(true, 2000 * c + 1000);
    lap(kRtl);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu_secs = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
  dut.final();
#if VM_COVERAGE
  // make coverage: this run's line/toggle counts, merged across sets and seeds later.
  const std::string vcov = o.out + "/vcov_" + o.block + "_" + o.set + "_seed" + std::to_string(o.seed) + ".dat";
  Verilated::threadContextp()->coveragep()->write(vcov.c_str());
#endif

  int rc = kPass;
  const double vf = live_cycles ? static_cast<double>(valid_cycles) / live_cycles : 0.0;
  std::cout << "tb " << o.block << " set " << o.set << " seed " << o.seed << ": " << compared
            << " cycles compared, 0 mismatches, " << static_cast<uint64_t>(compared / secs)
            << " cycles/s, " << static_cast<uint64_t>(compared / std::max(cpu_secs, 1e-6))
            << " cycles/s CPU, inputs valid on " << static_cast<int>(vf * 100 + 0.5) << "% of cycles\n";
  if (o.profile) print_profile(std::cout, phase_t, last + 1, compared / secs);
  if (vf < 0.5) {
    std::cout << "  FAIL: inputs valid on fewer than 50% of live cycles\n";
    rc = kStimulus;
  }
  const std::string cov_file = o.out + "/coverage_" + o.block + "_" + o.set + "_seed" + std::to_string(o.seed) + ".txt";
  if (!cov.write(cov_file)) {
    std::cout << "  FAIL: cannot write " << cov_file << "\n";
    rc = rc ? rc : kUsage;
  }
  if (!o.bins.empty() && !cov.check(o.bins, o.bins_text, o.set, o.min_hits, std::cout)) rc = rc ? rc : kCoverage;
  std::cout << (rc == kPass ? "1 passed, 0 failed" : "0 passed, 1 failed") << "\n";
  return rc;
}

}  // namespace ll::tb

// Each bench's sc_main. The bench file defines LL_TB_BENCH (its class template) and
// includes the generated tb_sets.h, which defines LL_TB_SETS(X) as one
// X(name, VerilatedTop, "Param=value,...") per parameter set, and LL_TB_SET_NAMES.
#define LL_TB_GRANT_EVAL(name, V, params) template struct ll::tb::EvalGrant<V, &V::eval>;
#define LL_TB_DISPATCH_ONE(name, V, params) \
  if (opt.set == #name) return ll::tb::run_lockstep<LL_TB_BENCH<V>>(opt, ll::tb::parse_params(params));
#define LL_TB_MAIN(block)                                                                    \
  LL_TB_SETS(LL_TB_GRANT_EVAL)                                                               \
  int sc_main(int argc, char** argv) {                                                       \
    const auto opt = ll::tb::parse_args(argc, argv, block);                                  \
    if (opt.list_sets) { std::cout << LL_TB_SET_NAMES << "\n"; return 0; }                  \
    LL_TB_SETS(LL_TB_DISPATCH_ONE)                                                           \
    std::cerr << "tb " block ": unknown --set '" << opt.set << "' (sets: " LL_TB_SET_NAMES ")\n"; \
    return ll::tb::kUsage;                                                                   \
  }
