#pragma once
// Datatypes: a type is an immutable value with its size, bounds and extent, its
// type map compiled to byte segments, and its type signature.
//
// Every datatype — predefined or derived — is represented the same way:
//  - `segments`: the bytes one element occupies, as (offset, length) pairs in
//    type-map order, adjacent ones merged, so contiguous data moves at memcpy speed;
//  - `signature`: the sequence of basic types, run-length encoded, which is what
//    the type matching rule (MPI-4.1 §3.3.1) compares.
// Derived-type constructors build these; the data path and matching only read them.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mpisim::mpi {

// How the bytes of a basic element are interpreted (for init, show and reductions).
enum class ElementKind : std::uint8_t { signed_int, unsigned_int, floating, boolean, byte };

struct BasicType {
  std::string_view name;
  std::uint8_t id;
  std::int64_t size;
  std::int64_t alignment;
  ElementKind kind;
};

struct Segment {
  std::int64_t offset;
  std::int64_t length;
};

struct SignatureRun {
  std::uint8_t basic;   // BasicType::id
  std::int64_t count;
};

class Datatype;
using TypeRef = std::shared_ptr<const Datatype>;

class Datatype {
 public:
  const std::string& name() const { return name_; }
  std::int64_t size() const { return size_; }
  std::int64_t lb() const { return lb_; }
  std::int64_t ub() const { return ub_; }
  std::int64_t extent() const { return ub_ - lb_; }
  std::int64_t true_lb() const { return true_lb_; }
  std::int64_t true_ub() const { return true_ub_; }
  std::int64_t true_extent() const { return true_ub_ - true_lb_; }
  std::int64_t alignment() const { return alignment_; }
  bool committed() const { return committed_; }
  bool predefined() const { return predefined_; }
  const std::vector<Segment>& segments() const { return segments_; }
  const std::vector<SignatureRun>& signature() const { return signature_; }
  // One segment covering the whole extent: `count` elements are one block.
  bool dense() const { return segments_.size() == 1 && segments_[0].offset == lb_ && segments_[0].length == extent(); }
  // For a predefined basic type, its table entry; null otherwise.
  const BasicType* basic() const { return basic_; }
  // The basic type of a type whose signature has a single kind of element (all
  // predefined types; derived types of one basic type); null for mixed types.
  const BasicType* uniform_basic() const;

  static TypeRef make_basic(const BasicType& b);

 private:
  std::string name_;
  std::int64_t size_ = 0, lb_ = 0, ub_ = 0, true_lb_ = 0, true_ub_ = 0, alignment_ = 1;
  bool committed_ = true, predefined_ = true;
  const BasicType* basic_ = nullptr;
  std::vector<Segment> segments_;
  std::vector<SignatureRun> signature_;
};

// The predefined datatypes of this ABI (x86-64 Linux, LP64), by their MPI names.
const std::vector<BasicType>& basic_types();
const BasicType& basic_type(std::uint8_t id);
// The predefined type named `name` (e.g. "MPI_INT"), or null.
TypeRef predefined_type(std::string_view name);

// The type matching rule of MPI-4.1 §3.3.1 between a send of (stype, scount) and a
// receive of (rtype, rcount): the sender's signature must be a prefix of the
// receiver's (equal basic types, element by element; MPI_BYTE matches only MPI_BYTE;
// MPI_PACKED matches any type byte for byte). A longer send is a truncation.
struct MatchResult {
  enum Kind { match, truncated, mismatch } kind = match;
  std::int64_t element = 0;        // index of the first mismatching basic element
  std::uint8_t send_basic = 0, recv_basic = 0;
};
MatchResult match_signatures(const Datatype& stype, std::int64_t scount, const Datatype& rtype, std::int64_t rcount);

}  // namespace mpisim::mpi
