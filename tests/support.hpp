#pragma once
// Helpers shared by the tests: run scenarios given as text, on networks given as text.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "model/net/network_file.hpp"
#include "model/scenario/run.hpp"
#include "model/scenario/scenario.hpp"
#include "sim/input_error.hpp"

namespace mpisim::test {

// A file's whole contents ("" when it cannot be read).
inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline runner::Result run_text(const std::string& scenario_json, std::int64_t ranks,
                                    const std::string& network_json = "",
                                    mpi::PayloadMode mode = mpi::PayloadMode::data) {
  scenario::Scenario sc = scenario::parse_scenario(scenario_json, "test.json");
  net::Network n = network_json.empty() ? net::default_network() : net::parse_network(network_json, "net.json");
  runner::Config cfg;
  cfg.ranks = ranks;
  cfg.payload = mode;
  return scenario::run_scenario(sc, n, cfg);
}

// The message a scenario text is refused with, or "no error".
inline std::string parse_error(const std::string& text) {
  try {
    scenario::parse_scenario(text, "s.json");
  } catch (const sim::InputError& e) {
    return e.what();
  }
  return "no error";
}
inline bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The first diagnostic's code, or "" when the run was clean.
inline std::string first_code(const runner::Result& r) {
  return r.trace.diagnostics().empty() ? "" : r.trace.diagnostics().front().code;
}

}  // namespace mpisim::test
