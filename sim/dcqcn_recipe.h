// The DCQCN block of a NIC driven cycle by cycle (docs/cosim.md, "dcqcn"): one recipe
// that turns the NIC's calls into the cycles of the block's ports, for either of two
// implementations of those ports - the golden model's cycle face (ll::dcqcn::Model::eval /
// tick; the pure-model run, cosim.model = true) or the Verilated RTL (sim/cosim/
// dcqcn_rtl.cpp). The transaction face cannot serve here: the RTL's timing wheel releases
// packets in slots, where the transaction face gives exact departure times.
//
// Pins (the implementation of the ports) provides:
//   dcqcn::Inputs in;                    the inputs of the next cycle
//   void startup(const CfgProgram&);     reset, wait for init_done, program, one idle cycle
//   dcqcn::Outputs cycle();              one cycle: the outputs seen before its edge
//                                        (for `in`), then the edge
//   BlockStats& stats();                 cycles counted by cycle(); calls, CPU time here
//   void at_transaction();               before each call (cosim.trace's window)
#pragma once
#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/cfg_op.h"
#include "dcqcn/dcqcn.h"
#include "sim/cosim.h"

namespace ll::sim::cosim {

template <class Pins>
class DcqcnRecipe final : public DcqcnCycle {
 public:
  DcqcnRecipe(std::unique_ptr<Pins> pins, const CfgProgram& program) : p_(std::move(pins)) {
    dcqcn::Inputs& in = p_->in;
    in = dcqcn::Inputs{};
    in.cnpo_ready = true;   // the NIC takes every CNP the NP produces at once
    in.grant_ready = true;  // and every grant the wheel makes
    p_->startup(program);
  }

  // RP: a CNP for qp, received at tick t.
  void cnp(uint32_t qp, uint64_t t) override {
    const Call c(*this);
    advance_to(t);
    dcqcn::Inputs& in = p_->in;
    in.cnp_valid = true;
    in.cnp_qp = qp;
    until([](const dcqcn::Outputs& o) { return o.cnp_ready; }, "cnp_ready");
    in.cnp_valid = false;
  }
  // RP: bytes of qp sent at tick t.
  void sent(uint32_t qp, uint32_t bytes, uint64_t t) override {
    const Call c(*this);
    advance_to(t);
    dcqcn::Inputs& in = p_->in;
    in.sent_valid = true;
    in.sent_qp = qp;
    in.sent_bytes = bytes;
    until([](const dcqcn::Outputs& o) { return o.sent_ready; }, "sent_ready");
    in.sent_valid = false;
  }
  // NP: a CE-marked packet of flow at tick t; true if the NP sends a CNP for it.
  bool marked(uint32_t flow, uint64_t t) override {
    const Call c(*this);
    advance_to(t);
    dcqcn::Inputs& in = p_->in;
    // a CNP taken since the last marked packet's window was not that packet's: the NP
    // sends none on its own, so the window below was too short (a latency change)
    if (!cnps_.empty()) fail("a CNP for flow " + std::to_string(cnps_.front()) + " came after its packet's " + std::to_string(kNpCycles) + "-cycle window");
    in.ce_valid = true;
    in.ce_flow = flow;
    until([](const dcqcn::Outputs& o) { return o.ce_ready; }, "ce_ready");
    in.ce_valid = false;
    // accepted at that edge; the NP decides in S2 and pushes from S3, and the CNP leaves the
    // FIFO at the edge after (cnpo_ready is high): kNpCycles cover it.
    for (unsigned i = 0; i < kNpCycles; ++i) step();
    bool sent = false;
    for (uint32_t f : cnps_) {
      if (f != flow) fail("a CNP for flow " + std::to_string(f) + " after a marked packet of flow " + std::to_string(flow));
      sent = true;
    }
    cnps_.clear();
    return sent;
  }
  // Wheel: qp's next packet (bytes) becomes ready at tick t (one token per QP).
  void enqueue(uint32_t qp, uint32_t bytes, uint64_t t) override {
    const Call c(*this);
    advance_to(t);
    dcqcn::Inputs& in = p_->in;
    in.enq_valid = true;
    in.enq_qp = qp;
    in.enq_bytes = bytes;
    until([](const dcqcn::Outputs& o) { return o.enq_ready; }, "enq_ready");
    in.enq_valid = false;
  }
  // The block's time to tick t (the NIC's poll at each wheel slot while tokens wait).
  void advance(uint64_t t) override {
    const Call c(*this);
    advance_to(t);
  }
  std::vector<Grant> take_grants() override {
    std::vector<Grant> g;
    g.swap(grants_);
    return g;
  }
  bool cosim_stats(BlockStats* out) const override {
    *out = p_->stats();
    return true;
  }

 private:
  static constexpr unsigned kNpCycles = 4, kMaxWait = 1u << 16;
  struct Call {
    explicit Call(DcqcnRecipe& r) : r_(r), t0_(std::chrono::steady_clock::now()) { r_.p_->at_transaction(); }
    ~Call() {
      BlockStats& s = r_.p_->stats();
      ++s.calls;
      s.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    }
    DcqcnRecipe& r_;
    std::chrono::steady_clock::time_point t0_;
  };
  [[noreturn]] void fail(const std::string& what) const {
    throw std::logic_error("cosim dcqcn " + p_->stats().node + ": " + what);
  }
  // One cycle; a grant or a CNP on the outputs is taken at its edge (the readies are high).
  dcqcn::Outputs step() {
    const dcqcn::Outputs o = p_->cycle();
    if (o.grant_valid) grants_.push_back(Grant{o.grant_qp, o.grant_bytes});
    if (o.cnpo_valid) cnps_.push_back(o.cnpo_flow);
    return o;
  }
  // Cycles with the current inputs until `ready` holds before an edge (the event offered
  // is accepted at that edge).
  template <class Ready>
  void until(Ready ready, const char* what) {
    for (unsigned n = 0; n < kMaxWait; ++n)
      if (ready(step())) return;
    fail(std::string(what) + " low for " + std::to_string(kMaxWait) + " cycles");
  }
  // The time base: one tick per cycle (tick_i high) until the block's time is t. Events are
  // offered with tick_i low, so each is processed at the tick of its call.
  void advance_to(uint64_t t) {
    if (t < now_) fail("time went back from tick " + std::to_string(now_) + " to " + std::to_string(t));
    dcqcn::Inputs& in = p_->in;
    in.tick = true;
    for (; now_ < t; ++now_) step();
    in.tick = false;
  }

  std::unique_ptr<Pins> p_;
  uint64_t now_ = 0;  // the block's time (its now_q), ticks
  std::vector<Grant> grants_;
  std::vector<uint32_t> cnps_;
};

// The pure-model run's DCQCN block (cosim.model = true): the golden model's cycle face.
std::unique_ptr<DcqcnCycle> make_dcqcn_model(const std::string& node, const dcqcn::Config& cfg, const CfgProgram& program);

}  // namespace ll::sim::cosim
