// Lockstep testbench of the 802.1Qbb frame encoder/decoder: rtl/pfc/pfc_codec.sv against
// ll::pfc::CodecModel, cycle by cycle (harness: tb/common/lockstep.h).
//
// Encoder side: PAUSE/RESUME requests on ~30% of cycles (bursts that coalesce into one
// frame), tx_ready low on ~30% of cycles. Decoder side: a stream of frames of many kinds
// (good PFC frames, FCS errors, too short, longer than 60 bytes, a partial non-last beat,
// 802.3x PAUSE, wrong destination, a wrong EtherType / opcode byte, data frames, and PFC
// frames whose length sits at a decoder boundary: 59/60/61, 64/65, 72/73 bytes, the three-
// beat limit of a header match, and 128/129/136 bytes around the beat counter's
// saturation), beats with gaps, held while rx_ready is low; evt_ready low on ~30% of cycles.
#include <iterator>
#include <sstream>

#include "lockstep.h"
#include "common/bits.h"
#include "pfc/pfc_codec.h"
#include "tb_sets.h"

namespace {

using ll::tb::Coverage;
using ll::tb::Rng;
namespace pf = ll::pfc;

enum Kind { kGood, kErr, kShort, kLong, kPartial, kPause8023, kWrongDa, kData, kWrongType, kLenEdge, kKinds };
const char* const kKindBin[kKinds] = {"rx_kind_good", "rx_kind_fcs_error", "rx_kind_short", "rx_kind_long",
                                      "rx_kind_partial_beat", "rx_kind_pause_8023", "rx_kind_wrong_da",
                                      "rx_kind_data", "rx_kind_wrong_type", "rx_kind_length_edge"};
// Frame lengths at the decoder's boundaries: 60 bytes (59/60/61), the ninth beat (64/65,
// 72/73), a header match needs three beats (16/17, 24/25), and the beat counter saturates
// at 15 (120/121, 128/129, 136).
const unsigned kEdgeLen[] = {16, 17, 24, 25, 59, 60, 61, 63, 64, 65, 72, 73, 120, 121, 128, 129, 136};

template <class Dut>
class CodecBench {
 public:
  using In = pf::CodecInputs;
  using Out = pf::CodecOutputs;

  CodecBench(const ll::tb::Params& p, uint64_t seed, Coverage& cov) : rng_(seed), cov_(cov) {
    if (!p.empty()) throw std::invalid_argument("pfc_codec has no parameters");
    mac_ = rng_.next() & 0xFFFFFFFFFFFFull;
  }

  Dut& dut() { return dut_; }
  void bind() {
    dut_.rst_ni(rst_n_);
    dut_.src_mac_i(src_mac_);
    dut_.req_valid_i(req_valid_);
    dut_.req_prio_i(req_prio_);
    dut_.req_quanta_i(req_quanta_);
    dut_.tx_valid_o(tx_valid_);
    dut_.tx_ready_i(tx_ready_);
    dut_.tx_data_o(tx_data_);
    dut_.tx_keep_o(tx_keep_);
    dut_.tx_last_o(tx_last_);
    dut_.frame_sent_o(frame_sent_);
    dut_.rx_valid_i(rx_valid_);
    dut_.rx_ready_o(rx_ready_);
    dut_.rx_data_i(rx_data_);
    dut_.rx_keep_i(rx_keep_);
    dut_.rx_last_i(rx_last_);
    dut_.rx_err_i(rx_err_);
    dut_.evt_valid_o(evt_valid_);
    dut_.evt_ready_i(evt_ready_);
    dut_.evt_prio_o(evt_prio_);
    dut_.evt_quanta_o(evt_quanta_);
    dut_.good_o(good_);
    dut_.bad_o(bad_);
  }

  void drive(const In& in) {
    rst_n_.write(in.rst_n);
    src_mac_.write(in.src_mac);
    req_valid_.write(in.req_valid);
    req_prio_.write(in.req_prio);
    req_quanta_.write(in.req_quanta);
    tx_ready_.write(in.tx_ready);
    rx_valid_.write(in.rx_valid);
    rx_data_.write(in.rx_data);
    rx_keep_.write(in.rx_keep);
    rx_last_.write(in.rx_last);
    rx_err_.write(in.rx_err);
    evt_ready_.write(in.evt_ready);
  }

  Out sample() const {
    Out o;
    o.tx_valid = tx_valid_.read();
    o.tx_data = tx_data_.read();
    o.tx_keep = tx_keep_.read();
    o.tx_last = tx_last_.read();
    o.frame_sent = frame_sent_.read();
    o.rx_ready = rx_ready_.read();
    o.evt_valid = evt_valid_.read();
    o.evt_prio = evt_prio_.read();
    o.evt_quanta = evt_quanta_.read();
    o.good = good_.read();
    o.bad = bad_.read();
    return o;
  }
  Out expected(const In& in) const { return model_.eval(in); }

  static bool valid(const In& in) { return in.req_valid || in.rx_valid; }
  static std::string show(const In& i) {
    std::ostringstream os;
    os << "rst_n=" << i.rst_n << " src_mac=" << ll::tb::hex(i.src_mac) << " req=" << i.req_valid << "(p"
       << i.req_prio << " q=" << i.req_quanta << ") tx_ready=" << i.tx_ready << " rx=" << i.rx_valid
       << "(data=" << ll::tb::hex(i.rx_data) << " keep=" << ll::tb::hex(i.rx_keep) << " last=" << i.rx_last
       << " err=" << i.rx_err << ") evt_ready=" << i.evt_ready;
    return os.str();
  }

  void tick(const In& in) {
    const Out o = model_.eval(in);
    if (in.rst_n) cover(in, o);
    const bool rx_acc = in.rst_n && in.rx_valid && o.rx_ready;
    if (!in.rst_n) {
      frame_.clear();  // a frame cut by reset is abandoned
      pos_ = 0;
      partial_seen_ = false;
      reset_asked_ = false;
      hold_rx_ = false;
      tx_beat_ = 0;
    } else if (rx_acc) {
      if (!in.rx_last && in.rx_keep != 0xFFu) partial_seen_ = true;
      pos_ += 8;
      if (in.rx_last) {
        cov_.hit(kKindBin[kind_]);
        frame_.clear();
        pos_ = 0;
        partial_seen_ = false;
        reset_asked_ = false;
      }
      hold_rx_ = false;
    } else {
      hold_rx_ = in.rx_valid;
    }
    held_ = in;
    model_.tick(in);
  }

  // A reset in the middle of a frame after its short (partial) non-last beat: the
  // decoder's partial-beat flag must clear, or the next good frame is judged bad. Asked in
  // a quarter of such frames (run_lockstep starts it on the next cycle).
  bool want_reset() {
    if (!partial_seen_ || reset_asked_ || frame_.empty()) return false;
    reset_asked_ = true;
    if (!rng_.chance(25)) return false;
    cov_.hit("reset_after_partial_beat");
    return true;
  }

  In stimulus(uint64_t cycle, bool in_reset) {
    In in;
    in.src_mac = mac_;
    if (in_reset && cycle < 4) return in;
    if (rng_.chance(1) && rng_.chance(5)) mac_ = rng_.next() & 0xFFFFFFFFFFFFull;
    in.src_mac = mac_;
    // encoder requests: bursts
    if (burst_ == 0 && rng_.chance(4)) burst_ = static_cast<unsigned>(rng_.range(1, 12));
    if (burst_ > 0 || rng_.chance(10)) {
      if (burst_ > 0) --burst_;
      in.req_valid = true;
      in.req_prio = static_cast<uint32_t>(rng_.below(8));
      in.req_quanta = rng_.chance(30) ? 0u : static_cast<uint32_t>(rng_.range(1, 0xFFFF));
    }
    in.tx_ready = !rng_.chance(30);
    in.evt_ready = !rng_.chance(30);
    // decoder frames
    if (hold_rx_) {
      in.rx_valid = true;
      in.rx_data = held_.rx_data;
      in.rx_keep = held_.rx_keep;
      in.rx_last = held_.rx_last;
      in.rx_err = held_.rx_err;
      return in;
    }
    if (frame_.empty()) new_frame();
    if (rng_.chance(80)) {
      in.rx_valid = true;
      for (unsigned k = 0; k < 8 && pos_ + k < frame_.size(); ++k) {
        in.rx_data |= uint64_t{frame_[pos_ + k]} << (8 * k);
        in.rx_keep |= 1u << k;
      }
      in.rx_last = pos_ + 8 >= frame_.size();
      // one non-last beat (the first, the header's or a later one) shorter than 8 bytes
      if (kind_ == kPartial && pos_ == partial_at_ && !in.rx_last)
        in.rx_keep &= static_cast<uint32_t>(ll::low_mask(partial_keep_));
      in.rx_err = in.rx_last && kind_ == kErr;
      if (!in.rx_last && rng_.chance(2)) in.rx_err = true;  // err outside the last beat: ignored
    }
    return in;
  }

 private:
  bool partial_seen_ = false;  // this frame had a short non-last beat accepted
  bool reset_asked_ = false;   // want_reset decided for this frame
  void new_frame() {
    const int r = static_cast<int>(rng_.below(100));
    kind_ = r < 45 ? kGood : r < 51 ? kErr : r < 56 ? kShort : r < 61 ? kLong : r < 67 ? kPartial
          : r < 72 ? kPause8023 : r < 77 ? kWrongDa : r < 82 ? kData : r < 90 ? kWrongType : kLenEdge;
    pf::PfcFrame f;
    const int e = static_cast<int>(rng_.below(10));
    f.enable = e == 0 ? 0u : e == 1 ? 0xFFu : static_cast<uint32_t>(rng_.next() & 0xFF);
    for (auto& q : f.quanta) q = rng_.chance(25) ? 0u : static_cast<uint32_t>(rng_.below(0x10000));
    frame_ = pf::encode_frame(rng_.next() & 0xFFFFFFFFFFFFull, f);
    if (rng_.chance(10)) frame_[16] = static_cast<uint8_t>(rng_.next());  // reserved byte: ignored
    switch (kind_) {
      case kShort: frame_.resize(rng_.range(17, 59)); break;
      case kLong: frame_.resize(rng_.range(61, 200), static_cast<uint8_t>(rng_.next())); break;
      case kPause8023: frame_[14] = 0x00; frame_[15] = 0x01; break;
      case kWrongDa: frame_[rng_.below(6)] ^= static_cast<uint8_t>(1u << rng_.below(8)); break;
      case kWrongType: {  // one bit of the EtherType or the opcode (bytes 12..15) flipped
        const unsigned byte = 12 + static_cast<unsigned>(rng_.below(4));
        frame_[byte] ^= static_cast<uint8_t>(1u << rng_.below(8));
        cov_.hit(byte < 14 ? "rx_wrong_ethertype" : "rx_wrong_opcode");
        break;
      }
      case kLenEdge: {
        const unsigned len = kEdgeLen[rng_.below(std::size(kEdgeLen))];
        frame_.resize(len, static_cast<uint8_t>(rng_.next()));
        cov_.hit(len < 60 ? "rx_length_edge_short" : len > 120 ? "rx_length_edge_beat_saturation" : "rx_length_edge_long");
        break;
      }
      case kData:
        frame_.resize(rng_.range(8, 128));
        for (auto& b : frame_) b = static_cast<uint8_t>(rng_.next());
        break;
      default: break;
    }
    if (kind_ == kPartial) {
      partial_at_ = 8 * static_cast<size_t>(rng_.below(frame_.size() / 8));
      partial_keep_ = static_cast<unsigned>(rng_.range(1, 7));
    }
    if (kind_ == kGood && f.enable == 0) cov_.hit("rx_good_no_priority");
    if (kind_ == kGood && f.enable == 0xFF) cov_.hit("rx_good_all_priorities");
    pos_ = 0;
  }

  void cover(const In& in, const Out& o) {
    if (o.frame_sent) cov_.hit("tx_frame_sent");
    if (o.tx_valid && !in.tx_ready) cov_.hit("tx_stall");
    if (o.tx_valid && o.tx_data != 0 && tx_beat_ == 2 && __builtin_popcount(static_cast<unsigned>((o.tx_data >> 8) & 0xFF)) >= 2)
      cov_.hit("tx_coalesced");
    if (o.tx_valid && in.tx_ready) tx_beat_ = o.tx_last ? 0 : tx_beat_ + 1;
    if (in.req_valid && o.tx_valid) cov_.hit("tx_request_during_frame");
    if (in.rx_valid && !o.rx_ready) cov_.hit("rx_stall");
    if (o.evt_valid && !in.evt_ready) cov_.hit("evt_stall");
    if (o.evt_valid && in.evt_ready) cov_.hit(o.evt_quanta == 0 ? "evt_resume" : "evt_pause");
    if (o.good) cov_.hit("rx_good");
    if (o.bad) cov_.hit("rx_bad");
  }

  pf::CodecModel model_;
  Rng rng_;
  Coverage& cov_;
  Dut dut_{"dut"};
  ll::tb::Wire<bool> rst_n_, req_valid_, tx_valid_, tx_ready_, tx_last_, frame_sent_, rx_valid_, rx_ready_,
      rx_last_, rx_err_, evt_valid_, evt_ready_, good_, bad_;
  ll::tb::Wire<uint32_t> req_prio_, req_quanta_, tx_keep_, rx_keep_, evt_prio_, evt_quanta_;
  ll::tb::Wire<uint64_t> src_mac_, tx_data_, rx_data_;
  uint64_t mac_ = 0;
  unsigned burst_ = 0, tx_beat_ = 0;
  std::vector<uint8_t> frame_;
  size_t pos_ = 0;
  Kind kind_ = kGood;
  size_t partial_at_ = 16;
  unsigned partial_keep_ = 6;
  bool hold_rx_ = false;
  In held_;
};

}  // namespace

#define LL_TB_BENCH CodecBench
LL_TB_MAIN("pfc_codec")
