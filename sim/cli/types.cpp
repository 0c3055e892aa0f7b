#include "sim/cli/types.hpp"

#include <string_view>

#include "model/mpi/datatype.hpp"
#include "model/mpi/error.hpp"
#include "model/mpi/op.hpp"

namespace mpisim::cli {
namespace {

// The class of MPI-4.1 §6.9.2 a predefined type belongs to.
std::string class_of(const mpi::Datatype& t) {
  if (t.pair()) return "pair (§6.9.4)";
  const mpi::BasicType* b = t.uniform_basic();
  if (!b) return "-";
  switch (b->group) {
    case mpi::OpGroup::c_integer: return "C integer";
    case mpi::OpGroup::fortran_integer: return "Fortran integer";
    case mpi::OpGroup::floating: return "floating point";
    case mpi::OpGroup::logical: return "logical";
    case mpi::OpGroup::complex: return "complex";
    case mpi::OpGroup::byte: return "byte";
    case mpi::OpGroup::multi_language: return "multi-language";
    case mpi::OpGroup::none: return "no class";
  }
  return "-";
}

// The predefined reduction operations the library takes on `t`.
std::string operations_on(const mpi::Datatype& t) {
  static constexpr std::string_view kOps[] = {"MPI_MAX",  "MPI_MIN", "MPI_SUM",  "MPI_PROD",   "MPI_LAND",  "MPI_BAND",
                                              "MPI_LOR",  "MPI_BOR", "MPI_LXOR", "MPI_BXOR",   "MPI_MAXLOC", "MPI_MINLOC"};
  std::string out;
  for (std::string_view name : kOps) {
    try {
      mpi::check_op_type(*mpi::predefined_op(name), t, 1, "op");
      out += (out.empty() ? "" : ", ") + std::string(name.substr(4));
    } catch (const mpi::MpiError&) {
    }
  }
  return out.empty() ? "none" : out;
}

}  // namespace

bool print_types(std::ostream& out, const std::string& format) {
  const bool md = format == "markdown";
  if (!md && format != "text") return false;
  if (md)
    out << "# Predefined datatypes\n\n"
           "Every predefined datatype a scenario or a C program can name, with its size and extent on\n"
           "this platform (x86-64 Linux; the Fortran types as gfortran lays them out: INTEGER, REAL and\n"
           "LOGICAL of 4 bytes), the class of MPI-4.1 §6.9.2 it belongs to, and the predefined reduction\n"
           "operations that take it; any other operation on it is `MPI_ERR_OP`. This page is printed by\n"
           "`mpisim --list-types markdown` from the library's table of types. The optional types of\n"
           "quadruple precision (`MPI_REAL16`, `MPI_COMPLEX32`) and `MPI_INTEGER16` are not available:\n"
           "a C program's mpi.h defines them as `MPI_DATATYPE_NULL`, as an optional type an implementation\n"
           "does not provide may be (MPICH here does so for `MPI_INTEGER16`).\n\n"
           "| datatype | size | extent | class | operations |\n|---|---|---|---|---|\n";
  for (std::string_view name : mpi::predefined_type_names()) {
    const mpi::TypeRef t = mpi::predefined_type(name);
    if (md)
      out << "| `" << name << "` | " << t->size() << " | " << t->extent() << " | " << class_of(*t) << " | "
          << operations_on(*t) << " |\n";
    else
      out << name << "  size " << t->size() << ", extent " << t->extent() << ", " << class_of(*t) << ": "
          << operations_on(*t) << "\n";
  }
  return true;
}

}  // namespace mpisim::cli
