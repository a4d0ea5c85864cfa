// What every co-simulation adapter does with its Verilated model (docs/cosim.md, "the
// cycle recipes"): own the model in the shared context, drive the clock (counting the
// cycles as start-up or transaction cycles), reset, load a PRNG's reset state for a
// per-node seed, program the registers through the config port, bracket each
// transaction (CPU time, cosim.trace window) and report. The block-specific part of a
// recipe (the event ports, the latency) stays in the adapter. Included only by the
// adapters' sources (it needs the Verilated headers).
#pragma once
#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "common/cfg_op.h"
#include "common/prng.h"
#include "reg_bus.h"
#include "sim/cosim.h"
#include "sim/cosim/adapters.h"
#include "sim/cosim/tracer.h"
#include "verilated.h"

namespace ll::sim::cosim {

// An input pin of the Verilated model (CData, SData, ...) from a value that fits it.
template <class T>
void pin(T& p, uint32_t v) {
  p = static_cast<T>(v);
}

template <class V>
class RtlBlock {
 public:
  // The model of `block` on switch or NIC `node` (Verilated name "<block>_<node>"), clock
  // low, register bus idle; the adapter sets its own inputs' idle values, then reset().
  RtlBlock(const std::string& node, const std::string& block) : tracer_(node, block) {
    st_.node = node;
    st_.block = block;
    top_ = std::make_unique<V>(&shared_context(), (block + "_" + node).c_str());
    top_->clk_i = 0;
    tb::RegBus<V>::idle(*top_);
  }
  RtlBlock(const RtlBlock&) = delete;
  RtlBlock& operator=(const RtlBlock&) = delete;
  ~RtlBlock() { top_->final(); }

  V& top() { return *top_; }
  const V& top() const { return *top_; }
  const std::string& node() const { return st_.node; }
  BlockStats stats() const { return st_; }
  BlockStats& stats() { return st_; }  // a recipe that counts its calls itself (DCQCN)

  // One clock cycle (falling then rising edge; inputs set before it are sampled at the
  // rising edge), counted as a start-up or a transaction cycle.
  void clock_init() { clock(st_.init_cycles, [] {}); }
  void clock_call() { clock(st_.cycles, [] {}); }
  // A transaction cycle whose outputs are read by `sample`, called after the falling-edge
  // eval (the inputs set before it have settled) and before the rising edge.
  template <class F>
  void clock_call(F&& sample) {
    clock(st_.cycles, sample);
  }
  // n transaction cycles in bulk (a block's idle ticks).
  void clock_calls(uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) clock_call();
  }

  // rst_ni low for `cycles` start-up cycles, then high.
  void reset(unsigned cycles = 4) {
    top_->rst_ni = 0;
    for (unsigned i = 0; i < cycles; ++i) clock_init();
    top_->rst_ni = 1;
  }

  // The reset state of an ll_prng elaborated with `seed`, written into its registers (made
  // writable by cosim_prng.vlt): one Verilated model serves nodes with different seeds.
  template <class S0, class S1, class R>
  static void load_prng(S0& s0_q, S1& s1_q, R& rand_q, uint64_t seed) {
    s0_q = seed;
    s1_q = seed ^ Prng::kGolden;
    rand_q = seed + (seed ^ Prng::kGolden);
  }

  // Wait for init_done_o, the program's writes one per cycle, then one idle cycle so the
  // last write has taken effect (all start-up cycles).
  void program(const CfgProgram& program) {
    tb::RegBus<V>::program(*top_, program, [&] { clock_init(); });
    clock_init();
  }
  // A register read (e.g. a counter at the end of the run), counted as transaction cycles.
  uint32_t read(uint32_t addr) {
    return tb::RegBus<V>::read(*top_, addr, [&] { clock_call(); });
  }

  // Around each transaction: the trace window is checked at its start, its CPU time and
  // count are added at its end.
  class Call {
   public:
    explicit Call(RtlBlock& b) : b_(b), t0_(std::chrono::steady_clock::now()) { b_.tracer_.at_transaction(*b_.top_); }
    ~Call() {
      ++b_.st_.calls;
      b_.st_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    }
    Call(const Call&) = delete;
    Call& operator=(const Call&) = delete;

   private:
    RtlBlock& b_;
    std::chrono::steady_clock::time_point t0_;
  };
  Call call() { return Call(*this); }
  void at_transaction() { tracer_.at_transaction(*top_); }  // a recipe that brackets its calls itself

  // An adapter's protocol error: "cosim <block> <node>: what".
  [[noreturn]] void fail(const std::string& what) const {
    throw std::logic_error("cosim " + st_.block + " " + st_.node + ": " + what);
  }

 private:
  template <class F>
  void clock(uint64_t& counter, F&& sample) {
    top_->clk_i = 0;
    top_->eval();
    tracer_.edge();
    sample();
    top_->clk_i = 1;
    top_->eval();
    tracer_.edge();
    ++counter;
  }

  std::unique_ptr<V> top_;
  Tracer<V> tracer_;  // after top_: closes its FST before the model goes
  BlockStats st_;
};

}  // namespace ll::sim::cosim
