// IRN, the "improved RoCE NIC" of Mittal et al., "Revisiting Network Support for RDMA"
// (SIGCOMM'18), as the simulator's "irn" transport (docs/sim.md, "Transports").
//
// Receiver: keeps out-of-order packets; every in-order packet is ACKed (every
// `nic.ack_every`), every out-of-order one answered by a NACK that carries the cumulative
// acknowledgement and the packet that triggered it (IRN's simplified SACK).
// Sender:
// - BDP flow control: a new packet leaves only while fewer than `irn.bdp_cap` packets are
//   unacknowledged (default: the BDP of the fabric's longest path at the host link rate).
//   Retransmissions are not held back by the cap.
// - Loss recovery: a NACK (or a timeout) starts a recovery episode that ends when the
//   cumulative acknowledgement passes the last packet sent before it began. A packet is
//   lost when a packet `irn.reorder` or more above it has been selectively acknowledged
//   (IRN: 1, any higher one); a timeout declares every unacknowledged packet sent so far
//   lost. In recovery, lost packets go first, each once per episode, then new ones.
// - Two timeouts: `irn.rto_low` while at most `irn.rto_low_pkts` packets are
//   unacknowledged (a tail loss recovers fast), `irn.rto_high` otherwise; the timer
//   restarts on every cumulative progress.
#include <algorithm>

#include "sim/transport.h"

namespace ll::sim {
namespace {

class Irn final : public Transport {
 public:
  explicit Irn(const TransportContext& c)
      : env_(c.env), cfg_(c.nic.irn), ack_every_(c.nic.ack_every),
        cap_(c.nic.irn.bdp_cap ? static_cast<uint32_t>(c.nic.irn.bdp_cap) : std::max<uint32_t>(1, c.bdp_pkts)),
        st_(c.flows) {}

  void open(uint32_t flow, uint32_t npkts) override {
    st_[flow].npkts = npkts;
    st_[flow].open = true;
  }

  bool peek(uint32_t flow, uint32_t* seq) override {
    S& f = st_[flow];
    if (f.recovering && next_lost(f, seq)) return true;
    if (f.snd_nxt < f.npkts && f.snd_nxt - f.snd_una < cap_) {
      *seq = f.snd_nxt;
      return true;
    }
    return false;
  }

  bool take(uint32_t flow, uint32_t* seq) override {
    S& f = st_[flow];
    if (!peek(flow, seq)) return false;
    if (*seq == f.snd_nxt) ++f.snd_nxt;
    else f.rtx_next = *seq + 1;
    return true;
  }

  void sent(uint32_t flow, uint32_t) override {
    S& f = st_[flow];
    if (f.timer.at == kNever) f.timer.start(env_, flow, env_.now() + rto(f), 0);
  }

  void on_feedback(uint32_t flow, const TransportPkt& p) override {
    S& f = st_[flow];
    const bool progress = p.seq > f.snd_una;
    if (progress) {
      f.snd_una = p.seq;
      if (f.snd_nxt < f.snd_una) f.snd_nxt = f.snd_una;
    }
    if (f.snd_una >= f.npkts) {
      env_.sender_complete(flow);
      return;
    }
    if (p.type == PktType::Nack) {
      f.sacked.set(p.sack, f.npkts);
      if (p.sack + 1 >= cfg_.reorder) f.lost_below = std::max(f.lost_below, p.sack + 1 - cfg_.reorder);
      if (!f.recovering) begin_recovery(f);
    }
    if (f.recovering && f.snd_una >= f.recover) f.recovering = false;
    if (progress) {
      if (f.snd_nxt > f.snd_una) f.timer.start(env_, flow, env_.now() + rto(f), 0);
      else f.timer.stop();
    }
    env_.wake(flow);
  }

  void on_data(uint32_t flow, const TransportPkt& p) override {
    S& f = st_[flow];
    RxState& rx = f.rx;
    if (p.seq == rx.rcv_nxt) {
      rx.in_order(env_, flow, f.npkts, ack_every_);
    } else if (p.seq > rx.rcv_nxt) {
      if (rx.held.test(p.seq)) env_.duplicate(flow);
      env_.out_of_order(flow);
      rx.held.set(p.seq, f.npkts);
      env_.feedback(flow, PktType::Nack, rx.rcv_nxt, p.seq, false);
    } else {
      env_.duplicate(flow);
      env_.feedback(flow, PktType::Ack, rx.rcv_nxt, 0, false);
    }
  }

  void on_timer(uint32_t flow, uint32_t token) override {
    S& f = st_[flow];
    if (!f.open || !f.timer.fired(env_, flow, token, 0)) return;
    if (f.snd_una >= f.snd_nxt) return;
    f.lost_below = f.snd_nxt;  // everything sent and not selectively acknowledged
    begin_recovery(f);
    f.timer.start(env_, flow, env_.now() + rto(f), 0);
    env_.wake(flow);
  }

  void close_sender(uint32_t flow) override {
    S& f = st_[flow];
    f.open = false;
    f.timer.stop();
    f.sacked.release();
  }

  void close_receiver(uint32_t flow) override { st_[flow].rx.held.release(); }

 private:
  struct S {
    uint32_t npkts = 0;
    uint32_t snd_nxt = 0, snd_una = 0;
    uint32_t lost_below = 0;   // unacknowledged packets below this are lost
    uint32_t recover = 0;      // the episode ends when snd_una reaches this
    uint32_t rtx_next = 0;     // first packet not yet retransmitted in this episode
    bool open = false, recovering = false;
    SeqSet sacked;
    Deadline timer;
    RxState rx;
  };

  void begin_recovery(S& f) {
    f.recovering = true;
    f.recover = f.snd_nxt;
    f.rtx_next = f.snd_una;
  }

  // The first lost packet not yet retransmitted in this episode.
  bool next_lost(S& f, uint32_t* seq) {
    uint32_t s = std::max(f.rtx_next, f.snd_una);
    while (s < f.lost_below && f.sacked.test(s)) ++s;
    f.rtx_next = s;
    if (s >= f.lost_below) return false;
    *seq = s;
    return true;
  }

  Time rto(const S& f) const { return f.snd_nxt - f.snd_una <= cfg_.rto_low_pkts ? cfg_.rto_low : cfg_.rto_high; }

  TransportEnv& env_;
  const IrnCfg cfg_;
  const unsigned ack_every_;
  const uint32_t cap_;
  std::vector<S> st_;
};

}  // namespace

std::unique_ptr<Transport> make_irn(const TransportContext& c) { return std::make_unique<Irn>(c); }

}  // namespace ll::sim
