#include "sim/frame_pool.hpp"

#include <utility>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <vector>

#include "sim/bulk.hpp"

namespace mpisim::sim::frame_pool {
namespace {

// Size classes of 16 bytes up to 4 KiB; larger frames go to operator new.
constexpr std::size_t kGranule = 16;
constexpr std::size_t kClasses = 256;
constexpr std::size_t kChunkBytes = bulk::kHugeBytes;

struct FreeNode { FreeNode* next; };

// An arena: a bitmap of its granules in use and one of its marked blocks' first
// granules, then the granules. Blocks are stacked: a new one starts above the
// highest granule in use.
constexpr std::size_t kArenaMeta = 16;  // the two bitmaps
constexpr std::size_t kMaxArenaGranules = 64;

__extension__ using Wide = unsigned __int128;  // GCC and Clang: a product's high half

std::uint64_t granule_mask(std::size_t first, std::size_t n) {
  return (n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1) << first;
}

// The granules (the size class) of a block of `bytes`; an empty block takes one.
std::size_t granules_of(std::size_t bytes) { return std::max<std::size_t>(1, (bytes + kGranule - 1) / kGranule); }

// Stacks a block of n granules on the arena whose bitmap is at meta (capacity
// `granules`): its address, or null when it does not fit; *first is its granule.
char* carve_arena(std::uint64_t* meta, std::size_t granules, std::size_t n, std::size_t* first) {
  const auto top = static_cast<std::size_t>(std::bit_width(meta[0]));
  if (top + n > granules) return nullptr;
  meta[0] |= granule_mask(top, n);
  *first = top;
  return reinterpret_cast<char*>(meta) + kArenaMeta + top * kGranule;
}

struct Pool {
  std::array<FreeNode*, kClasses> free{};
  std::vector<void*> chunks;  // mapped; the first `used` handed out, the others prepared ahead
  std::size_t used = 0;
  char* cursor = nullptr;
  std::size_t left = 0;

  // Once a run has used this many chunks it is a large one: the next chunks are
  // mapped and prepared ahead (sim/bulk), so their first touch finds them resident.
  static constexpr std::size_t kLarge = 4;
  static constexpr std::size_t kAhead = 2;

  ~Pool() {
    for (void* c : chunks) bulk::deallocate(c, kChunkBytes);
  }

  void* carve(std::size_t bytes) {
    if (left < bytes) next_chunk();
    void* p = cursor;
    cursor += bytes;
    left -= bytes;
    return p;
  }

  void next_chunk() {
    if (used == chunks.size()) chunks.push_back(bulk::allocate_unprepared(kChunkBytes));
    cursor = static_cast<char*>(chunks[used++]);
    left = kChunkBytes;
    if (used < kLarge) return;
    while (chunks.size() < used + kAhead) {
      chunks.push_back(bulk::allocate_unprepared(kChunkBytes));
      bulk::prepare(chunks.back(), kChunkBytes);
    }
  }
};

Pool& pool() {
  static Pool p;
  return p;
}

}  // namespace

struct ArenaSet::Region {
  char* base;
  std::size_t bytes;
  std::size_t stride;
  std::uint64_t inverse;  // floor(2^64 / (stride / 16)) + 1: slot = (granule * inverse) >> 64
  std::size_t head;
  std::size_t granules;  // per arena
  std::int64_t live = 0;
  std::int64_t marked = 0;  // of the live blocks
  bool retired = false;
};

namespace {

// The regions with arenas (live or retired with blocks left), and the arena
// new blocks come from.
struct Arenas {
  std::vector<ArenaSet::Region*> regions;
  ArenaSet::Region* current_region = nullptr;
  std::uint64_t* current = nullptr;  // its bitmap; the granules follow

  ArenaSet::Region* owner(const void* p) const noexcept {
    for (ArenaSet::Region* r : regions)
      if (reinterpret_cast<std::uintptr_t>(p) - reinterpret_cast<std::uintptr_t>(r->base) < r->bytes) return r;
    return nullptr;
  }
  static void release(ArenaSet::Region* r) noexcept {
    bulk::deallocate(r->base, r->bytes);
    delete r;
  }
  void drop(ArenaSet::Region* r) noexcept {
    regions.erase(std::find(regions.begin(), regions.end(), r));
    release(r);
  }
};

// Constant-initialized, so the hot paths test no guard; its vector is empty once
// every ArenaSet is gone, before static destruction begins.
constinit Arenas g_arenas;
Arenas& arenas() { return g_arenas; }
constinit std::int64_t g_live = 0;  // blocks allocated, arenas and pool

}  // namespace

ArenaSet::ArenaSet(std::uint32_t count, std::size_t stride, std::size_t head)
    : stride_(stride), count_(count) {
  if (stride % kGranule != 0 || stride < 2 * kGranule)
    throw std::invalid_argument("frame_pool::ArenaSet: the stride must be a multiple of 16 bytes, at least 32");
  head = (head + kGranule - 1) / kGranule * kGranule;
  const std::size_t room = stride > head + kArenaMeta ? stride - head - kArenaMeta : 0;
  const std::size_t bytes = std::max<std::size_t>(std::size_t{count} * stride, 1);
  base_ = static_cast<char*>(bulk::allocate(bytes));
  const std::uint64_t inverse = ~std::uint64_t{0} / (stride / kGranule) + 1;
  region_ = new Region{base_, bytes, stride, inverse, head, std::min(room / kGranule, kMaxArenaGranules)};
  for (std::uint32_t i = 0; i < count; ++i) meta_of(i)[0] = meta_of(i)[1] = 0;
  arenas().regions.push_back(region_);
}

ArenaSet::~ArenaSet() {
  Arenas& a = arenas();
  if (a.current_region == region_) leave();
  if (region_->live == 0) {
    a.drop(region_);
  } else {
    region_->retired = true;  // the last free releases it
  }
}

std::uint64_t* ArenaSet::meta_of(std::uint32_t i) const noexcept {
  return reinterpret_cast<std::uint64_t*>(base_ + std::size_t{i} * stride_ + region_->head);
}

void ArenaSet::enter(std::uint32_t i) noexcept {
  Arenas& a = arenas();
  a.current_region = region_;
  a.current = meta_of(i);
}

void* ArenaSet::allocate_marked(std::uint32_t i, std::size_t bytes) noexcept {
  std::uint64_t* meta = meta_of(i);
  std::size_t first = 0;
  char* p = carve_arena(meta, region_->granules, granules_of(bytes), &first);
  if (p == nullptr) return nullptr;
  meta[1] |= std::uint64_t{1} << first;
  ++region_->live;
  ++region_->marked;
  ++g_live;
  return p;
}

std::uint64_t ArenaSet::marks(std::uint32_t i) const noexcept { return meta_of(i)[1]; }

bool ArenaSet::any_marked() const noexcept { return region_->marked != 0; }

void* ArenaSet::block(std::uint32_t i, std::size_t granule) const noexcept {
  return reinterpret_cast<char*>(meta_of(i)) + kArenaMeta + granule * kGranule;
}

void ArenaSet::leave() noexcept {
  Arenas& a = arenas();
  a.current_region = nullptr;
  a.current = nullptr;
}

void* allocate(std::size_t bytes) {
  ++g_live;
  const std::size_t cls = granules_of(bytes);
  Arenas& a = arenas();
  std::size_t first = 0;
  if (a.current != nullptr)
    if (char* p = carve_arena(a.current, a.current_region->granules, cls, &first)) {
      ++a.current_region->live;
      return p;
    }
  if (cls >= kClasses) return ::operator new(bytes);
  Pool& p = pool();
  if (FreeNode* n = p.free[cls]) {
    p.free[cls] = n->next;
    return n;
  }
  return p.carve(cls * kGranule);
}

void* allocate_pooled(std::size_t bytes) {
  OutsideArena outside;
  return allocate(bytes);
}

OutsideArena::OutsideArena() noexcept {
  Arenas& a = arenas();
  region_ = std::exchange(a.current_region, nullptr);
  current_ = std::exchange(a.current, nullptr);
}

OutsideArena::~OutsideArena() {
  Arenas& a = arenas();
  a.current_region = region_;
  a.current = current_;
}

void deallocate(void* ptr, std::size_t bytes) noexcept {
  --g_live;
  const std::size_t cls = granules_of(bytes);
  Arenas& a = arenas();
  if (ArenaSet::Region* r = a.owner(ptr)) {
    const auto off = static_cast<std::size_t>(static_cast<char*>(ptr) - r->base);
    // The slot: the granule index divided by the stride in granules, by the
    // inverse (exact for every index below 2^32, i.e. regions below 64 GiB).
    const auto slot = static_cast<std::size_t>((static_cast<Wide>(off / kGranule) * r->inverse) >> 64);
    const std::size_t in_slot = off - slot * r->stride;
    auto* meta = reinterpret_cast<std::uint64_t*>(r->base + slot * r->stride + r->head);
    const std::size_t first = (in_slot - r->head - kArenaMeta) / kGranule;
    meta[0] &= ~granule_mask(first, cls);
    const std::uint64_t mark = std::uint64_t{1} << first;
    r->marked -= (meta[1] & mark) != 0;
    meta[1] &= ~mark;
    if (--r->live == 0 && r->retired) a.drop(r);
    return;
  }
  if (cls >= kClasses) {
    ::operator delete(ptr);
    return;
  }
  Pool& p = pool();
  auto* n = static_cast<FreeNode*>(ptr);
  n->next = p.free[cls];
  p.free[cls] = n;
}

std::int64_t live_frames() noexcept { return g_live; }

}  // namespace mpisim::sim::frame_pool
