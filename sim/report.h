// Results of a fabric run: the per-flow CSV, the JSON summary and the console table.
// Docs: docs/sim.md ("Reports").
#pragma once
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/network.h"

namespace ll::sim {

struct RunCost {
  double wall_s = 0, cpu_s = 0;
  uint64_t peak_rss_kb = 0;
};

// One line a flow: id,src,dst,bytes,start_us,finish_us,fct_us,ideal_us,slowdown,retx,ooo
// (finish/fct/slowdown empty for flows that did not finish within the run).
void write_flows_csv(const Network& net, const std::string& path);
// report.paused_series: time_us, then per switch tier and "host" the ports whose data
// priority was paused by a received PAUSE at each queue sample.
void write_paused_csv(const Network& net, const std::string& path);
// report.rate_interval: time_us, then per sending host its goodput in Gb/s over the
// interval ending there, then queue_bytes (the deepest data egress queue at that time).
void write_rates_csv(const Network& net, const std::string& path);
nlohmann::json summary(const Network& net, const RunCost& cost);
// The console table of a summary.
std::string format_summary(const nlohmann::json& s);
RunCost measure_cost(double wall_s);  // CPU time and peak RSS of this process so far

}  // namespace ll::sim
