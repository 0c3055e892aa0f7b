#include "model/calls/c_binding.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/calls/table.hpp"

namespace mpisim::calls {

namespace {

void prototype(std::ostream& out, const char* result, const char* name, const char* params) {
  out << result << ' ' << name << '(' << params << ");\n";
}

}  // namespace

void write_prototypes(std::ostream& out) {
  std::string_view family;
  for (const CallSpec& c : call_specs()) {
    if (c.family != family) {
      out << (family.empty() ? "" : "\n") << "/* " << c.family << " */\n";
      family = c.family;
    }
    prototype(out, c.c_result, c.name, c.c_params);
  }
  out << "\n/* Other names: the MPI-1 names MPI-2 replaced (MPICH still declares them), the MPI_Count forms (_x) and the large-count forms (_c) */\n";
  for (const CallAlias& a : call_aliases()) prototype(out, a.c_result, a.name, a.c_params);
  out << "\n/* The profiling interface (MPI-4.1 §15.2): each call also as PMPI_ */\n";
  for (const CallSpec& c : call_specs()) prototype(out, c.c_result, ("P" + std::string(c.name)).c_str(), c.c_params);
  for (const CallAlias& a : call_aliases()) prototype(out, a.c_result, ("P" + std::string(a.name)).c_str(), a.c_params);
}

void write_profiling_names(std::ostream& out) {
  out << "/* Written by mpisim_c_binding from the call table (model/calls): each C entry\n"
         "   point's profiling name (MPI-4.1 §15.2), PMPI_Send for MPI_Send, as a linker\n"
         "   symbol of the same address. */\n";
  for (const CallSpec& c : call_specs()) out << 'P' << c.name << " = " << c.name << ";\n";
  for (const CallAlias& a : call_aliases()) out << 'P' << a.name << " = " << a.name << ";\n";
}

void write_mpi_h(std::ostream& out, std::string_view header_template) {
  constexpr std::string_view marker = "@MPISIM_PROTOTYPES@\n";
  const std::size_t at = header_template.find(marker);
  if (at == std::string_view::npos) throw std::runtime_error("the header template has no @MPISIM_PROTOTYPES@ line");
  out << header_template.substr(0, at);
  write_prototypes(out);
  out << header_template.substr(at + marker.size());
}

void write_entry_points(std::ostream& out) {
  out << "// Written by mpisim_c_binding from the call table (model/calls): the address of\n"
         "// every C entry point mpi.h declares, so that mpisim does not link while one\n"
         "// has no definition.\n"
         "#include \"include/mpi.h\"\n\n"
         "namespace mpisim::program {\n\n"
         "extern const void* const kEntryPoints[];\n"
         "const void* const kEntryPoints[] = {\n";
  for (const CallSpec& c : call_specs()) out << "    reinterpret_cast<const void*>(&" << c.name << "),\n";
  for (const CallAlias& a : call_aliases()) out << "    reinterpret_cast<const void*>(&" << a.name << "),\n";
  out << "};\n\n}  // namespace mpisim::program\n";
}

namespace {

// One C parameter: its declaration ("const int sendcounts[]") and name ("sendcounts").
struct CParam {
  std::string decl, name;
};
std::vector<CParam> c_parameters(std::string_view params) {
  std::vector<CParam> out;
  while (!params.empty()) {
    const std::size_t comma = params.find(", ");
    const std::string_view one = params.substr(0, comma);
    params = comma == std::string_view::npos ? std::string_view{} : params.substr(comma + 2);
    std::string_view name = one.substr(one.find_last_of(" *") + 1);
    if (name.ends_with("[]")) name.remove_suffix(2);
    out.push_back({std::string(one), std::string(name)});
  }
  return out;
}

const CallSpec& row_of(CallId id) {
  for (const CallSpec& c : call_specs())
    if (c.id == id) return c;
  throw std::logic_error("no row for a collective's blocking form");
}

// The entry point `name` of collective row `c`, taking `c_params` (the row's, or
// its large-count form's).
void collective_entry_point(std::ostream& out, const CallSpec& c, const std::string& name, const std::string& c_params) {
  bool persistent = false;
  const std::optional<CallId> blocking = blocking_form(c.id, &persistent);
  std::string kind(blocking ? row_of(*blocking).name : c.name);
  kind = kind.substr(4);
  for (char& ch : kind) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  out << "int " << name << '(' << c_params << ") {\n"
      << "  return call(__builtin_return_address(0), \"" << name << "\", [&](Ctx& x) {\n";
  std::string fill, request;
  for (const CParam& p : c_parameters(c_params)) {
    const auto spec = std::find_if(c.params.begin(), c.params.end(), [&](const ParamSpec& s) { return p.name == s.name; });
    if (spec == c.params.end()) throw std::logic_error(name + ": the C parameter " + p.name + " has no row parameter");
    const std::string arg = "Param::" + p.name + ", " + p.name;
    switch (spec->kind) {
      case ParamKind::buffer: fill += "a.buffer(" + arg + "); "; break;
      case ParamKind::datatype: fill += "a.type(" + arg + "); "; break;
      case ParamKind::int_array: fill += "a.ints(" + arg + "); "; break;
      case ParamKind::type_array: fill += "a.types(" + arg + "); "; break;
      case ParamKind::op_in: fill += "a.op(" + p.name + "); "; break;
      case ParamKind::request_out: request = ", request" + std::string(persistent ? ", true" : ""); break;
      case ParamKind::comm: break;
      case ParamKind::integer:
        if (p.name == "info")
          out << "    x.c.handles.check_info(info, \"info\");\n";
        else
          fill += "a.integer(" + arg + "); ";
        break;
      default: throw std::logic_error(name + ": no C form for the kind of parameter " + p.name);
    }
  }
  out << "    capi::collective(x, coll::Collective::" << kind << ", comm, [&](capi::CArgs& a) { "
      << (fill.empty() ? "(void)a; " : fill) << "}" << request << ");\n"
      << "  });\n}\n";
}

}  // namespace

void write_collective_entry_points(std::ostream& out) {
  out << "// Written by mpisim_c_binding from the call table (model/calls): the C entry\n"
         "// points of the collectives, blocking, nonblocking and persistent, in their int\n"
         "// and large-count (_c) forms. Each hands its arguments, by the row's parameter\n"
         "// names, to the one collective path (model/program/capi_support.hpp).\n"
         "#include \"model/program/capi_support.hpp\"\n\n"
         "using namespace mpisim;\n"
         "using program::capi::call;\n"
         "using program::capi::Ctx;\n"
         "using program::capi::Param;\n"
         "namespace capi = program::capi;\n\n"
         "extern \"C\" {\n\n";
  for (const CallSpec& c : call_specs()) {
    if (!collective_row(c)) continue;
    collective_entry_point(out, c, c.name, c.c_params);
    const std::string large = large_count_params(c.c_params);
    if (large != c.c_params) collective_entry_point(out, c, std::string(c.name) + "_c", large);
  }
  out << "}  // extern \"C\"\n";
}

}  // namespace mpisim::calls
