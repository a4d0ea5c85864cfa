#include "pfc/pfc_buffer.h"

#include "common/ll_cli.h"

#include <cctype>
#include <cstdio>
#include <map>
#include <sstream>
#include <stdexcept>

namespace ll::pfc::buffer {
namespace {

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument(what); }

__int128 gcd(__int128 a, __int128 b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b != 0) {
    const __int128 t = a % b;
    a = b;
    b = t;
  }
  return a == 0 ? 1 : a;
}
Q norm(Q q) {
  if (q.den < 0) { q.num = -q.num; q.den = -q.den; }
  const __int128 g = gcd(q.num, q.den);
  return Q{q.num / g, q.den / g};
}
Q mk(__int128 n, __int128 d = 1) { return norm(Q{n, d}); }
Q add(const Q& a, const Q& b) { return norm(Q{a.num * b.den + b.num * a.den, a.den * b.den}); }
Q sub(const Q& a, const Q& b) { return norm(Q{a.num * b.den - b.num * a.den, a.den * b.den}); }
Q mul(const Q& a, const Q& b) { return norm(Q{a.num * b.num, a.den * b.den}); }
Q dvd(const Q& a, const Q& b) { return norm(Q{a.num * b.den, a.den * b.num}); }
bool less(const Q& a, const Q& b) { return a.num * b.den < b.num * a.den; }
__int128 ceil_int(const Q& q) { return (q.num + q.den - 1) / q.den; }  // q >= 0
__int128 floor_int(const Q& q) { return q.num / q.den; }                // q >= 0

std::string str(__int128 v) {
  if (v == 0) return "0";
  std::string s;
  const bool neg = v < 0;
  if (neg) v = -v;
  while (v > 0) { s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10))); v /= 10; }
  return neg ? "-" + s : s;
}
std::string dec(const Q& q) {  // exact when the denominator divides 10^6, else 6 decimals
  std::string s = str(floor_int(q));
  __int128 frac = q.num % q.den;
  if (frac == 0) return s;
  s += ".";
  for (int i = 0; i < 6 && frac != 0; ++i) {
    frac *= 10;
    s += static_cast<char>('0' + static_cast<int>(frac / q.den));
    frac %= q.den;
  }
  return s;
}

}  // namespace

Q parse_decimal(const std::string& s, const std::string& what) {
  if (s.empty()) bad(what + ": empty value");
  __int128 num = 0, den = 1;
  bool dot = false, digit = false;
  for (char c : s) {
    if (c == '.' && !dot) { dot = true; continue; }
    if (!std::isdigit(static_cast<unsigned char>(c)))
      bad(what + ": '" + s + "' is not a non-negative decimal number");
    if (num > (static_cast<__int128>(1) << 80)) bad(what + ": '" + s + "' is too large");
    num = num * 10 + (c - '0');
    if (dot) {
      if (den > (static_cast<__int128>(1) << 60)) bad(what + ": '" + s + "' has too many decimals");
      den *= 10;
    }
    digit = true;
  }
  if (!digit) bad(what + ": '" + s + "' is not a number");
  return mk(num, den);
}

uint64_t parse_bytes(const std::string& s, const std::string& what) {
  size_t i = 0;
  while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.')) ++i;
  const std::string number = s.substr(0, i), unit = s.substr(i);
  static const std::map<std::string, uint64_t> units = {
      {"", 1}, {"B", 1}, {"K", 1000}, {"KB", 1000}, {"M", 1000000}, {"MB", 1000000},
      {"G", 1000000000}, {"GB", 1000000000}};
  const auto u = units.find(unit);
  if (number.empty() || u == units.end())
    bad(what + ": '" + s + "' is not a size (a number with an optional B/KB/MB/GB suffix, decimal units)");
  const Q v = mul(parse_decimal(number, what), mk(u->second));
  if (v.den != 1) bad(what + ": '" + s + "' is not a whole number of bytes");
  if (v.num > static_cast<__int128>(1) << 62) bad(what + ": '" + s + "' is too large");
  return static_cast<uint64_t>(v.num);
}

Q derive_tflight(const Q& speed_gbps, const Q& cable_m, uint64_t mtu, const Q& response_ns) {
  // time the link keeps delivering after the XOFF decision: the PAUSE's trip upstream
  // plus the data already on the cable coming back (2 L d), plus the upstream's
  // response time; bytes = Gb/s * ns / 8. Then one MTU the local port may be sending
  // before the PAUSE can leave, one MTU the upstream has started and cannot abandon,
  // and the 64-byte PAUSE frame itself.
  const Q wire_ns = add(mul(mk(2 * 5), cable_m), response_ns);
  const Q bytes = add(dvd(mul(speed_gbps, wire_ns), mk(8)), mk(2 * static_cast<__int128>(mtu) + 64));
  return mk(ceil_int(bytes));
}

std::string kb(const Q& bytes) {
  const __int128 centi = floor_int(dvd(bytes, mk(10)));  // bytes / 1000 * 100
  std::string frac = str(centi % 100);
  if (frac.size() < 2) frac = "0" + frac;
  return str(centi / 100) + "." + frac;
}

Report compute(const Inputs& in) {
  if (!in.buffer) bad("--buffer (total shared buffer B) is required");
  if (!in.ports) bad("--ports (n) is required");
  if (!in.beta) bad("--beta is required");
  if (*in.buffer == 0) bad("--buffer must be > 0");
  if (*in.ports == 0 || *in.ports > 4096) bad("--ports must be in 1..4096");
  if (in.prios == 0 || in.prios > 8) bad("--prios must be in 1..8");
  if (in.beta->num == 0) bad("--beta must be > 0");
  if (in.mtu < 64 || in.mtu > 16383) bad("--mtu must be in 64..16383 bytes");
  if (in.kmin && in.kmax && *in.kmin > *in.kmax) bad("--kmin must not exceed --kmax");
  Report r;
  if (in.tflight) {
    if (in.speed_gbps || in.cable_m || in.response_ns)
      bad("give either --tflight or --speed/--cable/--response-ns, not both");
    r.tflight = mk(*in.tflight);
  } else {
    if (!in.speed_gbps || !in.cable_m || !in.response_ns)
      bad("give --tflight, or all of --speed, --cable and --response-ns to derive it");
    if (in.speed_gbps->num == 0) bad("--speed must be > 0");
    r.tflight = derive_tflight(*in.speed_gbps, *in.cable_m, in.mtu, *in.response_ns);
    r.tflight_derived = true;
  }
  const Q B = mk(*in.buffer), n = mk(*in.ports), P = mk(in.prios), beta = *in.beta;
  const Q headroom = mul(mul(P, n), r.tflight);
  if (!less(headroom, B))
    bad("buffer too small: B = " + str(B.num) + " B does not exceed the headroom " + str(in.prios) +
        " n t_flight = " + dec(headroom) + " B");
  const Q room = sub(B, headroom);
  r.shared_size = room;
  r.static_tpfc = dvd(room, mul(P, n));
  r.static_tecn = dvd(r.static_tpfc, n);
  r.dynamic_tpfc_empty = dvd(mul(beta, room), P);
  r.dynamic_tecn = dvd(mul(beta, room), mul(mul(P, n), add(beta, mk(1))));
  r.alpha = dvd(beta, P);
  for (int k = -8; k <= 7; ++k) {
    const Q p2 = k >= 0 ? mk(static_cast<__int128>(1) << k) : mk(1, static_cast<__int128>(1) << -k);
    if (r.alpha.num == p2.num && r.alpha.den == p2.den) r.alpha_shift = k;
  }
  return r;
}

std::string format(const Inputs& in, const Report& r) {
  std::ostringstream os;
  const std::string P = std::to_string(in.prios);
  const Q n = mk(*in.ports);
  os << "inputs          B = " << *in.buffer << " B, n = " << *in.ports << " ports, " << in.prios
     << " priorities, beta = " << dec(*in.beta) << "\n";
  os << "t_flight        " << kb(r.tflight) << " KB "
     << (r.tflight_derived ? "(derived: R (2 L 5 ns/m + t_resp) / 8 + 2 MTU + 64 B, rounded up to whole bytes)"
                           : "(given)")
     << "\n";
  os << "static t_PFC    <= " << kb(r.static_tpfc) << " KB   (B - " << P << " n t_flight) / (" << P << " n)\n";
  os << "static t_ECN    < " << kb(r.static_tecn) << " KB   t_PFC / n (the DCQCN paper prints 0.85 KB for"
     << " its example; its own formula gives the value here, see docs/pfc.md)\n";
  os << "dynamic t_PFC   = " << kb(r.dynamic_tpfc_empty) << " KB at s = 0   beta (B - " << P
     << " n t_flight - s) / " << P << ", shrinking as the shared occupancy s grows\n";
  os << "dynamic t_ECN   < " << kb(r.dynamic_tecn) << " KB   beta (B - " << P << " n t_flight) / (" << P
     << " n (beta + 1))\n";
  os << "RTL settings    SHARED_SIZE = " << str(floor_int(r.shared_size)) << ", HDRM<p> = "
     << str(ceil_int(r.tflight)) << ", XOFF_STATIC = " << str(floor_int(r.static_tpfc))
     << ", XON_OFFSET = " << 2 * in.mtu << ", alpha = beta / " << P << " = " << dec(r.alpha);
  if (r.alpha_shift) os << " -> ALPHA.ING = " << *r.alpha_shift << " (MODE.DYN = 1)\n";
  else os << " -> not a power of two in 2^-8..2^7: the RTL cannot represent it\n";
  // the byte registers are CntW bits wide, CntW <= 30 in every configuration
  const Q reg_max = mk((uint64_t{1} << 30) - 1);
  for (const auto& [name, v] : {std::pair<const char*, Q>{"SHARED_SIZE", r.shared_size}, {"HDRM<p>", r.tflight},
                                {"XOFF_STATIC", r.static_tpfc}})
    if (less(reg_max, v))
      os << "note            " << name << " is above 2^30 - 1 bytes: no PFC configuration holds it (CntW <= 30)\n";
  if (in.kmin || in.kmax || in.xoff) {
    const Q kmin = mk(in.kmin.value_or(0));
    const Q xoff = in.xoff ? mk(*in.xoff) : r.static_tpfc;
    os << "check           Kmin = " << (in.kmin ? kb(kmin) + " KB" : std::string("-"))
       << ", Kmax = " << (in.kmax ? kb(mk(*in.kmax)) + " KB" : std::string("-"))
       << ", XOFF = " << kb(xoff) << " KB" << (in.xoff ? "" : " (the static bound)") << "\n";
    os << "static XOFF: no overflow (XOFF <= static t_PFC): " << (less(r.static_tpfc, xoff) ? "NO" : "YES") << "\n";
    if (in.kmin) {
      const Q need = dvd(xoff, n);
      os << "static XOFF: ECN fires before PFC: " << (less(kmin, need) ? "YES" : "NO") << " (needs Kmin < XOFF / n = "
         << kb(need) << " KB)\n";
      os << "dynamic XOFF (beta = " << dec(*in.beta) << "): ECN fires before PFC: "
         << (less(kmin, r.dynamic_tecn) ? "YES" : "NO") << " (needs Kmin < " << kb(r.dynamic_tecn) << " KB)\n";
    }
  }
  return os.str();
}

int run(const std::vector<std::string>& args, std::string& out, std::string& err) {
  CLI::App app{"PFC and ECN thresholds of a shared-buffer switch, checked against the DCQCN "
               "paper's buffer analysis (section 4; docs/pfc.md). Sizes are bytes with an optional "
               "B/KB/MB/GB suffix in decimal units (1 KB = 1000 B).",
               "pfc_buffer_calc"};
  std::string buffer, tflight, speed, cable, response, beta, kmin, kmax, xoff;
  uint64_t ports = 0, prios = 8, mtu = 1500;
  app.add_option("--buffer", buffer, "total shared buffer B (size)");
  app.add_option("--ports", ports, "number of ports n (a count)")->check(ll::cli::Count);
  app.add_option("--prios", prios, "lossless priorities reserved for (a count)")->capture_default_str()->check(ll::cli::Count);
  app.add_option("--beta", beta, "dynamic-threshold factor beta (decimal)");
  app.add_option("--tflight", tflight, "headroom per port and priority (size)");
  app.add_option("--speed", speed, "link speed in Gb/s, to derive t_flight (decimal)");
  app.add_option("--cable", cable, "cable length in m, to derive t_flight (decimal)");
  app.add_option("--response-ns", response, "upstream PAUSE response time in ns (decimal)");
  app.add_option("--mtu", mtu, "MTU in bytes (a count)")->capture_default_str()->check(ll::cli::Count);
  app.add_option("--kmin", kmin, "proposed ECN Kmin to check (size)");
  app.add_option("--kmax", kmax, "proposed ECN Kmax to check (size)");
  app.add_option("--xoff", xoff, "proposed static PFC XOFF to check (size)");
  try {
    std::vector<std::string> rev(args.rbegin(), args.rend());  // CLI11 parses a reversed list
    app.parse(rev);
  } catch (const CLI::CallForHelp&) {
    out = app.help();
    return 0;
  } catch (const CLI::ParseError& e) {
    err = std::string("pfc_buffer_calc: error: ") + e.what() + " (see --help)\n";
    return 2;
  }
  try {
    Inputs in;
    auto given = [&](const char* name) { return app.count(name) > 0; };
    if (given("--buffer")) in.buffer = parse_bytes(buffer, "--buffer");
    if (given("--ports")) in.ports = ports;
    in.prios = prios;
    in.mtu = mtu;
    if (given("--beta")) in.beta = parse_decimal(beta, "--beta");
    if (given("--tflight")) in.tflight = parse_bytes(tflight, "--tflight");
    if (given("--speed")) in.speed_gbps = parse_decimal(speed, "--speed");
    if (given("--cable")) in.cable_m = parse_decimal(cable, "--cable");
    if (given("--response-ns")) in.response_ns = parse_decimal(response, "--response-ns");
    if (given("--kmin")) in.kmin = parse_bytes(kmin, "--kmin");
    if (given("--kmax")) in.kmax = parse_bytes(kmax, "--kmax");
    if (given("--xoff")) in.xoff = parse_bytes(xoff, "--xoff");
    const Report r = compute(in);
    out = format(in, r);
    return 0;
  } catch (const std::invalid_argument& e) {
    err = std::string("pfc_buffer_calc: error: ") + e.what() + "\n";
    return 2;
  }
}

}  // namespace ll::pfc::buffer
