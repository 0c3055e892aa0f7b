// Scenario parsing: JSON in, typed steps out, every error with its JSON path.
#include <charconv>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "model/mpi/op.hpp"
#include "model/scenario/parser.hpp"
#include "model/scenario/scenario.hpp"
#include "sim/input_error.hpp"
#include "sim/input_file.hpp"

namespace mpisim::scenario {

Names::Names() {
  for (const char* n : {"rank", "size", "MPI_ANY_SOURCE", "MPI_ANY_TAG", "MPI_PROC_NULL", "MPI_ROOT",
                        "MPI_UNDEFINED", "MPI_TAG_UB", "MPI_IDENT", "MPI_CONGRUENT", "MPI_SIMILAR", "MPI_UNEQUAL",
                        "MPI_ORDER_C", "MPI_ORDER_FORTRAN"})
    intern(n);
}

NameId Names::intern(const std::string& s) {
  auto it = ids_.find(s);
  if (it != ids_.end()) return it->second;
  auto id = static_cast<NameId>(names_.size());
  names_.push_back(std::make_unique<std::string>(s));
  ids_.emplace(s, id);
  return id;
}

std::optional<NameId> Names::find(std::string_view s) const {
  auto it = ids_.find(s);
  if (it == ids_.end()) return std::nullopt;
  return it->second;
}

namespace {
const Step* find_in(const Program& program, std::string_view path) {
  for (const Step& s : program) {
    if (s.path == path) return &s;
    if (s.body && path.starts_with(s.path + "/"))
      if (const Step* inner = find_in(*s.body, path)) return inner;
  }
  return nullptr;
}
}  // namespace

const Step* find_step(const Scenario& sc, std::string_view path) {
  if (const Step* s = find_in(sc.program, path)) return s;
  for (const auto& [rank, program] : sc.per_rank)
    if (const Step* s = find_in(program, path)) return s;
  return nullptr;
}

const Program& Scenario::program_for(std::int64_t rank) const {
  if (!mpmd) return program;
  auto it = per_rank.find(rank);
  if (it != per_rank.end()) return it->second;
  auto all = per_rank.find(-1);
  static const Program empty;
  return all != per_rank.end() ? all->second : empty;
}

namespace parsing {

Step ScenarioParser::step(const Json& j, const std::string& path) {
  if (!j.is_object()) fail(path, "expected a step (a JSON object), got " + j.dump(-1, ' ', true));
  Step s;
  s.path = path;
  s.note = string_field(j, "note", path + "/note");
  // The per-rank filter is "where"; "ranks" is accepted as its shorthand, except
  // on calls that have an MPI parameter named ranks (MPI_Group_incl, ...).
  bool ranks_is_parameter = false;
  if (j.contains("call") && j["call"].is_string())
    if (const CallSpec* c = find_call(j["call"].get<std::string>()))
      for (const auto& p : c->params) ranks_is_parameter = ranks_is_parameter || p.id == P::ranks;
  if (j.contains("where") && j.contains("ranks") && !ranks_is_parameter)
    fail(path + "/ranks", "give the filter once: \"where\" or its shorthand \"ranks\"");
  if (j.contains("where")) s.ranks = expr(j["where"], path + "/where");
  else if (j.contains("ranks") && !ranks_is_parameter) s.ranks = expr(j["ranks"], path + "/ranks");
  static const std::vector<std::string> kinds = {"let", "buffer", "call", "show", "expect", "compute", "repeat"};
  int found = 0;
  // A call's parameters may share a kind's name (MPI_Bcast's "buffer"): "call" decides.
  for (const auto& k : kinds) found += j.contains(k) && !(k == "buffer" && j.contains("call")) ? 1 : 0;
  if (found == 0) {
    // A misspelled kind ("cal") is the likely cause: name the key and the kind it resembles.
    for (auto it = j.begin(); it != j.end(); ++it) {
      const std::string hint = suggest(it.key(), kinds);
      if (!hint.empty())
        fail(path + "/" + escape_pointer(it.key()),
             "unknown field" + hint + "; a step needs one of: call, let, buffer, show, expect, compute, repeat");
    }
    fail(path, "a step needs one of: call, let, buffer, show, expect, compute, repeat");
  }
  if (found != 1) fail(path, "a step has exactly one of: call, let, buffer, show, expect, compute, repeat");
  if (j.contains("let")) {
    s.kind = Step::let;
    only(j, path, {"let", "ranks", "where", "note"}, "let");
    const Json& l = j["let"];
    if (!l.is_object()) fail(path + "/let", "expected an object of name: value pairs");
    for (auto it = l.begin(); it != l.end(); ++it) {
      std::string p = path + "/let/" + escape_pointer(it.key());
      if (!is_identifier(it.key())) fail(p, "expected a name of letters, digits and _, got " + sim::shown(it.key()));
      if (names_.intern(it.key()) < Names::builtin_count)
        fail(p, "\"" + it.key() + "\" is a reserved name (rank, size and the MPI constants); choose another");
      s.lets.emplace_back(names_.intern(it.key()), expr(it.value(), p));
    }
  } else if (j.contains("call")) {
    call_step(j, path, s);
  } else if (j.contains("buffer")) {
    buffer_step(j, path, s);
  } else if (j.contains("show")) {
    s.kind = Step::show;
    only(j, path, {"show", "ranks", "where", "note", "shape", "follow"}, "show");
    if (j.contains("follow")) {
      if (!j["follow"].is_boolean()) fail(path + "/follow", "expected true or false");
      s.follow = j["follow"].get<bool>();
    }
    if (j.contains("shape")) {
      const Json& sh = j["shape"];
      if (!sh.is_array() || sh.size() != 2)
        fail(path + "/shape", "expected [rows, columns]: two counts (numbers or expressions)");
      for (std::size_t i = 0; i < 2; ++i) s.shape.push_back(expr(sh[i], path + "/shape/" + std::to_string(i)));
    }
    const Json& v = j["show"];
    if (v.is_string()) s.shown.push_back(name(v, path + "/show", "a buffer or value name"));
    else if (v.is_array())
      for (std::size_t i = 0; i < v.size(); ++i)
        s.shown.push_back(name(v[i], path + "/show/" + std::to_string(i), "a buffer or value name"));
    else fail(path + "/show", "expected a name or a list of names");
    if (s.follow)
      for (NameId id : s.shown)
        if (auto at = std::lower_bound(sc_.followed.begin(), sc_.followed.end(), id);
            at == sc_.followed.end() || *at != id)
          sc_.followed.insert(at, id);
  } else if (j.contains("expect")) {
    s.kind = Step::expect;
    only(j, path, {"expect", "ranks", "message", "where", "note", "tolerance"}, "expect");
    s.message = string_field(j, "message", path + "/message");
    const Json& e = j["expect"];
    if (j.contains("tolerance")) {
      const Json& t = j["tolerance"];
      if (!t.is_number() || !std::isfinite(t.get<double>()) || t.get<double>() < 0)
        fail(path + "/tolerance", "expected a non-negative number: how far each value may be from the expected one");
      if (!e.is_object())
        fail(path + "/tolerance", "a tolerance goes with the object form of expect ({\"name\": expected value})");
      s.tolerance = t.get<double>();
    }
    if (e.is_string()) {
      s.expect_true = expr(e, path + "/expect");
    } else if (e.is_object()) {
      for (auto it = e.begin(); it != e.end(); ++it) {
        std::string p = path + "/expect/" + escape_pointer(it.key());
        if (!is_identifier(it.key()) && it.key().find('.') == std::string::npos)
          fail(p, "expected the name of a buffer or a value, got " + sim::shown(it.key()));
        s.expect_values.emplace_back(names_.intern(it.key()), expr(it.value(), p));
      }
    } else {
      fail(path + "/expect", "expected a condition (an expression) or an object of name: expected value");
    }
  } else if (j.contains("compute")) {
    s.kind = Step::compute;
    only(j, path, {"compute", "ranks", "where", "note"}, "compute");
    const Json& c = j["compute"];
    static const std::vector<std::pair<std::string, std::int64_t>> units = {
        {"ps", 1}, {"ns", 1000}, {"us", 1000000}, {"ms", 1000000000}};
    if (!c.is_object() || c.size() != 1)
      fail(path + "/compute", "expected one duration, e.g. {\"ns\": 2500} (units: ps, ns, us, ms)");
    auto it = c.begin();
    auto u = std::find_if(units.begin(), units.end(), [&](const auto& x) { return x.first == it.key(); });
    if (u == units.end()) fail(path + "/compute/" + escape_pointer(it.key()), "unknown unit; use ps, ns, us or ms");
    if (!it.value().is_number_integer() || it.value().get<std::int64_t>() < 0)
      fail(path + "/compute/" + it.key(), "expected a non-negative integer duration");
    std::int64_t v = it.value().get<std::int64_t>();
    // Virtual time ends at 2^62 ps (about 53 days): a longer computation cannot run.
    if (v > (std::int64_t{1} << 62) / u->second)
      fail(path + "/compute/" + it.key(), "duration too long (over 2^62 ps, about 53 days)");
    s.compute_ps = v * u->second;
  } else {
    s.kind = Step::repeat;
    only(j, path, {"repeat", "as", "program", "ranks", "where", "note"}, "repeat");
    s.times = expr(j["repeat"], path + "/repeat");
    if (j.contains("as")) s.loop_var = name(j["as"], path + "/as", "the loop variable's name");
    if (!j.contains("program") || !j["program"].is_array())
      fail(path + "/program", "expected the list of steps to repeat");
    s.body = std::make_shared<Program>(program(j["program"], path + "/program"));
  }
  return s;
}

}  // namespace parsing

namespace {

using parsing::Json;
using parsing::ScenarioParser;


// nlohmann's positions are 1-based bytes.
std::string line_col(const std::string& text, std::size_t byte) {
  return sim::line_and_column(text, byte > 0 ? byte - 1 : 0);
}

}  // namespace

Scenario parse_scenario(const std::string& text, const std::string& file) {
  sim::check_json_shape(text, file);
  Json j;
  try {
    j = Json::parse(text);
  } catch (const Json::parse_error& e) {
    std::string what = e.what();
    auto pos = what.find("parse error");
    auto colon = what.find(": ", pos == std::string::npos ? 0 : pos);
    std::string reason = colon == std::string::npos ? what : what.substr(colon + 2);
    throw sim::InputError(file, "not valid JSON at " + line_col(text, e.byte) + ": " + sim::escape_non_ascii(reason));
  } catch (const Json::exception&) {
    // e.g. a number too large for a double (found by fuzzing)
    throw sim::InputError(file, "not valid JSON: a number is out of range");
  }
  Scenario sc;
  sc.file = file;
  sc.source_json = j.dump();
  ScenarioParser(file, sc).top(j);
  return sc;
}

Scenario load_scenario(const std::string& path) {
  return parse_scenario(sim::read_input_file(path, "the scenario file"), path);
}

void check_rank_count(const Scenario& sc, std::int64_t ranks) {
  const std::string who = sc.file.empty() ? std::string("the scenario") : sc.file;
  if (!sc.ranks_fixed.empty() && sc.ranks && ranks != *sc.ranks)
    throw sim::InputError("--ranks", who + " runs on exactly " + std::to_string(*sc.ranks) + " ranks (" +
                                         sc.ranks_fixed + "); " + std::to_string(ranks) + " were asked for");
  if (sc.requires_condition.empty()) return;
  const Expr e = Expr::parse(sc.requires_condition);
  auto lookup = [ranks](std::string_view n, std::uint32_t) -> std::optional<Value> {
    if (n == "size") return Value::of(ranks);
    return std::nullopt;
  };
  std::int64_t ok = 0;
  try {
    ok = e.eval_int(Lookup(lookup));
  } catch (const ExprError& err) {
    throw sim::InputError(who + ": /requires/condition", std::string("cannot be evaluated: ") + err.what());
  }
  if (!ok)
    throw sim::InputError("--ranks", who + " needs " + sc.requires_condition + " (" + sc.requires_reason + "); " +
                                         std::to_string(ranks) + (ranks == 1 ? " rank does not" : " ranks do not"));
}

}  // namespace mpisim::scenario
