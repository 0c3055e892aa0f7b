#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
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
