// The cycle face against the transaction face: the RMW pipeline with hazard forwarding,
// scans and the register interface give the same per-QP state as the event-exact API.
#include <gtest/gtest.h>

#include <random>

#include "dcqcn/dcqcn.h"

namespace ll::dcqcn {
namespace {

TEST(DcqcnConfig, RejectsBadParameters) {
  Config c;
  c.Queues = 1;
  EXPECT_THROW(c.validate(), std::invalid_argument);
  c = Config{};
  c.Slots = 48;
  EXPECT_THROW(c.validate(), std::invalid_argument);
  c = Config{};
  c.ScanForce = 1;
  EXPECT_THROW(c.validate(), std::invalid_argument);
  c = Config{};
  c.DivBits = 3;
  EXPECT_THROW(c.validate(), std::invalid_argument);
  c = Config{};
  c.TickPs = 1;  // numerator would overflow
  EXPECT_THROW(c.validate(), std::invalid_argument);
  EXPECT_THROW(Config::from_params({{"Bogus", 1}}), std::invalid_argument);
  EXPECT_NO_THROW(Config::from_params({{"Queues", 1024}, {"Slots", 256}}));
}

struct Driver {
  Model m;
  Inputs in;
  explicit Driver(const Config& c) : m(c) {
    in.rst_n = false;
    m.tick(in);
    in.rst_n = true;
    while (!m.eval(in).init_done) m.tick(in);
  }
  void write(uint32_t a, uint32_t d) {
    Inputs w = in;
    w.cfg_we = true;
    w.cfg_addr = a;
    w.cfg_wdata = d;
    m.tick(w);
  }
  uint32_t read(uint32_t a) {
    Inputs r = in;
    r.cfg_re = true;
    r.cfg_addr = a;
    m.tick(r);
    return m.eval(in).cfg_rdata;
  }
};

TEST(DcqcnModel, PipelineWithForwardingEqualsEventExact) {
  for (int variant = 0; variant < 2; ++variant) {
    Config cfg;
    cfg.Queues = 8;  // few QPs: back-to-back hazards on the same QP are frequent
    Driver d(cfg);
    using namespace regs;
    StageRegs r = stage_from_live_mbps(variant == 1, variant == 0, false, true, false, 6,
                                       /*alpha*/ 40, /*dec*/ 130, /*inc*/ 700,
                                       /*bytes*/ variant ? 0 : 6000, /*F*/ variant ? 1 : 5, 40, 400,
                                       1000, 0, 65536, 0, 0);
    d.write(STAGE_CTRL, r.ctrl);
    d.write(STAGE_ALPHA_PERIOD, r.alpha_period);
    d.write(STAGE_DEC_PERIOD, r.dec_period);
    d.write(STAGE_INC_PERIOD, r.inc_period);
    d.write(STAGE_BYTE_RESET, r.byte_reset);
    d.write(STAGE_THRESHOLD, r.threshold);
    d.write(STAGE_RAI, r.rai);
    d.write(STAGE_RHAI, r.rhai);
    d.write(STAGE_RMIN, r.rmin);
    d.write(COMMIT, 1);
    Model ref(cfg);
    ref.reset_transaction();
    ref.configure(r);
    std::mt19937_64 rng(5 + variant);
    Inputs in = d.in;
    for (int c = 0; c < 200000; ++c) {
      in.tick = rng() % 2;
      in.cnp_valid = rng() % 100 < 15;
      in.cnp_qp = rng() % 3;  // hot QPs
      in.sent_valid = rng() % 100 < 60;
      in.sent_qp = rng() % cfg.Queues;
      in.sent_bytes = 64 + rng() % 1500;
      const Outputs o = d.m.eval(in);
      const uint64_t t = d.m.now();
      if (in.cnp_valid && o.cnp_ready) ref.on_cnp(in.cnp_qp, t);
      else if (in.sent_valid && o.sent_ready) ref.on_sent(in.sent_qp, in.sent_bytes, t);
      d.m.tick(in);
    }
    in = d.in;
    for (int c = 0; c < 10; ++c) d.m.tick(in);  // drain the pipeline
    EXPECT_EQ(d.read(CNT_LATE), 0u);
    const uint64_t t = d.m.now();
    unsigned decs = 0;
    for (uint32_t q = 0; q < cfg.Queues; ++q) {
      Qp<Fixed> a = d.m.qp_state(q);
      while (catch_up(a, d.m.live(), t + 1, cfg.bounds(), nullptr)) {
      }
      ref.rate(q, t);
      const auto& e = ref.qp_state(q);
      EXPECT_EQ(a.rc, e.rc) << "variant " << variant << " qp " << q;
      EXPECT_EQ(a.rt, e.rt) << q;
      EXPECT_EQ(a.alpha, e.alpha) << q;
      EXPECT_EQ(a.c_cnp, e.c_cnp) << q;
      EXPECT_EQ(a.c_dec, e.c_dec) << q;
      EXPECT_EQ(a.c_fr, e.c_fr) << q;
      EXPECT_EQ(a.c_ai, e.c_ai) << q;
      EXPECT_EQ(a.c_hai, e.c_hai) << q;
      EXPECT_EQ(a.bytes, e.bytes) << q;
      decs += e.c_dec;
    }
    EXPECT_GT(decs, 100u);
    // per-QP counters through the snapshot registers
    d.write(STAT_CTRL, 1u | (1u << 31));
    for (int c = 0; c < 6; ++c) d.m.tick(in);
    EXPECT_EQ(d.read(STATUS) & 2u, 2u);
    EXPECT_EQ(d.read(STAT_CNP_RX), d.m.qp_state(1).c_cnp == 0 ? ref.qp_state(1).c_cnp : ref.qp_state(1).c_cnp);
    d.write(STAT_CTRL, 1u);
    for (int c = 0; c < 6; ++c) d.m.tick(in);
    EXPECT_EQ(d.read(STAT_CNP_RX), 0u);  // cleared by the previous snapshot
  }
}

TEST(DcqcnModel, StagedConfigurationIsAtomicAndCountersClear) {
  Config cfg;
  Driver d(cfg);
  using namespace regs;
  const uint64_t rmin0 = d.m.live().rmin;
  d.write(STAGE_RMIN, 5000);
  EXPECT_EQ(d.m.live().rmin, rmin0);  // staged only
  EXPECT_EQ(d.read(STAGE_RMIN), 5000u);
  d.write(COMMIT, 0);
  EXPECT_EQ(d.m.live().rmin, 5000u * kMbps);
  EXPECT_EQ(d.read(ID), ID_VALUE);
  EXPECT_EQ(d.read(0xFFC), 0u);
  // NP counter: per-packet mode, 5 marks
  d.write(STAGE_CTRL, 1u << STAGE_CTRL_NP_PER_PKT_LSB);
  d.write(COMMIT, 0);
  Inputs in = d.in;
  unsigned acc = 0;
  while (acc < 5) {
    in.ce_valid = true;
    in.ce_flow = acc;
    if (d.m.eval(in).ce_ready) ++acc;
    d.m.tick(in);
  }
  in.ce_valid = false;
  for (int c = 0; c < 10; ++c) d.m.tick(in);
  EXPECT_EQ(d.read(CNT_CNP_SENT), 5u);
  d.write(CNT_CLEAR, 1);
  EXPECT_EQ(d.read(CNT_CNP_SENT), 0u);
}

}  // namespace
}  // namespace ll::dcqcn
