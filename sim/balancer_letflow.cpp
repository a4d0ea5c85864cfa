// LetFlow (Vanini et al., NSDI'17) as a balancer: flowlet switching with a random port per
// new flowlet. A flowlet table indexed by the switch's flow hash (no tags: flows whose hashes
// share an entry share its flowlet, as in hardware) holds each entry's port and when it last
// saw a packet; a packet that finds its entry idle longer than the flowlet gap, or holding
// a port that is not among its candidates, starts a flowlet on a uniformly random
// candidate. Default gap: 500 us at 10 Gb/s (the LetFlow and CONGA papers' timeout), scaled
// by 10 Gb/s over the switch's fastest fabric port (50 us at 100 Gb/s).
#include <algorithm>

#include "sim/balancer.h"
#include "sim/net_config.h"
#include "sim/rng.h"

namespace ll::sim {
namespace {

class LetFlow final : public Balancer {
 public:
  explicit LetFlow(const BalancerContext& ctx) : rng_(ctx.seed) {
    const BalancerCfg& b = ctx.scenario.net.balancer;
    gap_ = b.flowlet_gap;
    if (gap_ == 0) {
      uint64_t fastest = 1;
      for (PortId p : ctx.fabric) fastest = std::max(fastest, ctx.topo.link(ctx.topo.node(ctx.node).ports[p].link).bps);
      gap_ = static_cast<Time>(static_cast<unsigned __int128>(500 * kUs) * 10'000'000'000ull / fastest);
    }
    table_.assign(b.flowlet_entries, Entry{});
    mask_ = b.flowlet_entries - 1;
  }

  PortId choose(PortSpan c, RouteQuery& q) override {
    Entry& e = table_[q.hash & mask_];
    const bool fresh = e.port != kNone && q.now - e.last <= gap_ && std::find(c.begin(), c.end(), e.port) != c.end();
    if (!fresh) e.port = c[rng_.below(c.size())];
    e.last = q.now;
    return e.port;
  }

  void occupancy(PortId, uint64_t) override {}

 private:
  static constexpr PortId kNone = ~PortId{0};
  struct Entry {
    Time last = 0;
    PortId port = kNone;
  };
  Rng rng_;
  Time gap_ = 0;
  std::vector<Entry> table_;
  uint32_t mask_ = 0;
};

}  // namespace

std::unique_ptr<Balancer> make_letflow(const BalancerContext& ctx) { return std::make_unique<LetFlow>(ctx); }

}  // namespace ll::sim
