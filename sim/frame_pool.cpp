#include "sim/frame_pool.hpp"

#include <array>
#include <cstdlib>
#include <new>
#include <vector>

#include "sim/bulk.hpp"

namespace mpisim::sim::frame_pool {
namespace {

// Size classes of 16 bytes up to 4 KiB; larger frames go to operator new.
constexpr std::size_t kGranule = 16;
constexpr std::size_t kClasses = 256;
constexpr std::size_t kChunkBytes = bulk::kHugeBytes;

struct FreeNode { FreeNode* next; };

struct Pool {
  std::array<FreeNode*, kClasses> free{};
  std::vector<void*> chunks;  // mapped; the first `used` handed out, the others prepared ahead
  std::size_t used = 0;
  char* cursor = nullptr;
  std::size_t left = 0;
  std::int64_t live = 0;

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

void* allocate(std::size_t bytes) {
  Pool& p = pool();
  ++p.live;
  std::size_t cls = (bytes + kGranule - 1) / kGranule;
  if (cls >= kClasses) return ::operator new(bytes);
  if (FreeNode* n = p.free[cls]) {
    p.free[cls] = n->next;
    return n;
  }
  return p.carve(cls * kGranule);
}

void deallocate(void* ptr, std::size_t bytes) noexcept {
  Pool& p = pool();
  --p.live;
  std::size_t cls = (bytes + kGranule - 1) / kGranule;
  if (cls >= kClasses) {
    ::operator delete(ptr);
    return;
  }
  auto* n = static_cast<FreeNode*>(ptr);
  n->next = p.free[cls];
  p.free[cls] = n;
}

std::int64_t live_frames() noexcept { return pool().live; }

}  // namespace mpisim::sim::frame_pool
