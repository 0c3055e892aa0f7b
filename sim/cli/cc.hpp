#pragma once
// mpisim cc: compiles and links a C MPI program for mpisim run.
#include <iostream>
#include <ostream>

namespace mpisim::cli {

// Runs the C compiler on `args` with mpisim's mpi.h and the flags a program run
// by mpisim needs; returns the exit status (0, or 2 when compiling failed).
int compile_program(int argc, const char* const* args, std::ostream& err);

}  // namespace mpisim::cli
