#pragma once
// Process groups (MPI-4.1 §7.3), as timeless values.
//
// Representation: an ordered list of strided runs of world ranks (first, stride,
// count). MPI_COMM_WORLD's group is one run; range_incl on a group that is one run
// is one run per triplet, whatever the ranges' lengths — the "advice to
// implementors" of §7.3.2: range operations do not enumerate members. Lookups walk
// the runs with prefix sums (rank -> world by binary search, world -> rank by
// arithmetic per run), so they cost O(log runs) and O(runs).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mpisim::mpi {

enum class Comparison : int { ident = 0, congruent = 1, similar = 2, unequal = 3 };  // MPICH's values
const char* comparison_name(Comparison c);

struct RankRange {
  std::int64_t first, last, stride;
};

class Group;
using GroupRef = std::shared_ptr<const Group>;

class Group {
 public:
  struct Run {
    std::int64_t first;   // world rank of the run's first member
    std::int64_t stride;  // may be negative; any value when count == 1
    std::int64_t count;
  };

  static GroupRef empty();
  static GroupRef range(std::int64_t first, std::int64_t count);  // first, first+1, ...
  static GroupRef of(const std::vector<std::int64_t>& world_ranks);

  std::int64_t size() const { return size_; }
  // The world rank of group rank r (0 <= r < size).
  std::int64_t world(std::int64_t r) const;
  // The group rank of a world rank, or UNDEFINED.
  std::int64_t rank_of(std::int64_t world) const;
  const std::vector<Run>& runs() const { return runs_; }
  std::vector<std::int64_t> members() const;

  // The constructors and accessors of §7.3; erroneous arguments throw MpiError
  // (MPI_ERR_RANK or MPI_ERR_ARG) naming the argument and the rule.
  GroupRef incl(const std::vector<std::int64_t>& ranks) const;
  GroupRef excl(const std::vector<std::int64_t>& ranks) const;
  GroupRef range_incl(const std::vector<RankRange>& ranges) const;
  GroupRef range_excl(const std::vector<RankRange>& ranges) const;
  static GroupRef set_union(const Group& a, const Group& b);
  static GroupRef intersection(const Group& a, const Group& b);
  static GroupRef difference(const Group& a, const Group& b);
  static Comparison compare(const Group& a, const Group& b);
  // translate_ranks: MPI_PROC_NULL maps to itself, absent members to MPI_UNDEFINED.
  static std::vector<std::int64_t> translate(const Group& from, const std::vector<std::int64_t>& ranks, const Group& to);

 private:
  void append(std::int64_t world);  // extends the last run when it continues it
  void append_filtered(const Group& from, const Group& other, bool member);
  void finish();                    // computes prefix sums
  void check_rank(std::int64_t r, const char* argument, std::size_t index) const;
  std::vector<std::int64_t> expand_ranges(const std::vector<RankRange>& ranges) const;
  std::int64_t check_triplet(const RankRange& r, std::size_t index) const;

  std::vector<Run> runs_;
  std::vector<std::int64_t> starts_;  // group rank of each run's first member
  std::int64_t size_ = 0;
};

}  // namespace mpisim::mpi
