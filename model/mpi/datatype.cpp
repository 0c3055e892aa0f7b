#include "model/mpi/datatype.hpp"

#include <algorithm>
#include <array>
#include <map>

#include "model/mpi/error.hpp"

namespace mpisim::mpi {
namespace {

using K = ElementKind;

// Sizes and alignments of the C types on x86-64 Linux (System V ABI), and of the
// Fortran types with gfortran's defaults there (INTEGER, REAL and LOGICAL of 4 bytes).
using G = OpGroup;
const std::vector<BasicType> kBasic = {
    {"MPI_CHAR", 0, 1, 1, K::signed_int, G::none},
    {"MPI_SIGNED_CHAR", 1, 1, 1, K::signed_int, G::c_integer},
    {"MPI_UNSIGNED_CHAR", 2, 1, 1, K::unsigned_int, G::c_integer},
    {"MPI_SHORT", 3, 2, 2, K::signed_int, G::c_integer},
    {"MPI_UNSIGNED_SHORT", 4, 2, 2, K::unsigned_int, G::c_integer},
    {"MPI_INT", 5, 4, 4, K::signed_int, G::c_integer},
    {"MPI_UNSIGNED", 6, 4, 4, K::unsigned_int, G::c_integer},
    {"MPI_LONG", 7, 8, 8, K::signed_int, G::c_integer},
    {"MPI_UNSIGNED_LONG", 8, 8, 8, K::unsigned_int, G::c_integer},
    {"MPI_LONG_LONG_INT", 9, 8, 8, K::signed_int, G::c_integer},
    {"MPI_LONG_LONG", 10, 8, 8, K::signed_int, G::c_integer},
    {"MPI_UNSIGNED_LONG_LONG", 11, 8, 8, K::unsigned_int, G::c_integer},
    {"MPI_FLOAT", 12, 4, 4, K::floating, G::floating},
    {"MPI_DOUBLE", 13, 8, 8, K::floating, G::floating},
    {"MPI_LONG_DOUBLE", 14, 16, 16, K::floating, G::floating},
    {"MPI_WCHAR", 15, 4, 4, K::signed_int, G::none},
    {"MPI_C_BOOL", 16, 1, 1, K::boolean, G::logical},
    {"MPI_INT8_T", 17, 1, 1, K::signed_int, G::c_integer},
    {"MPI_INT16_T", 18, 2, 2, K::signed_int, G::c_integer},
    {"MPI_INT32_T", 19, 4, 4, K::signed_int, G::c_integer},
    {"MPI_INT64_T", 20, 8, 8, K::signed_int, G::c_integer},
    {"MPI_UINT8_T", 21, 1, 1, K::unsigned_int, G::c_integer},
    {"MPI_UINT16_T", 22, 2, 2, K::unsigned_int, G::c_integer},
    {"MPI_UINT32_T", 23, 4, 4, K::unsigned_int, G::c_integer},
    {"MPI_UINT64_T", 24, 8, 8, K::unsigned_int, G::c_integer},
    {"MPI_AINT", 25, 8, 8, K::signed_int, G::multi_language},
    {"MPI_OFFSET", 26, 8, 8, K::signed_int, G::multi_language},
    {"MPI_COUNT", 27, 8, 8, K::signed_int, G::multi_language},
    {"MPI_BYTE", 28, 1, 1, K::byte, G::byte},
    {"MPI_PACKED", 29, 1, 1, K::byte, G::none},
    {"MPI_C_COMPLEX", 30, 8, 4, K::complex, G::complex},
    {"MPI_C_DOUBLE_COMPLEX", 31, 16, 8, K::complex, G::complex},
    {"MPI_C_LONG_DOUBLE_COMPLEX", 32, 32, 16, K::complex, G::complex},
    // The Fortran named types, usable from C (MPI-4.1 §3.2.2, §19.3.6).
    {"MPI_CHARACTER", 33, 1, 1, K::signed_int, G::none},
    {"MPI_INTEGER", 34, 4, 4, K::signed_int, G::fortran_integer},
    {"MPI_REAL", 35, 4, 4, K::floating, G::floating},
    {"MPI_DOUBLE_PRECISION", 36, 8, 8, K::floating, G::floating},
    {"MPI_COMPLEX", 37, 8, 4, K::complex, G::complex},
    {"MPI_DOUBLE_COMPLEX", 38, 16, 8, K::complex, G::complex},
    {"MPI_LOGICAL", 39, 4, 4, K::boolean, G::logical},
    {"MPI_INTEGER1", 40, 1, 1, K::signed_int, G::fortran_integer},
    {"MPI_INTEGER2", 41, 2, 2, K::signed_int, G::fortran_integer},
    {"MPI_INTEGER4", 42, 4, 4, K::signed_int, G::fortran_integer},
    {"MPI_INTEGER8", 43, 8, 8, K::signed_int, G::fortran_integer},
    {"MPI_REAL4", 44, 4, 4, K::floating, G::floating},
    {"MPI_REAL8", 45, 8, 8, K::floating, G::floating},
    {"MPI_COMPLEX8", 46, 8, 4, K::complex, G::complex},
    {"MPI_COMPLEX16", 47, 16, 8, K::complex, G::complex},
    // The C++ types (MPI-4.1 §3.2.2).
    {"MPI_CXX_BOOL", 48, 1, 1, K::boolean, G::logical},
    {"MPI_CXX_FLOAT_COMPLEX", 49, 8, 4, K::complex, G::complex},
    {"MPI_CXX_DOUBLE_COMPLEX", 50, 16, 8, K::complex, G::complex},
    {"MPI_CXX_LONG_DOUBLE_COMPLEX", 51, 32, 16, K::complex, G::complex},
};

constexpr std::uint8_t kPacked = 29;

// Predefined types live as long as the program. The table hands out non-owning
// handles to them (aliasing shared_ptrs without a control block), so copying the
// handle of a predefined type, which every call does, costs no atomic operation.
const std::map<std::string_view, TypeRef>& predefined_table() {
  static const std::map<std::string_view, TypeRef> table = [] {
    static std::vector<TypeRef> owners;  // constructed first, destroyed after the table
    std::map<std::string_view, TypeRef> t;
    for (const auto& b : kBasic) t.emplace(b.name, Datatype::make_basic(b));
    t.emplace("MPI_C_FLOAT_COMPLEX", t.at("MPI_C_COMPLEX"));  // a synonym (MPI-4.1 §3.2.2: MPI_C_COMPLEX is the name)
    // The pair types of MAXLOC and MINLOC (MPI-4.1 §6.9.4): C structs {value; int}
    // with this ABI's layout, e.g. MPI_DOUBLE_INT is (double, 0), (int, 8), extent 16.
    // The Fortran pairs hold two values of one type: MPI_2REAL is (REAL, 0), (REAL, 4).
    static const std::array<std::string_view, 3> pairs[] = {
        {"MPI_FLOAT_INT", "MPI_FLOAT", "MPI_INT"},
        {"MPI_DOUBLE_INT", "MPI_DOUBLE", "MPI_INT"},
        {"MPI_LONG_INT", "MPI_LONG", "MPI_INT"},
        {"MPI_2INT", "MPI_INT", "MPI_INT"},
        {"MPI_SHORT_INT", "MPI_SHORT", "MPI_INT"},
        {"MPI_LONG_DOUBLE_INT", "MPI_LONG_DOUBLE", "MPI_INT"},
        {"MPI_2INTEGER", "MPI_INTEGER", "MPI_INTEGER"},
        {"MPI_2REAL", "MPI_REAL", "MPI_REAL"},
        {"MPI_2DOUBLE_PRECISION", "MPI_DOUBLE_PRECISION", "MPI_DOUBLE_PRECISION"}};
    for (const auto& [name, value, index] : pairs) {
      const TypeRef& v = t.at(value);
      const TypeRef& i = t.at(index);
      std::int64_t index_disp = std::max(v->size(), i->alignment());
      t.emplace(name, Datatype::make_pair(std::string(name), v, i, index_disp));
    }
    for (auto& [name, type] : t) {
      owners.push_back(type);
      type = TypeRef(TypeRef(), type.get());
    }
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

int combiner_value(Combiner c) {
  switch (c) {
    case Combiner::named:
    case Combiner::marker: return 1;
    case Combiner::dup: return 2;
    case Combiner::contiguous: return 3;
    case Combiner::vector: return 4;
    case Combiner::hvector: return 6;
    case Combiner::indexed: return 7;
    case Combiner::hindexed: return 9;
    case Combiner::indexed_block: return 10;
    case Combiner::struct_: return 12;
    case Combiner::subarray: return 13;
    case Combiner::darray: return 14;
    case Combiner::resized: return 18;
    case Combiner::hindexed_block: return 19;
  }
  return 0;
}

const BasicType* Datatype::uniform_basic() const {
  if (basic_) return basic_;
  const auto& sig = signature();
  if (sig.empty()) return nullptr;
  for (const auto& r : sig)
    if (r.basic != sig[0].basic) return nullptr;
  return &basic_type(sig[0].basic);
}

std::int64_t Datatype::basic_count() const {
  std::int64_t n = 0;
  for (const auto& r : signature()) n += r.count;
  return n;
}

const std::vector<Segment>& Datatype::segments() const {
  if (!flat_) flatten();
  return segments_;
}

const std::vector<SignatureRun>& Datatype::signature() const {
  if (!flat_) flatten();
  return signature_;
}

bool Datatype::dense() const {
  const auto& seg = segments();
  return seg.size() == 1 && seg[0].offset == lb_ && seg[0].length == extent();
}

void Datatype::commit() const {
  if (!flat_) flatten();
  committed_ = true;
}

namespace {

void append_segment(std::vector<Segment>& out, std::int64_t offset, std::int64_t length) {
  if (length == 0) return;
  if (!out.empty() && out.back().offset + out.back().length == offset) {
    out.back().length += length;
    return;
  }
  out.push_back(Segment{offset, length});
}

void append_run(std::vector<SignatureRun>& out, std::uint8_t basic, std::int64_t count) {
  if (count == 0) return;
  if (!out.empty() && out.back().basic == basic) {
    out.back().count += count;
    return;
  }
  out.push_back(SignatureRun{basic, count});
}

}  // namespace

// Compiles the type map: each block's child map, repeated `count` times one extent
// apart, in block order (the type-map order of MPI-4.1 §5.1), runs merged where
// they touch. Costs O(size of the result).
void Datatype::flatten() const {
  for (const Block& b : blocks_) {
    if (b.count <= 0 || b.type->size() == 0) continue;
    const Datatype& c = *b.type;
    const auto& cs = c.segments();
    const auto& csig = c.signature();
    const std::int64_t ext = c.extent();
    if (c.dense() && ext == c.size()) {
      append_segment(segments_, b.disp + c.lb(), b.count * ext);
    } else {
      for (std::int64_t j = 0; j < b.count; ++j)
        for (const Segment& sg : cs) append_segment(segments_, b.disp + j * ext + sg.offset, sg.length);
    }
    if (csig.size() == 1) {
      append_run(signature_, csig[0].basic, csig[0].count * b.count);
    } else {
      for (std::int64_t j = 0; j < b.count; ++j)
        for (const SignatureRun& r : csig) append_run(signature_, r.basic, r.count);
    }
  }
  flat_ = true;
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
  t->flat_ = true;
  return t;
}

TypeRef Datatype::make_pair(std::string name, const TypeRef& value, const TypeRef& index, std::int64_t index_disp) {
  auto t = std::const_pointer_cast<Datatype>(make_derived(
      std::move(name), Combiner::named, {Block{value, 0, 1}, Block{index, index_disp, 1}}, true, Contents{}));
  t->predefined_ = true;
  t->pair_ = t->contains_pair_ = true;
  t->commit();
  return t;
}

TypeRef Datatype::make_marker(bool lower) {
  auto t = std::shared_ptr<Datatype>(new Datatype());
  t->name_ = lower ? "MPI_LB" : "MPI_UB";
  t->lb_marker_ = lower;
  t->ub_marker_ = !lower;
  t->combiner_ = Combiner::marker;
  t->flat_ = true;
  return t;
}

TypeRef Datatype::make_derived(std::string name, Combiner combiner, std::vector<Block> blocks, bool pad,
                               Contents contents) {
  auto t = std::shared_ptr<Datatype>(new Datatype());
  t->name_ = std::move(name);
  t->combiner_ = combiner;
  t->predefined_ = false;
  t->committed_ = false;
  for (const Block& b : blocks) t->contains_pair_ = t->contains_pair_ || b.type->contains_pair_;
  // Computed wide, then checked: a type of 2^200 ints (nested constructors) must
  // not wrap to a size of 0.
  __extension__ using Wide = __int128;
  constexpr Wide kLimit = Wide{1} << 62;
  auto fits = [&](Wide v, const char* what) {
    if (v > kLimit || v < -kLimit)
      throw MpiError(ErrorClass::count, "count",
                     "the datatype " + t->name_ + " would have a " + what + " beyond 2^62 bytes",
                     "MPI-4.1 §2.5.8: sizes, extents and displacements must be representable (MPI_Count, MPI_Aint)");
    return static_cast<std::int64_t>(v);
  };
  std::int64_t lb_data = INT64_MAX, ub_data = INT64_MIN, lb_mark = INT64_MAX, ub_mark = INT64_MIN;
  std::int64_t true_lb = INT64_MAX, true_ub = INT64_MIN;
  Wide size = 0;
  for (const Block& b : blocks) {
    if (b.count <= 0) continue;
    const Datatype& c = *b.type;
    size += static_cast<Wide>(b.count) * c.size_;
    fits(size, "size");
    t->alignment_ = std::max(t->alignment_, c.alignment_);
    // The first and last elements of the block bound it (an extent may be negative).
    const std::int64_t first = b.disp, last = fits(b.disp + static_cast<Wide>(b.count - 1) * c.extent(), "extent");
    const std::int64_t lo = std::min(first, last), hi = std::max(first, last);
    fits(static_cast<Wide>(hi) + std::max(c.ub_, c.true_ub_), "upper bound");
    fits(static_cast<Wide>(lo) + std::min(c.lb_, c.true_lb_), "lower bound");
    // MPI-4.1 §5.1.7: markers are sticky; where a child carries one, it bounds the parent.
    if (c.lb_marker_) lb_mark = std::min(lb_mark, lo + c.lb_);
    else if (c.size_ > 0) lb_data = std::min(lb_data, lo + c.lb_);
    if (c.ub_marker_) ub_mark = std::max(ub_mark, hi + c.ub_);
    else if (c.size_ > 0) ub_data = std::max(ub_data, hi + c.ub_);
    if (c.size_ > 0) {
      true_lb = std::min(true_lb, lo + c.true_lb_);
      true_ub = std::max(true_ub, hi + c.true_ub_);
    }
  }
  t->size_ = static_cast<std::int64_t>(size);
  t->lb_marker_ = lb_mark != INT64_MAX;
  t->ub_marker_ = ub_mark != INT64_MIN;
  t->lb_ = t->lb_marker_ ? lb_mark : (lb_data == INT64_MAX ? 0 : lb_data);
  t->ub_ = t->ub_marker_ ? ub_mark : (ub_data == INT64_MIN ? t->lb_ : ub_data);
  if (!t->ub_marker_ && ub_data == INT64_MIN && t->lb_marker_) t->ub_ = t->lb_;
  t->true_lb_ = true_lb == INT64_MAX ? 0 : true_lb;
  t->true_ub_ = true_ub == INT64_MIN ? 0 : true_ub;
  if (pad && !t->ub_marker_) {
    // The standard's epsilon: the least increment that makes the extent a multiple
    // of the alignment.
    std::int64_t ext = t->ub_ - t->lb_;
    std::int64_t rem = ((ext % t->alignment_) + t->alignment_) % t->alignment_;
    if (rem != 0) t->ub_ += t->alignment_ - rem;
  }
  t->blocks_ = std::move(blocks);
  t->contents_ = std::move(contents);
  return t;
}

TypeRef Datatype::make_resized(std::string name, const TypeRef& old, std::int64_t lb, std::int64_t extent) {
  auto t = std::const_pointer_cast<Datatype>(
      make_derived(std::move(name), Combiner::resized, {Block{old, 0, 1}}, false, Contents{{}, {lb, extent}, {old}}));
  t->lb_ = lb;
  t->ub_ = lb + extent;
  t->lb_marker_ = t->ub_marker_ = true;
  return t;
}

TypeRef Datatype::make_dup(std::string name, const TypeRef& old) {
  auto t = std::const_pointer_cast<Datatype>(
      make_derived(std::move(name), Combiner::dup, {Block{old, 0, 1}}, false, Contents{{}, {}, {old}}));
  // A duplicate has the same type map: the same bounds, markers and all.
  t->lb_ = old->lb_;
  t->ub_ = old->ub_;
  t->lb_marker_ = old->lb_marker_;
  t->ub_marker_ = old->ub_marker_;
  if (old->committed_) t->commit();
  return t;
}

const std::vector<BasicType>& basic_types() { return kBasic; }

const std::vector<std::string_view>& predefined_type_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> v;
    for (const BasicType& b : kBasic) v.push_back(b.name);
    for (const auto& [name, type] : predefined_table())
      if (std::find(v.begin(), v.end(), name) == v.end() && !type->pair()) v.push_back(name);
    for (const auto& [name, type] : predefined_table())
      if (type->pair()) v.push_back(name);
    return v;
  }();
  return names;
}
const BasicType& basic_type(std::uint8_t id) { return kBasic.at(id); }

TypeRef predefined_type(std::string_view name) {
  const auto& t = predefined_table();
  auto it = t.find(name);
  return it == t.end() ? nullptr : it->second;
}

MatchResult match_signatures(const Datatype& stype, std::int64_t scount, const Datatype& rtype, std::int64_t rcount) {
  MatchResult res;
  // The common case, one basic type on both sides: only the counts matter.
  if (stype.basic() != nullptr && stype.basic() == rtype.basic() && stype.basic()->id != kPacked) {
    if (scount > rcount) {
      res.kind = MatchResult::truncated;
      res.element = rcount;
    }
    return res;
  }
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
