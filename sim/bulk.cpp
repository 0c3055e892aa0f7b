#include "sim/bulk.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <map>
#include <new>

#if defined(__linux__)
#include <sched.h>
#include <sys/mman.h>

#include <cerrno>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#endif

// Sanitizer builds keep operator new, so their checks see every block.
#if defined(__SANITIZE_ADDRESS__)
#define MPISIM_BULK_PLAIN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MPISIM_BULK_PLAIN 1
#endif
#endif

namespace mpisim::sim::bulk {

namespace {
void* calloc_bytes(std::size_t bytes) {
  void* p = std::calloc(std::max<std::size_t>(bytes, 1), 1);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
}  // namespace

#if defined(__linux__) && defined(MADV_HUGEPAGE) && defined(MADV_POPULATE_WRITE) && !defined(MPISIM_BULK_PLAIN)
namespace {

constexpr std::size_t kPage = 4096;

std::size_t round_up(std::size_t bytes) { return (bytes + kHugeBytes - 1) / kHugeBytes * kHugeBytes; }

// The helper thread and its queue of pieces (at most a huge page each, so that a
// block that goes away loses its queued pieces and waits for one piece at most).
class Helper {
 public:
  // A whole block (from its end) or the next range a pool will hand out (from its
  // start). The pools' ranges go first: they are touched soon, whereas a whole
  // block is being touched from its start already.
  void add(char* begin, char* end, bool whole) {
    std::unique_lock lock(mutex_);
    if (unsupported_) return;
    if (!started_) {
      if (!two_cores()) {
        unsupported_ = true;  // it would take the simulation's own core
        return;
      }
      started_ = true;
      std::thread([this] { run(); }).detach();
    }
    std::deque<Piece> pieces;
    for (char* at = begin; at < end; at += kHugeBytes) pieces.push_back({at, std::min(at + kHugeBytes, end)});
    if (whole) blocks_.insert(blocks_.end(), pieces.rbegin(), pieces.rend());
    else soon_.insert(soon_.end(), pieces.begin(), pieces.end());
    wake_.notify_one();
  }

  // The block [begin, end) is about to be unmapped: its queued pieces go, and a
  // piece of it in progress is waited for (a later mapping may reuse the addresses).
  void drop(char* begin, char* end) {
    std::unique_lock lock(mutex_);
    if (!started_) return;
    auto inside = [&](const Piece& p) { return p.begin >= begin && p.begin < end; };
    std::erase_if(soon_, inside);
    std::erase_if(blocks_, inside);
    idle_.wait(lock, [&] { return !(current_.begin >= begin && current_.begin < end); });
  }

  void drain() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [&] { return soon_.empty() && blocks_.empty() && current_.begin == nullptr; });
  }

 private:
  struct Piece {
    char* begin = nullptr;
    char* end = nullptr;
  };

  static bool two_cores() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return false;
    return CPU_COUNT(&set) >= 2;
  }

  void run() {
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return !soon_.empty() || !blocks_.empty(); });
      std::deque<Piece>& from = soon_.empty() ? blocks_ : soon_;
      current_ = from.front();
      from.pop_front();
      lock.unlock();
      const bool ok = madvise(current_.begin, static_cast<std::size_t>(current_.end - current_.begin),
                              MADV_POPULATE_WRITE) == 0;
      const int error = ok ? 0 : errno;
      lock.lock();
      if (error == EINVAL) {  // a kernel without it: stop asking
        unsupported_ = true;
        soon_.clear();
        blocks_.clear();
      }
      current_ = {};
      idle_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::deque<Piece> soon_;    // ranges pools will hand out next
  std::deque<Piece> blocks_;  // whole blocks, each from its end
  Piece current_;
  bool started_ = false;
  bool unsupported_ = false;
};

// Never destroyed: pools give back their blocks during static destruction, and
// the thread lives until the process ends.
Helper& helper() {
  static Helper* h = new Helper;
  return *h;
}

void* map(std::size_t bytes) {
  const std::size_t size = round_up(bytes);
  void* raw = mmap(nullptr, size + kHugeBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  auto* base = static_cast<char*>(raw);
  const auto addr = reinterpret_cast<std::uintptr_t>(base);
  const std::size_t lead = (kHugeBytes - addr % kHugeBytes) % kHugeBytes;
  if (lead > 0) munmap(base, lead);
  munmap(base + lead + size, kHugeBytes - lead);  // lead < kHugeBytes: never empty
  void* p = base + lead;
  madvise(p, size, MADV_HUGEPAGE);  // advice only: without huge pages it is ordinary memory
  return p;
}

// Fresh zero pages for zeroed blocks, with no huge-page advice: on a virtual
// machine a huge page's first touch can cost the host more than the small pages it
// replaces, and the helper touches these ahead anyway.
char* map_plain(std::size_t bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  return static_cast<char*>(p);
}

// Address space for blocks to be carved from, or null where the system refuses
// it: pages are neither reserved nor touched until written (MAP_NORESERVE).
char* map_reserve(std::size_t bytes) noexcept {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? nullptr : static_cast<char*>(p);
}

void unmap(char* p, std::size_t bytes) noexcept {
  try {
    helper().drop(p, p + bytes);
  } catch (...) {  // a piece left queued only populates memory, never changes it
  }
  munmap(p, bytes);
}

void prepare_range(char* p, std::size_t bytes, bool whole) noexcept {
  try {
    helper().add(p, p + bytes, whole);
  } catch (...) {  // a hint: without a thread, the first touch pays as before
  }
}

// Blocks carved in order out of large mappings (kReserve of address space each,
// whose pages cost nothing until touched). With `prepare`, the helper makes the
// next stretch resident ahead of the blocks handed out: as far ahead as has been
// handed out of the mapping so far, from 2 MiB up to kMaxAhead. A block over
// kMaxCarved has a mapping of its own. Used by the simulation's thread only; the
// helper merely populates.
//
// Carving keeps the simulation's thread out of mmap and munmap, which wait for
// the helper's populating (they take the address space's lock for writing, its
// populating holds it for reading): one call per kReserve of blocks rather than
// one per block. Giving pages back (MADV_DONTNEED) does not wait for it.
class ZeroedBlocks {
 public:
  explicit ZeroedBlocks(bool prepare) : prepare_(prepare) {}

  void* take(std::size_t bytes) {
    const std::size_t n = (bytes + kPage - 1) / kPage * kPage;
    if (n > kMaxCarved) {
      char* p = map_plain(n);
      try {
        blocks_.emplace(p, Block{n, nullptr});
      } catch (...) {
        munmap(p, n);
        throw;
      }
      if (prepare_) prepare_range(p, n, true);  // from its end, while it is written from its start
      return p;
    }
    if (static_cast<std::size_t>(end_ - at_) < n) next_mapping(n);
    blocks_.emplace(at_, Block{n, current_});
    ++mappings_.at(current_).live;
    char* p = at_;
    at_ += n;
    if (prepare_) prepare_ahead();
    return p;
  }

  // False when p is not one of these blocks.
  bool give(void* raw) noexcept {
    auto it = blocks_.find(static_cast<char*>(raw));
    if (it == blocks_.end()) return false;
    char* p = it->first;
    const Block b = it->second;
    blocks_.erase(it);
    if (b.mapping == nullptr) {
      unmap(p, b.bytes);
      return true;
    }
    auto m = mappings_.find(b.mapping);
    if (--m->second.live == 0 && b.mapping != current_) {
      unmap(m->first, m->second.bytes);
      mappings_.erase(m);
    } else {
      madvise(p, b.bytes, MADV_DONTNEED);  // its pages go back now; its addresses are never handed out again
    }
    return true;
  }

 private:
  static constexpr std::size_t kReserve = std::size_t{256} << 20, kMaxCarved = std::size_t{8} << 20,
                               kMaxAhead = std::size_t{32} << 20;

  struct Block {
    std::size_t bytes;
    char* mapping;  // null: a mapping of its own
  };
  struct Mapping {
    std::size_t bytes;
    std::size_t live = 0;
  };

  void next_mapping(std::size_t n) {
    // Mapped first, so that a failure leaves everything as it was. Where the
    // system refuses that much address space, a mapping just large enough.
    std::size_t bytes = kReserve;
    char* fresh = map_reserve(bytes);
    if (fresh == nullptr) {
      bytes = n;
      fresh = map_plain(bytes);
    }
    try {
      mappings_.emplace(fresh, Mapping{bytes});
    } catch (...) {
      munmap(fresh, bytes);
      throw;
    }
    retire_current();
    current_ = at_ = prepared_ = fresh;
    end_ = fresh + bytes;
  }

  // Asks the helper for the stretch past what it has been asked for, once less
  // than half the distance ahead is left.
  void prepare_ahead() noexcept {
    const std::size_t ahead = std::clamp(static_cast<std::size_t>(at_ - current_), kHugeBytes, kMaxAhead);
    if (prepared_ < at_) prepared_ = at_;
    if (static_cast<std::size_t>(prepared_ - at_) >= ahead / 2) return;
    char* to = std::min(end_, at_ + ahead);
    if (to > prepared_) prepare_range(prepared_, static_cast<std::size_t>(to - prepared_), false);
    prepared_ = to;
  }

  // The current mapping's untouched end goes back; a mapping with no block left goes.
  void retire_current() noexcept {
    if (current_ == nullptr) return;
    auto m = mappings_.find(current_);
    if (m->second.live == 0) {
      unmap(m->first, m->second.bytes);
      mappings_.erase(m);
    } else if (prepared_ > at_) {
      try {
        helper().drop(at_, end_);
      } catch (...) {  // a piece left queued only populates memory, never changes it
      }
      madvise(at_, static_cast<std::size_t>(prepared_ - at_), MADV_DONTNEED);
    }
    current_ = at_ = end_ = prepared_ = nullptr;
  }

  const bool prepare_;
  std::map<char*, Block> blocks_;
  std::map<char*, Mapping> mappings_;
  char* current_ = nullptr;
  char* at_ = nullptr;
  char* end_ = nullptr;
  char* prepared_ = nullptr;  // the helper has been asked for the current mapping up to here
};

// Never destroyed, as blocks come back during static destruction.
ZeroedBlocks& zeroed_blocks(bool prepared) {
  static ZeroedBlocks* ready = new ZeroedBlocks(true);
  static ZeroedBlocks* lazy = new ZeroedBlocks(false);
  return prepared ? *ready : *lazy;
}

}  // namespace

void* take_zeroed(std::size_t bytes, bool prepared) {
  if (bytes < kZeroedMin) return calloc_bytes(bytes);
  return zeroed_blocks(prepared).take(bytes);
}

void give_zeroed(void* p) noexcept {
  if (p != nullptr && !zeroed_blocks(true).give(p) && !zeroed_blocks(false).give(p)) std::free(p);
}

// Maps size + 2 MiB, trims both ends so the block starts on a 2 MiB boundary, and
// advises huge pages.
void* allocate_unprepared(std::size_t bytes) {
  if (bytes < kHugeBytes) return ::operator new(bytes);
  return map(bytes);
}

void* allocate(std::size_t bytes) {
  void* p = allocate_unprepared(bytes);
  if (bytes >= kPrepareWhole) {
    auto* begin = static_cast<char*>(p);
    try {
      helper().add(begin, begin + round_up(bytes), true);
    } catch (...) {  // a hint: without a thread, the first touch pays as before
    }
  }
  return p;
}

void deallocate(void* p, std::size_t bytes) noexcept {
  if (p == nullptr) return;
  if (bytes < kHugeBytes) {
    ::operator delete(p);
    return;
  }
  auto* begin = static_cast<char*>(p);
  try {
    helper().drop(begin, begin + round_up(bytes));
  } catch (...) {  // a piece left queued only populates memory, never changes it
  }
  munmap(p, round_up(bytes));
}

void prepare(void* p, std::size_t bytes) noexcept {
  if (bytes < kHugeBytes) return;
  const auto from = reinterpret_cast<std::uintptr_t>(p) / kPage * kPage;
  const auto to = (reinterpret_cast<std::uintptr_t>(p) + bytes + kPage - 1) / kPage * kPage;
  try {
    helper().add(reinterpret_cast<char*>(from), reinterpret_cast<char*>(to), false);
  } catch (...) {  // a hint: without a thread, the first touch pays as before
  }
}

void drain() noexcept { helper().drain(); }
#else
void* take_zeroed(std::size_t bytes, bool) { return calloc_bytes(bytes); }
void give_zeroed(void* p) noexcept { std::free(p); }
void* allocate(std::size_t bytes) { return ::operator new(bytes); }
void* allocate_unprepared(std::size_t bytes) { return ::operator new(bytes); }
void deallocate(void* p, std::size_t) noexcept { ::operator delete(p); }
void prepare(void*, std::size_t) noexcept {}
void drain() noexcept {}
#endif

}  // namespace mpisim::sim::bulk
