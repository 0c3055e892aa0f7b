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

std::string trace_json(const scenario::Scenario& sc, const net::Network& net, const runner::Result& r);
// The run in the Trace Event Format (chrome://tracing, Perfetto): ranks as
// threads, calls as complete events, messages as flow events.
std::string chrome_trace_json(const scenario::Scenario& sc, const runner::Result& r);
// The trace viewer with this trace embedded: one page that opens offline.
std::string html_page(const std::string& trace_json);
void print_summary(std::ostream& out, const scenario::Scenario& sc, const net::Network& net,
                   const runner::Result& r);
// A snapshot body ({"values": [...]}) as a short line: runs folded, 12 items at most.
std::string compact_snapshot(const std::string& body);
// One readable line per diagnostic (plus indented detail lines).
void print_diagnostics(std::ostream& err, const runner::Result& r);

}  // namespace mpisim::cli
