// Golden model of rtl/drill/drill_top.sv (see drill.h and docs/drill.md).
#include "drill/drill.h"
#include "drill/drill_params.h"

#include <algorithm>
#include <stdexcept>

#include "common/bits.h"

namespace ll::drill {

namespace {

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument("drill: " + what); }

constexpr uint32_t kModeEcmp = 0, kModeRandom = 1, kModeRr = 2, kModeDrill = 3, kModeFlow = 4;

}  // namespace

// ------------------------------------------------------------------ Config

void Config::validate() const {
  // Ranges and relations: rtl/drill/drill_params.json, through scripts/params.py.
  if (const std::string e = params::check(*this); !e.empty()) bad(e);
}

Config Config::from_params(const std::map<std::string, uint64_t>& p) { return params::from_params<Config>(p); }

unsigned Config::port_aw() const { return clog2(Ports); }
unsigned Config::rand_bits() const { return clog2(Ports) + kRandExtraBits; }
unsigned Config::rnd_words() const { return (D * rand_bits() + 63) / 64; }
unsigned Config::flow_aw() const { return clog2(FlowEntries); }
unsigned Config::grp_aw() const { return Groups > 1 ? clog2(Groups) : 1; }
unsigned Config::sweep_depth() const { return std::max({FlowEntries, Groups, Comps}); }

// ------------------------------------------------------------------ pure datapath

uint64_t GroupRow::word() const {
  uint64_t w = 0;
  for (unsigned s = 0; s < kGroupSlots; ++s) {
    w |= static_cast<uint64_t>(weight[s]) << (8 * s);
    w |= static_cast<uint64_t>(comp[s]) << (32 + 8 * s);
  }
  return w;
}

GroupRow GroupRow::from_word(uint64_t w) {
  GroupRow r;
  for (unsigned s = 0; s < kGroupSlots; ++s) {
    r.weight[s] = static_cast<uint8_t>(w >> (8 * s));
    r.comp[s] = static_cast<uint8_t>(w >> (32 + 8 * s));
  }
  return r;
}

unsigned popcount(uint64_t v) {
  // SWAR count: without -mpopcnt (the Debian baseline) __builtin_popcountll is a libgcc call
  v = v - ((v >> 1) & 0x5555555555555555ull);
  v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
  v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return static_cast<unsigned>((v * 0x0101010101010101ull) >> 56);
}

unsigned kth_set_bit(uint64_t mask, unsigned k) {
  for (; k != 0 && mask != 0; --k) mask &= mask - 1;  // drop the k lowest set bits
  if (mask == 0) return 0;  // k >= popcount: the RTL result is meaningless and never used
  return static_cast<unsigned>(__builtin_ctzll(mask));
}

unsigned scale(uint64_t op, unsigned n, unsigned bits) {
  return static_cast<unsigned>((static_cast<unsigned __int128>(op) * n) >> bits);
}

CompChoice choose_component(const Config& c, uint64_t w, uint32_t hash) {
  const unsigned hc = std::min(c.HashW, 16u);
  unsigned wsum = 0;
  for (unsigned s = 0; s < kGroupSlots; ++s) wsum += (w >> (8 * s)) & 0xFF;
  const uint64_t h = (static_cast<uint64_t>(hash) & low_mask(c.HashW)) >> (c.HashW - hc);
  const unsigned x = static_cast<unsigned>(((h * wsum) >> hc) & 0x3FF);
  CompChoice r;
  r.slot = 3;
  r.comp = static_cast<unsigned>((w >> 56) & 0xFF);
  unsigned acc = 0;
  for (unsigned s = 0; s < kGroupSlots; ++s) {
    acc += (w >> (8 * s)) & 0xFF;
    if (x < acc) {
      r.slot = s;
      r.comp = static_cast<unsigned>((w >> (32 + 8 * s)) & 0xFF);
      break;
    }
  }
  r.ok = wsum != 0 && r.comp < c.Comps;
  return r;
}

// ------------------------------------------------------------------ Model

Model::Engine::Engine(const Config& c, unsigned index)
    : grp(std::max(c.Groups, 2u)),
      comp(std::max(c.Comps, 2u)),
      flow(c.FlowEntries) {
  // word 0 is the engine's stream (the RTL's drill_engine Seed); the words a wide draw
  // adds (D * rand_bits() > 64) get seeds derived from it, as in the RTL's g_prng loop
  const uint64_t seed = derive_seed(c.Seed, index);
  prng[0] = Prng(seed);
  for (unsigned w = 1; w < kMaxRndWords; ++w) prng[w] = Prng(derive_seed(seed, w));
}

Model::Rnd Model::peek(const Engine& e) const {
  Rnd r{};
  for (unsigned w = 0; w < cfg_.rnd_words(); ++w) r[w] = e.prng[w].peek();
  return r;
}

void Model::advance(Engine& e) const {
  for (unsigned w = 0; w < cfg_.rnd_words(); ++w) e.prng[w].advance();
}

namespace {
// `n` (1..64) bits of a multi-word draw starting `off` bits below the top of word 0
// (the RTL's concatenation {word 0, word 1, ...}, most significant first)
uint64_t draw_bits(const uint64_t* r, unsigned off, unsigned n) {
  const unsigned w = off / 64, b = off % 64;
  if (b + n <= 64) return (r[w] >> (64 - b - n)) & low_mask(n);
  const unsigned lo = b + n - 64;  // bits taken from the top of the next word
  return ((r[w] & low_mask(64 - b)) << lo) | (r[w + 1] >> (64 - lo));
}
}  // namespace

Model::Model(const Config& cfg) : cfg_(cfg), sweep_(std::max(cfg.sweep_depth(), 2u)) {
  cfg_.validate();
  port_mask_ = low_mask(cfg_.Ports);
  for (unsigned e = 0; e < cfg_.Engines; ++e) eng_.emplace_back(cfg_, e);
  view_.assign(cfg_.Ports, 0);
  lag_.assign(cfg_.OccLag, Upd{});
  kind_cnt_.assign(kKinds, SatAcc(cfg_.CntW));
  port_cnt_.assign(cfg_.Ports, SatAcc(cfg_.CntW));
}

void Model::check_engine(unsigned engine) const {
  if (engine >= eng_.size()) throw std::out_of_range("drill: engine index out of range");
}

std::vector<int> Model::memory(unsigned engine) const {
  check_engine(engine);
  std::vector<int> r;
  const Engine& e = eng_[engine];
  for (unsigned i = 0; i < cfg_.M; ++i)
    if (e.mem_v[i]) r.push_back(static_cast<int>(e.mem[i]));
  return r;
}

void Model::ranks(const Engine& e, uint32_t mode, uint32_t hash, unsigned cnt, const Rnd& rnd,
                  Samples& k, unsigned& rr_next, bool& rank_tie) const {
  const unsigned rb = cfg_.rand_bits();
  const unsigned cmask = static_cast<unsigned>(low_mask(clog2(cfg_.Ports + 1)));
  // ECMP operand: the bit-reversed hash, left-aligned to rb bits
  // (only ECMP reads it)
  uint64_t ecmp_op = 0;
  if (mode == kModeEcmp) {
    uint64_t rev = 0;
    for (unsigned i = 0; i < cfg_.HashW; ++i) rev |= static_cast<uint64_t>((hash >> (cfg_.HashW - 1 - i)) & 1) << i;
    ecmp_op = cfg_.HashW >= rb ? (rev >> (cfg_.HashW - rb)) : (rev << (rb - cfg_.HashW));
  }
  const unsigned rr_k = e.rr < cnt ? e.rr : 0;
  rr_next = (mode == kModeRr && cnt != 0) ? rr_k + 1 : e.rr;

  unsigned sorted[kMaxD];  // the ranks drawn so far, ascending
  unsigned ns = 0;
  k.fill(0);
  rank_tie = false;
  for (unsigned j = 0; j < cfg_.D; ++j) {
    uint64_t op = draw_bits(rnd.data(), j * rb, rb);
    if (j == 0 && mode == kModeEcmp) op = ecmp_op;
    const unsigned n = (cnt - j) & cmask;
    unsigned kk = scale(op, n, rb) & cmask;
    if (j == 0 && mode == kModeRr) kk = rr_k;
    for (unsigned i = 0; i < ns; ++i) {
      rank_tie = rank_tie || kk == sorted[i];
      if (kk >= sorted[i]) kk = (kk + 1) & cmask;  // skip the ranks already drawn (ascending)
    }
    k[j] = kk;
    unsigned* const at = std::upper_bound(sorted, sorted + ns, kk);
    std::copy_backward(at, sorted + ns, sorted + ns + 1);
    *at = kk;
    ++ns;
  }
}

Model::Q3 Model::decide(const Engine& e, uint32_t mode, uint64_t set, const Samples& port,
                        const SampleFlags& sv, uint64_t fent, uint32_t tag,
                        const std::vector<uint32_t>& occ) const {
  const unsigned D = cfg_.D, M = cfg_.M, K = D + M;
  const unsigned paw = cfg_.port_aw();
  const unsigned tagw = cfg_.HashW - cfg_.flow_aw();
  Q3 q;
  Trace& t = q.trace;
  t.valid = true;
  t.mode = static_cast<Mode>(mode);
  t.set_size = popcount(set);
  t.empty = set == 0;

  // candidates: samples in draw order, then memory entries in slot order
  constexpr unsigned kMaxK = kMaxD + kMaxM;
  unsigned cp[kMaxK], cocc[kMaxK], rank[kMaxK];  // the first K entries are used
  bool cv[kMaxK];
  for (unsigned j = 0; j < D; ++j) {
    cp[j] = port[j];
    cv[j] = sv[j];
    t.samples_valid += sv[j];
    if (sv[j]) t.sample_ports |= 1ull << port[j];
  }
  for (unsigned j = 0; j < M; ++j) {
    bool dup = false;
    for (unsigned i = 0; i < D; ++i) dup |= sv[i] && port[i] == e.mem[j];
    cp[D + j] = e.mem[j];
    const bool in_set = e.mem_v[j] && ((set >> e.mem[j]) & 1);
    cv[D + j] = in_set && !dup;
    if (cv[D + j]) t.mem_ports |= 1ull << e.mem[j];
    if (e.mem_v[j]) {
      ++t.mem_valid;
      if (!((set >> e.mem[j]) & 1)) ++t.mem_outside;
      else if (dup) ++t.mem_dup;
      else ++t.mem_in_set;
    }
  }
  // rank[i]: candidates beating i; i beats j (i < j) iff occ_i <= occ_j
  for (unsigned i = 0; i < K; ++i) {
    cocc[i] = cv[i] ? occ.at(cp[i]) : 0;
    rank[i] = 0;
  }
  for (unsigned i = 0; i < K; ++i)
    for (unsigned j = i + 1; j < K; ++j) {
      const bool bij = cv[i] && (!cv[j] || cocc[i] <= cocc[j]);
      if (bij) ++rank[j];
      else if (cv[j]) ++rank[i];
    }
  unsigned win = 0, win_i = 0;
  for (unsigned i = 0; i < K; ++i)
    if (cv[i] && rank[i] == 0) {
      win = cp[i];
      win_i = i;
    }
  for (unsigned i = 0; i < K; ++i)
    if (cv[i] && i != win_i && cocc[i] == cocc[win_i]) t.tie = true;
  // the new memory: slot r holds the valid candidate of rank r, or nothing. Beating is a
  // strict total order on the valid candidates, so their ranks are exactly 0..nvalid-1.
  unsigned nvalid = 0;
  for (unsigned i = 0; i < K; ++i)
    if (cv[i]) {
      ++nvalid;
      if (rank[i] < M) {
        q.mem[rank[i]] = cp[i];
        q.mem_v[rank[i]] = true;
      }
    }
  for (unsigned r = std::min(nvalid, M); r < M; ++r) {
    q.mem[r] = 0;
    q.mem_v[r] = false;
  }

  // per-flow entry {valid, tag, port}
  const bool fvalid = (fent >> (tagw + paw)) & 1;
  const uint32_t ftag = static_cast<uint32_t>((fent >> paw) & low_mask(tagw));
  const unsigned fport = static_cast<unsigned>(fent & low_mask(paw));
  const bool pinned = fvalid && ftag == tag && ((set >> fport) & 1);
  const bool nz = set != 0;
  const bool d_flow = nz && mode == kModeFlow;
  const bool d_drill = nz && (mode == kModeDrill || (d_flow && !pinned));
  q.mem_upd = d_drill && M > 0;
  if (q.mem_upd)
    for (unsigned r = 0; r < M; ++r)
      if (q.mem_v[r]) t.new_mem_ports |= 1ull << q.mem[r];
  q.flow_we = d_flow && !pinned;
  q.flow_data = (1ull << (tagw + paw)) | (static_cast<uint64_t>(tag) << paw) | win;

  q.kind = mode;
  if (!nz) {
    q.kind = kKindEmpty;
    q.port = 0;
  } else {
    switch (mode) {
      case kModeEcmp:
      case kModeRandom:
      case kModeRr: q.port = port[0]; break;
      case kModeFlow:
        q.port = pinned ? fport : win;
        q.kind = pinned ? kKindFlowPinned : kKindFlowNew;
        break;
      default: q.port = win; break;
    }
  }
  t.port = q.port;
  t.kind = q.kind;
  t.pinned = d_flow && pinned;
  t.repin = q.flow_we && fvalid && ftag == tag;
  t.mem_won = d_drill && win_i >= D;
  if (!d_drill) t.tie = false;
  return q;
}

// ---- cycle face

Outputs Model::eval(const Inputs& /*in*/) const {
  if (cfg_.Engines > kPortSets) throw std::logic_error("drill: the cycle face has 4 engine port sets");
  Outputs o;
  for (unsigned e = 0; e < kPortSets; ++e) {
    if (e < cfg_.Engines) {
      const Engine& g = eng_[e];
      o.ready[e] = sweep_.done();
      o.out_valid[e] = g.out_valid;
      o.out_port[e] = g.out_port;
      o.out_empty[e] = g.out_empty;
    }
  }
  o.cfg_rdata = rdata_;
  o.cfg_rvalid = rvalid_;
  o.init_done = sweep_.done();
  return o;
}

uint32_t Model::read_reg(uint32_t addr) const {
  switch (addr) {
    case regs::ID: return regs::ID_VALUE;
    case regs::PARAMS:
      return (cfg_.Ports & 0xFF) | (cfg_.D & 0xF) << 8 | (cfg_.M & 0x3F) << 12 | (cfg_.Engines & 0xF) << 18 |
             (cfg_.latency() & 0xF) << 22 | (cfg_.OccLag & 0xF) << 26;
    case regs::PARAMS2:
      return (cfg_.OccW & 0x3F) | (cfg_.HashW & 0x3F) << 6 | (cfg_.Groups & 0x7F) << 12 |
             (cfg_.Comps & 0x7F) << 19 | (cfg_.flow_aw() & 0x1F) << 26;
    case regs::STATUS: return (sweep_.done() ? 1u : 0u) | mode_ << 1;
    case regs::STAGE_MODE: return stage_mode_;
    case regs::STAGE_MASK_LO: return stage_mask_lo_;
    case regs::STAGE_MASK_HI: return stage_mask_hi_;
    case regs::STAGE_GROUP_WEIGHTS: return stage_gw_;
    case regs::STAGE_GROUP_COMPS: return stage_gc_;
    default: break;
  }
  if (addr >= regs::CNT_ECMP && addr < regs::CNT_ECMP + 4 * kKinds && addr % 4 == 0)
    return static_cast<uint32_t>(kind_cnt_[(addr - regs::CNT_ECMP) / 4].value());
  if ((addr >> 8) == (regs::CNT_PORT_BASE >> 8) && addr % 4 == 0) {
    const unsigned p = (addr & 0xFF) / 4;
    if (p < cfg_.Ports) return static_cast<uint32_t>(port_cnt_[p].value());
  }
  return 0;
}

void Model::tick(const Inputs& in) {
  if (cfg_.Engines > kPortSets) throw std::logic_error("drill: the cycle face has 4 engine port sets");
  const bool rst = !in.rst_n;
  const bool init_done = sweep_.done();
  const bool sweep_we = sweep_.we();
  const unsigned sweep_addr = static_cast<unsigned>(sweep_.addr());
  const bool cfg_wr = in.cfg_we && init_done;
  const bool mode_commit = cfg_wr && in.cfg_addr == regs::MODE_COMMIT && stage_mode_ <= 4;
  const bool comp_commit = cfg_wr && in.cfg_addr == regs::COMP_COMMIT;
  const bool grp_commit = cfg_wr && in.cfg_addr == regs::GROUP_COMMIT;
  const unsigned commit_idx = in.cfg_wdata & 0xFF;
  const uint64_t stage_mask = ((static_cast<uint64_t>(stage_mask_hi_) << 32) | stage_mask_lo_) & port_mask_;
  const uint64_t stage_grp = (static_cast<uint64_t>(stage_gc_) << 32) | stage_gw_;
  const unsigned paw = cfg_.port_aw();
  const uint32_t fmask = static_cast<uint32_t>(low_mask(cfg_.flow_aw()));
  const uint32_t hmask = static_cast<uint32_t>(low_mask(cfg_.HashW));

  // ---- counters (from the current output registers)
  // (at most one increment per engine: the ports incremented, and by how much)
  unsigned kind_inc[kKinds] = {};
  unsigned inc_port[kPortSets], inc_by[kPortSets], n_inc = 0;
  for (const Engine& g : eng_) {
    if (!g.out_valid) continue;
    ++kind_inc[g.out_kind];
    if (g.out_empty) continue;
    unsigned i = 0;
    while (i < n_inc && inc_port[i] != g.out_port) ++i;
    if (i == n_inc) {
      inc_port[n_inc] = g.out_port;
      inc_by[n_inc++] = 0;
    }
    ++inc_by[i];
  }
  auto port_inc = [&](unsigned p) {
    for (unsigned i = 0; i < n_inc; ++i)
      if (inc_port[i] == p) return inc_by[i];
    return 0u;
  };
  const bool clr_kind = cfg_wr && in.cfg_addr == regs::CNT_CLEAR;
  const bool clr_lo = cfg_wr && in.cfg_addr == regs::CNT_PORT_CLEAR_LO;
  const bool clr_hi = cfg_wr && in.cfg_addr == regs::CNT_PORT_CLEAR_HI;

  // ---- register read (current state)
  const uint32_t rdata_next = in.cfg_re ? read_reg(in.cfg_addr) : 0;

  // ---- engines
  for (unsigned ei = 0; ei < cfg_.Engines; ++ei) {
    Engine& g = eng_[ei];
    const bool accept = in.valid[ei] && init_done;
    g.trace = Trace{};

    // Q3
    const uint64_t fent = (g.fwd_v && g.fwd_idx == g.r3_fidx) ? g.fwd_data : g.flow.rdata();
    // (every use of q below is gated by r3_valid: an empty stage decides nothing)
    const bool q3_live = g.r3_valid;
    const Q3 q = q3_live ? decide(g, g.r3_mode, g.r3_set, g.r3_port, g.r3_sv, fent, g.r3_tag, view_) : Q3{};
    const bool flow_we = q3_live && q.flow_we;
    const bool mem_upd = q3_live && q.mem_upd;
    if (q3_live && !rst) {
      g.trace = q.trace;
      g.trace.flow_fwd = g.r3_mode == kModeFlow && g.fwd_v && g.fwd_idx == g.r3_fidx;
      g.trace.grp_used = g.r3_grp;
      g.trace.grp_empty = g.r3_grp_empty;
      g.trace.grp_slot = g.r3_slot;
      g.trace.rank_tie = g.r3_rank_tie;
    }

    // Q2
    Samples q2_port{};
    SampleFlags q2_sv{};
    const unsigned r2_cnt = popcount(g.r2_set);
    for (unsigned j = 0; j < cfg_.D; ++j) {
      q2_sv[j] = r2_cnt > j;
      q2_port[j] = q2_sv[j] ? kth_set_bit(g.r2_set, g.r2_k[j]) : 0;
    }

    // Q1
    const unsigned r1_cnt = popcount(g.r1_set);
    Samples q1_k;
    unsigned rr_next = g.rr;
    bool q1_rank_tie = false;
    ranks(g, g.r1_mode, g.r1_hash, r1_cnt, g.r1_rnd, q1_k, rr_next, q1_rank_tie);
    if (!g.r1_valid) rr_next = g.rr;

    // stage B / Q0 input
    bool s0_valid;
    uint32_t s0_mode, s0_hash;
    uint64_t s0_set;
    bool s0_grp = false, s0_grp_empty = false;
    unsigned s0_slot = 0;
    CompChoice cc;
    if (cfg_.Groups > 0) {
      cc = choose_component(cfg_, g.grp.rdata(), g.a_hash);
      cc.ok = cc.ok && g.a_grp_en && g.a_grp_ok;
      s0_valid = g.c.valid;
      s0_mode = g.c.mode;
      s0_hash = g.c.hash;
      s0_set = g.c.grp_en ? (g.c.comp_ok ? g.comp.rdata() & port_mask_ : 0) : g.c.mask;
      s0_grp = g.c.grp_en;
      s0_grp_empty = g.c.grp_en && (!g.c.comp_ok || s0_set == 0);
      s0_slot = g.c.slot;
    } else {
      s0_valid = g.a_valid;
      s0_mode = g.a_mode;
      s0_hash = g.a_hash;
      s0_set = g.a_mask;
    }

    // ---- RAM clocks (read-first)
    if (cfg_.Groups > 0) {
      const bool gwe = sweep_we ? sweep_addr < cfg_.Groups : (grp_commit && commit_idx < cfg_.Groups);
      const unsigned gwa = sweep_we ? sweep_addr : commit_idx;
      const uint32_t graddr = in.grp[ei] & static_cast<uint32_t>(low_mask(cfg_.grp_aw()));
      g.grp.clock(graddr < cfg_.Groups, graddr < cfg_.Groups ? graddr : 0, gwe, gwe ? gwa : 0,
                  sweep_we ? 0 : stage_grp);
      const bool cwe = sweep_we ? sweep_addr < cfg_.Comps : (comp_commit && commit_idx < cfg_.Comps);
      const unsigned cwa = sweep_we ? sweep_addr : commit_idx;
      g.comp.clock(true, g.b_comp_addr, cwe, cwe ? cwa : 0, sweep_we ? 0 : stage_mask);
    }
    {
      const bool fwe = sweep_we ? sweep_addr < cfg_.FlowEntries : flow_we;
      const unsigned fwa = sweep_we ? sweep_addr : g.r3_fidx;
      g.flow.clock(true, g.r2_hash & fmask, fwe, fwe ? fwa : 0, sweep_we ? 0 : q.flow_data);
    }

    // ---- registers
    // output
    if (rst) {
      g.out_valid = g.out_empty = false;
      g.out_port = g.out_kind = 0;
    } else {
      g.out_valid = g.r3_valid;
      g.out_empty = g.r3_valid && !g.r3_nz;
      g.out_port = g.r3_valid ? q.port : 0;
      g.out_kind = g.r3_valid ? q.kind : 0;
    }
    // memory, flow forwarding, round robin
    if (mem_upd) std::copy_n(q.mem.begin(), cfg_.M, g.mem.begin());
    if (rst) g.mem_v.fill(false);
    else if (mem_upd) std::copy_n(q.mem_v.begin(), cfg_.M, g.mem_v.begin());
    if (flow_we) {
      g.fwd_idx = g.r3_fidx;
      g.fwd_data = q.flow_data;
    }
    g.fwd_v = !rst && flow_we;
    g.rr = rst ? 0 : rr_next;
    // R3 <- Q2
    g.r3_valid = !rst && g.r2_valid;
    g.r3_mode = g.r2_mode;
    g.r3_nz = r2_cnt != 0;
    g.r3_set = g.r2_set;
    g.r3_fidx = g.r2_hash & fmask;
    g.r3_tag = (g.r2_hash & hmask) >> cfg_.flow_aw();
    g.r3_port = q2_port;
    g.r3_sv = q2_sv;
    g.r3_rank_tie = g.r2_rank_tie;
    g.r3_grp = g.r2_grp;
    g.r3_grp_empty = g.r2_grp_empty;
    g.r3_slot = g.r2_slot;
    // R2 <- Q1
    g.r2_valid = !rst && g.r1_valid;
    g.r2_mode = g.r1_mode;
    g.r2_hash = g.r1_hash;
    g.r2_set = g.r1_set;
    g.r2_k = q1_k;
    g.r2_rank_tie = q1_rank_tie;
    g.r2_grp = g.r1_grp;
    g.r2_grp_empty = g.r1_grp_empty;
    g.r2_slot = g.r1_slot;
    // R1 <- Q0 (with this packet's PRNG draw: one draw per packet, taken in Q0)
    g.r1_rnd = peek(g);
    if (rst) {
      for (auto& p : g.prng) p.reset();
    } else if (s0_valid) {
      advance(g);
    }
    g.r1_valid = !rst && s0_valid;
    g.r1_mode = s0_mode;
    g.r1_hash = s0_hash;
    g.r1_set = s0_set;
    g.r1_grp = s0_grp;
    g.r1_grp_empty = s0_grp_empty;
    g.r1_slot = s0_slot;
    // C <- B, B <- A
    if (cfg_.Groups > 0) {
      g.c = g.b;
      g.c.valid = !rst && g.b.valid;
      g.b = {!rst && g.a_valid, g.a_grp_en, cc.ok, g.a_mode, g.a_hash, g.a_mask, cc.slot};
      g.b_comp_addr = cc.comp < cfg_.Comps ? cc.comp : 0;
    }
    // A <- inputs
    g.a_valid = !rst && accept;
    g.a_mode = mode_;
    g.a_hash = in.hash[ei] & hmask;
    g.a_mask = in.mask[ei] & port_mask_;
    g.a_grp_en = in.grp_en[ei];
    g.a_grp_ok = (in.grp[ei] & static_cast<uint32_t>(low_mask(cfg_.grp_aw()))) < cfg_.Groups;
  }

  // ---- counters
  for (unsigned k = 0; k < kKinds; ++k) {
    if (rst) kind_cnt_[k].reset();
    else kind_cnt_[k].clock(clr_kind && ((in.cfg_wdata >> k) & 1), kind_inc[k]);
  }
  if (rst || clr_lo || clr_hi) {
    for (unsigned p = 0; p < cfg_.Ports; ++p) {
      const bool clr = (p < 32) ? (clr_lo && ((in.cfg_wdata >> p) & 1)) : (clr_hi && ((in.cfg_wdata >> (p - 32)) & 1));
      if (rst) port_cnt_[p].reset();
      else port_cnt_[p].clock(clr, port_inc(p));
    }
  } else {
    // no reset, no clear: only the counters with an increment change (the others would
    // be clocked with clr = 0, inc = 0, which keeps them)
    for (unsigned i = 0; i < n_inc; ++i) port_cnt_[inc_port[i]].clock(false, inc_by[i]);
  }

  // ---- occupancy view and its delay line
  const Upd last = cfg_.OccLag == 1 ? Upd{in.occ_we, in.occ_port & static_cast<uint32_t>(low_mask(paw)), in.occ_value}
                                     : lag_[cfg_.OccLag - 1];
  view_changed_ = -1;
  if (rst) {
    std::fill(view_.begin(), view_.end(), 0);
  } else if (last.we && last.port < cfg_.Ports) {
    const uint32_t v = last.value & static_cast<uint32_t>(low_mask(cfg_.OccW));
    if (view_[last.port] != v) view_changed_ = static_cast<int>(last.port);
    view_[last.port] = v;
  }
  for (unsigned s = cfg_.OccLag; s-- > 1;) {
    const Upd prev = (s == 1) ? Upd{in.occ_we, in.occ_port & static_cast<uint32_t>(low_mask(paw)), in.occ_value}
                              : lag_[s - 1];
    lag_[s] = prev;
    if (rst) lag_[s].we = false;
  }

  // ---- configuration registers
  if (rst) {
    stage_mode_ = mode_ = 3;
    stage_mask_lo_ = stage_mask_hi_ = stage_gw_ = stage_gc_ = 0;
  } else {
    if (cfg_wr) {
      switch (in.cfg_addr) {
        case regs::STAGE_MODE: stage_mode_ = in.cfg_wdata & 7; break;
        case regs::STAGE_MASK_LO: stage_mask_lo_ = in.cfg_wdata; break;
        case regs::STAGE_MASK_HI: stage_mask_hi_ = in.cfg_wdata; break;
        case regs::STAGE_GROUP_WEIGHTS: stage_gw_ = in.cfg_wdata; break;
        case regs::STAGE_GROUP_COMPS: stage_gc_ = in.cfg_wdata; break;
        default: break;
      }
    }
    if (mode_commit) mode_ = stage_mode_;
  }
  rdata_ = rst ? 0 : rdata_next;
  rvalid_ = !rst && in.cfg_re;

  if (rst) sweep_.reset();
  else sweep_.clock();
}

// ---- transaction face

CfgProgram mode_ops(uint32_t mode) { return {{regs::STAGE_MODE, mode}, {regs::MODE_COMMIT, 0}}; }

void Model::set_mode(Mode m) {
  if (static_cast<uint32_t>(m) > 4) throw std::invalid_argument("drill: mode must be 0..4");
  stage_mode_ = mode_ = static_cast<uint32_t>(m);
}

void Model::set_component(unsigned index, uint64_t mask) {
  if (index >= cfg_.Comps) throw std::invalid_argument("drill: component index >= Comps");
  if (cfg_.Groups == 0) throw std::logic_error("drill: Groups = 0 has no component tables");
  for (Engine& g : eng_) g.comp.at(index) = mask & port_mask_;
}

void Model::set_group(unsigned index, const GroupRow& row) {
  if (index >= cfg_.Groups) throw std::invalid_argument("drill: group index >= Groups");
  for (Engine& g : eng_) g.grp.at(index) = row.word();
}

void Model::reset_transaction() {
  for (unsigned e = 0; e < eng_.size(); ++e) eng_[e] = Engine(cfg_, e);
  sweep_.reset();
  while (!sweep_.done()) sweep_.clock();
  stage_mode_ = mode_ = 3;
  stage_mask_lo_ = stage_mask_hi_ = stage_gw_ = stage_gc_ = 0;
  std::fill(view_.begin(), view_.end(), 0);
  for (auto& u : lag_) u = Upd{};
  for (auto& c : kind_cnt_) c.reset();
  for (auto& c : port_cnt_) c.reset();
  rdata_ = 0;
  rvalid_ = false;
}

int Model::transact(unsigned ei, uint32_t hash, uint64_t set, const std::vector<uint32_t>& occupancy,
                    const Trace& pre) {
  Engine& g = eng_[ei];
  if (occupancy.size() < cfg_.Ports) throw std::invalid_argument("drill: occupancy needs one value per port");
  std::vector<uint32_t> occ(cfg_.Ports);
  const uint32_t omax = static_cast<uint32_t>(low_mask(cfg_.OccW));
  for (unsigned p = 0; p < cfg_.Ports; ++p) occ[p] = std::min(occupancy[p], omax);
  hash &= static_cast<uint32_t>(low_mask(cfg_.HashW));
  const unsigned cnt = popcount(set);
  Samples k;
  unsigned rr_next = g.rr;
  const Rnd rnd = peek(g);
  advance(g);
  bool rank_tie = false;
  ranks(g, mode_, hash, cnt, rnd, k, rr_next, rank_tie);
  g.rr = rr_next;
  Samples port{};
  SampleFlags sv{};
  for (unsigned j = 0; j < cfg_.D; ++j) {
    sv[j] = cnt > j;
    port[j] = sv[j] ? kth_set_bit(set, k[j]) : 0;
  }
  const uint32_t fidx = hash & static_cast<uint32_t>(low_mask(cfg_.flow_aw()));
  const uint32_t tag = hash >> cfg_.flow_aw();
  Q3 q = decide(g, mode_, set, port, sv, g.flow.at(fidx), tag, occ);
  if (q.mem_upd) {
    std::copy_n(q.mem.begin(), cfg_.M, g.mem.begin());
    std::copy_n(q.mem_v.begin(), cfg_.M, g.mem_v.begin());
  }
  if (q.flow_we) g.flow.at(fidx) = q.flow_data;
  kind_cnt_[q.kind].clock(false, 1);
  if (set != 0) port_cnt_[q.port].clock(false, 1);
  g.trace = q.trace;
  g.trace.grp_used = pre.grp_used;
  g.trace.grp_empty = pre.grp_empty;
  g.trace.grp_slot = pre.grp_slot;
  g.trace.rank_tie = rank_tie;
  return set == 0 ? -1 : static_cast<int>(q.port);
}

int Model::choose(unsigned engine, uint32_t flow_hash, uint64_t candidates, const std::vector<uint32_t>& occupancy) {
  check_engine(engine);
  return transact(engine, flow_hash, candidates & port_mask_, occupancy, Trace{});
}

int Model::choose_group(unsigned engine, uint32_t flow_hash, unsigned group, const std::vector<uint32_t>& occupancy) {
  check_engine(engine);
  if (cfg_.Groups == 0) throw std::logic_error("drill: Groups = 0 has no component stage");
  Engine& g = eng_[engine];
  Trace pre;
  pre.grp_used = true;
  uint64_t set = 0;
  if (group < cfg_.Groups) {
    const CompChoice cc = choose_component(cfg_, g.grp.at(group), flow_hash & static_cast<uint32_t>(low_mask(cfg_.HashW)));
    pre.grp_slot = cc.slot;
    if (cc.ok) set = g.comp.at(cc.comp) & port_mask_;
  }
  pre.grp_empty = set == 0;
  return transact(engine, flow_hash, set, occupancy, pre);
}

}  // namespace ll::drill
