#include "sim/bulk.hpp"

#include <algorithm>
#include <atomic>
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

  std::uint64_t done() const { return done_.load(std::memory_order_relaxed); }

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
      if (ok) done_.fetch_add(static_cast<std::uint64_t>(current_.end - current_.begin), std::memory_order_relaxed);
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
  std::atomic<std::uint64_t> done_{0};
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

}  // namespace

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

std::uint64_t prepared_bytes() noexcept { return helper().done(); }

void drain() noexcept { helper().drain(); }
#else
void* allocate(std::size_t bytes) { return ::operator new(bytes); }
void* allocate_unprepared(std::size_t bytes) { return ::operator new(bytes); }
void deallocate(void* p, std::size_t) noexcept { ::operator delete(p); }
void prepare(void*, std::size_t) noexcept {}
std::uint64_t prepared_bytes() noexcept { return 0; }
void drain() noexcept {}
#endif

}  // namespace mpisim::sim::bulk
