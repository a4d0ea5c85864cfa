#include "sim/memory_estimate.h"
#include "common/text_file.h"
#include "dcqcn/dcqcn.h"
#include "sim/balancer.h"
#include "sim/scenario.h"
#include "sim/transport.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include "sim/units.h"

#ifndef LL_SIM_WORKLOAD_DIR
#define LL_SIM_WORKLOAD_DIR "sim/workloads"
#endif

namespace ll::sim {

using json = nlohmann::json;

ScenarioError::ScenarioError(const std::string& file, const std::string& key, const std::string& what)
    : std::invalid_argument(file + ": " + (key.empty() ? std::string() : key + ": ") + what), key_(key) {}

std::string ScenarioOptions::default_workload_dir() { return LL_SIM_WORKLOAD_DIR; }

namespace {

const char* type_name(const json& j) {
  if (j.is_number_integer()) return "an integer";
  if (j.is_number()) return "a number";
  if (j.is_string()) return "a string";
  if (j.is_boolean()) return "a boolean";
  if (j.is_array()) return "an array";
  if (j.is_object()) return "an object";
  return "null";
}

// Reads one JSON object with key-path tracking. Construction rejects keys outside
// `allowed`; every getter names its key in errors.
class Obj {
 public:
  Obj(const json& j, std::string path, const std::string& file, std::vector<std::string> allowed)
      : j_(j), path_(std::move(path)), file_(file) {
    if (!j.is_object()) fail(path_, std::string("expected an object, got ") + type_name(j));
    for (const auto& item : j.items()) {
      if (std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end()) {
        std::string list;
        for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
        fail(key(item.key()), "unknown key (allowed here: " + list + ")");
      }
    }
  }

  std::string key(const std::string& k) const { return path_.empty() ? k : path_ + "." + k; }
  [[noreturn]] void fail(const std::string& keypath, const std::string& what) const {
    throw ScenarioError(file_, keypath, what);
  }
  bool has(const std::string& k) const { return j_.contains(k); }
  const json& at(const std::string& k) const {
    if (!j_.contains(k)) fail(key(k), "missing (required)");
    return j_.at(k);
  }

  std::string str(const std::string& k) const {
    const json& v = at(k);
    if (!v.is_string()) fail(key(k), std::string("expected a string, got ") + type_name(v));
    return v.get<std::string>();
  }
  std::string str(const std::string& k, const std::string& def) const { return has(k) ? str(k) : def; }

  uint64_t uint(const std::string& k, uint64_t min, uint64_t max) const {
    const json& v = at(k);
    if (!v.is_number_integer()) fail(key(k), std::string("expected an integer, got ") + type_name(v));
    if (v.is_number_unsigned() || v.get<int64_t>() >= 0) {
      const uint64_t x = v.get<uint64_t>();
      if (x >= min && x <= max) return x;
    }
    fail(key(k), "must be in " + std::to_string(min) + ".." + std::to_string(max) + " (got " + v.dump() + ")");
  }
  uint64_t uint(const std::string& k, uint64_t min, uint64_t max, uint64_t def) const {
    return has(k) ? uint(k, min, max) : def;
  }

  double number(const std::string& k) const {
    const json& v = at(k);
    if (!v.is_number()) fail(key(k), std::string("expected a number, got ") + type_name(v));
    return v.get<double>();
  }

  // Durations are strings with a unit ("10us"): a bare number would be ambiguous.
  Time time(const std::string& k) const {
    const json& v = at(k);
    if (!v.is_string()) {
      fail(key(k), std::string("expected a duration string such as \"10us\", got ") + type_name(v));
    }
    try {
      return parse_time(v.get<std::string>());
    } catch (const std::invalid_argument& e) {
      fail(key(k), e.what());
    }
  }
  Time time(const std::string& k, Time def) const { return has(k) ? time(k) : def; }

  // Rates: "40G"/"40Gbps" or a number of bits/s.
  uint64_t rate(const std::string& k) const {
    const json& v = at(k);
    uint64_t r = 0;
    if (v.is_number_integer() && v.is_number_unsigned()) {
      r = v.get<uint64_t>();
    } else if (v.is_string()) {
      try {
        r = parse_rate(v.get<std::string>());
      } catch (const std::invalid_argument& e) {
        fail(key(k), e.what());
      }
    } else {
      fail(key(k), std::string("expected a rate such as \"40G\", got ") + type_name(v) + " " + v.dump());
    }
    if (r == 0) fail(key(k), "must be > 0");
    return r;
  }

  // Byte counts: "2MB" or a number of bytes.
  uint64_t bytes(const std::string& k) const {
    const json& v = at(k);
    if (v.is_number_integer() && v.is_number_unsigned()) return v.get<uint64_t>();
    if (v.is_string()) {
      try {
        return parse_bytes(v.get<std::string>());
      } catch (const std::invalid_argument& e) {
        fail(key(k), e.what());
      }
    }
    fail(key(k), std::string("expected a size such as \"2MB\", got ") + type_name(v) + " " + v.dump());
  }

  const json& array(const std::string& k) const {
    const json& v = at(k);
    if (!v.is_array()) fail(key(k), std::string("expected an array, got ") + type_name(v));
    return v;
  }

  const std::string& path() const { return path_; }
  const std::string& file() const { return file_; }

 private:
  const json& j_;
  std::string path_;
  const std::string& file_;
};

std::string join_path(const std::string& dir, const std::string& file) {
  if (file.empty() || file[0] == '/' || dir.empty()) return file;
  return dir.back() == '/' ? dir + file : dir + "/" + file;
}

std::string dirname(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

LinkSpec link_spec(const Obj& parent, const std::string& k, LinkSpec def) {
  if (!parent.has(k)) return def;
  Obj o(parent.at(k), parent.key(k), parent.file(), {"speed", "delay"});
  if (o.has("speed")) def.bps = o.rate("speed");
  def.delay = o.time("delay", def.delay);
  return def;
}

struct Context {
  std::string file;
  std::string base_dir;
  ScenarioOptions opt;
};

// Runs a builder; its std::invalid_argument("<param>: ...") becomes "<path>.<param>: ...".
template <class F>
Topology build(const Obj& o, F&& f) {
  try {
    return f();
  } catch (const ScenarioError&) {
    throw;
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    const size_t colon = msg.find(": ");
    if (colon != std::string::npos && msg.find(' ') > colon) {
      o.fail(o.key(msg.substr(0, colon)), msg.substr(colon + 2));
    }
    o.fail(o.path(), msg);
  }
}

// ["a", "b"] -> the two node ids, both switches or one host and one switch.
std::pair<NodeId, NodeId> endpoints(const Obj& o, const Topology& t) {
  const json& b = o.array("between");
  if (b.size() != 2 || !b[0].is_string() || !b[1].is_string()) {
    o.fail(o.key("between"), "expected two node names, e.g. [\"leaf0\", \"spine0\"]");
  }
  NodeId n[2];
  for (int i = 0; i < 2; ++i) {
    const std::string name = b[i].get<std::string>();
    if (!t.has(name)) o.fail(o.key("between"), "no node named \"" + name + "\"");
    n[i] = t.find(name);
  }
  return {n[0], n[1]};
}

// The link an entry addresses: "between" plus "index" when there are parallel links.
LinkId pick_link(const Obj& o, const Topology& t) {
  const auto [a, b] = endpoints(o, t);
  const std::vector<LinkId> links = t.links_between(a, b);
  const std::string names = t.node(a).name + " and " + t.node(b).name;
  if (links.empty()) o.fail(o.key("between"), "no link between " + names);
  if (!o.has("index")) {
    if (links.size() > 1) {
      o.fail(o.path(), std::to_string(links.size()) + " parallel links between " + names +
                           ": give \"index\" (0.." + std::to_string(links.size() - 1) + ")");
    }
    return links[0];
  }
  return links[o.uint("index", 0, links.size() - 1)];
}

Topology parse_topology(const Obj& parent, std::string& type_out) {
  const json& tj = parent.at("topology");
  const std::string path = parent.key("topology");
  // The type decides which keys are allowed, so read it before the strict pass.
  if (!tj.is_object()) Obj(tj, path, parent.file(), {});
  if (!tj.contains("type")) parent.fail(path + ".type", "missing (required: leaf_spine, dcqcn_testbed or fat_tree)");
  if (!tj.at("type").is_string()) parent.fail(path + ".type", std::string("expected a string, got ") + type_name(tj.at("type")));
  const std::string type = tj.at("type").get<std::string>();
  static const std::map<std::string, std::vector<std::string>> params = {
      {"leaf_spine", {"spines", "leaves", "hosts_per_leaf", "host_link", "fabric_link"}},
      {"dcqcn_testbed", {"hosts_per_tor", "host_link", "tor_leaf_link", "leaf_spine_link"}},
      {"fat_tree", {"k", "host_link", "edge_agg_link", "agg_core_link"}}};
  const auto pit = params.find(type);
  if (pit == params.end()) {
    parent.fail(path + ".type", "unknown topology type \"" + type + "\" (expected leaf_spine, dcqcn_testbed or fat_tree)");
  }
  std::vector<std::string> allowed = pit->second;
  allowed.insert(allowed.begin(), "type");
  allowed.insert(allowed.end(), {"striping", "link_overrides", "failed_links"});
  const Obj o(tj, path, parent.file(), allowed);
  Topology t;
  if (type == "leaf_spine") {
    LeafSpineParams p;
    p.spines = static_cast<uint32_t>(o.uint("spines", 0, 0xFFFFFFFFu));
    p.leaves = static_cast<uint32_t>(o.uint("leaves", 0, 0xFFFFFFFFu));
    p.hosts_per_leaf = static_cast<uint32_t>(o.uint("hosts_per_leaf", 0, 0xFFFFFFFFu));
    p.host_link = link_spec(o, "host_link", p.host_link);
    p.fabric_link = link_spec(o, "fabric_link", p.fabric_link);
    t = build(o, [&] { return build_leaf_spine(p); });
  } else if (type == "dcqcn_testbed") {
    DcqcnTestbedParams p;
    p.hosts_per_tor = static_cast<uint32_t>(o.uint("hosts_per_tor", 0, 0xFFFFFFFFu, p.hosts_per_tor));
    p.host_link = link_spec(o, "host_link", p.host_link);
    p.tor_leaf_link = link_spec(o, "tor_leaf_link", p.tor_leaf_link);
    p.leaf_spine_link = link_spec(o, "leaf_spine_link", p.leaf_spine_link);
    t = build(o, [&] { return build_dcqcn_testbed(p); });
  } else {
    FatTreeParams p;
    p.k = static_cast<uint32_t>(o.uint("k", 0, 0xFFFFFFFFu));
    p.host_link = link_spec(o, "host_link", p.host_link);
    p.edge_agg_link = link_spec(o, "edge_agg_link", p.edge_agg_link);
    p.agg_core_link = link_spec(o, "agg_core_link", p.agg_core_link);
    t = build(o, [&] { return build_fat_tree(p); });
  }
  type_out = type;

  // Modifiers, in a fixed order: striping (changes the links), overrides, failures.
  if (o.has("striping")) {
    const json& arr = o.array("striping");
    for (size_t i = 0; i < arr.size(); ++i) {
      Obj e(arr[i], o.key("striping") + "[" + std::to_string(i) + "]", o.file(), {"between", "links"});
      const auto [a, b] = endpoints(e, t);
      const unsigned links = static_cast<unsigned>(e.uint("links", 0, 64));
      try {
        t.set_parallel_links(a, b, links);
      } catch (const std::invalid_argument& ex) {
        std::string msg = ex.what();
        if (msg.rfind("striping: ", 0) == 0) msg = msg.substr(10);
        e.fail(e.key("between"), msg);
      }
    }
  }
  if (o.has("link_overrides")) {
    const json& arr = o.array("link_overrides");
    for (size_t i = 0; i < arr.size(); ++i) {
      Obj e(arr[i], o.key("link_overrides") + "[" + std::to_string(i) + "]", o.file(), {"between", "index", "speed", "delay"});
      const LinkId l = pick_link(e, t);
      if (!e.has("speed") && !e.has("delay")) e.fail(e.path(), "give \"speed\" and/or \"delay\"");
      if (e.has("speed")) t.set_link_rate(l, e.rate("speed"));
      if (e.has("delay")) t.set_link_delay(l, e.time("delay"));
    }
  }
  if (o.has("failed_links")) {
    const json& arr = o.array("failed_links");
    for (size_t i = 0; i < arr.size(); ++i) {
      Obj e(arr[i], o.key("failed_links") + "[" + std::to_string(i) + "]", o.file(), {"between", "index"});
      const LinkId l = pick_link(e, t);
      if (t.link(l).failed) e.fail(e.path(), "link failed twice");
      t.fail_link(l);
    }
  }
  if (const std::string m = routing_memory_problem(t); !m.empty()) o.fail(o.path(), m);
  const Routing routing(t);
  const auto [src, dst] = routing.first_unreachable_pair();
  if (src != Routing::kUnreachable) {
    const std::string culprit = o.has("failed_links") ? o.key("failed_links")
                                : o.has("striping")   ? o.key("striping")
                                                      : o.path();
    o.fail(culprit, "hosts " + t.node(src).name + " and " + t.node(dst).name +
                        " are disconnected (no path over live links)");
  }
  return t;
}

std::string choice(const Obj& o, const std::string& k, const std::string& def, const std::vector<std::string>& options);

TrafficSpec parse_traffic(const json& j, const std::string& path, const Context& ctx, const Topology& topo,
                          Time duration) {
  if (!j.is_object()) Obj(j, path, ctx.file, {});
  if (!j.contains("pattern")) throw ScenarioError(ctx.file, path + ".pattern", "missing (required)");
  if (!j.at("pattern").is_string()) {
    throw ScenarioError(ctx.file, path + ".pattern", std::string("expected a string, got ") + type_name(j.at("pattern")));
  }
  static const std::map<std::string, Pattern> patterns = {
      {"permutation", Pattern::Permutation}, {"stride", Pattern::Stride}, {"random", Pattern::Random},
      {"pairs", Pattern::Pairs},             {"shuffle", Pattern::Shuffle}, {"incast", Pattern::Incast},
      {"file", Pattern::File}};
  const std::string pname = j.at("pattern").get<std::string>();
  const auto pit = patterns.find(pname);
  if (pit == patterns.end()) {
    throw ScenarioError(ctx.file, path + ".pattern",
                        "unknown pattern \"" + pname + "\" (expected permutation, stride, random, pairs, shuffle, incast or file)");
  }
  TrafficSpec s;
  s.pattern = pit->second;
  std::vector<std::string> allowed = {"pattern", "start"};
  const bool arrivals = s.pattern == Pattern::Permutation || s.pattern == Pattern::Stride ||
                        s.pattern == Pattern::Random || s.pattern == Pattern::Pairs;
  if (arrivals) allowed.insert(allowed.end(), {"arrival", "load", "load_on", "stop"});
  if (s.pattern != Pattern::File) allowed.insert(allowed.end(), {"size", "size_cdf"});
  if (s.pattern == Pattern::Stride) allowed.push_back("stride");
  if (s.pattern == Pattern::Pairs) allowed.push_back("pairs");
  if (s.pattern == Pattern::Incast) allowed.insert(allowed.end(), {"senders", "receiver", "receivers", "repeat", "interval"});
  if (s.pattern == Pattern::File) allowed.push_back("file");
  const Obj o(j, path, ctx.file, allowed);

  s.start = o.time("start", 0);
  if (s.start >= duration) o.fail(o.key("start"), "must be before the scenario's duration (" + format_time(duration) + ")");
  if (arrivals) {
    const std::string a = o.str("arrival", "once");
    if (a == "once") s.arrival = Arrival::Once;
    else if (a == "poisson") s.arrival = Arrival::Poisson;
    else o.fail(o.key("arrival"), "expected \"once\" or \"poisson\", got \"" + a + "\"");
    if (s.arrival == Arrival::Poisson) {
      s.load = o.number("load");
      s.load_on_uplinks = choice(o, "load_on", "host", {"host", "uplinks"}) == "uplinks";
      if (s.load_on_uplinks) {
        for (NodeId h = 0; h < topo.num_hosts(); ++h) {
          if (topo.uplink_share(h) <= 0) o.fail(o.key("load_on"), "host " + topo.node(h).name + "'s switch has no uplink");
        }
      }
      s.stop = o.time("stop", duration);
      if (s.stop > duration) o.fail(o.key("stop"), "after the scenario's duration (" + format_time(duration) + ")");
    } else {
      if (o.has("load")) o.fail(o.key("load"), "only with \"arrival\": \"poisson\"");
      if (o.has("stop")) o.fail(o.key("stop"), "only with \"arrival\": \"poisson\"");
      if (o.has("load_on")) o.fail(o.key("load_on"), "only with \"arrival\": \"poisson\"");
    }
  }
  if (s.pattern != Pattern::File) {
    if (o.has("size") == o.has("size_cdf")) o.fail(o.key("size"), "give exactly one of \"size\" and \"size_cdf\"");
    if (o.has("size")) {
      s.size.fixed = o.bytes("size");
    } else {
      const std::string name = o.str("size_cdf");
      const bool builtin = name.find('/') == std::string::npos &&
                           (name.size() < 4 || name.compare(name.size() - 4, 4, ".cdf") != 0);
      const std::string file = builtin ? join_path(ctx.opt.workload_dir, name + ".cdf") : join_path(ctx.base_dir, name);
      try {
        s.size.cdf = std::make_shared<const Cdf>(Cdf::load(file));
      } catch (const std::invalid_argument& e) {
        o.fail(o.key("size_cdf"), e.what());
      }
    }
  }
  if (s.pattern == Pattern::Stride) s.stride = static_cast<uint32_t>(o.uint("stride", 1, 0xFFFFFFFFu));
  if (s.pattern == Pattern::Pairs) s.pairs = static_cast<uint32_t>(o.uint("pairs", 1, 0xFFFFFFFFu));
  if (s.pattern == Pattern::Incast) {
    s.incast_senders = static_cast<uint32_t>(o.uint("senders", 1, 0xFFFFFFFFu));
    if (o.has("receiver")) {
      const std::string r = o.str("receiver");
      if (!topo.has(r) || !topo.is_host(topo.find(r))) o.fail(o.key("receiver"), "no host named \"" + r + "\"");
      s.incast_receiver = topo.find(r);
    }
    s.incast_receivers = static_cast<uint32_t>(o.uint("receivers", 1, 0xFFFFFFFFu, 1));
    if (s.incast_receivers > topo.num_hosts()) {
      o.fail(o.key("receivers"), "more receivers (" + std::to_string(s.incast_receivers) + ") than hosts (" +
                                     std::to_string(topo.num_hosts()) + ")");
    }
    if (s.incast_receivers > 1 && s.incast_receiver >= 0) o.fail(o.key("receivers"), "a fixed receiver and receivers > 1 exclude each other");
    s.repeat = static_cast<uint32_t>(o.uint("repeat", 1, 1u << 24, 1));
    s.interval = o.time("interval", 0);
    if (s.repeat > 1 && s.start + (s.repeat - 1) * static_cast<double>(s.interval) >= static_cast<double>(duration)) {
      o.fail(o.key("repeat"), "the last round would start after the scenario's duration");
    }
  }
  if (s.pattern == Pattern::File) {
    s.file = join_path(ctx.base_dir, o.str("file"));
    try {
      s.file_flows = load_flow_file(s.file, topo);
    } catch (const std::invalid_argument& e) {
      o.fail(o.key("file"), e.what());
    }
    for (const Flow& f : s.file_flows) {
      if (s.start + static_cast<double>(f.start) >= static_cast<double>(duration)) {
        o.fail(o.key("file"), "a flow starts at " + format_time(s.start + f.start) +
                                  ", not before the scenario's duration (" + format_time(duration) + ")");
      }
    }
  }
  if (s.arrival == Arrival::Poisson) {
    const double n = expected_flow_count(s, topo);
    if (n > static_cast<double>(kMaxFlows)) {
      o.fail(o.key("load"), "about " + std::to_string(static_cast<uint64_t>(n)) + " flows expected, more than the " +
                                std::to_string(kMaxFlows) + " a scenario may generate; shorten the run or lower the load");
    }
  }
  try {
    s.validate(topo.num_hosts());
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    const size_t colon = msg.find(": ");
    o.fail(o.key(msg.substr(0, colon)), msg.substr(colon + 2));
  }
  if (s.arrival == Arrival::Once) {  // an incast's rounds x senders x receivers can be as many
    const double n = flow_count(s, topo);
    if (n > static_cast<double>(kMaxFlows)) {
      o.fail(o.key(s.pattern == Pattern::Incast ? "repeat" : "pattern"),
             std::to_string(static_cast<uint64_t>(n)) + " flows, more than the " + std::to_string(kMaxFlows) +
                 " a scenario may generate");
    }
  }
  return s;
}

bool boolean(const Obj& o, const std::string& k, bool def) {
  if (!o.has(k)) return def;
  const json& v = o.at(k);
  if (!v.is_boolean()) o.fail(o.key(k), std::string("expected true or false, got ") + type_name(v));
  return v.get<bool>();
}

std::string choice(const Obj& o, const std::string& k, const std::string& def, const std::vector<std::string>& options) {
  const std::string v = o.str(k, def);
  if (std::find(options.begin(), options.end(), v) == options.end()) {
    std::string list;
    for (const auto& a : options) list += (list.empty() ? "" : ", ") + a;
    o.fail(o.key(k), "\"" + v + "\" is not one of: " + list);
  }
  return v;
}

double fraction(const Obj& o, const std::string& k, double def, double lo, double hi) {
  if (!o.has(k)) return def;
  const double v = o.number(k);
  if (!(v >= lo && v <= hi)) {
    o.fail(o.key(k), "must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "] (got " + std::to_string(v) + ")");
  }
  return v;
}

void parse_switch(const Obj& top, SwitchCfg& c) {
  if (!top.has("switch")) return;
  const Obj o(top.at("switch"), "switch", top.file(), {"marker", "pfc", "scheduler"});
  if (o.has("marker")) {
    const Obj m(o.at("marker"), "switch.marker", o.file(), {"enable", "mode", "kmin", "kmax", "pmax", "ewma_shift", "dequeue"});
    c.marker.enable = boolean(m, "enable", c.marker.enable);
    c.marker.mode = choice(m, "mode", c.marker.mode, {"red", "cutoff"});
    if (m.has("kmin")) c.marker.kmin = m.bytes("kmin");
    if (m.has("kmax")) c.marker.kmax = m.bytes("kmax");
    if (c.marker.kmax >= (1ull << 24) || c.marker.kmin >= (1ull << 24)) m.fail("switch.marker", "kmin and kmax must be below 16 MiB");
    if (c.marker.mode == "red" && c.marker.kmin > c.marker.kmax) m.fail("switch.marker.kmin", "must not exceed kmax");
    c.marker.pmax = fraction(m, "pmax", c.marker.pmax, 0.0, 1.0);
    c.marker.ewma_shift = static_cast<unsigned>(m.uint("ewma_shift", 0, 15, c.marker.ewma_shift));
    c.marker.dequeue = boolean(m, "dequeue", c.marker.dequeue);
  }
  if (o.has("pfc")) {
    const Obj p(o.at("pfc"), "switch.pfc", o.file(),
                {"enable", "threshold", "alpha_shift", "xoff", "xon_offset", "buffer", "headroom", "reserved",
                 "tick", "watchdog_detect", "watchdog_restore", "allow_lossless_drops", "pool", "lossy_alpha_shift",
                 "lossy_buffer"});
    c.pfc.enable = boolean(p, "enable", c.pfc.enable);
    c.pfc.dynamic = choice(p, "threshold", c.pfc.dynamic ? "dynamic" : "static", {"dynamic", "static"}) == "dynamic";
    if (p.has("alpha_shift")) {
      const json& v = p.at("alpha_shift");
      if (!v.is_number_integer() || v.get<int64_t>() < -8 || v.get<int64_t>() > 7) p.fail("switch.pfc.alpha_shift", "must be an integer in -8..7");
      c.pfc.alpha_shift = static_cast<int>(v.get<int64_t>());
    }
    c.pfc.pool = boolean(p, "pool", c.pfc.pool);
    c.pfc.lossy_alpha_shift = c.pfc.alpha_shift;
    if (p.has("lossy_alpha_shift")) {
      if (!c.pfc.pool) p.fail("switch.pfc.lossy_alpha_shift", "needs \"pool\": true (classic mode does not enforce the egress lossy pool)");
      const json& v = p.at("lossy_alpha_shift");
      if (!v.is_number_integer() || v.get<int64_t>() < -8 || v.get<int64_t>() > 7) p.fail("switch.pfc.lossy_alpha_shift", "must be an integer in -8..7");
      c.pfc.lossy_alpha_shift = static_cast<int>(v.get<int64_t>());
    }
    if (p.has("lossy_buffer")) {
      if (!c.pfc.pool) p.fail("switch.pfc.lossy_buffer", "needs \"pool\": true (classic mode does not enforce the egress lossy pool)");
      c.pfc.lossy_buffer = p.bytes("lossy_buffer");
    }
    // xoff, xon_offset and headroom are derived per switch when left out (0 inside means
    // "derive"), so an explicit 0 would silently become the derived value: refused.
    for (const char* k : {"xoff", "xon_offset", "headroom"}) {
      if (p.has(k) && p.bytes(k) == 0) {
        p.fail(std::string("switch.pfc.") + k, "must be at least 1 byte (leave the key out for the value derived per switch)");
      }
    }
    if (p.has("xoff")) c.pfc.xoff = p.bytes("xoff");
    if (p.has("xon_offset")) c.pfc.xon_offset = p.bytes("xon_offset");
    if (p.has("buffer")) c.pfc.buffer = p.bytes("buffer");
    if (p.has("headroom")) c.pfc.headroom = p.bytes("headroom");
    if (p.has("reserved")) c.pfc.reserved = p.bytes("reserved");
    const uint64_t lim = (1ull << 24) - 1;
    if (c.pfc.buffer == 0 || c.pfc.buffer > lim) p.fail("switch.pfc.buffer", "must be in 1..16777215 bytes (the PFC block's 24-bit counters)");
    for (const auto& [k, v] : {std::pair<const char*, uint64_t>{"xoff", c.pfc.xoff}, {"xon_offset", c.pfc.xon_offset},
                               {"headroom", c.pfc.headroom}, {"reserved", c.pfc.reserved}, {"lossy_buffer", c.pfc.lossy_buffer}}) {
      if (v > lim) p.fail(std::string("switch.pfc.") + k, "must be below 16 MiB");
    }
    if (p.has("tick")) {
      const Time t = p.time("tick");
      if (t % kNs != 0 || t / kNs < 1 || t / kNs > 65535) p.fail("switch.pfc.tick", "must be a whole number of ns in 1..65535 ns");
      c.pfc.tick_ns = static_cast<unsigned>(t / kNs);
    }
    c.pfc.watchdog_detect = p.time("watchdog_detect", c.pfc.watchdog_detect);
    c.pfc.watchdog_restore = p.time("watchdog_restore", c.pfc.watchdog_restore);
    if ((c.pfc.watchdog_detect == 0) != (c.pfc.watchdog_restore == 0)) {
      p.fail("switch.pfc.watchdog_restore", "give both watchdog_detect and watchdog_restore, or neither");
    }
    c.pfc.allow_lossless_drops = boolean(p, "allow_lossless_drops", c.pfc.allow_lossless_drops);
  }
  if (o.has("scheduler")) {
    const Obj s(o.at("scheduler"), "switch.scheduler", o.file(), {"policy", "weights"});
    c.sched.policy = choice(s, "policy", c.sched.policy, {"sp", "wrr"});
    if (s.has("weights")) {
      const json& w = s.array("weights");
      if (w.size() != 8) s.fail("switch.scheduler.weights", "expected 8 weights, one per priority");
      for (size_t i = 0; i < 8; ++i) {
        if (!w[i].is_number_unsigned() || w[i].get<uint64_t>() < 1 || w[i].get<uint64_t>() > 64) {
          s.fail("switch.scheduler.weights[" + std::to_string(i) + "]", "must be an integer in 1..64");
        }
        c.sched.weights[i] = static_cast<unsigned>(w[i].get<uint64_t>());
      }
    }
  }
}

void parse_run(const Obj& top, Time duration, RunCfg& r) {
  r.cap = duration > ~Time{0} / 10 ? ~Time{0} : 10 * duration;
  r.window_to = duration;
  if (!top.has("run")) return;
  const Obj o(top.at("run"), "run", top.file(), {"until", "cap", "window", "deadlock_after"});
  r.deadlock_after = o.time("deadlock_after", r.deadlock_after);
  r.all_done = choice(o, "until", "duration", {"duration", "all_done"}) == "all_done";
  if (o.has("cap")) {
    if (!r.all_done) o.fail("run.cap", "only with until = \"all_done\"");
    r.cap = o.time("cap");
    if (r.cap < duration) o.fail("run.cap", "must be at least the duration (" + format_time(duration) + ")");
  }
  if (o.has("window")) {
    const Obj w(o.at("window"), "run.window", o.file(), {"from", "to"});
    r.window_from = w.time("from", 0);
    r.window_to = w.time("to", duration);
    if (r.window_to > duration) w.fail("run.window.to", "after the duration (" + format_time(duration) + "): no flow starts then");
    if (r.window_from >= r.window_to) w.fail("run.window.from", "must be before run.window.to");
  }
}

std::vector<std::string> dcqcn_keys(bool with_enable) {
  std::vector<std::string> k = {"variant", "g_shift", "alpha_period", "dec_period", "inc_period", "byte_reset",
                                "threshold", "rai", "rhai", "rmin", "clamp_target", "np_per_packet", "np_interval"};
  if (with_enable) k.insert(k.begin(), "enable");
  return k;
}

// The DCQCN block's settings (nic.dcqcn, or a group's); fields absent keep q's values.
void parse_dcqcn(const Obj& d, DcqcnCfg& q) {
  const std::string at = d.key("");  // "nic.dcqcn." or "nic.groups[i].dcqcn."
  q.enable = boolean(d, "enable", q.enable);
  q.variant = choice(d, "variant", q.variant, {"nic", "paper"});
  q.g_shift = static_cast<unsigned>(d.uint("g_shift", 1, 15, q.g_shift));
  q.alpha_period = d.time("alpha_period", q.alpha_period);
  q.dec_period = d.time("dec_period", q.dec_period);
  q.inc_period = d.time("inc_period", q.inc_period);
  for (const char* k : {"alpha_period", "dec_period", "inc_period"}) {
    const Time t = d.has(k) ? d.time(k) : 1 * kUs;
    if (t < kNs || t % kNs != 0 || t / kNs > 0xFFFFFFFFull) d.fail(at + k, "must be a whole number of ns, 1ns..4.29s");
  }
  if (d.has("byte_reset")) q.byte_reset = d.bytes("byte_reset");
  if (q.byte_reset > 0xFFFFFFFFull) d.fail(at + "byte_reset", "must be below 4 GiB");
  q.threshold = static_cast<unsigned>(d.uint("threshold", 0, 255, q.threshold));
  if (d.has("rai")) q.rai = d.rate("rai");
  if (d.has("rhai")) q.rhai = d.rate("rhai");
  if (d.has("rmin")) q.rmin = d.rate("rmin");
  for (const auto& [k, v] : {std::pair<const char*, uint64_t>{"rai", q.rai}, {"rhai", q.rhai}, {"rmin", q.rmin}}) {
    if (v % 1'000'000 != 0 || v / 1'000'000 > 0xFFFFFFFFull) d.fail(at + k, "must be a whole number of Mb/s");
  }
  q.clamp_target = boolean(d, "clamp_target", q.clamp_target);
  q.np_per_packet = boolean(d, "np_per_packet", q.np_per_packet);
  q.np_interval = d.time("np_interval", q.np_interval);
  if (q.np_interval % kNs != 0) d.fail(at + "np_interval", "must be a whole number of ns");
}

// A list of host names (["h0", "h3"]) -> node ids; each must name a host, once.
std::vector<uint32_t> host_list(const Obj& o, const std::string& k, const Topology& topo) {
  const json& v = o.at(k);
  if (!v.is_array() || v.empty()) o.fail(o.key(k), "expected a non-empty array of host names");
  std::vector<uint32_t> out;
  for (size_t i = 0; i < v.size(); ++i) {
    const std::string kp = o.key(k) + "[" + std::to_string(i) + "]";
    if (!v[i].is_string()) o.fail(kp, "expected a host name");
    const std::string name = v[i].get<std::string>();
    if (!topo.has(name)) o.fail(kp, "no node named \"" + name + "\"");
    const NodeId n = topo.find(name);
    if (!topo.is_host(n)) o.fail(kp, "\"" + name + "\" is a switch, not a host");
    if (std::find(out.begin(), out.end(), n) != out.end()) o.fail(kp, "\"" + name + "\" named twice");
    out.push_back(n);
  }
  return out;
}

void parse_nic(const Obj& top, NicCfg& c, const Topology& topo) {
  if (!top.has("nic")) return;
  const Obj o(top.at("nic"), "nic", top.file(),
              {"dcqcn", "groups", "transport", "irn", "dctcp", "reorder", "receiver", "mtu", "ack_every", "rto", "qps"});
  if (o.has("receiver")) o.fail("nic.receiver", "renamed: the transport is nic.transport (\"gbn\" or \"sr\" as before)");
  c.transport = choice(o, "transport", c.transport, transport_names());
  if (o.has("mtu")) c.mtu = o.bytes("mtu");
  if (c.mtu < 64 || c.mtu > 9000) o.fail("nic.mtu", "must be in 64..9000 bytes of payload");
  c.ack_every = static_cast<unsigned>(o.uint("ack_every", 1, 1024, c.ack_every));
  c.rto = o.time("rto", c.rto);
  if (c.rto < kUs) o.fail("nic.rto", "must be at least 1us");
  c.qps = static_cast<unsigned>(o.uint("qps", 2, 65536, c.qps));
  if (o.has("irn")) {
    const Obj r(o.at("irn"), "nic.irn", o.file(), {"rto_high", "rto_low", "rto_low_pkts", "bdp_cap", "reorder"});
    IrnCfg& q = c.irn;
    q.rto_high = r.time("rto_high", q.rto_high);
    q.rto_low = r.time("rto_low", q.rto_low);
    if (q.rto_low < kUs) r.fail("nic.irn.rto_low", "must be at least 1us");
    if (q.rto_high < q.rto_low) r.fail("nic.irn.rto_high", "must be at least rto_low");
    q.rto_low_pkts = static_cast<unsigned>(r.uint("rto_low_pkts", 0, 1u << 20, q.rto_low_pkts));
    q.bdp_cap = r.uint("bdp_cap", 0, 0xFFFFFFFFu, q.bdp_cap);
    q.reorder = static_cast<unsigned>(r.uint("reorder", 1, 1u << 20, q.reorder));
  }
  if (o.has("dctcp")) {
    const Obj d(o.at("dctcp"), "nic.dctcp", o.file(), {"ecn", "g_shift", "min_rto", "init_cwnd", "dupacks", "shim"});
    DctcpCfg& q = c.dctcp;
    q.ecn = boolean(d, "ecn", q.ecn);
    q.g_shift = static_cast<unsigned>(d.uint("g_shift", 0, 16, q.g_shift));
    q.min_rto = d.time("min_rto", q.min_rto);
    if (q.min_rto < kUs || q.min_rto > 10 * kSec) d.fail("nic.dctcp.min_rto", "must be in 1us..10s");
    q.init_cwnd = static_cast<unsigned>(d.uint("init_cwnd", 1, 1u << 20, q.init_cwnd));
    q.dupacks = static_cast<unsigned>(d.uint("dupacks", 1, 1024, q.dupacks));
    q.shim = d.time("shim", q.shim);
  }
  if (o.has("reorder")) {
    const Obj r(o.at("reorder"), "nic.reorder", o.file(), {"slots", "timeout"});
    c.reorder.slots = static_cast<uint32_t>(r.uint("slots", 0, 1u << 16, c.reorder.slots));
    c.reorder.timeout = r.time("timeout", c.reorder.timeout);
    if (c.reorder.slots && c.reorder.timeout < 100 * kNs) r.fail("nic.reorder.timeout", "must be at least 100ns");
  }
  if (o.has("dcqcn")) parse_dcqcn(Obj(o.at("dcqcn"), "nic.dcqcn", o.file(), dcqcn_keys(true)), c.dcqcn);
  if (!o.has("groups")) return;
  const json& arr = o.at("groups");
  if (!arr.is_array() || arr.empty()) o.fail("nic.groups", "expected a non-empty array of {name, hosts, dcqcn}");
  for (size_t i = 0; i < arr.size(); ++i) {
    const std::string path = "nic.groups[" + std::to_string(i) + "]";
    const Obj g(arr[i], path, o.file(), {"name", "hosts", "dcqcn"});
    NicGroup grp;
    grp.name = g.str("name", "group" + std::to_string(i));
    for (const NicGroup& e : c.groups)
      if (e.name == grp.name) g.fail(path + ".name", "\"" + grp.name + "\" names two groups");
    grp.hosts = host_list(g, "hosts", topo);
    grp.dcqcn = c.dcqcn;  // the fleet's settings, then the group's
    // enable stays the fleet's: a NIC without DCQCN has no QP slots to grant
    parse_dcqcn(Obj(g.at("dcqcn"), path + ".dcqcn", o.file(), dcqcn_keys(false)), grp.dcqcn);
    c.groups.push_back(std::move(grp));
  }
}

void parse_balancer(const Obj& top, BalancerCfg& c) {
  if (!top.has("balancer")) return;
  const Obj o(top.at("balancer"), "balancer", top.file(),
              {"mode", "d", "m", "engines", "components", "occupancy_period", "flowlet_gap", "flowlet_entries", "flowcell",
               "conga", "conweave"});
  std::vector<std::string> modes;  // the balancer registry's names (sim/balancer.cpp)
  for (const BalancerEntry& e : balancer_registry()) modes.emplace_back(e.name);
  c.mode = choice(o, "mode", c.mode, modes);
  c.d = static_cast<unsigned>(o.uint("d", 1, 15, c.d));  // the selector's D range (rtl/drill/drill_params.json)
  c.m = static_cast<unsigned>(o.uint("m", 0, 32, c.m));
  c.engines = static_cast<unsigned>(o.uint("engines", 1, 64, c.engines));
  c.components = boolean(o, "components", c.components);
  c.occupancy_period = o.time("occupancy_period", c.occupancy_period);
  if (c.occupancy_period && c.occupancy_period < kNs) o.fail("balancer.occupancy_period", "must be 0 (exact) or at least 1ns");
  c.flowlet_gap = o.time("flowlet_gap", c.flowlet_gap);
  c.flowlet_entries = static_cast<unsigned>(o.uint("flowlet_entries", 1, 1u << 24, c.flowlet_entries));
  if (c.flowlet_entries & (c.flowlet_entries - 1)) o.fail("balancer.flowlet_entries", "must be a power of two (a hash-indexed table)");
  if (o.has("flowcell")) c.flowcell = o.bytes("flowcell");
  if (c.flowcell < 1) o.fail("balancer.flowcell", "must be at least 1 byte");
  if (o.has("conga")) {
    const Obj g(o.at("conga"), "balancer.conga", o.file(), {"t_dre", "alpha", "age"});
    c.conga_t_dre = g.time("t_dre", c.conga_t_dre);
    if (c.conga_t_dre < kNs) g.fail("balancer.conga.t_dre", "must be at least 1ns");
    c.conga_alpha = fraction(g, "alpha", c.conga_alpha, 1e-6, 1.0);
    c.conga_age = g.time("age", c.conga_age);
    if (c.conga_age < kNs) g.fail("balancer.conga.age", "must be at least 1ns");
  }
  if (o.has("conweave")) {
    const Obj w(o.at("conweave"), "balancer.conweave", o.file(), {"reply_extra", "expiry", "flush_extra", "default_wait"});
    c.cw_reply_extra = w.time("reply_extra", c.cw_reply_extra);
    c.cw_expiry = w.time("expiry", c.cw_expiry);
    c.cw_flush_extra = w.time("flush_extra", c.cw_flush_extra);
    c.cw_default_wait = w.time("default_wait", c.cw_default_wait);
    if (c.cw_expiry < kUs) w.fail("balancer.conweave.expiry", "must be at least 1us");
  }
}

void parse_faults(const Obj& top, FaultCfg& c, const Topology& topo, Time duration) {
  if (!top.has("faults")) return;
  const Obj o(top.at("faults"), "faults", top.file(), {"loss", "stall"});
  if (o.has("loss")) {
    const Obj l(o.at("loss"), "faults.loss", o.file(), {"rate", "links"});
    c.loss_rate = fraction(l, "rate", 0.0, 0.0, 0.5);
    c.loss_links = choice(l, "links", c.loss_links, {"all", "host", "fabric"});
  }
  if (!o.has("stall")) return;
  const json& arr = o.at("stall");
  if (!arr.is_array() || arr.empty()) o.fail("faults.stall", "expected a non-empty array of {host, from, until}");
  for (size_t i = 0; i < arr.size(); ++i) {
    const std::string path = "faults.stall[" + std::to_string(i) + "]";
    const Obj f(arr[i], path, o.file(), {"host", "from", "until"});
    StallCfg st;
    const std::string name = f.str("host");
    if (!topo.has(name)) f.fail(path + ".host", "no node named \"" + name + "\"");
    st.host = topo.find(name);
    if (!topo.is_host(st.host)) f.fail(path + ".host", "\"" + name + "\" is a switch, not a host");
    st.from = f.time("from");
    st.until = f.time("until");
    if (st.until <= st.from) f.fail(path + ".until", "must be after from");
    if (st.from >= duration) f.fail(path + ".from", "at or after the duration (" + format_time(duration) + ")");
    for (const StallCfg& e : c.stalls)
      if (e.host == st.host && st.from < e.until && e.from < st.until) f.fail(path, "overlaps another stall of " + name);
    c.stalls.push_back(st);
  }
}

void parse_report(const Obj& top, ReportCfg& c) {
  if (!top.has("report")) return;
  const Obj o(top.at("report"), "report", top.file(), {"sample_period", "paused_series", "rate_interval"});
  c.sample_period = o.time("sample_period", c.sample_period);
  c.paused_series = boolean(o, "paused_series", c.paused_series);
  c.rate_interval = o.time("rate_interval", c.rate_interval);
  if (c.rate_interval && c.rate_interval < kUs) o.fail("report.rate_interval", "must be 0 (off) or at least 1us");
  if (c.sample_period < 100 * kNs) o.fail("report.sample_period", "must be at least 100ns");
}

// Section "cosim": {"leaf3": ["marker"], "all_leaves": ["marker"], ...}. Keys are node
// names or shorthands (all_switches, all_hosts, all_<tier>s: all_leaves, all_spines, ...);
// values name blocks of that node kind. A node named twice gets the union.
void parse_cosim(const json& top, const std::string& file, CosimCfg& c, const Topology& topo, const NetConfig& net) {
  if (!top.contains("cosim")) return;
  const json& j = top.at("cosim");
  auto fail = [&](const std::string& key, const std::string& what) { throw ScenarioError(file, key, what); };
  if (!j.is_object()) fail("cosim", std::string("expected an object of node: [blocks], got ") + type_name(j));
  static const std::vector<std::string> kSwitchBlocks = {"drill", "marker", "pfc"}, kHostBlocks = {"dcqcn"};
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
  };
  // Shorthands from the topology's tiers.
  std::map<std::string, std::vector<uint32_t>> groups;
  for (uint32_t n = 0; n < topo.num_nodes(); ++n) {
    const Node& node = topo.node(n);
    if (topo.is_host(n)) {
      groups["all_hosts"].push_back(n);
    } else {
      groups["all_switches"].push_back(n);
      const std::string& t = node.tier;
      const std::string plural = t.size() > 1 && t.back() == 'f' ? t.substr(0, t.size() - 1) + "ves" : t + "s";
      groups["all_" + plural].push_back(n);
    }
  }
  std::vector<std::string> shorthands;
  for (const auto& g : groups) shorthands.push_back(g.first);
  for (const auto& item : j.items()) {
    if (item.key() == "trace") continue;  // below, once every node's blocks are known
    if (item.key() == "model") {
      if (!item.value().is_boolean()) fail("cosim.model", std::string("expected true or false, got ") + type_name(item.value()));
      c.model = item.value().get<bool>();
      continue;
    }
    const std::string key = "cosim." + item.key();
    std::vector<uint32_t> nodes;
    if (groups.count(item.key())) {
      nodes = groups.at(item.key());
    } else if (topo.has(item.key())) {
      nodes.push_back(topo.find(item.key()));
    } else {
      fail(key, "no node named \"" + item.key() + "\" (shorthands here: " + join(shorthands) + ")");
    }
    const json& arr = item.value();
    if (!arr.is_array() || arr.empty()) fail(key, std::string("expected a non-empty array of block names, got ") + type_name(arr));
    for (size_t i = 0; i < arr.size(); ++i) {
      const std::string bkey = key + "[" + std::to_string(i) + "]";
      if (!arr[i].is_string()) fail(bkey, std::string("expected a block name, got ") + type_name(arr[i]));
      const std::string b = arr[i].get<std::string>();
      const bool sw_block = std::count(kSwitchBlocks.begin(), kSwitchBlocks.end(), b) != 0;
      const bool host_block = std::count(kHostBlocks.begin(), kHostBlocks.end(), b) != 0;
      if (!sw_block && !host_block) {
        fail(bkey, "\"" + b + "\" is not a block (switch blocks: " + join(kSwitchBlocks) + "; host blocks: " + join(kHostBlocks) + ")");
      }
      for (uint32_t n : nodes) {
        const bool host = topo.is_host(n);
        if (host != host_block) {
          fail(bkey, "\"" + b + "\" is a " + (host_block ? "host" : "switch") + " block; " + topo.node(n).name + " is a " +
                         (host ? "host (host blocks: " + join(kHostBlocks) : "switch (switch blocks: " + join(kSwitchBlocks)) + ")");
        }
      }
      if (b == "marker" && !net.sw.marker.enable) fail(bkey, "the marker runs as RTL only where it runs at all: switch.marker.enable is false");
      static const std::vector<std::string> kSelectorModes = {"ecmp", "random", "rr", "drill", "per_flow"};
      if (b == "drill" && !std::count(kSelectorModes.begin(), kSelectorModes.end(), net.balancer.mode)) {
        fail(bkey, "the DRILL selector runs only with balancer.mode " + join(kSelectorModes) + " (this scenario: " + net.balancer.mode + ")");
      }
      for (uint32_t n : nodes) {
        std::vector<std::string>& v = c.blocks[n];
        if (!std::count(v.begin(), v.end(), b)) v.push_back(b);
        std::sort(v.begin(), v.end());
      }
    }
  }
  if (j.contains("trace")) {
    // {"node": "leaf0", "block": "marker", "from": "1ms", "to": "1.1ms"}
    const json& t = j.at("trace");
    if (!t.is_object()) fail("cosim.trace", std::string("expected {node, block, from, to}, got ") + type_name(t));
    for (const auto& item : t.items()) {
      if (item.key() != "node" && item.key() != "block" && item.key() != "from" && item.key() != "to") {
        fail("cosim.trace." + item.key(), "unknown key (allowed here: node, block, from, to)");
      }
    }
    auto str = [&](const char* k) {
      if (!t.contains(k)) fail(std::string("cosim.trace.") + k, "missing (required)");
      if (!t.at(k).is_string()) fail(std::string("cosim.trace.") + k, std::string("expected a string, got ") + type_name(t.at(k)));
      return t.at(k).get<std::string>();
    };
    auto when = [&](const char* k) -> Time {
      const std::string v = str(k);
      try {
        return parse_time(v);
      } catch (const std::invalid_argument& e) {
        fail(std::string("cosim.trace.") + k, e.what());
      }
      return 0;  // not reached: fail() throws
    };
    const std::string node = str("node"), block = str("block");
    if (!topo.has(node)) fail("cosim.trace.node", "no node named \"" + node + "\"");
    c.trace_node = topo.find(node);
    c.trace_block = block;
    if (!c.named(c.trace_node, block)) {
      std::string listed = c.blocks.count(c.trace_node) ? join(c.blocks.at(c.trace_node)) : "none";
      fail("cosim.trace.block", node + "'s \"" + block + "\" does not run as RTL (its blocks in cosim: " + listed + ")");
    }
    c.trace_from = when("from");
    c.trace_to = when("to");
    if (c.trace_to <= c.trace_from) fail("cosim.trace.to", "must be after from");
    c.trace = true;
  }
}

// JSON with duplicate keys refused (legal JSON that nlohmann would silently resolve to
// the last one): `duplicate` names the first repeated key by its path in the document
// ("topology.spines", "workload.traffic[1].size"; "" if none).
json parse_no_duplicates(const std::string& text, std::string& duplicate) {
  struct Frame {
    bool array = false;
    std::set<std::string> keys;  // an object's keys so far
    std::string key;             // an object's current key
    size_t index = 0;            // an array's current element
  };
  std::vector<Frame> open;
  auto path_to = [&](const std::string& key) {
    std::string p;
    for (const Frame& f : open) {
      if (&f == &open.back()) break;
      if (f.array) p += "[" + std::to_string(f.index) + "]";
      else p += (p.empty() ? "" : ".") + f.key;
    }
    return p + (p.empty() ? "" : ".") + key;
  };
  auto element_done = [&] {
    if (!open.empty() && open.back().array) ++open.back().index;
  };
  auto cb = [&](int /*depth*/, json::parse_event_t ev, json& parsed) {
    switch (ev) {
      case json::parse_event_t::object_start: open.push_back(Frame{}); break;
      case json::parse_event_t::array_start: open.push_back(Frame{true, {}, {}, 0}); break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        open.pop_back();
        element_done();
        break;
      case json::parse_event_t::value: element_done(); break;
      case json::parse_event_t::key: {
        const std::string k = parsed.get<std::string>();
        if (!open.empty() && !open.back().array) {
          if (!open.back().keys.insert(k).second && duplicate.empty()) duplicate = path_to(k);
          open.back().key = k;
        }
        break;
      }
    }
    return true;
  };
  return json::parse(text, cb);
}

// nlohmann's message without its "[json.exception.x.n] " prefix
std::string json_message(const std::exception& e) {
  std::string msg = e.what();
  const size_t close = msg.find("] ");
  if (msg.rfind("[json.exception", 0) == 0 && close != std::string::npos) msg = msg.substr(close + 2);
  return msg;
}

// --set key.path=value on the parsed document.
void apply_override(json& doc, const std::string& text, const std::string& origin) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) throw ScenarioError(origin, "", "--set \"" + text + "\": expected key.path=value");
  const std::string path = text.substr(0, eq), value = text.substr(eq + 1);
  json v;
  std::string duplicate;
  try {
    v = parse_no_duplicates(value, duplicate);
  } catch (const json::parse_error&) {
    v = value;
    duplicate.clear();
  } catch (const json::out_of_range& e) {
    throw ScenarioError(origin, path, "--set: " + json_message(e));
  }
  if (!duplicate.empty()) {
    throw ScenarioError(origin, path + (duplicate[0] == '[' ? "" : ".") + duplicate,
                        "--set: key appears twice in the same object");
  }
  json* cur = &doc;
  size_t pos = 0;
  while (pos <= path.size()) {
    const size_t dot = path.find('.', pos);
    std::string seg = path.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
    long index = -1;
    const size_t br = seg.find('[');
    if (br != std::string::npos) {
      const std::string idx = seg.back() == ']' ? seg.substr(br + 1, seg.size() - br - 2) : "";
      if (idx.empty() || idx.size() > 9 || idx.find_first_not_of("0123456789") != std::string::npos) {
        throw ScenarioError(origin, path, "--set: \"" + seg + "\": an array index must be [N] with N a "
                                          "non-negative integer");
      }
      index = std::stol(idx);
      seg = seg.substr(0, br);
    }
    if (seg.empty()) throw ScenarioError(origin, path, "--set: empty key in the path");
    if (cur->is_null()) *cur = json::object();
    if (!cur->is_object()) throw ScenarioError(origin, path, "--set: \"" + seg + "\" is not inside an object");
    json& next = (*cur)[seg];
    cur = &next;
    if (index >= 0) {
      if (!cur->is_array() || static_cast<size_t>(index) >= cur->size()) {
        throw ScenarioError(origin, path, "--set: no element " + std::to_string(index) + " in \"" + seg + "\"");
      }
      cur = &(*cur)[static_cast<size_t>(index)];
    }
    if (dot == std::string::npos) break;
    pos = dot + 1;
  }
  *cur = v;
}

}  // namespace


// A NIC's DCQCN block takes its host link's rate as a whole number of Mb/s within its
// LineRateMbps range: a link outside it is the topology's error, found here, before any
// flow is generated (the network's construction would find it only after).
void check_dcqcn_line_rates(const NicCfg& nic, const Topology& topo, const std::string& origin) {
  for (NodeId h = 0; h < topo.num_hosts(); ++h) {
    const DcqcnCfg* d = &nic.dcqcn;
    for (const NicGroup& g : nic.groups)
      if (std::find(g.hosts.begin(), g.hosts.end(), h) != g.hosts.end()) d = &g.dcqcn;
    if (!d->enable) continue;
    const uint64_t bps = topo.host_rate(h);
    const std::string host = "host link of " + topo.node(h).name + " (" + format_rate(bps) + ")";
    if (bps % 1'000'000 != 0) throw ScenarioError(origin, "topology", host + ": the DCQCN block takes a whole number of Mb/s");
    dcqcn::Config c;  // the reference configuration, with this link's rate
    c.LineRateMbps = bps / 1'000'000;
    try {
      c.validate();
    } catch (const std::invalid_argument& e) {
      throw ScenarioError(origin, "topology", host + ": " + e.what());
    }
  }
}

Scenario parse_scenario(const std::string& text, const std::string& origin, const std::string& base_dir,
                        const ScenarioOptions& opt) {
  std::string duplicate;
  json j;
  try {
    j = parse_no_duplicates(text, duplicate);
  } catch (const json::parse_error& e) {
    throw ScenarioError(origin, "", "invalid JSON: " + json_message(e));
  } catch (const json::out_of_range& e) {  // e.g. a number beyond a double
    throw ScenarioError(origin, "", "invalid JSON: " + json_message(e));
  }
  if (!duplicate.empty()) throw ScenarioError(origin, duplicate, "key appears twice in the same object");
  for (const std::string& o : opt.overrides) apply_override(j, o, origin);

  Context ctx{origin, base_dir, opt};
  const Obj top(j, "", origin, {"name", "description", "seed", "duration", "run", "topology", "workload", "switch",
                                     "nic", "balancer", "report", "faults", "cosim"});
  Scenario s;
  s.file = origin;
  s.name = top.str("name", "");
  s.description = top.str("description", "");
  s.seed = top.uint("seed", 0, ~uint64_t{0}, 1);
  s.duration = top.time("duration");
  if (s.duration == 0) top.fail("duration", "must be > 0");
  parse_run(top, s.duration, s.run);
  s.topology = parse_topology(top, s.topology_type);
  const Obj w(top.at("workload"), "workload", origin, {"traffic"});
  const json& arr = w.array("traffic");
  if (arr.empty()) w.fail("workload.traffic", "needs at least one traffic entry");
  for (size_t i = 0; i < arr.size(); ++i) {
    s.traffic.push_back(parse_traffic(arr[i], "workload.traffic[" + std::to_string(i) + "]", ctx, s.topology, s.duration));
  }
  parse_switch(top, s.net.sw);
  parse_nic(top, s.net.nic, s.topology);
  check_dcqcn_line_rates(s.net.nic, s.topology, origin);
  parse_faults(top, s.net.faults, s.topology, s.duration);
  parse_balancer(top, s.net.balancer);
  parse_report(top, s.net.report);
  parse_cosim(j, origin, s.net.cosim, s.topology, s.net);
  return s;
}

std::string toml_to_json(const std::string& toml_text, const std::string& origin) {
  try {
    const toml::table t = toml::parse(toml_text, origin);
    std::ostringstream out;
    out << toml::json_formatter{t};
    return out.str();
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    throw ScenarioError(origin, "", "invalid TOML: " + std::string(e.description()) + " at line " +
                                        std::to_string(b.line) + ", column " + std::to_string(b.column));
  }
}

Scenario load_scenario(const std::string& path, const ScenarioOptions& opt) {
  std::string text;
  try {
    text = read_text_file(path, "scenario file");
  } catch (const std::runtime_error& e) {
    throw ScenarioError(path, "", e.what());
  }
  const bool toml = path.size() > 5 && path.compare(path.size() - 5, 5, ".toml") == 0;
  return parse_scenario(toml ? toml_to_json(text, path) : text, path, dirname(path), opt);
}

std::string summarize(const Scenario& s, const Routing& routing, const std::vector<Flow>& flows) {
  const Topology& t = s.topology;
  std::ostringstream out;
  out << "scenario: " << s.file;
  if (!s.name.empty()) out << " (" << s.name << ")";
  out << "\n  seed " << s.seed << ", duration " << format_time(s.duration) << "\n";

  out << "topology: " << t.description() << "\n  nodes: " << t.num_hosts() << " hosts, " << t.num_switches()
      << " switches (";
  bool first = true;
  for (const std::string& tier : t.tiers()) {
    if (tier == "host") continue;
    const auto n = std::count_if(t.nodes().begin(), t.nodes().end(), [&](const Node& x) { return x.tier == tier; });
    out << (first ? "" : ", ") << tier << " " << n;
    first = false;
  }
  out << ")\n  links: " << t.num_links() << " (" << t.num_failed_links() << " failed)\n";
  // Per link tier: counts by (rate, delay).
  std::map<std::string, std::map<std::pair<uint64_t, Time>, std::pair<size_t, size_t>>> groups;
  for (LinkId l = 0; l < t.num_links(); ++l) {
    auto& g = groups[t.link_tier(l)][{t.link(l).bps, t.link(l).delay}];
    ++(t.link(l).failed ? g.second : g.first);
  }
  for (const auto& [tier, kinds] : groups) {
    out << "    " << tier << ":";
    for (const auto& [k, n] : kinds) {
      out << " " << n.first + n.second << " x " << format_rate(k.first) << " " << format_time(k.second);
      if (n.second) out << " (" << n.second << " failed)";
      out << ";";
    }
    out << "\n";
  }

  // Routing: shortest paths from every host to one destination per attachment switch.
  const auto [a, b] = routing.first_unreachable_pair();
  out << "routing: " << (a == Routing::kUnreachable ? "every host reaches every other host" : "DISCONNECTED") << "\n";
  std::vector<bool> seen(t.num_nodes(), false);
  uint64_t pmin = ~uint64_t{0}, pmax = 0, hmin = ~uint64_t{0}, hmax = 0;
  double psum = 0;
  uint64_t pairs = 0;
  std::map<std::string, std::pair<size_t, size_t>> cand;  // tier -> (min, max) candidate set size
  for (NodeId dst = 0; dst < t.num_hosts(); ++dst) {
    NodeId attach = dst;
    for (const Port& p : t.node(dst).ports) {
      if (!t.link(p.link).failed) { attach = p.peer; break; }
    }
    if (seen[attach]) continue;
    seen[attach] = true;
    const std::vector<uint64_t> paths = routing.path_counts_to(dst);
    for (NodeId src = 0; src < t.num_hosts(); ++src) {
      if (src == dst || routing.distance(src, dst) == Routing::kUnreachable) continue;
      pmin = std::min(pmin, paths[src]);
      pmax = std::max(pmax, paths[src]);
      psum += static_cast<double>(paths[src]);
      hmin = std::min<uint64_t>(hmin, routing.distance(src, dst));
      hmax = std::max<uint64_t>(hmax, routing.distance(src, dst));
      ++pairs;
    }
    for (NodeId n = static_cast<NodeId>(t.num_hosts()); n < t.num_nodes(); ++n) {
      const size_t k = routing.next_hops(n, dst).size();
      auto it = cand.find(t.node(n).tier);
      if (it == cand.end()) cand[t.node(n).tier] = {k, k};
      else it->second = {std::min(it->second.first, k), std::max(it->second.second, k)};
    }
  }
  if (pairs) {
    out << "  equal-cost paths host to host: min " << pmin << ", max " << pmax << ", mean " << psum / pairs
        << "; hops " << hmin << ".." << hmax << " (one destination per attachment switch)\n";
  }
  out << "  next-hop candidate set sizes per switch tier:";
  for (const std::string& tier : t.tiers()) {
    auto it = cand.find(tier);
    if (it != cand.end()) out << " " << tier << " " << it->second.first << ".." << it->second.second << ";";
  }
  out << "\n";

  uint64_t total = 0;
  for (const Flow& f : flows) total += f.bytes;
  out << "workload: " << s.traffic.size() << " traffic entr" << (s.traffic.size() == 1 ? "y" : "ies") << ", "
      << flows.size() << " flows, " << format_bytes(static_cast<double>(total)) << "\n";
  for (size_t i = 0; i < s.traffic.size(); ++i) {
    const TrafficSpec& ts = s.traffic[i];
    uint64_t n = 0, bytes = 0;
    std::set<NodeId> senders;
    for (const Flow& f : flows) {
      if (f.source != i) continue;
      ++n;
      bytes += f.bytes;
      senders.insert(f.src);
    }
    out << "  [" << i << "] " << pattern_name(ts.pattern);
    if (ts.pattern == Pattern::Stride) out << "(" << ts.stride << ")";
    if (ts.pattern == Pattern::Pairs) out << "(" << ts.pairs << ")";
    if (ts.pattern == Pattern::Incast) {
      out << " " << ts.incast_senders << ":1";
      if (ts.incast_receivers > 1) out << " to " << ts.incast_receivers << " receivers";
      out << " x " << ts.repeat << " round" << (ts.repeat == 1 ? "" : "s");
    }
    if (ts.pattern == Pattern::File) out << " " << ts.file;
    else out << ", " << ts.size.describe();
    if (ts.arrival == Arrival::Poisson) {
      double cap = 0;
      for (NodeId h : senders) cap += static_cast<double>(t.host_rate(h));
      const double window = static_cast<double>(ts.stop - ts.start) / kSec;
      out << ", Poisson at load " << ts.load << (ts.load_on_uplinks ? " of the edge uplinks" : "") << " from "
          << format_time(ts.start) << " to " << format_time(ts.stop);
      if (cap > 0) out << " (generated: " << bytes * 8.0 / (cap * window) << " of the senders' host links)";
    } else {
      out << ", starting at " << format_time(ts.start);
    }
    out << ": " << n << " flows, " << format_bytes(static_cast<double>(bytes)) << "\n";
  }
  return out.str();
}

}  // namespace ll::sim
