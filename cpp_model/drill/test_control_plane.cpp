// GoogleTest of the DRILL control plane: symmetric-component decomposition and tables.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "drill/control_plane.h"

namespace cp = ll::drill::cp;
namespace dr = ll::drill;

namespace {

uint64_t mask_of(const cp::Topology& t, unsigned s, std::initializer_list<const char*> nbrs) {
  uint64_t m = 0;
  for (const char* n : nbrs) {
    const unsigned v = t.find(n);
    for (unsigned l : t.ports(s)) {
      const auto& lk = t.links[l];
      if ((lk.a == s && lk.b == v) || (lk.b == s && lk.a == v)) m |= 1ull << t.port_of(s, l);
    }
  }
  return m;
}

}  // namespace

// The paper's example (figure 4a): 4 leaves, 3 spines, 40G, link L0-S0 failed. For
// L3 -> L1 the path via S0 is not symmetric with those via S1 and S2.
TEST(DrillControlPlane, PaperExampleFailedLinkSplitsTheSpines) {
  cp::Topology t = cp::Topology::leaf_spine(4, 3, 40);
  t.fail_link(t.find("L0"), t.find("S0"));
  cp::Analysis a(t);
  const unsigned l3 = t.find("L3"), l1 = t.find("L1");
  const auto comps = a.components(l3, l1);
  ASSERT_EQ(comps.size(), 2u);
  EXPECT_EQ(comps[0].port_mask, mask_of(t, l3, {"S1", "S2"}));
  EXPECT_EQ(comps[0].capacity, 80u);
  EXPECT_EQ(comps[1].port_mask, mask_of(t, l3, {"S0"}));
  EXPECT_EQ(comps[1].capacity, 40u);
  // why: S1->L1 carries L0's traffic to L1, S0->L1 cannot
  const auto& lab_s1 = a.labels(t.ports(t.find("S1"))[1], t.find("S1"));  // S1-L1 link
  const auto& lab_s0 = a.labels(t.ports(t.find("S0"))[1], t.find("S0"));  // S0-L1 link
  EXPECT_EQ(lab_s1.size(), 3u);
  EXPECT_EQ(lab_s0.size(), 2u);
  // L0 itself has only S1, S2 left: one component
  const auto c0 = a.components(t.find("L0"), l1);
  ASSERT_EQ(c0.size(), 1u);
  EXPECT_EQ(c0[0].port_mask, mask_of(t, t.find("L0"), {"S1", "S2"}));
  // the tables L3 loads: group for L1 = {S1,S2} weight 255, {S0} weight 128 (80:40)
  const cp::Tables tb = cp::build_tables(a, l3);
  const auto& row = tb.groups.at(tb.dst_group.at(l1));
  EXPECT_EQ(tb.comp_masks.at(row.comp[0]), mask_of(t, l3, {"S1", "S2"}));
  EXPECT_EQ(tb.comp_masks.at(row.comp[1]), mask_of(t, l3, {"S0"}));
  EXPECT_EQ(row.weight[0], 255);
  EXPECT_EQ(row.weight[1], 128);
  EXPECT_EQ(row.weight[2], 0);
  // the weights and component restriction carry through the data plane
  dr::Config c;
  c.Ports = 3;
  c.D = 2;
  c.M = 1;
  c.Groups = 4;
  c.Comps = 4;
  dr::Model m(c);
  m.reset_transaction();
  cp::load(m, tb);
  std::map<int, uint64_t> hits;
  const uint64_t n = 60000;
  for (uint64_t h = 0; h < n; ++h) {
    const uint32_t hash = static_cast<uint32_t>((h * 0x9E3779B1u) >> 16);
    hits[m.choose_group(0, hash, tb.dst_group.at(l1), std::vector<uint32_t>(3, 0))]++;
  }
  const double p0 = 128.0 / 383.0;  // share of the S0 component
  const uint64_t s0 = hits[static_cast<int>(t.port_of(l3, t.ports(l3)[0]))];
  EXPECT_LE(std::fabs(s0 - n * p0), 5 * std::sqrt(n * p0 * (1 - p0)));
}

TEST(DrillControlPlane, SymmetricFabricHasOneComponentPerDestination) {
  cp::Topology t = cp::Topology::leaf_spine(6, 4, 40, 200);
  cp::Analysis a(t);
  for (unsigned s = 0; s < t.switches.size(); ++s) {
    for (unsigned d = 0; d < 6; ++d) {
      if (s == d) continue;
      const auto comps = a.components(s, d);
      ASSERT_EQ(comps.size(), 1u) << t.switches[s].name << " -> " << t.switches[d].name;
      if (t.switches[s].leaf) {
        EXPECT_EQ(comps[0].port_mask, 0xFull);  // all 4 uplinks
        EXPECT_EQ(comps[0].paths.size(), 4u);
      } else {
        EXPECT_EQ(comps[0].paths.size(), 1u);  // a spine has one way down
      }
    }
  }
  const cp::Tables tb = cp::build_tables(a, t.find("L2"));
  EXPECT_EQ(tb.comp_masks.size(), 1u);
  EXPECT_EQ(tb.groups.size(), 1u);  // every destination shares the row
  EXPECT_EQ(tb.dst_group.size(), 5u);
}

// 3-tier Clos (2 pods x 2 ToRs x 3 aggs, 2 cores per plane), link T0.0-A0.0 failed.
TEST(DrillControlPlane, ThreeTierFabricWithAFailedLink) {
  cp::Topology sym = cp::Topology::clos3(2, 2, 3, 2, 40, 40);
  cp::Analysis as(sym);
  const unsigned t10 = sym.find("T1.0"), t01 = sym.find("T0.1"), t00 = sym.find("T0.0");
  {
    const auto c = as.components(t10, t01);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].paths.size(), 6u);  // 3 aggs x 2 cores
    EXPECT_EQ(c[0].port_mask, 0b111u);
  }
  cp::Topology t = sym;
  t.fail_link(t.find("T0.0"), t.find("A0.0"));
  cp::Analysis a(t);
  // towards the ToR behind the failure: plane 0 is no longer a shortest path
  {
    const auto c = a.components(t10, t00);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].port_mask, mask_of(t, t10, {"A1.1", "A1.2"}));
    EXPECT_EQ(c[0].paths.size(), 4u);
  }
  // towards its pod neighbour T0.1: plane 0 (A0.0 -> T0.1 does not carry T0.0's
  // intra-pod traffic) is asymmetric with planes 1 and 2
  {
    const auto c = a.components(t10, t01);
    ASSERT_EQ(c.size(), 2u);
    EXPECT_EQ(c[0].port_mask, mask_of(t, t10, {"A1.1", "A1.2"}));
    EXPECT_EQ(c[0].capacity, 160u);
    EXPECT_EQ(c[1].port_mask, mask_of(t, t10, {"A1.0"}));
    EXPECT_EQ(c[1].capacity, 80u);
  }
  // the same split at the aggregation layer is local to the affected plane: the core
  // switches of plane 1 still see one way down
  {
    const auto c = a.components(t.find("C1.0"), t01);
    ASSERT_EQ(c.size(), 1u);
  }
  // T0.1's uplinks: A0.0 carries less (no T0.1 -> T0.0 traffic), so two components
  {
    const auto c = a.components(t01, t10);
    ASSERT_EQ(c.size(), 2u);
    EXPECT_EQ(c[1].port_mask, mask_of(t, t01, {"A0.0"}));
  }
  const cp::Tables tb = cp::build_tables(a, t10);
  EXPECT_EQ(tb.dst_group.size(), 3u);  // T0.0, T0.1, T1.1
}

// Heterogeneous speeds: the capacity factor separates a fast uplink from slow ones even
// when their label sets are equal, and equal scaling of every link changes nothing.
TEST(DrillControlPlane, HeterogeneousLinkSpeedsViaCapacityFactor) {
  cp::Topology t = cp::Topology::leaf_spine(4, 2, 10);
  cp::Analysis a0(t);
  EXPECT_EQ(a0.components(t.find("L0"), t.find("L1")).size(), 1u);
  cp::Topology fast = cp::Topology::leaf_spine(4, 2, 40);
  cp::Analysis a1(fast);
  EXPECT_EQ(a1.components(fast.find("L0"), fast.find("L1")).size(), 1u);
  // L0-S0 upgraded to 40G (labels unchanged)
  cp::Topology het;
  for (unsigned i = 0; i < 4; ++i) het.add_switch("L" + std::to_string(i), true);
  het.add_switch("S0", false);
  het.add_switch("S1", false);
  for (unsigned i = 0; i < 4; ++i) {
    het.add_link(i, 4, i == 0 ? 40 : 10);
    het.add_link(i, 5, 10);
  }
  cp::Analysis a(het);
  const auto c = a.components(het.find("L0"), het.find("L1"));
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].capacity, 10u);  // the 40G hop is limited by the 10G S0 -> L1 hop
  EXPECT_EQ(c[1].capacity, 10u);
  // two parallel 10G links between a leaf and a spine are symmetric with each other
  cp::Topology par = cp::Topology::leaf_spine(3, 2, 10, 0, 2);
  cp::Analysis ap(par);
  const auto cpar = ap.components(par.find("L0"), par.find("L1"));
  ASSERT_EQ(cpar.size(), 1u);
  EXPECT_EQ(cpar[0].paths.size(), 8u);  // 2 x 2 parallel links per spine, 2 spines
}

TEST(DrillControlPlane, RejectsMoreThanFourComponentsAndBadTopologies) {
  // a leaf with 5 uplinks of 5 different speeds to 5 spines: 5 components to any leaf
  cp::Topology t;
  for (unsigned i = 0; i < 2; ++i) t.add_switch("L" + std::to_string(i), true);
  for (unsigned j = 0; j < 5; ++j) t.add_switch("S" + std::to_string(j), false);
  for (unsigned j = 0; j < 5; ++j) {
    t.add_link(0, 2 + j, 10 * (j + 1));
    t.add_link(1, 2 + j, 100);
  }
  cp::Analysis a(t);
  EXPECT_EQ(a.components(0, 1).size(), 5u);
  EXPECT_THROW(cp::build_tables(a, 0), std::runtime_error);
  EXPECT_THROW(t.add_link(0, 0, 10), std::invalid_argument);
  EXPECT_THROW(t.add_link(0, 1, 0), std::invalid_argument);
  EXPECT_THROW(t.fail_link(0, 1), std::invalid_argument);
}
