// Co-simulation hook (docs/cosim.md): the interface through which a switch or NIC calls a
// block's Verilated RTL instead of its golden model. Nothing here needs Verilator: the
// adapters live in sim/cosim/ (library ll_cosim, built only by make cosim) and install
// their factory from lossless_sim_cosim's main. A scenario with a "cosim" section run by a
// binary without the factory is refused with one error.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <vector>

#include "common/cfg_op.h"
#include "drill/drill.h"
#include "marker/marker.h"
#include "sim/time.h"

namespace ll::sim::cosim {

// What one block adapter did in a run: transactions, clock cycles simulated (start-up
// and per transaction) and the CPU time spent in the RTL.
struct BlockStats {
  std::string node, block;
  uint64_t calls = 0;
  uint64_t init_cycles = 0, cycles = 0;  // start-up (reset, RAM sweep, registers); transactions
  double seconds = 0;
};

// The marker's transaction face (ll::marker::Model::decide), answered by the RTL.
class MarkerRtl {
 public:
  virtual ~MarkerRtl() = default;
  virtual marker::Verdict decide(uint32_t queue, uint32_t qlen, bool ect, bool lossless, bool deq) = 0;
  virtual BlockStats stats() const = 0;
};

// The DRILL selector's transaction face (ll::drill::Model::choose): `candidates` has a bit
// per selector port, `occupancy` one value per selector port (what the model is passed).
class DrillRtl {
 public:
  virtual ~DrillRtl() = default;
  virtual int choose(unsigned engine, uint32_t flow_hash, uint64_t candidates, const std::vector<uint32_t>& occupancy) = 0;
  virtual BlockStats stats() const = 0;
};

class Factory {
 public:
  virtual ~Factory() = default;
  // The RTL marker of switch `node`, elaborated like `cfg` (Queues, Profiles, QW, Seed)
  // and configured by `program` (register writes after reset).
  virtual std::unique_ptr<MarkerRtl> marker(const std::string& node, const marker::Config& cfg,
                                            const CfgProgram& program) = 0;
  // The RTL selector of switch `node`, elaborated like `cfg`, configured by `program`.
  virtual std::unique_ptr<DrillRtl> drill(const std::string& node, const drill::Config& cfg,
                                          const CfgProgram& program) = 0;
};

// cosim.trace: the block adapter of `node` and `block` writes `file` (FST) while the
// simulated time is in [from, to): every cycle it runs in that window, transactions
// back to back (the RTL is not clocked between them, so the FST's time axis is cycles).
struct TraceSpec {
  std::string node, block, file;
  Time from = 0, to = 0;
};
void set_trace(const TraceSpec& t);  // before the network is built
const TraceSpec* trace();            // nullptr: no trace asked for
// The simulated time now (the network installs its clock; 0 without one).
void set_clock(std::function<Time()> now);
Time now();

// lossless_sim_cosim installs its factory before building a network; without one, a
// network with a "cosim" section is refused (unless check_only: lossless_sim_check
// validates such scenarios without running any RTL).
void install(Factory* f);
Factory* installed();
void set_check_only(bool on);
bool check_only();

}  // namespace ll::sim::cosim
