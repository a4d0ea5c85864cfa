// Notification point: both CNP modes (docs/dcqcn.md, "Notification point").
#include <gtest/gtest.h>

#include "dcqcn/dcqcn.h"

namespace ll::dcqcn {
namespace {

Model make(bool per_pkt, uint32_t interval) {
  Config cfg;
  cfg.Queues = 8;
  Model m(cfg);
  m.reset_transaction();
  StageRegs r;
  r.ctrl = per_pkt ? (1u << regs::STAGE_CTRL_NP_PER_PKT_LSB) : 0;
  r.np_interval = interval;
  m.configure(r);
  return m;
}

TEST(DcqcnNp, CoalescingFirstMarkAfterQuietSendsAtOnce) {
  Model m = make(false, 50000);  // 50 us at 1 ns ticks
  EXPECT_TRUE(m.on_marked(3, 100));     // first marked packet: at once
  EXPECT_FALSE(m.on_marked(3, 200));    // within N: suppressed
  EXPECT_FALSE(m.on_marked(3, 50099));
  EXPECT_TRUE(m.on_marked(3, 50100));   // N after the last CNP
  EXPECT_TRUE(m.on_marked(4, 50100));   // per flow
  EXPECT_FALSE(m.on_marked(4, 60000));
  EXPECT_TRUE(m.on_marked(3, 1000000)); // after a quiet window
  EXPECT_EQ(m.cnt_cnp_sent(), 4u);
}

TEST(DcqcnNp, AtMostOneCnpPerIntervalUnderAFlood) {
  Model m = make(false, 1000);
  unsigned sent = 0;
  for (uint64_t t = 0; t < 100000; t += 7) sent += m.on_marked(1, t);
  // one CNP per 1000 ticks, rounded up to the 7-tick packet grid
  EXPECT_GE(sent, 99u);
  EXPECT_LE(sent, 100u);
}

TEST(DcqcnNp, PerPacketModeSendsForEveryMark) {
  Model m = make(true, 50000);
  unsigned sent = 0;
  for (uint64_t t = 0; t < 1000; ++t) sent += m.on_marked(t % 3, t);
  EXPECT_EQ(sent, 1000u);
}

}  // namespace
}  // namespace ll::dcqcn
