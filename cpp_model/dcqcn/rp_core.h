// The DCQCN reaction-point algorithm, written once for two arithmetics:
//   Fixed  - the hardware's integer formats (formats.h), bit-exact oracle of the RTL;
//   Double - IEEE double of the same algorithm (no floors, exact g), the reference.
//
// One per-QP "pass" = catch_up(limit) (timer expiries that are due, applied lazily in
// their time order) followed, if nothing due is left ("not late"), by one event operation
// (CNP, bytes sent, or nothing for a scan/snapshot). The RTL computes exactly one pass per
// RMW-pipeline slot (rtl/dcqcn/dcqcn_rp_pass.sv) and replays a late event until its pass
// is not late; the event-exact transaction API repeats catch_up until nothing due is left
// before applying the event - the same sequence of operations. See docs/dcqcn.md.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "dcqcn/formats.h"

namespace ll::dcqcn {

// The live configuration as the hardware holds it after COMMIT (rates in b/s, alpha-like
// values in Q1.44, periods in ticks >= 1). Built from register values by Live::from_regs.
struct Live {
  bool nic = true, hai_grow = false, clamp_tgt = false, clamp_ati = true, np_per_pkt = false;
  unsigned g_shift = 8;
  uint64_t p_alpha = 1000, p_dec = 4000, p_inc = 300000;
  uint32_t byte_reset = 0;
  unsigned F = 1;
  uint64_t rai = 20 * kMbps, rhai = 200 * kMbps, rmin = 1000 * kMbps, first_rate = 0;
  uint64_t line = 100000 * kMbps;
  uint64_t alpha_init = kAlphaOne, min_dec_fac = 0;
  uint64_t np_interval = 0;
};

// Staged register values (what the host writes) and their conversion at COMMIT.
// Reset values: the NIC reference configuration at 1 ns ticks (NIC, CLAMP_ATI, g = 1/256,
// alpha 1 us, decrease check 4 us, increase timer 300 us, F = 1, R_AI 20 Mb/s, R_HAI
// 200 Mb/s, Rmin 1 Gb/s, no byte counter, NP-side coalescing with N = 0).
struct StageRegs {
  uint32_t ctrl = 0x809, alpha_period = 1000, dec_period = 4000, inc_period = 300000, byte_reset = 0;
  uint32_t threshold = 1, rai = 20, rhai = 200, rmin = 1000, first_rate = 0;
  uint32_t alpha_init = 1u << kCfgQ16, min_dec_fac = 0, np_interval = 0;
};
Live live_from_stage(const StageRegs& r, uint64_t line_bps);
// A configuration in the host's units (periods in ticks, rates in Mb/s, fractions in
// Q16), by name; defaults: the NIC reference configuration at 1 ns ticks (= StageRegs{}).
struct RpSettings {
  bool nic = true, hai_grow = false, clamp_tgt = false, clamp_ati = true, np_per_pkt = false;
  unsigned g_shift = 8;
  uint32_t alpha_period = 1000, dec_period = 4000, inc_period = 300000;  // ticks
  uint32_t byte_reset = 0;                                              // bytes, 0: off
  unsigned F = 1;
  uint32_t rai_mbps = 20, rhai_mbps = 200, rmin_mbps = 1000, first_mbps = 0;
  uint32_t alpha_init_q16 = 1u << kCfgQ16, min_dec_fac_q16 = 0;
  uint32_t np_interval = 0;                                             // ticks
};
// The staged register values that program s.
StageRegs stage_regs(const RpSettings& s);

struct Fixed {
  using Rate = uint64_t;
  using Alpha = uint64_t;
  static Rate rate(uint64_t bps) { return bps; }
  static Alpha alpha(uint64_t q44) { return q44; }
  static Alpha alpha_step(Alpha a, unsigned s, bool plus_g) {
    return a - (a >> s) + (plus_g ? (kAlphaOne >> s) : 0);
  }
  static Rate cut(Rate rc, Alpha a, uint64_t mdf) {
    uint64_t f = kAlphaOne - (a >> 1);
    if (f < mdf) f = mdf;
    return static_cast<Rate>((static_cast<unsigned __int128>(rc) * f) >> kAlphaFrac);
  }
  static Rate halfsum(Rate a, Rate b) { return (a >> 1) + (b >> 1); }
  static double to_double(Rate r) { return static_cast<double>(r); }
  static double alpha_double(Alpha a) { return std::ldexp(static_cast<double>(a), -static_cast<int>(kAlphaFrac)); }
};

struct Double {
  using Rate = double;
  using Alpha = double;
  static Rate rate(uint64_t bps) { return static_cast<double>(bps); }
  static Alpha alpha(uint64_t q44) { return std::ldexp(static_cast<double>(q44), -static_cast<int>(kAlphaFrac)); }
  static Alpha alpha_step(Alpha a, unsigned s, bool plus_g) {
    const double g = std::ldexp(1.0, -static_cast<int>(s));
    return (1.0 - g) * a + (plus_g ? g : 0.0);
  }
  static Rate cut(Rate rc, Alpha a, uint64_t mdf) {
    double f = 1.0 - a / 2.0;
    const double m = std::ldexp(static_cast<double>(mdf), -static_cast<int>(kAlphaFrac));
    if (f < m) f = m;
    return rc * f;
  }
  static Rate halfsum(Rate a, Rate b) { return (a + b) / 2.0; }
  static double to_double(Rate r) { return r; }
  static double alpha_double(Alpha a) { return a; }
};

// Per-QP state: exactly the fields of the RTL's state RAM word (dcqcn_fmt_pkg::qp_t).
template <class Ar>
struct Qp {
  typename Ar::Rate rc{}, rt{};
  typename Ar::Alpha alpha{};
  uint32_t t = 0, bc = 0;  // timer stage T and byte stage BC (kStageW bits, saturating)
  uint32_t bytes = 0;      // bytes since the last byte-counter expiry (saturating)
  uint64_t dl_a = 0, dl_i = 0, dl_d = 0;  // next alpha / increase / decrease-check time
  bool active = false;   // first CNP seen: alpha and decrease timers run
  bool inc_on = false;   // increase timer and byte counter run (after the first decrease)
  bool cnp_a = false;    // NIC: CNP since the last alpha update
  bool cnp_d = false;    // NIC: CNP since the last decrease check
  uint32_t c_cnp = 0, c_dec = 0, c_fr = 0, c_ai = 0, c_hai = 0;  // kQcntW bits, saturating
};

template <class Ar>
Qp<Ar> qp_reset(const Live& c) {
  Qp<Ar> q;
  q.rc = q.rt = Ar::rate(c.line);
  q.alpha = Ar::alpha(0);
  return q;
}

enum class Ev { Scan, Cnp, Sent, Snap };
enum class Step { FR, AI, HAI, Dec };
struct TraceEntry {
  Step step;
  uint64_t time;
  double rc, rt;
};
using Trace = std::vector<TraceEntry>;

inline uint32_t sat_inc(uint32_t v, uint32_t max) { return v < max ? v + 1 : v; }

// What one pass did, for functional coverage (the lockstep bench's bins).
struct PassCov {
  bool first_cnp = false, clamp_taken = false, clamp_not = false, min_rate = false;
  bool line_cap = false, same_time = false, dec_deferred = false, byte_event = false;
  bool ati_stage0 = false;  // CLAMP_ATI without CLAMP_TGT, no timer increase since the last decrease, Rt != Rc
  unsigned fr = 0, ai = 0, hai = 0, dec = 0;
};

// Pass bounds of the hardware (parameters AlphaSteps and DecSteps).
struct Bounds {
  unsigned alpha_steps = 8, dec_steps = 4;
};

template <class Ar>
void increase(Qp<Ar>& s, const Live& c, bool byte_event, uint64_t at, Trace* tr, PassCov* cv = nullptr) {
  using R = typename Ar::Rate;
  const R line = Ar::rate(c.line);
  const uint32_t tt = s.t;
  const uint32_t bb = c.byte_reset ? s.bc : s.t;
  const uint32_t mx = std::max(tt, bb), mn = std::min(tt, bb);
  Step st;
  if (mx < c.F) {
    st = Step::FR;
    s.c_fr = sat_inc(s.c_fr, kQcntMax);
  } else if (mn > c.F) {
    st = Step::HAI;
    const uint64_t i = c.hai_grow ? (mn - c.F) : 1;
    const R add = Ar::rate(i * c.rhai);
    if (cv && s.rt + add > line) cv->line_cap = true;
    s.rt = std::min(line, s.rt + add);
    s.c_hai = sat_inc(s.c_hai, kQcntMax);
  } else {
    st = Step::AI;
    if (cv && s.rt + Ar::rate(c.rai) > line) cv->line_cap = true;
    s.rt = std::min(line, s.rt + Ar::rate(c.rai));
    s.c_ai = sat_inc(s.c_ai, kQcntMax);
  }
  if (cv) {
    cv->fr += st == Step::FR;
    cv->ai += st == Step::AI;
    cv->hai += st == Step::HAI;
    cv->byte_event |= byte_event;
  }
  s.rc = std::max(Ar::rate(c.rmin), Ar::halfsum(s.rc, s.rt));
  if (byte_event) s.bc = sat_inc(s.bc, kStageMax);
  else s.t = sat_inc(s.t, kStageMax);
  if (tr) tr->push_back({st, at, Ar::to_double(s.rc), Ar::to_double(s.rt)});
}

template <class Ar>
void decrease(Qp<Ar>& s, const Live& c, typename Ar::Alpha a, bool clamp, uint64_t at, Trace* tr,
              PassCov* cv = nullptr) {
  if (clamp) s.rt = s.rc;
  const typename Ar::Rate cut = Ar::cut(s.rc, a, c.min_dec_fac);
  if (cv) {
    ++cv->dec;
    if (cut < Ar::rate(c.rmin)) cv->min_rate = true;
    if (c.nic) (clamp ? cv->clamp_taken : cv->clamp_not) = true;
  }
  s.rc = std::max(Ar::rate(c.rmin), cut);
  s.t = 0;
  s.bc = 0;
  s.bytes = 0;
  s.c_dec = sat_inc(s.c_dec, kQcntMax);
  if (tr) tr->push_back({Step::Dec, at, Ar::to_double(s.rc), Ar::to_double(s.rt)});
}

// Apply every timer expiry with time < limit, within the pass bounds, in time order
// (same time: alpha update, increase timer, decrease check). Returns true if something
// due (< limit) is left for a later pass ("late").
template <class Ar>
bool catch_up(Qp<Ar>& s, const Live& c, uint64_t limit, const Bounds& b, Trace* tr, PassCov* cv = nullptr) {
  if (!s.active) return false;
  const uint64_t L0 = limit;
  uint64_t L = limit;
  bool dec = false;
  uint64_t d1 = 0;
  if (c.nic && s.cnp_d && s.dl_d < L) {
    d1 = s.dl_d;
    const bool alpha_short = s.dl_a + b.alpha_steps * c.p_alpha <= d1;
    const bool two_inc = s.inc_on && s.dl_i + c.p_inc <= d1;
    if (alpha_short || two_inc) {
      L = d1;  // stop before d1; the decrease comes in a later pass
      if (cv) cv->dec_deferred = true;
    } else {
      dec = true;
    }
  }
  // alpha updates: a chain of at most alpha_steps periods, tapped at the decrease time
  typename Ar::Alpha a = s.alpha, a_d1 = s.alpha;
  unsigned k = 0;
  for (unsigned j = 0; j < b.alpha_steps; ++j) {
    const uint64_t t = s.dl_a + j * c.p_alpha;
    if (t >= L) break;
    a = Ar::alpha_step(a, c.g_shift, c.nic && j == 0 && s.cnp_a);
    ++k;
    if (dec && t <= d1) a_d1 = a;
  }
  s.alpha = a;
  if (k) s.cnp_a = false;
  s.dl_a += k * c.p_alpha;
  if (dec) {
    if (s.inc_on && s.dl_i <= d1) increase(s, c, false, s.dl_i, tr, cv);
    const bool clamp = c.clamp_tgt || (c.clamp_ati && s.t != 0);
    if (cv && c.clamp_ati && !c.clamp_tgt && s.t == 0 && s.rt != s.rc) cv->ati_stage0 = true;
    decrease(s, c, a_d1, clamp, d1, tr, cv);
    s.cnp_d = false;
    s.inc_on = true;
    s.dl_i = d1 + c.p_inc;
    if (s.dl_i < L) {
      increase(s, c, false, s.dl_i, tr, cv);
      s.dl_i += c.p_inc;
    }
  } else if (s.inc_on && s.dl_i < L) {
    increase(s, c, false, s.dl_i, tr, cv);
    s.dl_i += c.p_inc;
  }
  // the decrease-check deadline runs in both variants (the paper's never decreases on it),
  // so a COMMIT from the paper variant to the NIC's finds it current: frozen, it would be
  // as far behind as the paper variant ran, DecSteps periods caught up per pass
  unsigned kd = 0;
  for (unsigned j = 0; j < b.dec_steps; ++j)
    if (s.dl_d + j * c.p_dec < L) ++kd;
  s.dl_d += kd * c.p_dec;
  return s.dl_a < L0 || (s.inc_on && s.dl_i < L0) || s.dl_d < L0;
}

// The event operation of a pass (after catch_up). t = event time.
template <class Ar>
void event_op(Qp<Ar>& s, const Live& c, Ev ev, uint64_t t, uint32_t bytes, Trace* tr, PassCov* cv = nullptr) {
  if (ev == Ev::Cnp) {
    s.c_cnp = sat_inc(s.c_cnp, kQcntMax);
    if (cv && !s.active) cv->first_cnp = true;
    if (c.nic) {
      if (!s.active) {  // first-CNP rule
        s.active = true;
        s.alpha = Ar::alpha(c.alpha_init);
        s.cnp_a = false;
        s.cnp_d = true;
        s.dl_a = t + c.p_alpha;
        s.dl_d = t + c.p_dec;
        if (c.first_rate) s.rc = s.rt = Ar::rate(c.first_rate);
      } else {
        s.cnp_a = true;
        s.cnp_d = true;
      }
    } else {
      if (!s.active) {
        s.active = true;
        s.alpha = Ar::alpha(c.alpha_init);
        s.dl_d = t + c.p_dec;  // the decrease-check period starts, as in the NIC variant
      }
      decrease(s, c, s.alpha, true, t, tr, cv);
      s.alpha = Ar::alpha_step(s.alpha, c.g_shift, true);
      s.dl_a = t + c.p_alpha;
      s.dl_i = t + c.p_inc;
      s.inc_on = true;
    }
  } else if (ev == Ev::Sent) {
    if (s.inc_on && c.byte_reset) {
      const uint64_t sum = static_cast<uint64_t>(s.bytes) + bytes;
      s.bytes = static_cast<uint32_t>(std::min<uint64_t>(sum, 0xFFFFFFFFull));
      if (s.bytes >= c.byte_reset) {
        s.bytes -= c.byte_reset;
        increase(s, c, true, t, tr, cv);
      }
    }
  }
}

// limit of the catch-up of an event at time t: a CNP (and a scan or snapshot) applies
// the timers strictly before t; bytes sent apply the timers at t too (byte counter last).
inline uint64_t pass_limit(Ev ev, uint64_t t) { return ev == Ev::Sent ? t + 1 : t; }

// One hardware pass. Returns true if the catch-up was late: then the event operation is
// NOT applied (the pass only wrote back its partial catch-up) and the hardware replays the
// same event (same kind, QP, captured time t and bytes) until a pass is not late. A
// replayed event therefore equals exact() below; a late scan simply leaves the rest to
// the QP's next pass, which changes nothing (catch-up is applied in time order either way).
template <class Ar>
bool pass(Qp<Ar>& s, const Live& c, const Bounds& b, Ev ev, uint64_t t, uint32_t bytes, Trace* tr,
          PassCov* cv = nullptr) {
  if (cv && s.active && (ev == Ev::Cnp || ev == Ev::Sent) &&
      (s.dl_a == t || (s.inc_on && s.dl_i == t) || (c.nic && s.dl_d == t)))
    cv->same_time = true;  // an event exactly at a timer's deadline
  const bool late = catch_up(s, c, pass_limit(ev, t), b, tr, cv);
  if (!late) event_op(s, c, ev, t, bytes, tr, cv);
  return late;
}

// Would a pass of this event on s be late? (catch_up on a copy; the hardware's first pass
// stage, P1 in S2, decides the replay from the same deadline arithmetic.)
template <class Ar>
bool pass_late(const Qp<Ar>& s, const Live& c, const Bounds& b, Ev ev, uint64_t t) {
  Qp<Ar> x = s;
  return catch_up(x, c, pass_limit(ev, t), b, nullptr);
}

// Event-exact: every due timer is applied before the event, however many there are.
// (= repeating pass() with the same event until it is not late: the hardware's replay)
template <class Ar>
void exact(Qp<Ar>& s, const Live& c, const Bounds& b, Ev ev, uint64_t t, uint32_t bytes, Trace* tr) {
  while (catch_up(s, c, pass_limit(ev, t), b, tr)) {
  }
  event_op(s, c, ev, t, bytes, tr);
}

// Transaction-level RP for many QPs in either arithmetic (the double mode is RpDouble).
template <class Ar>
class Rp {
 public:
  Rp(size_t queues, const Live& c, Bounds b = {}) : c_(c), b_(b), q_(queues, qp_reset<Ar>(c)) {}
  void on_cnp(size_t qp, uint64_t t) { exact(q_.at(qp), c_, b_, Ev::Cnp, t, 0, trace_); }
  void on_sent(size_t qp, uint32_t bytes, uint64_t t) { exact(q_.at(qp), c_, b_, Ev::Sent, t, bytes, trace_); }
  // Apply every timer up to and including t (no event: a query does not change the outcome).
  void advance(size_t qp, uint64_t t) {
    while (catch_up(q_.at(qp), c_, t + 1, b_, trace_)) {
    }
  }
  double rate(size_t qp) const { return Ar::to_double(q_.at(qp).rc); }
  double target(size_t qp) const { return Ar::to_double(q_.at(qp).rt); }
  double alpha(size_t qp) const { return Ar::alpha_double(q_.at(qp).alpha); }
  const Qp<Ar>& qp(size_t i) const { return q_.at(i); }
  Qp<Ar>& qp(size_t i) { return q_.at(i); }
  void set_trace(Trace* t) { trace_ = t; }
  const Live& live() const { return c_; }

 private:
  Live c_;
  Bounds b_;
  std::vector<Qp<Ar>> q_;
  Trace* trace_ = nullptr;
};
using RpFixed = Rp<Fixed>;
using RpDouble = Rp<Double>;

}  // namespace ll::dcqcn
