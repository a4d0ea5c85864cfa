// One field list per port struct. A block's output struct is declared from a list
//
//   #define LL_MARKER_OUTPUTS(X) X(bool, ev_ready, true) X(uint32_t, dec_queue, x.dec_valid) ...
//   LL_PORT_STRUCT(Outputs, LL_MARKER_OUTPUTS)
//
// which gives the struct with exactly those fields (zero-initialised), operator== over
// all of them and to_string() printing all of them. Each field names when it is
// compared: `true` (always), or an expression of `x`, the struct on the left-hand side
// of ==, e.g. x.rate_valid for a payload that is a don't-care while its valid is low.
// The lockstep benches compare with == and print with to_string(), so an output added
// to the list is compared and shown everywhere, and one cannot be declared without it.
#pragma once
#include <array>
#include <cstdint>
#include <sstream>
#include <string>

namespace ll::ports {

template <class T>
void show(std::ostream& os, const char* name, const T& v) {
  os << name << '=';
  if constexpr (std::is_same_v<T, bool>) {
    os << (v ? 1 : 0);
  } else if constexpr (std::is_integral_v<T>) {
    if (v > 0xffff) os << "0x" << std::hex << static_cast<uint64_t>(v) << std::dec;
    else os << static_cast<uint64_t>(v);
  } else {
    os << '[';
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) os << ' ';
      if constexpr (std::is_same_v<typename T::value_type, bool>) os << (v[i] ? 1 : 0);
      else os << static_cast<uint64_t>(v[i]);
    }
    os << ']';
  }
  os << ' ';
}

}  // namespace ll::ports

#define LL_PORT_FIELD_DECL(T, n, when) T n{};
#define LL_PORT_FIELD_EQ(T, n, when) \
  if ((when) && !(x.n == y.n)) return false;
#define LL_PORT_FIELD_SHOW(T, n, when) ::ll::ports::show(os, #n, x.n);
#define LL_PORT_FIELD_COUNT(T, n, when) +1

#define LL_PORT_STRUCT(Name, LIST)                                                   \
  struct Name {                                                                      \
    LIST(LL_PORT_FIELD_DECL)                                                         \
    static constexpr unsigned kFields = 0 LIST(LL_PORT_FIELD_COUNT);                 \
  };                                                                                 \
  inline bool operator==(const Name& x, const Name& y) {                             \
    LIST(LL_PORT_FIELD_EQ)                                                           \
    return true;                                                                     \
  }                                                                                  \
  inline bool operator!=(const Name& x, const Name& y) { return !(x == y); }         \
  inline std::string to_string(const Name& x) {                                      \
    std::ostringstream os;                                                           \
    LIST(LL_PORT_FIELD_SHOW)                                                         \
    std::string s = os.str();                                                        \
    if (!s.empty()) s.pop_back();                                                    \
    return s;                                                                        \
  }
