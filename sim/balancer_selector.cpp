// The balancers of the DRILL selector block (docs/drill.md): one ll::drill::Model per
// switch, in the mode the scenario names. ECMP, Random, round robin, DRILL(d, m) and
// per-flow DRILL are the block's own modes, so the fabric runs the same decisions the RTL
// makes.
#include <algorithm>
#include <stdexcept>

#include "common/bits.h"
#include "drill/control_plane.h"
#include "drill/drill.h"
#include "sim/balancer.h"
#include "sim/cosim.h"
#include "sim/net_config.h"

namespace ll::sim {
namespace {

class SelectorBalancer final : public Balancer {
 public:
  SelectorBalancer(const BalancerContext& ctx, drill::Mode mode) {
    const Scenario& s = ctx.scenario;
    const BalancerCfg& b = s.net.balancer;
    const Node& node = ctx.topo.node(ctx.node);
    if (ctx.fabric.size() > 64) {
      throw ScenarioError(s.file, "balancer", "switch " + node.name + " has " + std::to_string(ctx.fabric.size()) +
                                                  " fabric ports; the selector takes at most 64");
    }
    drill::Config c;
    c.Ports = static_cast<unsigned>(ctx.fabric.size());
    c.OccW = BlockSizes::kDrillOccW;
    c.D = b.d;
    c.M = b.m;
    c.Engines = b.engines;
    c.HashW = BlockSizes::kDrillHashW;
    c.Groups = b.components ? BlockSizes::kDrillComps : 0;
    c.Comps = BlockSizes::kDrillComps;
    c.FlowEntries = BlockSizes::kDrillFlowEntries;
    c.OccLag = 1;
    c.Seed = ctx.seed;
    try {
      c.validate();
    } catch (const std::invalid_argument& e) {
      throw ScenarioError(s.file, "balancer", e.what());
    }
    sel_ = std::make_unique<drill::Model>(c);
    sel_->reset_transaction();
    sel_->set_mode(mode);
    if (s.net.cosim.wants(ctx.node, "drill")) {
      // Components need the group/component tables programmed too: not in the adapter yet.
      if (c.Groups) throw ScenarioError(s.file, "cosim." + node.name, "the DRILL selector runs as RTL only without balancer.components (not supported yet)");
      if (cosim::Factory* f = cosim::installed()) {
        try {
          rtl_ = f->drill(node.name, c, drill::mode_ops(static_cast<uint32_t>(mode)));
        } catch (const std::invalid_argument& e) {
          throw ScenarioError(s.file, "cosim." + node.name, e.what());
        }
      }
    }
    index_.assign(node.ports.size(), -1);
    for (size_t i = 0; i < ctx.fabric.size(); ++i) index_[ctx.fabric[i]] = static_cast<int>(i);
    port_ = ctx.fabric;
    occ_.assign(ctx.fabric.size(), 0);
    occ_max_ = low_mask(c.OccW);
  }

  PortId choose(PortSpan c, RouteQuery& q) override {
    int r = -1;
    if (!group_of_edge_.empty()) {
      const int g = group_of_edge_[q.dst_edge];
      if (g >= 0) r = sel_->choose_group(q.engine, q.hash, static_cast<unsigned>(g), occ_);
    }
    if (r < 0) {
      uint64_t mask = 0;
      for (PortId port : c) mask |= 1ull << index_[port];
      r = rtl_ ? rtl_->choose(q.engine, q.hash, mask, occ_) : sel_->choose(q.engine, q.hash, mask, occ_);
    }
    if (r < 0) return c[0];
    return port_[static_cast<size_t>(r)];
  }

  // What the selector sees of a port: its egress bytes in 64-byte cells, clamped to OccW.
  void occupancy(PortId port, uint64_t bytes) override {
    if (index_[port] >= 0)
      occ_[static_cast<size_t>(index_[port])] =
          static_cast<uint32_t>(std::min<uint64_t>(bytes >> BlockSizes::kDrillOccCellLog2, occ_max_));
  }

  bool cosim_stats(cosim::BlockStats* out) const override {
    if (!rtl_) return false;
    *out = rtl_->stats();
    return true;
  }

  void components(const drill::cp::Tables& t, std::vector<int> group_of_edge) override {
    drill::cp::load(*sel_, t);
    group_of_edge_ = std::move(group_of_edge);
  }

 private:
  std::unique_ptr<drill::Model> sel_;
  std::unique_ptr<cosim::DrillRtl> rtl_;  // cosim: the decisions come from the RTL
  std::vector<int> index_;           // port -> selector port, -1 for host ports
  std::vector<PortId> port_;         // selector port -> port
  std::vector<uint32_t> occ_;        // selector port -> occupancy (64-byte cells)
  uint64_t occ_max_ = 0;
  std::vector<int> group_of_edge_;   // components: destination edge switch -> group, -1
};

template <drill::Mode M>
std::unique_ptr<Balancer> make(const BalancerContext& ctx) {
  return std::make_unique<SelectorBalancer>(ctx, M);
}

}  // namespace

// The registry's rows for the selector's modes (sim/balancer.cpp lists them).
BalancerFactory selector_factory(const std::string& mode) {
  if (mode == "ecmp") return make<drill::Mode::Ecmp>;
  if (mode == "random") return make<drill::Mode::Random>;
  if (mode == "rr") return make<drill::Mode::RoundRobin>;
  if (mode == "drill") return make<drill::Mode::Drill>;
  if (mode == "per_flow") return make<drill::Mode::PerFlow>;
  return nullptr;
}

}  // namespace ll::sim
