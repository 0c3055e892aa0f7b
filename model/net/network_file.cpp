#include "model/net/network_file.hpp"

#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "model/net/hockney.hpp"
#include "model/net/loggops.hpp"
#include "model/net/units.hpp"
#include "sim/input_error.hpp"

namespace mpisim::net {
namespace {

using Json = nlohmann::ordered_json;

class Reader {
 public:
  Reader(const Json& j, std::string where) : j_(j), where_(std::move(where)) {}

  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw sim::InputError(where_ + ": /" + key, what);
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
    if (!v) fail(key, "expected a non-negative time with a unit (ps, ns, us, ms, s), e.g. \"1.5us\"; got " + j_.at(key).dump());
    return *v;
  }

  double per_byte_ps(const std::string& key) const {
    auto v = parse_time_ps(text(key));
    if (!v) fail(key, "expected a non-negative time per byte with a unit, e.g. \"0.8ns\"; got " + j_.at(key).dump());
    return *v;
  }

  double bandwidth(const std::string& key) const {
    auto v = parse_bandwidth_ps_per_byte(text(key));
    if (!v) fail(key, "expected a positive bandwidth such as \"10 Gbit/s\" or \"1.25 GB/s\"; got " + j_.at(key).dump());
    return *v;
  }

  std::uint64_t bytes(const std::string& key) const {
    const Json& v = j_.at(key);
    if (v.is_number_unsigned()) return v.get<std::uint64_t>();
    auto b = v.is_string() ? parse_bytes(v.get<std::string>()) : std::nullopt;
    if (!b) fail(key, "expected a byte count such as 65536 or \"64KiB\"; got " + v.dump());
    return *b;
  }

  void only(const std::set<std::string>& allowed) const {
    for (auto it = j_.begin(); it != j_.end(); ++it) {
      if (!allowed.count(it.key())) {
        std::string list;
        for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
        fail(it.key(), "unknown field; the fields of this model are: " + list);
      }
    }
  }

 private:
  const Json& j_;
  std::string where_;
};

std::unique_ptr<CostModel> hockney_from(const Reader& r) {
  r.only({"mpisim-network", "name", "about", "model", "alpha", "beta", "bandwidth", "gamma", "copy_bandwidth",
          "eager_limit"});
  HockneyParams p;
  if (!r.has("alpha")) r.fail("alpha", "missing: the latency α, e.g. \"2us\"");
  p.alpha_ps = r.time_ps("alpha");
  if (r.has("beta") == r.has("bandwidth")) r.fail("beta", "give exactly one of \"beta\" (time per byte) or \"bandwidth\"");
  p.beta_ps_per_byte = r.has("beta") ? r.per_byte_ps("beta") : r.bandwidth("bandwidth");
  if (r.has("gamma")) p.gamma_ps_per_byte = r.per_byte_ps("gamma");
  if (r.has("copy_bandwidth")) p.copy_ps_per_byte = r.bandwidth("copy_bandwidth");
  if (r.has("eager_limit")) p.eager_limit = r.bytes("eager_limit");
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

}  // namespace

Network parse_network(const std::string& text, const std::string& where) {
  Json j;
  try {
    j = Json::parse(text);
  } catch (const Json::parse_error& e) {
    throw sim::InputError(where, "not valid JSON (byte " + std::to_string(e.byte) + ")");
  } catch (const Json::exception&) {
    // e.g. a number too large for a double (found by fuzzing)
    throw sim::InputError(where, "not valid JSON: a number is out of range");
  }
  if (!j.is_object()) throw sim::InputError(where, "expected a JSON object describing a network");
  Reader r(j, where);
  if (!j.contains("mpisim-network") || j["mpisim-network"] != 1)
    r.fail("mpisim-network", "expected \"mpisim-network\": 1 (the format version)");
  if (!j.contains("model") || !j["model"].is_string())
    r.fail("model", "expected the model's name: \"hockney\", \"loggp\" or \"loggops\"");
  Network n;
  n.source = where;
  n.name = j.contains("name") && j["name"].is_string() ? j["name"].get<std::string>() : where;
  if (j.contains("about") && j["about"].is_string()) n.about = j["about"].get<std::string>();
  std::string model = j["model"].get<std::string>();
  if (model == "hockney") n.model = hockney_from(r);
  else if (model == "loggp") n.model = loggops_from(r, false);
  else if (model == "loggops") n.model = loggops_from(r, true);
  else r.fail("model", "unknown model \"" + model + "\"; known: hockney, loggp, loggops");
  return n;
}

Network load_network_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw sim::InputError(path, "cannot open the network file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_network(ss.str(), path);
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
