#pragma once
// Globals that belong to their rank. In separate processes every rank has its own
// copy of the program's global and static variables; here the ranks share one
// loaded program, so its writable data is swapped: each rank has a private copy,
// and the copy of the rank about to run is put in place (the previous one's saved
// first) whenever another rank's fiber is resumed. A rank's copy starts as the
// image the program had once loaded (its initialisers and constructors run once).
//
// What is swapped: the program's own writable segment (.data, .bss), not the
// read-only-after-relocation part before it, and not the C library's state
// (stdio buffers, rand(), strtok()'s position are shared by the ranks), nor
// thread-local variables. Each switch between ranks copies the segment twice, so
// a program with megabytes of globals pays for them at every switch.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mpisim::program {

class PrivateGlobals {
 public:
  // The writable data of the loaded object whose dlopen handle is `handle`, for
  // `ranks` ranks.
  PrivateGlobals(void* handle, std::uint32_t ranks);
  // Puts rank r's copy in place (saving the copy in place first).
  void switch_to(std::uint32_t r) {
    if (r != owner_ && bytes_ != 0) swap(r);
  }
  std::size_t bytes() const { return bytes_; }
  // Whose copy is in place: UINT32_MAX before the first switch.
  std::uint32_t owner() const { return owner_; }
  // Where rank r's bytes [addr, addr + len) of the globals are now: null when they
  // are not globals or r's copy is in place; else in r's saved copy. Throws
  // std::runtime_error for a range that runs past the end of the globals.
  std::byte* locate(std::uint32_t r, std::uintptr_t addr, std::size_t len);

 private:
  void swap(std::uint32_t r);
  std::byte* start_ = nullptr;
  std::size_t bytes_ = 0;
  std::unique_ptr<std::byte[]> initial_;
  std::vector<std::unique_ptr<std::byte[]>> copies_;  // made at a rank's first switch
  std::uint32_t owner_ = UINT32_MAX;                  // whose copy is in place (none yet: the initial image)
};

}  // namespace mpisim::program
