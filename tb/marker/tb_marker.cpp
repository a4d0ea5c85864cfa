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
    // the EWMA words an event must take from the pipeline instead of the RAM: those of
    // enqueues to its queue accepted 1, 2 or 3 cycles before it (three forwarding paths)
    if (in.rst_n && accepted) {
      if (recent_enq_.at(1, in.ev_queue)) cov_.hit("ewma_forward_back_to_back");
      if (recent_enq_.at(2, in.ev_queue)) cov_.hit("ewma_forward_gap_1");
      if (recent_enq_.at(3, in.ev_queue)) cov_.hit("ewma_forward_gap_2");
    }
    recent_enq_.push(in.rst_n && accepted && !in.ev_deq, in.ev_queue);
    if (!in.rst_n) {
      programmed_ = false;  // profiles and qmap return to reset values
      ops_.clear();
      std::fill(shadow_.begin(), shadow_.end(), mk::Profile{});
      std::fill(qmap_.begin(), qmap_.end(), 0u);
      std::fill(stage_, stage_ + 4, 0u);
      // After a reset: read every register back before anything is written (each must
      // show its reset value), and in most resets let traffic run on the reset
      // (disabled) profiles for a while before the bench reprograms.
      probe_.assign(std::begin(regs::kReadable), std::end(regs::kReadable));
      program_delay_ = rng_.chance(75) ? rng_.range(30, 300) : 0;
      program_at_ = ~0ull;
      s0_valid_ = false;
      storm_until_ = 0;
    } else {
      if (in.cfg_we && o.init_done) apply_shadow(in);
      track_pipeline(in, o);
    }
    model_.tick(in);
  }

  // ---- stimulus for the next cycle
  In stimulus(uint64_t cycle, bool in_reset) {
    In in;
    if (in_reset && cycle < 4) return in;  // quiet power-on reset
    const bool init_done = model_.eval(in).init_done;
    // Configuration: program once after init (after the post-reset read-back and, in
    // some resets, a delay with traffic on the reset profiles), then reprogram a
    // profile every few thousand cycles while traffic flows; random reads throughout.
    if (init_done && !programmed_ && probe_.empty() && program_at_ == ~0ull) program_at_ = cycle + program_delay_;
    if (init_done && !programmed_ && cycle >= program_at_) {
      program_all();
      programmed_ = true;
      next_reprogram_ = cycle + 500 + rng_.below(1000);
      next_storm_ = cycle + rng_.range(2000, 30000);
    }
    // Storm phases: for a few thousand cycles, traffic on two queues of one profile
    // while that profile is recommitted, its queues remapped, and counters cleared,
    // every few cycles (same-cycle collisions of configuration with traffic).
    if (init_done && programmed_ && storm_until_ == 0 && cycle >= next_storm_) start_storm(cycle);
    if (storm_until_ && cycle >= storm_until_) {
      storm_until_ = 0;
      next_storm_ = cycle + rng_.range(10000, 60000);
    }
    if (storm_until_ && ops_.size() < 4) storm_ops();
    if (init_done && programmed_ && cycle >= next_reprogram_) {
      if (rng_.chance(80)) boundary_ops();
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
    if (!ops_.empty() && probe_.empty() && rng_.chance(storm_until_ ? 90 : 60)) {
      in.cfg_we = true;
      in.cfg_addr = ops_.front().addr;
      in.cfg_wdata = ops_.front().data;
      ops_.pop_front();
    } else if (probe_.empty() && rng_.chance(3)) {
      in.cfg_we = true;  // a stray write before or after init: staged only, harmless
      in.cfg_addr = regs::STAGE_FLAGS;
      in.cfg_wdata = static_cast<uint32_t>(rng_.next());
      if (init_done) cov_.hit("cfg_stage_without_commit");
    }
    if (!probe_.empty() && !in.cfg_we) {
      in.cfg_re = true;
      in.cfg_addr = probe_.back();
      probe_.pop_back();
      cov_.hit("reset_register_read_back");
    } else if (counter_watch() && !in.cfg_we) {
      in.cfg_re = true;  // a counter near its saturation value: read it every cycle
      in.cfg_addr = rng_.chance(50) ? regs::CNT_DECISIONS : regs::CNT_MARKS;
    } else if (rng_.chance(10)) {
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
    } else if (rng_.chance(storm_until_ ? 95 : 80)) {
      in.ev_valid = true;
      if (storm_until_) in.ev_queue = storm_q_[rng_.below(2)];
      else if (alias_left_ && rng_.chance(50)) { in.ev_queue = alias_q_; --alias_left_; }
      else in.ev_queue = rng_.chance(50) ? hot_[rng_.below(hot_.size())]
                                         : static_cast<uint32_t>(rng_.below(cfg_.Queues));
      in.ev_deq = rng_.chance(40);
      const int r = static_cast<int>(rng_.below(100));
      in.ev_ect = r < 60;
      in.ev_lossless = r >= 60 && r < 80 ? true : (r >= 80 ? false : rng_.chance(50));
      in.ev_qlen = pick_qlen(storm_until_ && rng_.chance(50) ? staged_profile() : shadow_[qmap_[in.ev_queue]]);
    }
    return in;
  }

 private:
  // The profile the stage registers hold (what the next commit installs).
  mk::Profile staged_profile() const {
    mk::Profile p;
    p.kmin = static_cast<uint32_t>(stage_[0] & qmax_);
    p.kmax = static_cast<uint32_t>(stage_[1] & qmax_);
    p.m = stage_[2] & 0xFFFF;
    p.e = (stage_[2] >> 16) & 0x3F;
    p.enable = stage_[3] & 1;
    return p;
  }

  static unsigned clog2(uint64_t n) {
    unsigned b = 0;
    while ((1ull << b) < n) ++b;
    return b;
  }
  unsigned qidx_w() const { return clog2(cfg_.Queues); }
  unsigned pid_w() const { return cfg_.Profiles > 1 ? clog2(cfg_.Profiles) : 1; }
  uint64_t cnt_max() const { return (cfg_.CntW >= 32) ? 0xFFFFFFFFull : ((1ull << cfg_.CntW) - 1); }
  // A statistics counter within 3 below its saturation value: read it every cycle.
  bool counter_watch() const {
    const uint64_t m = cnt_max();
    auto near = [m](uint64_t v) { return v + 3 >= m && v < m; };
    return cfg_.CntW < 32 && (near(model_.decisions()) || near(model_.marks()));
  }

  void start_storm(uint64_t cycle) {
    storm_until_ = cycle + rng_.range(1500, 4000);
    storm_p_ = static_cast<uint32_t>(rng_.below(cfg_.Profiles));
    for (auto& q : storm_q_) {
      q = static_cast<uint32_t>(rng_.below(cfg_.Queues));
      ops_.push_back({regs::QMAP_WRITE, q | (storm_p_ << 16)});
    }
  }

  // One batch of storm configuration: restage and recommit the storm profile (often
  // with only Kmax or Kmin changed, so a torn snapshot shows), remap a storm queue, clear
  // counters.
  void storm_ops() {
    const int r = static_cast<int>(rng_.below(100));
    if (r < 50) {
      const mk::Profile cur = shadow_[storm_p_];
      mk::Profile p = random_profile();
      if (rng_.chance(50) && cur.enable) {  // move one threshold only
        p = cur;
        if (rng_.chance(50)) p.kmax = static_cast<uint32_t>(rng_.range(cur.kmin, std::min<uint64_t>(qmax_, cur.kmax * 2ull + 64)));
        else p.kmin = static_cast<uint32_t>(rng_.range(0, cur.kmax));
      }
      for (const CfgOp& op : mk::profile_ops(storm_p_, p)) ops_.push_back(op);
    } else if (r < 75) {
      const uint32_t q = storm_q_[rng_.below(2)];
      const uint32_t pid = rng_.chance(70) ? storm_p_ : static_cast<uint32_t>(rng_.below(cfg_.Profiles));
      ops_.push_back({regs::QMAP_WRITE, q | (pid << 16)});
    } else {
      ops_.push_back({regs::CNT_CLEAR, static_cast<uint32_t>(rng_.range(1, 7))});
    }
  }

  // Range-checked register fields at N-1, N, N+1 of their limits, and values whose low
  // bits name a valid entry but whose high bits do not (a decoder that drops high bits
  // aliases them). Illegal writes name a profile different from the aliased entry's, and
  // traffic then goes to the aliased queue, so an accepted illegal write shows.
  void boundary_ops() {
    const uint32_t qmask = static_cast<uint32_t>(ll::low_mask(qidx_w()));
    const uint32_t pmask = cfg_.Profiles > 1 ? static_cast<uint32_t>(ll::low_mask(pid_w())) : 1u;
    const unsigned kind = static_cast<unsigned>(rng_.below(4));
    if (kind == 0) {  // queue id at the limit
      const uint32_t q = static_cast<uint32_t>(cfg_.Queues) - 1 + static_cast<uint32_t>(rng_.below(3));
      const uint32_t alias = q & qmask;
      const uint32_t pid = other_profile(alias < cfg_.Queues ? qmap_[alias] : 0);
      ops_.push_back({regs::QMAP_WRITE, q | (pid << 16)});
      cov_.hit(q < cfg_.Queues ? "qmap_queue_at_limit_minus_1" : (q == cfg_.Queues ? "qmap_queue_at_limit" : "qmap_queue_at_limit_plus_1"));
      if (alias < cfg_.Queues) aim(alias);
    } else if (kind == 1) {  // queue id with one high bit above the index width set
      const uint32_t low = static_cast<uint32_t>(rng_.below(cfg_.Queues));
      const unsigned bit = static_cast<unsigned>(rng_.range(qidx_w(), 15));
      ops_.push_back({regs::QMAP_WRITE, (low | (1u << bit)) | (other_profile(qmap_[low]) << 16)});
      cov_.hit("qmap_queue_high_bit_alias");
      aim(low);
    } else if (kind == 2) {  // profile id at the limit or aliasing
      const uint32_t q = static_cast<uint32_t>(rng_.below(cfg_.Queues));
      uint32_t pid = static_cast<uint32_t>(cfg_.Profiles) - 1 + static_cast<uint32_t>(rng_.below(3));
      if (rng_.chance(50)) pid = (other_profile(qmap_[q]) | (1u << rng_.range(pid_w(), 7))) & 0xFF;
      ops_.push_back({regs::QMAP_WRITE, q | (pid << 16)});
      cov_.hit(pid < cfg_.Profiles ? "qmap_profile_legal" : (pid == cfg_.Profiles ? "qmap_profile_at_limit" : "qmap_profile_above_limit"));
      aim(q);
    } else {  // commit index at the limit or aliasing a live profile
      const mk::Profile p = random_profile();
      ops_.push_back({regs::STAGE_KMIN, p.kmin});
      ops_.push_back({regs::STAGE_KMAX, p.kmax});
      ops_.push_back({regs::STAGE_SLOPE, p.slope_word()});
      ops_.push_back({regs::STAGE_FLAGS, p.flags_word() | 1u});
      uint32_t idx = static_cast<uint32_t>(cfg_.Profiles) - 1 + static_cast<uint32_t>(rng_.below(3));
      if (rng_.chance(60)) idx = (static_cast<uint32_t>(rng_.below(cfg_.Profiles)) & pmask) | (1u << rng_.range(pid_w(), 7));
      idx &= 0xFF;
      ops_.push_back({regs::PROFILE_COMMIT, idx});
      cov_.hit(idx < cfg_.Profiles ? "commit_index_legal_last" : (idx == cfg_.Profiles ? "commit_index_at_limit" : "commit_index_above_limit"));
      for (uint32_t q = 0; q < cfg_.Queues; ++q)
        if (qmap_[q] == (idx & pmask)) { aim(q); break; }
    }
  }
  uint32_t other_profile(uint32_t pid) {
    if (cfg_.Profiles < 2) return 0;
    return static_cast<uint32_t>((pid + 1 + rng_.below(cfg_.Profiles - 1)) % cfg_.Profiles);
  }
  void aim(uint32_t q) {  // send half of the next events to queue q
    alias_q_ = q;
    alias_left_ = 200;
  }

  // The pipeline position of the event in S1 (it reads its profile row there), for the
  // coincidence bins. adv == ev_ready once init is done.
  void track_pipeline(const In& in, const Out& o) {
    if (!o.init_done) return;
    const bool adv = o.ev_ready;
    const bool accepted = in.ev_valid && o.ev_ready;
    if (in.cfg_we) {
      if (in.cfg_addr == regs::PROFILE_COMMIT && in.cfg_wdata < cfg_.Profiles && adv && s0_valid_ &&
          s0_pid_ == in.cfg_wdata)
        cov_.hit("commit_same_cycle_as_profile_read");
      if (in.cfg_addr == regs::QMAP_WRITE && accepted && (in.cfg_wdata & 0xFFFF) == in.ev_queue)
        cov_.hit("qmap_write_same_cycle_as_event");
      if (in.cfg_addr == regs::CNT_CLEAR && (in.cfg_wdata & 1) && o.dec_valid && in.dec_ready && leave_prev_)
        cov_.hit("counter_clear_with_increment");
    }
    if (o.cfg_rvalid && cfg_.CntW < 32) {
      const uint64_t m = cnt_max();
      if (last_read_addr_ == regs::CNT_DECISIONS || last_read_addr_ == regs::CNT_MARKS) {
        if (o.cfg_rdata == m - 1) cov_.hit("counter_read_at_max_minus_1");
        if (o.cfg_rdata == m) cov_.hit("counter_read_at_max");
      }
    }
    if (in.cfg_re) last_read_addr_ = in.cfg_addr;
    // leave (S4 -> out) in the next cycle is likely when the output advances now
    leave_prev_ = adv;
    if (adv) {
      s0_valid_ = accepted;
      s0_pid_ = accepted ? qmap_[in.ev_queue] : 0;
    }
  }

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
    } else if (kind < 96) {  // exponent at the 48 limit: 47, 48, 49, 50
      p.kmin = static_cast<uint32_t>(rng_.range(0, qcap / 4));
      p.kmax = p.kmin + static_cast<uint32_t>(rng_.range(1000, qcap / 2));
      p.m = static_cast<uint32_t>(rng_.range(1, 0xFFFF));
      p.e = static_cast<uint32_t>(rng_.range(47, 50));
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
    for (const CfgOp& op : mk::profile_ops(idx, random_profile())) ops_.push_back(op);
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
          if (p.e == 48) cov_.hit("profile_e_at_48");
          if (p.e == 49) cov_.hit("profile_e_at_49");
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
    if (in.ev_valid && o.ev_ready && !programmed_) cov_.hit("traffic_before_reprogram");
    if (in.ev_valid && o.ev_ready && storm_until_) cov_.hit("storm_event");
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
  ll::tb::Wire<bool> rst_n_, ev_valid_, ev_ready_, ev_deq_, ev_ect_, ev_lossless_, dec_valid_,
      dec_ready_, dec_mark_, dec_drop_;
  ll::tb::Wire<uint32_t> ev_queue_, ev_qlen_, dec_queue_;

  std::vector<mk::Profile> shadow_;
  std::vector<uint32_t> qmap_;
  std::vector<uint32_t> hot_;
  uint32_t stage_[4] = {0, 0, 0, 0};
  uint32_t qmax_ = 0;
  std::deque<CfgOp> ops_;
  bool programmed_ = false, hold_ = false, in_flight_ = false;
  ll::tb::RecentKeys<3> recent_enq_;  // the queues of the enqueues accepted in the last 3 cycles
  uint64_t next_reprogram_ = 0;
  // post-reset read-back and delayed programming
  std::vector<uint32_t> probe_{std::begin(regs::kReadable), std::end(regs::kReadable)};
  uint64_t program_delay_ = 0, program_at_ = ~0ull;
  // storms and boundary stimulus
  uint64_t storm_until_ = 0, next_storm_ = ~0ull;
  uint32_t storm_p_ = 0, storm_q_[2] = {0, 0};
  uint32_t alias_q_ = 0, alias_left_ = 0;
  // coincidence tracking
  bool s0_valid_ = false, leave_prev_ = false;
  uint32_t s0_pid_ = 0, last_read_addr_ = 0;
  In held_;
};

}  // namespace

#define LL_TB_BENCH MarkerBench
LL_TB_MAIN("marker")
