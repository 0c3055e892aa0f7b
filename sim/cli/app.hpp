#pragma once
// The mpisim command line, callable in-process (tests run it this way).
#include <ostream>

namespace mpisim::cli {

// Returns the exit status: 0 clean, 2 the scenario or simulated program is wrong
// (or an expectation failed), 1 mpisim itself failed.
int run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace mpisim::cli
