// The C entry points of mpi.h: info objects (MPI-4.1 §10) and the calls that pass
// them to a communicator. The rules are the library's (mpi::Info, coll::Handles);
// here C strings are read and written.
#include "model/program/capi_support.hpp"

using namespace mpisim;
using program::capi::call;
using program::capi::Ctx;
namespace capi = program::capi;
namespace coll = mpisim::coll;

namespace {

// A string argument: MPI_ERR_ARG when it is NULL.
std::string_view text(const char* s, const char* argument) {
  capi::need(s, argument);
  return s;
}

// The info argument of a call that gives a communicator hints: its object, or
// null for MPI_INFO_NULL.
const mpi::Info* given_hints(Ctx& x, MPI_Info info) {
  return info == MPI_INFO_NULL ? nullptr : &x.c.handles.info(info, "info");
}

}  // namespace

extern "C" {


int MPI_Info_create(MPI_Info* info) {
  return call(__builtin_return_address(0), "MPI_Info_create", [&](Ctx& x) {
    capi::need(info, "info");
    *info = x.c.handles.add_info(mpi::Info{});
  });
}

int MPI_Info_create_env(int argc, char* argv[], MPI_Info* info) {
  (void)argc, (void)argv;  // the environment is the run's, as MPI_INFO_ENV's
  return call(__builtin_return_address(0), "MPI_Info_create_env", [&](Ctx& x) {
    capi::need(info, "info");
    *info = x.c.handles.add_info(x.c.handles.info(MPI_INFO_ENV, "info"));
  });
}

int MPI_Info_set(MPI_Info info, const char* key, const char* value) {
  return call(__builtin_return_address(0), "MPI_Info_set", [&](Ctx& x) {
    x.c.handles.info(info, "info").set(text(key, "key"), text(value, "value"));
  });
}

int MPI_Info_delete(MPI_Info info, const char* key) {
  return call(__builtin_return_address(0), "MPI_Info_delete",
              [&](Ctx& x) { x.c.handles.info(info, "info").erase(text(key, "key")); });
}

int MPI_Info_get(MPI_Info info, const char* key, int valuelen, char* value, int* flag) {
  return call(__builtin_return_address(0), "MPI_Info_get", [&](Ctx& x) {
    const auto v = x.c.handles.info(info, "info").get(text(key, "key"));
    capi::need(flag, "flag");
    if (v) {
      capi::need(value, "value");
      mpi::copy_value(*v, valuelen, value);
    }
    *flag = v ? 1 : 0;
  });
}

int MPI_Info_get_valuelen(MPI_Info info, const char* key, int* valuelen, int* flag) {
  return call(__builtin_return_address(0), "MPI_Info_get_valuelen", [&](Ctx& x) {
    const auto v = x.c.handles.info(info, "info").get(text(key, "key"));
    capi::need(valuelen, "valuelen");
    capi::need(flag, "flag");
    if (v) *valuelen = static_cast<int>(v->size());
    *flag = v ? 1 : 0;
  });
}

int MPI_Info_get_string(MPI_Info info, const char* key, int* buflen, char* value, int* flag) {
  return call(__builtin_return_address(0), "MPI_Info_get_string", [&](Ctx& x) {
    const auto v = x.c.handles.info(info, "info").get(text(key, "key"));
    capi::need(buflen, "buflen");
    capi::need(flag, "flag");
    if (v) {
      if (*buflen > 0) {
        capi::need(value, "value");
        mpi::copy_value(*v, *buflen - 1, value);
      }
      *buflen = static_cast<int>(v->size()) + 1;
    }
    *flag = v ? 1 : 0;
  });
}

int MPI_Info_get_nkeys(MPI_Info info, int* nkeys) {
  return call(__builtin_return_address(0), "MPI_Info_get_nkeys", [&](Ctx& x) {
    const int n = x.c.handles.info(info, "info").nkeys();
    capi::need(nkeys, "nkeys");
    *nkeys = n;
  });
}

int MPI_Info_get_nthkey(MPI_Info info, int n, char* key) {
  return call(__builtin_return_address(0), "MPI_Info_get_nthkey", [&](Ctx& x) {
    const std::string& k = x.c.handles.info(info, "info").nthkey(n);
    capi::need(key, "key");
    std::memcpy(key, k.c_str(), k.size() + 1);
  });
}

int MPI_Info_dup(MPI_Info info, MPI_Info* newinfo) {
  return call(__builtin_return_address(0), "MPI_Info_dup", [&](Ctx& x) {
    mpi::Info copy = x.c.handles.info(info, "info");
    capi::need(newinfo, "newinfo");
    *newinfo = x.c.handles.add_info(std::move(copy));
  });
}

int MPI_Info_free(MPI_Info* info) {
  return call(__builtin_return_address(0), "MPI_Info_free", [&](Ctx& x) {
    capi::need(info, "info");
    x.c.handles.free_info(*info);
    *info = MPI_INFO_NULL;
  });
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm) {
  return call(__builtin_return_address(0), "MPI_Comm_dup_with_info", [&](Ctx& x) {
    mpi::Info hints = mpi::communicator_hints(nullptr, given_hints(x, info));
    capi::construct(x, comm, newcomm, [&](const mpi::Communicator& c, std::int64_t seq, std::string label) {
      return coll::comm::dup(x.rk, c, seq, std::move(label));
    });
    x.c.handles.set_hints(*newcomm, std::move(hints));
    x.returnable = true;  // the collective part is over: a callback's error is this process's own
    x.c.handles.attributes().copy(mpi::AttrObject::comm, comm, *newcomm);  // as MPI_Comm_dup (§7.4.2)
  });
}

int MPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Comm_idup_with_info", [&](Ctx& x) {
    mpi::Info hints = mpi::communicator_hints(nullptr, given_hints(x, info));
    capi::construct_nonblocking(x, comm, newcomm, request, [&](const mpi::Communicator& c, std::int64_t seq, std::string label) {
      return coll::comm::dup(x.rk, c, seq, std::move(label));
    });
    x.c.handles.set_hints(*newcomm, std::move(hints));
    x.c.handles.attributes().copy(mpi::AttrObject::comm, comm, *newcomm);  // as MPI_Comm_idup
  });
}

int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info) {
  return call(__builtin_return_address(0), "MPI_Comm_set_info", [&](Ctx& x) {
    x.run.comm(comm, "comm");
    x.c.handles.set_hints(comm, mpi::communicator_hints(x.c.handles.hints(comm), given_hints(x, info)));
  });
}

int MPI_Comm_get_info(MPI_Comm comm, MPI_Info* info_used) {
  return call(__builtin_return_address(0), "MPI_Comm_get_info", [&](Ctx& x) {
    x.run.comm(comm, "comm");
    capi::need(info_used, "info_used");
    *info_used = x.c.handles.add_info(mpi::communicator_hints(x.c.handles.hints(comm), nullptr));
  });
}

}  // extern "C"
