// The receiving NIC's reorder buffer (nic.reorder, docs/sim.md "Reorder buffer"): a bounded
// per-QP buffer in front of the transport that holds data packets arriving above the next
// one expected until the gap fills, so that per-packet balancing (DRILL) does not reach
// go-back-N or IRN as loss. A gap that stays open `timeout`, or a packet that finds the
// QP's `slots` full, gives up on it: every held packet goes to the transport as it is and
// the buffer expects the packet after the highest one released (a lost packet's
// retransmission then passes straight through).
#pragma once
#include <cstdint>
#include <map>
#include <vector>

#include "sim/time.h"
#include "sim/transport.h"

namespace ll::sim {

class ReorderBuffer {
 public:
  struct Stats {
    uint64_t held = 0;       // packets that waited in the buffer
    uint64_t timeouts = 0;   // gaps given up after the timeout
    uint64_t overflows = 0;  // gaps given up because the QP's slots were full
    uint32_t peak_qp = 0;    // most packets one QP held at once
  };

  ReorderBuffer(uint32_t slots, Time timeout, size_t flows) : slots_(slots), timeout_(timeout), st_(flows) {}

  // Packet `p` of `flow` arrived: appends what the transport gets now, in order, to `out`.
  // Returns true when a gap opened (or another stays open after one closed): call
  // expire(flow, *gen) at now + timeout().
  bool arrive(uint32_t flow, const TransportPkt& p, std::vector<TransportPkt>& out, uint32_t* gen);
  // The gap timer `gen` of `flow` fired: releases the held packets if it is still open.
  void expire(uint32_t flow, uint32_t gen, std::vector<TransportPkt>& out);
  // The flow is finished at the receiver: drop its state.
  void close(uint32_t flow);
  // Packets `flow` holds now.
  size_t holding(uint32_t flow) const { return st_[flow].held.size(); }

  uint32_t slots() const { return slots_; }
  Time timeout() const { return timeout_; }
  const Stats& stats() const { return stats_; }

 private:
  struct Qp {
    uint32_t next = 0;   // the next packet the transport gets in order
    uint32_t gen = 0;    // the current gap's timer
    std::map<uint32_t, TransportPkt> held;
  };
  void release_all(Qp& q, std::vector<TransportPkt>& out);
  bool drain(Qp& q, std::vector<TransportPkt>& out);

  uint32_t slots_;
  Time timeout_;
  std::vector<Qp> st_;
  Stats stats_;
};

}  // namespace ll::sim
