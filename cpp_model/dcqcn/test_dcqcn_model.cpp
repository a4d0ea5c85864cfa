// The cycle face against the transaction face: the RMW pipeline with hazard forwarding,
// scans and the register interface give the same per-QP state as the event-exact API.
#include <gtest/gtest.h>

#include <cstdio>
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
  c = Config{};
  c.TimeStart = 1ull << 32;  // the RTL parameter has 32 bits
  EXPECT_THROW(c.validate(), std::invalid_argument);
  EXPECT_THROW(Config::from_params({{"Bogus", 1}}), std::invalid_argument);
  EXPECT_NO_THROW(Config::from_params({{"Queues", 1024}, {"Slots", 256}}));
}

bool snap_clr_pending_ = false;  // the clear flag of the snapshot in flight (test helper)

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

// TimeStart: the time base and the wheel's drain pointer start there after every reset, and
// the pointer follows the time across the carry into bit 32.
TEST(DcqcnModel, TimeBaseStartsAtTimeStartAfterEveryReset) {
  Config c;
  c.Slots = 16;
  c.SlotLog2 = 3;
  c.TimeStart = (1ull << 32) - 20;
  Driver d(c);
  EXPECT_EQ(d.m.now(), c.TimeStart);
  EXPECT_EQ(d.m.wheel().drain_slot(), c.TimeStart >> 3);
  Inputs t = d.in;
  t.tick = true;
  for (int i = 0; i < 40; ++i) d.m.tick(t);
  EXPECT_EQ(d.m.now(), (1ull << 32) + 20);
  for (int i = 0; i < 8; ++i) d.m.tick(d.in);  // an empty wheel's pointer moves a slot a cycle
  EXPECT_EQ(d.m.wheel().drain_slot(), ((1ull << 32) + 20) >> 3);
  Inputs r = d.in;
  r.rst_n = false;
  d.m.tick(r);
  EXPECT_EQ(d.m.now(), c.TimeStart);
  EXPECT_EQ(d.m.wheel().drain_slot(), c.TimeStart >> 3);
}

// The cycle model (RMW pipeline, forwarding, stalls, scans, replays, snapshots) fed by
// random traffic against rp_core's event-exact Rp<Fixed> fed the accepted events in
// acceptance order with their acceptance times. Snapshots are compared at once (time
// held, no events while one is pending); at the end every QP's whole state word.
struct LockstepCase {
  Config cfg;
  StageRegs regs;
  uint64_t seed = 1;
  int cycles = 200000;
  unsigned cnp_pct = 15, sent_pct = 60, tick_pm = 500, hot = 3, snap_per_mille = 0;
};
struct LockstepResult {
  uint64_t late = 0, snaps = 0, decs = 0, replays = 0;
};

LockstepResult run_against_exact(const LockstepCase& k) {
  LockstepResult out;
  const Config& cfg = k.cfg;
  Driver d(cfg);
  using namespace regs;
  const StageRegs& r = k.regs;
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
  RpFixed ref(cfg.Queues, d.m.live(), cfg.bounds());
  std::mt19937_64 rng(k.seed);
  Inputs in = d.in;
  bool snap_wait = false;
  uint32_t snap_q = 0;
  for (int c = 0; c < k.cycles || snap_wait; ++c) {  // (the last snapshot completes)
    in = d.in;
    in.tick = !snap_wait && rng() % 1000 < k.tick_pm;
    if (!snap_wait && c < k.cycles && rng() % 1000 < k.snap_per_mille) {  // snapshot (clears half of the time)
      snap_q = rng() % cfg.Queues;
      in.cfg_we = true;
      in.cfg_addr = STAT_CTRL;
      in.cfg_wdata = snap_q | ((rng() & 1) ? 0x80000000u : 0u);
      snap_wait = true;
    }
    in.cnp_valid = !snap_wait && c < k.cycles && rng() % 100 < k.cnp_pct;
    in.cnp_qp = rng() % 2 ? rng() % k.hot : rng() % cfg.Queues;
    in.sent_valid = !snap_wait && c < k.cycles && rng() % 100 < k.sent_pct;
    in.sent_qp = rng() % 2 ? rng() % k.hot : rng() % cfg.Queues;
    in.sent_bytes = 64 + rng() % 1500;
    const Outputs o = d.m.eval(in);
    const uint64_t t = d.m.now();
    if (in.cnp_valid && o.cnp_ready) ref.on_cnp(in.cnp_qp, t);
    else if (in.sent_valid && o.sent_ready) ref.on_sent(in.sent_qp, in.sent_bytes, t);
    const bool clr = in.cfg_wdata >> 31;
    d.m.tick(in);
    const auto& cv = d.m.last_cov();
    out.replays += cv.rp.replay;
    if (cv.rp.stat_valid) {  // == the exact state at the snapshot time (timers < t)
      Qp<Fixed> e = ref.qp(snap_q);
      while (catch_up(e, ref.live(), t, cfg.bounds(), nullptr)) {
      }
      EXPECT_EQ(cv.rp.stat.rc, e.rc) << "snapshot qp " << snap_q << " cycle " << c;
      EXPECT_EQ(cv.rp.stat.alpha, e.alpha) << snap_q;
      EXPECT_EQ(cv.rp.stat.cnp, e.c_cnp) << snap_q;
      EXPECT_EQ(cv.rp.stat.dec, e.c_dec) << snap_q;
      EXPECT_EQ(cv.rp.stat.fr, e.c_fr) << snap_q;
      EXPECT_EQ(cv.rp.stat.ai, e.c_ai) << snap_q;
      EXPECT_EQ(cv.rp.stat.hai, e.c_hai) << snap_q;
      auto& w = ref.qp(snap_q);
      w = e;  // caught up to t (the split of a catch-up does not change it), then cleared
      if (snap_clr_pending_) {
        out.decs += w.c_dec;  // decreases a clearing snapshot takes out of the counters
        w.c_cnp = w.c_dec = w.c_fr = w.c_ai = w.c_hai = 0;
      }
      snap_wait = false;
      ++out.snaps;
    }
    if (in.cfg_we && in.cfg_addr == STAT_CTRL) snap_clr_pending_ = clr;
  }
  in = d.in;
  for (int quiet = 0; quiet < 10;) {  // drain the pipeline, replays included
    d.m.tick(in);
    const auto& rp = d.m.last_cov().rp;
    quiet = (rp.replay || rp.rep_reissue || rp.stall) ? 0 : quiet + 1;
  }
  out.late = d.read(CNT_LATE);
  const uint64_t t = d.m.now();
  for (uint32_t q = 0; q < cfg.Queues; ++q) {
    Qp<Fixed> a = d.m.qp_state(q);
    while (catch_up(a, d.m.live(), t + 1, cfg.bounds(), nullptr)) {
    }
    ref.advance(q, t);
    const auto& e = ref.qp(q);
    EXPECT_EQ(a.rc, e.rc) << "qp " << q;
    EXPECT_EQ(a.rt, e.rt) << q;
    EXPECT_EQ(a.alpha, e.alpha) << q;
    EXPECT_EQ(a.t, e.t) << q;
    EXPECT_EQ(a.bc, e.bc) << q;
    EXPECT_EQ(a.bytes, e.bytes) << q;
    EXPECT_EQ(a.dl_a, e.dl_a) << q;
    EXPECT_EQ(a.dl_i, e.dl_i) << q;
    EXPECT_EQ(a.dl_d, e.dl_d) << q;
    EXPECT_EQ(a.active, e.active) << q;
    EXPECT_EQ(a.inc_on, e.inc_on) << q;
    EXPECT_EQ(a.cnp_a, e.cnp_a) << q;
    EXPECT_EQ(a.cnp_d, e.cnp_d) << q;
    EXPECT_EQ(a.c_cnp, e.c_cnp) << q;
    EXPECT_EQ(a.c_dec, e.c_dec) << q;
    EXPECT_EQ(a.c_fr, e.c_fr) << q;
    EXPECT_EQ(a.c_ai, e.c_ai) << q;
    EXPECT_EQ(a.c_hai, e.c_hai) << q;
    out.decs += e.c_dec;
  }
  return out;
}

StageRegs regs_for(int variant, uint32_t pa, uint32_t pd, uint32_t pi) {
  RpSettings s;
  s.nic = variant == 1;
  s.hai_grow = variant == 0;
  s.g_shift = 6;
  s.alpha_period = pa;
  s.dec_period = pd;
  s.inc_period = pi;
  s.byte_reset = variant ? 0 : 6000;
  s.F = variant ? 1 : 5;
  s.rai_mbps = 40;
  s.rhai_mbps = 400;
  s.rmin_mbps = 1000;
  s.alpha_init_q16 = 65536;
  return stage_regs(s);
}

// Bounds generous for the periods: nothing is late, no replay.
TEST(DcqcnModel, PipelineWithForwardingEqualsEventExact) {
  for (int variant = 0; variant < 2; ++variant) {
    LockstepCase k;
    k.cfg.Queues = 8;  // few QPs: back-to-back hazards on the same QP are frequent
    k.regs = regs_for(variant, 40, 130, 700);
    k.seed = 5 + variant;
    k.snap_per_mille = 2;
    const auto r = run_against_exact(k);
    EXPECT_EQ(r.late, 0u);
    EXPECT_EQ(r.replays, 0u);
    EXPECT_GT(r.decs, 100u);
    EXPECT_GT(r.snaps, 100u);
  }
}

// Bounds far too small for the periods (1-tick alpha period, 2 alpha steps and 1
// decrease step per pass, 256 QPs, a forced scan only every 1024 cycles, heavy CNP /
// bytes traffic, time ticking every 500th or every 100th cycle - the latter saturates the
// pipeline with replays): most passes of non-hot QPs are late and replayed, and the
// per-QP state (rates, alpha, stages, bytes, deadlines, flags, all counters) and every
// snapshot still equal the event-exact result.
TEST(DcqcnModel, PipelineWithReplaysEqualsEventExact) {
  for (int variant = 0; variant < 2; ++variant) {
    for (unsigned tick_pm : {2u, 10u}) {
      LockstepCase k;
      k.cfg.Queues = 256;
      k.cfg.AlphaSteps = 2;
      k.cfg.DecSteps = 1;
      k.cfg.ScanForce = 1024;
      k.regs = regs_for(variant, 1, 3, 40);
      k.seed = 11 + variant;
      // a replay costs PassLat = 5 cycles: the saturated case needs more cycles for the
      // same number of applied events
      k.cycles = tick_pm == 10 ? 800000 : 300000;
      k.cnp_pct = 30;
      k.sent_pct = 70;
      k.tick_pm = tick_pm;
      k.hot = 8;
      k.snap_per_mille = 5;
      const auto r = run_against_exact(k);
      EXPECT_GT(r.late, 10000u) << "variant " << variant << " tick/1000 " << tick_pm;
      EXPECT_GT(r.replays, 10000u);
      EXPECT_GT(r.decs, 1000u);  // every decrease of the run (cleared by snapshots or not)
      EXPECT_GT(r.snaps, 500u);
      std::printf("variant %d, tick every %u cycles: %llu late passes, %llu replays, %llu snapshots, %llu decreases\n",
                  variant, 1000 / tick_pm, (unsigned long long)r.late, (unsigned long long)r.replays,
                  (unsigned long long)r.snaps, (unsigned long long)r.decs);
    }
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

// RpSettings' defaults are the NIC reference configuration, the registers' reset values.
TEST(DcqcnModel, DefaultRpSettingsProgramTheResetRegisters) {
  const StageRegs r = stage_regs(RpSettings{}), reset{};
  EXPECT_EQ(r.ctrl, reset.ctrl);
  EXPECT_EQ(r.alpha_period, reset.alpha_period);
  EXPECT_EQ(r.dec_period, reset.dec_period);
  EXPECT_EQ(r.inc_period, reset.inc_period);
  EXPECT_EQ(r.byte_reset, reset.byte_reset);
  EXPECT_EQ(r.threshold, reset.threshold);
  EXPECT_EQ(r.rai, reset.rai);
  EXPECT_EQ(r.rhai, reset.rhai);
  EXPECT_EQ(r.rmin, reset.rmin);
  EXPECT_EQ(r.first_rate, reset.first_rate);
  EXPECT_EQ(r.alpha_init, reset.alpha_init);
  EXPECT_EQ(r.min_dec_fac, reset.min_dec_fac);
  EXPECT_EQ(r.np_interval, reset.np_interval);
  RpSettings paper;
  paper.nic = false;
  paper.g_shift = 4;
  EXPECT_EQ(stage_regs(paper).ctrl & (1u << regs::STAGE_CTRL_NIC_LSB), 0u);
  EXPECT_EQ((stage_regs(paper).ctrl >> regs::STAGE_CTRL_G_SHIFT_LSB) & 0xFu, 4u);
}

// stage_ops (the co-simulation's register program) sets through the register interface
// what configure() sets in the transaction face: every field of the live configuration.
TEST(DcqcnModel, StageOpsProgramWhatConfigureSets) {
  RpSettings rs;
  rs.nic = false;
  rs.hai_grow = true;
  rs.clamp_tgt = true;
  rs.np_per_pkt = true;
  rs.g_shift = 5;
  rs.alpha_period = 777;
  rs.dec_period = 3333;
  rs.inc_period = 55555;
  rs.byte_reset = 150000;
  rs.F = 3;
  rs.rai_mbps = 40;
  rs.rhai_mbps = 400;
  rs.rmin_mbps = 500;
  rs.first_mbps = 2000;
  rs.alpha_init_q16 = 30000;
  rs.min_dec_fac_q16 = 20000;
  rs.np_interval = 50000;
  const StageRegs r = stage_regs(rs);
  Config cfg;
  cfg.Queues = 8;
  Model t(cfg);
  t.reset_transaction();
  t.configure(r);
  Driver d(cfg);
  const CfgProgram ops = stage_ops(r);
  ASSERT_EQ(ops.back().addr, regs::COMMIT);
  for (const CfgOp& op : ops) d.write(op.addr, op.data);
  const Live& a = t.live();
  const Live& b = d.m.live();
  EXPECT_EQ(a.nic, b.nic);
  EXPECT_EQ(a.hai_grow, b.hai_grow);
  EXPECT_EQ(a.clamp_tgt, b.clamp_tgt);
  EXPECT_EQ(a.clamp_ati, b.clamp_ati);
  EXPECT_EQ(a.np_per_pkt, b.np_per_pkt);
  EXPECT_EQ(a.g_shift, b.g_shift);
  EXPECT_EQ(a.p_alpha, b.p_alpha);
  EXPECT_EQ(a.p_dec, b.p_dec);
  EXPECT_EQ(a.p_inc, b.p_inc);
  EXPECT_EQ(a.byte_reset, b.byte_reset);
  EXPECT_EQ(a.F, b.F);
  EXPECT_EQ(a.rai, b.rai);
  EXPECT_EQ(a.rhai, b.rhai);
  EXPECT_EQ(a.rmin, b.rmin);
  EXPECT_EQ(a.first_rate, b.first_rate);
  EXPECT_EQ(a.line, b.line);
  EXPECT_EQ(a.alpha_init, b.alpha_init);
  EXPECT_EQ(a.min_dec_fac, b.min_dec_fac);
  EXPECT_EQ(a.np_interval, b.np_interval);
  // and the configuration differs from the reset one (the test would see a lost write)
  EXPECT_NE(b.p_alpha, Live{}.p_alpha);
  EXPECT_NE(b.np_interval, Live{}.np_interval);
}

}  // namespace
}  // namespace ll::dcqcn
