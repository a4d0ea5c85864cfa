// Presto (He et al., SIGCOMM'15) as a balancer: a flow is cut into flowcells of
// `balancer.flowcell` payload bytes (64 KB, the paper's TSO segment), and its flowcells go
// round robin over the paths. The paper chooses the whole path at the source (vSwitch
// labels, shadow MACs); here the switch where a packet enters the fabric does: it counts the
// flow's bytes (a table indexed by the flow hash, with the hash as tag so a colliding flow
// restarts the entry), picks the next candidate in round robin at each flowcell boundary,
// and writes the flowcell's path into the packet's label; every later switch with a choice
// picks by that label (hash of label and flow), so a flowcell keeps one path end to end.
// The receiver must tolerate the reordering at flowcell boundaries (the paper's GRO
// reassembly): the DCTCP transport's shim, or IRN with a reorder tolerance.
#include "sim/balancer.h"
#include "sim/net_config.h"
#include "sim/network_util.h"

namespace ll::sim {
namespace {

class Presto final : public Balancer {
 public:
  explicit Presto(const BalancerContext& ctx) : cell_(ctx.scenario.net.balancer.flowcell), table_(kEntries) {}

  PortId choose(PortSpan c, RouteQuery& q) override {
    if (!q.first_hop && q.hdr->label) return c[detail::mix32(q.hdr->label, q.hash, 0x5052) % c.size()];
    Entry& e = table_[q.hash & (kEntries - 1)];
    if (e.tag != q.hash || !e.used) {
      e = Entry{};
      e.tag = q.hash;
      e.used = true;
      e.cell = q.hash;  // flows start at different paths
    }
    if (e.bytes >= cell_) {  // the flowcell is full: the next one takes the next path
      e.bytes = 0;
      ++e.cell;
    }
    e.bytes += q.payload;
    q.hdr->label = e.cell * 2 + 1;  // odd: set
    return c[e.cell % c.size()];
  }

  void occupancy(PortId, uint64_t) override {}

 private:
  static constexpr uint32_t kEntries = 1u << 16;
  struct Entry {
    uint32_t tag = 0, cell = 0;
    uint64_t bytes = 0;
    bool used = false;
  };
  const uint64_t cell_;
  std::vector<Entry> table_;
};

}  // namespace

std::unique_ptr<Balancer> make_presto(const BalancerContext& ctx) { return std::make_unique<Presto>(ctx); }

}  // namespace ll::sim
