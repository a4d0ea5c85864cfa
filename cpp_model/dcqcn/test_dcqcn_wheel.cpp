// The timing-wheel rate limiter (cycle model of rtl/dcqcn/dcqcn_wheel.sv): achieved rate
// per QP against the programmed rate, aggregate never above the line rate, beyond-horizon
// re-insertion never early, fairness among QPs due together.
#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <algorithm>
#include <deque>
#include <random>

#include "dcqcn/dcqcn.h"

namespace ll::dcqcn {
namespace {

// WheelCyc::In by position, for the tests' compact stimulus tables.
WheelCyc::In win(bool rst_n, uint64_t now, bool rate_we, uint32_t rate_qp, uint64_t rate, bool enq_valid,
                 uint32_t enq_qp, uint32_t enq_bytes, bool grant_ready) {
  WheelCyc::In in;
  in.rst_n = rst_n;
  in.now = now;
  in.rate_we = rate_we;
  in.rate_qp = rate_qp;
  in.rate = rate;
  in.enq_valid = enq_valid;
  in.enq_qp = enq_qp;
  in.enq_bytes = enq_bytes;
  in.grant_ready = grant_ready;
  return in;
}

struct Grant {
  uint64_t load;  // tick at which grant_valid rose
  uint32_t qp, bytes;
  int64_t err_q16;  // release time - departure time (Q.16 ticks): the timestamp error
};

struct WheelRun {
  Config cfg;
  std::vector<Grant> grants;
  std::vector<std::vector<uint64_t>> deps;  // per QP: departure times the shadow computes
  uint64_t reinserts = 0;
  uint64_t checked = 0;           // marked slots' tokens granted after the check (phase D)
  uint64_t unmarked_not_due = 0;  // unmarked slots' tokens not due when popped: never
  uint64_t max_early_q16 = 0;               // release before the departure time (Q.16 ticks)
};

// Every QP in `rates` stays backlogged: when its grant is accepted, its next packet is
// queued for enqueue at once. One tick per cycle; grant_ready stalls `stall_pct` %.
WheelRun run(const Config& cfg, const std::vector<uint64_t>& rates, unsigned packets,
             unsigned stall_pct, uint64_t seed, bool random_sizes = true) {
  WheelRun r;
  r.cfg = cfg;
  WheelCyc w(cfg);
  std::mt19937_64 rng(seed);
  w.clock(win(false, 0, false, 0, 0, false, 0, 0, false));
  uint64_t now = 0;
  while (!w.done()) w.clock(win(true, now++, false, 0, 0, false, 0, 0, false));
  for (uint32_t q = 0; q < rates.size(); ++q) w.clock(win(true, now++, true, q, rates[q], false, 0, 0, false));
  std::deque<std::pair<uint32_t, uint32_t>> pend;
  std::vector<unsigned> left(rates.size(), packets);
  // MTU-class packets: a QP's next token is computed when its previous one is granted,
  // so a QP needs packets longer than the enqueue loop (64 / DivBits + 7 cycles).
  auto size = [&](uint32_t q) { return random_sizes ? 1000 + static_cast<uint32_t>(rng() % 501) : 1000 + q; };
  for (uint32_t q = 0; q < rates.size(); ++q) pend.push_back({q, size(q)});
  r.deps.resize(rates.size());
  // shadow of the Carousel formula for "never early" (the wheel computes it at insertion)
  std::vector<uint64_t> enq_bytes(rates.size());
  bool prev_valid = false;
  uint64_t guard = 0;
  size_t outstanding = rates.size();
  while (outstanding && ++guard < 200000000ull) {
    const bool enq_v = !pend.empty();
    const uint32_t eq = enq_v ? pend.front().first : 0, eb = enq_v ? pend.front().second : 0;
    const bool enq_acc = enq_v && w.enq_ready();
    const bool gr = rng() % 100 >= stall_pct;
    const bool gv = w.grant_valid();
    if (gv && !prev_valid)
      r.grants.push_back({now, w.grant_qp(), w.grant_bytes(),
                          static_cast<int64_t>(now << kTimeFrac) - static_cast<int64_t>(w.grant_departure())});
    const bool g_acc = gv && gr;
    const uint32_t gq = w.grant_qp();
    const auto p = w.clock(win(true, now, false, 0, 0, enq_v, eq, eb, gr));
    r.reinserts += p.reinsert;
    r.checked += p.pop_checked_parked || p.pop_checked_unparked;
    r.unmarked_not_due += p.unmarked_not_due;
    if (enq_acc) pend.pop_front();
    prev_valid = gv && !g_acc;
    if (g_acc) {
      if (--left[gq]) pend.push_back({gq, size(gq)});
      else --outstanding;
    }
    ++now;
  }
  EXPECT_EQ(outstanding, 0u) << "wheel stalled";
  EXPECT_EQ(r.unmarked_not_due, 0u) << "a token of a slot with no parked token popped before its slot";
  return r;
}

double achieved(const WheelRun& r, uint32_t q, unsigned skip) {
  uint64_t t0 = 0, t1 = 0, bytes = 0;
  unsigned n = 0;
  for (const auto& g : r.grants) {
    if (g.qp != q) continue;
    if (n == skip) t0 = g.load;
    else if (n > skip) bytes += 0;
    ++n;
  }
  // rate over packets skip .. last: the bytes of packets skip .. last-1 over the time span
  n = 0;
  uint32_t last_bytes = 0;
  for (const auto& g : r.grants) {
    if (g.qp != q) continue;
    if (n >= skip) {
      bytes += g.bytes;
      t1 = g.load;
      last_bytes = g.bytes;
    }
    ++n;
  }
  bytes -= last_bytes;
  const double secs = static_cast<double>(t1 - t0) * static_cast<double>(r.cfg.TickPs) * 1e-12;
  return static_cast<double>(bytes) * 8.0 / secs;
}

TEST(DcqcnWheel, ManyQpsAchieveProgrammedRatesWithin1Percent) {
  Config cfg;
  cfg.Queues = 16;
  cfg.Slots = 64;
  cfg.SlotLog2 = 6;  // 64 ns slots at 1 ns ticks, 4.1 us horizon
  // rates across [Rmin = 1G, 25G], 95G in total
  const std::vector<uint64_t> g = {1, 2, 3, 5, 7, 10, 12, 15, 20, 20};
  std::vector<uint64_t> rates;
  for (auto x : g) rates.push_back(x * 1000000000ull);
  const auto r = run(cfg, rates, 1000, 20, 11);
  for (uint32_t q = 0; q < rates.size(); ++q) {
    const double a = achieved(r, q, 1);
    EXPECT_NEAR(a / rates[q], 1.0, 0.01) << "qp " << q << " programmed " << rates[q] << " achieved " << a;
  }
  EXPECT_GT(r.reinserts, 0u);  // 1 Gb/s with 1.5 KB packets is beyond the 4 us horizon
  EXPECT_GT(r.checked, 0u);    // parked tokens come back through the marked slots' check
  // timestamp error distribution: never before the departure's slot, i.e. at most one
  // slot (64 ticks) early; report the quantiles
  std::vector<double> e;
  for (const auto& x : r.grants) e.push_back(std::ldexp(static_cast<double>(x.err_q16), -16));
  std::sort(e.begin(), e.end());
  const auto qt = [&](double f) { return e[static_cast<size_t>(f * (e.size() - 1))]; };
  EXPECT_GT(qt(0.0), -64.0);
  std::printf("wheel timestamp error (release - departure, ns): min %.1f p1 %.1f p50 %.1f p99 %.1f max %.1f over %zu grants\n",
              qt(0.0), qt(0.01), qt(0.5), qt(0.99), qt(1.0), e.size());
  for (uint32_t q = 0; q < rates.size(); ++q)
    std::printf("  qp %u programmed %6.2f Gb/s achieved %8.4f Gb/s\n", q, rates[q] / 1e9, achieved(r, q, 1) / 1e9);
}

TEST(DcqcnWheel, SingleQpAtLineRateAndAtMinRate) {
  Config cfg;
  cfg.Queues = 4;
  cfg.SlotLog2 = 4;  // 16 ns slots
  for (uint64_t rate : {100000000000ull, 50000000000ull, 1000000000ull}) {
    const auto r = run(cfg, {rate}, 1200, 10, 5);
    EXPECT_NEAR(achieved(r, 0, 1) / rate, 1.0, 0.01) << rate;
  }
}

TEST(DcqcnWheel, AggregateNeverAboveLineRate) {
  Config cfg;
  cfg.Queues = 32;
  cfg.IfgBytes = 20;
  // oversubscribed: 32 QPs x 10G on a 100G line
  std::vector<uint64_t> rates(32, 10000000000ull);
  const auto r = run(cfg, rates, 200, 30, 3);
  ASSERT_GT(r.grants.size(), 6000u);
  // over every window [t_j, t_k] of releases: bits(j..k-1) <= line * (t_k - t_j + slot),
  // i.e. the line rate with a burst allowance of one slot (64 ns here); 1 ns ticks.
  const int64_t slot_bits = 100 * 64;  // 100 bits per ns
  int64_t min_prefix = 0, bits = 0, worst = INT64_MIN;
  for (size_t k = 0; k < r.grants.size(); ++k) {
    const int64_t here = bits - 100 * static_cast<int64_t>(r.grants[k].load);
    if (k) worst = std::max(worst, here - min_prefix);
    min_prefix = k ? std::min(min_prefix, here) : here;
    bits += static_cast<int64_t>(r.grants[k].bytes + 20) * 8;
  }
  EXPECT_LE(worst, slot_bits);
  const double span = static_cast<double>(r.grants.back().load - r.grants.front().load) * 1e-9;
  double bytes = 0;
  for (size_t k = 0; k + 1 < r.grants.size(); ++k) bytes += r.grants[k].bytes + 20;
  EXPECT_LE(bytes * 8, 100e9 * (span + 64e-9));
  EXPECT_GE(bytes * 8 / span, 95e9);  // and the line is kept busy
}

TEST(DcqcnWheel, FairAmongQpsDueTogether) {
  Config cfg;
  cfg.Queues = 8;
  // 8 equal QPs oversubscribe the line 2:1: each must get an equal share
  std::vector<uint64_t> rates(8, 25000000000ull);
  const auto r = run(cfg, rates, 400, 0, 9, false);
  std::vector<unsigned> in_first_half(8, 0);
  const size_t half = r.grants.size() / 2;
  for (size_t k = 0; k < half; ++k) ++in_first_half[r.grants[k].qp];
  for (unsigned q = 0; q < 8; ++q) EXPECT_NEAR(in_first_half[q], half / 8.0, 3.0) << q;
}

TEST(DcqcnWheel, TransactionDepartureIsCarouselFormula) {
  Config cfg;
  Model m(cfg);
  m.reset_transaction();
  // line rate 100G, 1 ns ticks: 1000 B = 80 ns = 80 << 16
  EXPECT_EQ(m.next_departure(0, 1000, 100), 100ull << 16);          // idle: now
  EXPECT_EQ(m.next_departure(0, 1000, 100), 180ull << 16);          // backlogged: after the first
  EXPECT_EQ(m.next_departure(0, 1000, 1000), 1000ull << 16);        // idle again: no banked credit
}

}  // namespace
}  // namespace ll::dcqcn
