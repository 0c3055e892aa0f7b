// Rows of the call table (model/calls/rows.hpp): error handlers a program makes
// and the error classes, codes and strings it adds (MPI-4.1 §9.3, §9.5). The
// predefined handlers' calls (MPI_Comm_set_errhandler, ...) and MPI_Error_class
// and MPI_Error_string are with the environment's calls.
#include "model/calls/rows.hpp"

namespace mpisim::calls::rows {

namespace {
constexpr const char* kFunctions = "its handlers are the program's functions; only a C program calls it";
constexpr const char* kAdded =
    "a scenario uses the predefined error classes only; only a C program adds its own";
}  // namespace

std::vector<CallSpec> error_rows() {
  return {
      {CallId::comm_create_errhandler, "MPI_Comm_create_errhandler",
       {{P::comm_errhandler_fn, "comm_errhandler_fn", K::pointer, req},
        {P::errhandler, "errhandler", K::out_int, req}},
       "make an error handler from a function",
       "MPI-4.1 §9.3.1",
       "{errhandler} = a new error handler. Set on a communicator, it is called, at the process where an error "
       "is found in a call on that communicator, with a pointer to the communicator and one to the error code; "
       "when it returns, the call returns that code.",
       "MPI_Comm_errhandler_function *comm_errhandler_fn, MPI_Errhandler *errhandler", "int", kFunctions},
      {CallId::comm_call_errhandler, "MPI_Comm_call_errhandler",
       {{P::comm, "comm", K::comm, req}, {P::errorcode, "errorcode", K::integer, req}},
       "run a communicator's error handler",
       "MPI-4.1 §9.3.5",
       "handle {errorcode} as an error on {comm} would be: its error handler is called (MPI_ERRORS_ARE_FATAL and "
       "MPI_ERRORS_ABORT stop the run); the call returns MPI_SUCCESS once the handler returns.",
       "MPI_Comm comm, int errorcode", "int", kFunctions},
      {CallId::add_error_class, "MPI_Add_error_class", {{P::errorclass, "errorclass", K::out_int, req}},
       "add an error class",
       "MPI-4.1 §9.5",
       "{errorclass} = a new error class (0x40000001, 0x40000002, ..., as MPICH); MPI_LASTUSEDCODE follows.",
       "int *errorclass", "int", kAdded},
      {CallId::add_error_code, "MPI_Add_error_code",
       {{P::errorclass, "errorclass", K::integer, req}, {P::errorcode, "errorcode", K::out_int, req}},
       "add an error code to a class",
       "MPI-4.1 §9.5",
       "{errorcode} = a new error code of class {errorclass} (a predefined class or one the program added).",
       "int errorclass, int *errorcode", "int", kAdded},
      {CallId::add_error_string, "MPI_Add_error_string",
       {{P::errorcode, "errorcode", K::integer, req}, {P::string, "string", K::text, req}},
       "give an added error code or class its text",
       "MPI-4.1 §9.5",
       "MPI_Error_string of {errorcode}, a code or class the program added, is {string} from now on (fewer than "
       "MPI_MAX_ERROR_STRING characters); until then it is empty.",
       "int errorcode, const char *string", "int", kAdded},
      {CallId::remove_error_class, "MPI_Remove_error_class", {{P::errorclass, "errorclass", K::integer, req}},
       "remove an added error class",
       "MPI-4.1 §9.5",
       "remove {errorclass}, which the program added and whose codes it removed.",
       "int errorclass", "int", kAdded},
      {CallId::remove_error_code, "MPI_Remove_error_code", {{P::errorcode, "errorcode", K::integer, req}},
       "remove an added error code",
       "MPI-4.1 §9.5",
       "remove {errorcode}, which the program added.",
       "int errorcode", "int", kAdded},
      {CallId::remove_error_string, "MPI_Remove_error_string", {{P::errorcode, "errorcode", K::integer, req}},
       "remove the text of an added error code or class",
       "MPI-4.1 §9.5",
       "MPI_Error_string of {errorcode} is empty again.",
       "int errorcode", "int", kAdded},
  };
}

}  // namespace mpisim::calls::rows
