#pragma once
// The integer constants of the MPI standard that scenarios and the runtime share.
// Values follow MPICH's mpi.h where the standard leaves them to the implementation.
#include <cstdint>

namespace mpisim::mpi {

// The version of the standard mpisim implements (MPI_Get_version, MPI_VERSION).
inline constexpr int VERSION = 4, SUBVERSION = 1;
inline constexpr int COMM_TYPE_SHARED = 1;  // MPICH's value
inline constexpr int ANY_SOURCE = -2;
inline constexpr int PROC_NULL = -1;
inline constexpr int ROOT = -3;
inline constexpr int ANY_TAG = -1;
inline constexpr int UNDEFINED = -32766;
// MPI_Topo_test's answers (MPI-4.1 §8.5.5), MPICH's values.
inline constexpr int GRAPH = 1, CART = 2, DIST_GRAPH = 3;
inline constexpr int TAG_UB = 2147483647;  // MPI_TAG_UB: the largest valid tag (>= 32767 per MPI-4.1 §9.1.2)

// Error classes (MPI-4.1 §9.4, Table 9.1), MPICH's values.
enum class ErrorClass : int {
  success = 0,
  buffer = 1,
  count = 2,
  type = 3,
  tag = 4,
  comm = 5,
  rank = 6,
  root = 7,
  truncate = 14,
  other = 15,
  intern = 16,
  in_status = 17,
  pending = 18,
  request = 19,
  arg = 12,
  op = 9,
  group = 8,
  topology = 10,
  dims = 11,
  unknown = 13,
  keyval = 48,
};

const char* error_class_name(ErrorClass c);

}  // namespace mpisim::mpi
