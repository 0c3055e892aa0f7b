// Alltoall, Bruck et al. (1997) (MPICH's short-message alltoall on 8 or more ranks).
//
// The p blocks (of nb bytes) are packed in scratch space rotated so that slot j
// holds the block for rank r + j. In round k rank r sends every slot j whose bit
// k is set to r + 2^k and receives the same slots from r - 2^k (one message each
// way, an indexed type over the slots). After ceil(lg p) rounds slot j holds the
// block from rank r - j, which goes to its place in recvbuf. Uniform counts only
// (MPI_Alltoall). Any p. Cost on Hockney: ceil(lg p)·α + about lg p·nβ/2.
#include "model/coll/algorithms.hpp"
#include "model/mpi/type_constructors.hpp"

namespace mpisim::coll::alltoall {

Task<void> bruck(Rank& rank, const CollArgs& a) {
  static const TypeRef packed = mpi::predefined_type("MPI_PACKED");
  const int p = a.p, me = a.me;
  const std::int64_t nb = a.recvcount * a.recvtype->size();
  Scratch slots(rank, p * nb, packed), incoming(rank, p * nb, packed);
  // Slot j: the block for rank me + j.
  for (int j = 0; j < p; ++j) {
    const int to = (me + j) % p;
    if (a.in_place())
      co_await local_copy(rank, a.recvbuf + a.recv_offset(to), a.recvcount, a.recvtype, slots.addr() + j * nb, nb,
                          packed);
    else
      co_await local_copy(rank, a.sendbuf + a.send_offset(to), a.sendcount, a.sendtype, slots.addr() + j * nb, nb,
                          packed);
  }
  for (int pow = 1; pow < p; pow *= 2) {
    std::vector<std::int64_t> displs;
    for (int j = 1; j < p; ++j)
      if (j & pow) displs.push_back(j * nb);
    TypeRef t = mpi::type_hindexed_block(nb, displs, packed, "bruck_slots");
    t->commit();
    co_await sendrecv(rank, a, slots.addr(), 1, t, (me + pow) % p, incoming.addr(), 1, t, (me - pow + p) % p);
    co_await local_copy(rank, incoming.addr(), 1, t, slots.addr(), 1, t);
  }
  // Slot j now holds the block from rank me - j.
  for (int j = 0; j < p; ++j) {
    const int from = (me - j + p) % p;
    co_await local_copy(rank, slots.addr() + j * nb, nb, packed, a.recvbuf + a.recv_offset(from), a.recvcount,
                        a.recvtype);
  }
}

}  // namespace mpisim::coll::alltoall
