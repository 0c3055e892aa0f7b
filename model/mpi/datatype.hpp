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
enum class ElementKind : std::uint8_t { signed_int, unsigned_int, floating, complex, boolean, byte };

// The classes of basic types MPI-4.1 §6.9.2 defines the predefined reduction
// operations on (none: a type no predefined operation takes, such as MPI_CHAR).
enum class OpGroup : std::uint8_t { c_integer, fortran_integer, floating, logical, complex, byte, multi_language, none };

struct BasicType {
  std::string_view name;
  std::uint8_t id;
  std::int64_t size;
  std::int64_t alignment;
  ElementKind kind;
  OpGroup group;
};


struct Segment {
  std::int64_t offset;
  std::int64_t length;
  friend bool operator==(const Segment&, const Segment&) = default;
};

struct SignatureRun {
  std::uint8_t basic;   // BasicType::id
  std::int64_t count;
};

class Datatype;
using TypeRef = std::shared_ptr<const Datatype>;

// How a datatype was made (MPI_Type_get_envelope's combiner).
enum class Combiner : std::uint8_t {
  named, contiguous, vector, hvector, indexed, hindexed, indexed_block, hindexed_block, struct_, subarray,
  darray, resized, dup, marker
};
int combiner_value(Combiner c);         // its value in MPICH's mpi.h

class Datatype {
 public:
  // `count` elements of `type` placed from byte displacement `disp`, each
  // `type->extent()` after the previous one: the building block of every derived type.
  struct Block {
    TypeRef type;
    std::int64_t disp;
    std::int64_t count;
  };
  // What MPI_Type_get_contents returns.
  struct Contents {
    std::vector<std::int64_t> integers, addresses;
    std::vector<TypeRef> types;
  };

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
  // MPI-1 markers (MPI_LB / MPI_UB, or the bounds MPI_Type_create_resized sets):
  // an explicit bound that takes precedence over the data's (MPI-4.1 §5.1.7).
  bool lb_marker() const { return lb_marker_; }
  bool ub_marker() const { return ub_marker_; }
  Combiner combiner() const { return combiner_; }
  const Contents& contents() const { return contents_; }
  const std::vector<Block>& blocks() const { return blocks_; }

  // The type map compiled to byte runs in type-map order, and the signature; built
  // on first use (commit builds them) and kept.
  const std::vector<Segment>& segments() const;
  const std::vector<SignatureRun>& signature() const;
  // One segment covering the whole extent: `count` elements are one block.
  bool dense() const;
  // For a predefined basic type, its table entry; null otherwise.
  const BasicType* basic() const { return basic_; }
  // The basic type of a type whose signature has a single kind of element (all
  // predefined types; derived types of one basic type); null for mixed types.
  const BasicType* uniform_basic() const;
  // The number of basic elements one element of this type holds.
  std::int64_t basic_count() const;
  // A predefined pair type (MPI_2INT, MPI_DOUBLE_INT, ...), or a derived type built
  // from one: its pairs are units a reduction must not split (MPI-4.1 §6.9.4).
  bool pair() const { return pair_; }
  bool contains_pair() const { return contains_pair_; }

  // MPI_Type_commit: compiles the type map. Committing is the one change a
  // datatype undergoes; it is idempotent.
  void commit() const;

  static TypeRef make_basic(const BasicType& b);
  // A predefined pair type of MAXLOC/MINLOC: {value; index} as a C struct.
  static TypeRef make_pair(std::string name, const TypeRef& value, const TypeRef& index, std::int64_t index_disp);
  // The MPI-1 pseudo-types MPI_LB and MPI_UB (size 0, a marker at displacement 0).
  static TypeRef make_marker(bool lower);
  // A derived type of these blocks. `pad` applies the alignment padding of structs
  // (MPI-4.1 §5.1.6: the extent is rounded up to the alignment of the most aligned
  // member, unless an upper-bound marker fixes it).
  static TypeRef make_derived(std::string name, Combiner combiner, std::vector<Block> blocks, bool pad,
                              Contents contents);
  // MPI_Type_create_resized: old's type map with explicit bounds lb and lb + extent.
  static TypeRef make_resized(std::string name, const TypeRef& old, std::int64_t lb, std::int64_t extent);
  static TypeRef make_dup(std::string name, const TypeRef& old);

 private:
  void flatten() const;

  std::string name_;
  std::int64_t size_ = 0, lb_ = 0, ub_ = 0, true_lb_ = 0, true_ub_ = 0, alignment_ = 1;
  mutable bool committed_ = true;
  bool predefined_ = true;
  bool lb_marker_ = false, ub_marker_ = false;
  bool pair_ = false, contains_pair_ = false;
  Combiner combiner_ = Combiner::named;
  const BasicType* basic_ = nullptr;
  std::vector<Block> blocks_;
  Contents contents_;
  mutable bool flat_ = false;
  mutable std::vector<Segment> segments_;
  mutable std::vector<SignatureRun> signature_;
};

// The predefined datatypes of this ABI (x86-64 Linux, LP64), by their MPI names.
const std::vector<BasicType>& basic_types();
const BasicType& basic_type(std::uint8_t id);
// The names of every predefined datatype: the basic types in id order, then the
// synonyms (MPI_C_COMPLEX) and the pair types of MPI_MAXLOC and MPI_MINLOC.
const std::vector<std::string_view>& predefined_type_names();
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
