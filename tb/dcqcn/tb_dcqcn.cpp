// Lockstep testbench of the DCQCN block: rtl/dcqcn/dcqcn_top.sv against ll::dcqcn::Model,
// cycle by cycle (harness: tb/common/lockstep.h). Stimulus: random configurations of
// both RP variants and both NP modes, re-committed under traffic; random CNP, bytes-sent,
// CE-mark and wheel-token streams (hot QPs for RMW hazards); time ticks in phases from
// sparse to every cycle; stalls on every valid/ready output and held payloads on every
// stalled input; register reads, counter clears and per-QP snapshots; at the run's end,
// four stretches whose periods, byte counter and NP interval use the upper bits of their
// 32-bit registers (wide_stretch).
#include <algorithm>
#include <deque>
#include <sstream>
#include <vector>

#include "lockstep.h"
#include "dcqcn/dcqcn.h"
#include "tb_sets.h"

namespace {

using ll::tb::Coverage;
using ll::tb::Rng;
namespace dq = ll::dcqcn;
namespace regs = ll::dcqcn::regs;

using ll::tb::CfgOp;

template <class Dut>
class DcqcnBench {
 public:
  using In = dq::Inputs;
  using Out = dq::Outputs;

  DcqcnBench(const ll::tb::Params& p, uint64_t seed, Coverage& cov)
      : cfg_(dq::Config::from_params(p)), model_(cfg_), rng_(seed), aim_rng_(seed ^ 0x3ee1a1b0),
        wide_rng_(seed ^ 0x71de5eedu), cov_(cov),
        in_wheel_(cfg_.Queues, false) {
    for (unsigned i = 0; i < 3; ++i) hot_.push_back(static_cast<uint32_t>(rng_.below(cfg_.Queues)));
    bytes_max_ = (1u << cfg_.BytesW) - 1;
  }

  Dut& dut() { return dut_; }
  // the run's last cycle: the wide stretches take the last kWideRuns * kWideLen cycles,
  // after a reset kWideLead cycles before them (runs long enough for both)
  void run_length(uint64_t cycles) {
    wide_from_ = cycles + 1 > kWideRuns * kWideLen ? cycles + 1 - kWideRuns * kWideLen : 0;
    wide_reset_at_ = wide_from_ > 2 * kWideLead ? wide_from_ - kWideLead : ~0ull;
  }
  // the reset before the wide stretches: the RP's deadlines then start from the time, not
  // from wherever the run has left them (a 10^8-cycle soak's last segment is 1.7 x 10^7
  // cycles long, and the many-QP sets' alpha deadlines can fall millions of ticks behind in
  // it at the bench's short periods: their replay chains then hold the RP through the
  // stretches, the wide COMMITs wait behind them and the bins stay empty)
  bool want_reset() {
    if (cycle_ + 1 < wide_reset_at_ || wide_reset_asked_) return false;
    wide_reset_asked_ = true;
    return true;
  }
  void bind() {
    dut_.rst_ni(rst_n_);
    dut_.tick_i(tick_);
    dut_.ce_valid_i(ce_valid_);
    dut_.ce_ready_o(ce_ready_);
    dut_.ce_flow_i(ce_flow_);
    dut_.cnpo_valid_o(cnpo_valid_);
    dut_.cnpo_ready_i(cnpo_ready_);
    dut_.cnpo_flow_o(cnpo_flow_);
    dut_.cnp_valid_i(cnp_valid_);
    dut_.cnp_ready_o(cnp_ready_);
    dut_.cnp_qp_i(cnp_qp_);
    dut_.sent_valid_i(sent_valid_);
    dut_.sent_ready_o(sent_ready_);
    dut_.sent_qp_i(sent_qp_);
    dut_.sent_bytes_i(sent_bytes_);
    dut_.rate_valid_o(rate_valid_);
    dut_.rate_qp_o(rate_qp_);
    dut_.rate_o(rate_);
    dut_.enq_valid_i(enq_valid_);
    dut_.enq_ready_o(enq_ready_);
    dut_.enq_qp_i(enq_qp_);
    dut_.enq_bytes_i(enq_bytes_);
    dut_.grant_valid_o(grant_valid_);
    dut_.grant_ready_i(grant_ready_);
    dut_.grant_qp_o(grant_qp_);
    dut_.grant_bytes_o(grant_bytes_);
    reg_.bind(dut_);
  }

  void drive(const In& in) {
    rst_n_.write(in.rst_n);
    tick_.write(in.tick);
    ce_valid_.write(in.ce_valid);
    ce_flow_.write(in.ce_flow);
    cnpo_ready_.write(in.cnpo_ready);
    cnp_valid_.write(in.cnp_valid);
    cnp_qp_.write(in.cnp_qp);
    sent_valid_.write(in.sent_valid);
    sent_qp_.write(in.sent_qp);
    sent_bytes_.write(in.sent_bytes);
    enq_valid_.write(in.enq_valid);
    enq_qp_.write(in.enq_qp);
    enq_bytes_.write(in.enq_bytes);
    grant_ready_.write(in.grant_ready);
    reg_.drive(in);
  }

  Out sample() const {
    Out o;
    reg_.sample(o);
    o.ce_ready = ce_ready_.read();
    o.cnpo_valid = cnpo_valid_.read();
    o.cnpo_flow = cnpo_flow_.read();
    o.cnp_ready = cnp_ready_.read();
    o.sent_ready = sent_ready_.read();
    o.rate_valid = rate_valid_.read();
    o.rate_qp = rate_qp_.read();
    o.rate = rate_.read();
    o.enq_ready = enq_ready_.read();
    o.grant_valid = grant_valid_.read();
    o.grant_qp = grant_qp_.read();
    o.grant_bytes = grant_bytes_.read();
    return o;
  }

  Out expected(const In& in) const { return model_.eval(in); }

  static bool valid(const In& in) { return in.cnp_valid || in.sent_valid || in.ce_valid || in.enq_valid; }
  // Payloads are compared while their valid is high (they hold stale data otherwise).
  static std::string show(const In& i) {
    std::ostringstream os;
    os << "rst_n=" << i.rst_n << " tick=" << i.tick << " ce=" << i.ce_valid << "/" << i.ce_flow
       << " cnpo_ready=" << i.cnpo_ready << " cnp=" << i.cnp_valid << "/" << i.cnp_qp
       << " sent=" << i.sent_valid << "/" << i.sent_qp << "/" << i.sent_bytes << " enq=" << i.enq_valid
       << "/" << i.enq_qp << "/" << i.enq_bytes << " grant_ready=" << i.grant_ready << " cfg_we=" << i.cfg_we
       << " cfg_re=" << i.cfg_re << " cfg_addr=" << ll::tb::hex(i.cfg_addr) << " cfg_wdata=" << ll::tb::hex(i.cfg_wdata);
    return os.str();
  }

  // ---- the clock edge of the model, and coverage of what this cycle did
  void tick(const In& in) {
    const Out o = model_.eval(in);
    const bool ce_acc = in.ce_valid && o.ce_ready, cnp_acc = in.cnp_valid && o.cnp_ready;
    const bool sent_acc = in.sent_valid && o.sent_ready, enq_acc = in.enq_valid && o.enq_ready;
    const bool g_acc = o.grant_valid && in.grant_ready;
    if (in.rst_n) cover_inputs(in, o);
    // the NP's entry words a CE packet takes from its pipeline instead of the RAM: those of
    // the CE packets of its flow accepted 1 and 2 cycles before it
    if (in.rst_n && ce_acc) {
      if (ce_recent_.at(1, in.ce_flow)) cov_.hit("np_forward_back_to_back");
      if (ce_recent_.at(2, in.ce_flow)) cov_.hit("np_forward_gap_1");
    }
    ce_recent_.push(in.rst_n && ce_acc, in.ce_flow);
    hold_ce_ = in.rst_n && in.ce_valid && !ce_acc;
    hold_cnp_ = in.rst_n && in.cnp_valid && !cnp_acc;
    hold_sent_ = in.rst_n && in.sent_valid && !sent_acc;
    hold_enq_ = in.rst_n && in.enq_valid && !enq_acc;
    held_ = in;
    if (!in.rst_n) {
      programmed_ = false;
      ops_.clear();
      std::fill(in_wheel_.begin(), in_wheel_.end(), false);
      n_in_wheel_ = 0;
      // After a reset: read every register back before anything is written (each must
      // show its reset value), and in most resets let traffic run on the reset
      // configuration for a while before reprogramming a random one.
      probe_.assign(std::begin(regs::kReadable), std::end(regs::kReadable));
      program_delay_ = rng_.chance(75) ? rng_.range(30, 300) : 0;
      program_at_ = ~0ull;
      hold_cnps_ = rng_.chance(50);  // CNPs wait for the reprogramming (other traffic runs)
      stage_first_ = live_first_ = 0;
      stage_g_ = live_g_ = 8;
      stage_rmin_ = live_rmin_ = 1000;
      nic_ = true;
      aim_ = Aim::Off;
      aim_drain_ = false;
    } else {
      if (in.cfg_we && o.init_done) {
        if (in.cfg_addr == regs::STAGE_FIRST_RATE) stage_first_ = in.cfg_wdata;
        if (in.cfg_addr == regs::STAGE_RMIN) stage_rmin_ = in.cfg_wdata;
        if (in.cfg_addr == regs::STAGE_CTRL) stage_g_ = (in.cfg_wdata >> 8) & 0xF;
        if (in.cfg_addr == regs::COMMIT) { live_first_ = stage_first_; live_rmin_ = stage_rmin_; live_g_ = stage_g_; }
        if (in.cfg_addr == regs::STAT_CTRL && last_stat_ctrl_) cov_.hit("stat_ctrl_back_to_back");
      }
      last_stat_ctrl_ = in.cfg_we && o.init_done && in.cfg_addr == regs::STAT_CTRL;
      if (!programmed_ && (cnp_acc || sent_acc || ce_acc || enq_acc)) cov_.hit("traffic_before_reprogram");
      if (enq_acc && !in_wheel_[in.enq_qp]) {
        in_wheel_[in.enq_qp] = true;
        ++n_in_wheel_;
      }
      if (g_acc && in_wheel_[o.grant_qp]) {
        in_wheel_[o.grant_qp] = false;
        --n_in_wheel_;
      }
      if (in.cfg_we && o.init_done && in.cfg_addr == regs::COMMIT && traffic_) cov_.hit("commit_under_traffic");
      if (in.cfg_we && o.init_done && in.cfg_addr == regs::CNT_CLEAR) cov_.hit("counter_clear");
    }
    // the configuration this cycle's passes and NP decision use (a COMMIT may change it at
    // this edge): the wide-value bins
    wide_byte_reset_ = model_.rp_config().byte_reset >= (1u << 16);
    wide_inc_ = model_.rp_config().p_inc >= (1u << 24);
    wide_interval_ = model_.live().np_interval >= (1u << 16);
    model_.tick(in);
    if (in.rst_n) cover_model();
  }

  // ---- stimulus for the next cycle
  In stimulus(uint64_t cycle, bool in_reset) {
    In in;
    if (in_reset && cycle < 4) return in;
    const bool init_done = model_.eval(in).init_done;
    cycle_ = cycle;
    if (cycle % 40000 == 0) {  // time-base phase: sparse, half, or every cycle
      static const unsigned pct[] = {5, 50, 100, 100};
      tick_pct_ = pct[rng_.below(4)];
    }
    in.tick = rng_.below(100) < tick_pct_;
    if (cycle % 5000 == 0) {  // CNP load phase: silence (recovery to line rate) to storms
      static const unsigned cnp_pcts[] = {0, 0, 1, 3, 10, 30};
      cnp_pct_ = cnp_pcts[rng_.below(6)];
    }
    wide_stretch(cycle, init_done);
    if (wide_ != Wide::Off) in.tick = true;
    const unsigned cnp_pct = wide_ == Wide::Off ? cnp_pct_ : wide_cnps_ ? 10 : 0;
    if (init_done && !programmed_ && probe_.empty() && program_at_ == ~0ull) program_at_ = cycle + program_delay_;
    if (init_done && !programmed_ && cycle >= program_at_) {
      program(true);
      programmed_ = true;
      next_reprogram_ = cycle + 10000 + rng_.below(20000);
    }
    if (init_done && programmed_ && cycle >= next_reprogram_ && wide_ == Wide::Off) {
      program();
      next_reprogram_ = cycle + 10000 + rng_.below(20000);
    }
    // now and then a COMMIT right behind a replay (the staged set unchanged, so only the
    // RP's drain is at work: it waits for the replay chain; bin rp_commit_drain_behind_replay)
    if (init_done && programmed_ && ops_.empty() && model_.last_cov().rp.replay && rng_.chance(1))
      ops_.push_back({regs::COMMIT, 1});
    if (init_done && rng_.chance(1)) {  // per-QP snapshot (sometimes out of range), clears
      uint32_t q = rng_.chance(90) ? static_cast<uint32_t>(rng_.below(cfg_.Queues)) : 0xFFFF;
      if (rng_.chance(30)) {  // QP id at N-1, N, N+1 of Queues, or a legal id with a high bit set
        q = cfg_.Queues - 1 + static_cast<uint32_t>(rng_.below(3));
        const char* bin = q < cfg_.Queues ? "stat_qp_last" : q == cfg_.Queues ? "stat_qp_at_limit" : "stat_qp_above_limit";
        if (rng_.chance(40) && qw() < 16) {
          q = static_cast<uint32_t>(rng_.below(cfg_.Queues)) | (1u << rng_.range(qw(), 15));
          bin = "stat_qp_high_bit_alias";
        }
        if (q <= 0xFFFF) cov_.hit(bin);
        q &= 0xFFFF;
      }
      ops_.push_back({regs::STAT_CTRL, q | (rng_.chance(30) ? 0x80000000u : 0u)});
      // sometimes a second and third STAT_CTRL right behind (the first is still pending)
      if (rng_.chance(20)) {
        const unsigned n = static_cast<unsigned>(rng_.range(1, 2));
        for (unsigned k = 0; k < n; ++k)
          ops_.push_front({regs::STAT_CTRL, static_cast<uint32_t>(rng_.below(cfg_.Queues))});
        burst_ = n + 1;
      }
      if (rng_.chance(10)) ops_.push_back({regs::CNT_CLEAR, static_cast<uint32_t>(rng_.range(1, 15))});
    }
    if (!ops_.empty() && probe_.empty() && (burst_ || rng_.chance(60))) {
      if (burst_) --burst_;
      in.cfg_we = true;
      in.cfg_addr = ops_.front().addr;
      in.cfg_wdata = ops_.front().data;
      ops_.pop_front();
    } else if (probe_.empty() && rng_.chance(1)) {
      in.cfg_we = true;  // stray staged write (before init: ignored; after: staged only)
      in.cfg_addr = regs::STAGE_NP_INTERVAL;
      in.cfg_wdata = static_cast<uint32_t>(rng_.below(300));
      ops_.push_back({regs::STAGE_NP_INTERVAL, np_interval_});
    }
    if (!probe_.empty() && !in.cfg_we) {
      in.cfg_re = true;
      in.cfg_addr = probe_.back();
      probe_.pop_back();
      cov_.hit("reset_register_read_back");
    } else if (rng_.chance(12)) {  // reads, sometimes in the same cycle as a write (old value returned)
      // every readable register of the map (a new one cannot stay unread), plus
      // addresses that decode to nothing
      constexpr size_t kMapped = sizeof(regs::kReadable) / sizeof(regs::kReadable[0]);
      in.cfg_re = true;
      if (!in.cfg_we) {
        const uint64_t pick = rng_.below(kMapped + 2);
        in.cfg_addr = pick < kMapped ? regs::kReadable[pick] : pick == kMapped ? 0x7FCu : 0x046u;
      }
    }
    // NP output phases: now and then the CNP consumer stops for a while, so the NP's FIFO
    // fills and its CE input stalls (the FIFO has room for three packets in flight)
    if (cycle % 2000 == 0) cnpo_stall_until_ = cycle + (rng_.chance(50) ? rng_.range(20, 120) : 0);
    in.cnpo_ready = cycle >= cnpo_stall_until_ && !rng_.chance(25);
    in.grant_ready = !rng_.chance(25);
    // RP CNPs: hot QPs half of the time (back-to-back RMW hazards)
    if (hold_cnp_) {
      in.cnp_valid = true;
      in.cnp_qp = held_.cnp_qp;
    } else if (!(hold_cnps_ && !programmed_) && rng_.chance(cnp_pct)) {
      in.cnp_valid = true;
      in.cnp_qp = pick_qp();
    }
    if (hold_sent_) {
      in.sent_valid = true;
      in.sent_qp = held_.sent_qp;
      in.sent_bytes = held_.sent_bytes;
    } else if (rng_.chance(55)) {
      in.sent_valid = true;
      in.sent_qp = pick_qp();
      in.sent_bytes = static_cast<uint32_t>(rng_.range(1, bytes_max_));
    }
    if (hold_ce_) {
      in.ce_valid = true;
      in.ce_flow = held_.ce_flow;
    } else if (rng_.chance(cycle < cnpo_stall_until_ ? 70 : 30)) {
      in.ce_valid = true;
      in.ce_flow = rng_.chance(50) ? hot_[rng_.below(hot_.size())] : static_cast<uint32_t>(rng_.below(cfg_.Queues));
    }
    if (hold_enq_) {
      in.enq_valid = true;
      in.enq_qp = held_.enq_qp;
      in.enq_bytes = held_.enq_bytes;
    } else if (init_done && rng_.chance(70) &&
               n_in_wheel_ < std::min(16u, cfg_.Queues / 2)) {
      // at most 16 tokens outstanding: the line is not flooded, so a QP's next packet comes
      // right after its grant (backlogged QPs, departures beyond the horizon for slow ones)
      // hot QPs (low rates after many CNPs) half of the time: far departures, beyond the horizon
      const uint32_t q = rng_.chance(50) ? hot_[rng_.below(hot_.size())] : static_cast<uint32_t>(rng_.below(cfg_.Queues));
      for (uint32_t k = 0; k < cfg_.Queues; ++k) {
        const uint32_t c = (q + k) % cfg_.Queues;
        if (!in_wheel_[c] && !(aim_ != Aim::Off && c == aim_q_) && !aim_drain_) {
          in.enq_valid = true;
          in.enq_qp = c;
          in.enq_bytes = static_cast<uint32_t>(rng_.chance(70) ? rng_.range(64, std::min(1500u, bytes_max_))
                                                                : rng_.range(1, bytes_max_));
          break;
        }
      }
    }
    aim_at_old_horizon(in, cycle, init_done);
    traffic_ = in.cnp_valid || in.sent_valid;
    return in;
  }

 private:
  unsigned qw() const {
    unsigned b = 0;
    while ((1u << b) < cfg_.Queues) ++b;
    return b;
  }

  // The wheel's insertion at its own t_last in the horizon slot, in the cycle the horizon
  // moves on (the RTL forms the slot a cycle ahead, against the horizon of that cycle, and
  // must take the t_last's slot, not the new horizon: bin
  // wheel_insert_at_old_horizon_after_advance). Left to chance it comes 0-2 times a run. The
  // aim reserves the QP not in the wheel whose t_last's slot is the nearest at or beyond the
  // horizon (random enqueues leave it alone, and none at all while the horizon is within
  // Slots/2 of that slot with the drain pointer behind now, so the wheel drains), waits until
  // the horizon reaches the slot while the drain pointer is on now's slot, enqueues it, then
  // steers the time base: ticks until now is on its slot's last tick, none while the
  // division runs on, and one two cycles before the insertion, so now enters the next slot
  // and the drain pointer (its slot empty) moves on in the cycle the insertion's slot is
  // formed. It fails when that slot holds tokens or a pop is under way (then the pointer
  // does not move), and where the pointer runs behind now for long (s1, s5). Choices from a
  // generator of their own; the random stream is unchanged but for the ticks steered and
  // the enqueues held back.
  void aim_at_old_horizon(In& in, uint64_t cycle, bool init_done) {
    const dq::WheelCyc& w = model_.wheel();
    const uint64_t spt = 1ull << cfg_.SlotLog2;  // ticks per slot
    const uint64_t now = model_.now(), cur = now >> cfg_.SlotLog2;
    const uint64_t horizon = w.drain_slot() + cfg_.Slots - 1;
    auto tl_slot = [&](uint32_t q) { return w.t_last(q) >> (dq::kTimeFrac + cfg_.SlotLog2); };
    if (!init_done || !programmed_) { aim_ = Aim::Off; aim_drain_ = false; return; }
    if (aim_ == Aim::Off) {
      if (cycle < next_aim_) return;
      next_aim_ = cycle + aim_rng_.range(20, 100);
      // the QP (not in the wheel) whose t_last's slot is the nearest at or beyond the
      // horizon, from a random start
      const uint32_t start = static_cast<uint32_t>(aim_rng_.below(cfg_.Queues));
      uint64_t best = ~0ull;
      for (uint32_t k = 0; k < cfg_.Queues; ++k) {
        const uint32_t q = (start + k) % cfg_.Queues;
        if (in_wheel_[q] || (hold_enq_ && held_.enq_qp == q)) continue;
        const uint64_t s = tl_slot(q);
        if (s < horizon || s - horizon >= best) continue;
        best = s - horizon;
        aim_q_ = q;
      }
      if (best == ~0ull) return;
      aim_ = Aim::Wait;
      aim_until_ = cycle + 1000 + (best + 1) * spt * 25;  // about 25 cycles a tick (sparse ticks: 20)
      return;
    }
    if (aim_ == Aim::Wait) {
      const uint64_t s = tl_slot(aim_q_);
      aim_drain_ = false;
      if (s < horizon || cycle >= aim_until_ || in_wheel_[aim_q_]) { aim_ = Aim::Off; return; }
      // near the slot with the drain pointer behind now: no random enqueues (the wheel drains)
      aim_drain_ = s - horizon <= cfg_.Slots / 2 && w.drain_slot() != cur;
      // enqueue it now if the horizon is on its slot, the drain pointer on now's slot, and
      // the division leaves enough cycles to bring now to its slot's last tick
      const uint64_t steps = 64 / cfg_.DivBits + 1;  // ticks possible before the steered one
      if (s != horizon || w.drain_slot() != cur || (now & (spt - 1)) + steps < spt - 1) return;
      if (hold_enq_ || !model_.eval(in).enq_ready) {  // hold the horizon there until it can go
        in.tick = false;
        return;
      }
      in.enq_valid = true;
      in.enq_qp = aim_q_;
      in.enq_bytes = static_cast<uint32_t>(aim_rng_.range(64, std::min(1500u, bytes_max_)));
      in.tick = (now & (spt - 1)) < spt - 1;
      aim_ = Aim::Steer;
      cov_.hit("wheel_aim_old_horizon");
      return;
    }
    // steering: the enqueue is reading, forming the rate's multiples or dividing
    const unsigned left = w.divide_left();
    if (left == 2) {
      in.tick = (now & (spt - 1)) == spt - 1;
      aim_ = Aim::Off;
    } else if (left == 1) {  // a one-step division (DivBits 64): too late to steer
      aim_ = Aim::Off;
    } else {
      in.tick = (now & (spt - 1)) < spt - 1;
    }
  }

  // The wide stretches: the run's last kWideRuns * kWideLen cycles (after everything else,
  // so the rest of the run is not changed by them) take programmings whose 32-bit registers
  // have their upper bits set: an increase period of 2^24 ticks or more, a byte counter of
  // 2^16 .. 2^17 - 1 bytes and an NP interval of 2^16 ticks or more (the rest of the run
  // programs them below 2^15). The stretches take turns: the NIC variant and the paper's (a
  // decrease restarts the increase timer on a different path in each), and in the first two
  // the period's and the interval's low bits are small, so a datapath that drops the upper
  // bits fires within the stretch (in the other two they are random). The time ticks every
  // cycle. Each stretch first commits the staged set with short decrease and increase
  // periods for kWidePrime cycles, CNPs at 10% but none in the last kWideGap (the pending
  // decreases are done, every active QP's increase timer is due within 200 ticks), then
  // the wide programming. In its first kWideGap cycles, without CNPs, every active QP's
  // timer expires once under the wide period (which sets its next expiry); then, to
  // kWideStorm cycles after the commit, CNPs at 10%: decreases restart the timer with the
  // wide period and the NP holds back marks within the wide interval; then no CNPs, so the
  // hot QPs' byte counters run to the wide reset without a cut. Alpha periods of 300 .. 1000
  // ticks keep the replays of the many-QP sets few. Choices from a generator of their own.
  void wide_stretch(uint64_t cycle, bool init_done) {
    wide_ = Wide::Off;
    if (cycle < wide_from_) return;
    const uint64_t k = (cycle - wide_from_) / kWideLen, at = (cycle - wide_from_) % kWideLen;
    wide_ = at < kWidePrime ? Wide::Prime : at < kWidePrime + kWideStorm ? Wide::Storm : Wide::Quiet;
    wide_cnps_ = wide_ != Wide::Quiet && (at + kWideGap < kWidePrime || at >= kWidePrime + kWideGap);
    // the programmings go out once each (after a reset, from the next phase on)
    if (!init_done || !programmed_ || wide_ == Wide::Quiet) return;
    const uint64_t step = 2 * k + (wide_ == Wide::Prime ? 0 : 1);
    if (step < wide_step_) return;
    wide_step_ = step + 1;
    if (wide_ == Wide::Prime) {
      ops_.push_back({regs::STAGE_DEC_PERIOD, static_cast<uint32_t>(wide_rng_.range(20, 100))});
      ops_.push_back({regs::STAGE_INC_PERIOD, static_cast<uint32_t>(wide_rng_.range(20, 200))});
      ops_.push_back({regs::COMMIT, 1});
    } else {
      program_wide(k);
    }
  }

  void program_wide(uint64_t turn) {
    Rng& r = wide_rng_;
    const bool nic = turn % 2 == 0, small_lo = turn % 4 < 2;
    const uint32_t g = static_cast<uint32_t>(r.range(3, 9));
    const uint32_t ctrl = (nic ? 1u : 0u) | (r.chance(50) ? 2u : 0u) | (r.chance(30) ? 4u : 0u) |
                          (r.chance(50) ? 8u : 0u) | (g << 8);  // NP coalescing (bit 4 clear)
    const uint32_t pa = static_cast<uint32_t>(r.range(300, 1000));
    const uint32_t pd = static_cast<uint32_t>(r.range(pa, 2 * pa));
    const uint32_t pi = static_cast<uint32_t>((r.range(1, 255) << 24) |
                                              (small_lo ? r.range(50, 3000) : r.range(0, 0xFFFFFF)));
    const uint32_t br = static_cast<uint32_t>(r.range(1u << 16, (1u << 17) - 1));
    np_interval_ = static_cast<uint32_t>((r.range(1, 0xFFFF) << 16) |
                                         (small_lo ? r.range(0, 3000) : r.range(0, 0xFFFF)));
    const uint32_t rmin = static_cast<uint32_t>(r.range(1, 20000));
    dq::StageRegs w{ctrl, pa, pd, pi, br};  // STAGE_CTRL .. BYTE_RESET; first rate 0, alpha 1
    w.rmin = rmin;
    w.threshold = static_cast<uint32_t>(r.range(0, 5));
    w.rai = static_cast<uint32_t>(r.range(1, 2000));
    w.rhai = static_cast<uint32_t>(r.range(10, 20000));
    w.first_rate = 0;
    w.alpha_init = 65536;
    w.min_dec_fac = 0;
    w.np_interval = np_interval_;
    push_program(w);
    nic_ = nic;
    per_pkt_ = false;
  }

  uint32_t pick_qp() {
    return rng_.chance(50) ? hot_[rng_.below(hot_.size())] : static_cast<uint32_t>(rng_.below(cfg_.Queues));
  }

  // after_reset: the first programming after a reset, when every QP is still waiting for
  // its first CNP. The rare configurations some bins need come in turn, not by chance
  // (left to chance, a bin now and then fell below 10 hits in a run: a different
  // trajectory after any change of timing):
  //   after a reset, in turn: NIC mode with a first rate at or below Rmin (bins
  //   first_cnp_nic, first_cnp_rate_below_rmin); the paper's variant (first_cnp_paper);
  //   either, at random;
  //   other programmings, in turn: random; a deferral profile (NIC mode, alpha periods of
  //   1-4 ticks, a decrease period longer than AlphaSteps of them, so a QP whose last pass
  //   is more than AlphaSteps alpha periods behind its decrease check defers the decrease:
  //   decrease_deferred); the gain shift 0 (decrease_gain_shift_0); a low Rmin (rates far
  //   below the line, wheel departures beyond the horizon: wheel_beyond_horizon); NIC mode
  //   with CLAMP_ATI alone and an increase period above the decrease period (decreases
  //   without an increase between: clamp_ati_skipped_without_increase).
  void program(bool after_reset = false) {
    const unsigned turn = after_reset ? reset_turn_++ % 3 : prog_turn_++ % 6;
    const bool first_low = after_reset && turn == 0;
    const bool paper = after_reset && turn == 1;
    const bool defer = !after_reset && (turn == 1 || turn == 5);   // twice in six: its bin is the rarest
    const bool g_zero = !after_reset && turn == 2;
    const bool low_rmin = !after_reset && turn == 3;
    const bool ati = !after_reset && turn == 4;
    const bool nic = !paper && (first_low || defer || ati || rng_.chance(50));
    // gain shift: mostly 3..9, and its limits 0 (raised to 1), 1 and 15 on purpose
    const unsigned gr = static_cast<unsigned>(rng_.below(100));
    const uint32_t g = g_zero ? 0 : static_cast<uint32_t>(gr < 10 ? 0 : gr < 15 ? 1 : gr < 20 ? 15 : gr < 30 ? rng_.range(0, 15) : rng_.range(3, 9));
    const bool tgt = !ati && rng_.chance(30), ati_on = ati || rng_.chance(50);
    const uint32_t ctrl = (nic ? 1u : 0u) | (rng_.chance(50) ? 2u : 0u) | (tgt ? 4u : 0u) |
                          (ati_on ? 8u : 0u) | (rng_.chance(40) ? 16u : 0u) | (g << 8) |
                          (rng_.chance(5) ? 0xE0u : 0u);  // undefined bits: dropped by the mask
    // alpha period: mostly far below what the scans keep current (replays are frequent),
    // sometimes longer (fewer replays: the 5-cycle replays would otherwise take most RMW
    // slots of the 256-QP set and starve the decrease and wheel bins)
    const uint32_t steps = cfg_.AlphaSteps;
    const uint32_t pa = static_cast<uint32_t>(defer ? rng_.range(1, 4) : rng_.chance(5) ? 0 : rng_.chance(25) ? rng_.range(300, 1000) : rng_.range(4, 300));
    const uint32_t pd = static_cast<uint32_t>(defer ? rng_.range(steps * pa + 1, 4 * steps * pa + 50)
                                                    : rng_.range(pa ? pa : 1, 4 * (pa ? pa : 1) + 50));
    // increase period: sometimes above the decrease period (as in the reference
    // configuration), so that decreases follow each other without an increase between
    // (CLAMP_ATI then skips the clamp: bin clamp_ati_skipped_without_increase)
    const uint32_t pi = static_cast<uint32_t>(ati || rng_.chance(30) ? rng_.range(pd + 1, 8 * pd + 100)
                                              : rng_.chance(50) ? rng_.range(20, 200) : rng_.range(200, 2500));
    const uint32_t br = static_cast<uint32_t>(rng_.chance(50) ? 0 : rng_.range(500, 30000));
    np_interval_ = static_cast<uint32_t>(rng_.chance(20) ? 0 : rng_.range(1, 600));
    dq::StageRegs r{ctrl, pa, pd, pi, br};  // STAGE_CTRL .. BYTE_RESET; the rest drawn in write order
    r.threshold = static_cast<uint32_t>(rng_.range(0, 5));
    r.rai = static_cast<uint32_t>(rng_.range(1, 2000));
    r.rhai = static_cast<uint32_t>(rng_.range(10, 20000));
    // Rmin: sometimes high (cuts then floor at it often; replays slow the event rate down)
    // or low (rates far below the line: wheel departures beyond the horizon)
    const uint32_t rmin = static_cast<uint32_t>(low_rmin ? rng_.range(1, 300) : rng_.chance(5) ? 0 : rng_.chance(15) ? rng_.range(20000, 60000) : rng_.chance(25) ? rng_.range(1, 300) : rng_.range(1, 20000));
    r.rmin = rmin;
    // first rate: 0 (unchanged), any, or at/below Rmin (must be raised to Rmin)
    const unsigned fr = static_cast<unsigned>(rng_.below(100));
    r.first_rate = first_low ? static_cast<uint32_t>(rng_.range(1, std::max<uint32_t>(1, rmin)))
                 : fr < 45 ? 0 : fr < 65 ? static_cast<uint32_t>(rng_.range(1, 200000))
                 : static_cast<uint32_t>(rng_.range(1, std::max<uint32_t>(1, rmin)));
    r.alpha_init = static_cast<uint32_t>(rng_.chance(60) ? 65536 : rng_.range(0, 0x1FFFF));
    r.min_dec_fac = static_cast<uint32_t>(rng_.chance(70) ? 0 : rng_.range(0, 0x1FFFF));
    r.np_interval = np_interval_;
    push_program(r);
    nic_ = nic;
    per_pkt_ = ctrl & 16u;
  }

  // every STAGE_* register of r, then COMMIT
  void push_program(const dq::StageRegs& r) {
    for (const CfgOp& op : dq::stage_ops(r)) ops_.push_back(op);
  }

  void cover_inputs(const In& in, const Out& o) {
    if (!o.init_done) return;
    if (in.cnp_valid && !o.cnp_ready) cov_.hit("stall_cnp");
    if (in.sent_valid && !o.sent_ready) cov_.hit("stall_sent");
    if (in.ce_valid && !o.ce_ready) cov_.hit("stall_ce");
    if (in.enq_valid && !o.enq_ready) cov_.hit("stall_enq");
    if (o.cnpo_valid && !in.cnpo_ready) cov_.hit("stall_cnp_out");
    if (o.grant_valid && !in.grant_ready) cov_.hit("stall_grant");
    if (o.cfg_rvalid) cov_.hit("cfg_read");
    if (in.cnp_valid && o.cnp_ready && in.sent_valid) cov_.hit("cnp_and_sent_same_cycle");
  }

  void cover_model() {
    const auto& c = model_.last_cov();
    const auto& r = c.rp;
    if (r.pass_valid) {
      const auto& p = r.cov;
      // bin names per variant (literals: Coverage::hit's fast path)
      const bool n = nic_;
      if (p.first_cnp) cov_.hit(n ? "first_cnp_nic" : "first_cnp_paper");
      // decreases under the limits of the gain shift (0 acts as 1)
      if (p.dec && live_g_ == 0) cov_.hit("decrease_gain_shift_0");
      if (p.first_cnp && nic_ && live_first_ != 0 && live_first_ < std::max<uint32_t>(1, live_rmin_))
        cov_.hit("first_cnp_rate_below_rmin");
      if (p.fr) cov_.hit(n ? "fast_recovery_nic" : "fast_recovery_paper");
      if (p.ai) cov_.hit(n ? "additive_nic" : "additive_paper");
      if (p.hai) cov_.hit(n ? "hyper_nic" : "hyper_paper");
      if (p.dec) cov_.hit(n ? "decrease_nic" : "decrease_paper");
      if (p.clamp_taken) cov_.hit("clamp_taken");
      if (p.clamp_not) cov_.hit("clamp_not_taken");
      if (p.ati_stage0) cov_.hit("clamp_ati_skipped_without_increase");
      if (p.min_rate) cov_.hit(n ? "min_rate_nic" : "min_rate_paper");
      if (p.line_cap) cov_.hit("line_rate_cap");
      if (p.same_time) cov_.hit("same_time_event");
      if (p.byte_event) cov_.hit("byte_counter_event");
      // under the wide stretch's values (upper bits of the 32-bit registers in use)
      if (p.byte_event && wide_byte_reset_) cov_.hit("byte_counter_event_wide_reset");
      if (p.dec && wide_inc_) cov_.hit("decrease_wide_inc_period");
      if (p.fr + p.ai + p.hai > (p.byte_event ? 1u : 0u) && wide_inc_) cov_.hit("increase_timer_wide_period");
      if (p.dec_deferred) cov_.hit("decrease_deferred");
      if (r.late) cov_.hit("catch_up_late");
      if (r.kind == dq::Ev::Scan) cov_.hit("scan_pass");
    }
    if (r.replay) {  // a late event/snapshot pass: written back partially, event replayed
      cov_.hit(r.replay_kind == dq::Ev::Cnp ? "replay_cnp" : r.replay_kind == dq::Ev::Sent ? "replay_sent" : "replay_snapshot");
      if (r.replay_again) cov_.hit("replay_again");
    }
    if (r.replay_blocks_same_qp) cov_.hit("replay_same_qp_waits");
    if (r.cfg_wait) cov_.hit("rp_commit_drain_wait");
    if (r.cfg_wait_replay) cov_.hit("rp_commit_drain_behind_replay");
    if (r.cfg_reload) cov_.hit("rp_commit_reload");
    if (r.fwd_s2) cov_.hit("rmw_hazard_s2");
    if (r.fwd_wb) cov_.hit("rmw_hazard_wb");
    if (r.stall) cov_.hit("rmw_hazard_stall");
    if (c.snap_done) cov_.hit("snapshot");
    if (c.np_sent) cov_.hit(per_pkt_ ? "np_per_packet_cnp" : "np_coalesce_cnp");
    if (c.np_suppressed) cov_.hit("np_coalesce_suppressed");
    if (c.np_suppressed && wide_interval_) cov_.hit("np_coalesce_suppressed_wide_interval");
    // an interval test whose packet and last CNP differ in the time's upper half (the RTL
    // compares the halves apart): sets whose TimeStart lies just below a carry into bit 24
    if (c.np.valid && c.np.seen && !per_pkt_ && ((c.np.t ^ c.np.last) >> (dq::kTimeW / 2)) != 0)
      cov_.hit("np_interval_across_time_halves");
    if (c.wheel.wrap) cov_.hit("wheel_wrap");
    if (c.wheel.reinsert) cov_.hit("wheel_beyond_horizon");
    if (c.wheel.ins_held_b) cov_.hit("wheel_insert_behind_pop");
    if (c.wheel.ins_held_c) cov_.hit("wheel_insert_behind_reinsert");
    if (c.wheel.ins_clamped) cov_.hit("wheel_insert_clamped");
    if (c.wheel.ins_clamped_adv) cov_.hit("wheel_insert_clamped_after_advance");
    if (c.wheel.ins_old_horizon_adv) cov_.hit("wheel_insert_at_old_horizon_after_advance");
    if (c.wheel.ins_now_moved) cov_.hit("wheel_insert_now_moved");
    if (c.wheel.ins_held_d) cov_.hit("wheel_insert_behind_check");
    if (c.wheel.pop_checked_parked) cov_.hit("wheel_pop_checked_parked");
    if (c.wheel.pop_checked_unparked) cov_.hit("wheel_pop_checked_unparked");
  }

  dq::Config cfg_;
  dq::Model model_;
  Rng rng_;
  Rng aim_rng_;  // the wheel aim's choices (aim_at_old_horizon)
  Rng wide_rng_;  // the wide stretch's programming (program_wide)
  Coverage& cov_;
  Dut dut_{"dut"};
  ll::tb::RegPort reg_;
  ll::tb::Wire<bool> rst_n_, tick_, ce_valid_, ce_ready_, cnpo_valid_, cnpo_ready_, cnp_valid_, cnp_ready_,
      sent_valid_, sent_ready_, rate_valid_, enq_valid_, enq_ready_, grant_valid_, grant_ready_;
  ll::tb::Wire<uint32_t> ce_flow_, cnpo_flow_, cnp_qp_, sent_qp_, sent_bytes_, rate_qp_, enq_qp_, enq_bytes_,
      grant_qp_, grant_bytes_;
  ll::tb::Wire<uint64_t> rate_;

  std::vector<bool> in_wheel_;
  uint32_t n_in_wheel_ = 0;   // QPs set in in_wheel_ (counted, not scanned: s5 has 1,024)
  unsigned reset_turn_ = 0, prog_turn_ = 0;   // program(): whose turn the rare configurations are
  std::vector<uint32_t> hot_;
  uint32_t bytes_max_ = 0, np_interval_ = 0;
  unsigned tick_pct_ = 100, cnp_pct_ = 10;
  std::deque<CfgOp> ops_;
  bool programmed_ = false, nic_ = true, per_pkt_ = false, traffic_ = false;
  bool hold_ce_ = false, hold_cnp_ = false, hold_sent_ = false, hold_enq_ = false;
  ll::tb::RecentKeys<2> ce_recent_;  // the flows of the CE packets accepted in the last 2 cycles
  uint64_t next_reprogram_ = 0;
  In held_;
  // post-reset read-back and delayed programming
  std::vector<uint32_t> probe_{std::begin(regs::kReadable), std::end(regs::kReadable)};
  uint64_t program_delay_ = 0, program_at_ = ~0ull;
  // shadow of the first rate and Rmin (staged and live), STAT_CTRL bursts
  uint32_t stage_first_ = 0, live_first_ = 0, stage_rmin_ = 1000, live_rmin_ = 1000;
  uint32_t stage_g_ = 8, live_g_ = 8;
  unsigned burst_ = 0;
  uint64_t cnpo_stall_until_ = 0;
  bool last_stat_ctrl_ = false, hold_cnps_ = false;
  // the wheel aim: off, waiting for the horizon to reach the reserved QP's slot, steering
  // the time base while its enqueue runs
  enum class Aim : uint8_t { Off, Wait, Steer };
  Aim aim_ = Aim::Off;
  uint32_t aim_q_ = 0;
  bool aim_drain_ = false;  // random enqueues held back while the wheel drains
  uint64_t next_aim_ = 0, aim_until_ = 0;
  // the wide stretches (wide_stretch): this cycle's phase (off, short periods, CNP storm,
  // quiet), where they start, the programmings that went out
  enum class Wide : uint8_t { Off, Prime, Storm, Quiet };
  static constexpr uint64_t kWideRuns = 4, kWideLen = 12000, kWidePrime = 1000, kWideStorm = 3500;
  static constexpr uint64_t kWideGap = 300;  // no CNPs either side of the wide commit
  Wide wide_ = Wide::Off;
  bool wide_cnps_ = false;  // CNPs in this cycle of the stretch
  static constexpr uint64_t kWideLead = 3000;  // the reset before them: init sweep, programming
  bool wide_reset_asked_ = false;  // want_reset() said yes
  uint64_t wide_from_ = ~0ull, wide_step_ = 0, wide_reset_at_ = ~0ull;  // ~0: run_length() not called
  uint64_t cycle_ = 0;  // the cycle of the last stimulus
  bool wide_byte_reset_ = false, wide_inc_ = false, wide_interval_ = false;  // this cycle's config
};

}  // namespace

#define LL_TB_BENCH DcqcnBench
LL_TB_MAIN("dcqcn")
