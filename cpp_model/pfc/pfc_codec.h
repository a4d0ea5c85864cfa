// Golden model of rtl/pfc/pfc_codec.sv: the 802.1Qbb PFC frame encoder (pfc_frame_enc)
// and decoder (pfc_frame_dec), cycle-exact, plus byte-level encode/decode functions the
// fabric simulator and the tests use. Frame layout: docs/pfc.md.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "common/port_struct.h"

namespace ll::pfc {

constexpr unsigned kFrameBytes = 60;           // without FCS
constexpr uint16_t kMacControlType = 0x8808;
constexpr uint16_t kPfcOpcode = 0x0101;
constexpr uint64_t kPfcDa = 0x0180C2000001ull;  // 01-80-C2-00-00-01

// A PFC frame's content.
struct PfcFrame {
  uint32_t enable = 0;                  // priority-enable vector (bit p = priority p)
  std::array<uint32_t, 8> quanta{};     // 16-bit quanta, 0 = RESUME
};

// The 60 bytes pfc_frame_enc sends (quanta of priorities not enabled are sent as 0).
std::vector<uint8_t> encode_frame(uint64_t src_mac, const PfcFrame& f);
// What pfc_frame_dec makes of a whole frame: 1 = PFC frame (f filled), 0 = ignored,
// -1 = matched DA/EtherType/opcode but malformed or err (counted as bad).
int decode_frame(const std::vector<uint8_t>& bytes, bool err, PfcFrame* f);

struct CodecInputs {
  bool rst_n = true;
  uint64_t src_mac = 0;
  bool req_valid = false;
  uint32_t req_prio = 0, req_quanta = 0;
  bool tx_ready = false;
  bool rx_valid = false;
  uint64_t rx_data = 0;
  uint32_t rx_keep = 0;
  bool rx_last = false, rx_err = false;
  bool evt_ready = false;
};

// The codec RTL's outputs, one field each (the bench compares and prints exactly these).
#define LL_PFC_CODEC_OUTPUTS(X)                                                          \
  X(bool, tx_valid, true) X(uint64_t, tx_data, true) X(uint32_t, tx_keep, true)          \
  X(bool, tx_last, true) X(bool, frame_sent, true) X(bool, rx_ready, true)               \
  X(bool, evt_valid, true) X(uint32_t, evt_prio, true) X(uint32_t, evt_quanta, true)     \
  X(bool, good, true) X(bool, bad, true)
LL_PORT_STRUCT(CodecOutputs, LL_PFC_CODEC_OUTPUTS)

class CodecModel {
 public:
  CodecModel() { reset(); }
  CodecOutputs eval(const CodecInputs& in) const;
  void tick(const CodecInputs& in);
  void reset();

 private:
  unsigned lowest_emit() const;
  // encoder
  uint32_t pend_ = 0, fr_en_ = 0;
  std::array<uint32_t, 8> pq_{}, fr_q_{};
  bool busy_ = false;
  uint32_t beat_ = 0;
  // decoder
  uint32_t dbeat_ = 0;
  bool da_ok_ = false, ty_ok_ = false, full_ok_ = true;
  uint32_t en_ = 0, emit_ = 0;
  std::array<uint32_t, 8> tq_{}, etq_{};
  bool good_ = false, bad_ = false;
};

}  // namespace ll::pfc
