// Golden model of rtl/dcqcn/dcqcn_top.sv: DCQCN notification point (NP), reaction point
// (RP) for Queues QPs and the Carousel-style timing-wheel rate limiter.
//
// One class, two faces:
//  - cycle face: eval()/tick() reproduce the RTL's ports bit- and cycle-exactly
//    (the lockstep testbench compares them every cycle);
//  - transaction face: on_cnp(), on_sent(), on_marked(), next_departure() on the same
//    per-QP state (the fabric simulator calls them), event-exact.
// The algorithm itself is rp_core.h (fixed and double arithmetic); formats in formats.h.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/cfg_op.h"
#include "common/port_struct.h"
#include "common/ram.h"
#include "dcqcn/formats.h"
#include "dcqcn/rp_core.h"

namespace ll::dcqcn {

// Elaboration parameters; names match the RTL parameters of rtl/dcqcn/dcqcn_top.sv.
struct Config {
  unsigned Queues = 64;          // QPs (RP, wheel) and flows (NP), >= 2
  unsigned Slots = 64;           // wheel slots, power of two >= 4
  unsigned SlotLog2 = 6;         // slot length = 2^SlotLog2 ticks
  uint64_t TickPs = 1000;        // time-base tick length in ps
  uint64_t LineRateMbps = 100000;
  unsigned BytesW = 14;          // packet-size field width (bytes), 7..16
  unsigned IfgBytes = 0;         // per-packet overhead added to the size in the wheel
  unsigned AlphaSteps = 8;       // alpha periods one RP pass can apply (catch-up bound)
  unsigned DecSteps = 4;         // decrease-check periods one RP pass can skip
  unsigned ScanForce = 4;        // a scan pass at least every ScanForce cycles, >= 2
  unsigned DivBits = 4;          // divider quotient bits per cycle: 1, 2, 4, 8 or 16
  uint64_t TimeStart = 0;        // the time base after reset (ticks), below 2^32
  void validate() const;         // throws std::invalid_argument naming the bad parameter
  static Config from_params(const std::map<std::string, uint64_t>& p);
  // derived
  unsigned qw() const;           // QP index width
  uint64_t line_bps() const { return LineRateMbps * kMbps; }
  uint64_t tps() const;          // ticks per second, Q.16
  uint64_t ltpb() const;         // ticks per byte at line rate, Q.16, rounded up
  Bounds bounds() const { return {AlphaSteps, DecSteps}; }
};

struct Inputs {
  bool rst_n = true;
  bool tick = false;
  bool ce_valid = false;  uint32_t ce_flow = 0;     // NP: CE-marked data packet
  bool cnpo_ready = true;                            // NP: CNP output
  bool cnp_valid = false; uint32_t cnp_qp = 0;      // RP: CNP received
  bool sent_valid = false; uint32_t sent_qp = 0; uint32_t sent_bytes = 0;  // RP: bytes sent
  bool enq_valid = false; uint32_t enq_qp = 0; uint32_t enq_bytes = 0;     // wheel: QP token
  bool grant_ready = true;                           // wheel: departure
  bool cfg_we = false, cfg_re = false;
  uint32_t cfg_addr = 0, cfg_wdata = 0;
};

// The RTL's outputs, one field each (the benches compare and print exactly these). A
// payload is compared only while its valid is high (the RTL leaves it undefined otherwise).
#define LL_DCQCN_OUTPUTS(X)                                                               \
  X(bool, init_done, true) X(bool, ce_ready, true)                                        \
  X(bool, cnpo_valid, true) X(uint32_t, cnpo_flow, x.cnpo_valid)                          \
  X(bool, cnp_ready, true) X(bool, sent_ready, true)                                      \
  X(bool, rate_valid, true) X(uint32_t, rate_qp, x.rate_valid) X(uint64_t, rate, x.rate_valid) \
  X(bool, enq_ready, true)                                                                \
  X(bool, grant_valid, true) X(uint32_t, grant_qp, x.grant_valid)                         \
  X(uint32_t, grant_bytes, x.grant_valid)                                                 \
  X(uint32_t, cfg_rdata, true) X(bool, cfg_rvalid, true)
LL_PORT_STRUCT(Outputs, LL_DCQCN_OUTPUTS)

// The register writes that configure(r) stands for: every STAGE_* register, then COMMIT
// (the co-simulation's DCQCN recipe programs the block through its config port with them).
CfgProgram stage_ops(const StageRegs& r);

// ---------------------------------------------------------------- NP (dcqcn_np.sv)
struct NpEntry {
  bool seen = false;
  uint64_t last = 0;
};
class NpCyc {
 public:
  static constexpr unsigned kFifo = 8;
  explicit NpCyc(unsigned q) : sweep_(q), ram_(q) {}
  void reset();
  bool done() const { return sweep_.done(); }
  // room in the FIFO for the packets in S1..S3 and one more
  bool ce_ready() const {
    return sweep_.done() && fifo_n_ + (s1_.valid ? 1u : 0u) + (s2_.valid ? 1u : 0u) + (s3_valid_ ? 1u : 0u) < kFifo;
  }
  bool out_valid() const { return fifo_n_ != 0; }
  uint32_t out_flow() const { return fifo_[rd_]; }
  // a decision leaves S3 in this cycle (clock() returns whether it pushes a CNP)
  bool s3_valid() const { return s3_valid_; }
  // the decision S2 made at the last clock(): its packet's time and the entry's last CNP time
  struct Decision {
    bool valid = false, seen = false;
    uint64_t t = 0, last = 0;
  };
  const Decision& last_decision() const { return dec_; }
  // One cycle's inputs, by name (dcqcn_np's ports; zero = in reset).
  struct In {
    bool rst_n = false;
    uint64_t now = 0;
    bool per_pkt = false;
    uint64_t interval = 0;
    bool ce_valid = false;
    uint32_t ce_flow = 0;
    bool out_ready = false;
  };
  // returns true if a CNP is pushed into the FIFO in this cycle (the NIC-wide counter)
  bool clock(const In& in);
  // transaction: a CE-marked packet of `flow` at time t; true if a CNP is sent
  bool marked(uint32_t flow, uint64_t t, bool per_pkt, uint64_t interval);
  void clear(uint32_t flow) { ram_.at(flow) = NpEntry{}; }  // transaction: a new flow in this entry

 private:
  static bool decide(NpEntry& e, uint64_t t, bool per_pkt, uint64_t interval);
  InitSweep sweep_;
  Ram<NpEntry> ram_;   // the entries as every packet that has left S2 left them
  struct Stage {       // a packet in S1 or S2
    bool valid = false;
    uint32_t flow = 0;
    uint64_t t = 0;
    uint64_t interval = 0;  // S2: the coalescing interval in force while it was in S1
  };
  Stage s1_, s2_;
  bool s3_valid_ = false, s3_send_ = false;
  uint32_t s3_flow_ = 0;
  uint32_t fifo_[kFifo] = {};
  unsigned rd_ = 0, wr_ = 0, fifo_n_ = 0;
  Decision dec_;
};

// ---------------------------------------------------------------- RP (dcqcn_rp.sv)
struct RpEvent {
  bool valid = false;
  Ev kind = Ev::Scan;
  uint32_t qp = 0;
  uint64_t t = 0;
  uint32_t bytes = 0;
  bool clr = false;
};
struct StatSnap {
  uint32_t cnp = 0, dec = 0, fr = 0, ai = 0, hai = 0;
  uint64_t rc = 0, alpha = 0;
};
class RpCyc {
 public:
  // the pass takes kPassLat stages (S2..S6 = dcqcn_rp_pass P1..P5); its result is in S6
  static constexpr unsigned kPassLat = 5;
  RpCyc(const Config& cfg) : cfg_(cfg), sweep_(cfg.Queues), ram_(cfg.Queues) {}
  void reset();
  bool done() const { return sweep_.done(); }
  bool force() const { return gap_ + 1 >= cfg_.ScanForce; }
  // an event whose QP has a pass in S2..S5 (result not ready) waits in S1
  bool stall() const {
    if (!s1_.valid) return false;
    if (s2_.valid && s2_.qp == s1_.qp) return true;
    for (unsigned i = 0; i + 1 < kPassLat - 1; ++i)
      if (ps_[i].ev.valid && ps_[i].ev.qp == s1_.qp) return true;
    return false;
  }
  // the event or snapshot in S2 is late (its catch-up does not complete in this pass):
  // it is replayed (see clock()); passes use the configuration copy (cfg_copy())
  bool replay_now() const {
    return s2_.valid && s2_.kind != Ev::Scan && pass_late(s2_state_, cfgq_, cfg_.bounds(), s2_.kind, s2_.t);
  }
  // no pass in S2..S5: a pending COMMIT may reload the configuration copy
  bool drained() const {
    return !s2_.valid && !ps_[0].ev.valid && !ps_[1].ev.valid && !ps_[2].ev.valid;
  }
  // a COMMIT waits for S2..S5 to empty: nothing new enters S2 (replays go on)
  bool cfg_block() const { return cfg_pend_ && !drained(); }
  // S1 keeps its event and S0 accepts nothing: a stall, a replay being decided (S2 late)
  // or waiting in the replay register (it re-enters S2 ahead of S1), or a pending COMMIT
  bool hold() const { return stall() || rep_.valid || replay_now() || cfg_block(); }
  bool snap_ready() const { return done() && !hold() && !force(); }
  bool cnp_ready(bool snap_valid) const { return snap_ready() && !snap_valid; }
  bool sent_ready(bool snap_valid, bool cnp_valid) const { return cnp_ready(snap_valid) && !cnp_valid; }
  // the configuration the passes use: the live one of the last reload (dcqcn_rp's cfg_q)
  const Live& cfg_copy() const { return cfgq_; }
  bool rate_valid() const { return rate_valid_; }
  uint32_t rate_qp() const { return rate_qp_; }
  uint64_t rate() const { return rate_; }
  struct Pulses {
    bool late = false;
    bool stat_valid = false;
    StatSnap stat;
    // coverage of the S2 pass and of the S1 forwarding of this cycle
    bool pass_valid = false;
    Ev kind = Ev::Scan;
    PassCov cov;
    bool fwd_s2 = false, fwd_wb = false;  // forwarded from the S6 result / the last write
    bool stall = false;                    // an event waited in S1 for its QP ahead in S2..S5
    // replay: a late event/snapshot pass in S2 this cycle (kind = its kind), waiting in or
    // re-issued from the replay register (rep_reissue), and whether it was already a replay
    bool replay = false, replay_again = false, rep_reissue = false;
    Ev replay_kind = Ev::Scan;
    bool replay_blocks_same_qp = false;    // S1 waits behind a replay of its own QP
    bool cfg_wait = false;                 // a pending COMMIT held S1 (S2..S5 not empty)
    bool cfg_wait_replay = false;          // ... while a replay goes on with the old copy
    bool cfg_reload = false;               // a pending COMMIT's copy of the live configuration
  };
  // One cycle's inputs, by name (dcqcn_rp's ports; zero = in reset).
  struct In {
    bool rst_n = false;
    uint64_t now = 0;
    bool snap_valid = false;
    uint32_t snap_qp = 0;
    bool snap_clr = false;
    bool cnp_valid = false;
    uint32_t cnp_qp = 0;
    bool sent_valid = false;
    uint32_t sent_qp = 0, sent_bytes = 0;
    bool commit = false;   // the live configuration changes at the end of this cycle
  };
  // live: this cycle's live configuration (the copy takes it during the init sweep and
  // when a pending COMMIT finds S2..S5 empty)
  Pulses clock(const In& in, const Live& live);
  Qp<Fixed>& entry(size_t q) { return ram_.at(q); }
  const Qp<Fixed>& entry(size_t q) const { return ram_.at(q); }
  void fill(const Live& live);  // reset + sweep done at once (transaction use)

 private:
  Config cfg_;
  InitSweep sweep_;
  Ram<Qp<Fixed>> ram_;
  unsigned gap_ = 0;
  uint32_t scan_ptr_ = 0;
  RpEvent s1_, s2_;
  RpEvent rep_;          // replay register: a late event re-enters S2 from here
  unsigned rep_wait_ = 0;   // cycles until its partial pass is in S6
  bool s2_replay_ = false;  // the S2 event is a replay (coverage only)
  Qp<Fixed> s2_state_;
  // S3..S6: the pass result computed from S2 (the RTL's P2..P5 carry it), with its
  // by-products; ps_[kPassLat - 2] is S6
  struct PassSlot {
    RpEvent ev;
    Qp<Fixed> res;
    uint64_t rc_before = 0;
    bool late = false;
    PassCov cov;
  };
  PassSlot ps_[kPassLat - 1];
  bool wb_valid_ = false;
  uint32_t wb_qp_ = 0;
  Qp<Fixed> wb_;
  bool rate_valid_ = false;
  uint32_t rate_qp_ = 0;
  uint64_t rate_ = 0;
  Live cfgq_;               // the configuration copy the passes read
  bool cfg_pend_ = false;   // a COMMIT waits for S2..S5 to empty
};

// ---------------------------------------------------------------- wheel (dcqcn_wheel.sv)
struct TokenInfo {
  uint64_t t_dep = 0;  // Q48.16 ticks
  uint32_t bytes = 0;
};
class WheelCyc {
 public:
  explicit WheelCyc(const Config& cfg);
  void reset();
  bool done() const { return sweep_.done(); }
  bool enq_ready() const { return sweep_.done() && e_state_ == Enq::Idle; }
  bool grant_valid() const { return g_valid_; }
  uint32_t grant_qp() const { return g_qp_; }
  uint32_t grant_bytes() const { return g_bytes_; }
  uint64_t grant_departure() const { return g_dep_; }  // Q48.16 departure time of the granted token
  struct Pulses {
    bool reinsert = false;
    bool wrap = false;   // the drain pointer passed slot Slots-1 -> 0
    // coverage of the insertion (the RTL forms its departure and slot a cycle ahead)
    bool ins_held_b = false;        // an insertion waits for a pop's phase B
    bool ins_held_c = false;        // ... for a re-insertion (phase C)
    bool ins_held_d = false;        // ... for a marked slot's token checked (phase D)
    bool ins_clamped = false;       // an insertion into the horizon slot
    bool ins_clamped_adv = false;   // ... of a horizon that moved at the last edge
    bool ins_old_horizon_adv = false;  // an insertion at its t_last in the slot the horizon left at the last edge
    bool ins_now_moved = false;     // an insertion at now whose slot now's value of this cycle would change
    // the pop of a marked slot's token (the slot may hold a parked one): checked in phase D
    bool pop_checked_parked = false;    // ... granted there: a parked token now due
    bool pop_checked_unparked = false;  // ... granted there: it had gone in at its own slot
    // never set: an unmarked slot's token popped before its slot (the RTL grants those
    // unchecked and asserts this cannot happen; the unit tests check it does not)
    bool unmarked_not_due = false;
  };
  // One cycle's inputs, by name (dcqcn_wheel's ports; zero = in reset).
  struct In {
    bool rst_n = false;
    uint64_t now = 0;
    bool rate_we = false;
    uint32_t rate_qp = 0;
    uint64_t rate = 0;
    bool enq_valid = false;
    uint32_t enq_qp = 0, enq_bytes = 0;
    bool grant_ready = false;
  };
  Pulses clock(const In& in);
  // transaction face: Carousel departure time of a `bytes` packet of qp at time now
  // (Q48.16 ticks), updating the QP's t_last; uses the QP's rate as last written.
  uint64_t next_departure(uint32_t qp, uint32_t bytes, uint64_t now);
  uint64_t rate_of(uint32_t qp) const { return rate_ram_.at(qp); }
  void set_rate(uint32_t qp, uint64_t r) { rate_ram_.at(qp) = r; }
  // transaction: a new QP in this slot (rate r, no departure history)
  void clear(uint32_t qp, uint64_t r) {
    rate_ram_.at(qp) = r;
    tlast_ram_.at(qp) = 0;
  }
  void fill();
  uint64_t delta(uint32_t bytes, uint64_t rate) const;  // serialisation time, Q.16 ticks
  // read-only views for a bench's stimulus: a QP's t_last (Q48.16 ticks), the drain
  // pointer's absolute slot (the horizon is Slots - 1 beyond it), and the divide steps left
  // of the enqueue in flight (0 when it is not dividing; at 1 the insertion follows)
  uint64_t t_last(uint32_t qp) const { return tlast_ram_.at(qp); }
  uint64_t drain_slot() const { return rel_abs_; }
  unsigned divide_left() const { return e_state_ == Enq::Divide ? e_cnt_ : 0; }

 private:
  uint64_t abs_slot(uint64_t t_q16) const { return t_q16 >> (kTimeFrac + cfg_.SlotLog2); }
  void append(uint64_t abs, uint32_t q, bool clamped);
  Config cfg_;
  uint64_t tps_, ltpb_;
  InitSweep sweep_;
  Ram<uint64_t> rate_ram_, tlast_ram_;
  Ram<uint32_t> next_ram_;
  Ram<TokenInfo> info_ram_;
  std::vector<uint32_t> head_, tail_;
  std::vector<bool> empty_;
  // per slot: marked while it holds a token appended clamped (parked beyond its own slot);
  // a marked slot's tokens are checked against now in pop phase D
  std::vector<bool> park_;
  uint64_t rel_abs_ = 0;
  // enqueue state machine (the RTL's EnqIdle..EnqInsert): idle, read (the rate and t_last
  // read), odd (the rate's odd multiples formed: a cycle of its own), divide, insert
  enum class Enq : uint8_t { Idle = 0, Read = 1, Divide = 2, Insert = 3, Odd = 4 };
  Enq e_state_ = Enq::Idle;
  unsigned e_cnt_ = 0;
  uint32_t e_qp_ = 0, e_bytes_ = 0;
  uint64_t e_num_ = 0, e_den_ = 0, e_rem_ = 0, e_quo_ = 0, e_tl_ = 0;
  // pop path: 0 idle, 1 phase B (data: unlink; grant a token of an unmarked slot), 3 phase
  // D (a marked slot's token: granted if due, else to phase C), 2 phase C (re-insert a token
  // popped before its slot into rei_slot_)
  unsigned p_state_ = 0;
  uint32_t p_qp_ = 0, p_slot_ = 0;
  bool p_park_ = false;         // the popped token's slot was marked (phase A)
  TokenInfo p_info_{};          // its info, registered in phase B for phase D
  uint64_t rei_slot_ = 0;
  bool rei_clamp_ = false;
  uint64_t prev_now_ = 0;   // now of the previous cycle: an insertion's departure uses it
  bool prev_adv_ = false;   // the drain pointer moved at the last edge (an insertion's mark, coverage)
  bool g_valid_ = false;
  uint32_t g_qp_ = 0, g_bytes_ = 0;
  uint64_t g_dep_ = 0;
  uint64_t link_free_ = 0;
};

// ---------------------------------------------------------------- the block
class Model {
 public:
  explicit Model(const Config& cfg);
  const Config& config() const { return cfg_; }

  // ---- cycle face
  Outputs eval(const Inputs& in) const;
  void tick(const Inputs& in);

  // ---- transaction face (event-exact; no pipeline, no latency)
  void reset_transaction();                       // reset + sweeps completed at once
  void configure(const StageRegs& r);             // = STAGE_* writes + COMMIT
  void on_cnp(uint32_t qp, uint64_t t);           // RP: CNP at time t (ticks)
  void on_sent(uint32_t qp, uint32_t bytes, uint64_t t);
  bool on_marked(uint32_t flow, uint64_t t);      // NP: CE-marked packet; true: send a CNP
  uint64_t rate(uint32_t qp, uint64_t t);         // RP rate at time t (applies due timers)
  // wheel: departure time (Q48.16 ticks) of the next `bytes` packet of qp at time now
  uint64_t next_departure(uint32_t qp, uint32_t bytes, uint64_t now);
  // QP (re)creation: the slot's RP state, wheel history and NP entry return to their
  // reset values (a new connection reusing the slot starts at line rate).
  void reset_qp(uint32_t qp);
  const Qp<Fixed>& qp_state(uint32_t qp) const { return rp_.entry(qp); }
  const Live& live() const { return live_; }
  // the configuration the RP's passes use (its copy of the live one, reloaded after a
  // COMMIT once the passes in flight have drained)
  const Live& rp_config() const { return rp_.cfg_copy(); }
  uint64_t now() const { return now_; }
  uint64_t cnt_cnp_sent() const { return cnt_[0].value(); }
  uint64_t cnt_late() const { return cnt_[1].value(); }
  uint64_t cnt_reinsert() const { return cnt_[2].value(); }
  uint64_t cnt_grants() const { return cnt_[3].value(); }
  // what the last tick() did (for the lockstep bench's coverage)
  struct TickCov {
    RpCyc::Pulses rp;
    WheelCyc::Pulses wheel;
    bool np_sent = false, np_suppressed = false, snap_done = false;
    NpCyc::Decision np;   // the NP's S2 decision (valid: one was made)
  };
  const TickCov& last_cov() const { return cov_; }
  const WheelCyc& wheel() const { return wheel_; }

 private:
  uint32_t read_reg(uint32_t addr) const;
  void reset_regs();

  Config cfg_;
  uint64_t now_ = 0;
  StageRegs stage_;
  Live live_;
  NpCyc np_;
  RpCyc rp_;
  WheelCyc wheel_;
  SatCounter cnt_[4];
  bool snap_pend_ = false, snap_clr_ = false, snap_done_ = false;
  uint32_t snap_qp_ = 0;
  StatSnap stat_;
  uint32_t rdata_ = 0;
  bool rvalid_ = false;
  TickCov cov_;
};

}  // namespace ll::dcqcn
