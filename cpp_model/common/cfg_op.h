// One write of a block's configuration program through the register interface every
// block has (docs/CONVENTIONS.md: cfg_we_i, cfg_addr_i, cfg_wdata_i). The blocks' models
// turn their settings into lists of these (e.g. ll::marker::profile_ops); the lockstep
// benches drive them on their SystemC signals (tb/common/lockstep.h RegPort) and the
// co-simulation adapters on a plain Verilated model (tb/common/reg_bus.h).
#pragma once
#include <cstdint>
#include <vector>

namespace ll {

struct CfgOp {
  uint32_t addr, data;
};
using CfgProgram = std::vector<CfgOp>;

}  // namespace ll
