#include "sim/workload.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "common/text_file.h"
#include "sim/units.h"

namespace ll::sim {
namespace {

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw std::invalid_argument(where + ": " + what);
}

// A whole input file, capped (common/text_file.h); errors name the file like fail() does.
std::string read_input(const std::string& path, const std::string& what) {
  try {
    return read_text_file(path, what);
  } catch (const std::runtime_error& e) {
    fail(path, e.what());
  }
}

bool parse_double(const std::string& tok, double& out) {
  if (tok.empty()) return false;
  char* end = nullptr;
  errno = 0;
  out = std::strtod(tok.c_str(), &end);
  return errno == 0 && end == tok.c_str() + tok.size() && std::isfinite(out);
}

// Splits a line into whitespace-separated tokens, dropping a '#' comment.
std::vector<std::string> tokens(const std::string& line) {
  std::istringstream in(line.substr(0, line.find('#')));
  std::vector<std::string> out;
  std::string t;
  while (in >> t) out.push_back(t);
  return out;
}

NodeId parse_host(const std::string& tok, const Topology& topo) {
  if (!tok.empty() && std::all_of(tok.begin(), tok.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    const unsigned long long v = std::strtoull(tok.c_str(), nullptr, 10);
    if (tok.size() > 12 || v >= topo.num_hosts()) {
      throw std::invalid_argument("host index " + tok + " out of range (" +
                                  std::to_string(topo.num_hosts()) + " hosts)");
    }
    return static_cast<NodeId>(v);
  }
  const NodeId n = topo.find(tok);
  if (!topo.is_host(n)) throw std::invalid_argument("\"" + tok + "\" is a switch, not a host");
  return n;
}

// A uniformly drawn permutation without fixed points (rejection: ~e tries on average).
std::vector<NodeId> derangement(size_t n, Rng& rng) {
  std::vector<NodeId> p(n);
  for (;;) {
    for (size_t i = 0; i < n; ++i) p[i] = static_cast<NodeId>(i);
    shuffle(p, rng);
    bool ok = true;
    for (size_t i = 0; i < n && ok; ++i) ok = p[i] != i;
    if (ok) return p;
  }
}

NodeId other_host(NodeId src, size_t hosts, Rng& rng) {
  NodeId d = static_cast<NodeId>(rng.below(hosts - 1));
  return d >= src ? d + 1 : d;
}

struct Tagged {
  Flow flow;
  uint64_t seq;  // generation order inside its entry
};

}  // namespace

Cdf Cdf::from_points(std::vector<CdfPoint> points, const std::string& origin) {
  if (points.empty()) fail(origin, "no points");
  for (size_t i = 0; i < points.size(); ++i) {
    const CdfPoint& p = points[i];
    const std::string at = origin + " point " + std::to_string(i + 1);
    if (!(p.bytes >= 0) || !std::isfinite(p.bytes)) fail(at, "flow size must be a finite number >= 0");
    if (!(p.fraction >= 0 && p.fraction <= 1)) fail(at, "cumulative fraction must be in [0, 1]");
    if (i > 0 && p.bytes < points[i - 1].bytes) fail(at, "flow sizes must be non-decreasing");
    if (i > 0 && p.fraction < points[i - 1].fraction) fail(at, "cumulative fractions must be non-decreasing");
  }
  if (std::fabs(points.back().fraction - 1.0) > 1e-9) {
    fail(origin, "the last cumulative fraction must be 1 (got " + std::to_string(points.back().fraction) + ")");
  }
  if (points.back().bytes < 1) fail(origin, "the largest flow size must be at least 1 byte");
  points.back().fraction = 1.0;
  Cdf c;
  c.points_ = std::move(points);
  c.origin_ = origin;
  double mean = c.points_[0].fraction * c.points_[0].bytes;
  for (size_t i = 1; i < c.points_.size(); ++i) {
    const CdfPoint& a = c.points_[i - 1];
    const CdfPoint& b = c.points_[i];
    mean += (b.fraction - a.fraction) * (a.bytes + b.bytes) / 2;
  }
  c.mean_ = mean;
  return c;
}

Cdf Cdf::load(const std::string& path) {
  std::istringstream in(read_input(path, "flow-size CDF file"));
  std::vector<CdfPoint> points;
  std::string line;
  for (size_t lineno = 1; std::getline(in, line); ++lineno) {
    const std::vector<std::string> tok = tokens(line);
    if (tok.empty()) continue;
    const std::string at = path + ":" + std::to_string(lineno);
    CdfPoint p{};
    if (tok.size() != 2 || !parse_double(tok[0], p.bytes) || !parse_double(tok[1], p.fraction)) {
      fail(at, "expected \"flow_size_bytes cumulative_fraction\", got \"" + line + "\"");
    }
    if (p.bytes < 0) fail(at, "flow size must be >= 0");
    // (a size is drawn as a double and rounded to whole bytes: above 2^53 that is no
    // longer exact, and a size beyond 2^64 would not convert at all)
    if (p.bytes >= 9007199254740992.0) fail(at, "flow size must be below 2^53 bytes");
    if (p.fraction < 0 || p.fraction > 1) fail(at, "cumulative fraction must be in [0, 1]");
    if (!points.empty() && p.bytes < points.back().bytes) fail(at, "flow sizes must be non-decreasing");
    if (!points.empty() && p.fraction < points.back().fraction) fail(at, "cumulative fractions must be non-decreasing");
    points.push_back(p);
  }
  if (points.empty()) fail(path, "no points in flow-size CDF file");
  return from_points(std::move(points), path);
}

uint64_t Cdf::quantile(double u) const {
  double bytes;
  if (u <= points_.front().fraction) {
    bytes = points_.front().bytes;
  } else {
    auto it = std::lower_bound(points_.begin(), points_.end(), u,
                               [](const CdfPoint& p, double v) { return p.fraction < v; });
    if (it == points_.end()) it = points_.end() - 1;
    const CdfPoint& b = *it;
    const CdfPoint& a = *(it - 1);
    bytes = a.bytes + (b.bytes - a.bytes) * (u - a.fraction) / (b.fraction - a.fraction);
  }
  const double r = std::round(bytes);
  return r < 1 ? 1 : static_cast<uint64_t>(r);
}

const char* pattern_name(Pattern p) {
  switch (p) {
    case Pattern::Permutation: return "permutation";
    case Pattern::Stride: return "stride";
    case Pattern::Random: return "random";
    case Pattern::Pairs: return "pairs";
    case Pattern::Shuffle: return "shuffle";
    case Pattern::Incast: return "incast";
    case Pattern::File: return "file";
  }
  return "?";
}

std::string SizeDist::describe() const {
  if (cdf) return "CDF " + cdf->origin() + " (mean " + format_bytes(cdf->mean()) + ")";
  return "fixed " + format_bytes(static_cast<double>(fixed));
}

void TrafficSpec::validate(size_t hosts) const {
  if (hosts < 2) throw std::invalid_argument("pattern: traffic needs at least 2 hosts");
  if (pattern != Pattern::File && !size.cdf && size.fixed == 0) {
    throw std::invalid_argument("size: must be at least 1 byte");
  }
  if (arrival == Arrival::Poisson) {
    if (!(load > 0 && load <= 1)) {
      throw std::invalid_argument("load: must be in (0, 1] of the host link rate (got " + std::to_string(load) + ")");
    }
    if (stop == kNever) throw std::invalid_argument("stop: a Poisson source needs a stop time");
    if (stop <= start) throw std::invalid_argument("stop: must be after start");
    if (pattern == Pattern::Shuffle || pattern == Pattern::Incast || pattern == Pattern::File) {
      throw std::invalid_argument(std::string("arrival: \"poisson\" does not apply to pattern ") + pattern_name(pattern));
    }
  }
  switch (pattern) {
    case Pattern::Stride:
      if (stride % hosts == 0) {
        throw std::invalid_argument("stride: " + std::to_string(stride) + " is a multiple of the " +
                                    std::to_string(hosts) + " hosts (every host would send to itself)");
      }
      break;
    case Pattern::Pairs:
      if (pairs < 1 || pairs > uint64_t{hosts} * (hosts - 1)) {
        throw std::invalid_argument("pairs: must be in 1.." + std::to_string(uint64_t{hosts} * (hosts - 1)) +
                                    " (got " + std::to_string(pairs) + ")");
      }
      break;
    case Pattern::Incast:
      if (incast_senders < 1 || incast_senders > hosts - 1) {
        throw std::invalid_argument("senders: must be in 1.." + std::to_string(hosts - 1) + " (got " +
                                    std::to_string(incast_senders) + ")");
      }
      if (incast_receiver >= static_cast<int64_t>(hosts)) throw std::invalid_argument("receiver: no such host");
      if (repeat < 1) throw std::invalid_argument("repeat: must be at least 1");
      if (repeat > 1 && interval == 0) throw std::invalid_argument("interval: must be > 0 when repeat > 1");
      break;
    case Pattern::File:
      for (const Flow& f : file_flows) {
        if (f.src >= hosts || f.dst >= hosts) throw std::invalid_argument("file: host out of range");
      }
      break;
    default:
      break;
  }
}

std::vector<Flow> load_flow_file(const std::string& path, const Topology& topo) {
  std::istringstream in(read_input(path, "flow list file"));
  std::vector<Flow> flows;
  std::string line;
  for (size_t lineno = 1; std::getline(in, line); ++lineno) {
    const std::vector<std::string> tok = tokens(line);
    if (tok.empty()) continue;
    const std::string at = path + ":" + std::to_string(lineno);
    if (tok.size() != 4) fail(at, "expected \"start src dst size\", got \"" + line + "\"");
    Flow f;
    try {
      f.start = parse_time(tok[0]);
      f.src = parse_host(tok[1], topo);
      f.dst = parse_host(tok[2], topo);
      f.bytes = parse_bytes(tok[3]);
    } catch (const std::invalid_argument& e) {
      fail(at, e.what());
    }
    if (f.src == f.dst) fail(at, "source and destination are the same host");
    if (f.bytes == 0) fail(at, "flow size must be at least 1 byte");
    flows.push_back(f);
  }
  if (flows.empty()) fail(path, "no flows in flow list file");
  return flows;
}

double expected_flow_count(const TrafficSpec& s, const Topology& topo) {
  if (s.arrival != Arrival::Poisson || s.stop == kNever || s.stop <= s.start || !(s.load > 0)) return 0;
  double rate = 0;  // bits/s of all potential senders
  for (NodeId h = 0; h < topo.num_hosts(); ++h) rate += static_cast<double>(topo.host_rate(h)) * (s.load_on_uplinks ? topo.uplink_share(h) : 1.0);
  return s.load * rate / (8.0 * s.size.mean()) * static_cast<double>(s.stop - s.start) / static_cast<double>(kSec);
}

double flow_count(const TrafficSpec& s, const Topology& topo) {
  if (s.arrival == Arrival::Poisson) return expected_flow_count(s, topo);
  const double hosts = static_cast<double>(topo.num_hosts());
  switch (s.pattern) {
    case Pattern::Pairs: return s.pairs;
    case Pattern::Shuffle: return hosts * (hosts - 1);
    case Pattern::Incast: return static_cast<double>(s.incast_senders) * s.incast_receivers * s.repeat;
    case Pattern::File: return static_cast<double>(s.file_flows.size());
    default: return hosts;  // Permutation, Stride, Random: one flow a host
  }
}

std::vector<Flow> generate_flows(const std::vector<TrafficSpec>& specs, const Topology& topo, uint64_t seed) {
  const size_t hosts = topo.num_hosts();
  const uint64_t base = ll::derive_seed(seed, 0x574F524B4C4F4144ull);  // "WORKLOAD"
  std::vector<Tagged> all;
  for (uint32_t e = 0; e < specs.size(); ++e) {
    const TrafficSpec& s = specs[e];
    s.validate(hosts);
    Rng rng(ll::derive_seed(base, e));
    uint64_t seq = 0;
    auto emit = [&](NodeId src, NodeId dst, uint64_t bytes, Time start, uint64_t after_seq) {
      Flow f;
      f.src = src;
      f.dst = dst;
      f.bytes = bytes;
      f.start = start;
      f.after = after_seq;  // local sequence for now; remapped to an id below
      f.source = e;
      all.push_back(Tagged{f, seq++});
    };

    // Senders with a fixed destination, for the patterns that have one.
    std::vector<std::pair<NodeId, NodeId>> fixed;  // (src, dst); dst == src: drawn per flow
    switch (s.pattern) {
      case Pattern::Permutation: {
        const std::vector<NodeId> p = derangement(hosts, rng);
        for (NodeId h = 0; h < hosts; ++h) fixed.emplace_back(h, p[h]);
        break;
      }
      case Pattern::Stride:
        for (NodeId h = 0; h < hosts; ++h) fixed.emplace_back(h, static_cast<NodeId>((h + uint64_t{s.stride}) % hosts));
        break;
      case Pattern::Random:
        for (NodeId h = 0; h < hosts; ++h) fixed.emplace_back(h, h);
        break;
      case Pattern::Pairs: {
        std::set<std::pair<NodeId, NodeId>> chosen;
        while (chosen.size() < s.pairs) {
          const NodeId src = static_cast<NodeId>(rng.below(hosts));
          chosen.emplace(src, other_host(src, hosts, rng));
        }
        fixed.assign(chosen.begin(), chosen.end());  // sorted by (src, dst)
        break;
      }
      case Pattern::Shuffle:
        for (NodeId h = 0; h < hosts; ++h) {
          std::vector<NodeId> order;
          for (NodeId d = 0; d < hosts; ++d) {
            if (d != h) order.push_back(d);
          }
          shuffle(order, rng);
          uint64_t prev = kNoFlow;
          for (NodeId d : order) {
            const uint64_t mine = seq;
            emit(h, d, s.size.sample(rng), s.start, prev);
            prev = mine;
          }
        }
        break;
      case Pattern::Incast:
        for (uint32_t r = 0; r < s.repeat; ++r) {
          // this round's receivers: the fixed one, one random host, or `receivers` distinct
          // random hosts (partial Fisher-Yates)
          std::vector<NodeId> recvs;
          if (s.incast_receiver >= 0) {
            recvs.push_back(static_cast<NodeId>(s.incast_receiver));
          } else if (s.incast_receivers == 1) {
            recvs.push_back(static_cast<NodeId>(rng.below(hosts)));
          } else {
            std::vector<NodeId> all(hosts);
            for (NodeId h = 0; h < hosts; ++h) all[h] = h;
            for (uint32_t i = 0; i < s.incast_receivers; ++i) {
              const size_t j = i + static_cast<size_t>(rng.below(all.size() - i));
              std::swap(all[i], all[j]);
            }
            recvs.assign(all.begin(), all.begin() + s.incast_receivers);
            std::sort(recvs.begin(), recvs.end());
          }
          const Time t = s.start + r * s.interval;
          for (NodeId recv : recvs) {
            std::vector<NodeId> cand;
            for (NodeId h = 0; h < hosts; ++h) {
              if (h != recv) cand.push_back(h);
            }
            for (uint32_t i = 0; i < s.incast_senders; ++i) {  // partial Fisher-Yates
              const size_t j = i + static_cast<size_t>(rng.below(cand.size() - i));
              std::swap(cand[i], cand[j]);
            }
            std::vector<NodeId> senders(cand.begin(), cand.begin() + s.incast_senders);
            std::sort(senders.begin(), senders.end());
            for (NodeId src : senders) emit(src, recv, s.size.sample(rng), t, kNoFlow);
          }
        }
        break;
      case Pattern::File:
        for (const Flow& f : s.file_flows) emit(f.src, f.dst, f.bytes, s.start + f.start, kNoFlow);
        break;
    }
    if (fixed.empty()) continue;

    if (s.arrival == Arrival::Once) {
      for (const auto& [src, dst] : fixed) {
        const NodeId d = dst == src ? other_host(src, hosts, rng) : dst;
        emit(src, d, s.size.sample(rng), s.start, kNoFlow);
      }
      continue;
    }
    // Poisson: one process per (sender, fixed destination), each with its own stream.
    std::vector<uint32_t> per_src(hosts, 0);
    for (const auto& sd : fixed) ++per_src[sd.first];
    const double mean_bytes = s.size.mean();
    const double expected = expected_flow_count(s, topo);
    if (expected > static_cast<double>(kMaxFlows)) {
      throw std::invalid_argument("load: about " + std::to_string(static_cast<uint64_t>(expected)) +
                                  " flows expected, more than the " + std::to_string(kMaxFlows) +
                                  " a scenario may generate; shorten the run or lower the load");
    }
    for (size_t i = 0; i < fixed.size(); ++i) {
      const auto [src, dst] = fixed[i];
      Rng prng = rng.fork(i);
      double bps = static_cast<double>(topo.host_rate(src));
      if (s.load_on_uplinks) {
        const double share = topo.uplink_share(src);
        if (share <= 0) throw std::invalid_argument("load_on: host " + topo.node(src).name + "'s switch has no uplink");
        bps *= share;
      }
      if (bps <= 0) continue;
      const double flows_per_ps = s.load * bps / (8.0 * mean_bytes) / per_src[src] / static_cast<double>(kSec);
      const double mean_gap = 1.0 / flows_per_ps;
      double t = static_cast<double>(s.start);
      for (;;) {
        t += prng.exponential(mean_gap);
        if (t >= static_cast<double>(s.stop)) break;
        const NodeId d = dst == src ? other_host(src, hosts, prng) : dst;
        emit(src, d, s.size.sample(prng), static_cast<Time>(std::llround(t)), kNoFlow);
      }
    }
  }

  std::stable_sort(all.begin(), all.end(), [](const Tagged& a, const Tagged& b) {
    if (a.flow.start != b.flow.start) return a.flow.start < b.flow.start;
    if (a.flow.source != b.flow.source) return a.flow.source < b.flow.source;
    return a.seq < b.seq;
  });
  // Ids in the final order; chained flows refer to ids, not local sequence numbers.
  std::vector<std::vector<uint64_t>> id_of(specs.size());
  for (const Tagged& t : all) {
    auto& v = id_of[t.flow.source];
    if (v.size() <= t.seq) v.resize(t.seq + 1, kNoFlow);
  }
  for (uint64_t i = 0; i < all.size(); ++i) id_of[all[i].flow.source][all[i].seq] = i;
  std::vector<Flow> out;
  out.reserve(all.size());
  for (uint64_t i = 0; i < all.size(); ++i) {
    Flow f = all[i].flow;
    f.id = i;
    if (f.after != kNoFlow) f.after = id_of[f.source][f.after];
    out.push_back(f);
  }
  return out;
}

}  // namespace ll::sim
