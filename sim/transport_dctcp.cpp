// DCTCP (Alizadeh et al., SIGCOMM'10; RFC 8257) over a NewReno-style TCP, as the
// simulator's "dctcp" transport; with `dctcp.ecn = false` it is that TCP alone (docs/sim.md,
// "Transports"). Windows count packets of the MTU.
//
// Sender:
// - Slow start from `dctcp.init_cwnd` packets up to ssthresh (+1 per packet acknowledged),
//   then congestion avoidance (+1 per window).
// - DCTCP: alpha <- (1 - g) alpha + g F once per window of data, F the fraction of
//   acknowledged packets whose ACK echoed ECN; on an ECN echo the window is cut to
//   cwnd (1 - alpha / 2) (at least 2), at most once per window. alpha starts at 1.
// - Fast retransmit on `dctcp.dupacks` duplicate ACKs: ssthresh = cwnd / 2 (at least 2),
//   the first unacknowledged packet resent; recovery lasts until everything sent before
//   it is acknowledged. A duplicate ACK carries the packet that triggered it (a one-block
//   SACK); in recovery the first unacknowledged packet is resent (once per recovery) when
//   a packet `dctcp.dupacks` or more above it has been reported, so a partial ACK after
//   mere reordering resends nothing (NewReno without SACK would resend on every partial
//   ACK). Packets in flight are the unacknowledged ones less the duplicate ACKs seen.
// - Retransmission timeout as RFC 6298 (srtt, rttvar, one timed packet per window, no
//   samples from retransmitted packets), at least `dctcp.min_rto`, doubled per expiry up
//   to 64 x; on expiry ssthresh = flight / 2, cwnd = 1 and the sender goes back to the
//   first unacknowledged packet.
// Receiver: keeps out-of-order packets and answers with cumulative ACKs, every
// `nic.ack_every` in-order packets (and at once when the CE state of arriving packets
// changes, as DCTCP's receiver does), at once for a packet that fills a gap or repeats
// one. An out-of-order packet sends a duplicate ACK at once, or with the reorder shim
// (`dctcp.shim` > 0, the DRILL paper's receiver-side buffering) is held: when the gap is
// still open `dctcp.shim` after the first held packet, one duplicate ACK per packet held
// goes out then; a gap filled in time sends none.
#include <algorithm>
#include <cmath>

#include "sim/transport.h"

namespace ll::sim {
namespace {

class Dctcp final : public Transport {
 public:
  explicit Dctcp(const TransportContext& c)
      : env_(c.env), cfg_(c.nic.dctcp), ack_every_(c.nic.ack_every), g_(std::ldexp(1.0, -static_cast<int>(c.nic.dctcp.g_shift))),
        st_(c.flows) {}

  void open(uint32_t flow, uint32_t npkts) override {
    S& f = st_[flow];
    f.npkts = npkts;
    f.open = true;
    f.cwnd = cfg_.init_cwnd;
  }

  bool peek(uint32_t flow, uint32_t* seq) override {
    S& f = st_[flow];
    while (!f.retx.empty() && f.retx.front() < f.snd_una) f.retx.erase(f.retx.begin());
    if (!f.retx.empty()) {
      *seq = f.retx.front();
      return true;
    }
    const uint32_t out = f.snd_nxt - f.snd_una;
    const uint32_t flight = out - std::min(out, f.dupacks);
    if (f.snd_nxt < f.npkts && flight < std::max(1.0, std::floor(f.cwnd))) {
      *seq = f.snd_nxt;
      return true;
    }
    return false;
  }

  bool take(uint32_t flow, uint32_t* seq) override {
    S& f = st_[flow];
    if (!peek(flow, seq)) return false;
    if (!f.retx.empty() && f.retx.front() == *seq) f.retx.erase(f.retx.begin());
    else ++f.snd_nxt;
    if (*seq >= f.high_sent) {
      f.high_sent = *seq + 1;
      if (!f.timing) {
        f.timing = true;
        f.timed_seq = *seq;
        f.timed_at = env_.now();
      }
    }
    return true;
  }

  void sent(uint32_t flow, uint32_t) override {
    S& f = st_[flow];
    if (f.timer.at == kNever) f.timer.start(env_, flow, env_.now() + rto(f), 0);
  }

  void on_feedback(uint32_t flow, const TransportPkt& p) override {
    S& f = st_[flow];
    if (p.seq > f.snd_una) {
      const uint32_t newly = p.seq - f.snd_una;
      if (f.timing && p.seq > f.timed_seq) {
        rtt_sample(f, env_.now() - f.timed_at);
        f.timing = false;
      }
      f.acked += newly;
      if (p.ce) f.marked += newly;
      f.snd_una = p.seq;
      if (f.snd_nxt < f.snd_una) f.snd_nxt = f.snd_una;
      f.backoff = 0;
      if (f.snd_una >= f.npkts) {
        env_.sender_complete(flow);
        return;
      }
      if (f.recovering) {
        if (f.snd_una >= f.recover) {
          f.recovering = false;
          f.cwnd = f.ssthresh;
        } else {
          resend_if_lost(f);  // partial ACK
        }
      } else if (f.cwnd < f.ssthresh) {
        f.cwnd += newly;
      } else {
        f.cwnd += newly / f.cwnd;
      }
      f.dupacks = 0;
      if (f.snd_una >= f.alpha_end) {
        const double frac = f.acked ? static_cast<double>(f.marked) / static_cast<double>(f.acked) : 0.0;
        f.alpha = (1 - g_) * f.alpha + g_ * frac;
        f.acked = f.marked = 0;
        f.alpha_end = f.snd_nxt;
      }
      if (f.snd_nxt > f.snd_una) f.timer.start(env_, flow, env_.now() + rto(f), 0);
      else f.timer.stop();
    } else if (p.seq == f.snd_una && f.snd_nxt > f.snd_una) {
      ++f.acked;
      if (p.ce) ++f.marked;
      if (p.sack) f.high_sack = std::max(f.high_sack, p.sack + 1);
      if (++f.dupacks == cfg_.dupacks && !f.recovering) {
        f.recovering = true;
        f.recover = f.snd_nxt;
        f.ssthresh = std::max(2.0, f.cwnd / 2);
        f.cwnd = f.ssthresh;
        f.retx.push_back(f.snd_una);
        f.rtx_mark = f.snd_una + 1;
        f.timing = false;
      } else if (f.recovering) {
        resend_if_lost(f);
      }
    }
    if (cfg_.ecn && p.ce && !f.recovering && f.snd_una >= f.cut_end) {
      f.cwnd = std::max(2.0, f.cwnd * (1 - f.alpha / 2));
      f.ssthresh = f.cwnd;
      f.cut_end = f.snd_nxt;
    }
    env_.wake(flow);
  }

  void on_data(uint32_t flow, const TransportPkt& p) override {
    S& f = st_[flow];
    RxState& rx = f.rx;
    if (p.seq == rx.rcv_nxt) {
      if (p.ce != f.ce_state && rx.since_ack > 0) {
        env_.feedback(flow, PktType::Ack, rx.rcv_nxt, 0, f.ce_state);
        rx.since_ack = 0;
      }
      f.ce_state = p.ce;
      const bool filled = rx.accept(env_, flow, f.npkts) > 1;
      if (f.holding && rx.rcv_nxt > f.hold_at) {  // the gap closed in time: no duplicate ACKs
        f.holding = false;
        f.held_pkts = 0;
        f.held_high = 0;
        f.held_ce = false;
        f.hold_timer.stop();
      }
      if (rx.rcv_nxt >= f.npkts) {
        env_.receiver_complete(flow);
      } else if (filled || ++rx.since_ack >= ack_every_) {
        rx.since_ack = 0;
        env_.feedback(flow, PktType::Ack, rx.rcv_nxt, 0, p.ce);
      }
    } else if (p.seq > rx.rcv_nxt) {
      if (rx.held.test(p.seq)) env_.duplicate(flow);
      env_.out_of_order(flow);
      rx.held.set(p.seq, f.npkts);
      if (cfg_.shim == 0) {
        env_.feedback(flow, PktType::Ack, rx.rcv_nxt, p.seq, p.ce);
        return;
      }
      ++f.held_pkts;
      f.held_high = std::max(f.held_high, p.seq);
      f.held_ce = f.held_ce || p.ce;
      if (!f.holding) {
        f.holding = true;
        f.hold_at = rx.rcv_nxt;
        f.hold_timer.start(env_, flow, env_.now() + cfg_.shim, kReceiverTimer);
      }
    } else {
      env_.duplicate(flow);
      env_.feedback(flow, PktType::Ack, rx.rcv_nxt, 0, p.ce);
    }
  }

  void on_timer(uint32_t flow, uint32_t token) override {
    S& f = st_[flow];
    if (token & kReceiverTimer) {
      if (!f.hold_timer.fired(env_, flow, token, kReceiverTimer)) return;
      if (f.holding && f.rx.rcv_nxt == f.hold_at && f.rx.rcv_nxt < f.npkts) {
        for (uint32_t i = 0; i < f.held_pkts; ++i) env_.feedback(flow, PktType::Ack, f.rx.rcv_nxt, f.held_high, f.held_ce);
      }
      f.holding = false;
      f.held_pkts = 0;
      f.held_high = 0;
      f.held_ce = false;
      return;
    }
    if (!f.open || !f.timer.fired(env_, flow, token, 0)) return;
    if (f.snd_una >= f.snd_nxt) return;
    f.ssthresh = std::max(2.0, (f.snd_nxt - f.snd_una) / 2.0);
    f.cwnd = 1;
    f.snd_nxt = f.snd_una;
    f.retx.clear();
    f.recovering = false;
    f.dupacks = 0;
    f.timing = false;
    f.backoff = std::min(f.backoff + 1, 6u);
    f.timer.start(env_, flow, env_.now() + rto(f), 0);
    env_.wake(flow);
  }

  void close_sender(uint32_t flow) override {
    S& f = st_[flow];
    f.open = false;
    f.timer.stop();
    std::vector<uint32_t>().swap(f.retx);
  }

  void close_receiver(uint32_t flow) override {
    S& f = st_[flow];
    f.rx.held.release();
    f.holding = false;
  }

 private:
  struct S {
    uint32_t npkts = 0;
    uint32_t snd_nxt = 0, snd_una = 0, high_sent = 0;
    double cwnd = 1, ssthresh = 1e12, alpha = 1;
    uint32_t dupacks = 0, recover = 0, alpha_end = 0, cut_end = 0;
    uint32_t high_sack = 0;  // one above the highest packet a duplicate ACK reported
    uint32_t rtx_mark = 0;   // packets below this were resent in this recovery
    uint64_t acked = 0, marked = 0;
    bool open = false, recovering = false, timing = false;
    uint32_t timed_seq = 0;
    Time timed_at = 0, srtt = 0, rttvar = 0;
    unsigned backoff = 0;
    std::vector<uint32_t> retx;
    Deadline timer;
    // receiver
    RxState rx;
    bool ce_state = false, holding = false, held_ce = false;
    uint32_t hold_at = 0, held_pkts = 0, held_high = 0;
    Deadline hold_timer;
  };

  void resend_if_lost(S& f) {
    if (f.snd_una >= f.rtx_mark && f.high_sack >= f.snd_una + 1 + cfg_.dupacks) {
      f.retx.push_back(f.snd_una);
      f.rtx_mark = f.snd_una + 1;
    }
  }

  void rtt_sample(S& f, Time r) {
    if (f.srtt == 0) {
      f.srtt = r;
      f.rttvar = r / 2;
    } else {
      const Time d = f.srtt > r ? f.srtt - r : r - f.srtt;
      f.rttvar = (3 * f.rttvar + d) / 4;
      f.srtt = (7 * f.srtt + r) / 8;
    }
  }

  Time rto(const S& f) const {
    const Time base = std::max<Time>(cfg_.min_rto, f.srtt + 4 * f.rttvar);
    return base << f.backoff;
  }

  TransportEnv& env_;
  const DctcpCfg cfg_;
  const unsigned ack_every_;
  const double g_;
  std::vector<S> st_;
};

}  // namespace

std::unique_ptr<Transport> make_dctcp(const TransportContext& c) { return std::make_unique<Dctcp>(c); }

}  // namespace ll::sim
