// The C entry points of mpi.h: the collectives, blocking and nonblocking (capi.cpp has the
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

// ---- collectives
int MPI_Barrier(MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Barrier", [&](Ctx& x) { capi::collective(x, coll::Collective::barrier, comm, [](auto&) {}); });
}
int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Ibarrier",
              [&](Ctx& x) { capi::collective(x, coll::Collective::barrier, comm, [](auto&) {}, request); });
}

int MPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Bcast", [&](Ctx& x) {
    capi::collective(x, coll::Collective::bcast, comm, [&](capi::CArgs& a) {
      a.buffer(Param::buffer, buffer).integer(Param::count, count).type(Param::datatype, datatype);
      a.integer(Param::root, root);
    });
  });
}
int MPI_Ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Ibcast", [&](Ctx& x) {
    capi::collective(
        x, coll::Collective::bcast, comm,
        [&](capi::CArgs& a) {
          a.buffer(Param::buffer, buffer).integer(Param::count, count).type(Param::datatype, datatype);
          a.integer(Param::root, root);
        },
        request);
  });
}

int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
               MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Gather", [&](Ctx& x) {
    capi::collective(x, coll::Collective::gather, comm,
                        capi::exchange_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root));
  });
}
int MPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Igather", [&](Ctx& x) {
    capi::collective(x, coll::Collective::gather, comm,
                        capi::exchange_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root),
                        request);
  });
}

int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Gatherv", [&](Ctx& x) {
    capi::collective(x, coll::Collective::gatherv, comm, [&](capi::CArgs& a) {
      a.buffer(Param::sendbuf, sendbuf).integer(Param::sendcount, sendcount).type(Param::sendtype, sendtype);
      a.buffer(Param::recvbuf, recvbuf).ints(Param::recvcounts, recvcounts).ints(Param::displs, displs);
      a.type(Param::recvtype, recvtype).integer(Param::root, root);
    });
  });
}

int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Scatter", [&](Ctx& x) {
    capi::collective(x, coll::Collective::scatter, comm,
                        capi::exchange_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root));
  });
}
int MPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Iscatter", [&](Ctx& x) {
    capi::collective(x, coll::Collective::scatter, comm,
                        capi::exchange_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root),
                        request);
  });
}

int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Scatterv", [&](Ctx& x) {
    capi::collective(x, coll::Collective::scatterv, comm, [&](capi::CArgs& a) {
      a.buffer(Param::sendbuf, sendbuf).ints(Param::sendcounts, sendcounts).ints(Param::displs, displs);
      a.type(Param::sendtype, sendtype).buffer(Param::recvbuf, recvbuf).integer(Param::recvcount, recvcount);
      a.type(Param::recvtype, recvtype).integer(Param::root, root);
    });
  });
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Allgather", [&](Ctx& x) {
    capi::collective(x, coll::Collective::allgather, comm,
                        capi::exchange_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
  });
}
int MPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Iallgather", [&](Ctx& x) {
    capi::collective(x, coll::Collective::allgather, comm,
                        capi::exchange_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype), request);
  });
}

int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Allgatherv", [&](Ctx& x) {
    capi::collective(x, coll::Collective::allgatherv, comm, [&](capi::CArgs& a) {
      a.buffer(Param::sendbuf, sendbuf).integer(Param::sendcount, sendcount).type(Param::sendtype, sendtype);
      a.buffer(Param::recvbuf, recvbuf).ints(Param::recvcounts, recvcounts).ints(Param::displs, displs);
      a.type(Param::recvtype, recvtype);
    });
  });
}

int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Alltoall", [&](Ctx& x) {
    capi::collective(x, coll::Collective::alltoall, comm,
                        capi::exchange_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
  });
}
int MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Ialltoall", [&](Ctx& x) {
    capi::collective(x, coll::Collective::alltoall, comm,
                        capi::exchange_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype), request);
  });
}

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                  void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Alltoallv", [&](Ctx& x) {
    capi::collective(x, coll::Collective::alltoallv, comm, [&](capi::CArgs& a) {
      a.buffer(Param::sendbuf, sendbuf).ints(Param::sendcounts, sendcounts).ints(Param::sdispls, sdispls);
      a.type(Param::sendtype, sendtype).buffer(Param::recvbuf, recvbuf).ints(Param::recvcounts, recvcounts);
      a.ints(Param::rdispls, rdispls).type(Param::recvtype, recvtype);
    });
  });
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
               MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Reduce", [&](Ctx& x) {
    capi::collective(x, coll::Collective::reduce, comm,
                        capi::reduce_args(sendbuf, recvbuf, count, datatype, op, root));
  });
}
int MPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                MPI_Comm comm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Ireduce", [&](Ctx& x) {
    capi::collective(x, coll::Collective::reduce, comm,
                        capi::reduce_args(sendbuf, recvbuf, count, datatype, op, root), request);
  });
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Allreduce", [&](Ctx& x) {
    capi::collective(x, coll::Collective::allreduce, comm,
                        capi::reduce_args(sendbuf, recvbuf, count, datatype, op));
  });
}
int MPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Iallreduce", [&](Ctx& x) {
    capi::collective(x, coll::Collective::allreduce, comm,
                        capi::reduce_args(sendbuf, recvbuf, count, datatype, op), request);
  });
}

int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Reduce_scatter", [&](Ctx& x) {
    capi::collective(x, coll::Collective::reduce_scatter, comm, [&](capi::CArgs& a) {
      a.buffer(Param::sendbuf, sendbuf).buffer(Param::recvbuf, recvbuf).ints(Param::recvcounts, recvcounts);
      a.type(Param::datatype, datatype).op(op);
    });
  });
}

int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                             MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Reduce_scatter_block", [&](Ctx& x) {
    capi::collective(x, coll::Collective::reduce_scatter_block, comm, [&](capi::CArgs& a) {
      a.buffer(Param::sendbuf, sendbuf).buffer(Param::recvbuf, recvbuf).integer(Param::recvcount, recvcount);
      a.type(Param::datatype, datatype).op(op);
    });
  });
}

int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Scan", [&](Ctx& x) {
    capi::collective(x, coll::Collective::scan, comm, capi::reduce_args(sendbuf, recvbuf, count, datatype, op));
  });
}
int MPI_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
              MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Iscan", [&](Ctx& x) {
    capi::collective(x, coll::Collective::scan, comm, capi::reduce_args(sendbuf, recvbuf, count, datatype, op),
                        request);
  });
}

int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Exscan", [&](Ctx& x) {
    capi::collective(x, coll::Collective::exscan, comm,
                        capi::reduce_args(sendbuf, recvbuf, count, datatype, op));
  });
}
int MPI_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Iexscan", [&](Ctx& x) {
    capi::collective(x, coll::Collective::exscan, comm,
                        capi::reduce_args(sendbuf, recvbuf, count, datatype, op), request);
  });
}

}  // extern "C"

// ---- the vector forms, blocking and nonblocking; MPI_Alltoallw
namespace {
auto gatherv_args(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
                  const int* displs, MPI_Datatype recvtype, int root) {
  return [=](capi::CArgs& a) {
    a.buffer(Param::sendbuf, sendbuf).integer(Param::sendcount, sendcount).type(Param::sendtype, sendtype);
    a.buffer(Param::recvbuf, recvbuf).ints(Param::recvcounts, recvcounts).ints(Param::displs, displs);
    a.type(Param::recvtype, recvtype);
    if (root != MPI_UNDEFINED) a.integer(Param::root, root);
  };
}
auto scatterv_args(const void* sendbuf, const int* sendcounts, const int* displs, MPI_Datatype sendtype,
                   void* recvbuf, int recvcount, MPI_Datatype recvtype, int root) {
  return [=](capi::CArgs& a) {
    a.buffer(Param::sendbuf, sendbuf).ints(Param::sendcounts, sendcounts).ints(Param::displs, displs);
    a.type(Param::sendtype, sendtype).buffer(Param::recvbuf, recvbuf).integer(Param::recvcount, recvcount);
    a.type(Param::recvtype, recvtype).integer(Param::root, root);
  };
}
auto alltoallv_args(const void* sendbuf, const int* sendcounts, const int* sdispls, MPI_Datatype sendtype,
                    void* recvbuf, const int* recvcounts, const int* rdispls, MPI_Datatype recvtype) {
  return [=](capi::CArgs& a) {
    a.buffer(Param::sendbuf, sendbuf).ints(Param::sendcounts, sendcounts).ints(Param::sdispls, sdispls);
    a.type(Param::sendtype, sendtype).buffer(Param::recvbuf, recvbuf).ints(Param::recvcounts, recvcounts);
    a.ints(Param::rdispls, rdispls).type(Param::recvtype, recvtype);
  };
}
auto alltoallw_args(const void* sendbuf, const int* sendcounts, const int* sdispls, const MPI_Datatype* sendtypes,
                    void* recvbuf, const int* recvcounts, const int* rdispls, const MPI_Datatype* recvtypes) {
  return [=](capi::CArgs& a) {
    a.buffer(Param::sendbuf, sendbuf).ints(Param::sendcounts, sendcounts).ints(Param::sdispls, sdispls);
    a.types(Param::sendtypes, sendtypes).buffer(Param::recvbuf, recvbuf).ints(Param::recvcounts, recvcounts);
    a.ints(Param::rdispls, rdispls).types(Param::recvtypes, recvtypes);
  };
}
auto reduce_scatter_args(const void* sendbuf, void* recvbuf, const int* recvcounts, MPI_Datatype datatype, MPI_Op op) {
  return [=](capi::CArgs& a) {
    a.buffer(Param::sendbuf, sendbuf).buffer(Param::recvbuf, recvbuf).ints(Param::recvcounts, recvcounts);
    a.type(Param::datatype, datatype).op(op);
  };
}
auto reduce_scatter_block_args(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op) {
  return [=](capi::CArgs& a) {
    a.buffer(Param::sendbuf, sendbuf).buffer(Param::recvbuf, recvbuf).integer(Param::recvcount, recvcount);
    a.type(Param::datatype, datatype).op(op);
  };
}
}  // namespace

extern "C" {

int MPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                  void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                  MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Alltoallw", [&](Ctx& x) {
    capi::collective(x, coll::Collective::alltoallw, comm,
                     alltoallw_args(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes));
  });
}
int MPI_Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                   void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                   MPI_Comm comm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Ialltoallw", [&](Ctx& x) {
    capi::collective(x, coll::Collective::alltoallw, comm,
                     alltoallw_args(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes),
                     request);
  });
}
int MPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Igatherv", [&](Ctx& x) {
    capi::collective(x, coll::Collective::gatherv, comm,
                     gatherv_args(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root), request);
  });
}
int MPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                  void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Iscatterv", [&](Ctx& x) {
    capi::collective(x, coll::Collective::scatterv, comm,
                     scatterv_args(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root), request);
  });
}
int MPI_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                    const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Iallgatherv", [&](Ctx& x) {
    capi::collective(x, coll::Collective::allgatherv, comm,
                     gatherv_args(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, MPI_UNDEFINED),
                     request);
  });
}
int MPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                   MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Ialltoallv", [&](Ctx& x) {
    capi::collective(x, coll::Collective::alltoallv, comm,
                     alltoallv_args(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype),
                     request);
  });
}
int MPI_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Ireduce_scatter", [&](Ctx& x) {
    capi::collective(x, coll::Collective::reduce_scatter, comm,
                     reduce_scatter_args(sendbuf, recvbuf, recvcounts, datatype, op), request);
  });
}
int MPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Ireduce_scatter_block", [&](Ctx& x) {
    capi::collective(x, coll::Collective::reduce_scatter_block, comm,
                     reduce_scatter_block_args(sendbuf, recvbuf, recvcount, datatype, op), request);
  });
}


// ---- persistent collectives (MPI-4.1 §6.13): checked once, run by MPI_Start

int MPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Barrier_init", [&](Ctx& x) {
    x.c.handles.check_info(info, "info");
    capi::collective(x, coll::Collective::barrier, comm, [](auto&) {}, request, true);
  });
}
int MPI_Bcast_init(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                   MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Bcast_init", [&](Ctx& x) {
    x.c.handles.check_info(info, "info");
    capi::collective(
        x, coll::Collective::bcast, comm,
        [&](capi::CArgs& a) {
          a.buffer(Param::buffer, buffer).integer(Param::count, count).type(Param::datatype, datatype);
          a.integer(Param::root, root);
        },
        request, true);
  });
}
int MPI_Gather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Gather_init", [&](Ctx& x) {
    x.c.handles.check_info(info, "info");
    capi::collective(x, coll::Collective::gather, comm,
                     capi::exchange_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root), request,
                     true);
  });
}
int MPI_Gatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                     const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Gatherv_init", [&](Ctx& x) {
    x.c.handles.check_info(info, "info");
    capi::collective(x, coll::Collective::gatherv, comm,
                     gatherv_args(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root), request,
                     true);
  });
}
int MPI_Scatter_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Scatter_init", [&](Ctx& x) {
    x.c.handles.check_info(info, "info");
    capi::collective(x, coll::Collective::scatter, comm,
                     capi::exchange_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root), request,
                     true);
  });
}
int MPI_Scatterv_init(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                      void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Scatterv_init", [&](Ctx& x) {
    x.c.handles.check_info(info, "info");
    capi::collective(x, coll::Collective::scatterv, comm,
                     scatterv_args(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root), request,
                     true);
  });
}
int MPI_Allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Allgather_init", [&](Ctx& x) {
    x.c.handles.check_info(info, "info");
    capi::collective(x, coll::Collective::allgather, comm,
                     capi::exchange_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype), request, true);
  });
}
int MPI_Allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Allgatherv_init", [&](Ctx& x) {
    x.c.handles.check_info(info, "info");
    capi::collective(x, coll::Collective::allgatherv, comm,
                     gatherv_args(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, MPI_UNDEFINED),
                     request, true);
  });
}
int MPI_Alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Alltoall_init", [&](Ctx& x) {
    x.c.handles.check_info(info, "info");
    capi::collective(x, coll::Collective::alltoall, comm,
                     capi::exchange_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype), request, true);
  });
}
int MPI_Alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                       void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                       MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Alltoallv_init", [&](Ctx& x) {
    x.c.handles.check_info(info, "info");
    capi::collective(x, coll::Collective::alltoallv, comm,
                     alltoallv_args(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype),
                     request, true);
  });
}
int MPI_Alltoallw_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                       const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
                       const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Alltoallw_init", [&](Ctx& x) {
    x.c.handles.check_info(info, "info");
    capi::collective(x, coll::Collective::alltoallw, comm,
                     alltoallw_args(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes),
                     request, true);
  });
}
int MPI_Reduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                    MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Reduce_init", [&](Ctx& x) {
    x.c.handles.check_info(info, "info");
    capi::collective(x, coll::Collective::reduce, comm, capi::reduce_args(sendbuf, recvbuf, count, datatype, op, root),
                     request, true);
  });
}
int MPI_Allreduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                       MPI_Info info, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Allreduce_init", [&](Ctx& x) {
    x.c.handles.check_info(info, "info");
    capi::collective(x, coll::Collective::allreduce, comm, capi::reduce_args(sendbuf, recvbuf, count, datatype, op),
                     request, true);
  });
}
int MPI_Reduce_scatter_init(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Reduce_scatter_init", [&](Ctx& x) {
    x.c.handles.check_info(info, "info");
    capi::collective(x, coll::Collective::reduce_scatter, comm,
                     reduce_scatter_args(sendbuf, recvbuf, recvcounts, datatype, op), request, true);
  });
}
int MPI_Reduce_scatter_block_init(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype,
                                  MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Reduce_scatter_block_init", [&](Ctx& x) {
    x.c.handles.check_info(info, "info");
    capi::collective(x, coll::Collective::reduce_scatter_block, comm,
                     reduce_scatter_block_args(sendbuf, recvbuf, recvcount, datatype, op), request, true);
  });
}
int MPI_Scan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                  MPI_Info info, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Scan_init", [&](Ctx& x) {
    x.c.handles.check_info(info, "info");
    capi::collective(x, coll::Collective::scan, comm, capi::reduce_args(sendbuf, recvbuf, count, datatype, op),
                     request, true);
  });
}
int MPI_Exscan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                    MPI_Info info, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Exscan_init", [&](Ctx& x) {
    x.c.handles.check_info(info, "info");
    capi::collective(x, coll::Collective::exscan, comm, capi::reduce_args(sendbuf, recvbuf, count, datatype, op),
                     request, true);
  });
}

}  // extern "C"

// ---- the neighbourhood collectives (MPI-4.1 §8.6), in their three forms
namespace {
auto neighbor_alltoallw_args(const void* sendbuf, const int* sendcounts, const MPI_Aint* sdispls,
                             const MPI_Datatype* sendtypes, void* recvbuf, const int* recvcounts,
                             const MPI_Aint* rdispls, const MPI_Datatype* recvtypes) {
  return [=](capi::CArgs& a) {
    a.buffer(Param::sendbuf, sendbuf).ints(Param::sendcounts, sendcounts).aints(Param::sdispls, sdispls);
    a.types(Param::sendtypes, sendtypes).buffer(Param::recvbuf, recvbuf).ints(Param::recvcounts, recvcounts);
    a.aints(Param::rdispls, rdispls).types(Param::recvtypes, recvtypes);
  };
}
}  // namespace

extern "C" {
int MPI_Neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Neighbor_allgather", [&](Ctx& x) {
    capi::collective(x, coll::Collective::neighbor_allgather, comm, capi::exchange_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
  });
}
int MPI_Ineighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Ineighbor_allgather", [&](Ctx& x) {
    capi::collective(x, coll::Collective::neighbor_allgather, comm, capi::exchange_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype), request);
  });
}
int MPI_Neighbor_allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Neighbor_allgather_init", [&](Ctx& x) {
    x.c.handles.check_info(info, "info");
    capi::collective(x, coll::Collective::neighbor_allgather, comm, capi::exchange_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype), request, true);
  });
}
int MPI_Neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Neighbor_allgatherv", [&](Ctx& x) {
    capi::collective(x, coll::Collective::neighbor_allgatherv, comm, gatherv_args(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, MPI_UNDEFINED));
  });
}
int MPI_Ineighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Ineighbor_allgatherv", [&](Ctx& x) {
    capi::collective(x, coll::Collective::neighbor_allgatherv, comm, gatherv_args(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, MPI_UNDEFINED), request);
  });
}
int MPI_Neighbor_allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Neighbor_allgatherv_init", [&](Ctx& x) {
    x.c.handles.check_info(info, "info");
    capi::collective(x, coll::Collective::neighbor_allgatherv, comm, gatherv_args(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, MPI_UNDEFINED), request, true);
  });
}
int MPI_Neighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Neighbor_alltoall", [&](Ctx& x) {
    capi::collective(x, coll::Collective::neighbor_alltoall, comm, capi::exchange_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
  });
}
int MPI_Ineighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Ineighbor_alltoall", [&](Ctx& x) {
    capi::collective(x, coll::Collective::neighbor_alltoall, comm, capi::exchange_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype), request);
  });
}
int MPI_Neighbor_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Neighbor_alltoall_init", [&](Ctx& x) {
    x.c.handles.check_info(info, "info");
    capi::collective(x, coll::Collective::neighbor_alltoall, comm, capi::exchange_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype), request, true);
  });
}
int MPI_Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Neighbor_alltoallv", [&](Ctx& x) {
    capi::collective(x, coll::Collective::neighbor_alltoallv, comm, alltoallv_args(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype));
  });
}
int MPI_Ineighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Ineighbor_alltoallv", [&](Ctx& x) {
    capi::collective(x, coll::Collective::neighbor_alltoallv, comm, alltoallv_args(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype), request);
  });
}
int MPI_Neighbor_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Neighbor_alltoallv_init", [&](Ctx& x) {
    x.c.handles.check_info(info, "info");
    capi::collective(x, coll::Collective::neighbor_alltoallv, comm, alltoallv_args(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype), request, true);
  });
}
int MPI_Neighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Neighbor_alltoallw", [&](Ctx& x) {
    capi::collective(x, coll::Collective::neighbor_alltoallw, comm, neighbor_alltoallw_args(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes));
  });
}
int MPI_Ineighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Ineighbor_alltoallw", [&](Ctx& x) {
    capi::collective(x, coll::Collective::neighbor_alltoallw, comm, neighbor_alltoallw_args(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes), request);
  });
}
int MPI_Neighbor_alltoallw_init(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Neighbor_alltoallw_init", [&](Ctx& x) {
    x.c.handles.check_info(info, "info");
    capi::collective(x, coll::Collective::neighbor_alltoallw, comm, neighbor_alltoallw_args(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes), request, true);
  });
}

}  // extern "C"
