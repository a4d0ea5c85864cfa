#include "sim/memory_estimate.h"

#include <unistd.h>

#include <cstdio>

#include "sim/workload.h"

namespace ll::sim {

uint64_t estimate_routing_bytes(const Topology& t) {
  uint64_t edges = 0;  // switches with a host attached: the routing's destination groups
  for (NodeId n = static_cast<NodeId>(t.num_hosts()); n < t.num_nodes(); ++n) {
    for (const Port& p : t.node(n).ports) {
      if (t.is_host(p.peer)) {
        ++edges;
        break;
      }
    }
  }
  return uint64_t{t.num_nodes()} * (edges ? edges : t.num_hosts()) * 10;
}

double estimate_flow_count(const Scenario& s) {
  double flows = 0;
  for (const TrafficSpec& t : s.traffic) flows += flow_count(t, s.topology);
  return flows;
}

uint64_t estimate_memory_bytes(const Scenario& s) {
  const uint64_t qps = s.net.nic.dcqcn.enable ? s.net.nic.qps : 1;
  return uint64_t{s.topology.num_hosts()} * qps * 400 + estimate_routing_bytes(s.topology) +
         static_cast<uint64_t>(estimate_flow_count(s) * kBytesPerFlow);
}

std::string routing_memory_problem(const Topology& t) {
  const uint64_t need = estimate_routing_bytes(t), have = physical_memory_bytes();
  if (have == 0 || need <= have) return "";
  char msg[200];
  std::snprintf(msg, sizeof msg,
                "this fabric's routing tables alone need about %.1f GB (nodes x edge switches x ~10 B), more "
                "than this machine's %.1f GB",
                static_cast<double>(need) / 1e9, static_cast<double>(have) / 1e9);
  return msg;
}

uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && size > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(size) : 0;
}

void check_fits_in_memory(const Scenario& s) {
  const uint64_t need = estimate_memory_bytes(s), have = physical_memory_bytes();
  if (have == 0 || need <= have) return;
  const double flows = estimate_flow_count(s);
  char msg[320];
  std::snprintf(msg, sizeof msg,
                "this run needs about %.1f GB (NICs' DCQCN state: hosts x nic.qps x ~400 B; routes: nodes x "
                "edge switches x ~10 B; flows: about %.3g x ~%u B), more than this machine's %.1f GB",
                static_cast<double>(need) / 1e9, flows, kBytesPerFlow,
                static_cast<double>(have) / 1e9);
  // The flows dominate: name the workload, whose duration or load shrinks them.
  throw ScenarioError(s.file, flows * kBytesPerFlow * 2 > static_cast<double>(need) ? "workload" : "topology", msg);
}

}  // namespace ll::sim
