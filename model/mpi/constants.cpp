#include "model/mpi/constants.hpp"

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
    case ErrorClass::keyval: return "MPI_ERR_KEYVAL";
    case ErrorClass::unknown: return "MPI_ERR_UNKNOWN";
  }
  return "MPI_ERR_UNKNOWN";
}

}  // namespace mpisim::mpi
