#include "sim/routing.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace ll::sim {

Routing::Routing(const Topology& topo) : topo_(topo) {
  const size_t nodes = topo.num_nodes();
  const size_t hosts = topo.num_hosts();
  std::vector<uint32_t> group_of_switch(nodes, kUnreachable);
  host_group_.assign(hosts, kUnreachable);
  down_offset_.assign(hosts + 1, 0);

  // Group the destinations: single-homed hosts by their attachment switch.
  for (NodeId h = 0; h < hosts; ++h) {
    NodeId attach = kUnreachable;
    bool single = true;
    for (const Port& p : topo.node(h).ports) {
      if (topo.link(p.link).failed) continue;
      if (attach == kUnreachable) attach = p.peer;
      else if (attach != p.peer) single = false;
    }
    if (single && attach != kUnreachable) {
      if (group_of_switch[attach] == kUnreachable) {
        group_of_switch[attach] = static_cast<uint32_t>(roots_.size());
        roots_.push_back(attach);
      }
      host_group_[h] = group_of_switch[attach];
      const std::vector<Port>& aports = topo.node(attach).ports;
      for (PortId port = 0; port < aports.size(); ++port) {
        if (aports[port].peer == h && !topo.link(aports[port].link).failed) down_ports_.push_back(port);
      }
    } else {
      host_group_[h] = static_cast<uint32_t>(roots_.size());
      roots_.push_back(h);
    }
    down_offset_[h + 1] = static_cast<uint32_t>(down_ports_.size());
  }

  const size_t groups = roots_.size();
  dist_.assign(nodes * groups, 255);
  offset_.assign(nodes * groups + 1, 0);
  for (uint32_t g = 0; g < groups; ++g) {
    Bfs b = bfs(g);
    for (NodeId n = 0; n < nodes; ++n) {
      if (b.dist[n] != kUnreachable) {
        if (b.dist[n] >= 255) throw std::invalid_argument("topology: more than 254 hops between nodes");
        dist_[static_cast<size_t>(n) * groups + g] = static_cast<uint8_t>(b.dist[n]);
      }
    }
  }
  // Candidate sets, laid out node-major so one node's table is contiguous.
  for (NodeId n = 0; n < nodes; ++n) {
    const Node& node = topo.node(n);
    for (uint32_t g = 0; g < groups; ++g) {
      const size_t idx = static_cast<size_t>(n) * groups + g;
      const uint8_t d = dist_[idx];
      if (d != 255 && d != 0) {
        for (PortId port = 0; port < node.ports.size(); ++port) {
          const Port& p = node.ports[port];
          if (topo.link(p.link).failed || !usable_peer(g, p.peer)) continue;
          if (dist_[static_cast<size_t>(p.peer) * groups + g] + 1 == d) ports_.push_back(port);
        }
      }
      offset_[idx + 1] = static_cast<uint32_t>(ports_.size());
    }
  }
  if (ports_.size() >= std::numeric_limits<uint32_t>::max()) {
    throw std::invalid_argument("topology: routing table too large");
  }
}

bool Routing::usable_peer(uint32_t group, NodeId peer) const {
  return !topo_.is_host(peer) || roots_[group] == peer;
}

Routing::Bfs Routing::bfs(uint32_t group) const {
  Bfs b;
  b.dist.assign(topo_.num_nodes(), kUnreachable);
  const NodeId root = roots_[group];
  b.dist[root] = 0;
  b.order.push_back(root);
  for (size_t head = 0; head < b.order.size(); ++head) {
    const NodeId x = b.order[head];
    if (topo_.is_host(x) && x != root) continue;  // hosts are endpoints, never transit
    for (const Port& p : topo_.node(x).ports) {
      if (topo_.link(p.link).failed || b.dist[p.peer] != kUnreachable) continue;
      b.dist[p.peer] = b.dist[x] + 1;
      b.order.push_back(p.peer);
    }
  }
  return b;
}

PortSpan Routing::next_hops(NodeId node, NodeId dst) const {
  if (dst >= topo_.num_hosts()) throw std::out_of_range("next_hops: destination is not a host");
  if (node >= topo_.num_nodes()) throw std::out_of_range("next_hops: no such node");
  PortSpan s;
  if (node == dst) return s;
  const uint32_t g = host_group_[dst];
  if (roots_[g] == node) {  // the destination's attachment switch: its own port(s)
    s.first = down_ports_.data() + down_offset_[dst];
    s.last = down_ports_.data() + down_offset_[dst + 1];
    return s;
  }
  const size_t idx = static_cast<size_t>(node) * roots_.size() + g;
  s.first = ports_.data() + offset_[idx];
  s.last = ports_.data() + offset_[idx + 1];
  return s;
}

uint32_t Routing::distance(NodeId node, NodeId dst) const {
  if (dst >= topo_.num_hosts()) throw std::out_of_range("distance: destination is not a host");
  if (node == dst) return 0;
  const uint32_t g = host_group_[dst];
  const uint8_t d = dist_.at(static_cast<size_t>(node) * roots_.size() + g);
  if (d == 255) return kUnreachable;
  if (roots_[g] == dst) return d;  // the group is the host itself
  if (node == roots_[g]) return down_offset_[dst + 1] > down_offset_[dst] ? 1 : kUnreachable;
  return d + 1u;
}

std::vector<uint64_t> Routing::path_counts_to(NodeId dst) const {
  if (dst >= topo_.num_hosts()) throw std::out_of_range("path_counts_to: destination is not a host");
  const uint32_t g = host_group_[dst];
  const Bfs b = bfs(g);
  std::vector<uint64_t> paths(topo_.num_nodes(), 0);
  const NodeId root = roots_[g];
  // Paths to the group root first; the destination hangs below it.
  paths[root] = root == dst ? 1 : down_offset_[dst + 1] - down_offset_[dst];
  for (size_t i = 1; i < b.order.size(); ++i) {
    const NodeId x = b.order[i];
    if (x == dst) continue;
    uint64_t sum = 0;
    for (PortId port : next_hops(x, dst)) {
      const uint64_t add = paths[topo_.node(x).ports[port].peer];
      sum = add > std::numeric_limits<uint64_t>::max() - sum ? std::numeric_limits<uint64_t>::max() : sum + add;
    }
    paths[x] = sum;
  }
  paths[dst] = root == dst ? 1 : paths[dst];
  return paths;
}

std::pair<uint32_t, uint32_t> Routing::first_unreachable_pair() const {
  // Reachability is a property of the destination's group: test one host per group
  // against every source, in host order so the reported pair is deterministic.
  const size_t hosts = topo_.num_hosts();
  std::vector<bool> seen(roots_.size(), false);
  std::pair<uint32_t, uint32_t> best{kUnreachable, kUnreachable};
  for (NodeId dst = 0; dst < hosts; ++dst) {
    if (seen[host_group_[dst]]) continue;
    seen[host_group_[dst]] = true;
    for (NodeId src = 0; src < hosts; ++src) {
      if (src != dst && distance(src, dst) == kUnreachable) {
        std::pair<uint32_t, uint32_t> pair{std::min(src, dst), std::max(src, dst)};
        if (pair < best) best = pair;
        break;
      }
    }
  }
  return best;
}

void Routing::check_all_reachable() const {
  const auto [src, dst] = first_unreachable_pair();
  if (src != kUnreachable) {
    throw std::invalid_argument("hosts " + topo_.node(src).name + " and " + topo_.node(dst).name +
                                " are disconnected (no path over live links)");
  }
}

}  // namespace ll::sim
