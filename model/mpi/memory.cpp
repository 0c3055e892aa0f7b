#include "model/mpi/memory.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <new>
#include <utility>

#include "model/mpi/error.hpp"
#include "model/mpi/overlap.hpp"
#include "sim/bulk.hpp"

namespace mpisim::mpi {

void FreeBytes::operator()(std::byte* p) const noexcept { sim::bulk::give_zeroed(p); }

ZeroedBytes zeroed_bytes(std::size_t n, bool prepared) {
  return ZeroedBytes(static_cast<std::byte*>(sim::bulk::take_zeroed(n, prepared)));
}

namespace {

// Scratch blocks of collective algorithms, kept when released and handed out
// again (zeroed) to the next request of the same size: a loop of collectives then
// clears memory it already has instead of faulting in fresh pages every call.
// Process-wide, as the ranks' collectives take and give blocks in turn; it keeps
// at most kMaxHeld bytes, and small blocks (cheap from malloc) not at all.
class ScratchPool {
 public:
  ZeroedBytes take(std::size_t n) {
    auto it = free_.find(n);
    // Not prepared ahead: an algorithm may touch its scratch in part (recursive
    // halving keeps a shrinking part) or, when its partners combine in place, not at all.
    if (it == free_.end()) return zeroed_bytes(n, /*prepared=*/false);
    ZeroedBytes p = std::move(it->second);
    free_.erase(it);
    held_ -= n;
    std::memset(p.get(), 0, n);
    return p;
  }
  void give(ZeroedBytes p, std::size_t n) {
    if (n < kMinBytes || held_ + n > kMaxHeld) return;
    held_ += n;
    free_.emplace(n, std::move(p));
  }

 private:
  static constexpr std::size_t kMinBytes = std::size_t{64} << 10, kMaxHeld = std::size_t{1} << 30;
  std::multimap<std::size_t, ZeroedBytes> free_;
  std::size_t held_ = 0;
};

ScratchPool& scratch_pool() {
  static ScratchPool pool;
  return pool;
}

}  // namespace

Memory::Memory() = default;

Memory::~Memory() {
  if (!held_) return;
  std::destroy_at(held_);
  sim::frame_pool::deallocate(held_, sizeof(HeldBuffers));
}

Memory::Memory(Memory&& o) noexcept
    : allocs_(std::move(o.allocs_)), scratch_(std::move(o.scratch_)), next_(o.next_), owner_(o.owner_),
      origin_limit_(o.origin_limit_), budget_(o.budget_), held_(std::exchange(o.held_, nullptr)) {}

Memory& Memory::operator=(Memory&& o) noexcept {
  if (this != &o) {
    this->~Memory();
    new (this) Memory(std::move(o));
  }
  return *this;
}

HeldBuffers& Memory::held_buffers() {
  if (!held_) held_ = new (sim::frame_pool::allocate(sizeof(HeldBuffers))) HeldBuffers();
  return *held_;
}

// What `bytes` of data cost against --max-memory: the bytes, and in data mode the
// 4 bytes of provenance per byte that a full trace keeps for allocations up to
// origin_limit_. In sizes mode nothing (no data is held).
std::int64_t Memory::cost(std::int64_t bytes, PayloadMode mode) const {
  if (mode != PayloadMode::data) return 0;
  return owner_ >= 0 && bytes <= origin_limit_ ? 5 * bytes : bytes;
}

void Memory::charge(std::int64_t bytes, PayloadMode mode, const std::string& what) {
  const std::int64_t c = cost(bytes, mode);
  if (!budget_ || c == 0) return;
  if (budget_->used + c > budget_->limit)
    throw LimitError("memory", what + " needs " + std::to_string(c) + " bytes" +
                                   (c > bytes ? " (with the provenance a full trace keeps, 4 bytes per byte)" : "") +
                                   "; mpisim would then hold " + std::to_string(budget_->used + c) +
                                   " bytes of ranks' state and buffers, over --max-memory " +
                                   std::to_string(budget_->limit));
  budget_->used += c;
}

Address Memory::allocate(const std::string* name, TypeRef type, std::int64_t count, PayloadMode mode) {
  std::int64_t bytes = 0;
  // Addresses must stay far from overflow too: 2^56 bytes is beyond any machine.
  if (__builtin_mul_overflow(type->extent(), count, &bytes) || bytes > (std::int64_t{1} << 56) ||
      next_ > (std::int64_t{1} << 57))
    throw LimitError("memory", "buffer '" + *name + "' of " + std::to_string(count) + " x " + type->name() +
                                   " is too large to address (over 2^56 bytes)");
  charge(bytes, mode, "buffer '" + *name + "'");
  Address base = place(bytes);
  Allocation a{name, base, bytes, std::move(type), count, nullptr, nullptr};
  if (mode == PayloadMode::data && bytes > 0) {
    a.data = zeroed_bytes(static_cast<std::size_t>(bytes));
    if (owner_ >= 0 && bytes <= origin_limit_) {
      a.origin = std::make_unique<std::int32_t[]>(static_cast<std::size_t>(bytes));
      std::fill_n(a.origin.get(), bytes, owner_);
    }
  }
  allocs_.push_back(std::move(a));
  return base;
}

Address Memory::place(std::int64_t bytes) {
  Address base = (next_ + 63) / 64 * 64;
  next_ = base + std::max<std::int64_t>(bytes, 1) + kGuard;
  return base;
}

Address Memory::scratch(std::int64_t bytes, PayloadMode mode) {
  static const std::string name = "(scratch)";
  static const TypeRef byte_type = predefined_type("MPI_BYTE");
  if (bytes < 0 || bytes > (std::int64_t{1} << 56) || next_ > (std::int64_t{1} << 57))
    throw LimitError("memory", "a collective's scratch space of " + std::to_string(bytes) + " bytes is too large");
  charge(bytes, mode, "a collective algorithm's scratch space");
  if (host()) {  // from the heap, at its host address; kept sorted by address
    Allocation a{&name, 0, bytes, byte_type, bytes, zeroed_bytes(static_cast<std::size_t>(bytes)), nullptr};
    a.base = reinterpret_cast<Address>(a.data.get());
    const Address base = a.base;
    auto at = std::upper_bound(scratch_.begin(), scratch_.end(), base,
                               [](Address x, const Allocation& al) { return x < al.base; });
    scratch_.insert(at, std::move(a));
    return base;
  }
  Address base = place(bytes);
  Allocation a{&name, base, bytes, byte_type, bytes, nullptr, nullptr};
  if (mode == PayloadMode::data && bytes > 0) {
    a.data = scratch_pool().take(static_cast<std::size_t>(bytes));
    if (owner_ >= 0 && bytes <= origin_limit_) {
      a.origin = std::make_unique<std::int32_t[]>(static_cast<std::size_t>(bytes));
      std::fill_n(a.origin.get(), bytes, owner_);
    }
  }
  scratch_.push_back(std::move(a));
  return base;
}

void Memory::release(Address base) {
  for (auto it = scratch_.begin(); it != scratch_.end(); ++it)
    if (it->base == base) {
      if (it->data && budget_) budget_->used -= it->origin ? 5 * it->bytes : it->bytes;
      if (it->data && !host()) scratch_pool().give(std::move(it->data), static_cast<std::size_t>(it->bytes));
      scratch_.erase(it);
      return;
    }
}

Allocation* Memory::find_in(Table& v, Address addr, std::int64_t len) const {
  auto it = std::upper_bound(v.begin(), v.end(), addr, [](Address a, const Allocation& al) { return a < al.base; });
  if (it == v.begin()) return nullptr;
  --it;
  if (addr < it->base || addr + len > it->base + it->bytes) return nullptr;
  return &*it;
}

const Allocation* Memory::find(Address addr, std::int64_t len) const {
  auto& self = const_cast<Memory&>(*this);
  if (host()) [[unlikely]] {
    static const std::string name = "the program's memory";
    static Allocation everything{&name, 0, std::int64_t{1} << 47, predefined_type("MPI_BYTE"), 0, nullptr, nullptr};
    if (!scratch_.empty())
      if (Allocation* a = find_in(self.scratch_, addr, len)) return a;
    if (addr < kFirstHostAddress || len < 0 || addr > everything.bytes - len) return nullptr;
    return &everything;
  }
  if (Allocation* a = find_in(self.allocs_, addr, len)) return a;
  return scratch_.empty() ? nullptr : find_in(self.scratch_, addr, len);
}

Allocation* Memory::find(Address addr, std::int64_t len) {
  return const_cast<Allocation*>(static_cast<const Memory*>(this)->find(addr, len));
}

namespace {

// Yields the byte runs of the first `limit` bytes of a typed buffer, in type-map
// order, merging runs that touch.
class RunCursor {
 public:
  RunCursor(const TypedBuffer& b, std::int64_t limit) : b_(b), remaining_(limit) {
    if (b_.type->dense()) {
      addr_ = b_.addr + b_.type->lb();
      left_ = std::min(limit, b_.type->extent() * b_.count);
      elem_ = b_.count;
    } else {
      load();
    }
  }
  bool done() const { return left_ == 0; }
  Address addr() const { return addr_; }
  std::int64_t left() const { return left_; }
  void advance(std::int64_t n) {
    addr_ += n;
    left_ -= n;
    remaining_ -= n;
    if (left_ == 0 && remaining_ > 0 && !b_.type->dense()) load();
  }

 private:
  void load() {
    const auto& segs = b_.type->segments();
    while (remaining_ > 0 && elem_ < b_.count && !segs.empty()) {
      const Segment& s = segs[seg_];
      Address a = b_.addr + elem_ * b_.type->extent() + s.offset;
      if (++seg_ == segs.size()) seg_ = 0, ++elem_;
      if (s.length == 0) continue;
      addr_ = a;
      left_ = std::min(s.length, remaining_);
      // Merge the following runs while they continue this one.
      while (left_ < remaining_ && elem_ < b_.count) {
        const Segment& n = segs[seg_];
        Address na = b_.addr + elem_ * b_.type->extent() + n.offset;
        if (na != addr_ + left_) break;
        left_ = std::min(left_ + n.length, remaining_);
        if (++seg_ == segs.size()) seg_ = 0, ++elem_;
      }
      return;
    }
    left_ = 0;
  }
  TypedBuffer b_;
  std::int64_t remaining_;
  Address addr_ = 0;
  std::int64_t left_ = 0;
  std::int64_t elem_ = 0;
  std::size_t seg_ = 0;
};

Memory::HostTranslator g_translator = nullptr;

std::byte* host_pointer(const Memory& m, Address a, std::int64_t len) {
  if (g_translator)
    if (std::byte* p = g_translator(m.host_rank(), a, len)) return p;
  return reinterpret_cast<std::byte*>(a);
}

// Host pointer of a checked run, caching the last allocation found.
class HostMap {
 public:
  explicit HostMap(const TypedBuffer& b) : m_(b.memory), packed_origin_(b.packed_origin), packed_base_(b.addr) {}
  std::byte* ptr(Address a, std::int64_t len) {
    if (m_ == nullptr) return reinterpret_cast<std::byte*>(a);
    if (last_ == nullptr || a < last_->base || a + len > last_->base + last_->bytes) last_ = m_->find(a, len);
    if (last_->data) return last_->data.get() + (a - last_->base);
    // An allocation without data is the host's memory (Memory::use_host_memory).
    return host_pointer(*m_, a, len);
  }
  // The provenance of the run `ptr` just resolved, or null.
  std::int32_t* origin(Address a) {
    if (m_ == nullptr) return packed_origin_ ? packed_origin_ + (a - packed_base_) : nullptr;
    return last_->origin ? last_->origin.get() + (a - last_->base) : nullptr;
  }

 private:
  Memory* m_;
  std::int32_t* packed_origin_;
  Address packed_base_;
  Allocation* last_ = nullptr;
};

}  // namespace

void Memory::set_host_translator(HostTranslator t) { g_translator = t; }

void too_much_data(std::int64_t count, const Datatype& type, const char* argument) {
  throw MpiError(ErrorClass::count, argument,
                 std::to_string(count) + " x " + type.name() + " (" + std::to_string(type.size()) +
                     " bytes each) is more data than any process can hold (over 2^62 bytes)",
                 "MPI-4.1 §2.5.8: a count times its datatype's size must be representable (MPI_Count)");
}

void check_access(const TypedBuffer& b, std::int64_t bytes, const char* argument) {
  if (bytes == 0) return;
  // Fast path: the whole span of the type map inside one allocation.
  std::int64_t lo = b.addr + b.type->true_lb();
  std::int64_t hi = b.addr + (b.count - 1) * b.type->extent() + b.type->true_ub();
  if (b.count > 0 && b.memory->find(lo, hi - lo) != nullptr) return;
  for (RunCursor c(b, bytes); !c.done(); c.advance(c.left())) {
    if (b.memory->find(c.addr(), c.left()) == nullptr) {
      if (b.memory->host()) {  // a C program's pointer: only a null one (or past the address space) is caught
        const bool low = c.addr() < Memory::kFirstHostAddress;
        throw MpiError(ErrorClass::buffer, argument,
                       "the data of " + std::string(argument) + " (" + std::to_string(b.count) + " x " +
                           b.type->name() + ") reaches " +
                           (low ? "address " + std::to_string(c.addr()) + ": the buffer is a null pointer"
                                : std::string("beyond the address space")),
                       "MPI-4.1 §3.2.2: the buffer must hold count elements of datatype (its type map must lie in "
                       "the process's memory)");
      }
      const Allocation* near = b.memory->find(c.addr(), 1);
      std::string what = "the data of " + std::string(argument) + " (" + std::to_string(b.count) + " x " +
                         b.type->name() + ") reaches bytes [" + std::to_string(c.addr()) + ", " +
                         std::to_string(c.addr() + c.left()) + ") of the rank's memory, ";
      if (near)
        what += "past the end of buffer '" + *near->name + "' (" + std::to_string(near->bytes) + " bytes at " +
                std::to_string(near->base) + ")";
      else
        what += "which lie in no buffer";
      throw MpiError(ErrorClass::buffer, argument, what,
                     "MPI-4.1 §3.2.2: the buffer must hold count elements of datatype (its type map must lie in "
                     "the process's memory)");
    }
  }
}

void copy_typed(const TypedBuffer& src, const TypedBuffer& dst, std::int64_t bytes) {
  RunCursor s(src, bytes), d(dst, bytes);
  HostMap sm(src), dm(dst);
  while (!s.done() && !d.done()) {
    std::int64_t n = std::min(s.left(), d.left());
    std::memmove(dm.ptr(d.addr(), n), sm.ptr(s.addr(), n), static_cast<std::size_t>(n));
    if (std::int32_t* to = dm.origin(d.addr())) {
      const std::int32_t* from = sm.origin(s.addr());
      if (from) std::memmove(to, from, static_cast<std::size_t>(n) * sizeof(std::int32_t));
    }
    s.advance(n);
    d.advance(n);
  }
}

std::byte* host_bytes(Memory& memory, Address addr, std::int64_t bytes) {
  Allocation* a = memory.find(addr, bytes);
  if (a == nullptr) return nullptr;
  if (a->data) return a->data.get() + (addr - a->base);
  return memory.host() ? host_pointer(memory, addr, bytes) : nullptr;
}

void pack(const TypedBuffer& src, std::int64_t bytes, std::byte* out, std::int32_t* out_origin) {
  static const TypeRef byte_type = predefined_type("MPI_BYTE");
  copy_typed(src, TypedBuffer{nullptr, reinterpret_cast<Address>(out), bytes, byte_type.get(), out_origin}, bytes);
}

void unpack(const std::byte* in, std::int64_t bytes, const TypedBuffer& dst, const std::int32_t* in_origin) {
  static const TypeRef byte_type = predefined_type("MPI_BYTE");
  copy_typed(TypedBuffer{nullptr, reinterpret_cast<Address>(in), bytes, byte_type.get(),
                         const_cast<std::int32_t*>(in_origin)},
             dst, bytes);
}

void set_origin(const TypedBuffer& dst, std::int64_t bytes, std::int32_t rank) {
  RunCursor d(dst, bytes);
  HostMap dm(dst);
  for (; !d.done(); d.advance(d.left())) {
    dm.ptr(d.addr(), d.left());
    if (std::int32_t* to = dm.origin(d.addr())) std::fill_n(to, d.left(), rank);
  }
}

void combine_origins(const TypedBuffer& in, const TypedBuffer& inout, std::int64_t bytes, ProvenanceSets& sets) {
  RunCursor s(in, bytes), d(inout, bytes);
  HostMap sm(in), dm(inout);
  std::int32_t last_a = ProvenanceSets::kUnknown, last_b = ProvenanceSets::kUnknown, last = ProvenanceSets::kUnknown;
  while (!s.done() && !d.done()) {
    const std::int64_t n = std::min(s.left(), d.left());
    sm.ptr(s.addr(), n);
    dm.ptr(d.addr(), n);
    const std::int32_t* from = sm.origin(s.addr());
    if (std::int32_t* to = dm.origin(d.addr()))
      for (std::int64_t k = 0; k < n; ++k) {
        const std::int32_t a = from ? from[k] : ProvenanceSets::kUnknown, b = to[k];
        if (a != last_a || b != last_b) last_a = a, last_b = b, last = sets.combine(a, b);
        to[k] = last;
      }
    s.advance(n);
    d.advance(n);
  }
}

std::vector<std::pair<Address, std::int64_t>> byte_runs(const TypedBuffer& b, std::int64_t bytes, std::size_t limit) {
  std::vector<std::pair<Address, std::int64_t>> out;
  for (RunCursor c(b, bytes); !c.done() && out.size() < limit; c.advance(c.left())) out.emplace_back(c.addr(), c.left());
  return out;
}

}  // namespace mpisim::mpi
