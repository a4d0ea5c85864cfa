// What a scenario says about the network's behaviour (sections "switch", "nic",
// "balancer" and "report" of a scenario file; schema in sim/SCENARIO.md). Every field has
// a default, so a scenario without these sections runs a RoCEv2 fabric with PFC, RED/ECN
// marking, DCQCN in its NIC variant, ECMP and a go-back-N receiver.
//
// The values configure the golden models (cpp_model/): the marker's profile, the PFC
// block's settings, the DRILL selector's mode and the DCQCN block's registers. None of
// the blocks' algorithms is written here or anywhere else in sim/.
#pragma once
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/time.h"

namespace ll::sim {

// The hardware size of each block in the simulated switches and NICs, in one place: the
// models are built with these parameters (named as the RTL's), and every clamp the data
// path applies (queue lengths the marker sees, occupancies the selector sees) is derived
// from the model's configuration, never written as a number of its own.
struct BlockSizes {
  static constexpr unsigned kMarkerQW = 24;          // marker queue-length width: 16 MB
  static constexpr unsigned kMarkerQueuesPerPort = 8; // marker queue = port * 8 + priority
  static constexpr unsigned kPfcCntW = 24;           // PFC byte counters: 16 MB per queue
  static constexpr unsigned kPfcTimerW = 20;         // PFC refresh / watchdog timers
  static constexpr unsigned kDrillOccW = 16;         // selector occupancy, 64-byte cells
  static constexpr unsigned kDrillOccCellLog2 = 6;   // 64-byte cells
  static constexpr unsigned kDrillHashW = 32;
  static constexpr unsigned kDrillFlowEntries = 4096;
  static constexpr unsigned kDrillComps = 64;
  static constexpr unsigned kDcqcnBytesW = 14;       // packet-size field: 16383 B
  static constexpr uint64_t kDcqcnTickPs = 1000;     // 1 ns time base
};

// Priorities used by the simulated RoCEv2 traffic.
constexpr unsigned kDataPrio = 3;     // RDMA data: the lossless class
constexpr unsigned kControlPrio = 6;  // ACK / NACK / CNP: strict priority, lossy

struct MarkerCfg {
  bool enable = true;
  std::string mode = "red";     // "red" (Kmin/Kmax/Pmax) or "cutoff" (mark above Kmin)
  uint64_t kmin = 5'000;        // bytes (DCQCN paper: 5 KB)
  uint64_t kmax = 200'000;      // bytes (DCQCN paper: 200 KB)
  double pmax = 0.01;           // (DCQCN paper: 1%)
  unsigned ewma_shift = 0;      // 0: instantaneous queue; w > 0: EWMA with weight 2^-w
  bool dequeue = false;         // mark at dequeue instead of enqueue
};

struct PfcCfg {
  bool enable = true;           // false: no PAUSE; lossless-class drops become legal
  bool dynamic = false;         // dynamic XOFF threshold (alpha x free shared buffer); see docs/sim.md
  int alpha_shift = -1;         // dynamic: alpha = 2^alpha_shift (-8..7)
  uint64_t xoff = 0;            // static XOFF threshold, bytes; 0 = pfc_buffer_calc's t_PFC for the switch
  uint64_t xon_offset = 0;      // XON = XOFF - offset, bytes; 0 = the headroom (see docs/sim.md)
  uint64_t buffer = 12'000'000; // shared buffer per switch, bytes (Trident II: 12 MB)
  uint64_t headroom = 0;        // per ingress queue, bytes; 0 = derived from link speed and delay
  uint64_t reserved = 0;        // reserved minimum per ingress queue, bytes
  unsigned tick_ns = 1'000;     // PFC block time base
  Time watchdog_detect = 0;     // 0 = watchdog off
  Time watchdog_restore = 0;
  bool allow_lossless_drops = false;  // a scenario that wants to see them (PFC disabled)
  bool pool = false;            // the block's pool mode (SONiC): egress pools enforced, shared headroom pool
  int lossy_alpha_shift = -1;   // pool mode: lossy egress threshold alpha = 2^shift (default: alpha_shift)
  uint64_t lossy_buffer = 0;    // pool mode: egress lossy pool, bytes; 0 = the buffer
};

struct SchedCfg {
  std::string policy = "sp";    // egress among data priorities: "sp" or "wrr"
  unsigned weights[8] = {1, 1, 1, 1, 1, 1, 1, 1};  // WRR weights (quantum = weight x MTU)
};

struct SwitchCfg {
  MarkerCfg marker;
  PfcCfg pfc;
  SchedCfg sched;
};

struct BalancerCfg {
  std::string mode = "ecmp";    // ecmp, random, rr, drill, per_flow
  unsigned d = 2, m = 1;        // DRILL(d, m)
  unsigned engines = 1;         // selector engines per switch (ingress port i -> engine i mod E)
  bool components = false;      // symmetric components from the control plane (asymmetric fabrics)
  Time occupancy_period = 0;    // 0: the balancer sees every egress-queue change at once; > 0: a snapshot of
                                // every fabric port this often (stale occupancy, as the RTL's OccLag)
  Time flowlet_gap = 0;         // LetFlow: 0 = 500 us x 10 Gb/s / the switch's fastest fabric port
  unsigned flowlet_entries = 65536;  // LetFlow: flowlet table entries (power of 2), indexed by the flow hash
  uint64_t flowcell = 65536;    // Presto: flowcell bytes (payload)
  Time conga_t_dre = 20 * kUs;  // CONGA: DRE decay period
  double conga_alpha = 0.1;     // CONGA: DRE decay factor
  Time conga_age = 10 * kMs;    // CONGA: a table entry older than this counts as 0
  Time cw_reply_extra = 4 * kUs;     // ConWeave: RTT_REPLY deadline = base RTT + this
  Time cw_expiry = 1000 * kUs;       // ConWeave: epoch expiry / CLEAR wait
  Time cw_flush_extra = 32 * kUs;    // ConWeave: reorder flush = expected tail + this
  Time cw_default_wait = 500 * kUs;  // ConWeave: reorder flush without a delay sample
};

struct DcqcnCfg {
  bool enable = true;
  std::string variant = "nic";  // "nic" or "paper"
  unsigned g_shift = 8;         // g = 2^-g_shift
  Time alpha_period = 1 * kUs;  // NIC: alpha update period; paper: alpha timer K
  Time dec_period = 4 * kUs;    // NIC: decrease check period
  Time inc_period = 300 * kUs;  // increase timer
  uint64_t byte_reset = 0;      // byte counter, bytes (0 = off)
  unsigned threshold = 1;       // F
  uint64_t rai = 20'000'000;    // R_AI, bits/s
  uint64_t rhai = 200'000'000;  // R_HAI, bits/s
  uint64_t rmin = 1'000'000'000;
  bool clamp_target = false;
  bool np_per_packet = false;   // NP: CNP for every marked packet (else coalesced)
  Time np_interval = 0;         // NP: at most one CNP per flow per interval
};

// IRN (Mittal et al., SIGCOMM'18): defaults from the paper.
struct IrnCfg {
  Time rto_high = 320 * kUs;    // timeout with more than rto_low_pkts unacknowledged
  Time rto_low = 100 * kUs;     // timeout with at most rto_low_pkts unacknowledged
  unsigned rto_low_pkts = 3;    // the paper's N
  uint64_t bdp_cap = 0;         // packets in flight; 0 = BDP of the longest path at the host link rate
  unsigned reorder = 1;         // lost when a packet this far above is SACKed (IRN: 1)
};

// DCTCP (Alizadeh et al., SIGCOMM'10; RFC 8257) over a NewReno-style TCP.
struct DctcpCfg {
  bool ecn = true;              // false: no ECN reaction (a NewReno-style TCP)
  unsigned g_shift = 4;         // g = 2^-g_shift (DCTCP paper: 1/16)
  Time min_rto = 1 * kMs;       // the simulator's default (Linux: 200 ms)
  unsigned init_cwnd = 10;      // packets (RFC 6928)
  unsigned dupacks = 3;         // duplicate ACKs that trigger fast retransmit
  Time shim = 0;                // reorder shim hold time at the receiver; 0 = off
};

// The receiving NIC's reorder buffer (sim/reorder_buffer.h): `slots` packets per QP, 0 = off.
struct ReorderCfg {
  uint32_t slots = 0;
  Time timeout = 50 * kUs;      // a gap open this long is given up (the simulator's choice)
};

// A group of hosts whose NICs differ from the fleet's (a mixed fleet, e.g. NIC generations
// with NP-side vs RP-side CNP coalescing): their DCQCN block is configured from `dcqcn`.
struct NicGroup {
  std::string name;
  std::vector<uint32_t> hosts;  // host node ids
  DcqcnCfg dcqcn;
};

struct NicCfg {
  DcqcnCfg dcqcn;
  std::vector<NicGroup> groups;  // later groups win for a host named twice
  std::string transport = "gbn"; // a name of the transport registry (sim/transport.cpp)
  IrnCfg irn;
  DctcpCfg dctcp;
  ReorderCfg reorder;
  uint64_t mtu = 1'000;          // payload bytes per packet
  unsigned ack_every = 1;        // ACK after this many in-order packets (and at the end)
  Time rto = 4 * kMs;            // retransmission timeout
  unsigned qps = 256;            // QP slots per NIC (the DCQCN block's Queues)
};

struct ReportCfg {
  Time sample_period = 10 * kUs;  // queue-STDV sampling
  bool paused_series = false;     // write paused.csv: paused ports per tier at every sample
  Time rate_interval = 0;         // > 0: write rates.csv, goodput per sender and deepest queue every interval
};

// Faults a scenario injects (section "faults").
struct StallCfg {
  uint32_t host = 0;            // host node id
  Time from = 0, until = 0;     // the NIC stops draining its receive path in [from, until)
};
struct FaultCfg {
  double loss_rate = 0;         // probability that a data packet is lost on a link it crosses
  std::string loss_links = "all";  // "all", "host" (host - switch links), "fabric" (switch - switch)
  std::vector<StallCfg> stalls;
};

// Section "cosim" (docs/cosim.md): which blocks of which nodes run as Verilated RTL
// instead of their golden model. Needs a binary built with co-simulation (make cosim).
struct CosimCfg {
  std::map<uint32_t, std::vector<std::string>> blocks;  // node id -> block names, sorted, unique
  // cosim.model: the named blocks run as their models (a NIC's DCQCN block through the same
  // cycle recipe as its RTL, sim/dcqcn_recipe.h): the pure-model run of a comparison
  bool model = false;
  bool empty() const { return blocks.empty() || model; }  // no block runs as RTL
  // cosim.trace: an FST of one RTL block's signals while the simulated time is in [from, to)
  bool trace = false;
  uint32_t trace_node = 0;
  std::string trace_block;
  Time trace_from = 0, trace_to = 0;
  bool wants(uint32_t node, const std::string& block) const { return !model && named(node, block); }  // as RTL
  bool named(uint32_t node, const std::string& block) const {
    const auto it = blocks.find(node);
    return it != blocks.end() && std::find(it->second.begin(), it->second.end(), block) != it->second.end();
  }
};

struct NetConfig {
  CosimCfg cosim;
  SwitchCfg sw;
  NicCfg nic;
  BalancerCfg balancer;
  ReportCfg report;
  FaultCfg faults;
};

// Bytes a packet adds to its payload on the wire: Ethernet 14 + IPv4 20 + UDP 8 +
// BTH 12 + ICRC 4 + FCS 4.
constexpr uint32_t kHeaderBytes = 62;
constexpr uint32_t kControlBytes = 64;  // ACK, NACK, CNP and PFC frames

}  // namespace ll::sim
