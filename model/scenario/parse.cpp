// Scenario parsing: JSON in, typed steps out, every error with its JSON path.
#include <charconv>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "model/mpi/op.hpp"
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

const Program& Scenario::program_for(std::int64_t rank) const {
  if (!mpmd) return program;
  auto it = per_rank.find(rank);
  if (it != per_rank.end()) return it->second;
  auto all = per_rank.find(-1);
  static const Program empty;
  return all != per_rank.end() ? all->second : empty;
}

namespace {

using Json = nlohmann::ordered_json;

std::string escape_pointer(const std::string& key) { return sim::json_pointer_token(key); }

bool is_identifier(const std::string& s) {
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
             "unknown field; a scenario has: mpisim, name, about, note, ranks, ranks_fixed, requires, network, "
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
      fail(path + "/" + escape_pointer(it.key()), "unknown field of a " + kind + " step; it has: " + list);
    }
  }

  Step step(const Json& j, const std::string& path) {
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
    if (found != 1)
      fail(path, found == 0 ? "a step needs one of: call, let, buffer, show, expect, compute, repeat"
                            : "a step has exactly one of: call, let, buffer, show, expect, compute, repeat");
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
                               s.type_name + "\"");
    if (!j.contains("count")) fail(path + "/count", "missing: the number of elements");
    s.count = expr(j["count"], path + "/count");
    if (j.contains("init")) s.init = expr(j["init"], path + "/init");
  }

  void call_step(const Json& j, const std::string& path, Step& s) {
    s.kind = Step::call;
    if (!j["call"].is_string()) fail(path + "/call", "expected the MPI function's name, e.g. \"MPI_Send\"");
    std::string fn = j["call"].get<std::string>();
    s.spec = find_call(fn);
    if (!s.spec) fail(path + "/call", "unknown or unsupported MPI call " + sim::shown(fn) + " (mpisim --list-calls lists them)");
    s.args.resize(s.spec->params.size());
    s.slot.fill(-1);
    for (std::size_t i = 0; i < s.spec->params.size(); ++i)
      s.slot[static_cast<std::size_t>(s.spec->params[i].id)] = static_cast<std::int8_t>(i);
    std::set<std::string> allowed = {"call", "ranks", "where", "algorithm", "segment", "note", "return"};
    for (const auto& p : s.spec->params) allowed.insert(p.name);
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (allowed.count(it.key())) continue;
      std::string list;
      for (const auto& p : s.spec->params) list += (list.empty() ? "" : ", ") + std::string(p.name);
      fail(path + "/" + escape_pointer(it.key()), "unknown parameter of " + fn + "; its parameters are: " + list);
    }
    if (j.contains("algorithm")) s.algorithm = string_field(j, "algorithm", path + "/algorithm");
    if (j.contains("return"))
      s.return_name = name(j["return"], path + "/return", "a name for the call's return code (MPI_SUCCESS or an error class)");
    if (j.contains("segment")) {
      const Json& g = j["segment"];
      if (!g.is_number_integer() || g.get<std::int64_t>() <= 0)
        fail(path + "/segment", "expected the segment size of a pipelined algorithm: a positive number of bytes");
      s.segment = g.get<std::int64_t>();
    }
    for (std::size_t i = 0; i < s.spec->params.size(); ++i) {
      const ParamSpec& p = s.spec->params[i];
      std::string ap = path + "/" + p.name;
      Arg& a = s.args[i];
      a.kind = p.kind;
      if (!j.contains(p.name)) {
        if (p.required) fail(ap, "missing: parameter " + std::string(p.name) + " of " + fn);
        continue;
      }
      a.present = true;
      const Json& v = j[p.name];
      a.text = v.is_string() ? v.get<std::string>() : v.dump();
      switch (p.kind) {
        case ParamKind::integer: a.expr = expr(v, ap); break;
        case ParamKind::int_array: a.expr = expr(v, ap); break;
        case ParamKind::buffer: a.buffer = buffer_ref(v, ap); break;
        case ParamKind::datatype:
        case ParamKind::comm:
          if (!v.is_string()) fail(ap, std::string("expected a ") + (p.kind == ParamKind::comm ? "communicator" : "datatype") +
                                           " handle name, e.g. \"" +
                                           (p.kind == ParamKind::comm ? "MPI_COMM_WORLD" : "MPI_INT") + "\"");
          a.handle = v.get<std::string>();
          a.predefined = mpi::predefined_type(a.handle);
          if (p.kind == ParamKind::datatype && !a.predefined && is_identifier(a.handle)) a.name = names_.intern(a.handle);
          a.comm_kind = a.handle == "MPI_COMM_WORLD" ? Arg::world : a.handle == "MPI_COMM_SELF" ? Arg::self : Arg::named;
          if (p.kind == ParamKind::datatype && !mpi::predefined_type(a.handle) && !is_identifier(a.handle))
            fail(ap, "expected a datatype: a predefined one (MPI_INT, ...) or the name of one the program made, got " +
                         sim::shown(a.handle));
          if (p.kind == ParamKind::comm && a.handle != "MPI_COMM_WORLD" && a.handle != "MPI_COMM_SELF") {
            if (!is_identifier(a.handle))
              fail(ap, "expected a communicator: MPI_COMM_WORLD, MPI_COMM_SELF or the name of one the program made, got " +
                           sim::shown(a.handle));
            a.name = names_.intern(a.handle);
          }
          break;
        case ParamKind::status_out:
        case ParamKind::statuses_out:
          if (v.is_string() && (v == "MPI_STATUS_IGNORE" || v == "MPI_STATUSES_IGNORE")) {
            a.ignore = true;
            break;
          }
          a.name = name(v, ap, "a name for the status (or MPI_STATUS_IGNORE)");
          a.status_fields = {names_.intern(names_.str(a.name) + ".MPI_SOURCE"),
                             names_.intern(names_.str(a.name) + ".MPI_TAG"),
                             names_.intern(names_.str(a.name) + ".MPI_ERROR")};
          break;
        case ParamKind::out_int:
        case ParamKind::request_out:
        case ParamKind::request_in:
        case ParamKind::status_in:
        case ParamKind::group_out:
        case ParamKind::group_inout:
        case ParamKind::comm_out:
        case ParamKind::comm_inout:
        case ParamKind::datatype_out:
        case ParamKind::datatype_inout:
        case ParamKind::int_inout:
        case ParamKind::op_out:
        case ParamKind::op_inout:
        case ParamKind::array_out:
        case ParamKind::array_inout:
        case ParamKind::message_out:
        case ParamKind::message_inout: a.name = name(v, ap, "a name"); break;
        case ParamKind::text:
          if (!v.is_string()) fail(ap, "expected a JSON string");
          break;
        case ParamKind::group_in:
          if (v.is_string() && v == "MPI_GROUP_EMPTY") {
            a.handle = "MPI_GROUP_EMPTY";
            break;
          }
          a.name = name(v, ap, "a group: the name of one the program made, or MPI_GROUP_EMPTY");
          break;
        case ParamKind::ranges:
          if (v.is_array() && !v.empty() && v[0].is_array()) {
            // [[first, last, stride], ...]: flattened into one array expression.
            Json flat = Json::array();
            for (std::size_t k = 0; k < v.size(); ++k) {
              if (!v[k].is_array() || v[k].size() != 3)
                fail(ap + "/" + std::to_string(k), "expected a triplet [first, last, stride]");
              for (const auto& x : v[k]) flat.push_back(x);
            }
            a.expr = expr(flat, ap);
          } else {
            a.expr = expr(v, ap);
          }
          break;
        case ParamKind::op_in:
          if (!v.is_string()) fail(ap, "expected an operation: MPI_SUM, MPI_MAX, ... or the name of one the program made");
          a.handle = v.get<std::string>();
          if (!mpi::predefined_op(a.handle)) {
            if (!is_identifier(a.handle) || a.handle.rfind("MPI_", 0) == 0)
              fail(ap, "unknown operation " + sim::shown(a.handle) + "; predefined: MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, "
                       "MPI_BAND, MPI_LOR, MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE, MPI_NO_OP");
            a.name = names_.intern(a.handle);
          }
          break;
        case ParamKind::function_name:
          if (!v.is_string())
            fail(ap, "expected a user function: an expression over invec, inoutvec, len and width giving the new "
                     "inoutvec, or one mpisim provides (\"matrix_product_2x2\", \"absolute_max\")");
          if (mpi::user_function(v.get<std::string>())) {
            a.handle = v.get<std::string>();
            break;
          }
          try {
            a.expr = Expr::parse(v.get<std::string>(), resolver());
          } catch (const ExprError& e) {
            fail(ap, "the user function \"" + sim::escape_non_ascii(v.get<std::string>()) +
                         "\" is not a valid expression: at column " + std::to_string(e.column()) + ": " + e.what() +
                         " (or name a function mpisim provides: \"matrix_product_2x2\", \"absolute_max\")");
          }
          break;
        case ParamKind::type_array:
          if (!v.is_array()) fail(ap, "expected a list of datatype names");
          for (std::size_t k = 0; k < v.size(); ++k) {
            std::string kp = ap + "/" + std::to_string(k);
            if (!v[k].is_string()) fail(kp, "expected a datatype name");
            std::string t = v[k].get<std::string>();
            if (!mpi::predefined_type(t) && t != "MPI_LB" && t != "MPI_UB" && !is_identifier(t))
              fail(kp, "expected a datatype: a predefined one, MPI_LB, MPI_UB, or one the program made, got " + sim::shown(t));
            a.names.push_back(names_.intern(t));
          }
          break;
        case ParamKind::request_array:
          if (!v.is_array()) fail(ap, "expected a list of request names");
          for (std::size_t k = 0; k < v.size(); ++k) a.names.push_back(name(v[k], ap + "/" + std::to_string(k), "a request name"));
          break;
      }
    }
  }

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
