#include "sim/report.h"

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "sim/units.h"

namespace ll::sim {

using json = nlohmann::json;

namespace {

struct Bucket {
  const char* label;
  uint64_t lo, hi;  // bytes, [lo, hi)
};
constexpr Bucket kBuckets[] = {{"<10KB", 0, 10'000},
                               {"10KB-100KB", 10'000, 100'000},
                               {"100KB-1MB", 100'000, 1'000'000},
                               {"1MB-10MB", 1'000'000, 10'000'000},
                               {">=10MB", 10'000'000, ~uint64_t{0}}};

double us(Time t) { return static_cast<double>(t) / static_cast<double>(kUs); }

// Nearest-rank percentile of sorted values; null for no values (a statistic of nothing is
// not 0, which would read as the best figure). With fewer than 100 / (100 - p) values it is
// the largest one (p99.99 of fewer than 10,000 flows is their maximum).
json pct(const std::vector<double>& v, double p) {
  if (v.empty()) return nullptr;
  const size_t rank = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(v.size())));
  return v[std::min(v.size() - 1, rank == 0 ? 0 : rank - 1)];
}

// Nearest-rank percentile of unsorted samples.
json pct_u(std::vector<uint32_t> v, double p) {
  std::vector<double> d(v.begin(), v.end());
  std::sort(d.begin(), d.end());
  return pct(d, p);
}

json mean(const std::vector<double>& v) {
  if (v.empty()) return nullptr;
  double sum = 0;
  for (double x : v) sum += x;
  return sum / static_cast<double>(v.size());
}

// A distribution with the number of values it is over ("n"): its mean and percentiles are
// null when n is 0.
json dist(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return json{{"n", v.size()},
              {"mean", mean(v)},
              {"p50", pct(v, 50)},
              {"p99", pct(v, 99)},
              {"p99.9", pct(v, 99.9)},
              {"p99.99", pct(v, 99.99)}};
}

// Per-hop queueing of a tier: data packets that left its egress queues inside run.window
// towards a higher tier (up) or a lower one (down), and their mean wait in microseconds.
json queueing(const TierStats& ts) {
  json q = json::object();
  const char* dir[2] = {"up", "down"};
  for (unsigned d = 0; d < 2; ++d) {
    if (!ts.queued_pkts[d]) continue;
    q[dir[d]] = {{"packets", ts.queued_pkts[d]},
                 {"mean_us", us(ts.queued_time[d]) / static_cast<double>(ts.queued_pkts[d])},
                 {"total_ms", us(ts.queued_time[d]) / 1e3}};
  }
  return q;
}

}  // namespace

void write_paused_csv(const Network& net, const std::string& path) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << "time_us";
  for (const std::string& t : net.tiers()) out << ',' << t;
  out << '\n';
  char buf[32];
  for (const PausedSample& r : net.paused_series()) {
    std::snprintf(buf, sizeof buf, "%.3f", us(r.t));
    out << buf;
    for (uint32_t v : r.per_tier) out << ',' << v;
    out << '\n';
  }
}

void write_rates_csv(const Network& net, const std::string& path) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << "time_us";
  for (NodeId h : net.rate_hosts()) out << ',' << net.scenario().topology.node(h).name;
  out << ",queue_bytes\n";
  char buf[48];
  for (const RateSample& r : net.rate_series()) {
    std::snprintf(buf, sizeof buf, "%.3f", us(r.t));
    out << buf;
    for (double b : r.bps) {
      std::snprintf(buf, sizeof buf, ",%.4f", b / 1e9);
      out << buf;
    }
    out << ',' << r.deepest << '\n';
  }
}

void write_flows_csv(const Network& net, const std::string& path) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  const Topology& t = net.scenario().topology;
  out << "id,src,dst,bytes,start_us,finish_us,fct_us,ideal_us,slowdown,retx,ooo,in_window,first_sent_us,acked_us,"
         "sender_fct_us,ideal_sender_us,ideal_base_rtt_us,dupacks,dup_rx,reordered\n";
  char buf[256];
  for (const FlowResult& r : net.flows()) {
    const Flow& f = *r.flow;
    if (f.start >= net.scenario().duration) continue;
    out << f.id << ',' << t.node(f.src).name << ',' << t.node(f.dst).name << ',' << f.bytes << ',';
    std::snprintf(buf, sizeof buf, "%.3f,", us(f.start));
    out << buf;
    if (r.done()) {
      const Time fct = r.finish - f.start;
      std::snprintf(buf, sizeof buf, "%.3f,%.3f,%.3f,%.4f,", us(r.finish), us(fct), us(r.ideal),
                    r.ideal ? static_cast<double>(fct) / static_cast<double>(r.ideal) : 0.0);
    } else {
      std::snprintf(buf, sizeof buf, ",,%.3f,,", us(r.ideal));
    }
    out << buf << r.retx << ',' << r.ooo << ',' << (net.scenario().in_window(f.start) ? 1 : 0) << ',';
    if (r.first_sent != kNever) {
      std::snprintf(buf, sizeof buf, "%.3f,", us(r.first_sent));
      out << buf;
    } else {
      out << ',';
    }
    if (r.acked != kNever && r.first_sent != kNever) {
      std::snprintf(buf, sizeof buf, "%.3f,%.3f,", us(r.acked), us(r.acked - r.first_sent));
    } else {
      std::snprintf(buf, sizeof buf, ",,");
    }
    out << buf;
    std::snprintf(buf, sizeof buf, "%.3f,%.3f,%u,%u,%u\n", us(r.ideal_sender), us(r.ideal_base_rtt), r.dupacks, r.dup_rx,
                  r.reordered);
    out << buf;
  }
  if (!out) throw std::runtime_error("cannot write " + path);
}

RunCost measure_cost(double wall_s) {
  RunCost c;
  c.wall_s = wall_s;
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  c.cpu_s = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
            static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
  c.peak_rss_kb = static_cast<uint64_t>(ru.ru_maxrss);
  return c;
}

json summary(const Network& net, const RunCost& cost) {
  const Scenario& s = net.scenario();
  const NetConfig& c = s.net;
  json j;
  j["scenario"] = {{"file", s.file}, {"name", s.name}, {"seed", s.seed}, {"duration_us", us(s.duration)},
                   {"hosts", s.topology.num_hosts()}, {"switches", s.topology.num_switches()}};
  // the run stops early once the network is idle (every flow done, no packet left)
  j["run"] = {{"ended_us", us(net.ended_at())},
              {"ended_by", net.ended_by()},
              {"until", s.run.all_done ? "all_done" : "duration"},
              {"window_us", {us(s.run.window_from), us(s.run.window_to)}}};
  if (s.run.all_done) j["run"]["cap_us"] = us(s.run.cap);
  if (!net.deadlock().empty()) j["run"]["deadlock"] = net.deadlock();
  j["config"] = {{"balancer", c.balancer.mode == "drill" ? "drill(" + std::to_string(c.balancer.d) + "," +
                                                                std::to_string(c.balancer.m) + ")"
                                                          : c.balancer.mode},
                 {"engines", c.balancer.engines},
                 {"components", c.balancer.components},
                 {"transport", c.nic.transport},
                 {"dcqcn", c.nic.dcqcn.enable ? c.nic.dcqcn.variant : "off"},
                 {"pfc", c.sw.pfc.enable},
                 {"marker", c.sw.marker.enable ? c.sw.marker.mode : "off"}};
  if (!c.nic.groups.empty()) {
    json g = json::object();
    for (const NicGroup& e : c.nic.groups) g[e.name] = e.hosts.size();
    j["config"]["nic_groups"] = g;  // group name -> hosts in it
  }
  if (c.faults.loss_rate > 0 || !c.faults.stalls.empty()) {
    j["config"]["faults"] = {{"loss_rate", c.faults.loss_rate}, {"loss_links", c.faults.loss_links},
                             {"stalls", c.faults.stalls.size()}};
  }

  // flows and FCT
  std::vector<double> fct_all, sd_all, sfct_all, srtt_all;
  std::vector<std::vector<double>> fct_b(std::size(kBuckets)), sd_b(std::size(kBuckets)), sfct_b(std::size(kBuckets)),
      srtt_b(std::size(kBuckets));
  uint64_t started = 0, done = 0, retx = 0, ooo = 0, outside = 0, sender_open = 0;
  std::vector<uint64_t> unfinished_b(std::size(kBuckets), 0);
  auto bucket_of = [](uint64_t bytes) {
    for (size_t b = 0; b < std::size(kBuckets); ++b)
      if (bytes >= kBuckets[b].lo && bytes < kBuckets[b].hi) return b;
    return std::size(kBuckets);
  };
  for (const FlowResult& r : net.flows()) {
    if (r.flow->start >= s.duration) continue;
    retx += r.retx;
    ooo += r.ooo;
    if (!s.in_window(r.flow->start)) {  // simulated, counted, left out of the statistics
      ++outside;
      continue;
    }
    ++started;
    const size_t b = bucket_of(r.flow->bytes);
    if (!r.done()) {  // counted beside every statistic, never silently left out
      if (b < unfinished_b.size()) ++unfinished_b[b];
      continue;
    }
    ++done;
    const double fct = us(r.finish - r.flow->start);
    const double sd = r.ideal ? static_cast<double>(r.finish - r.flow->start) / static_cast<double>(r.ideal) : 0;
    fct_all.push_back(fct);
    sd_all.push_back(sd);
    if (b < fct_b.size()) {
      fct_b[b].push_back(fct);
      sd_b[b].push_back(sd);
    }
    // sender side: first byte sent to the last ACK; its slowdown against the ns-3 RDMA
    // simulators' ideal (base RTT + bytes at the host rate) from the flow's start
    if (r.acked == kNever || r.first_sent == kNever) {
      ++sender_open;
      continue;
    }
    const double sfct = us(r.acked - r.first_sent);
    const double srtt = r.ideal_base_rtt ? static_cast<double>(r.acked - r.flow->start) / static_cast<double>(r.ideal_base_rtt) : 0;
    sfct_all.push_back(sfct);
    srtt_all.push_back(srtt);
    if (b < sfct_b.size()) {
      sfct_b[b].push_back(sfct);
      srtt_b[b].push_back(srtt);
    }
  }
  j["flows"] = {{"started", started}, {"completed", done}, {"unfinished", started - done}, {"outside_window", outside},
                {"completed_not_acked", sender_open}};
  // Reordering (DRILL paper's figure 11a): of the flows the statistics count (started in
  // run.window, finished or not), how many saw an out-of-order arrival, a duplicate ACK,
  // at least three duplicate ACKs (TCP's fast-retransmit threshold), a spurious
  // retransmission (a data packet reaching the receiver twice), and a packet reordered by
  // the network (a first transmission overtaken by a later one; loss alone causes none).
  {
    uint64_t with_ooo = 0, with_dup = 0, with_dup3 = 0, with_spurious = 0, with_reordered = 0;
    for (const FlowResult& r : net.flows()) {
      if (r.flow->start >= s.duration || !s.in_window(r.flow->start)) continue;
      with_ooo += r.ooo > 0;
      with_dup += r.dupacks > 0;
      with_dup3 += r.dupacks >= 3;
      with_spurious += r.dup_rx > 0;
      with_reordered += r.reordered > 0;
    }
    auto share = [&](uint64_t k) { return started ? static_cast<double>(k) / static_cast<double>(started) : 0.0; };
    j["reordering"] = {{"flows", started},
                       {"with_out_of_order", with_ooo},
                       {"with_dupacks", with_dup},
                       {"with_3_dupacks", with_dup3},
                       {"with_spurious_retx", with_spurious},
                       {"with_reordered", with_reordered},
                       {"share_out_of_order", share(with_ooo)},
                       {"share_dupacks", share(with_dup)},
                       {"share_3_dupacks", share(with_dup3)},
                       {"share_spurious_retx", share(with_spurious)},
                       {"share_reordered", share(with_reordered)}};
  }
  json buckets = json::array();
  for (size_t b = 0; b < std::size(kBuckets); ++b) {
    buckets.push_back({{"size", kBuckets[b].label}, {"count", fct_b[b].size()}, {"unfinished", unfinished_b[b]},
                       {"fct_us", dist(fct_b[b])}, {"slowdown", dist(sd_b[b])},
                       {"sender_fct_us", dist(sfct_b[b])}, {"slowdown_base_rtt", dist(srtt_b[b])}});
  }
  j["fct"] = {{"all", {{"count", fct_all.size()}, {"unfinished", started - done}, {"fct_us", dist(fct_all)},
                       {"slowdown", dist(sd_all)}, {"sender_fct_us", dist(sfct_all)},
                       {"slowdown_base_rtt", dist(srtt_all)}}},
              {"by_size", buckets}};

  // per traffic entry: each flow's goodput (bytes x 8 / receiver FCT), over the flows the
  // statistics count; an unfinished flow has none, so the low percentiles are also given
  // with unfinished flows counted as 0 (the conservative reading)
  json entries = json::array();
  for (size_t e = 0; e < s.traffic.size(); ++e) {
    std::vector<double> g, fct_e;
    uint64_t started_e = 0, unfinished_e = 0;
    for (const FlowResult& r : net.flows()) {
      if (r.flow->source != e || r.flow->start >= s.duration || !s.in_window(r.flow->start)) continue;
      ++started_e;
      if (!r.done()) {
        ++unfinished_e;
        continue;
      }
      g.push_back(static_cast<double>(r.flow->bytes) * 8.0 / (us(r.finish - r.flow->start) * 1e3));
      fct_e.push_back(us(r.finish - r.flow->start));
    }
    std::vector<double> with0 = g;
    with0.insert(with0.end(), unfinished_e, 0.0);
    std::sort(g.begin(), g.end());
    std::sort(with0.begin(), with0.end());
    entries.push_back({{"pattern", pattern_name(s.traffic[e].pattern)},
                       {"flows", started_e},
                       {"unfinished", unfinished_e},
                       {"goodput_gbps", {{"mean", mean(g)},
                                         {"p10", pct(g, 10)},
                                         {"p50", pct(g, 50)}}},
                       {"goodput_gbps_unfinished_as_0", {{"p10", pct(with0, 10)}, {"p50", pct(with0, 50)}}},
                       {"fct_us", dist(fct_e)}});
  }
  j["by_entry"] = entries;

  // throughput and fairness (senders with at least one started flow)
  std::vector<bool> sender(s.topology.num_hosts(), false);
  for (const FlowResult& r : net.flows())
    if (r.flow->start < s.duration) sender[r.flow->src] = true;
  double sum = 0, sq = 0, mn = 1e300, mx = 0;
  size_t n = 0;
  json by_sender = json::object();
  std::vector<double> rates;
  // bytes delivered over the duration, or with all_done over the whole run; with a
  // run.window, over the window (up to the run's end)
  const bool windowed = s.run.window_from > 0 || s.run.window_to < s.duration;
  const Time span = windowed ? std::max<Time>(std::min(s.run.window_to, net.ended_at()) - std::min(s.run.window_from, net.ended_at()), 1)
                    : s.run.all_done ? std::max<Time>(net.ended_at(), 1)
                                     : s.duration;
  const std::vector<uint64_t> delivered = windowed ? net.delivered_in_window() : net.delivered_by_sender();
  for (size_t h = 0; h < sender.size(); ++h) {
    if (!sender[h]) continue;
    const double gbps = static_cast<double>(delivered[h]) * 8.0 / (us(span) * 1e3);
    sum += gbps;
    sq += gbps * gbps;
    mn = std::min(mn, gbps);
    mx = std::max(mx, gbps);
    ++n;
    by_sender[s.topology.node(static_cast<NodeId>(h)).name] = gbps;
    rates.push_back(gbps);
  }
  std::sort(rates.begin(), rates.end());
  // with no sender every figure but the count is null
  const json median = rates.empty() ? json(nullptr)
                      : rates.size() % 2 ? json(rates[rates.size() / 2])
                                         : json((rates[rates.size() / 2 - 1] + rates[rates.size() / 2]) / 2);
  j["throughput"] = {{"senders", n},
                     {"mean_gbps", n ? json(sum / static_cast<double>(n)) : json(nullptr)},
                     {"min_gbps", n ? json(mn) : json(nullptr)},
                     {"max_gbps", n ? json(mx) : json(nullptr)},
                     {"median_gbps", median},
                     // Jain's index is undefined (null) with no sender or none delivering
                     {"jain", n && sq > 0 ? json(sum * sum / (static_cast<double>(n) * sq)) : json(nullptr)},
                     {"by_sender", by_sender}};

  // per tier
  json tiers = json::object();
  json drops = json::object();
  uint64_t marks = 0, storms = 0, restores = 0, pauses = 0;
  Time queued = 0;  // every hop's queueing, for the share of each
  for (unsigned c2 = 0; c2 < kDropCauses; ++c2) drops[cause_name(c2)] = 0;
  for (size_t t = 0; t < net.tiers().size(); ++t) {
    const TierStats& ts = net.tier_stats()[t];
    json d = json::object();
    for (unsigned c2 = 0; c2 < kDropCauses; ++c2) {
      d[cause_name(c2)] = ts.drops[c2];
      drops[cause_name(c2)] = drops[cause_name(c2)].get<uint64_t>() + ts.drops[c2];
    }
    tiers[net.tiers()[t]] = {{"pause_sent", ts.pause_sent},
                             {"resume_sent", ts.resume_sent},
                             {"pause_received", ts.pause_received},
                             {"ecn_marks", ts.ecn_marks},
                             {"queue_stdv_bytes", ts.stdv_samples ? json(ts.stdv_sum / static_cast<double>(ts.stdv_samples)) : json(nullptr)},
                             {"max_queue_bytes", ts.max_queue},
                             {"queue_samples", ts.deepest.size()},
                             {"queue_p50_bytes", pct_u(ts.deepest, 50)},
                             {"queue_p95_bytes", pct_u(ts.deepest, 95)},
                             {"queue_p99_bytes", pct_u(ts.deepest, 99)},
                             {"watchdog_storms", ts.wd_storms},
                             {"watchdog_restores", ts.wd_restores},
                             {"headroom_violations", ts.headroom_violations},
                             {"paused_ports_max", ts.paused_max},
                             {"paused_ports_mean", ts.paused_samples ? json(static_cast<double>(ts.paused_sum) / static_cast<double>(ts.paused_samples)) : json(nullptr)},
                             {"queueing", queueing(ts)},
                             {"drops", d}};
    marks += ts.ecn_marks;
    queued += ts.queued_time[0] + ts.queued_time[1];
    storms += ts.wd_storms;
    restores += ts.wd_restores;
    pauses += ts.pause_sent;
  }
  const RunTotals& tt = net.totals();
  j["tiers"] = tiers;
  j["queueing_total_ms"] = us(queued) / 1e3;
  if (const ReorderBuffer* rb = net.reorder_buffer()) {
    const uint64_t pkt = net.scenario().net.nic.mtu + kHeaderBytes;
    j["reorder_buffer"] = {{"slots", rb->slots()},
                           {"timeout_us", us(rb->timeout())},
                           {"bytes_per_qp", rb->slots() * pkt},
                           {"packets_held", rb->stats().held},
                           {"timeouts", rb->stats().timeouts},
                           {"overflows", rb->stats().overflows},
                           {"peak_packets_per_qp", rb->stats().peak_qp},
                           {"peak_bytes_per_nic", net.reorder_peak_bytes()}};
  }
  j["totals"] = {{"pause_sent", pauses},
                 {"ecn_marks", marks},
                 {"cnps_sent", tt.cnps_sent},
                 {"cnps_received", tt.cnps_received},
                 {"watchdog_storms", storms},
                 {"watchdog_restores", restores},
                 {"drops", drops},
                 {"lossless_drops", tt.lossless_drops},
                 {"control_drops", tt.control_dropped},
                 {"retransmitted_packets", retx},
                 {"out_of_order_packets", ooo},
                 {"qp_waits", tt.qp_waits},
                 {"selector_decisions", tt.selector_decisions},
                 {"balancer_control_packets", tt.balancer_control},
                 {"reorder_queue_packets", tt.reorder_held},
                 {"reorder_queue_max", tt.reorder_max},
                 {"first_ecn_mark_us", tt.first_mark == kNever ? json(nullptr) : json(us(tt.first_mark))},
                 {"first_pause_us", tt.first_pause == kNever ? json(nullptr) : json(us(tt.first_pause))},
                 {"pauses_before_first_mark", tt.pauses_before_mark}};
  json bal = json::object();
  for (const auto& [name, v] : net.balancer_counters()) bal[name] = v;
  j["balancer"] = bal;
  const std::string cons = net.conservation_error();
  j["packets"] = {{"injected", tt.data_injected}, {"delivered", tt.data_delivered}, {"dropped", tt.data_dropped},
                  {"in_flight", tt.data_in_flight}, {"data_hops", tt.data_hops},
                  {"conservation", cons.empty() ? "ok" : cons}};
  j["performance"] = {{"wall_s", cost.wall_s},
                      {"cpu_s", cost.cpu_s},
                      {"events", tt.events},
                      {"packet_hops_per_cpu_s", cost.cpu_s > 0 ? static_cast<double>(tt.data_hops) / cost.cpu_s : 0.0},
                      {"peak_rss_mb", static_cast<double>(cost.peak_rss_kb) / 1024.0}};
  return j;
}

std::string format_summary(const json& j) {
  std::ostringstream o;
  char b[256];
  const json& cfg = j["config"];
  o << "run: " << j["scenario"]["name"].get<std::string>() << " | balancer " << cfg["balancer"].get<std::string>()
    << ", transport " << cfg["transport"].get<std::string>() << ", dcqcn " << cfg["dcqcn"].get<std::string>()
    << ", pfc " << (cfg["pfc"].get<bool>() ? "on" : "off") << "\n";
  if (cfg.contains("faults")) {
    o << "faults: data-packet loss " << cfg["faults"]["loss_rate"].get<double>() << " per link ("
      << cfg["faults"]["loss_links"].get<std::string>() << " links), " << cfg["faults"]["stalls"] << " stalled NIC(s); "
      << j["totals"]["drops"]["loss"] << " packets lost\n";
  }
  o << "flows: " << j["flows"]["completed"] << " of " << j["flows"]["started"] << " completed";
  if (j["run"]["ended_by"] == "idle")
    o << "; the network went idle at " << j["run"]["ended_us"].get<double>() << " us and the run ended there";
  o << "\n";
  if (j["run"]["ended_by"] == "deadlock") {
    o << "DEADLOCK: PFC wait cycle " << j["run"]["deadlock"].get<std::string>() << " made no progress; the run ended at "
      << j["run"]["ended_us"].get<double>() << " us\n";
  }
  if (j["run"]["ended_by"] == "cap") {
    o << "WARNING: the run hit its cap (run.cap, " << j["run"]["cap_us"].get<double>() << " us) with "
      << j["flows"]["unfinished"] << " flows unfinished: their FCTs are missing below\n";
  }
  if (j["flows"]["outside_window"].get<uint64_t>()) {
    o << "  statistics count the flows that started in [" << j["run"]["window_us"][0].get<double>() << ", "
      << j["run"]["window_us"][1].get<double>() << ") us (run.window); " << j["flows"]["outside_window"]
      << " others ran but are left out\n";
  }
  o << "  FCT statistics are over completed flows; 'unfinished' counts the flows of the row that\n"
       "  had not completed when the run ended (their FCTs are missing from the statistics)\n";
  o << "  size         count unfinished   FCT mean us   FCT p99 us   slowdown p50   p99\n";
  // a figure of no completed flow is null in summary.json and "-" here
  auto num = [](const json& v, int width, int prec) {
    char f[32];
    if (v.is_null()) std::snprintf(f, sizeof f, "%*s", width, "-");
    else std::snprintf(f, sizeof f, "%*.*f", width, prec, v.get<double>());
    return std::string(f);
  };
  auto row = [&](const std::string& label, const json& e) {
    std::snprintf(b, sizeof b, "  %-11s %6llu %10llu ", label.c_str(), static_cast<unsigned long long>(e["count"].get<uint64_t>()),
                  static_cast<unsigned long long>(e["unfinished"].get<uint64_t>()));
    o << b << num(e["fct_us"]["mean"], 13, 1) << " " << num(e["fct_us"]["p99"], 12, 1) << " "
      << num(e["slowdown"]["p50"], 14, 2) << " " << num(e["slowdown"]["p99"], 7, 2) << "\n";
  };
  for (const json& e : j["fct"]["by_size"])
    if (e["count"].get<uint64_t>() || e["unfinished"].get<uint64_t>()) row(e["size"].get<std::string>(), e);
  row("all", j["fct"]["all"]);
  const json& t = j["totals"];
  std::snprintf(b, sizeof b,
                "PAUSE sent %llu, ECN marks %llu, CNPs %llu, retransmitted %llu, out-of-order %llu, drops %llu "
                "(lossless %llu)\n",
                static_cast<unsigned long long>(t["pause_sent"].get<uint64_t>()),
                static_cast<unsigned long long>(t["ecn_marks"].get<uint64_t>()),
                static_cast<unsigned long long>(t["cnps_sent"].get<uint64_t>()),
                static_cast<unsigned long long>(t["retransmitted_packets"].get<uint64_t>()),
                static_cast<unsigned long long>(t["out_of_order_packets"].get<uint64_t>()),
                static_cast<unsigned long long>(j["packets"]["dropped"].get<uint64_t>()),
                static_cast<unsigned long long>(t["lossless_drops"].get<uint64_t>()));
  o << b;
  if (const uint64_t w = t["qp_waits"].get<uint64_t>(); w) {
    std::snprintf(b, sizeof b, "QP slots: %llu flows waited for a free slot (nic.qps; their FCT includes the wait)\n",
                  static_cast<unsigned long long>(w));
    o << b;
  }
  const json& p = j["performance"];
  std::snprintf(b, sizeof b, "packets: %llu data hops, conservation %s; %.2f s CPU, %.2f M hops/CPU-s, %.0f MB peak\n",
                static_cast<unsigned long long>(j["packets"]["data_hops"].get<uint64_t>()),
                j["packets"]["conservation"].get<std::string>().c_str(), p["cpu_s"].get<double>(),
                p["packet_hops_per_cpu_s"].get<double>() / 1e6, p["peak_rss_mb"].get<double>());
  o << b;
  return o.str();
}

}  // namespace ll::sim
