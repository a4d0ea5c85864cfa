// Cycle model of rtl/common/ll_ram_1r1w.sv and ll_init_sweep.sv.
// Ram: 1-cycle read latency, read-first on a same-address write, rdata holds when
// re is low. The model has no X: entries start as 0 here, but the RTL never reads an
// entry before the init sweep has written it, so the value is never observed.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace ll {

template <class T>
class Ram {
 public:
  explicit Ram(size_t depth = 2) : mem_(depth) {}
  size_t depth() const { return mem_.size(); }
  // One clock edge: read (old contents) then write.
  void clock(bool re, size_t raddr, bool we, size_t waddr, const T& wdata) {
    if (re) rdata_ = mem_.at(raddr);
    if (we) mem_.at(waddr) = wdata;
  }
  const T& rdata() const { return rdata_; }
  // Direct access for transaction-level use (no timing).
  T& at(size_t a) { return mem_.at(a); }
  const T& at(size_t a) const { return mem_.at(a); }

 private:
  std::vector<T> mem_;
  T rdata_{};
};

// ll_init_sweep: after reset, writes addresses 0..depth-1 on consecutive cycles;
// done() rises the cycle after the last write.
class InitSweep {
 public:
  explicit InitSweep(size_t depth = 2) : depth_(depth) {}
  void reset() { addr_ = 0; done_ = false; }
  bool we() const { return !done_; }
  size_t addr() const { return addr_; }
  bool done() const { return done_; }
  void clock() {
    if (done_) return;
    if (addr_ + 1 == depth_) done_ = true; else ++addr_;
  }

 private:
  size_t depth_, addr_ = 0;
  bool done_ = false;
};

// ll_sat_counter twin: saturating at 2^width - 1, clear wins over increment.
class SatCounter {
 public:
  explicit SatCounter(unsigned width = 32) : max_(width >= 64 ? ~0ull : ((1ull << width) - 1)) {
    if (width < 1 || width > 32) throw std::invalid_argument("SatCounter: width must be in 1..32");
  }
  void reset() { v_ = 0; }
  void clock(bool clr, bool inc) {
    if (clr) v_ = 0; else if (inc && v_ != max_) ++v_;
  }
  uint64_t value() const { return v_; }
  uint64_t max() const { return max_; }

 private:
  uint64_t max_, v_ = 0;
};

}  // namespace ll
