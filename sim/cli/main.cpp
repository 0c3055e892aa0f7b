#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "sim/cli/app.hpp"

namespace {

// A crash of mpisim itself (a bug) ends with a message and exit status 1, never a
// bare signal. The handler runs on a stack of its own, so a stack overflow is
// reported too; it only writes and exits (what a signal handler may do).
// Sanitizer builds keep their own handlers, whose reports say more.
#if defined(__SANITIZE_ADDRESS__)
#define MPISIM_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MPISIM_SANITIZED 1
#endif
#endif

#ifndef MPISIM_SANITIZED
[[noreturn]] void crashed(int sig) {
  const char* what = sig == SIGSEGV ? "a segmentation fault (an invalid memory access or a stack overflow)"
                     : sig == SIGBUS ? "a bus error"
                     : sig == SIGFPE ? "an arithmetic fault"
                     : sig == SIGILL ? "an illegal instruction"
                                     : "an abort";
  const char* head = "mpisim: internal error: mpisim itself failed with ";
  const char* tail = "; this is a bug in mpisim, not in the simulated program: please report it with the scenario "
                     "and the command line\n";
  ssize_t ignored = ::write(STDERR_FILENO, head, std::strlen(head));
  ignored = ::write(STDERR_FILENO, what, std::strlen(what));
  ignored = ::write(STDERR_FILENO, tail, std::strlen(tail));
  (void)ignored;
  ::_exit(1);
}
#endif

void install_crash_handlers() {
#ifndef MPISIM_SANITIZED
  static char stack[1 << 16];
  stack_t ss{};
  ss.ss_sp = stack;
  ss.ss_size = sizeof stack;
  ::sigaltstack(&ss, nullptr);
  struct sigaction sa {};
  sa.sa_handler = crashed;
  sa.sa_flags = SA_ONSTACK;
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::sigaction(sig, &sa, nullptr);
#endif
}

// A run allocates and frees message payloads at event rate. glibc would give the
// top of its heap back after such frees and take it again soon after, and each of
// those calls (brk) waits while the helper thread populates buffer memory (it
// holds the address space's lock: sim/bulk.hpp). The heap grows in larger steps
// instead and keeps up to 64 MiB free at its top; pages are still touched only
// when used. Setting these turns off glibc's own raising of the size from which
// a block gets a mapping of its own (mmap and munmap wait the same way), so that
// size is set where glibc would raise it to: 32 MiB.
void tune_heap() {
#if defined(__GLIBC__)
  mallopt(M_TOP_PAD, 16 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
}

}  // namespace

int main(int argc, char** argv) {
  install_crash_handlers();
  tune_heap();
  return mpisim::cli::run_cli(argc, argv, std::cout, std::cerr);
}
