#include "model/mpi/group.hpp"

#include <algorithm>

#include "model/mpi/constants.hpp"
#include "model/mpi/error.hpp"

namespace mpisim::mpi {
namespace {

constexpr const char* kRuleIncl =
    "MPI-4.1 §7.3.2: each of the n ranks must be a valid rank in group and all must be distinct";
constexpr const char* kRuleRange =
    "MPI-4.1 §7.3.2: each computed rank must be a valid rank in group and all computed ranks must be distinct; a "
    "stride may be negative but not 0";

std::string triplet_text(const RankRange& r) {
  return "(" + std::to_string(r.first) + ", " + std::to_string(r.last) + ", " + std::to_string(r.stride) + ")";
}

__extension__ using Wide = __int128;  // GCC and Clang: room for any int64 sum and product

// Number of terms of first, first+stride, ... that do not pass last (stride != 0),
// computed without overflow whatever the values.
Wide triplet_count(const RankRange& r) {
  const Wide first = r.first, last = r.last, stride = r.stride;
  if (stride > 0) return first > last ? 0 : (last - first) / stride + 1;
  return first < last ? 0 : (first - last) / -stride + 1;
}

}  // namespace

const char* comparison_name(Comparison c) {
  switch (c) {
    case Comparison::ident: return "MPI_IDENT";
    case Comparison::congruent: return "MPI_CONGRUENT";
    case Comparison::similar: return "MPI_SIMILAR";
    case Comparison::unequal: return "MPI_UNEQUAL";
  }
  return "?";
}

GroupRef Group::empty() {
  static const GroupRef e = std::make_shared<const Group>();
  return e;
}

GroupRef Group::range(std::int64_t first, std::int64_t count) {
  auto g = std::make_shared<Group>();
  if (count > 0) g->runs_.push_back(Run{first, 1, count});
  g->finish();
  return g;
}

GroupRef Group::of(const std::vector<std::int64_t>& world_ranks) {
  auto g = std::make_shared<Group>();
  for (auto w : world_ranks) g->append(w);
  g->finish();
  return g;
}

void Group::append(std::int64_t w) {
  if (!runs_.empty()) {
    Run& last = runs_.back();
    if (last.count == 1 && w != last.first) {
      last.stride = w - last.first;
      last.count = 2;
      return;
    }
    if (last.count > 1 && w == last.first + last.stride * last.count) {
      ++last.count;
      return;
    }
  }
  runs_.push_back(Run{w, 1, 1});
}

void Group::finish() {
  starts_.clear();
  size_ = 0;
  for (const Run& r : runs_) {
    starts_.push_back(size_);
    size_ += r.count;
  }
}

std::int64_t Group::world(std::int64_t r) const {
  if (runs_.size() == 1) return runs_[0].first + runs_[0].stride * r;  // MPI_COMM_WORLD's group, a range
  auto it = std::upper_bound(starts_.begin(), starts_.end(), r);
  std::size_t k = static_cast<std::size_t>(it - starts_.begin()) - 1;
  const Run& run = runs_[k];
  return run.first + run.stride * (r - starts_[k]);
}

std::int64_t Group::rank_of(std::int64_t w) const {
  if (runs_.size() == 1 && runs_[0].stride == 1) {  // MPI_COMM_WORLD's group, a contiguous range
    const std::int64_t i = w - runs_[0].first;
    return i >= 0 && i < runs_[0].count ? i : UNDEFINED;
  }
  for (std::size_t k = 0; k < runs_.size(); ++k) {
    const Run& run = runs_[k];
    std::int64_t d = w - run.first;
    if (run.count == 1 || run.stride == 0) {
      if (d == 0) return starts_[k];
      continue;
    }
    if (d % run.stride != 0) continue;
    std::int64_t i = d / run.stride;
    if (i >= 0 && i < run.count) return starts_[k] + i;
  }
  return UNDEFINED;
}

std::vector<std::int64_t> Group::members() const {
  std::vector<std::int64_t> m;
  m.reserve(static_cast<std::size_t>(size_));
  for (const Run& r : runs_)
    for (std::int64_t i = 0; i < r.count; ++i) m.push_back(r.first + r.stride * i);
  return m;
}

void Group::check_rank(std::int64_t r, const char* argument, std::size_t index) const {
  if (r < 0 || r >= size_)
    throw MpiError(ErrorClass::rank, argument,
                   std::string(argument) + "[" + std::to_string(index) + "] = " + std::to_string(r) +
                       " is not a rank of the group (size " + std::to_string(size_) + ")",
                   kRuleIncl);
}

GroupRef Group::incl(const std::vector<std::int64_t>& ranks) const {
  std::vector<char> seen(static_cast<std::size_t>(size_), 0);
  auto g = std::make_shared<Group>();
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    check_rank(ranks[i], "ranks", i);
    if (seen[static_cast<std::size_t>(ranks[i])]++)
      throw MpiError(ErrorClass::rank, "ranks",
                     "ranks[" + std::to_string(i) + "] = " + std::to_string(ranks[i]) + " appears twice", kRuleIncl);
    g->append(world(ranks[i]));
  }
  g->finish();
  return g;
}

GroupRef Group::excl(const std::vector<std::int64_t>& ranks) const {
  std::vector<char> out(static_cast<std::size_t>(size_), 0);
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    check_rank(ranks[i], "ranks", i);
    if (out[static_cast<std::size_t>(ranks[i])]++)
      throw MpiError(ErrorClass::rank, "ranks",
                     "ranks[" + std::to_string(i) + "] = " + std::to_string(ranks[i]) + " appears twice", kRuleIncl);
  }
  auto g = std::make_shared<Group>();
  for (std::int64_t r = 0; r < size_; ++r)
    if (!out[static_cast<std::size_t>(r)]) g->append(world(r));
  g->finish();
  return g;
}

// Checks triplet t (stride not 0, every computed rank in the group: its first and
// its last computed rank, which need not be `last`); returns how many ranks it
// computes. A triplet that computes none has both ends checked.
std::int64_t Group::check_triplet(const RankRange& r, std::size_t t) const {
  std::string where = "ranges[" + std::to_string(t) + "] = " + triplet_text(r);
  if (r.stride == 0) throw MpiError(ErrorClass::arg, "ranges", where + " has stride 0", kRuleRange);
  const Wide n = triplet_count(r);
  const Wide end = n > 0 ? static_cast<Wide>(r.first) + (n - 1) * static_cast<Wide>(r.stride) : static_cast<Wide>(r.last);
  for (Wide v : {static_cast<Wide>(r.first), end})
    if (v < 0 || v >= size_)
      throw MpiError(ErrorClass::rank, "ranges",
                     where + " reaches rank " + std::to_string(static_cast<long long>(v)) +
                         ", outside the group (size " + std::to_string(size_) + ")",
                     kRuleRange);
  return static_cast<std::int64_t>(n);
}

// Validates the triplets; returns every computed rank in order (for the general case).
std::vector<std::int64_t> Group::expand_ranges(const std::vector<RankRange>& ranges) const {
  std::vector<std::int64_t> ranks;
  for (std::size_t t = 0; t < ranges.size(); ++t) {
    const RankRange& r = ranges[t];
    std::int64_t n = check_triplet(r, t);
    for (std::int64_t k = 0; k < n; ++k) ranks.push_back(r.first + k * r.stride);
  }
  std::vector<std::int64_t> sorted = ranks;
  std::sort(sorted.begin(), sorted.end());
  auto dup = std::adjacent_find(sorted.begin(), sorted.end());
  if (dup != sorted.end())
    throw MpiError(ErrorClass::rank, "ranges", "rank " + std::to_string(*dup) + " is computed by more than one triplet",
                   kRuleRange);
  return ranks;
}

GroupRef Group::range_incl(const std::vector<RankRange>& ranges) const {
  if (runs_.size() == 1) {
    // One run: each triplet maps to one run of world ranks, without enumerating.
    // Distinctness across triplets is checked on their intervals.
    const Run& base = runs_[0];
    auto g = std::make_shared<Group>();
    std::vector<std::pair<std::int64_t, std::int64_t>> spans;
    for (std::size_t t = 0; t < ranges.size(); ++t) {
      const RankRange& r = ranges[t];
      std::int64_t n = check_triplet(r, t);
      if (n == 0) continue;
      spans.emplace_back(std::min(r.first, r.first + (n - 1) * r.stride), std::max(r.first, r.first + (n - 1) * r.stride));
      g->runs_.push_back(Run{base.first + base.stride * r.first, base.stride * r.stride, n});
    }
    std::sort(spans.begin(), spans.end());
    bool overlap = false;
    for (std::size_t i = 1; i < spans.size(); ++i) overlap = overlap || spans[i].first <= spans[i - 1].second;
    if (!overlap) {
      g->finish();
      return g;
    }
    // Overlapping spans may still be distinct (interleaved strides): check exactly.
  }
  return incl(expand_ranges(ranges));
}

GroupRef Group::range_excl(const std::vector<RankRange>& ranges) const { return excl(expand_ranges(ranges)); }

// Appends to `g` the members of `from`, in order, whose membership in `other`
// equals `member`.
void Group::append_filtered(const Group& from, const Group& other, bool member) {
  for (const Run& r : from.runs_)
    for (std::int64_t i = 0; i < r.count; ++i) {
      std::int64_t w = r.first + r.stride * i;
      if ((other.rank_of(w) != UNDEFINED) == member) append(w);
    }
}

GroupRef Group::set_union(const Group& a, const Group& b) {
  auto g = std::make_shared<Group>();
  g->runs_ = a.runs_;
  g->append_filtered(b, a, false);
  g->finish();
  return g;
}

GroupRef Group::intersection(const Group& a, const Group& b) {
  auto g = std::make_shared<Group>();
  g->append_filtered(a, b, true);
  g->finish();
  return g;
}

GroupRef Group::difference(const Group& a, const Group& b) {
  auto g = std::make_shared<Group>();
  g->append_filtered(a, b, false);
  g->finish();
  return g;
}

Comparison Group::compare(const Group& a, const Group& b) {
  if (a.size_ != b.size_) return Comparison::unequal;
  std::vector<std::int64_t> ma = a.members(), mb = b.members();
  if (ma == mb) return Comparison::ident;
  std::sort(ma.begin(), ma.end());
  std::sort(mb.begin(), mb.end());
  return ma == mb ? Comparison::similar : Comparison::unequal;
}

std::vector<std::int64_t> Group::translate(const Group& from, const std::vector<std::int64_t>& ranks, const Group& to) {
  std::vector<std::int64_t> out;
  out.reserve(ranks.size());
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (ranks[i] == PROC_NULL) {
      out.push_back(PROC_NULL);
      continue;
    }
    if (ranks[i] < 0 || ranks[i] >= from.size_)
      throw MpiError(ErrorClass::rank, "ranks1",
                     "ranks1[" + std::to_string(i) + "] = " + std::to_string(ranks[i]) +
                         " is not a rank of group1 (size " + std::to_string(from.size_) + ")",
                     "MPI-4.1 §7.3.1: ranks1 holds valid ranks of group1 (or MPI_PROC_NULL)");
    out.push_back(to.rank_of(from.world(ranks[i])));
  }
  return out;
}

}  // namespace mpisim::mpi
