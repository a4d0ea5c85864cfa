// DRILL control plane: symmetric-component decomposition of a Clos fabric (paper section
// 3.4.1; definitions in docs/drill.md) and the tables the RTL loads (component port
// masks and weighted group rows, rtl/drill/drill_regs.json).
//
//  1. Quiver: for every directed link a->b on a shortest path between leaves src and
//     dst, the label (src, dst). Shortest = fewest hops over the working links; a link
//     is on a shortest src->dst path iff dist(src,a) + 1 + dist(b,dst) = dist(src,dst).
//  2. Link score: the pair (label set, capacity factor), numbered exactly (no hash, so
//     no collisions); capacity factor of a->b = cap(a,b) / (capacity entering a), where
//     the capacity entering a is the sum of a's working fabric links plus its host links.
//     A path's score is the list of its link scores; equal scores = symmetric paths.
//  3. For switch s and destination leaf dst, the shortest s->dst paths are split into
//     classes of equal score (the maximal symmetric components). A component's port
//     set is the set of s's ports its paths leave by; its weight is the sum over its
//     paths of the path capacity (capacity of the slowest link).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "drill/drill.h"

namespace ll::drill::cp {

struct Topology {
  struct Switch {
    std::string name;
    bool leaf = false;
    uint64_t host_capacity = 0;  // total capacity of host links entering the switch
  };
  struct Link {
    unsigned a = 0, b = 0;
    uint64_t capacity = 0;  // any unit (e.g. Gb/s); only ratios matter
    bool failed = false;
  };
  std::vector<Switch> switches;
  std::vector<Link> links;

  unsigned add_switch(const std::string& name, bool leaf, uint64_t host_capacity = 0);
  unsigned add_link(unsigned a, unsigned b, uint64_t capacity);  // parallel links allowed
  void fail_link(unsigned a, unsigned b, unsigned nth = 0);      // nth parallel a-b link
  unsigned find(const std::string& name) const;                  // throws if unknown
  // Port numbering of switch s: its links (failed ones included, so ports are stable)
  // in the order they were added. At most 64 ports per switch.
  std::vector<unsigned> ports(unsigned s) const;
  unsigned port_of(unsigned s, unsigned link) const;

  // Leaves L0..L(n-1), spines S0..S(m-1), every leaf linked to every spine
  // `links_per_pair` times with capacity `cap`; each leaf has `host_cap` of hosts.
  static Topology leaf_spine(unsigned leaves, unsigned spines, uint64_t cap, uint64_t host_cap = 0,
                             unsigned links_per_pair = 1);
  // 3-tier Clos: `pods` pods of `tors` ToRs (leaves T<p>.<i>) and `aggs` aggregation
  // switches (A<p>.<j>); plane j has `cores` core switches (C<j>.<k>) linked to agg j of
  // every pod (the Facebook-style fabric of the paper's figure 5).
  static Topology clos3(unsigned pods, unsigned tors, unsigned aggs, unsigned cores, uint64_t cap_tor_agg,
                        uint64_t cap_agg_core, uint64_t host_cap = 0);
};

struct Path {
  std::vector<unsigned> links;  // link ids, in order from the switch to the destination
  std::vector<unsigned> score;  // link score ids
  uint64_t capacity = 0;        // slowest link
};

struct Component {
  std::vector<Path> paths;
  uint64_t port_mask = 0;  // ports of the switch the paths leave by
  uint64_t capacity = 0;   // sum of the path capacities (the weight)
};

class Analysis {
 public:
  explicit Analysis(const Topology& t);
  const Topology& topology() const { return t_; }
  unsigned dist(unsigned a, unsigned b) const { return dist_[a][b]; }
  // Labels of the directed traversal of `link` starting at switch `from`.
  const std::vector<std::pair<unsigned, unsigned>>& labels(unsigned link, unsigned from) const;
  unsigned score(unsigned link, unsigned from) const;
  // All shortest paths from switch s to leaf dst, split into symmetric components,
  // largest capacity first (ties: lowest port mask first).
  std::vector<Component> components(unsigned s, unsigned dst) const;

 private:
  unsigned dir_index(unsigned link, unsigned from) const;
  const Topology& t_;
  std::vector<std::vector<unsigned>> dist_;
  std::vector<std::vector<std::pair<unsigned, unsigned>>> labels_;  // per directed link
  std::vector<unsigned> score_;                                      // per directed link
};

// The tables one switch's DRILL block loads.
struct Tables {
  std::vector<uint64_t> comp_masks;        // comp[i] -> COMP_COMMIT i
  std::vector<GroupRow> groups;            // group[g] -> GROUP_COMMIT g
  std::map<unsigned, unsigned> dst_group;  // destination leaf -> group index
  // exact weights behind each group row (capacity of each slot's component)
  std::vector<std::vector<uint64_t>> exact_weights;
};

// Builds switch s's tables for every reachable destination leaf (s itself excluded).
// Identical port masks share one component row, identical group rows one group row. Weights are scaled so the largest slot
// of a row is 255 (each non-zero weight at least 1). Throws std::runtime_error if a
// destination has more than 4 components or the switch needs more than `max_comps`
// component rows / `max_groups` group rows.
Tables build_tables(const Analysis& a, unsigned s, unsigned max_comps = 64, unsigned max_groups = 64);

// Loads the tables into a model (transaction face; the RTL takes the same values
// through STAGE_* + *_COMMIT).
void load(Model& m, const Tables& t);

}  // namespace ll::drill::cp
