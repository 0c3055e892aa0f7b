#include "sim/bulk.hpp"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
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

#if defined(__linux__) && defined(MADV_HUGEPAGE) && !defined(MPISIM_BULK_PLAIN)
namespace {

std::size_t round_up(std::size_t bytes) { return (bytes + kHugeBytes - 1) / kHugeBytes * kHugeBytes; }

}  // namespace

// Maps size + 2 MiB, trims both ends so the block starts on a 2 MiB boundary, and
// advises huge pages.
void* allocate(std::size_t bytes) {
  if (bytes < kHugeBytes) return ::operator new(bytes);
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

void deallocate(void* p, std::size_t bytes) noexcept {
  if (p == nullptr) return;
  if (bytes < kHugeBytes) {
    ::operator delete(p);
    return;
  }
  munmap(p, round_up(bytes));
}
#else
void* allocate(std::size_t bytes) { return ::operator new(bytes); }
void deallocate(void* p, std::size_t) noexcept { ::operator delete(p); }
#endif

}  // namespace mpisim::sim::bulk
