// Bcast, chain (Open MPI's chain and pipeline, its tuned algorithms 2 and 3, as
// its fixed decisions run them: one chain, the buffer unsegmented). Relative rank
// v = (rank - root) mod p receives the whole buffer from v - 1 and sends it on to
// v + 1. Any p, any root, any datatype. Cost on Hockney: (p-1)·(α + nβ).
#include "model/coll/algorithms.hpp"

namespace mpisim::coll::bcast {

Task<void> chain(Rank& rank, const CollArgs& a) {
  const int p = a.p;
  const int v = (a.me - a.root + p) % p;
  if (v > 0) co_await recv(rank, a, a.recvbuf, a.recvcount, a.recvtype, (a.me - 1 + p) % p);
  if (v + 1 < p) co_await send(rank, a, a.recvbuf, a.recvcount, a.recvtype, (a.me + 1) % p);
}

}  // namespace mpisim::coll::bcast
