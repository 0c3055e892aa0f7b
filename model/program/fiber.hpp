#pragma once
// Fibers for the ranks of a C program: each rank runs the program's main on a
// stack of its own inside the one process, and switches to the engine whenever an
// MPI call must wait. Switching is Boost.Context's (fcontext: a few nanoseconds,
// no system call); the stacks are ours.
//
// All stacks lie in one reservation of address space, reserved without backing
// (a page costs memory only once touched). Each stack has a guard region below
// it that no access may touch, so an overflow faults at once instead of writing
// into the next rank's stack, and the fault handler (install_fault_handler) names
// the rank. A guard costs the kernel a memory mapping per stack (two areas per
// rank); when vm.max_map_count cannot hold that many, the stacks go unguarded and
// a marker at the bottom of each is checked at every switch instead
// (Stacks::guarded() tells which, and the run says so).
#include <cstddef>
#include <cstdint>
#include <string>

namespace mpisim::program {

class Stacks {
 public:
  // Room for `count` stacks of `bytes` each (rounded up to whole pages). Throws
  // std::runtime_error naming the size when the address space cannot be reserved.
  Stacks(std::uint32_t count, std::size_t bytes);
  ~Stacks();
  Stacks(const Stacks&) = delete;
  Stacks& operator=(const Stacks&) = delete;

  static constexpr std::size_t kGuardBytes = 64 * 1024;

  // Stack i: its lowest address and size; usable from this call on.
  std::byte* low(std::uint32_t i) const { return base_ + i * stride_ + kGuardBytes; }
  std::size_t size() const { return bytes_; }
  void prepare(std::uint32_t i);  // made usable (and, unguarded, marked) before its first use
  bool guarded() const { return guarded_; }
  // Unguarded: whether stack i's bottom marker is still whole (always true guarded).
  bool intact(std::uint32_t i) const;
  // The stack whose guard region holds `addr`, or -1.
  std::int64_t guard_of(const void* addr) const;
  // Why the stacks are unguarded ("" when they are guarded).
  const std::string& unguarded_reason() const { return reason_; }

 private:
  std::byte* base_ = nullptr;
  std::size_t bytes_ = 0, stride_ = 0, reserved_ = 0;
  std::uint32_t count_ = 0;
  bool guarded_ = true;
  std::uint32_t first_unguarded_ = UINT32_MAX;  // the stacks from here on have markers instead of guards
  std::string reason_;
};

// One fiber. The engine side calls resume(); the fiber side calls yield() to give
// control back, and returns from its entry function to end (after which it is
// never resumed).
class Fiber {
 public:
  using Entry = void (*)(Fiber& self);
  Fiber() = default;
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  // Prepares the fiber to run entry(*this) on [low, low + size) at its first resume.
  void start(std::byte* low, std::size_t size, Entry entry);
  // Engine side: runs the fiber until it yields or ends.
  void resume();
  // Fiber side: back to the engine, until the next resume.
  void yield();
  bool finished() const { return finished_; }
  bool started() const { return ctx_ != nullptr; }

 private:
  static void trampoline(void* transfer);
  void* ctx_ = nullptr;     // the fiber's context while it is suspended
  void* caller_ = nullptr;  // the engine's context while the fiber runs
  Entry entry_ = nullptr;
  std::byte* low_ = nullptr;
  std::size_t size_ = 0;
  bool finished_ = false;
  // AddressSanitizer's bookkeeping of the switch (unused otherwise).
  void* fake_stack_ = nullptr;
  const void* caller_bottom_ = nullptr;
  std::size_t caller_size_ = 0;
};

// Installs (once) a handler of SIGSEGV and SIGBUS on an alternate stack that, for
// a fault in a guard region of `stacks`, reports the overflowing rank; and for any
// other fault while a rank runs, that rank and what it was doing (`doing` is
// called from the handler: it must only read memory). Then the process exits 2.
using DescribeFault = void (*)(char* out, std::size_t size);
void install_fault_handler(const Stacks* stacks, DescribeFault doing);
void uninstall_fault_handler();

}  // namespace mpisim::program
