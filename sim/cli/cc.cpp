// mpisim cc: the C compiler with mpisim's headers, building a program as a shared
// object that mpisim run loads once and runs on every rank (docs/c-programs.md).
#include "sim/cli/cc.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

extern char** environ;

namespace mpisim::cli {

namespace {

// The folder of mpi.h and mpisim.h: $MPISIM_INCLUDE, else the build's (mpi.h is written
// from the call table when mpisim is built).
std::string include_dir() {
  if (const char* e = std::getenv("MPISIM_INCLUDE"); e && *e) return e;
  return MPISIM_INCLUDE_DIR;
}

void usage(std::ostream& out) {
  out << "Usage: mpisim cc [compiler arguments...]\n"
         "Compiles and links a C MPI program for `mpisim run`, as mpicc does for mpiexec: the arguments\n"
         "go to the C compiler ($MPISIM_CC, default cc) with mpisim's mpi.h and mpisim.h on the include\n"
         "path. Linking makes a shared object (position-independent, every symbol bound at load, exit()\n"
         "routed to mpisim) that mpisim run loads once and runs on every rank. -c, -S and -E only compile.\n"
         "  -show   print the compiler command instead of running it\n"
         "Examples:\n"
         "  mpisim cc -O2 -g ring.c -o ring\n"
         "  mpisim run ring --ranks 8 -- 100\n";
}

}  // namespace

int compile_program(int argc, const char* const* args, std::ostream& err) {
  std::vector<std::string> user(args, args + argc);
  if (user.empty() || (user.size() == 1 && (user[0] == "--help" || user[0] == "-h"))) {
    usage(user.empty() ? err : std::cout);
    return user.empty() ? 2 : 0;
  }
  bool show = false, link = true;
  std::vector<std::string> rest;
  for (const auto& a : user) {
    if (a == "-show") {
      show = true;
      continue;
    }
    if (a == "-c" || a == "-S" || a == "-E" || a == "-M" || a == "-MM") link = false;
    rest.push_back(a);
  }
  const std::string inc = include_dir();
  if (!std::filesystem::exists(std::filesystem::path(inc) / "mpi.h")) {
    err << "mpisim cc: mpisim's mpi.h is not in " << inc << " (set MPISIM_INCLUDE to the folder that holds it)\n";
    return 1;
  }
  const char* cc = std::getenv("MPISIM_CC");
  // Stack probes: a frame larger than the guard below a rank's stack touches the
  // guard instead of jumping over it into another rank's stack.
  // A call mpi.h does not declare is an error on every compiler, not a warning
  // (GCC 12 and older only warn) and a program that fails to load.
  std::vector<std::string> cmd{cc && *cc ? cc : "cc", "-I" + inc, "-fPIC", "-fstack-clash-protection",
                               "-Werror=implicit-function-declaration"};
  if (link) {
    // A shared object: loaded by mpisim run. Relocations are resolved at load, so
    // the writable data mpisim swaps per rank holds no lazily bound entries; exit()
    // ends the calling rank, not mpisim.
    // -Bsymbolic: the program's own definitions win over the C library's (a
    // program's random() or a global named as a libc one stays the program's).
    for (const char* f : {"-shared", "-Wl,-Bsymbolic", "-Wl,-z,now", "-Wl,-z,relro", "-Wl,--wrap=exit"})
      cmd.emplace_back(f);
  }
  cmd.insert(cmd.end(), rest.begin(), rest.end());
  if (show) {
    for (std::size_t i = 0; i < cmd.size(); ++i) std::cout << (i ? " " : "") << cmd[i];
    std::cout << "\n";
    return 0;
  }
  std::vector<char*> argv;
  for (auto& c : cmd) argv.push_back(c.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (int e = posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ); e != 0) {
    err << "mpisim cc: cannot run the C compiler '" << argv[0] << "' (set MPISIM_CC to one)\n";
    return 2;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 2;
}

}  // namespace mpisim::cli
