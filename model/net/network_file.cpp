#include "model/net/network_file.hpp"

#include <fstream>
#include <cmath>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "model/net/flow_model.hpp"
#include "model/net/hockney.hpp"
#include "model/net/loggops.hpp"
#include "model/net/units.hpp"
#include "sim/input_error.hpp"
#include "sim/input_file.hpp"

namespace mpisim::net {
namespace {

using Json = nlohmann::ordered_json;

class Reader {
 public:
  Reader(const Json& j, std::string where, std::string path = "") : j_(j), where_(std::move(where)), path_(std::move(path)) {}

  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw sim::InputError(where_ + ": " + sim::escape_non_ascii(path_ + "/" + key), what);
  }

  // The object at `key`, read with paths below it.
  Reader child(const std::string& key) const {
    if (!j_.at(key).is_object()) fail(key, "expected an object, got " + std::string(j_.at(key).type_name()));
    return Reader(j_.at(key), where_, path_ + "/" + key);
  }
  const Json& json() const { return j_; }
  const std::string& where() const { return where_; }
  std::string path(const std::string& key) const { return path_ + "/" + key; }

  std::uint32_t count(const std::string& key, std::uint32_t least, std::uint32_t most = 1u << 30) const {
    const Json& v = j_.at(key);
    if (!v.is_number_integer() || v.get<std::int64_t>() < least || v.get<std::int64_t>() > most)
      fail(key, "expected an integer from " + std::to_string(least) + " to " + std::to_string(most) + ", got " +
                    v.dump());
    return v.get<std::uint32_t>();
  }

  std::string word(const std::string& key) const {
    if (!j_.contains(key) || !j_.at(key).is_string()) fail(key, "expected a string");
    return j_.at(key).get<std::string>();
  }

  bool has(const std::string& key) const { return j_.contains(key); }

  std::string text(const std::string& key) const {
    const Json& v = j_.at(key);
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number()) return v.dump();
    fail(key, "expected a string with a unit, got " + std::string(v.type_name()));
  }

  double time_ps(const std::string& key) const {
    auto v = parse_time_ps(text(key));
    if (!v) fail(key, "expected a non-negative time with a unit (ps, ns, us, ms, s), e.g. \"1.5us\"; got " + j_.at(key).dump(-1, ' ', true));
    return *v;
  }

  double per_byte_ps(const std::string& key) const {
    auto v = parse_time_ps(text(key));
    if (!v) fail(key, "expected a non-negative time per byte with a unit, e.g. \"0.8ns\"; got " + j_.at(key).dump(-1, ' ', true));
    return *v;
  }

  double bandwidth(const std::string& key) const {
    auto v = parse_bandwidth_ps_per_byte(text(key));
    if (!v || !(*v > 0) || !std::isfinite(*v)) fail(key, "expected a positive bandwidth such as \"10 Gbit/s\" or \"1.25 GB/s\"; got " + j_.at(key).dump(-1, ' ', true));
    return *v;
  }

  std::uint64_t bytes(const std::string& key) const {
    const Json& v = j_.at(key);
    if (v.is_number_unsigned()) return v.get<std::uint64_t>();
    auto b = v.is_string() ? parse_bytes(v.get<std::string>()) : std::nullopt;
    if (!b) fail(key, "expected a byte count such as 65536 or \"64KiB\"; got " + v.dump(-1, ' ', true));
    return *b;
  }

  void only(const std::set<std::string>& allowed) const {
    for (auto it = j_.begin(); it != j_.end(); ++it) {
      if (!allowed.count(it.key())) {
        std::string list;
        for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
        fail(it.key(), "unknown field; the fields here are: " + list);
      }
    }
  }

 private:
  const Json& j_;
  std::string where_;
  std::string path_;
};

std::unique_ptr<CostModel> hockney_from(const Reader& r) {
  r.only({"mpisim-network", "name", "about", "model", "alpha", "beta", "bandwidth", "gamma", "copy_bandwidth",
          "eager_limit", "rendezvous_alpha", "rendezvous_beta", "rendezvous_bandwidth"});
  HockneyParams p;
  if (!r.has("alpha")) r.fail("alpha", "missing: the latency α, e.g. \"2us\"");
  p.alpha_ps = r.time_ps("alpha");
  if (r.has("beta") == r.has("bandwidth")) r.fail("beta", "give exactly one of \"beta\" (time per byte) or \"bandwidth\"");
  p.beta_ps_per_byte = r.has("beta") ? r.per_byte_ps("beta") : r.bandwidth("bandwidth");
  if (r.has("gamma")) p.gamma_ps_per_byte = r.per_byte_ps("gamma");
  if (r.has("copy_bandwidth")) p.copy_ps_per_byte = r.bandwidth("copy_bandwidth");
  if (r.has("eager_limit")) p.eager_limit = r.bytes("eager_limit");
  // A second piece for the messages above the eager limit (mpisim calibrate --model piecewise).
  if (r.has("rendezvous_alpha") || r.has("rendezvous_beta") || r.has("rendezvous_bandwidth")) {
    if (!r.has("eager_limit"))
      r.fail("rendezvous_alpha", "the rendezvous piece applies above the eager limit: give \"eager_limit\" too");
    if (!r.has("rendezvous_alpha")) r.fail("rendezvous_alpha", "missing: the latency of messages above the eager limit");
    if (r.has("rendezvous_beta") == r.has("rendezvous_bandwidth"))
      r.fail("rendezvous_beta", "give exactly one of \"rendezvous_beta\" or \"rendezvous_bandwidth\"");
    p.rendezvous_alpha_ps = r.time_ps("rendezvous_alpha");
    p.rendezvous_beta_ps_per_byte =
        r.has("rendezvous_beta") ? r.per_byte_ps("rendezvous_beta") : r.bandwidth("rendezvous_bandwidth");
  }
  return std::make_unique<Hockney>(p);
}

std::unique_ptr<CostModel> loggops_from(const Reader& r, bool with_s) {
  r.only({"mpisim-network", "name", "about", "model", "L", "o", "g", "G", "O", "S", "gamma", "copy_bandwidth"});
  LogGOPSParams p;
  for (const char* k : {"L", "o", "g", "G"})
    if (!r.has(k)) r.fail(k, "missing: the LogGP parameter " + std::string(k));
  p.L_ps = r.time_ps("L");
  p.o_ps = r.time_ps("o");
  p.g_ps = r.time_ps("g");
  p.G_ps_per_byte = r.per_byte_ps("G");
  if (r.has("O")) p.O_ps_per_byte = r.per_byte_ps("O");
  if (r.has("S")) {
    if (!with_s) r.fail("S", "the \"loggp\" model has no S: use \"loggops\" for an eager limit");
    p.S = r.bytes("S");
  } else if (!with_s) {
    p.S = std::numeric_limits<std::uint64_t>::max();
  }
  if (r.has("gamma")) p.gamma_ps_per_byte = r.per_byte_ps("gamma");
  if (r.has("copy_bandwidth")) p.copy_ps_per_byte = r.bandwidth("copy_bandwidth");
  return std::make_unique<LogGOPS>(p);
}

// {"latency": "1us", "bandwidth": "10 Gbit/s"}
LinkSpec link_from(const Reader& r) {
  r.only({"latency", "bandwidth", "beta"});
  if (!r.has("latency")) r.fail("latency", "missing: the link's latency, e.g. \"1us\"");
  if (r.has("bandwidth") == r.has("beta"))
    r.fail("bandwidth", "give exactly one of \"bandwidth\" (e.g. \"10 Gbit/s\") or \"beta\" (time per byte, e.g. \"0.8ns\")");
  double ps_per_byte = r.has("beta") ? r.per_byte_ps("beta") : r.bandwidth("bandwidth");
  if (!(ps_per_byte > 0)) r.fail("beta", "a link's time per byte must be positive (its bandwidth finite)");
  return LinkSpec{r.time_ps("latency"), ps_per_byte};
}

std::string link_text(const LinkSpec& s) {
  return format_time(std::llround(s.latency_ps)) + ", " + per_byte_text(s.ps_per_byte);
}

std::string known_shapes() {
  std::string list;
  for (const TopologyKind& k : topology_kinds()) list += (list.empty() ? "" : ", ") + std::string(k.name);
  return list;
}

// The "topology" object: a shape, its size, and a builder for the run.
std::function<Topology(std::uint32_t)> shape_from(const Reader& t, const std::string& shape, LinkSpec link,
                                                  TopologyParams& p) {
  auto sized = [&](auto make) -> std::function<Topology(std::uint32_t)> {
    t.only({"kind", "nodes"});
    if (t.has("nodes")) {
      std::uint32_t n = t.count("nodes", 1);
      p.description.emplace_back("nodes", std::to_string(n));
      return [=](std::uint32_t) { return make(n, link); };
    }
    p.description.emplace_back("nodes", "as many as the ranks need");
    return [=](std::uint32_t needed) { return make(needed, link); };
  };
  if (shape == "crossbar") return sized(make_crossbar);
  if (shape == "fully_connected") return sized(make_fully_connected);
  if (shape == "ring") return sized(make_ring);
  if (shape == "torus") {
    t.only({"kind", "dims"});
    if (!t.has("dims") || !t.json()["dims"].is_array() || t.json()["dims"].empty())
      t.fail("dims", "expected the torus's dimensions, e.g. [8, 8, 8]");
    std::vector<std::uint32_t> dims;
    std::string text;
    Reader d(t.json()["dims"], t.where(), t.path("dims"));
    for (std::size_t i = 0; i < t.json()["dims"].size(); ++i) {
      const Json& v = t.json()["dims"][i];
      if (!v.is_number_integer() || v.get<std::int64_t>() < 1 || v.get<std::int64_t>() > (1 << 24))
        d.fail(std::to_string(i), "expected a positive integer, got " + v.dump(-1, ' ', true));
      dims.push_back(v.get<std::uint32_t>());
      text += (text.empty() ? "" : "x") + std::to_string(dims.back());
    }
    p.description.emplace_back("dims", text);
    return [=](std::uint32_t) { return make_torus(dims, link); };
  }
  if (shape == "fat_tree") {
    t.only({"kind", "k", "n", "oversubscription"});
    if (!t.has("k")) t.fail("k", "missing: the switches' links in each direction (the tree's arity)");
    if (!t.has("n")) t.fail("n", "missing: the number of switch levels");
    std::uint32_t k = t.count("k", 2, 1024), n = t.count("n", 1, 22);
    double over = 1;
    if (t.has("oversubscription")) {
      const Json& v = t.json()["oversubscription"];
      if (!v.is_number() || !(v.get<double>() >= 1) || !std::isfinite(v.get<double>()))
        t.fail("oversubscription", "expected a number of at least 1 (1: full bisection), got " + v.dump(-1, ' ', true));
      over = v.get<double>();
    }
    p.description.emplace_back("k", std::to_string(k));
    p.description.emplace_back("n", std::to_string(n));
    p.description.emplace_back("oversubscription", Json(over).dump());
    return [=](std::uint32_t) { return make_fat_tree(k, n, over, link); };
  }
  if (shape == "dragonfly") {
    t.only({"kind", "groups", "routers", "hosts_per_router", "global_link"});
    for (const char* k : {"groups", "routers", "hosts_per_router"})
      if (!t.has(k)) t.fail(k, "missing: the dragonfly's " + std::string(k));
    std::uint32_t g = t.count("groups", 1), a = t.count("routers", 1), h = t.count("hosts_per_router", 1);
    LinkSpec global = t.has("global_link") ? link_from(t.child("global_link")) : link;
    p.description.emplace_back("groups", std::to_string(g));
    p.description.emplace_back("routers", std::to_string(a));
    p.description.emplace_back("hosts_per_router", std::to_string(h));
    p.description.emplace_back("global_link", link_text(global));
    return [=](std::uint32_t) { return make_dragonfly(g, a, h, link, global); };
  }
  if (shape == "custom") {
    t.only({"kind", "hosts", "switches", "links"});
    if (!t.has("hosts")) t.fail("hosts", "missing: the number of hosts (vertices 0 .. hosts-1)");
    std::uint32_t hosts = t.count("hosts", 1, 65535);
    std::uint32_t switches = t.has("switches") ? t.count("switches", 0, 65535) : 0;
    if (!t.has("links") || !t.json()["links"].is_array())
      t.fail("links", "expected a list of links, e.g. [{\"between\": [0, 2]}, ...]");
    std::vector<CustomEdge> edges;
    Reader list(t.json()["links"], t.where(), t.path("links"));
    for (std::size_t i = 0; i < t.json()["links"].size(); ++i) {
      std::string key = std::to_string(i);
      if (!t.json()["links"][i].is_object()) list.fail(key, "expected {\"between\": [a, b]} with optional latency and bandwidth");
      Reader e(t.json()["links"][i], t.where(), list.path(key));
      e.only({"between", "latency", "bandwidth", "beta"});
      const Json& b = e.json().contains("between") ? e.json()["between"] : Json();
      if (!b.is_array() || b.size() != 2 || !b[0].is_number_unsigned() || !b[1].is_number_unsigned())
        e.fail("between", "expected the two vertices the link joins, e.g. [0, 4] (hosts first, then switches)");
      std::uint64_t va = b[0].get<std::uint64_t>(), vb = b[1].get<std::uint64_t>();
      if (va >= hosts + switches || vb >= hosts + switches)
        e.fail("between", "vertex " + std::to_string(std::max(va, vb)) + " does not exist: the graph has " +
                              std::to_string(hosts) + " hosts (0 .. " + std::to_string(hosts - 1) + ") and " +
                              std::to_string(switches) + " switches");
      if (va == vb) e.fail("between", "a link must join two different vertices");
      LinkSpec spec = link;
      if (e.has("latency")) spec.latency_ps = e.time_ps("latency");
      if (e.has("bandwidth")) spec.ps_per_byte = e.bandwidth("bandwidth");
      if (e.has("beta")) spec.ps_per_byte = e.per_byte_ps("beta");
      if (!(spec.ps_per_byte > 0)) e.fail("beta", "a link's time per byte must be positive (its bandwidth finite)");
      edges.push_back(CustomEdge{static_cast<std::uint32_t>(va), static_cast<std::uint32_t>(vb), spec});
    }
    p.description.emplace_back("graph", std::to_string(hosts) + " hosts, " + std::to_string(switches) +
                                            " switches, " + std::to_string(edges.size()) + " links");
    // Checked now, so that a disconnected graph is reported before any run.
    try {
      make_custom(hosts, switches, edges);
    } catch (const std::invalid_argument& e) {
      t.fail("links", e.what());
    }
    return [=](std::uint32_t) { return make_custom(hosts, switches, edges); };
  }
  t.fail("kind", "unknown topology \"" + shape + "\"; known: " + known_shapes());
}

std::unique_ptr<CostModel> topology_from(const Reader& r) {
  r.only({"mpisim-network", "name", "about", "model", "topology", "link", "intra_node", "placement", "contention",
          "overhead", "gap", "gamma", "copy_bandwidth", "eager_limit"});
  TopologyParams p;
  p.where = r.where();
  if (!r.has("link")) r.fail("link", "missing: the links' parameters, e.g. {\"latency\": \"1us\", \"bandwidth\": \"10 Gbit/s\"}");
  LinkSpec link = link_from(r.child("link"));
  if (!r.has("topology")) r.fail("topology", "missing: the shape, e.g. {\"kind\": \"fat_tree\", \"k\": 4, \"n\": 3}");
  Reader t = r.child("topology");
  if (!t.has("kind")) t.fail("kind", "missing: one of " + known_shapes());
  p.shape = t.word("kind");
  p.description.emplace_back("link", link_text(link));
  p.build = shape_from(t, p.shape, link, p);
  p.intra_node = link;
  if (r.has("intra_node")) p.intra_node = link_from(r.child("intra_node"));
  p.description.emplace_back("intra_node", link_text(p.intra_node));
  if (r.has("placement")) {
    Reader pl = r.child("placement");
    pl.only({"kind", "ranks_per_node", "nodes"});
    std::string kind = pl.has("kind") ? pl.word("kind") : "block";
    if (kind == "block") p.placement.kind = Placement::Kind::block;
    else if (kind == "round_robin") p.placement.kind = Placement::Kind::round_robin;
    else if (kind == "list") p.placement.kind = Placement::Kind::list;
    else pl.fail("kind", "unknown placement \"" + kind + "\"; known: block, round_robin, list");
    if (pl.has("ranks_per_node")) {
      if (p.placement.kind == Placement::Kind::list) pl.fail("ranks_per_node", "a list placement names each rank's node");
      p.placement.ranks_per_node = pl.count("ranks_per_node", 1, 1u << 20);
    }
    if (p.placement.kind == Placement::Kind::list) {
      if (!pl.has("nodes") || !pl.json()["nodes"].is_array())
        pl.fail("nodes", "expected the node of each rank, e.g. [0, 0, 1, 1]");
      Reader nodes(pl.json()["nodes"], r.where(), pl.path("nodes"));
      for (std::size_t i = 0; i < pl.json()["nodes"].size(); ++i) {
        const Json& v = pl.json()["nodes"][i];
        if (!v.is_number_unsigned() || v.get<std::uint64_t>() >= (1u << 24))
          nodes.fail(std::to_string(i), "expected a node number, got " + v.dump(-1, ' ', true));
        p.placement.nodes.push_back(v.get<std::uint32_t>());
      }
    } else if (pl.has("nodes")) {
      pl.fail("nodes", "only a \"list\" placement names nodes");
    }
    p.description.emplace_back("placement", kind + (kind == "list" ? "" : ", " + std::to_string(p.placement.ranks_per_node) + " rank(s) per node"));
  }
  if (r.has("contention")) {
    if (!r.json()["contention"].is_boolean()) r.fail("contention", "expected true (links are shared) or false");
    p.contention = r.json()["contention"].get<bool>();
  }
  p.overhead_ps = kOverheadDefaultPs;
  p.gap_ps = kGapDefaultPs;
  for (const char* key : {"overhead", "gap"}) {
    if (!r.has(key)) continue;
    const double ps = r.time_ps(key);
    if (ps > 1e12) r.fail(key, "expected at most 1 s per message; got " + r.json()[key].dump(-1, ' ', true));
    (std::string_view(key) == "overhead" ? p.overhead_ps : p.gap_ps) = ps;
  }
  if (r.has("gamma")) p.gamma_ps_per_byte = r.per_byte_ps("gamma");
  if (r.has("copy_bandwidth")) p.copy_ps_per_byte = r.bandwidth("copy_bandwidth");
  if (r.has("eager_limit")) p.eager_limit = r.bytes("eager_limit");
  return std::make_unique<FlowModel>(std::move(p));
}

}  // namespace

Network parse_network(const std::string& text, const std::string& where) {
  sim::check_json_shape(text, where);
  Json j;
  try {
    j = Json::parse(text);
  } catch (const Json::parse_error& e) {
    // nlohmann's message after "parse error at line L, column C: ", and its 1-based byte.
    const std::string what = e.what();
    const auto pos = what.find("parse error");
    const auto colon = what.find(": ", pos == std::string::npos ? 0 : pos);
    const std::string reason = colon == std::string::npos ? what : what.substr(colon + 2);
    throw sim::InputError(where, "not valid JSON at " + sim::line_and_column(text, e.byte > 0 ? e.byte - 1 : 0) + ": " +
                                     sim::escape_non_ascii(reason));
  } catch (const Json::exception&) {
    // e.g. a number too large for a double (found by fuzzing)
    throw sim::InputError(where, "not valid JSON: a number is out of range");
  }
  if (!j.is_object()) throw sim::InputError(where, "expected a JSON object describing a network");
  Reader r(j, where);
  if (!j.contains("mpisim-network") || j["mpisim-network"] != 1)
    r.fail("mpisim-network", "expected \"mpisim-network\": 1 (the format version)");
  if (!j.contains("model") || !j["model"].is_string())
    r.fail("model", "expected the model's name: \"hockney\", \"loggp\", \"loggops\" or \"topology\"");
  Network n;
  n.source = where;
  n.name = j.contains("name") && j["name"].is_string() ? j["name"].get<std::string>() : where;
  if (j.contains("about") && j["about"].is_string()) n.about = j["about"].get<std::string>();
  std::string model = j["model"].get<std::string>();
  if (model == "hockney") n.model = hockney_from(r);
  else if (model == "loggp") n.model = loggops_from(r, false);
  else if (model == "loggops") n.model = loggops_from(r, true);
  else if (model == "topology") n.model = topology_from(r);
  else r.fail("model", "unknown model " + sim::shown(model) + "; known: hockney, loggp, loggops, topology");
  return n;
}

Network load_network_file(const std::string& path) {
  return parse_network(sim::read_input_file(path, "the network file"), path);
}

const std::vector<ModelKind>& model_kinds() {
  static const std::vector<ModelKind> kinds{
      {"hockney", "alpha, beta | bandwidth, gamma, copy_bandwidth, eager_limit, rendezvous_alpha, rendezvous_beta | rendezvous_bandwidth",
       "a message of n bytes costs alpha + n*beta; each rank sends one message at a time; no shared links"},
      {"loggp", "L, o, g, G, O, gamma, copy_bandwidth",
       "LogGP as LogGOPSim computes it: CPU overhead o, gap g, per-byte G, latency L; every send eager"},
      {"loggops", "L, o, g, G, O, S, gamma, copy_bandwidth",
       "LogGP with a per-byte CPU cost O and rendezvous above S bytes, as LogGOPSim"},
      {"topology", "topology, link, intra_node, placement, contention, overhead, gap, gamma, copy_bandwidth, eager_limit",
       "nodes, switches and links (see --list-topologies); messages share links max-min fairly; each costs its ends a CPU overhead"},
  };
  return kinds;
}

Network default_network() {
  HockneyParams p;
  p.alpha_ps = 2e6;                // 2 us
  p.beta_ps_per_byte = 800;        // 10 Gbit/s = 1.25 GB/s
  p.gamma_ps_per_byte = 250;       // 4 GB/s local reduction
  p.copy_ps_per_byte = 100;        // 10 GB/s local copy
  p.eager_limit = 65536;
  Network n;
  n.name = "builtin-10gbe";
  n.source = "built-in";
  n.about = "10-GbE-like cluster, Hockney: alpha 2us, 10 Gbit/s, eager up to 64 KiB";
  n.model = std::make_unique<Hockney>(p);
  return n;
}

}  // namespace mpisim::net
