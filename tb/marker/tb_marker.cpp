// Lockstep testbench of the RED/ECN marker: rtl/marker/marker_top.sv against
// ll::marker::Model, cycle by cycle (harness: tb/common/lockstep.h).
#include <deque>
#include <sstream>

#include "lockstep.h"
#include "common/bits.h"
#include "marker/marker.h"
#include "tb_sets.h"

namespace {

using ll::tb::Coverage;
using ll::tb::Rng;
namespace mk = ll::marker;
namespace regs = ll::marker::regs;

using ll::tb::CfgOp;

template <class Dut>
class MarkerBench {
 public:
  using In = mk::Inputs;
  using Out = mk::Outputs;

  MarkerBench(const ll::tb::Params& p, uint64_t seed, Coverage& cov)
      : cfg_(mk::Config::from_params(p)), model_(cfg_), rng_(seed), cov_(cov),
        shadow_(cfg_.Profiles), qmap_(cfg_.Queues, 0) {
    qmax_ = static_cast<uint32_t>(ll::low_mask(cfg_.QW));
    for (unsigned i = 0; i < 4 && i < cfg_.Queues; ++i) hot_.push_back(static_cast<uint32_t>(rng_.below(cfg_.Queues)));
  }

  Dut& dut() { return dut_; }
  void bind() {
    dut_.rst_ni(rst_n_);
    dut_.ev_valid_i(ev_valid_);
    dut_.ev_ready_o(ev_ready_);
    dut_.ev_deq_i(ev_deq_);
    dut_.ev_queue_i(ev_queue_);
    dut_.ev_qlen_i(ev_qlen_);
    dut_.ev_ect_i(ev_ect_);
    dut_.ev_lossless_i(ev_lossless_);
    dut_.dec_valid_o(dec_valid_);
    dut_.dec_ready_i(dec_ready_);
    dut_.dec_queue_o(dec_queue_);
    dut_.dec_mark_o(dec_mark_);
    dut_.dec_drop_o(dec_drop_);
    reg_.bind(dut_);
  }

  void drive(const In& in) {
    rst_n_.write(in.rst_n);
    ev_valid_.write(in.ev_valid);
    ev_deq_.write(in.ev_deq);
    ev_queue_.write(in.ev_queue);
    ev_qlen_.write(in.ev_qlen);
    ev_ect_.write(in.ev_ect);
    ev_lossless_.write(in.ev_lossless);
    dec_ready_.write(in.dec_ready);
    reg_.drive(in);
  }

  Out sample() const {
    Out o;
    o.ev_ready = ev_ready_.read();
    o.dec_valid = dec_valid_.read();
    o.dec_queue = dec_queue_.read();
    o.dec_mark = dec_mark_.read();
    o.dec_drop = dec_drop_.read();
    reg_.sample(o);
    return o;
  }

  Out expected(const In& in) const { return model_.eval(in); }

  static bool valid(const In& in) { return in.ev_valid; }
  static std::string show(const In& i) {
    std::ostringstream os;
    os << "rst_n=" << i.rst_n << " ev_valid=" << i.ev_valid << " ev_deq=" << i.ev_deq
       << " ev_queue=" << i.ev_queue << " ev_qlen=" << i.ev_qlen << " ev_ect=" << i.ev_ect
       << " ev_lossless=" << i.ev_lossless << " dec_ready=" << i.dec_ready << " cfg_we=" << i.cfg_we
       << " cfg_re=" << i.cfg_re << " cfg_addr=" << ll::tb::hex(i.cfg_addr)
       << " cfg_wdata=" << ll::tb::hex(i.cfg_wdata);
    return os.str();
  }

  // ---- the clock edge of the model, and coverage of what this cycle did
  void tick(const In& in) {
    const Out o = model_.eval(in);
    if (in.rst_n) cover(in, o);
    const bool accepted = in.ev_valid && o.ev_ready;
    hold_ = in.rst_n && in.ev_valid && !accepted;
    held_ = in;
    if (in.rst_n && accepted) {
      if (last_accepted_ && last_queue_ == in.ev_queue) cov_.hit("ewma_forward_back_to_back");
      last_accepted_ = true;
      last_queue_ = in.ev_queue;
    } else {
      last_accepted_ = false;
    }
    if (!in.rst_n) {
      programmed_ = false;  // profiles and qmap return to reset values
      ops_.clear();
      std::fill(shadow_.begin(), shadow_.end(), mk::Profile{});
      std::fill(qmap_.begin(), qmap_.end(), 0u);
    } else if (in.cfg_we && o.init_done) {
      apply_shadow(in);
    }
    model_.tick(in);
  }

  // ---- stimulus for the next cycle
  In stimulus(uint64_t cycle, bool in_reset) {
    In in;
    if (in_reset && cycle < 4) return in;  // quiet power-on reset
    const bool init_done = model_.eval(in).init_done;
    // Configuration: program once after init, then reprogram a profile every few
    // thousand cycles while traffic flows; random reads throughout.
    if (init_done && !programmed_) {
      program_all();
      programmed_ = true;
      next_reprogram_ = cycle + 500 + rng_.below(1000);
    }
    if (init_done && programmed_ && cycle >= next_reprogram_) {
      program_profile(static_cast<unsigned>(rng_.below(cfg_.Profiles)));
      if (rng_.chance(50)) {
        const uint32_t q = static_cast<uint32_t>(rng_.below(cfg_.Queues));
        ops_.push_back({regs::QMAP_WRITE, q | (static_cast<uint32_t>(rng_.below(cfg_.Profiles)) << 16)});
      }
      if (rng_.chance(30)) ops_.push_back({regs::CNT_CLEAR, static_cast<uint32_t>(rng_.range(1, 7))});
      if (rng_.chance(10)) ops_.push_back({regs::PROFILE_COMMIT, static_cast<uint32_t>(rng_.range(cfg_.Profiles, 255))});
      if (rng_.chance(10)) ops_.push_back({regs::QMAP_WRITE, static_cast<uint32_t>(rng_.range(cfg_.Queues, 0xFFFF))});
      next_reprogram_ = cycle + 500 + rng_.below(1000);
    }
    if (!ops_.empty() && rng_.chance(60)) {
      in.cfg_we = true;
      in.cfg_addr = ops_.front().addr;
      in.cfg_wdata = ops_.front().data;
      ops_.pop_front();
    } else if (rng_.chance(3)) {
      in.cfg_we = true;  // a stray write before or after init: staged only, harmless
      in.cfg_addr = regs::STAGE_FLAGS;
      in.cfg_wdata = static_cast<uint32_t>(rng_.next());
      if (init_done) cov_.hit("cfg_stage_without_commit");
    }
    if (rng_.chance(10)) {
      // every readable register of the map (a new one cannot stay unread), plus
      // addresses that decode to nothing
      constexpr size_t kMapped = sizeof(regs::kReadable) / sizeof(regs::kReadable[0]);
      in.cfg_re = true;
      if (!in.cfg_we) {
        const uint64_t pick = rng_.below(kMapped + 1);
        in.cfg_addr = pick < kMapped ? regs::kReadable[pick] : 0x7FCu;
      }
    }
    in.dec_ready = !rng_.chance(20);
    // Events: hold a stalled one, else a new one on ~80% of cycles.
    if (hold_) {
      in.ev_valid = true;
      in.ev_deq = held_.ev_deq;
      in.ev_queue = held_.ev_queue;
      in.ev_qlen = held_.ev_qlen;
      in.ev_ect = held_.ev_ect;
      in.ev_lossless = held_.ev_lossless;
    } else if (rng_.chance(80)) {
      in.ev_valid = true;
      in.ev_queue = rng_.chance(50) ? hot_[rng_.below(hot_.size())]
                                    : static_cast<uint32_t>(rng_.below(cfg_.Queues));
      in.ev_deq = rng_.chance(40);
      const int r = static_cast<int>(rng_.below(100));
      in.ev_ect = r < 60;
      in.ev_lossless = r >= 60 && r < 80 ? true : (r >= 80 ? false : rng_.chance(50));
      in.ev_qlen = pick_qlen(shadow_[qmap_[in.ev_queue]]);
    }
    return in;
  }

 private:
  uint32_t pick_qlen(const mk::Profile& p) {
    const uint32_t lo = std::min(p.kmin, p.kmax), hi = std::max(p.kmin, p.kmax);
    const int r = static_cast<int>(rng_.below(100));
    if (r < 15) return static_cast<uint32_t>(rng_.range(0, lo));
    if (r < 20) return p.kmin;
    if (r < 25) return std::min(p.kmin + 1, qmax_);
    if (r < 30) return p.kmax;
    if (r < 75 && hi > lo) return static_cast<uint32_t>(rng_.range(lo + 1, hi));
    const uint64_t top = std::min<uint64_t>(qmax_, static_cast<uint64_t>(hi) * 2 + 200);
    return static_cast<uint32_t>(rng_.range(std::min<uint64_t>(hi + 1ull, qmax_), top));
  }

  mk::Profile random_profile() {
    const uint32_t qcap = std::min<uint32_t>(qmax_, 400000);
    mk::Profile p;
    const int kind = static_cast<int>(rng_.below(100));
    if (kind < 55) {
      for (int tries = 0; tries < 8; ++tries) {
        const uint32_t kmin = static_cast<uint32_t>(rng_.range(0, qcap / 4));
        const uint32_t kmax = static_cast<uint32_t>(std::min<uint64_t>(qcap, kmin + rng_.range(64, qcap / 2)));
        static const double pm[] = {0.01, 0.05, 0.2, 0.5, 1.0};
        try {
          p = mk::Profile::red(kmin, kmax, pm[rng_.below(5)], cfg_.QW);
          break;
        } catch (const std::invalid_argument&) {
          continue;  // too fine for this QW; draw again
        }
      }
    } else if (kind < 65) {  // coarse probability steps: few random bits decide
      p.kmin = static_cast<uint32_t>(rng_.range(0, qcap / 4));
      const uint32_t span = static_cast<uint32_t>(rng_.range(2, 64));
      p.kmax = p.kmin + span;
      p.e = static_cast<uint32_t>(rng_.range(1, 10));
      p.m = std::max<uint32_t>(1, (1u << p.e) / span);
      p.enable = true;
    } else if (kind < 75) {
      p = mk::Profile::cutoff(static_cast<uint32_t>(rng_.range(0, qcap / 2)), cfg_.QW);
    } else if (kind < 85) {  // nonsense settings the RTL and model must treat alike
      p.kmax = static_cast<uint32_t>(rng_.range(0, qcap / 4));
      p.kmin = p.kmax + static_cast<uint32_t>(rng_.range(1, qcap / 4));
      p.m = static_cast<uint32_t>(rng_.range(1, 0xFFFF));
      p.e = static_cast<uint32_t>(rng_.range(10, 40));
      p.enable = true;
    } else if (kind < 93) {  // slope that exceeds p = 1 before Kmax
      p.kmin = static_cast<uint32_t>(rng_.range(0, qcap / 4));
      p.kmax = p.kmin + static_cast<uint32_t>(rng_.range(1000, qcap / 2));
      p.m = static_cast<uint32_t>(rng_.range(0x8000, 0xFFFF));
      p.e = static_cast<uint32_t>(rng_.range(4, 14));
      p.enable = true;
    } else {  // exponent above 48: acts as 48
      p.kmin = static_cast<uint32_t>(rng_.range(0, qcap / 4));
      p.kmax = p.kmin + static_cast<uint32_t>(rng_.range(1000, qcap / 2));
      p.m = static_cast<uint32_t>(rng_.range(1, 0xFFFF));
      p.e = static_cast<uint32_t>(rng_.range(49, 63));
      p.enable = true;
    }
    p.enable = !rng_.chance(10);
    p.ewma = rng_.chance(30);
    p.deq = rng_.chance(35);
    p.drop = rng_.chance(50);
    p.w = static_cast<uint32_t>(rng_.below(16));
    return p;
  }

  void program_profile(unsigned idx) {
    const mk::Profile p = random_profile();
    ops_.push_back({regs::STAGE_KMIN, p.kmin});
    ops_.push_back({regs::STAGE_KMAX, p.kmax});
    ops_.push_back({regs::STAGE_SLOPE, p.slope_word()});
    ops_.push_back({regs::STAGE_FLAGS, p.flags_word()});
    ops_.push_back({regs::PROFILE_COMMIT, idx});
  }

  void program_all() {
    for (unsigned i = 0; i < cfg_.Profiles; ++i) program_profile(i);
    for (uint32_t q = 0; q < cfg_.Queues; ++q)
      if (rng_.chance(70)) ops_.push_back({regs::QMAP_WRITE, q | (static_cast<uint32_t>(rng_.below(cfg_.Profiles)) << 16)});
    ops_.push_back({regs::QMAP_WRITE, 0xFFFF | (0u << 16)});                     // out-of-range queue
    ops_.push_back({regs::QMAP_WRITE, 0u | (static_cast<uint32_t>(cfg_.Profiles) << 16)});  // bad profile
    ops_.push_back({regs::PROFILE_COMMIT, cfg_.Profiles});                        // bad index
  }

  void apply_shadow(const In& in) {
    switch (in.cfg_addr) {
      case regs::STAGE_KMIN: stage_[0] = in.cfg_wdata; break;
      case regs::STAGE_KMAX: stage_[1] = in.cfg_wdata; break;
      case regs::STAGE_SLOPE: stage_[2] = in.cfg_wdata; break;
      case regs::STAGE_FLAGS: stage_[3] = in.cfg_wdata; break;
      case regs::PROFILE_COMMIT:
        if (in.cfg_wdata < cfg_.Profiles) {
          mk::Profile& p = shadow_[in.cfg_wdata & 0xFF];
          p.kmin = static_cast<uint32_t>(stage_[0] & qmax_);
          p.kmax = static_cast<uint32_t>(stage_[1] & qmax_);
          p.m = stage_[2] & 0xFFFF;
          p.e = (stage_[2] >> 16) & 0x3F;
          p.enable = stage_[3] & 1;
          p.ewma = stage_[3] & 2;
          p.deq = stage_[3] & 4;
          p.drop = stage_[3] & 8;
          p.w = (stage_[3] >> 4) & 0xF;
          if (in_flight_) cov_.hit("config_commit_under_traffic");
          if (p.kmin > p.kmax) cov_.hit("profile_kmin_gt_kmax");
          if (p.kmax > p.kmin && p.probability(p.kmax) >= 1.0 && static_cast<double>(p.kmax - p.kmin) * p.m > std::ldexp(1.0, static_cast<int>(std::min(p.e, 48u)))) cov_.hit("profile_p_above_1");
          if (p.e > 48) cov_.hit("profile_e_above_48");
        } else {
          cov_.hit("commit_index_out_of_range");
        }
        break;
      case regs::QMAP_WRITE: {
        const uint32_t q = in.cfg_wdata & 0xFFFF, pid = (in.cfg_wdata >> 16) & 0xFF;
        if (q < cfg_.Queues && pid < cfg_.Profiles) qmap_[q] = pid;
        else cov_.hit("qmap_write_out_of_range");
        break;
      }
      case regs::CNT_CLEAR: cov_.hit("counter_clear"); break;
      default: break;
    }
  }

  void cover(const In& in, const Out& o) {
    in_flight_ = o.dec_valid || (in.ev_valid && o.ev_ready);
    if (in.ev_valid && !o.ev_ready && o.init_done) cov_.hit("event_stall");
    if (o.dec_valid && !in.dec_ready) cov_.hit("result_stall");
    if (o.cfg_rvalid) cov_.hit("cfg_read");
    if (o.dec_valid && in.dec_ready) {
      if (o.dec_mark) cov_.hit("result_mark");
      if (o.dec_drop) cov_.hit("result_drop");
      if (!o.dec_mark && !o.dec_drop) cov_.hit("result_pass");
    }
    if (in.ev_valid && o.ev_ready) {
      const mk::Profile& p = shadow_[qmap_[in.ev_queue]];
      if (!p.enable) { cov_.hit("profile_disabled"); return; }
      const uint32_t q = in.ev_qlen;
      if (p.kmin == p.kmax) cov_.hit(q > p.kmax ? "cutoff_above" : "cutoff_below");
      if (p.kmin < p.kmax) {
        if (q < p.kmin) cov_.hit("q_below_kmin");
        else if (q == p.kmin) cov_.hit("q_at_kmin");
        else if (q == p.kmin + 1) cov_.hit("q_at_kmin_plus_1");
        else if (q == p.kmax) cov_.hit("q_at_kmax");
        else if (q > p.kmax) cov_.hit("q_above_kmax");
        else cov_.hit("q_linear_part" + std::to_string(1 + (4ull * (q - p.kmin - 1)) / (p.kmax - p.kmin)));
      }
      cov_.hit(p.ewma ? "mode_ewma" : "mode_instantaneous");
      cov_.hit(in.ev_deq ? "event_dequeue" : "event_enqueue");
      if (in.ev_deq == p.deq) cov_.hit(p.deq ? "decide_at_dequeue" : "decide_at_enqueue");
      cov_.hit(in.ev_ect ? "ect" : (in.ev_lossless ? "not_ect_lossless" : "not_ect_lossy"));
      if (!in.ev_ect && !in.ev_lossless && p.drop) cov_.hit("not_ect_lossy_drop_enabled");
    }
    const uint64_t max = (cfg_.CntW >= 32) ? 0xFFFFFFFFull : ((1ull << cfg_.CntW) - 1);
    if (model_.decisions() == max && o.dec_valid) cov_.hit("counter_saturated_decisions");
    if (model_.marks() == max) cov_.hit("counter_saturated_marks");
  }

  mk::Config cfg_;
  mk::Model model_;
  Rng rng_;
  Coverage& cov_;
  Dut dut_{"dut"};
  ll::tb::RegPort reg_;
  sc_signal<bool> rst_n_, ev_valid_, ev_ready_, ev_deq_, ev_ect_, ev_lossless_, dec_valid_,
      dec_ready_, dec_mark_, dec_drop_;
  sc_signal<uint32_t> ev_queue_, ev_qlen_, dec_queue_;

  std::vector<mk::Profile> shadow_;
  std::vector<uint32_t> qmap_;
  std::vector<uint32_t> hot_;
  uint32_t stage_[4] = {0, 0, 0, 0};
  uint32_t qmax_ = 0;
  std::deque<CfgOp> ops_;
  bool programmed_ = false, hold_ = false, in_flight_ = false, last_accepted_ = false;
  uint32_t last_queue_ = 0;
  uint64_t next_reprogram_ = 0;
  In held_;
};

}  // namespace

#define LL_TB_BENCH MarkerBench
LL_TB_MAIN("marker")
