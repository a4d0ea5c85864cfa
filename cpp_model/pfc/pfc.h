// Golden model of rtl/pfc/pfc_top.sv: PFC admission / headroom / PAUSE generation,
// received-PAUSE state, PFC watchdog and the SONiC-style pool mode.
//
// One class, two faces:
//  - cycle face: eval()/tick() reproduce the RTL's ports bit- and cycle-exactly (the
//    lockstep testbench compares them every cycle);
//  - transaction face: admit()/depart()/on_pfc()/advance_ticks() and the queries act at
//    once on the same tables, pools and counters (the fabric simulator calls them).
// Both faces run the same per-event function (Model::apply), so they cannot disagree on
// the arithmetic. Threshold convention and accounting: docs/pfc.md.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/cfg_op.h"
#include "common/port_struct.h"
#include "common/ram.h"
#include "pfc/pfc_regs.h"

namespace ll::pfc {

constexpr unsigned kPrios = 8;
constexpr unsigned kLenW = regs::LEN_W;     // packet length width (bytes)
constexpr unsigned kRemW = 25;              // remaining pause, bit times (quanta * 512)
constexpr unsigned kNumCounters = 12;       // global counters at CNT_ADMIT + 4 i

// Admission decision and drop reason: the register map's DEC_* and WHY_* constants
// (rtl/pfc/pfc_regs.json), which the RTL drives on dec_o / dec_why_o.
enum class Decision : uint8_t {
  Admit = regs::DEC_ADMIT, Headroom = regs::DEC_HEADROOM, Drop = regs::DEC_DROP };
enum class Why : uint8_t { None = regs::WHY_NONE, Headroom = regs::WHY_HDRM,
                           EgressLossless = regs::WHY_EGLL, IngressLossy = regs::WHY_ING,
                           EgressLossy = regs::WHY_EGLY, Watchdog = regs::WHY_WD };
enum Counter : unsigned { kAdmit = 0, kHdrm, kViolation, kLossyDrop, kWdDrop, kPauseTx,
                          kResumeTx, kPauseRx, kResumeRx, kWdStorm, kWdRestore, kOverrun };

// Elaboration parameters; names match the RTL parameters.
struct Config {
  unsigned Ports = 8;
  unsigned CntW = 24;
  unsigned StatW = 32;
  unsigned TimerW = 20;
  unsigned TickNs = 1000;
  unsigned RegWords = 1;  // 1: the words registered in S1, the decision in S2 (latency 3); 0: decision in S1 (latency 2)
  void validate() const;  // throws std::invalid_argument naming the bad parameter
  static Config from_params(const std::map<std::string, uint64_t>& p);
  unsigned port_w() const;
  unsigned entries() const { return Ports * kPrios; }
};

// The run-time configuration (one COMMIT's worth), as the hardware stores it.
struct Settings {
  bool dyn = true;            // MODE.DYN
  bool pool = false;          // MODE.POOL (SONiC)
  uint32_t lossless = 0x18;   // LOSSLESS.MASK
  uint32_t xoff_static = 24475;
  int alpha_ing = 0;          // alpha = 2^alpha_ing, -8..7
  int alpha_eg = 0;
  uint32_t xon_offset = 3000;
  uint32_t shared_size = 0xFFFFFFFF;  // truncated to CntW bits
  uint32_t egll_size = 0xFFFFFFFF;
  uint32_t egly_size = 0xFFFFFFFF;
  uint32_t oversub = 0;       // shared headroom pool ratio 2^oversub
  uint32_t quanta = 0xFFFF;
  uint32_t refresh = 0;       // ticks; 0 = never (reset value is derived from TickNs)
  uint32_t gbps = 100;
  uint32_t wd_detect = 0, wd_restore = 0;  // ticks (reset values derived from TickNs)
  std::array<uint32_t, kPrios> rsv{};      // reserved minimum per queue of priority p
  std::array<uint32_t, kPrios> hdrm{};     // headroom (cap in pool mode) per queue
  // Throws std::invalid_argument naming the first field that does not fit its register
  // for this Config (the hardware would silently truncate it).
  void validate(const Config& c) const;
  // The register writes (address, data) that stage these settings, without COMMIT.
  std::vector<std::pair<uint32_t, uint32_t>> writes() const;
  // writes() then COMMIT: what Model::configure() does, as the register program a block
  // gets through its config port (the co-simulation adapter, sim/cosim/pfc_rtl.cpp).
  CfgProgram program() const;
  static Settings reset_values(const Config& c);
};

struct Inputs {
  bool rst_n = true;
  bool adm_valid = false;
  uint32_t adm_iport = 0, adm_eport = 0, adm_prio = 0, adm_len = 0;
  bool adm_lossless = false;
  bool dep_valid = false;
  uint32_t dep_iport = 0, dep_eport = 0, dep_prio = 0, dep_len = 0;
  bool dep_lossless = false;
  bool pfc_valid = false;
  uint32_t pfc_port = 0, pfc_prio = 0, pfc_quanta = 0;
  bool tick = false;
  uint32_t eg_qport = 0;
  bool cfg_we = false, cfg_re = false;
  uint32_t cfg_addr = 0, cfg_wdata = 0;
};

// The RTL's outputs, one field each (the benches compare and print exactly these).
#define LL_PFC_OUTPUTS(X)                                                                 \
  X(bool, adm_ready, true) X(bool, dep_ready, true) X(bool, pfc_ready, true)              \
  X(bool, dec_valid, true) X(uint32_t, dec, true) X(uint32_t, dec_why, true)              \
  X(bool, pause_valid, true) X(uint32_t, pause_port, true) X(uint32_t, pause_prio, true)  \
  X(uint32_t, pause_quanta, true) X(uint32_t, eg_paused, true) X(uint32_t, eg_storm, true) \
  X(uint32_t, cfg_rdata, true) X(bool, cfg_rvalid, true) X(bool, init_done, true)
LL_PORT_STRUCT(Outputs, LL_PFC_OUTPUTS)

// Per ingress port x priority state (RAM iq).
struct IqEntry {
  uint32_t cnt = 0, hdr = 0;   // bytes outside / inside headroom
  bool xoff = false;           // PAUSE asserted upstream
  uint32_t rt = 0;             // ticks since the last PAUSE (refresh timer)
  uint32_t psent = 0, hdrop = 0, hpeak = 0;
};
// Per egress port x priority state (RAM eq).
struct EqEntry {
  uint32_t ecnt = 0;           // bytes queued at this egress queue
  bool pact = false;           // a received PAUSE is running
  uint32_t rem = 0;            // its remaining time in bit times
  bool storm = false;          // watchdog storm state
  uint32_t wdt = 0;            // watchdog timer (ticks)
  uint32_t prcv = 0, ptime = 0, wstorm = 0, wdrop = 0, wrest = 0;
};

struct PauseRequest {
  uint32_t port = 0, prio = 0, quanta = 0;  // quanta 0 = RESUME
};

struct QueueStats {
  uint64_t pause_sent, violations, headroom_peak, pfc_received, paused_ticks, storms,
      wd_drops, restorations;
  uint32_t cnt, hdr, ecnt;
  bool xoff, paused, storm;
};

class Model {
 public:
  explicit Model(const Config& cfg);
  const Config& config() const { return cfg_; }

  // ---- cycle face
  Outputs eval(const Inputs& in) const;
  void tick(const Inputs& in);

  // ---- transaction face (no pipeline; a timer pass runs once per tick)
  struct Result {
    Decision dec = Decision::Admit;
    Why why = Why::None;
  };
  // Hardware reset, then the RAM sweep completed at once.
  void reset_transaction();
  void configure(const Settings& s);  // = stage every register + COMMIT
  Result admit(uint32_t iport, uint32_t eport, uint32_t prio, uint32_t len, bool lossless);
  void depart(uint32_t iport, uint32_t eport, uint32_t prio, uint32_t len, bool lossless);
  void on_pfc(uint32_t port, uint32_t prio, uint32_t quanta);
  // A whole 802.1Qbb frame: every priority whose enable bit is set.
  void on_pfc_frame(uint32_t port, uint32_t enable, const std::array<uint32_t, kPrios>& quanta);
  void advance_ticks(uint64_t n);
  // PAUSE/RESUME requests produced since the last call, in order.
  std::vector<PauseRequest> take_pause_requests();
  bool paused(uint32_t port, uint32_t prio) const;  // egress queue held by a PAUSE
  bool storm(uint32_t port, uint32_t prio) const;
  bool xoff(uint32_t port, uint32_t prio) const;    // ingress queue has PAUSEd upstream
  uint64_t counter(unsigned c) const { return cnt_.at(c).value(); }
  uint64_t violations() const { return counter(kViolation); }
  uint64_t headroom_peak() const { return hdr_peak_; }
  QueueStats queue_stats(uint32_t port, uint32_t prio) const;
  uint32_t shared_used() const { return sh_used_; }
  uint32_t headroom_used() const { return hdr_used_; }
  uint32_t egress_lossless_used() const { return egll_used_; }
  uint32_t egress_lossy_used() const { return egly_used_; }
  uint32_t shared_headroom_pool_size() const { return shp_size(); }
  // The XOFF limit (reserved + threshold, bytes) an admission of priority p sees now.
  uint64_t xoff_limit(uint32_t prio) const;
  const Settings& live() const { return live_; }
  const Settings& staged() const { return stage_; }  // written, not yet COMMITted

  // The pipeline's operation (the RTL's OpNone..OpStat).
  enum Op : uint8_t { kNone = 0, kAdm = 1, kDep = 2, kPfc = 3, kSweep = 4, kStat = 5 };

  // What the last tick() did in the deciding stage (S2, or S1 with RegWords = 0; for
  // testbench coverage, no effect on behaviour).
  struct Trace {
    Op op = kNone;
    uint32_t qi = 0, qe = 0;
    bool dec_v = false;
    Decision dec = Decision::Admit;
    Why why = Why::None;
    bool pz_v = false;
    uint32_t pz_quanta = 0;
    uint32_t inc = 0;                // global counters incremented (before saturation)
    // the op's words came from a write the RAM read missed: the write of the op just ahead
    // (near, made while this op was in S1) or of the op before it (far, made in this op's S0)
    bool fwd_near_iq = false, fwd_near_eq = false, fwd_far_iq = false, fwd_far_eq = false;
    bool expired = false;            // a received PAUSE ran out
    bool expired_exact = false;      // ... with exactly the op's bits left (the boundary of the test)
    bool sh_pool_full = false;       // admission refused by the shared-pool limit alone
    bool shp_full = false;           // headroom refused by the shared headroom pool alone
    bool xon_hdr_hold = false;       // XOFF kept only because the headroom is not empty
    bool sweep_start = false, overrun = false;
    // a COMMIT that changes LINK_GBPS in the cycle the bits of a sweep op's countdown are
    // formed (the op in S1: it takes the old speed); without registered words, a COMMIT of a
    // new LINK_GBPS while a pass issues (S0 holds the pass's next op, which takes the new one)
    bool speed_commit_on_sweep = false;
    bool commit_hold = false;        // RegWords 0: a COMMIT held back an op S0 would have issued
    bool thr_sat = false;            // a dynamic threshold (alpha * free pool) saturated at all ones
    // boundaries of the deciding op's tests, as signed distances (tested: the op made the test)
    // the XON test of a departure, or of a sweep op on an XOFF'd queue, with a non-empty
    // count: cnt + XON_OFFSET - lim (XON iff <= 0)
    bool xon_tested = false;
    int64_t xon_slack = 0;
    // an admission's shared-pool test, when the packet takes bytes from the shared pool:
    // shared_used + its share - SHARED_SIZE (fits iff <= 0)
    bool fit_tested = false;
    int64_t fit_slack = 0;
    // a lossless admission's headroom test (the queue XOFF'd or the packet refused by its
    // threshold): hdr + len - HDRM[p] (within the cap iff <= 0)
    bool hdrm_tested = false;
    int64_t hdrm_slack = 0;
  };
  const Trace& trace() const { return trace_; }

 private:
  struct OpIn {
    Op op = kNone;
    uint32_t qi = 0, qe = 0, len = 0, quanta = 0, clr = 0;
    uint32_t e = 0;  // a sweep op's ticks (the pass's E)
    bool ll = false, snap = false;
    bool fn_iq = false, fn_eq = false, ff_iq = false, ff_eq = false;  // coverage: how S1 got its words
  };
  struct Effects {
    bool iq_we = false, eq_we = false;
    bool dec_v = false;
    Decision dec = Decision::Admit;
    Why why = Why::None;
    bool pz_v = false;
    uint32_t pz_quanta = 0;
    uint32_t inc = 0;  // bit mask of global counters to increment
    bool snap = false;
    bool expired = false, expired_exact = false, sh_pool_full = false, shp_full = false;  // coverage only
    bool xon_hdr_hold = false;                                      // coverage only
    bool xon_tested = false, fit_tested = false, hdrm_tested = false;  // coverage only
    int64_t xon_slack = 0, fit_slack = 0, hdrm_slack = 0;              // coverage only
  };
  // The deciding stage's logic: new entries, pools and effects of one op on current entries.
  // Values the RTL registers (thr_q, egthr_q, shp_q, bpt_q): the XOFF threshold above the
  // reserved minimum, the egress lossy threshold, the shared headroom pool size and the
  // bits per tick. The cycle face passes its registered copies, the transaction face
  // fresh ones.
  struct Regd {
    uint32_t thr = 0, egthr = 0, shp = 0;
    uint64_t bpt = 0;
  };
  Regd regd_now() const;
  Effects apply(const OpIn& op, uint32_t e_ticks, const Regd& r, IqEntry& iq, EqEntry& eq,
                uint32_t& sh, uint32_t& hu, uint32_t& egll, uint32_t& egly) const;
  uint32_t thr_now() const;    // f(shared_used, live settings)
  uint32_t egthr_now() const;  // f(egly_used, live settings)
  void commit_effects(const OpIn& op, const Effects& fx, const IqEntry& iq_old,
                      const EqEntry& eq_old, const IqEntry& iq_new, const EqEntry& eq_new,
                      const uint32_t* clr_mask);
  uint32_t shp_size() const;
  uint64_t bits_per_tick() const;
  uint32_t ashift(uint32_t v, int k) const;
  bool ashift_saturates(uint32_t v, int k) const;
  uint32_t read_reg(uint32_t addr) const;
  void write_reg(uint32_t addr, uint32_t data);
  void reset_state();
  bool commit_of(const Inputs& in) const {
    return in.cfg_we && init_done() && in.cfg_addr == regs::COMMIT && (in.cfg_wdata & 1);
  }
  // RegWords = 0: S0 forms its op's threshold brackets from the live settings, so it issues
  // no op in the cycle a COMMIT takes effect (the cycle after the COMMIT write)
  bool hold() const { return cfg_.RegWords == 0 && commit_q_; }
  bool stat_go() const { return init_done() && stat_pend_ && !hold(); }
  bool init_done() const { return sweep_.done(); }

  Config cfg_;
  uint64_t cmax_, smax_, tmax_;
  Settings stage_, live_;
  uint32_t stat_sel_ = 0;
  InitSweep sweep_;
  Ram<IqEntry> iq_;
  Ram<EqEntry> eq_;
  uint32_t sh_used_ = 0, hdr_used_ = 0, egll_used_ = 0, egly_used_ = 0, hdr_peak_ = 0;
  // RTL shp_q / bpt_q: one cycle behind the live settings (thr, egthr: the RTL's thr_q /
  // egthr_q, from which the brackets of the op deciding next are formed)
  Regd regd_q_;
  Regd regd_q2_;  // the thresholds the deciding op uses: two cycles behind pools and settings
  bool commit_q_ = false;  // a COMMIT was written in the last cycle: live <= stage at this edge
  // egress flags, one byte per port, bit p = priority p (eval() reads a port's 8 at once)
  std::vector<uint8_t> paused_, storm_;
  bool flag(const std::vector<uint8_t>& f, uint32_t port, uint32_t prio) const;
  static void set_flag(std::vector<uint8_t>& f, uint32_t q, bool v);
  bool stat_pend_ = false, stat_snap_ = false;
  uint32_t stat_clr_ = 0;
  bool sw_act_ = false, sw_turn_ = false;
  uint32_t sw_idx_ = 0, sw_pend_ = 0, sw_e_ = 0;
  OpIn s1_, s2_;  // s2_: RegWords only
  bool s1_valid_ = false, s2_valid_ = false;
  IqEntry iq2_;  // the words S2 decides on (registered in S1; RegWords only)
  EqEntry eq2_;
  // the RAM writes of the last edge (the op then deciding), which S1's read missed
  bool iqf_v_ = false, eqf_v_ = false;
  uint32_t iqf_a_ = 0, eqf_a_ = 0;
  IqEntry iqf_d_;
  EqEntry eqf_d_;
  bool dec_v_ = false, pz_v_ = false;
  uint32_t dec_ = 0, why_ = 0, pz_port_ = 0, pz_prio_ = 0, pz_quanta_ = 0;
  std::array<uint32_t, 12> snap_{};  // PSENT HDROP HPEAK PRCV PTIME WSTORM WDROP WREST CNT HDR ECNT FLAGS
  std::vector<SatCounter> cnt_;
  uint32_t rdata_ = 0;
  bool rvalid_ = false;
  std::vector<PauseRequest> tx_pauses_;  // transaction face
  Trace trace_;
};

}  // namespace ll::pfc
