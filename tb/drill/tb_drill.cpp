// Lockstep testbench of the DRILL selector: rtl/drill/drill_top.sv against ll::drill::Model,
// cycle by cycle (harness: tb/common/lockstep.h). Test plan: tb/drill/testplan.md.
#include <deque>
#include <sstream>
#include <type_traits>
#include <utility>

#include "lockstep.h"
#include "common/bits.h"
#include "drill/drill.h"
#include "tb_sets.h"

namespace {

using ll::tb::Coverage;
using ll::tb::Rng;
namespace dr = ll::drill;
namespace regs = ll::drill::regs;

// The C++ type Verilator gives a port (bool / uint32_t / uint64_t by width): the
// widths depend on the parameter set, so every multi-bit port's signal type is derived.
template <class Port>
using PortT = typename std::remove_reference_t<Port>::data_type;

template <class S>
void put(S& s, uint64_t v) {
  using T = std::remove_reference_t<decltype(s.read())>;
  s.write(static_cast<T>(v));
}
template <class S>
uint64_t get(const S& s) {
  return static_cast<uint64_t>(s.read());
}

using ll::tb::CfgOp;

template <class Dut>
class DrillBench {
 public:
  using In = dr::Inputs;
  using Out = dr::Outputs;

  DrillBench(const ll::tb::Params& p, uint64_t seed, Coverage& cov)
      : cfg_(make_cfg(p)), model_(cfg_), rng_(seed), cov_(cov) {
    if (cfg_.Engines > dr::kPortSets) throw std::invalid_argument("Engines > 4");
    omax_ = static_cast<uint32_t>(ll::low_mask(cfg_.OccW));
    pmask_ = ll::low_mask(cfg_.Ports);
    for (int i = 0; i < 6; ++i) flows_.push_back(static_cast<uint32_t>(rng_.next() & ll::low_mask(cfg_.HashW)));
  }

  Dut& dut() { return dut_; }
  void bind() {
    dut_.rst_ni(rst_n_);
    dut_.e0_valid_i(valid_[0]); dut_.e0_ready_o(ready_[0]); dut_.e0_hash_i(hash_[0]);
    dut_.e0_mask_i(mask_[0]); dut_.e0_grp_en_i(grp_en_[0]); dut_.e0_grp_i(grp_[0]);
    dut_.e0_out_valid_o(out_valid_[0]); dut_.e0_out_port_o(out_port_[0]); dut_.e0_out_empty_o(out_empty_[0]);
    dut_.e1_valid_i(valid_[1]); dut_.e1_ready_o(ready_[1]); dut_.e1_hash_i(hash_[1]);
    dut_.e1_mask_i(mask_[1]); dut_.e1_grp_en_i(grp_en_[1]); dut_.e1_grp_i(grp_[1]);
    dut_.e1_out_valid_o(out_valid_[1]); dut_.e1_out_port_o(out_port_[1]); dut_.e1_out_empty_o(out_empty_[1]);
    dut_.e2_valid_i(valid_[2]); dut_.e2_ready_o(ready_[2]); dut_.e2_hash_i(hash_[2]);
    dut_.e2_mask_i(mask_[2]); dut_.e2_grp_en_i(grp_en_[2]); dut_.e2_grp_i(grp_[2]);
    dut_.e2_out_valid_o(out_valid_[2]); dut_.e2_out_port_o(out_port_[2]); dut_.e2_out_empty_o(out_empty_[2]);
    dut_.e3_valid_i(valid_[3]); dut_.e3_ready_o(ready_[3]); dut_.e3_hash_i(hash_[3]);
    dut_.e3_mask_i(mask_[3]); dut_.e3_grp_en_i(grp_en_[3]); dut_.e3_grp_i(grp_[3]);
    dut_.e3_out_valid_o(out_valid_[3]); dut_.e3_out_port_o(out_port_[3]); dut_.e3_out_empty_o(out_empty_[3]);
    dut_.occ_we_i(occ_we_);
    dut_.occ_port_i(occ_port_);
    dut_.occ_value_i(occ_value_);
    reg_.bind(dut_);
  }

  void drive(const In& in) {
    rst_n_.write(in.rst_n);
    for (unsigned e = 0; e < dr::kPortSets; ++e) {
      valid_[e].write(in.valid[e]);
      put(hash_[e], in.hash[e]);
      put(mask_[e], in.mask[e]);
      grp_en_[e].write(in.grp_en[e]);
      put(grp_[e], in.grp[e]);
    }
    occ_we_.write(in.occ_we);
    put(occ_port_, in.occ_port);
    put(occ_value_, in.occ_value);
    reg_.drive(in);
  }

  Out sample() const {
    Out o;
    for (unsigned e = 0; e < dr::kPortSets; ++e) {
      o.ready[e] = ready_[e].read();
      o.out_valid[e] = out_valid_[e].read();
      o.out_port[e] = static_cast<uint32_t>(get(out_port_[e]));
      o.out_empty[e] = out_empty_[e].read();
    }
    reg_.sample(o);
    return o;
  }

  Out expected(const In& in) const { return model_.eval(in); }

  static bool valid(const In& in) {
    for (bool v : in.valid)
      if (v) return true;
    return false;
  }
  static std::string show(const In& i) {
    std::ostringstream os;
    os << "rst_n=" << i.rst_n;
    for (unsigned e = 0; e < dr::kPortSets; ++e)
      os << " | e" << e << " valid=" << i.valid[e] << " hash=" << ll::tb::hex(i.hash[e])
         << " mask=" << ll::tb::hex(i.mask[e]) << " grp_en=" << i.grp_en[e] << " grp=" << i.grp[e];
    os << " | occ_we=" << i.occ_we << " occ_port=" << i.occ_port << " occ_value=" << i.occ_value
       << " | cfg_we=" << i.cfg_we << " cfg_re=" << i.cfg_re << " cfg_addr=" << ll::tb::hex(i.cfg_addr)
       << " cfg_wdata=" << ll::tb::hex(i.cfg_wdata);
    return os.str();
  }

  // ---- the clock edge of the model, and coverage of what this cycle did
  void tick(const In& in) {
    const Out o = model_.eval(in);
    for (unsigned e = 0; e < cfg_.Engines; ++e) {
      hold_[e] = in.rst_n && in.valid[e] && !o.ready[e];
      if (hold_[e] && o.init_done == false) cov_.hit("input_stall_before_init");
    }
    held_ = in;
    if (in.rst_n) cover_inputs(in, o);
    if (in.rst_n) cover_coincidences(in, o);
    if (!in.rst_n) {
      programmed_ = false;
      ops_.clear();
      model_stage_mode_ = 3;
      // After a reset: read every register back before anything is written (each must
      // show its reset value), and in most resets let traffic run on the reset
      // configuration (DRILL mode, empty tables) for a while before reprogramming.
      probe_ = readable();
      program_delay_ = rng_.chance(75) ? rng_.range(30, 300) : 0;
      program_at_ = ~0ull;
      storm_until_ = 0;
      for (auto& h : hist_) h.n = 0;
    }
    model_.tick(in);
    if (in.rst_n) cover_decisions(in);
    view_changed_before_ = in.rst_n ? model_.view_changed() : -1;
  }

  // ---- stimulus for the next cycle
  In stimulus(uint64_t cycle, bool in_reset) {
    In in;
    if (in_reset && cycle < 4) return in;  // quiet power-on reset
    const bool init_done = model_.eval(in).init_done;
    if (init_done && !programmed_ && probe_.empty() && program_at_ == ~0ull) program_at_ = cycle + program_delay_;
    if (init_done && !programmed_ && cycle >= program_at_) {
      program_tables();
      programmed_ = true;
      next_mode_ = cycle + 200 + rng_.below(1500);
      next_storm_ = cycle + rng_.range(2000, 30000);
    }
    if (init_done && programmed_ && cycle >= next_mode_) {
      reconfigure();
      next_mode_ = cycle + 500 + rng_.below(3000);
    }
    // Storm phases: a few thousand cycles of per-flow DRILL where each engine sends pairs
    // of flows that share a flow-table entry (tags differing in the top bit or at random)
    // back to back, while counters are cleared and tables recommitted every few cycles.
    if (init_done && programmed_ && storm_until_ == 0 && cycle >= next_storm_) start_storm(cycle);
    if (storm_until_ && cycle >= storm_until_) {
      storm_until_ = 0;
      next_storm_ = cycle + rng_.range(10000, 60000);
    }
    if (storm_until_ && ops_.size() < 3) storm_ops();
    // Saturation phases (two engines or more, counters of 12 bits or fewer): most packets
    // of every engine go to one port until its counter saturates, then that counter is
    // cleared. The counter passes max - 1 with engines deciding for it in the same cycle
    // (counter_double_increment_at_max_minus_1) on purpose instead of by chance.
    if (cfg_.Engines >= 2 && cfg_.CntW <= 12 && init_done && programmed_ && !storm_until_) {
      if (sat_port_ < 0 && cycle >= next_sat_) sat_port_ = static_cast<int>(rng_.below(cfg_.Ports));
      if (sat_port_ >= 0 && model_.port_count(static_cast<unsigned>(sat_port_)) == ll::low_mask(cfg_.CntW)) {
        const unsigned p = static_cast<unsigned>(sat_port_);
        ops_.push_back({p < 32 ? regs::CNT_PORT_CLEAR_LO : regs::CNT_PORT_CLEAR_HI, 1u << (p % 32)});
        sat_port_ = -1;
        next_sat_ = cycle + rng_.range(5000, 30000);
      }
    }
    if (storm_until_ || !programmed_) sat_port_ = -1;
    if (cycle >= next_regime_) {
      regime_ = static_cast<unsigned>(rng_.below(5));
      regime_value_ = static_cast<uint32_t>(rng_.below(omax_ + 1ull));
      next_regime_ = cycle + 300 + rng_.below(1500);
    }
    // configuration writes (queued) and random reads
    if (!ops_.empty() && probe_.empty() && rng_.chance(storm_until_ ? 80 : 50)) {
      in.cfg_we = true;
      in.cfg_addr = ops_.front().addr;
      in.cfg_wdata = ops_.front().data;
      ops_.pop_front();
    } else if (probe_.empty() && rng_.chance(2)) {
      in.cfg_we = true;  // a stray staged write (before init it is ignored)
      in.cfg_addr = regs::STAGE_MASK_HI;
      in.cfg_wdata = static_cast<uint32_t>(rng_.next());
    }
    if (!probe_.empty() && !in.cfg_we) {
      in.cfg_re = true;
      in.cfg_addr = probe_.back();
      probe_.pop_back();
      cov_.hit("reset_register_read_back");
    } else if (rng_.chance(8)) {
      in.cfg_re = true;
      if (!in.cfg_we) in.cfg_addr = read_addr();
    }
    // occupancy updates on most cycles, in regimes: random, few levels (ties), all equal,
    // one hot port, full range with saturation values
    if (rng_.chance(85)) {
      in.occ_we = true;
      in.occ_port = static_cast<uint32_t>(rng_.below(cfg_.Ports));
      switch (regime_) {
        case 0: in.occ_value = static_cast<uint32_t>(rng_.below(omax_ + 1ull)); break;
        case 1: in.occ_value = static_cast<uint32_t>(rng_.below(std::min<uint64_t>(3, omax_ + 1ull))); break;
        case 2: in.occ_value = regime_value_; break;
        case 3: in.occ_value = in.occ_port == hot_port_ ? 0 : static_cast<uint32_t>(rng_.range(omax_ / 2, omax_)); break;
        default: in.occ_value = rng_.chance(50) ? omax_ : static_cast<uint32_t>(rng_.below(omax_ + 1ull)); break;
      }
      if (rng_.chance(1)) in.occ_port = static_cast<uint32_t>(ll::low_mask(cfg_.port_aw()));  // maybe >= Ports
      if (rng_.chance(1)) {  // N-1, N, N+1 of the port range (as far as the port width reaches)
        const uint32_t p = cfg_.Ports - 1 + static_cast<uint32_t>(rng_.below(3));
        if (p <= ll::low_mask(cfg_.port_aw())) in.occ_port = p;
      }
    }
    if (rng_.chance(1)) hot_port_ = static_cast<uint32_t>(rng_.below(cfg_.Ports));
    // packets: hold a stalled one, else a new one on ~80% of cycles per engine
    for (unsigned e = 0; e < cfg_.Engines; ++e) {
      if (hold_[e]) {
        in.valid[e] = true;
        in.hash[e] = held_.hash[e];
        in.mask[e] = held_.mask[e];
        in.grp_en[e] = held_.grp_en[e];
        in.grp[e] = held_.grp[e];
        continue;
      }
      if (!rng_.chance(80)) {
        // idle engines still show random payload (must be ignored)
        in.hash[e] = static_cast<uint32_t>(rng_.next() & ll::low_mask(cfg_.HashW));
        in.mask[e] = rng_.next() & pmask_;
        continue;
      }
      in.valid[e] = true;
      in.hash[e] = rng_.chance(50) ? flows_[rng_.below(flows_.size())]
                                   : static_cast<uint32_t>(rng_.next() & ll::low_mask(cfg_.HashW));
      if (storm_until_ && rng_.chance(90)) {
        // alternate the two flows of this engine's pair most of the time
        const bool other = rng_.chance(80) ? !pair_last_[e] : pair_last_[e];
        pair_last_[e] = other;
        in.hash[e] = pair_[e][other];
      }
      if (rng_.chance(2)) flows_[rng_.below(flows_.size())] = static_cast<uint32_t>(rng_.next() & ll::low_mask(cfg_.HashW));
      in.mask[e] = pick_mask();
      if (storm_until_ && rng_.chance(90)) in.mask[e] = storm_mask_;
      const bool to_sat = sat_port_ >= 0 && rng_.chance(95);
      if (to_sat) in.mask[e] = 1ull << sat_port_;
      if (cfg_.Groups > 0 && !to_sat && rng_.chance(30)) {
        in.grp_en[e] = true;
        in.grp[e] = static_cast<uint32_t>(rng_.below(1ull << cfg_.grp_aw()));
        if (rng_.chance(10)) {  // N-1, N, N+1 of the group range (as far as the id width reaches)
          const uint32_t g = cfg_.Groups - 1 + static_cast<uint32_t>(rng_.below(3));
          if (g <= ll::low_mask(cfg_.grp_aw())) in.grp[e] = g;
        }
      } else {
        in.grp[e] = static_cast<uint32_t>(rng_.below(1ull << cfg_.grp_aw()));
      }
    }
    return in;
  }

 private:
  std::vector<uint32_t> readable() const {
    std::vector<uint32_t> v(std::begin(regs::kReadable), std::end(regs::kReadable));
    for (unsigned p = 1; p < cfg_.Ports; ++p) v.push_back(regs::CNT_PORT_BASE + 4 * p);
    return v;
  }

  // Table commits at N-1, N, N+1 of the table size and at indices whose low bits name a
  // row but whose high bits do not (an index decoder that drops high bits aliases them).
  void boundary_commits() {
    const bool grp = rng_.chance(50);
    const unsigned n = grp ? cfg_.Groups : cfg_.Comps;
    const unsigned aw = grp ? cfg_.grp_aw() : (cfg_.Comps > 1 ? clog2(cfg_.Comps) : 1);
    unsigned idx = n - 1 + static_cast<unsigned>(rng_.below(3));
    const char* bin = idx < n ? "_commit_last" : idx == n ? "_commit_at_limit" : "_commit_above_limit";
    if (rng_.chance(40)) {
      idx = (static_cast<unsigned>(rng_.below(n))) | (1u << rng_.range(aw, 7));
      bin = "_commit_high_bit_alias";
    }
    idx &= 0xFF;
    cov_.hit(std::string(grp ? "group" : "comp") + bin);
    if (grp) program_group(idx);
    else program_component(idx);
  }
  static unsigned clog2(uint64_t n) {
    unsigned b = 0;
    while ((1ull << b) < n) ++b;
    return b;
  }

  void start_storm(uint64_t cycle) {
    storm_until_ = cycle + rng_.range(1500, 4000);
    commit_mode(regs::MODE_FLOW);
    const unsigned faw = cfg_.flow_aw();
    for (unsigned e = 0; e < cfg_.Engines; ++e) {
      const uint32_t a = static_cast<uint32_t>(rng_.next() & ll::low_mask(cfg_.HashW));
      uint32_t b;
      if (rng_.chance(50)) b = a ^ (1u << (cfg_.HashW - 1));  // tags differ in the top bit only
      else b = (static_cast<uint32_t>(rng_.next() & ll::low_mask(cfg_.HashW)) & ~static_cast<uint32_t>(ll::low_mask(faw))) |
               (a & static_cast<uint32_t>(ll::low_mask(faw)));
      if (b == a) b = a ^ (1u << (cfg_.HashW - 1));
      pair_[e][0] = a;
      pair_[e][1] = b;
    }
    storm_mask_ = rng_.chance(50) ? pmask_ : ((rng_.next() | rng_.next()) & pmask_);
    if (!storm_mask_) storm_mask_ = pmask_;
  }

  void storm_ops() {
    const unsigned r = static_cast<unsigned>(rng_.below(100));
    if (r < 40) ops_.push_back({regs::CNT_CLEAR, static_cast<uint32_t>(rng_.range(1, 127))});
    else if (r < 60) ops_.push_back({regs::CNT_PORT_CLEAR_LO, static_cast<uint32_t>(rng_.next())});
    else if (r < 70) ops_.push_back({regs::CNT_PORT_CLEAR_HI, static_cast<uint32_t>(rng_.next())});
    else if (r < 85 && cfg_.Groups > 0) program_component(static_cast<unsigned>(rng_.below(cfg_.Comps)));
    else if (cfg_.Groups > 0) program_group(static_cast<unsigned>(rng_.below(cfg_.Groups)));
    else commit_mode(regs::MODE_FLOW);
  }

  // Same-cycle coincidences the storms aim at.
  void cover_coincidences(const In& in, const Out& o) {
    if (!o.init_done) return;
    if (!programmed_) {
      for (unsigned e = 0; e < cfg_.Engines; ++e)
        if (in.valid[e]) cov_.hit("traffic_before_reprogram");
    }
    if (storm_until_) cov_.hit("storm_cycle");
    // counters: a clear while a decision of the cleared class / port is counted
    if (in.cfg_we && (in.cfg_addr == regs::CNT_CLEAR || in.cfg_addr == regs::CNT_PORT_CLEAR_LO) && in.cfg_wdata) {
      for (unsigned e = 0; e < cfg_.Engines; ++e)
        if (o.out_valid[e]) { cov_.hit("counter_clear_with_increment"); break; }
    }
    // two increments of one port counter in one cycle while it is one below saturation
    const uint64_t max = ll::low_mask(cfg_.CntW);
    for (unsigned e = 0; e < cfg_.Engines; ++e)
      for (unsigned f = e + 1; f < cfg_.Engines; ++f)
        if (o.out_valid[e] && o.out_valid[f] && !o.out_empty[e] && !o.out_empty[f] && o.out_port[e] == o.out_port[f] &&
            model_.port_count(o.out_port[e]) + 1 == max)
          cov_.hit("counter_double_increment_at_max_minus_1");
    // back-to-back flow-table writes to one entry (per-flow mode, consecutive cycles).
    // model_.trace() is still the previous cycle's Q3, whose packet was accepted
    // latency cycles before this one; hist_ holds the accepted hashes (-1: none).
    const unsigned lat = cfg_.latency();
    const uint64_t fmask = ll::low_mask(cfg_.flow_aw());
    for (unsigned e = 0; e < cfg_.Engines; ++e) {
      const dr::Trace& t = model_.trace(e);
      History& h = hist_[e];
      const int64_t hash = h.n == lat ? h.v[h.head] : -1;  // accepted lat cycles ago
      const bool wrote = t.valid && !t.empty && t.kind == dr::kKindFlowNew && hash >= 0;
      const uint64_t idx = wrote ? (static_cast<uint64_t>(hash) & fmask) : 0;
      if (wrote && last_write_[e] && last_idx_[e] == idx) cov_.hit("flow_write_back_to_back_same_entry");
      last_write_[e] = wrote;
      last_idx_[e] = idx;
      h.push(in.valid[e] && o.ready[e] ? static_cast<int64_t>(in.hash[e]) : -1, lat);
    }
  }

  static dr::Config make_cfg(const ll::tb::Params& p) { return dr::Config::from_params(p); }

  uint64_t pick_mask() {
    const unsigned r = static_cast<unsigned>(rng_.below(100));
    uint64_t m;
    if (r < 15) m = 1ull << rng_.below(cfg_.Ports);                        // single
    else if (r < 25) m = (1ull << rng_.below(cfg_.Ports)) | (1ull << rng_.below(cfg_.Ports));  // one or two
    else if (r < 45) m = rng_.next() & rng_.next() & rng_.next();           // sparse
    else if (r < 65) m = rng_.next() | rng_.next();                         // dense
    else if (r < 75) m = pmask_;                                            // all
    else if (r < 77) m = 0;                                                 // empty
    else if (r < 87) m = fixed_mask_;                                       // a stable set (RR, memory)
    else m = rng_.next();
    if (rng_.chance(1)) fixed_mask_ = rng_.chance(30) ? pmask_ : (rng_.next() | rng_.next());
    return m & pmask_;
  }

  uint32_t read_addr() {
    const unsigned r = static_cast<unsigned>(rng_.below(100));
    if (r < 40) return regs::CNT_PORT_BASE + 4 * static_cast<uint32_t>(rng_.below(64));
    if (r < 70) return regs::CNT_ECMP + 4 * static_cast<uint32_t>(rng_.below(8));
    if (r < 95) return static_cast<uint32_t>(rng_.below(0x3C / 4 + 1)) * 4;
    return static_cast<uint32_t>(rng_.below(4096));  // anything, even unaligned
  }

  void commit_mode(uint32_t mode) {
    for (const CfgOp& op : ll::drill::mode_ops(mode)) ops_.push_back(op);
  }

  void program_component(unsigned idx) {
    const uint64_t m = rng_.chance(10) ? 0 : (rng_.chance(50) ? (rng_.next() & pmask_) : (1ull << rng_.below(cfg_.Ports)));
    ops_.push_back({regs::STAGE_MASK_LO, static_cast<uint32_t>(m)});
    ops_.push_back({regs::STAGE_MASK_HI, static_cast<uint32_t>(m >> 32)});
    ops_.push_back({regs::COMP_COMMIT, idx});
  }

  void program_group(unsigned idx) {
    uint32_t w = 0, c = 0;
    for (unsigned s = 0; s < 4; ++s) {
      const uint32_t ws = rng_.chance(25) ? 0 : static_cast<uint32_t>(rng_.range(1, 255));
      const unsigned r = static_cast<unsigned>(rng_.below(100));
      // component ids at N-1, N, N+1 of the table, far beyond it, or any legal one
      const uint32_t cs = r < 5 ? cfg_.Comps - 1 : r < 10 ? cfg_.Comps : r < 13 ? cfg_.Comps + 1
                        : r < 16 ? static_cast<uint32_t>(rng_.range(cfg_.Comps, 255))
                                 : static_cast<uint32_t>(rng_.below(cfg_.Comps));
      if (cs == cfg_.Comps && ws) cov_.hit("group_slot_comp_at_limit");
      w |= ws << (8 * s);
      c |= cs << (8 * s);
    }
    if (rng_.chance(5)) w = 0;  // an empty group
    ops_.push_back({regs::STAGE_GROUP_WEIGHTS, w});
    ops_.push_back({regs::STAGE_GROUP_COMPS, c});
    ops_.push_back({regs::GROUP_COMMIT, idx});
  }

  void program_tables() {
    if (cfg_.Groups > 0) {
      for (unsigned i = 0; i < cfg_.Comps; ++i) program_component(i);
      for (unsigned g = 0; g < cfg_.Groups; ++g) program_group(g);
    }
    commit_mode(static_cast<uint32_t>(rng_.below(5)));
  }

  void reconfigure() {
    const unsigned r = static_cast<unsigned>(rng_.below(100));
    if (r < 15) commit_mode(static_cast<uint32_t>(rng_.range(5, 7)));  // illegal: not committed
    else commit_mode(static_cast<uint32_t>(rng_.below(5)));
    if (cfg_.Groups > 0 && rng_.chance(60)) {
      program_component(static_cast<unsigned>(rng_.below(cfg_.Comps + 1)));  // may be out of range
      program_group(static_cast<unsigned>(rng_.below(cfg_.Groups + 1)));
    }
    if (cfg_.Groups > 0 && rng_.chance(60)) boundary_commits();
    if (rng_.chance(40)) ops_.push_back({regs::CNT_CLEAR, static_cast<uint32_t>(rng_.below(128))});
    if (rng_.chance(30)) ops_.push_back({regs::CNT_PORT_CLEAR_LO, static_cast<uint32_t>(rng_.next())});
    if (rng_.chance(30)) ops_.push_back({regs::CNT_PORT_CLEAR_HI, static_cast<uint32_t>(rng_.next())});
  }

  void cover_inputs(const In& in, const Out& o) {
    if (o.cfg_rvalid) cov_.hit("cfg_read");
    if (!o.init_done) return;
    if (in.cfg_we) {
      switch (in.cfg_addr) {
        case regs::MODE_COMMIT: {
          const uint32_t staged = model_stage_mode_;
          cov_.hit(staged <= 4 ? "mode_commit" : "mode_commit_illegal");
          if (o.out_valid[0]) cov_.hit("mode_commit_under_traffic");
          break;
        }
        case regs::STAGE_MODE: model_stage_mode_ = in.cfg_wdata & 7; break;
        case regs::COMP_COMMIT: cov_.hit((in.cfg_wdata & 0xFF) < cfg_.Comps ? "comp_commit" : "comp_commit_out_of_range"); break;
        case regs::GROUP_COMMIT: cov_.hit((in.cfg_wdata & 0xFF) < cfg_.Groups ? "group_commit" : "group_commit_out_of_range"); break;
        case regs::CNT_CLEAR:
        case regs::CNT_PORT_CLEAR_LO:
        case regs::CNT_PORT_CLEAR_HI:
          if (in.cfg_wdata) cov_.hit("counter_clear");
          break;
        default: break;
      }
    }
    if (in.occ_we) cov_.hit(in.occ_port < cfg_.Ports ? "occ_update" : "occ_update_out_of_range");
    if (in.occ_we && in.occ_value == omax_) cov_.hit("occ_update_max_value");
    for (unsigned e = 0; e < cfg_.Engines; ++e)
      if (in.valid[e] && o.ready[e] && in.grp_en[e] && in.grp[e] >= cfg_.Groups) cov_.hit("group_index_out_of_range");
    unsigned decided = 0;
    unsigned ports[dr::kPortSets];
    for (unsigned e = 0; e < cfg_.Engines; ++e) {
      if (o.out_valid[e] && !o.out_empty[e]) {
        for (unsigned k = 0; k < decided; ++k)
          if (ports[k] == o.out_port[e]) cov_.hit("engines_same_port_same_cycle");
        ports[decided++] = o.out_port[e];
      }
    }
    if (decided > 1) cov_.hit("engines_parallel_decisions");
    const uint64_t max = ll::low_mask(cfg_.CntW);
    for (unsigned p = 0; p < cfg_.Ports; ++p)
      if (model_.port_count(p) == max) {
        cov_.hit("counter_saturated");
        break;
      }
  }

  void cover_decisions(const In& in) {
    for (unsigned e = 0; e < cfg_.Engines; ++e) {
      const dr::Trace& t = model_.trace(e);
      if (!t.valid) continue;
      if (t.empty) {
        cov_.hit("set_empty");
        if (t.grp_used) cov_.hit("comp_empty");
        continue;
      }
      static const char* kinds[] = {"mode_ecmp", "mode_random", "mode_rr", "mode_drill", "mode_flow_new",
                                    "mode_flow_pinned", "set_empty"};
      cov_.hit(kinds[t.kind]);
      const unsigned n = t.set_size;
      if (n == 1) cov_.hit("set_single");
      else if (n == 2) cov_.hit("set_two");
      else if (n <= 8) cov_.hit("set_3_8");
      else if (n <= 32) cov_.hit("set_9_32");
      else cov_.hit("set_33_64");
      if (n == cfg_.Ports) cov_.hit("set_full");
      static const char* const slots[] = {"comp_slot0", "comp_slot1", "comp_slot2", "comp_slot3"};
      if (t.grp_used) cov_.hit(t.grp_slot < 4 ? slots[t.grp_slot] : "comp_slot_out_of_range");
      const bool drill = t.kind == dr::kKindDrill || t.kind == dr::kKindFlowNew;
      if (drill) {
        if (n < cfg_.D) cov_.hit("set_smaller_than_d");
        if (t.rank_tie) cov_.hit("sample_rank_tie");
        if (t.mem_won) cov_.hit("mem_hit");
        if (t.mem_in_set && !t.mem_won) cov_.hit("mem_miss");
        if (t.mem_outside) cov_.hit("mem_outside_set");
        if (t.mem_dup) cov_.hit("mem_equals_sample");
        if (t.tie) cov_.hit("tie");
      }
      if (t.repin) cov_.hit("flow_repin");
      if (t.flow_fwd) cov_.hit("flow_forwarded");
      // an occupancy update of the decided port in the decision cycle (not yet visible)
      if (in.occ_we && in.occ_port == t.port && cfg_.OccLag == 1) cov_.hit("occ_update_at_decision");
      // the view changed at the edge just before the decision, on a sample's port (up to 16
      // ports the RTL reads it one stage ahead, from the next cycle's view) or on a memory
      // entry's (whose occupancy the RTL keeps in a register that follows the updates); and
      // at the edge just after it, on a port this decision puts into the memory
      if (view_changed_before_ >= 0) {
        const uint64_t b = 1ull << view_changed_before_;
        if (t.sample_ports & b) cov_.hit("occ_change_on_sample_before_decision");
        if (t.mem_ports & b) cov_.hit("occ_change_on_memory_before_decision");
      }
      if (model_.view_changed() >= 0 && (t.new_mem_ports >> model_.view_changed()) & 1)
        cov_.hit("occ_change_on_new_memory_entry");
    }
  }

  dr::Config cfg_;
  dr::Model model_;
  Rng rng_;
  Coverage& cov_;
  Dut dut_{"dut"};
  ll::tb::RegPort reg_;
  ll::tb::Wire<bool> rst_n_, occ_we_;
  ll::tb::Wire<bool> valid_[4], ready_[4], grp_en_[4], out_valid_[4], out_empty_[4];
  ll::tb::Wire<PortT<decltype(std::declval<Dut>().e0_hash_i)>> hash_[4];
  ll::tb::Wire<PortT<decltype(std::declval<Dut>().e0_mask_i)>> mask_[4];
  ll::tb::Wire<PortT<decltype(std::declval<Dut>().e0_grp_i)>> grp_[4];
  ll::tb::Wire<PortT<decltype(std::declval<Dut>().e0_out_port_o)>> out_port_[4];
  ll::tb::Wire<PortT<decltype(std::declval<Dut>().occ_port_i)>> occ_port_;
  ll::tb::Wire<PortT<decltype(std::declval<Dut>().occ_value_i)>> occ_value_;

  uint32_t omax_ = 0;
  int view_changed_before_ = -1;   // the port whose view value changed at the last edge
  uint64_t pmask_ = 0, fixed_mask_ = 0xFFFFFFFFFFFFFFFFull;
  std::vector<uint32_t> flows_;
  std::deque<CfgOp> ops_;
  bool programmed_ = false;
  bool hold_[4] = {false, false, false, false};
  In held_;
  uint64_t next_mode_ = 0, next_regime_ = 0;
  unsigned regime_ = 0;
  uint32_t regime_value_ = 0, hot_port_ = 0, model_stage_mode_ = 3;
  // post-reset read-back and delayed programming
  std::vector<uint32_t> probe_ = readable();
  uint64_t program_delay_ = 0, program_at_ = ~0ull;
  // storms
  uint64_t storm_until_ = 0, next_storm_ = ~0ull, storm_mask_ = 0;
  // saturation phases: the port whose counter is driven to saturation (-1: none)
  int sat_port_ = -1;
  uint64_t next_sat_ = 0;
  uint32_t pair_[4][2] = {};
  bool pair_last_[4] = {}, last_write_[4] = {};
  uint64_t last_idx_[4] = {};
  // the last latency() accepted hashes of an engine (-1: none), a ring, oldest at head
  struct History {
    int64_t v[8] = {};
    unsigned head = 0, n = 0;
    void push(int64_t x, unsigned lat) {
      if (n < lat) {
        v[(head + n++) % lat] = x;
      } else {
        v[head] = x;
        head = (head + 1) % lat;
      }
    }
  };
  History hist_[4];
};

}  // namespace

#define LL_TB_BENCH DrillBench
LL_TB_MAIN("drill")
