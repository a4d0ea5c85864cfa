// GoogleTest suite of the PFC golden model (ll::pfc::Model), against docs/pfc.md (PFC,
// shared buffer, watchdog).
#include <gtest/gtest.h>

#include <deque>
#include <random>

#include "pfc/pfc.h"

using namespace ll::pfc;

namespace {

Config small_cfg(unsigned stat_w = 32) {
  Config c;
  c.Ports = 4;
  c.CntW = 20;
  c.StatW = stat_w;
  c.TimerW = 16;
  c.TickNs = 100;
  return c;
}

// Lossless priority 3, static XOFF 10000, headroom 5000, XON offset 3000.
Settings static_settings() {
  Settings s = Settings::reset_values(small_cfg());
  s.dyn = false;
  s.lossless = 0x18;
  s.xoff_static = 10000;
  s.xon_offset = 3000;
  s.shared_size = 500000;
  s.rsv.fill(0);
  s.hdrm.fill(5000);
  s.refresh = 0;
  s.wd_detect = 0;
  s.gbps = 100;  // 100 Gb/s * 100 ns = 10000 bits per tick
  return s;
}

Model make(const Settings& s, unsigned stat_w = 32) {
  Model m(small_cfg(stat_w));
  m.reset_transaction();
  m.configure(s);
  return m;
}

}  // namespace

TEST(PfcConfig, RejectsBadParameters) {
  Config c = small_cfg();
  c.Ports = 1;
  EXPECT_THROW(c.validate(), std::invalid_argument);
  c = small_cfg();
  c.CntW = 31;
  EXPECT_THROW(Model{c}, std::invalid_argument);
  c = small_cfg();
  c.StatW = 0;
  EXPECT_THROW(c.validate(), std::invalid_argument);
  EXPECT_THROW(Config::from_params({{"Ports", 4}, {"Bogus", 1}}), std::invalid_argument);
  EXPECT_EQ(Config::from_params({{"Ports", 4}, {"TickNs", 50}}).TickNs, 50u);
}

TEST(PfcConfig, RejectsSettingsThatDoNotFitTheRegisters) {
  Model m(small_cfg());  // CntW = 20, TimerW = 16
  m.reset_transaction();
  Settings s = static_settings();
  EXPECT_NO_THROW(m.configure(s));
  Settings b = s;
  b.xoff_static = 1u << 20;
  EXPECT_THROW(m.configure(b), std::invalid_argument);
  b = s;
  b.alpha_ing = 8;
  EXPECT_THROW(m.configure(b), std::invalid_argument);
  b = s;
  b.wd_detect = 1u << 16;
  EXPECT_THROW(m.configure(b), std::invalid_argument);
  b = s;
  b.gbps = 0;
  EXPECT_THROW(m.configure(b), std::invalid_argument);
  b = s;
  b.hdrm[5] = 2000000;
  EXPECT_THROW(m.configure(b), std::invalid_argument);
  EXPECT_EQ(m.live().xoff_static, 10000u);  // a rejected configure() changes nothing
}

TEST(PfcThreshold, XoffXonHysteresisStatic) {
  Model m = make(static_settings());
  for (int i = 0; i < 10; ++i) EXPECT_EQ(m.admit(0, 1, 3, 1000, true).dec, Decision::Admit) << i;
  EXPECT_FALSE(m.xoff(0, 3));
  EXPECT_TRUE(m.take_pause_requests().empty());
  // the 11th packet does not fit under XOFF: PAUSE, and the packet goes to headroom
  EXPECT_EQ(m.admit(0, 1, 3, 1000, true).dec, Decision::Headroom);
  EXPECT_TRUE(m.xoff(0, 3));
  auto p = m.take_pause_requests();
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].port, 0u);
  EXPECT_EQ(p[0].prio, 3u);
  EXPECT_EQ(p[0].quanta, 0xFFFFu);
  // drain: headroom first (1000 B), then the shared part; RESUME only when the count
  // has fallen XON_OFFSET below XOFF (10000 + 1000 -> 7000)
  for (int i = 0; i < 3; ++i) {
    m.depart(0, 1, 3, 1000, true);
    EXPECT_TRUE(m.xoff(0, 3)) << i;
  }
  EXPECT_EQ(m.queue_stats(0, 3).cnt, 8000u);
  m.depart(0, 1, 3, 1000, true);  // 7000 + 3000 <= 10000
  EXPECT_FALSE(m.xoff(0, 3));
  p = m.take_pause_requests();
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].quanta, 0u);
  EXPECT_EQ(m.counter(kPauseTx), 1u);
  EXPECT_EQ(m.counter(kResumeTx), 1u);
  // hysteresis: below XOFF again the queue admits to shared space without a new PAUSE
  EXPECT_EQ(m.admit(0, 1, 3, 1000, true).dec, Decision::Admit);
  EXPECT_TRUE(m.take_pause_requests().empty());
}

TEST(PfcThreshold, ReservedMinimumAddsToXoff) {
  Settings s = static_settings();
  s.rsv[3] = 4000;
  Model m = make(s);
  for (int i = 0; i < 14; ++i) EXPECT_EQ(m.admit(0, 1, 3, 1000, true).dec, Decision::Admit) << i;
  EXPECT_EQ(m.shared_used(), 10000u);  // only the bytes above the reserved minimum
  EXPECT_EQ(m.admit(0, 1, 3, 1000, true).dec, Decision::Headroom);
}

TEST(PfcThreshold, DynamicThresholdShrinksAsSharedPoolFills) {
  Settings s = static_settings();
  s.dyn = true;
  s.alpha_ing = 0;  // alpha = 1 (the paper's beta = 8)
  s.shared_size = 100000;
  {
    Model m = make(s);
    int n = 0;
    while (m.admit(0, 1, 3, 1000, true).dec == Decision::Admit) ++n;
    EXPECT_EQ(n, 50);  // cnt + 1000 <= 100000 - cnt  stops at cnt = 50000
  }
  {
    Model m = make(s);  // another queue first takes 40000 B of the pool
    for (int i = 0; i < 40; ++i) ASSERT_EQ(m.admit(1, 2, 3, 1000, true).dec, Decision::Admit);
    EXPECT_EQ(m.xoff_limit(3), 60000u);
    int n = 0;
    while (m.admit(0, 1, 3, 1000, true).dec == Decision::Admit) ++n;
    EXPECT_EQ(n, 30);  // cnt + 1000 <= 60000 - cnt  stops at cnt = 30000
    EXPECT_EQ(m.xoff_limit(3), 30000u);
  }
  for (const auto& [shift, expect] : std::vector<std::pair<int, int>>{{-1, 33}, {1, 67}, {7, 100}}) {
    Settings t = s;
    t.alpha_ing = shift;
    Model m = make(t);
    int n = 0;
    while (m.admit(0, 1, 3, 1000, true).dec == Decision::Admit) ++n;
    EXPECT_EQ(n, expect) << "alpha = 2^" << shift;  // 2^7: the shared pool limit stops it
  }
}

TEST(PfcThreshold, XonRecheckedWhenDynamicThresholdGrows) {
  Settings s = static_settings();
  s.dyn = true;
  s.shared_size = 100000;
  s.xon_offset = 1000;
  Model m = make(s);
  for (int i = 0; i < 60; ++i) m.admit(1, 2, 3, 1000, true);  // port 1 fills 50 KB, XOFF
  for (int i = 0; i < 30; ++i) m.admit(0, 1, 3, 1000, true);  // port 0: limit 50000 - cnt
  EXPECT_TRUE(m.xoff(0, 3));
  EXPECT_EQ(m.queue_stats(0, 3).hdr, 5000u);
  m.take_pause_requests();
  // port 0 drains its headroom (25000 + 1000 > 25000: no XON yet)
  for (int i = 0; i < 5; ++i) m.depart(0, 1, 3, 1000, true);
  EXPECT_EQ(m.queue_stats(0, 3).hdr, 0u);
  EXPECT_TRUE(m.xoff(0, 3));
  // port 1 drains completely; port 0's count did not change, but its limit grew
  for (int i = 0; i < 60; ++i) m.depart(1, 2, 3, 1000, true);
  m.take_pause_requests();
  EXPECT_TRUE(m.xoff(0, 3));
  m.advance_ticks(1);  // the timer sweep re-checks XON
  EXPECT_FALSE(m.xoff(0, 3));
  auto p = m.take_pause_requests();
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].port, 0u);
  EXPECT_EQ(p[0].quanta, 0u);
}

// XON (RESUME) only once the headroom is empty: the next PAUSE must be able to rely on all
// of HDRM[p]. Old rule (cnt + hdr + XON_OFFSET <= lim) resumed here with hdr = 3000.
TEST(PfcThreshold, XonWaitsForEmptyHeadroomWhenDynamicThresholdGrows) {
  Settings s = static_settings();
  s.dyn = true;
  s.shared_size = 100000;
  s.xon_offset = 1000;
  Model m = make(s);
  for (int i = 0; i < 40; ++i) ASSERT_EQ(m.admit(1, 2, 0, 1000, false).dec, Decision::Admit);  // lossy, 40 KB
  int n = 0;
  while (m.admit(0, 1, 3, 1000, true).dec == Decision::Admit) ++n;  // limit 60000 - cnt
  EXPECT_EQ(n, 30);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(m.admit(0, 1, 3, 1000, true).dec, Decision::Headroom);
  EXPECT_TRUE(m.xoff(0, 3));
  EXPECT_EQ(m.queue_stats(0, 3).hdr, 5000u);
  m.take_pause_requests();
  m.depart(0, 1, 3, 1000, true);  // headroom first: 4000 left
  m.depart(0, 1, 3, 1000, true);  // 3000 left
  // the other queue drains: the limit grows to 100000 - 30000, far above cnt + XON_OFFSET
  for (int i = 0; i < 40; ++i) m.depart(1, 2, 0, 1000, false);
  EXPECT_EQ(m.xoff_limit(3), 70000u);
  EXPECT_EQ(m.queue_stats(0, 3).cnt, 30000u);
  EXPECT_EQ(m.queue_stats(0, 3).hdr, 3000u);
  EXPECT_TRUE(m.xoff(0, 3));  // the departures did not resume (headroom not empty) ...
  m.advance_ticks(3);
  EXPECT_TRUE(m.xoff(0, 3));  // ... nor does the sweep
  EXPECT_TRUE(m.take_pause_requests().empty());
  m.depart(0, 1, 3, 1000, true);
  m.depart(0, 1, 3, 1000, true);
  EXPECT_TRUE(m.xoff(0, 3));   // hdr = 1000
  m.depart(0, 1, 3, 500, true);
  EXPECT_TRUE(m.xoff(0, 3));   // hdr = 500
  m.depart(0, 1, 3, 1000, true);  // drains the last 500 of headroom and 500 of cnt: XON
  EXPECT_FALSE(m.xoff(0, 3));
  EXPECT_EQ(m.queue_stats(0, 3).hdr, 0u);
  EXPECT_EQ(m.queue_stats(0, 3).cnt, 29500u);
  auto p = m.take_pause_requests();
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].quanta, 0u);
  EXPECT_EQ(m.counter(kResumeTx), 1u);
}

// Fast XOFF/XON cycles under a dynamic threshold: an upstream that keeps sending HDRM bytes
// after each PAUSE (its in-flight data) never overflows the headroom, because every RESUME
// leaves the headroom empty. With the old XON rule the leftover headroom ratchets up and
// the second cycle already drops lossless packets.
TEST(PfcHeadroom, RepeatedXoffXonCyclesNeverOverflowHeadroom) {
  Settings s = static_settings();
  s.dyn = true;
  s.shared_size = 100000;
  s.xon_offset = 1000;
  Model m = make(s);
  int resumes = 0;
  for (int round = 0; round < 50; ++round) {
    SCOPED_TRACE(round);
    for (int i = 0; i < 40; ++i) m.admit(1, 2, 0, 1000, false);  // another queue takes the pool
    bool paused = false;
    for (int i = 0; i < 200 && !paused; ++i) {
      const auto r = m.admit(0, 1, 3, 1000, true);
      ASSERT_NE(r.dec, Decision::Drop);
      for (const auto& p : m.take_pause_requests()) paused |= p.port == 0 && p.quanta != 0;
    }
    ASSERT_TRUE(paused);
    // in flight after the PAUSE: HDRM - 1000 more bytes (the packet that crossed is in headroom)
    for (int i = 0; i < 4; ++i) ASSERT_EQ(m.admit(0, 1, 3, 1000, true).dec, Decision::Headroom) << i;
    m.depart(0, 1, 3, 1000, true);
    m.depart(0, 1, 3, 1000, true);
    for (int i = 0; i < 40; ++i) m.depart(1, 2, 0, 1000, false);  // the limit grows again
    m.advance_ticks(1);
    for (int i = 0; i < 200 && m.xoff(0, 3); ++i) m.depart(0, 1, 3, 1000, true);
    ASSERT_FALSE(m.xoff(0, 3));
    EXPECT_EQ(m.queue_stats(0, 3).hdr, 0u);
    for (const auto& p : m.take_pause_requests()) resumes += p.port == 0 && p.quanta == 0;
  }
  EXPECT_EQ(resumes, 50);
  EXPECT_EQ(m.violations(), 0u);
  EXPECT_EQ(m.queue_stats(0, 3).violations, 0u);
}

TEST(PfcHeadroom, AbsorptionThenViolation) {
  Model m = make(static_settings());
  for (int i = 0; i < 10; ++i) m.admit(0, 1, 3, 1000, true);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(m.admit(0, 1, 3, 1000, true).dec, Decision::Headroom) << i;
  EXPECT_EQ(m.queue_stats(0, 3).hdr, 5000u);
  const auto r = m.admit(0, 1, 3, 1000, true);
  EXPECT_EQ(r.dec, Decision::Drop);
  EXPECT_EQ(r.why, Why::Headroom);
  EXPECT_EQ(m.violations(), 1u);
  EXPECT_EQ(m.queue_stats(0, 3).violations, 1u);
  EXPECT_EQ(m.queue_stats(0, 3).headroom_peak, 5000u);
  EXPECT_EQ(m.headroom_peak(), 5000u);
  EXPECT_EQ(m.counter(kHdrm), 5u);
  // a smaller packet still fits nowhere: headroom is full
  EXPECT_EQ(m.admit(0, 1, 3, 64, true).dec, Decision::Drop);
  EXPECT_EQ(m.violations(), 2u);
  // lossy packets never use headroom and are not violations
  Settings s = static_settings();
  Model l = make(s);
  for (int i = 0; i < 10; ++i) l.admit(0, 1, 0, 1000, false);
  const auto d = l.admit(0, 1, 0, 1000, false);
  EXPECT_EQ(d.dec, Decision::Drop);
  EXPECT_EQ(d.why, Why::IngressLossy);
  EXPECT_EQ(l.violations(), 0u);
  EXPECT_FALSE(l.xoff(0, 0));
}

TEST(PfcPause, RefreshWhileOverThreshold) {
  Settings s = static_settings();
  s.refresh = 10;
  s.quanta = 0x1234;
  Model m = make(s);
  for (int i = 0; i < 11; ++i) m.admit(0, 1, 3, 1000, true);
  ASSERT_EQ(m.take_pause_requests().size(), 1u);
  m.advance_ticks(9);
  EXPECT_TRUE(m.take_pause_requests().empty());
  m.advance_ticks(1);
  auto p = m.take_pause_requests();
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].quanta, 0x1234u);
  m.advance_ticks(10);
  EXPECT_EQ(m.take_pause_requests().size(), 1u);
  EXPECT_EQ(m.queue_stats(0, 3).pause_sent, 3u);
  // after RESUME no more refreshes
  for (int i = 0; i < 11; ++i) m.depart(0, 1, 3, 1000, true);
  EXPECT_FALSE(m.xoff(0, 3));
  m.take_pause_requests();
  m.advance_ticks(30);
  EXPECT_TRUE(m.take_pause_requests().empty());
}

TEST(PfcPause, ReceivedQuantaCountDownAtPortSpeed) {
  Settings s = static_settings();
  Model m = make(s);  // 100 Gb/s, 100 ns ticks: 10000 bit times per tick
  m.on_pfc(2, 3, 100);  // 100 * 512 = 51200 bit times = 5.12 ticks
  EXPECT_TRUE(m.paused(2, 3));
  EXPECT_FALSE(m.paused(2, 4));
  m.advance_ticks(5);
  EXPECT_TRUE(m.paused(2, 3));
  m.advance_ticks(1);
  EXPECT_FALSE(m.paused(2, 3));
  EXPECT_EQ(m.queue_stats(2, 3).paused_ticks, 6u);
  s.gbps = 40;  // 4000 bit times per tick: 12.8 ticks
  m.configure(s);
  m.on_pfc(2, 3, 100);
  m.advance_ticks(12);
  EXPECT_TRUE(m.paused(2, 3));
  m.advance_ticks(1);
  EXPECT_FALSE(m.paused(2, 3));
  // RESUME clears at once; a new PAUSE restarts the count
  m.on_pfc(2, 3, 1000);
  m.advance_ticks(3);
  m.on_pfc(2, 3, 0);
  EXPECT_FALSE(m.paused(2, 3));
  EXPECT_EQ(m.counter(kPauseRx), 3u);
  EXPECT_EQ(m.counter(kResumeRx), 1u);
  // a whole frame: priorities 1 and 5 enabled
  std::array<uint32_t, kPrios> q{};
  q[1] = 10;
  q[5] = 20;
  q[6] = 30;
  m.on_pfc_frame(1, 0x22, q);
  EXPECT_TRUE(m.paused(1, 1));
  EXPECT_TRUE(m.paused(1, 5));
  EXPECT_FALSE(m.paused(1, 6));
}

TEST(PfcWatchdog, DetectDropRestoreTiming) {
  Settings s = static_settings();
  s.wd_detect = 20;
  s.wd_restore = 30;
  Model m = make(s);
  ASSERT_EQ(m.admit(0, 1, 3, 1000, true).dec, Decision::Admit);  // egress queue (1,3) holds a packet
  m.on_pfc(1, 3, 0xFFFF);                                         // ~3355 ticks of PAUSE
  m.advance_ticks(19);
  EXPECT_FALSE(m.storm(1, 3));
  EXPECT_TRUE(m.paused(1, 3));
  m.advance_ticks(1);
  EXPECT_TRUE(m.storm(1, 3));
  EXPECT_FALSE(m.paused(1, 3));  // PFC ignored
  EXPECT_EQ(m.counter(kWdStorm), 1u);
  // the storm queue's packets are dropped and counted
  const auto r = m.admit(0, 1, 3, 1000, true);
  EXPECT_EQ(r.dec, Decision::Drop);
  EXPECT_EQ(r.why, Why::Watchdog);
  EXPECT_EQ(m.queue_stats(1, 3).wd_drops, 1u);
  EXPECT_EQ(m.counter(kWdDrop), 1u);
  EXPECT_EQ(m.violations(), 0u);
  // the storm goes on (PAUSE keeps coming): no restoration
  for (int i = 0; i < 5; ++i) {
    m.on_pfc(1, 3, 0xFFFF);
    m.advance_ticks(25);
    EXPECT_TRUE(m.storm(1, 3));
  }
  // the storm stops (RESUME): restored after exactly WD_RESTORE ticks
  m.on_pfc(1, 3, 0);
  m.advance_ticks(29);
  EXPECT_TRUE(m.storm(1, 3));
  m.advance_ticks(1);
  EXPECT_FALSE(m.storm(1, 3));
  EXPECT_EQ(m.counter(kWdRestore), 1u);
  EXPECT_EQ(m.queue_stats(1, 3).restorations, 1u);
  EXPECT_EQ(m.admit(0, 1, 3, 1000, true).dec, Decision::Admit);
}

TEST(PfcWatchdog, IgnoresEmptyQueuesAndLossyPriorities) {
  Settings s = static_settings();
  s.wd_detect = 5;
  s.wd_restore = 5;
  Model m = make(s);
  m.on_pfc(1, 3, 0xFFFF);  // paused but holds no packets
  m.advance_ticks(50);
  EXPECT_FALSE(m.storm(1, 3));
  m.admit(0, 1, 0, 1000, false);  // priority 0 is not lossless
  m.on_pfc(1, 0, 0xFFFF);
  m.advance_ticks(50);
  EXPECT_FALSE(m.storm(1, 0));
  EXPECT_TRUE(m.paused(1, 0));
  EXPECT_EQ(m.counter(kWdStorm), 0u);
}

TEST(PfcPoolMode, EgressLossyDynamicThreshold) {
  Settings s = static_settings();
  s.pool = true;
  s.xoff_static = 1000000;  // no ingress limit in this test
  s.egly_size = 20000;
  s.alpha_eg = 0;
  Model m = make(s);
  int n = 0;
  Model::Result r;
  while ((r = m.admit(0, 2, 0, 1000, false)).dec == Decision::Admit) ++n;
  EXPECT_EQ(n, 10);  // ecnt + 1000 <= 20000 - ecnt
  EXPECT_EQ(r.why, Why::EgressLossy);
  EXPECT_EQ(m.egress_lossy_used(), 10000u);
  // another egress queue sees the smaller free pool
  n = 0;
  while (m.admit(1, 3, 0, 1000, false).dec == Decision::Admit) ++n;
  EXPECT_EQ(n, 5);  // ecnt + 1000 <= 10000 - ecnt
  // classic mode: no egress admission
  s.pool = false;
  Model c = make(s);
  for (int i = 0; i < 11; ++i) EXPECT_EQ(c.admit(0, 2, 0, 1000, false).dec, Decision::Admit);
}

TEST(PfcPoolMode, EgressLosslessPoolAndSharedHeadroomPool) {
  Settings s = static_settings();
  s.pool = true;
  s.egll_size = 3000;
  Model m = make(s);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(m.admit(0, 1, 3, 1000, true).dec, Decision::Admit);
  const auto r = m.admit(0, 1, 3, 1000, true);
  EXPECT_EQ(r.dec, Decision::Drop);
  EXPECT_EQ(r.why, Why::EgressLossless);
  EXPECT_EQ(m.violations(), 1u);
  // shared headroom pool: 4 ports * (5000 + 5000) for priorities 3 and 4, oversubscribed 4:1
  s.egll_size = 1000000;
  s.oversub = 2;
  Model h = make(s);
  EXPECT_EQ(h.shared_headroom_pool_size(), 10000u);
  for (uint32_t port = 0; port < 3; ++port) {
    for (int i = 0; i < 10; ++i) ASSERT_EQ(h.admit(port, 1, 3, 1000, true).dec, Decision::Admit);
  }
  // ports 0 and 1 may each use their 5000 cap: the pool (10000) is then exhausted
  for (uint32_t port = 0; port < 2; ++port)
    for (int i = 0; i < 5; ++i) EXPECT_EQ(h.admit(port, 1, 3, 1000, true).dec, Decision::Headroom);
  const auto v = h.admit(2, 1, 3, 1000, true);
  EXPECT_EQ(v.dec, Decision::Drop);
  EXPECT_EQ(v.why, Why::Headroom);
  EXPECT_EQ(h.queue_stats(2, 3).hdr, 0u);
  // classic mode: each queue has its private headroom, no pool
  s.pool = false;
  Model c = make(s);
  for (uint32_t port = 0; port < 3; ++port) {
    for (int i = 0; i < 10; ++i) c.admit(port, 1, 3, 1000, true);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(c.admit(port, 1, 3, 1000, true).dec, Decision::Headroom);
  }
}

// ------------------------------------------------------------------ cycle face
namespace {

struct Cyc {
  Model m;
  uint64_t cycle = 0;
  explicit Cyc(const Config& c) : m(c) {
    Inputs r;
    r.rst_n = false;
    m.tick(r);
    Inputs i;
    while (!m.eval(i).init_done) m.tick(i);
  }
  Outputs step(const Inputs& in) {
    const Outputs o = m.eval(in);
    m.tick(in);
    ++cycle;
    return o;
  }
  void write(uint32_t a, uint32_t d) {
    Inputs in;
    in.cfg_we = true;
    in.cfg_addr = a;
    in.cfg_wdata = d;
    step(in);
  }
  uint32_t read(uint32_t a) {
    Inputs in;
    in.cfg_re = true;
    in.cfg_addr = a;
    step(in);
    const Outputs o = step(Inputs{});
    EXPECT_TRUE(o.cfg_rvalid);
    return o.cfg_rdata;
  }
  // Every register, COMMIT, then two idle cycles: the COMMIT takes effect at the end of the
  // cycle after its write, and the registered thresholds follow the live settings a cycle
  // later.
  void configure(const Settings& s) {
    for (const auto& [a, d] : s.writes()) write(a, d);
    write(regs::COMMIT, 1);
    step(Inputs{});
    step(Inputs{});
  }
};

}  // namespace

// Settings::program() (the co-simulation's register program) sets through the register
// interface what configure() sets in the transaction face.
TEST(PfcCycle, ProgramEqualsConfigure) {
  const Config c = small_cfg();
  Settings s = Settings::reset_values(c);
  s.dyn = false;
  s.pool = true;
  s.lossless = 0x28;
  s.xoff_static = 12345;
  s.alpha_ing = -2;
  s.alpha_eg = 1;
  s.xon_offset = 2222;
  s.shared_size = 100000;
  s.egll_size = 90000;
  s.egly_size = 80000;
  s.oversub = 2;
  s.quanta = 4321;
  s.refresh = 17;
  s.gbps = 25;
  s.wd_detect = 9;
  s.wd_restore = 11;
  for (unsigned p = 0; p < kPrios; ++p) {
    s.rsv[p] = 100 + p;
    s.hdrm[p] = 2000 + p;
  }
  Model t(c);
  t.reset_transaction();
  t.configure(s);
  Cyc cy(c);
  const ll::CfgProgram ops = s.program();
  ASSERT_EQ(ops.back().addr, regs::COMMIT);
  for (const ll::CfgOp& op : ops) cy.write(op.addr, op.data);
  // the COMMIT written in the last cycle takes effect at the end of the next one
  EXPECT_NE(cy.m.live().writes(), s.writes());
  cy.step(Inputs{});
  EXPECT_EQ(cy.m.live().writes(), t.live().writes());
  EXPECT_EQ(cy.m.live().writes(), s.writes());
  EXPECT_NE(s.writes(), Settings::reset_values(c).writes());
}

TEST(PfcCycle, InitSweepThenReady) {
  Model m(small_cfg());
  Inputs r;
  r.rst_n = false;
  m.tick(r);
  Inputs i;
  i.adm_valid = true;
  i.adm_len = 64;
  unsigned n = 0;
  while (!m.eval(i).init_done) {
    EXPECT_FALSE(m.eval(i).adm_ready);
    m.tick(Inputs{});
    ++n;
  }
  EXPECT_EQ(n, 4u * 8u);  // one cycle per RAM entry
  EXPECT_TRUE(m.eval(i).adm_ready);
}

// The cycle face against the transaction face, and the decision's latency: 2 + RegWords.
static void check_latency_and_faces(unsigned reg_words) {
  Config c = small_cfg();
  c.RegWords = reg_words;
  const unsigned lat = 2 + reg_words;
  Cyc cy(c);
  // static XOFF: the cycle face's dynamic threshold follows the pool one cycle late,
  // the transaction face's at once; with a static XOFF both faces must agree exactly
  // (the shared-pool limit itself is exact in both)
  Settings s = static_settings();
  s.dyn = false;
  s.xoff_static = 6000;
  s.shared_size = 30000;
  s.hdrm.fill(3000);
  cy.configure(s);
  Model t(c);
  t.reset_transaction();
  t.configure(s);
  std::mt19937 rng(7);
  std::deque<Decision> expect;
  std::vector<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, bool>> held;
  unsigned compared = 0;
  for (int k = 0; k < 4000; ++k) {
    Inputs in;
    // back-to-back events on few queues exercise the RMW forwarding path
    const bool dep = !held.empty() && rng() % 3 == 0;
    if (dep) {
      const size_t j = rng() % held.size();
      const auto [ip, ep, pr, len, ll] = held[j];
      held.erase(held.begin() + static_cast<long>(j));
      in.dep_valid = true;
      in.dep_iport = ip; in.dep_eport = ep; in.dep_prio = pr; in.dep_len = len; in.dep_lossless = ll;
      t.depart(ip, ep, pr, len, ll);
    } else {
      in.adm_valid = true;
      in.adm_iport = rng() % 2;
      in.adm_eport = rng() % 4;
      in.adm_prio = 3 + rng() % 2;
      in.adm_len = 64 + rng() % 1500;
      in.adm_lossless = rng() % 4 != 0;
      const auto r = t.admit(in.adm_iport, in.adm_eport, in.adm_prio, in.adm_len, in.adm_lossless);
      expect.push_back(r.dec);
      if (r.dec != Decision::Drop)
        held.emplace_back(in.adm_iport, in.adm_eport, in.adm_prio, in.adm_len, in.adm_lossless);
    }
    const Outputs o = cy.step(in);
    ASSERT_TRUE(dep ? o.dep_ready : o.adm_ready);
    if (o.dec_valid) {
      ASSERT_FALSE(expect.empty());
      EXPECT_EQ(o.dec, static_cast<uint32_t>(expect.front())) << "cycle " << cy.cycle;
      expect.pop_front();
      ++compared;
    }
  }
  // the last decisions are still in the pipeline: exactly lat cycles of latency
  for (unsigned k = 0; k < lat; ++k) {
    const Outputs o = cy.step(Inputs{});
    if (o.dec_valid) {
      ASSERT_FALSE(expect.empty());
      EXPECT_EQ(o.dec, static_cast<uint32_t>(expect.front()));
      expect.pop_front();
    }
  }
  EXPECT_TRUE(expect.empty());
  EXPECT_FALSE(cy.step(Inputs{}).dec_valid);
  EXPECT_GT(compared, 2000u);
  // one admission alone: accepted at the edge of cycle 0, decided in cycle lat - 1 (S2, or
  // S1 without registered words), dec_valid_o in cycle lat
  {
    Inputs in;
    in.adm_valid = true;
    in.adm_iport = 1; in.adm_eport = 2; in.adm_prio = 3; in.adm_len = 64; in.adm_lossless = true;
    EXPECT_FALSE(cy.step(in).dec_valid);
    for (unsigned k = 1; k < lat; ++k) EXPECT_FALSE(cy.step(Inputs{}).dec_valid) << "cycle " << k;
    EXPECT_TRUE(cy.step(Inputs{}).dec_valid);
    EXPECT_FALSE(cy.step(Inputs{}).dec_valid);
    t.admit(1, 2, 3, 64, true);
  }
  EXPECT_EQ(cy.read(regs::SHARED_USED), t.shared_used());
  EXPECT_EQ(cy.read(regs::HDR_USED), t.headroom_used());
  EXPECT_EQ(cy.read(regs::CNT_ADMIT), t.counter(kAdmit));
  EXPECT_EQ(cy.read(regs::CNT_VIOLATION), t.counter(kViolation));
}

TEST(PfcCycle, DecisionLatencyThreeAndMatchesTransactionFace) { check_latency_and_faces(1); }
TEST(PfcCycle, DecisionLatencyTwoWithoutRegisteredWords) { check_latency_and_faces(0); }

TEST(PfcCycle, StagedConfigurationTakesEffectOnlyOnCommit) {
  Cyc cy(small_cfg());
  Settings s = static_settings();
  s.xoff_static = 2000;
  cy.configure(s);
  cy.write(regs::XOFF_STATIC, 100);  // staged only
  EXPECT_EQ(cy.read(regs::XOFF_STATIC), 100u);
  Inputs in;
  in.adm_valid = true;
  in.adm_iport = 0; in.adm_eport = 1; in.adm_prio = 3; in.adm_len = 1000; in.adm_lossless = true;
  cy.step(in);
  cy.step(Inputs{});
  cy.step(Inputs{});
  Outputs o = cy.step(Inputs{});
  ASSERT_TRUE(o.dec_valid);
  EXPECT_EQ(o.dec, 0u);  // live XOFF is still 2000
  cy.write(regs::COMMIT, 1);
  cy.step(Inputs{});  // the COMMIT takes effect at the end of this cycle
  cy.step(Inputs{});  // the threshold registered from the new live XOFF
  cy.step(in);
  cy.step(Inputs{});
  cy.step(Inputs{});
  o = cy.step(Inputs{});
  ASSERT_TRUE(o.dec_valid);
  EXPECT_EQ(o.dec, 1u);  // 1000 + 1000 > 100: headroom
}

// A COMMIT takes effect at the end of the cycle after its write. Without registered words
// S0 forms the op's threshold brackets from the live settings, so that cycle issues no op;
// with registered words it issues one. Each op decides on the settings live in its deciding
// cycle: HDRM[3] goes from 3000 to 500, so an admission of 1000 bytes above XOFF takes the
// headroom before the COMMIT and is dropped after it.
static void check_commit_cycle(unsigned reg_words) {
  Config c = small_cfg();
  c.RegWords = reg_words;
  Cyc cy(c);
  Settings s = static_settings();
  s.xoff_static = 100;
  s.hdrm.fill(3000);
  cy.configure(s);
  cy.write(regs::HDRM0 + 4 * 3, 500);  // staged only
  Inputs in;
  in.adm_valid = true;
  in.adm_iport = 0; in.adm_eport = 1; in.adm_prio = 3; in.adm_len = 1000; in.adm_lossless = true;
  Inputs both = in;
  both.cfg_we = true; both.cfg_addr = regs::COMMIT; both.cfg_wdata = 1;
  std::vector<uint32_t> decs;
  std::vector<unsigned> accepted_at;
  unsigned cyc = 0;
  auto run = [&](const Inputs& i) {
    const Outputs o = cy.step(i);
    if (i.adm_valid && o.adm_ready) accepted_at.push_back(cyc);
    if (o.dec_valid) decs.push_back(o.dec);
    ++cyc;
    return o;
  };
  Outputs o = run(both);  // cycle 0: the COMMIT write; the admission is accepted in both forms
  EXPECT_TRUE(o.adm_ready);
  o = run(in);            // cycle 1: the COMMIT takes effect at its end
  EXPECT_EQ(o.adm_ready, reg_words != 0);
  EXPECT_EQ(o.dep_ready, reg_words != 0);
  EXPECT_EQ(o.pfc_ready, reg_words != 0);
  if (reg_words == 0) {
    o = run(in);          // cycle 2: accepted now
    EXPECT_TRUE(o.adm_ready);
  }
  for (unsigned k = 0; k < 6; ++k) run(Inputs{});
  ASSERT_EQ(accepted_at.size(), 2u);
  EXPECT_EQ(accepted_at[0], 0u);
  EXPECT_EQ(accepted_at[1], reg_words != 0 ? 1u : 2u);
  ASSERT_EQ(decs.size(), 2u);
  // the first op decides in cycle 2 (RegWords 1: after the COMMIT took effect, so on HDRM 500)
  // or in cycle 1 (RegWords 0: before, on HDRM 3000)
  EXPECT_EQ(decs[0], reg_words != 0 ? 2u : 1u);
  EXPECT_EQ(decs[1], 2u);  // dropped: 1000 > 500
}
TEST(PfcCycle, CommitCycleIssuesNoOpWithoutRegisteredWords) { check_commit_cycle(0); }
TEST(PfcCycle, CommitCycleIssuesOpsWithRegisteredWords) { check_commit_cycle(1); }

TEST(PfcCycle, RegistersCountersSaturateAndClear) {
  Cyc cy(small_cfg(4));
  EXPECT_EQ(cy.read(regs::ID), regs::ID_VALUE);
  EXPECT_EQ(cy.read(regs::PARAMS), 4u | (20u << 8) | (4u << 16) | (16u << 24));
  EXPECT_EQ(cy.read(regs::TICK_NS), 100u);
  EXPECT_EQ(cy.read(0x7FC), 0u);
  Settings s = static_settings();
  cy.configure(s);
  for (int i = 0; i < 20; ++i) {
    Inputs in;
    in.pfc_valid = true;
    in.pfc_port = 1; in.pfc_prio = 2; in.pfc_quanta = 5;
    cy.step(in);
  }
  cy.step(Inputs{});
  EXPECT_EQ(cy.read(regs::CNT_PAUSE_RX), 15u);  // 4-bit counter saturates
  // clear wins over a same-cycle increment
  Inputs in;
  in.pfc_valid = true;
  in.pfc_port = 1; in.pfc_prio = 2; in.pfc_quanta = 5;
  cy.step(in);  // accepted; S1 in the next cycle, S2 (the increment) in the CLEAR's below
  cy.step(Inputs{});
  in.pfc_valid = false;
  in.cfg_we = true;
  in.cfg_addr = regs::CLEAR;
  in.cfg_wdata = 1u << kPauseRx;
  cy.step(in);
  EXPECT_EQ(cy.read(regs::CNT_PAUSE_RX), 0u);
  // per-queue counters through STAT_SEL / STAT_CMD
  cy.write(regs::STAT_SEL, 1 * 8 + 2);
  cy.write(regs::STAT_CMD, 1);
  while (cy.read(regs::STATUS) & 2) {
  }
  EXPECT_EQ(cy.read(regs::SNAP_PRCV), 15u);
  EXPECT_EQ(cy.read(regs::SNAP_FLAGS) & 2u, 2u);
  cy.write(regs::STAT_CMD, 1u | (1u << (8 + 3)));  // snapshot, then clear PRCV
  cy.write(regs::STAT_CMD, 1u);
  while (cy.read(regs::STATUS) & 2) {
  }
  EXPECT_EQ(cy.read(regs::SNAP_PRCV), 0u);
  cy.write(regs::STAT_SEL, 4 * 8);  // out of range: ignored
  EXPECT_EQ(cy.read(regs::STAT_SEL), 10u);
}

TEST(PfcCycle, TimerSweepRunsOncePerTick) {
  Cyc cy(small_cfg());
  Settings s = static_settings();
  cy.configure(s);
  Inputs in;
  in.pfc_valid = true;
  in.pfc_port = 3; in.pfc_prio = 7; in.pfc_quanta = 100;  // 5.12 ticks
  cy.step(in);
  cy.step(Inputs{});
  cy.step(Inputs{});
  in = Inputs{};
  in.eg_qport = 3;
  EXPECT_EQ(cy.m.eval(in).eg_paused, 0x80u);
  unsigned ticks = 0;
  while (cy.m.eval(in).eg_paused != 0) {
    Inputs t = in;
    t.tick = true;
    cy.step(t);
    ++ticks;
    for (int k = 0; k < 40; ++k) cy.step(in);  // one full pass of 32 queues
  }
  EXPECT_EQ(ticks, 6u);
}
