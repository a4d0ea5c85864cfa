// The DRILL selector as RTL behind ll::drill::Model::choose (cycle recipe: docs/cosim.md,
// "drill"). One Verilated model per elaboration in use (sim/cosim/CMakeLists.txt,
// LL_COSIM_DRILL_VARIANTS); the factory picks the one matching the switch's selector.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "common/bits.h"
#include "cosim_drill_variants.h"  // generated: the Verilated variants, LL_COSIM_DRILL_VARIANTS(X)
#include "sim/cosim/adapters.h"
#include "sim/cosim/rtl_block.h"
#include "verilated.h"

namespace ll::sim::cosim {
namespace {

template <class V>
class DrillAdapter final : public DrillRtl {
 public:
  DrillAdapter(const std::string& node, const drill::Config& cfg, const CfgProgram& program)
      : ports_(cfg.Ports), omax_(static_cast<uint32_t>(low_mask(cfg.OccW))), written_(cfg.Ports, 0), b_(node, "drill") {
    V& t = b_.top();
    t.e0_valid_i = 0;
    t.occ_we_i = 0;
    // 1. Reset (4 cycles).
    b_.reset();
    // 2. Seed: engine 0's PRNG gets derive_seed(the switch's Seed, 0), as its elaboration
    //    would (Seed is a parameter; one Verilated model serves every switch).
    auto& r = *t.rootp;
    b_.load_prng(r.drill_top__DOT__g_eng__BRA__0__KET____DOT__g_on__DOT__u_engine__DOT__u_prng__DOT__s0_q,
                 r.drill_top__DOT__g_eng__BRA__0__KET____DOT__g_on__DOT__u_engine__DOT__u_prng__DOT__s1_q,
                 r.drill_top__DOT__g_eng__BRA__0__KET____DOT__g_on__DOT__u_engine__DOT__u_prng__DOT__rand_q,
                 derive_seed(cfg.Seed, 0));
    // 3. Wait for init_done_o (flow RAM swept), then the mode (STAGE_MODE, MODE_COMMIT),
    //    then one idle cycle.
    b_.program(program);
  }

  int choose(unsigned engine, uint32_t hash, uint64_t candidates, const std::vector<uint32_t>& occupancy) override {
    const auto call = b_.call();
    if (engine != 0) b_.fail("engine " + std::to_string(engine) + " (built with one)");
    V& t = b_.top();
    // 4. The occupancy view: the ports whose value changed since last written, one update
    //    per cycle on occ_*. An update presented in cycle u is visible from u + OccLag (1);
    //    the packet accepted in cycle a reads the view in a + Latency - 1 (a + 4), so the
    //    last 4 updates can be presented in cycles a .. a + 3, under the packet.
    upd_.clear();
    for (unsigned p = 0; p < ports_; ++p) {
      const uint32_t v = std::min(occupancy[p], omax_);
      if (v != written_[p]) {
        upd_.push_back(p);
        written_[p] = v;
      }
    }
    const size_t before = upd_.size() > kOverlap ? upd_.size() - kOverlap : 0;
    size_t u = 0;
    for (; u < before; ++u) {
      present(t, upd_[u]);
      b_.clock_call();
    }
    // 5. The packet: one cycle on e0_* (ready once init is done), then clock until
    //    e0_out_valid_o (Latency = 5 cycles from acceptance), presenting the remaining
    //    updates meanwhile.
    t.e0_valid_i = 1;
    t.e0_hash_i = hash;
    t.e0_mask_i = static_cast<std::remove_reference_t<decltype(t.e0_mask_i)>>(candidates & low_mask(ports_));
    t.e0_grp_en_i = 0;
    t.e0_grp_i = 0;
    if (!t.e0_ready_o) b_.fail("e0_ready_o low");
    unsigned n = 0;
    do {
      if (u < upd_.size()) present(t, upd_[u++]);
      else t.occ_we_i = 0;
      b_.clock_call();
      t.e0_valid_i = 0;
      if (++n > kLatency) b_.fail("no decision " + std::to_string(kLatency) + " cycles after the packet");
    } while (!t.e0_out_valid_o);
    t.occ_we_i = 0;
    return t.e0_out_empty_o ? -1 : static_cast<int>(t.e0_out_port_o);
  }

  BlockStats stats() const override { return b_.stats(); }

 private:
  static constexpr unsigned kLatency = 5, kOverlap = 4;  // Groups = 0; Latency - OccLag
  void present(V& t, unsigned p) {
    t.occ_we_i = 1;
    t.occ_port_i = p;
    t.occ_value_i = written_[p];
  }
  unsigned ports_;
  uint32_t omax_;
  std::vector<uint32_t> written_;  // the occupancy each port's view register was last given
  std::vector<unsigned> upd_;
  RtlBlock<V> b_;
};

}  // namespace

std::unique_ptr<DrillRtl> make_drill(const std::string& node, const drill::Config& c, const CfgProgram& program) {
  if (c.Engines != 1 || c.Groups != 0 || c.OccW != DrillBuild::kOccW || c.HashW != DrillBuild::kHashW ||
      c.FlowEntries != DrillBuild::kFlowEntries || c.Comps != DrillBuild::kComps || c.OccLag != DrillBuild::kOccLag ||
      c.CntW != DrillBuild::kCntW) {
    throw std::invalid_argument("the Verilated selector is built with Engines=1, no components, OccW, HashW, FlowEntries, "
                                "Comps, OccLag, CntW as sim's BlockSizes; " + node + "'s selector differs (Engines=" +
                                std::to_string(c.Engines) + ")");
  }
  if (c.rnd_words() > 1)
    throw std::invalid_argument(node + "'s selector draws " + std::to_string(c.rnd_words()) +
                                " PRNG words a decision (D * (clog2(Ports) + 10) > 64); co-simulation seeds one, "
                                "so it runs selectors with D * (clog2(Ports) + 10) <= 64 only");
#define LL_COSIM_DRILL_PICK(P, D_, M_, V) \
  if (c.Ports == P && c.D == D_ && c.M == M_) return std::make_unique<DrillAdapter<V>>(node, c, program);
  LL_COSIM_DRILL_VARIANTS(LL_COSIM_DRILL_PICK)
#undef LL_COSIM_DRILL_PICK
  throw std::invalid_argument(node + "'s selector needs Ports=" + std::to_string(c.Ports) + " D=" + std::to_string(c.D) +
                              " M=" + std::to_string(c.M) + "; the Verilated selectors built are " + LL_COSIM_DRILL_BUILT +
                              " (add it to LL_COSIM_DRILL_VARIANTS and run make cosim)");
}

}  // namespace ll::sim::cosim
