// GoogleTest suite of the 802.1Qbb frame encoder/decoder model (ll::pfc::CodecModel).
#include <gtest/gtest.h>

#include <random>

#include "pfc/pfc_codec.h"

using namespace ll::pfc;

namespace {

// Sends a whole frame into the decoder, beat by beat, and collects the events.
struct DecDriver {
  CodecModel m;
  std::vector<std::pair<uint32_t, uint32_t>> events;
  unsigned good = 0, bad = 0;
  DecDriver() {
    CodecInputs r;
    r.rst_n = false;
    m.tick(r);
  }
  void step(CodecInputs in) {
    in.evt_ready = true;
    const CodecOutputs o = m.eval(in);
    if (o.evt_valid) events.emplace_back(o.evt_prio, o.evt_quanta);
    good += o.good;
    bad += o.bad;
    m.tick(in);
  }
  void send(const std::vector<uint8_t>& b, bool err = false) {
    for (size_t i = 0; i < b.size(); i += 8) {
      CodecInputs in;
      in.rx_valid = true;
      for (size_t k = 0; k < 8 && i + k < b.size(); ++k) {
        in.rx_data |= uint64_t{b[i + k]} << (8 * k);
        in.rx_keep |= 1u << k;
      }
      in.rx_last = i + 8 >= b.size();
      in.rx_err = in.rx_last && err;
      while (!m.eval(in).rx_ready) step(CodecInputs{});
      step(in);
    }
    for (int k = 0; k < 12; ++k) step(CodecInputs{});
  }
};

}  // namespace

TEST(PfcCodec, EncodeLayout) {
  PfcFrame f;
  f.enable = 0x09;
  f.quanta[0] = 0xABCD;
  f.quanta[3] = 0x0102;
  f.quanta[5] = 0x7777;  // not enabled: sent as 0
  const auto b = encode_frame(0x020000000001ull, f);
  ASSERT_EQ(b.size(), 60u);
  const std::vector<uint8_t> head = {0x01, 0x80, 0xC2, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
                                     0x88, 0x08, 0x01, 0x01, 0x00, 0x09, 0xAB, 0xCD};
  for (size_t i = 0; i < head.size(); ++i) EXPECT_EQ(b[i], head[i]) << i;
  EXPECT_EQ(b[24], 0x01);
  EXPECT_EQ(b[25], 0x02);
  EXPECT_EQ(b[28], 0x00);
  EXPECT_EQ(b[29], 0x00);
  for (size_t i = 34; i < 60; ++i) EXPECT_EQ(b[i], 0) << i;
}

TEST(PfcCodec, DecoderEmitsEnabledPrioritiesLowestFirst) {
  DecDriver d;
  PfcFrame f;
  f.enable = 0xA4;  // priorities 2, 5, 7
  f.quanta = {1, 2, 3, 4, 5, 6, 7, 0};
  d.send(encode_frame(0x1122334455ull, f));
  ASSERT_EQ(d.events.size(), 3u);
  EXPECT_EQ(d.events[0], std::make_pair(2u, 3u));
  EXPECT_EQ(d.events[1], std::make_pair(5u, 6u));
  EXPECT_EQ(d.events[2], std::make_pair(7u, 0u));  // quanta 0 = RESUME
  EXPECT_EQ(d.good, 1u);
  EXPECT_EQ(d.bad, 0u);
}

TEST(PfcCodec, DecoderRejectsMalformedAndIgnoresOtherFrames) {
  PfcFrame f;
  f.enable = 0xFF;
  f.quanta.fill(9);
  const auto good = encode_frame(1, f);
  {
    DecDriver d;  // FCS error flagged by the MAC
    d.send(good, true);
    EXPECT_TRUE(d.events.empty());
    EXPECT_EQ(d.bad, 1u);
  }
  {
    DecDriver d;  // too short (40 bytes)
    d.send(std::vector<uint8_t>(good.begin(), good.begin() + 40));
    EXPECT_TRUE(d.events.empty());
    EXPECT_EQ(d.bad, 1u);
  }
  {
    DecDriver d;  // 802.3x PAUSE (opcode 0x0001): not PFC, ignored silently
    auto b = good;
    b[15] = 0x01;
    b[14] = 0x00;
    d.send(b);
    EXPECT_TRUE(d.events.empty());
    EXPECT_EQ(d.bad, 0u);
    EXPECT_EQ(d.good, 0u);
  }
  {
    DecDriver d;  // wrong destination
    auto b = good;
    b[5] = 0x02;
    d.send(b);
    EXPECT_TRUE(d.events.empty());
    EXPECT_EQ(d.bad + d.good, 0u);
  }
  {
    DecDriver d;  // a longer frame (padding beyond 60 bytes) is fine
    auto b = good;
    b.resize(100, 0);
    d.send(b);
    EXPECT_EQ(d.events.size(), 8u);
    EXPECT_EQ(d.good, 1u);
  }
}

TEST(PfcCodec, EncoderCoalescesPendingRequests) {
  CodecModel m;
  CodecInputs r;
  r.rst_n = false;
  m.tick(r);
  auto req = [](uint32_t p, uint32_t q) {
    CodecInputs in;
    in.req_valid = true;
    in.req_prio = p;
    in.req_quanta = q;
    in.src_mac = 0xAABBCCDDEEFFull;
    return in;
  };
  m.tick(req(3, 100));  // starts a frame for priority 3 next cycle
  CodecInputs idle;
  idle.src_mac = 0xAABBCCDDEEFFull;
  // while the first frame is sent (tx_ready low for a while), two more requests arrive
  m.tick(req(5, 200));
  m.tick(req(5, 300));  // newest quanta wins
  m.tick(req(1, 0));
  std::vector<std::vector<uint8_t>> frames;
  std::vector<uint8_t> cur;
  for (int k = 0; k < 60; ++k) {
    CodecInputs in = idle;
    in.tx_ready = (k % 3) != 0;
    const CodecOutputs o = m.eval(in);
    if (o.tx_valid && in.tx_ready) {
      for (unsigned b = 0; b < 8; ++b)
        if ((o.tx_keep >> b) & 1) cur.push_back(static_cast<uint8_t>(o.tx_data >> (8 * b)));
      if (o.tx_last) {
        EXPECT_TRUE(o.frame_sent);
        frames.push_back(cur);
        cur.clear();
      }
    }
    m.tick(in);
  }
  ASSERT_EQ(frames.size(), 2u);
  PfcFrame f;
  ASSERT_EQ(decode_frame(frames[0], false, &f), 1);
  EXPECT_EQ(f.enable, 0x08u);
  EXPECT_EQ(f.quanta[3], 100u);
  ASSERT_EQ(decode_frame(frames[1], false, &f), 1);
  EXPECT_EQ(f.enable, 0x22u);
  EXPECT_EQ(f.quanta[5], 300u);
  EXPECT_EQ(f.quanta[1], 0u);
  EXPECT_EQ(frames[1][6], 0xAA);
}

TEST(PfcCodec, RoundTripRandom) {
  std::mt19937_64 rng(11);
  for (int t = 0; t < 200; ++t) {
    PfcFrame f;
    f.enable = static_cast<uint32_t>(rng() & 0xFF);
    for (auto& q : f.quanta) q = static_cast<uint32_t>(rng() & 0xFFFF);
    DecDriver d;
    d.send(encode_frame(rng() & 0xFFFFFFFFFFFFull, f));
    std::vector<std::pair<uint32_t, uint32_t>> want;
    for (uint32_t p = 0; p < 8; ++p)
      if ((f.enable >> p) & 1) want.emplace_back(p, f.quanta[p]);
    EXPECT_EQ(d.events, want);
    PfcFrame g;
    EXPECT_EQ(decode_frame(encode_frame(5, f), false, &g), 1);
    EXPECT_EQ(g.enable, f.enable);
  }
}
