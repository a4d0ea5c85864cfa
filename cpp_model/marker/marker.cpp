#include "marker/marker.h"
#include "marker/marker_params.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "common/bits.h"

namespace ll::marker {
namespace {

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument("marker: " + what); }

uint64_t mask(unsigned bits) { return low_mask(bits); }

Profile unpack(uint32_t kmin, uint32_t kmax, uint32_t slope, uint32_t flags, unsigned qw) {
  Profile p;
  p.kmin = static_cast<uint32_t>(kmin & mask(qw));
  p.kmax = static_cast<uint32_t>(kmax & mask(qw));
  p.m = slope & 0xFFFF;
  p.e = (slope >> 16) & 0x3F;
  p.enable = flags & 1;
  p.ewma = (flags >> 1) & 1;
  p.deq = (flags >> 2) & 1;
  p.drop = (flags >> 3) & 1;
  p.w = (flags >> 4) & 0xF;
  return p;
}

}  // namespace

void Config::validate() const {
  // Ranges and relations: rtl/marker/marker_params.json, through scripts/params.py.
  if (const std::string e = params::check(*this); !e.empty()) bad(e);
}

Config Config::from_params(const std::map<std::string, uint64_t>& p) { return params::from_params<Config>(p); }

uint32_t Profile::flags_word() const {
  return (enable ? 1u : 0u) | (ewma ? 2u : 0u) | (deq ? 4u : 0u) | (drop ? 8u : 0u) | ((w & 0xF) << 4);
}
uint32_t Profile::slope_word() const { return (m & 0xFFFF) | ((e & 0x3F) << 16); }

CfgProgram profile_ops(unsigned index, const Profile& p) {
  return {{regs::STAGE_KMIN, p.kmin},
          {regs::STAGE_KMAX, p.kmax},
          {regs::STAGE_SLOPE, p.slope_word()},
          {regs::STAGE_FLAGS, p.flags_word()},
          {regs::PROFILE_COMMIT, index}};
}
CfgOp qmap_op(uint32_t queue, unsigned profile) { return {regs::QMAP_WRITE, (queue & 0xFFFF) | ((profile & 0xFF) << 16)}; }

Profile Profile::red(uint32_t kmin, uint32_t kmax, double pmax, unsigned qw) {
  std::ostringstream os;
  if (qw < 8 || qw > 32) bad("profile: QW must be in 8..32");
  if (kmin > kmax) {
    os << "profile: Kmin (" << kmin << " B) > Kmax (" << kmax << " B)";
    bad(os.str());
  }
  if (!(pmax >= 0.0 && pmax <= 1.0)) {
    os << "profile: Pmax (" << pmax << ") outside [0, 1]";
    bad(os.str());
  }
  if (kmax > mask(qw)) {
    os << "profile: Kmax (" << kmax << " B) does not fit QW = " << qw << " bits";
    bad(os.str());
  }
  Profile p;
  p.kmin = kmin;
  p.kmax = kmax;
  p.enable = true;
  if (kmax == kmin || pmax == 0.0) return p;  // empty linear region or p = 0 in it
  const double slope = pmax / static_cast<double>(kmax - kmin);
  int e = static_cast<int>(kMaxE);
  while (e > 0 && std::llround(std::ldexp(slope, e)) > 0xFFFF) --e;
  const long long m = std::llround(std::ldexp(slope, e));
  if (m > 0xFFFF) bad("profile: slope Pmax/(Kmax-Kmin) too steep for the 16-bit mantissa");
  const double rel = std::fabs(std::ldexp(static_cast<double>(m), -e) - slope) / slope;
  if (m == 0 || rel > 0.01) {
    os << "profile: slope Pmax/(Kmax-Kmin) = " << slope
       << " per byte is below the marker's resolution (2^-" << kMaxE << " per byte at 1%)";
    bad(os.str());
  }
  p.m = static_cast<uint32_t>(m);
  p.e = static_cast<uint32_t>(e);
  return p;
}

Profile Profile::cutoff(uint32_t k, unsigned qw) { return red(k, k, 1.0, qw); }

double Profile::probability(uint32_t q) const {
  if (q > kmax) return 1.0;
  if (q <= kmin) return 0.0;
  const unsigned ee = e > kMaxE ? kMaxE : e;
  const double p = std::ldexp(static_cast<double>(q - kmin) * m, -static_cast<int>(ee));
  return p > 1.0 ? 1.0 : p;
}

Ewma ewma_stage(bool ewma_mode, uint32_t w, bool deq, uint32_t qlen, uint64_t avg, unsigned qw) {
  Ewma r{};
  // diff is a (QW+9)-bit signed value; >>> w is an arithmetic shift (g++ defines >> on
  // negative values as arithmetic, as C++20 requires).
  const int64_t diff = static_cast<int64_t>(static_cast<uint64_t>(qlen) << kEwmaFrac) -
                       static_cast<int64_t>(avg);
  const int64_t step = diff >> (w & 0xF);
  r.avg = deq ? avg : (static_cast<uint64_t>(static_cast<int64_t>(avg) + step) & mask(qw + kEwmaFrac));
  r.qeff = ewma_mode ? static_cast<uint32_t>(r.avg >> kEwmaFrac) : qlen;
  return r;
}

Thresh thresh_stage(const Profile& p, unsigned qw, bool deq, uint32_t qeff, bool ect, bool lossless) {
  Thresh t{};
  t.above = qeff > p.kmax;
  t.linear = qeff > p.kmin;
  t.excess = static_cast<uint32_t>((static_cast<uint64_t>(qeff) - p.kmin) & mask(qw));
  const bool active = p.enable && (deq == p.deq);
  t.act_mark = active && ect;
  t.act_drop = active && !ect && !lossless && p.drop;
  return t;
}

bool prob_stage(bool above, bool linear, uint64_t prod, uint32_t e, uint64_t rand48) {
  const unsigned ee = e > kMaxE ? kMaxE : e;
  const uint64_t r = rand48 >> (kMaxE - ee);
  return above || (linear && r < prod);
}

DecideResult decide_core(const Profile& p, unsigned qw, bool deq, uint32_t qlen, bool ect,
                         bool lossless, uint64_t avg, uint64_t rand48) {
  const Ewma ew = ewma_stage(p.ewma, p.w, deq, qlen, avg, qw);
  const Thresh t = thresh_stage(p, qw, deq, ew.qeff, ect, lossless);
  const bool hit = prob_stage(t.above, t.linear, static_cast<uint64_t>(t.excess) * (p.m & 0xFFFF), p.e, rand48);
  return DecideResult{ew.avg, hit && t.act_mark, hit && t.act_drop};
}

Model::Model(const Config& cfg)
    : cfg_(cfg),
      prof_(cfg.Profiles),
      sweep_(cfg.Queues),
      qmap_(cfg.Queues),
      ewma_(cfg.Queues),
      prng_(cfg.Seed),
      cnt_dec_(cfg.CntW),
      cnt_mark_(cfg.CntW),
      cnt_drop_(cfg.CntW) {
  cfg_.validate();
}

uint32_t Model::read_reg(uint32_t addr) const {
  switch (addr) {
    case regs::ID: return regs::ID_VALUE;
    case regs::PARAMS:
      return (cfg_.Queues & 0xFFFF) | ((cfg_.Profiles & 0xFF) << 16) | ((cfg_.QW & 0x3F) << 24);
    case regs::STATUS: return sweep_.done() ? 1u : 0u;
    case regs::STAGE_KMIN: return stage_kmin_;
    case regs::STAGE_KMAX: return stage_kmax_;
    case regs::STAGE_SLOPE: return stage_slope_;
    case regs::STAGE_FLAGS: return stage_flags_;
    case regs::CNT_DECISIONS: return static_cast<uint32_t>(cnt_dec_.value());
    case regs::CNT_MARKS: return static_cast<uint32_t>(cnt_mark_.value());
    case regs::CNT_DROPS: return static_cast<uint32_t>(cnt_drop_.value());
    default: return 0;
  }
}

Outputs Model::eval(const Inputs& in) const {
  Outputs o;
  const bool adv = !dec_valid_ || in.dec_ready;
  o.ev_ready = sweep_.done() && adv;
  o.dec_valid = dec_valid_;
  o.dec_queue = dec_queue_;
  o.dec_mark = dec_mark_;
  o.dec_drop = dec_drop_;
  o.cfg_rdata = rdata_;
  o.cfg_rvalid = rvalid_;
  o.init_done = sweep_.done();
  return o;
}

void Model::tick(const Inputs& in) {
  // ---- combinational values before the edge, named as in the RTL
  const bool init_done = sweep_.done();
  const bool adv = !dec_valid_ || in.dec_ready;
  const bool accept = in.ev_valid && init_done && adv;
  const bool cfg_wr = in.cfg_we && init_done;
  const uint32_t qidx_mask = static_cast<uint32_t>(low_mask(clog2(cfg_.Queues)));
  const bool commit = cfg_wr && in.cfg_addr == regs::PROFILE_COMMIT;
  const uint32_t commit_idx = in.cfg_wdata & 0xFF;
  const uint32_t qmap_queue = in.cfg_wdata & 0xFFFF;
  const uint32_t qmap_prof = (in.cfg_wdata >> 16) & 0xFF;
  const bool qmap_wr = cfg_wr && in.cfg_addr == regs::QMAP_WRITE && qmap_queue < cfg_.Queues &&
                       qmap_prof < cfg_.Profiles;
  // S0: the profile snapshot (qmap_ was read at acceptance)
  const uint32_t pid_rd = qmap_.rdata();
  const Profile& prof = prof_[pid_rd < cfg_.Profiles ? pid_rd : 0];
  const bool s0v = s0_valid_;
  // S1: the EWMA word, read from ewma_ at the edge that brought the event here; a word
  // written at that same edge is the forwarded one
  const uint64_t avg_old = (fwd_valid_ && fwd_queue_ == s1_.queue) ? fwd_avg_ : ewma_.rdata();
  const Ewma ew = ewma_stage(s1_.prof.ewma, s1_.prof.w, s1_.deq, s1_.qlen, avg_old, cfg_.QW);
  const bool s1v = s1_.valid;
  const bool s1_wb = s1v && adv && !s1_.deq;
  // S2
  const Thresh th = thresh_stage(s2_.prof, cfg_.QW, s2_.deq, s2_.qeff, s2_.ect, s2_.lossless);
  // S4 (its pre-edge contents feed the output register)
  const S4 s4_old = s4_;
  const bool leave = s4_.valid && adv;
  const bool hit = prob_stage(s4_.above, s4_.linear, s4_.prod, s4_.e, prng_.peek() >> 16);
  const bool mark = hit && s4_.act_mark, drop = hit && s4_.act_drop;
  const bool clr = cfg_wr && in.cfg_addr == regs::CNT_CLEAR;
  const uint32_t rd = read_reg(in.cfg_addr);

  // ---- the edge: RAMs (no reset)
  const bool sweep_we = sweep_.we();
  const uint32_t sweep_addr = static_cast<uint32_t>(sweep_.addr());
  qmap_.clock(accept, in.ev_queue & qidx_mask, sweep_we || qmap_wr,
              sweep_we ? sweep_addr : (qmap_queue & qidx_mask), sweep_we ? 0u : qmap_prof);
  ewma_.clock(adv && s0v, s0_queue_, sweep_we || s1_wb, sweep_we ? sweep_addr : s1_.queue,
              sweep_we ? 0ull : ew.avg);
  // ---- registers without reset (payloads), in pipeline order from the back
  if (adv && s3_.valid) {
    s4_.queue = s3_.queue;
    s4_.above = s3_.above;
    s4_.linear = s3_.linear;
    s4_.prod = static_cast<uint64_t>(s3_.excess) * s3_.m;
    s4_.e = s3_.e;
    s4_.act_mark = s3_.act_mark;
    s4_.act_drop = s3_.act_drop;
  }
  if (adv && s2_.valid) {
    s3_.queue = s2_.queue;
    s3_.above = th.above;
    s3_.linear = th.linear;
    s3_.excess = th.excess;
    s3_.m = s2_.prof.m;
    s3_.e = s2_.prof.e;
    s3_.act_mark = th.act_mark;
    s3_.act_drop = th.act_drop;
  }
  if (adv && s1v) {
    s2_.deq = s1_.deq;
    s2_.ect = s1_.ect;
    s2_.lossless = s1_.lossless;
    s2_.queue = s1_.queue;
    s2_.qeff = ew.qeff;
    s2_.prof = s1_.prof;
  }
  if (s1_wb) {
    fwd_queue_ = s1_.queue;
    fwd_avg_ = ew.avg;
  }
  if (adv && s0v) {
    s1_.deq = s0_deq_;
    s1_.ect = s0_ect_;
    s1_.lossless = s0_lossless_;
    s1_.queue = s0_queue_;
    s1_.qlen = s0_qlen_;
    s1_.prof = prof;
  }
  if (accept) {
    s0_deq_ = in.ev_deq;
    s0_queue_ = in.ev_queue & qidx_mask;
    s0_qlen_ = static_cast<uint32_t>(in.ev_qlen & mask(cfg_.QW));
    s0_ect_ = in.ev_ect;
    s0_lossless_ = in.ev_lossless;
  }

  if (!in.rst_n) {
    stage_kmin_ = stage_kmax_ = stage_slope_ = stage_flags_ = 0;
    for (auto& p : prof_) p = Profile{};
    sweep_.reset();
    s0_valid_ = s1_.valid = s2_.valid = s3_.valid = s4_.valid = false;
    fwd_valid_ = false;
    prng_.reset();
    dec_valid_ = dec_mark_ = dec_drop_ = false;
    dec_queue_ = 0;
    cnt_dec_.reset();
    cnt_mark_.reset();
    cnt_drop_.reset();
    rdata_ = 0;
    rvalid_ = false;
    return;
  }

  // ---- registers with reset
  if (cfg_wr) {
    switch (in.cfg_addr) {
      case regs::STAGE_KMIN: stage_kmin_ = in.cfg_wdata; break;
      case regs::STAGE_KMAX: stage_kmax_ = in.cfg_wdata; break;
      case regs::STAGE_SLOPE: stage_slope_ = in.cfg_wdata & 0x3FFFFF; break;
      case regs::STAGE_FLAGS: stage_flags_ = in.cfg_wdata & 0xFF; break;
      default: break;
    }
  }
  if (commit && commit_idx < cfg_.Profiles)
    prof_[commit_idx] = unpack(stage_kmin_, stage_kmax_, stage_slope_, stage_flags_, cfg_.QW);
  sweep_.clock();
  if (s1_wb) fwd_valid_ = true;
  if (leave) prng_.advance();
  if (adv) {
    dec_valid_ = s4_old.valid;
    dec_queue_ = s4_old.valid ? s4_old.queue : 0;
    dec_mark_ = s4_old.valid && mark;
    dec_drop_ = s4_old.valid && drop;
    s4_.valid = s3_.valid;
    s3_.valid = s2_.valid;
    s2_.valid = s1v;
    s1_.valid = s0v;
    s0_valid_ = accept;
  }
  cnt_dec_.clock(clr && (in.cfg_wdata & 1), leave);
  cnt_mark_.clock(clr && (in.cfg_wdata & 2), leave && mark);
  cnt_drop_.clock(clr && (in.cfg_wdata & 4), leave && drop);
  rdata_ = in.cfg_re ? rd : 0;
  rvalid_ = in.cfg_re;
}

// ---------------------------------------------------------------- transaction face

void Model::reset_transaction() {
  Inputs in;
  in.rst_n = false;
  tick(in);
  for (uint32_t q = 0; q < cfg_.Queues; ++q) {
    qmap_.at(q) = 0;
    ewma_.at(q) = 0;
  }
  while (!sweep_.done()) sweep_.clock();
}

void Model::set_profile(unsigned index, const Profile& p) {
  if (index >= cfg_.Profiles)
    bad("profile index " + std::to_string(index) + " >= Profiles (" + std::to_string(cfg_.Profiles) + ")");
  if (p.kmax > low_mask(cfg_.QW) || p.kmin > low_mask(cfg_.QW))
    bad("profile thresholds do not fit QW = " + std::to_string(cfg_.QW) + " bits");
  prof_[index] = unpack(p.kmin, p.kmax, p.slope_word(), p.flags_word(), cfg_.QW);
}

void Model::map_queue(uint32_t queue, unsigned profile) {
  if (queue >= cfg_.Queues) bad("queue " + std::to_string(queue) + " >= Queues (" + std::to_string(cfg_.Queues) + ")");
  if (profile >= cfg_.Profiles) bad("profile " + std::to_string(profile) + " >= Profiles (" + std::to_string(cfg_.Profiles) + ")");
  qmap_.at(queue) = profile;
}

Verdict Model::decide(uint32_t queue, uint32_t qlen, bool ect, bool lossless, bool deq) {
  if (queue >= cfg_.Queues) bad("queue " + std::to_string(queue) + " >= Queues (" + std::to_string(cfg_.Queues) + ")");
  const uint32_t q = static_cast<uint32_t>(qlen > low_mask(cfg_.QW) ? low_mask(cfg_.QW) : qlen);
  const DecideResult d = decide_core(prof_[qmap_.at(queue)], cfg_.QW, deq, q, ect, lossless,
                                     ewma_.at(queue), prng_.draw() >> 16);
  ewma_.at(queue) = d.avg;
  cnt_dec_.clock(false, true);
  cnt_mark_.clock(false, d.mark);
  cnt_drop_.clock(false, d.drop);
  return d.mark ? Verdict::Mark : d.drop ? Verdict::Drop : Verdict::Pass;
}

}  // namespace ll::marker
