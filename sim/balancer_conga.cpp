// CONGA (Alizadeh et al., SIGCOMM'14) as a balancer, for 2-tier leaf-spine fabrics.
//
// - Every switch keeps a discounting rate estimator (DRE) per fabric port: X grows by the
//   bytes of each packet sent and decays by X (1 - alpha) every T_dre; the port's metric is
//   X / (C tau), tau = T_dre / alpha, quantised to 3 bits (0..7). A packet leaving a fabric
//   port raises its header's CE to that port's metric if higher (the path's bottleneck).
// - The source leaf stamps a packet with the uplink it chose (LBTag, the index among its
//   fabric ports). The destination leaf records the arriving CE in Congestion-From-Leaf
//   [source leaf][tag], and sends those metrics back piggybacked on packets going the other
//   way (one (tag, metric) pair a packet, cycling over the tags); the source leaf stores a
//   received pair in Congestion-To-Leaf[that leaf][tag]. An entry not refreshed for
//   `kAge` counts as 0 (stale).
// - Path choice at the source leaf, per flowlet (LetFlow's table, CONGA's 500 us gap at
//   10 Gb/s scaled to the fabric speed): the candidate uplink with the least
//   max(local DRE metric, Congestion-To-Leaf of the destination leaf), ties to a uniformly
//   random one among them. Other switches (spines; a 3-tier fabric's upper tiers) pick by
//   the flow hash, as ECMP.
// Parameters: Q = 3 bits and the 500 us flowlet gap are the CONGA paper's; T_dre = 20 us
// and alpha = 0.1 (tau = 200 us) are our reading of its parameter discussion (the ConWeave
// ns-3 artifact runs its CONGA with T_dre = 50 us, alpha = 0.2). The ageing time is not in
// our sources: 10 ms is the simulator's choice.
#include <algorithm>
#include <cmath>

#include "sim/balancer.h"
#include "sim/net_config.h"
#include "sim/rng.h"

namespace ll::sim {
namespace {

constexpr unsigned kQ = 3;

class Conga final : public Balancer {
 public:
  explicit Conga(const BalancerContext& ctx)
      : self_(ctx.node), t_dre_(ctx.scenario.net.balancer.conga_t_dre), alpha_(ctx.scenario.net.balancer.conga_alpha),
        age_(ctx.scenario.net.balancer.conga_age), rng_(ctx.seed), fabric_(ctx.fabric), to_leaf_(ctx.topo.num_nodes()), from_leaf_(ctx.topo.num_nodes()),
        fb_next_(ctx.topo.num_nodes(), 0) {
    const Node& node = ctx.topo.node(ctx.node);
    index_.assign(node.ports.size(), -1);
    uint64_t fastest = 1;
    for (size_t i = 0; i < fabric_.size(); ++i) {
      index_[fabric_[i]] = static_cast<int>(i);
      const uint64_t bps = ctx.topo.link(node.ports[fabric_[i]].link).bps;
      fastest = std::max(fastest, bps);
      // C tau in bytes: what the port carries in tau at line rate
      dre_.push_back({0.0, 0, static_cast<double>(bps) / 8.0 * (static_cast<double>(t_dre_) / alpha_) / static_cast<double>(kSec)});
    }
    const BalancerCfg& b = ctx.scenario.net.balancer;
    gap_ = b.flowlet_gap ? b.flowlet_gap : static_cast<Time>(static_cast<unsigned __int128>(500 * kUs) * 10'000'000'000ull / fastest);
    flowlets_.assign(b.flowlet_entries, Flowlet{});
    mask_ = b.flowlet_entries - 1;
  }

  PortId choose(PortSpan c, RouteQuery& q) override {
    if (!q.first_hop) return c[q.hash % c.size()];
    BalancerHeader& h = *q.hdr;
    // piggyback one metric for the destination leaf's paths towards us
    std::vector<Entry>& back = table(from_leaf_, q.dst_edge);
    h.fb_tag = 0xFF;
    for (size_t k = 0; k < back.size(); ++k) {
      const uint32_t t = (fb_next_[q.dst_edge] + k) % back.size();
      if (back[t].at == kNever || q.now - back[t].at > age_) continue;
      h.fb_tag = static_cast<uint8_t>(t);
      h.fb_metric = back[t].metric;
      fb_next_[q.dst_edge] = (t + 1) % back.size();
      break;
    }
    Flowlet& f = flowlets_[q.hash & mask_];
    const bool fresh = f.port != kNone && q.now - f.last <= gap_ && std::find(c.begin(), c.end(), f.port) != c.end();
    f.last = q.now;
    if (!fresh) {
      std::vector<Entry>& to = table(to_leaf_, q.dst_edge);
      unsigned best = 8, ties = 0;
      for (PortId p : c) {
        const size_t i = static_cast<size_t>(index_[p]);
        const bool live = to[i].at != kNever && q.now - to[i].at <= age_;
        const unsigned m = std::max(local(i, q.now), live ? unsigned{to[i].metric} : 0u);
        if (m < best) {
          best = m;
          ties = 1;
          f.port = p;
        } else if (m == best && rng_.below(++ties) == 0) {
          f.port = p;  // uniformly random among the least congested
        }
      }
    }
    h.tag = static_cast<uint8_t>(index_[f.port]);
    h.ce = 0;
    return f.port;
  }

  void occupancy(PortId, uint64_t) override {}

  void depart(PortId port, uint32_t wire, Time now, BalancerHeader& h) override {
    const size_t i = static_cast<size_t>(index_[port]);
    decay(i, now);
    dre_[i].x += wire;
    h.ce = static_cast<uint8_t>(std::max<unsigned>(h.ce, metric(i)));
  }

  ArriveVerdict arrive(const RouteQuery& q) override {
    const BalancerHeader& h = *q.hdr;
    if (q.dst_edge == self_) {  // the destination leaf: the path's congestion, and feedback
      if (h.tag != 0xFF) {
        std::vector<Entry>& from = table(from_leaf_, q.src_edge);
        if (h.tag < from.size()) from[h.tag] = {q.now, h.ce};
      }
      if (h.fb_tag != 0xFF) {
        std::vector<Entry>& to = table(to_leaf_, q.src_edge);
        if (h.fb_tag < to.size()) to[h.fb_tag] = {q.now, h.fb_metric};
      }
    }
    return {};
  }

 private:
  static constexpr PortId kNone = ~PortId{0};
  struct Dre {
    double x;
    Time last;
    double c_tau;
  };
  struct Entry {
    Time at = kNever;
    uint8_t metric = 0;
  };
  struct Flowlet {
    Time last = 0;
    PortId port = kNone;
  };

  std::vector<Entry>& table(std::vector<std::vector<Entry>>& t, NodeId leaf) {
    if (t[leaf].empty()) t[leaf].assign(fabric_.size(), Entry{});
    return t[leaf];
  }

  void decay(size_t i, Time now) {
    Dre& d = dre_[i];
    const Time steps = (now - d.last) / t_dre_;
    if (steps == 0) return;
    d.x = steps > 100000 ? 0.0 : d.x * std::pow(1.0 - alpha_, static_cast<double>(steps));
    d.last += steps * t_dre_;
  }

  unsigned metric(size_t i) const {
    const double m = dre_[i].x / dre_[i].c_tau * (1u << kQ);
    return static_cast<unsigned>(std::min<double>((1u << kQ) - 1, std::floor(m)));
  }

  unsigned local(size_t i, Time now) {
    decay(i, now);
    return metric(i);
  }
  const NodeId self_;
  const Time t_dre_;
  const double alpha_;
  const Time age_;
  Rng rng_;
  std::vector<PortId> fabric_;
  std::vector<int> index_;
  std::vector<Dre> dre_;
  std::vector<std::vector<Entry>> to_leaf_, from_leaf_;  // per leaf node: per uplink
  std::vector<uint32_t> fb_next_;
  Time gap_ = 0;
  std::vector<Flowlet> flowlets_;
  uint32_t mask_ = 0;
};

}  // namespace

std::unique_ptr<Balancer> make_conga(const BalancerContext& ctx) { return std::make_unique<Conga>(ctx); }

}  // namespace ll::sim
