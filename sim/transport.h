// A NIC's transport (docs/sim.md, "Parts"): what a sender sends next and how a receiver
// answers. The NIC (sim/nic.cpp) owns QP slots, the DCQCN block's pacing and PAUSE; it
// asks the transport which packet of a flow leaves next, hands it every data packet that
// arrives and every ACK / NACK, and runs its timers. One transport object serves every
// flow of a run (sender and receiver state side by side, since the simulator runs both
// ends). A new transport is one file that implements this interface and one row in the
// registry (sim/transport.cpp), plus its test and a docs row.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/net_config.h"
#include "sim/time.h"

namespace ll::sim {

enum class PktType : uint8_t { Data, Ack, Nack, Cnp, Pause, Balancer };  // Balancer: a switch-to-switch control packet

// The fields of a packet a transport reads.
struct TransportPkt {
  PktType type = PktType::Data;
  uint32_t seq = 0;   // data: packet number; ACK / NACK: the next packet expected (cumulative)
  uint32_t sack = 0;  // NACK of IRN: the packet whose arrival triggered it
  bool ce = false;    // data: Congestion Experienced; ACK: ECN echo
};

// What a transport asks of the NIC that runs it.
class TransportEnv {
 public:
  virtual ~TransportEnv() = default;
  virtual Time now() const = 0;
  // The receiver of `flow` sends an ACK or NACK (`ack` cumulative, `sack`, `ece`).
  virtual void feedback(uint32_t flow, PktType type, uint32_t ack, uint32_t sack, bool ece) = 0;
  // The sender of `flow` may have a packet to send (the NIC asks `peek` when it can).
  virtual void wake(uint32_t flow) = 0;
  // Call on_timer(flow, token) at `at`. Timers cannot be cancelled: a transport ignores a
  // token it no longer expects.
  virtual void timer(uint32_t flow, Time at, uint32_t token) = 0;
  // The receiver hands packet `seq` to the application (in order, once).
  virtual void delivered(uint32_t flow, uint32_t seq) = 0;
  // A data packet arrived beyond the next one expected.
  virtual void out_of_order(uint32_t flow) = 0;
  // A data packet the receiver already had arrived again (a spurious retransmission).
  virtual void duplicate(uint32_t flow) = 0;
  // The receiver has every packet / every packet is acknowledged at the sender.
  virtual void receiver_complete(uint32_t flow) = 0;
  virtual void sender_complete(uint32_t flow) = 0;
};

struct TransportContext {
  const NicCfg& nic;
  TransportEnv& env;
  size_t flows;
  // The bandwidth-delay product of the fabric's longest path at the host link rate, in
  // packets of the MTU (IRN's cap on packets in flight).
  uint32_t bdp_pkts;
};

class Transport {
 public:
  virtual ~Transport() = default;
  // The flow got its QP slots at both ends; it has `npkts` packets.
  virtual void open(uint32_t flow, uint32_t npkts) = 0;
  // Sender: the packet it would send now, if one is allowed (window, retransmissions).
  virtual bool peek(uint32_t flow, uint32_t* seq) = 0;
  // Sender: the packet leaving now (false: none after all). Then `sent` once it is built.
  virtual bool take(uint32_t flow, uint32_t* seq) = 0;
  virtual void sent(uint32_t flow, uint32_t seq) = 0;
  // Sender: an ACK or NACK arrived (only while the flow's sender is open).
  virtual void on_feedback(uint32_t flow, const TransportPkt& p) = 0;
  // Receiver: a data packet of an unfinished flow arrived.
  virtual void on_data(uint32_t flow, const TransportPkt& p) = 0;
  virtual void on_timer(uint32_t flow, uint32_t token) = 0;
  // The sender / receiver of `flow` is finished: release its state.
  virtual void close_sender(uint32_t flow) = 0;
  virtual void close_receiver(uint32_t flow) = 0;
};

using TransportFactory = std::unique_ptr<Transport> (*)(const TransportContext&);

struct TransportEntry {
  const char* name;       // nic.transport
  const char* what;       // one line for docs and messages
  TransportFactory make;
};

// Every transport the simulator has, in the order the docs list them.
const std::vector<TransportEntry>& transport_registry();
const TransportEntry* find_transport(const std::string& name);
std::vector<std::string> transport_names();

// A set of packet numbers of one flow (a receiver's out-of-order packets, a sender's
// selectively acknowledged ones), allocated on first use.
class SeqSet {
 public:
  bool test(uint32_t seq) const { return seq / 64 < bits_.size() && (bits_[seq / 64] >> (seq % 64) & 1); }
  void set(uint32_t seq, uint32_t npkts) {
    if (bits_.empty()) bits_.assign((npkts + 63) / 64, 0);
    bits_[seq / 64] |= uint64_t{1} << (seq % 64);
  }
  bool empty() const { return bits_.empty(); }
  void release() { std::vector<uint64_t>().swap(bits_); }

 private:
  std::vector<uint64_t> bits_;
};

// Receiver bookkeeping every transport shares: the next packet expected and the
// out-of-order packets held. `accept` takes an in-order packet and the held ones behind
// it (each delivered through env) and returns how many packets it delivered.
struct RxState {
  uint32_t rcv_nxt = 0;
  uint32_t since_ack = 0;
  SeqSet held;
  uint32_t accept(TransportEnv& env, uint32_t flow, uint32_t npkts) {
    const uint32_t first = rcv_nxt;
    env.delivered(flow, rcv_nxt++);
    while (!held.empty() && rcv_nxt < npkts && held.test(rcv_nxt)) env.delivered(flow, rcv_nxt++);
    return rcv_nxt - first;
  }
  // An in-order packet at a receiver that ACKs every `ack_every` in-order packets: accept
  // it; then the flow is complete, or an ACK goes out when its turn has come.
  void in_order(TransportEnv& env, uint32_t flow, uint32_t npkts, unsigned ack_every) {
    accept(env, flow, npkts);
    if (rcv_nxt >= npkts) {
      env.receiver_complete(flow);
    } else if (++since_ack >= ack_every) {
      since_ack = 0;
      env.feedback(flow, PktType::Ack, rcv_nxt, 0, false);
    }
  }
};

// A retransmission timer with a moving deadline and at most one event pending: restarting
// it only moves the deadline; a late event re-books itself at the deadline.
struct Deadline {
  Time at = kNever;        // when the timer expires (kNever: stopped)
  Time booked = kNever;    // the pending event's time
  uint32_t gen = 0;        // the pending event's token
  void start(TransportEnv& env, uint32_t flow, Time when, uint32_t tag) {
    at = when;
    if (at < booked) {
      booked = at;
      env.timer(flow, at, tag | (++gen & kGenMask));
    }
  }
  void stop() { at = kNever; }
  // For an event with `token`: true when the timer has expired now; else re-books it.
  bool fired(TransportEnv& env, uint32_t flow, uint32_t token, uint32_t tag) {
    if ((token & kGenMask) != (gen & kGenMask)) return false;
    booked = kNever;
    if (at == kNever) return false;
    if (env.now() < at) {
      start(env, flow, at, tag);
      return false;
    }
    at = kNever;
    return true;
  }
  static constexpr uint32_t kGenMask = 0x7FFFFFFF;
};
constexpr uint32_t kReceiverTimer = 0x80000000u;  // token tag of a receiver-side timer

}  // namespace ll::sim
