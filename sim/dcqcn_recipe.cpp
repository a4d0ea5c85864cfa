// The pure-model run's DCQCN block: the recipe of sim/dcqcn_recipe.h on the golden
// model's cycle face (docs/cosim.md, "dcqcn").
#include "sim/dcqcn_recipe.h"

namespace ll::sim::cosim {
namespace {

struct ModelPins {
  ModelPins(const std::string& node, const dcqcn::Config& cfg) : m(cfg) {
    st.node = node;
    st.block = "dcqcn";
  }
  void startup(const CfgProgram& program) {
    // the RTL adapter's start-up on the cycle face: reset 4 cycles, wait for init_done,
    // the writes one per cycle, one idle cycle
    in.rst_n = false;
    for (int i = 0; i < 4; ++i) init_cycle();
    in.rst_n = true;
    while (!m.eval(in).init_done) init_cycle();
    for (const CfgOp& op : program) {
      in.cfg_we = true;
      in.cfg_addr = op.addr;
      in.cfg_wdata = op.data;
      init_cycle();
    }
    in.cfg_we = false;
    init_cycle();
  }
  dcqcn::Outputs cycle() {
    const dcqcn::Outputs o = m.eval(in);
    m.tick(in);
    ++st.cycles;
    return o;
  }
  BlockStats& stats() { return st; }
  void at_transaction() {}

  dcqcn::Inputs in;
  dcqcn::Model m;
  BlockStats st;

 private:
  void init_cycle() {
    m.tick(in);
    ++st.init_cycles;
  }
};

}  // namespace

std::unique_ptr<DcqcnCycle> make_dcqcn_model(const std::string& node, const dcqcn::Config& cfg, const CfgProgram& program) {
  return std::make_unique<DcqcnRecipe<ModelPins>>(std::make_unique<ModelPins>(node, cfg), program);
}

}  // namespace ll::sim::cosim
