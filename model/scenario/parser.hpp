#pragma once
// The scenario parser's state, shared by parse.cpp (the document and its steps)
// and parse_calls.cpp (a call step's arguments). Internal to model/scenario.
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "model/mpi/op.hpp"
#include "model/scenario/scenario.hpp"
#include "sim/input_error.hpp"
#include "sim/input_file.hpp"
#include "sim/suggest.hpp"

namespace mpisim::scenario::parsing {

using Json = nlohmann::ordered_json;

inline std::string escape_pointer(const std::string& key) { return sim::json_pointer_token(key); }

inline bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

class ScenarioParser {
 public:
  ScenarioParser(std::string file, Scenario& sc) : file_(std::move(file)), sc_(sc), names_(*sc.names) {}

  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    throw sim::InputError(file_ + ": " + (path.empty() ? "/" : sim::escape_non_ascii(path)), what);
  }

  void top(const Json& j) {
    if (!j.is_object()) fail("", "expected a JSON object (a scenario), got " + std::string(j.type_name()));
    static const std::set<std::string> known = {"mpisim", "name", "about", "note", "ranks", "ranks_fixed", "requires",
                                                "network", "payload", "progress", "algorithms", "limits", "program"};
    for (auto it = j.begin(); it != j.end(); ++it)
      if (!known.count(it.key()))
        fail("/" + escape_pointer(it.key()),
             "unknown field" + suggest(it.key(), known) +
                 "; a scenario has: mpisim, name, about, note, ranks, ranks_fixed, requires, network, "
                 "payload, progress, algorithms, limits, program");
    if (!j.contains("mpisim") || j["mpisim"] != 1)
      fail("/mpisim", "expected \"mpisim\": 1 (the scenario format version)");
    sc_.name = string_field(j, "name", "/name");
    sc_.about = string_field(j, "about", "/about");
    sc_.note = string_field(j, "note", "/note");
    if (j.contains("ranks")) {
      const Json& r = j["ranks"];
      if (!r.is_number_integer() || r.get<std::int64_t>() < 1)
        fail("/ranks", "expected a positive integer number of ranks, got " + r.dump(-1, ' ', true));
      sc_.ranks = r.get<std::int64_t>();
    }
    if (j.contains("ranks_fixed")) {
      sc_.ranks_fixed = string_field(j, "ranks_fixed", "/ranks_fixed");
      if (sc_.ranks_fixed.empty()) fail("/ranks_fixed", "expected the reason the scenario runs only on its \"ranks\"");
      if (!sc_.ranks) fail("/ranks_fixed", "a scenario fixed to its number of ranks must give \"ranks\"");
    }
    if (j.contains("requires")) {
      const Json& q = j["requires"];
      if (!q.is_object() || !q.contains("condition") || !q.contains("reason") || q.size() != 2)
        fail("/requires", "expected {\"condition\": EXPR on size, \"reason\": TEXT}, e.g. {\"condition\": \"size % 2 == 0\", "
                          "\"reason\": \"the ranks pair up\"}");
      sc_.requires_condition = string_field(q, "condition", "/requires/condition");
      sc_.requires_reason = string_field(q, "reason", "/requires/reason");
      try {
        const Expr e = Expr::parse(sc_.requires_condition);
        for (const std::string& n : e.free_names())
          if (n != "size")
            fail("/requires/condition", "the condition may read only size (the number of ranks), not " + sim::shown(n));
      } catch (const ExprError& e) {
        fail("/requires/condition", std::string("not a valid expression: ") + e.what());
      }
    }
    sc_.network = string_field(j, "network", "/network");
    if (j.contains("payload")) {
      std::string p = string_field(j, "payload", "/payload");
      if (p == "data") sc_.payload = mpi::PayloadMode::data;
      else if (p == "sizes") sc_.payload = mpi::PayloadMode::sizes;
      else fail("/payload", "expected \"data\" or \"sizes\", got \"" + p + "\"");
    }
    if (j.contains("progress")) {
      sc_.progress = string_field(j, "progress", "/progress");
      if (sc_.progress != "async" && sc_.progress != "in-mpi")
        fail("/progress", "expected \"async\" or \"in-mpi\", got \"" + sc_.progress + "\"");
    }
    if (j.contains("algorithms")) {
      const Json& a = j["algorithms"];
      if (!a.is_object()) fail("/algorithms", "expected an object such as {\"MPI_Scatter\": \"linear\"}");
      for (auto it = a.begin(); it != a.end(); ++it) {
        if (!it.value().is_string())
          fail("/algorithms/" + escape_pointer(it.key()), "expected an algorithm name (a string)");
        sc_.algorithms[it.key()] = it.value().get<std::string>();
      }
    }
    if (j.contains("limits")) {
      const Json& l = j["limits"];
      if (!l.is_object()) fail("/limits", "expected an object such as {\"max_events\": 100000}");
      for (auto it = l.begin(); it != l.end(); ++it) {
        std::string p = "/limits/" + escape_pointer(it.key());
        if (it.key() == "max_events") {
          if (!it.value().is_number_unsigned() || it.value().get<std::uint64_t>() == 0)
            fail(p, "expected a positive number of events");
          sc_.max_events = it.value().get<std::uint64_t>();
        } else if (it.key() == "max_sim_time" || it.key() == "max_memory") {
          if (!it.value().is_string()) fail(p, "expected a quantity with a unit, e.g. \"10ms\" or \"1GiB\"");
          (it.key() == "max_sim_time" ? sc_.max_sim_time : sc_.max_memory) = it.value().get<std::string>();
        } else {
          fail(p, "unknown limit; the limits are max_events, max_sim_time, max_memory");
        }
      }
    }
    if (!j.contains("program")) fail("/program", "missing: the program, a list of steps");
    const Json& p = j["program"];
    if (p.is_array()) {
      sc_.program = program(p, "/program");
    } else if (p.is_object()) {
      sc_.mpmd = true;
      for (auto it = p.begin(); it != p.end(); ++it) {
        std::string path = "/program/" + escape_pointer(it.key());
        std::int64_t rank = -1;
        if (it.key() != "*") {
          try {
            std::size_t used = 0;
            rank = std::stoll(it.key(), &used);
            if (used != it.key().size() || rank < 0) throw std::invalid_argument("");
          } catch (const std::exception&) {
            fail(path, "expected a rank number or \"*\" (every other rank) as the key of a per-rank program");
          }
        }
        if (!it.value().is_array()) fail(path, "expected a list of steps");
        sc_.per_rank[rank] = program(it.value(), path);
      }
    } else {
      fail("/program", "expected a list of steps (SPMD) or an object of per-rank step lists (MPMD)");
    }
  }

 private:
  std::string string_field(const Json& j, const char* key, const std::string& path) const {
    if (!j.contains(key)) return {};
    if (!j[key].is_string()) fail(path, "expected a string, got " + j[key].dump(-1, ' ', true));
    return j[key].get<std::string>();
  }

  Expr expr(const Json& v, const std::string& path) {
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
      fail(path, "the integer " + v.dump() + " is beyond 2^63 - 1, the largest integer a scenario computes with");
    if (v.is_number_integer()) return Expr::constant(v.get<std::int64_t>());
    if (v.is_number_float()) {
      const double d = v.get<double>();
      if (!std::isfinite(d)) fail(path, "the number is beyond a double");
      char buf[32];
      auto r = std::to_chars(buf, buf + sizeof buf, d);  // the shortest text that reads back as d
      std::string text(buf, r.ptr);
      if (text.find_first_of(".e") == std::string::npos) text += ".0";  // still a real: 2.0, not 2
      return Expr::parse(text, resolver());
    }
    if (v.is_boolean()) return Expr::constant(v.get<bool>() ? 1 : 0);
    if (v.is_string()) {
      try {
        return memoized(Expr::parse(v.get<std::string>(), resolver()));
      } catch (const ExprError& e) {
        fail(path, "in the expression \"" + sim::escape_non_ascii(v.get<std::string>()) + "\" at column " + std::to_string(e.column()) +
                       ": " + e.what());
      }
    }
    if (v.is_array()) {
      // A JSON array of numbers/expressions: parse as an array literal.
      std::string text = "[";
      for (std::size_t i = 0; i < v.size(); ++i) {
        const Json& e = v[i];
        if (!(e.is_number_integer() || e.is_string()))
          fail(path + "/" + std::to_string(i), "expected an integer or an expression, got " + e.dump(-1, ' ', true));
        expr(e, path + "/" + std::to_string(i));  // validates the element, with its own path
        if (i > 0) text += ", ";
        if (e.is_string()) {
          text += '(';
          text += e.get<std::string>();
          text += ')';
        } else {
          text += e.dump();
        }
      }
      return Expr::parse(text + "]", resolver());
    }
    fail(path, "expected an integer or an expression (a string), got " + v.dump(-1, ' ', true));
  }

  // An expression in a loop body that reads only rank, size and the MPI constants
  // has one value per rank however often it runs: it gets a memo slot, so the
  // executor evaluates it once per rank (a ring's "(rank + 1) % size", say).
  Expr memoized(Expr e) {
    if (depth_ > 1 && !e.constant_value() && e.reads_only_ids_below(Names::builtin_count))
      e.set_memo_slot(sc_.memo_slots++);
    return e;
  }

  NameResolver resolver() {
    return [this](std::string_view n) { return names_.intern(std::string(n)); };
  }

  NameId name(const Json& v, const std::string& path, const char* what) {
    if (!v.is_string() || !is_identifier(v.get<std::string>()))
      fail(path, std::string("expected ") + what + ": a name of letters, digits and _, got " +
                     (v.is_string() ? sim::shown(v.get<std::string>()) : v.dump(-1, ' ', true)));
    NameId id = names_.intern(v.get<std::string>());
    if (id < Names::builtin_count)
      fail(path, "\"" + v.get<std::string>() + "\" is a reserved name (rank, size and the MPI constants); choose another");
    return id;
  }

  Program program(const Json& steps, const std::string& path) {
    // repeat bodies nest programs; the depth is bounded like the expressions'.
    if (++depth_ > 64) fail(path, "programs nested too deeply (over 64 repeat levels)");
    struct Leave {
      int& d;
      ~Leave() { --d; }
    } leave{depth_};
    Program prog;
    for (std::size_t i = 0; i < steps.size(); ++i) {
      prog.push_back(step(steps[i], path + "/" + std::to_string(i)));
      prog.back().index = static_cast<std::int32_t>(i);
    }
    return prog;
  }

  void only(const Json& j, const std::string& path, const std::set<std::string>& allowed, const std::string& kind) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (allowed.count(it.key())) continue;
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      fail(path + "/" + escape_pointer(it.key()),
           "unknown field of a " + kind + " step" + suggest(it.key(), allowed) + "; it has: " + list);
    }
  }

  // " (did you mean \"x\"?)" for a misspelled key, from the known ones.
  template <class Names>
  static std::string suggest(std::string_view word, const Names& known) {
    sim::Suggestion s(word);
    for (const auto& k : known) s.consider(k);
    return s.hint();
  }

  // One step (parse.cpp).
  Step step(const Json& j, const std::string& path);

  void buffer_step(const Json& j, const std::string& path, Step& s) {
    s.kind = Step::buffer;
    only(j, path, {"buffer", "type", "count", "init", "ranks", "where", "note"}, "buffer");
    s.name = name(j["buffer"], path + "/buffer", "the buffer's name");
    if (!j.contains("type") || !j["type"].is_string())
      fail(path + "/type", "expected the element datatype, e.g. \"MPI_INT\"");
    s.type_name = j["type"].get<std::string>();
    s.type = mpi::predefined_type(s.type_name);
    if (!s.type || !s.type->basic())
      fail(path + "/type", "expected a basic predefined datatype such as MPI_INT or MPI_DOUBLE (a pair type's "
                               "data can be declared as its members, e.g. MPI_2INT as MPI_INT), got \"" +
                               s.type_name + "\"" + (s.type ? "" : suggest(s.type_name, mpi::predefined_type_names())));
    if (!j.contains("count")) fail(path + "/count", "missing: the number of elements");
    s.count = expr(j["count"], path + "/count");
    if (j.contains("init")) s.init = expr(j["init"], path + "/init");
  }

  // A call step's arguments against its row of the call table (parse_calls.cpp).
  void call_step(const Json& j, const std::string& path, Step& s);

  BufferRef buffer_ref(const Json& v, const std::string& path) {
    BufferRef b;
    if (!v.is_string()) fail(path, "expected a buffer: \"name\", \"name+offset\", \"MPI_IN_PLACE\" or \"MPI_BOTTOM\"");
    b.text = v.get<std::string>();
    std::string t = b.text;
    auto plus = t.find('+');
    std::string base = t.substr(0, plus);
    while (!base.empty() && base.back() == ' ') base.pop_back();
    while (!base.empty() && base.front() == ' ') base.erase(base.begin());
    if (base == "MPI_IN_PLACE") {
      if (plus != std::string::npos) fail(path, "MPI_IN_PLACE takes no offset");
      b.kind = BufferRef::in_place;
      return b;
    }
    if (base == "MPI_BOTTOM") b.kind = BufferRef::bottom;
    else if (!is_identifier(base)) fail(path, "expected a buffer name before the offset, got " + sim::shown(base));
    else b.name = names_.intern(base);
    if (plus != std::string::npos) {
      try {
        b.offset = Expr::parse(t.substr(plus + 1), resolver());
      } catch (const ExprError& e) {
        fail(path, "in the offset \"" + t.substr(plus + 1) + "\" at column " + std::to_string(e.column()) + ": " + e.what());
      }
    }
    return b;
  }

  std::string file_;
  Scenario& sc_;
  Names& names_;
  int depth_ = 0;
};

}  // namespace mpisim::scenario::parsing
