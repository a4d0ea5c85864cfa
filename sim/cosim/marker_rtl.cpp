// The RED/ECN marker as RTL behind ll::marker::Model::decide (cycle recipe: docs/cosim.md,
// "marker").
#include <stdexcept>
#include <string>

#include "Vcosim_marker.h"
#include "Vcosim_marker___024root.h"
#include "sim/cosim/adapters.h"
#include "sim/cosim/rtl_block.h"
#include "verilated.h"

namespace ll::sim::cosim {
namespace {

class MarkerAdapter final : public MarkerRtl {
 public:
  MarkerAdapter(const std::string& node, const marker::Config& cfg, const CfgProgram& program) : b_(node, "marker") {
    if (cfg.Queues > MarkerBuild::kQueues || cfg.Profiles != MarkerBuild::kProfiles || cfg.QW != MarkerBuild::kQW) {
      throw std::invalid_argument("the Verilated marker is built with Queues <= " + std::to_string(MarkerBuild::kQueues) +
                                  ", Profiles = " + std::to_string(MarkerBuild::kProfiles) + ", QW = " +
                                  std::to_string(MarkerBuild::kQW) + "; " + node + "'s marker needs Queues = " +
                                  std::to_string(cfg.Queues) + ", Profiles = " + std::to_string(cfg.Profiles) +
                                  ", QW = " + std::to_string(cfg.QW));
    }
    Vcosim_marker& t = b_.top();
    t.ev_valid_i = 0;
    t.dec_ready_i = 1;
    // 1. Reset (4 cycles; the RAM sweep starts after it).
    b_.reset();
    // 2. The per-switch Seed: an elaboration parameter of marker_top, so one Verilated
    //    model cannot carry every switch's. The PRNG's reset state for this seed is
    //    written into its registers instead (what a Seed strap would load at reset).
    auto& r = *t.rootp;
    b_.load_prng(r.marker_top__DOT__u_prng__DOT__s0_q, r.marker_top__DOT__u_prng__DOT__s1_q,
                 r.marker_top__DOT__u_prng__DOT__rand_q, cfg.Seed);
    // 3. Registers: wait for init_done_o (the queue-map and EWMA RAMs swept to zero), then
    //    the switch's profiles and queue map, one write per cycle, then one idle cycle.
    b_.program(program);
  }

  marker::Verdict decide(uint32_t queue, uint32_t qlen, bool ect, bool lossless, bool deq) override {
    const auto call = b_.call();
    Vcosim_marker& t = b_.top();
    if (!t.ev_ready_o) b_.fail("ev_ready_o low before an event");
    // 4. The event: one cycle on ev_*; accepted at this edge.
    t.ev_valid_i = 1;
    t.ev_queue_i = queue;
    t.ev_qlen_i = qlen;
    t.ev_deq_i = deq;
    t.ev_ect_i = ect;
    t.ev_lossless_i = lossless;
    b_.clock_call();
    t.ev_valid_i = 0;
    // 5. The pipeline: the result is on dec_*_o 6 cycles after acceptance (dec_ready_i
    //    stays high, so nothing stalls; the PRNG stepped as it left S4). It leaves the
    //    output register at the next edge, which is the next event's: no extra cycle.
    unsigned n = 0;
    while (!t.dec_valid_o) {
      if (++n > kLatency) b_.fail("no decision " + std::to_string(kLatency) + " cycles after the event");
      b_.clock_call();
    }
    if (t.dec_queue_o != queue) b_.fail("decision for queue " + std::to_string(t.dec_queue_o) + ", event on " + std::to_string(queue));
    return t.dec_mark_o ? marker::Verdict::Mark : t.dec_drop_o ? marker::Verdict::Drop : marker::Verdict::Pass;
  }

  BlockStats stats() const override { return b_.stats(); }

 private:
  static constexpr unsigned kLatency = 6;
  RtlBlock<Vcosim_marker> b_;
};

class RtlFactory final : public Factory {
 public:
  std::unique_ptr<MarkerRtl> marker(const std::string& node, const marker::Config& cfg, const CfgProgram& program) override {
    return std::make_unique<MarkerAdapter>(node, cfg, program);
  }
  std::unique_ptr<DrillRtl> drill(const std::string& node, const drill::Config& cfg, const CfgProgram& program) override {
    return make_drill(node, cfg, program);
  }
  std::unique_ptr<PfcFace> pfc(const std::string& node, const pfc::Config& cfg, const CfgProgram& program) override {
    return make_pfc(node, cfg, program);
  }
  std::unique_ptr<DcqcnCycle> dcqcn(const std::string& node, const dcqcn::Config& cfg, const CfgProgram& program) override {
    return make_dcqcn(node, cfg, program);
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
