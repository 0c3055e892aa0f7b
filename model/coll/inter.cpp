#include "model/coll/inter.hpp"

#include "model/coll/algorithms.hpp"

namespace mpisim::coll::inter {

CollArgs local_args(const CollArgs& a, Collective kind) {
  CollArgs l;
  l.kind = kind;
  l.comm = a.comm->local_comm();
  l.me = a.me;
  l.p = a.p;
  l.op = a.op;
  l.instance = a.instance;
  return l;
}

Task<void> reduce_to_leader(Rank& rank, const CollArgs& a, Address sendbuf, std::int64_t count, const TypeRef& type,
                            Address into) {
  CollArgs local = local_args(a, Collective::reduce);
  local.root = 0;
  local.sendbuf = sendbuf;
  local.recvbuf = into;
  local.sendcount = local.recvcount = count;
  local.sendtype = local.recvtype = type;
  co_await reduce::binomial(rank, local);
}

Task<void> bcast_from_leader(Rank& rank, const CollArgs& a, Address buf, std::int64_t count, const TypeRef& type) {
  CollArgs local = local_args(a, Collective::bcast);
  local.root = 0;
  local.recvbuf = buf;
  local.recvcount = count;
  local.recvtype = type;
  co_await bcast::binomial(rank, local);
}

}  // namespace mpisim::coll::inter
