#pragma once
// What the scatter-allgather and pipelined broadcasts share: the buffer seen as
// its packed bytes, and the binomial scatter of those bytes.
#include <memory>
#include <utility>

#include "model/coll/collective.hpp"

namespace mpisim::coll::bcast {

// The broadcast buffer as `bytes` contiguous bytes of MPI_PACKED (which matches
// any type byte for byte): the buffer itself when its type map is one dense run,
// else scratch space that the root packs at open() and every rank unpacks at close().
class Bytes {
 public:
  Bytes(Rank& rank, const CollArgs& a);
  Task<void> open();   // the root packs
  Task<void> close();  // the others unpack
  Address at() const { return at_; }
  std::int64_t bytes() const { return bytes_; }
  static const TypeRef& packed();

 private:
  Rank& rank_;
  const CollArgs& a_;
  std::int64_t bytes_;
  std::unique_ptr<Scratch> scratch_;
  Address at_;
};

// The bytes of chunks [first, first + n) of `chunk` bytes each, clipped to `total`:
// (offset, length).
std::pair<std::int64_t, std::int64_t> chunk_span(std::int64_t total, std::int64_t chunk, int first, int n);

// Binomial scatter of the bytes from the root: relative rank v (from the root)
// ends with bytes [v·chunk, (v+1)·chunk) of the `total`, clipped to the total.
Task<void> scatter_chunks(Rank& rank, const CollArgs& a, Address at, std::int64_t total, std::int64_t chunk);

}  // namespace mpisim::coll::bcast
