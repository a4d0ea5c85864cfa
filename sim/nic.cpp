// The NIC of the fabric (docs/sim.md, "Data path"): QP slots, the DCQCN block's pacing
// and rate control, PAUSE response; it runs the scenario's transport (sim/transport.h),
// which decides what a sender sends and how a receiver answers.
#include <algorithm>
#include <stdexcept>

#include "common/prng.h"
#include "dcqcn/dcqcn.h"
#include "sim/cosim.h"
#include "sim/dcqcn_recipe.h"
#include "sim/network.h"
#include "sim/network_util.h"

namespace ll::sim {

using detail::config_error;
using detail::mix32;

void Network::build_host(NodeId n) {
  Host h;
  h.node = n;
  const Node& node = topo_.node(n);
  if (node.ports.empty()) config_error(s_, "topology", "host " + node.name + " has no link");
  h.bps = topo_.link(node.ports[0].link).bps;
  const DcqcnCfg* dp = &cfg_.nic.dcqcn;  // the fleet's NIC, or the host's group's (nic.groups)
  for (const NicGroup& g : cfg_.nic.groups)
    if (std::find(g.hosts.begin(), g.hosts.end(), n) != g.hosts.end()) dp = &g.dcqcn;
  const DcqcnCfg& d = *dp;
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
    if (cfg_.cosim.named(n, "dcqcn")) {
      // The same configuration as register writes, for the block driven cycle by cycle.
      const CfgProgram prog = dcqcn::stage_ops(dcqcn::stage_regs(rs));
      try {
        if (cfg_.cosim.model) h.dcqcn_cyc = cosim::make_dcqcn_model(node.name, c, prog);
        else if (cosim::Factory* f = cosim::installed()) h.dcqcn_cyc = f->dcqcn(node.name, c, prog);
      } catch (const std::exception& e) {
        config_error(s_, "cosim." + node.name, e.what());
      }
      h.token.assign(cfg_.nic.qps, 0);
      h.qp_flow.assign(cfg_.nic.qps, ~0u);
    }
  } else if (cfg_.cosim.named(n, "dcqcn")) {
    config_error(s_, "cosim." + node.name, node.name + "'s DCQCN block is off (nic.dcqcn.enable or its group's)");
  }
  hosts_.push_back(std::move(h));
}

uint32_t Network::payload_of(uint32_t flow, uint32_t seq) const {
  const uint64_t bytes = flow_list_[flow].bytes, off = uint64_t{seq} * cfg_.nic.mtu;
  return static_cast<uint32_t>(std::min<uint64_t>(cfg_.nic.mtu, bytes > off ? bytes - off : 1));
}

void Network::send_control(Host& h, PktType type, uint32_t flow, uint32_t seq, NodeId to, uint32_t sack, bool ece) {
  Packet p;
  p.type = type;
  p.flow = flow;
  p.seq = seq;
  p.sack = sack;
  p.ce = ece;
  p.src = h.node;
  p.dst = to;
  p.prio = kControlPrio;
  p.wire = kControlBytes;
  p.hash = mix32(flow, h.node, to);
  h.ctrl.push_back(alloc(p));
  host_kick(h);
}

// cosim dcqcn: while tokens wait in the wheel, the NIC looks at the block at every wheel
// slot boundary (2^SlotLog2 ticks = 64 ns); the grants found there (made since the last
// look) put their packets into the ready queue at that time.
void Network::dcqcn_poll_later(Host& h) {
  if (h.polling || h.tokens_out == 0) return;
  h.polling = true;
  constexpr Time kSlot = Time{64} * kNs;
  sim_.at((sim_.now() / kSlot + 1) * kSlot, *this, kDcqcnPoll, h.node);
}

void Network::dcqcn_poll(Host& h) {
  h.polling = false;
  const Time now = sim_.now();
  h.dcqcn_cyc->advance(ticks(now));
  bool any = false;
  for (const cosim::DcqcnCycle::Grant& g : h.dcqcn_cyc->take_grants()) {
    if (g.qp >= h.token.size() || !h.token[g.qp]) throw std::logic_error("cosim dcqcn: a grant for QP " + std::to_string(g.qp) + " without a token");
    h.token[g.qp] = 0;
    --h.tokens_out;
    const uint32_t fi = h.qp_flow[g.qp];
    if (fi == ~0u) continue;
    const FlowState& f = fs_[fi];
    if (!f.in_ready || !f.active || f.sender_done) continue;  // a token of a flow gone, or nothing to send now
    h.ready.push({now, seq_++, fi});
    any = true;
  }
  if (any) host_kick(h);
  dcqcn_poll_later(h);
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
    if (!transport_->take(d.flow, &seq)) continue;
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
    p.retx = seq < f.max_sent;
    const uint32_t id = alloc(p);
    ++live_data_;
    ++totals_.data_injected;
    if (seq < f.max_sent) ++results_[d.flow].retx;
    else f.max_sent = seq + 1;
    if (results_[d.flow].first_sent == kNever) results_[d.flow].first_sent = now;
    if (h.dcqcn_cyc) h.dcqcn_cyc->sent(f.sslot, p.wire, ticks(now));
    else if (h.dcqcn) h.dcqcn->on_sent(f.sslot, p.wire, ticks(now));
    transport_->sent(d.flow, seq);
    Time extra = 0;
    if (!test_hooks_.empty() && test_hook(id, &extra)) {
      port_free_[port_base_[h.node]] = now + serialization_time(p.wire, h.bps);
      drop(id, host_tier_, kDropBuffer);
    } else {
      transmit(h.node, 0, id, extra);
    }
    make_ready(d.flow);
    if (!h.ctrl.empty() || !h.ready.empty()) port_wait(h.node, 0);
    return;
  }
}

void Network::make_ready(uint32_t fi) {
  FlowState& f = fs_[fi];
  if (f.in_ready || !f.active || f.sender_done) return;
  uint32_t next = 0;
  if (!transport_->peek(fi, &next)) return;
  const Flow& fl = flow_list_[fi];
  Host& h = hosts_[fl.src];
  Time t = sim_.now();
  if (h.dcqcn_cyc) {
    // The wheel: the QP's token (its next packet) goes in unless one is out already (it
    // then serves this flow); the packet joins the ready queue when the token is granted.
    f.in_ready = true;
    if (!h.token[f.sslot]) {
      h.token[f.sslot] = 1;
      ++h.tokens_out;
      h.dcqcn_cyc->enqueue(f.sslot, payload_of(fi, next) + kHeaderBytes, ticks(t));
    }
    dcqcn_poll_later(h);
    return;
  }
  if (h.dcqcn) {
    const uint32_t wire = payload_of(fi, next) + kHeaderBytes;
    const uint64_t d = h.dcqcn->next_departure(f.sslot, wire, ticks(t));  // Q48.16 ticks of 1 ns
    const unsigned __int128 ps = (static_cast<unsigned __int128>(d) * 1000 + 0xFFFF) >> 16;
    t = std::max<Time>(t, static_cast<Time>(ps));
  }
  f.in_ready = true;
  h.ready.push({t, seq_++, fi});
  host_kick(h);
}

bool Network::test_hook(uint32_t id, Time* extra) {
  const Packet& p = pkts_[id];
  for (size_t i = 0; i < test_hooks_.size(); ++i) {
    if (test_hooks_[i].flow != p.flow || test_hooks_[i].seq != p.seq) continue;
    const Time e = test_hooks_[i].extra;
    test_hooks_.erase(test_hooks_.begin() + static_cast<std::ptrdiff_t>(i));
    if (e == kNever) return true;
    *extra = e;
    return false;
  }
  return false;
}

void Network::timer(uint32_t flow, Time at, uint32_t token) {
  sim_.at(at, *this, kTimer, (uint64_t{token} << 32) | flow);
}

void Network::feedback(uint32_t flow, PktType type, uint32_t ack, uint32_t sack, bool ece) {
  const Flow& fl = flow_list_[flow];
  if (type == PktType::Ack) {
    FlowState& f = fs_[flow];
    if (ack == f.last_ack) ++results_[flow].dupacks;
    f.last_ack = ack;
  }
  send_control(hosts_[fl.dst], type, flow, ack, fl.src, sack, ece);
}

void Network::delivered(uint32_t flow, uint32_t seq) {
  delivered_by_sender_[flow_list_[flow].src] += payload_of(flow, seq);
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
    // (a block driven cycle by cycle has no per-QP reset port: a reused QP keeps its state)
    if (src.dcqcn_cyc) src.qp_flow[f.sslot] = fi;
    f.rslot = dst.free_slots.back();
    dst.free_slots.pop_back();
    dst.dcqcn->reset_qp(f.rslot);
  }
  f.active = true;
  transport_->open(fi, f.npkts);
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
  if (fs_[fi].sender_done && fl.start < s_.duration) flow_closed();
  transport_->close_receiver(fi);
  if (rob_) {
    rob_now_[fl.dst] -= rob_->holding(fi) * (cfg_.nic.mtu + kHeaderBytes);
    rob_->close(fi);
  }
  if (dst.dcqcn) dst.free_slots.push_back(fs_[fi].rslot);
  fs_[fi].last_ack = fs_[fi].npkts;
  send_control(dst, PktType::Ack, fi, fs_[fi].npkts, fl.src);
  for (uint32_t s : successors_[fi]) sim_.at(std::max(sim_.now(), flow_list_[s].start), *this, kFlowStart, s);
  retry_waiting();
}

void Network::sender_done(uint32_t fi) {
  FlowState& f = fs_[fi];
  if (f.sender_done) return;
  f.sender_done = true;
  results_[fi].acked = sim_.now();
  if (results_[fi].done() && flow_list_[fi].start < s_.duration) flow_closed();
  transport_->close_sender(fi);
  Host& src = hosts_[flow_list_[fi].src];
  if (src.dcqcn) src.free_slots.push_back(f.sslot);
  retry_waiting();
}

// faults.stall: a NIC whose receive path stops draining holds its link's data priority with
// PAUSE frames of the largest quanta, refreshed at half their duration, until the stall ends
// (then a RESUME). Arg: 2 x stall index, + 1 for the end. What is already on the wire to it
// still arrives (it is what the NIC's own buffer absorbs).
void Network::stall_event(uint64_t arg) {
  const StallCfg& st = cfg_.faults.stalls[arg / 2];
  Host& h = hosts_[st.host];
  const bool end = (arg & 1) != 0 || sim_.now() >= st.until;
  Packet p;
  p.type = PktType::Pause;
  p.prio = kDataPrio;
  p.quanta = end ? 0 : 0xFFFF;
  p.src = p.dst = h.node;
  p.wire = kControlBytes;
  h.ctrl.push_back(alloc(p));
  ++(end ? tier_stats_[host_tier_].resume_sent : tier_stats_[host_tier_].pause_sent);
  host_kick(h);
  if (end) return;
  const Time refresh = serialization_time(uint64_t{0xFFFF} * 64, h.bps) / 2;
  if (sim_.now() + refresh < st.until) sim_.after(refresh, *this, kStall, arg);
  else sim_.at(st.until, *this, kStall, arg | 1);
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
      // Reordered by the network: a first transmission overtaken by a later-sent packet
      // (a retransmission or the packets behind a lost one are not reordering).
      if (!p.retx && p.seq < f.rx_high) ++r.reordered;
      f.rx_high = std::max(f.rx_high, p.seq + 1);
      if (r.done()) {
        ++r.dup_rx;
        if (f.last_ack == f.npkts) ++r.dupacks;
        f.last_ack = f.npkts;
        send_control(h, PktType::Ack, p.flow, f.npkts, p.src);
        break;
      }
      if (p.ce && h.dcqcn && (h.dcqcn_cyc ? h.dcqcn_cyc->marked(f.rslot, ticks(now)) : h.dcqcn->on_marked(f.rslot, ticks(now)))) {
        ++totals_.cnps_sent;
        send_control(h, PktType::Cnp, p.flow, 0, p.src);
      }
      to_transport(p.flow, TransportPkt{p.type, p.seq, p.sack, p.ce});
      break;
    }
    case PktType::Ack:
    case PktType::Nack: {
      const FlowState& f = fs_[p.flow];
      if (!f.active || f.sender_done) break;
      transport_->on_feedback(p.flow, TransportPkt{p.type, p.seq, p.sack, p.ce});
      break;
    }
    case PktType::Balancer:
      break;  // a balancer's control packet no switch took: nothing for a NIC
    case PktType::Cnp: {
      ++totals_.cnps_received;
      FlowState& f = fs_[p.flow];
      if (h.dcqcn && f.active && !f.sender_done) {
        if (h.dcqcn_cyc) h.dcqcn_cyc->cnp(f.sslot, ticks(now));
        else h.dcqcn->on_cnp(f.sslot, ticks(now));
      }
      break;
    }
  }
}

}  // namespace ll::sim
