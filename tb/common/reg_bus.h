// The register interface of a block driven on a plain C++ Verilated model (verilator
// --cc, no SystemC): the form of tb/common/lockstep.h's RegPort that the co-simulation
// adapters (sim/cosim/) use. `Top` is the Verilated top with the pins of
// docs/CONVENTIONS.md (cfg_we_i, cfg_re_i, cfg_addr_i, cfg_wdata_i, cfg_rdata_o,
// cfg_rvalid_o, init_done_o); `clock` runs one full clock cycle (the inputs set before it
// are sampled at its rising edge). No SystemC, no Verilator runtime beyond the model.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

#include "common/cfg_op.h"

namespace ll::tb {

template <class Top>
struct RegBus {
  static void idle(Top& t) {
    t.cfg_we_i = 0;
    t.cfg_re_i = 0;
  }
  // One write per cycle, in order; the bus is idle afterwards. Writes before init_done_o
  // are ignored by every block, so this waits for it first (at most max_wait cycles).
  template <class Clock>
  static uint64_t program(Top& t, const CfgProgram& ops, Clock&& clock, uint64_t max_wait = 1u << 20) {
    uint64_t cycles = wait_init(t, clock, max_wait);
    for (const CfgOp& op : ops) {
      t.cfg_we_i = 1;
      t.cfg_re_i = 0;
      t.cfg_addr_i = op.addr;
      t.cfg_wdata_i = op.data;
      clock();
      ++cycles;
    }
    idle(t);
    return cycles;
  }
  // A register read: cfg_re_i for one cycle, then the cycles until cfg_rvalid_o.
  template <class Clock>
  static uint32_t read(Top& t, uint32_t addr, Clock&& clock) {
    t.cfg_we_i = 0;
    t.cfg_re_i = 1;
    t.cfg_addr_i = addr;
    clock();
    t.cfg_re_i = 0;
    for (int i = 0; i < 16 && !t.cfg_rvalid_o; ++i) clock();
    if (!t.cfg_rvalid_o) throw std::runtime_error("register read of " + std::to_string(addr) + ": no cfg_rvalid_o");
    return static_cast<uint32_t>(t.cfg_rdata_o);
  }
  template <class Clock>
  static uint64_t wait_init(Top& t, Clock&& clock, uint64_t max_wait) {
    uint64_t n = 0;
    while (!t.init_done_o) {
      if (n++ >= max_wait) throw std::runtime_error("init_done_o not set after " + std::to_string(max_wait) + " cycles");
      clock();
    }
    return n;
  }
};

}  // namespace ll::tb
