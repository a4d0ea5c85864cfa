#include "pfc/pfc.h"
#include "pfc/pfc_params.h"

#include <algorithm>
#include <stdexcept>

#include "common/bits.h"

namespace ll::pfc {
namespace {

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument("pfc: " + what); }

uint32_t sext4(uint32_t v) { return v & 0xF; }
int to_shift(uint32_t k4) { return (k4 & 8) ? static_cast<int>(k4 & 0xF) - 16 : static_cast<int>(k4 & 0xF); }

}  // namespace

// ------------------------------------------------------------------ Config / Settings
void Config::validate() const {
  // Ranges and relations: rtl/pfc/pfc_params.json, through scripts/params.py.
  if (const std::string e = params::check(*this); !e.empty()) bad(e);
}

Config Config::from_params(const std::map<std::string, uint64_t>& p) { return params::from_params<Config>(p); }

unsigned Config::port_w() const { return Ports > 1 ? clog2(Ports) : 1; }

Settings Settings::reset_values(const Config& c) {
  Settings s;
  const uint64_t cmax = low_mask(c.CntW), tmax = low_mask(c.TimerW);
  s.shared_size = s.egll_size = s.egly_size = static_cast<uint32_t>(cmax);
  const uint64_t r = 167772 / c.TickNs, w = 200000000 / c.TickNs;
  s.refresh = static_cast<uint32_t>(r < 1 ? 1 : std::min<uint64_t>(r, tmax));
  s.wd_detect = s.wd_restore = static_cast<uint32_t>(std::min<uint64_t>(w, tmax));
  s.hdrm.fill(22400);
  return s;
}

void Settings::validate(const Config& c) const {
  const uint64_t cmax = low_mask(c.CntW), tmax = low_mask(c.TimerW);
  auto size = [&](const char* name, uint64_t v) {
    if (v > cmax) bad(std::string("settings: ") + name + " = " + std::to_string(v) + " does not fit CntW = " + std::to_string(c.CntW) + " bits");
  };
  auto ticks = [&](const char* name, uint64_t v) {
    if (v > tmax) bad(std::string("settings: ") + name + " = " + std::to_string(v) + " ticks does not fit TimerW = " + std::to_string(c.TimerW) + " bits");
  };
  if (lossless > 0xFF) bad("settings: lossless mask has bits above priority 7");
  if (alpha_ing < -8 || alpha_ing > 7) bad("settings: alpha_ing must be in -8..7 (alpha = 2^alpha_ing)");
  if (alpha_eg < -8 || alpha_eg > 7) bad("settings: alpha_eg must be in -8..7");
  if (oversub > 7) bad("settings: oversub must be in 0..7 (ratio 2^oversub)");
  if (quanta > 0xFFFF) bad("settings: quanta must fit 16 bits");
  if (gbps < 1 || gbps > 1023) bad("settings: gbps must be in 1..1023");
  size("xoff_static", xoff_static);
  size("xon_offset", xon_offset);
  if (shared_size != 0xFFFFFFFFu) size("shared_size", shared_size);
  if (egll_size != 0xFFFFFFFFu) size("egll_size", egll_size);
  if (egly_size != 0xFFFFFFFFu) size("egly_size", egly_size);
  for (unsigned p = 0; p < kPrios; ++p) {
    size("rsv[p]", rsv[p]);
    size("hdrm[p]", hdrm[p]);
  }
  ticks("refresh", refresh);
  ticks("wd_detect", wd_detect);
  ticks("wd_restore", wd_restore);
}

std::vector<std::pair<uint32_t, uint32_t>> Settings::writes() const {
  std::vector<std::pair<uint32_t, uint32_t>> w = {
      {regs::MODE, (dyn ? 1u : 0u) | (pool ? 2u : 0u)},
      {regs::LOSSLESS, lossless & 0xFF},
      {regs::XOFF_STATIC, xoff_static},
      {regs::ALPHA, (static_cast<uint32_t>(alpha_ing) & 0xF) | ((static_cast<uint32_t>(alpha_eg) & 0xF) << 8)},
      {regs::XON_OFFSET, xon_offset},
      {regs::SHARED_SIZE, shared_size},
      {regs::EGLL_SIZE, egll_size},
      {regs::EGLY_SIZE, egly_size},
      {regs::SHP, oversub & 7},
      {regs::QUANTA, quanta & 0xFFFF},
      {regs::REFRESH, refresh},
      {regs::LINK_GBPS, gbps & 0x3FF},
      {regs::WD_DETECT, wd_detect},
      {regs::WD_RESTORE, wd_restore}};
  for (unsigned p = 0; p < kPrios; ++p) {
    w.emplace_back(regs::RSV0 + 4 * p, rsv[p]);
    w.emplace_back(regs::HDRM0 + 4 * p, hdrm[p]);
  }
  return w;
}

CfgProgram Settings::program() const {
  CfgProgram ops;
  for (const auto& [a, d] : writes()) ops.push_back({a, d});
  ops.push_back({regs::COMMIT, 1});
  return ops;
}

// ------------------------------------------------------------------ Model
Model::Model(const Config& cfg)
    : cfg_(cfg), sweep_(cfg.Ports * kPrios), iq_(cfg.Ports * kPrios), eq_(cfg.Ports * kPrios) {
  cfg_.validate();
  cmax_ = low_mask(cfg_.CntW);
  smax_ = low_mask(cfg_.StatW);
  tmax_ = low_mask(cfg_.TimerW);
  for (unsigned i = 0; i < kNumCounters; ++i) cnt_.emplace_back(cfg_.StatW);
  reset_state();
}

void Model::reset_state() {
  stage_ = live_ = Settings::reset_values(cfg_);
  stat_sel_ = 0;
  sweep_.reset();
  sh_used_ = hdr_used_ = egll_used_ = egly_used_ = hdr_peak_ = 0;
  regd_q_ = Regd{};
  regd_q_.thr = regd_q_.egthr = static_cast<uint32_t>(cmax_);
  regd_q2_ = regd_q_;
  commit_q_ = false;
  paused_.assign(cfg_.Ports, 0);
  storm_.assign(cfg_.Ports, 0);
  stat_pend_ = stat_snap_ = false;
  stat_clr_ = 0;
  sw_act_ = sw_turn_ = false;
  sw_idx_ = sw_pend_ = sw_e_ = 0;
  s1_ = s2_ = OpIn{};
  s1_valid_ = s2_valid_ = false;
  iq2_ = IqEntry{};
  eq2_ = EqEntry{};
  iqf_v_ = eqf_v_ = false;
  iqf_a_ = eqf_a_ = 0;
  iqf_d_ = IqEntry{};
  eqf_d_ = EqEntry{};
  dec_v_ = pz_v_ = false;
  dec_ = why_ = pz_port_ = pz_prio_ = pz_quanta_ = 0;
  snap_.fill(0);
  for (auto& c : cnt_) c.reset();
  rdata_ = 0;
  rvalid_ = false;
  tx_pauses_.clear();
}

uint32_t Model::ashift(uint32_t v, int k) const {
  if (k < 0) return v >> (-k);
  const uint64_t w = static_cast<uint64_t>(v) << k;
  return static_cast<uint32_t>(w > cmax_ ? cmax_ : w);
}

bool Model::ashift_saturates(uint32_t v, int k) const {
  return k > 0 && (static_cast<uint64_t>(v) << k) > cmax_;
}

uint32_t Model::shp_size() const {
  uint64_t sum = 0;
  for (unsigned p = 0; p < kPrios; ++p)
    if ((live_.lossless >> p) & 1) sum += live_.hdrm[p];
  const uint64_t v = (sum * cfg_.Ports) >> live_.oversub;
  return static_cast<uint32_t>(v > cmax_ ? cmax_ : v);
}

uint64_t Model::bits_per_tick() const { return static_cast<uint64_t>(live_.gbps) * cfg_.TickNs; }

uint32_t Model::thr_now() const {
  const uint32_t free = live_.shared_size > sh_used_ ? live_.shared_size - sh_used_ : 0;
  return live_.dyn ? ashift(free, live_.alpha_ing) : live_.xoff_static;
}

uint32_t Model::egthr_now() const {
  return ashift(live_.egly_size > egly_used_ ? live_.egly_size - egly_used_ : 0, live_.alpha_eg);
}

Model::Regd Model::regd_now() const {
  Regd r;
  r.thr = thr_now();
  r.egthr = egthr_now();
  r.shp = shp_size();
  r.bpt = bits_per_tick();
  return r;
}

uint64_t Model::xoff_limit(uint32_t prio) const { return uint64_t{live_.rsv.at(prio)} + thr_now(); }

// The S1 logic of rtl/pfc/pfc_top.sv, one op on the current (forwarded) entries.
Model::Effects Model::apply(const OpIn& op, uint32_t e_ticks, const Regd& r, IqEntry& iq,
                            EqEntry& eq, uint32_t& sh, uint32_t& hu, uint32_t& egll,
                            uint32_t& egly) const {
  const uint64_t thr = r.thr, egthr = r.egthr, shp = r.shp;
  Effects fx;
  const Settings& L = live_;
  const uint32_t prio = op.qi & 7;
  const uint64_t cmax = cmax_;
  const uint64_t rsv = L.rsv[prio], hcap = L.hdrm[prio];
  const uint64_t sh0 = sh, hu0 = hu, egll0 = egll, egly0 = egly;
  const uint64_t lim = rsv + thr;
  const uint64_t len = op.len;
  const uint64_t over_old = iq.cnt > rsv ? iq.cnt - rsv : 0;
  auto cadd = [&](uint64_t a, uint64_t b) { return static_cast<uint32_t>(std::min(a + b, cmax)); };
  auto csub = [](uint64_t a, uint64_t b) { return static_cast<uint32_t>(a > b ? a - b : 0); };
  auto sinc = [&](uint32_t v) { return v == smax_ ? v : v + 1; };
  auto sadd = [&](uint32_t v, uint32_t e) { return static_cast<uint32_t>(std::min<uint64_t>(uint64_t{v} + e, smax_)); };
  auto tadd = [&](uint32_t v, uint32_t e) { return static_cast<uint32_t>(std::min<uint64_t>(uint64_t{v} + e, tmax_)); };

  const uint64_t newc = iq.cnt + len;
  const uint64_t over_new = newc > rsv ? newc - rsv : 0;
  const uint64_t dsh = over_new - over_old;
  const bool fits = newc <= cmax && newc <= lim && sh0 + dsh <= L.shared_size;
  const uint64_t hsum1 = iq.hdr + len;
  const bool hok = hsum1 <= hcap && (!L.pool || hu0 + len <= shp);
  const bool egfit = eq.ecnt + len <= egthr && egly0 + len <= L.egly_size;

  if (op.op == kAdm) {
    fx.fit_tested = dsh != 0;
    fx.fit_slack = static_cast<int64_t>(sh0 + dsh) - static_cast<int64_t>(L.shared_size);
    fx.sh_pool_full = newc <= cmax && newc <= lim && !(sh0 + dsh <= L.shared_size);
    fx.shp_full = L.pool && hsum1 <= hcap && !(hu0 + len <= shp);
  }
  switch (op.op) {
    case kAdm: {
      fx.iq_we = fx.eq_we = fx.dec_v = true;
      if (eq.storm) {
        fx.dec = Decision::Drop; fx.why = Why::Watchdog; eq.wdrop = sinc(eq.wdrop); fx.inc |= 1u << kWdDrop;
      } else if (op.ll) {
        if (L.pool && egll0 + len > L.egll_size) {
          fx.dec = Decision::Drop; fx.why = Why::EgressLossless; iq.hdrop = sinc(iq.hdrop); fx.inc |= 1u << kViolation;
        } else if (!iq.xoff && fits) {
          iq.cnt = static_cast<uint32_t>(newc);
          sh = static_cast<uint32_t>((sh0 + (dsh & cmax)) & cmax);
          eq.ecnt = cadd(eq.ecnt, len);
          egll = cadd(egll0, len);
          fx.inc |= 1u << kAdmit;
        } else {
          if (!iq.xoff) {
            iq.xoff = true; iq.rt = 0; fx.pz_v = true; fx.pz_quanta = L.quanta;
            iq.psent = sinc(iq.psent); fx.inc |= 1u << kPauseTx;
          }
          fx.hdrm_tested = true;
          fx.hdrm_slack = static_cast<int64_t>(hsum1) - static_cast<int64_t>(hcap);
          if (hok) {
            fx.dec = Decision::Headroom;
            iq.hdr = static_cast<uint32_t>(hsum1 & cmax);
            hu = cadd(hu0, len);
            iq.hpeak = std::max(iq.hpeak, iq.hdr);
            eq.ecnt = cadd(eq.ecnt, len);
            egll = cadd(egll0, len);
            fx.inc |= 1u << kHdrm;
          } else {
            fx.dec = Decision::Drop; fx.why = Why::Headroom; iq.hdrop = sinc(iq.hdrop); fx.inc |= 1u << kViolation;
          }
        }
      } else {
        if (!fits) {
          fx.dec = Decision::Drop; fx.why = Why::IngressLossy; fx.inc |= 1u << kLossyDrop;
        } else if (L.pool && !egfit) {
          fx.dec = Decision::Drop; fx.why = Why::EgressLossy; fx.inc |= 1u << kLossyDrop;
        } else {
          iq.cnt = static_cast<uint32_t>(newc);
          sh = static_cast<uint32_t>((sh0 + (dsh & cmax)) & cmax);
          eq.ecnt = cadd(eq.ecnt, len);
          egly = cadd(egly0, len);
          fx.inc |= 1u << kAdmit;
        }
      }
      break;
    }
    case kDep: {
      fx.iq_we = fx.eq_we = true;
      const uint64_t hd = std::min<uint64_t>(iq.hdr, len);
      const uint64_t rest = len - hd;
      const uint64_t cd = std::min<uint64_t>(iq.cnt, rest);
      iq.hdr = static_cast<uint32_t>(iq.hdr - hd);
      iq.cnt = static_cast<uint32_t>(iq.cnt - cd);
      const uint64_t over_n = iq.cnt > rsv ? iq.cnt - rsv : 0;
      sh = csub(sh0, over_old - over_n);
      hu = csub(hu0, hd);
      eq.ecnt = csub(eq.ecnt, len);
      if (op.ll) egll = csub(egll0, len);
      else egly = csub(egly0, len);
      // XON only with the headroom empty again (after this departure's own drain), so
      // the next PAUSE can rely on all of HDRM[p]; then cnt is empty or XON_OFFSET below lim
      const bool low = iq.cnt == 0 || uint64_t{iq.cnt} + L.xon_offset <= lim;
      const bool xon = iq.hdr == 0 && low;
      fx.xon_hdr_hold = iq.xoff && low && iq.hdr != 0;
      fx.xon_tested = iq.cnt != 0;
      fx.xon_slack = static_cast<int64_t>(uint64_t{iq.cnt} + L.xon_offset) - static_cast<int64_t>(lim);
      if (iq.xoff && xon) {
        iq.xoff = false; iq.rt = 0; fx.pz_v = true; fx.pz_quanta = 0; fx.inc |= 1u << kResumeTx;
      }
      break;
    }
    case kPfc: {
      fx.eq_we = true;
      eq.prcv = sinc(eq.prcv);
      if (op.quanta != 0) {
        eq.pact = true; eq.rem = op.quanta << 9; fx.inc |= 1u << kPauseRx;
        if (eq.storm) eq.wdt = 0;
      } else {
        eq.pact = false; eq.rem = 0; fx.inc |= 1u << kResumeRx;
      }
      break;
    }
    case kSweep: {
      fx.iq_we = fx.eq_we = true;
      if (iq.xoff) {
        // the same XON rule as a departure: headroom empty, count low enough or zero
        const bool low = iq.cnt == 0 || uint64_t{iq.cnt} + L.xon_offset <= lim;
        const bool xon = iq.hdr == 0 && low;
        fx.xon_hdr_hold = low && iq.hdr != 0;
        fx.xon_tested = iq.cnt != 0;
        fx.xon_slack = static_cast<int64_t>(uint64_t{iq.cnt} + L.xon_offset) - static_cast<int64_t>(lim);
        if (xon) {
          iq.xoff = false; iq.rt = 0; fx.pz_v = true; fx.pz_quanta = 0; fx.inc |= 1u << kResumeTx;
        } else {
          const uint32_t tt = tadd(iq.rt, e_ticks);
          if (L.refresh != 0 && tt >= L.refresh) {
            iq.rt = 0; fx.pz_v = true; fx.pz_quanta = L.quanta; iq.psent = sinc(iq.psent);
            fx.inc |= 1u << kPauseTx;
          } else {
            iq.rt = tt;
          }
        }
      }
      const bool pact0 = eq.pact, storm0 = eq.storm;
      const bool peff = pact0 && !storm0;
      if (peff) eq.ptime = sadd(eq.ptime, e_ticks);
      const uint64_t dec_bits = uint64_t{e_ticks} * r.bpt;
      if (pact0) {
        if (eq.rem <= dec_bits) {
          fx.expired_exact = eq.rem == dec_bits;
          eq.pact = false; eq.rem = 0; fx.expired = true;
        }
        else eq.rem = static_cast<uint32_t>(eq.rem - dec_bits);
      }
      const bool wd_on = L.wd_detect != 0 && ((L.lossless >> (op.qe & 7)) & 1);
      if (!wd_on) {
        eq.storm = false; eq.wdt = 0;
      } else if (!storm0) {
        if (peff && eq.ecnt != 0) {
          const uint32_t tt = tadd(eq.wdt, e_ticks);
          if (tt >= L.wd_detect) {
            eq.storm = true; eq.wdt = 0; eq.wstorm = sinc(eq.wstorm); fx.inc |= 1u << kWdStorm;
          } else {
            eq.wdt = tt;
          }
        } else {
          eq.wdt = 0;
        }
      } else {
        if (eq.pact) {
          eq.wdt = 0;
        } else {
          const uint32_t tt = tadd(eq.wdt, e_ticks);
          if (tt >= L.wd_restore) {
            eq.storm = false; eq.wdt = 0; eq.wrest = sinc(eq.wrest); fx.inc |= 1u << kWdRestore;
          } else {
            eq.wdt = tt;
          }
        }
      }
      break;
    }
    case kStat: {
      fx.iq_we = fx.eq_we = true;
      fx.snap = op.snap;
      if (op.clr & 0x01) iq.psent = 0;
      if (op.clr & 0x02) iq.hdrop = 0;
      if (op.clr & 0x04) iq.hpeak = 0;
      if (op.clr & 0x08) eq.prcv = 0;
      if (op.clr & 0x10) eq.ptime = 0;
      if (op.clr & 0x20) eq.wstorm = 0;
      if (op.clr & 0x40) eq.wdrop = 0;
      if (op.clr & 0x80) eq.wrest = 0;
      break;
    }
    default:
      break;
  }
  return fx;
}

// ------------------------------------------------------------------ registers
void Model::write_reg(uint32_t addr, uint32_t d) {
  Settings& s = stage_;
  const uint32_t cm = static_cast<uint32_t>(cmax_), tm = static_cast<uint32_t>(tmax_);
  switch (addr) {
    case regs::MODE: s.dyn = d & 1; s.pool = (d >> 1) & 1; break;
    case regs::LOSSLESS: s.lossless = d & 0xFF; break;
    case regs::XOFF_STATIC: s.xoff_static = d & cm; break;
    case regs::ALPHA: s.alpha_ing = to_shift(sext4(d)); s.alpha_eg = to_shift(sext4(d >> 8)); break;
    case regs::XON_OFFSET: s.xon_offset = d & cm; break;
    case regs::SHARED_SIZE: s.shared_size = d & cm; break;
    case regs::EGLL_SIZE: s.egll_size = d & cm; break;
    case regs::EGLY_SIZE: s.egly_size = d & cm; break;
    case regs::SHP: s.oversub = d & 7; break;
    case regs::QUANTA: s.quanta = d & 0xFFFF; break;
    case regs::REFRESH: s.refresh = d & tm; break;
    case regs::LINK_GBPS: s.gbps = d & 0x3FF; break;
    case regs::WD_DETECT: s.wd_detect = d & tm; break;
    case regs::WD_RESTORE: s.wd_restore = d & tm; break;
    case regs::STAT_SEL: {
      if (d < cfg_.entries()) stat_sel_ = d;
      break;
    }
    default: {
      const uint32_t w = (addr >> 2) & 0x3FF;
      if (w >= 0x20 && w < 0x28) s.rsv[w & 7] = d & cm;
      if (w >= 0x28 && w < 0x30) s.hdrm[w & 7] = d & cm;
      break;
    }
  }
}

uint32_t Model::read_reg(uint32_t addr) const {
  const Settings& s = stage_;
  switch (addr) {
    case regs::ID: return regs::ID_VALUE;
    case regs::PARAMS: return cfg_.Ports | (cfg_.CntW << 8) | (cfg_.StatW << 16) | (cfg_.TimerW << 24);
    case regs::STATUS: return (init_done() ? 1u : 0u) | ((stat_pend_ || (s1_valid_ && s1_.op == kStat) || (cfg_.RegWords && s2_valid_ && s2_.op == kStat)) ? 2u : 0u);
    case regs::TICK_NS: return cfg_.TickNs;
    case regs::MODE: return (s.dyn ? 1u : 0u) | (s.pool ? 2u : 0u);
    case regs::LOSSLESS: return s.lossless;
    case regs::XOFF_STATIC: return s.xoff_static;
    case regs::ALPHA: return (static_cast<uint32_t>(s.alpha_ing) & 0xF) | ((static_cast<uint32_t>(s.alpha_eg) & 0xF) << 8);
    case regs::XON_OFFSET: return s.xon_offset;
    case regs::SHARED_SIZE: return s.shared_size;
    case regs::EGLL_SIZE: return s.egll_size;
    case regs::EGLY_SIZE: return s.egly_size;
    case regs::SHP: return s.oversub;
    case regs::QUANTA: return s.quanta;
    case regs::REFRESH: return s.refresh;
    case regs::LINK_GBPS: return s.gbps;
    case regs::WD_DETECT: return s.wd_detect;
    case regs::WD_RESTORE: return s.wd_restore;
    case regs::STAT_SEL: return stat_sel_;
    case regs::HDR_PEAK: return hdr_peak_;
    case regs::SHARED_USED: return sh_used_;
    case regs::HDR_USED: return hdr_used_;
    case regs::EGLL_USED: return egll_used_;
    case regs::EGLY_USED: return egly_used_;
    case regs::SHP_SIZE: return regd_q_.shp;
    case regs::SNAP_PSENT: return snap_[0];
    case regs::SNAP_HDROP: return snap_[1];
    case regs::SNAP_HPEAK: return snap_[2];
    case regs::SNAP_PRCV: return snap_[3];
    case regs::SNAP_PTIME: return snap_[4];
    case regs::SNAP_WSTORM: return snap_[5];
    case regs::SNAP_WDROP: return snap_[6];
    case regs::SNAP_WREST: return snap_[7];
    case regs::SNAP_CNT: return snap_[8];
    case regs::SNAP_HDR: return snap_[9];
    case regs::SNAP_ECNT: return snap_[10];
    case regs::SNAP_FLAGS: return snap_[11];
    default: {
      const uint32_t w = (addr >> 2) & 0x3FF;
      uint32_t r = 0;
      if (w >= 0x20 && w < 0x28) r = s.rsv[w & 7];
      if (w >= 0x28 && w < 0x30) r = s.hdrm[w & 7];
      if ((w >> 4) == 0x05 && (w & 0xF) < kNumCounters) r = static_cast<uint32_t>(cnt_[w & 0xF].value());
      return r;
    }
  }
}

// ------------------------------------------------------------------ cycle face
Outputs Model::eval(const Inputs& in) const {
  Outputs o;
  const bool idone = init_done();
  const bool ext_any = in.pfc_valid || in.dep_valid || in.adm_valid;
  const bool hd = hold();
  const bool sg = stat_go();
  const bool swg = idone && !sg && !hd && sw_act_ && (sw_turn_ || !ext_any);
  const bool ext_ok = idone && !sg && !swg && !hd;
  o.pfc_ready = ext_ok;
  o.dep_ready = ext_ok && !in.pfc_valid;
  o.adm_ready = ext_ok && !in.pfc_valid && !in.dep_valid;
  o.dec_valid = dec_v_;
  o.dec = dec_;
  o.dec_why = why_;
  o.pause_valid = pz_v_;
  o.pause_port = pz_port_;
  o.pause_prio = pz_prio_;
  o.pause_quanta = pz_quanta_;
  if (in.eg_qport < cfg_.Ports) {
    o.eg_paused = paused_[in.eg_qport];  // bit p = priority p
    o.eg_storm = storm_[in.eg_qport];
  }
  o.cfg_rdata = rdata_;
  o.cfg_rvalid = rvalid_;
  o.init_done = idone;
  return o;
}

void Model::tick(const Inputs& in) {
  if (!in.rst_n) {
    reset_state();
    return;
  }
  const Outputs o = eval(in);
  const bool idone = init_done();
  // ---- S0
  const bool ext_any = in.pfc_valid || in.dep_valid || in.adm_valid;
  const bool hd = hold();
  const bool sg = stat_go();
  const bool swg = idone && !sg && !hd && sw_act_ && (sw_turn_ || !ext_any);
  const bool ext_ok = idone && !sg && !swg && !hd;
  const bool held = hd && (stat_pend_ || sw_act_ || ext_any);
  OpIn s0;
  if (sg) {
    s0.op = kStat; s0.qi = s0.qe = stat_sel_; s0.snap = stat_snap_; s0.clr = stat_clr_;
  } else if (swg) {
    s0.op = kSweep; s0.qi = s0.qe = sw_idx_;
  } else if (ext_ok && in.pfc_valid) {
    s0.op = kPfc; s0.qi = s0.qe = in.pfc_port * kPrios + in.pfc_prio; s0.quanta = in.pfc_quanta;
  } else if (in.dep_valid && o.dep_ready) {
    s0.op = kDep; s0.qi = in.dep_iport * kPrios + in.dep_prio; s0.qe = in.dep_eport * kPrios + in.dep_prio;
    s0.len = in.dep_len; s0.ll = in.dep_lossless;
  } else if (in.adm_valid && o.adm_ready) {
    s0.op = kAdm; s0.qi = in.adm_iport * kPrios + in.adm_prio; s0.qe = in.adm_eport * kPrios + in.adm_prio;
    s0.len = in.adm_len; s0.ll = in.adm_lossless;
  }
  // ---- S2 (with RegWords = 0, S1 decides: on the RAM's word or the far write)
  const bool rw = cfg_.RegWords != 0;
  if (!rw) {
    s2_valid_ = s1_valid_;
    s2_ = s1_;
    s2_.ff_iq = iqf_v_ && iqf_a_ == s1_.qi;
    s2_.ff_eq = eqf_v_ && eqf_a_ == s1_.qe;
    iq2_ = s2_.ff_iq ? iqf_d_ : iq_.rdata();
    eq2_ = s2_.ff_eq ? eqf_d_ : eq_.rdata();
  }
  IqEntry iq = iq2_;
  EqEntry eq = eq2_;
  trace_ = Trace{};
  trace_.commit_hold = held;
  trace_.fwd_near_iq = s2_valid_ && s2_.fn_iq;
  trace_.fwd_near_eq = s2_valid_ && s2_.fn_eq;
  trace_.fwd_far_iq = s2_valid_ && s2_.ff_iq;
  trace_.fwd_far_eq = s2_valid_ && s2_.ff_eq;
  const IqEntry iq_cur = iq;
  const EqEntry eq_cur = eq;
  uint32_t sh = sh_used_, hu = hdr_used_, egll = egll_used_, egly = egly_used_;
  Effects fx;
  Regd regd_use = regd_q_;  // shp and bpt one cycle behind, the thresholds two
  regd_use.thr = regd_q2_.thr;
  regd_use.egthr = regd_q2_.egthr;
  if (s2_valid_) fx = apply(s2_, s2_.e, regd_use, iq, eq, sh, hu, egll, egly);
  const Regd regd_d = regd_now();  // from the pre-edge pools and live settings
  trace_.thr_sat =
      (live_.dyn && ashift_saturates(live_.shared_size > sh_used_ ? live_.shared_size - sh_used_ : 0, live_.alpha_ing)) ||
      ashift_saturates(live_.egly_size > egly_used_ ? live_.egly_size - egly_used_ : 0, live_.alpha_eg);
  if (s2_valid_) {
    trace_.op = s2_.op; trace_.qi = s2_.qi; trace_.qe = s2_.qe;
    trace_.dec_v = fx.dec_v; trace_.dec = fx.dec; trace_.why = fx.why;
    trace_.pz_v = fx.pz_v; trace_.pz_quanta = fx.pz_quanta; trace_.inc = fx.inc;
    trace_.expired = fx.expired;
    trace_.expired_exact = fx.expired_exact;
    trace_.sh_pool_full = fx.dec_v && fx.sh_pool_full && !eq_cur.storm;
    trace_.shp_full = fx.dec_v && fx.shp_full && fx.why == Why::Headroom;
    trace_.xon_hdr_hold = fx.xon_hdr_hold;
    trace_.xon_tested = fx.xon_tested;
    trace_.xon_slack = fx.xon_slack;
    trace_.fit_tested = fx.dec_v && fx.fit_tested && !eq_cur.storm;
    trace_.fit_slack = fx.fit_slack;
    trace_.hdrm_tested = fx.hdrm_tested;
    trace_.hdrm_slack = fx.hdrm_slack;
  }

  // ---- register interface
  const bool we_ok = in.cfg_we && idone;
  const bool commit = commit_q_;  // the COMMIT written in the last cycle takes effect now
  const bool commit_in = commit_of(in);  // (before the sweep's edge changes init_done())
  const bool stat_cmd_we = we_ok && in.cfg_addr == regs::STAT_CMD;
  const uint32_t clr = (we_ok && in.cfg_addr == regs::CLEAR) ? in.cfg_wdata : 0;
  const uint32_t rd = read_reg(in.cfg_addr);
  const Settings stage_before = stage_;
  if (we_ok) write_reg(in.cfg_addr, in.cfg_wdata);
  if (commit) {
    trace_.speed_commit_on_sweep =
        (cfg_.RegWords ? s1_valid_ && s1_.op == kSweep : sw_act_) && stage_before.gbps != live_.gbps;
    live_ = stage_before;
  }

  // ---- counters (use pre-edge sweep state for the overrun event)
  const bool sw_start = idone && !sw_act_ && sw_pend_ != 0;
  uint32_t inc = fx.inc;
  if (sw_start && sw_pend_ > 1) inc |= 1u << kOverrun;
  trace_.sweep_start = sw_start;
  trace_.overrun = sw_start && sw_pend_ > 1;
  for (unsigned i = 0; i < kNumCounters; ++i) cnt_[i].clock((clr >> i) & 1, (inc >> i) & 1);
  if ((clr >> 12) & 1) hdr_peak_ = 0;
  else if (hdr_used_ > hdr_peak_) hdr_peak_ = hdr_used_;  // the peak follows one cycle behind


  // ---- egress flags, snapshot, outputs
  if (s2_valid_ && (s2_.op == kPfc || s2_.op == kSweep)) {
    set_flag(paused_, s2_.qe, eq.pact && !eq.storm);
    set_flag(storm_, s2_.qe, eq.storm);
  }
  if (fx.snap) {
    snap_ = {iq_cur.psent, iq_cur.hdrop, iq_cur.hpeak, eq_cur.prcv, eq_cur.ptime, eq_cur.wstorm,
             eq_cur.wdrop, eq_cur.wrest, iq_cur.cnt, iq_cur.hdr, eq_cur.ecnt,
             (iq_cur.xoff ? 1u : 0u) | (eq_cur.pact ? 2u : 0u) | (eq_cur.storm ? 4u : 0u)};
  }
  dec_v_ = fx.dec_v;
  dec_ = fx.dec_v ? static_cast<uint32_t>(fx.dec) : regs::DEC_ADMIT;
  why_ = fx.dec_v ? static_cast<uint32_t>(fx.why) : regs::WHY_NONE;
  pz_v_ = fx.pz_v;
  pz_port_ = fx.pz_v ? s2_.qi / kPrios : 0;
  pz_prio_ = fx.pz_v ? s2_.qi % kPrios : 0;
  pz_quanta_ = fx.pz_v ? fx.pz_quanta : 0;
  rvalid_ = in.cfg_re;
  rdata_ = in.cfg_re ? rd : 0;

  // ---- S1: the words S1's op takes to S2, newest first: the write S2 makes now (near),
  // the write of the last edge, which the op's read in S0 missed (far), the RAM's
  const bool fn_iq = fx.iq_we && s2_.qi == s1_.qi, fn_eq = fx.eq_we && s2_.qe == s1_.qe;
  const bool ff_iq = iqf_v_ && iqf_a_ == s1_.qi, ff_eq = eqf_v_ && eqf_a_ == s1_.qe;
  const IqEntry iq1 = !rw ? IqEntry{} : fn_iq ? iq : ff_iq ? iqf_d_ : iq_.rdata();
  const EqEntry eq1 = !rw ? EqEntry{} : fn_eq ? eq : ff_eq ? eqf_d_ : eq_.rdata();

  // ---- RAMs (read S0's addresses, write S2's result or the init sweep)
  const bool init_we = sweep_.we();
  iq_.clock(true, s0.qi, init_we || fx.iq_we, init_we ? sweep_.addr() : s2_.qi, init_we ? IqEntry{} : iq);
  eq_.clock(true, s0.qe, init_we || fx.eq_we, init_we ? sweep_.addr() : s2_.qe, init_we ? EqEntry{} : eq);
  iqf_v_ = fx.iq_we; iqf_a_ = s2_.qi; iqf_d_ = iq;
  eqf_v_ = fx.eq_we; eqf_a_ = s2_.qe; eqf_d_ = eq;
  sweep_.clock();

  // ---- pools, registered thresholds
  sh_used_ = sh; hdr_used_ = hu; egll_used_ = egll; egly_used_ = egly;
  regd_q2_ = regd_q_;
  regd_q_ = regd_d;
  commit_q_ = commit_in;

  // ---- STAT_CMD and timer sweep control
  const uint32_t sw_e_before = sw_e_;
  if (stat_cmd_we) {
    stat_pend_ = true; stat_snap_ = in.cfg_wdata & 1; stat_clr_ = (in.cfg_wdata >> 8) & 0xFF;
  } else if (sg) {
    stat_pend_ = false;
  }
  sw_turn_ = !sw_turn_;
  if (sw_start) {
    sw_act_ = true; sw_idx_ = 0; sw_e_ = sw_pend_; sw_pend_ = in.tick ? 1 : 0;
  } else {
    if (in.tick && sw_pend_ != 15) ++sw_pend_;
    if (swg) {
      if (sw_idx_ == cfg_.entries() - 1) sw_act_ = false;
      else ++sw_idx_;
    }
  }
  // ---- S1 -> S2, S0 -> S1 (a sweep op carries the pass's E: it cannot change while the
  // pass issues ops)
  if (rw) {
    s2_valid_ = s1_valid_;
    s2_ = s1_;
    s2_.fn_iq = fn_iq; s2_.fn_eq = fn_eq;
    s2_.ff_iq = !fn_iq && ff_iq; s2_.ff_eq = !fn_eq && ff_eq;
    iq2_ = iq1;
    eq2_ = eq1;
  }
  s1_valid_ = s0.op != kNone;
  s1_ = s0;
  s1_.e = sw_e_before;
  if (s0.op != kPfc) s1_.quanta = 0;
  // (s0 captured STAT_CMD's snap/clr before this edge's STAT_CMD write replaced them)
}

// ------------------------------------------------------------------ transaction face
void Model::reset_transaction() {
  reset_state();
  for (uint32_t a = 0; a < cfg_.entries(); ++a) {
    iq_.at(a) = IqEntry{};
    eq_.at(a) = EqEntry{};
  }
  while (!sweep_.done()) sweep_.clock();
}

void Model::configure(const Settings& s) {
  if (!init_done()) bad("configure() before the RAM sweep finished: call reset_transaction() first");
  s.validate(cfg_);
  for (const auto& [a, d] : s.writes()) write_reg(a, d);
  live_ = stage_;
}

Model::Result Model::admit(uint32_t iport, uint32_t eport, uint32_t prio, uint32_t len, bool lossless) {
  if (iport >= cfg_.Ports || eport >= cfg_.Ports || prio >= kPrios) bad("admit(): port or priority out of range");
  if (len == 0 || len >= (1u << kLenW)) bad("admit(): length must be in 1..16383");
  OpIn op;
  op.op = kAdm; op.qi = iport * kPrios + prio; op.qe = eport * kPrios + prio; op.len = len; op.ll = lossless;
  IqEntry& iq = iq_.at(op.qi);
  EqEntry& eq = eq_.at(op.qe);
  const Effects fx = apply(op, 0, regd_now(), iq, eq, sh_used_, hdr_used_, egll_used_, egly_used_);
  for (unsigned i = 0; i < kNumCounters; ++i) cnt_[i].clock(false, (fx.inc >> i) & 1);
  hdr_peak_ = std::max(hdr_peak_, hdr_used_);
  if (fx.pz_v) tx_pauses_.push_back({iport, prio, fx.pz_quanta});
  Result r;
  r.dec = fx.dec;
  r.why = fx.why;
  return r;
}

void Model::depart(uint32_t iport, uint32_t eport, uint32_t prio, uint32_t len, bool lossless) {
  if (iport >= cfg_.Ports || eport >= cfg_.Ports || prio >= kPrios) bad("depart(): port or priority out of range");
  if (len == 0 || len >= (1u << kLenW)) bad("depart(): length must be in 1..16383");
  OpIn op;
  op.op = kDep; op.qi = iport * kPrios + prio; op.qe = eport * kPrios + prio; op.len = len; op.ll = lossless;
  const Effects fx = apply(op, 0, regd_now(), iq_.at(op.qi), eq_.at(op.qe), sh_used_, hdr_used_, egll_used_, egly_used_);
  for (unsigned i = 0; i < kNumCounters; ++i) cnt_[i].clock(false, (fx.inc >> i) & 1);
  if (fx.pz_v) tx_pauses_.push_back({iport, prio, fx.pz_quanta});
}

void Model::on_pfc(uint32_t port, uint32_t prio, uint32_t quanta) {
  if (port >= cfg_.Ports || prio >= kPrios || quanta > 0xFFFF) bad("on_pfc(): port, priority or quanta out of range");
  OpIn op;
  op.op = kPfc; op.qi = op.qe = port * kPrios + prio; op.quanta = quanta;
  EqEntry& eq = eq_.at(op.qe);
  const Effects fx = apply(op, 0, regd_now(), iq_.at(op.qi), eq, sh_used_, hdr_used_, egll_used_, egly_used_);
  for (unsigned i = 0; i < kNumCounters; ++i) cnt_[i].clock(false, (fx.inc >> i) & 1);
  set_flag(paused_, op.qe, eq.pact && !eq.storm);
  set_flag(storm_, op.qe, eq.storm);
}

void Model::on_pfc_frame(uint32_t port, uint32_t enable, const std::array<uint32_t, kPrios>& quanta) {
  for (uint32_t p = 0; p < kPrios; ++p)
    if ((enable >> p) & 1) on_pfc(port, p, quanta[p]);
}

void Model::advance_ticks(uint64_t n) {
  for (uint64_t t = 0; t < n; ++t) {
    for (uint32_t k = 0; k < cfg_.entries(); ++k) {
      OpIn op;
      op.op = kSweep; op.qi = op.qe = k;
      EqEntry& eq = eq_.at(k);
      const Effects fx = apply(op, 1, regd_now(), iq_.at(k), eq, sh_used_, hdr_used_, egll_used_, egly_used_);
      for (unsigned i = 0; i < kNumCounters; ++i) cnt_[i].clock(false, (fx.inc >> i) & 1);
      set_flag(paused_, k, eq.pact && !eq.storm);
      set_flag(storm_, k, eq.storm);
      if (fx.pz_v) tx_pauses_.push_back({k / kPrios, k % kPrios, fx.pz_quanta});
    }
  }
}

std::vector<PauseRequest> Model::take_pause_requests() {
  std::vector<PauseRequest> v;
  v.swap(tx_pauses_);
  return v;
}

bool Model::flag(const std::vector<uint8_t>& f, uint32_t port, uint32_t prio) const {
  const uint32_t q = port * kPrios + prio;
  if (q >= cfg_.entries()) throw std::out_of_range("pfc: queue " + std::to_string(q) + " out of range");
  return (f[q / kPrios] >> (q % kPrios)) & 1;
}
void Model::set_flag(std::vector<uint8_t>& f, uint32_t q, bool v) {
  const uint8_t bit = static_cast<uint8_t>(1u << (q % kPrios));
  uint8_t& b = f.at(q / kPrios);
  b = static_cast<uint8_t>(v ? (b | bit) : (b & ~bit));
}
bool Model::paused(uint32_t port, uint32_t prio) const { return flag(paused_, port, prio); }
bool Model::storm(uint32_t port, uint32_t prio) const { return flag(storm_, port, prio); }
bool Model::xoff(uint32_t port, uint32_t prio) const { return iq_.at(port * kPrios + prio).xoff; }

QueueStats Model::queue_stats(uint32_t port, uint32_t prio) const {
  const IqEntry& i = iq_.at(port * kPrios + prio);
  const EqEntry& e = eq_.at(port * kPrios + prio);
  return QueueStats{i.psent, i.hdrop, i.hpeak, e.prcv, e.ptime, e.wstorm, e.wdrop, e.wrest,
                    i.cnt, i.hdr, e.ecnt, i.xoff, e.pact, e.storm};
}

}  // namespace ll::pfc
