// A call step's arguments, read against the call's row of the call table: every
// parameter given, of its kind, and nothing else.
#include "model/coll/collective.hpp"
#include "model/scenario/parser.hpp"

namespace mpisim::scenario::parsing {

void ScenarioParser::call_step(const Json& j, const std::string& path, Step& s) {
  s.kind = Step::call;
  if (!j["call"].is_string()) fail(path + "/call", "expected the MPI function's name, e.g. \"MPI_Send\"");
  std::string fn = j["call"].get<std::string>();
  s.spec = find_call(fn);
  if (!s.spec) {
    sim::Suggestion near(fn);
    for (const CallSpec& c : call_specs())
      if (!c.c_only) near.consider(c.name);
    fail(path + "/call", "unknown or unsupported MPI call " + sim::shown(fn) + near.hint() + " (mpisim --list-calls lists them)");
  }
  if (s.spec->c_only) fail(path + "/call", fn + " is not a scenario's call: " + s.spec->c_only);
  s.args.resize(s.spec->params.size());
  s.slot.fill(-1);
  for (std::size_t i = 0; i < s.spec->params.size(); ++i)
    s.slot[static_cast<std::size_t>(s.spec->params[i].id)] = static_cast<std::int8_t>(i);
  std::set<std::string> allowed = {"call", "ranks", "where", "algorithm", "segment", "radix", "note", "return"};
  for (const auto& p : s.spec->params) allowed.insert(p.name);
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (allowed.count(it.key())) continue;
    std::string list;
    for (const auto& p : s.spec->params) list += (list.empty() ? "" : ", ") + std::string(p.name);
    fail(path + "/" + escape_pointer(it.key()),
         "unknown parameter of " + fn + suggest(it.key(), allowed) + "; its parameters are: " + list);
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
  if (j.contains("radix")) {
    const Json& k = j["radix"];
    if (!k.is_number_integer() || k.get<std::int64_t>() < 2 || k.get<std::int64_t>() > coll::kMaxRadix)
      fail(path + "/radix", "expected the radix of a k-nomial algorithm: a whole number from 2 to " +
                                std::to_string(coll::kMaxRadix));
    s.radix = k.get<std::int64_t>();
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
      case ParamKind::integer:
        // An integer too large for a JSON integer reaches us as a double.
        if (v.is_number_float())
          fail(ap, "expected an integer (an MPI int or count) or an expression, got the real number " + v.dump());
        a.expr = expr(v, ap);
        break;
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
      case ParamKind::pointer:  // only in the calls a scenario does not make (refused above)
      case ParamKind::info_in:
      case ParamKind::info_out:
        fail(ap, "a scenario cannot give an address or an info object");
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
        if (!mpi::predefined_op(a.handle) && a.handle != "MPI_OP_NULL") {
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

}  // namespace mpisim::scenario::parsing
