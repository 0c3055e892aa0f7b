// The C entry points of mpi.h: attribute caching on communicators and datatypes
// (MPI-4.1 §7.7). The keys, the values and when each callback runs are the
// library's (mpi::Attributes); here handles and pointers are passed through.
#include "model/program/capi_support.hpp"

using namespace mpisim;
using program::capi::call;
using program::capi::Ctx;
namespace capi = program::capi;
using mpi::AttrObject;

extern "C" {

int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function* comm_copy_attr_fn,
                           MPI_Comm_delete_attr_function* comm_delete_attr_fn, int* comm_keyval, void* extra_state) {
  return call(__builtin_return_address(0), "MPI_Comm_create_keyval", [&](Ctx& x) {
    capi::need(comm_keyval, "comm_keyval");
    *comm_keyval =
        x.c.handles.attributes().create_keyval(AttrObject::comm, comm_copy_attr_fn, comm_delete_attr_fn, extra_state);
  });
}

int MPI_Comm_free_keyval(int* comm_keyval) {
  return call(__builtin_return_address(0), "MPI_Comm_free_keyval", [&](Ctx& x) {
    capi::need(comm_keyval, "comm_keyval");
    x.c.handles.attributes().free_keyval(AttrObject::comm, *comm_keyval);
  });
}

int MPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void* attribute_val) {
  return call(__builtin_return_address(0), "MPI_Comm_set_attr", [&](Ctx& x) {
    x.run.comm(comm, "comm");
    x.c.handles.attributes().set(AttrObject::comm, comm, comm_keyval, attribute_val);
  });
}

int MPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval) {
  return call(__builtin_return_address(0), "MPI_Comm_delete_attr", [&](Ctx& x) {
    x.run.comm(comm, "comm");
    x.c.handles.attributes().erase(AttrObject::comm, comm, comm_keyval);
  });
}

int MPI_Type_create_keyval(MPI_Type_copy_attr_function* type_copy_attr_fn,
                           MPI_Type_delete_attr_function* type_delete_attr_fn, int* type_keyval, void* extra_state) {
  return call(__builtin_return_address(0), "MPI_Type_create_keyval", [&](Ctx& x) {
    capi::need(type_keyval, "type_keyval");
    *type_keyval = x.c.handles.attributes().create_keyval(AttrObject::datatype, type_copy_attr_fn,
                                                           type_delete_attr_fn, extra_state);
  });
}

int MPI_Type_free_keyval(int* type_keyval) {
  return call(__builtin_return_address(0), "MPI_Type_free_keyval", [&](Ctx& x) {
    capi::need(type_keyval, "type_keyval");
    x.c.handles.attributes().free_keyval(AttrObject::datatype, *type_keyval);
  });
}

int MPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void* attribute_val) {
  return call(__builtin_return_address(0), "MPI_Type_set_attr", [&](Ctx& x) {
    capi::type_of(x.c, datatype, "datatype");
    x.c.handles.attributes().set(AttrObject::datatype, datatype, type_keyval, attribute_val);
  });
}

int MPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void* attribute_val, int* flag) {
  return call(__builtin_return_address(0), "MPI_Type_get_attr", [&](Ctx& x) {
    capi::type_of(x.c, datatype, "datatype");
    capi::need(attribute_val, "attribute_val");
    capi::need(flag, "flag");
    const auto v = x.c.handles.attributes().get(AttrObject::datatype, datatype, type_keyval);
    if (v) *static_cast<void**>(attribute_val) = *v;
    *flag = v ? 1 : 0;
  });
}

int MPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval) {
  return call(__builtin_return_address(0), "MPI_Type_delete_attr", [&](Ctx& x) {
    capi::type_of(x.c, datatype, "datatype");
    x.c.handles.attributes().erase(AttrObject::datatype, datatype, type_keyval);
  });
}

// The MPI-1 names (MPICH's mpi.h still declares them).
int MPI_Keyval_create(MPI_Copy_function* copy_fn, MPI_Delete_function* delete_fn, int* keyval, void* extra_state) {
  return MPI_Comm_create_keyval(copy_fn, delete_fn, keyval, extra_state);
}
int MPI_Keyval_free(int* keyval) { return MPI_Comm_free_keyval(keyval); }
int MPI_Attr_put(MPI_Comm comm, int keyval, void* attribute_val) {
  return MPI_Comm_set_attr(comm, keyval, attribute_val);
}
int MPI_Attr_delete(MPI_Comm comm, int keyval) { return MPI_Comm_delete_attr(comm, keyval); }

}  // extern "C"
