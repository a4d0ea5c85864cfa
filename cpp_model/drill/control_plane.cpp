// DRILL control plane (see control_plane.h and docs/drill.md).
#include "drill/control_plane.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace ll::drill::cp {

namespace {
constexpr unsigned kInf = std::numeric_limits<unsigned>::max();
}

// ------------------------------------------------------------------ Topology

unsigned Topology::add_switch(const std::string& name, bool leaf, uint64_t host_capacity) {
  for (const auto& s : switches)
    if (s.name == name) throw std::invalid_argument("control plane: duplicate switch " + name);
  switches.push_back({name, leaf, host_capacity});
  return static_cast<unsigned>(switches.size() - 1);
}

unsigned Topology::add_link(unsigned a, unsigned b, uint64_t capacity) {
  if (a >= switches.size() || b >= switches.size() || a == b) throw std::invalid_argument("control plane: bad link");
  if (capacity == 0) throw std::invalid_argument("control plane: link capacity must be > 0");
  links.push_back({a, b, capacity, false});
  const auto id = static_cast<unsigned>(links.size() - 1);
  if (ports(a).size() > 64 || ports(b).size() > 64) throw std::invalid_argument("control plane: more than 64 ports on a switch");
  return id;
}

void Topology::fail_link(unsigned a, unsigned b, unsigned nth) {
  for (auto& l : links) {
    if ((l.a == a && l.b == b) || (l.a == b && l.b == a)) {
      if (nth == 0) {
        l.failed = true;
        return;
      }
      --nth;
    }
  }
  throw std::invalid_argument("control plane: no such link to fail");
}

unsigned Topology::find(const std::string& name) const {
  for (unsigned i = 0; i < switches.size(); ++i)
    if (switches[i].name == name) return i;
  throw std::invalid_argument("control plane: unknown switch " + name);
}

std::vector<unsigned> Topology::ports(unsigned s) const {
  std::vector<unsigned> r;
  for (unsigned l = 0; l < links.size(); ++l)
    if (links[l].a == s || links[l].b == s) r.push_back(l);
  return r;
}

unsigned Topology::port_of(unsigned s, unsigned link) const {
  const auto p = ports(s);
  const auto it = std::find(p.begin(), p.end(), link);
  if (it == p.end()) throw std::invalid_argument("control plane: link not at switch");
  return static_cast<unsigned>(it - p.begin());
}

Topology Topology::leaf_spine(unsigned leaves, unsigned spines, uint64_t cap, uint64_t host_cap,
                              unsigned links_per_pair) {
  Topology t;
  for (unsigned i = 0; i < leaves; ++i) t.add_switch("L" + std::to_string(i), true, host_cap);
  for (unsigned j = 0; j < spines; ++j) t.add_switch("S" + std::to_string(j), false);
  for (unsigned i = 0; i < leaves; ++i)
    for (unsigned j = 0; j < spines; ++j)
      for (unsigned k = 0; k < links_per_pair; ++k) t.add_link(i, leaves + j, cap);
  return t;
}

Topology Topology::clos3(unsigned pods, unsigned tors, unsigned aggs, unsigned cores, uint64_t cap_tor_agg,
                         uint64_t cap_agg_core, uint64_t host_cap) {
  Topology t;
  for (unsigned p = 0; p < pods; ++p) {
    for (unsigned i = 0; i < tors; ++i) t.add_switch("T" + std::to_string(p) + "." + std::to_string(i), true, host_cap);
    for (unsigned j = 0; j < aggs; ++j) t.add_switch("A" + std::to_string(p) + "." + std::to_string(j), false);
  }
  for (unsigned j = 0; j < aggs; ++j)
    for (unsigned k = 0; k < cores; ++k) t.add_switch("C" + std::to_string(j) + "." + std::to_string(k), false);
  for (unsigned p = 0; p < pods; ++p)
    for (unsigned i = 0; i < tors; ++i)
      for (unsigned j = 0; j < aggs; ++j)
        t.add_link(t.find("T" + std::to_string(p) + "." + std::to_string(i)),
                   t.find("A" + std::to_string(p) + "." + std::to_string(j)), cap_tor_agg);
  for (unsigned p = 0; p < pods; ++p)
    for (unsigned j = 0; j < aggs; ++j)
      for (unsigned k = 0; k < cores; ++k)
        t.add_link(t.find("A" + std::to_string(p) + "." + std::to_string(j)),
                   t.find("C" + std::to_string(j) + "." + std::to_string(k)), cap_agg_core);
  return t;
}

// ------------------------------------------------------------------ Analysis

unsigned Analysis::dir_index(unsigned link, unsigned from) const {
  return 2 * link + (t_.links[link].a == from ? 0 : 1);
}

Analysis::Analysis(const Topology& t) : t_(t) {
  const unsigned n = static_cast<unsigned>(t.switches.size());
  std::vector<std::vector<std::pair<unsigned, unsigned>>> adj(n);  // (neighbour, link)
  for (unsigned l = 0; l < t.links.size(); ++l) {
    if (t.links[l].failed) continue;
    adj[t.links[l].a].push_back({t.links[l].b, l});
    adj[t.links[l].b].push_back({t.links[l].a, l});
  }
  dist_.assign(n, std::vector<unsigned>(n, kInf));
  for (unsigned s = 0; s < n; ++s) {
    std::deque<unsigned> q{s};
    dist_[s][s] = 0;
    while (!q.empty()) {
      const unsigned u = q.front();
      q.pop_front();
      for (auto [v, l] : adj[u]) {
        (void)l;
        if (dist_[s][v] == kInf) {
          dist_[s][v] = dist_[s][u] + 1;
          q.push_back(v);
        }
      }
    }
  }
  // quiver labels
  labels_.assign(2 * t.links.size(), {});
  std::vector<unsigned> leaves;
  for (unsigned i = 0; i < n; ++i)
    if (t.switches[i].leaf) leaves.push_back(i);
  for (unsigned l = 0; l < t.links.size(); ++l) {
    if (t.links[l].failed) continue;
    for (int dir = 0; dir < 2; ++dir) {
      const unsigned a = dir ? t.links[l].b : t.links[l].a;
      const unsigned b = dir ? t.links[l].a : t.links[l].b;
      auto& lab = labels_[2 * l + dir];
      for (unsigned src : leaves)
        for (unsigned dst : leaves) {
          if (src == dst || dist_[src][dst] == kInf || dist_[src][a] == kInf || dist_[b][dst] == kInf) continue;
          if (dist_[src][a] + 1 + dist_[b][dst] == dist_[src][dst]) lab.push_back({src, dst});
        }
    }
  }
  // capacity entering each switch
  std::vector<uint64_t> cin(n, 0);
  for (unsigned i = 0; i < n; ++i) cin[i] = t.switches[i].host_capacity;
  for (const auto& lk : t.links) {
    if (lk.failed) continue;
    cin[lk.a] += lk.capacity;
    cin[lk.b] += lk.capacity;
  }
  // scores: exact numbering of (label set, capacity factor as a reduced fraction)
  std::map<std::pair<std::vector<std::pair<unsigned, unsigned>>, std::pair<uint64_t, uint64_t>>, unsigned> ids;
  score_.assign(2 * t.links.size(), kInf);
  for (unsigned l = 0; l < t.links.size(); ++l) {
    if (t.links[l].failed) continue;
    for (int dir = 0; dir < 2; ++dir) {
      const unsigned a = dir ? t.links[l].b : t.links[l].a;
      const uint64_t num = t.links[l].capacity, den = cin[a];
      const uint64_t g = std::gcd(num, den);
      auto key = std::make_pair(labels_[2 * l + dir], std::make_pair(num / g, den / g));
      auto it = ids.find(key);
      if (it == ids.end()) it = ids.emplace(key, static_cast<unsigned>(ids.size())).first;
      score_[2 * l + dir] = it->second;
    }
  }
}

const std::vector<std::pair<unsigned, unsigned>>& Analysis::labels(unsigned link, unsigned from) const {
  return labels_.at(dir_index(link, from));
}

unsigned Analysis::score(unsigned link, unsigned from) const { return score_.at(dir_index(link, from)); }

std::vector<Component> Analysis::components(unsigned s, unsigned dst) const {
  std::vector<Component> out;
  if (s == dst || dist_[s][dst] == kInf) return out;
  // enumerate shortest paths s -> dst (every hop reduces the distance to dst by one)
  std::vector<Path> paths;
  std::vector<unsigned> stack;
  std::vector<unsigned> nodes{s};
  auto dfs = [&](auto&& self, unsigned u) -> void {
    if (u == dst) {
      Path p;
      p.links = stack;
      p.capacity = std::numeric_limits<uint64_t>::max();
      unsigned at = s;
      for (unsigned l : stack) {
        p.score.push_back(score(l, at));
        p.capacity = std::min(p.capacity, t_.links[l].capacity);
        at = t_.links[l].a == at ? t_.links[l].b : t_.links[l].a;
      }
      paths.push_back(std::move(p));
      return;
    }
    for (unsigned l = 0; l < t_.links.size(); ++l) {
      const auto& lk = t_.links[l];
      if (lk.failed || (lk.a != u && lk.b != u)) continue;
      const unsigned v = lk.a == u ? lk.b : lk.a;
      if (dist_[v][dst] == kInf || dist_[v][dst] + 1 != dist_[u][dst]) continue;
      stack.push_back(l);
      self(self, v);
      stack.pop_back();
    }
  };
  dfs(dfs, s);
  std::map<std::vector<unsigned>, unsigned> by_score;
  for (auto& p : paths) {
    auto it = by_score.find(p.score);
    if (it == by_score.end()) {
      it = by_score.emplace(p.score, static_cast<unsigned>(out.size())).first;
      out.emplace_back();
    }
    Component& c = out[it->second];
    c.port_mask |= 1ull << t_.port_of(s, p.links.front());
    c.capacity += p.capacity;
    c.paths.push_back(std::move(p));
  }
  std::sort(out.begin(), out.end(), [](const Component& x, const Component& y) {
    return x.capacity != y.capacity ? x.capacity > y.capacity : x.port_mask < y.port_mask;
  });
  return out;
}

// ------------------------------------------------------------------ tables

Tables build_tables(const Analysis& a, unsigned s, unsigned max_comps, unsigned max_groups) {
  const Topology& t = a.topology();
  Tables tb;
  std::map<uint64_t, unsigned> comp_of_mask;
  for (unsigned dst = 0; dst < t.switches.size(); ++dst) {
    if (!t.switches[dst].leaf || dst == s) continue;
    const auto comps = a.components(s, dst);
    if (comps.empty()) continue;
    if (comps.size() > kGroupSlots)
      throw std::runtime_error("control plane: " + t.switches[s].name + " -> " + t.switches[dst].name + " has " +
                               std::to_string(comps.size()) + " components (a group row holds 4)");
    GroupRow row;
    std::vector<uint64_t> exact;
    uint64_t wmax = 0;
    for (const auto& c : comps) wmax = std::max(wmax, c.capacity);
    for (unsigned i = 0; i < comps.size(); ++i) {
      auto it = comp_of_mask.find(comps[i].port_mask);
      if (it == comp_of_mask.end()) {
        it = comp_of_mask.emplace(comps[i].port_mask, static_cast<unsigned>(tb.comp_masks.size())).first;
        tb.comp_masks.push_back(comps[i].port_mask);
      }
      row.comp[i] = static_cast<uint8_t>(it->second);
      const uint64_t w = (comps[i].capacity * 255 + wmax / 2) / wmax;
      row.weight[i] = static_cast<uint8_t>(std::max<uint64_t>(w, 1));
      exact.push_back(comps[i].capacity);
    }
    unsigned g = 0;
    while (g < tb.groups.size() && (tb.groups[g].word() != row.word() || tb.exact_weights[g] != exact)) ++g;
    if (g == tb.groups.size()) {  // identical rows are shared by their destinations
      tb.groups.push_back(row);
      tb.exact_weights.push_back(exact);
    }
    tb.dst_group[dst] = g;
  }
  if (tb.comp_masks.size() > max_comps) throw std::runtime_error("control plane: too many component rows");
  if (tb.groups.size() > max_groups) throw std::runtime_error("control plane: too many group rows");
  return tb;
}

void load(Model& m, const Tables& t) {
  for (unsigned i = 0; i < t.comp_masks.size(); ++i) m.set_component(i, t.comp_masks[i]);
  for (unsigned g = 0; g < t.groups.size(); ++g) m.set_group(g, t.groups[g]);
}

}  // namespace ll::drill::cp
