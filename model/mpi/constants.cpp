#include "model/mpi/constants.hpp"
#include "model/mpi/error.hpp"

#include <cstdio>

namespace mpisim::mpi {

const char* error_class_name(ErrorClass c) {
  switch (c) {
    case ErrorClass::success: return "MPI_SUCCESS";
    case ErrorClass::buffer: return "MPI_ERR_BUFFER";
    case ErrorClass::count: return "MPI_ERR_COUNT";
    case ErrorClass::type: return "MPI_ERR_TYPE";
    case ErrorClass::tag: return "MPI_ERR_TAG";
    case ErrorClass::comm: return "MPI_ERR_COMM";
    case ErrorClass::rank: return "MPI_ERR_RANK";
    case ErrorClass::root: return "MPI_ERR_ROOT";
    case ErrorClass::truncate: return "MPI_ERR_TRUNCATE";
    case ErrorClass::other: return "MPI_ERR_OTHER";
    case ErrorClass::intern: return "MPI_ERR_INTERN";
    case ErrorClass::in_status: return "MPI_ERR_IN_STATUS";
    case ErrorClass::pending: return "MPI_ERR_PENDING";
    case ErrorClass::request: return "MPI_ERR_REQUEST";
    case ErrorClass::arg: return "MPI_ERR_ARG";
    case ErrorClass::op: return "MPI_ERR_OP";
    case ErrorClass::group: return "MPI_ERR_GROUP";
    case ErrorClass::topology: return "MPI_ERR_TOPOLOGY";
    case ErrorClass::dims: return "MPI_ERR_DIMS";
    case ErrorClass::info: return "MPI_ERR_INFO";
    case ErrorClass::info_key: return "MPI_ERR_INFO_KEY";
    case ErrorClass::info_value: return "MPI_ERR_INFO_VALUE";
    case ErrorClass::info_nokey: return "MPI_ERR_INFO_NOKEY";
    case ErrorClass::keyval: return "MPI_ERR_KEYVAL";
    case ErrorClass::unknown: return "MPI_ERR_UNKNOWN";
  }
  return "MPI_ERR_UNKNOWN";
}

}  // namespace mpisim::mpi

namespace mpisim::mpi {
namespace {

struct CodeRow {
  int code;
  const char* name;
  const char* meaning;
};
// MPI-4.1 Table 9.1, with MPICH's values; the meanings are mpisim's words.
constexpr CodeRow kCodes[] = {
    {0, "MPI_SUCCESS", "no error"},
    {1, "MPI_ERR_BUFFER", "invalid buffer"},
    {2, "MPI_ERR_COUNT", "invalid count"},
    {3, "MPI_ERR_TYPE", "invalid datatype"},
    {4, "MPI_ERR_TAG", "invalid tag"},
    {5, "MPI_ERR_COMM", "invalid communicator"},
    {6, "MPI_ERR_RANK", "invalid rank"},
    {7, "MPI_ERR_ROOT", "invalid root"},
    {8, "MPI_ERR_GROUP", "invalid group"},
    {9, "MPI_ERR_OP", "invalid operation"},
    {10, "MPI_ERR_TOPOLOGY", "invalid topology"},
    {11, "MPI_ERR_DIMS", "invalid dimension argument"},
    {12, "MPI_ERR_ARG", "invalid argument of another kind"},
    {13, "MPI_ERR_UNKNOWN", "unknown error"},
    {14, "MPI_ERR_TRUNCATE", "message truncated on receive"},
    {15, "MPI_ERR_OTHER", "known error not in this list"},
    {16, "MPI_ERR_INTERN", "internal error of the implementation"},
    {17, "MPI_ERR_IN_STATUS", "error code is in the status"},
    {18, "MPI_ERR_PENDING", "pending request"},
    {19, "MPI_ERR_REQUEST", "invalid request"},
    {20, "MPI_ERR_ACCESS", "permission denied"},
    {21, "MPI_ERR_AMODE", "invalid file access mode"},
    {22, "MPI_ERR_BAD_FILE", "invalid file name"},
    {23, "MPI_ERR_CONVERSION", "error in a data conversion function"},
    {24, "MPI_ERR_DUP_DATAREP", "data representation already defined"},
    {25, "MPI_ERR_FILE_EXISTS", "file exists"},
    {26, "MPI_ERR_FILE_IN_USE", "file in use"},
    {27, "MPI_ERR_FILE", "invalid file handle"},
    {28, "MPI_ERR_INFO", "invalid info object"},
    {29, "MPI_ERR_INFO_KEY", "info key too long"},
    {30, "MPI_ERR_INFO_VALUE", "info value too long"},
    {31, "MPI_ERR_INFO_NOKEY", "info key not defined"},
    {32, "MPI_ERR_IO", "input/output error"},
    {33, "MPI_ERR_NAME", "invalid service name"},
    {34, "MPI_ERR_NO_MEM", "out of memory"},
    {35, "MPI_ERR_NOT_SAME", "collective argument not the same on all processes"},
    {36, "MPI_ERR_NO_SPACE", "not enough space"},
    {37, "MPI_ERR_NO_SUCH_FILE", "no such file"},
    {38, "MPI_ERR_PORT", "invalid port name"},
    {39, "MPI_ERR_QUOTA", "quota exceeded"},
    {40, "MPI_ERR_READ_ONLY", "read-only file or file system"},
    {41, "MPI_ERR_SERVICE", "invalid service name to unpublish"},
    {42, "MPI_ERR_SPAWN", "error in spawning processes"},
    {43, "MPI_ERR_UNSUPPORTED_DATAREP", "unsupported data representation"},
    {44, "MPI_ERR_UNSUPPORTED_OPERATION", "unsupported operation"},
    {45, "MPI_ERR_WIN", "invalid window"},
    {46, "MPI_ERR_BASE", "invalid base address"},
    {47, "MPI_ERR_LOCKTYPE", "invalid lock type"},
    {48, "MPI_ERR_KEYVAL", "invalid attribute key"},
    {49, "MPI_ERR_RMA_CONFLICT", "conflicting accesses to a window"},
    {50, "MPI_ERR_RMA_SYNC", "wrong synchronization of RMA calls"},
    {51, "MPI_ERR_SIZE", "invalid size"},
    {52, "MPI_ERR_DISP", "invalid displacement"},
    {53, "MPI_ERR_ASSERT", "invalid assertion"},
    {55, "MPI_ERR_RMA_RANGE", "target memory outside the window"},
    {56, "MPI_ERR_RMA_ATTACH", "memory cannot be attached"},
    {57, "MPI_ERR_RMA_SHARED", "memory cannot be shared"},
    {58, "MPI_ERR_RMA_FLAVOR", "wrong window flavor"},
    {75, "MPI_ERR_SESSION", "invalid session"},
    {76, "MPI_ERR_PROC_ABORTED", "communication with an aborted process"},
    {77, "MPI_ERR_VALUE_TOO_LARGE", "value too large to store"},
};

const CodeRow* code_row(int code) {
  for (const CodeRow& r : kCodes)
    if (r.code == code) return &r;
  return nullptr;
}

[[noreturn]] void unknown_code(int code, const char* argument) {
  throw MpiError(ErrorClass::arg, argument, "errorcode = " + std::to_string(code) + " is no error code of MPI",
                 "MPI-4.1 §9.4: errorcode is an error code an MPI call returned (mpisim's codes are the classes of "
                 "Table 9.1, MPI_SUCCESS to MPI_ERR_VALUE_TOO_LARGE)");
}

}  // namespace

const char* error_code_name(int code) {
  const CodeRow* r = code_row(code);
  return r ? r->name : nullptr;
}

int error_class_of(int code, const char* argument) {
  if (!code_row(code)) unknown_code(code, argument);
  return code;
}

std::string error_string(int code, const char* argument) {
  const CodeRow* r = code_row(code);
  if (!r) unknown_code(code, argument);
  return std::string(r->name) + ": " + r->meaning;
}

const char* errhandler_name(std::int64_t handler) {
  switch (handler) {
    case ERRORS_ARE_FATAL: return "MPI_ERRORS_ARE_FATAL";
    case ERRORS_RETURN: return "MPI_ERRORS_RETURN";
    case ERRORS_ABORT: return "MPI_ERRORS_ABORT";
    case ERRHANDLER_NULL: return "MPI_ERRHANDLER_NULL";
    default: return nullptr;
  }
}

void check_errhandler(std::int64_t handler, const char* argument) {
  if (handler == ERRORS_ARE_FATAL || handler == ERRORS_RETURN || handler == ERRORS_ABORT) return;
  const char* n = errhandler_name(handler);
  char hex[24];
  std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(handler));
  throw MpiError(ErrorClass::arg, argument, std::string(argument) + " = " + (n ? n : hex) + " is not an error handler",
                 "MPI-4.1 §9.3: an error handler is MPI_ERRORS_ARE_FATAL, MPI_ERRORS_ABORT, MPI_ERRORS_RETURN or "
                 "one the program made");
}

}  // namespace mpisim::mpi
