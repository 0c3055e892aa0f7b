// The C entry points of mpi.h: datatypes (capi.cpp has the
// environment, communicators and point-to-point).
#include "model/program/capi_support.hpp"

using namespace mpisim;
using program::capi::call;
using program::capi::Ctx;
using program::capi::Param;
namespace capi = program::capi;
using mpi::Request;
using sim::SimTime;
namespace coll = mpisim::coll;

extern "C" {

// ---- datatypes
int MPI_Type_size(MPI_Datatype datatype, int* size) {
  return call(__builtin_return_address(0), "MPI_Type_size", [&](Ctx& x) {
    capi::need(size, "size");
    const auto s = capi::type_of(x.c, datatype, "datatype")->size();
    *size = s > INT32_MAX ? MPI_UNDEFINED : static_cast<int>(s);
  });
}

int MPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint* lb, MPI_Aint* extent) {
  return call(__builtin_return_address(0), "MPI_Type_get_extent", [&](Ctx& x) {
    capi::need(lb, "lb");
    capi::need(extent, "extent");
    auto t = capi::type_of(x.c, datatype, "datatype");
    *lb = t->lb();
    *extent = t->extent();
  });
}


int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return call(__builtin_return_address(0), "MPI_Type_contiguous", [&](Ctx& x) {
    capi::new_type(x, newtype, mpi::type_contiguous(count, capi::type_of(x.c, oldtype, "oldtype")));
  });
}

int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return call(__builtin_return_address(0), "MPI_Type_vector", [&](Ctx& x) {
    capi::new_type(x, newtype,
                      mpi::type_vector(count, blocklength, stride, capi::type_of(x.c, oldtype, "oldtype")));
  });
}

int MPI_Type_commit(MPI_Datatype* datatype) {
  return call(__builtin_return_address(0), "MPI_Type_commit", [&](Ctx& x) {
    capi::need(datatype, "datatype");
    capi::type_of(x.c, *datatype, "datatype")->commit();
  });
}

int MPI_Type_free(MPI_Datatype* datatype) {
  return call(__builtin_return_address(0), "MPI_Type_free", [&](Ctx& x) {
    capi::need(datatype, "datatype");
    auto t = capi::type_of(x.c, *datatype, "datatype");
    mpi::check_type_free(*t, "datatype");
    x.c.types[static_cast<std::size_t>(*datatype & capi::kIndexMask)] = nullptr;
    *datatype = MPI_DATATYPE_NULL;
  });
}

}  // extern "C"
