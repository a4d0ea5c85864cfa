// GoogleTest of the DRILL selector model against docs/drill.md (the DRILL paper's DRILL(d, m)).
// Statistical checks use a fixed seed and a 5-sigma band per bin (binomial sigma).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "common/bits.h"
#include "drill/drill.h"

namespace dr = ll::drill;

namespace {

dr::Model make(dr::Config c, dr::Mode mode) {
  dr::Model m(c);
  m.reset_transaction();
  m.set_mode(mode);
  return m;
}

dr::Config cfg(unsigned ports, unsigned d, unsigned m, unsigned engines = 1) {
  dr::Config c;
  c.Ports = ports;
  c.D = d;
  c.M = m;
  c.Engines = engines;
  c.Seed = 0x5EED0001;
  return c;
}

// splitmix64 for test stimulus
struct Gen {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t below(uint64_t n) { return static_cast<uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64); }
};

// binomial 5-sigma band
void expect_binomial(uint64_t count, uint64_t n, double p, const std::string& what) {
  const double mean = n * p, sigma = std::sqrt(n * p * (1 - p));
  EXPECT_LE(std::fabs(count - mean), 5 * sigma + 1e-9) << what << ": count " << count << " expected " << mean;
}

std::vector<uint32_t> flat(unsigned ports, uint32_t v = 0) { return std::vector<uint32_t>(ports, v); }

uint64_t random_mask(Gen& g, unsigned ports) {
  const unsigned kind = static_cast<unsigned>(g.below(4));
  uint64_t m = 0;
  if (kind == 0) m = 1ull << g.below(ports);                       // single
  else if (kind == 1) m = g.next() & g.next() & g.next();          // sparse
  else if (kind == 2) m = g.next() | g.next();                     // dense
  else m = g.next();
  return m & ll::low_mask(ports);
}

}  // namespace

// ------------------------------------------------------------------ configuration

TEST(DrillConfig, RejectsIllegalParametersNamingThem) {
  auto bad = [](auto mutate, const char* word) {
    dr::Config c;
    mutate(c);
    try {
      c.validate();
      ADD_FAILURE() << "accepted: " << word;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(word), std::string::npos) << e.what();
    }
  };
  bad([](dr::Config& c) { c.Ports = 65; }, "Ports");
  bad([](dr::Config& c) { c.Ports = 1; }, "Ports");
  bad([](dr::Config& c) { c.D = 0; }, "D must");
  bad([](dr::Config& c) { c.D = 16; }, "D must");
  bad([](dr::Config& c) { c.Ports = 64; c.D = 4; c.M = 33; }, "M must");
  bad([](dr::Config& c) { c.HashW = 6; }, "HashW");
  bad([](dr::Config& c) { c.FlowEntries = 48; }, "FlowEntries");
  bad([](dr::Config& c) { c.HashW = 8; c.FlowEntries = 256; }, "HashW must exceed");
  bad([](dr::Config& c) { c.Groups = 1; }, "Groups");
  bad([](dr::Config& c) { c.OccLag = 0; }, "OccLag");
  bad([](dr::Config& c) { c.CntW = 33; }, "CntW");
  bad([](dr::Config& c) { c.Engines = 0; }, "Engines");
  EXPECT_THROW(dr::Config::from_params({{"Bogus", 1}}), std::invalid_argument);
  dr::Config ok;
  ok.Ports = 64;
  ok.D = 15;  // 15 * 16 = 240 random bits: the widest draw, four PRNG words
  EXPECT_NO_THROW(ok.validate());
  EXPECT_EQ(ok.rnd_words(), 4u);
  ok.D = 4;  // 4 * 16 = 64 bits: one word
  EXPECT_EQ(ok.rnd_words(), 1u);
}

// ------------------------------------------------------------------ sampling

// The rank of a draw is floor(r * n / 2^B) with B = clog2(Ports) + 10: every one of n
// candidates gets floor or ceil of 2^B / n draws, so its probability is within n / 2^B
// <= 2^-10 relative of 1/n. Checked exactly for every set size and every Ports.
TEST(DrillSampling, RankProbabilityWithinTwoToMinusTenOfUniformForEverySetSize) {
  for (unsigned ports = 2; ports <= 64; ++ports) {
    dr::Config c = cfg(ports, 1, 0);
    const unsigned B = c.rand_bits();
    const uint64_t R = 1ull << B;
    for (unsigned n = 1; n <= ports; ++n) {
      for (unsigned k = 0; k < n; ++k) {
        // draws r with floor(r*n/R) == k: r in [ceil(k R / n), ceil((k+1) R / n))
        const uint64_t lo = (k * R + n - 1) / n, hi = ((k + 1) * R + n - 1) / n;
        ASSERT_EQ(dr::scale(lo, n, B), k);
        ASSERT_EQ(dr::scale(hi - 1, n, B), k);
        const double p = static_cast<double>(hi - lo) / R;
        ASSERT_LE(std::fabs(p * n - 1.0), std::ldexp(1.0, -10)) << "ports " << ports << " n " << n << " k " << k;
      }
    }
  }
}

TEST(DrillSampling, RandomModeUniformOverCandidateSetOfAnySize) {
  Gen g{11};
  for (unsigned ports : {8u, 48u, 64u}) {
    dr::Model m = make(cfg(ports, 1, 0), dr::Mode::Random);
    for (int trial = 0; trial < 4; ++trial) {
      uint64_t set = random_mask(g, ports);
      if (trial == 0) set = ll::low_mask(ports);
      if (set == 0) set = 1;
      const unsigned n = dr::popcount(set);
      const uint64_t draws = 4000ull * n;
      std::map<int, uint64_t> count;
      for (uint64_t i = 0; i < draws; ++i) count[m.choose(0, static_cast<uint32_t>(i), set, flat(ports))]++;
      for (unsigned p = 0; p < ports; ++p) {
        if ((set >> p) & 1) expect_binomial(count[p], draws, 1.0 / n, "port " + std::to_string(p));
        else EXPECT_EQ(count[p], 0u) << "non-candidate " << p;
      }
    }
  }
}

// d samples are drawn without replacement: with |set| = d = 2 both candidates are always
// sampled, so DRILL(2,0) always finds the less loaded one.
TEST(DrillSampling, SamplesAreDrawnWithoutReplacement) {
  dr::Model m = make(cfg(16, 2, 0), dr::Mode::Drill);
  auto occ = flat(16, 100);
  occ[3] = 5;
  occ[12] = 9;
  const uint64_t set = (1ull << 3) | (1ull << 12);
  for (int i = 0; i < 5000; ++i) ASSERT_EQ(m.choose(0, i, set, occ), 3);
  // and pairs of distinct samples are uniform over the 6 unordered pairs of a 4-set:
  // with DRILL(2,0) and strictly increasing loads the winner is the lower-loaded of the pair
  dr::Model m4 = make(cfg(16, 2, 0), dr::Mode::Drill);
  auto occ4 = flat(16, 0);
  const unsigned ports[4] = {1, 4, 6, 15};
  for (unsigned i = 0; i < 4; ++i) occ4[ports[i]] = 10 * (i + 1);
  uint64_t set4 = 0;
  for (unsigned p : ports) set4 |= 1ull << p;
  std::map<int, uint64_t> c;
  const uint64_t n = 60000;
  for (uint64_t i = 0; i < n; ++i) c[m4.choose(0, 0, set4, occ4)]++;
  // P(winner = i-th least loaded) = (number of pairs whose minimum is i) / 6 = 3,2,1,0 / 6
  expect_binomial(c[1], n, 3.0 / 6, "least loaded");
  expect_binomial(c[4], n, 2.0 / 6, "second");
  expect_binomial(c[6], n, 1.0 / 6, "third");
  EXPECT_EQ(c[15], 0u) << "the most loaded port can only win if sampled twice";
}

// ------------------------------------------------------------------ never a non-candidate

TEST(DrillModes, NeverPicksANonCandidateInAnyMode) {
  Gen g{5};
  for (unsigned ports : {2u, 5u, 16u, 48u, 64u}) {
    for (unsigned mode = 0; mode <= 4; ++mode) {
      dr::Config c = cfg(ports, ports >= 48 ? 2 : 3, 2, 2);
      dr::Model m = make(c, static_cast<dr::Mode>(mode));
      std::vector<uint32_t> occ(ports);
      for (int i = 0; i < 3000; ++i) {
        for (auto& o : occ) o = static_cast<uint32_t>(g.below(4));
        const uint64_t set = random_mask(g, ports);
        const int p = m.choose(static_cast<unsigned>(i & 1), static_cast<uint32_t>(g.below(64)), set, occ);
        if (set == 0) {
          ASSERT_EQ(p, -1);
        } else {
          ASSERT_GE(p, 0);
          ASSERT_TRUE((set >> p) & 1) << "mode " << mode << " ports " << ports << " picked " << p;
        }
      }
    }
  }
}

// ------------------------------------------------------------------ DRILL(d, m)

// Independent re-derivation of the samples from the documented rule (docs/drill.md):
// the draw is the concatenation, most significant first, of the engine's PRNG words
// (word 0 seeded derive_seed(Seed, engine), word w > 0 derive_seed(that seed, w); as many
// words as D * B bits need); sample j uses the B-bit field starting jB bits below the top;
// rank_j = floor(field * (n - j) / 2^B), then skipping the ranks already drawn.
std::vector<unsigned> expected_samples(std::vector<ll::Prng>& words, uint64_t set, unsigned d, unsigned B) {
  std::vector<bool> bits;  // the draw, bit by bit from the top of word 0
  for (auto& w : words) {
    const uint64_t r = w.draw();
    for (int b = 63; b >= 0; --b) bits.push_back((r >> b) & 1);
  }
  const unsigned n = dr::popcount(set);
  std::vector<unsigned> sorted, ports;
  for (unsigned j = 0; j < d && j < n; ++j) {
    uint64_t field = 0;
    for (unsigned b = 0; b < B; ++b) field = (field << 1) | bits.at(j * B + b);
    unsigned k = static_cast<unsigned>((static_cast<unsigned __int128>(field) * (n - j)) >> B);
    for (unsigned s : sorted) k += (k >= s);
    sorted.push_back(k);
    std::sort(sorted.begin(), sorted.end());
    ports.push_back(dr::kth_set_bit(set, k));
  }
  return ports;
}

TEST(DrillDecision, PicksTheLeastLoadedOfSamplesAndMemoryWithDocumentedTieBreak) {
  Gen g{21};
  struct Shape { unsigned ports, d; };
  // one-word draws, and wide ones: 12 x 15 bits over three words (fields cross word
  // boundaries), 12 x 16 bits (fields end on them), 15 x 15 bits over four words
  for (const Shape sh : {Shape{32, 2}, Shape{32, 12}, Shape{48, 12}, Shape{20, 15}})
  for (unsigned mm : {0u, 1u, 2u}) {
    dr::Config c = cfg(sh.ports, sh.d, mm);
    dr::Model m = make(c, dr::Mode::Drill);
    const unsigned nwords = (c.D * c.rand_bits() + 63) / 64;
    std::vector<ll::Prng> ref{ll::Prng(ll::derive_seed(c.Seed, 0))};
    for (unsigned w = 1; w < nwords; ++w) ref.emplace_back(ll::derive_seed(ref[0].seed(), w));
    std::vector<uint32_t> occ(sh.ports);
    const int decisions = sh.d > 2 ? 5000 : 20000;
    for (int i = 0; i < decisions; ++i) {
      for (auto& o : occ) o = static_cast<uint32_t>(g.below(i % 3 == 0 ? 3 : 1000));  // many ties sometimes
      uint64_t set = random_mask(g, sh.ports);
      const auto mem = m.memory(0);
      const auto samples = expected_samples(ref, set, c.D, c.rand_bits());
      // candidates in tie-break order: samples in draw order, then memory in slot order
      std::vector<unsigned> cand = samples;
      for (int p : mem)
        if (((set >> p) & 1) && std::find(cand.begin(), cand.end(), static_cast<unsigned>(p)) == cand.end())
          cand.push_back(static_cast<unsigned>(p));
      const int got = m.choose(0, 0, set, occ);
      if (set == 0) {
        ASSERT_EQ(got, -1);
        continue;
      }
      unsigned best = cand[0];
      for (unsigned p : cand)
        if (occ[p] < occ[best]) best = p;  // strict: the first of equals wins
      ASSERT_EQ(got, static_cast<int>(best)) << "ports " << sh.ports << " d " << sh.d << " decision " << i;
      // memory update rule: the m least loaded (same order) among samples and in-set memory
      std::vector<unsigned> order = cand;
      std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) { return occ[a] < occ[b]; });
      std::vector<int> want;
      for (unsigned r = 0; r < mm && r < order.size(); ++r) want.push_back(static_cast<int>(order[r]));
      ASSERT_EQ(m.memory(0), want) << "ports " << sh.ports << " d " << sh.d << " decision " << i;
    }
  }
}

TEST(DrillDecision, MemoryEntryOutsideTheCandidateSetIsIgnored) {
  dr::Model m = make(cfg(16, 1, 1), dr::Mode::Drill);
  auto occ = flat(16, 50);
  occ[2] = 0;  // port 2 is by far the least loaded
  // decisions within {2,3}: memory ends up holding port 2
  for (int i = 0; i < 20; ++i) m.choose(0, 0, 0b1100, occ);
  ASSERT_EQ(m.memory(0), std::vector<int>{2});
  // a packet whose candidates exclude port 2 must not go there
  const int p = m.choose(0, 0, 0xF000, occ);
  EXPECT_TRUE(p >= 12 && p <= 15);
  EXPECT_EQ(m.last(0).mem_outside, 1u);
  EXPECT_EQ(m.memory(0), std::vector<int>{p});
}

TEST(DrillDecision, MemoryMakesDrillOneOneFindTheMinimum) {
  // DRILL(1,1) with a fixed set and static loads: the memory keeps the best port seen,
  // so after enough samples every packet goes to the least loaded port.
  dr::Model m = make(cfg(48, 1, 1), dr::Mode::Drill);
  std::vector<uint32_t> occ(48);
  for (unsigned p = 0; p < 48; ++p) occ[p] = 1000 + p * 7 % 48;
  occ[31] = 3;
  const uint64_t set = ll::low_mask(48);
  for (int i = 0; i < 1000; ++i) m.choose(0, 0, set, occ);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(m.choose(0, 0, set, occ), 31);
}

TEST(DrillDecision, EnginesHaveIndependentStreamsAndMemories) {
  // streams: in Random mode the four engines draw different sequences
  dr::Model m = make(cfg(32, 2, 1, 4), dr::Mode::Random);
  std::vector<std::vector<int>> seq(4);
  for (int i = 0; i < 64; ++i)
    for (unsigned e = 0; e < 4; ++e) seq[e].push_back(m.choose(e, 0, ll::low_mask(32), flat(32)));
  for (unsigned a = 0; a < 4; ++a)
    for (unsigned b = a + 1; b < 4; ++b) EXPECT_NE(seq[a], seq[b]);

  // memories, in DRILL mode: each engine sees its own least-loaded port (engine e: port
  // 3 + 7e) and remembers it; decisions on one engine never touch another's memory
  dr::Model d = make(cfg(32, 2, 1, 4), dr::Mode::Drill);
  auto occ_for = [](unsigned e) {
    std::vector<uint32_t> o(32, 1000);
    o[3 + 7 * e] = 1;
    return o;
  };
  for (int i = 0; i < 200; ++i)
    for (unsigned e = 0; e < 4; ++e) d.choose(e, 0, ll::low_mask(32), occ_for(e));
  for (unsigned e = 0; e < 4; ++e) {
    ASSERT_EQ(d.memory(e), std::vector<int>{static_cast<int>(3 + 7 * e)}) << "engine " << e;
    EXPECT_EQ(d.choose(e, 0, ll::low_mask(32), occ_for(e)), static_cast<int>(3 + 7 * e)) << "engine " << e;
  }
  const std::vector<int> before = d.memory(1);
  std::vector<uint32_t> other(32, 1000);
  other[30] = 0;
  for (int i = 0; i < 200; ++i) d.choose(0, 0, ll::low_mask(32), other);
  EXPECT_EQ(d.memory(0), std::vector<int>{30});
  EXPECT_EQ(d.memory(1), before) << "engine 0's decisions changed engine 1's memory";
}

// ------------------------------------------------------------------ baselines

TEST(DrillModes, RoundRobinCyclesThroughTheCandidateSet) {
  dr::Model m = make(cfg(16, 2, 1), dr::Mode::RoundRobin);
  const uint64_t set = 0b1010'0110'0001'0010;
  std::vector<int> members;
  for (unsigned p = 0; p < 16; ++p)
    if ((set >> p) & 1) members.push_back(static_cast<int>(p));
  for (int round = 0; round < 5; ++round)
    for (int want : members) ASSERT_EQ(m.choose(0, 12345, set, flat(16)), want);
  // a smaller set: the counter wraps into the new set and keeps cycling through it
  const uint64_t small = 0b0110'0000;
  std::map<int, int> seen;
  for (int i = 0; i < 10; ++i) seen[m.choose(0, 0, small, flat(16))]++;
  EXPECT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[5], 5);
  EXPECT_EQ(seen[6], 5);
}

TEST(DrillModes, EcmpIsStablePerFlowAndSpreadsFlows) {
  dr::Model m = make(cfg(48, 2, 1), dr::Mode::Ecmp);
  Gen g{3};
  const uint64_t set = ll::low_mask(48) & ~0xF0ull;  // 44 candidates
  std::map<uint32_t, int> first;
  std::map<int, uint64_t> count;
  const uint64_t flows = 44 * 2000;
  for (uint64_t f = 0; f < flows; ++f) {
    const uint32_t h = static_cast<uint32_t>(g.next() & 0xFFFF);
    auto occ = flat(48, static_cast<uint32_t>(g.below(100)));  // load must not matter
    const int p = m.choose(0, h, set, occ);
    auto it = first.find(h);
    if (it == first.end()) first[h] = p;
    else ASSERT_EQ(p, it->second) << "flow " << h << " moved";
    count[p]++;
  }
  for (unsigned p = 0; p < 48; ++p) {
    if ((set >> p) & 1) expect_binomial(count[p], flows, 1.0 / 44, "ecmp port " + std::to_string(p));
    else EXPECT_EQ(count[p], 0u);
  }
}

TEST(DrillModes, PerFlowDrillPinsAFlowAfterALoadAwareFirstPacket) {
  dr::Model m = make(cfg(8, 2, 1), dr::Mode::PerFlow);
  auto occ = flat(8, 10);
  occ[6] = 0;
  const uint64_t set = 0xFF;
  // first packet of flow 0x1234: load-aware (DRILL); repeat until a pin to port 6 exists
  int p0 = m.choose(0, 0x1234, set, occ);
  EXPECT_EQ(m.last(0).kind, static_cast<unsigned>(dr::kKindFlowNew));
  // later packets follow the pin, whatever the load does
  occ.assign(8, 0);
  occ[p0] = 1000;
  for (int i = 0; i < 50; ++i) {
    ASSERT_EQ(m.choose(0, 0x1234, set, occ), p0);
    ASSERT_EQ(m.last(0).kind, static_cast<unsigned>(dr::kKindFlowPinned));
  }
  // the pinned port leaves the candidate set: a fresh load-aware decision re-pins the flow
  const uint64_t without = set & ~(1ull << p0);
  const int p1 = m.choose(0, 0x1234, without, occ);
  EXPECT_NE(p1, p0);
  EXPECT_TRUE(m.last(0).repin);
  EXPECT_EQ(m.choose(0, 0x1234, set, occ), p1);
  // a different flow in the same table entry (same low bits, other tag) is a new flow
  m.choose(0, 0x1234 ^ 0x4000, set, occ);
  EXPECT_EQ(m.last(0).kind, static_cast<unsigned>(dr::kKindFlowNew));
  EXPECT_EQ(m.kind_count(dr::kKindFlowPinned), 51u);
}

TEST(DrillModes, AllEqualOccupanciesSpreadLikeRandomBecauseSamplesWinTies) {
  dr::Model m = make(cfg(16, 2, 1), dr::Mode::Drill);
  std::map<int, uint64_t> count;
  const uint64_t n = 32000;
  for (uint64_t i = 0; i < n; ++i) count[m.choose(0, 0, 0xFFFF, flat(16, 7))]++;
  for (unsigned p = 0; p < 16; ++p) expect_binomial(count[p], n, 1.0 / 16, "tie spread " + std::to_string(p));
}

// ------------------------------------------------------------------ components

TEST(DrillComponents, WeightsHonouredAndDrillStaysInsideTheComponent) {
  dr::Config c = cfg(16, 2, 1);
  c.Groups = 4;
  c.Comps = 8;
  dr::Model m = make(c, dr::Mode::Drill);
  m.set_component(0, 0x000F);
  m.set_component(1, 0x00F0);
  m.set_component(2, 0x0F00);
  m.set_component(5, 0xF000);
  dr::GroupRow row;
  row.weight = {10, 20, 0, 50};
  row.comp = {0, 1, 2, 5};
  m.set_group(2, row);
  Gen g{9};
  std::map<unsigned, uint64_t> per;
  const uint64_t n = 80000;
  for (uint64_t i = 0; i < n; ++i) {
    const uint32_t h = static_cast<uint32_t>(g.next() & 0xFFFF);
    const int p = m.choose_group(0, h, 2, flat(16));
    ASSERT_GE(p, 0);
    per[static_cast<unsigned>(p) / 4]++;
    // stable per flow: the component is a function of the hash only
    const auto again = dr::choose_component(c, row.word(), h);
    ASSERT_EQ(m.last(0).grp_slot, again.slot);
  }
  expect_binomial(per[0], n, 10.0 / 80, "component 0");
  expect_binomial(per[1], n, 20.0 / 80, "component 1");
  EXPECT_EQ(per[2], 0u) << "weight 0";
  expect_binomial(per[3], n, 50.0 / 80, "component 5");
  // an unconfigured group (all weights 0) and a component index >= Comps give no set
  EXPECT_EQ(m.choose_group(0, 1, 1, flat(16)), -1);
  row.weight = {1, 0, 0, 0};
  row.comp = {9, 0, 0, 0};
  m.set_group(3, row);
  EXPECT_EQ(m.choose_group(0, 1, 3, flat(16)), -1);
}

// ------------------------------------------------------------------ cycle face

namespace {

struct Cycle {
  dr::Model& m;
  dr::Inputs in;
  explicit Cycle(dr::Model& model) : m(model) {}
  dr::Outputs step() {
    const dr::Outputs o = m.eval(in);
    m.tick(in);
    return o;
  }
  void reset_and_init() {
    in = dr::Inputs{};
    in.rst_n = false;
    for (int i = 0; i < 3; ++i) step();
    in.rst_n = true;
    while (!m.eval(in).init_done) step();
  }
  void write(uint32_t addr, uint32_t data) {
    in.cfg_we = true;
    in.cfg_addr = addr;
    in.cfg_wdata = data;
    step();
    in.cfg_we = false;
  }
  uint32_t read(uint32_t addr) {
    in.cfg_re = true;
    in.cfg_addr = addr;
    step();
    in.cfg_re = false;
    const auto o = step();
    EXPECT_TRUE(o.cfg_rvalid);
    return o.cfg_rdata;
  }
};

}  // namespace

TEST(DrillCycle, FixedLatencyAndSameDecisionsAsTheTransactionFace) {
  for (unsigned groups : {0u, 4u}) {
    for (unsigned mode = 0; mode <= 4; ++mode) {
      dr::Config c = cfg(24, 2, 2, 2);
      c.Groups = groups;
      c.FlowEntries = 16;
      dr::Model cyc(c), txn(c);
      Cycle t(cyc);
      t.reset_and_init();
      t.write(dr::regs::STAGE_MODE, mode);
      t.write(dr::regs::MODE_COMMIT, 0);
      txn.reset_transaction();
      txn.set_mode(static_cast<dr::Mode>(mode));
      Gen g{100 + mode};
      if (groups > 0) {  // the same tables through the registers and the transaction face
        for (unsigned i = 0; i < c.Comps; ++i) {
          const uint64_t mask = g.next() & ll::low_mask(24);
          t.write(dr::regs::STAGE_MASK_LO, static_cast<uint32_t>(mask));
          t.write(dr::regs::STAGE_MASK_HI, static_cast<uint32_t>(mask >> 32));
          t.write(dr::regs::COMP_COMMIT, i);
          txn.set_component(i, mask);
        }
        for (unsigned i = 0; i < groups; ++i) {
          dr::GroupRow row;
          for (unsigned k = 0; k < 4; ++k) {
            row.weight[k] = static_cast<uint8_t>(g.below(4) ? g.below(256) : 0);
            row.comp[k] = static_cast<uint8_t>(g.below(c.Comps + 1));
          }
          t.write(dr::regs::STAGE_GROUP_WEIGHTS, static_cast<uint32_t>(row.word()));
          t.write(dr::regs::STAGE_GROUP_COMPS, static_cast<uint32_t>(row.word() >> 32));
          t.write(dr::regs::GROUP_COMMIT, i);
          txn.set_group(i, row);
        }
      }
      // a static occupancy view, loaded through the update port
      std::vector<uint32_t> occ(24);
      for (unsigned p = 0; p < 24; ++p) {
        occ[p] = static_cast<uint32_t>(g.below(5));
        t.in.occ_we = true;
        t.in.occ_port = p;
        t.in.occ_value = occ[p];
        t.step();
      }
      t.in.occ_we = false;
      for (int i = 0; i < 8; ++i) t.step();
      // back-to-back packets on both engines (few flows: forwarding of the flow table)
      std::vector<std::vector<int>> want(2), got(2);
      std::vector<std::vector<uint64_t>> sent_at(2), out_at(2);
      const int packets = 3000;
      uint64_t cycle = 0;
      for (int i = 0; i < packets + 10; ++i, ++cycle) {
        for (unsigned e = 0; e < 2; ++e) {
          const bool v = i < packets && g.below(4) != 0;
          t.in.valid[e] = v;
          t.in.hash[e] = static_cast<uint32_t>(g.below(6)) * 0x111;
          t.in.mask[e] = random_mask(g, 24);
          t.in.grp_en[e] = groups > 0 && g.below(3) == 0;
          t.in.grp[e] = static_cast<uint32_t>(g.below(groups > 0 ? groups : 1));
          if (v) {
            want[e].push_back(t.in.grp_en[e] ? txn.choose_group(e, t.in.hash[e], t.in.grp[e], occ)
                                             : txn.choose(e, t.in.hash[e], t.in.mask[e], occ));
            sent_at[e].push_back(cycle);
          }
        }
        const auto o = t.step();
        for (unsigned e = 0; e < 2; ++e) {
          if (o.out_valid[e]) {
            got[e].push_back(o.out_empty[e] ? -1 : static_cast<int>(o.out_port[e]));
            out_at[e].push_back(cycle);
          }
        }
      }
      for (unsigned e = 0; e < 2; ++e) {
        ASSERT_EQ(got[e], want[e]) << "mode " << mode << " groups " << groups << " engine " << e;
        for (size_t k = 0; k < sent_at[e].size(); ++k) ASSERT_EQ(out_at[e][k] - sent_at[e][k], c.latency());
      }
      for (unsigned p = 0; p < 24; ++p) ASSERT_EQ(cyc.port_count(p), txn.port_count(p));
      for (unsigned k = 0; k < dr::kKinds; ++k) ASSERT_EQ(cyc.kind_count(k), txn.kind_count(k));
    }
  }
}

// An occupancy update presented in cycle u is seen by a packet accepted in cycle t
// iff u <= t + Latency - 1 - OccLag.
TEST(DrillCycle, OccupancyStalenessIsExactlyAsDocumented) {
  for (unsigned lag : {1u, 3u}) {
    dr::Config c = cfg(2, 2, 0);
    c.OccLag = lag;
    c.Groups = 0;
    const int L = static_cast<int>(c.latency());
    for (int delta = -2; delta <= L + 2; ++delta) {  // update at cycle t + delta
      dr::Model m(c);
      Cycle t(m);
      t.reset_and_init();
      t.in.occ_we = true;  // port 0 busy, port 1 idle
      t.in.occ_port = 0;
      t.in.occ_value = 9;
      t.step();
      t.in.occ_we = false;
      for (int i = 0; i < 12; ++i) t.step();
      // packet at cycle T (both ports sampled: picks the less loaded); update flips port 1 to 20
      int out = -1;
      for (int k = -4; k <= L + 4; ++k) {
        t.in.valid[0] = (k == 0);
        t.in.mask[0] = 0b11;
        t.in.occ_we = (k == delta);
        t.in.occ_port = 1;
        t.in.occ_value = 20;
        const auto o = t.step();
        if (o.out_valid[0]) out = static_cast<int>(o.out_port[0]);
      }
      const bool seen = delta <= L - 1 - static_cast<int>(lag);
      EXPECT_EQ(out, seen ? 0 : 1) << "lag " << lag << " delta " << delta;
    }
  }
}

TEST(DrillCycle, RegisterMapCommitsCountersAndClears) {
  dr::Config c = cfg(8, 2, 1, 2);
  c.CntW = 4;
  dr::Model m(c);
  Cycle t(m);
  t.in.rst_n = false;
  t.step();
  t.in.rst_n = true;
  // writes before init_done are ignored
  ASSERT_FALSE(m.eval(t.in).init_done);
  t.write(dr::regs::STAGE_MASK_LO, 0xAB);
  while (!m.eval(t.in).init_done) t.step();
  EXPECT_EQ(t.read(dr::regs::STAGE_MASK_LO), 0u);
  EXPECT_EQ(t.read(dr::regs::ID), dr::regs::ID_VALUE);
  const uint32_t params = t.read(dr::regs::PARAMS);
  EXPECT_EQ(params & 0xFF, 8u);
  EXPECT_EQ((params >> dr::regs::PARAMS_LATENCY_LSB) & 0xF, c.latency());
  EXPECT_EQ((t.read(dr::regs::STATUS) >> 1) & 7, 3u);  // reset mode: DRILL
  // an illegal staged mode is not committed
  t.write(dr::regs::STAGE_MODE, 6);
  t.write(dr::regs::MODE_COMMIT, 0);
  EXPECT_EQ((t.read(dr::regs::STATUS) >> 1) & 7, 3u);
  t.write(dr::regs::STAGE_MODE, 2);
  EXPECT_EQ((t.read(dr::regs::STATUS) >> 1) & 7, 3u);  // staged only
  t.write(dr::regs::MODE_COMMIT, 0);
  EXPECT_EQ((t.read(dr::regs::STATUS) >> 1) & 7, 2u);
  // RR on a single port from both engines: 2 decisions per cycle on port 5
  for (int i = 0; i < 5; ++i) {
    t.in.valid = {true, true, false, false};
    t.in.mask = {0x20, 0x20, 0, 0};
    t.step();
  }
  t.in.valid = {};
  for (int i = 0; i < 8; ++i) t.step();
  EXPECT_EQ(t.read(dr::regs::CNT_PORT_BASE + 4 * 5), 10u);
  EXPECT_EQ(t.read(dr::regs::CNT_RR), 10u);
  for (int i = 0; i < 5; ++i) {
    t.in.valid = {true, true, false, false};
    t.step();
  }
  t.in.valid = {};
  for (int i = 0; i < 8; ++i) t.step();
  EXPECT_EQ(t.read(dr::regs::CNT_PORT_BASE + 4 * 5), 15u) << "saturates at 2^CntW - 1";
  // empty candidate sets count as EMPTY, not on a port
  t.in.valid = {true, false, false, false};
  t.in.mask = {0, 0, 0, 0};
  t.step();
  t.in.valid = {};
  for (int i = 0; i < 8; ++i) t.step();
  EXPECT_EQ(t.read(dr::regs::CNT_EMPTY), 1u);
  // clear: a 1 in the port's bit; other ports untouched
  t.write(dr::regs::CNT_PORT_CLEAR_LO, 1u << 5);
  EXPECT_EQ(t.read(dr::regs::CNT_PORT_BASE + 4 * 5), 0u);
  t.write(dr::regs::CNT_CLEAR, 1u << dr::kKindRr);
  EXPECT_EQ(t.read(dr::regs::CNT_RR), 0u);
  EXPECT_EQ(t.read(dr::regs::CNT_EMPTY), 1u);
  // clear beats a same-cycle increment
  t.in.valid = {true, false, false, false};
  t.in.mask = {0x20, 0, 0, 0};
  t.step();
  t.in.valid = {};
  for (int i = 0; i < static_cast<int>(c.latency()) - 1; ++i) t.step();
  // the decision is in the output register now: it is counted at this edge
  t.write(dr::regs::CNT_PORT_CLEAR_LO, 1u << 5);
  EXPECT_EQ(t.read(dr::regs::CNT_PORT_BASE + 4 * 5), 0u);
  // unmapped reads return 0
  EXPECT_EQ(t.read(0x0FC), 0u);
  EXPECT_EQ(t.read(dr::regs::CNT_PORT_BASE + 4 * 8), 0u);
}

TEST(DrillCycle, TableCommitsThroughTheRegisterMap) {
  dr::Config c = cfg(16, 1, 1);
  dr::Model m(c);
  Cycle t(m);
  t.reset_and_init();
  t.write(dr::regs::STAGE_MASK_LO, 0x0F00);
  t.write(dr::regs::COMP_COMMIT, 3);
  t.write(dr::regs::STAGE_GROUP_WEIGHTS, 0x00000001);
  t.write(dr::regs::STAGE_GROUP_COMPS, 0x00000003);
  t.write(dr::regs::GROUP_COMMIT, 1);
  for (int i = 0; i < 200; ++i) {
    t.in.valid[0] = true;
    t.in.grp_en[0] = true;
    t.in.grp[0] = 1;
    t.in.hash[0] = static_cast<uint32_t>(i * 977);
    const auto o = t.step();
    if (o.out_valid[0]) {
      ASSERT_FALSE(o.out_empty[0]);
      ASSERT_GE(o.out_port[0], 8u);
      ASSERT_LE(o.out_port[0], 11u);
    }
  }
}
