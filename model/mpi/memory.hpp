#pragma once
// Simulated memory: each rank has its own address space of named allocations.
//
// Addresses are simulated integers (so MPI_Get_address and MPI_BOTTOM work as in
// C): allocations are laid out upwards from kFirstAddress with a guard gap between
// them, so an access running off one allocation lands in no allocation and is
// diagnosed instead of silently touching a neighbour. Address 0 is MPI_BOTTOM.
//
// Payload modes: in `data` mode every allocation holds its bytes; in `sizes` mode
// none does and only byte counts move — the checks that need no data still run.
#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "model/mpi/datatype.hpp"
#include "model/mpi/provenance.hpp"
#include "sim/frame_pool.hpp"

namespace mpisim::mpi {

using Address = std::int64_t;

enum class PayloadMode { data, sizes };

// Zeroed bytes from sim::bulk::take_zeroed: fresh pages come zeroed from the system
// without a pass over them, so a buffer is touched once, by whoever writes it
// first, and the pages of large ones are made resident ahead on the second core.
struct FreeBytes {
  void operator()(std::byte* p) const noexcept;
};
using ZeroedBytes = std::unique_ptr<std::byte[], FreeBytes>;

// std::allocator, except that elements made without a value are left as they
// are (default-initialised): resizing a vector of bytes then costs no zero-fill.
template <typename T>
struct DefaultInitAllocator : std::allocator<T> {
  template <typename U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <typename U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}  // NOLINT: rebinding, as std::allocator
  template <typename U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
// Bytes that a resize leaves unwritten, for data written whole right after: a
// packed message.
using PackedBytes = std::vector<std::byte, DefaultInitAllocator<std::byte>>;
// `n` zero bytes (at least one); throws std::bad_alloc when there is no memory.
// `prepared`: see sim::bulk::take_zeroed.
ZeroedBytes zeroed_bytes(std::size_t n, bool prepared = true);

struct Allocation {
  const std::string* name;        // interned, outlives the memory
  Address base;
  std::int64_t bytes;
  TypeRef type;                   // the element type it was declared with
  std::int64_t count;
  ZeroedBytes data;  // null in sizes mode
  // Provenance, when tracked: for every byte, the rank whose buffer it came from
  // (the viewer colours shown elements by it). Null when not tracked.
  std::unique_ptr<std::int32_t[]> origin;
};

class HeldBuffers;  // overlap.hpp

class Memory {
 public:
  Memory();
  ~Memory();
  Memory(Memory&&) noexcept;
  Memory& operator=(Memory&&) noexcept;

  static constexpr Address kFirstAddress = 0x10000;
  static constexpr std::int64_t kGuard = 64;

  // Host mode, for a front-end whose program keeps its buffers in the host's own
  // memory (a C program): an address is a host pointer, every address from
  // kFirstHostAddress up to 2^47 is the program's (the host checks the rest), and
  // scratch space comes from the heap. Set before the first allocation.
  static constexpr Address kFirstHostAddress = 4096;
  void use_host_memory(std::uint32_t rank) { next_ = -1 - static_cast<Address>(rank); }
  bool host() const { return next_ < 0; }
  std::uint32_t host_rank() const { return static_cast<std::uint32_t>(-1 - next_); }
  // Where rank `rank`'s bytes [addr, addr + len) are while another rank runs, for a
  // front-end that keeps part of each rank's memory elsewhere meanwhile (a C
  // program's globals, swapped per rank); null: at addr itself.
  using HostTranslator = std::byte* (*)(std::uint32_t rank, Address addr, std::int64_t len);
  static void set_host_translator(HostTranslator t);

  // Room for `n` allocations without reallocating (a hint: more may follow).
  void reserve(std::size_t n) { allocs_.reserve(n); }
  // Throws LimitError when the bytes would overflow or exceed the budget.
  Address allocate(const std::string* name, TypeRef type, std::int64_t count, PayloadMode mode);
  // The budget of the whole run (--max-memory): every rank's fixed state (World
  // charges it first), buffers' data and the provenance kept of it; bytes used and
  // the limit.
  struct Budget {
    std::int64_t used = 0, limit = INT64_MAX;
  };
  void set_budget(Budget* b) { budget_ = b; }
  // From now on, allocations of at most `limit` bytes record the provenance of
  // their bytes; new data is `owner`'s.
  void track_origins(std::int32_t owner, std::int64_t limit) {
    owner_ = owner, origin_limit_ = static_cast<std::int32_t>(std::min<std::int64_t>(limit, INT32_MAX));
  }
  std::int32_t owner() const { return owner_; }
  // The allocation holding [addr, addr + len), or null.
  const Allocation* find(Address addr, std::int64_t len) const;
  Allocation* find(Address addr, std::int64_t len);
  // A rank's allocations, in the pool of small per-rank blocks (no malloc per rank).
  using Table = std::vector<Allocation, sim::frame_pool::Allocator<Allocation>>;
  // The program's own buffers (scratch space is not among them).
  const Table& allocations() const { return allocs_; }

  // Scratch space of a collective algorithm: `bytes` bytes that no step can name,
  // released when the algorithm ends. It lies in the same address space (so typed
  // buffers and messages use it as any buffer) and counts against the budget.
  Address scratch(std::int64_t bytes, PayloadMode mode);
  void release(Address base);

  // The buffers this rank's pending operations hold (overlap.hpp); null until one
  // is first held (a rank that never starts a nonblocking call pays 8 bytes).
  const HeldBuffers* held() const { return held_; }
  HeldBuffers* held() { return held_; }
  HeldBuffers& held_buffers();

 private:
  std::int64_t cost(std::int64_t bytes, PayloadMode mode) const;
  void charge(std::int64_t bytes, PayloadMode mode, const std::string& what);
  Allocation* find_in(Table& v, Address addr, std::int64_t len) const;
  Address place(std::int64_t bytes);

  Table allocs_;   // sorted by base (allocated upwards)
  Table scratch_;  // sorted by base; usually empty or a few entries
  Address next_ = kFirstAddress;  // in host mode -1 - the rank (no simulated address space)
  std::int32_t owner_ = -1;
  std::int32_t origin_limit_ = 0;  // beside owner_: a rank's slot has no byte to spare
  Budget* budget_ = nullptr;
  HeldBuffers* held_ = nullptr;  // owned; a block of the frame pool
};

// A buffer argument as the data path sees it: count elements of type at addr.
struct TypedBuffer {
  Memory* memory;
  Address addr;
  std::int64_t count;
  const Datatype* type;
  // For a packed byte array (memory null): the provenance of its bytes, or null.
  std::int32_t* packed_origin = nullptr;
};

// Checks that every byte the type map of `b` touches lies inside an allocation;
// throws MpiError(MPI_ERR_BUFFER) naming `argument` otherwise. `bytes` limits the
// check to the first `bytes` bytes of the type map (a partial receive).
void check_access(const TypedBuffer& b, std::int64_t bytes, const char* argument);
// The bytes of data in `count` elements of `type` (count × size), checked: a
// product past 2^62 bytes (no machine holds it, and later sums must not wrap) is
// an MpiError naming `argument` (MPI_ERR_COUNT), never a wrapped number.
[[noreturn, gnu::cold]] void too_much_data(std::int64_t count, const Datatype& type, const char* argument);
inline std::int64_t data_bytes(std::int64_t count, const Datatype& type, const char* argument) {
  std::int64_t bytes = 0;
  if (__builtin_mul_overflow(count, type.size(), &bytes) || bytes > (std::int64_t{1} << 62) || bytes < 0) [[unlikely]]
    too_much_data(count, type, argument);
  return bytes;
}

// Copies the first `bytes` bytes of data described by src into the locations
// described by dst, following both type maps (a pack and an unpack in one pass,
// contiguous runs moved with memcpy). Both sides must have been checked. Either
// side may be a packed byte array (type MPI_BYTE, memory null, addr a pointer).
void copy_typed(const TypedBuffer& src, const TypedBuffer& dst, std::int64_t bytes);

// The host address of the rank's bytes [addr, addr + bytes) when they lie in one
// allocation that holds data (or in a host-memory program's memory); null
// otherwise (sizes mode, no such allocation).
std::byte* host_bytes(Memory& memory, Address addr, std::int64_t bytes);

// Packs the first `bytes` bytes of src into out (contiguous); the provenance of
// the bytes goes to out_origin when both it and src's are there.
void pack(const TypedBuffer& src, std::int64_t bytes, std::byte* out, std::int32_t* out_origin = nullptr);
// Unpacks `bytes` contiguous bytes into dst (with their provenance, if given).
void unpack(const std::byte* in, std::int64_t bytes, const TypedBuffer& dst, const std::int32_t* in_origin = nullptr);
// Marks the bytes dst's first `bytes` bytes of type map as `rank`'s.
void set_origin(const TypedBuffer& dst, std::int64_t bytes, std::int32_t rank);
// After inout = in op inout: each byte of inout's first `bytes` bytes of type map
// comes from the ranks of its origin and of the matching byte of in
// (ProvenanceSets::combine).
void combine_origins(const TypedBuffer& in, const TypedBuffer& inout, std::int64_t bytes, ProvenanceSets& sets);
// The byte runs (address, length) the first `bytes` bytes of b's type map touch, in
// type-map order, touching runs merged; at most `limit` of them (the rest are cut).
std::vector<std::pair<Address, std::int64_t>> byte_runs(const TypedBuffer& b, std::int64_t bytes, std::size_t limit);

}  // namespace mpisim::mpi
