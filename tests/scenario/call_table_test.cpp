// The call table is the one description of the calls: every row complete, and
// what is made from it (docs/calls.md, the schema's list of calls) the same as
// what it gives today.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "model/scenario/scenario.hpp"
#include "sim/cli/calls.hpp"
#include "sim/cli/types.hpp"

using namespace mpisim;

namespace {
std::string slurp(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

TEST_CASE("every call has a complete row: name, parameters, summary, section, definition") {
  const auto& specs = scenario::call_specs();
  std::set<std::string> names;
  std::set<int> ids;
  for (const auto& c : specs) {
    INFO(c.name);
    CHECK(std::string(c.name).rfind("MPI_", 0) == 0);
    CHECK(names.insert(c.name).second);
    CHECK(ids.insert(static_cast<int>(c.id)).second);
    CHECK(std::string(c.summary).size() > 5);
    CHECK(std::string(c.section).rfind("MPI-", 0) == 0);
    CHECK(std::string(c.section).find("§") != std::string::npos);
    const std::string def = c.definition;
    CHECK(def.size() > 10);
    std::set<std::string> params;
    for (const auto& p : c.params) {
      CHECK(std::string(p.name) == scenario::param_name(p.id));
      params.insert(p.name);
    }
    // Every {placeholder} of the definition is one of the call's parameters.
    for (std::size_t at = def.find('{'); at != std::string::npos; at = def.find('{', at + 1)) {
      const std::size_t end = def.find('}', at);
      REQUIRE(end != std::string::npos);
      const std::string p = def.substr(at + 1, end - at - 1);
      INFO("{" << p << "}");
      CHECK(params.count(p) == 1);
    }
  }
  // Every call the executor knows has its row.
  CHECK(specs.size() == scenario::kCallIds);
  for (const auto& [old_name, new_name] : scenario::call_aliases()) CHECK(names.count(std::string(new_name)) == 1);
}

TEST_CASE("docs/calls.md is what mpisim --list-calls markdown prints") {
  std::ostringstream out;
  REQUIRE(cli::print_calls(out, "markdown"));
  INFO("regenerate it: build/mpisim --list-calls markdown > docs/calls.md");
  CHECK(out.str() == slurp("docs/calls.md"));
}

TEST_CASE("docs/types.md is what mpisim --list-types markdown prints") {
  std::ostringstream out;
  REQUIRE(cli::print_types(out, "markdown"));
  INFO("regenerate it: build/mpisim --list-types markdown > docs/types.md");
  CHECK(out.str() == slurp("docs/types.md"));
}

TEST_CASE("the scenario schema lists exactly the calls of the table") {
  std::ostringstream out;
  REQUIRE(cli::print_calls(out, "json"));
  const auto want = nlohmann::json::parse(out.str());
  const auto schema = nlohmann::json::parse(slurp("docs/schema/scenario.schema.json"));
  nlohmann::json listed;
  for (const auto& step : schema["$defs"]["step"]["oneOf"])
    if (step.contains("properties") && step["properties"].contains("call")) listed = step["properties"]["call"]["enum"];
  INFO("regenerate the list: build/mpisim --list-calls json");
  CHECK(listed == want);
}

TEST_CASE("every call a scenario can make is declared in mpi.h for C programs") {
  std::ifstream in(std::string(MPISIM_SOURCE_DIR) + "/include/mpi.h");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  const std::string header = text.str();
  for (const scenario::CallSpec& c : scenario::call_specs()) {
    // A declaration: the name, then its parameter list (not a longer name).
    const std::string decl = std::string(c.name) + "(";
    INFO(c.name);
    CHECK(header.find(" " + decl) != std::string::npos);
  }
}
