// Golden model of rtl/marker/marker_top.sv: the RED/ECN marker (DCQCN congestion point).
//
// One class, two faces:
//  - cycle face: eval()/tick() reproduce the RTL's ports bit- and cycle-exactly
//    (the lockstep testbench compares them every cycle);
//  - transaction face: decide() answers one packet at once with the same profile
//    tables, EWMA state, PRNG stream and counters (the fabric simulator calls it).
// The formula and the fixed-point choices are documented in docs/marker.md.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/cfg_op.h"
#include "common/port_struct.h"
#include "common/prng.h"
#include "common/ram.h"
#include "marker/marker_regs.h"

namespace ll::marker {

constexpr unsigned kEwmaFrac = regs::EWMA_FRAC;  // fractional bits of the stored EWMA
constexpr unsigned kRandBits = regs::RAND_BITS;  // random bits per decision
constexpr unsigned kMaxE = 48;                   // slope exponents above this act as 48

// Elaboration parameters; names match the RTL parameters.
struct Config {
  unsigned Queues = 64;
  unsigned Profiles = 4;
  unsigned QW = 24;
  unsigned CntW = 32;
  uint64_t Seed = 0x0123456789ABCDEFull;
  void validate() const;  // throws std::invalid_argument naming the bad parameter
  // From "Queues=8,Profiles=2,..." (the testbench's parameter-set strings).
  static Config from_params(const std::map<std::string, uint64_t>& p);
};

// One marking profile exactly as the hardware stores it.
struct Profile {
  uint32_t kmin = 0, kmax = 0;  // bytes
  uint32_t m = 0;               // slope mantissa (16 bits)
  uint32_t e = 0;               // slope exponent (6 bits): p = (q - kmin) * m / 2^e
  bool enable = false, ewma = false, deq = false, drop = false;
  uint32_t w = 0;               // EWMA shift (4 bits)

  uint32_t flags_word() const;  // STAGE_FLAGS encoding
  uint32_t slope_word() const;  // STAGE_SLOPE encoding

  // Control-plane constructor: RED with Pmax at Kmax. Rejects Kmin > Kmax, Pmax outside
  // [0, 1], w > 15 and settings the 16-bit mantissa cannot represent within 1% relative
  // error, with std::invalid_argument naming the problem.
  static Profile red(uint32_t kmin, uint32_t kmax, double pmax, unsigned qw = 32);
  // DCTCP-style cut-off: mark every ECN-capable packet when q > k.
  static Profile cutoff(uint32_t k, unsigned qw = 32);
  // The probability this profile represents at queue length q (exact rational value).
  double probability(uint32_t q) const;
};

struct Inputs {
  bool rst_n = true;
  bool ev_valid = false, ev_deq = false;
  uint32_t ev_queue = 0, ev_qlen = 0;
  bool ev_ect = false, ev_lossless = false;
  bool dec_ready = true;
  bool cfg_we = false, cfg_re = false;
  uint32_t cfg_addr = 0, cfg_wdata = 0;
};

// The RTL's outputs, one field each (the benches compare and print exactly these).
#define LL_MARKER_OUTPUTS(X)                                                         \
  X(bool, ev_ready, true) X(bool, dec_valid, true) X(uint32_t, dec_queue, true)      \
  X(bool, dec_mark, true) X(bool, dec_drop, true) X(uint32_t, cfg_rdata, true)       \
  X(bool, cfg_rvalid, true) X(bool, init_done, true)
LL_PORT_STRUCT(Outputs, LL_MARKER_OUTPUTS)

enum class Verdict { Pass, Mark, Drop };

// Stage S1 (rtl/marker/marker_ewma.sv): EWMA update and the length judged.
struct Ewma {
  uint64_t avg;   // EWMA after the event (QW.8)
  uint32_t qeff;  // queue length the decision uses
};
Ewma ewma_stage(bool ewma_mode, uint32_t w, bool deq, uint32_t qlen, uint64_t avg, unsigned qw);

// Stage S2 (rtl/marker/marker_thresh.sv): threshold tests and the action.
struct Thresh {
  bool above, linear;
  uint32_t excess;   // qeff - Kmin (QW bits)
  bool act_mark, act_drop;
};
Thresh thresh_stage(const Profile& p, unsigned qw, bool deq, uint32_t qeff, bool ect, bool lossless);

// Stage S4 (rtl/marker/marker_prob.sv): true = congested. prod = excess * M (S3).
bool prob_stage(bool above, bool linear, uint64_t prod, uint32_t e, uint64_t rand48);

// All stages at once, as the transaction face uses them.
struct DecideResult {
  uint64_t avg;  // EWMA after the event (QW.8)
  bool mark, drop;
};
DecideResult decide_core(const Profile& p, unsigned qw, bool deq, uint32_t qlen, bool ect,
                         bool lossless, uint64_t avg, uint64_t rand48);

// Register programs (docs/marker_regmap.md), shared by the lockstep bench and the
// co-simulation adapter: the writes that install `p` as profile `index` (the four STAGE_*
// registers, then PROFILE_COMMIT; what Model::set_profile does at once), and the write
// that maps `queue` to `profile` (Model::map_queue).
CfgProgram profile_ops(unsigned index, const Profile& p);
CfgOp qmap_op(uint32_t queue, unsigned profile);

class Model {
 public:
  explicit Model(const Config& cfg);
  const Config& config() const { return cfg_; }

  // ---- cycle face
  Outputs eval(const Inputs& in) const;
  void tick(const Inputs& in);

  // ---- transaction face (no pipeline, no latency)
  Verdict decide(uint32_t queue, uint32_t qlen, bool ect, bool lossless, bool deq = false);
  void set_profile(unsigned index, const Profile& p);  // = stage + PROFILE_COMMIT
  void map_queue(uint32_t queue, unsigned profile);    // = QMAP_WRITE
  uint64_t decisions() const { return cnt_dec_.value(); }
  uint64_t marks() const { return cnt_mark_.value(); }
  uint64_t drops() const { return cnt_drop_.value(); }
  // Hardware reset of the whole block, then the RAM sweep completed at once.
  void reset_transaction();

  const Profile& profile(unsigned i) const { return prof_.at(i); }

 private:
  uint32_t read_reg(uint32_t addr) const;

  Config cfg_;
  // registers
  uint32_t stage_kmin_ = 0, stage_kmax_ = 0, stage_slope_ = 0, stage_flags_ = 0;
  std::vector<Profile> prof_;
  InitSweep sweep_;
  Ram<uint32_t> qmap_;
  Ram<uint64_t> ewma_;
  // S0: the event, its profile row still to be read (qmap_ holds its profile id)
  bool s0_valid_ = false, s0_deq_ = false, s0_ect_ = false, s0_lossless_ = false;
  uint32_t s0_queue_ = 0, s0_qlen_ = 0;
  struct S1 {  // after S0: the event and its profile snapshot; ewma_ holds its word
    bool valid = false, deq = false, ect = false, lossless = false;
    uint32_t queue = 0, qlen = 0;
    Profile prof;
  } s1_;
  // the last word written back, for the read made at the same edge as its write
  bool fwd_valid_ = false;
  uint32_t fwd_queue_ = 0;
  uint64_t fwd_avg_ = 0;
  struct S2 {  // after S1: event, judged length and the profile snapshot
    bool valid = false, deq = false, ect = false, lossless = false;
    uint32_t queue = 0, qeff = 0;
    Profile prof;
  } s2_;
  struct S3 {  // after S2: threshold results
    bool valid = false, above = false, linear = false, act_mark = false, act_drop = false;
    uint32_t queue = 0, excess = 0, m = 0, e = 0;
  } s3_;
  struct S4 {  // after S3: the product
    bool valid = false, above = false, linear = false, act_mark = false, act_drop = false;
    uint32_t queue = 0, e = 0;
    uint64_t prod = 0;
  } s4_;
  Prng prng_;
  bool dec_valid_ = false, dec_mark_ = false, dec_drop_ = false;
  uint32_t dec_queue_ = 0;
  SatCounter cnt_dec_, cnt_mark_, cnt_drop_;
  uint32_t rdata_ = 0;
  bool rvalid_ = false;
};

}  // namespace ll::marker
