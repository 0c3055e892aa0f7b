#pragma once
// Running a parsed scenario: one coroutine per rank over the MPI library, on the
// runner every front-end shares (model/runner).
#include "model/net/network_file.hpp"
#include "model/runner/run.hpp"
#include "model/scenario/scenario.hpp"

namespace mpisim::scenario {

// Runs `sc` on `net`. Never throws for a problem of the simulated program: those
// become diagnostics in the result (outcome erroneous). Throws only for mpisim's
// own failures. The scenario's "progress" applies unless `cfg` sets it.
runner::Result run_scenario(const Scenario& sc, net::Network& net, const runner::Config& cfg);

}  // namespace mpisim::scenario
