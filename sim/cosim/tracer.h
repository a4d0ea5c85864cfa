// cosim.trace (docs/cosim.md): the FST writer of one adapter. Included only by the
// adapters' sources (it needs the Verilated headers; sim_main.cpp must not).
#pragma once
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "sim/cosim.h"
#include "verilated_fst_c.h"

namespace ll::sim::cosim {

// cosim.trace for one adapter's model: opens the FST at the first transaction whose
// simulated time is in [from, to), dumps every clock edge of the transactions in the
// window, closes at the first one past it (or with the adapter). FST time: 10 units per
// cycle the adapter ran since reset (the RTL is not clocked between transactions).
template <class V>
class Tracer {
 public:
  Tracer(const std::string& node, const std::string& block) {
    const TraceSpec* t = trace();
    on_ = t && t->node == node && t->block == block;
    if (on_) spec_ = *t;
  }
  void at_transaction(V& top) {
    if (!on_ || done_) return;
    const Time t = now();
    if (!fst_ && t >= spec_.from && t < spec_.to) {
      fst_ = std::make_unique<VerilatedFstC>();
      top.trace(fst_.get(), 99);
      fst_->open(spec_.file.c_str());
      if (!fst_->isOpen()) throw std::runtime_error("cosim.trace: cannot write " + spec_.file);
    } else if (fst_ && t >= spec_.to) {
      close();
    }
  }
  void edge() {  // after each eval()
    if (fst_) fst_->dump(time_);
    time_ += 5;
  }
  void close() {
    if (fst_) {
      fst_->close();
      fst_.reset();
      done_ = true;
    }
  }
  ~Tracer() { close(); }

 private:
  bool on_ = false, done_ = false;
  TraceSpec spec_;
  std::unique_ptr<VerilatedFstC> fst_;
  uint64_t time_ = 0;
};

}  // namespace ll::sim::cosim
