// Rows of the call table (model/calls/rows.hpp): info objects (MPI-4.1 §10) and
// the calls that pass them to a communicator.
#include "model/calls/rows.hpp"

namespace mpisim::calls::rows {

namespace {
constexpr const char* kNoInfo = "a scenario has no info objects and no variables that hold text; only a C program calls it";
}  // namespace

std::vector<CallSpec> info_rows() {
  return {
      {CallId::info_create, "MPI_Info_create", {{P::info, "info", K::info_out, req}},
       "make an empty info object",
       "MPI-4.1 §10",
       "{info} = a new info object with no keys.",
       "MPI_Info *info", "int", kNoInfo},
      {CallId::info_create_env, "MPI_Info_create_env",
       {{P::argc, "argc", K::integer, req}, {P::argv, "argv", K::pointer, opt}, {P::info, "info", K::info_out, req}},
       "make an info object that describes how the job was started",
       "MPI-4.1 §11.2.5",
       "{info} = a new info object with the keys of MPI_INFO_ENV: \"command\" (the program), \"argv\" (its "
       "arguments, when it has some) and \"maxprocs\" (the number of processes); it may be called before MPI_Init.",
       "int argc, char *argv[], MPI_Info *info", "int", kNoInfo},
      {CallId::info_set, "MPI_Info_set",
       {{P::info, "info", K::info_in, req}, {P::key, "key", K::text, req}, {P::value, "value", K::text, req}},
       "give a key of an info object a value",
       "MPI-4.1 §10",
       "set {key} of {info} to {value}, replacing the value it had. A key has 1 to MPI_MAX_INFO_KEY (255) "
       "characters (else MPI_ERR_INFO_KEY), a value 1 to MPI_MAX_INFO_VAL (1024) (else MPI_ERR_INFO_VALUE).",
       "MPI_Info info, const char *key, const char *value", "int", kNoInfo},
      {CallId::info_delete, "MPI_Info_delete", {{P::info, "info", K::info_in, req}, {P::key, "key", K::text, req}},
       "remove a key from an info object",
       "MPI-4.1 §10",
       "remove {key} and its value from {info}; MPI_ERR_INFO_NOKEY if {info} has no such key.",
       "MPI_Info info, const char *key", "int", kNoInfo},
      {CallId::info_get, "MPI_Info_get",
       {{P::info, "info", K::info_in, req}, {P::key, "key", K::text, req}, {P::valuelen, "valuelen", K::integer, req},
        {P::value, "value", K::buffer, req}, {P::flag, "flag", K::out_int, req}},
       "the value of a key of an info object",
       "MPI-4.1 §10",
       "{flag} = whether {info} has {key}; if so, its value, cut to {valuelen} characters, then a NUL, is "
       "written into {value} (which has room for {valuelen} + 1). Deprecated by MPI-4.0 for MPI_Info_get_string.",
       "MPI_Info info, const char *key, int valuelen, char *value, int *flag", "int", kNoInfo},
      {CallId::info_get_valuelen, "MPI_Info_get_valuelen",
       {{P::info, "info", K::info_in, req}, {P::key, "key", K::text, req}, {P::valuelen, "valuelen", K::out_int, req},
        {P::flag, "flag", K::out_int, req}},
       "the length of the value of a key",
       "MPI-4.1 §10",
       "{flag} = whether {info} has {key}; if so, {valuelen} = the number of characters of its value (without "
       "the NUL). Deprecated by MPI-4.0 for MPI_Info_get_string.",
       "MPI_Info info, const char *key, int *valuelen, int *flag", "int", kNoInfo},
      {CallId::info_get_string, "MPI_Info_get_string",
       {{P::info, "info", K::info_in, req}, {P::key, "key", K::text, req}, {P::buflen, "buflen", K::int_inout, req},
        {P::value, "value", K::buffer, req}, {P::flag, "flag", K::out_int, req}},
       "the value of a key, and its length",
       "MPI-4.1 §10",
       "{flag} = whether {info} has {key}; if so, its value is written into {value}, cut to {buflen} - 1 "
       "characters and ended by a NUL (nothing is written when {buflen} is 0), and {buflen} = the length of the "
       "whole value plus one.",
       "MPI_Info info, const char *key, int *buflen, char *value, int *flag", "int", kNoInfo},
      {CallId::info_get_nkeys, "MPI_Info_get_nkeys",
       {{P::info, "info", K::info_in, req}, {P::nkeys, "nkeys", K::out_int, req}},
       "how many keys an info object has",
       "MPI-4.1 §10",
       "{nkeys} = the number of keys {info} has a value for.",
       "MPI_Info info, int *nkeys", "int", kNoInfo},
      {CallId::info_get_nthkey, "MPI_Info_get_nthkey",
       {{P::info, "info", K::info_in, req}, {P::n, "n", K::integer, req}, {P::key, "key", K::buffer, req}},
       "the nth key of an info object",
       "MPI-4.1 §10",
       "write key number {n} of {info} (from 0, in the order the keys were first set) and a NUL into {key}, which "
       "has room for MPI_MAX_INFO_KEY + 1 characters; MPI_ERR_ARG unless 0 <= {n} < the number of keys.",
       "MPI_Info info, int n, char *key", "int", kNoInfo},
      {CallId::info_dup, "MPI_Info_dup", {{P::info, "info", K::info_in, req}, {P::newinfo, "newinfo", K::info_out, req}},
       "copy an info object",
       "MPI-4.1 §10",
       "{newinfo} = a new info object with the keys and values of {info}, in the same order.",
       "MPI_Info info, MPI_Info *newinfo", "int", kNoInfo},
      {CallId::info_free, "MPI_Info_free", {{P::info, "info", K::info_out, req}},
       "free an info object",
       "MPI-4.1 §10",
       "free {info} and set it to MPI_INFO_NULL; MPI_INFO_ENV is predefined and cannot be freed.",
       "MPI_Info *info", "int", kNoInfo},
      {CallId::comm_dup_with_info, "MPI_Comm_dup_with_info",
       {{P::comm, "comm", K::comm, req}, {P::info, "info", K::info_in, req}, {P::newcomm, "newcomm", K::comm_out, req}},
       "duplicate a communicator, with hints",
       "MPI-4.1 §7.4.2",
       "as MPI_Comm_dup, collective over {comm}: {newcomm} has the same group and a new context, and {info} "
       "(an info object or MPI_INFO_NULL) is its hints instead of {comm}'s; mpisim takes no hint from it.",
       "MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm", "int", kNoInfo},
      {CallId::comm_idup_with_info, "MPI_Comm_idup_with_info",
       {{P::comm, "comm", K::comm, req}, {P::info, "info", K::info_in, req}, {P::newcomm, "newcomm", K::comm_out, req},
        {P::request, "request", K::request_out, req}},
       "MPI_Comm_dup_with_info, nonblocking",
       "MPI-4.1 §7.4.2",
       "as MPI_Comm_idup, and {info} (an info object or MPI_INFO_NULL) is the new communicator's hints instead of "
       "{comm}'s; mpisim takes no hint from it.",
       "MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request", "int", kNoInfo},
      {CallId::comm_set_info, "MPI_Comm_set_info", {{P::comm, "comm", K::comm, req}, {P::info, "info", K::info_in, req}},
       "give a communicator hints",
       "MPI-4.1 §7.4.4",
       "give {comm} the hints of {info}, collectively; mpisim takes no hint, so nothing changes.",
       "MPI_Comm comm, MPI_Info info", "int", kNoInfo},
      {CallId::comm_get_info, "MPI_Comm_get_info",
       {{P::comm, "comm", K::comm, req}, {P::info_used, "info_used", K::info_out, req}},
       "the hints a communicator uses",
       "MPI-4.1 §7.4.4",
       "{info_used} = a new info object with the hints {comm} uses: none, since mpisim takes no hint.",
       "MPI_Comm comm, MPI_Info *info_used", "int", kNoInfo},
  };
}

}  // namespace mpisim::calls::rows
