// The MPI constants a scenario may name beyond the builtins (scenario.hpp).
#include "model/mpi/constants.hpp"
#include "model/scenario/scenario.hpp"

namespace mpisim::scenario {

std::optional<std::int64_t> mpi_constant(std::string_view name) {
  static const std::pair<std::string_view, std::int64_t> table[] = {
      {"MPI_COMBINER_NAMED", 1},        {"MPI_COMBINER_DUP", 2},           {"MPI_COMBINER_CONTIGUOUS", 3},
      {"MPI_COMBINER_VECTOR", 4},       {"MPI_COMBINER_HVECTOR", 6},       {"MPI_COMBINER_INDEXED", 7},
      {"MPI_COMBINER_HINDEXED", 9},     {"MPI_COMBINER_INDEXED_BLOCK", 10}, {"MPI_COMBINER_STRUCT", 12},
      {"MPI_COMBINER_SUBARRAY", 13},    {"MPI_COMBINER_DARRAY", 14},       {"MPI_COMBINER_RESIZED", 18},
      {"MPI_COMBINER_HINDEXED_BLOCK", 19}, {"MPI_DISTRIBUTE_BLOCK", 121},  {"MPI_DISTRIBUTE_CYCLIC", 122},
      {"MPI_DISTRIBUTE_NONE", 123},     {"MPI_DISTRIBUTE_DFLT_DARG", -49767}, {"MPI_INFO_NULL", 0x1c000000},
      {"MPI_COMM_TYPE_SHARED", mpi::COMM_TYPE_SHARED},
      {"MPI_COMM_TYPE_HW_GUIDED", mpi::COMM_TYPE_HW_GUIDED},
      {"MPI_COMM_TYPE_HW_UNGUIDED", mpi::COMM_TYPE_HW_UNGUIDED},
      {"MPI_COMM_TYPE_RESOURCE_GUIDED", mpi::COMM_TYPE_RESOURCE_GUIDED},
      {"MPI_TYPECLASS_REAL", mpi::TYPECLASS_REAL}, {"MPI_TYPECLASS_INTEGER", mpi::TYPECLASS_INTEGER},
      {"MPI_TYPECLASS_COMPLEX", mpi::TYPECLASS_COMPLEX}, {"MPI_CART", mpi::CART}, {"MPI_GRAPH", mpi::GRAPH},
      {"MPI_DIST_GRAPH", mpi::DIST_GRAPH},   {"MPI_COMM_NULL", mpi::COMM_NULL}, {"MPI_COMM_WORLD", mpi::COMM_WORLD},
      {"MPI_COMM_SELF", mpi::COMM_SELF},    {"MPI_GROUP_NULL", mpi::GROUP_NULL}, {"MPI_DATATYPE_NULL", mpi::DATATYPE_NULL},
      {"MPI_OP_NULL", mpi::OP_NULL},        {"MPI_REQUEST_NULL", mpi::REQUEST_NULL}};
  for (const auto& [n, v] : table)
    if (n == name) return v;
  // The error classes (MPI_SUCCESS, MPI_ERR_*) and the predefined error handlers.
  if (name.starts_with("MPI_ERR") || name == "MPI_SUCCESS")
    for (int code = 0; code < 100; ++code)
      if (const char* n = mpi::error_code_name(code); n && name == n) return code;
  for (const std::int64_t h : {mpi::ERRORS_ARE_FATAL, mpi::ERRORS_RETURN, mpi::ERRORS_ABORT, mpi::ERRHANDLER_NULL})
    if (name == mpi::errhandler_name(h)) return h;
  if (name == "MPI_MAX_ERROR_STRING") return mpi::MAX_ERROR_STRING;
  if (name == "MPI_MAX_OBJECT_NAME") return mpi::MAX_OBJECT_NAME;
  return std::nullopt;
}

}  // namespace mpisim::scenario
