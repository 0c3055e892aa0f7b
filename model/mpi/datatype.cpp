#include "model/mpi/datatype.hpp"

#include <algorithm>
#include <map>

namespace mpisim::mpi {
namespace {

using K = ElementKind;

// Sizes and alignments of the C types on x86-64 Linux (System V ABI).
const std::vector<BasicType> kBasic = {
    {"MPI_CHAR", 0, 1, 1, K::signed_int},
    {"MPI_SIGNED_CHAR", 1, 1, 1, K::signed_int},
    {"MPI_UNSIGNED_CHAR", 2, 1, 1, K::unsigned_int},
    {"MPI_SHORT", 3, 2, 2, K::signed_int},
    {"MPI_UNSIGNED_SHORT", 4, 2, 2, K::unsigned_int},
    {"MPI_INT", 5, 4, 4, K::signed_int},
    {"MPI_UNSIGNED", 6, 4, 4, K::unsigned_int},
    {"MPI_LONG", 7, 8, 8, K::signed_int},
    {"MPI_UNSIGNED_LONG", 8, 8, 8, K::unsigned_int},
    {"MPI_LONG_LONG_INT", 9, 8, 8, K::signed_int},
    {"MPI_LONG_LONG", 10, 8, 8, K::signed_int},
    {"MPI_UNSIGNED_LONG_LONG", 11, 8, 8, K::unsigned_int},
    {"MPI_FLOAT", 12, 4, 4, K::floating},
    {"MPI_DOUBLE", 13, 8, 8, K::floating},
    {"MPI_LONG_DOUBLE", 14, 16, 16, K::floating},
    {"MPI_WCHAR", 15, 4, 4, K::signed_int},
    {"MPI_C_BOOL", 16, 1, 1, K::boolean},
    {"MPI_INT8_T", 17, 1, 1, K::signed_int},
    {"MPI_INT16_T", 18, 2, 2, K::signed_int},
    {"MPI_INT32_T", 19, 4, 4, K::signed_int},
    {"MPI_INT64_T", 20, 8, 8, K::signed_int},
    {"MPI_UINT8_T", 21, 1, 1, K::unsigned_int},
    {"MPI_UINT16_T", 22, 2, 2, K::unsigned_int},
    {"MPI_UINT32_T", 23, 4, 4, K::unsigned_int},
    {"MPI_UINT64_T", 24, 8, 8, K::unsigned_int},
    {"MPI_AINT", 25, 8, 8, K::signed_int},
    {"MPI_OFFSET", 26, 8, 8, K::signed_int},
    {"MPI_COUNT", 27, 8, 8, K::signed_int},
    {"MPI_BYTE", 28, 1, 1, K::byte},
    {"MPI_PACKED", 29, 1, 1, K::byte},
};

constexpr std::uint8_t kPacked = 29;

const std::map<std::string_view, TypeRef>& predefined_table() {
  static const std::map<std::string_view, TypeRef> table = [] {
    std::map<std::string_view, TypeRef> t;
    for (const auto& b : kBasic) t.emplace(b.name, Datatype::make_basic(b));
    return t;
  }();
  return table;
}

// Walks a signature repeated `count` times as runs of (basic, n).
class SignatureWalk {
 public:
  SignatureWalk(const Datatype& t, std::int64_t count) : runs_(t.signature()), reps_(count) { load(); }
  bool done() const { return rep_ >= reps_ || runs_.empty(); }
  std::uint8_t basic() const { return runs_[run_].basic; }
  std::int64_t left() const { return left_; }
  void take(std::int64_t n) {
    left_ -= n;
    if (left_ == 0) {
      if (++run_ == runs_.size()) {
        run_ = 0;
        ++rep_;
      }
      load();
    }
  }
  // With a single run, all remaining repetitions merge into one run.
  void merge_single_run() {
    if (runs_.size() == 1 && !done() && rep_ + 1 < reps_) {
      left_ += runs_[0].count * (reps_ - rep_ - 1);
      rep_ = reps_ - 1;
    }
  }

 private:
  void load() {
    while (!done() && runs_[run_].count == 0) {
      if (++run_ == runs_.size()) run_ = 0, ++rep_;
    }
    if (!done()) left_ = runs_[run_].count;
  }
  const std::vector<SignatureRun>& runs_;
  std::int64_t reps_;
  std::int64_t rep_ = 0;
  std::size_t run_ = 0;
  std::int64_t left_ = 0;
};

}  // namespace

const BasicType* Datatype::uniform_basic() const {
  if (basic_) return basic_;
  if (signature_.empty()) return nullptr;
  for (const auto& r : signature_)
    if (r.basic != signature_[0].basic) return nullptr;
  return &basic_type(signature_[0].basic);
}

TypeRef Datatype::make_basic(const BasicType& b) {
  auto t = std::shared_ptr<Datatype>(new Datatype());
  t->name_ = std::string(b.name);
  t->size_ = b.size;
  t->ub_ = t->true_ub_ = b.size;
  t->alignment_ = b.alignment;
  t->basic_ = &b;
  t->segments_ = {{0, b.size}};
  t->signature_ = {{b.id, 1}};
  return t;
}

const std::vector<BasicType>& basic_types() { return kBasic; }
const BasicType& basic_type(std::uint8_t id) { return kBasic.at(id); }

TypeRef predefined_type(std::string_view name) {
  const auto& t = predefined_table();
  auto it = t.find(name);
  return it == t.end() ? nullptr : it->second;
}

MatchResult match_signatures(const Datatype& stype, std::int64_t scount, const Datatype& rtype, std::int64_t rcount) {
  MatchResult res;
  const std::int64_t sbytes = stype.size() * scount;
  const std::int64_t rbytes = rtype.size() * rcount;
  // MPI_PACKED on either side matches any data byte for byte (MPI-4.1 §3.3.1, §5.2).
  bool packed = (stype.basic() && stype.basic()->id == kPacked) || (rtype.basic() && rtype.basic()->id == kPacked);
  if (packed) {
    if (sbytes > rbytes) res.kind = MatchResult::truncated;
    return res;
  }
  SignatureWalk s(stype, scount), r(rtype, rcount);
  s.merge_single_run();
  r.merge_single_run();
  std::int64_t element = 0;
  while (!s.done()) {
    if (r.done()) {
      res.kind = MatchResult::truncated;
      res.element = element;
      return res;
    }
    if (s.basic() != r.basic()) {
      res.kind = MatchResult::mismatch;
      res.element = element;
      res.send_basic = s.basic();
      res.recv_basic = r.basic();
      return res;
    }
    std::int64_t n = std::min(s.left(), r.left());
    s.take(n);
    r.take(n);
    element += n;
    s.merge_single_run();
    r.merge_single_run();
  }
  return res;
}

}  // namespace mpisim::mpi
