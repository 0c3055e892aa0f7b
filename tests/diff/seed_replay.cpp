// Differential test of the seed collectives, mpisim's side: reads the lines
// seed_oracle printed under a real MPI ("<scenario> <rank> <buffer> <values...>"),
// runs each scenario of scenarios/seed/ in mpisim (data mode, verified) and
// compares the buffer as its last `show` step saw it on that rank. The oracle may
// print a prefix only (where the standard leaves the rest undefined); the prefix
// is compared. Prints "N passed, M failed" and exits non-zero on any mismatch.
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "model/net/network_file.hpp"
#include "model/scenario/run.hpp"
#include "model/scenario/scenario.hpp"

using namespace mpisim;
using Values = std::vector<std::int64_t>;
using Key = std::tuple<std::string, std::int64_t, std::string>;  // (scenario, rank, buffer)

namespace {

// The last snapshot of every (rank, buffer) of one scenario's run.
std::map<std::pair<std::int64_t, std::string>, Values> run(const std::string& scenario) {
  std::string path = std::string(MPISIM_SOURCE_DIR) + "/scenarios/seed/" + scenario + ".json";
  scenario::Scenario sc = scenario::load_scenario(path);
  net::Network n = net::default_network();
  runner::Config cfg;
  cfg.ranks = sc.ranks.value_or(4);
  cfg.payload = mpi::PayloadMode::data;
  cfg.trace_level = sim::TraceLevel::full;
  cfg.verify = true;
  runner::Result r = scenario::run_scenario(sc, n, cfg);
  if (r.outcome != runner::Outcome::clean) throw std::runtime_error(scenario + ": the mpisim run is not clean");
  std::map<std::pair<std::int64_t, std::string>, Values> out;
  for (const sim::Snapshot& s : r.trace.snapshots()) {
    nlohmann::json body = nlohmann::json::parse(s.json);
    // The body of a buffer's snapshot: {"type": ..., "count": ..., "values": [...]}.
    if (body.contains("values")) out[{s.process, s.name}] = body["values"].get<Values>();
  }
  return out;
}

}  // namespace

int main() {
  std::map<std::string, std::map<std::pair<std::int64_t, std::string>, Values>> runs;
  std::int64_t passed = 0, failed = 0;
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string scenario, buffer;
    std::int64_t rank = 0;
    if (!(in >> scenario >> rank >> buffer)) continue;
    Values want;
    for (std::int64_t x; in >> x;) want.push_back(x);
    if (!runs.count(scenario)) {
      try {
        runs[scenario] = run(scenario);
      } catch (const std::exception& e) {
        std::cout << "FAIL " << scenario << ": " << e.what() << "\n";
        ++failed;
        continue;
      }
    }
    const auto& snaps = runs[scenario];
    auto it = snaps.find({rank, buffer});
    std::string where = scenario + " rank " + std::to_string(rank) + " " + buffer;
    if (it == snaps.end()) {
      std::cout << "FAIL " << where << ": the scenario shows no such buffer\n";
      ++failed;
      continue;
    }
    const Values& got = it->second;
    bool same = got.size() >= want.size();
    std::size_t at = 0;
    for (; same && at < want.size(); ++at)
      if (got[at] != want[at]) same = false;
    if (same) {
      ++passed;
    } else {
      ++failed;
      std::cout << "FAIL " << where << ": element " << (at ? at - 1 : 0) << " (mpisim has " << got.size()
                << " elements, the MPI " << want.size() << ")\n";
    }
  }
  std::cout << passed << " passed, " << failed << " failed\n";
  return failed == 0 && passed > 0 ? 0 : 1;
}
