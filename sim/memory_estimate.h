// An up-front estimate of the memory a run needs, so a fabric too large for the machine
// fails with one clear error before it is built instead of with std::bad_alloc.
#pragma once
#include <cstdint>
#include <string>

#include "sim/scenario.h"

namespace ll::sim {

// Bytes the network of `s` needs, approximately (within ~20% on k = 16..64 fat-trees,
// measured with lossless_sim_check's peak RSS): each NIC's DCQCN block holds per-QP state
// (~400 B a QP slot), and routing keeps next hops per node and destination edge switch
// (~10 B an entry).
uint64_t estimate_memory_bytes(const Scenario& s);
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
