#include "sim/topology.h"

#include <algorithm>
#include <stdexcept>

namespace ll::sim {
namespace {

void require(bool ok, const std::string& msg) {
  if (!ok) throw std::invalid_argument(msg);
}

void check_link_spec(const LinkSpec& s, const std::string& name) {
  require(s.bps > 0, name + ".speed: must be > 0 bits/s");
}

void check_hosts(uint64_t hosts, const std::string& what) {
  require(hosts <= kMaxHosts, what + ": " + std::to_string(hosts) + " hosts is more than the " +
                                  std::to_string(kMaxHosts) + " the simulator supports");
}

}  // namespace

NodeId Topology::add_host(const std::string& name) {
  if (num_hosts_ != nodes_.size()) {
    throw std::logic_error("Topology: hosts must be added before switches (" + name + ")");
  }
  require(!name.empty() && !has(name), "node name \"" + name + "\" is empty or used twice");
  const NodeId id = static_cast<NodeId>(nodes_.size());
  nodes_.push_back(Node{NodeKind::Host, name, "host", 0, -1, {}});
  by_name_[name] = id;
  ++num_hosts_;
  return id;
}

NodeId Topology::add_switch(const std::string& name, const std::string& tier, int level, int pod) {
  require(!name.empty() && !has(name), "node name \"" + name + "\" is empty or used twice");
  require(level >= 1, "switch " + name + ": level must be >= 1");
  const NodeId id = static_cast<NodeId>(nodes_.size());
  nodes_.push_back(Node{NodeKind::Switch, name, tier, level, pod, {}});
  by_name_[name] = id;
  return id;
}

LinkId Topology::connect(NodeId a, NodeId b, const LinkSpec& spec) {
  require(a < nodes_.size() && b < nodes_.size(), "connect: no such node");
  require(a != b, "connect: " + nodes_[a].name + " cannot link to itself");
  require(!(is_host(a) && is_host(b)),
          "connect: hosts " + nodes_[a].name + " and " + nodes_[b].name + " cannot link directly");
  require(spec.bps > 0, "connect: link " + nodes_[a].name + "-" + nodes_[b].name + " needs a rate > 0");
  const LinkId id = static_cast<LinkId>(links_.size());
  Link l;
  l.a = a;
  l.b = b;
  l.a_port = static_cast<PortId>(nodes_[a].ports.size());
  l.b_port = static_cast<PortId>(nodes_[b].ports.size());
  l.bps = spec.bps;
  l.delay = spec.delay;
  links_.push_back(l);
  nodes_[a].ports.push_back(Port{id, b, l.b_port});
  nodes_[b].ports.push_back(Port{id, a, l.a_port});
  return id;
}

void Topology::rebuild_ports() {
  for (Node& n : nodes_) n.ports.clear();
  for (LinkId id = 0; id < links_.size(); ++id) {
    Link& l = links_[id];
    l.a_port = static_cast<PortId>(nodes_[l.a].ports.size());
    l.b_port = static_cast<PortId>(nodes_[l.b].ports.size());
    nodes_[l.a].ports.push_back(Port{id, l.b, l.b_port});
    nodes_[l.b].ports.push_back(Port{id, l.a, l.a_port});
  }
}

void Topology::set_parallel_links(NodeId a, NodeId b, unsigned count) {
  require(a < nodes_.size() && b < nodes_.size(), "striping: no such node");
  require(!is_host(a) && !is_host(b), "striping: " + nodes_[a].name + "-" + nodes_[b].name +
                                          ": only links between switches can be striped");
  const std::vector<LinkId> existing = links_between(a, b);
  require(!existing.empty(), "striping: " + nodes_[a].name + " and " + nodes_[b].name +
                                 " are not linked in the base topology");
  const Link proto = links_[existing.front()];
  if (count == existing.size()) return;
  if (count < existing.size()) {
    std::vector<bool> drop(links_.size(), false);
    for (size_t i = count; i < existing.size(); ++i) drop[existing[i]] = true;
    std::vector<Link> kept;
    kept.reserve(links_.size());
    for (LinkId id = 0; id < links_.size(); ++id) {
      if (!drop[id]) kept.push_back(links_[id]);
    }
    links_ = std::move(kept);
  } else {
    for (size_t i = existing.size(); i < count; ++i) {
      Link l = proto;
      l.failed = false;
      links_.push_back(l);
    }
  }
  rebuild_ports();
}

void Topology::set_link_rate(LinkId l, uint64_t bps) {
  require(bps > 0, "link rate must be > 0 bits/s");
  links_.at(l).bps = bps;
}

void Topology::set_link_delay(LinkId l, Time delay) { links_.at(l).delay = delay; }

void Topology::fail_link(LinkId l) { links_.at(l).failed = true; }

size_t Topology::num_failed_links() const {
  return static_cast<size_t>(std::count_if(links_.begin(), links_.end(),
                                           [](const Link& l) { return l.failed; }));
}

NodeId Topology::find(const std::string& name) const {
  auto it = by_name_.find(name);
  if (it == by_name_.end()) throw std::invalid_argument("no node named \"" + name + "\"");
  return it->second;
}

std::vector<LinkId> Topology::links_between(NodeId a, NodeId b) const {
  std::vector<LinkId> out;
  for (const Port& p : nodes_.at(a).ports) {
    if (p.peer == b) out.push_back(p.link);
  }
  std::sort(out.begin(), out.end());
  return out;
}

uint64_t Topology::host_rate(NodeId host) const {
  uint64_t sum = 0;
  for (const Port& p : nodes_.at(host).ports) {
    if (!links_[p.link].failed) sum += links_[p.link].bps;
  }
  return sum;
}

double Topology::uplink_share(NodeId host) const {
  double up = 0, down = 0;
  for (const Port& hp : nodes_.at(host).ports) {
    if (links_[hp.link].failed) continue;
    for (const Port& p : nodes_.at(hp.peer).ports) {
      if (links_[p.link].failed) continue;
      (is_host(p.peer) ? down : up) += static_cast<double>(links_[p.link].bps);
    }
    break;  // a host hangs off one edge switch
  }
  return down > 0 ? std::min(1.0, up / down) : 0.0;
}

std::vector<std::string> Topology::tiers() const {
  std::vector<std::pair<int, std::string>> seen;
  for (const Node& n : nodes_) {
    bool found = false;
    for (const auto& s : seen) found = found || s.second == n.tier;
    if (!found) seen.emplace_back(n.level, n.tier);
  }
  std::stable_sort(seen.begin(), seen.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (const auto& s : seen) out.push_back(s.second);
  return out;
}

std::string Topology::link_tier(LinkId id) const {
  const Link& l = links_.at(id);
  const Node& a = nodes_[l.a];
  const Node& b = nodes_[l.b];
  return a.level <= b.level ? a.tier + "-" + b.tier : b.tier + "-" + a.tier;
}

Topology build_leaf_spine(const LeafSpineParams& p) {
  require(p.spines >= 1, "spines: must be at least 1 (got " + std::to_string(p.spines) + ")");
  require(p.leaves >= 1, "leaves: must be at least 1 (got " + std::to_string(p.leaves) + ")");
  require(p.hosts_per_leaf >= 1,
          "hosts_per_leaf: must be at least 1 (got " + std::to_string(p.hosts_per_leaf) + ")");
  require(p.leaves * uint64_t{p.hosts_per_leaf} >= 2, "hosts_per_leaf: a fabric needs at least 2 hosts");
  check_hosts(p.leaves * uint64_t{p.hosts_per_leaf}, "hosts_per_leaf");
  require(p.spines <= 65536, "spines: at most 65536");
  require(p.leaves <= 65536, "leaves: at most 65536");
  check_link_spec(p.host_link, "host_link");
  check_link_spec(p.fabric_link, "fabric_link");

  Topology t("leaf-spine " + std::to_string(p.spines) + " spines x " + std::to_string(p.leaves) +
             " leaves x " + std::to_string(p.hosts_per_leaf) + " hosts");
  for (uint32_t l = 0; l < p.leaves; ++l) {
    for (uint32_t h = 0; h < p.hosts_per_leaf; ++h) {
      t.add_host("h" + std::to_string(l * p.hosts_per_leaf + h));
    }
  }
  std::vector<NodeId> leaves, spines;
  for (uint32_t l = 0; l < p.leaves; ++l) leaves.push_back(t.add_switch("leaf" + std::to_string(l), "leaf", 1, static_cast<int>(l)));
  for (uint32_t s = 0; s < p.spines; ++s) spines.push_back(t.add_switch("spine" + std::to_string(s), "spine", 2));
  for (uint32_t l = 0; l < p.leaves; ++l) {
    for (uint32_t h = 0; h < p.hosts_per_leaf; ++h) t.connect(l * p.hosts_per_leaf + h, leaves[l], p.host_link);
  }
  for (uint32_t l = 0; l < p.leaves; ++l) {
    for (uint32_t s = 0; s < p.spines; ++s) t.connect(leaves[l], spines[s], p.fabric_link);
  }
  return t;
}

Topology build_dcqcn_testbed(const DcqcnTestbedParams& p) {
  require(p.hosts_per_tor >= 1,
          "hosts_per_tor: must be at least 1 (got " + std::to_string(p.hosts_per_tor) + ")");
  check_hosts(4 * uint64_t{p.hosts_per_tor}, "hosts_per_tor");
  check_link_spec(p.host_link, "host_link");
  check_link_spec(p.tor_leaf_link, "tor_leaf_link");
  check_link_spec(p.leaf_spine_link, "leaf_spine_link");

  Topology t("DCQCN 3-tier testbed: 4 ToRs x " + std::to_string(p.hosts_per_tor) +
             " hosts, 4 leaves, 2 spines");
  for (uint32_t i = 0; i < 4 * p.hosts_per_tor; ++i) t.add_host("h" + std::to_string(i));
  NodeId tor[4], leaf[4], spine[2];
  for (int i = 0; i < 4; ++i) tor[i] = t.add_switch("T" + std::to_string(i + 1), "tor", 1, i / 2);
  for (int i = 0; i < 4; ++i) leaf[i] = t.add_switch("L" + std::to_string(i + 1), "leaf", 2, i / 2);
  for (int i = 0; i < 2; ++i) spine[i] = t.add_switch("S" + std::to_string(i + 1), "spine", 3);
  for (uint32_t i = 0; i < 4 * p.hosts_per_tor; ++i) t.connect(i, tor[i / p.hosts_per_tor], p.host_link);
  for (int i = 0; i < 4; ++i) {
    const int pod = i / 2;
    t.connect(tor[i], leaf[2 * pod], p.tor_leaf_link);
    t.connect(tor[i], leaf[2 * pod + 1], p.tor_leaf_link);
  }
  for (int i = 0; i < 4; ++i) {
    for (int s = 0; s < 2; ++s) t.connect(leaf[i], spine[s], p.leaf_spine_link);
  }
  return t;
}

Topology build_fat_tree(const FatTreeParams& p) {
  require(p.k >= 2 && p.k % 2 == 0, "k: must be an even number >= 2 (got " + std::to_string(p.k) + ")");
  require(p.k <= 256, "k: at most 256 (got " + std::to_string(p.k) + ")");
  const uint64_t k = p.k, half = k / 2;
  check_hosts(k * k * k / 4, "k");
  check_link_spec(p.host_link, "host_link");
  check_link_spec(p.edge_agg_link, "edge_agg_link");
  check_link_spec(p.agg_core_link, "agg_core_link");

  Topology t(std::to_string(k) + "-ary fat-tree");
  const uint64_t hosts = k * k * k / 4;
  for (uint64_t i = 0; i < hosts; ++i) t.add_host("h" + std::to_string(i));
  std::vector<NodeId> edge, agg, core;
  for (uint64_t pod = 0; pod < k; ++pod) {
    for (uint64_t i = 0; i < half; ++i) {
      edge.push_back(t.add_switch("edge" + std::to_string(pod) + "_" + std::to_string(i), "edge", 1, static_cast<int>(pod)));
    }
  }
  for (uint64_t pod = 0; pod < k; ++pod) {
    for (uint64_t i = 0; i < half; ++i) {
      agg.push_back(t.add_switch("agg" + std::to_string(pod) + "_" + std::to_string(i), "agg", 2, static_cast<int>(pod)));
    }
  }
  for (uint64_t c = 0; c < half * half; ++c) core.push_back(t.add_switch("core" + std::to_string(c), "core", 3));
  for (uint64_t h = 0; h < hosts; ++h) t.connect(static_cast<NodeId>(h), edge[h / half], p.host_link);
  for (uint64_t pod = 0; pod < k; ++pod) {
    for (uint64_t e = 0; e < half; ++e) {
      for (uint64_t a = 0; a < half; ++a) t.connect(edge[pod * half + e], agg[pod * half + a], p.edge_agg_link);
    }
  }
  for (uint64_t pod = 0; pod < k; ++pod) {
    for (uint64_t a = 0; a < half; ++a) {
      for (uint64_t c = 0; c < half; ++c) t.connect(agg[pod * half + a], core[a * half + c], p.agg_core_link);
    }
  }
  return t;
}

}  // namespace ll::sim
