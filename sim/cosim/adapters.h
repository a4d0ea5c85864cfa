// The co-simulation adapters (docs/cosim.md): one per block, each a Verilated --cc model
// behind the block's transaction face (sim/cosim.h). Linked only into lossless_sim_cosim.
#pragma once
#include <memory>
#include <string>

#include "sim/cosim.h"

class VerilatedContext;

namespace ll::sim::cosim {

// The one Verilated context every adapter's model lives in, for the whole process (a
// context per adapter, destroyed with it, left the models' scope registry dangling: the
// next model's destructor could hang on a freed mutex). X-initial state: zeros, the same
// every run (reset then clears what matters).
VerilatedContext& shared_context();

// The factory lossless_sim_cosim installs (cosim::install(&rtl_factory())).
Factory& rtl_factory();

// The elaboration the Verilated marker was built with (sim/cosim/CMakeLists.txt): a
// switch's marker is co-simulated if its Queues fit and Profiles and QW are equal.
struct MarkerBuild {
  static constexpr unsigned kQueues = 512, kProfiles = 2, kQW = 24;
};

// The DRILL selector's fixed elaboration (sim/cosim/CMakeLists.txt; the simulator's
// BlockSizes); Ports, D and M come from LL_COSIM_DRILL_VARIANTS, one Verilated model each.
struct DrillBuild {
  static constexpr unsigned kOccW = 16, kHashW = 32, kFlowEntries = 4096, kComps = 64, kOccLag = 1, kCntW = 32;
};
std::unique_ptr<DrillRtl> make_drill(const std::string& node, const drill::Config& c, const CfgProgram& program);

// The PFC block's fixed elaboration (sim/cosim/CMakeLists.txt; the simulator's BlockSizes);
// Ports and TickNs come from LL_COSIM_PFC_VARIANTS, one Verilated model each.
struct PfcBuild {
  static constexpr unsigned kCntW = 24, kStatW = 32, kTimerW = 20;
};
std::unique_ptr<PfcFace> make_pfc(const std::string& node, const pfc::Config& c, const CfgProgram& program);

// The DCQCN block's fixed elaboration (sim/cosim/CMakeLists.txt; the simulator's
// BlockSizes, the other parameters at their defaults); Queues and LineRateMbps come from
// LL_COSIM_DCQCN_VARIANTS, one Verilated model each.
struct DcqcnBuild {
  static constexpr unsigned kTickPs = 1000, kBytesW = 14;
};
std::unique_ptr<DcqcnCycle> make_dcqcn(const std::string& node, const dcqcn::Config& c, const CfgProgram& program);

}  // namespace ll::sim::cosim
