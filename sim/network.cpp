#include "sim/network.h"

// The fabric: construction, packets and links, event dispatch and the run; the switch
// data path is in switch.cpp, the NIC and its transport in nic.cpp, the balancers in
// balancer*.cpp (docs/sim.md, "Parts").

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/bits.h"
#include "common/prng.h"
#include "dcqcn/dcqcn.h"
#include "drill/control_plane.h"
#include "drill/drill.h"
#include "marker/marker.h"
#include "sim/cosim.h"
#include "pfc/pfc.h"
#include "pfc/pfc_buffer.h"
#include "sim/network_util.h"

namespace ll::sim {

const char* cause_name(unsigned c) {
  switch (c) {
    case kDropBuffer: return "buffer";
    case kDropLosslessBuffer: return "lossless_buffer";
    case kDropRed: return "red";
    case kDropWatchdog: return "watchdog";
    case kDropLoss: return "loss";
    default: return "?";
  }
}

namespace {

constexpr uint64_t kCursor = 1ull << 63;  // kFlowStart from the start-time cursor

}  // namespace

using detail::config_error;

// ------------------------------------------------------------------ construction

namespace {

// The switch blocks' size limits, checked on the topology before the routing tables are
// built: a fabric far past them would otherwise spend minutes and gigabytes on routing
// only to be refused by the first switch's model.
const Topology& within_block_limits(const Scenario& s, const Topology& t) {
  for (NodeId n = static_cast<NodeId>(t.num_hosts()); n < t.num_nodes(); ++n) {
    const unsigned P = static_cast<unsigned>(std::min<size_t>(t.node(n).ports.size(), 1u << 24));
    const std::string who = "switch " + t.node(n).name + " has " + std::to_string(t.node(n).ports.size()) + " ports; ";
    if (const std::string e = detail::marker_size_rule(P); s.net.sw.marker.enable && !e.empty())
      config_error(s, "switch.marker.enable", who + "the RED/ECN marker (a queue per port and priority): " + e);
    if (const std::string e = detail::pfc_size_rule(P); s.net.sw.pfc.enable && !e.empty())
      config_error(s, "switch.pfc.enable", who + "the PFC block: " + e + " (turn PFC off for this fabric)");
  }
  return t;
}

}  // namespace

Network::Network(const Scenario& s, const std::vector<Flow>& flows)
    : s_(s), cfg_(s.net), topo_(s.topology), routing_(within_block_limits(s, topo_)), flow_list_(flows),
      loss_rng_(ll::derive_seed(s.seed, 0x4C4F5353ull)) {  // "LOSS"
  tier_names_ = topo_.tiers();
  tier_stats_.resize(tier_names_.size());
  host_tier_ = static_cast<unsigned>(std::find(tier_names_.begin(), tier_names_.end(), "host") - tier_names_.begin());
  lossless_ = cfg_.sw.pfc.enable;
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
  if (!cfg_.cosim.empty() && !cosim::installed() && !cosim::check_only()) {
    config_error(s_, "cosim", "this binary was built without co-simulation; run the scenario with lossless_sim_cosim "
                              "(make cosim builds it), or remove the section");
  }
  if (!cfg_.cosim.empty()) cosim::set_clock([this] { return sim_.now(); });
  for (NodeId n = 0; n < topo_.num_hosts(); ++n) build_host(n);
  for (NodeId n = static_cast<NodeId>(topo_.num_hosts()); n < topo_.num_nodes(); ++n) build_switch(n);
  if (cfg_.balancer.components) build_components();
  build_stdv_groups();

  if (flow_list_.empty())
    config_error(s_, "workload", "generates no flows within the duration (nothing to simulate)");
  // A flow is at most 2^32 - 1 packets (32-bit sequence numbers, as RoCE's PSN space is
  // bounded too); a larger one is refused instead of wrapping.
  const uint64_t max_bytes = uint64_t{cfg_.nic.mtu} * 0xFFFFFFFFull;
  for (const Flow& f : flow_list_) {
    if (f.bytes > max_bytes) {
      config_error(s_, "workload.traffic[" + std::to_string(f.source) + "]",
                   "a flow of " + std::to_string(f.bytes) + " bytes is larger than the simulator represents (" +
                       std::to_string(max_bytes) + " bytes: 2^32 - 1 packets of the MTU)");
    }
  }
  fs_.resize(flow_list_.size());
  results_.resize(flow_list_.size());
  successors_.resize(flow_list_.size());
  for (size_t i = 0; i < flow_list_.size(); ++i) {
    const Flow& f = flow_list_[i];
    results_[i].flow = &f;
    ideal_fct(results_[i]);
    fs_[i].npkts = static_cast<uint32_t>(std::max<uint64_t>(1, (f.bytes + cfg_.nic.mtu - 1) / cfg_.nic.mtu));
    if (f.after != kNoFlow) successors_.at(f.after).push_back(static_cast<uint32_t>(i));
    if (f.start < s_.duration) ++open_flows_;
  }
  delivered_by_sender_.assign(topo_.num_hosts(), 0);
  const TransportEntry* te = find_transport(cfg_.nic.transport);
  if (!te) config_error(s_, "nic.transport", "unknown transport \"" + cfg_.nic.transport + "\"");
  const bool need_bdp = cfg_.nic.transport == "irn" && cfg_.nic.irn.bdp_cap == 0;
  transport_ = te->make(TransportContext{cfg_.nic, *this, flow_list_.size(), need_bdp ? bdp_packets() : 0});
  if (cfg_.nic.reorder.slots) {
    rob_ = std::make_unique<ReorderBuffer>(cfg_.nic.reorder.slots, cfg_.nic.reorder.timeout, flow_list_.size());
    rob_peak_.assign(topo_.num_hosts(), 0);
    rob_now_.assign(topo_.num_hosts(), 0);
  }
}

uint64_t Network::reorder_peak_bytes() const {
  uint64_t m = 0;
  for (uint64_t b : rob_peak_) m = std::max(m, b);
  return m;
}

// A data packet for the transport: straight in, or through the reorder buffer, which may
// hold it or release it with others (in order) and asks for a timer when a gap opens.
void Network::to_transport(uint32_t flow, const TransportPkt& p) {
  if (!rob_) {
    transport_->on_data(flow, p);
    return;
  }
  const NodeId dst = flow_list_[flow].dst;
  const size_t before = rob_->holding(flow);
  rob_out_.clear();
  uint32_t gen = 0;
  if (rob_->arrive(flow, p, rob_out_, &gen))
    sim_.at(sim_.now() + rob_->timeout(), *this, kRobTimer, (uint64_t{gen} << 32) | flow);
  const uint64_t pkt = cfg_.nic.mtu + kHeaderBytes;
  rob_now_[dst] = rob_now_[dst] + rob_->holding(flow) * pkt - before * pkt;
  rob_peak_[dst] = std::max(rob_peak_[dst], rob_now_[dst]);
  // the transport may finish the flow (and close the buffer) part way: copy first
  const std::vector<TransportPkt> out = rob_out_;
  for (const TransportPkt& q : out) {
    if (results_[flow].done()) break;
    transport_->on_data(flow, q);
  }
}

uint32_t Network::bdp_packets() const {
  // The longest round trip between hosts on different edge switches (one host per edge
  // switch stands for all of them): an MTU data packet stored and forwarded at every hop,
  // its ACK back along the same links; then the packets of the MTU the fastest host
  // link sends in that time.
  std::vector<NodeId> reps;
  std::vector<uint8_t> seen(topo_.num_nodes(), 0);
  uint64_t bps = 0;
  for (NodeId h = 0; h < topo_.num_hosts(); ++h) {
    bps = std::max(bps, hosts_[h].bps);
    const NodeId edge = topo_.node(h).ports[0].peer;
    if (!seen[edge] || reps.size() < 2) reps.push_back(h);
    seen[edge] = 1;
  }
  const uint64_t wire = cfg_.nic.mtu + kHeaderBytes;
  Time worst = 0;
  for (NodeId a : reps) {
    for (NodeId b : reps) {
      if (a == b) continue;
      Time t = 0;
      NodeId at = a;
      for (int guard = 0; at != b && guard < 255; ++guard) {
        const PortSpan c = routing_.next_hops(at, b);
        if (c.empty()) break;
        const Port& p = topo_.node(at).ports[c[0]];
        const Link& l = topo_.link(p.link);
        t += 2 * l.delay + serialization_time(wire, l.bps) + serialization_time(kControlBytes, l.bps);
        at = p.peer;
      }
      worst = std::max(worst, t);
    }
  }
  const unsigned __int128 bits = static_cast<unsigned __int128>(worst) * bps;  // ps x bit/s
  const uint64_t bytes = static_cast<uint64_t>(bits / (8 * static_cast<unsigned __int128>(kSec)));
  return static_cast<uint32_t>(std::max<uint64_t>(1, (bytes + wire - 1) / wire));
}

Network::~Network() {
  if (!cfg_.cosim.empty()) cosim::set_clock(nullptr);
}

std::vector<cosim::BlockStats> Network::cosim_stats() const {
  std::vector<cosim::BlockStats> v;
  for (const Switch& sw : switches_) {
    if (sw.marker_rtl) v.push_back(sw.marker_rtl->stats());
    cosim::BlockStats b;
    if (sw.pfc && sw.pfc->cosim_stats(&b)) v.push_back(b);
    if (sw.bal && sw.bal->cosim_stats(&b)) v.push_back(b);
  }
  for (const Host& h : hosts_) {
    cosim::BlockStats b;
    if (h.dcqcn_cyc && h.dcqcn_cyc->cosim_stats(&b)) v.push_back(b);
  }
  return v;
}

void Network::ideal_fct(FlowResult& r) const {
  // Store-and-forward along one shortest path: the first packet crosses every hop, the
  // rest stream behind it at the slowest link's rate.
  const Flow& f = *r.flow;
  const uint64_t first = std::min<uint64_t>(f.bytes, cfg_.nic.mtu) + kHeaderBytes;
  const uint64_t total = f.bytes + ((f.bytes + cfg_.nic.mtu - 1) / cfg_.nic.mtu) * kHeaderBytes;
  // The stream is bounded by the end hosts' links (a sprayed flow may use several fabric
  // paths at once), so the ideal is a lower bound for every balancer.
  uint64_t slowest = std::min(hosts_[f.src].bps, hosts_[f.dst].bps);
  Time t = 0, back = 0, rtt = 0;
  NodeId at = f.src;
  for (int guard = 0; at != f.dst && guard < 255; ++guard) {
    const PortSpan c = routing_.next_hops(at, f.dst);
    if (c.empty()) return;
    const Port& p = topo_.node(at).ports[c[0]];
    const Link& l = topo_.link(p.link);
    t += l.delay + serialization_time(first, l.bps);
    back += l.delay + serialization_time(kControlBytes, l.bps);  // the last ACK, same links back
    rtt += 2 * l.delay + serialization_time(cfg_.nic.mtu + kHeaderBytes, l.bps) + serialization_time(kControlBytes, l.bps);
    at = p.peer;
  }
  r.ideal = t + serialization_time(total - first, slowest);
  r.ideal_sender = r.ideal + back;
  r.ideal_base_rtt = rtt + serialization_time(total, slowest);
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

void Network::transmit(NodeId n, PortId port, uint32_t id, Time extra) {
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
  const FaultCfg& f = cfg_.faults;
  if (f.loss_rate > 0 && p.type == PktType::Data) {
    const bool host_link = topo_.is_host(n) || topo_.is_host(pt.peer);
    if ((f.loss_links == "all" || host_link == (f.loss_links == "host")) && loss_rng_.uniform() < f.loss_rate) {
      drop(id, switch_of_[n] >= 0 ? switches_[static_cast<size_t>(switch_of_[n])].tier : host_tier_, kDropLoss);
      return;  // lost on the wire: it took its serialization time and never arrives
    }
  }
  sim_.after(ser + l.delay + extra, *this, kArrive, id);
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
    case kDcqcnPoll:
      dcqcn_poll(hosts_[ev.arg]);
      break;
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
    case kTimer:
      transport_->on_timer(static_cast<uint32_t>(ev.arg), static_cast<uint32_t>(ev.arg >> 32));
      break;
    case kRobTimer: {
      const uint32_t flow = static_cast<uint32_t>(ev.arg);
      if (results_[flow].done()) break;
      const size_t before = rob_->holding(flow);
      rob_out_.clear();
      rob_->expire(flow, static_cast<uint32_t>(ev.arg >> 32), rob_out_);
      const NodeId dst = flow_list_[flow].dst;
      rob_now_[dst] -= (before - rob_->holding(flow)) * (cfg_.nic.mtu + kHeaderBytes);
      const std::vector<TransportPkt> out = rob_out_;
      for (const TransportPkt& q : out) {
        if (results_[flow].done()) break;
        transport_->on_data(flow, q);
      }
      break;
    }
    case kPfcTick:
      pfc_tick(switches_[ev.arg]);
      break;
    case kBalTimer: {
      Switch& sw = switches_[ev.arg >> 40];
      sw.bal->on_timer(ev.arg & ((uint64_t{1} << 40) - 1));
      flush_releases(sw);
      break;
    }
    case kRate:
      rate_sample();
      if (sim_.now() + cfg_.report.rate_interval <= s_.end()) sim_.after(cfg_.report.rate_interval, *this, kRate);
      break;
    case kOccSnap: {
      Switch& sw = switches_[ev.arg];
      occupancy_snapshot(sw);
      if (sim_.now() + cfg_.balancer.occupancy_period <= s_.end()) sim_.after(cfg_.balancer.occupancy_period, *this, kOccSnap, ev.arg);
      break;
    }
    case kStall:
      stall_event(ev.arg);
      break;
    case kWindow:
      (ev.arg ? delivered_to_ : delivered_from_) = delivered_by_sender_;
      break;
    case kSample:
      sample_queues();
      if (lossless_ && s_.run.deadlock_after && find_deadlock()) {
        sim_.stop();  // nothing in the cycle can move again: end the run, say why
        break;
      }
      if (open_flows_ == 0 && pkts_.size() == free_pkts_.size()) {
        idle_ = true;  // nothing left to happen: end the run here rather than simulate on
        sim_.stop();
        break;
      }
      if (sim_.now() + cfg_.report.sample_period <= s_.end()) sim_.after(cfg_.report.sample_period, *this, kSample);
      break;
    default:
      throw std::logic_error("network: unknown event kind");
  }
}

void Network::rate_sample() {
  RateSample r{sim_.now(), {}, 0};
  const double secs = static_cast<double>(cfg_.report.rate_interval) / static_cast<double>(kSec);
  for (NodeId h : rate_hosts_) {
    r.bps.push_back(static_cast<double>(delivered_by_sender_[h] - rate_last_[h]) * 8.0 / secs);
    rate_last_[h] = delivered_by_sender_[h];
  }
  for (const Switch& sw : switches_)
    for (const Egress& eg : sw.eg) r.deepest = std::max<uint64_t>(r.deepest, eg.q[kDataPrio].bytes);
  rate_series_.push_back(std::move(r));
}

void Network::schedule_next_start() {
  while (cursor_ < flow_list_.size() && flow_list_[cursor_].after != kNoFlow) ++cursor_;
  if (cursor_ >= flow_list_.size()) return;
  const Flow& f = flow_list_[cursor_];
  if (f.start < s_.duration) sim_.at(std::max(sim_.now(), f.start), *this, kFlowStart, kCursor | cursor_);
  ++cursor_;
}

void Network::flow_closed() {
  if (open_flows_ > 0) --open_flows_;
}

void Network::run(const std::function<void(Time, uint64_t)>& progress, Time every) {
  schedule_next_start();
  sim_.after(cfg_.report.sample_period, *this, kSample);
  if (cfg_.report.rate_interval) {
    std::vector<bool> sends(topo_.num_hosts(), false);
    for (const Flow& f : flow_list_) sends[f.src] = true;
    for (NodeId h = 0; h < topo_.num_hosts(); ++h)
      if (sends[h]) rate_hosts_.push_back(h);
    rate_last_.assign(topo_.num_hosts(), 0);
    sim_.after(cfg_.report.rate_interval, *this, kRate);
  }
  if (cfg_.balancer.occupancy_period)
    for (size_t i = 0; i < switches_.size(); ++i)
      if (switches_[i].bal) sim_.after(cfg_.balancer.occupancy_period, *this, kOccSnap, i);
  for (size_t i = 0; i < cfg_.faults.stalls.size(); ++i) sim_.at(cfg_.faults.stalls[i].from, *this, kStall, 2 * i);
  if (s_.run.window_from > 0) sim_.at(s_.run.window_from, *this, kWindow, 0);
  if (s_.run.window_to < s_.end()) sim_.at(s_.run.window_to, *this, kWindow, 1);
  const Time end = s_.end();
  const Time step = every ? every : end;
  for (Time t = 0; t < end;) {
    t = std::min(end, t + step);
    sim_.run(t);
    const bool early = idle_ || !deadlock_.empty();
    if (progress) progress(early ? sim_.now() : t, sim_.executed());
    if (early || sim_.empty()) break;
  }
  ended_at_ = idle_ || !deadlock_.empty() ? sim_.now() : end;
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

std::vector<std::pair<std::string, uint64_t>> Network::balancer_counters() const {
  std::vector<std::pair<std::string, uint64_t>> out;
  for (const Switch& sw : switches_) {
    if (!sw.bal) continue;
    for (const auto& [name, v] : sw.bal->counters()) {
      auto it = std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.first == name; });
      if (it == out.end()) out.emplace_back(name, v);
      else it->second += v;
    }
  }
  return out;
}

std::vector<uint64_t> Network::delivered_in_window() const {
  std::vector<uint64_t> d = delivered_to_.empty() ? delivered_by_sender_ : delivered_to_;
  if (!delivered_from_.empty())
    for (size_t i = 0; i < d.size(); ++i) d[i] -= delivered_from_[i];
  return d;
}

std::vector<uint64_t> Network::port_packets(NodeId node) const {
  return std::vector<uint64_t>(totals_.port_packets.begin() + port_base_[node], totals_.port_packets.begin() + port_base_[node + 1]);
}

}  // namespace ll::sim
