// The call table is the one description of the calls: every row complete, and
// what is made from it (docs/calls.md, the schema's list of calls, mpi.h) the
// same as what it gives today.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/calls/c_binding.hpp"
#include "model/calls/table.hpp"
#include "model/scenario/scenario.hpp"
#include "sim/cli/calls.hpp"
#include "sim/cli/types.hpp"
#include "sim/input_error.hpp"
#include "tests/support.hpp"

using mpisim::test::slurp;

using namespace mpisim;

namespace {
}  // namespace

TEST_CASE("every call has a complete row: name, parameters, summary, section, definition") {
  const auto& specs = calls::call_specs();
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
      CHECK(std::string(p.name) == calls::param_name(p.id));
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
  CHECK(specs.size() == calls::kCallIds);
  for (const calls::CallAlias& a : calls::call_aliases()) {
    INFO(a.name);
    CHECK(names.count(a.stands_for) == 1);
    CHECK(names.count(a.name) == 0);
    CHECK(calls::c_declares(a.name));
    CHECK(calls::find_call(a.name) == calls::find_call(a.stands_for));
    CHECK(calls::c_declares("P" + std::string(a.name)));
  }
  CHECK(calls::c_declares("PMPI_Send"));
  CHECK_FALSE(calls::c_declares("PMPI_Sendx"));
  CHECK_FALSE(calls::c_declares("MPI_Barrier_c"));  // no count, no large-count form
}

TEST_CASE("large-count forms: counts are MPI_Count, displacements MPI_Aint, every other parameter as it was") {
  CHECK(calls::large_count_params("void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm") ==
        "void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm");
  CHECK(calls::large_count_params("const void *sendbuf, const int sendcounts[], const int sdispls[], "
                                  "MPI_Datatype sendtype, void *recvbuf, int recvcount") ==
        "const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, "
        "void *recvbuf, MPI_Count recvcount");
  CHECK(calls::large_count_params("const MPI_Aint rdispls[], int tag") == "const MPI_Aint rdispls[], int tag");
  // Every collective with a count has its large-count form, in mpi.h too.
  std::set<std::string> aliases;
  for (const calls::CallAlias& a : calls::call_aliases()) aliases.insert(a.name);
  std::ostringstream header;
  calls::write_prototypes(header);
  for (const calls::CallSpec& c : calls::call_specs()) {
    if (!calls::collective_row(c)) continue;
    INFO(c.name);
    const bool counted = std::string(c.c_params).find("count") != std::string::npos;
    CHECK(aliases.count(std::string(c.name) + "_c") == (counted ? 1u : 0u));
    if (counted) CHECK(header.str().find(" " + std::string(c.name) + "_c(") != std::string::npos);
    CHECK(header.str().find(" P" + std::string(c.name) + "(") != std::string::npos);
  }
}

namespace {
// The parameter names of a C parameter list: "const int ranks[], int (*f)(int)" -> ranks, f.
std::vector<std::string> c_names(const std::string& params) {
  std::vector<std::string> names;
  if (params == "void") return names;
  std::size_t from = 0;
  while (from <= params.size()) {
    std::size_t to = params.find(',', from);
    if (to == std::string::npos) to = params.size();
    std::string p = params.substr(from, to - from);
    if (const auto b = p.find('['); b != std::string::npos) p.erase(b);
    std::size_t end = p.find_last_not_of(" )");
    std::size_t begin = p.find_last_of(" *(", end);
    names.push_back(p.substr(begin + 1, end - begin));
    from = to + 1;
  }
  return names;
}
}  // namespace

TEST_CASE("every row's C prototype names the standard's parameters") {
  for (const calls::CallSpec& c : calls::call_specs()) {
    INFO(c.name << "(" << c.c_params << ")");
    REQUIRE(c.c_params != nullptr);
    CHECK((std::string(c.c_result) == "int" || std::string(c.c_result) == "double" ||
           std::string(c.c_result) == "MPI_Aint"));
    std::set<std::string> params;
    for (const auto& p : c.params) params.insert(p.name);
    // C gives every parameter the row has, but the results a scenario binds to a
    // name where C returns them (MPI_Wtime's result) or writes them into a buffer.
    for (const std::string& n : c_names(c.c_params)) {
      INFO(n);
      CHECK(params.count(n) == 1);
    }
  }
}

TEST_CASE("mpi.h is the template with one prototype per row and alias") {
  const std::string tmpl = slurp(MPISIM_SOURCE_DIR "/include/mpi.h.in");
  std::ostringstream want;
  calls::write_mpi_h(want, tmpl);
  INFO("the build writes it: build/include/mpi.h");
  CHECK(slurp(MPISIM_GENERATED_INCLUDE "/mpi.h") == want.str());
  for (const calls::CallSpec& c : calls::call_specs()) {
    INFO(c.name);
    CHECK(want.str().find(std::string(c.c_result) + " " + c.name + "(" + c.c_params + ");\n") != std::string::npos);
  }
  std::ostringstream none;
  CHECK_THROWS_AS(calls::write_mpi_h(none, "no marker\n"), std::runtime_error);
}

TEST_CASE("a scenario may not make the calls only C programs make") {
  for (const calls::CallSpec& c : calls::call_specs())
    if (c.c_only) {
      INFO(c.name);
      const std::string text = std::string(R"({"mpisim": 1, "ranks": 2, "program": [{"call": ")") + c.name + R"("}]})";
      try {
        scenario::parse_scenario(text, "c-only.json");
        FAIL("accepted");
      } catch (const sim::InputError& e) {
        CHECK(std::string(e.what()).find("is not a scenario's call") != std::string::npos);
      }
    }
}

TEST_CASE("docs/calls.md is what mpisim --list-calls markdown prints") {
  std::ostringstream out;
  REQUIRE(cli::print_calls(out, "markdown"));
  INFO("regenerate it: build/mpisim --list-calls markdown > docs/calls.md");
  CHECK(out.str() == slurp(MPISIM_SOURCE_DIR "/docs/calls.md"));
}

TEST_CASE("docs/types.md is what mpisim --list-types markdown prints") {
  std::ostringstream out;
  REQUIRE(cli::print_types(out, "markdown"));
  INFO("regenerate it: build/mpisim --list-types markdown > docs/types.md");
  CHECK(out.str() == slurp(MPISIM_SOURCE_DIR "/docs/types.md"));
}

TEST_CASE("the scenario schema lists exactly the calls of the table") {
  std::ostringstream out;
  REQUIRE(cli::print_calls(out, "json"));
  const auto want = nlohmann::json::parse(out.str());
  const auto schema = nlohmann::json::parse(slurp(MPISIM_SOURCE_DIR "/docs/schema/scenario.schema.json"));
  nlohmann::json listed;
  for (const auto& step : schema["$defs"]["step"]["oneOf"])
    if (step.contains("properties") && step["properties"].contains("call")) listed = step["properties"]["call"]["enum"];
  INFO("regenerate the list: build/mpisim --list-calls json");
  CHECK(listed == want);
}
