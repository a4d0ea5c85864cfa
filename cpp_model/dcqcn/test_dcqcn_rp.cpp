// The reaction-point algorithm (rp_core.h) against docs/dcqcn.md ("Reaction point") and the
// DCQCN paper, section 3.3.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "dcqcn/rp_core.h"

namespace ll::dcqcn {
namespace {

constexpr uint64_t kG = 1000000000ull;  // 1 Gb/s
constexpr uint64_t kM = 1000000ull;

// 1 tick = 1 ns in these tests.
Live paper() {
  Live c;
  c.nic = false;
  c.hai_grow = true;
  c.g_shift = 8;
  c.p_alpha = 55000;
  c.p_inc = 55000;
  c.byte_reset = 10 * 1000 * 1000;
  c.F = 5;
  c.rai = 40 * kM;
  c.rhai = 400 * kM;
  c.rmin = 10 * kM;
  c.line = 40 * kG;
  c.alpha_init = kAlphaOne;
  return c;
}

Live nic() {
  Live c;  // the public-simulator reference configuration at 100G
  c.nic = true;
  c.g_shift = 8;
  c.p_alpha = 1000;
  c.p_dec = 4000;
  c.p_inc = 300000;
  c.byte_reset = 0;
  c.F = 1;
  c.rai = 20 * kM;
  c.rhai = 200 * kM;
  c.rmin = 1 * kG;
  c.line = 100 * kG;
  c.clamp_tgt = false;
  c.clamp_ati = true;
  return c;
}

TEST(DcqcnRpPaper, FirstCnpHalvesRateFromLineAndTargetsOldRate) {
  RpFixed rp(4, paper());
  rp.on_cnp(1, 1000);
  EXPECT_EQ(rp.qp(1).rc, 20 * kG);  // alpha = 1: Rc * (1 - 1/2)
  EXPECT_EQ(rp.qp(1).rt, 40 * kG);
  EXPECT_EQ(rp.qp(1).alpha, kAlphaOne);  // (1-g)*1 + g = 1 exactly
  EXPECT_EQ(rp.qp(1).c_dec, 1u);
  EXPECT_EQ(rp.qp(0).rc, 40 * kG);  // other QPs untouched
}

TEST(DcqcnRpPaper, AlphaDecaysOncePerQuietPeriod) {
  RpFixed rp(2, paper());
  RpDouble rd(2, paper());
  rp.on_cnp(0, 0);
  rd.on_cnp(0, 0);
  // just before the 10th period: 9 decays; at it: 10 decays
  rp.advance(0, 10 * 55000 - 1);
  rd.advance(0, 10 * 55000 - 1);
  EXPECT_NEAR(rd.alpha(0), std::pow(1 - 1.0 / 256, 9), 1e-15);
  EXPECT_NEAR(rp.alpha(0), rd.alpha(0), 1e-12);
  rp.advance(0, 10 * 55000);
  EXPECT_NEAR(rp.alpha(0), std::pow(1 - 1.0 / 256, 10), 1e-12);
  // the fixed value is exactly ten truncating steps
  uint64_t a = kAlphaOne;
  for (int i = 0; i < 10; ++i) a = a - (a >> 8);
  EXPECT_EQ(rp.qp(0).alpha, a);
  // the next CNP cuts with the decayed alpha and folds g in
  const uint64_t rc = rp.qp(0).rc;
  rp.on_cnp(0, 10 * 55000 + 5);
  EXPECT_EQ(rp.qp(0).rc, std::max<uint64_t>(10 * kM, Fixed::cut(rc, a, 0)));
  EXPECT_EQ(rp.qp(0).alpha, a - (a >> 8) + (kAlphaOne >> 8));
}

TEST(DcqcnRpPaper, FastRecoveryThenAdditiveThenHyperWithStageCounting) {
  Live c = paper();
  c.byte_reset = 0;  // timer only: BC follows T
  RpFixed rp(1, c);
  Trace tr;
  rp.set_trace(&tr);
  rp.on_cnp(0, 0);
  rp.on_cnp(0, 1);  // Rt = 20G, Rc = 10G: room below the line rate
  uint64_t rc = rp.qp(0).rc, rt = rp.qp(0).rt;
  ASSERT_EQ(rc, 10 * kG);
  ASSERT_EQ(rt, 20 * kG);
  tr.clear();
  rp.advance(0, 12 * 55000 + 1);
  ASSERT_EQ(tr.size(), 12u);
  for (unsigned k = 0; k < 12; ++k) {
    const unsigned T = k;  // stage before this expiry
    Step want = T < 5 ? Step::FR : (T == 5 ? Step::AI : Step::HAI);
    EXPECT_EQ(tr[k].step, want) << "event " << k;
    EXPECT_EQ(tr[k].time, (k + 1) * 55000ull + 1);
    if (want == Step::AI) rt = std::min(rt + 40 * kM, 40 * kG);
    if (want == Step::HAI) rt = std::min(rt + (T - 5) * 400 * kM, 40 * kG);
    rc = std::max(10 * kM, (rc >> 1) + (rt >> 1));
    EXPECT_EQ(static_cast<uint64_t>(tr[k].rc), rc);
    EXPECT_EQ(static_cast<uint64_t>(tr[k].rt), rt);
  }
  EXPECT_EQ(rp.qp(0).t, 12u);
  EXPECT_EQ(rp.qp(0).c_fr, 5u);
  EXPECT_EQ(rp.qp(0).c_ai, 1u);
  EXPECT_EQ(rp.qp(0).c_hai, 6u);
}

TEST(DcqcnRpPaper, ByteCounterCountsItsOwnStageAndMaxMinRule) {
  Live c = paper();
  c.byte_reset = 1000;
  c.p_inc = 1000000000;  // timer out of the way
  RpFixed rp(1, c);
  Trace tr;
  rp.set_trace(&tr);
  rp.on_cnp(0, 0);
  tr.clear();
  for (int i = 0; i < 8; ++i) rp.on_sent(0, 1000, 10 + i);
  ASSERT_EQ(tr.size(), 8u);
  // T stays 0, so max(T,BC) < F for BC < 5 and then min(T,BC) = 0 <= F: additive
  for (int i = 0; i < 8; ++i) EXPECT_EQ(tr[i].step, i < 5 ? Step::FR : Step::AI) << i;
  EXPECT_EQ(rp.qp(0).bc, 8u);
  EXPECT_EQ(rp.qp(0).bytes, 0u);
  rp.on_sent(0, 999, 20);
  EXPECT_EQ(tr.size(), 8u);
  EXPECT_EQ(rp.qp(0).bytes, 999u);
}

TEST(DcqcnRpPaper, CnpAtTheIncreaseDeadlineCancelsIt) {
  RpFixed rp(1, paper());
  Trace tr;
  rp.set_trace(&tr);
  rp.on_cnp(0, 0);
  rp.on_cnp(0, 55000);  // same time as the first increase and alpha expiry: CNP first
  ASSERT_EQ(tr.size(), 2u);
  EXPECT_EQ(tr[1].step, Step::Dec);
  EXPECT_EQ(rp.qp(0).dl_i, 110000u);
  EXPECT_EQ(rp.qp(0).c_fr, 0u);
  // alpha: the expiry at 55000 was cancelled too: 1 -> 1 -> 1
  EXPECT_EQ(rp.qp(0).alpha, kAlphaOne);
}

TEST(DcqcnRpPaper, TimerBeforeByteCounterAtTheSameTime) {
  Live c = paper();
  c.byte_reset = 1000;
  RpFixed rp(1, c);
  Trace tr;
  rp.set_trace(&tr);
  rp.on_cnp(0, 0);
  tr.clear();
  rp.on_sent(0, 1000, 55000);  // timer expiry (T 0->1) at the same time, then the byte event
  ASSERT_EQ(tr.size(), 2u);
  EXPECT_EQ(tr[0].time, 55000u);
  EXPECT_EQ(rp.qp(0).t, 1u);
  EXPECT_EQ(rp.qp(0).bc, 1u);
}

TEST(DcqcnRpPaper, MinRateFloor) {
  RpFixed rp(1, paper());
  for (int i = 0; i < 40; ++i) rp.on_cnp(0, i * 10);
  EXPECT_EQ(rp.qp(0).rc, 10 * kM);
  RpDouble rd(1, paper());
  for (int i = 0; i < 40; ++i) rd.on_cnp(0, i * 10);
  EXPECT_EQ(rd.rate(0), 10.0 * kM);
}

TEST(DcqcnRpPaper, LineRateCapOnTargetAndRate) {
  RpFixed rp(1, paper());
  rp.on_cnp(0, 0);
  rp.advance(0, 400 * 55000ull);
  EXPECT_EQ(rp.qp(0).rt, 40 * kG);
  EXPECT_LE(rp.qp(0).rc, 40 * kG);
  EXPECT_GE(rp.qp(0).rc, 40 * kG - 2);  // floor(Rc/2)+floor(Rt/2) converges to the line rate
}

TEST(DcqcnRpNic, FirstCnpLeavesRateSetsAlphaAndStartsTimers) {
  Live c = nic();
  c.alpha_init = kAlphaOne / 2;
  RpFixed rp(1, c);
  rp.on_cnp(0, 500);
  EXPECT_EQ(rp.qp(0).rc, 100 * kG);
  EXPECT_EQ(rp.qp(0).alpha, kAlphaOne / 2);
  EXPECT_TRUE(rp.qp(0).active);
  EXPECT_FALSE(rp.qp(0).inc_on);
  EXPECT_EQ(rp.qp(0).dl_a, 1500u);
  EXPECT_EQ(rp.qp(0).dl_d, 4500u);
  // the decrease comes at the first check, with alpha after 4 quiet updates
  rp.advance(0, 4499);
  EXPECT_EQ(rp.qp(0).rc, 100 * kG);
  rp.advance(0, 4500);
  uint64_t a = kAlphaOne / 2;
  for (int i = 0; i < 4; ++i) a = a - (a >> 8);
  EXPECT_EQ(rp.qp(0).alpha, a);
  EXPECT_EQ(rp.qp(0).rc, Fixed::cut(100 * kG, a, 0));
  EXPECT_EQ(rp.qp(0).rt, 100 * kG);  // T = 0 and clamp_ati: no clamp
  EXPECT_TRUE(rp.qp(0).inc_on);
  EXPECT_EQ(rp.qp(0).dl_i, 4500u + 300000u);
}

TEST(DcqcnRpNic, RateToSetOnFirstCnp) {
  Live c = nic();
  c.first_rate = 25 * kG;
  RpFixed rp(1, c);
  rp.on_cnp(0, 0);
  EXPECT_EQ(rp.qp(0).rc, 25 * kG);
  EXPECT_EQ(rp.qp(0).rt, 25 * kG);
}

TEST(DcqcnRpNic, AtMostOneDecreasePerPeriodIsRpSideCoalescing) {
  RpFixed rp(1, nic());
  rp.on_cnp(0, 0);
  for (int i = 1; i < 40; ++i) rp.on_cnp(0, i * 100);  // 40 CNPs within one 4 us period
  rp.advance(0, 4000);
  EXPECT_EQ(rp.qp(0).c_dec, 1u);
  EXPECT_EQ(rp.qp(0).c_cnp, 40u);
  for (int i = 0; i < 40; ++i) rp.on_cnp(0, 4001 + i * 200);  // spans two periods
  rp.advance(0, 12000);
  EXPECT_EQ(rp.qp(0).c_dec, 3u);
}

TEST(DcqcnRpNic, AlphaUpdateFoldsTheCnpAndSameTimeOrder) {
  RpFixed rp(1, nic());
  rp.on_cnp(0, 0);       // first CNP: alpha = 1, flag cleared
  rp.on_cnp(0, 1000);    // same time as the first alpha update: CNP first, update sees it
  rp.advance(0, 1000);
  // update at 1000 folds the CNP: (1-g)*1 + g = 1
  EXPECT_EQ(rp.qp(0).alpha, kAlphaOne);
  rp.advance(0, 2000);   // quiet: (1-g)
  EXPECT_EQ(rp.qp(0).alpha, kAlphaOne - (kAlphaOne >> 8));
}

TEST(DcqcnRpNic, ClampRules) {
  for (int mode = 0; mode < 3; ++mode) {
    Live c = nic();
    c.clamp_tgt = mode == 0;
    c.clamp_ati = mode == 1;
    c.p_inc = 5000;
    RpFixed rp(1, c);
    rp.on_cnp(0, 0);
    rp.advance(0, 4000);  // first decrease, T = 0
    const uint64_t rc1 = rp.qp(0).rc;
    EXPECT_EQ(rp.qp(0).rt, mode == 0 ? 100 * kG : 100 * kG) << mode;  // clamp_tgt: Rt = Rc before the cut = line
    // second decrease with T = 0 (no timer increase since the first)
    rp.on_cnp(0, 4100);
    rp.advance(0, 8000);
    EXPECT_EQ(rp.qp(0).rt, mode == 0 ? rc1 : 100 * kG) << mode;
    // a timer increase at 13000 (T=1), then a decrease at 16000
    rp.on_cnp(0, 13500);
    const uint64_t rc_before = (rp.advance(0, 15999), rp.qp(0).rc);
    EXPECT_EQ(rp.qp(0).t, 1u);
    rp.advance(0, 16000);
    EXPECT_EQ(rp.qp(0).rt, mode == 2 ? 100 * kG : rc_before) << mode;
  }
}

TEST(DcqcnRpNic, MinDecreaseFactor) {
  Live c = nic();
  c.min_dec_fac = kAlphaOne / 10 * 9;  // at most a 10 % cut
  RpFixed rp(1, c);
  rp.on_cnp(0, 0);
  rp.advance(0, 4000);
  EXPECT_EQ(rp.qp(0).rc, Fixed::cut(100 * kG, kAlphaOne, c.min_dec_fac));  // 1 - alpha/2 < 0.9
  EXPECT_NEAR(static_cast<double>(rp.qp(0).rc), 90e9, 1.0);
}

TEST(DcqcnRpNic, MinRateAndIncreaseProgression) {
  Live c = nic();
  c.clamp_tgt = true;  // Rt follows Rc down, so the increases are visible
  RpFixed rp(1, c);
  Trace tr;
  rp.set_trace(&tr);
  for (int i = 0; i < 200; ++i) rp.on_cnp(0, i * 4000);
  const uint64_t t0 = 200 * 4000;
  rp.advance(0, t0);
  EXPECT_EQ(rp.qp(0).rc, 1 * kG);
  EXPECT_EQ(rp.qp(0).rt, 1 * kG);
  tr.clear();
  rp.advance(0, t0 + 5 * 300000);
  // F = 1: FR once, AI once, then HAI (constant step)
  ASSERT_GE(tr.size(), 5u);
  EXPECT_EQ(tr[0].step, Step::FR);
  EXPECT_EQ(tr[1].step, Step::AI);
  EXPECT_EQ(tr[2].step, Step::HAI);
  EXPECT_EQ(tr[3].step, Step::HAI);
  EXPECT_EQ(static_cast<uint64_t>(tr[3].rt) - static_cast<uint64_t>(tr[2].rt), 200 * kM);
}

// Lazy catch-up: a pass per event plus periodic scans gives exactly the event-exact
// result. With generous bounds nothing is late (the scans keep every QP within the pass
// bounds); with tight bounds (1 or 2 alpha steps, 1 decrease step, 1-tick alpha periods)
// most event passes are late and are replayed - a late pass applies its partial
// catch-up only, the same event (same time t) is passed again until it is not late, the
// hardware's replay - and the result is still event-exact.
TEST(DcqcnRpLazy, PassesWithScansEqualEventExact) {
  struct Case {
    Bounds b;
    uint64_t p_alpha, p_dec, p_inc;
    unsigned dt;  // mean event spacing x 2 (ticks)
    bool expect_late;
  };
  const Case cases[] = {{{8, 4}, 0, 0, 20000, 50, false},  // 0: keep the variant's periods
                        {{2, 1}, 1, 3, 40, 50, true},
                        {{1, 1}, 1, 1, 7, 100, true}};
  for (const Case& k : cases) {
    for (int variant = 0; variant < 2; ++variant) {
      Live c = variant ? nic() : paper();
      if (!variant) c.byte_reset = 3000;
      c.p_inc = k.p_inc;
      if (k.p_alpha) c.p_alpha = k.p_alpha;
      if (k.p_dec) c.p_dec = k.p_dec;
      const Bounds b = k.b;
      const unsigned Q = 16;
      std::vector<Qp<Fixed>> lazy(Q, qp_reset<Fixed>(c));
      RpFixed ex(Q, c, b);
      std::mt19937_64 rng(7 + variant);
      uint64_t t = 0;
      unsigned scan = 0, lates = 0, late_scans = 0;
      auto replayed = [&](unsigned q, Ev ev, uint32_t by) {  // the hardware's replay
        while (pass(lazy[q], c, b, ev, t, by, nullptr)) ++lates;
      };
      for (int n = 0; n < (k.expect_late ? 60000 : 200000); ++n) {
        t += rng() % k.dt;
        const unsigned q = rng() % Q;
        const int what = rng() % 100;
        if (what < 3) {
          replayed(q, Ev::Cnp, 0);
          ex.on_cnp(q, t);
        } else if (what < 40) {
          const uint32_t by = 64 + rng() % 1500;
          replayed(q, Ev::Sent, by);
          ex.on_sent(q, by, t);
        } else {
          late_scans += pass(lazy[scan], c, b, Ev::Scan, t, 0, nullptr);  // a late scan is not replayed
          scan = (scan + 1) % Q;
        }
      }
      if (k.expect_late) {
        EXPECT_GT(lates, 10000u) << "variant " << variant;
        EXPECT_GT(late_scans, 1000u);
      } else {
        EXPECT_EQ(lates + late_scans, 0u);
      }
      for (unsigned q = 0; q < Q; ++q) {
        while (catch_up(lazy[q], c, t + 1, b, nullptr)) {
        }
        ex.advance(q, t);
        const auto& a = lazy[q];
        const auto& e = ex.qp(q);
        EXPECT_EQ(a.rc, e.rc) << q;
        EXPECT_EQ(a.rt, e.rt) << q;
        EXPECT_EQ(a.alpha, e.alpha) << q;
        EXPECT_EQ(a.t, e.t) << q;
        EXPECT_EQ(a.bc, e.bc) << q;
        EXPECT_EQ(a.bytes, e.bytes) << q;
        EXPECT_EQ(a.c_cnp, e.c_cnp) << q;
        EXPECT_EQ(a.c_dec, e.c_dec) << q;
        EXPECT_EQ(a.c_fr, e.c_fr) << q;
        EXPECT_EQ(a.c_ai, e.c_ai) << q;
        EXPECT_EQ(a.c_hai, e.c_hai) << q;
        EXPECT_EQ(a.dl_a, e.dl_a) << q;
        EXPECT_EQ(a.dl_i, e.dl_i) << q;
        EXPECT_EQ(a.dl_d, e.dl_d) << q;
      }
    }
  }
}

// When the scans are too slow, a pass is late: a late scan leaves the rest for the QP's
// next pass, a late event pass applies the catch-up only and not the event (the RTL then
// replays it); repeating the pass equals the exact path.
TEST(DcqcnRpLazy, TooFewScansAreReportedLate) {
  Live c = nic();
  Qp<Fixed> s = qp_reset<Fixed>(c);
  Bounds b{8, 4};
  pass(s, c, b, Ev::Cnp, 0, 0, nullptr);
  EXPECT_TRUE(pass_late(s, c, b, Ev::Scan, 20000));
  EXPECT_TRUE(pass(s, c, b, Ev::Scan, 20000, 0, nullptr));  // 20 alpha periods > 8
  exact(s, c, b, Ev::Scan, 20000, 0, nullptr);
  EXPECT_FALSE(catch_up(s, c, 20000, b, nullptr));
  // a late CNP pass: the catch-up is partial and the CNP is not applied yet
  Qp<Fixed> r = qp_reset<Fixed>(c), x = r;
  pass(r, c, b, Ev::Cnp, 0, 0, nullptr);
  exact(x, c, b, Ev::Cnp, 0, 0, nullptr);
  EXPECT_TRUE(pass(r, c, b, Ev::Cnp, 50000, 0, nullptr));
  EXPECT_EQ(r.c_cnp, 1u);
  EXPECT_FALSE(r.cnp_d);  // the decrease check consumed the first CNP's flag
  EXPECT_LT(r.dl_a, 50000u);
  unsigned replays = 1;
  while (pass(r, c, b, Ev::Cnp, 50000, 0, nullptr)) ++replays;
  EXPECT_EQ(r.c_cnp, 2u);
  EXPECT_GT(replays, 5u);
  exact(x, c, b, Ev::Cnp, 50000, 0, nullptr);
  EXPECT_EQ(r.alpha, x.alpha);
  EXPECT_EQ(r.rc, x.rc);
  EXPECT_EQ(r.dl_a, x.dl_a);
  EXPECT_EQ(r.dl_d, x.dl_d);
  EXPECT_EQ(r.cnp_a, x.cnp_a);
}

// A COMMIT from the paper variant to the NIC's under traffic. The decrease-check deadline
// starts at the QP's first CNP and runs on in the paper variant (which never decreases on
// it), so the NIC variant's first CNP after the switch is caught up in one pass. Frozen at
// its reset value 0, as it was, the deadline would be 2^32 ticks behind here: 2^32 / (4
// boundaries a pass x 4,000 ticks) = 268,435 late passes, each a replay of five cycles
// that holds every input of the block.
TEST(DcqcnRpLazy, PaperToNicSwitchFindsTheDecreaseCheckCurrent) {
  const Live p = paper(), n = nic();
  const Bounds b{8, 4};
  Qp<Fixed> s = qp_reset<Fixed>(p);
  const uint64_t t0 = 1ull << 32;
  EXPECT_FALSE(pass(s, p, b, Ev::Cnp, t0, 0, nullptr));  // activated in the paper variant
  EXPECT_EQ(s.dl_d, t0 + p.p_dec);
  for (uint64_t t = t0 + 1000; t <= t0 + 1000000; t += 1000)  // scans keep it current
    EXPECT_FALSE(pass(s, p, b, Ev::Scan, t, 0, nullptr)) << t;
  EXPECT_GE(s.dl_d, t0 + 1000000);
  unsigned passes = 1;
  while (pass(s, n, b, Ev::Cnp, t0 + 1000500, 0, nullptr) && passes < 1000) ++passes;
  EXPECT_EQ(passes, 1u);
  EXPECT_TRUE(s.cnp_d);  // the NIC variant's CNP is applied: a decrease at the next check
  EXPECT_EQ(s.dl_d, t0 + 1004000);
}

// Fixed vs double: same event sequence and every rate within 1e-6 relative over long
// random CNP sequences, both variants, several seeds.
TEST(DcqcnRpFixedVsDouble, SameEventsAndRatesWithinBound) {
  double worst = 0;
  size_t events = 0;
  for (int variant = 0; variant < 2; ++variant) {
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      Live c = variant ? nic() : paper();
      if (seed % 2) c.byte_reset = variant ? 64000 : 200000;
      c.hai_grow = seed % 3 == 0;
      c.g_shift = 4 + seed % 7;
      c.min_dec_fac = seed == 5 ? kAlphaOne / 4 * 3 : 0;
      c.clamp_tgt = seed == 4;
      Trace tf, td;
      RpFixed f(1, c);
      RpDouble d(1, c);
      f.set_trace(&tf);
      d.set_trace(&td);
      std::mt19937_64 rng(seed * 31 + variant);
      uint64_t t = 0;
      for (int n = 0; n < 3000; ++n) {
        // bursts of CNPs and quiet spells of up to ~3 ms
        t += (rng() % 4 == 0) ? rng() % 3000000 : rng() % 20000;
        if (rng() % 3) {
          f.on_cnp(0, t);
          d.on_cnp(0, t);
        } else {
          const uint32_t by = 1000 + rng() % 4000;
          f.on_sent(0, by, t);
          d.on_sent(0, by, t);
        }
        ASSERT_EQ(tf.size(), td.size()) << "variant " << variant << " seed " << seed << " n " << n;
      }
      for (size_t i = 0; i < tf.size(); ++i) {
        ASSERT_EQ(tf[i].step, td[i].step) << i;
        ASSERT_EQ(tf[i].time, td[i].time) << i;
        const double e1 = std::fabs(tf[i].rc - td[i].rc) / td[i].rc;
        const double e2 = std::fabs(tf[i].rt - td[i].rt) / td[i].rt;
        worst = std::max({worst, e1, e2});
        ASSERT_LE(e1, kRelErrorBound) << "variant " << variant << " seed " << seed << " event " << i;
        ASSERT_LE(e2, kRelErrorBound) << i;
      }
      EXPECT_NEAR(f.alpha(0), d.alpha(0), 2e-9);
      events += tf.size();
    }
  }
  EXPECT_GT(events, 20000u);
  RecordProperty("worst_relative_error", std::to_string(worst));
  std::printf("fixed vs double: %zu rate events, worst relative error %.3e\n", events, worst);
}

}  // namespace
}  // namespace ll::dcqcn
