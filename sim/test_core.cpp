// Event core, RNG and units.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <stdexcept>
#include <vector>

#include "sim/event_queue.h"
#include "sim/rng.h"
#include "sim/units.h"

namespace ll::sim {
namespace {

struct Recorder : EventHandler {
  Simulator* sim = nullptr;
  std::vector<std::pair<Time, uint64_t>> seen;
  void handle(const Event& ev) override { seen.emplace_back(sim->now(), ev.arg); }
};

TEST(EventQueue, RunsInTimeOrder) {
  Simulator sim;
  Recorder r;
  r.sim = &sim;
  sim.at(30, r, 0, 3);
  sim.at(10, r, 0, 1);
  sim.at(20, r, 0, 2);
  EXPECT_EQ(sim.run(), 3u);
  ASSERT_EQ(r.seen.size(), 3u);
  EXPECT_EQ(r.seen[0], std::make_pair(Time{10}, uint64_t{1}));
  EXPECT_EQ(r.seen[1], std::make_pair(Time{20}, uint64_t{2}));
  EXPECT_EQ(r.seen[2], std::make_pair(Time{30}, uint64_t{3}));
  EXPECT_EQ(sim.now(), 30u);
  EXPECT_TRUE(sim.empty());
}

TEST(EventQueue, EqualTimesRunInInsertionOrder) {
  Simulator sim;
  Recorder r;
  r.sim = &sim;
  for (uint64_t i = 0; i < 100; ++i) sim.at(5, r, 0, i);
  sim.run();
  ASSERT_EQ(r.seen.size(), 100u);
  for (uint64_t i = 0; i < 100; ++i) EXPECT_EQ(r.seen[i].second, i);
}

TEST(EventQueue, EventsScheduledNowRunAfterQueuedOnesOfTheSameTime) {
  Simulator sim;
  std::vector<int> order;
  sim.at(7, [&] {
    order.push_back(1);
    sim.after(0, [&] { order.push_back(3); });
  });
  sim.at(7, [&] { order.push_back(2); });
  sim.run();
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
}

TEST(EventQueue, RunUntilStopsAtTheLimitAndResumes) {
  Simulator sim;
  Recorder r;
  r.sim = &sim;
  sim.at(10, r, 0, 1);
  sim.at(20, r, 0, 2);
  sim.at(21, r, 0, 3);
  EXPECT_EQ(sim.run(20), 2u);  // <= until runs
  EXPECT_EQ(sim.now(), 20u);
  EXPECT_EQ(sim.pending(), 1u);
  EXPECT_EQ(sim.next_time(), 21u);
  EXPECT_EQ(sim.run(5), 0u);  // a limit in the past does nothing
  EXPECT_EQ(sim.now(), 20u);
  EXPECT_EQ(sim.run(15 * kUs), 1u);
  EXPECT_EQ(sim.now(), 21u);  // queue ran dry before the limit
  EXPECT_EQ(sim.executed(), 3u);
}

TEST(EventQueue, StopReturnsAfterTheCurrentEvent) {
  Simulator sim;
  int ran = 0;
  sim.at(1, [&] { ++ran; sim.stop(); });
  sim.at(2, [&] { ++ran; });
  EXPECT_EQ(sim.run(), 1u);
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(sim.run(), 1u);
  EXPECT_EQ(ran, 2);
}

TEST(EventQueue, RejectsThePastAndTheEndOfTime) {
  Simulator sim;
  Recorder r;
  r.sim = &sim;
  sim.at(100, r);
  sim.run();
  EXPECT_THROW(sim.at(99, r), std::logic_error);
  EXPECT_THROW(sim.at(99, [] {}), std::logic_error);
  EXPECT_THROW(sim.after(kNever - 50, r), std::overflow_error);
  EXPECT_NO_THROW(sim.at(100, r));  // "now" is allowed
}

TEST(EventQueue, ClosureSlotsAreReused) {
  Simulator sim;
  int n = 0;
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 10; ++i) sim.after(1, [&] { ++n; });
    sim.run();
    EXPECT_EQ(sim.closure_slots(), 10u) << "round " << round << ": slots of finished closures not reused";
  }
  EXPECT_EQ(n, 30);
  // a closure that schedules another while it runs: its own slot is already free
  sim.after(1, [&] { sim.after(1, [&] { ++n; }); });
  sim.run();
  EXPECT_EQ(n, 31);
  EXPECT_EQ(sim.closure_slots(), 10u);
}

// The same seed gives the same sequence of (time, value) pairs through the event core.
std::vector<std::pair<Time, uint64_t>> random_run(uint64_t seed) {
  Simulator sim;
  Rng rng(seed);
  std::vector<std::pair<Time, uint64_t>> out;
  std::function<void()> step = [&] {
    const uint64_t v = rng.below(1000);
    out.emplace_back(sim.now(), v);
    if (out.size() < 200) {
      sim.after(v % 7, step);  // many equal times: tie-breaking matters
      sim.after(v % 3, step);
    }
  };
  sim.at(0, step);
  sim.run();
  return out;
}

TEST(EventQueue, SameSeedSameRun) {
  EXPECT_EQ(random_run(42), random_run(42));
  EXPECT_NE(random_run(42), random_run(43));
}

TEST(Rng, KnownSplitmixOutput) {
  // splitmix64 from state 0: the published first output of the reference generator.
  Rng r(0);
  EXPECT_EQ(r.next(), 0xE220A8397B1DCDAFull);
}

TEST(Rng, BelowIsInRangeAndUniform) {
  Rng r(7);
  std::vector<int> hist(10, 0);
  for (int i = 0; i < 100000; ++i) {
    const uint64_t v = r.below(10);
    ASSERT_LT(v, 10u);
    ++hist[v];
  }
  double chi2 = 0;
  for (int h : hist) chi2 += (h - 10000.0) * (h - 10000.0) / 10000.0;
  EXPECT_LT(chi2, 30.0);  // 9 degrees of freedom: p < 0.001 above 27.9
  EXPECT_EQ(r.below(0), 0u);
  EXPECT_EQ(r.below(1), 0u);
  // A range that needs the rejection step: still in range.
  for (int i = 0; i < 1000; ++i) EXPECT_LT(r.below((1ull << 63) + 1), (1ull << 63) + 1);
}

TEST(Rng, UniformAndExponential) {
  Rng r(9);
  double sum = 0, sum_exp = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const double u = r.uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
    const double e = r.exponential(5.0);
    ASSERT_GE(e, 0.0);
    sum_exp += e;
  }
  EXPECT_NEAR(sum / n, 0.5, 0.005);
  EXPECT_NEAR(sum_exp / n, 5.0, 0.06);
}

TEST(Rng, ForksAreIndependentAndReproducible) {
  Rng a(1), b(1);
  Rng fa = a.fork(3), fb = b.fork(3);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(fa.next(), fb.next());
  Rng c(1);
  Rng f0 = c.fork(0);
  Rng d(1);
  Rng f1 = d.fork(1);
  EXPECT_NE(f0.next(), f1.next());
}

TEST(Units, ParseTime) {
  EXPECT_EQ(parse_time("10us"), 10 * kUs);
  EXPECT_EQ(parse_time("1.5 ms"), 1500 * kUs);
  EXPECT_EQ(parse_time("0.1us"), 100 * kNs);
  EXPECT_EQ(parse_time("7ps"), 7u);
  EXPECT_EQ(parse_time("2s"), 2 * kSec);
  for (const char* bad : {"", "10", "us", "-1us", "1e3us", "10 parsecs", "1.2.3us"}) {
    EXPECT_THROW(parse_time(bad), std::invalid_argument) << bad;
  }
}

TEST(Units, ParseRateAndBytes) {
  EXPECT_EQ(parse_rate("40G"), 40'000'000'000ull);
  EXPECT_EQ(parse_rate("40Gbps"), 40'000'000'000ull);
  EXPECT_EQ(parse_rate("2.5Gb/s"), 2'500'000'000ull);
  EXPECT_EQ(parse_rate("100M"), 100'000'000ull);
  EXPECT_EQ(parse_rate("9600bps"), 9600u);
  EXPECT_THROW(parse_rate("40"), std::invalid_argument);
  EXPECT_THROW(parse_rate("40Q"), std::invalid_argument);
  EXPECT_EQ(parse_bytes("1500"), 1500u);
  EXPECT_EQ(parse_bytes("2MB"), 2'000'000u);
  EXPECT_EQ(parse_bytes("10KB"), 10'000u);
  EXPECT_EQ(parse_bytes("64KiB"), 65536u);
  EXPECT_THROW(parse_bytes("2 furlongs"), std::invalid_argument);
  // decimal fractions that are whole bytes are exact; a fraction of a byte is refused
  EXPECT_EQ(parse_bytes("2.3MB"), 2'300'000u);
  EXPECT_EQ(parse_bytes("1.5KiB"), 1536u);
  EXPECT_EQ(parse_bytes("0.001KB"), 1u);
  EXPECT_THROW(parse_bytes("1.5B"), std::invalid_argument);
  EXPECT_THROW(parse_bytes("1.0005KB"), std::invalid_argument);
  EXPECT_THROW(parse_bytes("0.3"), std::invalid_argument);
  EXPECT_THROW(parse_bytes("1.0000001KB"), std::invalid_argument);  // no tolerance to hide it in
  EXPECT_THROW(parse_bytes("0.0000001KB"), std::invalid_argument);
  EXPECT_THROW(parse_bytes("0.1KiB"), std::invalid_argument);       // 102.4 B
  EXPECT_EQ(parse_bytes("0.25KiB"), 256u);
  EXPECT_EQ(parse_bytes("0.0009765625MiB"), 1024u);                 // 2^-10 MiB
  EXPECT_EQ(parse_bytes("2.500000MB"), 2'500'000u);                 // trailing zeros are nothing
}

TEST(Units, SerializationTimeRoundsUp) {
  EXPECT_EQ(serialization_time(1500, 10'000'000'000ull), 1200 * kNs);
  EXPECT_EQ(serialization_time(1, 3), 2666666666667ull);  // 8/3 s, rounded up
  EXPECT_EQ(serialization_time(1'000'000'000'000ull, 1), kNever);  // saturates
}

TEST(Units, Format) {
  EXPECT_EQ(format_time(1500 * kNs), "1.5 us");
  EXPECT_EQ(format_rate(40'000'000'000ull), "40 Gb/s");
  EXPECT_EQ(format_bytes(2e6), "2 MB");
}

}  // namespace
}  // namespace ll::sim
