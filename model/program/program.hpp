#pragma once
// C programs as a front-end of the MPI library: a program compiled against
// mpisim's mpi.h (mpisim cc) is loaded into this process, and each rank runs its
// main on a fiber of its own; every MPI call it makes is a call into model/mpi and
// model/coll, which check it against the standard. docs/c-programs.md describes
// what a program may do, the mechanisms and their limits.
#include <cstddef>
#include <string>
#include <vector>

#include "model/net/network_file.hpp"
#include "model/runner/run.hpp"

namespace mpisim::program {

// A program loaded once, its globals as they are before any rank runs.
class Loaded {
 public:
  // Throws sim::InputError (a user error) when `path` is not a program built by
  // `mpisim cc`.
  explicit Loaded(const std::string& path);
  ~Loaded();
  Loaded(const Loaded&) = delete;
  Loaded& operator=(const Loaded&) = delete;

  using Main = int (*)(int, char**, char**);
  const std::string& path() const { return path_; }
  void* handle() const { return handle_; }
  Main main() const { return main_; }

 private:
  std::string path_;
  void* handle_ = nullptr;
  Main main_ = nullptr;
};

// Whether the file at `path` is an ELF object (a program), not a scenario.
bool is_program_file(const std::string& path);

struct Options {
  std::vector<std::string> args;              // each rank's argv[1], argv[2], ...
  std::size_t stack_bytes = std::size_t{1} << 20;
  // Each line a rank writes to stdout or stderr starts with "[rank] " (mpiexec -l).
  bool label_output = false;
  // The program's own code costs the host CPU time it took (measured per rank
  // between its MPI calls), not nothing: a run is then not deterministic.
  bool host_compute = false;
};

// Runs the program on every rank. Never throws for a problem of the program: an
// erroneous MPI call, a deadlock, MPI_Abort, a rank's nonzero exit status become
// diagnostics (exit_status tells the status mpiexec would give). Throws
// std::runtime_error for mpisim's own failures (no address space for stacks).
struct ProgramResult {
  runner::Result run;
  int exit_status = 0;  // MPI_Abort's errorcode, or the first nonzero status a rank exited with; else 0
  bool stacks_guarded = true;
  std::string unguarded_reason;
};
ProgramResult run_program(const Loaded& program, net::Network& net, const runner::Config& cfg,
                          const Options& opt);

}  // namespace mpisim::program
