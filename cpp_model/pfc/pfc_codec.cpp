#include "pfc/pfc_codec.h"

namespace ll::pfc {

std::vector<uint8_t> encode_frame(uint64_t src_mac, const PfcFrame& f) {
  std::vector<uint8_t> b(kFrameBytes, 0);
  for (int k = 0; k < 6; ++k) b[k] = static_cast<uint8_t>(kPfcDa >> (8 * (5 - k)));
  for (int k = 0; k < 6; ++k) b[6 + k] = static_cast<uint8_t>(src_mac >> (8 * (5 - k)));
  b[12] = kMacControlType >> 8;
  b[13] = kMacControlType & 0xFF;
  b[14] = kPfcOpcode >> 8;
  b[15] = kPfcOpcode & 0xFF;
  b[16] = 0;
  b[17] = static_cast<uint8_t>(f.enable);
  for (int p = 0; p < 8; ++p) {
    const uint32_t q = ((f.enable >> p) & 1) ? f.quanta[p] : 0;
    b[18 + 2 * p] = static_cast<uint8_t>(q >> 8);
    b[19 + 2 * p] = static_cast<uint8_t>(q);
  }
  return b;
}

int decode_frame(const std::vector<uint8_t>& b, bool err, PfcFrame* f) {
  if (b.size() < 16) return 0;
  for (int k = 0; k < 6; ++k)
    if (b[k] != static_cast<uint8_t>(kPfcDa >> (8 * (5 - k)))) return 0;
  if (b[12] != 0x88 || b[13] != 0x08 || b[14] != 0x01 || b[15] != 0x01) return 0;
  if (b.size() <= 16) return 0;  // two beats: the decoder never judged it
  if (b.size() < kFrameBytes || err) return -1;
  if (f) {
    f->enable = b[17];
    for (int p = 0; p < 8; ++p) f->quanta[p] = (uint32_t{b[18 + 2 * p]} << 8) | b[19 + 2 * p];
  }
  return 1;
}

void CodecModel::reset() {
  pend_ = fr_en_ = 0;
  pq_.fill(0);
  fr_q_.fill(0);
  busy_ = false;
  beat_ = 0;
  dbeat_ = 0;
  da_ok_ = ty_ok_ = false;
  full_ok_ = true;
  en_ = emit_ = 0;
  tq_.fill(0);
  etq_.fill(0);
  good_ = bad_ = false;
}

unsigned CodecModel::lowest_emit() const {
  for (unsigned i = 0; i < 8; ++i)
    if ((emit_ >> i) & 1) return i;
  return 0;
}

CodecOutputs CodecModel::eval(const CodecInputs& in) const {
  CodecOutputs o;
  o.tx_valid = busy_;
  if (busy_) {
    PfcFrame f;
    f.enable = fr_en_;
    f.quanta = fr_q_;
    const std::vector<uint8_t> b = encode_frame(in.src_mac & 0xFFFFFFFFFFFFull, f);
    for (unsigned k = 0; k < 8; ++k) {
      const unsigned i = 8 * beat_ + k;
      if (i < kFrameBytes) o.tx_data |= uint64_t{b[i]} << (8 * k);
    }
    o.tx_keep = beat_ == 7 ? 0x0F : 0xFF;
    o.tx_last = beat_ == 7;
    o.frame_sent = in.tx_ready && beat_ == 7;
  }
  o.rx_ready = emit_ == 0;
  o.evt_valid = emit_ != 0;
  if (o.evt_valid) {
    o.evt_prio = lowest_emit();
    o.evt_quanta = etq_[o.evt_prio];
  }
  o.good = good_;
  o.bad = bad_;
  return o;
}

void CodecModel::tick(const CodecInputs& in) {
  if (!in.rst_n) {
    reset();
    return;
  }
  // encoder
  const bool start = !busy_ && pend_ != 0;
  const bool fire = busy_ && in.tx_ready;
  const uint32_t req_bit = in.req_valid ? (1u << (in.req_prio & 7)) : 0;
  if (start) {
    busy_ = true;
    beat_ = 0;
    fr_en_ = pend_;
    for (unsigned i = 0; i < 8; ++i) fr_q_[i] = ((pend_ >> i) & 1) ? pq_[i] : 0;
  } else if (fire) {
    if (beat_ == 7) busy_ = false;
    beat_ = (beat_ + 1) & 7;
  }
  pend_ = (start ? 0 : pend_) | req_bit;
  if (in.req_valid) pq_[in.req_prio & 7] = in.req_quanta & 0xFFFF;

  // decoder
  const bool rx_ready = emit_ == 0;
  const bool evt_fire = emit_ != 0 && in.evt_ready;
  const unsigned lo = lowest_emit();
  good_ = bad_ = false;
  if (evt_fire) emit_ &= ~(1u << lo);
  if (in.rx_valid && rx_ready) {
    const uint64_t d = in.rx_data;
    const uint32_t keep = in.rx_keep & 0xFF;
    const unsigned nbytes = static_cast<unsigned>(__builtin_popcount(keep));
    const bool long_enough = dbeat_ >= 8 || (dbeat_ == 7 && nbytes >= 4);
    const bool match_now = da_ok_ && ty_ok_ && dbeat_ >= 2;
    const bool ok_now = match_now && long_enough && full_ok_ && !in.rx_err;
    auto byte = [&](unsigned i) { return static_cast<uint32_t>((d >> (8 * i)) & 0xFF); };
    switch (dbeat_) {
      case 0: da_ok_ = (d & 0xFFFFFFFFFFFFull) == 0x010000C28001ull && (keep & 0x3F) == 0x3F; break;
      case 1: ty_ok_ = (d >> 32) == 0x01010888ull && keep == 0xFF; break;
      case 2:
        en_ = byte(1);
        for (unsigned i = 0; i < 3; ++i) tq_[i] = (byte(2 + 2 * i) << 8) | byte(3 + 2 * i);
        break;
      case 3:
        for (unsigned i = 0; i < 4; ++i) tq_[3 + i] = (byte(2 * i) << 8) | byte(2 * i + 1);
        break;
      case 4: tq_[7] = (byte(0) << 8) | byte(1); break;
      default: break;
    }
    if (!in.rx_last && keep != 0xFF) full_ok_ = false;
    if (in.rx_last) {
      dbeat_ = 0;
      full_ok_ = true;
      da_ok_ = ty_ok_ = false;
      if (ok_now) {
        good_ = true;
        emit_ = en_;
        etq_ = tq_;
      } else if (match_now) {
        bad_ = true;
      }
    } else if (dbeat_ != 15) {
      ++dbeat_;
    }
  }
}

}  // namespace ll::pfc
