// A NIC's DCQCN block as RTL, driven by the cycle recipe of sim/dcqcn_recipe.h (the same
// recipe drives the model's cycle face in the pure-model run; docs/cosim.md, "dcqcn"). One
// Verilated model per elaboration in use (sim/cosim/CMakeLists.txt, LL_COSIM_DCQCN_VARIANTS).
#include <stdexcept>
#include <string>

#include "cosim_dcqcn_variants.h"  // generated: the Verilated variants, LL_COSIM_DCQCN_VARIANTS(X)
#include "sim/cosim/adapters.h"
#include "sim/cosim/rtl_block.h"
#include "sim/dcqcn_recipe.h"
#include "verilated.h"

namespace ll::sim::cosim {
namespace {

// The ports of the Verilated dcqcn_top as the recipe's Pins.
template <class V>
struct RtlPins {
  explicit RtlPins(const std::string& node) : b(node, "dcqcn") {}
  void startup(const CfgProgram& program) {
    apply();
    b.reset();          // rst_ni low 4 cycles
    b.program(program); // init_done_o (the three RAM sweeps), the writes, one idle cycle
  }
  dcqcn::Outputs cycle() {
    apply();
    dcqcn::Outputs o;
    b.clock_call([&] {
      const V& t = b.top();
      o.init_done = t.init_done_o;
      o.ce_ready = t.ce_ready_o;
      o.cnpo_valid = t.cnpo_valid_o;
      o.cnpo_flow = t.cnpo_flow_o;
      o.cnp_ready = t.cnp_ready_o;
      o.sent_ready = t.sent_ready_o;
      o.enq_ready = t.enq_ready_o;
      o.grant_valid = t.grant_valid_o;
      o.grant_qp = t.grant_qp_o;
      o.grant_bytes = t.grant_bytes_o;
    });
    return o;
  }
  BlockStats& stats() { return b.stats(); }
  void at_transaction() { b.at_transaction(); }

  dcqcn::Inputs in;
  RtlBlock<V> b;

 private:
  void apply() {
    V& t = b.top();
    t.tick_i = in.tick;
    t.ce_valid_i = in.ce_valid;
    pin(t.ce_flow_i, in.ce_flow);
    t.cnpo_ready_i = in.cnpo_ready;
    t.cnp_valid_i = in.cnp_valid;
    pin(t.cnp_qp_i, in.cnp_qp);
    t.sent_valid_i = in.sent_valid;
    pin(t.sent_qp_i, in.sent_qp);
    pin(t.sent_bytes_i, in.sent_bytes);
    t.enq_valid_i = in.enq_valid;
    pin(t.enq_qp_i, in.enq_qp);
    pin(t.enq_bytes_i, in.enq_bytes);
    t.grant_ready_i = in.grant_ready;
  }
};

}  // namespace

std::unique_ptr<DcqcnCycle> make_dcqcn(const std::string& node, const dcqcn::Config& c, const CfgProgram& program) {
  const dcqcn::Config d;
  if (c.TickPs != DcqcnBuild::kTickPs || c.BytesW != DcqcnBuild::kBytesW || c.Slots != d.Slots || c.SlotLog2 != d.SlotLog2 ||
      c.IfgBytes != d.IfgBytes || c.AlphaSteps != d.AlphaSteps || c.DecSteps != d.DecSteps || c.ScanForce != d.ScanForce ||
      c.DivBits != d.DivBits) {
    throw std::invalid_argument("the Verilated DCQCN block is built with TickPs=" + std::to_string(DcqcnBuild::kTickPs) +
                                " BytesW=" + std::to_string(DcqcnBuild::kBytesW) + " and the other parameters at their "
                                "defaults; " + node + "'s differs");
  }
#define LL_COSIM_DCQCN_PICK(Q, L, V) \
  if (c.Queues == Q && c.LineRateMbps == L) return std::make_unique<DcqcnRecipe<RtlPins<V>>>(std::make_unique<RtlPins<V>>(node), program);
  LL_COSIM_DCQCN_VARIANTS(LL_COSIM_DCQCN_PICK)
#undef LL_COSIM_DCQCN_PICK
  throw std::invalid_argument(node + "'s DCQCN block needs Queues=" + std::to_string(c.Queues) + " LineRateMbps=" +
                              std::to_string(c.LineRateMbps) + " (nic.qps, the host link); the Verilated DCQCN blocks "
                              "built are " + LL_COSIM_DCQCN_BUILT + " (add it to LL_COSIM_DCQCN_VARIANTS and run make cosim)");
}

}  // namespace ll::sim::cosim
