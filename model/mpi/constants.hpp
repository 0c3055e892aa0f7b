#pragma once
// The integer constants of the MPI standard that scenarios and the runtime share.
// Values follow MPICH's mpi.h where the standard leaves them to the implementation.
#include <cstdint>
#include <string>

namespace mpisim::mpi {

// The version of the standard mpisim implements (MPI_Get_version, MPI_VERSION).
inline constexpr int VERSION = 4, SUBVERSION = 1;
inline constexpr int COMM_TYPE_SHARED = 1;  // MPICH's value
inline constexpr int COMM_TYPE_HW_GUIDED = 2;        // MPICH's values
inline constexpr int COMM_TYPE_HW_UNGUIDED = 3;
inline constexpr int COMM_TYPE_RESOURCE_GUIDED = 4;
// The type classes of MPI_Type_match_size (MPICH's values).
inline constexpr std::int64_t TYPECLASS_REAL = 1, TYPECLASS_INTEGER = 2, TYPECLASS_COMPLEX = 3;
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
  info = 28,
  info_key = 29,
  info_value = 30,
  info_nokey = 31,
  keyval = 48,
};

const char* error_class_name(ErrorClass c);

// The error codes mpisim returns are the error classes themselves (MPI-4.1 §9.4
// lets an implementation use the classes as its codes). The name of a code, or
// null when it is none of MPI-4.1 Table 9.1's classes (MPICH's values).
const char* error_code_name(int code);
// MPI_Error_class: the class of `code`; MPI_ERR_ARG naming `argument` when `code`
// is no error code mpisim can return.
int error_class_of(int code, const char* argument);
// MPI_Error_string: the text of `code` (its name and what it means), at most
// MPI_MAX_ERROR_STRING - 1 characters; MPI_ERR_ARG as error_class_of.
std::string error_string(int code, const char* argument);
inline constexpr int MAX_ERROR_STRING = 512;  // MPICH's value
inline constexpr int MAX_OBJECT_NAME = 128;   // MPICH's value: the room for a name of MPI_Comm_get_name, ...

// The null handles and the predefined communicators (MPICH's handle values): what
// a scenario's expressions read for a handle name that holds them.
inline constexpr std::int64_t COMM_NULL = 0x04000000, COMM_WORLD = 0x44000000, COMM_SELF = 0x44000001;
inline constexpr std::int64_t GROUP_NULL = 0x08000000, DATATYPE_NULL = 0x0c000000, OP_NULL = 0x18000000;
inline constexpr std::int64_t REQUEST_NULL = 0x2c000000;

// The predefined error handlers (MPI-4.1 §9.3), MPICH's handle values.
inline constexpr int ERRHANDLER_NULL = 0x14000000;
inline constexpr int ERRORS_ARE_FATAL = 0x54000000;
inline constexpr int ERRORS_RETURN = 0x54000001;
inline constexpr int ERRORS_ABORT = 0x54000003;
// MPI_Comm_set_errhandler's argument: MPI_ERR_ARG naming `argument` unless it is
// one of the predefined handlers.
void check_errhandler(std::int64_t handler, const char* argument);
// The name of a handler ("MPI_ERRORS_RETURN"), or null.
const char* errhandler_name(std::int64_t handler);

}  // namespace mpisim::mpi
