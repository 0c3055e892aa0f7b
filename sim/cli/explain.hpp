#pragma once
#include <ostream>

#include "model/net/network_file.hpp"
#include "model/scenario/run.hpp"
#include "model/scenario/scenario.hpp"

namespace mpisim::cli {

// Prints each step with the standard's definition, this run's values and the
// buffers it changed at each rank (the run must have runner::Config::explain set).
void print_explanation(std::ostream& out, const scenario::Scenario& sc, const net::Network& net,
                       const runner::Result& r);

}  // namespace mpisim::cli
