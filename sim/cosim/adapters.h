// The co-simulation adapters (docs/cosim.md): one per block, each a Verilated --cc model
// behind the block's transaction face (sim/cosim.h). Linked only into lossless_sim_cosim.
#pragma once
#include "sim/cosim.h"

namespace ll::sim::cosim {

// The factory lossless_sim_cosim installs (cosim::install(&rtl_factory())).
Factory& rtl_factory();

// The elaboration the Verilated marker was built with (sim/cosim/CMakeLists.txt): a
// switch's marker is co-simulated if its Queues fit and Profiles and QW are equal.
struct MarkerBuild {
  static constexpr unsigned kQueues = 512, kProfiles = 2, kQW = 24;
};

}  // namespace ll::sim::cosim
