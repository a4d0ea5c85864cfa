#include "sim/transport.h"

namespace ll::sim {

std::unique_ptr<Transport> make_gbn(const TransportContext& c);    // transport_gbn.cpp
std::unique_ptr<Transport> make_sr(const TransportContext& c);     // transport_gbn.cpp
std::unique_ptr<Transport> make_irn(const TransportContext& c);    // transport_irn.cpp
std::unique_ptr<Transport> make_dctcp(const TransportContext& c);  // transport_dctcp.cpp

const std::vector<TransportEntry>& transport_registry() {
  static const std::vector<TransportEntry> r = {
      {"gbn", "RoCEv2 go-back-N: NACK on the first gap, the sender resends from the missing packet", make_gbn},
      {"sr", "go-back-N's receiver keeping out-of-order packets, the sender resending only NACKed ones (simpler than IRN)",
       make_sr},
      {"irn", "IRN (SIGCOMM'18): SACK in NACKs, only lost packets resent, BDP cap, RTO_low / RTO_high", make_irn},
      {"dctcp", "DCTCP window control over a NewReno-style TCP (ECN reaction can be off), optional reorder shim",
       make_dctcp},
  };
  return r;
}

const TransportEntry* find_transport(const std::string& name) {
  for (const TransportEntry& e : transport_registry())
    if (name == e.name) return &e;
  return nullptr;
}

std::vector<std::string> transport_names() {
  std::vector<std::string> v;
  for (const TransportEntry& e : transport_registry()) v.emplace_back(e.name);
  return v;
}

}  // namespace ll::sim
