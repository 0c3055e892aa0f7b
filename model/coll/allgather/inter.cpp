// Allgather(v) on an intercommunicator, as MPICH builds it (remote gather, local
// broadcast): first rank 0 of the low group receives every block of the other
// group straight into its recvbuf, then rank 0 of the high group does the same,
// then each group broadcasts the remote group's blocks from its rank 0 with the
// binomial tree on its local intracommunicator (one message per step: the blocks
// travel as one hindexed datatype when displs leave gaps).
// Cost on Hockney: two linear gathers, α + nβ each, then ceil(lg q)(α + nβ).
#include <vector>

#include "model/coll/algorithms.hpp"
#include "model/coll/allgather/blocks.hpp"
#include "model/coll/inter.hpp"

namespace mpisim::coll::allgather {

Task<void> inter(Rank& rank, const CollArgs& a) {
  const bool low = low_group(rank, a);
  for (int turn = 0; turn < 2; ++turn) {
    const bool gathering = (turn == 0) == low;
    if (!gathering) {
      co_await send(rank, a, a.sendbuf, a.sendcount, a.sendtype, 0);
    } else if (a.me == 0) {
      Requests reqs;
      for (int i = 0; i < a.remote_p; ++i)
        reqs.push_back(post_recv(rank, a, a.recvbuf + a.recv_offset(i), a.recv_count(i), a.recvtype, i));
      co_await rank.wait_all(reqs);
    }
  }
  const Span all = recv_blocks(a, 0, a.remote_p);
  co_await inter::bcast_from_leader(rank, a, all.at, all.count, all.type);
}

}  // namespace mpisim::coll::allgather
