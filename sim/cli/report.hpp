#pragma once
// What mpisim prints and writes: the trace JSON and the terminal summary.
#include <ostream>
#include <string>

#include "model/net/network_file.hpp"
#include "model/scenario/run.hpp"
#include "model/scenario/scenario.hpp"

namespace mpisim::cli {

inline constexpr const char* kVersion = "0.1.0";
inline constexpr const char* kTraceSchema = "mpisim-trace/1";

std::string trace_json(const scenario::Scenario& sc, const net::Network& net, const scenario::RunResult& r);
void print_summary(std::ostream& out, const scenario::Scenario& sc, const net::Network& net,
                   const scenario::RunResult& r);
// One readable line per diagnostic (plus indented detail lines).
void print_diagnostics(std::ostream& err, const scenario::RunResult& r);

}  // namespace mpisim::cli
