#include "sim/reorder_buffer.h"

#include <algorithm>

namespace ll::sim {

bool ReorderBuffer::arrive(uint32_t flow, const TransportPkt& p, std::vector<TransportPkt>& out, uint32_t* gen) {
  Qp& q = st_[flow];
  if (p.seq < q.next) {  // a retransmission or a duplicate: the transport decides
    out.push_back(p);
    return false;
  }
  if (p.seq == q.next) {
    out.push_back(p);
    ++q.next;
    if (!drain(q, out)) return false;
    *gen = ++q.gen;  // a later gap is still open: its own timer from now
    return true;
  }
  if (q.held.count(p.seq)) {  // the same packet twice while the gap is open
    out.push_back(p);
    return false;
  }
  if (q.held.size() >= slots_) {  // no room: give up on the gap
    ++stats_.overflows;
    q.held.emplace(p.seq, p);
    release_all(q, out);
    return false;
  }
  const bool opened = q.held.empty();
  q.held.emplace(p.seq, p);
  ++stats_.held;
  stats_.peak_qp = std::max(stats_.peak_qp, static_cast<uint32_t>(q.held.size()));
  if (!opened) return false;
  *gen = ++q.gen;
  return true;
}

void ReorderBuffer::expire(uint32_t flow, uint32_t gen, std::vector<TransportPkt>& out) {
  Qp& q = st_[flow];
  if (gen != q.gen || q.held.empty()) return;
  ++stats_.timeouts;
  release_all(q, out);
}

void ReorderBuffer::close(uint32_t flow) {
  Qp& q = st_[flow];
  ++q.gen;
  std::map<uint32_t, TransportPkt>().swap(q.held);
}

void ReorderBuffer::release_all(Qp& q, std::vector<TransportPkt>& out) {
  for (const auto& [seq, pkt] : q.held) out.push_back(pkt);
  q.next = std::max(q.next, q.held.rbegin()->first + 1);
  q.held.clear();
  ++q.gen;  // the gap's timer is void
}

// After the next packet went through: the held packets that now follow in order. Returns
// true if packets are still held (another gap); either way the old gap's timer is void.
bool ReorderBuffer::drain(Qp& q, std::vector<TransportPkt>& out) {
  const bool had = !q.held.empty();
  while (!q.held.empty() && q.held.begin()->first == q.next) {
    out.push_back(q.held.begin()->second);
    q.held.erase(q.held.begin());
    ++q.next;
  }
  if (had) ++q.gen;
  return !q.held.empty();
}

}  // namespace ll::sim
