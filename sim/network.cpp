#include "sim/network.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/bits.h"
#include "common/prng.h"
#include "dcqcn/dcqcn.h"
#include "drill/control_plane.h"
#include "drill/drill.h"
#include "marker/marker.h"
#include "pfc/pfc.h"
#include "pfc/pfc_buffer.h"

namespace ll::sim {

const char* cause_name(unsigned c) {
  switch (c) {
    case kDropBuffer: return "buffer";
    case kDropLosslessBuffer: return "lossless_buffer";
    case kDropRed: return "red";
    case kDropWatchdog: return "watchdog";
    default: return "?";
  }
}

namespace {

constexpr uint64_t kCursor = 1ull << 63;  // kFlowStart from the start-time cursor

uint32_t mix32(uint64_t a, uint64_t b, uint64_t c) {
  uint64_t z = a * 0x9E3779B97F4A7C15ull ^ (b << 21) ^ (c << 42) ^ c;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return static_cast<uint32_t>(z ^ (z >> 31));
}

[[noreturn]] void config_error(const Scenario& s, const std::string& key, const std::string& what) {
  throw ScenarioError(s.file, key, what);
}

}  // namespace

// ------------------------------------------------------------------ construction

Network::Network(const Scenario& s, const std::vector<Flow>& flows)
    : s_(s), cfg_(s.net), topo_(s.topology), routing_(topo_), flow_list_(flows) {
  tier_names_ = topo_.tiers();
  tier_stats_.resize(tier_names_.size());
  host_tier_ = static_cast<unsigned>(std::find(tier_names_.begin(), tier_names_.end(), "host") - tier_names_.begin());
  lossless_ = cfg_.sw.pfc.enable;
  sr_ = cfg_.nic.receiver == "sr";
  wrr_ = cfg_.sw.sched.policy == "wrr";
  port_base_.resize(topo_.num_nodes() + 1);
  for (NodeId n = 0; n < topo_.num_nodes(); ++n) {
    port_base_[n + 1] = port_base_[n] + static_cast<uint32_t>(topo_.node(n).ports.size());
  }
  port_free_.assign(port_base_.back(), 0);
  // Rates that divide 8 x 10^12 (1G, 10G, 25G, 40G, 100G, ...) serialize a byte in a whole
  // number of ps: a multiplication instead of serialization_time's 128-bit division.
  for (LinkId l = 0; l < topo_.num_links(); ++l) {
    const uint64_t bps = topo_.link(l).bps;
    link_ps_per_byte_.push_back(bps && (8 * kSec) % bps == 0 ? 8 * kSec / bps : 0);
  }
  port_event_.assign(port_base_.back(), 0);
  totals_.port_packets.assign(port_base_.back(), 0);
  switch_of_.assign(topo_.num_nodes(), -1);
  for (NodeId n = 0; n < topo_.num_hosts(); ++n) build_host(n);
  for (NodeId n = static_cast<NodeId>(topo_.num_hosts()); n < topo_.num_nodes(); ++n) build_switch(n);
  if (cfg_.balancer.components) build_components();

  fs_.resize(flow_list_.size());
  results_.resize(flow_list_.size());
  successors_.resize(flow_list_.size());
  for (size_t i = 0; i < flow_list_.size(); ++i) {
    const Flow& f = flow_list_[i];
    results_[i].flow = &f;
    results_[i].ideal = ideal_fct(f);
    fs_[i].npkts = static_cast<uint32_t>(std::max<uint64_t>(1, (f.bytes + cfg_.nic.mtu - 1) / cfg_.nic.mtu));
    if (f.after != kNoFlow) successors_.at(f.after).push_back(static_cast<uint32_t>(i));
  }
  delivered_by_sender_.assign(topo_.num_hosts(), 0);
}

Network::~Network() = default;

void Network::build_host(NodeId n) {
  Host h;
  h.node = n;
  const Node& node = topo_.node(n);
  if (node.ports.empty()) config_error(s_, "topology", "host " + node.name + " has no link");
  h.bps = topo_.link(node.ports[0].link).bps;
  const DcqcnCfg& d = cfg_.nic.dcqcn;
  if (d.enable) {
    if (h.bps % 1'000'000 != 0) config_error(s_, "topology", "host link of " + node.name + ": the DCQCN block takes a whole number of Mb/s");
    dcqcn::Config c;
    c.Queues = cfg_.nic.qps;
    c.TickPs = BlockSizes::kDcqcnTickPs;
    c.LineRateMbps = h.bps / 1'000'000;
    c.BytesW = BlockSizes::kDcqcnBytesW;
    try {
      c.validate();
    } catch (const std::invalid_argument& e) {
      config_error(s_, "nic", e.what());
    }
    h.dcqcn = std::make_unique<dcqcn::Model>(c);
    h.dcqcn->reset_transaction();
    const bool nic = d.variant == "nic";
    dcqcn::RpSettings rs;
    rs.nic = nic;
    rs.hai_grow = !nic;
    rs.clamp_tgt = d.clamp_target;
    rs.clamp_ati = true;
    rs.np_per_pkt = d.np_per_packet;
    rs.g_shift = d.g_shift;
    rs.alpha_period = static_cast<uint32_t>(d.alpha_period / kNs);
    rs.dec_period = static_cast<uint32_t>(d.dec_period / kNs);
    rs.inc_period = static_cast<uint32_t>(d.inc_period / kNs);
    rs.byte_reset = static_cast<uint32_t>(d.byte_reset);
    rs.F = d.threshold;
    rs.rai_mbps = static_cast<uint32_t>(d.rai / 1'000'000);
    rs.rhai_mbps = static_cast<uint32_t>(d.rhai / 1'000'000);
    rs.rmin_mbps = static_cast<uint32_t>(d.rmin / 1'000'000);
    rs.first_mbps = 0;
    rs.alpha_init_q16 = 1u << dcqcn::kCfgQ16;
    rs.min_dec_fac_q16 = 0;
    rs.np_interval = static_cast<uint32_t>(d.np_interval / kNs);
    h.dcqcn->configure(dcqcn::stage_regs(rs));
    for (uint32_t q = cfg_.nic.qps; q-- > 0;) h.free_slots.push_back(q);
  }
  hosts_.push_back(std::move(h));
}

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
    c.Queues = std::max(2u, P * 8);
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
  }

  // PFC block: shared-buffer admission for every switch with <= 64 ports; PAUSE only
  // when PFC is on (lossless mask = the data priority).
  const PfcCfg& pc = cfg_.sw.pfc;
  if (P > 64) {
    if (pc.enable) {
      config_error(s_, "switch.pfc.enable", "switch " + node.name + " has " + std::to_string(P) +
                                                " ports; the PFC block takes 2..64 (turn PFC off for this fabric)");
    }
  } else {
    pfc::Config c;
    c.Ports = std::max(2u, P);
    c.CntW = BlockSizes::kPfcCntW;
    c.TimerW = BlockSizes::kPfcTimerW;
    c.TickNs = pc.tick_ns;
    sw.pfc = std::make_unique<pfc::Model>(c);
    sw.pfc->reset_transaction();
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
    st.pool = false;
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
    st.alpha_ing = st.alpha_eg = pc.alpha_shift;
    // Departures drain the headroom first, so with XON at least one headroom below XOFF a
    // static-threshold queue RESUMEs only with its headroom empty: the next PAUSE has all of it.
    st.xon_offset = static_cast<uint32_t>(pc.xon_offset ? pc.xon_offset : headroom);
    const uint64_t reserve = pc.enable ? static_cast<uint64_t>(P) * (headroom + pc.reserved) : 0;
    if (reserve >= pc.buffer) {
      config_error(s_, "switch.pfc.buffer", "too small for " + node.name + ": " + std::to_string(P) + " ports x (" +
                                                std::to_string(headroom) + " B headroom + reserved) leave no shared buffer");
    }
    st.shared_size = static_cast<uint32_t>(pc.buffer - reserve);
    st.egll_size = st.egly_size = static_cast<uint32_t>(pc.buffer);
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
    sw.pfc->configure(st);
  }

  // Selector over the switch's fabric ports (in link order, as the control plane numbers them).
  sw.sel_index.assign(P, -1);
  std::vector<std::pair<LinkId, PortId>> fabric;
  for (PortId p = 0; p < P; ++p)
    if (!topo_.is_host(node.ports[p].peer)) fabric.emplace_back(node.ports[p].link, p);
  std::sort(fabric.begin(), fabric.end());
  for (size_t i = 0; i < fabric.size(); ++i) {
    sw.sel_index[fabric[i].second] = static_cast<int>(i);
    sw.sel_port.push_back(fabric[i].second);
  }
  if (fabric.size() >= 2) {
    const BalancerCfg& b = cfg_.balancer;
    if (fabric.size() > 64) {
      config_error(s_, "balancer", "switch " + node.name + " has " + std::to_string(fabric.size()) +
                                       " fabric ports; the selector takes at most 64");
    }
    drill::Config c;
    c.Ports = static_cast<unsigned>(fabric.size());
    c.OccW = BlockSizes::kDrillOccW;
    c.D = b.d;
    c.M = b.m;
    c.Engines = b.engines;
    c.HashW = BlockSizes::kDrillHashW;
    c.Groups = b.components ? BlockSizes::kDrillComps : 0;
    c.Comps = BlockSizes::kDrillComps;
    c.FlowEntries = BlockSizes::kDrillFlowEntries;
    c.OccLag = 1;
    c.Seed = ll::derive_seed(s_.seed, 4ull * n + 1);
    // Each switch's hash unit has its own seed, as real switches are configured: with one
    // hash everywhere, a flow that a leaf sends to uplink i lands on the same index at
    // every tier (polarisation: on a k = 16 fat-tree a 2 MB permutation finished 137 of
    // 1,024 flows in 10 ms).
    sw.hash_seed = ll::derive_seed(s_.seed, 4ull * n + 2);
    try {
      c.validate();
    } catch (const std::invalid_argument& e) {
      config_error(s_, "balancer", e.what());
    }
    sw.sel = std::make_unique<drill::Model>(c);
    sw.sel->reset_transaction();
    static const std::pair<const char*, drill::Mode> modes[] = {
        {"ecmp", drill::Mode::Ecmp}, {"random", drill::Mode::Random}, {"rr", drill::Mode::RoundRobin},
        {"drill", drill::Mode::Drill}, {"per_flow", drill::Mode::PerFlow}};
    for (const auto& [name, m] : modes)
      if (b.mode == name) sw.sel->set_mode(m);
    sw.occ.assign(fabric.size(), 0);
  }

  // Queue-STDV ports (DRILL paper): uplinks where there are any, else every fabric port.
  for (PortId p = 0; p < P; ++p)
    if (topo_.node(node.ports[p].peer).level > node.level) sw.stdv_ports.push_back(p);
  if (sw.stdv_ports.empty())
    for (const auto& f : fabric) sw.stdv_ports.push_back(f.second);
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
    if (!sw.sel) continue;
    cp::Tables t;
    try {
      t = cp::build_tables(an, static_cast<unsigned>(cp_of[sw.node]), 64, 64);
    } catch (const std::exception& e) {
      config_error(s_, "balancer.components", topo_.node(sw.node).name + ": " + e.what());
    }
    cp::load(*sw.sel, t);
    sw.group_of_leaf.assign(topo_.num_nodes(), -1);
    for (const auto& [leaf, g] : t.dst_group) sw.group_of_leaf[node_of.at(leaf)] = static_cast<int>(g);
  }
}

Time Network::ideal_fct(const Flow& f) const {
  // Store-and-forward along one shortest path: the first packet crosses every hop, the
  // rest stream behind it at the slowest link's rate.
  const uint64_t first = std::min<uint64_t>(f.bytes, cfg_.nic.mtu) + kHeaderBytes;
  const uint64_t total = f.bytes + ((f.bytes + cfg_.nic.mtu - 1) / cfg_.nic.mtu) * kHeaderBytes;
  // The stream is bounded by the end hosts' links (a sprayed flow may use several fabric
  // paths at once), so the ideal is a lower bound for every balancer.
  uint64_t slowest = std::min(hosts_[f.src].bps, hosts_[f.dst].bps);
  Time t = 0;
  NodeId at = f.src;
  for (int guard = 0; at != f.dst && guard < 255; ++guard) {
    const PortSpan c = routing_.next_hops(at, f.dst);
    if (c.empty()) return 0;
    const Port& p = topo_.node(at).ports[c[0]];
    const Link& l = topo_.link(p.link);
    t += l.delay + serialization_time(first, l.bps);
    at = p.peer;
  }
  return t + serialization_time(total - first, slowest);
}

// ------------------------------------------------------------------ packets

uint32_t Network::alloc(const Packet& p) {
  uint32_t id;
  if (!free_pkts_.empty()) {
    id = free_pkts_.back();
    free_pkts_.pop_back();
    pkts_[id] = p;
  } else {
    id = static_cast<uint32_t>(pkts_.size());
    pkts_.push_back(p);
    in_use_.push_back(0);
  }
  in_use_[id] = 1;
  return id;
}

void Network::release(uint32_t id) {
  in_use_[id] = 0;
  free_pkts_.push_back(id);
}

void Network::transmit(NodeId n, PortId port, uint32_t id) {
  const Port& pt = topo_.node(n).ports[port];
  const Link& l = topo_.link(pt.link);
  Packet& p = pkts_[id];
  const uint64_t ppb = link_ps_per_byte_[pt.link];
  const Time ser = ppb ? p.wire * ppb : serialization_time(p.wire, l.bps);
  const uint32_t gp = port_base_[n] + port;
  if (p.type == PktType::Data) {
    ++totals_.data_hops;
    ++totals_.port_packets[gp];
  }
  p.at_node = pt.peer;
  p.at_port = pt.peer_port;
  port_free_[gp] = sim_.now() + ser;
  sim_.after(ser + l.delay, *this, kArrive, id);
}

bool Network::port_wait(NodeId n, PortId port) {
  const uint32_t gp = port_base_[n] + port;
  if (sim_.now() >= port_free_[gp]) return false;
  if (!port_event_[gp]) {
    port_event_[gp] = 1;
    sim_.at(port_free_[gp], *this, kTxDone, (uint64_t{n} << 16) | port);
  }
  return true;
}

void Network::drop(uint32_t id, unsigned tier, unsigned cause) {
  const Packet& p = pkts_[id];
  if (p.type == PktType::Data) {
    ++totals_.data_dropped;
    --live_data_;  // a dropped data packet is no longer in flight
    if (cause == kDropLosslessBuffer) ++totals_.lossless_drops;
  } else {
    ++totals_.control_dropped;
  }
  ++tier_stats_[tier].drops[cause];
  release(id);
}

// ------------------------------------------------------------------ switch

PortId Network::route(Switch& sw, const Packet& p) {
  const PortSpan c = routing_.next_hops(sw.node, p.dst);
  if (c.size() == 1 || !sw.sel) return c[0];
  const unsigned engine = p.at_port % cfg_.balancer.engines;
  // The switch's hash of the packet's flow (5-tuple hash mixed with the switch's seed).
  const uint32_t hash = mix32(p.hash, sw.hash_seed, sw.node);
  int r = -1;
  ++totals_.selector_decisions;
  if (!sw.group_of_leaf.empty()) {
    const NodeId leaf = topo_.node(p.dst).ports[0].peer;
    const int g = sw.group_of_leaf[leaf];
    if (g >= 0) r = sw.sel->choose_group(engine, hash, static_cast<unsigned>(g), sw.occ);
  }
  if (r < 0) {
    uint64_t mask = 0;
    for (PortId port : c) mask |= 1ull << sw.sel_index[port];
    r = sw.sel->choose(engine, hash, mask, sw.occ);
  }
  if (r < 0) return c[0];
  return sw.sel_port[static_cast<size_t>(r)];
}

// What the selector sees of a port: its egress bytes in 64-byte cells (16-bit occupancy).
void Network::update_occupancy(Switch& sw, PortId port) {
  if (sw.sel_index[port] >= 0)
    sw.occ[static_cast<size_t>(sw.sel_index[port])] = static_cast<uint32_t>(
        std::min<uint64_t>(sw.eg[port].bytes >> BlockSizes::kDrillOccCellLog2, low_mask(sw.sel->config().OccW)));
}

void Network::mark(Switch& sw, Packet& p) {
  if (p.ce) return;  // counted once, at the first switch that marks it
  p.ce = true;
  ++tier_stats_[sw.tier].ecn_marks;
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
  const PortId e = route(sw, p);
  const unsigned prio = p.prio;
  const bool ll = lossless_ && prio == kDataPrio;
  Egress& eg = sw.eg[e];
  if (sw.marker && p.type == PktType::Data && !cfg_.sw.marker.dequeue) {
    const uint32_t qlen = static_cast<uint32_t>(std::min<uint64_t>(eg.q[prio].bytes, low_mask(sw.marker->config().QW)));
    const marker::Verdict v = sw.marker->decide(e * 8 + prio, qlen, true, ll);
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
  auto held = [&](unsigned pr) { return sw.pfc && sw.pfc->paused(port, pr); };
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
    if (sw.marker->decide(port * 8 + static_cast<uint32_t>(prio), qlen, true, ll, true) == marker::Verdict::Mark) mark(sw, p);
  }
  update_occupancy(sw, port);
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

void Network::sample_queues() {
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
}

// ------------------------------------------------------------------ NIC

uint32_t Network::payload_of(uint32_t flow, uint32_t seq) const {
  const uint64_t bytes = flow_list_[flow].bytes, off = uint64_t{seq} * cfg_.nic.mtu;
  return static_cast<uint32_t>(std::min<uint64_t>(cfg_.nic.mtu, bytes > off ? bytes - off : 1));
}

void Network::send_control(Host& h, PktType type, uint32_t flow, uint32_t seq, NodeId to) {
  Packet p;
  p.type = type;
  p.flow = flow;
  p.seq = seq;
  p.src = h.node;
  p.dst = to;
  p.prio = kControlPrio;
  p.wire = kControlBytes;
  p.hash = mix32(flow, h.node, to);
  h.ctrl.push_back(alloc(p));
  host_kick(h);
}

void Network::host_wake_at(Host& h, Time t) {
  if (t >= h.wake_at) return;
  h.wake_at = t;
  sim_.at(t, *this, kHostWake, h.node);
}

void Network::host_kick(Host& h) {
  if (h.ctrl.empty() && h.ready.empty()) return;
  if (port_wait(h.node, 0)) return;
  if (!h.ctrl.empty()) {
    const uint32_t id = h.ctrl.front();
    h.ctrl.pop_front();
    transmit(h.node, 0, id);
    if (!h.ctrl.empty() || !h.ready.empty()) port_wait(h.node, 0);
    return;
  }
  const Time now = sim_.now();
  if (now < h.paused_until) {
    host_wake_at(h, h.paused_until);
    return;
  }
  while (!h.ready.empty()) {
    const Departure d = h.ready.top();
    if (d.t > now) {
      host_wake_at(h, d.t);
      return;
    }
    h.ready.pop();
    FlowState& f = fs_[d.flow];
    f.in_ready = false;
    if (!f.active || f.sender_done) continue;
    uint32_t seq = 0;
    bool have = false;
    while (!f.retx.empty() && !have) {
      const uint32_t r = f.retx.front();
      f.retx.erase(f.retx.begin());
      if (r >= f.snd_una) {
        seq = r;
        have = true;
      }
    }
    if (!have && f.snd_nxt < f.npkts) {
      seq = f.snd_nxt++;
      have = true;
    }
    if (!have) continue;
    const Flow& fl = flow_list_[d.flow];
    Packet p;
    p.type = PktType::Data;
    p.flow = d.flow;
    p.seq = seq;
    p.src = fl.src;
    p.dst = fl.dst;
    p.prio = kDataPrio;
    p.payload = static_cast<uint16_t>(payload_of(d.flow, seq));
    p.wire = static_cast<uint16_t>(p.payload + kHeaderBytes);
    p.hash = mix32(d.flow, fl.src, fl.dst);
    const uint32_t id = alloc(p);
    ++live_data_;
    ++totals_.data_injected;
    if (seq < f.max_sent) ++results_[d.flow].retx;
    else f.max_sent = seq + 1;
    if (h.dcqcn) h.dcqcn->on_sent(f.sslot, p.wire, ticks(now));
    arm_rto(d.flow);
    transmit(h.node, 0, id);
    make_ready(d.flow);
    if (!h.ctrl.empty() || !h.ready.empty()) port_wait(h.node, 0);
    return;
  }
}

void Network::make_ready(uint32_t fi) {
  FlowState& f = fs_[fi];
  if (f.in_ready || !f.active || f.sender_done) return;
  if (f.retx.empty() && f.snd_nxt >= f.npkts) return;
  const Flow& fl = flow_list_[fi];
  Host& h = hosts_[fl.src];
  Time t = sim_.now();
  if (h.dcqcn) {
    const uint32_t next = f.retx.empty() ? f.snd_nxt : f.retx.front();
    const uint32_t wire = payload_of(fi, next) + kHeaderBytes;
    const uint64_t d = h.dcqcn->next_departure(f.sslot, wire, ticks(t));  // Q48.16 ticks of 1 ns
    const unsigned __int128 ps = (static_cast<unsigned __int128>(d) * 1000 + 0xFFFF) >> 16;
    t = std::max<Time>(t, static_cast<Time>(ps));
  }
  f.in_ready = true;
  h.ready.push({t, seq_++, fi});
  host_kick(h);
}

void Network::arm_rto(uint32_t fi) {
  FlowState& f = fs_[fi];
  if (f.rto_armed) return;
  f.rto_armed = true;
  f.rto_una = f.snd_una;
  sim_.after(cfg_.nic.rto, *this, kRto, (uint64_t{f.rto_gen} << 32) | fi);
}

void Network::on_rto(uint32_t fi, uint32_t gen) {
  FlowState& f = fs_[fi];
  if (gen != f.rto_gen) return;
  f.rto_armed = false;
  if (f.sender_done || !f.active) return;
  if (f.snd_una == f.rto_una && f.snd_una < f.npkts) {
    if (!sr_) f.snd_nxt = f.snd_una;
    else f.retx.push_back(f.snd_una);
    make_ready(fi);
  }
  if (f.snd_una < f.npkts) arm_rto(fi);
}

void Network::flow_start(uint32_t fi) {
  const Flow& fl = flow_list_[fi];
  Host& src = hosts_[fl.src];
  Host& dst = hosts_[fl.dst];
  if (src.dcqcn && (src.free_slots.empty() || dst.free_slots.empty() || !waiting_.empty())) {
    ++totals_.qp_waits;
    waiting_.push_back(fi);
    return;
  }
  flow_grant(fi);
}

void Network::flow_grant(uint32_t fi) {
  const Flow& fl = flow_list_[fi];
  Host& src = hosts_[fl.src];
  Host& dst = hosts_[fl.dst];
  FlowState& f = fs_[fi];
  if (src.dcqcn) {
    f.sslot = src.free_slots.back();
    src.free_slots.pop_back();
    src.dcqcn->reset_qp(f.sslot);
    f.rslot = dst.free_slots.back();
    dst.free_slots.pop_back();
    dst.dcqcn->reset_qp(f.rslot);
  }
  f.active = true;
  results_[fi].start = sim_.now();
  make_ready(fi);
}

void Network::retry_waiting() {
  while (!waiting_.empty()) {
    const uint32_t fi = waiting_.front();
    const Flow& fl = flow_list_[fi];
    if (hosts_[fl.src].free_slots.empty() || hosts_[fl.dst].free_slots.empty()) return;
    waiting_.pop_front();
    flow_grant(fi);
  }
}

void Network::receiver_done(uint32_t fi) {
  const Flow& fl = flow_list_[fi];
  Host& dst = hosts_[fl.dst];
  results_[fi].finish = sim_.now();
  fs_[fi].got.clear();
  fs_[fi].got.shrink_to_fit();
  if (dst.dcqcn) dst.free_slots.push_back(fs_[fi].rslot);
  send_control(dst, PktType::Ack, fi, fs_[fi].npkts, fl.src);
  for (uint32_t s : successors_[fi]) sim_.at(std::max(sim_.now(), flow_list_[s].start), *this, kFlowStart, s);
  retry_waiting();
}

void Network::sender_done(uint32_t fi) {
  FlowState& f = fs_[fi];
  if (f.sender_done) return;
  f.sender_done = true;
  ++f.rto_gen;
  f.retx.clear();
  f.retx.shrink_to_fit();
  Host& src = hosts_[flow_list_[fi].src];
  if (src.dcqcn) src.free_slots.push_back(f.sslot);
  retry_waiting();
}

void Network::host_arrive(Host& h, uint32_t id) {
  const Packet p = pkts_[id];
  release(id);
  const Time now = sim_.now();
  switch (p.type) {
    case PktType::Pause: {
      if (p.prio != kDataPrio) break;
      if (p.quanta) {
        ++tier_stats_[host_tier_].pause_received;
        h.paused_until = now + serialization_time(uint64_t{p.quanta} * 64, h.bps);  // quanta x 512 bit times
      } else {
        h.paused_until = now;
      }
      host_kick(h);
      break;
    }
    case PktType::Data: {
      ++totals_.data_delivered;
      --live_data_;
      FlowState& f = fs_[p.flow];
      FlowResult& r = results_[p.flow];
      if (r.done()) {
        send_control(h, PktType::Ack, p.flow, f.npkts, p.src);
        break;
      }
      if (p.ce && h.dcqcn && h.dcqcn->on_marked(f.rslot, ticks(now))) {
        ++totals_.cnps_sent;
        send_control(h, PktType::Cnp, p.flow, 0, p.src);
      }
      const Flow& fl = flow_list_[p.flow];
      if (p.seq == f.rcv_nxt) {
        delivered_by_sender_[fl.src] += payload_of(p.flow, f.rcv_nxt);
        ++f.rcv_nxt;
        while (!f.got.empty() && f.rcv_nxt < f.npkts && (f.got[f.rcv_nxt >> 6] >> (f.rcv_nxt & 63) & 1)) {
          delivered_by_sender_[fl.src] += payload_of(p.flow, f.rcv_nxt);
          ++f.rcv_nxt;
        }
        if (f.rcv_nxt >= f.npkts) {
          receiver_done(p.flow);
        } else if (++f.since_ack >= cfg_.nic.ack_every) {
          f.since_ack = 0;
          send_control(h, PktType::Ack, p.flow, f.rcv_nxt, p.src);
        }
      } else if (p.seq > f.rcv_nxt) {
        ++r.ooo;
        if (sr_) {
          if (f.got.empty()) f.got.assign((f.npkts + 63) / 64, 0);
          f.got[p.seq >> 6] |= 1ull << (p.seq & 63);
        }
        if (f.nack_for != f.rcv_nxt) {
          f.nack_for = f.rcv_nxt;
          send_control(h, PktType::Nack, p.flow, f.rcv_nxt, p.src);
        }
      } else {
        send_control(h, PktType::Ack, p.flow, f.rcv_nxt, p.src);
      }
      break;
    }
    case PktType::Ack:
    case PktType::Nack: {
      FlowState& f = fs_[p.flow];
      if (!f.active || f.sender_done) break;
      if (p.seq > f.snd_una) {
        f.snd_una = p.seq;
        if (f.snd_nxt < f.snd_una) f.snd_nxt = f.snd_una;
      }
      if (f.snd_una >= f.npkts) {
        sender_done(p.flow);
        break;
      }
      if (p.type == PktType::Nack) {
        if (!sr_) {
          if (f.snd_nxt > p.seq) f.snd_nxt = p.seq;
        } else if (std::find(f.retx.begin(), f.retx.end(), p.seq) == f.retx.end()) {
          f.retx.push_back(p.seq);
        }
        make_ready(p.flow);
      }
      break;
    }
    case PktType::Cnp: {
      ++totals_.cnps_received;
      FlowState& f = fs_[p.flow];
      if (h.dcqcn && f.active && !f.sender_done) h.dcqcn->on_cnp(f.sslot, ticks(now));
      break;
    }
  }
}

// ------------------------------------------------------------------ events and run

void Network::handle(const Event& ev) {
  switch (ev.kind) {
    case kArrive: {
      const uint32_t id = static_cast<uint32_t>(ev.arg);
      const NodeId n = pkts_[id].at_node;
      if (switch_of_[n] >= 0) switch_arrive(switches_[static_cast<size_t>(switch_of_[n])], id);
      else host_arrive(hosts_[n], id);
      break;
    }
    case kTxDone: {
      const NodeId n = static_cast<NodeId>(ev.arg >> 16);
      const PortId port = static_cast<PortId>(ev.arg & 0xFFFF);
      port_event_[port_base_[n] + port] = 0;
      if (switch_of_[n] >= 0) switch_kick(switches_[static_cast<size_t>(switch_of_[n])], port);
      else host_kick(hosts_[n]);
      break;
    }
    case kHostWake: {
      Host& h = hosts_[ev.arg];
      if (sim_.now() != h.wake_at) break;
      h.wake_at = kNever;
      host_kick(h);
      break;
    }
    case kFlowStart: {
      const uint32_t fi = static_cast<uint32_t>(ev.arg);
      if (ev.arg & kCursor) schedule_next_start();
      flow_start(fi);
      break;
    }
    case kRto:
      on_rto(static_cast<uint32_t>(ev.arg), static_cast<uint32_t>(ev.arg >> 32));
      break;
    case kPfcTick:
      pfc_tick(switches_[ev.arg]);
      break;
    case kSample:
      sample_queues();
      if (sim_.now() + cfg_.report.sample_period <= s_.duration) sim_.after(cfg_.report.sample_period, *this, kSample);
      break;
    default:
      throw std::logic_error("network: unknown event kind");
  }
}

void Network::schedule_next_start() {
  while (cursor_ < flow_list_.size() && flow_list_[cursor_].after != kNoFlow) ++cursor_;
  if (cursor_ >= flow_list_.size()) return;
  const Flow& f = flow_list_[cursor_];
  if (f.start < s_.duration) sim_.at(std::max(sim_.now(), f.start), *this, kFlowStart, kCursor | cursor_);
  ++cursor_;
}

void Network::run(const std::function<void(Time, uint64_t)>& progress, Time every) {
  schedule_next_start();
  sim_.after(cfg_.report.sample_period, *this, kSample);
  const Time end = s_.duration;
  const Time step = every ? every : end;
  for (Time t = 0; t < end;) {
    t = std::min(end, t + step);
    sim_.run(t);
    if (progress) progress(t, sim_.executed());
    if (sim_.empty()) break;
  }
  totals_.events = sim_.executed();
  uint64_t live = 0;
  for (size_t i = 0; i < pkts_.size(); ++i)
    if (in_use_[i] && pkts_[i].type == PktType::Data) ++live;
  totals_.data_in_flight = live;
  for (const Switch& sw : switches_) {
    if (!sw.pfc) continue;
    TierStats& ts = tier_stats_[sw.tier];
    ts.wd_storms += sw.pfc->counter(pfc::kWdStorm);
    ts.wd_restores += sw.pfc->counter(pfc::kWdRestore);
    ts.headroom_violations += sw.pfc->counter(pfc::kViolation);
  }
}

std::string Network::conservation_error() const {
  const RunTotals& t = totals_;
  if (t.data_injected == t.data_delivered + t.data_dropped + t.data_in_flight && live_data_ == t.data_in_flight) return {};
  return "packet conservation violated: injected " + std::to_string(t.data_injected) + ", delivered " +
         std::to_string(t.data_delivered) + ", dropped " + std::to_string(t.data_dropped) + ", in the packet pool " +
         std::to_string(t.data_in_flight) + ", in flight by the counters " + std::to_string(live_data_);
}

std::string Network::lossless_error() const {
  if (!lossless_ || cfg_.sw.pfc.allow_lossless_drops || totals_.lossless_drops == 0) return {};
  return std::to_string(totals_.lossless_drops) + " lossless-class packets dropped with PFC on (buffer or headroom too small?)";
}

std::vector<uint64_t> Network::port_packets(NodeId node) const {
  return std::vector<uint64_t>(totals_.port_packets.begin() + port_base_[node], totals_.port_packets.begin() + port_base_[node + 1]);
}

}  // namespace ll::sim
