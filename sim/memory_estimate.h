// An up-front estimate of the memory a run needs, so a fabric too large for the machine
// fails with one clear error before it is built instead of with std::bad_alloc.
#pragma once
#include <cstdint>
#include <string>

#include "sim/scenario.h"

namespace ll::sim {

// Bytes a run of `s` needs, approximately (within ~20% on k = 16..64 fat-trees, measured
// with lossless_sim_check's peak RSS): each NIC's DCQCN block holds per-QP state (~400 B a
// QP slot), routing keeps next hops per node and destination edge switch (~10 B an entry),
// and every flow of the workload is generated up front and keeps its state and record for
// the run (kBytesPerFlow).
uint64_t estimate_memory_bytes(const Scenario& s);
// Bytes a flow costs over a run, measured with 1-byte Poisson flows at load 1 on a 4-host
// fabric: 4.96 x 10^7 flows in 10 ms peak at 13.4 GB, 270 B a flow; with 100-byte flows the
// peak grows by ~340 B a flow between 2 x 10^5 and 4 x 10^5 flows (75 -> 141 MB), the
// fabric's own memory included. The guard takes the large run's figure, so it refuses no
// run that fits.
constexpr unsigned kBytesPerFlow = 270;
// The workload's flows: the expected count of its Poisson sources, the exact count of the
// others (flow_count).
double estimate_flow_count(const Scenario& s);
// The routing tables' part alone (what validating a topology builds).
uint64_t estimate_routing_bytes(const Topology& t);
// The machine's physical memory in bytes (0 if unknown).
uint64_t physical_memory_bytes();
// Throws ScenarioError("topology", "needs about X GB ...") when the estimate exceeds the
// machine's physical memory.
void check_fits_in_memory(const Scenario& s);
// The same for the topology's routing tables, before they are built: the message to fail
// with, or "" when they fit.
std::string routing_memory_problem(const Topology& t);

}  // namespace ll::sim
