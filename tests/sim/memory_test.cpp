#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <utility>
#include <vector>

#include "sim/bulk.hpp"
#include "sim/frame_pool.hpp"
#include "sim/object_pool.hpp"

using namespace mpisim::sim;

namespace {

// A value that depends on its place, so that a byte changed anywhere shows.
std::uint64_t pattern(std::size_t i) { return i * 0x9E3779B97F4A7C15ULL + 1; }

// How many of the n words at block differ from the pattern.
std::size_t off_pattern(const std::uint64_t* block, std::size_t n) {
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += block[i] != pattern(i);
  return wrong;
}

}  // namespace

TEST_CASE("a block being prepared keeps every byte written to it") {
  // Large enough to be prepared whole (from its end) while it is written (from its
  // start): the writes and the helper meet in the middle.
  const std::size_t bytes = bulk::kPrepareWhole * 2;
  const std::size_t n = bytes / sizeof(std::uint64_t);
  auto* block = static_cast<std::uint64_t*>(bulk::allocate(bytes));
  for (std::size_t i = 0; i < n; ++i) block[i] = pattern(i);
  bulk::drain();
  CHECK(off_pattern(block, n) == 0);
  bulk::deallocate(block, bytes);
}

TEST_CASE("a block given back while the helper works on it leaves nothing behind") {
  const std::size_t bytes = bulk::kPrepareWhole * 4;
  for (int round = 0; round < 4; ++round) {
    void* p = bulk::allocate(bytes);
    static_cast<char*>(p)[0] = 1;
    bulk::deallocate(p, bytes);  // with most of its pieces still queued
  }
  // The next blocks may reuse the addresses: what they hold is theirs alone.
  auto* fresh = static_cast<unsigned char*>(bulk::allocate_unprepared(bytes));
  std::memset(fresh, 0xA5, bytes);
  bulk::drain();
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < bytes; ++i) wrong += fresh[i] != 0xA5;
  CHECK(wrong == 0);
  bulk::deallocate(fresh, bytes);
}

TEST_CASE("an explicit preparation changes nothing it covers") {
  const std::size_t bytes = bulk::kHugeBytes * 6;
  auto* block = static_cast<std::uint64_t*>(bulk::allocate_unprepared(bytes));
  const std::size_t n = bytes / sizeof(std::uint64_t);
  for (std::size_t i = 0; i < n / 2; ++i) block[i] = pattern(i);
  bulk::prepare(block + 17, bytes - 17 * sizeof(std::uint64_t) - 3);  // unaligned on both ends
  for (std::size_t i = n / 2; i < n; ++i) block[i] = pattern(i);
  bulk::drain();
  CHECK(off_pattern(block, n) == 0);
  bulk::deallocate(block, bytes);
}

TEST_CASE("an object pool whose blocks are handed out a step at a time gives every object its own slot") {
  struct Item {
    std::uint64_t a, b, c;
  };
  ObjectPool<Item> pool;
  // Past the size where blocks are prepared a step ahead (kPrepareWhole), so steps,
  // block changes and the preparation ahead are all crossed.
  const std::size_t count = 3 * bulk::kPrepareWhole / sizeof(Item);
  std::vector<Item*> items;
  items.reserve(count);
  for (std::size_t i = 0; i < count; ++i) items.push_back(pool.make(Item{pattern(i), i, ~i}));
  CHECK(pool.live() == count);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < count; ++i) wrong += items[i]->a != pattern(i) || items[i]->b != i || items[i]->c != ~i;
  CHECK(wrong == 0);
  // Released and made again: the free list first, then fresh slots.
  for (std::size_t i = 0; i < count; i += 2) pool.release(items[i]);
  for (std::size_t i = 0; i < count; i += 2) items[i] = pool.make(Item{i, i, i});
  for (std::size_t i = 0; i < count; ++i)
    wrong += i % 2 == 0 ? items[i]->a != i : items[i]->a != pattern(i) || items[i]->c != ~i;
  CHECK(wrong == 0);
  for (Item* it : items) pool.release(it);
  CHECK(pool.live() == 0);
}

TEST_CASE("frames taken from prepared chunks stay apart and intact") {
  const auto before = frame_pool::live_frames();
  constexpr std::size_t kFrame = 240;
  const std::size_t count = 8 * bulk::kHugeBytes / kFrame;  // past the chunks prepared ahead
  std::vector<unsigned char*> frames;
  frames.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    auto* f = static_cast<unsigned char*>(frame_pool::allocate(kFrame));
    std::memset(f, static_cast<int>(i & 0xFF), kFrame);
    frames.push_back(f);
  }
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < count; ++i)
    for (std::size_t k = 0; k < kFrame; k += 61) wrong += frames[i][k] != static_cast<unsigned char>(i & 0xFF);
  CHECK(wrong == 0);
  for (unsigned char* f : frames) frame_pool::deallocate(f, kFrame);
  CHECK(frame_pool::live_frames() == before);
}

TEST_CASE("an arena hands out the blocks of its slot as a stack, then the pool") {
  const auto before = frame_pool::live_frames();
  {
    constexpr std::size_t kStride = 512, kHead = 100;  // head rounds up to 112; 512-112-16 = 384 bytes = 24 granules
    frame_pool::ArenaSet set(4, kStride, kHead);
    auto* base = static_cast<unsigned char*>(set.slot(0));
    CHECK(static_cast<unsigned char*>(set.slot(3)) == base + 3 * kStride);
    auto in_arena = [&](const void* p, std::uint32_t i) {
      auto* b = static_cast<const unsigned char*>(p);
      return b >= base + i * kStride + 128 && b < base + (i + 1) * kStride;
    };
    set.enter(2);
    void* a = frame_pool::allocate(100);  // 7 granules: 0..6
    void* b = frame_pool::allocate(32);   // 7..8
    void* c = frame_pool::allocate(48);   // 9..11
    CHECK(in_arena(a, 2));
    CHECK(static_cast<char*>(b) == static_cast<char*>(a) + 112);
    CHECK(static_cast<char*>(c) == static_cast<char*>(b) + 32);
    CHECK(set.owns(a));
    std::memset(a, 0xAA, 100);
    std::memset(b, 0xBB, 32);
    std::memset(c, 0xCC, 48);
    // A hole below the top is not reused until the blocks above it go too.
    frame_pool::deallocate(b, 32);
    void* d = frame_pool::allocate(16);
    CHECK(static_cast<char*>(d) == static_cast<char*>(c) + 48);
    frame_pool::deallocate(d, 16);
    frame_pool::deallocate(c, 48);
    void* e = frame_pool::allocate(16);
    CHECK(e == b);
    // Past the arena's room: the pool.
    void* big = frame_pool::allocate(400);
    CHECK_FALSE(set.owns(big));
    void* fits = frame_pool::allocate(256);  // granules 8..23: the last that fit
    CHECK(in_arena(fits, 2));
    void* full = frame_pool::allocate(16);
    CHECK_FALSE(set.owns(full));
    CHECK(static_cast<unsigned char*>(a)[99] == 0xAA);
    // Other arenas are untouched, and leave() returns to the pool.
    set.enter(0);
    void* f = frame_pool::allocate(16);
    CHECK(in_arena(f, 0));
    set.leave();
    void* g = frame_pool::allocate(16);
    CHECK_FALSE(set.owns(g));
    for (auto [p, n] : {std::pair{a, 100}, {e, 16}, {big, 400}, {fits, 256}, {full, 16}, {f, 16}, {g, 16}})
      frame_pool::deallocate(p, static_cast<std::size_t>(n));
  }
  CHECK(frame_pool::live_frames() == before);
}

TEST_CASE("an arena's marked blocks are found again, and a retired arena set lasts until its last block") {
  const auto before = frame_pool::live_frames();
  auto* set = new frame_pool::ArenaSet(3, 240, 64);  // 240-64-16 = 160 bytes = 10 granules per arena
  void* x = set->allocate_marked(1, 40);
  void* y = set->allocate_marked(1, 40);
  void* z = set->allocate_marked(0, 16);
  set->enter(1);
  void* frame = frame_pool::allocate(32);  // unmarked, above y
  CHECK(set->allocate_marked(1, 80) == nullptr);  // 3 + 3 + 2 granules used: no room for 5
  CHECK(set->allocate_marked(2, 160) != nullptr);
  std::vector<void*> seen;
  set->for_each_marked([&](void* p) { seen.push_back(p); });
  REQUIRE(seen.size() == 4);
  CHECK(seen[0] == z);
  CHECK(seen[1] == x);
  CHECK(seen[2] == y);
  frame_pool::deallocate(y, 40);
  seen.clear();
  set->for_each_marked([&](void* p) { seen.push_back(p); });
  CHECK(seen.size() == 3);
  for (void* p : seen) frame_pool::deallocate(p, p == x ? 40 : p == z ? 16 : 160);
  // Destroyed with a block still allocated: the block stays usable until freed.
  delete set;
  std::memset(frame, 0x5A, 32);
  CHECK(static_cast<unsigned char*>(frame)[31] == 0x5A);
  void* elsewhere = frame_pool::allocate(32);  // no arena in force any more
  frame_pool::deallocate(elsewhere, 32);
  frame_pool::deallocate(frame, 32);
  CHECK(frame_pool::live_frames() == before);
  CHECK_THROWS_AS(frame_pool::ArenaSet(2, 200, 0), std::invalid_argument);
}

TEST_CASE("zeroed blocks are zero, apart, and keep what is written to them") {
  // Sizes below, within and above what is carved out of shared mappings, enough of
  // them to cross several mappings and the one prepared ahead.
  const std::size_t sizes[] = {100, bulk::kZeroedMin, bulk::kZeroedMin + 1, std::size_t{1} << 20, 3 * (std::size_t{1} << 20) + 5,
                               std::size_t{40} << 20};
  struct Taken {
    std::uint64_t* p;
    std::size_t words;
    std::size_t salt;
  };
  std::vector<Taken> taken;
  std::size_t nonzero = 0;
  for (int round = 0; round < 12; ++round)
    for (std::size_t bytes : sizes) {
      auto* p = static_cast<std::uint64_t*>(bulk::take_zeroed(bytes));
      const std::size_t words = bytes / sizeof(std::uint64_t);
      for (std::size_t i = 0; i < words; ++i) nonzero += p[i] != 0;
      const std::size_t salt = taken.size() << 40;
      for (std::size_t i = 0; i < words; ++i) p[i] = pattern(i + salt);
      taken.push_back({p, words, salt});
    }
  CHECK(nonzero == 0);
  // Every other block back (pages returned in the middle of a mapping), then more.
  for (std::size_t k = 0; k < taken.size(); k += 2) bulk::give_zeroed(taken[k].p);
  for (std::size_t k = 0; k < taken.size(); k += 2) {
    auto* p = static_cast<std::uint64_t*>(bulk::take_zeroed(taken[k].words * sizeof(std::uint64_t) + 1));
    for (std::size_t i = 0; i < taken[k].words; ++i) nonzero += p[i] != 0;
    taken[k].p = p;
    for (std::size_t i = 0; i < taken[k].words; ++i) p[i] = pattern(i + taken[k].salt);
  }
  CHECK(nonzero == 0);
  bulk::drain();
  std::size_t wrong = 0;
  for (const Taken& t : taken)
    for (std::size_t i = 0; i < t.words; ++i) wrong += t.p[i] != pattern(i + t.salt);
  CHECK(wrong == 0);
  for (const Taken& t : taken) bulk::give_zeroed(t.p);
  bulk::give_zeroed(nullptr);
}

TEST_CASE("the blocks after a given-back mapping are fresh zeros, not its old bytes") {
  // Whole mappings (256 MiB of address space each) go back to the system when
  // their last block does; new blocks may land at the same addresses and must
  // still read as zero. Prepared blocks and scratch alike.
  constexpr std::size_t kBlock = std::size_t{8} << 20;  // the largest carved out of a shared mapping
  for (bool prepared : {true, false})
    for (int round = 0; round < 3; ++round) {
      std::vector<unsigned char*> blocks;
      std::size_t nonzero = 0;
      for (int k = 0; k < 40; ++k) {
        auto* p = static_cast<unsigned char*>(bulk::take_zeroed(kBlock, prepared));
        for (std::size_t i = 0; i < kBlock; i += 65521) nonzero += p[i] != 0;
        nonzero += p[kBlock - 1] != 0;
        for (std::size_t i = 0; i < kBlock; i += 2048) p[i] = 0x5A;  // every page dirty
        blocks.push_back(p);
      }
      CHECK(nonzero == 0);
      for (unsigned char* p : blocks) bulk::give_zeroed(p);
    }
}
