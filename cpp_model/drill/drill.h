// Golden model of rtl/drill/drill_top.sv: the DRILL per-engine load-balancing selector.
//
// One class, two faces:
//  - cycle face: eval()/tick() reproduce the RTL's ports bit- and cycle-exactly (the
//    lockstep testbench compares them every cycle); engines 0..3 have port sets;
//  - transaction face: choose()/choose_group() decide one packet at once with the same
//    tables, memory, round-robin state, flow table, PRNG streams and counters (the
//    fabric simulator calls it; it supports up to 64 engines).
// The algorithm, the sampling bound, the tie-break and the pipeline are documented in
// docs/drill.md; the register map in docs/drill_regmap.md.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/cfg_op.h"
#include "common/port_struct.h"
#include "common/prng.h"
#include "common/ram.h"
#include "drill/drill_regs.h"

namespace ll::drill {

constexpr unsigned kPortSets = 4;       // engines with RTL port sets (e0_*..e3_*)
constexpr unsigned kMaxEngines = 64;    // engines the transaction face supports
constexpr unsigned kGroupSlots = regs::GROUP_SLOTS;
constexpr unsigned kRandExtraBits = regs::RAND_EXTRA_BITS;
constexpr unsigned kMaxD = 15;          // samples per decision (Config::D <= 15)
constexpr unsigned kMaxRndWords = 4;    // 64-bit PRNG words per decision: ceil(15 * 16 / 64)
constexpr unsigned kMaxM = 32;          // memory entries (Config::M <= 32)

// Decision modes: the register map's MODE_* constants (rtl/drill/drill_regs.json).
enum class Mode : uint32_t { Ecmp = regs::MODE_ECMP, Random = regs::MODE_RANDOM,
                             RoundRobin = regs::MODE_RR, Drill = regs::MODE_DRILL,
                             PerFlow = regs::MODE_FLOW };

// Counter classes (CNT_* registers in address order).
enum Kind : unsigned { kKindEcmp = 0, kKindRandom, kKindRr, kKindDrill, kKindFlowNew, kKindFlowPinned, kKindEmpty, kKinds };

// Elaboration parameters; names match the RTL parameters of rtl/drill/drill_top.sv.
struct Config {
  unsigned Ports = 16;        // output ports N, 2..64
  unsigned OccW = 16;         // occupancy width, 1..32
  unsigned D = 2;             // samples per decision, 1..15
  unsigned M = 1;             // memory entries, 0..32
  unsigned Engines = 1;       // 1..4 for the RTL (cycle face); up to 64 for the transaction face
  unsigned HashW = 16;        // flow-hash width, 8..32, > log2(FlowEntries)
  unsigned Groups = 4;        // group-table rows, 0 (no component stage) or 2..64
  unsigned Comps = 8;         // component-table rows, 2..64
  unsigned FlowEntries = 64;  // per-flow table entries per engine, power of 2, 2..65536
  unsigned OccLag = 1;        // occupancy update -> view delay, 1..8 cycles
  unsigned CntW = 32;         // counter width, 4..32
  uint64_t Seed = 0x0123456789ABCDEFull;  // engine e uses derive_seed(Seed, e)

  void validate() const;  // throws std::invalid_argument naming the bad parameter
  // From "Ports=8,D=2,..." (the testbench's parameter-set strings).
  static Config from_params(const std::map<std::string, uint64_t>& p);

  unsigned latency() const { return 5 + (Groups > 0 ? 2 : 0); }  // accept -> out_valid
  unsigned port_aw() const;     // clog2(Ports)
  unsigned rand_bits() const;   // random bits per sample: clog2(Ports) + 10
  unsigned rnd_words() const;   // PRNG words per decision: ceil(D * rand_bits() / 64)
  unsigned flow_aw() const;     // log2(FlowEntries)
  unsigned grp_aw() const;      // width of e*_grp_i
  unsigned sweep_depth() const; // max(FlowEntries, Groups, Comps)
};

struct Inputs {
  bool rst_n = true;
  std::array<bool, kPortSets> valid{};
  std::array<uint32_t, kPortSets> hash{};
  std::array<uint64_t, kPortSets> mask{};
  std::array<bool, kPortSets> grp_en{};
  std::array<uint32_t, kPortSets> grp{};
  bool occ_we = false;
  uint32_t occ_port = 0, occ_value = 0;
  bool cfg_we = false, cfg_re = false;
  uint32_t cfg_addr = 0, cfg_wdata = 0;
};

// The RTL's outputs, one field each (the benches compare and print exactly these).
using SetFlags = std::array<bool, kPortSets>;
using SetPorts = std::array<uint32_t, kPortSets>;
#define LL_DRILL_OUTPUTS(X)                                                          \
  X(SetFlags, ready, true) X(SetFlags, out_valid, true) X(SetPorts, out_port, true)  \
  X(SetFlags, out_empty, true) X(uint32_t, cfg_rdata, true)                          \
  X(bool, cfg_rvalid, true) X(bool, init_done, true)
LL_PORT_STRUCT(Outputs, LL_DRILL_OUTPUTS)

// What one decision looked like inside (for coverage and tests; not a port).
struct Trace {
  bool valid = false;
  Mode mode = Mode::Drill;
  unsigned set_size = 0;
  bool empty = false;
  unsigned port = 0;
  unsigned kind = 0;
  unsigned samples_valid = 0;  // valid samples (min(D, |set|))
  unsigned mem_valid = 0;      // valid memory entries before the decision
  unsigned mem_in_set = 0;     // ... of which in the candidate set and not equal to a sample
  unsigned mem_outside = 0;    // ... of which outside the candidate set
  unsigned mem_dup = 0;        // ... of which equal to a sample
  bool mem_won = false;        // the winner was a memory entry
  bool tie = false;            // another valid candidate had the winner's occupancy
  bool pinned = false;         // per-flow: the flow's pinned port was used
  bool repin = false;          // per-flow: a valid entry of this flow was replaced
  bool flow_fwd = false;       // per-flow: the entry came from the last-write forwarding
  bool grp_used = false;       // the candidate set came from the component stage
  bool grp_empty = false;      // ... and the group / component gave no set
  unsigned grp_slot = 0;       // ... slot chosen by the weighted hash
  // ports, as bit masks (for coverage of the occupancy reads' coincidences)
  uint64_t sample_ports = 0;   // the valid samples'
  uint64_t mem_ports = 0;      // the memory entries that were candidates
  uint64_t new_mem_ports = 0;  // the memory written by this decision (0: not written)
  // a later sample's drawn rank equalled one drawn before it (the skip of the draw without
  // replacement taken on equality)
  bool rank_tie = false;
};

// One group row: 4 slots of (weight, component index).
struct GroupRow {
  std::array<uint8_t, kGroupSlots> weight{};
  std::array<uint8_t, kGroupSlots> comp{};
  uint64_t word() const;                  // {C3..C0, W3..W0} as the RTL stores it
  static GroupRow from_word(uint64_t w);
};

// Pure functions of the datapath, shared by both faces (and by tests).
unsigned popcount(uint64_t v);
// Port index of the k-th (0-based) set bit of mask; requires k < popcount(mask).
unsigned kth_set_bit(uint64_t mask, unsigned k);
// floor(op * n / 2^bits): the multiply-and-shift rank of one draw over n candidates.
unsigned scale(uint64_t op, unsigned n, unsigned bits);
// The weighted component choice: slot and whether a usable component was found.
struct CompChoice {
  unsigned slot = 0;
  unsigned comp = 0;
  bool ok = false;
};
CompChoice choose_component(const Config& c, uint64_t group_word, uint32_t hash);

// Register program (docs/drill_regmap.md), shared by the lockstep bench and the
// co-simulation adapter: the writes that make `mode` live (STAGE_MODE, MODE_COMMIT; what
// Model::set_mode does at once). `mode` is written as given, so a bench can stage
// out-of-range values too.
CfgProgram mode_ops(uint32_t mode);

class Model {
 public:
  explicit Model(const Config& cfg);
  const Config& config() const { return cfg_; }

  // ---- cycle face
  Outputs eval(const Inputs& in) const;
  void tick(const Inputs& in);
  const Trace& trace(unsigned engine) const { return eng_.at(engine).trace; }  // Q3 of the last tick

  // ---- transaction face (no pipeline, no latency, no staleness: the caller passes the
  //      occupancy it wants the engine to see; values above 2^OccW - 1 count as that)
  // Returns the chosen port, or -1 for an empty candidate set.
  int choose(unsigned engine, uint32_t flow_hash, uint64_t candidates, const std::vector<uint32_t>& occupancy);
  int choose_group(unsigned engine, uint32_t flow_hash, unsigned group, const std::vector<uint32_t>& occupancy);
  void set_mode(Mode m);                       // = STAGE_MODE + MODE_COMMIT
  Mode mode() const { return static_cast<Mode>(mode_); }
  void set_component(unsigned index, uint64_t mask);   // = STAGE_MASK_* + COMP_COMMIT
  void set_group(unsigned index, const GroupRow& row); // = STAGE_GROUP_* + GROUP_COMMIT
  // Hardware reset of the whole block, then the table sweep completed at once.
  void reset_transaction();

  // state inspection (both faces)
  uint64_t port_count(unsigned port) const { return port_cnt_.at(port).value(); }
  uint64_t kind_count(unsigned kind) const { return kind_cnt_.at(kind).value(); }
  std::vector<int> memory(unsigned engine) const;  // valid memory entries in slot order
  unsigned rr_state(unsigned engine) const { return eng_.at(engine).rr; }
  const Trace& last(unsigned engine) const { return eng_.at(engine).trace; }
  // the port whose view value an update changed at the last tick's closing edge; -1 if no
  // update changed one (a reset, which clears every port, counts as none)
  int view_changed() const { return view_changed_; }

 private:
  // Saturating add-k counter (twin of rtl/drill/drill_sat_acc.sv).
  class SatAcc {
   public:
    explicit SatAcc(unsigned width) : max_(width >= 64 ? ~0ull : ((1ull << width) - 1)) {}
    void reset() { v_ = 0; }
    void clock(bool clr, unsigned inc) { v_ = clr ? 0 : (v_ + inc > max_ ? max_ : v_ + inc); }
    uint64_t value() const { return v_; }

   private:
    uint64_t max_, v_ = 0;
  };

  // Fixed-size per-decision state (the first D / M entries are used): the cycle face runs
  // every engine every cycle, and these were heap vectors copied and reallocated per cycle.
  using Samples = std::array<unsigned, kMaxD>;
  using SampleFlags = std::array<bool, kMaxD>;
  using MemPorts = std::array<unsigned, kMaxM>;
  using MemFlags = std::array<bool, kMaxM>;
  using Rnd = std::array<uint64_t, kMaxRndWords>;  // one decision's draw, word 0 on top

  struct Engine {
    explicit Engine(const Config& c, unsigned index);
    // stage A
    bool a_valid = false, a_grp_en = false, a_grp_ok = false;
    uint32_t a_mode = 0, a_hash = 0;
    uint64_t a_mask = 0;
    // stages B (the component choice registered) and C (the component RAM's read data
    // arrives), Groups > 0 only
    struct CompStage {
      bool valid = false, grp_en = false, comp_ok = false;
      uint32_t mode = 0, hash = 0;
      uint64_t mask = 0;
      unsigned slot = 0;  // coverage only
    };
    CompStage b, c;
    unsigned b_comp_addr = 0;  // the component RAM's read address (0 for ids >= Comps)
    // R1
    bool r1_valid = false;
    uint32_t r1_mode = 0, r1_hash = 0;
    uint64_t r1_set = 0;
    Rnd r1_rnd{};
    bool r1_grp = false, r1_grp_empty = false;
    unsigned r1_slot = 0;
    // R2
    bool r2_valid = false;
    uint32_t r2_mode = 0, r2_hash = 0;
    uint64_t r2_set = 0;
    Samples r2_k{};
    bool r2_rank_tie = false;
    bool r2_grp = false, r2_grp_empty = false;
    unsigned r2_slot = 0;
    // R3
    bool r3_valid = false, r3_nz = false;
    uint32_t r3_mode = 0, r3_fidx = 0, r3_tag = 0;
    uint64_t r3_set = 0;
    Samples r3_port{};
    SampleFlags r3_sv{};
    bool r3_rank_tie = false;
    bool r3_grp = false, r3_grp_empty = false;
    unsigned r3_slot = 0;
    // state
    MemPorts mem{};
    MemFlags mem_v{};
    unsigned rr = 0;
    bool fwd_v = false;
    uint32_t fwd_idx = 0;
    uint64_t fwd_data = 0;
    // PRNG word w (0..rnd_words()-1) seeded derive_seed(engine seed, w) for w > 0
    std::array<Prng, kMaxRndWords> prng;
    Ram<uint64_t> grp, comp, flow;
    // output register
    bool out_valid = false, out_empty = false;
    unsigned out_port = 0, out_kind = 0;
    Trace trace;
  };

  // Q1: ranks of the D samples (sample 0 by mode), and the next round-robin state;
  // rank_tie: a later sample's rank met an earlier one's with equality while skipping.
  void ranks(const Engine& e, uint32_t mode, uint32_t hash, unsigned cnt, const Rnd& rnd,
             Samples& k, unsigned& rr_next, bool& rank_tie) const;
  Rnd peek(const Engine& e) const;  // the draw the PRNG words show now
  void advance(Engine& e) const;    // step every word (one decision consumed the draw)
  // Q3: the decision from the sample ports, the memory, the flow entry and occupancies.
  struct Q3 {
    unsigned port = 0, kind = 0;
    bool mem_upd = false;
    MemPorts mem;    // the first M entries are set by decide()
    MemFlags mem_v;
    bool flow_we = false;
    uint64_t flow_data = 0;
    Trace trace;
  };
  Q3 decide(const Engine& e, uint32_t mode, uint64_t set, const Samples& port,
            const SampleFlags& sv, uint64_t flow_entry, uint32_t tag,
            const std::vector<uint32_t>& occ) const;
  int transact(unsigned engine, uint32_t hash, uint64_t set, const std::vector<uint32_t>& occupancy,
               const Trace& pre);
  uint32_t read_reg(uint32_t addr) const;
  void check_engine(unsigned engine) const;

  Config cfg_;
  uint64_t port_mask_;
  std::vector<Engine> eng_;
  InitSweep sweep_;
  uint32_t stage_mode_ = 3, mode_ = 3;
  uint32_t stage_mask_lo_ = 0, stage_mask_hi_ = 0, stage_gw_ = 0, stage_gc_ = 0;
  std::vector<uint32_t> view_;
  int view_changed_ = -1;
  struct Upd {
    bool we = false;
    uint32_t port = 0, value = 0;
  };
  std::vector<Upd> lag_;  // delay registers 1..OccLag-1 (index 0 unused)
  std::vector<SatAcc> kind_cnt_, port_cnt_;
  uint32_t rdata_ = 0;
  bool rvalid_ = false;
};

}  // namespace ll::drill
