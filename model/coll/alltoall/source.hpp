#pragma once
// Where an alltoall(v/w) takes block i for rank i from: the send buffer, or, with
// MPI_IN_PLACE, a packed copy of the receive buffer's blocks made before anything
// arrives (the standard's in-place alltoall sends the data recvbuf held on entry).
#include <memory>

#include "model/coll/collective.hpp"

namespace mpisim::coll::alltoall {

class Source {
 public:
  Source(Rank& rank, const CollArgs& a);
  Task<void> open();  // with MPI_IN_PLACE: copy the blocks out
  Address at(int i) const;
  std::int64_t count(int i) const;
  const TypeRef& type(int i) const;

 private:
  Rank& rank_;
  const CollArgs& a_;
  std::vector<std::int64_t> offset_;  // in place: block i's packed bytes start at offset_[i]
  std::unique_ptr<Scratch> copy_;
};

}  // namespace mpisim::coll::alltoall
