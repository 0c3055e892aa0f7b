#include "model/program/fiber.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <boost/context/detail/fcontext.hpp>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define MPISIM_ASAN_FIBERS 1
#endif

namespace mpisim::program {
namespace ctx = boost::context::detail;

namespace {

constexpr std::uint64_t kMarker = 0x6d706973696d5354;  // written at the bottom of an unguarded stack
constexpr std::size_t kMarkerWords = 8;

std::size_t page_size() {
  static const std::size_t p = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return p;
}

// The kernel's limit of memory mappings per process, and how many this one has.
long read_long(const char* path) {
  std::ifstream in(path);
  long v = -1;
  in >> v;
  return v;
}
long mappings_now() {
  std::ifstream in("/proc/self/maps");
  long n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

}  // namespace

Stacks::Stacks(std::uint32_t count, std::size_t bytes) : count_(count) {
  const std::size_t page = page_size();
  bytes_ = (bytes + page - 1) / page * page;
  stride_ = bytes_ + kGuardBytes;
  reserved_ = stride_ * count + kGuardBytes;
  // One guard region and one stack area per rank, on top of what the process maps.
  const long limit = read_long("/proc/sys/vm/max_map_count");
  const long need = 2 * static_cast<long>(count) + mappings_now() + 4096;
  guarded_ = limit < 0 || need <= limit;
  if (!guarded_) first_unguarded_ = 0;
  if (!guarded_)
    reason_ = "the kernel allows " + std::to_string(limit) + " memory mappings (vm.max_map_count) and guarded stacks for " +
              std::to_string(count) + " ranks need about " + std::to_string(need);
  void* p = mmap(nullptr, reserved_, guarded_ ? PROT_NONE : PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    throw std::runtime_error("cannot reserve " + std::to_string(reserved_ >> 20) + " MiB of address space for " +
                             std::to_string(count) + " stacks of " + std::to_string(bytes_ >> 10) +
                             " KiB (" + std::strerror(errno) + "); a smaller --stack-size or fewer ranks may fit");
  base_ = static_cast<std::byte*>(p);
}

Stacks::~Stacks() {
  if (base_) munmap(base_, reserved_);
}

void Stacks::prepare(std::uint32_t i) {
  std::byte* lo = low(i);
  if (guarded_) {
    if (mprotect(lo, bytes_, PROT_READ | PROT_WRITE) == 0) return;
    // The mapping limit was reached after all (another part of the process mapped
    // more): this and the later stacks go unguarded, with markers.
    guarded_ = false;
    first_unguarded_ = i;
    reason_ = "the kernel's limit of memory mappings (vm.max_map_count) was reached at rank " + std::to_string(i);
    if (mprotect(lo - kGuardBytes, reserved_ - i * stride_, PROT_READ | PROT_WRITE) != 0)
      throw std::runtime_error(std::string("cannot make a rank's stack usable: ") + std::strerror(errno));
  }
  auto* words = reinterpret_cast<std::uint64_t*>(lo);
  for (std::size_t k = 0; k < kMarkerWords; ++k) words[k] = kMarker;
}

bool Stacks::intact(std::uint32_t i) const {
  if (i < first_unguarded_) return true;
  const auto* words = reinterpret_cast<const std::uint64_t*>(low(i));
  for (std::size_t k = 0; k < kMarkerWords; ++k)
    if (words[k] != kMarker) return false;
  return true;
}

std::int64_t Stacks::guard_of(const void* addr) const {
  const auto* a = static_cast<const std::byte*>(addr);
  if (a < base_ || a >= base_ + reserved_) return -1;
  const auto off = static_cast<std::size_t>(a - base_);
  const std::size_t i = off / stride_;
  if (off % stride_ >= kGuardBytes) return -1;  // inside a stack, not its guard
  // The guard below stack i; the last guard (above the last stack) is nobody's.
  return i < count_ ? static_cast<std::int64_t>(i) : -1;
}

void Fiber::start(std::byte* low, std::size_t size, Entry entry) {
  low_ = low;
  size_ = size;
  entry_ = entry;
  finished_ = false;
  ctx_ = ctx::make_fcontext(low + size, size, [](ctx::transfer_t t) { trampoline(&t); });
}

void Fiber::trampoline(void* transfer) {
  auto* t = static_cast<ctx::transfer_t*>(transfer);
  auto* self = static_cast<Fiber*>(t->data);
  self->caller_ = t->fctx;
#ifdef MPISIM_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(nullptr, &self->caller_bottom_, &self->caller_size_);
#endif
  self->entry_(*self);
  self->finished_ = true;
#ifdef MPISIM_ASAN_FIBERS
  __sanitizer_start_switch_fiber(nullptr, self->caller_bottom_, self->caller_size_);  // this stack is done
#endif
  ctx::jump_fcontext(self->caller_, nullptr);  // never resumed
  __builtin_unreachable();
}

void Fiber::resume() {
#ifdef MPISIM_ASAN_FIBERS
  void* save = nullptr;
  __sanitizer_start_switch_fiber(&save, low_, size_);
#endif
  ctx::transfer_t t = ctx::jump_fcontext(ctx_, this);
  ctx_ = t.fctx;
#ifdef MPISIM_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(save, nullptr, nullptr);
#endif
}

void Fiber::yield() {
#ifdef MPISIM_ASAN_FIBERS
  __sanitizer_start_switch_fiber(&fake_stack_, caller_bottom_, caller_size_);
#endif
  ctx::transfer_t t = ctx::jump_fcontext(caller_, nullptr);
  caller_ = t.fctx;
#ifdef MPISIM_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(fake_stack_, &caller_bottom_, &caller_size_);
#endif
}

// ---- the fault handler
namespace {

const Stacks* g_stacks = nullptr;
DescribeFault g_doing = nullptr;
bool g_installed = false;
struct sigaction g_old_segv, g_old_bus;
alignas(16) std::byte g_alt_stack[64 * 1024];

void put(char*& p, char* end, const char* s) {
  while (*s && p < end) *p++ = *s++;
}
void put_num(char*& p, char* end, std::uint64_t v) {
  char digits[24];
  int n = 0;
  do digits[n++] = static_cast<char>('0' + v % 10), v /= 10;
  while (v);
  while (n > 0 && p < end) *p++ = digits[--n];
}

void on_fault(int sig, siginfo_t* info, void*) {
  char msg[1024];
  char* p = msg;
  char* end = msg + sizeof msg - 2;
  const std::int64_t rank = g_stacks ? g_stacks->guard_of(info->si_addr) : -1;
  put(p, end, "mpisim: error: ");
  if (rank >= 0) {
    put(p, end, "rank ");
    put_num(p, end, static_cast<std::uint64_t>(rank));
    put(p, end, " overflowed its stack of ");
    put_num(p, end, g_stacks->size() >> 10);
    put(p, end, " KiB (--stack-size sets it; a real process has 8 MiB)");
  } else {
    put(p, end, sig == SIGBUS ? "bus error" : "segmentation fault");
    put(p, end, " at address ");
    put_num(p, end, reinterpret_cast<std::uintptr_t>(info->si_addr));
    char what[512] = "";
    if (g_doing) g_doing(what, sizeof what);
    if (what[0]) {
      put(p, end, " ");
      put(p, end, what);
    }
  }
  *p++ = '\n';
  ssize_t ignored = write(2, msg, static_cast<std::size_t>(p - msg));
  (void)ignored;
  _exit(2);
}

}  // namespace

void install_fault_handler(const Stacks* stacks, DescribeFault doing) {
  g_stacks = stacks;
  g_doing = doing;
  if (g_installed) return;
  stack_t ss{};
  ss.ss_sp = g_alt_stack;
  ss.ss_size = sizeof g_alt_stack;
  sigaltstack(&ss, nullptr);
  struct sigaction sa {};
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, &g_old_segv);
  sigaction(SIGBUS, &sa, &g_old_bus);
  g_installed = true;
}

void uninstall_fault_handler() {
  if (!g_installed) return;
  sigaction(SIGSEGV, &g_old_segv, nullptr);
  sigaction(SIGBUS, &g_old_bus, nullptr);
  g_stacks = nullptr;
  g_doing = nullptr;
  g_installed = false;
}

}  // namespace mpisim::program
