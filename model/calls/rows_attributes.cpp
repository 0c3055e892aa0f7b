// Rows of the call table (model/calls/rows.hpp): attribute caching on
// communicators and datatypes (MPI-4.1 §7.7). MPI_Comm_get_attr, which also
// reads the predefined attributes, is with the environment's calls.
#include "model/calls/rows.hpp"

namespace mpisim::calls::rows {

namespace {
constexpr const char* kCallbacks =
    "its keys call the program's functions and its values are addresses, which a scenario has none of; only a C "
    "program calls it";
}  // namespace

std::vector<CallSpec> attribute_rows() {
  return {
      {CallId::comm_create_keyval, "MPI_Comm_create_keyval",
       {{P::comm_copy_attr_fn, "comm_copy_attr_fn", K::pointer, req},
        {P::comm_delete_attr_fn, "comm_delete_attr_fn", K::pointer, req},
        {P::comm_keyval, "comm_keyval", K::out_int, req}, {P::extra_state, "extra_state", K::pointer, opt}},
       "make a key to cache values on communicators under",
       "MPI-4.1 §7.7.2",
       "{comm_keyval} = a new key for communicators. When a communicator with a value under it is duplicated "
       "(MPI_Comm_dup, MPI_Comm_dup_with_info), {comm_copy_attr_fn} decides whether the copy gets a value and "
       "which (MPI_COMM_NULL_COPY_FN: none; MPI_COMM_DUP_FN: the same); when a value is deleted (MPI_Comm_delete_attr, "
       "a set over it, MPI_Comm_free, MPI_Finalize for MPI_COMM_SELF), {comm_delete_attr_fn} is called with it. "
       "Both get {extra_state}.",
       "MPI_Comm_copy_attr_function *comm_copy_attr_fn, MPI_Comm_delete_attr_function *comm_delete_attr_fn, "
       "int *comm_keyval, void *extra_state",
       "int", kCallbacks},
      {CallId::comm_free_keyval, "MPI_Comm_free_keyval", {{P::comm_keyval, "comm_keyval", K::int_inout, req}},
       "free a communicator key",
       "MPI-4.1 §7.7.2",
       "free {comm_keyval} and set it to MPI_KEYVAL_INVALID; the values cached under it stay, and are copied and "
       "deleted as before, until they are deleted.",
       "int *comm_keyval", "int", kCallbacks},
      {CallId::comm_set_attr, "MPI_Comm_set_attr",
       {{P::comm, "comm", K::comm, req}, {P::comm_keyval, "comm_keyval", K::integer, req},
        {P::attribute_val, "attribute_val", K::pointer, req}},
       "cache a value on a communicator",
       "MPI-4.1 §7.7.2",
       "cache {attribute_val} on {comm} under {comm_keyval}; a value it had there is deleted first (its key's "
       "delete function runs). The predefined attributes cannot be set (MPI_ERR_KEYVAL).",
       "MPI_Comm comm, int comm_keyval, void *attribute_val", "int", kCallbacks},
      {CallId::comm_delete_attr, "MPI_Comm_delete_attr",
       {{P::comm, "comm", K::comm, req}, {P::comm_keyval, "comm_keyval", K::integer, req}},
       "delete a value cached on a communicator",
       "MPI-4.1 §7.7.2",
       "call the delete function of {comm_keyval} with the value {comm} has under it, then remove it; if the "
       "function returns an error, the call fails with it and the value stays.",
       "MPI_Comm comm, int comm_keyval", "int", kCallbacks},
      {CallId::type_create_keyval, "MPI_Type_create_keyval",
       {{P::type_copy_attr_fn, "type_copy_attr_fn", K::pointer, req},
        {P::type_delete_attr_fn, "type_delete_attr_fn", K::pointer, req},
        {P::type_keyval, "type_keyval", K::out_int, req}, {P::extra_state, "extra_state", K::pointer, opt}},
       "make a key to cache values on datatypes under",
       "MPI-4.1 §7.7.4",
       "{type_keyval} = a new key for datatypes, with the copy function MPI_Type_dup calls and the delete "
       "function MPI_Type_delete_attr, a set over a value and MPI_Type_free call, as for communicators.",
       "MPI_Type_copy_attr_function *type_copy_attr_fn, MPI_Type_delete_attr_function *type_delete_attr_fn, "
       "int *type_keyval, void *extra_state",
       "int", kCallbacks},
      {CallId::type_free_keyval, "MPI_Type_free_keyval", {{P::type_keyval, "type_keyval", K::int_inout, req}},
       "free a datatype key",
       "MPI-4.1 §7.7.4",
       "free {type_keyval} and set it to MPI_KEYVAL_INVALID; the values cached under it stay until deleted.",
       "int *type_keyval", "int", kCallbacks},
      {CallId::type_set_attr, "MPI_Type_set_attr",
       {{P::datatype, "datatype", K::datatype, req}, {P::type_keyval, "type_keyval", K::integer, req},
        {P::attribute_val, "attribute_val", K::pointer, req}},
       "cache a value on a datatype",
       "MPI-4.1 §7.7.4",
       "cache {attribute_val} on {datatype} under {type_keyval}; a value it had there is deleted first.",
       "MPI_Datatype datatype, int type_keyval, void *attribute_val", "int", kCallbacks},
      {CallId::type_get_attr, "MPI_Type_get_attr",
       {{P::datatype, "datatype", K::datatype, req}, {P::type_keyval, "type_keyval", K::integer, req},
        {P::attribute_val, "attribute_val", K::pointer, req}, {P::flag, "flag", K::out_int, req}},
       "the value cached on a datatype under a key",
       "MPI-4.1 §7.7.4",
       "{flag} = whether {datatype} has a value under {type_keyval}; if so, {attribute_val} (a void **) = it.",
       "MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag", "int", kCallbacks},
      {CallId::type_delete_attr, "MPI_Type_delete_attr",
       {{P::datatype, "datatype", K::datatype, req}, {P::type_keyval, "type_keyval", K::integer, req}},
       "delete a value cached on a datatype",
       "MPI-4.1 §7.7.4",
       "call the delete function of {type_keyval} with the value {datatype} has under it, then remove it.",
       "MPI_Datatype datatype, int type_keyval", "int", kCallbacks},
  };
}

}  // namespace mpisim::calls::rows
