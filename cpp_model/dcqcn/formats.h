// DCQCN fixed-point formats: the ONE place the widths and units are written.
//
// Single source: the constants come from rtl/dcqcn/dcqcn_regs.json (generated into
// cpp_model/dcqcn/dcqcn_regs.h here and rtl/dcqcn/dcqcn_regs_pkg.sv for the RTL, which
// rtl/dcqcn/dcqcn_fmt_pkg.sv re-exports). Change a format there, run scripts/regmap.py dcqcn.
//
//   rate   RATE_W = 40 bits, unsigned integer bits/s (1 b/s unit, max 1.0995 Tb/s)
//   alpha  Q1.44 (ALPHA_FRAC = 44): 45 bits, 1.0 = 2^44
//   time   TIME_W = 48 bits of time-base ticks (tick length = parameter TickPs)
//   wheel  departure times Q48.16 ticks (TIME_FRAC = 16)
//   g      2^-G_SHIFT, G_SHIFT in 1..15
//
// Arithmetic (fixed mode), all exact integer operations:
//   alpha step          a' = a - (a >> s) [+ 2^(44-s) if a CNP is being folded in]
//   decrease            Rc' = max(Rmin, floor(Rc * max(2^44 - (a >> 1), mdf) / 2^44))
//   fast recovery etc.  Rc' = max(Rmin, floor(Rc/2) + floor(Rt/2))
//   additive / hyper    Rt' = min(line, Rt + R_AI)  /  min(line, Rt + i * R_HAI)
//
// Error bound against the IEEE-double mode of the same algorithm (docs/dcqcn.md):
//   alpha: each step truncates < 2^-44 and earlier errors shrink by (1 - g), so
//          |alpha_fix - alpha_dbl| < 2^-44 / g + 2^-45 <= 2^-29 = 1.9e-9 for g >= 2^-15;
//   rate:  a decrease adds a relative error < |d alpha| / (2 (1 - alpha/2)) + 2^-44 + 1/Rc,
//          an increase < 1 / Rc per floor; with Rc >= 1 Mb/s and alpha error < 2^-29 one
//          event adds < 3e-9 relative, so 300 consecutive events stay below 1e-6. Caps at
//          the line rate and at Rmin reset the error to 0. Measured: test_dcqcn_fixed_vs_double.
#pragma once
#include <cstdint>

#include "dcqcn/dcqcn_regs.h"

namespace ll::dcqcn {

constexpr unsigned kRateW = regs::RATE_W;
constexpr unsigned kAlphaFrac = regs::ALPHA_FRAC;
constexpr unsigned kAlphaW = kAlphaFrac + 1;
constexpr uint64_t kAlphaOne = 1ull << kAlphaFrac;
constexpr unsigned kTimeW = regs::TIME_W;
constexpr unsigned kTimeFrac = regs::TIME_FRAC;
constexpr unsigned kStageW = regs::STAGE_W;
constexpr uint32_t kStageMax = (1u << kStageW) - 1;
constexpr unsigned kByteW = regs::BYTE_W;
constexpr unsigned kQcntW = regs::QCNT_W;
constexpr uint32_t kQcntMax = (1u << kQcntW) - 1;
constexpr uint64_t kMbps = regs::MBPS;
constexpr unsigned kCfgQ16 = regs::CFG_Q16;
constexpr uint64_t kRateMax = (1ull << kRateW) - 1;
constexpr uint64_t kTimeMask = (1ull << kTimeW) - 1;

// Documented bound (see above), checked by the tests.
constexpr double kRelErrorBound = 1e-6;

}  // namespace ll::dcqcn
