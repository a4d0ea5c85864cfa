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
#include "dcqcn/dcqcn.h"
#include "drill/drill.h"
#include "marker/marker.h"
#include "pfc/pfc.h"
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

// The PFC block's transaction face (ll::pfc::Model's admit, depart, on_pfc, advance_ticks,
// take_pause_requests and the queries the switch makes). A switch calls its PFC block
// through this face only: PfcModel answers from the golden model, a co-simulation
// adapter from the RTL.
class PfcFace {
 public:
  virtual ~PfcFace() = default;
  virtual pfc::Model::Result admit(uint32_t iport, uint32_t eport, uint32_t prio, uint32_t len, bool lossless) = 0;
  virtual void depart(uint32_t iport, uint32_t eport, uint32_t prio, uint32_t len, bool lossless) = 0;
  virtual void on_pfc(uint32_t port, uint32_t prio, uint32_t quanta) = 0;
  virtual void advance_ticks(uint64_t n) = 0;
  virtual std::vector<pfc::PauseRequest> take_pause_requests() = 0;
  virtual bool paused(uint32_t port, uint32_t prio) const = 0;
  virtual bool storm(uint32_t port, uint32_t prio) const = 0;
  virtual bool xoff(uint32_t port, uint32_t prio) const = 0;
  virtual uint64_t counter(unsigned c) = 0;  // a global counter (pfc::Counter)
  // An RTL block fills `out` and returns true; the model returns false.
  virtual bool cosim_stats(BlockStats* /*out*/) const { return false; }
};

// The golden model behind PfcFace (the pure-model run).
class PfcModel final : public PfcFace {
 public:
  explicit PfcModel(std::unique_ptr<pfc::Model> m) : m_(std::move(m)) {}
  pfc::Model::Result admit(uint32_t iport, uint32_t eport, uint32_t prio, uint32_t len, bool lossless) override {
    return m_->admit(iport, eport, prio, len, lossless);
  }
  void depart(uint32_t iport, uint32_t eport, uint32_t prio, uint32_t len, bool lossless) override {
    m_->depart(iport, eport, prio, len, lossless);
  }
  void on_pfc(uint32_t port, uint32_t prio, uint32_t quanta) override { m_->on_pfc(port, prio, quanta); }
  void advance_ticks(uint64_t n) override { m_->advance_ticks(n); }
  std::vector<pfc::PauseRequest> take_pause_requests() override { return m_->take_pause_requests(); }
  bool paused(uint32_t port, uint32_t prio) const override { return m_->paused(port, prio); }
  bool storm(uint32_t port, uint32_t prio) const override { return m_->storm(port, prio); }
  bool xoff(uint32_t port, uint32_t prio) const override { return m_->xoff(port, prio); }
  uint64_t counter(unsigned c) override { return m_->counter(c); }

 private:
  std::unique_ptr<pfc::Model> m_;
};

// A NIC's DCQCN block driven cycle by cycle (sim/dcqcn_recipe.h): the NIC's calls at tick
// t (1 ns), the wheel's grants taken by the NIC at its polls. Both runs of a comparison
// use it for the NICs named in the section: the model's cycle face (cosim.model = true)
// or the RTL.
class DcqcnCycle {
 public:
  struct Grant {
    uint32_t qp, bytes;
  };
  virtual ~DcqcnCycle() = default;
  virtual void cnp(uint32_t qp, uint64_t t) = 0;
  virtual void sent(uint32_t qp, uint32_t bytes, uint64_t t) = 0;
  virtual bool marked(uint32_t flow, uint64_t t) = 0;
  virtual void enqueue(uint32_t qp, uint32_t bytes, uint64_t t) = 0;
  virtual void advance(uint64_t t) = 0;
  virtual std::vector<Grant> take_grants() = 0;  // grants since the last call, in order
  virtual bool cosim_stats(BlockStats* out) const = 0;
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
  // The RTL PFC block of switch `node`, elaborated like `cfg` (Ports, TickNs, CntW,
  // TimerW), configured by `program` (the settings' writes and COMMIT).
  virtual std::unique_ptr<PfcFace> pfc(const std::string& node, const pfc::Config& cfg, const CfgProgram& program) = 0;
  // The RTL DCQCN block of NIC `node`, elaborated like `cfg` (Queues, LineRateMbps, TickPs,
  // BytesW; the rest at their defaults), configured by `program` (dcqcn::stage_ops).
  virtual std::unique_ptr<DcqcnCycle> dcqcn(const std::string& node, const dcqcn::Config& cfg, const CfgProgram& program) = 0;
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
