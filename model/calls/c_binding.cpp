#include "model/calls/c_binding.hpp"

#include <stdexcept>
#include <string>

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
  out << "\n/* Other names: the MPI-1 names MPI-2 replaced (MPICH still declares them) and the MPI_Count forms */\n";
  for (const CallAlias& a : call_aliases()) prototype(out, a.c_result, a.name, a.c_params);
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

}  // namespace mpisim::calls
