// The buffer calculator against the DCQCN paper's Trident II example (section 4).
#include <gtest/gtest.h>

#include "pfc/pfc_buffer.h"

namespace bc = ll::pfc::buffer;

namespace {

bc::Inputs trident() {
  bc::Inputs in;
  in.buffer = 12000000;  // 12 MB, decimal
  in.ports = 32;
  in.prios = 8;
  in.tflight = 22400;    // 22.4 KB
  in.beta = bc::parse_decimal("8", "beta");
  return in;
}

double as_double(const bc::Q& q) { return static_cast<double>(q.num) / static_cast<double>(q.den); }

}  // namespace

TEST(BufferCalc, TridentStaticTpfcIs24_47KB) {
  const bc::Report r = bc::compute(trident());
  EXPECT_EQ(bc::kb(r.static_tpfc), "24.47");
  EXPECT_DOUBLE_EQ(as_double(r.static_tpfc), 24475.0);  // (12e6 - 8*32*22400) / 256
}

TEST(BufferCalc, TridentDynamicTecnIs21_75KB) {
  const bc::Report r = bc::compute(trident());
  EXPECT_EQ(bc::kb(r.dynamic_tecn), "21.75");
  // 8 * 6265600 / (256 * 9) = 21755.55...: rounded down, not to nearest (21.76)
  EXPECT_NEAR(as_double(r.dynamic_tecn), 21755.5555, 0.001);
}

TEST(BufferCalc, TridentStaticTecnIsFormulaValueNotPapers0_85) {
  const bc::Report r = bc::compute(trident());
  EXPECT_EQ(bc::kb(r.static_tecn), "0.76");
  EXPECT_NEAR(as_double(r.static_tecn), 764.84375, 1e-9);
  EXPECT_LT(as_double(r.static_tecn), 1500.0);  // below one MTU: infeasible, as the paper says
}

TEST(BufferCalc, RtlConventionAlphaIsBetaOverPriorities) {
  const bc::Report r = bc::compute(trident());
  ASSERT_TRUE(r.alpha_shift.has_value());
  EXPECT_EQ(*r.alpha_shift, 0);  // beta = 8 <=> alpha = 1
  EXPECT_DOUBLE_EQ(as_double(r.shared_size), 6265600.0);
  // the RTL's dynamic threshold alpha * (SHARED_SIZE - s) equals the paper's t_PFC
  EXPECT_DOUBLE_EQ(as_double(r.dynamic_tpfc_empty), as_double(r.alpha) * 6265600.0);
  bc::Inputs in = trident();
  in.beta = bc::parse_decimal("2", "beta");
  EXPECT_EQ(*bc::compute(in).alpha_shift, -2);
  in.beta = bc::parse_decimal("3", "beta");
  EXPECT_FALSE(bc::compute(in).alpha_shift.has_value());
}

TEST(BufferCalc, DerivedTflight) {
  // 40 Gb/s = 5 B/ns; 100 m -> 2 * 100 * 5 ns = 1000 ns, + 1000 ns response = 2000 ns
  // -> 10000 B, + 2 * 1500 + 64 = 13064 B
  const bc::Q t = bc::derive_tflight(bc::parse_decimal("40", "s"), bc::parse_decimal("100", "c"), 1500,
                                     bc::parse_decimal("1000", "r"));
  EXPECT_DOUBLE_EQ(as_double(t), 13064.0);
  // fractional bytes round up: 25 Gb/s over 1 m with 1 ns response: 3.125 * 11 = 34.375
  const bc::Q u = bc::derive_tflight(bc::parse_decimal("25", "s"), bc::parse_decimal("1", "c"), 1500,
                                     bc::parse_decimal("1", "r"));
  EXPECT_DOUBLE_EQ(as_double(u), 35.0 + 3064.0);
}

TEST(BufferCalc, ParseSizes) {
  EXPECT_EQ(bc::parse_bytes("12MB", "x"), 12000000u);
  EXPECT_EQ(bc::parse_bytes("22.4KB", "x"), 22400u);
  EXPECT_EQ(bc::parse_bytes("1500", "x"), 1500u);
  EXPECT_THROW(bc::parse_bytes("0.5", "x"), std::invalid_argument);
  EXPECT_THROW(bc::parse_bytes("-1", "x"), std::invalid_argument);
  EXPECT_THROW(bc::parse_bytes("12XB", "x"), std::invalid_argument);
}

TEST(BufferCalc, CheckVerdicts) {
  bc::Inputs in = trident();
  in.kmin = 5000;
  in.kmax = 200000;
  in.xoff = 24470;
  const std::string s = bc::format(in, bc::compute(in));
  EXPECT_NE(s.find("static XOFF: ECN fires before PFC: NO"), std::string::npos) << s;
  EXPECT_NE(s.find("dynamic XOFF (beta = 8): ECN fires before PFC: YES"), std::string::npos) << s;
  EXPECT_NE(s.find("static XOFF: no overflow (XOFF <= static t_PFC): YES"), std::string::npos) << s;
  in.kmin = 21756;  // just above the dynamic bound
  const std::string t = bc::format(in, bc::compute(in));
  EXPECT_NE(t.find("dynamic XOFF (beta = 8): ECN fires before PFC: NO"), std::string::npos) << t;
  in.xoff = 24476;  // just above the static bound
  const std::string u = bc::format(in, bc::compute(in));
  EXPECT_NE(u.find("no overflow (XOFF <= static t_PFC): NO"), std::string::npos) << u;
}

TEST(BufferCalc, BadInputsGiveOneClearError) {
  std::string out, err;
  EXPECT_EQ(bc::run({"--buffer", "1MB", "--ports", "32", "--tflight", "22.4KB", "--beta", "8"}, out, err), 2);
  EXPECT_EQ(out, "");
  EXPECT_EQ(err.rfind("pfc_buffer_calc: error: buffer too small", 0), 0u) << err;
  err.clear();
  EXPECT_EQ(bc::run({"--buffer", "12MB", "--ports", "32", "--beta", "8"}, out, err), 2);
  EXPECT_NE(err.find("--tflight"), std::string::npos);
  err.clear();
  EXPECT_EQ(bc::run({"--buffer", "12MB", "--ports", "32", "--tflight", "1KB", "--beta", "0"}, out, err), 2);
  EXPECT_NE(err.find("--beta must be > 0"), std::string::npos);
  err.clear();
  EXPECT_EQ(bc::run({"--buffer", "12MB", "--bogus", "1"}, out, err), 2);
  EXPECT_NE(err.find("not expected: 1 --bogus"), std::string::npos) << err;
  err.clear();
  EXPECT_EQ(bc::run({"--buffer"}, out, err), 2);
  EXPECT_NE(err.find("--buffer"), std::string::npos) << err;
  EXPECT_NE(err.find("missing"), std::string::npos) << err;
  err.clear();
  // --ports is a count: a size suffix is refused, not read as 32,000 ports
  EXPECT_EQ(bc::run({"--buffer", "12MB", "--ports", "32K", "--tflight", "22.4KB", "--beta", "8"}, out, err), 2);
  EXPECT_NE(err.find("--ports"), std::string::npos) << err;
}
