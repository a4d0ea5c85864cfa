// The PFC block as RTL behind ll::pfc::Model's transaction face (cycle recipe:
// docs/cosim.md, "pfc"). One Verilated model per elaboration in use
// (sim/cosim/CMakeLists.txt, LL_COSIM_PFC_VARIANTS); the factory picks the one matching
// the switch's block.
#include <stdexcept>
#include <string>
#include <vector>

#include "cosim_pfc_variants.h"  // generated: the Verilated variants, LL_COSIM_PFC_VARIANTS(X)
#include "pfc/pfc_regs.h"
#include "sim/cosim/adapters.h"
#include "sim/cosim/rtl_block.h"
#include "verilated.h"

namespace ll::sim::cosim {
namespace {

template <class V>
class PfcAdapter final : public PfcFace {
 public:
  PfcAdapter(const std::string& node, const pfc::Config& cfg, const CfgProgram& program)
      : ports_(cfg.Ports), entries_(cfg.Ports * pfc::kPrios), paused_(cfg.Ports, 0), storm_(cfg.Ports, 0),
        xoff_(entries_, 0), b_(node, "pfc") {
    V& t = b_.top();
    t.adm_valid_i = 0;
    t.dep_valid_i = 0;
    t.pfc_valid_i = 0;
    t.tick_i = 0;
    t.eg_qport_i = 0;
    // 1. Reset (4 cycles; the queue RAMs' sweep starts after it).
    b_.reset();
    // 2. Wait for init_done_o (both RAMs swept: Ports x 8 cycles), then the settings as
    //    register writes (Settings::program(): every staged register, COMMIT), then one
    //    idle cycle, at whose end the COMMIT takes effect (the write is registered). The
    //    values registered from the live configuration follow a cycle later: the thresholds
    //    (thr_q, egthr_q) at the end of the first event's S0 cycle, before its S1 forms the
    //    brackets from them, and shp_q before its S2.
    b_.program(program);
  }

  pfc::Model::Result admit(uint32_t iport, uint32_t eport, uint32_t prio, uint32_t len, bool lossless) override {
    const auto call = b_.call();
    V& t = b_.top();
    // 3. The event: one cycle on adm_* (accepted at this edge: nothing else is offered and
    //    no sweep runs), then its S1 and S2 cycles; dec_*_o is valid 3 cycles after acceptance.
    //    The next event is accepted one edge later, when the registered thresholds have
    //    taken this event's pools: what the model's next call computes fresh.
    if (!t.adm_ready_o) b_.fail("adm_ready_o low before an admission");
    packet(t.adm_valid_i, t.adm_iport_i, t.adm_eport_i, t.adm_prio_i, t.adm_len_i, t.adm_lossless_i, iport, eport, prio, len,
           lossless);
    if (!t.dec_valid_o) b_.fail("no decision 3 cycles after the admission");
    pfc::Model::Result r;
    r.dec = static_cast<pfc::Decision>(t.dec_o);
    r.why = static_cast<pfc::Why>(t.dec_why_o);
    return r;
  }

  void depart(uint32_t iport, uint32_t eport, uint32_t prio, uint32_t len, bool lossless) override {
    const auto call = b_.call();
    V& t = b_.top();
    // 3'. The same three cycles on dep_* (a RESUME it causes is on pause_*_o after the third).
    if (!t.dep_ready_o) b_.fail("dep_ready_o low before a departure");
    packet(t.dep_valid_i, t.dep_iport_i, t.dep_eport_i, t.dep_prio_i, t.dep_len_i, t.dep_lossless_i, iport, eport, prio, len,
           lossless);
  }

  void on_pfc(uint32_t port, uint32_t prio, uint32_t quanta) override {
    const auto call = b_.call();
    V& t = b_.top();
    // 3''. The same three cycles on pfc_*; eg_qport_i on the port, so after the third edge
    //      eg_paused_o / eg_storm_o show its queues' new state.
    if (!t.pfc_ready_o) b_.fail("pfc_ready_o low before a received PFC entry");
    t.pfc_valid_i = 1;
    pin(t.pfc_port_i, port);
    pin(t.pfc_prio_i, prio);
    pin(t.pfc_quanta_i, quanta);
    pin(t.eg_qport_i, port);
    step();
    t.pfc_valid_i = 0;
    step();
    step();
    paused_[port] = t.eg_paused_o;
    storm_[port] = t.eg_storm_o;
  }

  void advance_ticks(uint64_t n) override {
    const auto call = b_.call();
    V& t = b_.top();
    for (uint64_t k = 0; k < n; ++k) {
      // 4. A tick: tick_i for one cycle (a pass is pending), the pass starts at the next
      //    edge, then the sweep takes one queue per cycle (nothing else is offered, so it
      //    wins every cycle) and the last queue's S1 and S2 cycles: Ports x 8 + 4 cycles. A
      //    pass accounts for the ticks pending when it starts: one, as the model's tick.
      t.tick_i = 1;
      step();
      t.tick_i = 0;
      for (unsigned i = 0; i < entries_ + 3; ++i) step();
    }
    // The egress flags the pass may have changed: each port's on eg_*_o (combinational).
    for (unsigned p = 0; p < ports_; ++p) {
      pin(t.eg_qport_i, p);
      t.eval();
      paused_[p] = t.eg_paused_o;
      storm_[p] = t.eg_storm_o;
    }
    if (!t.adm_ready_o) b_.fail("the timer pass did not end in Ports x 8 + 4 cycles");
  }

  std::vector<pfc::PauseRequest> take_pause_requests() override {
    std::vector<pfc::PauseRequest> v;
    v.swap(pauses_);
    return v;
  }
  bool paused(uint32_t port, uint32_t prio) const override { return (paused_.at(port) >> prio) & 1; }
  bool storm(uint32_t port, uint32_t prio) const override { return (storm_.at(port) >> prio) & 1; }
  bool xoff(uint32_t port, uint32_t prio) const override { return xoff_.at(port * pfc::kPrios + prio) != 0; }
  // 5. A global counter: a register read (CNT_ADMIT + 4 c), at the end of the run.
  uint64_t counter(unsigned c) override { return b_.read(pfc::regs::CNT_ADMIT + 4 * c); }
  bool cosim_stats(BlockStats* out) const override {
    *out = b_.stats();
    return true;
  }

 private:
  // A packet event (admission or departure: the same fields on adm_* or dep_*): valid for
  // one cycle, accepted at its edge, then its S1 and S2 cycles.
  template <class I, class P, class N, class L>
  void packet(CData& valid, I& ip, I& ep, P& pr, N& ln, L& ll, uint32_t iport, uint32_t eport, uint32_t prio, uint32_t len,
              bool lossless) {
    pin(ip, iport);
    pin(ep, eport);
    pin(pr, prio);
    pin(ln, len);
    ll = lossless;
    valid = 1;
    step();
    valid = 0;
    step();
    step();
  }
  // One transaction cycle; a PAUSE or RESUME the block requests in it (pause_valid_o,
  // valid for one cycle, no back-pressure) is collected in order. The ingress queue's
  // XOFF state is what the requests say: the RTL sets iq.xoff exactly when it requests a
  // PAUSE for a queue not yet XOFF and clears it exactly with the RESUME (a refresh PAUSE
  // finds it set).
  void step() {
    b_.clock_call();
    V& t = b_.top();
    if (t.pause_valid_o) {
      const pfc::PauseRequest r{t.pause_port_o, t.pause_prio_o, t.pause_quanta_o};
      pauses_.push_back(r);
      xoff_.at(r.port * pfc::kPrios + r.prio) = r.quanta != 0;
    }
  }

  unsigned ports_, entries_;
  std::vector<uint8_t> paused_, storm_;  // per port: eg_paused_o / eg_storm_o as last read
  std::vector<uint8_t> xoff_;            // per ingress queue
  std::vector<pfc::PauseRequest> pauses_;
  RtlBlock<V> b_;
};

}  // namespace

std::unique_ptr<PfcFace> make_pfc(const std::string& node, const pfc::Config& c, const CfgProgram& program) {
  if (c.CntW != PfcBuild::kCntW || c.StatW != PfcBuild::kStatW || c.TimerW != PfcBuild::kTimerW) {
    throw std::invalid_argument("the Verilated PFC block is built with CntW=" + std::to_string(PfcBuild::kCntW) +
                                " StatW=" + std::to_string(PfcBuild::kStatW) + " TimerW=" + std::to_string(PfcBuild::kTimerW) +
                                "; " + node + "'s differs");
  }
#define LL_COSIM_PFC_PICK(P, T, V) \
  if (c.Ports == P && c.TickNs == T) return std::make_unique<PfcAdapter<V>>(node, c, program);
  LL_COSIM_PFC_VARIANTS(LL_COSIM_PFC_PICK)
#undef LL_COSIM_PFC_PICK
  throw std::invalid_argument(node + "'s PFC block needs Ports=" + std::to_string(c.Ports) + " TickNs=" +
                              std::to_string(c.TickNs) + "; the Verilated PFC blocks built are " + LL_COSIM_PFC_BUILT +
                              " (add it to LL_COSIM_PFC_VARIANTS and run make cosim)");
}

}  // namespace ll::sim::cosim
