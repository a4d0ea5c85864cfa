// Golden model of the DCQCN block; see dcqcn.h and docs/dcqcn.md.
#include "dcqcn/dcqcn.h"
#include "dcqcn/dcqcn_params.h"

#include <algorithm>
#include <stdexcept>

#include "common/bits.h"

namespace ll::dcqcn {

// ------------------------------------------------------------------ configuration
Live live_from_stage(const StageRegs& r, uint64_t line) {
  Live c;
  auto mb = [&](uint32_t v) { return std::min<uint64_t>(static_cast<uint64_t>(v) * kMbps, line); };
  c.nic = (r.ctrl >> regs::STAGE_CTRL_NIC_LSB) & 1;
  c.hai_grow = (r.ctrl >> regs::STAGE_CTRL_HAI_GROW_LSB) & 1;
  c.clamp_tgt = (r.ctrl >> regs::STAGE_CTRL_CLAMP_TGT_LSB) & 1;
  c.clamp_ati = (r.ctrl >> regs::STAGE_CTRL_CLAMP_ATI_LSB) & 1;
  c.np_per_pkt = (r.ctrl >> regs::STAGE_CTRL_NP_PER_PKT_LSB) & 1;
  const unsigned gs = (r.ctrl >> regs::STAGE_CTRL_G_SHIFT_LSB) & 0xF;
  c.g_shift = gs ? gs : 1;
  c.p_alpha = std::max<uint32_t>(r.alpha_period, 1);
  c.p_dec = std::max<uint32_t>(r.dec_period, 1);
  c.p_inc = std::max<uint32_t>(r.inc_period, 1);
  c.byte_reset = r.byte_reset;
  c.F = r.threshold & 0xFF;
  c.line = line;
  c.rai = mb(r.rai);
  c.rhai = mb(r.rhai);
  c.rmin = mb(std::max<uint32_t>(r.rmin, 1));
  c.first_rate = r.first_rate ? std::max(mb(r.first_rate), c.rmin) : 0;
  c.alpha_init = static_cast<uint64_t>(std::min<uint32_t>(r.alpha_init & 0x1FFFF, 1u << kCfgQ16)) << (kAlphaFrac - kCfgQ16);
  c.min_dec_fac = static_cast<uint64_t>(std::min<uint32_t>(r.min_dec_fac & 0x1FFFF, 1u << kCfgQ16)) << (kAlphaFrac - kCfgQ16);
  c.np_interval = r.np_interval;
  return c;
}

CfgProgram stage_ops(const StageRegs& r) {
  return {{regs::STAGE_CTRL, r.ctrl},           {regs::STAGE_ALPHA_PERIOD, r.alpha_period},
          {regs::STAGE_DEC_PERIOD, r.dec_period}, {regs::STAGE_INC_PERIOD, r.inc_period},
          {regs::STAGE_BYTE_RESET, r.byte_reset}, {regs::STAGE_THRESHOLD, r.threshold},
          {regs::STAGE_RAI, r.rai},               {regs::STAGE_RHAI, r.rhai},
          {regs::STAGE_RMIN, r.rmin},             {regs::STAGE_FIRST_RATE, r.first_rate},
          {regs::STAGE_ALPHA_INIT, r.alpha_init}, {regs::STAGE_MIN_DEC_FAC, r.min_dec_fac},
          {regs::STAGE_NP_INTERVAL, r.np_interval}, {regs::COMMIT, 1}};
}

StageRegs stage_regs(const RpSettings& s) {
  StageRegs r;
  r.ctrl = (s.nic ? 1u : 0u) << regs::STAGE_CTRL_NIC_LSB | (s.hai_grow ? 1u : 0u) << regs::STAGE_CTRL_HAI_GROW_LSB |
           (s.clamp_tgt ? 1u : 0u) << regs::STAGE_CTRL_CLAMP_TGT_LSB |
           (s.clamp_ati ? 1u : 0u) << regs::STAGE_CTRL_CLAMP_ATI_LSB |
           (s.np_per_pkt ? 1u : 0u) << regs::STAGE_CTRL_NP_PER_PKT_LSB |
           (s.g_shift & 0xFu) << regs::STAGE_CTRL_G_SHIFT_LSB;
  r.alpha_period = s.alpha_period;
  r.dec_period = s.dec_period;
  r.inc_period = s.inc_period;
  r.byte_reset = s.byte_reset;
  r.threshold = s.F;
  r.rai = s.rai_mbps;
  r.rhai = s.rhai_mbps;
  r.rmin = s.rmin_mbps;
  r.first_rate = s.first_mbps;
  r.alpha_init = s.alpha_init_q16;
  r.min_dec_fac = s.min_dec_fac_q16;
  r.np_interval = s.np_interval;
  return r;
}

void Config::validate() const {
  auto bad = [](const std::string& m) { throw std::invalid_argument("dcqcn: " + m); };
  // Ranges: rtl/dcqcn/dcqcn_params.json, through scripts/params.py; then the one rule the
  // generator cannot express (128-bit arithmetic).
  if (const std::string e = params::check(*this); !e.empty()) bad(e);
  const unsigned __int128 num = static_cast<unsigned __int128>((1ull << BytesW) - 1 + IfgBytes) * 8u * tps();
  if (num >> 63) bad("TickPs too small: (2^BytesW + IfgBytes) * 8 * ticks/s * 2^16 must fit 63 bits");
  if (tps() == 0) bad("TickPs too large");
}

Config Config::from_params(const std::map<std::string, uint64_t>& p) { return params::from_params<Config>(p); }

unsigned Config::qw() const { return clog2(Queues); }
uint64_t Config::tps() const { return static_cast<uint64_t>((static_cast<unsigned __int128>(1000000000000ull) << kTimeFrac) / TickPs); }
uint64_t Config::ltpb() const {
  const unsigned __int128 n = static_cast<unsigned __int128>(tps()) * 8u;
  const uint64_t d = line_bps();
  return static_cast<uint64_t>((n + d - 1) / d);
}

// ------------------------------------------------------------------ NP
void NpCyc::reset() {
  sweep_.reset();
  s1_.valid = s2_.valid = s3_valid_ = s3_send_ = false;
  rd_ = wr_ = fifo_n_ = 0;
  dec_ = Decision{};
}

bool NpCyc::decide(NpEntry& e, uint64_t t, bool per_pkt, uint64_t interval) {
  const bool send = per_pkt || !e.seen || (t - e.last) >= interval;
  if (send) {
    e.seen = true;
    e.last = t;
  }
  return send;
}

// The packet is accepted (S0), takes the coalescing interval in S1, decides in S2 on its
// entry as every packet ahead of it left it (what the RTL's read at acceptance and the two
// words it forwards give) and writes it back at that edge, and pushes its CNP from S3.
bool NpCyc::clock(const In& in) {
  if (!in.rst_n) {
    reset();
    return false;
  }
  const bool done = sweep_.done();
  const bool acc = ce_ready() && in.ce_valid;
  NpEntry e{};
  bool send = false;
  dec_ = Decision{};
  if (s2_.valid) {
    e = ram_.at(s2_.flow);
    dec_ = Decision{true, e.seen, s2_.t, e.last};
    send = decide(e, s2_.t, in.per_pkt, s2_.interval);
  }
  const bool push = s3_send_;
  const bool pop = out_valid() && in.out_ready;
  // (no read port: S2 takes its entry from ram_.at above)
  if (!done) ram_.clock(false, 0, true, sweep_.addr(), NpEntry{});
  else ram_.clock(false, 0, s2_.valid, s2_.flow, e);
  if (pop) {
    rd_ = (rd_ + 1) % kFifo;
    --fifo_n_;
  }
  if (push) {
    fifo_[wr_] = s3_flow_;
    wr_ = (wr_ + 1) % kFifo;
    ++fifo_n_;
  }
  s3_valid_ = s2_.valid;
  s3_send_ = s2_.valid && send;
  s3_flow_ = s2_.flow;
  s2_ = s1_;
  s2_.interval = in.interval;
  s1_ = Stage{acc, in.ce_flow, in.now, 0};
  if (!done) sweep_.clock();
  return push;
}

bool NpCyc::marked(uint32_t flow, uint64_t t, bool per_pkt, uint64_t interval) {
  return decide(ram_.at(flow), t, per_pkt, interval);
}

// ------------------------------------------------------------------ RP
void RpCyc::reset() {
  sweep_.reset();
  gap_ = 0;
  scan_ptr_ = 0;
  s1_ = RpEvent{};
  s2_ = RpEvent{};
  for (auto& x : ps_) x.ev = RpEvent{};
  rep_ = RpEvent{};
  rep_wait_ = 0;
  s2_replay_ = false;
  wb_valid_ = false;
  rate_valid_ = false;
  cfg_pend_ = false;
}

void RpCyc::fill(const Live& live) {
  reset();
  cfgq_ = live;
  for (size_t q = 0; q < cfg_.Queues; ++q) ram_.at(q) = qp_reset<Fixed>(live);
  while (!sweep_.done()) sweep_.clock();
}

RpCyc::Pulses RpCyc::clock(const In& in, const Live& live) {
  const bool rst_n = in.rst_n, snap_valid = in.snap_valid, snap_clr = in.snap_clr, cnp_valid = in.cnp_valid,
             sent_valid = in.sent_valid;
  const uint64_t now = in.now;
  const uint32_t snap_qp = in.snap_qp, cnp_qp = in.cnp_qp, sent_qp = in.sent_qp, sent_bytes = in.sent_bytes;
  Pulses p;
  if (!rst_n) {
    reset();
    return p;
  }
  const bool done = sweep_.done();
  const bool stall = this->stall();
  p.stall = stall;
  // stage 2: the whole pass on the S2 state with the configuration copy (the RTL's stages
  // read the copy, which does not change while a pass is in S2..S5, so every stage sees
  // this one). A late pass writes back its partial catch-up only; the event is replayed.
  Qp<Fixed> res2 = s2_state_;
  bool late2 = false;
  PassCov cov2;
  if (s2_.valid) late2 = pass(res2, cfgq_, cfg_.bounds(), s2_.kind, s2_.t, s2_.bytes, nullptr, &cov2);
  const bool rep_now = s2_.valid && s2_.kind != Ev::Scan && late2;
  const bool rep_go = rep_.valid && rep_wait_ == 0;  // its partial pass is in S6
  const bool drain = drained();
  const bool cfg_blk = cfg_block();
  const bool hold = stall || rep_.valid || rep_now || cfg_blk;
  p.cfg_wait = cfg_blk;
  p.cfg_wait_replay = cfg_blk && (rep_.valid || rep_now);
  p.cfg_reload = done && cfg_pend_ && drain;
  p.replay = rep_now;
  p.replay_kind = s2_.kind;
  p.replay_again = rep_now && s2_replay_;
  p.rep_reissue = rep_.valid;
  p.replay_blocks_same_qp = (rep_now && s1_.valid && s1_.qp == s2_.qp) ||
                            (rep_.valid && s1_.valid && s1_.qp == rep_.qp);
  // stage 0: arbitration
  RpEvent e0;
  e0.t = now;
  if (done && !hold) {
    e0.valid = true;
    if (force()) { e0.kind = Ev::Scan; e0.qp = scan_ptr_; }
    else if (snap_valid) { e0.kind = Ev::Snap; e0.qp = snap_qp; e0.clr = snap_clr; }
    else if (cnp_valid) { e0.kind = Ev::Cnp; e0.qp = cnp_qp; }
    else if (sent_valid) { e0.kind = Ev::Sent; e0.qp = sent_qp; e0.bytes = sent_bytes; }
    else { e0.kind = Ev::Scan; e0.qp = scan_ptr_; }
  }
  // stage 6: the result of the pass started in S2 four cycles ago, snapshot, write-back
  const PassSlot& s6 = ps_[kPassLat - 2];
  Qp<Fixed> res = s6.res;
  if (s6.ev.valid) {
    p.pass_valid = true;
    p.kind = s6.ev.kind;
    p.late = s6.late;
    p.cov = s6.cov;
    if (s6.ev.kind == Ev::Snap && !s6.late) {
      p.stat_valid = true;
      p.stat = {res.c_cnp, res.c_dec, res.c_fr, res.c_ai, res.c_hai, res.rc, res.alpha};
      if (s6.ev.clr) res.c_cnp = res.c_dec = res.c_fr = res.c_ai = res.c_hai = 0;
    }
  }
  // stage 1: state with hazard forwarding, for the event that moves to S2: the replay
  // register's when it re-enters (forwarded from S6, where its partial pass is) or S1's
  const RpEvent& e1 = rep_go ? rep_ : s1_;
  Qp<Fixed> st1 = ram_.rdata();
  if (s6.ev.valid && s6.ev.qp == e1.qp) st1 = res;
  else if (wb_valid_ && wb_qp_ == e1.qp) st1 = wb_;
  p.fwd_s2 = s1_.valid && !hold && s6.ev.valid && s6.ev.qp == s1_.qp;
  p.fwd_wb = s1_.valid && !hold && !(s6.ev.valid && s6.ev.qp == s1_.qp) && wb_valid_ && wb_qp_ == s1_.qp;
  // clock edge
  const bool new_rate_valid = s6.ev.valid && res.rc != s6.rc_before;
  rate_valid_ = new_rate_valid;
  if (new_rate_valid) {
    rate_qp_ = s6.ev.qp;
    rate_ = res.rc;
  }
  // RAM read: S0's event, or (S1 held) S1's QP again, so that a word written while it
  // waits is seen (the forwarding covers only the last two writes)
  const bool re = e0.valid || (done && hold && s1_.valid);
  const uint32_t raddr = e0.valid ? e0.qp : s1_.qp;
  if (!done) ram_.clock(re, raddr, true, sweep_.addr(), qp_reset<Fixed>(live));
  else ram_.clock(re, raddr, s6.ev.valid, s6.ev.qp, res);
  wb_valid_ = s6.ev.valid;
  wb_qp_ = s6.ev.qp;
  wb_ = res;
  for (unsigned i = kPassLat - 2; i > 0; --i) ps_[i] = ps_[i - 1];
  ps_[0] = PassSlot{s2_, res2, s2_state_.rc, late2, cov2};
  const RpEvent s2_old = s2_;
  if (rep_now) {  // S2 -> replay register (same kind, QP, captured time, bytes); S1 waits
    s2_ = RpEvent{};
    s2_replay_ = false;
  } else if (rep_go) {  // the replay re-enters S2 on its partial result; S1 waits
    s2_ = rep_;
    s2_state_ = st1;
    s2_replay_ = true;
  } else if (rep_.valid) {  // the partial pass is not in S6 yet; S1 waits
    s2_ = RpEvent{};
    s2_replay_ = false;
  } else if (stall || cfg_blk) {
    s2_ = RpEvent{};
    s2_replay_ = false;
  } else {
    s2_ = s1_;
    s2_state_ = st1;
    s2_replay_ = false;
    s1_ = e0;
  }
  if (rep_now) {
    rep_ = s2_old;
    rep_wait_ = kPassLat - 2;  // its partial pass: S3, S4, S5, then S6
  } else if (rep_go) {
    rep_ = RpEvent{};
  } else if (rep_.valid) {
    --rep_wait_;
  }
  if (e0.valid && e0.kind == Ev::Scan) {
    gap_ = 0;
    scan_ptr_ = (scan_ptr_ + 1 == cfg_.Queues) ? 0 : scan_ptr_ + 1;
  } else if (e0.valid) {
    gap_ = std::min(gap_ + 1, cfg_.ScanForce);
  }
  if (!done || (cfg_pend_ && drain)) cfgq_ = live;
  cfg_pend_ = in.commit || cfg_blk;
  if (!done) sweep_.clock();
  return p;
}

// ------------------------------------------------------------------ wheel
WheelCyc::WheelCyc(const Config& cfg)
    : cfg_(cfg), tps_(cfg.tps()), ltpb_(cfg.ltpb()), sweep_(cfg.Queues), rate_ram_(cfg.Queues),
      tlast_ram_(cfg.Queues), next_ram_(cfg.Queues), info_ram_(cfg.Queues), head_(cfg.Slots),
      tail_(cfg.Slots), empty_(cfg.Slots, true), park_(cfg.Slots, false) {}

void WheelCyc::reset() {
  sweep_.reset();
  std::fill(empty_.begin(), empty_.end(), true);
  std::fill(head_.begin(), head_.end(), 0);
  std::fill(tail_.begin(), tail_.end(), 0);
  std::fill(park_.begin(), park_.end(), false);
  rel_abs_ = cfg_.TimeStart >> cfg_.SlotLog2;  // the drain pointer at now's slot
  e_state_ = Enq::Idle;
  e_cnt_ = 0;
  p_state_ = 0;
  g_valid_ = false;
  link_free_ = 0;
}

void WheelCyc::fill() {
  reset();
  for (size_t q = 0; q < cfg_.Queues; ++q) {
    rate_ram_.at(q) = cfg_.line_bps();
    tlast_ram_.at(q) = 0;
  }
  while (!sweep_.done()) sweep_.clock();
}

uint64_t WheelCyc::delta(uint32_t bytes, uint64_t rate) const {
  const uint64_t num = static_cast<uint64_t>(bytes + cfg_.IfgBytes) * 8u * tps_;
  return num / rate;
}

void WheelCyc::append(uint64_t abs, uint32_t q, bool clamped) {
  const size_t s = abs & (cfg_.Slots - 1);
  park_[s] = (park_[s] && !empty_[s]) || clamped;
  if (empty_[s]) {
    head_[s] = q;
    empty_[s] = false;
  } else {
    next_ram_.clock(false, 0, true, tail_[s], q);
  }
  tail_[s] = q;
}

uint64_t WheelCyc::next_departure(uint32_t qp, uint32_t bytes, uint64_t now) {
  const uint64_t d = std::max(now << kTimeFrac, tlast_ram_.at(qp));
  tlast_ram_.at(qp) = d + delta(bytes, rate_ram_.at(qp));
  return d;
}

WheelCyc::Pulses WheelCyc::clock(const In& in) {
  const bool rst_n = in.rst_n, rate_we = in.rate_we, enq_valid = in.enq_valid, grant_ready = in.grant_ready;
  const uint64_t now = in.now, rate = in.rate;
  const uint32_t rate_qp = in.rate_qp, enq_qp = in.enq_qp, enq_bytes = in.enq_bytes;
  Pulses p;
  const uint64_t now_prev = prev_now_;
  prev_now_ = now;
  if (!rst_n) {
    prev_adv_ = false;
    reset();
    return p;
  }
  const bool done = sweep_.done();
  const uint64_t cur_abs = now >> cfg_.SlotLog2;
  const uint64_t nowq = now << kTimeFrac;
  const uint64_t horizon = rel_abs_ + cfg_.Slots - 1;
  const size_t rs = rel_abs_ & (cfg_.Slots - 1);
  const bool acc = enq_ready() && enq_valid;
  const bool behind = done && p_state_ == 0 && rel_abs_ <= cur_abs;   // not in B, D or C
  const bool pop_start = behind && !empty_[rs] && !g_valid_ && nowq >= link_free_ && e_state_ != Enq::Insert;
  const bool adv = behind && empty_[rs] && rel_abs_ < cur_abs;
  const bool ins_go = e_state_ == Enq::Insert && p_state_ == 0;
  // read-port values of this cycle (before the edge)
  const uint64_t rate_rd = rate_ram_.rdata(), tl_rd = tlast_ram_.rdata();
  const uint32_t nxt = next_ram_.rdata();
  const TokenInfo info = info_ram_.rdata();
  const uint32_t head_rs = head_[rs];
  const bool park_rs = park_[rs];
  const bool g_accept = g_valid_ && grant_ready;

  // pop (list updates happen "at the edge": compute from pre-edge state). Phase B unlinks
  // the head and grants it, unless its slot is marked (it may hold a token parked beyond its
  // own slot): then phase D checks it against now, and grants it or hands it to phase C.
  const uint64_t slack = 1ull << (kTimeFrac + cfg_.SlotLog2);
  bool granted = false;
  auto grant = [&](const TokenInfo& ti) {
    granted = true;
    g_valid_ = true;
    g_qp_ = p_qp_;
    g_bytes_ = ti.bytes;
    g_dep_ = ti.t_dep;
    // line-rate pacer: a token bucket one slot deep (see docs/dcqcn.md, "Line-rate cap")
    const uint64_t base = nowq > slack ? nowq - slack : 0;
    link_free_ = std::max(base, link_free_) + static_cast<uint64_t>(ti.bytes + cfg_.IfgBytes) * ltpb_;
  };
  // popped before its slot (parked beyond the horizon): re-inserted in phase C, into its
  // slot clamped to the horizon (the drain pointer does not move in phases B, D and C)
  auto to_reinsert = [&](const TokenInfo& ti) {
    rei_slot_ = std::min(abs_slot(ti.t_dep), horizon);
    rei_clamp_ = abs_slot(ti.t_dep) > horizon;
  };
  unsigned p_next = 0;
  if (p_state_ == 1) {
    const size_t ps = p_slot_;
    const bool single = tail_[ps] == p_qp_;
    if (single) empty_[ps] = true;
    else head_[ps] = nxt;
    if (p_park_) {
      p_info_ = info;
      p_next = 3;
    } else if (abs_slot(info.t_dep) <= cur_abs) {
      grant(info);
    } else {
      // never taken: a token of an unmarked slot went in at its own slot, which is not
      // served before now reaches it (the RTL grants here unchecked and asserts it is due)
      p.unmarked_not_due = true;
      to_reinsert(info);
      p_next = 2;
    }
  } else {
    if (p_state_ == 3) {
      if (abs_slot(p_info_.t_dep) <= cur_abs) {
        grant(p_info_);
        (abs_slot(p_info_.t_dep) == rel_abs_ ? p.pop_checked_unparked : p.pop_checked_parked) = true;
      } else {
        to_reinsert(p_info_);
        p_next = 2;
      }
    } else if (p_state_ == 2) {
      p.reinsert = true;
      append(rei_slot_, p_qp_, rei_clamp_);
    }
  }
  if (g_accept && !granted) g_valid_ = false;
  // enqueue insertion: the departure uses the now of the previous cycle (the RTL forms it
  // and its slot a cycle ahead), the horizon of this one; its slot is never behind the
  // drain pointer (the pointer moves only while it is behind now's slot)
  if (ins_go) {
    const uint64_t d = std::max(now_prev << kTimeFrac, e_tl_);  // the QP's serialisation slot is free
    tlast_ram_.clock(false, 0, true, e_qp_, d + e_quo_);
    info_ram_.clock(false, 0, true, e_qp_, TokenInfo{d, e_bytes_});
    const uint64_t slot = std::min(abs_slot(d), horizon);
    // marks the slot when clamped against the horizon of the cycle before (the RTL forms the
    // slot a cycle ahead and clamps to the horizon of this cycle)
    append(slot, e_qp_, abs_slot(d) > horizon - (prev_adv_ ? 1 : 0));
    p.ins_clamped = abs_slot(d) > horizon;
    p.ins_clamped_adv = p.ins_clamped && prev_adv_;
    p.ins_old_horizon_adv = (now_prev << kTimeFrac) <= e_tl_ && prev_adv_ && abs_slot(d) + 1 == horizon;
    p.ins_now_moved = (now_prev << kTimeFrac) > e_tl_ && slot != std::min(cur_abs, horizon);
  } else if (e_state_ == Enq::Insert) {
    p.ins_held_b = p_state_ == 1;
    p.ins_held_c = p_state_ == 2;
    p.ins_held_d = p_state_ == 3;
  }
  prev_adv_ = adv;
  // read ports and remaining writes of this edge
  if (!done) {
    rate_ram_.clock(acc, enq_qp, true, sweep_.addr(), cfg_.line_bps());
    tlast_ram_.clock(acc, enq_qp, true, sweep_.addr(), 0);
  } else {
    rate_ram_.clock(acc, enq_qp, rate_we, rate_qp, rate);
    tlast_ram_.clock(acc, enq_qp, false, 0, 0);
  }
  next_ram_.clock(pop_start, head_rs, false, 0, 0);
  info_ram_.clock(pop_start, head_rs, false, 0, TokenInfo{});
  // pop state
  if (pop_start) {
    p_state_ = 1;
    p_qp_ = head_rs;
    p_slot_ = static_cast<uint32_t>(rs);
    p_park_ = park_rs;
  } else {
    p_state_ = p_next;
  }
  if (adv) {
    ++rel_abs_;
    p.wrap = (rel_abs_ & (cfg_.Slots - 1)) == 0;
  }
  // enqueue state machine
  switch (e_state_) {
    case Enq::Idle:
      if (acc) {
        e_state_ = Enq::Read;
        e_qp_ = enq_qp;
        e_bytes_ = enq_bytes;
      }
      break;
    case Enq::Read:
      e_num_ = static_cast<uint64_t>(e_bytes_ + cfg_.IfgBytes) * 8u * tps_;
      e_den_ = rate_rd;
      e_tl_ = tl_rd;
      e_rem_ = 0;
      e_quo_ = 0;
      e_state_ = Enq::Odd;
      break;
    case Enq::Odd:   // the RTL forms the rate's odd multiples for its divider steps
      e_cnt_ = 64 / cfg_.DivBits;
      e_state_ = Enq::Divide;
      break;
    case Enq::Divide:
      for (unsigned i = 0; i < cfg_.DivBits; ++i) {
        e_rem_ = (e_rem_ << 1) | (e_num_ >> 63);
        e_num_ <<= 1;
        e_quo_ <<= 1;
        if (e_rem_ >= e_den_) {
          e_rem_ -= e_den_;
          e_quo_ |= 1;
        }
      }
      if (--e_cnt_ == 0) e_state_ = Enq::Insert;
      break;
    case Enq::Insert:
      if (ins_go) e_state_ = Enq::Idle;
      break;
  }
  if (!done) sweep_.clock();
  return p;
}

// ------------------------------------------------------------------ the block
Model::Model(const Config& cfg)
    : cfg_((cfg.validate(), cfg)), np_(cfg.Queues), rp_(cfg), wheel_(cfg),
      cnt_{SatCounter(32), SatCounter(32), SatCounter(32), SatCounter(32)} {
  reset_regs();
}

void Model::reset_regs() {
  stage_ = StageRegs{};
  live_ = live_from_stage(stage_, cfg_.line_bps());
  for (auto& c : cnt_) c.reset();
  snap_pend_ = snap_clr_ = snap_done_ = false;
  snap_qp_ = 0;
  stat_ = StatSnap{};
  rdata_ = 0;
  rvalid_ = false;
  now_ = cfg_.TimeStart;
}

Outputs Model::eval(const Inputs& in) const {
  Outputs o;
  o.init_done = np_.done() && rp_.done() && wheel_.done();
  o.ce_ready = np_.ce_ready();
  o.cnpo_valid = np_.out_valid();
  o.cnpo_flow = np_.out_valid() ? np_.out_flow() : 0;
  o.cnp_ready = rp_.cnp_ready(snap_pend_);
  o.sent_ready = rp_.sent_ready(snap_pend_, in.cnp_valid);
  o.rate_valid = rp_.rate_valid();
  o.rate_qp = rp_.rate_qp();
  o.rate = rp_.rate();
  o.enq_ready = wheel_.enq_ready();
  o.grant_valid = wheel_.grant_valid();
  o.grant_qp = wheel_.grant_qp();
  o.grant_bytes = wheel_.grant_bytes();
  o.cfg_rdata = rdata_;
  o.cfg_rvalid = rvalid_;
  return o;
}

uint32_t Model::read_reg(uint32_t a) const {
  using namespace regs;
  switch (a) {
    case ID: return ID_VALUE;
    case PARAMS: return (cfg_.Queues & 0xFFFF) | (clog2(cfg_.Slots) << PARAMS_SLOTS_LOG2_LSB) | (cfg_.SlotLog2 << PARAMS_SLOT_LOG2_LSB);
    case STATUS: return (np_.done() && rp_.done() && wheel_.done() ? 1u : 0u) | (snap_done_ ? 2u : 0u);
    case STAGE_CTRL: return stage_.ctrl;
    case STAGE_ALPHA_PERIOD: return stage_.alpha_period;
    case STAGE_DEC_PERIOD: return stage_.dec_period;
    case STAGE_INC_PERIOD: return stage_.inc_period;
    case STAGE_BYTE_RESET: return stage_.byte_reset;
    case STAGE_THRESHOLD: return stage_.threshold;
    case STAGE_RAI: return stage_.rai;
    case STAGE_RHAI: return stage_.rhai;
    case STAGE_RMIN: return stage_.rmin;
    case STAGE_FIRST_RATE: return stage_.first_rate;
    case STAGE_ALPHA_INIT: return stage_.alpha_init;
    case STAGE_MIN_DEC_FAC: return stage_.min_dec_fac;
    case STAGE_NP_INTERVAL: return stage_.np_interval;
    case CNT_CNP_SENT: return static_cast<uint32_t>(cnt_[0].value());
    case CNT_LATE: return static_cast<uint32_t>(cnt_[1].value());
    case CNT_REINSERT: return static_cast<uint32_t>(cnt_[2].value());
    case CNT_GRANTS: return static_cast<uint32_t>(cnt_[3].value());
    case STAT_CNP_RX: return stat_.cnp;
    case STAT_DEC: return stat_.dec;
    case STAT_FR: return stat_.fr;
    case STAT_AI: return stat_.ai;
    case STAT_HAI: return stat_.hai;
    case STAT_RC_LO: return static_cast<uint32_t>(stat_.rc);
    case STAT_RC_HI: return static_cast<uint32_t>(stat_.rc >> 32);
    case STAT_ALPHA: return static_cast<uint32_t>(stat_.alpha >> (kAlphaFrac - 31));
    default: return 0;
  }
}

// Masks of the staged registers (bits a write keeps).
static uint32_t stage_mask(uint32_t a) {
  using namespace regs;
  switch (a) {
    case STAGE_CTRL: return 0xF1F;
    case STAGE_THRESHOLD: return 0xFF;
    case STAGE_ALPHA_INIT:
    case STAGE_MIN_DEC_FAC: return 0x1FFFF;
    default: return 0xFFFFFFFF;
  }
}

void Model::tick(const Inputs& in) {
  cov_ = TickCov{};
  if (!in.rst_n) {
    np_.clock(NpCyc::In{});
    rp_.clock(RpCyc::In{}, live_);
    wheel_.clock(WheelCyc::In{});
    reset_regs();
    return;
  }
  using namespace regs;
  const bool done = np_.done() && rp_.done() && wheel_.done();
  const Live live = live_;  // pre-edge configuration
  // register reads see the pre-edge state (before any part of the block is clocked)
  const uint32_t rd = in.cfg_re ? read_reg(in.cfg_addr & 0xFFC) : 0;
  const bool snap_valid = snap_pend_;
  const bool snap_acc = snap_valid && rp_.snap_ready();
  const bool g_accept = wheel_.grant_valid() && in.grant_ready;
  const bool np_s3 = np_.s3_valid();
  NpCyc::In npi;
  npi.rst_n = true;
  npi.now = now_;
  npi.per_pkt = live.np_per_pkt;
  npi.interval = live.np_interval;
  npi.ce_valid = in.ce_valid;
  npi.ce_flow = in.ce_flow;
  npi.out_ready = in.cnpo_ready;
  const bool pushed = np_.clock(npi);
  const bool rate_we = rp_.rate_valid();
  const uint32_t rate_qp = rp_.rate_qp();
  const uint64_t rate = rp_.rate();
  RpCyc::In rpi;
  rpi.rst_n = true;
  rpi.now = now_;
  rpi.snap_valid = snap_valid;
  rpi.snap_qp = snap_qp_;
  rpi.snap_clr = snap_clr_;
  rpi.cnp_valid = in.cnp_valid;
  rpi.cnp_qp = in.cnp_qp;
  rpi.sent_valid = in.sent_valid;
  rpi.sent_qp = in.sent_qp;
  rpi.sent_bytes = in.sent_bytes;
  rpi.commit = in.cfg_we && done && (in.cfg_addr & 0xFFC) == COMMIT;
  const auto rp = rp_.clock(rpi, live);
  WheelCyc::In wi;
  wi.rst_n = true;
  wi.now = now_;
  wi.rate_we = rate_we;
  wi.rate_qp = rate_qp;
  wi.rate = rate;
  wi.enq_valid = in.enq_valid;
  wi.enq_qp = in.enq_qp;
  wi.enq_bytes = in.enq_bytes;
  wi.grant_ready = in.grant_ready;
  const auto wh = wheel_.clock(wi);
  rvalid_ = in.cfg_re;
  rdata_ = rd;
  // writes
  const bool we = in.cfg_we && done;
  const uint32_t a = in.cfg_addr & 0xFFC, d = in.cfg_wdata;
  uint32_t clr = 0;
  if (snap_acc) snap_pend_ = false;
  if (rp.stat_valid) {
    stat_ = rp.stat;
    snap_done_ = true;
  }
  if (we) {
    switch (a) {
      case STAGE_CTRL: stage_.ctrl = d & stage_mask(a); break;
      case STAGE_ALPHA_PERIOD: stage_.alpha_period = d; break;
      case STAGE_DEC_PERIOD: stage_.dec_period = d; break;
      case STAGE_INC_PERIOD: stage_.inc_period = d; break;
      case STAGE_BYTE_RESET: stage_.byte_reset = d; break;
      case STAGE_THRESHOLD: stage_.threshold = d & stage_mask(a); break;
      case STAGE_RAI: stage_.rai = d; break;
      case STAGE_RHAI: stage_.rhai = d; break;
      case STAGE_RMIN: stage_.rmin = d; break;
      case STAGE_FIRST_RATE: stage_.first_rate = d; break;
      case STAGE_ALPHA_INIT: stage_.alpha_init = d & stage_mask(a); break;
      case STAGE_MIN_DEC_FAC: stage_.min_dec_fac = d & stage_mask(a); break;
      case STAGE_NP_INTERVAL: stage_.np_interval = d; break;
      case COMMIT: live_ = live_from_stage(stage_, cfg_.line_bps()); break;
      case CNT_CLEAR: clr = d & 0xF; break;
      case STAT_CTRL:
        if ((d & 0xFFFF) < cfg_.Queues) {
          snap_pend_ = true;
          snap_qp_ = d & 0xFFFF;
          snap_clr_ = (d >> 31) & 1;
          snap_done_ = false;
        }
        break;
      default: break;
    }
  }
  cov_.rp = rp;
  cov_.wheel = wh;
  cov_.np_sent = pushed;
  cov_.np_suppressed = np_s3 && !pushed;
  cov_.np = np_.last_decision();
  cov_.snap_done = rp.stat_valid;
  cnt_[0].clock(clr & 1, pushed);
  cnt_[1].clock(clr & 2, rp.late);
  cnt_[2].clock(clr & 4, wh.reinsert);
  cnt_[3].clock(clr & 8, g_accept);
  if (in.tick) now_ = (now_ + 1) & kTimeMask;
}

// ------------------------------------------------------------------ transaction face
void Model::reset_transaction() {
  reset_regs();
  np_.reset();
  NpCyc::In idle;
  idle.rst_n = true;
  while (!np_.done()) np_.clock(idle);
  rp_.fill(live_);
  wheel_.fill();
}

void Model::configure(const StageRegs& r) {
  stage_ = r;
  stage_.ctrl &= stage_mask(regs::STAGE_CTRL);
  stage_.threshold &= 0xFF;
  stage_.alpha_init &= 0x1FFFF;
  stage_.min_dec_fac &= 0x1FFFF;
  live_ = live_from_stage(stage_, cfg_.line_bps());
}

void Model::on_cnp(uint32_t qp, uint64_t t) {
  auto& s = rp_.entry(qp);
  exact(s, live_, cfg_.bounds(), Ev::Cnp, t, 0, nullptr);
  wheel_.set_rate(qp, s.rc);
}

void Model::on_sent(uint32_t qp, uint32_t bytes, uint64_t t) {
  auto& s = rp_.entry(qp);
  exact(s, live_, cfg_.bounds(), Ev::Sent, t, bytes, nullptr);
  wheel_.set_rate(qp, s.rc);
}

uint64_t Model::rate(uint32_t qp, uint64_t t) {
  auto& s = rp_.entry(qp);
  while (catch_up(s, live_, t + 1, cfg_.bounds(), nullptr)) {
  }
  wheel_.set_rate(qp, s.rc);
  return s.rc;
}

bool Model::on_marked(uint32_t flow, uint64_t t) {
  const bool s = np_.marked(flow, t, live_.np_per_pkt, live_.np_interval);
  if (s) cnt_[0].clock(false, true);
  return s;
}

void Model::reset_qp(uint32_t qp) {
  rp_.entry(qp) = qp_reset<Fixed>(live_);
  wheel_.clear(qp, live_.line);
  np_.clear(qp);
}

uint64_t Model::next_departure(uint32_t qp, uint32_t bytes, uint64_t now) {
  rate(qp, now);
  return wheel_.next_departure(qp, bytes, now);
}

}  // namespace ll::dcqcn
