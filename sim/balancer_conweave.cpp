// ConWeave (Song et al., SIGCOMM'23) as a balancer, for 2-tier leaf-spine fabrics: the
// source ToR reroutes a flow away from a congested path and the destination ToR puts its
// packets back in order, so RDMA NICs see in-order delivery.
//
// Source ToR (data packets entering the fabric), per flow (a table indexed by the flow
// hash, tagged with it):
// - An epoch starts with the flow (or after `kTxExpiry` idle): a uniformly random uplink,
//   and the packet goes out as RTT_REQUEST. The destination ToR answers it with RTT_REPLY.
//   A reply back in time (the path's base RTT + `kExtraReply`) lets the next packet probe
//   again; while one is outstanding, packets just follow the path.
// - No reply by the deadline: the path is congested. The next packet is REROUTED to another
//   uplink (uniformly random among the others), carrying when the last packet left on the
//   old path (TAIL). The flow then stays on the new path until the destination ToR's CLEAR
//   comes back (or `kTxExpiry` passes), and a new epoch starts.
// Destination ToR, per flow (by the key the source ToR writes):
// - A REROUTED packet that arrives before the old path's tail (the packet that left at the
//   TAIL time) waits in a reorder queue, with every later one of the epoch; the tail's
//   arrival releases them in order and sends CLEAR. If the tail does not come (lost, or
//   later than expected: its departure time plus the one-way delay seen on the old path
//   plus `kExtraFlush`, or `kDefaultWait` without a delay sample), the queue is released
//   anyway (the NIC may then see reordering) and CLEAR sent.
// Other switches, ACKs and other packets: ECMP by the flow hash. Reorder queues are held
// outside the switch's buffer accounting (the PFC block does not see them).
// Parameters are the defaults of ConWeave's public ns-3 artifact: reply deadline = base RTT
// + 4 us, CLEAR wait / epoch expiry 1000 us, reorder flush = expected tail + 32 us, 500 us
// without history.
#include <algorithm>
#include <stdexcept>

#include "sim/balancer.h"
#include "sim/net_config.h"
#include "sim/rng.h"
#include "sim/time.h"

namespace ll::sim {
namespace {

constexpr uint32_t kEntries = 1u << 16;
enum Flag : uint8_t { kNone = 0, kRequest = 1, kRerouted = 2, kReply = 3, kClear = 4 };

class ConWeave final : public Balancer {
 public:
  explicit ConWeave(const BalancerContext& ctx)
      : self_(ctx.node), env_(ctx.env), kExtraReply(ctx.scenario.net.balancer.cw_reply_extra),
        kTxExpiry(ctx.scenario.net.balancer.cw_expiry), kExtraFlush(ctx.scenario.net.balancer.cw_flush_extra),
        kDefaultWait(ctx.scenario.net.balancer.cw_default_wait), rng_(ctx.seed), tx_(kEntries), rx_(kEntries) {
    if (!env_) throw std::invalid_argument("conweave needs the network's balancer services");
    // Base RTT between two ToRs of a leaf-spine: four fabric hops of a full packet out and
    // of a control packet back (propagation both ways, serialization at each hop).
    const Node& node = ctx.topo.node(ctx.node);
    Time hop = 0;
    for (PortId p : ctx.fabric) {
      const Link& l = ctx.topo.link(node.ports[p].link);
      hop = std::max(hop, 2 * l.delay + serialization_time(ctx.scenario.net.nic.mtu + kHeaderBytes, l.bps) +
                              serialization_time(kControlBytes, l.bps));
    }
    base_rtt_ = 2 * hop;
  }

  PortId choose(PortSpan c, RouteQuery& q) override {
    if (!q.first_hop || !q.data) return c[q.hash % c.size()];
    BalancerHeader& h = *q.hdr;
    Tx& f = tx_[q.hash & (kEntries - 1)];
    const bool expired = !f.used || f.key != q.hash || q.now - f.last > kTxExpiry ||
                         std::find(c.begin(), c.end(), f.path) == c.end();
    h.cw_flag = kNone;
    if (expired || (f.phase == 1 && (f.cleared || q.now > f.clear_by))) {
      const uint16_t epoch = expired && (!f.used || f.key != q.hash) ? 1 : static_cast<uint16_t>(f.epoch + 1);
      const PortId keep = expired ? c[rng_.below(c.size())] : f.path;
      f = Tx{};
      f.used = true;
      f.key = q.hash;
      f.epoch = epoch;
      f.path = keep;
      request(f, h, q.now);
    } else if (f.phase == 0 && f.deadline != kNever && q.now > f.deadline) {
      // no RTT_REPLY in time: reroute, marking where the old path ends
      PortId next = f.path;
      if (c.size() > 1) {
        const size_t k = rng_.below(c.size() - 1);
        size_t i = 0;
        for (PortId p : c)
          if (p != f.path && i++ == k) next = p;
      }
      h.cw_tail = f.last;
      f.path = next;
      f.phase = 1;
      f.cleared = false;
      f.clear_by = q.now + kTxExpiry;
      f.deadline = kNever;
      h.cw_flag = kRerouted;
      ++reroutes_;
    } else if (f.phase == 0 && f.deadline == kNever) {
      request(f, h, q.now);  // the last probe came back: probe again
    }
    h.cw_key = q.hash;
    h.cw_epoch = f.epoch;
    h.cw_phase = f.phase;
    h.cw_tx = q.now;
    f.last = q.now;
    return f.path;
  }

  void occupancy(PortId, uint64_t) override {}

  ArriveVerdict arrive(const RouteQuery& q) override {
    const BalancerHeader& h = *q.hdr;
    if (q.control) {  // a control packet for this (source) ToR
      if (h.cw_flag != kReply && h.cw_flag != kClear) return {};
      Tx& f = tx_[h.cw_key & (kEntries - 1)];
      if (f.used && f.key == h.cw_key && f.epoch == h.cw_epoch) {
        if (h.cw_flag == kReply && f.phase == 0) f.deadline = kNever;
        if (h.cw_flag == kClear) f.cleared = true;
      }
      return {ArriveVerdict::Consume, 0};
    }
    if (!q.data || q.dst_edge != self_ || h.cw_key == 0) return {};
    Rx& r = rx_[h.cw_key & (kEntries - 1)];
    if (r.used && r.key == h.cw_key && static_cast<int16_t>(h.cw_epoch - r.epoch) < 0) return {};  // an older epoch's straggler
    if (!r.used || r.key != h.cw_key || h.cw_epoch != r.epoch) {  // a new flow or epoch
      if (r.used && r.holding) flush(r);
      const uint32_t gen = r.gen;  // a timer of the old epoch must not match the new one's
      r = Rx{};
      r.gen = gen;
      r.used = true;
      r.key = h.cw_key;
      r.epoch = h.cw_epoch;
    }
    if (h.cw_flag == kRequest) reply(q, kReply);
    if (h.cw_phase == 0) {
      r.owd = q.now - h.cw_tx;
      r.last_old = std::max(r.last_old, h.cw_tx);
      if (r.holding && r.last_old >= r.tail) {  // the tail is in: the rest may follow it
        r.holding = false;
        env_->release(self_, hold_key(r));
        reply(q, kClear);
      }
      return {};
    }
    // phase 1: after the reroute
    if (h.cw_flag == kRerouted) r.tail = h.cw_tail;
    if (!r.holding && !r.cleared && r.last_old < r.tail) {
      r.holding = true;
      ++r.gen;
      const Time wait = r.owd ? r.tail + r.owd + kExtraFlush : q.now + kDefaultWait;
      env_->timer(self_, std::max(wait, q.now), (uint64_t{r.gen & 0xFF} << 32) | h.cw_key);
      r.clear_to = q.src_host;
      ++holds_;
    }
    if (r.holding) return {ArriveVerdict::Hold, hold_key(r)};
    if (!r.cleared) {
      r.cleared = true;
      reply(q, kClear);
    }
    return {};
  }

  std::vector<std::pair<const char*, uint64_t>> counters() const override {
    return {{"conweave_reroutes", reroutes_}, {"conweave_reorder_holds", holds_}, {"conweave_flush_timeouts", timeouts_}};
  }

  void on_timer(uint64_t token) override {
    const uint32_t key = static_cast<uint32_t>(token);
    Rx& r = rx_[key & (kEntries - 1)];
    if (!r.used || r.key != key || !r.holding || (r.gen & 0xFF) != (token >> 32)) return;
    flush(r);
    ++timeouts_;
    BalancerHeader c;
    c.cw_flag = kClear;
    c.cw_key = r.key;
    c.cw_epoch = r.epoch;
    env_->send(self_, r.clear_to, c);
  }

 private:
  struct Tx {
    uint32_t key = 0;
    uint16_t epoch = 0;
    uint8_t phase = 0;
    bool used = false, cleared = false;
    PortId path = 0;
    Time last = 0, deadline = kNever, clear_by = kNever;
  };
  struct Rx {
    uint32_t key = 0;
    uint16_t epoch = 0;
    bool used = false, holding = false, cleared = false;
    uint32_t gen = 0;
    Time tail = 0, last_old = 0, owd = 0;
    NodeId clear_to = 0;
  };

  static uint64_t hold_key(const Rx& r) { return (uint64_t{r.epoch} << 32) | r.key; }

  void request(Tx& f, BalancerHeader& h, Time now) {
    h.cw_flag = kRequest;
    f.deadline = now + base_rtt_ + kExtraReply;
  }

  void flush(Rx& r) {
    r.holding = false;
    r.cleared = true;
    env_->release(self_, hold_key(r));
  }

  // RTT_REPLY or CLEAR back to the source ToR (addressed to the flow's source host, whose
  // ToR consumes it).
  void reply(const RouteQuery& q, Flag flag) {
    BalancerHeader c;
    c.cw_flag = flag;
    c.cw_key = q.hdr->cw_key;
    c.cw_epoch = q.hdr->cw_epoch;
    env_->send(self_, q.src_host, c);
  }

  const NodeId self_;
  BalancerEnv* env_;
  const Time kExtraReply, kTxExpiry, kExtraFlush, kDefaultWait;  // balancer.conweave
  Rng rng_;
  Time base_rtt_ = 0;
  std::vector<Tx> tx_;
  std::vector<Rx> rx_;
  uint64_t reroutes_ = 0, holds_ = 0, timeouts_ = 0;
};

}  // namespace

std::unique_ptr<Balancer> make_conweave(const BalancerContext& ctx) { return std::make_unique<ConWeave>(ctx); }

}  // namespace ll::sim
