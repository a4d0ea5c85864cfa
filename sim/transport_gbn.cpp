// RoCEv2's transport as NICs ship it: go-back-N ("gbn"), and a simpler selective-repeat
// variant ("sr") that is not IRN (docs/sim.md, "Transports").
//
// Receiver: ACKs every `nic.ack_every` in-order packets (and a duplicate at once); the
// first packet beyond a gap sends one NACK for the missing packet (one per gap).
// go-back-N drops out-of-order packets; "sr" keeps them.
// Sender: no window (the DCQCN block paces it). A NACK sends the sender back to the
// missing packet (go-back-N) or retransmits just that packet (sr). The retransmission
// timer (`nic.rto`) is armed by a send and not restarted by ACKs: when it fires with no
// progress since it was armed, the sender goes back to (gbn) or resends (sr) the first
// unacknowledged packet; it is re-armed while anything is unacknowledged.
#include <algorithm>

#include "sim/transport.h"

namespace ll::sim {
namespace {

class NackTransport final : public Transport {
 public:
  NackTransport(const TransportContext& c, bool selective)
      : env_(c.env), ack_every_(c.nic.ack_every), rto_(c.nic.rto), sr_(selective), st_(c.flows) {}

  void open(uint32_t flow, uint32_t npkts) override {
    st_[flow].npkts = npkts;
    st_[flow].open = true;
  }

  bool peek(uint32_t flow, uint32_t* seq) override {
    const S& f = st_[flow];
    if (!f.retx.empty()) *seq = f.retx.front();
    else if (f.snd_nxt < f.npkts) *seq = f.snd_nxt;
    else return false;
    return true;
  }

  bool take(uint32_t flow, uint32_t* seq) override {
    S& f = st_[flow];
    while (!f.retx.empty()) {
      const uint32_t r = f.retx.front();
      f.retx.erase(f.retx.begin());
      if (r >= f.snd_una) {
        *seq = r;
        return true;
      }
    }
    if (f.snd_nxt >= f.npkts) return false;
    *seq = f.snd_nxt++;
    return true;
  }

  void sent(uint32_t flow, uint32_t) override { arm(flow); }

  void on_feedback(uint32_t flow, const TransportPkt& p) override {
    S& f = st_[flow];
    if (p.seq > f.snd_una) {
      f.snd_una = p.seq;
      if (f.snd_nxt < f.snd_una) f.snd_nxt = f.snd_una;
    }
    if (f.snd_una >= f.npkts) {
      env_.sender_complete(flow);
      return;
    }
    if (p.type != PktType::Nack) return;
    if (!sr_) {
      if (f.snd_nxt > p.seq) f.snd_nxt = p.seq;
    } else if (std::find(f.retx.begin(), f.retx.end(), p.seq) == f.retx.end()) {
      f.retx.push_back(p.seq);
    }
    env_.wake(flow);
  }

  void on_data(uint32_t flow, const TransportPkt& p) override {
    S& f = st_[flow];
    RxState& rx = f.rx;
    if (p.seq == rx.rcv_nxt) {
      rx.in_order(env_, flow, f.npkts, ack_every_);
    } else if (p.seq > rx.rcv_nxt) {
      if (sr_ && rx.held.test(p.seq)) env_.duplicate(flow);
      env_.out_of_order(flow);
      if (sr_) rx.held.set(p.seq, f.npkts);
      if (f.nack_for != rx.rcv_nxt) {
        f.nack_for = rx.rcv_nxt;
        env_.feedback(flow, PktType::Nack, rx.rcv_nxt, 0, false);
      }
    } else {
      env_.duplicate(flow);
      env_.feedback(flow, PktType::Ack, rx.rcv_nxt, 0, false);
    }
  }

  void on_timer(uint32_t flow, uint32_t gen) override {
    S& f = st_[flow];
    if (gen != f.rto_gen) return;
    f.rto_armed = false;
    if (!f.open) return;
    if (f.snd_una == f.rto_una && f.snd_una < f.npkts) {
      if (!sr_) f.snd_nxt = f.snd_una;
      else f.retx.push_back(f.snd_una);
      env_.wake(flow);
    }
    if (f.snd_una < f.npkts) arm(flow);
  }

  void close_sender(uint32_t flow) override {
    S& f = st_[flow];
    f.open = false;
    ++f.rto_gen;
    std::vector<uint32_t>().swap(f.retx);
  }

  void close_receiver(uint32_t flow) override { st_[flow].rx.held.release(); }

 private:
  struct S {
    uint32_t npkts = 0;
    uint32_t snd_nxt = 0, snd_una = 0;
    uint32_t rto_gen = 0, rto_una = 0;
    uint32_t nack_for = ~0u;          // receiver: NACK sent for this rcv_nxt
    bool open = false, rto_armed = false;
    std::vector<uint32_t> retx;       // sr: packets to send again
    RxState rx;
  };

  void arm(uint32_t flow) {
    S& f = st_[flow];
    if (f.rto_armed) return;
    f.rto_armed = true;
    f.rto_una = f.snd_una;
    env_.timer(flow, env_.now() + rto_, f.rto_gen);
  }

  TransportEnv& env_;
  const unsigned ack_every_;
  const Time rto_;
  const bool sr_;
  std::vector<S> st_;
};

}  // namespace

std::unique_ptr<Transport> make_gbn(const TransportContext& c) { return std::make_unique<NackTransport>(c, false); }
std::unique_ptr<Transport> make_sr(const TransportContext& c) { return std::make_unique<NackTransport>(c, true); }

}  // namespace ll::sim
