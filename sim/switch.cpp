// The switch data path of the fabric (docs/sim.md, "Data path"): building a switch from
// the marker, PFC and balancer models, routing, admission, marking, the egress scheduler,
// PFC frames and ticks, and the queue samples.
#include <algorithm>
#include <stdexcept>

#include "common/bits.h"
#include "common/prng.h"
#include "drill/control_plane.h"
#include "marker/marker.h"
#include "pfc/pfc.h"
#include "pfc/pfc_buffer.h"
#include "sim/cosim.h"
#include "sim/network.h"
#include "sim/network_util.h"

namespace ll::sim {

using detail::config_error;
using detail::mix32;

void Network::build_switch(NodeId n) {
  const Node& node = topo_.node(n);
  switch_of_[n] = static_cast<int32_t>(switches_.size());
  switches_.emplace_back();
  Switch& sw = switches_.back();
  sw.node = n;
  sw.tier = static_cast<unsigned>(std::find(tier_names_.begin(), tier_names_.end(), node.tier) - tier_names_.begin());
  const unsigned P = static_cast<unsigned>(node.ports.size());
  sw.eg.resize(P);

  // RED/ECN marker: queue = port * 8 + priority; profile 0 on the data priority, 1 (off) elsewhere.
  const MarkerCfg& mk = cfg_.sw.marker;
  if (mk.enable) {
    marker::Config c;
    c.Queues = detail::marker_queues(P);
    c.Profiles = 2;
    c.QW = BlockSizes::kMarkerQW;
    c.Seed = ll::derive_seed(s_.seed, 4ull * n + 0);
    sw.marker = std::make_unique<marker::Model>(c);
    sw.marker->reset_transaction();
    marker::Profile p;
    try {
      p = mk.mode == "red" ? marker::Profile::red(static_cast<uint32_t>(mk.kmin), static_cast<uint32_t>(mk.kmax), mk.pmax, c.QW)
                           : marker::Profile::cutoff(static_cast<uint32_t>(mk.kmin), c.QW);
    } catch (const std::invalid_argument& e) {
      config_error(s_, "switch.marker", e.what());
    }
    p.ewma = mk.ewma_shift > 0;
    p.w = mk.ewma_shift;
    p.deq = mk.dequeue;
    sw.marker->set_profile(0, p);
    sw.marker->set_profile(1, marker::Profile{});
    for (unsigned port = 0; port < P; ++port)
      for (unsigned pr = 0; pr < 8; ++pr)
        sw.marker->map_queue(port * 8 + pr, pr == kDataPrio ? 0 : 1);
    if (cfg_.cosim.wants(n, "marker")) {
      // The same configuration as register writes (docs/marker_regmap.md) for the RTL.
      CfgProgram prog = marker::profile_ops(0, p);
      for (const CfgOp& op : marker::profile_ops(1, marker::Profile{})) prog.push_back(op);
      for (unsigned port = 0; port < P; ++port)
        for (unsigned pr = 0; pr < 8; ++pr) prog.push_back(marker::qmap_op(port * 8 + pr, pr == kDataPrio ? 0 : 1));
      if (cosim::Factory* f = cosim::installed()) {
        try {
          sw.marker_rtl = f->marker(node.name, c, prog);
        } catch (const std::exception& e) {
          config_error(s_, "cosim." + node.name, e.what());
        }
      }
    }
  }

  // PFC block: shared-buffer admission for every switch with <= 64 ports; PAUSE only
  // when PFC is on (lossless mask = the data priority).
  const PfcCfg& pc = cfg_.sw.pfc;
  if (const std::string rule = detail::pfc_size_rule(P); !rule.empty()) {
    // (PFC on with more ports than the block takes was refused before routing: within_block_limits)
    if (cfg_.cosim.wants(n, "pfc")) {
      config_error(s_, "cosim." + node.name, "switch " + node.name + " has " + std::to_string(P) +
                                                 " ports and so no PFC block to run as RTL (" + rule + ")");
    }
  } else {
    pfc::Config c;
    c.Ports = std::max(2u, P);
    c.CntW = BlockSizes::kPfcCntW;
    c.TimerW = BlockSizes::kPfcTimerW;
    c.TickNs = pc.tick_ns;
    auto model = std::make_unique<pfc::Model>(c);
    model->reset_transaction();
    pfc::Settings st = pfc::Settings::reset_values(c);
    uint64_t fastest = 0, headroom = pc.headroom;
    for (const Port& pt : node.ports) {
      const Link& l = topo_.link(pt.link);
      fastest = std::max(fastest, l.bps);
      if (pc.headroom == 0) {
        // t_flight of the link (pfc_buffer_calc's formula): rate x (2 x cable + response) / 8 + 2 MTU + 64
        const pfc::buffer::Q gbps{static_cast<__int128>(l.bps), 1'000'000'000};
        const pfc::buffer::Q cable{static_cast<__int128>(l.delay), 5000};  // 5 ns per metre
        const pfc::buffer::Q resp{100, 1};
        const pfc::buffer::Q tf = pfc::buffer::derive_tflight(gbps, cable, cfg_.nic.mtu + kHeaderBytes, resp);
        // + one MTU: packets arrive whole, so the starts that fit the t_flight window can
        // carry up to one more packet than its bytes (measured: 5 x 1062 B against 4813 B at 10G, 1 us).
        headroom = std::max<uint64_t>(headroom, static_cast<uint64_t>((tf.num + tf.den - 1) / tf.den) + cfg_.nic.mtu + kHeaderBytes);
      }
    }
    st.dyn = pc.dynamic;
    st.pool = pc.pool;
    st.lossless = pc.enable ? (1u << kDataPrio) : 0u;
    // Static XOFF: given, or pfc_buffer_calc's t_PFC = (B - P n t_flight) / (P n) for this
    // switch (n ports, P = 1 lossless priority, t_flight = the headroom).
    // The same threshold is the ingress admission limit of lossy traffic (all of it when PFC
    // is off), so it is derived either way; without PFC no headroom is set aside.
    uint64_t xoff = pc.xoff;
    if (xoff == 0) {
      const uint64_t tflight = pc.enable ? headroom : 0;
      pfc::buffer::Inputs in;
      in.buffer = pc.buffer;
      in.ports = P;
      in.prios = 1;
      in.tflight = tflight;
      in.beta = pfc::buffer::Q{8, 1};  // required by the calculator; the static bound does not use it
      if (pc.buffer > uint64_t{P} * tflight) {
        try {
          const pfc::buffer::Q t = pfc::buffer::compute(in).static_tpfc;
          xoff = static_cast<uint64_t>(t.num / t.den);
        } catch (const std::invalid_argument& e) {
          config_error(s_, "switch.pfc.xoff", std::string("cannot derive the static threshold: ") + e.what());
        }
      }
    }
    st.xoff_static = static_cast<uint32_t>(xoff);
    st.alpha_ing = pc.alpha_shift;
    st.alpha_eg = pc.lossy_alpha_shift;
    // Departures drain the headroom first, so with XON at least one headroom below XOFF a
    // static-threshold queue RESUMEs only with its headroom empty: the next PAUSE has all of it.
    st.xon_offset = static_cast<uint32_t>(pc.xon_offset ? pc.xon_offset : headroom);
    const uint64_t reserve = pc.enable ? static_cast<uint64_t>(P) * (headroom + pc.reserved) : 0;
    if (reserve >= pc.buffer) {
      config_error(s_, "switch.pfc.buffer", "too small for " + node.name + ": " + std::to_string(P) + " ports x (" +
                                                std::to_string(headroom) + " B headroom + reserved) leave no shared buffer");
    }
    st.shared_size = static_cast<uint32_t>(pc.buffer - reserve);
    st.egll_size = static_cast<uint32_t>(pc.buffer);
    st.egly_size = static_cast<uint32_t>(pc.lossy_buffer ? pc.lossy_buffer : pc.buffer);
    st.gbps = static_cast<uint32_t>(std::max<uint64_t>(1, fastest / 1'000'000'000));
    const uint64_t tick_ps = uint64_t{pc.tick_ns} * kNs;
    st.wd_detect = static_cast<uint32_t>(pc.watchdog_detect / tick_ps);
    st.wd_restore = static_cast<uint32_t>(pc.watchdog_restore / tick_ps);
    if (pc.watchdog_detect && (st.wd_detect == 0 || st.wd_restore == 0)) {
      config_error(s_, "switch.pfc.watchdog_detect", "must be at least one PFC tick");
    }
    st.rsv.fill(0);
    st.hdrm.fill(0);
    st.rsv[kDataPrio] = static_cast<uint32_t>(pc.reserved);
    st.hdrm[kDataPrio] = static_cast<uint32_t>(headroom);
    try {
      st.validate(c);
    } catch (const std::invalid_argument& e) {
      config_error(s_, "switch.pfc", e.what());
    }
    model->configure(st);
    sw.pfc = std::make_unique<cosim::PfcModel>(std::move(model));
    if (cfg_.cosim.wants(n, "pfc")) {
      if (cosim::Factory* f = cosim::installed()) {
        try {
          sw.pfc = f->pfc(node.name, c, st.program());  // the same settings as register writes and COMMIT
        } catch (const std::exception& e) {
          config_error(s_, "cosim." + node.name, e.what());
        }
      }
    }
  }

  // Balancer over the switch's fabric ports (in link order, as the control plane numbers them).
  std::vector<std::pair<LinkId, PortId>> fabric;
  for (PortId p = 0; p < P; ++p)
    if (!topo_.is_host(node.ports[p].peer)) fabric.emplace_back(node.ports[p].link, p);
  std::sort(fabric.begin(), fabric.end());
  sw.fabric.assign(P, 0);
  for (const auto& f : fabric) sw.fabric[f.second] = 1;
  if (fabric.size() >= 2) {
    const BalancerEntry* b = find_balancer(cfg_.balancer.mode);
    if (!b) config_error(s_, "balancer.mode", "\"" + cfg_.balancer.mode + "\" is not one of: " + balancer_names());
    BalancerContext ctx{s_, topo_, n, {}, ll::derive_seed(s_.seed, 4ull * n + 1), this};
    for (const auto& f : fabric) ctx.fabric.push_back(f.second);
    sw.bal = b->make(ctx);
    // Each switch's hash unit has its own seed, as real switches are configured: with one
    // hash everywhere, a flow that a leaf sends to uplink i lands on the same index at
    // every tier (polarisation: on a k = 16 fat-tree a 2 MB permutation finished 137 of
    // 1,024 flows in 10 ms).
    sw.hash_seed = ll::derive_seed(s_.seed, 4ull * n + 2);
  }
  if (cfg_.cosim.wants(n, "drill") && !sw.bal) {
    config_error(s_, "cosim." + node.name, node.name + " has " + std::to_string(fabric.size()) +
                                               " fabric port(s): no load-balancing selector to run as RTL");
  }

  // Queue-STDV ports (DRILL paper): a switch's uplinks. The top tier has none: its figure is
  // the spread of the downlinks towards each switch below (build_stdv_groups).
  sw.down.assign(P, 0);
  for (PortId p = 0; p < P; ++p) {
    if (topo_.node(node.ports[p].peer).level > node.level) sw.stdv_ports.push_back(p);
    sw.down[p] = topo_.node(node.ports[p].peer).level < node.level;
  }
}

// The DRILL paper's top-tier queue STDV: for each switch one level below the top (each leaf
// of a leaf-spine), the spread of every top switch's egress queues towards it.
void Network::build_stdv_groups() {
  int top = -1;
  for (const Switch& sw : switches_) top = std::max(top, topo_.node(sw.node).level);
  for (const Switch& below : switches_) {
    if (topo_.node(below.node).level != top - 1) continue;
    std::vector<std::pair<uint32_t, PortId>> g;
    for (uint32_t i = 0; i < switches_.size(); ++i) {
      const Node& t = topo_.node(switches_[i].node);
      if (t.level != top) continue;
      for (PortId p = 0; p < t.ports.size(); ++p)
        if (t.ports[p].peer == below.node && !topo_.link(t.ports[p].link).failed) g.emplace_back(i, p);
    }
    if (g.size() >= 2) {
      stdv_top_tier_ = switches_[g[0].first].tier;
      stdv_groups_.push_back(std::move(g));
    }
  }
}

void Network::build_components() {
  namespace cp = drill::cp;
  cp::Topology ct;
  std::vector<int> cp_of(topo_.num_nodes(), -1);
  std::vector<NodeId> node_of;
  for (const Switch& sw : switches_) {
    const Node& node = topo_.node(sw.node);
    uint64_t host_cap = 0;
    for (const Port& p : node.ports)
      if (topo_.is_host(p.peer)) host_cap += topo_.link(p.link).bps / 1'000'000;
    cp_of[sw.node] = static_cast<int>(ct.add_switch(node.name, host_cap > 0, host_cap));
    node_of.push_back(sw.node);
  }
  for (LinkId l = 0; l < topo_.num_links(); ++l) {
    const Link& L = topo_.link(l);
    if (topo_.is_host(L.a) || topo_.is_host(L.b)) continue;
    ct.add_link(static_cast<unsigned>(cp_of[L.a]), static_cast<unsigned>(cp_of[L.b]), L.bps / 1'000'000);
    if (L.failed) ct.links.back().failed = true;
  }
  const cp::Analysis an(ct);
  for (Switch& sw : switches_) {
    if (!sw.bal) continue;
    cp::Tables t;
    try {
      t = cp::build_tables(an, static_cast<unsigned>(cp_of[sw.node]), 64, 64);
    } catch (const std::exception& e) {
      config_error(s_, "balancer.components", topo_.node(sw.node).name + ": " + e.what());
    }
    std::vector<int> group_of_leaf(topo_.num_nodes(), -1);
    for (const auto& [leaf, g] : t.dst_group) group_of_leaf[node_of.at(leaf)] = static_cast<int>(g);
    try {
      sw.bal->components(t, std::move(group_of_leaf));
    } catch (const std::invalid_argument& e) {
      config_error(s_, "balancer.components", e.what());
    }
  }
}

PortId Network::route(Switch& sw, Packet& p) {
  const PortSpan c = routing_.next_hops(sw.node, p.dst);
  if (c.size() == 1 || !sw.bal) return c[0];
  if (p.type == PktType::Balancer) return c[mix32(p.hash, sw.hash_seed, sw.node) % c.size()];  // control: hashed
  RouteQuery q;
  q.now = sim_.now();
  q.engine = p.at_port % cfg_.balancer.engines;
  // The switch's hash of the packet's flow (5-tuple hash mixed with the switch's seed).
  q.hash = mix32(p.hash, sw.hash_seed, sw.node);
  q.payload = p.payload;
  q.src_edge = topo_.node(p.src).ports[0].peer;
  q.dst_edge = topo_.node(p.dst).ports[0].peer;
  q.first_hop = !sw.fabric[p.at_port];
  q.data = p.type == PktType::Data;
  q.src_host = p.src;
  q.dst_host = p.dst;
  q.hdr = &p.lb;
  ++totals_.selector_decisions;
  return sw.bal->choose(c, q);
}

// The balancer sees the egress bytes of each fabric port as they change, or with
// balancer.occupancy_period only as snapshots of all of them (occupancy_snapshot).
void Network::update_occupancy(Switch& sw, PortId port) {
  if (sw.bal && sw.fabric[port] && !cfg_.balancer.occupancy_period) sw.bal->occupancy(port, sw.eg[port].bytes);
}

void Network::occupancy_snapshot(Switch& sw) {
  for (PortId p = 0; p < sw.eg.size(); ++p)
    if (sw.fabric[p]) sw.bal->occupancy(p, sw.eg[p].bytes);
}

void Network::mark(Switch& sw, Packet& p) {
  if (p.ce) return;  // counted once, at the first switch that marks it
  p.ce = true;
  ++tier_stats_[sw.tier].ecn_marks;
  if (totals_.first_mark == kNever) totals_.first_mark = sim_.now();
}

void Network::switch_arrive(Switch& sw, uint32_t id) {
  Packet& p = pkts_[id];
  const PortId in = p.at_port;
  if (p.type == PktType::Pause) {
    if (p.quanta) ++tier_stats_[sw.tier].pause_received;
    if (sw.pfc) {
      sw.pfc->on_pfc(in, p.prio, p.quanta);
      pfc_start_ticks(sw);
    }
    release(id);
    switch_kick(sw, in);
    return;
  }
  const NodeId dst_edge = topo_.node(p.dst).ports[0].peer;
  // The balancer sees packets from the fabric, and its control packets where they end.
  if (sw.bal && (p.type == PktType::Balancer ? dst_edge == sw.node : sw.fabric[in] != 0)) {
    RouteQuery q;
    q.now = sim_.now();
    q.src_edge = topo_.node(p.src).ports[0].peer;
    q.dst_edge = dst_edge;
    q.data = p.type == PktType::Data;
    q.control = p.type == PktType::Balancer;
    q.src_host = p.src;
    q.dst_host = p.dst;
    q.hdr = &p.lb;
    const ArriveVerdict a = sw.bal->arrive(q);
    if (a.action == ArriveVerdict::Consume) {
      release(id);
      flush_releases(sw);
      return;
    }
    if (a.action == ArriveVerdict::Hold) {
      sw.held[a.key].push_back(id);
      ++totals_.reorder_held;
      totals_.reorder_max = std::max(totals_.reorder_max, ++sw.held_now);
      flush_releases(sw);
      return;
    }
  }
  switch_forward(sw, id);
  flush_releases(sw);
}

void Network::flush_releases(Switch& sw) {
  while (!sw.releases.empty()) {
    const uint64_t key = sw.releases.front();
    sw.releases.erase(sw.releases.begin());
    auto it = sw.held.find(key);
    if (it == sw.held.end()) continue;
    std::deque<uint32_t> q = std::move(it->second);
    sw.held.erase(it);
    sw.held_now -= q.size();
    for (uint32_t id : q) switch_forward(sw, id);
  }
}

void Network::send(NodeId from, NodeId to, const BalancerHeader& h) {
  Packet p;
  p.type = PktType::Balancer;
  p.src = to;  // a switch has no host address; routing needs only the destination
  p.dst = to;
  p.prio = kControlPrio;
  p.wire = kControlBytes;
  p.hash = mix32(h.cw_key, from, to);
  p.lb = h;
  p.at_node = from;
  p.at_port = 0;
  ++totals_.balancer_control;
  sim_.at(sim_.now(), *this, kArrive, alloc(p));  // handled next, as a packet arriving at `from`
}

void Network::release(NodeId at, uint64_t key) { switches_[static_cast<size_t>(switch_of_[at])].releases.push_back(key); }

void Network::timer(NodeId at, Time when, uint64_t token) {
  sim_.at(when, *this, kBalTimer, (static_cast<uint64_t>(switch_of_[at]) << 40) | (token & ((uint64_t{1} << 40) - 1)));
}

void Network::switch_forward(Switch& sw, uint32_t id) {
  Packet& p = pkts_[id];
  const PortId in = p.at_port;
  const PortId e = route(sw, p);
  const unsigned prio = p.prio;
  const bool ll = lossless_ && prio == kDataPrio;
  Egress& eg = sw.eg[e];
  if (sw.marker && p.type == PktType::Data && !cfg_.sw.marker.dequeue) {
    const uint32_t qlen = static_cast<uint32_t>(std::min<uint64_t>(eg.q[prio].bytes, low_mask(sw.marker->config().QW)));
    const marker::Verdict v = sw.marker_rtl ? sw.marker_rtl->decide(e * 8 + prio, qlen, true, ll, false)
                                            : sw.marker->decide(e * 8 + prio, qlen, true, ll);
    if (v == marker::Verdict::Mark) {
      mark(sw, p);
    } else if (v == marker::Verdict::Drop) {
      drop(id, sw.tier, kDropRed);
      return;
    }
  }
  if (sw.pfc) {
    const pfc::Model::Result r = sw.pfc->admit(in, e, prio, p.wire, ll);
    if (r.dec == pfc::Decision::Drop) {
      drop(id, sw.tier, r.why == pfc::Why::Watchdog ? kDropWatchdog : ll ? kDropLosslessBuffer : kDropBuffer);
      send_pauses(sw);
      return;
    }
  } else {
    if (sw.buffer_used + p.wire > cfg_.sw.pfc.buffer) {
      drop(id, sw.tier, kDropBuffer);
      return;
    }
    sw.buffer_used += p.wire;
  }
  p.enq = sim_.now();
  eg.q[prio].q.push_back(id);
  eg.q[prio].bytes += p.wire;
  eg.bytes += p.wire;
  TierStats& ts = tier_stats_[sw.tier];
  ts.max_queue = std::max(ts.max_queue, eg.q[prio].bytes);
  update_occupancy(sw, e);
  send_pauses(sw);
  switch_kick(sw, e);
}

void Network::switch_kick(Switch& sw, PortId port) {
  Egress& eg = sw.eg[port];
  if (eg.frames.empty() && eg.bytes == 0) return;
  if (port_wait(sw.node, port)) return;
  if (!eg.frames.empty()) {
    const uint32_t id = eg.frames.front();
    eg.frames.pop_front();
    transmit(sw.node, port, id);
    if (!eg.frames.empty() || eg.bytes) port_wait(sw.node, port);
    return;
  }
  if (eg.bytes == 0) return;
  auto held = [&](unsigned pr) { return (sw.pfc && sw.pfc->paused(port, pr)) || (eg.test_held && pr == kDataPrio); };
  int prio = -1;
  for (unsigned pr = 7; pr >= 6 && prio < 0; --pr)
    if (!eg.q[pr].q.empty() && !held(pr)) prio = static_cast<int>(pr);
  if (prio < 0 && !wrr_) {
    for (int pr = 5; pr >= 0 && prio < 0; --pr)
      if (!eg.q[pr].q.empty() && !held(static_cast<unsigned>(pr))) prio = pr;
  } else if (prio < 0) {
    // Deficit round robin over priorities 0..5, quantum = weight x MTU.
    for (unsigned it = 0; it < 12 && prio < 0; ++it) {
      const unsigned pr = eg.rr;
      Fifo& f = eg.q[pr];
      if (!f.q.empty() && !held(pr)) {
        const int64_t head = pkts_[f.q.front()].wire;
        if (eg.deficit[pr] < head) eg.deficit[pr] += int64_t{cfg_.sw.sched.weights[pr]} * (cfg_.nic.mtu + kHeaderBytes);
        if (eg.deficit[pr] >= head) {
          eg.deficit[pr] -= head;
          prio = static_cast<int>(pr);
          break;
        }
      } else if (f.q.empty()) {
        eg.deficit[pr] = 0;
      }
      eg.rr = (pr + 1) % 6;
    }
  }
  if (prio < 0) return;
  Fifo& f = eg.q[prio];
  const uint32_t id = f.q.front();
  f.q.pop_front();
  Packet& p = pkts_[id];
  f.bytes -= p.wire;
  eg.bytes -= p.wire;
  const bool ll = lossless_ && static_cast<unsigned>(prio) == kDataPrio;
  if (sw.pfc) sw.pfc->depart(p.at_port, port, static_cast<uint32_t>(prio), p.wire, ll);
  else sw.buffer_used -= p.wire;
  if (sw.marker && p.type == PktType::Data && cfg_.sw.marker.dequeue) {
    const uint32_t qlen = static_cast<uint32_t>(std::min<uint64_t>(f.bytes, low_mask(sw.marker->config().QW)));
    const uint32_t q = port * 8 + static_cast<uint32_t>(prio);
    const marker::Verdict v = sw.marker_rtl ? sw.marker_rtl->decide(q, qlen, true, ll, true) : sw.marker->decide(q, qlen, true, ll, true);
    if (v == marker::Verdict::Mark) mark(sw, p);
  }
  if (p.type == PktType::Data && s_.in_window(sim_.now())) {
    TierStats& ts = tier_stats_[sw.tier];
    ++ts.queued_pkts[sw.down[port]];
    ts.queued_time[sw.down[port]] += sim_.now() - p.enq;
  }
  update_occupancy(sw, port);
  if (sw.bal && sw.fabric[port]) sw.bal->depart(port, p.wire, sim_.now(), p.lb);
  transmit(sw.node, port, id);
  send_pauses(sw);  // after transmit: a RESUME for this port waits for the packet on the wire
  if (!eg.frames.empty() || eg.bytes) port_wait(sw.node, port);
}

void Network::send_pauses(Switch& sw) {
  if (!sw.pfc) return;
  for (const pfc::PauseRequest& r : sw.pfc->take_pause_requests()) {
    Packet p;
    p.type = PktType::Pause;
    p.prio = static_cast<uint8_t>(r.prio);
    p.quanta = static_cast<uint16_t>(r.quanta);
    p.wire = kControlBytes;
    const uint32_t id = alloc(p);
    sw.eg[r.port].frames.push_back(id);
    ++(r.quanta ? tier_stats_[sw.tier].pause_sent : tier_stats_[sw.tier].resume_sent);
    if (r.quanta) {
      if (totals_.first_pause == kNever) totals_.first_pause = sim_.now();
      if (totals_.first_mark == kNever) ++totals_.pauses_before_mark;
    }
    if (r.quanta) pfc_start_ticks(sw);
    switch_kick(sw, r.port);
  }
}

void Network::pfc_start_ticks(Switch& sw) {
  if (sw.ticking || !sw.pfc) return;
  sw.ticking = true;
  const Time tick = Time{cfg_.sw.pfc.tick_ns} * kNs;
  sim_.at((sim_.now() / tick + 1) * tick, *this, kPfcTick, static_cast<uint64_t>(switch_of_[sw.node]));
}

// One PFC time-base tick. Ticks are delivered while any queue of the switch asserts or
// obeys a PAUSE or is in a watchdog storm; otherwise a tick changes nothing and is skipped.
void Network::pfc_tick(Switch& sw) {
  sw.pfc->advance_ticks(1);
  send_pauses(sw);
  bool active = false;
  const PortId P = static_cast<PortId>(sw.eg.size());
  for (PortId port = 0; port < P; ++port) {
    active = active || sw.pfc->xoff(port, kDataPrio) || sw.pfc->paused(port, kDataPrio) || sw.pfc->storm(port, kDataPrio);
    if (sw.eg[port].bytes) switch_kick(sw, port);
  }
  sw.ticking = false;
  if (active) pfc_start_ticks(sw);
}

bool Network::find_deadlock() {
  // Wait-for graph over switches: s -> t when s's data queue towards switch t holds packets
  // and is paused. A cycle in it is a candidate; it is a deadlock once none of its ports
  // has sent a data packet for run.deadlock_after (a congested but live fabric pauses in
  // cycles too, briefly).
  const size_t S = switches_.size();
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> out(S);  // (switch index, global port)
  for (size_t i = 0; i < S; ++i) {
    const Switch& sw = switches_[i];
    const Node& node = topo_.node(sw.node);
    for (PortId p = 0; p < sw.eg.size(); ++p) {
      const int32_t peer = switch_of_[node.ports[p].peer];
      if (peer < 0 || sw.eg[p].q[kDataPrio].q.empty()) continue;
      if (!sw.eg[p].test_held && !(sw.pfc && sw.pfc->paused(p, kDataPrio))) continue;
      out[i].push_back({static_cast<uint32_t>(peer), port_base_[sw.node] + p});
    }
  }
  // The first cycle of an iterative depth-first search (deterministic: switch and port order).
  std::vector<uint8_t> color(S, 0);  // 0 new, 1 on the stack, 2 done
  std::vector<std::pair<uint32_t, size_t>> stack;  // (switch, next edge)
  std::vector<uint32_t> via;                        // port taken into each stack entry but the first
  std::vector<uint32_t> cycle, nodes;
  for (uint32_t root = 0; root < S && cycle.empty(); ++root) {
    if (color[root] || out[root].empty()) continue;
    stack.assign(1, {root, 0});
    via.clear();
    color[root] = 1;
    while (!stack.empty() && cycle.empty()) {
      auto& [u, k] = stack.back();
      if (k == out[u].size()) {
        color[u] = 2;
        stack.pop_back();
        if (!via.empty()) via.pop_back();
        continue;
      }
      const auto [v, gp] = out[u][k++];
      if (color[v] == 1) {  // back edge: the cycle is the stack from v, then this edge
        size_t at = 0;
        while (stack[at].first != v) ++at;
        for (size_t j = at; j + 1 < stack.size(); ++j) {
          nodes.push_back(stack[j].first);
          cycle.push_back(via[j]);
        }
        nodes.push_back(u);
        cycle.push_back(gp);
      } else if (color[v] == 0) {
        color[v] = 1;
        via.push_back(gp);
        stack.push_back({v, 0});
      }
    }
  }
  if (cycle.empty()) {
    cycle_since_ = kNever;
    return false;
  }
  std::vector<uint64_t> sent;
  for (uint32_t gp : cycle) sent.push_back(totals_.port_packets[gp]);
  if (cycle != cycle_ports_ || sent != cycle_sent_) {  // a new cycle, or it moved: watch again
    cycle_ports_ = cycle;
    cycle_sent_ = sent;
    cycle_since_ = sim_.now();
    return false;
  }
  if (sim_.now() - cycle_since_ < s_.run.deadlock_after) return false;
  for (uint32_t n : nodes) deadlock_ += topo_.node(switches_[n].node).name + " -> ";
  deadlock_ += topo_.node(switches_[nodes.front()].node).name;
  return true;
}

void Network::sample_queues() {
  const Time now = sim_.now();
  std::vector<uint32_t> paused(tier_stats_.size(), 0);
  for (const Switch& sw : switches_) {
    if (!sw.pfc) continue;
    for (PortId p = 0; p < sw.eg.size(); ++p) paused[sw.tier] += sw.pfc->paused(p, kDataPrio) ? 1 : 0;
  }
  for (const Host& h : hosts_) paused[host_tier_] += h.paused_until > now ? 1 : 0;
  // Every queue statistic (paused ports, the deepest queue, the STDV) counts the samples taken
  // inside run.window only, as the flow statistics count the flows that start in it.
  const bool in_window = now >= s_.run.window_from && now < s_.run.window_to;
  for (size_t t = 0; t < paused.size() && in_window; ++t) {
    TierStats& ts = tier_stats_[t];
    ts.paused_max = std::max<uint64_t>(ts.paused_max, paused[t]);
    ts.paused_sum += paused[t];
    ++ts.paused_samples;
  }
  if (cfg_.report.paused_series) paused_series_.push_back({now, std::move(paused)});
  if (!in_window) return;
  std::vector<uint32_t> deepest(tier_stats_.size(), 0);
  for (const Switch& sw : switches_)
    for (const Egress& eg : sw.eg)
      deepest[sw.tier] = std::max<uint32_t>(deepest[sw.tier], static_cast<uint32_t>(std::min<uint64_t>(eg.q[kDataPrio].bytes, ~0u)));
  for (size_t t = 0; t < deepest.size(); ++t)
    if (t != host_tier_) tier_stats_[t].deepest.push_back(deepest[t]);
  for (const Switch& sw : switches_) {
    const size_t n = sw.stdv_ports.size();
    if (n < 2) continue;
    double sum = 0, sq = 0;
    for (PortId p : sw.stdv_ports) {
      const double q = static_cast<double>(sw.eg[p].bytes);
      sum += q;
      sq += q * q;
    }
    const double mean = sum / static_cast<double>(n);
    TierStats& ts = tier_stats_[sw.tier];
    ts.stdv_sum += std::sqrt(std::max(0.0, sq / static_cast<double>(n) - mean * mean));
    ++ts.stdv_samples;
  }
  for (const auto& g : stdv_groups_) {
    double sum = 0, sq = 0;
    for (const auto& [i, p] : g) {
      const double q = static_cast<double>(switches_[i].eg[p].bytes);
      sum += q;
      sq += q * q;
    }
    const double n = static_cast<double>(g.size()), mean = sum / n;
    TierStats& ts = tier_stats_[stdv_top_tier_];
    ts.stdv_sum += std::sqrt(std::max(0.0, sq / n - mean * mean));
    ++ts.stdv_samples;
  }
}

}  // namespace ll::sim
