// mpisim explain over every shipped scenario: each step's printed arguments are
// the ones each rank called with, as the run's trace records them.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include <unistd.h>

#include "sim/cli/app.hpp"

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

int cli(std::vector<std::string> args, std::string* out_text) {
  args.insert(args.begin(), "mpisim");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  const int code = mpisim::cli::run_cli(static_cast<int>(argv.size()), argv.data(), out, err);
  if (out_text) *out_text = out.str();
  return code;
}

// "0..3, 5" -> {0, 1, 2, 3, 5}
std::vector<std::int64_t> ranks_of(const std::string& list) {
  std::vector<std::int64_t> out;
  std::stringstream in(list);
  for (std::string part; std::getline(in, part, ',');) {
    part.erase(0, part.find_first_not_of(' '));
    const auto dots = part.find("..");
    const std::int64_t lo = std::stoll(part.substr(0, dots)), hi = dots == std::string::npos ? lo : std::stoll(part.substr(dots + 2));
    for (std::int64_t r = lo; r <= hi; ++r) out.push_back(r);
  }
  return out;
}

// "a=1, b=[1,2], c=x" -> {a: "1", b: "[1,2]", c: "x"}
std::map<std::string, std::string> args_of(const std::string& text) {
  std::map<std::string, std::string> out;
  static const std::regex split(", (?=[a-z_][a-z_0-9]*=)");
  for (std::sregex_token_iterator it(text.begin(), text.end(), split, -1), end; it != end; ++it) {
    const std::string a = *it;
    const auto eq = a.find('=');
    if (eq != std::string::npos) out[a.substr(0, eq)] = a.substr(eq + 1);
  }
  return out;
}

struct Printed {
  std::map<std::string, std::string> args;
  std::vector<std::int64_t> ranks;  // empty: every rank that ran the step
};

// The signatures explain printed, by step.
std::map<std::string, std::vector<Printed>> parse_explain(const std::string& text) {
  std::map<std::string, std::vector<Printed>> steps;
  static const std::regex single(R"(^(/\S+)  (MPI_\w+)\((.*)\)$)");
  static const std::regex differ(R"(^(/\S+)  MPI_\w+, called with different arguments:$)");
  static const std::regex group(R"(^  ranks? ([0-9., ]+?)(?: \((?:the root|not the root)\))?: MPI_\w+\((.*)\)$)");
  std::string path;
  std::stringstream in(text);
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_match(line, m, single)) {
      path = m[1];
      steps[path].push_back({args_of(m[3]), {}});
    } else if (std::regex_match(line, m, differ)) {
      path = m[1];
      steps[path];
    } else if (!path.empty() && std::regex_match(line, m, group)) {
      steps[path].push_back({args_of(m[2]), ranks_of(m[1])});
    } else if (line.empty()) {
      path.clear();
    }
  }
  return steps;
}

}  // namespace

TEST_CASE("explain prints each rank's own arguments, as the run used them, for every shipped scenario") {
  fs::current_path(MPISIM_SOURCE_DIR);
  const fs::path trace_file = fs::temp_directory_path() / ("mpisim-explain-" + std::to_string(::getpid()) + ".json");
  std::size_t checked = 0;
  for (const auto& e : fs::recursive_directory_iterator("scenarios")) {
    if (!e.is_regular_file() || e.path().extension() != ".json" || e.path().parent_path().filename() == "networks") continue;
    const std::string file = e.path().generic_string();
    CAPTURE(file);
    std::string text;
    const int explained = cli({"explain", file}, &text);
    if (cli({"run", file, "--out", trace_file.string(), "-q"}, nullptr) == 2 && !fs::exists(trace_file)) continue;
    CHECK(explained != 1);
    std::ifstream in(trace_file);
    Json trace = Json::parse(in, nullptr, false);
    fs::remove(trace_file);
    if (trace.is_discarded() || !trace.contains("calls")) continue;
    const auto steps = parse_explain(text);
    for (const auto& call : trace["calls"]) {
      if (!call.contains("args") || !call["args"].contains("path")) continue;
      const std::string path = call["args"]["path"];
      const std::int64_t rank = call["rank"];
      CAPTURE(path);
      CAPTURE(rank);
      auto step = steps.find(path);
      REQUIRE_MESSAGE(step != steps.end(), "explain printed no signature for the step");
      // A step in a loop is called with other arguments each time: one of its
      // signatures for this rank is this call's.
      auto same = [&](const Printed& p) {
        if (!p.ranks.empty() && std::find(p.ranks.begin(), p.ranks.end(), rank) == p.ranks.end()) return false;
        for (const auto& [name, value] : p.args) {
          if (!call["args"].contains(name)) return false;
          const Json& v = call["args"][name];
          if (value != (v.is_string() ? v.get<std::string>() : v.dump())) return false;
        }
        return true;
      };
      CHECK_MESSAGE(std::any_of(step->second.begin(), step->second.end(), same),
                    "no signature explain printed for the step is this rank's call: " << call["args"].dump());
      ++checked;
    }
  }
  CHECK(checked > 1000);  // calls
}
