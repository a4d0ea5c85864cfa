// GoogleTest of the RED/ECN marker model against docs/marker.md (the DCQCN paper's
// congestion point, section 3.1).
#include <gtest/gtest.h>

#include <cmath>

#include "marker/marker.h"

namespace mk = ll::marker;

namespace {

mk::Model make(const mk::Profile& p, unsigned qw = 24, uint64_t seed = 7) {
  mk::Config c;
  c.Queues = 8;
  c.Profiles = 2;
  c.QW = qw;
  c.Seed = seed;
  mk::Model m(c);
  m.reset_transaction();
  m.set_profile(0, p);
  return m;
}

// Measured marking frequency over n decisions at a fixed queue length.
double frequency(mk::Model& m, uint32_t q, int n) {
  int marks = 0;
  for (int i = 0; i < n; ++i) marks += m.decide(0, q, true, true) == mk::Verdict::Mark;
  return static_cast<double>(marks) / n;
}

// The paper's deployment: Kmin = 5 KB, Kmax = 200 KB, Pmax = 1%.
const mk::Profile kPaper = mk::Profile::red(5000, 200000, 0.01);

}  // namespace

TEST(MarkerProfile, PaperSettingRepresentedWithinOnePercentAtEveryQueueLength) {
  for (uint32_t q = 5001; q <= 200000; ++q) {
    const double want = 0.01 * (q - 5000) / 195000.0;
    ASSERT_NEAR(kPaper.probability(q), want, 0.01 * want) << "q = " << q;
  }
  // The mantissa is normalised: relative error of the slope below 2^-15.
  EXPECT_GE(kPaper.m, 0x8000u);
  const double slope = 0.01 / 195000.0;
  EXPECT_LT(std::fabs(std::ldexp(kPaper.m, -static_cast<int>(kPaper.e)) - slope) / slope, std::ldexp(1.0, -15));
}

TEST(MarkerProfile, RejectsNonsense) {
  EXPECT_THROW(mk::Profile::red(200, 100, 0.5), std::invalid_argument);   // Kmin > Kmax
  EXPECT_THROW(mk::Profile::red(100, 200, 1.5), std::invalid_argument);   // Pmax > 1
  EXPECT_THROW(mk::Profile::red(100, 200, -0.1), std::invalid_argument);  // Pmax < 0
  EXPECT_THROW(mk::Profile::red(100, 70000, 0.5, 16), std::invalid_argument);  // Kmax > 2^QW
  EXPECT_THROW(mk::Profile::red(0, 4000000000u, 1e-9), std::invalid_argument);  // below resolution
  try {
    mk::Profile::red(200, 100, 0.5);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("Kmin"), std::string::npos) << e.what();
  }
}

TEST(MarkerConfig, RejectsIllegalParameters) {
  mk::Config c;
  c.QW = 40;
  EXPECT_THROW(c.validate(), std::invalid_argument);
  c = mk::Config{};
  c.Queues = 1;
  EXPECT_THROW(mk::Model{c}, std::invalid_argument);
  EXPECT_THROW(mk::Config::from_params({{"Bogus", 1}}), std::invalid_argument);
}

TEST(MarkerDecide, ExactBehaviourAtAndAroundKminAndKmax) {
  auto m = make(kPaper);
  for (int i = 0; i < 20000; ++i) {
    ASSERT_EQ(m.decide(0, 0, true, true), mk::Verdict::Pass);
    ASSERT_EQ(m.decide(0, 4999, true, true), mk::Verdict::Pass);
    ASSERT_EQ(m.decide(0, 5000, true, true), mk::Verdict::Pass);  // q <= Kmin: p = 0
    ASSERT_EQ(m.decide(0, 200001, true, true), mk::Verdict::Mark);  // q > Kmax: p = 1
    ASSERT_EQ(m.decide(0, 1u << 23, true, true), mk::Verdict::Mark);
  }
  EXPECT_DOUBLE_EQ(kPaper.probability(5000), 0.0);
  EXPECT_NEAR(kPaper.probability(5001), 0.01 / 195000, 1e-12);
  EXPECT_NEAR(kPaper.probability(200000), 0.01, 1e-6);  // exactly Pmax at Kmax
  EXPECT_DOUBLE_EQ(kPaper.probability(200001), 1.0);
}

TEST(MarkerDecide, CutoffModeIsAStepAtK) {
  auto m = make(mk::Profile::cutoff(30000));
  for (int i = 0; i < 10000; ++i) {
    ASSERT_EQ(m.decide(0, 30000, true, true), mk::Verdict::Pass);
    ASSERT_EQ(m.decide(0, 30001, true, true), mk::Verdict::Mark);
  }
}

// Measured frequency over 10^6 decisions within 5 sigma of the formula.
class MarkerFrequency : public ::testing::TestWithParam<std::pair<uint32_t, double>> {};
TEST_P(MarkerFrequency, MatchesFormulaWithin5Sigma) {
  const auto [q, pmax] = GetParam();
  const mk::Profile p = mk::Profile::red(5000, 200000, pmax);
  auto m = make(p, 24, 1234 + q);
  const int n = 1000000;
  const double want = pmax * (q - 5000) / 195000.0;
  const double sigma = std::sqrt(want * (1 - want) / n);
  const double got = frequency(m, q, n);
  EXPECT_NEAR(got, want, 5 * sigma + 1e-9) << "q = " << q << " want " << want << " got " << got;
}
INSTANTIATE_TEST_SUITE_P(Marker, MarkerFrequency,
                         ::testing::Values(std::make_pair(10000u, 0.01), std::make_pair(102500u, 0.01),
                                           std::make_pair(200000u, 0.01), std::make_pair(50000u, 0.5),
                                           std::make_pair(150000u, 1.0)));

TEST(MarkerDecide, EctHandling) {
  mk::Profile p = mk::Profile::cutoff(1000);
  p.drop = true;
  auto m = make(p);
  EXPECT_EQ(m.decide(0, 5000, true, false), mk::Verdict::Mark);   // ECT: mark
  EXPECT_EQ(m.decide(0, 5000, false, true), mk::Verdict::Pass);   // lossless not-ECT: never dropped
  EXPECT_EQ(m.decide(0, 5000, false, false), mk::Verdict::Drop);  // lossy not-ECT: RED drop
  p.drop = false;
  m.set_profile(0, p);
  EXPECT_EQ(m.decide(0, 5000, false, false), mk::Verdict::Pass);  // drop disabled
  EXPECT_EQ(m.drops(), 1u);
  EXPECT_EQ(m.marks(), 1u);
  EXPECT_EQ(m.decisions(), 4u);
}

TEST(MarkerDecide, MarkingPointEnqueueOrDequeue) {
  mk::Profile p = mk::Profile::cutoff(1000);
  auto m = make(p);
  EXPECT_EQ(m.decide(0, 5000, true, true, /*deq=*/true), mk::Verdict::Pass);
  EXPECT_EQ(m.decide(0, 5000, true, true, /*deq=*/false), mk::Verdict::Mark);
  p.deq = true;
  m.set_profile(0, p);
  EXPECT_EQ(m.decide(0, 5000, true, true, true), mk::Verdict::Mark);
  EXPECT_EQ(m.decide(0, 5000, true, true, false), mk::Verdict::Pass);
}

TEST(MarkerDecide, EwmaFollowsSpecUpdateAndIgnoresDequeues) {
  mk::Profile p = mk::Profile::cutoff(1000);
  p.ewma = true;
  p.w = 2;  // avg += (q - avg) / 4
  // The decide_core arithmetic, checked against the spec's formula in 8-bit fixed point.
  uint64_t avg = 0;
  double ref = 0;
  for (uint32_t q : {4000u, 4000u, 4000u, 0u, 800u, 12000u}) {
    const auto r = mk::decide_core(p, 24, false, q, true, true, avg, 0);
    ref += (q - ref) / 4;
    EXPECT_NEAR(static_cast<double>(r.avg) / 256, ref, 1.0) << q;
    avg = r.avg;
  }
  // A dequeue event leaves the average unchanged (no decay while idle).
  EXPECT_EQ(mk::decide_core(p, 24, true, 0, true, true, avg, 0).avg, avg);
  // Marking uses the average: one arrival of a huge queue does not cross K at w = 4.
  p.w = 4;
  auto m = make(p);
  EXPECT_EQ(m.decide(0, 8000, true, true), mk::Verdict::Pass);  // avg = 500
  for (int i = 0; i < 40; ++i) m.decide(0, 8000, true, true);
  EXPECT_EQ(m.decide(0, 8000, true, true), mk::Verdict::Mark);  // avg converged above 1000
}

TEST(MarkerDecide, NonsenseRunTimeSettingsHaveOneBehaviour) {
  // Kmin > Kmax written straight to the registers: acts as a cut-off at Kmax.
  mk::Profile p;
  p.kmin = 9000;
  p.kmax = 3000;
  p.m = 1000;
  p.e = 20;
  p.enable = true;
  auto m = make(p);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(m.decide(0, 3000, true, true), mk::Verdict::Pass);
    ASSERT_EQ(m.decide(0, 3001, true, true), mk::Verdict::Mark);
  }
  // A slope whose probability passes 1 before Kmax saturates at 1.
  p.kmin = 0;
  p.kmax = 100000;
  p.m = 0xFFFF;
  p.e = 16;
  m.set_profile(0, p);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(m.decide(0, 2, true, true), mk::Verdict::Mark);
  EXPECT_DOUBLE_EQ(p.probability(50000), 1.0);
}

TEST(MarkerCounters, SaturateAtWidthAndClearThroughRegisters) {
  mk::Config c;
  c.Queues = 4;
  c.Profiles = 1;
  c.QW = 16;
  c.CntW = 3;
  mk::Model m(c);
  m.reset_transaction();
  m.set_profile(0, mk::Profile::cutoff(10, 16));
  for (int i = 0; i < 20; ++i) m.decide(1, 100, true, true);
  EXPECT_EQ(m.marks(), 7u);
  EXPECT_EQ(m.decisions(), 7u);
  // Clear through the register map on the cycle face.
  mk::Inputs in;
  in.cfg_we = true;
  in.cfg_addr = mk::regs::CNT_CLEAR;
  in.cfg_wdata = 2;  // marks only
  m.tick(in);
  EXPECT_EQ(m.marks(), 0u);
  EXPECT_EQ(m.decisions(), 7u);
  in = mk::Inputs{};
  in.cfg_re = true;
  in.cfg_addr = mk::regs::CNT_DECISIONS;
  m.tick(in);
  EXPECT_TRUE(m.eval(in).cfg_rvalid);
  EXPECT_EQ(m.eval(in).cfg_rdata, 7u);
}

TEST(MarkerCycle, ProfileCommitIsAtomicAndLatencyIsSix) {
  mk::Config c;
  c.Queues = 4;
  c.Profiles = 2;
  c.QW = 16;
  mk::Model m(c);
  mk::Inputs in;
  in.rst_n = false;
  m.tick(in);
  in.rst_n = true;
  int cycles = 0;
  while (!m.eval(in).init_done) {
    m.tick(in);
    ASSERT_LT(++cycles, 10);
  }
  EXPECT_EQ(cycles, 4);  // one sweep cycle per queue
  auto wr = [&](uint32_t a, uint32_t d) {
    mk::Inputs w;
    w.cfg_we = true;
    w.cfg_addr = a;
    w.cfg_wdata = d;
    m.tick(w);
  };
  const mk::Profile p = mk::Profile::cutoff(100, 16);
  wr(mk::regs::STAGE_KMIN, p.kmin);
  wr(mk::regs::STAGE_KMAX, p.kmax);
  wr(mk::regs::STAGE_SLOPE, p.slope_word());
  wr(mk::regs::STAGE_FLAGS, p.flags_word());
  EXPECT_FALSE(m.profile(0).enable);  // staged only
  wr(mk::regs::PROFILE_COMMIT, 0);
  EXPECT_TRUE(m.profile(0).enable);
  EXPECT_EQ(m.profile(0).kmax, 100u);
  mk::Inputs ev;
  ev.ev_valid = true;
  ev.ev_queue = 2;
  ev.ev_qlen = 500;
  ev.ev_ect = true;
  ASSERT_TRUE(m.eval(ev).ev_ready);
  m.tick(ev);
  mk::Inputs idle;
  for (int i = 0; i < 5; ++i) {
    EXPECT_FALSE(m.eval(idle).dec_valid) << i;
    m.tick(idle);
  }
  EXPECT_TRUE(m.eval(idle).dec_valid);  // six cycles after acceptance
  EXPECT_TRUE(m.eval(idle).dec_mark);
  EXPECT_EQ(m.eval(idle).dec_queue, 2u);
}

TEST(MarkerPrng, FreshDrawPerDecisionMatchesTwin) {
  ll::Prng a(42), b(42);
  const uint64_t first = a.draw();
  EXPECT_EQ(first, b.peek());
  b.advance();
  const uint64_t second = a.draw();
  EXPECT_EQ(second, b.peek());
  EXPECT_NE(second, first >> 1);
  EXPECT_NE(second, first << 1);
}
