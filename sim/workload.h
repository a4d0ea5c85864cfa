// Workloads: flow-size distributions (CDF files), arrival processes and traffic patterns,
// turned into a list of flows before the run. Nothing here depends on the network's
// behaviour except shuffle's "start after the previous flow finished" chaining, which is
// recorded in Flow::after for the simulator to honour.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/rng.h"
#include "sim/time.h"
#include "sim/topology.h"

namespace ll::sim {

// A flow-size distribution in the format of sim/workloads/README.md: one point a line,
// "flow_size_bytes cumulative_fraction", both non-decreasing, the last fraction 1;
// '#' comments and blank lines are allowed. Sizes between points are interpolated
// linearly; a first fraction above 0 is a point mass at the first size.
struct CdfPoint {
  double bytes;
  double fraction;
};

class Cdf {
 public:
  // Throws std::invalid_argument("<path>:<line>: <what>") on a missing or bad file.
  static Cdf load(const std::string& path);
  // Same checks on points given in memory; `origin` names them in errors.
  static Cdf from_points(std::vector<CdfPoint> points, const std::string& origin);

  // The size at cumulative fraction u in [0, 1], interpolated, rounded to whole bytes,
  // at least 1 byte.
  uint64_t quantile(double u) const;
  uint64_t sample(Rng& rng) const { return quantile(rng.uniform()); }
  // Mean of the interpolated (continuous) distribution, in bytes.
  double mean() const { return mean_; }
  const std::vector<CdfPoint>& points() const { return points_; }
  const std::string& origin() const { return origin_; }

 private:
  std::vector<CdfPoint> points_;
  std::string origin_;
  double mean_ = 0;
};

constexpr uint64_t kNoFlow = ~uint64_t{0};

struct Flow {
  uint64_t id = 0;         // index in the generated list
  NodeId src = 0, dst = 0;  // host indices
  uint64_t bytes = 0;
  Time start = 0;           // not before this time
  uint64_t after = kNoFlow; // and not before flow `after` has finished (shuffle chains)
  uint32_t source = 0;      // index of the traffic entry that made it
};

enum class Pattern { Permutation, Stride, Random, Pairs, Shuffle, Incast, File };
enum class Arrival { Once, Poisson };
const char* pattern_name(Pattern p);

// Flow sizes: a CDF, or one fixed size.
struct SizeDist {
  std::shared_ptr<const Cdf> cdf;
  uint64_t fixed = 0;
  uint64_t sample(Rng& rng) const { return cdf ? cdf->sample(rng) : fixed; }
  double mean() const { return cdf ? cdf->mean() : static_cast<double>(fixed); }
  std::string describe() const;
};

// One traffic source of a scenario. Senders are all hosts (Permutation, Stride, Random,
// Shuffle), the chosen pairs (Pairs), the incast senders (Incast) or the file's flows.
//  Permutation: host i sends to p(i), p a random permutation without fixed points.
//  Stride(x):   host i sends to (i + x) mod N.
//  Random:      every flow to a uniformly drawn other host.
//  Pairs(n):    n distinct random (src, dst) pairs (the DCQCN benchmark's user traffic).
//  Shuffle:     every host sends one flow to every other host, in a random order, each
//               flow starting when its previous one has finished.
//  Incast(K):   K distinct random senders send one flow each to one receiver at the same
//               time; `repeat` rounds `interval` apart, a new draw each round.
//  File:        the flows of a flow-list file (times relative to `start`).
// Arrival Once: one flow per sender (per pair) at `start`. Poisson: each sender starts
// flows at exponentially distributed intervals so that the expected offered load on its
// host link is `load` (flow bytes, i.e. payload: rate = load * link_bps / (8 * mean
// size)); a Pairs sender with several pairs splits its load evenly among them.
struct TrafficSpec {
  Pattern pattern = Pattern::Random;
  Arrival arrival = Arrival::Once;
  SizeDist size;
  double load = 0;
  bool load_on_uplinks = false; // load is of the edge switches' uplink capacity per host (oversubscribed tier)
  Time start = 0;
  Time stop = kNever;           // Poisson: no flow starts at or after stop
  uint32_t stride = 1;          // Stride
  uint32_t pairs = 0;           // Pairs
  uint32_t incast_senders = 0;  // Incast: K
  int64_t incast_receiver = -1; // Incast: fixed receiver host, or -1 for a random one
  uint32_t incast_receivers = 1;  // Incast: receivers per round (random, distinct), each with its own senders
  uint32_t repeat = 1;          // Incast
  Time interval = 0;            // Incast
  std::vector<Flow> file_flows; // File (src, dst, bytes, start)
  std::string file;             // File: where they came from

  // std::invalid_argument("<field>: <what>") for parameters impossible on `hosts` hosts.
  void validate(size_t hosts) const;
};

// Reads a flow list: one flow a line, "start src dst size" ("10us h3 h7 2MB"; hosts by
// name or index, size in bytes with optional unit); '#' comments and blank lines allowed.
// Throws std::invalid_argument("<path>:<line>: <what>").
std::vector<Flow> load_flow_file(const std::string& path, const Topology& topo);

// Most flows one scenario may generate (a guard against a typo in load or duration).
constexpr uint64_t kMaxFlows = 100'000'000;

// Expected number of flows of a Poisson entry (an upper bound for Pairs), 0 otherwise.
double expected_flow_count(const TrafficSpec& s, const Topology& topo);
// The flows an entry generates: the expected count of a Poisson entry, the exact count of
// the others (one a host, a pair, every ordered pair for Shuffle, senders x receivers x
// rounds for Incast, the file's lines).
double flow_count(const TrafficSpec& s, const Topology& topo);

// All flows of all entries, sorted by (start, entry, generation order), ids 0..n-1.
// Entry i draws from its own stream derived from (seed, i).
std::vector<Flow> generate_flows(const std::vector<TrafficSpec>& specs, const Topology& topo,
                                 uint64_t seed);

}  // namespace ll::sim
