// The RED/ECN marker as RTL behind ll::marker::Model::decide (cycle recipe: docs/cosim.md,
// "marker").
#include <chrono>
#include <stdexcept>
#include <string>

#include "Vcosim_marker.h"
#include "Vcosim_marker___024root.h"
#include "common/prng.h"
#include "reg_bus.h"
#include "sim/cosim/adapters.h"
#include "sim/cosim/tracer.h"
#include "verilated.h"

namespace ll::sim::cosim {
namespace {

class MarkerAdapter final : public MarkerRtl {
 public:
  MarkerAdapter(const std::string& node, const marker::Config& cfg, const CfgProgram& program) : tracer_(node, "marker") {
    if (cfg.Queues > MarkerBuild::kQueues || cfg.Profiles != MarkerBuild::kProfiles || cfg.QW != MarkerBuild::kQW) {
      throw std::invalid_argument("the Verilated marker is built with Queues <= " + std::to_string(MarkerBuild::kQueues) +
                                  ", Profiles = " + std::to_string(MarkerBuild::kProfiles) + ", QW = " +
                                  std::to_string(MarkerBuild::kQW) + "; " + node + "'s marker needs Queues = " +
                                  std::to_string(cfg.Queues) + ", Profiles = " + std::to_string(cfg.Profiles) +
                                  ", QW = " + std::to_string(cfg.QW));
    }
    st_.node = node;
    st_.block = "marker";
    top_ = std::make_unique<Vcosim_marker>(&shared_context(), ("marker_" + node).c_str());
    Vcosim_marker& t = *top_;
    t.clk_i = 0;
    t.ev_valid_i = 0;
    t.dec_ready_i = 1;
    tb::RegBus<Vcosim_marker>::idle(t);
    // 1. Reset (4 cycles; the RAM sweep starts after it).
    t.rst_ni = 0;
    for (int i = 0; i < 4; ++i) clock(st_.init_cycles);
    t.rst_ni = 1;
    // 2. The per-switch Seed: an elaboration parameter of marker_top, so one Verilated
    //    model cannot carry every switch's. The PRNG's reset state for this seed is
    //    written into its registers instead (what a Seed strap would load at reset).
    auto& r = *t.rootp;
    const uint64_t s0 = cfg.Seed, s1 = cfg.Seed ^ Prng::kGolden;
    r.marker_top__DOT__u_prng__DOT__s0_q = s0;
    r.marker_top__DOT__u_prng__DOT__s1_q = s1;
    r.marker_top__DOT__u_prng__DOT__rand_q = s0 + s1;
    // 3. Registers: wait for init_done_o (the queue-map and EWMA RAMs swept to zero), then
    //    the switch's profiles and queue map, one write per cycle.
    tb::RegBus<Vcosim_marker>::program(t, program, [&] { clock(st_.init_cycles); });  // clock() counts
    clock(st_.init_cycles);  // the last write takes effect at this edge
  }

  marker::Verdict decide(uint32_t queue, uint32_t qlen, bool ect, bool lossless, bool deq) override {
    const auto t0 = std::chrono::steady_clock::now();
    Vcosim_marker& t = *top_;
    tracer_.at_transaction(t);
    if (!t.ev_ready_o) throw std::logic_error("cosim marker " + st_.node + ": ev_ready_o low before an event");
    // 4. The event: one cycle on ev_*; accepted at this edge.
    t.ev_valid_i = 1;
    t.ev_queue_i = queue;
    t.ev_qlen_i = qlen;
    t.ev_deq_i = deq;
    t.ev_ect_i = ect;
    t.ev_lossless_i = lossless;
    clock(st_.cycles);
    t.ev_valid_i = 0;
    // 5. The pipeline: the result is on dec_*_o 5 cycles after acceptance (dec_ready_i
    //    stays high, so nothing stalls; the PRNG stepped as it left S4). It leaves the
    //    output register at the next edge, which is the next event's: no extra cycle.
    unsigned n = 0;
    while (!t.dec_valid_o) {
      if (++n > kLatency) throw std::logic_error("cosim marker " + st_.node + ": no decision " + std::to_string(kLatency) + " cycles after the event");
      clock(st_.cycles);
    }
    if (t.dec_queue_o != queue) throw std::logic_error("cosim marker " + st_.node + ": decision for queue " + std::to_string(t.dec_queue_o) + ", event on " + std::to_string(queue));
    const marker::Verdict v = t.dec_mark_o ? marker::Verdict::Mark : t.dec_drop_o ? marker::Verdict::Drop : marker::Verdict::Pass;
    ++st_.calls;
    st_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return v;
  }

  BlockStats stats() const override { return st_; }

  ~MarkerAdapter() override { top_->final(); }

 private:
  static constexpr unsigned kLatency = 5;
  void clock(uint64_t& counter) {
    top_->clk_i = 0;
    top_->eval();
    tracer_.edge();
    top_->clk_i = 1;
    top_->eval();
    tracer_.edge();
    ++counter;
  }

  std::unique_ptr<Vcosim_marker> top_;
  Tracer<Vcosim_marker> tracer_;  // after top_: closes its FST before the model goes
  BlockStats st_;
};

class RtlFactory final : public Factory {
 public:
  std::unique_ptr<MarkerRtl> marker(const std::string& node, const marker::Config& cfg, const CfgProgram& program) override {
    return std::make_unique<MarkerAdapter>(node, cfg, program);
  }
  std::unique_ptr<DrillRtl> drill(const std::string& node, const drill::Config& cfg, const CfgProgram& program) override {
    return make_drill(node, cfg, program);
  }
};

}  // namespace

VerilatedContext& shared_context() {
  static VerilatedContext ctx;
  static const bool init = [] {
    ctx.randReset(0);
    if (trace()) ctx.traceEverOn(true);  // cosim.trace: before any model is built
    return true;
  }();
  (void)init;
  return ctx;
}

Factory& rtl_factory() {
  static RtlFactory f;
  return f;
}

}  // namespace ll::sim::cosim
