// The packet-level fabric: switches and NICs built from the golden models, driven by the
// event core. Docs: docs/sim.md ("Data path").
//
// Switch (per node): one RED/ECN marker (ll::marker::Model, a queue per port x priority),
// one PFC block (ll::pfc::Model: shared-buffer admission, XOFF/XON, headroom, PAUSE
// reception, watchdog), one load-balancing selector (ll::drill::Model in the scenario's
// mode, E engines, optional symmetric components from ll::drill::cp), and the output
// queues with strict-priority / weighted-round-robin egress (the switch's queueing, not a
// block of this project).
// NIC (per host): one DCQCN block (ll::dcqcn::Model: NP, RP and the rate limiter's
// departure times) over a pool of QP slots, PAUSE response, and a transport from the
// transport registry (sim/transport.h: go-back-N, selective repeat, IRN, DCTCP).
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/balancer.h"
#include "sim/event_queue.h"
#include "sim/net_config.h"
#include "sim/reorder_buffer.h"
#include "sim/rng.h"
#include "sim/routing.h"
#include "sim/scenario.h"
#include "sim/transport.h"
#include "sim/workload.h"

namespace ll::marker { class Model; }
namespace ll::sim::cosim { class MarkerRtl; class PfcFace; class DcqcnCycle; struct BlockStats; }
namespace ll::pfc { class Model; }
namespace ll::dcqcn { class Model; }

namespace ll::sim {

struct Packet {
  uint32_t flow = 0;
  uint32_t seq = 0;         // data: packet number; ACK: next expected; NACK: the missing one
  uint32_t sack = 0;        // NACK (IRN): the packet that triggered it
  NodeId src = 0, dst = 0;  // hosts (PAUSE: unused)
  NodeId at_node = 0;       // the node the packet travels to or waits in
  uint32_t at_port = 0;     // the port of at_node it arrived on
  uint32_t hash = 0;        // flow hash (the 5-tuple's)
  uint16_t wire = 0;        // bytes on the wire
  uint16_t payload = 0;
  uint16_t quanta = 0;      // PAUSE: quanta (0 = RESUME)
  BalancerHeader lb;        // balancer fields (Presto's label, CONGA's tags and metrics)
  PktType type = PktType::Data;
  uint8_t prio = 0;
  bool ce = false;          // data: Congestion Experienced; ACK: ECN echo (DCTCP)
  bool retx = false;        // data: a packet of the flow sent before (a retransmission)
  Time enq = 0;             // when it joined the switch egress queue it waits in
};

// Why a packet was dropped (the summary's "drops by cause").
enum Cause : unsigned { kDropBuffer = 0, kDropLosslessBuffer, kDropRed, kDropWatchdog, kDropLoss, kDropCauses };
const char* cause_name(unsigned c);

// Counters per switch tier (and "host" for what NICs see).
struct TierStats {
  uint64_t pause_sent = 0, resume_sent = 0, pause_received = 0;
  uint64_t ecn_marks = 0;
  uint64_t drops[kDropCauses] = {};
  uint64_t wd_storms = 0, wd_restores = 0, headroom_violations = 0;
  double stdv_sum = 0;      // sum over samples and switches of the queue STDV (bytes)
  uint64_t stdv_samples = 0;
  uint64_t max_queue = 0;   // deepest egress queue seen (bytes)
  // At each queue sample inside run.window: the deepest data-priority egress queue of the
  // tier's switches (bytes), for queue-length percentiles.
  std::vector<uint32_t> deepest;
  // Ports whose data priority is paused by a received PAUSE (switch egress ports, or hosts
  // for the host tier), at each queue sample: the most at once and the sum over samples.
  uint64_t paused_max = 0, paused_sum = 0, paused_samples = 0;
  // Per-hop queueing (DRILL paper's figure 6c): data packets that left one of the tier's
  // egress queues inside run.window, [0] towards a higher tier (up), [1] down, and the sum
  // of the time each waited from joining the queue to starting on the wire.
  uint64_t queued_pkts[2] = {};
  Time queued_time[2] = {};
};

// One row of rates.csv (report.rate_interval): goodput per sending host over the interval
// that ends at t (bits/s), and the deepest data egress queue of any switch at t (bytes).
struct RateSample {
  Time t;
  std::vector<double> bps;
  uint64_t deepest;
};

// One row of paused.csv (report.paused_series): paused ports per tier at a sample.
struct PausedSample {
  Time t;
  std::vector<uint32_t> per_tier;
};

struct FlowResult {
  const Flow* flow = nullptr;
  Time start = 0;           // first packet could leave (QP granted)
  Time finish = kNever;     // receiver has every byte
  Time first_sent = kNever; // sender: first data packet on the wire
  Time acked = kNever;      // sender: every byte acknowledged
  Time ideal = 0;           // unloaded-fabric FCT (flow start to the last byte received)
  Time ideal_sender = 0;    // same, to the last ACK back at the sender
  Time ideal_base_rtt = 0;  // base RTT of the path + wire bytes at the host rate (ns-3 RDMA simulators' form)
  uint32_t retx = 0;        // data packets sent again
  uint32_t ooo = 0;         // data packets that arrived out of order
  uint32_t dupacks = 0;     // ACKs the receiver sent with the same cumulative number as its previous one
  uint32_t dup_rx = 0;      // data packets that reached the receiver again (spurious retransmissions)
  uint32_t reordered = 0;   // first transmissions that arrived after a higher-numbered packet
  bool done() const { return finish != kNever; }
};

struct RunTotals {
  uint64_t data_injected = 0;     // data packets put on a host link (retransmissions too)
  uint64_t data_delivered = 0;    // data packets that reached their destination NIC
  uint64_t data_dropped = 0;      // data packets dropped (any cause)
  uint64_t data_in_flight = 0;    // data packets still in the fabric at the end
  uint64_t data_hops = 0;         // data packet link traversals
  uint64_t control_dropped = 0;
  uint64_t lossless_drops = 0;
  uint64_t cnps_sent = 0, cnps_received = 0;
  uint64_t events = 0;
  uint64_t qp_waits = 0;          // flows that waited for a free QP slot
  uint64_t selector_decisions = 0;
  uint64_t balancer_control = 0;  // balancer control packets sent (ConWeave's RTT_REPLY, CLEAR)
  uint64_t reorder_held = 0;      // packets a balancer held in a reorder queue
  uint64_t reorder_max = 0;       // most packets held at once in one switch
  Time first_mark = kNever;       // the first ECN mark anywhere
  Time first_pause = kNever;      // the first PAUSE a switch sent
  uint64_t pauses_before_mark = 0;  // PAUSE frames switches sent before the first ECN mark
  std::vector<uint64_t> port_packets;  // per switch port (global index): data packets sent
};

class Network : public EventHandler, private TransportEnv, private BalancerEnv {
 public:
  Network(const Scenario& s, const std::vector<Flow>& flows);
  ~Network() override;
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;

  // Runs until the scenario's duration, or with run.until = "all_done" until every flow
  // finished or the cap; either way it stops early when nothing is left to do. `progress`
  // (may be empty) is called about every `every` of simulated time.
  void run(const std::function<void(Time now, uint64_t events)>& progress = {}, Time every = 0);

  const Scenario& scenario() const { return s_; }
  const Routing& routing() const { return routing_; }
  const std::vector<FlowResult>& flows() const { return results_; }
  const std::vector<std::string>& tiers() const { return tier_names_; }
  const std::vector<TierStats>& tier_stats() const { return tier_stats_; }
  // nic.reorder: the buffer (nullptr when off) and the most bytes any one NIC held at once.
  const ReorderBuffer* reorder_buffer() const { return rob_.get(); }
  uint64_t reorder_peak_bytes() const;
  const RunTotals& totals() const { return totals_; }
  Time now() const override { return sim_.now(); }
  // When the run ended and why: "idle" (every flow that starts within the duration
  // finished and no packet is left), "duration", or "cap" (all_done hit run.cap).
  Time ended_at() const { return ended_at_; }
  const char* ended_by() const {
    return !deadlock_.empty() ? "deadlock" : idle_ ? "idle" : s_.run.all_done ? "cap" : "duration";
  }
  // A PFC deadlock that ended the run: the cycle of switches whose data egress towards the
  // next one stayed paused with packets waiting and sent nothing for run.deadlock_after,
  // e.g. "leaf0 -> spine0 -> leaf0"; empty if none.
  const std::string& deadlock() const { return deadlock_; }
  // Bytes delivered per sender host (payload, in order).
  const std::vector<uint64_t>& delivered_by_sender() const { return delivered_by_sender_; }
  // The same, delivered within run.window (from its start to its end or the run's end).
  std::vector<uint64_t> delivered_in_window() const;
  // Conservation: injected == delivered + dropped + in flight (data packets); empty if
  // it holds, else what is wrong.
  std::string conservation_error() const;
  // A lossless drop with PFC on (not asked for by the scenario): empty if none.
  std::string lossless_error() const;
  // report.paused_series: paused ports per tier at every queue sample.
  const std::vector<PausedSample>& paused_series() const { return paused_series_; }
  // report.rate_interval: the hosts that send (rates.csv's columns) and the rows.
  const std::vector<NodeId>& rate_hosts() const { return rate_hosts_; }
  const std::vector<RateSample>& rate_series() const { return rate_series_; }
  // The balancers' event counters, summed over switches by name.
  std::vector<std::pair<std::string, uint64_t>> balancer_counters() const;
  // Co-simulation: what every RTL block adapter did (docs/cosim.md); empty without "cosim".
  std::vector<cosim::BlockStats> cosim_stats() const;
  // How many data packets each fabric port of switch `node` sent (by port).
  std::vector<uint64_t> port_packets(NodeId node) const;

  void handle(const Event& ev) override;

  // For transport tests: the first transmission of data packet `seq` of `flow` is dropped
  // on the sender's link / reaches the first switch `extra` late. Call before run().
  void test_drop(uint32_t flow, uint32_t seq) { test_hooks_.push_back({flow, seq, kNever}); }
  void test_delay(uint32_t flow, uint32_t seq, Time extra) { test_hooks_.push_back({flow, seq, extra}); }
  // For deadlock tests: switch `node`'s data priority on `port` is held as if paused for good.
  void test_hold(NodeId node, PortId port) { switches_.at(static_cast<size_t>(switch_of_.at(node))).eg.at(port).test_held = true; }
  // The cap on IRN's packets in flight the fabric gives (its longest path's BDP).
  uint32_t bdp_packets() const;

 private:
  enum Kind : uint32_t { kArrive, kTxDone, kHostWake, kFlowStart, kTimer, kPfcTick, kSample, kWindow, kBalTimer, kStall, kRate, kOccSnap, kRobTimer, kDcqcnPoll };

  struct Fifo {
    std::deque<uint32_t> q;
    uint64_t bytes = 0;
  };
  struct Egress {
    Fifo q[8];
    std::deque<uint32_t> frames;  // PFC frames: sent before anything else
    uint64_t bytes = 0;           // all priorities
    int64_t deficit[8] = {};
    unsigned rr = 0;
    bool test_held = false;       // test_hold: the data priority never leaves
  };
  struct Switch {
    NodeId node = 0;
    unsigned tier = 0;
    std::unique_ptr<marker::Model> marker;
    std::unique_ptr<cosim::MarkerRtl> marker_rtl;  // cosim: the marker's decisions come from the RTL
    std::unique_ptr<cosim::PfcFace> pfc;  // the PFC block: its model (cosim::PfcModel) or, in cosim, the RTL
    std::unique_ptr<Balancer> bal;    // with >= 2 fabric ports (sim/balancer.h)
    std::vector<uint8_t> fabric;      // port -> 1 for a fabric port (its occupancy feeds bal)
    uint64_t hash_seed = 0;           // this switch's hash-unit seed (scenario seed, switch id)
    std::vector<Egress> eg;
    std::vector<PortId> stdv_ports;   // the ports whose queues the STDV metric compares
    std::vector<uint8_t> down;        // port -> 1 if its peer is at a lower level (hop direction)
    uint64_t buffer_used = 0;         // without a PFC block (> 64 ports, PFC off)
    bool ticking = false;
    std::unordered_map<uint64_t, std::deque<uint32_t>> held;  // balancer reorder queues
    uint64_t held_now = 0;
    std::vector<uint64_t> releases;   // keys released while a packet was being handled
  };
  struct Slot {
    uint32_t flow = 0;
  };
  struct Departure {
    Time t;
    uint64_t seq;
    uint32_t flow;
    bool operator>(const Departure& o) const { return t != o.t ? t > o.t : seq > o.seq; }
  };
  struct Host {
    NodeId node = 0;
    uint64_t bps = 0;
    std::unique_ptr<dcqcn::Model> dcqcn;
    // cosim (docs/cosim.md, "dcqcn"): the block driven cycle by cycle (its model's cycle face
    // or the RTL); then every DCQCN call goes there, and a packet leaves when the wheel grants
    // its QP's token (token: per QP, one outstanding; qp_flow: the flow using each sending QP)
    std::unique_ptr<cosim::DcqcnCycle> dcqcn_cyc;
    std::vector<uint8_t> token;
    std::vector<uint32_t> qp_flow;
    uint32_t tokens_out = 0;
    bool polling = false;
    std::vector<uint32_t> free_slots;
    std::priority_queue<Departure, std::vector<Departure>, std::greater<Departure>> ready;
    std::deque<uint32_t> ctrl;        // ACK / NACK / CNP to send (strict priority)
    Time paused_until = 0;            // data priority held by a PAUSE
    Time wake_at = kNever;
  };
  struct FlowState {                  // the NIC's view; the transport keeps its own
    uint32_t npkts = 0;
    uint32_t sslot = 0, rslot = 0;
    uint32_t max_sent = 0;            // packets below this were sent at least once
    uint32_t last_ack = ~0u;          // receiver: the cumulative number of its previous ACK
    uint32_t rx_high = 0;             // receiver: one above the highest packet number arrived
    bool active = false, in_ready = false, sender_done = false;
  };
  struct TestHook {
    uint32_t flow, seq;
    Time extra;                       // kNever: drop
  };

  // construction
  void build_switch(NodeId n);
  void build_host(NodeId n);
  void build_components();
  void build_stdv_groups();
  void ideal_fct(FlowResult& r) const;

  // packets
  uint32_t alloc(const Packet& p);
  void release(uint32_t id);
  void transmit(NodeId n, PortId port, uint32_t id, Time extra = 0);
  bool port_wait(NodeId n, PortId port);  // true (and a kTxDone booked) if the port is busy
  void drop(uint32_t id, unsigned tier, unsigned cause);

  // switch
  void switch_arrive(Switch& sw, uint32_t id);
  void switch_forward(Switch& sw, uint32_t id);  // route, mark, admit, enqueue
  void flush_releases(Switch& sw);
  // BalancerEnv
  void send(NodeId from, NodeId to, const BalancerHeader& h) override;
  void release(NodeId at, uint64_t key) override;
  void timer(NodeId at, Time when, uint64_t token) override;
  PortId route(Switch& sw, Packet& p);
  void switch_kick(Switch& sw, PortId port);
  void update_occupancy(Switch& sw, PortId port);
  void occupancy_snapshot(Switch& sw);
  void mark(Switch& sw, Packet& p);
  void send_pauses(Switch& sw);
  void pfc_start_ticks(Switch& sw);
  void pfc_tick(Switch& sw);
  void sample_queues();
  void dcqcn_poll_later(Host& h);  // cosim dcqcn: the next wheel-slot poll while tokens wait
  void dcqcn_poll(Host& h);
  void stall_event(uint64_t arg);   // faults.stall: a stalled NIC's PAUSE refresh, or its end
  bool find_deadlock();             // at a sample: true once a wait cycle has lasted deadlock_after

  // host
  void host_arrive(Host& h, uint32_t id);
  void host_kick(Host& h);
  void host_wake_at(Host& h, Time t);
  void flow_start(uint32_t f);
  void flow_grant(uint32_t f);
  void retry_waiting();
  void schedule_next_start();
  void make_ready(uint32_t f);
  void send_control(Host& h, PktType type, uint32_t flow, uint32_t seq, NodeId to, uint32_t sack = 0, bool ece = false);
  uint32_t payload_of(uint32_t flow, uint32_t seq) const;  // payload bytes of packet seq
  void receiver_done(uint32_t f);
  void sender_done(uint32_t f);
  bool test_hook(uint32_t id, Time* extra);  // a test hook for this data packet (consumed)
  // TransportEnv
  void feedback(uint32_t flow, PktType type, uint32_t ack, uint32_t sack, bool ece) override;
  void wake(uint32_t flow) override { make_ready(flow); }
  void timer(uint32_t flow, Time at, uint32_t token) override;
  void delivered(uint32_t flow, uint32_t seq) override;
  void out_of_order(uint32_t flow) override { ++results_[flow].ooo; }
  void duplicate(uint32_t flow) override { ++results_[flow].dup_rx; }
  void receiver_complete(uint32_t flow) override { receiver_done(flow); }
  void sender_complete(uint32_t flow) override { sender_done(flow); }
  uint64_t ticks(Time t) const { return t / 1000; }  // DCQCN time base: 1 ns ticks

  const Scenario& s_;
  const NetConfig& cfg_;
  const Topology& topo_;
  Routing routing_;
  const std::vector<Flow>& flow_list_;
  Simulator sim_;
  std::vector<Packet> pkts_;
  std::vector<uint32_t> free_pkts_;
  std::vector<uint8_t> in_use_;
  std::vector<uint32_t> port_base_;     // node -> first global port index
  // Per global port: when its transmitter is free again, and whether a kTxDone event is
  // pending for that time. A port that goes idle after a packet schedules no event; a
  // packet that finds it busy asks for one (port_wait).
  std::vector<uint64_t> link_ps_per_byte_;  // exact serialization ps per byte, 0 if not whole
  std::vector<Time> port_free_;
  std::vector<uint8_t> port_event_;
  std::vector<int32_t> switch_of_;      // node -> index in switches_, -1 for hosts
  std::vector<Switch> switches_;
  std::vector<Host> hosts_;
  std::vector<FlowState> fs_;
  std::unique_ptr<Transport> transport_;
  std::unique_ptr<ReorderBuffer> rob_;  // nic.reorder: in front of the transport at every receiver
  std::vector<TransportPkt> rob_out_;   // what the buffer hands the transport now
  std::vector<uint64_t> rob_peak_;      // per host: the most bytes its reorder buffer held at once
  std::vector<uint64_t> rob_now_;       // per host: bytes it holds now
  void to_transport(uint32_t flow, const TransportPkt& p);  // through the reorder buffer if any
  std::vector<TestHook> test_hooks_;
  std::vector<FlowResult> results_;
  std::vector<std::vector<uint32_t>> successors_;  // flow -> flows that start after it
  std::vector<std::string> tier_names_;
  std::vector<TierStats> tier_stats_;
  unsigned host_tier_ = 0;
  std::vector<uint64_t> delivered_by_sender_;
  std::vector<uint64_t> delivered_from_, delivered_to_;  // snapshots at run.window's ends
  RunTotals totals_;
  std::deque<uint32_t> waiting_;        // flows waiting for QP slots, in start order
  size_t cursor_ = 0;                   // next flow in start order to schedule
  uint64_t seq_ = 0;
  uint64_t live_data_ = 0;
  uint64_t open_flows_ = 0;  // flows starting within the duration not yet finished at both ends
  Time ended_at_ = 0;
  bool idle_ = false;
  std::string deadlock_;
  std::vector<uint32_t> cycle_ports_;     // the wait cycle being watched (global port indices)
  std::vector<uint64_t> cycle_sent_;      // their data packets sent when it was seen
  Time cycle_since_ = kNever;
  void flow_closed();        // one more flow finished at both ends
  bool lossless_ = true;  // PFC on: data priority is lossless
  bool wrr_ = false;      // WRR among data priorities (else strict priority)
  Rng loss_rng_;          // faults.loss: which data packets a link loses
  std::vector<PausedSample> paused_series_;
  std::vector<std::vector<std::pair<uint32_t, PortId>>> stdv_groups_;  // top tier's downlinks per switch below
  unsigned stdv_top_tier_ = 0;
  std::vector<NodeId> rate_hosts_;
  std::vector<uint64_t> rate_last_;     // delivered_by_sender_ at the previous rate sample
  std::vector<RateSample> rate_series_;
  void rate_sample();
};

}  // namespace ll::sim
