#pragma once
// The vector a reduce-scatter(-block) reduces: recvcounts[i] elements for rank i,
// back to back (block i starts at the sum of the counts before it).
#include "model/coll/collective.hpp"

namespace mpisim::coll::reduce_scatter {

// Element offsets: block i is [start[i], start[i+1]); start[p] is the total.
std::vector<std::int64_t> block_starts(const CollArgs& a);

// A scratch copy of the caller's whole contribution (sendbuf, or recvbuf with
// MPI_IN_PLACE) to reduce in; finish() puts the caller's block in recvbuf.
class Work {
 public:
  Work(Rank& rank, const CollArgs& a);
  Task<void> open();
  Task<void> finish();
  Address at(int block) const;
  std::int64_t count(int block) const;
  Address all() const { return scratch_.addr(); }
  std::int64_t total() const { return start_.back(); }
  const std::vector<std::int64_t>& starts() const { return start_; }

 private:
  Rank& rank_;
  const CollArgs& a_;
  std::vector<std::int64_t> start_;
  Scratch scratch_;
};

}  // namespace mpisim::coll::reduce_scatter
