// Lockstep testbench of the PFC block: rtl/pfc/pfc_top.sv against ll::pfc::Model, cycle
// by cycle (harness: tb/common/lockstep.h). Test plan: tb/pfc/testplan.md.
//
// Stimulus: the configuration is re-drawn every few ten thousand cycles (small buffers and
// short tick timers, so every threshold, pool limit and timer is reached often), then
// traffic of a small switch: admissions (70-90% of cycles), departures of packets the
// model admitted (from egress queues that are not paused, as a scheduler would), PFC
// entries from upstream (random PAUSE/RESUME with short quanta, plus a "storm" source that
// keeps one lossless egress queue paused until the watchdog fires, then stops), ticks
// every 30-90 cycles (sometimes faster than a timer pass), register reads, STAT_CMDs,
// counter clears and commits under traffic. Every valid/ready input holds while stalled.
#include <algorithm>
#include <deque>
#include <numeric>
#include <sstream>

#include "lockstep.h"
#include "common/bits.h"
#include "pfc/pfc.h"
#include "tb_sets.h"

namespace {

using ll::tb::Coverage;
using ll::tb::Rng;
namespace pf = ll::pfc;
namespace regs = ll::pfc::regs;

using ll::tb::CfgOp;
constexpr uint32_t kSpeeds[] = {10, 25, 40, 100, 400};  // LINK_GBPS values the bench programs

struct Pkt {
  uint32_t iport, eport, prio, len;
  bool ll;
};

template <class Dut>
class PfcBench {
 public:
  using In = pf::Inputs;
  using Out = pf::Outputs;

  PfcBench(const ll::tb::Params& p, uint64_t seed, Coverage& cov)
      : cfg_(pf::Config::from_params(p)), model_(cfg_), rng_(seed), clr_rng_(seed ^ 0x5eedc1ea),
        aim_rng_(seed ^ 0xa1b0a1b0), cov_(cov),
        eq_(cfg_.entries()) {
    cmax_ = static_cast<uint32_t>(ll::low_mask(cfg_.CntW));
    smax_ = ll::low_mask(cfg_.StatW);
  }

  Dut& dut() { return dut_; }
  void bind() {
    dut_.rst_ni(rst_n_);
    dut_.adm_valid_i(adm_valid_);
    dut_.adm_ready_o(adm_ready_);
    dut_.adm_iport_i(adm_iport_);
    dut_.adm_eport_i(adm_eport_);
    dut_.adm_prio_i(adm_prio_);
    dut_.adm_len_i(adm_len_);
    dut_.adm_lossless_i(adm_ll_);
    dut_.dec_valid_o(dec_valid_);
    dut_.dec_o(dec_);
    dut_.dec_why_o(dec_why_);
    dut_.dep_valid_i(dep_valid_);
    dut_.dep_ready_o(dep_ready_);
    dut_.dep_iport_i(dep_iport_);
    dut_.dep_eport_i(dep_eport_);
    dut_.dep_prio_i(dep_prio_);
    dut_.dep_len_i(dep_len_);
    dut_.dep_lossless_i(dep_ll_);
    dut_.pfc_valid_i(pfc_valid_);
    dut_.pfc_ready_o(pfc_ready_);
    dut_.pfc_port_i(pfc_port_);
    dut_.pfc_prio_i(pfc_prio_);
    dut_.pfc_quanta_i(pfc_quanta_);
    dut_.tick_i(tick_);
    dut_.pause_valid_o(pause_valid_);
    dut_.pause_port_o(pause_port_);
    dut_.pause_prio_o(pause_prio_);
    dut_.pause_quanta_o(pause_quanta_);
    dut_.eg_qport_i(eg_qport_);
    dut_.eg_paused_o(eg_paused_);
    dut_.eg_storm_o(eg_storm_);
    reg_.bind(dut_);
  }

  void drive(const In& in) {
    rst_n_.write(in.rst_n);
    adm_valid_.write(in.adm_valid);
    adm_iport_.write(in.adm_iport);
    adm_eport_.write(in.adm_eport);
    adm_prio_.write(in.adm_prio);
    adm_len_.write(in.adm_len);
    adm_ll_.write(in.adm_lossless);
    dep_valid_.write(in.dep_valid);
    dep_iport_.write(in.dep_iport);
    dep_eport_.write(in.dep_eport);
    dep_prio_.write(in.dep_prio);
    dep_len_.write(in.dep_len);
    dep_ll_.write(in.dep_lossless);
    pfc_valid_.write(in.pfc_valid);
    pfc_port_.write(in.pfc_port);
    pfc_prio_.write(in.pfc_prio);
    pfc_quanta_.write(in.pfc_quanta);
    tick_.write(in.tick);
    eg_qport_.write(in.eg_qport);
    reg_.drive(in);
  }

  Out sample() const {
    Out o;
    o.adm_ready = adm_ready_.read();
    o.dep_ready = dep_ready_.read();
    o.pfc_ready = pfc_ready_.read();
    o.dec_valid = dec_valid_.read();
    o.dec = dec_.read();
    o.dec_why = dec_why_.read();
    o.pause_valid = pause_valid_.read();
    o.pause_port = pause_port_.read();
    o.pause_prio = pause_prio_.read();
    o.pause_quanta = pause_quanta_.read();
    o.eg_paused = eg_paused_.read();
    o.eg_storm = eg_storm_.read();
    reg_.sample(o);
    return o;
  }

  Out expected(const In& in) const { return model_.eval(in); }

  static bool valid(const In& in) { return in.adm_valid || in.dep_valid || in.pfc_valid; }
  static std::string show(const In& i) {
    std::ostringstream os;
    os << "rst_n=" << i.rst_n << " adm=" << i.adm_valid << "(" << i.adm_iport << "->" << i.adm_eport
       << " p" << i.adm_prio << " len=" << i.adm_len << " ll=" << i.adm_lossless << ") dep=" << i.dep_valid
       << "(" << i.dep_iport << "->" << i.dep_eport << " p" << i.dep_prio << " len=" << i.dep_len
       << " ll=" << i.dep_lossless << ") pfc=" << i.pfc_valid << "(port " << i.pfc_port << " p"
       << i.pfc_prio << " q=" << i.pfc_quanta << ") tick=" << i.tick << " eg_qport=" << i.eg_qport
       << " cfg_we=" << i.cfg_we << " cfg_re=" << i.cfg_re << " cfg_addr=" << ll::tb::hex(i.cfg_addr)
       << " cfg_wdata=" << ll::tb::hex(i.cfg_wdata);
    return os.str();
  }

  // ---- the clock edge of the model, bookkeeping of the traffic, coverage
  void tick(const In& in) {
    const Out o = model_.eval(in);
    const bool adm_acc = in.rst_n && in.adm_valid && o.adm_ready;
    const bool dep_acc = in.rst_n && in.dep_valid && o.dep_ready;
    const bool pfc_acc = in.rst_n && in.pfc_valid && o.pfc_ready;
    if (in.rst_n) cover_inputs(in, o);
    hold_adm_ = in.rst_n && in.adm_valid && !adm_acc;
    hold_dep_ = in.rst_n && in.dep_valid && !dep_acc;
    hold_pfc_ = in.rst_n && in.pfc_valid && !pfc_acc;
    held_ = in;
    model_.tick(in);
    if (!in.rst_n) {
      programmed_ = false;
      ops_.clear();
      commit_next_ = false;
      pend_.clear();
      for (auto& q : eq_) q.clear();
      storm_on_ = false;
      // After a reset: read every register back before anything is written (each must
      // show its reset value), and in most resets let traffic run on the reset
      // configuration for a while before reprogramming a random one.
      probe_.assign(std::begin(regs::kReadable), std::end(regs::kReadable));
      program_delay_ = rng_.chance(75) ? rng_.range(30, 300) : 0;
      program_at_ = ~0ull;
      tick_storm_until_ = 0;
      ticks_since_pass_ = 0;
      sh_restore_at_ = hdrm_restore_at_ = 0;
      xon_live_ = model_.live().xon_offset;
      sh_live_ = model_.live().shared_size;
      xon_age_ = sh_age_ = ~0u;
      hdrm_live_ = model_.live().hdrm;
      hdrm_age_.fill(~0u);
      return;
    }
    if (model_.trace().sweep_start) ticks_since_pass_ = in.tick ? 1 : 0;
    else if (in.tick) ++ticks_since_pass_;
    if (ticks_since_pass_ == 14 && in.tick) cov_.hit("tick_backlog_at_14");
    if (ticks_since_pass_ == 15 && in.tick) cov_.hit("tick_backlog_at_15");
    if (ticks_since_pass_ > 15 && in.tick) cov_.hit("tick_backlog_saturated");
    if (o.dec_valid) {  // the decision of the oldest pending admission
      if (!pend_.empty()) {
        const Pkt pk = pend_.front();
        pend_.pop_front();
        if (o.dec != 2) eq_[pk.eport * 8 + pk.prio].push_back(pk);
      }
    }
    if (adm_acc) pend_.push_back({in.adm_iport, in.adm_eport, in.adm_prio, in.adm_len, in.adm_lossless});
    cover_model();
  }

  // ---- stimulus for the next cycle
  In stimulus(uint64_t cycle, bool in_reset) {
    In in;
    in.eg_qport = static_cast<uint32_t>(rng_.below(cfg_.Ports));
    if (in_reset && cycle < 4) return in;  // quiet power-on reset; traffic goes on during the mid-run reset
    const bool idone = model_.eval(in).init_done;
    if (idone && !programmed_ && probe_.empty() && program_at_ == ~0ull) program_at_ = cycle + program_delay_;
    if (idone && !programmed_ && cycle >= program_at_) {
      program();
      programmed_ = true;
      next_program_ = cycle + 20000 + rng_.below(40000);
    } else if (idone && cycle >= next_program_) {
      program();
      next_program_ = cycle + 20000 + rng_.below(40000);
    }
    // timer base; tick storms: a tick on (almost) every cycle for a while, so the pending
    // ticks of the timer sweep pile up to the saturation of the backlog (15)
    if (idone && programmed_ && tick_storm_until_ == 0 && cycle >= next_tick_storm_) {
      tick_storm_until_ = cycle + rng_.range(100, 600);
      next_tick_storm_ = tick_storm_until_ + rng_.range(5000, 40000);
    }
    if (tick_storm_until_ && cycle >= tick_storm_until_) tick_storm_until_ = 0;
    if (cycle >= next_tick_ || (tick_storm_until_ && rng_.chance(90))) {
      in.tick = true;
      next_tick_ = cycle + tick_lo_ + rng_.below(tick_hi_ - tick_lo_ + 1);
    }
    if (in.tick) ++ticks_;
    // link speed changes while a timer pass runs: LINK_GBPS and COMMIT a few cycles after the
    // pass starts, so the COMMIT meets sweep ops whose countdown bits are being formed (bin
    // speed_commit_on_sweep); QUANTA is staged again at its live value first, since the
    // random QUANTA writes below are meant to stay uncommitted
    if (idone && programmed_ && ops_.empty() && burst_ == 0 && model_.trace().sweep_start && rng_.chance(3)) {
      size_t now = 0;  // another speed than the live one
      while (now < 4 && kSpeeds[now] != model_.live().gbps) ++now;
      ops_.push_back({regs::QUANTA, model_.live().quanta});
      ops_.push_back({regs::LINK_GBPS, kSpeeds[(now + 1 + rng_.below(4)) % 5]});
      ops_.push_back({regs::COMMIT, 1});
    }
    // register traffic
    if (commit_next_) {  // right behind a staged RSV / HDRM write (below)
      in.cfg_we = true;
      in.cfg_addr = regs::COMMIT;
      in.cfg_wdata = 1;
      commit_next_ = false;
    } else if (!ops_.empty() && probe_.empty() && rng_.chance(50)) {
      in.cfg_we = true;
      in.cfg_addr = ops_.front().addr;
      in.cfg_wdata = ops_.front().data;
      ops_.pop_front();
    } else if (idone && probe_.empty() && burst_) {
      // the same command again in the next cycles: a STAT_CMD while the previous one
      // executes, a HDR_PEAK clear in the cycle the peak rises again after the last clear
      in.cfg_we = true;
      in.cfg_addr = burst_addr_;
      in.cfg_wdata = burst_addr_ == regs::STAT_CMD
                         ? 1u | (rng_.chance(50) ? static_cast<uint32_t>(rng_.below(256)) << 8 : 0u)
                         : 1u << 12;
      // after the last HDR_PEAK clear of a burst, read the peak at once: a clear that lost
      // to the rising peak shows there
      if (--burst_ == 0 && burst_addr_ == regs::CLEAR) readback_ = regs::HDR_PEAK;
    } else if (idone && probe_.empty() && rng_.chance(1)) {
      boundary_write(in);
    } else if (idone && probe_.empty() && rng_.chance(1)) {
      const int k = static_cast<int>(rng_.below(4));
      in.cfg_we = true;
      if (k == 0) {
        in.cfg_addr = regs::STAT_SEL;
        in.cfg_wdata = static_cast<uint32_t>(rng_.below(cfg_.entries() + 4));  // some out of range
      } else if (k == 1) {
        in.cfg_addr = regs::STAT_CMD;
        in.cfg_wdata = 1u | (rng_.chance(30) ? static_cast<uint32_t>(rng_.below(256)) << 8 : 0u);
        if (rng_.chance(30)) { burst_ = static_cast<unsigned>(rng_.range(1, 3)); burst_addr_ = regs::STAT_CMD; }
      } else if (k == 2 && rng_.chance(50)) {  // clear one counter (rarely, so some saturate)
        in.cfg_addr = regs::CLEAR;
        in.cfg_wdata = 1u << rng_.below(13);
        // most of them: a counter that counted in the previous cycle (its event still pending
        // in the RTL's counter), if one did; drawn from a generator of its own, so the rest
        // of the stimulus is the same stream as without this choice
        if (clr_rng_.chance(80)) {
          unsigned stepped[pf::kNumCounters], n = 0;
          for (unsigned c = 0; c < pf::kNumCounters; ++c)
            if (counter_stepped(c)) stepped[n++] = c;
          if (n) in.cfg_wdata = 1u << stepped[clr_rng_.below(n)];
        }
        if (rng_.chance(30)) {  // the headroom peak, several cycles in a row (it rises again at once)
          in.cfg_wdata = 1u << 12;
          burst_ = static_cast<unsigned>(rng_.range(1, 4));
          burst_addr_ = regs::CLEAR;
        }
      } else {
        in.cfg_addr = regs::QUANTA;  // staged only, no commit: harmless
        in.cfg_wdata = static_cast<uint32_t>(rng_.next());
      }
    }
    // after most STAT_CMDs, poll STATUS for a few cycles as a driver does before it reads the
    // snapshot (BUSY must hold until the snapshot is taken)
    if (poll_) --poll_;
    if (in.cfg_we && in.cfg_addr == regs::STAT_CMD && rng_.chance(70)) poll_ = 6;
    if (!probe_.empty() && !in.cfg_we) {
      in.cfg_re = true;
      in.cfg_addr = probe_.back();
      probe_.pop_back();
      cov_.hit("reset_register_read_back");
    } else if (poll_ && !in.cfg_we) {
      in.cfg_re = true;
      in.cfg_addr = regs::STATUS;
    } else if (readback_ && !in.cfg_we) {  // read back what a boundary write may have hit
      in.cfg_re = true;
      in.cfg_addr = readback_;
      readback_ = 0;
    } else if (rng_.chance(8)) {
      // every readable register of the map (a new one cannot stay unread), plus two
      // addresses that decode to nothing (unaligned, unmapped)
      constexpr size_t kMapped = sizeof(regs::kReadable) / sizeof(regs::kReadable[0]);
      in.cfg_re = true;
      if (!in.cfg_we) {
        if (rng_.chance(40)) {
          in.cfg_addr = regs::CNT_ADMIT + 4 * static_cast<uint32_t>(rng_.below(13));
        } else {
          const uint64_t pick = rng_.below(kMapped + 2);
          in.cfg_addr = pick < kMapped ? regs::kReadable[pick] : pick == kMapped ? 0x7FCu : 0x101u;
        }
      }
    }
    // admissions
    if (hold_adm_) {
      in.adm_valid = true;
      in.adm_iport = held_.adm_iport; in.adm_eport = held_.adm_eport; in.adm_prio = held_.adm_prio;
      in.adm_len = held_.adm_len; in.adm_lossless = held_.adm_lossless;
    } else if (rng_.chance(adm_rate_)) {
      in.adm_valid = true;
      in.adm_iport = rng_.chance(60) ? hot_in_ : static_cast<uint32_t>(rng_.below(cfg_.Ports));
      in.adm_eport = rng_.chance(50) ? hot_out_ : static_cast<uint32_t>(rng_.below(cfg_.Ports));
      in.adm_prio = rng_.chance(60) ? hot_prio_ : static_cast<uint32_t>(rng_.below(8));
      if (storm_on_ && rng_.chance(15)) { in.adm_eport = storm_port_; in.adm_prio = storm_prio_; }
      in.adm_len = static_cast<uint32_t>(rng_.chance(5) ? rng_.range(1500, 9000) : rng_.range(64, 1500));
      in.adm_lossless = rng_.chance(92) ? ((lossless_ >> in.adm_prio) & 1) : rng_.chance(50);
    }
    // a staged RSV or HDRM of the offered admission's priority, or a far-off XON_OFFSET,
    // COMMITted in the next cycle: the ops issued in the write's cycle and the COMMIT's
    // decide after the COMMIT took effect, on the new value, which the RTL must have taken
    // from the staged registers in S0 (bins commit_after_rsv_write, commit_after_hdrm_write,
    // commit_after_xon_write; the XON offset matters to the XON tests of departures and
    // timer-sweep ops on XOFF'd queues)
    if (idone && programmed_ && ops_.empty() && burst_ == 0 && probe_.empty() && !poll_ && !in.cfg_we &&
        !in.cfg_re && !commit_next_ && in.adm_valid && cycle >= next_swap_) {
      const unsigned k = static_cast<unsigned>(rng_.below(3));
      in.cfg_we = true;
      if (k == 2) {
        in.cfg_addr = regs::XON_OFFSET;
        in.cfg_wdata = model_.live().xon_offset < 2000 ? static_cast<uint32_t>(rng_.range(3000, 4000))
                                                       : static_cast<uint32_t>(rng_.range(0, 500));
      } else {
        in.cfg_addr = (k == 1 ? regs::HDRM0 : regs::RSV0) + 4 * in.adm_prio;
        in.cfg_wdata = static_cast<uint32_t>(k == 1 ? rng_.range(hdrm_lo_, hdrm_hi_) : rng_.range(0, rsv_hi_));
      }
      commit_next_ = true;
      next_swap_ = cycle + rng_.range(500, 4000);
    }
    // departures: head of a non-empty egress queue that is not paused
    if (hold_dep_) {
      in.dep_valid = true;
      in.dep_iport = held_.dep_iport; in.dep_eport = held_.dep_eport; in.dep_prio = held_.dep_prio;
      in.dep_len = held_.dep_len; in.dep_lossless = held_.dep_lossless;
    } else if (rng_.chance(dep_rate_)) {
      const uint32_t n = cfg_.entries();
      const uint32_t start = static_cast<uint32_t>(rng_.below(n));
      for (uint32_t k = 0; k < n; ++k) {
        const uint32_t q = (start + k) % n;
        if (eq_[q].empty() || model_.paused(q / 8, q % 8)) continue;
        const Pkt pk = eq_[q].front();
        eq_[q].pop_front();
        // the stimulus contract: a departure only removes bytes the model holds (this
        // holds as long as the buffer fits the counters, see program())
        const pf::QueueStats si = model_.queue_stats(pk.iport, pk.prio), se = model_.queue_stats(pk.eport, pk.prio);
        if (uint64_t{si.cnt} + si.hdr < pk.len || se.ecnt < pk.len) {
          std::cout << "tb pfc: stimulus error at cycle " << cycle << ": departure of " << pk.len
                    << " bytes from queues holding " << (uint64_t{si.cnt} + si.hdr) << " / " << se.ecnt << "\n";
          std::exit(ll::tb::kStimulus);
        }
        in.dep_valid = true;
        in.dep_iport = pk.iport; in.dep_eport = pk.eport; in.dep_prio = pk.prio;
        in.dep_len = pk.len; in.dep_lossless = pk.ll;
        break;
      }
    }
    aim_at_boundary(in, cycle, idone);
    // received PFC
    if (hold_pfc_) {
      in.pfc_valid = true;
      in.pfc_port = held_.pfc_port; in.pfc_prio = held_.pfc_prio; in.pfc_quanta = held_.pfc_quanta;
    } else if (idone && programmed_) {
      storm_source(in);
      if (!in.pfc_valid && rng_.chance(pfc_rate_)) {
        in.pfc_valid = true;
        in.pfc_port = static_cast<uint32_t>(rng_.below(cfg_.Ports));
        in.pfc_prio = static_cast<uint32_t>(rng_.below(8));
        in.pfc_quanta = rng_.chance(35) ? 0u : static_cast<uint32_t>(rng_.chance(90) ? rng_.range(1, 400) : rng_.range(1, 0xFFFF));
        // aim at the countdown's boundary: quanta whose 512-bit times are a whole number of
        // ticks at the live speed, so a pass can find exactly its bits left (the expiry test
        // is rem <= bits: bin quanta_expiry_exact)
        if (in.pfc_quanta != 0 && rng_.chance(30)) {
          const uint64_t bpt = uint64_t{model_.live().gbps} * cfg_.TickNs;
          const uint64_t q0 = bpt / std::gcd(bpt, uint64_t{512});
          if (q0 <= 0xFFFF) in.pfc_quanta = static_cast<uint32_t>(q0 * rng_.range(1, std::min<uint64_t>(4, 0xFFFF / q0)));
        }
      }
    }
    return in;
  }

 private:
  // Range-checked register fields at N-1, N, N+1 of their limits: STAT_SEL around
  // Ports*8 (and with a high bit set), and the unmapped words just below RSV0 and just
  // above HDRM7 (an off-by-one decoder would land them in the arrays). The next read
  // returns the register the write must not have changed.
  void boundary_write(In& in) {
    in.cfg_we = true;
    const unsigned k = static_cast<unsigned>(rng_.below(3));
    if (k == 0) {
      const uint32_t n = cfg_.entries();
      uint32_t v = n - 1 + static_cast<uint32_t>(rng_.below(3));
      const char* bin = v < n ? "stat_sel_last" : v == n ? "stat_sel_at_limit" : "stat_sel_above_limit";
      if (rng_.chance(40)) {
        v = static_cast<uint32_t>(rng_.below(n)) | (1u << rng_.range(qw(), 31));
        bin = "stat_sel_high_bit_alias";
      }
      cov_.hit(bin);
      in.cfg_addr = regs::STAT_SEL;
      in.cfg_wdata = v;
      readback_ = regs::STAT_SEL;
    } else {
      const bool below = k == 1;
      in.cfg_addr = below ? regs::RSV0 - 4 : regs::HDRM7 + 4;
      in.cfg_wdata = static_cast<uint32_t>(rng_.next());
      readback_ = below ? regs::RSV0 + 4 * 7 : regs::HDRM0;
      cov_.hit(below ? "write_below_rsv_array" : "write_above_hdrm_array");
      if (rng_.chance(50)) readback_ = below ? regs::RSV0 : regs::HDRM7;
    }
  }
  // Boundary aims: a staged XON_OFFSET, SHARED_SIZE or HDRM[p] that puts the test of the
  // departure or admission offered now, or of an XOFF'd queue's sweep op in the timer pass
  // that just started, exactly at its limit or one byte either side of it (from the model's
  // state now, so exact unless an op in flight moves the count or the pools). Mostly with the
  // COMMIT in the next cycle: the op decides on the new value, which the RTL must take from
  // the staged register (RegWords 1) and compare without an off-by-one (bins
  // xon_test_*_limit, xon_sweep_test_*_limit, shared_fit_*_limit, headroom_cap_*_limit,
  // *_flipped_by_commit). Half the HDRM aims are left uncommitted: the op decides on the live
  // cap while the staged one would reverse it (headroom_cap_reversed_by_staged). A lowered
  // SHARED_SIZE or HDRM[p] is set back a little later. Each kind keeps its own schedule; the
  // choices come from a generator of their own.
  void aim_at_boundary(In& in, uint64_t cycle, bool idone) {
    if (sh_restore_at_ && cycle >= sh_restore_at_ && ops_.empty() && !commit_next_) {
      ops_.push_back({regs::SHARED_SIZE, prog_shared_});
      ops_.push_back({regs::COMMIT, 1});
      sh_restore_at_ = 0;
    }
    if (hdrm_restore_at_ && cycle >= hdrm_restore_at_ && ops_.empty() && !commit_next_) {
      ops_.push_back({regs::HDRM0 + 4 * hdrm_restore_prio_, hdrm_restore_val_});
      ops_.push_back({regs::COMMIT, 1});
      hdrm_restore_at_ = 0;
    }
    if (!idone || !programmed_ || !ops_.empty() || burst_ || !probe_.empty() || poll_ || in.cfg_we || in.cfg_re ||
        commit_next_)
      return;
    // the kinds, tried in turn from the one after the last aim: a departure from an XOFF'd
    // queue that empties its headroom (0), an admission that takes bytes from the shared pool
    // (1), a timer pass that just started (2), a lossless admission to an XOFF'd queue (3)
    for (unsigned i = 0; i < kAimKinds && !in.cfg_we; ++i) {
      const unsigned kind = (aim_turn_ + i) % kAimKinds;
      if (cycle < next_aim_[kind] || (kind == 1 && sh_restore_at_) || (kind == 3 && hdrm_restore_at_)) continue;
      bool commit = true;
      if (!aim(in, cycle, kind, commit)) continue;
      commit_next_ = commit;
      aim_turn_ = (kind + 1) % kAimKinds;
      next_aim_[kind] = cycle + aim_rng_.range(100, 1000);
    }
  }
  // One aim of the given kind if its chance is here (the staged write in `in`).
  bool aim(In& in, uint64_t cycle, unsigned kind, bool& commit) {
    const int64_t d = static_cast<int64_t>(aim_rng_.below(3)) - 1;  // below, at or above the limit
    if (kind == 2) {  // the timer pass that just started: XON of an XOFF'd queue, cnt + XON_OFFSET - lim = d
      if (!model_.trace().sweep_start) return false;
      const uint32_t n = cfg_.entries(), start = static_cast<uint32_t>(aim_rng_.below(n));
      for (uint32_t k = 0; k < n; ++k) {
        const uint32_t q = (start + k) % n;
        const pf::QueueStats si = model_.queue_stats(q / 8, q % 8);
        if (!si.xoff || si.hdr != 0 || si.cnt == 0) continue;
        const int64_t v = static_cast<int64_t>(model_.xoff_limit(q % 8)) - int64_t{si.cnt} + d;
        if (v < 0 || v > static_cast<int64_t>(cmax_)) continue;
        in.cfg_we = true;
        in.cfg_addr = regs::XON_OFFSET;
        in.cfg_wdata = static_cast<uint32_t>(v);
        return true;
      }
      return false;
    }
    if (kind == 0) {  // XON after the departure: cnt_after + XON_OFFSET - lim = d
      if (!in.dep_valid) return false;
      const pf::QueueStats si = model_.queue_stats(in.dep_iport, in.dep_prio);
      if (!si.xoff || si.hdr > in.dep_len) return false;  // no XON test that can send
      const uint64_t rest = in.dep_len - si.hdr;
      const uint64_t after = si.cnt - std::min<uint64_t>(si.cnt, rest);
      const int64_t v = static_cast<int64_t>(model_.xoff_limit(in.dep_prio)) - static_cast<int64_t>(after) + d;
      if (after == 0 || v < 0 || v > static_cast<int64_t>(cmax_)) return false;
      in.cfg_we = true;
      in.cfg_addr = regs::XON_OFFSET;
      in.cfg_wdata = static_cast<uint32_t>(v);
      return true;
    }
    if (!in.adm_valid || hold_adm_) return false;
    const pf::QueueStats si = model_.queue_stats(in.adm_iport, in.adm_prio);
    if (kind == 1) {  // shared_used + share - SHARED_SIZE = d
      const uint64_t rsv = model_.live().rsv[in.adm_prio];
      const uint64_t newc = uint64_t{si.cnt} + in.adm_len;
      const uint64_t share = (newc > rsv ? newc - rsv : 0) - (si.cnt > rsv ? si.cnt - rsv : 0);
      const int64_t v = static_cast<int64_t>(model_.shared_used() + share) - d;
      // only lower than the programmed size (the buffer must still fit the counters)
      if (share == 0 || si.xoff || v > static_cast<int64_t>(prog_shared_)) return false;
      in.cfg_we = true;
      in.cfg_addr = regs::SHARED_SIZE;
      in.cfg_wdata = static_cast<uint32_t>(v);
      sh_restore_at_ = cycle + aim_rng_.range(20, 200);
      return true;
    }
    // the headroom cap: hdr + len - HDRM[p] = d
    const uint32_t cap = model_.live().hdrm[in.adm_prio];
    const int64_t v = static_cast<int64_t>(uint64_t{si.hdr} + in.adm_len) - d;
    // only lower than the live cap (the buffer must still fit the counters), and only while
    // the staged cap is the live one (no other write pending)
    if (!in.adm_lossless || !si.xoff || v < 0 || v > static_cast<int64_t>(cap) ||
        model_.staged().hdrm[in.adm_prio] != cap)
      return false;
    in.cfg_we = true;
    in.cfg_addr = regs::HDRM0 + 4 * in.adm_prio;
    in.cfg_wdata = static_cast<uint32_t>(v);
    // half COMMITted at once (the op decides on the new cap, from the staged register), half
    // left staged until the cap is set back (the ops decide on the live cap)
    commit = aim_rng_.chance(50);
    hdrm_restore_at_ = cycle + aim_rng_.range(20, 200);
    hdrm_restore_prio_ = in.adm_prio;
    hdrm_restore_val_ = cap;
    return true;
  }

  unsigned qw() const {
    unsigned b = 0;
    while ((1u << b) < cfg_.entries()) ++b;
    return b;
  }

  // A misbehaving upstream: PAUSE with long quanta on one lossless egress queue, again and
  // again, until the watchdog declares the storm; a while later it stops with a RESUME.
  void storm_source(In& in) {
    if (!storm_on_) {
      if (ticks_ >= storm_next_ && rng_.chance(5)) {
        storm_on_ = true;
        storm_port_ = static_cast<uint32_t>(rng_.below(cfg_.Ports));
        storm_prio_ = 3;
        for (uint32_t p = 0; p < 8; ++p)
          if ((lossless_ >> p) & 1) { storm_prio_ = p; if (rng_.chance(50)) break; }
        storm_end_ = ticks_ + 30 + rng_.below(60);
        storm_last_ = 0;
      }
      return;
    }
    if (ticks_ >= storm_end_) {
      in.pfc_valid = true;
      in.pfc_port = storm_port_; in.pfc_prio = storm_prio_; in.pfc_quanta = 0;
      storm_on_ = false;
      storm_next_ = ticks_ + 10 + rng_.below(40);
      return;
    }
    if (ticks_ >= storm_last_ + 3) {
      in.pfc_valid = true;
      in.pfc_port = storm_port_; in.pfc_prio = storm_prio_; in.pfc_quanta = 0xFFFF;
      storm_last_ = ticks_;
    }
  }

  void program() {
    pf::Settings s;
    s.dyn = rng_.chance(60);
    s.pool = rng_.chance(45);
    s.lossless = (static_cast<uint32_t>(rng_.next()) & 0xFF) | 0x08;
    s.xoff_static = static_cast<uint32_t>(rng_.range(1000, 20000));
    s.alpha_ing = static_cast<int>(rng_.range(0, 5)) - 3;
    s.alpha_eg = static_cast<int>(rng_.range(0, 5)) - 3;
    s.xon_offset = static_cast<uint32_t>(rng_.range(0, 4000));
    // The buffer must fit the byte counters (docs/pfc.md): SHARED_SIZE + Ports*8*(RSV+HDRM)
    // <= 2^CntW - 1, otherwise egress counts could saturate and lose bytes.
    const uint64_t sh_hi = std::min<uint64_t>(60000, cmax_ / 4);
    s.shared_size = static_cast<uint32_t>(rng_.range(std::min<uint64_t>(4000, sh_hi), sh_hi));
    // Boundary: now and then alpha near its top (2^4..2^7) over pools so large that alpha * free
    // pool passes 2^CntW - 1, so the dynamic thresholds saturate at all ones (the RTL's
    // saturating left shift). Such a program rarely pauses: the threshold outruns the traffic.
    // Every eighth program is one (and others by chance), so a run cannot miss them.
    const bool sat = rng_.chance(12) || programs_ % 8 == 4;
    ++programs_;
    if (sat) {
      s.dyn = true;
      s.alpha_ing = static_cast<int>(rng_.range(4, 7));
      s.alpha_eg = static_cast<int>(rng_.range(4, 7));
      s.shared_size = static_cast<uint32_t>(rng_.range(cmax_ / 64, cmax_ / 4));
    }
    const uint64_t per_q = (cmax_ - s.shared_size) / cfg_.entries();
    // a limited egress lossless pool no larger than the shared pool, so lossless traffic can fill it
    s.egll_size = rng_.chance(50) ? static_cast<uint32_t>(rng_.range(3000, std::max<uint64_t>(3000, std::min<uint64_t>(40000, s.shared_size)))) : cmax_;
    s.egly_size = static_cast<uint32_t>(sat ? rng_.range(cmax_ / 64, cmax_ / 4) : rng_.range(2000, 40000));
    // With the egress lossless pool unlimited, usually a strongly oversubscribed (small)
    // shared headroom pool: since XON waits for empty headroom, queues leave little headroom
    // behind, so a large pool is rarely full. A limited egress lossless pool keeps the
    // uniform choice (a small headroom pool would keep lossless bytes out of it).
    const bool egll_limited = s.egll_size != cmax_;
    s.oversub = static_cast<uint32_t>(!egll_limited && rng_.chance(70) ? rng_.range(4, 7) : rng_.range(0, 7));
    s.quanta = rng_.chance(80) ? static_cast<uint32_t>(rng_.range(1, 3000)) : 0xFFFF;
    s.refresh = rng_.chance(85) ? static_cast<uint32_t>(rng_.range(1, 12)) : 0;
    s.gbps = kSpeeds[rng_.below(5)];
    s.wd_detect = rng_.chance(90) ? static_cast<uint32_t>(rng_.range(3, 20)) : 0;
    s.wd_restore = static_cast<uint32_t>(rng_.range(0, 20));
    // the ranges of a single RSV / HDRM rewrite between programs (the largest RSV assumed)
    rsv_hi_ = std::min<uint64_t>(3000, per_q / 4);
    hdrm_lo_ = std::min<uint64_t>(500, per_q - rsv_hi_);
    hdrm_hi_ = std::min<uint64_t>(8000, per_q - rsv_hi_);
    for (unsigned p = 0; p < 8; ++p) {
      s.rsv[p] = static_cast<uint32_t>(rng_.range(0, rsv_hi_));
      const uint64_t room = per_q - s.rsv[p];
      s.hdrm[p] = static_cast<uint32_t>(rng_.range(std::min<uint64_t>(500, room), std::min<uint64_t>(8000, room)));
    }
    prog_shared_ = s.shared_size;
    sh_restore_at_ = hdrm_restore_at_ = 0;  // this program writes its own SHARED_SIZE and HDRMs
    auto w = s.writes();
    // write the staged set in a random order, then commit
    for (size_t i = w.size(); i > 1; --i) std::swap(w[i - 1], w[rng_.below(i)]);
    for (const auto& [a, d] : w) ops_.push_back({a, d});
    ops_.push_back({regs::COMMIT, 1});
    lossless_ = s.lossless;
    hot_in_ = static_cast<uint32_t>(rng_.below(cfg_.Ports));
    hot_out_ = static_cast<uint32_t>(rng_.below(cfg_.Ports));
    hot_prio_ = static_cast<uint32_t>(rng_.below(8));
    adm_rate_ = static_cast<unsigned>(rng_.range(70, 90));
    dep_rate_ = static_cast<unsigned>(rng_.range(35, 75));
    pfc_rate_ = static_cast<unsigned>(rng_.range(2, 10));
    tick_lo_ = rng_.range(20, 40);
    tick_hi_ = tick_lo_ + rng_.range(0, 60);
  }

  // global counter c counted an event in the previous cycle (prev_cnt_ is updated once a
  // cycle, in cover_inputs)
  bool counter_stepped(unsigned c) const { return model_.counter(c) == prev_cnt_[c] + 1; }

  void cover_inputs(const In& in, const Out& o) {
    // A global counter that counted an event in the previous cycle (the RTL counts it a
    // cycle late and forwards it to a read): read now, or cleared now.
    bool cnt_stepped[pf::kNumCounters];
    for (unsigned c = 0; c < pf::kNumCounters; ++c) {
      cnt_stepped[c] = counter_stepped(c);
      prev_cnt_[c] = model_.counter(c);
    }
    if (!o.init_done) return;
    if (in.cfg_re && in.cfg_addr >= regs::CNT_ADMIT && in.cfg_addr < regs::CNT_ADMIT + 4 * pf::kNumCounters &&
        cnt_stepped[(in.cfg_addr - regs::CNT_ADMIT) / 4])
      cov_.hit("counter_read_after_event");
    if (in.cfg_we && in.cfg_addr == regs::CLEAR) {
      for (unsigned c = 0; c < pf::kNumCounters; ++c)
        if ((in.cfg_wdata >> c & 1) && cnt_stepped[c]) { cov_.hit("counter_clear_after_event"); break; }
    }
    if (!programmed_ && (in.adm_valid || in.dep_valid || in.pfc_valid)) cov_.hit("traffic_before_reprogram");
    if (tick_storm_until_ && in.tick) cov_.hit("tick_storm_tick");
    // a STAT_CMD written while the previous one is pending or executing
    if (in.cfg_we && in.cfg_addr == regs::STAT_CMD && last_stat_cmd_) cov_.hit("stat_cmd_back_to_back");
    last_stat_cmd_ = in.cfg_we && in.cfg_addr == regs::STAT_CMD;
    // a HDR_PEAK clear in a cycle the peak would rise (headroom use above the peak)
    // and HDR_PEAK read in the next cycle (a clear that lost to the rise would show)
    if (in.cfg_re && in.cfg_addr == regs::HDR_PEAK && peak_clr_rising_) cov_.hit("peak_read_after_clear_while_rising");
    peak_clr_rising_ = in.cfg_we && in.cfg_addr == regs::CLEAR && (in.cfg_wdata >> 12 & 1) &&
                       model_.headroom_used() > model_.headroom_peak();
    if (peak_clr_rising_) cov_.hit("peak_clear_while_rising");
    if (in.adm_valid && !o.adm_ready) cov_.hit("adm_stall");
    if (in.dep_valid && !o.dep_ready) cov_.hit("dep_stall");
    if (in.pfc_valid && !o.pfc_ready) cov_.hit("pfc_stall");
    if (o.cfg_rvalid) cov_.hit("cfg_read");
    if (o.cfg_rvalid && last_re_status_ && (o.cfg_rdata & 2)) cov_.hit("status_busy_polled");
    last_re_status_ = in.cfg_re && in.cfg_addr == regs::STATUS;
    if (in.cfg_we && in.cfg_addr == regs::COMMIT && (o.dec_valid || in.adm_valid)) cov_.hit("commit_under_traffic");
    // a COMMIT right behind a staged RSV / HDRM write of the priority of the admission issued
    // with that write
    if (in.cfg_we && in.cfg_addr == regs::COMMIT && swap_acc_)
      cov_.hit(swap_hdrm_ ? "commit_after_hdrm_write" : "commit_after_rsv_write");
    if (in.cfg_we && in.cfg_addr == regs::COMMIT && swap_xon_) cov_.hit("commit_after_xon_write");
    swap_xon_ = in.cfg_we && in.cfg_addr == regs::XON_OFFSET;
    const bool rsv_w = in.cfg_we && in.cfg_addr >= regs::RSV0 && in.cfg_addr < regs::RSV0 + 32;
    const bool hdrm_w = in.cfg_we && in.cfg_addr >= regs::HDRM0 && in.cfg_addr < regs::HDRM0 + 32;
    swap_acc_ = (rsv_w || hdrm_w) && in.adm_valid && o.adm_ready && (in.cfg_addr & 0x1C) / 4 == in.adm_prio;
    swap_hdrm_ = hdrm_w;
    if (in.cfg_we && in.cfg_addr == regs::CLEAR && in.cfg_wdata != 0) cov_.hit("counter_clear");
    if (in.cfg_we && in.cfg_addr == regs::STAT_CMD) cov_.hit((in.cfg_wdata >> 8) ? "stat_clear" : "stat_snapshot");
    if (o.eg_storm != 0) cov_.hit("eg_storm_visible");
    if (o.eg_paused != 0) cov_.hit("eg_paused_visible");
  }

  void cover_model() {
    const pf::Model::Trace& t = model_.trace();
    if (t.speed_commit_on_sweep) cov_.hit("speed_commit_on_sweep");
    if (t.commit_hold) cov_.hit("commit_hold");
    if (t.sweep_start) cov_.hit("sweep_pass");
    if (t.overrun) cov_.hit("tick_overrun");
    using M = pf::Model;
    using pf::Decision;
    using pf::Why;
    if (t.thr_sat) cov_.hit("threshold_saturated");
    // the tests at their limits (N-1, N, N+1), and tests in the four cycles after a COMMIT
    // changed their value whose outcome the old XON_OFFSET / SHARED_SIZE would have reversed
    if (t.xon_tested && t.xon_slack >= -1 && t.xon_slack <= 1) {
      if (t.op == pf::Model::kDep)
        cov_.hit(t.xon_slack < 0 ? "xon_test_below_limit" : t.xon_slack == 0 ? "xon_test_at_limit" : "xon_test_above_limit");
      else
        cov_.hit(t.xon_slack < 0 ? "xon_sweep_test_below_limit" : t.xon_slack == 0 ? "xon_sweep_test_at_limit"
                                                                                 : "xon_sweep_test_above_limit");
    }
    if (t.fit_tested && t.fit_slack >= -1 && t.fit_slack <= 1)
      cov_.hit(t.fit_slack < 0 ? "shared_fit_below_limit" : t.fit_slack == 0 ? "shared_fit_at_limit" : "shared_fit_above_limit");
    if (t.xon_tested && xon_age_ <= 3 &&
        (t.xon_slack <= 0) != (t.xon_slack - int64_t{xon_live_} + int64_t{xon_before_} <= 0))
      cov_.hit("xon_test_flipped_by_commit");
    if (t.fit_tested && sh_age_ <= 3 &&
        (t.fit_slack <= 0) != (t.fit_slack + int64_t{sh_live_} - int64_t{sh_before_} <= 0))
      cov_.hit("shared_fit_flipped_by_commit");
    // the headroom cap: at its limit, reversed by a COMMIT in the last four cycles, or
    // decided on the live cap while a staged one of its priority would reverse it
    if (t.hdrm_tested) {
      const unsigned p = t.qi & 7;
      const int64_t live_cap = hdrm_live_[p];  // the cap this decision used (before a COMMIT at this edge)
      if (t.hdrm_slack >= -1 && t.hdrm_slack <= 1)
        cov_.hit(t.hdrm_slack < 0 ? "headroom_cap_below_limit" : t.hdrm_slack == 0 ? "headroom_cap_at_limit"
                                                                                    : "headroom_cap_above_limit");
      if (hdrm_age_[p] <= 3 && (t.hdrm_slack <= 0) != (t.hdrm_slack + live_cap - int64_t{hdrm_before_[p]} <= 0))
        cov_.hit("headroom_cap_flipped_by_commit");
      if ((t.hdrm_slack <= 0) != (t.hdrm_slack + live_cap - int64_t{model_.staged().hdrm[p]} <= 0))
        cov_.hit("headroom_cap_reversed_by_staged");
    }
    for (unsigned p = 0; p < 8; ++p) {
      if (hdrm_age_[p] != ~0u) ++hdrm_age_[p];
      if (model_.live().hdrm[p] != hdrm_live_[p]) {
        hdrm_before_[p] = hdrm_live_[p];
        hdrm_live_[p] = model_.live().hdrm[p];
        hdrm_age_[p] = 0;
      }
    }
    if (xon_age_ != ~0u) ++xon_age_;
    if (sh_age_ != ~0u) ++sh_age_;
    if (model_.live().xon_offset != xon_live_) { xon_before_ = xon_live_; xon_live_ = model_.live().xon_offset; xon_age_ = 0; }
    if (model_.live().shared_size != sh_live_) { sh_before_ = sh_live_; sh_live_ = model_.live().shared_size; sh_age_ = 0; }
    if (t.op == M::kNone) return;
    const bool pool = model_.live().pool;
    const bool ing_rmw = t.op == M::kAdm || t.op == M::kDep;
    const bool eg_rmw = ing_rmw || t.op == M::kPfc;
    if (t.fwd_near_iq && ing_rmw) cov_.hit("rmw_forward_ingress");
    if (t.fwd_near_eq && eg_rmw) cov_.hit("rmw_forward_egress");
    if (t.fwd_far_iq && ing_rmw) cov_.hit("rmw_forward_far_ingress");
    if (t.fwd_far_eq && eg_rmw) cov_.hit("rmw_forward_far_egress");
    if (t.dec_v) {
      cov_.hit(model_.live().dyn ? "threshold_dynamic" : "threshold_static");
      if (pool) cov_.hit("pool_mode");
      if (t.dec == Decision::Admit) cov_.hit("dec_admit");
      if (t.dec == Decision::Headroom) cov_.hit("headroom_use");
      if (t.dec == Decision::Drop) {
        switch (t.why) {
          case Why::None: cov_.hit("drop_none"); break;
          case Why::Headroom: cov_.hit("headroom_overflow"); break;
          case Why::EgressLossless: cov_.hit("pool_egress_lossless_limit"); break;
          case Why::IngressLossy: cov_.hit("drop_lossy_ingress"); break;
          case Why::EgressLossy: cov_.hit("pool_egress_lossy_limit"); break;
          case Why::Watchdog: cov_.hit("wd_drop"); break;
        }
      }
      if (t.sh_pool_full) cov_.hit("pool_shared_limit");
      if (t.shp_full) cov_.hit("pool_shared_headroom_limit");
    }
    if (t.pz_v) {
      if (t.op == M::kAdm) cov_.hit("xoff");
      if (t.pz_quanta == 0) cov_.hit(t.op == M::kDep ? "xon" : "xon_sweep");
      if (t.op == M::kSweep && t.pz_quanta != 0) cov_.hit("refresh");
    }
    if (t.xon_hdr_hold) cov_.hit(t.op == M::kDep ? "xon_held_by_headroom" : "xon_held_by_headroom_sweep");
    if (t.op == M::kPfc) cov_.hit("pfc_rx");
    if (t.expired) cov_.hit("quanta_expiry");
    if (t.expired_exact) cov_.hit("quanta_expiry_exact");
    if (t.inc & (1u << pf::kWdStorm)) cov_.hit("wd_detect");
    if (t.inc & (1u << pf::kWdRestore)) cov_.hit("wd_restore");
    if (t.op == M::kStat) cov_.hit("stat_op");
    for (unsigned c = 0; c < pf::kNumCounters; ++c)
      if ((t.inc >> c) & 1 && model_.counter(c) == smax_) cov_.hit("counter_saturated");
  }

  pf::Config cfg_;
  pf::Model model_;
  Rng rng_;
  Rng clr_rng_;  // which counter a CLEAR targets (apart from rng_: see stimulus)
  Rng aim_rng_;  // the boundary aims' choices (aim_at_boundary)
  Coverage& cov_;
  Dut dut_{"dut"};
  ll::tb::RegPort reg_;
  ll::tb::Wire<bool> rst_n_, adm_valid_, adm_ready_, adm_ll_, dec_valid_, dep_valid_, dep_ready_, dep_ll_,
      pfc_valid_, pfc_ready_, tick_, pause_valid_;
  ll::tb::Wire<uint32_t> adm_iport_, adm_eport_, adm_prio_, adm_len_, dec_, dec_why_, dep_iport_, dep_eport_,
      dep_prio_, dep_len_, pfc_port_, pfc_prio_, pfc_quanta_, pause_port_, pause_prio_, pause_quanta_,
      eg_qport_, eg_paused_, eg_storm_;

  uint32_t cmax_ = 0;
  uint64_t smax_ = 0;
  std::deque<CfgOp> ops_;
  std::deque<Pkt> pend_;
  std::vector<std::deque<Pkt>> eq_;
  bool programmed_ = false, hold_adm_ = false, hold_dep_ = false, hold_pfc_ = false;
  In held_;
  uint64_t next_program_ = 0, next_tick_ = 0, ticks_ = 0, tick_lo_ = 30, tick_hi_ = 90;
  uint32_t lossless_ = 0x18, hot_in_ = 0, hot_out_ = 1, hot_prio_ = 3;
  unsigned adm_rate_ = 80, dep_rate_ = 50, pfc_rate_ = 5;
  bool storm_on_ = false;
  uint32_t storm_port_ = 0, storm_prio_ = 3;
  uint64_t storm_next_ = 0, storm_end_ = 0, storm_last_ = 0;
  // post-reset read-back and delayed programming
  std::vector<uint32_t> probe_{std::begin(regs::kReadable), std::end(regs::kReadable)};
  uint64_t program_delay_ = 0, program_at_ = ~0ull;
  // boundary writes, STAT_CMD bursts, tick storms
  uint32_t readback_ = 0;
  unsigned poll_ = 0;             // cycles left of STATUS polling after a STAT_CMD
  bool last_re_status_ = false;   // the previous cycle read STATUS
  unsigned burst_ = 0;
  // a staged RSV / HDRM write with a COMMIT right behind it
  bool commit_next_ = false, swap_acc_ = false, swap_hdrm_ = false, swap_xon_ = false;
  uint64_t programs_ = 0;  // programs written so far (the saturating ones come in turn)
  uint64_t next_swap_ = 0, rsv_hi_ = 0, hdrm_lo_ = 0, hdrm_hi_ = 0;
  uint32_t burst_addr_ = 0;
  bool last_stat_cmd_ = false;
  bool peak_clr_rising_ = false;  // the previous cycle cleared HDR_PEAK while it would rise
  std::array<uint64_t, pf::kNumCounters> prev_cnt_{};  // the model's global counters a cycle ago
  uint64_t tick_storm_until_ = 0, next_tick_storm_ = 20000, ticks_since_pass_ = 0;
  // boundary aims: the next one, the programmed SHARED_SIZE and when to set it back
  static constexpr unsigned kAimKinds = 4;
  std::array<uint64_t, kAimKinds> next_aim_{};
  uint64_t sh_restore_at_ = 0;
  uint32_t prog_shared_ = 0;
  // a lowered HDRM[p] (staged, COMMITted or not): when and to what it is set back
  uint64_t hdrm_restore_at_ = 0;
  uint32_t hdrm_restore_prio_ = 0, hdrm_restore_val_ = 0;
  unsigned aim_turn_ = 0;
  // the live XON_OFFSET and SHARED_SIZE (the values the next decision uses), their values
  // before their last change, and the edges since it
  uint32_t xon_live_ = 0, xon_before_ = 0, sh_live_ = 0, sh_before_ = 0;
  unsigned xon_age_ = ~0u, sh_age_ = ~0u;
  // the same for each priority's HDRM
  std::array<uint32_t, 8> hdrm_live_{}, hdrm_before_{};
  std::array<unsigned, 8> hdrm_age_{~0u, ~0u, ~0u, ~0u, ~0u, ~0u, ~0u, ~0u};
};

}  // namespace

#define LL_TB_BENCH PfcBench
LL_TB_MAIN("pfc")
