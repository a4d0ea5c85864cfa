#include "sim/cosim.h"

namespace ll::sim::cosim {
namespace {
Factory* g_factory = nullptr;
bool g_check_only = false;
}  // namespace

void install(Factory* f) { g_factory = f; }
Factory* installed() { return g_factory; }
void set_check_only(bool on) { g_check_only = on; }
bool check_only() { return g_check_only; }

}  // namespace ll::sim::cosim
