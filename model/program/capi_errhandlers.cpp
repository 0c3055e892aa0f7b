// The C entry points of mpi.h: error handlers the program makes, and the error
// classes, codes and strings it adds (MPI-4.1 §9.3, §9.5). The rules are the
// library's (coll::Handles, mpi::ErrorCodes); `capi::call` runs a program's
// handler when a call on its communicator fails.
#include "model/program/capi_support.hpp"

using namespace mpisim;
using program::capi::call;
using program::capi::Ctx;
namespace capi = program::capi;

extern "C" {

int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function* comm_errhandler_fn, MPI_Errhandler* errhandler) {
  return call(__builtin_return_address(0), "MPI_Comm_create_errhandler", [&](Ctx& x) {
    capi::need(comm_errhandler_fn, "comm_errhandler_fn");
    capi::need(errhandler, "errhandler");
    *errhandler = x.c.handles.add_errhandler(comm_errhandler_fn);
  });
}

int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode) {
  return call(__builtin_return_address(0), "MPI_Comm_call_errhandler", [&](Ctx& x) {
    x.run.comm(comm, "comm");
    const int error_class = x.c.handles.error_codes().class_of(errorcode, "errorcode");
    const int handler = x.run.errhandler(comm);
    if (const auto own = x.c.handles.errhandler_function(handler)) {
      int c = comm, e = errorcode;
      own(&c, &e);  // an MPI call it makes is nested in this one
      return;
    }
    if (handler == MPI_ERRORS_RETURN) return;
    // MPI_ERRORS_ARE_FATAL or MPI_ERRORS_ABORT: the run stops, as for an error.
    x.returnable = false;
    const char* name = mpi::error_code_name(error_class);
    throw mpi::MpiError(name ? static_cast<mpi::ErrorClass>(error_class) : mpi::ErrorClass::other, "errorcode",
                        "the program raised error code " + std::to_string(errorcode) + " (" +
                            x.c.handles.error_codes().string_of(errorcode, "errorcode") + ") on a communicator "
                            "whose error handler is " + mpi::errhandler_name(handler),
                        "MPI-4.1 §9.3.5: MPI_Comm_call_errhandler calls the communicator's error handler, and "
                        "MPI_ERRORS_ARE_FATAL (or MPI_ERRORS_ABORT) ends the run");
  });
}

int MPI_Add_error_class(int* errorclass) {
  return call(__builtin_return_address(0), "MPI_Add_error_class", [&](Ctx& x) {
    capi::need(errorclass, "errorclass");
    *errorclass = x.c.handles.error_codes().add_class();
  });
}

int MPI_Add_error_code(int errorclass, int* errorcode) {
  return call(__builtin_return_address(0), "MPI_Add_error_code", [&](Ctx& x) {
    capi::need(errorcode, "errorcode");
    *errorcode = x.c.handles.error_codes().add_code(errorclass);
  });
}

int MPI_Add_error_string(int errorcode, const char* string) {
  return call(__builtin_return_address(0), "MPI_Add_error_string", [&](Ctx& x) {
    capi::need(string, "string");
    x.c.handles.error_codes().add_string(errorcode, string);
  });
}

int MPI_Remove_error_class(int errorclass) {
  return call(__builtin_return_address(0), "MPI_Remove_error_class",
              [&](Ctx& x) { x.c.handles.error_codes().remove_class(errorclass); });
}

int MPI_Remove_error_code(int errorcode) {
  return call(__builtin_return_address(0), "MPI_Remove_error_code",
              [&](Ctx& x) { x.c.handles.error_codes().remove_code(errorcode); });
}

int MPI_Remove_error_string(int errorcode) {
  return call(__builtin_return_address(0), "MPI_Remove_error_string",
              [&](Ctx& x) { x.c.handles.error_codes().remove_string(errorcode); });
}

// The MPI-1 names (MPICH's mpi.h still declares them).
int MPI_Errhandler_create(MPI_Handler_function* function, MPI_Errhandler* errhandler) {
  return MPI_Comm_create_errhandler(function, errhandler);
}
int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler) { return MPI_Comm_set_errhandler(comm, errhandler); }
int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler* errhandler) {
  return MPI_Comm_get_errhandler(comm, errhandler);
}

}  // extern "C"
