// The generic half of each block's generated cpp_model/<b>/<b>_params.h.
#pragma once
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

namespace ll {

// A Config from "Name=value" parameters: each set through `set` (false: no such
// parameter), then validated; std::invalid_argument names what is wrong.
template <class Config, class Setter>
Config config_from_params(const std::map<std::string, uint64_t>& p, const char* block, Setter set) {
  Config c;
  for (const auto& [k, v] : p)
    if (!set(c, k, v)) throw std::invalid_argument(std::string(block) + ": unknown parameter '" + k + "'");
  c.validate();
  return c;
}

}  // namespace ll
