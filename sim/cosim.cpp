#include "sim/cosim.h"

namespace ll::sim::cosim {
namespace {
Factory* g_factory = nullptr;
bool g_check_only = false;
bool g_trace = false;
TraceSpec g_trace_spec;
std::function<Time()> g_now;
}  // namespace

void set_trace(const TraceSpec& t) {
  g_trace_spec = t;
  g_trace = true;
}
const TraceSpec* trace() { return g_trace ? &g_trace_spec : nullptr; }
void set_clock(std::function<Time()> now) { g_now = std::move(now); }
Time now() { return g_now ? g_now() : 0; }

void install(Factory* f) { g_factory = f; }
Factory* installed() { return g_factory; }
void set_check_only(bool on) { g_check_only = on; }
bool check_only() { return g_check_only; }

}  // namespace ll::sim::cosim
