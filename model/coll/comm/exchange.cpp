#include "model/coll/comm/exchange.hpp"

namespace mpisim::coll::comm {
namespace {

const mpi::TypeRef& byte_type() {
  static const mpi::TypeRef t = mpi::predefined_type("MPI_BYTE");
  return t;
}

// A byte count with no buffer behind it: the constructors' exchanges carry their
// arguments at the simulator level (World::Agreement), so only sizes move.
mpi::TypedBuffer scratch(mpi::Rank& rank, std::int64_t bytes) {
  return mpi::TypedBuffer{&rank.memory(), 0, bytes, byte_type().get()};
}

}  // namespace

sim::Task<void> allgather_items(mpi::Rank& rank, const mpi::Communicator& comm, std::int64_t item_bytes, int tag) {
  const int p = comm.size();
  const int me = comm.rank_of(rank.id(), rank.id());
  for (int dist = 1; dist < p; dist *= 2) {
    std::int64_t items = std::min(dist, p - dist);
    mpi::Request* reqs[2] = {
        rank.irecv_unchecked(scratch(rank, items * item_bytes), byte_type(), (me + dist) % p, tag, comm),
        rank.isend_unchecked(scratch(rank, items * item_bytes), byte_type(), (me - dist + p) % p, tag, comm),
    };
    co_await rank.wait_all(reqs);
  }
}

sim::Task<void> bcast_pattern(mpi::Rank& rank, const mpi::Communicator& comm, int root, std::int64_t bytes, int tag) {
  const int p = comm.size();
  const int me = (comm.rank_of(rank.id(), rank.id()) - root + p) % p;  // rank relative to the root
  int mask = 1;
  while (mask < p) {
    if (me & mask) {
      co_await rank.wait(rank.irecv_unchecked(scratch(rank, bytes), byte_type(), (me - mask + root) % p, tag, comm));
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (me + mask < p)
      co_await rank.wait(rank.isend_unchecked(scratch(rank, bytes), byte_type(), (me + mask + root) % p, tag, comm));
}

}  // namespace mpisim::coll::comm
